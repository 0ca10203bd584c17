/*
 * export.h - what the exporters of `pmudb export` share: the walk over the
 * selected PMUs, their events and unit masks, each with the encoding of
 * its bare string (export_walk.c), and the writers (cmd_export.c: json
 * and csv; export_perf.c: perf's pmu-events tree).
 */
#ifndef PMUDB_CLI_EXPORT_H
#define PMUDB_CLI_EXPORT_H

#include "cli/cli.h"

/* One event (umask -1) or unit mask, with its string's encoding. */
struct export_item {
	int pmu, event, umask;
	const struct pmudb_pmu_info *p;
	const struct pmudb_event_info *ev;
	const struct pmudb_umask_info *um;	/* NULL for the event */
	char string[640];			/* "pmu::EVENT[:UMASK]" */
	int status;				/* pmudb_encode's */
	struct pmudb_encoding enc;
	struct pmudb_error err;
};

/* Called for each PMU (item NULL, before its events) and each item. */
typedef int (*export_fn)(void *ctx, int pmu, const struct pmudb_pmu_info *p, const struct export_item *item);

/* The PMUs to export: every --pmu given (checked), else all. */
int export_select(struct cli *c, int **pmus, int *count);
/* Walks PMUS; stops at the first non-zero return of FN, which it returns. */
int export_walk(struct cli *c, const int *pmus, int count, export_fn fn, void *ctx);

/* Whether PMU B's events answer as PMU A's (the two share an event table):
 * each bare string of B encodes as A's with A's name, in the string, the
 * fstr and a refusal's message, and A's kernel PMU, in the encoding and
 * perf's syntax, made B's. */
bool export_same_answers(struct cli *c, int a, int b);

/* perf's pmu-events tree under DIR (export_perf.c). */
int export_perf_json(struct cli *c, const int *pmus, int count, const char *dir, bool replace);

#endif
