/*
 * stat_metrics.h - pmudb stat -M: the events the named metrics (or
 * groups) need, and their values once counted.  cmd_stat.c counts the
 * events as it counts -e's; this file knows the metrics.
 */
#ifndef PMUDB_CLI_STAT_METRICS_H
#define PMUDB_CLI_STAT_METRICS_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"

struct stat_metrics;

/* The metrics NAMES (N of them, metric or group names) of the selected
 * PMUs and the events they need, each once; NULL with the reason printed
 * (one line) when a name is no metric or its events cannot be had. */
struct stat_metrics *stat_metrics_open(struct cli *c, char *const *names, int n);
void stat_metrics_free(struct stat_metrics *m);

/* The events to count: strings pmudb encodes ("spr::INST_RETIRED.ANY"). */
int stat_metrics_events(const struct stat_metrics *m);
const char *stat_metrics_event(const struct stat_metrics *m, int i);

/* What was counted: event I's count as if counted all the time; false
 * when it was not counted (never ran). */
typedef bool (*stat_count_fn)(void *ctx, int i, double *value);

/* What the machine's values are for the expressions' #literals. */
struct stat_context {
	double elapsed;			/* seconds counted: duration_time */
	bool system_wide;		/* -a: #core_wide */
};

/* Prints each metric: text lines after the counts ("# metric NAME VALUE
 * UNIT"), or a JSON array value (JSON: "[...]"). */
void stat_metrics_print(struct stat_metrics *m, FILE *f, bool json, stat_count_fn count, void *ctx,
			const struct stat_context *sc);

#endif
