/*
 * corpus.h - event strings built from libpfm's own enumeration: every event
 * alone, with each unit mask, with each pair of unit masks, with each
 * modifier at 0 and 1 (boolean) or at its bounds and one past them
 * (integer) (an event libpfm refuses alone: the perf_events layer's also on
 * the first unit mask it takes alone), and a fixed list of malformed
 * strings.
 */
#ifndef PMUDB_TESTS_CORPUS_H
#define PMUDB_TESTS_CORPUS_H

#include "pmudb.h"

/* GROUP is the PMU's family group ("intel_core" ...) or "malformed". */
typedef void (*corpus_fn)(void *ctx, const char *group, const char *event);

/* libpfm must be initialised (LIBPFM_ENCODE_INACTIVE=1); DB gives the
 * measured ranges of integer modifiers.  ONLY_PMU: one PMU, or NULL. */
void corpus_generate(pmudb_t *db, const char *only_pmu, corpus_fn fn, void *ctx);

#endif
