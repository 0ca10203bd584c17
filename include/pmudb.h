/*
 * pmudb.h - encode libpfm4 event strings ("pmu::event:umask:modifier=value")
 * into perf_event_attr fields from a pmudb catalog, without libpfm.
 *
 * A handle is opened on the catalog compiled into the library or on a
 * catalog file.  Encoding gives libpfm's answer for the same string:
 * pfm_get_os_event_encoding(str, PFM_PLM0|PFM_PLM3, PFM_OS_PERF_EVENT_EXT).
 * Every function returns errors instead of printing them; the error codes
 * are libpfm's (PMUDB_ERR_UMASK == PFM_ERR_UMASK ...) plus catalog errors.
 *
 * Thread safety: one handle may be used by several threads at once for
 * encoding, iterating and searching.  Open and close are not concurrent
 * with anything else on the same handle.
 */
#ifndef PMUDB_H
#define PMUDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMUDB_VERSION "0.1.0"

/* Status codes.  0 to -12 are libpfm's, with the same meaning. */
enum pmudb_status {
	PMUDB_OK = 0,
	PMUDB_ERR_NOTSUPP = -1,		/* not supported */
	PMUDB_ERR_INVAL = -2,		/* invalid parameters */
	PMUDB_ERR_NOINIT = -3,
	PMUDB_ERR_NOTFOUND = -4,	/* event (or PMU) not found */
	PMUDB_ERR_FEATCOMB = -5,	/* invalid combination of features */
	PMUDB_ERR_UMASK = -6,		/* invalid or missing unit mask */
	PMUDB_ERR_NOMEM = -7,
	PMUDB_ERR_ATTR = -8,		/* invalid event attribute */
	PMUDB_ERR_ATTR_VAL = -9,	/* invalid event attribute value */
	PMUDB_ERR_ATTR_SET = -10,	/* attribute value already set */
	PMUDB_ERR_TOOMANY = -11,	/* too many parameters */
	PMUDB_ERR_TOOSMALL = -12,
	PMUDB_ERR_CATALOG = -100,	/* catalog missing, damaged or of another version */
	PMUDB_ERR_NOCPU = -101,		/* no event table for the selected CPU */
};

/* What went wrong, for people: one line naming the input at fault. */
struct pmudb_error {
	int code;			/* enum pmudb_status */
	char message[512];
};

/* libpfm's name for CODE ("PFM_ERR_UMASK"), or "PMUDB_ERR_CATALOG" ... */
const char *pmudb_error_name(int code);
/* libpfm's text for CODE ("invalid or missing unit mask") ... */
const char *pmudb_strerror(int code);

typedef struct pmudb pmudb_t;

/* Opens the catalog at PATH, or the built-in one when PATH is NULL.
 * Returns NULL with ERR filled when the catalog is missing, empty, not
 * SQLite, damaged or of another schema version. */
pmudb_t *pmudb_open(const char *path, struct pmudb_error *err);
void pmudb_close(pmudb_t *db);

/* The catalog `make install` puts in PREFIX/share/pmudb/pmudb.db, for a
 * program that wants the installed file (rebuilt and replaced without
 * relinking) rather than the built-in catalog.  PREFIX is found at run
 * time, two directories above the library's own file (PREFIX/lib/
 * libpmudb.so.0, or PREFIX/bin/PROGRAM for a program linked with
 * libpmudb.a) when a catalog is there, else the PREFIX the library was
 * built with (default /usr/local).  pmudb_installed_catalog writes the
 * path into BUF (SIZE bytes): 0, or PMUDB_ERR_TOOSMALL. */
int pmudb_installed_catalog(char *buf, size_t size);
pmudb_t *pmudb_open_installed(struct pmudb_error *err);
/* What the catalog records of its making (its meta table; docs/schema.md):
 * "libpfm_version" and "libpfm_fingerprint" (libpfm's version string does
 * not tell releases apart: the fingerprint of its enumeration does),
 * "tables_fingerprint", "vendor_tree", "vendor_fingerprint",
 * "schema_version", "libpfm_pmus" ...  The value lives as long as DB;
 * NULL when the catalog has no such key. */
const char *pmudb_meta(pmudb_t *db, const char *key);

/* The PMUs an event name without "pmu::" is looked up in, in order. */
#define PMUDB_SCOPE_MAX 128
struct pmudb_scope {
	int count;
	int pmus[PMUDB_SCOPE_MAX];	/* PMU indexes, see pmudb_pmu_info() */
};

/* A scope of the one PMU NAME; PMUDB_ERR_NOTFOUND if there is none. */
int pmudb_scope_pmu(pmudb_t *db, const char *name, struct pmudb_scope *scope, struct pmudb_error *err);

/* ---- CPUs ---------------------------------------------------------------- */

/* A CPU as /proc/cpuinfo shows it: family and model with their extended bits. */
struct pmudb_cpu {
	char vendor[16];	/* "GenuineIntel", "AuthenticAMD" ... */
	int family, model, stepping;
};

/* The CPU this runs on: the CPUID instruction on x86, else /proc/cpuinfo. */
int pmudb_cpu_host(struct pmudb_cpu *cpu, struct pmudb_error *err);
/* The first processor of a /proc/cpuinfo file (another machine's too). */
int pmudb_cpu_from_cpuinfo(const char *path, struct pmudb_cpu *cpu, struct pmudb_error *err);
/* "VENDOR/FAMILY/MODEL[/STEPPING]", numbers decimal or 0x hex. */
int pmudb_cpu_parse(const char *spec, struct pmudb_cpu *cpu, struct pmudb_error *err);

/* Which CPUID map entry a CPU matched. */
struct pmudb_cpu_match {
	char why[512];		/* the entry's source */
	char source[256];	/* FILE:LINE of the entry in tables/ */
};

/* The scope of CPU's PMUs, from the catalog's CPUID map.  A CPU with no
 * entry gets PMUDB_ERR_NOCPU, with the nearest entries of its family named
 * in ERR, never another CPU's table; a CPU whose vendor does not end
 * within its array gets PMUDB_ERR_INVAL.  MATCH may be NULL. */
int pmudb_scope_cpu(pmudb_t *db, const struct pmudb_cpu *cpu, struct pmudb_scope *scope,
		    struct pmudb_cpu_match *match, struct pmudb_error *err);

/* What a vendor uncore PMU is on a machine (devices.c). */
struct pmudb_uncore_info {
	bool discovery_boxes;		/* its boxes numbered as the hardware's discovery tables list them,
					 * else in the driver's order */
	char device_identifier[256];	/* a system PMU's (Arm CMN, i.MX DDR): the pattern its device's
					 * sysfs identifier matches whole, the vendor's Compat; "" for a CPU's */
};
/* PMUDB_ERR_NOTFOUND for a PMU that is no vendor uncore PMU. */
int pmudb_pmu_uncore(pmudb_t *db, int pmu, struct pmudb_uncore_info *out, struct pmudb_error *err);
/* Appends to SCOPE the system PMUs whose devices this machine has, as perf
 * takes a sys/ list: a kernel PMU of its name (or pattern) in sysfs
 * (/sys/bus/event_source/devices, or $PMUDB_SYSFS_DEVICES) whose
 * `identifier` file the PMU's pattern matches whole.  PMUs SCOPE has are
 * not added twice.  The number added, or an error. */
int pmudb_scope_add_devices(pmudb_t *db, struct pmudb_scope *scope, struct pmudb_error *err);

/* One entry of the catalog's CPUID map: the CPUs it covers and their PMUs
 * (the core PMU first). */
#define PMUDB_ENTRY_PMUS 64
struct pmudb_cpuid_entry {
	char vendor[16];		/* "GenuineIntel", "AuthenticAMD", "0x41" (Arm) */
	int family, model_lo, model_hi, stepping_lo, stepping_hi;
	int npmus;
	char pmus[PMUDB_ENTRY_PMUS][64];
	char why[512];
};
typedef int (*pmudb_cpuid_fn)(void *ctx, const struct pmudb_cpuid_entry *entry);
/* Calls FOUND for every entry, in the order they are matched; FOUND
 * returning non-zero stops.  Returns the number of entries, or an error. */
int pmudb_cpuid_map(pmudb_t *db, pmudb_cpuid_fn found, void *ctx, struct pmudb_error *err);

struct pmudb_encoding {
	char pmu[64];			/* PMU that encoded it */
	/* pmu, fstr and sysfs_pmu are written up to their NUL: the bytes
	 * past it are left as they were */
	char fstr[512];			/* fully-qualified string, as libpfm's */
	int type;			/* perf_event_attr.type; -1 unresolved */
	char sysfs_pmu[64];		/* kernel PMU the type comes from, or "" */
	uint64_t config, config1, config2;
	bool exclude_user, exclude_kernel, exclude_hv, exclude_host, exclude_guest;
	unsigned precise_ip;
	uint64_t sample_period;		/* the frequency when freq is set */
	bool freq, exclusive, pinned;
	int cpu;			/* from cpu=, -1 when not given */
};

/* Encodes EVENT.  A name without "pmu::" is looked up in SCOPE (NULL: every
 * PMU of the catalog, in catalog order).  Returns PMUDB_OK or an error
 * code, with ERR naming the offending token; ERR may be NULL, and then no
 * message is written (a refusal costs no more than libpfm's). */
int pmudb_encode(pmudb_t *db, const char *event, const struct pmudb_scope *scope,
		 struct pmudb_encoding *out, struct pmudb_error *err);

/* On a hybrid CPU (a SCOPE with several core types: cpu_core, cpu_atom),
 * an unprefixed name counts on every core type that has it, as perf opens
 * it.  pmudb_encode answers as libpfm does where libpfm answers (the first
 * PMU of SCOPE with the name, the P-core) and else on the first core type
 * that encodes it; pmudb_encode_each answers on each: OUT[0] is
 * pmudb_encode's answer, then the other core types' in SCOPE's order, at
 * most MAX in all.  Returns their number (1 for a prefixed name or a CPU
 * of one core type), or pmudb_encode's error. */
int pmudb_encode_each(pmudb_t *db, const char *event, const struct pmudb_scope *scope,
		      struct pmudb_encoding *out, int max, struct pmudb_error *err);

/* ENC in perf's event syntax, what `perf stat -e` takes, into BUF (SIZE
 * bytes): perf's own names for generic hardware and cache events
 * ("cycles:u", "L1-dcache-load-misses"), else PMU/config=0x...[,config1=
 * ...][,period=N]/ with perf's modifiers (u or k, p per precise level, G
 * for the guest, GH for guest and host, e exclusive, D pinned).
 * The PMU is the kernel PMU the encoding names, "software" for software
 * events, "cpu" for x86 core events and for Arm core events the kernel's
 * PMUv3 PMU ("armv8_pmuv3_0" as on ACPI servers, or the armv8_/armv9_ PMU
 * this machine's sysfs has).  PMUDB_ERR_NOTSUPP where perf has no syntax
 * for it, PMUDB_ERR_TOOSMALL when BUF is too small, PMUDB_ERR_INVAL when
 * ENC's pmu or sysfs_pmu does not end within its array (an encoding
 * filled by hand). */
int pmudb_perf_syntax(pmudb_t *db, const struct pmudb_encoding *enc, char *buf, size_t size,
		      struct pmudb_error *err);
/* The same with perf's name= term set to LABEL (NULL: none), so that perf
 * labels its counts as the user wrote the event: bare where LABEL holds
 * only letters, digits and _ . : -, else in single quotes, and left out
 * where perf could not read it back (a '/', ',' or quote in it). */
int pmudb_perf_syntax_named(pmudb_t *db, const struct pmudb_encoding *enc, const char *label, char *buf, size_t size,
			    struct pmudb_error *err);
/* perf's name for a generic event, NAME (LEN bytes: "cycles",
 * "L1-dcache-load-misses"), as perf_event_attr's type (0 hardware, 3
 * cache) and config.  0, or PMUDB_ERR_NOTFOUND. */
int pmudb_perf_generic(const char *name, size_t len, int *type, uint64_t *config);

/* ---- the vendors' metrics (metrics.c) ------------------------------------- */

/* One metric as the vendor wrote it.  Strings live during the callback. */
struct pmudb_metric {
	const char *pmu;		/* the catalog PMU it is for (a µarch's core PMU), or NULL */
	const char *uarch;		/* "x86/graniterapids" */
	const char *name, *description;
	const char *expr;		/* MetricExpr, in perf's syntax */
	const char *groups;		/* MetricGroup ("TopdownL1;tma_L1_group"), or NULL */
	const char *threshold;		/* MetricThreshold, or NULL */
	const char *scale_unit;		/* ScaleUnit ("100%", "1GB/s"), or NULL */
	const char *constraint;		/* MetricConstraint, or NULL */
	const char *missing;		/* what it names that its µarch's lists lack, or NULL */
	const char *source;		/* its JSON file in the vendor tree */
};
typedef int (*pmudb_metric_fn)(void *ctx, const struct pmudb_metric *metric);
/* Calls FOUND for every metric of SCOPE's PMUs (NULL: of all) named NAME
 * or in group NAME (NULL: all), by name; FOUND returning non-zero stops.
 * The number found, or an error. */
int pmudb_metrics(pmudb_t *db, const struct pmudb_scope *scope, const char *name, pmudb_metric_fn found, void *ctx,
		  struct pmudb_error *err);

/* Calls FOUND for each name EXPR uses, once each in order of first use:
 * KIND 'i' an identifier (an event, or another metric), 'l' a literal
 * ("#smt_on"), 'q' a query ("source_count(X)" ...).  PMUDB_ERR_INVAL when
 * EXPR does not read as perf reads metric expressions. */
typedef int (*pmudb_term_fn)(void *ctx, const char *name, char kind);
int pmudb_metric_terms(const char *expr, pmudb_term_fn found, void *ctx, struct pmudb_error *err);

/* A count an expression names, as written ("INST_RETIRED.ANY",
 * "cpu_core@TOPDOWN.SLOTS@", "#smt_on", "source_count(X)"): 0 with *VALUE
 * set, non-zero when not given (another metric of that name is then
 * computed). */
typedef int (*pmudb_count_fn)(void *ctx, const char *name, double *value);
/* Computes metric NAME of SCOPE's PMUs from counts taken anywhere, as perf
 * computes it (a division by zero is NaN, d_ratio's 0).  PMUDB_ERR_NOTFOUND
 * (ERR naming it) for a metric or a count that is not there. */
int pmudb_metric_eval(pmudb_t *db, const struct pmudb_scope *scope, const char *name, pmudb_count_fn count, void *ctx,
		      double *value, struct pmudb_error *err);
/* The same for an expression in perf's syntax (a metric's, or one of the
 * caller's): the metrics of SCOPE it names are computed from the counts. */
int pmudb_metric_eval_expr(pmudb_t *db, const struct pmudb_scope *scope, const char *expr, pmudb_count_fn count,
			   void *ctx, double *value, struct pmudb_error *err);
/* Whether metric NAME's threshold (MetricThreshold, an expression of its
 * value and others': "tma_retiring > 0.7 | tma_heavy_operations > 0.1")
 * holds on the same counts: *CROSSED 1 or 0, -1 where it has none (or it
 * is NaN). */
int pmudb_metric_threshold(pmudb_t *db, const struct pmudb_scope *scope, const char *name, pmudb_count_fn count,
			   void *ctx, int *crossed, struct pmudb_error *err);

/* ---- the vendors' lists and their versions (sources.c) ------------------- */

/* One vendor list read into the catalog: a µarch's list as one source
 * states it.  Strings live during the callback. */
struct pmudb_vendor_list {
	int id;				/* its row */
	const char *uarch;		/* "x86/graniterapids" */
	const char *source;		/* the --pmu-events it is from, as its origin names it */
	const char *layout;		/* "kernel" (perf's tree), "perfmon" or "arm-data" */
	const char *file;		/* the file that states its version, or NULL */
	const char *version, *date;	/* "1.20", "2026-06-05"; NULL where not stated */
	int events, uncore, metrics;	/* what it lists */
	int superseded_by;		/* 0: the list encoded; else the row of the newer one that is */
	const char *kept;		/* superseded: the parts still encoded from it ("uncore, metrics"), or NULL */
};
typedef int (*pmudb_vendor_list_fn)(void *ctx, const struct pmudb_vendor_list *list);
/* Calls FOUND for every list of µarch UARCH ("x86/graniterapids", or
 * "graniterapids" in any arch; NULL: of all µarchs), each µarch's encoded
 * list first, then those it superseded; FOUND returning non-zero stops.
 * The number found (0 in a catalog built without vendor lists), or an
 * error. */
int pmudb_vendor_lists(pmudb_t *db, const char *uarch, pmudb_vendor_list_fn found, void *ctx,
		       struct pmudb_error *err);

/* One entry the encoded list of a µarch changed of a superseded one. */
struct pmudb_list_change {
	const char *event;		/* as the lists name it (CORE_TYPE/NAME on a hybrid) */
	const char *change;		/* "added", "removed" or "changed" */
	const char *was, *now;		/* the fields that encode it ("event=0xd1,umask=0x20"), NULL where not listed */
};
typedef int (*pmudb_list_change_fn)(void *ctx, const struct pmudb_list_change *change);
/* Calls FOUND for what the encoded list changed of the superseded list of
 * row LIST_ID, by event name.  The number of changes, or an error. */
int pmudb_list_changes(pmudb_t *db, int list_id, pmudb_list_change_fn found, void *ctx, struct pmudb_error *err);

/* ---- counters and groups (group.c) ------------------------------------- */

/* A PMU's counters: GENERIC general ones (GENERIC_SMT_OFF with SMT off,
 * -1 where nothing says), FIXED fixed ones, and where the numbers come
 * from: a vendor list's counter.json, tables/counters.yaml, the list's
 * Counter fields, or libpfm.  KNOWN false: nothing states them. */
struct pmudb_counter_count {
	int generic, generic_smt_off, fixed;
	bool known;
	char source[256];
};

/* Where one encoding may be counted: GENERAL bit n for general counter n,
 * FIXED bit n for fixed counter n, PEBS the counters it samples precisely
 * on (bit 32+n: fixed counter n; 0: as GENERAL).  STATED: a vendor list or
 * the kernel's fixed-counter rule says so, EVENT naming the entries and
 * SOURCE the FILE:LINE; else any general counter, the PMU's default. */
struct pmudb_counters {
	uint64_t general, fixed, pebs;
	bool taken_alone;		/* counted with no other event on the general counters */
	bool free_running;		/* a free-running counter counts it: it needs none */
	bool no_counter;		/* a software event: it needs no counter */
	bool stated;
	char event[224];
	char source[288];
};

/* The counters of ENC's PMU and where ENC may be counted.  SMT_OFF: as
 * with SMT off (the vendor's CounterHTOff).  PMUDB_ERR_CATALOG for a
 * damaged counter row, naming it. */
int pmudb_counters(pmudb_t *db, const struct pmudb_encoding *enc, bool smt_off, struct pmudb_counter_count *count,
		   struct pmudb_counters *where, struct pmudb_error *err);

/* The counters of PMU (a catalog PMU's name), as pmudb_counters gives
 * them for an encoding of it. */
int pmudb_pmu_counters(pmudb_t *db, const char *pmu, struct pmudb_counter_count *count, struct pmudb_error *err);

#define PMUDB_GROUP_FIXED 64	/* a counter number at or past it is fixed counter n - 64 */

struct pmudb_group_options {
	bool smt_off;			/* as with SMT off */
	int generic, fixed;		/* > 0: the PMUs' counters, whatever the catalog says */
};

/* One event of a group on one PMU (an unprefixed name on a hybrid CPU is
 * one member per core type). */
struct pmudb_group_member {
	int event;			/* index into the events given */
	struct pmudb_encoding enc;
	struct pmudb_counters where;
	int counter;			/* when its PMU's events fit: general n, or PMUDB_GROUP_FIXED + n; -1 none */
	int part;			/* its group in the smallest split (0 ...); -1: no counter counts it */
	bool competes;			/* they do not fit, and it is of a set with fewer counters than members */
};

struct pmudb_group_pmu {
	char pmu[64];
	struct pmudb_counter_count count;
	bool fits;			/* Linux places them at once (its scheduler: by weight, fixed first) */
	bool could_fit;			/* the counters could hold them, in some order (exact matching) */
	int parts;			/* groups of the smallest split (1 when it fits); -1: an event has no counter */
	bool exact;			/* PARTS is proven smallest (else first-fit's: more than 16 events) */
	int competing_counters;		/* they do not fit: the counters the competing events have among them */
	int first, n;			/* its members: members[first .. first + n) */
};

struct pmudb_group {
	int npmus, nmembers;
	struct pmudb_group_pmu *pmus;
	struct pmudb_group_member *members;
};

/* Whether EVENTS[0..N) can be counted at once, as one group per PMU (perf
 * opens a hybrid's group on each core type): per PMU, an assignment of
 * events to counters, or the events that compete and the smallest split
 * into groups that each fit.  Events are encoded in SCOPE as
 * pmudb_encode_each does.  OUT is freed with pmudb_group_free.  An event
 * the catalog refuses is its error, naming it; a PMU whose counters
 * nothing states, PMUDB_ERR_NOTSUPP naming it (OPTIONS->generic gives
 * them). */
int pmudb_group(pmudb_t *db, const char *const *events, int n, const struct pmudb_scope *scope,
		const struct pmudb_group_options *options, struct pmudb_group *out, struct pmudb_error *err);
/* The same for encodings ENCS[0..N) (member.event indexes them), as
 * pmudb stat has them: no core type added. */
int pmudb_group_encoded(pmudb_t *db, const struct pmudb_encoding *encs, int n, const struct pmudb_group_options *options,
			struct pmudb_group *out, struct pmudb_error *err);
void pmudb_group_free(struct pmudb_group *g);

/* ---- perf's PMU syntax: kernel PMU formats (perf_format.c) -------------- */

/* One field of a kernel PMU's format, as its sysfs format file says:
 * "umask" is config:8-15, AMD's "event" config:0-7,32-35 (a value's bits go
 * into MASK's bits from the lowest up). */
#define PMUDB_FORMAT_MAX 48
struct pmudb_format_term {
	char name[32];
	int field;			/* 0 config, 1 config1, 2 config2 */
	uint64_t mask;
};
struct pmudb_perf_format {
	int count;
	struct pmudb_format_term terms[PMUDB_FORMAT_MAX];
	char source[320];		/* the sysfs directory, or pmudb's table */
};

/* The format of kernel PMU NAME ("cpu", "uncore_cha_0", "amd_l3"): from
 * this machine's sysfs format directory (or $PMUDB_SYSFS_DEVICES) when it
 * has one, else from pmudb's table of the standard kernel PMUs (docs in
 * perf_format.c).  FAMILY, the catalog family of the PMU meant
 * ("intel_x86", "amd64", "arm_pmuv3") or NULL, picks between vendors'
 * layouts of "cpu".  PMUDB_ERR_NOTFOUND when neither has it,
 * PMUDB_ERR_INVAL for a malformed sysfs file (named in ERR). */
int pmudb_perf_format(const char *name, const char *family, struct pmudb_perf_format *fmt,
		      struct pmudb_error *err);
/* VALUE's bits placed into MASK's bits, lowest first; and back. */
uint64_t pmudb_format_put(uint64_t mask, uint64_t value);
uint64_t pmudb_format_get(uint64_t mask, uint64_t bits);

/* What perf and people write for a raw event, read into registers. */
struct pmudb_raw_event {
	char pmu[64];			/* the kernel PMU of perf's PMU syntax, or "" */
	uint64_t config, config1, config2;
	char modifiers[16];		/* perf's modifiers as written (u, k, p ...) */
};

/* Reads TEXT: "0x1c2" or "0x1c2,0x10001[,0x0]" (config, config1,
 * config2), perf's raw "r01c2[:u]", or perf's PMU syntax
 * "cpu/event=0xc2,umask=0x1,cmask=1,inv/u" (terms from the PMU's format,
 * see pmudb_perf_format, whose FAMILY this passes on; config=, config1=,
 * config2= always; ",config1=..." may also follow the closing '/').
 * PMUDB_ERR_INVAL with the fault named in ERR. */
int pmudb_perf_parse(const char *text, const char *family, struct pmudb_raw_event *out, struct pmudb_error *err);

/* ---- decoding: from registers back to event strings (decode.c) ---------- */

/* A decoder for one PMU: an index of its events by the bits of config
 * their event code fixes, and each unit mask's own bits, built once. */
typedef struct pmudb_decoder pmudb_decoder_t;
pmudb_decoder_t *pmudb_decoder_open(pmudb_t *db, int pmu, struct pmudb_error *err);
void pmudb_decoder_close(pmudb_decoder_t *dec);

struct pmudb_decoded {
	const char *event;		/* "skl::UOPS_RETIRED:ALL:c=1:i=1" */
	bool exact;			/* encodes to exactly the registers asked */
	uint64_t left[3];		/* when not: config, config1, config2 bits that differ */
};
typedef int (*pmudb_decode_fn)(void *ctx, const struct pmudb_decoded *d);

/* Calls FOUND for each event string of the decoder's PMU that encodes to
 * exactly CONFIG, CONFIG1, CONFIG2 (at most MAX, shortest first); when
 * none does, once for the nearest string, with the bits it leaves over.
 * Candidates are built from the catalog's events, unit masks and
 * modifiers, and each is checked with pmudb_encode.  Returns the number
 * of exact strings (0 when only a nearest one, or none at all, was found),
 * or an error. */
int pmudb_decode(pmudb_decoder_t *dec, uint64_t config, uint64_t config1, uint64_t config2, int max,
		 pmudb_decode_fn found, void *ctx, struct pmudb_error *err);

/* ---- browsing ---------------------------------------------------------- */

struct pmudb_pmu_info {
	const char *name, *description;
	const char *kind;		/* "core", "uncore", "os", "unknown" */
	const char *family;		/* encoder family, e.g. "intel_x86" */
	const char *family_group;	/* "intel_core", "amd_uncore_rapl" ... */
	int num_counters, num_fixed_counters;
	int perf_type;			/* -1: read from sysfs */
	const char *sysfs_pmu;		/* kernel PMU name, or NULL */
	int event_count;
	const char *source;		/* NULL: libpfm's; "pmu-events:ARCH/UARCH[@UNIT]": a vendor list's */
	const char *like;		/* for a vendor PMU, the libpfm PMU it takes its rules from */
};

struct pmudb_event_info {
	const char *name, *description;
	const char *equiv;		/* NULL, or the event it stands for */
	uint64_t code;
	bool is_precise;
	int umask_count, modifier_count;
	const char *source;		/* NULL: libpfm's; else the vendor file it comes from */
	const char *why;		/* NULL, or the source of the override that changed it */
};

struct pmudb_umask_info {
	const char *name, *description, *equiv;
	const char *source;		/* NULL: libpfm's; else the vendor file it comes from */
	const char *why;		/* NULL, or the source of the override that changed it */
	uint64_t code;
	bool is_default;
};

struct pmudb_modifier_info {
	const char *name, *description;
	bool is_integer, from_perf;
	uint64_t min, max;		/* accepted range, when known */
	bool range_known;
	uint64_t default_value;
};

int pmudb_pmu_count(pmudb_t *db);
int pmudb_pmu_info(pmudb_t *db, int pmu, struct pmudb_pmu_info *info);
int pmudb_find_pmu(pmudb_t *db, const char *name);	/* index, or -1 */
/* 1 when PMUs A and B have one event table (the same events, unit masks
 * and modifiers, in one order: the 28 CHA boxes of Skylake-X), 0 when not,
 * PMUDB_ERR_INVAL for no such PMU. */
int pmudb_pmu_shares_events(pmudb_t *db, int a, int b);
int pmudb_event_info(pmudb_t *db, int pmu, int event, struct pmudb_event_info *info);
int pmudb_umask_info(pmudb_t *db, int pmu, int event, int umask, struct pmudb_umask_info *info);
int pmudb_modifier_info(pmudb_t *db, int pmu, int event, int modifier, struct pmudb_modifier_info *info);

/* Finds EVENT ("pmu::event" or "event" in SCOPE); *pmu and *event set. */
int pmudb_find_event(pmudb_t *db, const char *event, const struct pmudb_scope *scope, int *pmu, int *ev,
		     struct pmudb_error *err);

/* What reconciling a libpfm PMU with a vendor's list found for one of its
 * events: a difference (corrected by an override, or a known difference)
 * or a vendor-only entry. */
struct pmudb_finding {
	const char *uarch;		/* the vendor list: perf's µarch folder */
	const char *match;		/* "differ" or "vendor_only" */
	const char *libpfm_name;	/* EVENT:UMASK, or NULL */
	const char *vendor_name, *vendor_file;
	uint64_t libpfm_config, libpfm_config1, vendor_config, vendor_config1;
	const char *explained;		/* "corrected", "equivalent", "vendor_error" or NULL */
	const char *why;		/* the override's or known difference's why */
	bool added;			/* a vendor-only entry now in the catalog */
};
typedef int (*pmudb_finding_fn)(void *ctx, const struct pmudb_finding *f);

/* Calls FOUND for each finding about event EVENT of PMU PMU; FOUND returning
 * non-zero stops, and it may use the handle (encode, look up).  A finding
 * and its strings last until FOUND returns.  Returns the number of
 * findings, or a negative error. */
int pmudb_event_findings(pmudb_t *db, int pmu, int event, pmudb_finding_fn found, void *ctx);

/* Calls FOUND for every live event and unit mask whose name or description
 * contains TEXT (case-insensitive); UMASK is -1 for an event.  FOUND
 * returning non-zero stops the search.  Returns the number of matches. */
typedef int (*pmudb_search_fn)(void *ctx, int pmu, int event, int umask);
int pmudb_search(pmudb_t *db, const char *text, pmudb_search_fn found, void *ctx);

/* ---- opening events yourself (perf_attr.c) ------------------------------ */

/* Declared, not defined: include <linux/perf_event.h> to use these.  pmudb.h
 * stays free of kernel headers (it builds where they are absent, for
 * offline encoding), and the size argument below lets a program built
 * against a newer or older <linux/perf_event.h> than the library's get an
 * attr of its own size. */
struct perf_event_attr;

/* Fills ATTR (ATTR_SIZE bytes: pass sizeof(struct perf_event_attr)) for
 * perf_event_open(2) from ENC: type, size, config, config1, config2, the
 * exclude_* bits, precise_ip, sample_period or sample_freq with freq,
 * exclusive, pinned; every other byte zero (read_format, disabled,
 * inherit ... are the caller's).  The perf type of a kernel PMU named in
 * ENC->sysfs_pmu is read again from this machine's sysfs, since the kernel
 * assigns it at boot: an encoding made elsewhere opens here.  ENC->cpu is
 * perf_event_open's cpu argument, not an attr field.
 * Errors: PMUDB_ERR_NOTFOUND when the kernel PMU is not on this machine,
 * PMUDB_ERR_INVAL on a malformed sysfs file or bad argument (ENC's pmu or
 * sysfs_pmu not ending within its array among them),
 * PMUDB_ERR_TOOSMALL when ATTR_SIZE cannot hold a field ENC sets.
 * Sysfs is /sys/bus/event_source/devices, or $PMUDB_SYSFS_DEVICES (a copy
 * of another machine's, or a test's). */
int pmudb_to_perf_attr(const struct pmudb_encoding *enc, struct perf_event_attr *attr, size_t attr_size,
		       struct pmudb_error *err);

/* The directory whose entries are this machine's kernel PMUs, which every
 * call that reads sysfs (perf types, formats, cpumasks, identifiers, the
 * perf syntax's PMU names) reads: $PMUDB_SYSFS_DEVICES when set and not
 * empty, else /sys/bus/event_source/devices.  Never NULL. */
const char *pmudb_sysfs_devices(void);

/* The CPUs kernel PMU NAME counts on, from its sysfs cpumask (uncore PMUs
 * have one; open one event per CPU there, pid -1).  Fills up to MAX of
 * them into CPUS and returns how many there are (which may exceed MAX);
 * 0 when the PMU has no cpumask (it counts per task, like a core PMU).
 * PMUDB_ERR_NOTFOUND when there is no such kernel PMU here;
 * PMUDB_ERR_INVAL when the cpumask is empty or malformed. */
int pmudb_kernel_pmu_cpus(const char *name, int *cpus, int max, struct pmudb_error *err);

/* Parses a kernel CPU list ("0-3,8,10-11\n", as cpumask and
 * /sys/devices/system/cpu/online hold it).  Fills up to MAX CPUs into CPUS
 * and returns how many the list names (possibly more than MAX), or
 * PMUDB_ERR_INVAL with ERR giving the position at fault.  CPU numbers
 * above PMUDB_CPU_LIMIT are refused. */
#define PMUDB_CPU_LIMIT 65535
int pmudb_parse_cpulist(const char *text, int *cpus, int max, struct pmudb_error *err);

#ifdef __cplusplus
}
#endif

#endif
