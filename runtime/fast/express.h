/*
 * express.h - the express lane, pmudb_encode's first try (express.c).
 */
#ifndef PMUDB_EXPRESS_H
#define PMUDB_EXPRESS_H

#include <stdbool.h>

#include "runtime/encode/bare.h"
#include "catalog/catalog.h"
#include "runtime/fast/intake.h"

/* What express_encode returns for a string it leaves to the stages: no
 * error code (they are negative) and not PMUDB_OK. */
#define EXPRESS_DECLINED 1

/* EVENT (read into IN) encoded into OUT, as the stages would: PMUDB_OK,
 * or the error code with ERR's message unless QUIET; or EXPRESS_DECLINED,
 * OUT's fstr, pmu and sysfs_pmu then untouched, when the string is not of
 * the shapes the lane reads or its event is not in the event cache.
 * *FOUND: the bare encoding of the string's "PMU::EVENT" the event cache
 * gave, or NULL, for the stages. */
int express_encode(struct pmudb *db, const char *event, const struct intake *in, struct pmudb_encoding *out,
		   struct pmudb_error *err, bool quiet, const struct bare_encoding **found);

/* Whether DB's encodings may take the express lane (they do unless told):
 * the tests compare the lane's answers with the stages'. */
void express_allow(struct pmudb *db, bool allowed);

#endif
