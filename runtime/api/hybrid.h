/*
 * hybrid.h - an unprefixed name on a hybrid CPU, tried on each core type
 * (hybrid.c).
 */
#ifndef PMUDB_HYBRID_H
#define PMUDB_HYBRID_H

#include "pmudb.h"

/* For pmudb_encode, when EVENT (no "pmu::") failed where libpfm looks it
 * up: the first core type of SCOPE that encodes it.  0 with OUT filled,
 * or -1 when SCOPE is no hybrid's or no core type has the name. */
int hybrid_retry(pmudb_t *db, const char *event, const struct pmudb_scope *scope, struct pmudb_encoding *out);

#endif
