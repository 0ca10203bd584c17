/*
 * cli.h - what the pmudb commands share: options, the open catalog, the
 * PMUs unprefixed names resolve in, and output helpers.
 */
#ifndef PMUDB_CLI_H
#define PMUDB_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/output.h"
#include "pmudb.h"

/* Exit status of every command (documented in --help and README.md). */
#define EXIT_GOOD 0
#define EXIT_REJECTED 1		/* an event was rejected, or nothing found */
#define EXIT_USAGE 2		/* usage or catalog error */
#define EXIT_DOES_NOT_FIT 3	/* pmudb group: the events do not fit at once */

struct cli {
	const char *command;		/* the command running, for messages */
	const char *db_path;		/* --db, or $PMUDB_DB; NULL: built-in */
	const char *pmu;		/* --pmu (the last one given) */
	const char *pmus[64];		/* every --pmu, for commands that take several */
	int npmus;
	const char *cpu;		/* --cpu VENDOR/FAMILY/MODEL[/STEPPING] */
	const char *cpuinfo;		/* --cpuinfo FILE, or $PMUDB_CPUINFO */
	bool cpuinfo_from_env;		/* $PMUDB_CPUINFO's, which --pmu and --cpu override */
	pmudb_t *db;
	struct pmudb_scope scope;
	bool scope_resolved;		/* the host's is found when first needed */
	bool has_scope;
	/* the CPU the scope comes from, when not --pmu */
	struct pmudb_cpu host;
	struct pmudb_cpu_match match;
	struct pmudb_error scope_error;	/* why there is no scope */
};

/* Opens the catalog and resolves --pmu/--cpu; prints the error and
 * returns EXIT_USAGE on failure. */
int cli_open(struct cli *c);
void cli_close(struct cli *c);

/* The scope for unprefixed names (empty when no CPU could be found; then
 * c->scope_error says why). */
const struct pmudb_scope *cli_scope(struct cli *c);
/* The scope EVENT needs: none for "pmu::event" (the host is not looked up). */
const struct pmudb_scope *cli_scope_for(struct cli *c, const char *event);
/* R, what encoding or finding EVENT returned: for a name without "pmu::"
 * not found where the host's scope could not be had, ERR becomes why not
 * (no table for its CPU, say), and R PMUDB_ERR_CATALOG where that is a
 * damaged catalog. */
int cli_why_not_found(struct cli *c, const char *event, int r, struct pmudb_error *err);
/* Whether the host's scope failed because the catalog is damaged (its
 * CPUID map): then says so for COMMAND, in one line. */
bool cli_scope_damaged(struct cli *c, const char *command);
/* Into OUT (SIZE bytes): "did you mean A, B, C" with the names nearest
 * EVENT, which was not found, where it was looked up; "" when none is
 * near (suggest.c). */
void cli_suggest(struct cli *c, const char *event, char *out, size_t size);
/* Appends "; did you mean ..." to ERR's message when ERR is a name not
 * found and a name is near. */
void cli_add_suggestion(struct cli *c, const char *event, struct pmudb_error *err);

/* Whether EVENT holds "::" (names its PMU). */
bool cli_names_pmu(const char *event);

/* Takes a leading "--" out of a command's arguments (ARGV[1]): what
 * follows is the operand, whatever it looks like.  True when there was
 * one. */
bool cli_take_dashes(int *argc, char ***argv);

/* Prints that the catalog could not give what FMT says ("PMU %d",
 * "event %d of PMU %s"): it is damaged (the library has refused it). */
void cli_damaged(const struct cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The numbered boxes KPMU_N of kernel PMU KPMU that sysfs lists, their
 * numbers sorted into *BOXES (the caller frees; BOXES may be NULL), gaps
 * kept; how many.  *ITSELF (may be NULL): whether sysfs has KPMU itself,
 * in which case no box is counted. */
/* The sysfs devices of kernel PMU KPMU as perf takes them for KPMU/.../:
 * KPMU itself, or each named KPMU[_]NUMBER (uncore_cha_3, imx8_ddr0) or
 * matching KPMU as a glob (hisi_sccl*_ddrc*), in number order; into
 * *NAMES (free with cli_free_names), their count. */
int cli_kernel_devices(const char *kpmu, char ***names);
void cli_free_names(char **names, int n);
int cli_kernel_boxes(const char *kpmu, int **boxes, bool *itself);

/* Writes S as a JSON string (quoted, escaped; see out_json_string). */
void json_quoted(FILE *f, const char *s);
/* Writes ,"KEY": and VALUE as a JSON string, or null, to stdout. */
void cli_json_field(const char *key, const char *value);
/* Writes V as a JSON number, or null when it is not finite (JSON has no
 * inf or nan: a metric's division by zero, a scaled value's overflow). */
void cli_json_number(FILE *f, double v);
/* Where an encoding may be counted (pmudb_counters), as the fields of a
 * JSON object, "general" first (no comma before it), to stdout. */
void cli_counters_json(const struct pmudb_counters *w);
/* This host's /sys/devices/system/cpu/smt/active: 1 SMT on, 0 off, -1
 * not known. */
int cli_smt_active(void);
/* A metric's ScaleUnit ("100%", "1GB/s", or NULL): its factor (1 where it
 * gives none) and its unit, the text after the number. */
double cli_scale_unit(const char *scale_unit, const char **unit);

int cmd_encode(struct cli *c, int argc, char **argv);
int cmd_pmus(struct cli *c, int argc, char **argv);
int cmd_metrics(struct cli *c, int argc, char **argv);
int cmd_metric(struct cli *c, int argc, char **argv);
int cmd_list(struct cli *c, int argc, char **argv);
int cmd_info(struct cli *c, int argc, char **argv);
int cmd_search(struct cli *c, int argc, char **argv);
int cmd_detect(struct cli *c, int argc, char **argv);
int cmd_stat(struct cli *c, int argc, char **argv);
int cmd_decode(struct cli *c, int argc, char **argv);
int cmd_export(struct cli *c, int argc, char **argv);
int cmd_diff(struct cli *c, int argc, char **argv);
int cmd_sources(struct cli *c, int argc, char **argv);
int cmd_group(struct cli *c, int argc, char **argv);
/* "0-3,6" for the counters of MASK (bit n: counter n), "none" for none. */
void cli_counter_list(uint64_t mask, char *buf, size_t size);
/* pmudb diff UARCH@OLD UARCH@NEW (diff_lists.c). */
int diff_lists(struct cli *c, const char *a, const char *b, bool json);
/* pmudb --version: the program's, and what the catalog was built from. */
int print_version(struct cli *c);

#endif
