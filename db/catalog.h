/*
 * catalog.h - the catalog in memory, as the encoder reads it.
 *
 * pmudb_open() reads the PMUs and the modifier sets; an event table is read
 * the first time one of its PMUs is used (most programs use a few PMUs of
 * the 386).  Once read, a table never changes, so encoders read it without
 * locks; only the first read of a table takes the handle's lock.
 */
#ifndef PMUDB_CATALOG_H
#define PMUDB_CATALOG_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "name_index.h"
#include "pmudb.h"

/* Limits of one event, checked when a catalog is read so that a catalog
 * with more (another libpfm, a damaged file) is refused, not overrun. */
#define MAX_UMASKS 256
#define MAX_MODIFIERS 64

/* perf_event_attr fields (and raw code words) a modifier can land in. */
enum field {
	F_TYPE, F_CONFIG, F_CONFIG1, F_CONFIG2, F_SAMPLE_PERIOD, F_FREQ,
	F_EXCLUDE_USER, F_EXCLUDE_KERNEL, F_EXCLUDE_HV, F_EXCLUDE_IDLE,
	F_EXCLUDE_HOST, F_EXCLUDE_GUEST, F_PRECISE_IP, F_EXCLUSIVE, F_PINNED,
	F_CPU, F_FLAGS, F_CODE0, F_CODE1, F_CODE2, F_CODE3, F_COUNT
};
int field_by_name(const char *name);	/* enum field, or -1 */

struct landing {
	int field;
	uint64_t mask;
};

struct modifier {
	char *name, *description;
	bool is_integer, from_perf, probed, follows_plm;
	uint64_t default_value, min, max;
	int range_error;	/* libpfm's error past min..max (0: ATTR_VAL) */
	int perf_kind;		/* for from_perf ones: enum perf_mod (perf_layer.c) */
	int requires;		/* 1 needs this modifier non-zero, or -1 */
	int refused_error;	/* libpfm's error when it is missing */
	int nlandings;
	struct landing landings[4];
	int npresence;
	struct landing presence[3];	/* bits set whenever given */
	bool has_shown;			/* fstr shows SHOWN whatever the value */
	uint64_t shown;
};

struct modifier_set {
	int count;
	struct modifier *items;
};

struct implied {
	int modifier;		/* position in the event's modifier set */
	uint64_t value;
	bool hardwired;
};

struct umask {
	char *name, *description, *equiv;
	char *source;		/* the vendor file it comes from, or NULL (libpfm) */
	char *why;		/* the override that changed it, or NULL */
	uint64_t code;
	bool is_default, retired;
	bool sets_event_select;	/* measured: replaces the event select */
	uint64_t filter_bits[2];	/* measured: config1, config2 bits it adds */
	bool filter_layout;	/* measured: moves config2 into config1 bits 32-63 */
	bool code_is_filter;	/* measured: its code is a filter, not a umask value */
	int group;		/* -1 for an equiv */
	int single_error;
	int nadded;
	uint16_t *added;	/* positions of the defaults it gets alone */
	int nimplied;
	struct implied *implied;
	uint64_t unlocks;	/* bit m: makes hidden modifier m acceptable */
};

struct group_rule {
	int group_a, group_b, error;
};

/* What libpfm adds to one pair, where the general rule does not hold. */
struct pair_default {
	uint16_t umask_a, umask_b;
	int nadded;
	uint16_t *added;
};

struct event {
	char *name, *description, *equiv;
	char *source;		/* the vendor file it comes from, or NULL (libpfm) */
	char *why;		/* the override that changed it, or NULL */
	uint64_t code;
	bool is_precise, retired;
	bool umasks_in_config1;	/* measured: unit masks go to config1 */
	bool filters_given;	/* the unit masks' filter bits are stated values: applied */
	uint64_t filter_base[2];	/* measured: config1, config2 bits of any encoding */
	uint64_t filter_default;	/* measured: config1 bits only while no umask sets that filter */
	int perf_type;		/* INT32_MIN: the PMU's */
	int bare_error;
	int group_count;
	int numasks;
	struct umask *umasks;
	int nbare;
	uint16_t *bare_added;
	int nrules;
	struct group_rule *rules;
	int npairs;
	struct pair_default *pairs;
	uint64_t hidden;	/* bit m: PMU modifier m left out of fstr unless given */
	int hidden_error[MAX_MODIFIERS];	/* its error when no asked umask unlocks it */
	const struct modifier_set *modifiers;	/* never NULL */
};

/* Another name of an event; with ATTRS, the unit masks it stands for too
 * (a vendor's OCR.DEMAND_DATA_RD.ANY_RESPONSE). */
struct alias {
	char *name;
	char *attrs;		/* ':'-separated, or NULL */
	int event;
};

struct event_table {
	int64_t id;
	atomic_bool loaded;
	int nevents;
	struct event *events;
	int naliases;
	struct alias *aliases;
	struct name_index by_name;	/* live events */
	struct name_index alias_by_name;
};

struct family;

struct pmu {
	char *name, *description, *kind, *family_name, *family_group;
	char *source;		/* NULL: libpfm's; "pmu-events:UARCH": made from a vendor list */
	char *like;		/* the libpfm PMU a vendor PMU takes its rules from */
	int num_counters, num_fixed_counters;
	unsigned supported_plm;
	int perf_type;		/* fixed type, or the fallback when sysfs has none; -1 none */
	char *sysfs_name;	/* first of pmu_sysfs, or NULL: where the type is read first */
	atomic_int sysfs_type;	/* read from sysfs once: -1 absent, INT32_MIN not yet */
	struct event_table *table;
	const struct family *family;
};

struct pmudb {
	sqlite3 *db;
	pthread_mutex_t lock;	/* first reads of event tables */
	int npmus;
	struct pmu *pmus;
	struct name_index pmu_by_name;
	int ntables;
	struct event_table *tables;
	int nsets;
	struct modifier_set *sets;	/* by id - 1, read on first use */
	struct modifier_set no_modifiers;
};

/* Reads P's event table if not yet done.  Returns 0, or -1 on a SQLite
 * error (the catalog was damaged after open). */
int catalog_load_table(struct pmudb *db, const struct pmu *p);

/* The first live event of P named NAME (or aliased so), or -1.  *ATTRS
 * (when not NULL) is set to the unit masks an alias stands for, or NULL. */
int catalog_find_event(const struct pmu *p, const char *name, const char **attrs);

/* Which perf_events-layer modifier NAME is (perf_layer.c). */
int perf_modifier_kind(const char *name);

/* The PMU named NAME (case-insensitive), or NULL. */
const struct pmu *catalog_find_pmu(const struct pmudb *db, const char *name);

int catalog_open(struct pmudb *db, const char *path, struct pmudb_error *err);
void catalog_close(struct pmudb *db);

/* Fills ERR with CODE and a printf-style message; returns CODE. */
int set_error(struct pmudb_error *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
