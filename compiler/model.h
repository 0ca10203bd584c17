/*
 * model.h - the compiler's in-memory catalog.
 *
 * The compiler works in three passes over one model: ingest fills it from
 * libpfm's public API, derive adds the rules that the API does not expose
 * (by asking libpfm's encoder), overrides edit it from the YAML tables.  Only
 * then is it written to SQLite (emit.c), so every pass can see and change
 * everything before anything is frozen into the file.
 */
#ifndef PMUDB_COMPILER_MODEL_H
#define PMUDB_COMPILER_MODEL_H

#include "compiler/xalloc.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A growable array of T: items, count, capacity.  See vec_push(). */
#define VEC(T) struct { T *items; size_t count, cap; }

/* Makes room for one more item and returns a pointer to it, zeroed. */
#define vec_push(v) \
	((v)->count == (v)->cap ? vec_grow_((void **)&(v)->items, &(v)->cap, sizeof(*(v)->items)) : (void)0, \
	 memset(&(v)->items[(v)->count], 0, sizeof(*(v)->items)), &(v)->items[(v)->count++])

void vec_grow_(void **items, size_t *cap, size_t item_size);

/* Unit-mask positions within one event. */
struct int_vec { int *items; size_t count, cap; };

/* A modifier value that choosing a unit mask forces or suggests. */
struct implied_value {
	int modifier;		/* index into the event's modifiers */
	uint64_t value;
	bool hardwired;		/* another value is refused (PFM_ERR_ATTR_SET) */
};

struct umask {
	char *name;
	char *description;
	char *equiv;		/* stands for these umasks ("A:B"), or NULL */
	uint64_t code;		/* libpfm's attribute code, unshifted */
	int libpfm_index;	/* attribute index in libpfm; -1 for added ones */
	bool is_default;
	bool is_precise;
	int speculative;	/* 0 unknown, 1 speculative, 2 not speculative */
	bool retired;
	char *why;		/* set by an override: its source */
	char *source;		/* NULL: libpfm's; else the vendor file it comes from */

	/* derived: see derive.c */
	int group;		/* umasks of one group behave alike with all others;
				 * -1 for an equiv, which stands for its expansion */
	int single_error;	/* libpfm's answer to EVENT:UMASK, 0 on success */
	int repeat_error;	/* to EVENT:UMASK:UMASK:UMASK, of which two stay (0: success) */
	bool sets_event_select;	/* alone, it changes config bits 0-7 from the event code's */
	uint64_t filter_bits[2];	/* config1, config2 bits it sets beyond the event's own */
	bool filter_layout;	/* with it, the second filter moves to config1 bits 32-63 */
	bool code_is_filter;	/* its code goes to a filter, not the unit-mask field */
	uint64_t config_bits;	/* config bits every encoding with it has beyond the
				 * event's config_base (when that is measured) */
	bool takes_no_modifiers;	/* with it libpfm gives no fstr and refuses perf
				 * modifiers (event.no_modifiers): TOPDOWN_M's metrics */
	struct int_vec added;	/* defaults libpfm adds to EVENT:UMASK */
	VEC(struct implied_value) implied;
	VEC(struct implied_value) unlocks;	/* hidden modifiers it makes acceptable (.modifier only) */
};

/* What a modifier does to the perf_event_attr, found by encoding it. */
struct landing {
	char field[24];		/* "config", "config1", "exclude_user", ... */
	uint64_t mask;		/* bits of that field the modifier changes */
};

struct modifier {
	char *name;
	char *description;
	bool is_integer;	/* else boolean */
	bool is_perf;		/* provided by the perf_events layer, not the PMU */
	int libpfm_index;	/* attribute index in libpfm */
	uint64_t default_value;
	/* derived */
	bool probed;		/* false when no encodable base string was found */
	uint64_t min, max;	/* accepted range */
	int range_error;	/* libpfm's error just past the range */
	VEC(struct landing) presence;	/* bits set whenever it is given */
	VEC(struct landing) nonzero;	/* bits set whenever its value is not 0, beyond
					 * the value (NetBurst's CCCR compare bit) */
	bool has_shown;		/* fstr shows SHOWN whatever value is given */
	uint64_t shown;
	bool follows_plm;	/* value comes from the privilege-level mask */
	int requires;		/* 1 is refused unless this modifier is non-zero; -1 */
	int refused_error;	/* libpfm's error for 1 alone, when it requires */
	VEC(struct landing) landings;
	bool inert_unless_implied;	/* sets its bits only beside a unit mask
					 * that implies it (fe_thres) */
	int shown_from;		/* the fstr shows this modifier's bits instead
				 * (skx CHA's rmem shows rem's); -1 */
};

/* Another name of an event: NAME stands for the event with ATTRS (unit
 * masks, ':'-separated) given, or for the bare event when ATTRS is NULL.
 * A vendor name with dots (OCR.DEMAND_DATA_RD.ANY_RESPONSE) is one. */
struct event_alias {
	char *name;
	char *attrs;
};

/* A pair of unit masks whose defaults break the rule (see derive.c). */
struct pair_defaults {
	int umask_a, umask_b;	/* umask_a < umask_b */
	struct int_vec added;	/* what libpfm adds to the pair */
};

/* A pair of unit-mask groups that libpfm refuses together. */
/* How libpfm refuses a pair: while it reads the attributes (two unit masks
 * that exclude each other), or once they are read, for want of something a
 * third unit mask or a modifier may give (a queue, a group's unit mask, nf=). */
struct pair_refusal {
	int error;		/* PFM_ERR_*, PFM_SUCCESS for none */
	bool after_reading;	/* refused once all attributes are read */
	bool third_lifts;	/* some third unit mask lifts it (skx OPC0:OPC1 beside IRQ) */
	int lifted_by;		/* the modifier whose presence lifts it, or -1 */
};

struct group_rule {
	int group_a, group_b;	/* group_a <= group_b */
	int error;		/* PFM_ERR_* */
	bool after_reading;	/* see struct pair_refusal */
	bool third_lifts;
	int lifted_by;
};

struct event {
	char *name;
	char *description;
	char *equiv;		/* NULL if none */
	uint64_t code;
	int libpfm_index;	/* opaque libpfm event index, -1 for added */
	bool is_precise;
	bool supports_hw_sampling;
	int speculative;
	int dtype;
	int perf_type;		/* when it differs from the PMU's, else -2 */
	bool retired;
	char *why;		/* set by an override: its source */
	char *source;		/* NULL: libpfm's; else the vendor file it comes from */
	VEC(struct umask) umasks;
	VEC(struct modifier) modifiers;
	VEC(struct event_alias) aliases;

	/* derived */
	int bare_error;		/* libpfm's answer to PMU::EVENT alone */
	int bare_needs;		/* the modifier that makes it encode (PCU's
				 * FREQ_BAND*:ff=), or -1 */
	bool last_umask_wins;	/* of the unit masks asked, the last one's code
				 * replaces the others' (PCU occupancy select) */
	uint64_t raw_umask_max;	/* the widest raw unit mask (:0xff) libpfm takes; 0 */
	bool raw_layout_bit0;	/* with a raw unit mask, filter 1 goes to config1's
				 * high half when its bit 0 is set (CBo) */
	bool umasks_in_config1;	/* unit-mask codes land in config1 (offcore response) */
	bool filters_given;	/* its unit masks' filter_bits are stated (a vendor's MSR
				 * value), not measured: every encoder applies them */
	struct int_vec hidden;	/* PMU modifiers no encoding of it printed in fstr */
	struct int_vec hidden_errors;	/* per hidden one: libpfm's error when given without a unit mask that needs it */
	uint64_t filter_base[2];	/* config1, config2 bits every encoding of it has */
	uint64_t filter_default;	/* of those, config1 bits present only while no unit mask sets that filter */
	bool config_measured;	/* its family's encoder places measured registers: */
	uint64_t config_base;	/* the config bits every encoding of it has */
	int config_misses;	/* pairs whose config is not what those bits give */
	struct int_vec bare_added;	/* defaults libpfm adds to the bare event */
	int group_count;
	VEC(struct group_rule) group_rules;
	int pair_rule_misses;	/* pairs whose default set broke the rule */
	bool defaults_keep_select;	/* a default libpfm adds does not replace the
					 * event select, as one asked for does */
	struct int_vec no_modifiers;	/* perf modifiers refused at a non-zero value
					 * when a unit mask takes no modifiers */
	struct int_vec no_modifiers_errors;	/* libpfm's error for each */
	VEC(struct pair_defaults) pair_defaults;
};

enum pmu_kind { PMU_UNKNOWN = 0, PMU_CORE, PMU_UNCORE, PMU_OS };

/* ---- the vendors' event lists (vendor_tree.c) ---------------------------- */

/* One event of a vendor list, as its JSON gives it. */
struct vendor_event {
	char *name;		/* "INST_RETIRED.ANY_P", "ex_ret_instr", "CPU_CYCLES" */
	char *description;
	char *file;		/* the JSON file, relative to the tree */
	int line, column;	/* where the event's name is written */
	char *unit;		/* the core type of a hybrid ("cpu_core", "cpu_atom"), or NULL */
	uint64_t code;		/* EventCode (the first, where it lists several) */
	uint64_t umask;		/* UMask, 0 when absent */
	uint64_t cmask, inv, edge, any;	/* CounterMask, Invert, EdgeDetect, AnyThread */
	uint64_t msr_index, msr_value;	/* MSRIndex (the first), MSRValue; 0 when absent */
	int pebs;		/* PEBS: 0 none, 1 or 2 precise sampling */
	bool deprecated;
};

/* One row of a mapfile: the CPUs a µarch's list is for. */
struct vendor_cpu {
	char *id;		/* x86: a regex over "Vendor-Family-Model[-Stepping]";
				 * arm64: a MIDR, "0x00000000410fd0c0" */
	char *file;
	int line;
};

/* One µarch of the tree: its core events and the CPUs that have it. */
struct vendor_uarch {
	char *name;		/* "amdzen5", "alderlake", "arm/neoverse-n1" */
	char *arch;		/* "x86", "arm64" */
	VEC(struct vendor_event) events;
	VEC(struct vendor_cpu) cpus;
	VEC(char *) units;	/* the hybrid core types its events name, in order */
	bool mapped;		/* a vendor_pmus entry took it */
};

/* One vendor_pmus entry: which PMU a µarch's CPUs get (table_vendor_pmus.c). */
struct vendor_map {
	int uarch;		/* index into model.uarchs */
	char *pmu;
	VEC(char *) cpus;	/* the mapfile rows (ids) it is for; empty: all */
};

struct pmu {
	char *name;
	char *description;
	int libpfm_id;		/* pfm_pmu_t */
	enum pmu_kind kind;
	int num_counters;
	int num_fixed_counters;
	int max_encoding;
	unsigned supported_plm;	/* PFM_PLM* bits that change the encoding */
	uint64_t config_cleared;	/* config bits libpfm's perf encoding clears
					 * (Intel's and AMD's enable, interrupt, OS, user) */
	char *family;		/* encoding family, from tables/families.yaml */
	char *harness_group;	/* family group for reports */
	/* How perf_event_attr.type is found: a fixed number, or sysfs. */
	int perf_type;		/* fixed type, or -1 when read from sysfs */
	VEC(char *) sysfs_names;
	VEC(struct event) events;

	/* from the vendor tree (see table_vendor_pmus.c, vendor_build.c) */
	char *source;		/* NULL: libpfm's; else "pmu-events:ARCH/UARCH[@UNIT]" */
	char *like;		/* the libpfm PMU whose rules a new PMU takes */
	int uarch;		/* index into model.uarchs, -1 for none */
	char *unit;		/* the uarch's core type it takes, or NULL for all */
	VEC(char *) modifier_names;	/* the like PMU's modifiers it keeps (empty: all) */
};

/* One line of tables/cpuid.yaml. */
struct cpuid_entry {
	char *vendor;
	int family;
	int model_lo, model_hi;
	int stepping_lo, stepping_hi;	/* 0..15 when the entry has no stepping */
	VEC(char *) pmus;
	char *why;
	char *file;
	int line;
	bool from_vendor;	/* a mapfile row: after every table entry, no overlap check */
};

/* What reconciling a libpfm PMU with its vendor list found for one name or
 * encoding (reconcile.c). */
enum match {
	MATCH_AGREE,		/* same name, same encoding */
	MATCH_DIFFER,		/* same name, another encoding */
	MATCH_OTHER_NAME,	/* the vendor's entry encodes as a libpfm string of another name */
	MATCH_VENDOR_ONLY,	/* no libpfm string has its name or encoding */
	MATCH_LIBPFM_ONLY,	/* a libpfm string no vendor entry has the name or encoding of */
	MATCH_COUNT
};

struct finding {
	char *pmu, *uarch;
	char *libpfm_name;	/* "EVENT" or "EVENT:UMASK[:UMASK]", NULL when vendor-only */
	char *vendor_name;	/* NULL when libpfm-only */
	char *vendor_file;
	uint64_t libpfm_config[2], vendor_config[2];	/* config, config1 */
	enum match match;
	char *explained;	/* a difference: "corrected" (an override), or the kind of a
				 * known difference ("equivalent", "by_design", "vendor_error") */
	char *why;		/* that override's or difference's why, and where it is */
	bool added;		/* vendor-only: now in the PMU */
};

/* A difference from a vendor list that is no mistake of libpfm's
 * ('differences'): "equivalent", "by_design", or the vendor's "vendor_error". */
struct known_difference {
	char *pmu, *event, *umask;	/* pmu may be a glob; umask NULL for the event */
	char *kind;
	char *why, *file;
	int line;
	bool used;
};

/* One applied override, kept in the catalog as provenance. */
struct override_record {
	char *file;
	int line;
	char *action;
	char *target;		/* pmu::event[:umask] */
	char *why;
};

struct model {
	char *libpfm_version;
	char *families_file;	/* the first tables file with a 'families' section */
	/* what it was built from (fingerprint.h), for the catalog's meta */
	char *libpfm_fingerprint, *tables_fingerprint, *vendor_fingerprint;
	VEC(struct pmu) pmus;
	VEC(struct cpuid_entry) cpuid;
	VEC(struct override_record) overrides;
	char *vendor_tree;	/* --pmu-events DIR, or NULL */
	char *vendor_layout;	/* "kernel" or "perfmon" */
	VEC(struct vendor_uarch) uarchs;
	VEC(struct vendor_map) vendor_maps;
	VEC(struct finding) findings;
	VEC(struct known_difference) differences;
	VEC(char *) notes;	/* said once the build is done: what was left out, and why */
	char *families_at;	/* FILE:LINE:COLUMN of the last 'families' section */
};

/* Adds a note (printf-style) to be printed after the build. */
void model_note(struct model *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void model_free(struct model *m);
void model_free_pmu(struct pmu *p);

struct pmu *model_find_pmu(struct model *m, const char *name);
/* PMUs whose name matches the glob PATTERN, case-insensitively, in model
 * order (the caller frees items). */
struct pmu_list { struct pmu **items; size_t count, cap; };
void model_match_pmus(struct model *m, const char *pattern, struct pmu_list *out);
struct event *pmu_find_event(struct pmu *p, const char *name);
/* The event of P that has an alias NAME (case-insensitive), or NULL. */
struct event *pmu_find_alias(struct pmu *p, const char *name);

/* The position of EV's modifier NAME, or -1. */
int event_modifier(const struct event *ev, const char *name);

/* Appends FROM's modifiers (with their measured rules) to TO; only those
 * named in KEEP when NKEEP > 0.  A modifier that needs another keeps the
 * need only where both are copied. */
void event_copy_modifiers(struct event *to, const struct event *from, char *const *keep, size_t nkeep);
struct umask *event_find_umask(struct event *e, const char *name);

#endif
