/*
 * family_encoders.h - one encoder per encoding family (catalog/families.h
 * says which families there are; family_encoders.c encodes for each).
 */
#ifndef PMUDB_FAMILY_ENCODERS_H
#define PMUDB_FAMILY_ENCODERS_H

#include <assert.h>
#include <stdint.h>

#include "catalog/families.h"
#include "runtime/encode/request.h"

/* Sets config/config1/config2 (or codes) and the PMU part of fstr, by
 * family id. */
extern int (*const family_encoders[FAMILY_COUNT])(struct request *rq);

/* RQ's PMU's family encoder on RQ. */
static inline int family_encode(struct request *rq)
{
	assert(rq->pmu->family && rq->pmu->family->id < FAMILY_COUNT);
	return family_encoders[rq->pmu->family->id](rq);
}

/* For a family whose event names are numbers (perf_raw's rNNNN): 0 and
 * *CODE set when NAME is one, else -1. */
int family_event_number(const char *name, uint64_t *code);

/* Encoders in files of their own. */
int encode_netburst(struct request *rq);	/* family_netburst.c */

#endif
