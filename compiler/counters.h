/*
 * counters.h - each PMU's counters and the rules of where its encodings
 * may be counted (counters.c), from the vendors' lists and
 * tables/counters.yaml, for the catalog's counter_count and counter_rule.
 */
#ifndef PMUDB_COMPILER_COUNTERS_H
#define PMUDB_COMPILER_COUNTERS_H

#include "compiler/model.h"

/* Fills m->counter_counts and m->counter_rules; once every PMU is made
 * and before vendor_uncore_finish (the uncore entries are read). */
void counters_derive(struct model *m);

#endif
