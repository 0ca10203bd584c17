/*
 * express.h - the express lane, pmudb_encode's first try (express.c).
 */
#ifndef PMUDB_EXPRESS_H
#define PMUDB_EXPRESS_H

#include <stdbool.h>

#include "bare.h"
#include "catalog.h"
#include "intake.h"

/* What express_encode returns for a string it leaves to the stages: no
 * error code (they are negative) and not PMUDB_OK. */
#define EXPRESS_DECLINED 1

/* EVENT (read into IN) encoded into OUT, as the stages would: PMUDB_OK;
 * or, for a caller that wants no message (QUIET), the error code; or
 * EXPRESS_DECLINED, OUT's fstr, pmu and sysfs_pmu then untouched, when
 * the string is not of the shapes the lane takes or its event has no bare
 * encoding yet.  *FOUND: the bare encoding of the string's "PMU::EVENT"
 * the event cache gave, or NULL, for the stages. */
int express_encode(struct pmudb *db, const char *event, const struct intake *in, struct pmudb_encoding *out,
		   bool quiet, const struct bare_encoding **found);

/* Whether DB's encodings may take the express lane (they do unless told):
 * the tests compare the lane's answers with the stages'. */
void express_allow(struct pmudb *db, bool allowed);

#endif
