/*
 * vendor_metrics.h - the metrics of the vendors' lists (MetricName,
 * MetricExpr ...): read beside the events (vendor_read.c calls in), each
 * expression read as perf reads it (catalog/metric_expr.h) and checked
 * against the catalog's events once the PMUs are made.
 */
#ifndef PMUDB_COMPILER_VENDOR_METRICS_H
#define PMUDB_COMPILER_VENDOR_METRICS_H

#include <jansson.h>

#include "compiler/model.h"

/* Adds the metric of entry E to U: its fields, over those of BASE (an
 * architecture-standard metric it names) where it has none.  FILE, LINE
 * and COLUMN say where.  0, or -1 with *ERROR: a field that is not a
 * string, an expression perf could not read. */
int vendor_metric_read(struct vendor_uarch *u, json_t *e, json_t *base, const char *file, int line, int column,
		       char **error);

/* Once the PMUs are made: drops a metric written twice alike in one file
 * (a note at the second), and marks each metric that names an event no PMU of
 * its µarch has (nor another metric, nor one of perf's own names), with a
 * note per µarch. */
void vendor_metrics_check(struct model *m);

#endif
