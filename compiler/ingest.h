/*
 * ingest.h - read libpfm's tables through its public API into a model.
 */
#ifndef PMUDB_COMPILER_INGEST_H
#define PMUDB_COMPILER_INGEST_H

#include <stddef.h>

#include "compiler/model.h"

/* libpfm must be initialised.  Returns 0, or -1 with a message in ERR. */
int ingest_libpfm(struct model *m, char *err, size_t errlen);

#endif
