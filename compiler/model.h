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

#include "catalog/field_lists.h"
#include "compiler/xalloc.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Unit-mask positions within one event. */
struct int_vec { int *items; size_t count, cap; };

/* A modifier value that choosing a unit mask forces or suggests. */
struct implied_value {
	int modifier;		/* index into the event's modifiers */
	uint64_t value;
	bool hardwired;		/* another value is refused (PFM_ERR_ATTR_SET) */
};

/* A unit mask: its fields (catalog/field_lists.h), and what the compiler keeps
 * beside them. */
struct umask {
	UMASK_FIELDS(FIELD_MODEL_MEMBER)
	int libpfm_index;	/* attribute index in libpfm; -1 for added ones */
	/* derived: see derive.c */
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
	MODIFIER_FIELDS(FIELD_MODEL_MEMBER)
	/* derived */
	VEC(struct landing) presence;	/* bits set whenever it is given */
	VEC(struct landing) nonzero;	/* bits set whenever its value is not 0, beyond
					 * the value (NetBurst's CCCR compare bit) */
	VEC(struct landing) landings;
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

/* An event: its fields (catalog/field_lists.h), and what the compiler keeps
 * beside them. */
struct event {
	EVENT_FIELDS(FIELD_MODEL_MEMBER)
	int libpfm_index;	/* opaque libpfm event index, -1 for added */
	int dtype;
	VEC(struct umask) umasks;
	VEC(struct modifier) modifiers;
	VEC(struct event_alias) aliases;

	/* derived */
	struct int_vec hidden;	/* PMU modifiers no encoding of it printed in fstr */
	struct int_vec hidden_errors;	/* per hidden one: libpfm's error when given without a unit mask that needs it */
	int config_misses;	/* pairs whose config is not what those bits give */
	struct int_vec bare_added;	/* defaults libpfm adds to the bare event */
	VEC(struct group_rule) group_rules;
	int pair_rule_misses;	/* pairs whose default set broke the rule */
	struct int_vec no_modifiers;	/* perf modifiers refused at a non-zero value
					 * when a unit mask takes no modifiers */
	struct int_vec no_modifiers_errors;	/* libpfm's error for each */
	VEC(struct pair_defaults) pair_defaults;
};

enum pmu_kind { PMU_UNKNOWN = 0, PMU_CORE, PMU_UNCORE, PMU_OS };

/* ---- the vendors' event lists (vendor_tree.c and the readers it calls) - */

/* A term of an uncore entry as perf writes it (event=0x35, umask=..., a
 * Filter's filter_opc=0x191): the format attribute the kernel PMU names
 * it by, and its value. */
struct vendor_term {
	char *name;
	uint64_t value;
};

/* One event of a vendor list, as its JSON gives it. */
struct vendor_event {
	char *name;		/* "INST_RETIRED.ANY_P", "ex_ret_instr", "CPU_CYCLES" */
	char *description;
	char *file;		/* the JSON file, relative to the tree */
	int line, column;	/* where the event's name is written */
	char *unit;		/* the core type of a hybrid ("cpu_core", "cpu_atom"), or NULL */
	uint64_t code;		/* EventCode (the first, where it lists several) */
	uint64_t umask;		/* UMask, 0 when absent */
	uint64_t umask_ext;	/* UMaskExt: Intel's second unit mask, config bits 40-47 (the kernel's
				 * umask format config:8-15,40-47 where the core has it) */
	uint64_t cmask, inv, edge, any;	/* CounterMask, Invert, EdgeDetect, AnyThread */
	uint64_t msr_index, msr_value;	/* MSRIndex (the first), MSRValue; 0 when absent */
	int pebs;		/* PEBS: 0 none, 1 or 2 precise sampling */
	bool deprecated;
	/* the counters it may use, bit n for counter n (0: unknown): general
	 * ones (Counter), with SMT off (CounterHTOff), precise sampling
	 * (PEBScounters), fixed ones ("Fixed counter N") */
	uint64_t counters, counters_ht_off, pebs_counters, fixed_counters;
	bool taken_alone;	/* TakenAlone: counted with no other event */
	bool free_running;	/* CounterType FREERUN */
	/* the fields perf uses in place of the list's (vendor_read.c,
	 * perf_fixed_form): the list's event select and unit mask, kept for
	 * the reconciliation's notes */
	bool perf_form;
	uint64_t listed_code, listed_umask;
	/* an uncore entry (vendor_read.c keeps them in vendor_uarch.uncore):
	 * its JSON Unit in UNIT, its fields as perf's terms, in the order
	 * jevents.py writes them */
	VEC(struct vendor_term) terms;
	bool taken;		/* an uncore PMU took it (vendor_uncore.c) */
	uint64_t encoding[3];	/* taken: config, config1, config2 as perf places it */
	bool on_libpfm_box;	/* not taken: libpfm has a PMU of the name its PMU would have */
	bool untypable;		/* its name cannot be typed: left out, with a note */
	char *kernel_pmu;	/* its Unit's kernel PMU, once asked (vendor_uncore.c) */
	char *compat;		/* a system PMU's entry: the device identifier pattern, or NULL */
};

/* One metric of a µarch's list (vendor_metrics.c): the vendor's fields as
 * written; NULL where the entry has none. */
struct vendor_metric {
	char *name, *description, *expr, *groups, *threshold, *scale_unit, *constraint, *default_group;
	char *unit;		/* a hybrid's core type ("cpu_core"), or NULL */
	char *file;		/* the JSON file, relative to the tree */
	int line, column;	/* where its name is written */
	char *missing;		/* what of it this catalog lacks (an event no PMU of the µarch has), or NULL */
};

/* One --pmu-events directory, in the order given (vendor_tree.c). */
struct vendor_source {
	char *dir;		/* as found: the absolute path */
	char *origin;		/* what it is (--pmu-events-origin), else the path */
	const char *layout;	/* "kernel", "perfmon" or "arm-data" */
};

/* What a newer list of a µarch changed of an older one (vendor_newest.c). */
struct list_change {
	char *event;		/* EVENT or EVENT.UMASK as the lists name it */
	const char *change;	/* "added", "removed", "changed" */
	char *was, *now;	/* the fields that encode it, NULL where absent */
};

/* A µarch's list as its source states it: which of several is encoded
 * is decided by this (vendor_newest.c). */
struct vendor_list {
	int source;		/* index into model.sources */
	char *file;		/* the file that states its version, relative to the source */
	char *version;		/* "1.20" (the source's "V1.20", "v1.20"), NULL: none stated */
	char *date;		/* "2026-06-05", NULL: none stated */
	int events, uncore, metrics;	/* what it lists */
	/* an older list, superseded: what the encoded one changed, and the
	 * parts still encoded from it because the newer list has none */
	VEC(struct list_change) changes;
	char *kept;		/* "uncore", "metrics", "uncore, metrics" or NULL */
};

/* One row of a mapfile: the CPUs a µarch's list is for. */
struct vendor_cpu {
	char *id;		/* x86: a regex over "Vendor-Family-Model[-Stepping]";
				 * arm64: a MIDR, "0x00000000410fd0c0" */
	char *file;
	int line;
	int source;		/* index into model.sources (vendor_newest.c) */
};

/* How many counters a Unit of a µarch has, as its counter.json states
 * (Unit "core", "CHA", ...): generic ones and fixed ones. */
struct vendor_counts {
	char *unit;
	int generic, fixed;
	char *file;		/* relative to the tree */
	int line;
};

/* One µarch of the tree: its core events and the CPUs that have it. */
struct vendor_uarch {
	char *name;		/* "amdzen5", "alderlake", "arm/neoverse-n1" */
	char *arch;		/* "x86", "arm64" */
	VEC(struct vendor_event) events;
	VEC(struct vendor_event) uncore;	/* entries of an uncore unit (vendor_uncore.c) */
	VEC(struct vendor_cpu) cpus;
	VEC(char *) units;	/* the hybrid core types its events name, in order */
	VEC(struct vendor_metric) metrics;
	bool mapped;		/* a vendor_pmus entry took it */
	bool system;		/* a sys/ folder: devices' PMUs (arm_cmn, imx8_ddr), no CPU of its own */
	struct vendor_list list;	/* the list encoded, and where it is from */
	VEC(struct vendor_list) older;	/* the lists it superseded, oldest source first */
	VEC(char *) warnings;	/* entries left out as the lists were read: FILE:LINE:COLUMN: why */
	VEC(struct vendor_counts) counts;	/* its counter.json, per Unit (none: not stated) */
};

/* One uncore_units entry: the kernel PMU of a vendor list's Unit. */
struct uncore_unit {
	char *unit, *pmu;
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
	/* its rules are derived (main.c derives first the PMUs the tables
	 * name, derive_first, so that a table's mistake stops the build
	 * before the rest is derived) */
	bool derived, derive_first;
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
	/* a vendor uncore PMU's (vendor_uncore.c): how the kernel numbers its
	 * boxes, "discovery" or "driver" (NULL: not one), and a system PMU's
	 * device identifier pattern (the entries' Compat), or NULL */
	char *box_numbering;
	char *device_identifier;
};

/* A catalog PMU's counters (counters.c): GENERIC general ones (with SMT
 * off: GENERIC_SMT_OFF, -1 where no list says), FIXED fixed ones, and
 * where the numbers come from. */
struct counter_count {
	char *pmu;
	int generic, generic_smt_off, fixed;
	char *source;
};

/* Where the encodings CONFIG (under MASK) of a catalog PMU may be counted,
 * where that is not "any general counter" (counters.c): a vendor list's
 * Counter, CounterHTOff, PEBScounters, TakenAlone and CounterType of the
 * entries EVENT, or the kernel's fixed-counter rule of tables/counters.yaml.
 * Bit n of a mask is counter n; PEBS_COUNTERS bit 32+n is fixed counter n. */
struct counter_rule {
	char *pmu;
	uint64_t config, mask;
	uint64_t counters, counters_smt_off, pebs_counters, fixed_counters;
	bool taken_alone, free_running;
	char *event;		/* the vendor's name(s), or the table's name for it */
	char *source;		/* FILE:LINE of the entry or the table row */
};

/* tables/counters.yaml: a PMU's counters where no list states them
 * (PMU_PATTERN a glob), and the encodings Linux puts on a fixed counter. */
struct counters_entry {
	char *pmu_pattern;
	int generic, fixed;
	char *why, *file;
	int line;
};
struct fixed_rule {
	char *family;
	VEC(char *) pmus;	/* globs: the PMUs of FAMILY it is for (empty: all) */
	char *name;
	uint64_t config, mask;
	int fixed;		/* the fixed counter */
	bool general;		/* a general counter may count it too */
	char *why, *file;
	int line;
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
	int uarch;		/* a mapfile row's µarch (index into model.uarchs); -1: a table's */
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
	char *pmu, *event, *umask;	/* globs; umask NULL for the event */
	/* when set, the difference must be exactly these config (xor[0])
	 * and config1 (xor[1]) bits: libpfm's encoding XOR the vendor's */
	uint64_t xor[2];
	bool has_xor[2];
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
	VEC(struct vendor_source) sources;	/* --pmu-events, in order */
	char *vendor_tree;	/* the sources' origins, "; " between them, or NULL */
	char *vendor_layout;	/* their layouts ("kernel", "kernel + perfmon") */
	char *kernel_source;	/* --kernel-source DIR: the uncore drivers' formats, or NULL */
	VEC(struct vendor_uarch) uarchs;
	VEC(struct vendor_map) vendor_maps;
	VEC(struct uncore_unit) uncore_units;	/* Units perf does not name uncore_UNIT (table_uncore.c) */
	VEC(struct finding) findings;
	VEC(struct known_difference) differences;
	VEC(char *) notes;	/* said once the build is done: what was left out, and why */
	char *families_at;	/* FILE:LINE:COLUMN of the last 'families' section */
	VEC(struct counters_entry) counters_table;	/* tables/counters.yaml (table_counters.c) */
	VEC(struct fixed_rule) fixed_rules;
	VEC(struct counter_count) counter_counts;	/* made by counters.c */
	VEC(struct counter_rule) counter_rules;
};

/* Adds a note (printf-style) to be printed after the build. */
void model_note(struct model *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void model_free(struct model *m);
void vendor_event_free(struct vendor_event *e);
void vendor_uarch_free(struct vendor_uarch *u);
void vendor_list_free(struct vendor_list *l);
/* Frees COUNT strings of ITEMS and ITEMS itself. */
void free_strings(char **items, size_t count);
void model_free_pmu(struct pmu *p);
/* Frees what U holds, not U. */
void model_free_umask(struct umask *u);
/* Frees what V holds, not V. */
void model_free_metric(struct vendor_metric *v);

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
