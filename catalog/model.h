/*
 * catalog_model.h - the catalog in memory, as the encoder's stages read
 * it: PMUs, event tables, events, unit masks, modifiers and their rules.
 * What fills it (unpack.c) and what reads it (the rules, the family
 * encoders, the perf layer) need these types and nothing of the handle
 * that loads them (catalog.h), so that the loading calls down into them
 * and nothing calls back up.
 */
#ifndef PMUDB_CATALOG_MODEL_H
#define PMUDB_CATALOG_MODEL_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "catalog/arena.h"
#include "catalog/field_lists.h"
#include "catalog/landings.h"
#include "catalog/limits.h"
#include "catalog/name_index.h"
#include "pmudb.h"

/* The modifiers of libpfm's perf_events layer, which perf_layer.c applies
 * by kind; P_NONE for a PMU's own. */
enum perf_mod { P_U, P_K, P_H, P_PERIOD, P_FREQ, P_PRECISE, P_EXCL, P_MG, P_MH, P_CPU, P_PINNED, P_HW_SMPL, P_NONE };
enum perf_mod perf_modifier_kind(const char *name);

struct landing {
	int field;
	uint64_t mask;
};

/* A modifier's fstr key takes at least this many bytes. */
#define FSTR_KEY_COPY 16

/* Strings point into the table's blob. */
struct modifier {
	const char *name, *description;
	const char *fstr_key;	/* ":name=", as fstr shows it; zeros follow
				 * up to FSTR_KEY_COPY bytes */
	int fstr_key_len;
	bool is_integer, from_perf, probed;
	uint64_t default_value, min, max;
	int range_error;	/* libpfm's error past min..max (0: ATTR_VAL) */
	enum perf_mod perf_kind;
	int requires;		/* 1 needs this modifier non-zero, or -1 */
	int refused_error;	/* libpfm's error when it is missing */
	int nlandings;
	struct landing landings[4];
	int npresence;
	struct landing presence[3];	/* bits set whenever given */
	int nnonzero;
	struct landing nonzero[3];	/* bits set whenever the value is not 0 */
	bool has_shown;			/* fstr shows SHOWN whatever the value */
	uint64_t shown;
	bool inert_unless_implied;	/* lands only beside a unit mask implying it */
	int shown_from;			/* fstr shows this modifier's bits, or -1 */
	MODIFIER_PACKED_MEMBERS
};

/* Bit m of a modifier mask stands for the modifier at position m. */
/* How an event's fstr is printed: the runtime's (runtime/encode/fstr_form.h),
 * made once the event is decoded (catalog.h's finish_event). */
struct fstr_form;

struct modifier_set {
	int count;
	struct modifier *items;
	int ldlat;		/* position of "ldlat", or -1 */
	struct name_index by_name;
	struct word_index by_word;	/* the names that fit a word */
	uint64_t from_perf;	/* the perf_events layer's */
	uint64_t ranged;	/* checked against min..max when given */
	uint64_t requiring;	/* need another modifier non-zero */
	/* the forms its events print, by hidden modifiers (the runtime's) */
	const struct fstr_form *forms;
};

struct implied {
	int modifier;		/* position in the event's modifier set */
	uint64_t value;
	bool hardwired;
};

/* What browsing needs and the encoder does not, read from the rows on
 * first request (catalog_load_details). */
struct details {
	const char *description;
	const char *source;	/* the vendor file it comes from, or NULL (libpfm) */
	const char *why;	/* the override that changed it, or NULL */
};

struct event_details {
	struct details own;
	int numasks;
	struct details *umasks;
};

/* A unit mask: what an encoding asking for it reads first, in the first
 * of its two cache lines (an event's unit masks are aligned to them). */
struct umask {
	alignas(64) const char *name;
	const char *equiv;
	uint64_t code;
	uint64_t implies;	/* bit m: modifier m is among IMPLIED */
	int name_len;
	int group;		/* -1 for an equiv */
	int single_error;
	int nadded;
	bool is_default, retired;
	bool sets_event_select;	/* measured: replaces the event select */
	bool filter_layout;	/* measured: moves config2 into config1 bits 32-63 */
	bool code_is_filter;	/* measured: its code is a filter, not a umask value */
	bool takes_no_modifiers;	/* measured: libpfm gives no fstr and refuses
					 * the event's no_modifiers given non-zero */
	uint16_t *added;	/* positions of the defaults it gets alone */
	uint64_t unlocks;	/* bit m: makes hidden modifier m acceptable */
	int repeat_error;	/* given three times (two reach the encoder): 0 or libpfm's error */
	int nimplied;
	struct implied *implied;
	/* the unit masks the equiv names, count first, resolved when read
	 * (unpack.c's resolve_equiv); NULL: the encoder parses the equiv */
	const uint16_t *expansion;
	uint64_t filter_config1, filter_config2;	/* measured: config1, config2 bits it adds */
	uint64_t config_bits;	/* measured: config bits it adds (families that measure config) */
	UMASK_PACKED_MEMBERS
};

/* libpfm's refusal of a unit mask of group_a beside one of group_b: while
 * it reads the attributes, or once they are read (after_reading), when
 * (third_lifts) a third unit mask that goes with both, or modifier
 * lifted_by (-1: none), may lift it. */
struct group_rule {
	int group_a, group_b, error;
	bool after_reading, third_lifts;
	int lifted_by;
};

/* What libpfm adds to one pair, where the general rule does not hold. */
struct pair_default {
	uint16_t umask_a, umask_b;
	int nadded;
	uint16_t *added;
};

static inline uint32_t pair_key(const struct pair_default *pd)
{
	return (uint32_t)pd->umask_a << 16 | pd->umask_b;
}

/* Where a pair's KEY goes in event.pair_slots, before the mask. */
static inline uint32_t pair_slot(uint32_t key)
{
	uint32_t h = key * 0x9e3779b1u;
	return h ^ h >> 16;
}

/*
 * An event, in cache lines (it is aligned to them): what every encoding
 * reads first, then what unit masks read, then what rules, measured
 * registers and refusals read.  A warm pass after something else has run
 * meets each event cold, and every line it reads is a miss.
 */
struct event {
	/* the event found, and encoded with perf modifiers */
	alignas(64) const char *name;
	const struct modifier_set *modifiers;	/* never NULL */
	const char *equiv;
	/* the modifiers' part of fstr, laid out (fstr_form.h); NULL: none */
	const struct fstr_form *form;
	uint64_t hidden;	/* bit m: PMU modifier m left out of fstr unless given */
	int name_len;
	int perf_type;		/* INT32_MIN: the PMU's */
	/* its unit masks */
	struct name_index umask_by_name;	/* live unit masks */
	struct umask *umasks;
	uint64_t code;
	uint64_t implies;	/* the modifiers its unit masks imply (umask.implies) */
	int numasks;
	int nbare;
	int nrules, npairs;
	int16_t bare_error;	/* libpfm's error codes are small */
	int8_t bare_needs;	/* bare_error is lifted when this modifier is given; -1 */
	bool some_take_no_modifiers;	/* some unit mask's takes_no_modifiers */
	bool some_add_defaults;	/* some unit mask's nadded */
	bool some_unlock;	/* some unit mask's unlocks */
	bool umasks_in_config1;	/* measured: unit masks go to config1 */
	bool filters_given;	/* the unit masks' filter bits are stated values: applied */
	/* the rules, and what the other families read */
	uint16_t *bare_added;
	/* every unit mask some pair adds, once (the candidates beside the
	 * singles' defaults when three or more are asked) */
	int npair_added;
	/* the rules as a matrix, by group and group: the rule's index + 1
	 * (when the groups and rules are few; else rule_groups is 0 and the
	 * list is searched) */
	int rule_groups;
	uint32_t *rule_partners;	/* with the matrix, by group: the groups it has a rule with */
	uint8_t *rule_matrix;
	struct group_rule *rules;
	uint32_t pair_mask;
	bool is_precise, retired;
	bool config_measured;	/* config_base and the unit masks' config_bits are set */
	bool last_umask_wins;	/* the last unit mask asked replaces the others' codes */
	bool raw_layout_bit0;	/* a raw one's bit 0 sends filter 1 to config1's high half */
	bool defaults_keep_select;	/* measured: defaults libpfm adds never replace
					 * the event select (asked unit masks do) */
	/* the cache lines from the event on that its decoding filled (its
	 * unit masks, their index, rules and form), up to 255, or 0 where
	 * they are not in one piece: what an encoding of it may read, fetched
	 * at once when the encodings move to it (encode.c) */
	uint8_t record_lines;
	uint32_t *pair_slots;	/* by pair_slot, index + 1 (unpack.c); NULL: no pairs */
	struct pair_default *pairs;
	uint16_t *pair_added;
	uint64_t filter_config1, filter_config2;	/* measured: config1, config2 bits of any encoding */
	uint64_t filter_default;	/* measured: config1 bits only while no umask sets that filter */
	uint64_t config_base;	/* measured: config bits of any encoding */
	uint64_t raw_umask_max;	/* the widest raw unit mask it takes; 0: none */
	int *hidden_error;	/* by modifier position: its error when no asked umask unlocks it */
	uint64_t no_modifiers;	/* bit m: perf modifier m refused non-zero with a
				 * unit mask that takes no modifiers */
	int *no_modifiers_error;	/* by modifier position: that refusal's error */
	EVENT_PACKED_MEMBERS
};

/* Another name of an event; with ATTRS, the unit masks it stands for too
 * (a vendor's OCR.DEMAND_DATA_RD.ANY_RESPONSE). */
struct alias {
	const char *name;
	const char *attrs;	/* ':'-separated, or NULL */
	int event;
};

/* First reads: not yet, done, or failed (and not tried again). */
enum load_state { NOT_READ, READ, FAILED };

/* An event of a table before and after it is decoded. */
struct event_slot {
	const char *name;	/* into the blob */
	bool retired;
	uint32_t offset;	/* of its record in the blob */
	atomic_int state;	/* enum load_state */
	struct event *event;	/* once READ */
	const char *failure;	/* once FAILED */
};

/* The modifier sets a handle has decoded, by content (shared_sets.h). */
struct shared_sets {
	int count, cap;
	struct shared_set {
		uint64_t hash;
		const struct modifier_set *set;
	} *items;
};

struct event_table {
	int64_t id;
	struct shared_sets *shared_sets;	/* the handle's, or NULL: none shared */
	atomic_int state;	/* enum load_state */
	const char *failure;	/* why it, or an event of it, FAILED */
	const unsigned char *blob;	/* malloc'd, or in the built-in image */
	size_t size;
	uint32_t pool_offset;	/* where the blob's strings start */
	struct arena arena;	/* everything below */
	int nevents;
	struct event_slot *events;
	/* the events decoded, by position (NULL: not yet): what a warm
	 * encoding reads of the slots, eight to a cache line */
	_Atomic(const struct event *) *decoded;
	int nsets;
	uint32_t *set_offsets;
	const struct modifier_set **sets;	/* decoded with the first event using them */
	struct name_index by_name;	/* live events */
	/* vendor names, read on first lookup */
	atomic_int alias_state;
	const unsigned char *alias_blob;
	int naliases;
	struct alias *aliases;
	struct name_index alias_by_name;
	/* descriptions, read on first request */
	atomic_int details_state;
	struct event_details *details;	/* by event */
};

struct family;
struct bare_encoding;

/* libpfm's privilege levels. */
#define PLM0 0x1
#define PLM1 0x2
#define PLM2 0x4
#define PLM3 0x8
#define PLMH 0x10
#define PLM_ALL (PLM0 | PLM1 | PLM2 | PLM3 | PLMH)
#define PLM_DEFAULT (PLM0 | PLM3)

/* Strings are the handle's (its arena). */
struct pmu {
	const char *name, *description, *kind, *family_name, *family_group;
	size_t name_len;
	/* what of the name fits fstr's "PMU::" and an encoding's pmu[]: set
	 * once here, as a length the compiler sees bounded where it is used
	 * becomes a slow inline copy (rep movs) */
	size_t fstr_name_len, out_name_len;
	const char *source;	/* NULL: libpfm's; "pmu-events:UARCH": made from a vendor list */
	const char *like;	/* the libpfm PMU a vendor PMU takes its rules from */
	int num_counters, num_fixed_counters;
	unsigned supported_plm;
	uint64_t config_cleared;	/* measured: config bits libpfm's perf encoding clears */
	int perf_type;		/* fixed type, or the fallback when sysfs has none; -1 none */
	const char *sysfs_name;	/* where the type is read first, or NULL */
	atomic_int sysfs_type;	/* read from sysfs once: -1 absent, INT32_MIN not yet */
	struct event_table *table;
	const struct family *family;
	/* its events encoded alone (bare.h), by position in the table, made
	 * as they are first named; NULL until the first is */
	_Atomic(_Atomic(const struct bare_encoding *) *) bares;
};

/* fstr's room after "PMU::": libpfm's 256 bytes and the "::" and NUL. */
#define FSTR_NAME_ROOM (256 + 3)

#endif
