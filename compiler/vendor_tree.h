/*
 * vendor_tree.h - read the vendors' own event lists into the model: perf's
 * pmu-events tree (tools/perf/pmu-events/arch of any Linux kernel), a
 * checkout of Intel's perfmon repository, or of ARM-software/data; several
 * of them, each recognised by what is in it.  The second source of the
 * catalog, beside ingest.c (libpfm).
 */
#ifndef PMUDB_COMPILER_VENDOR_TREE_H
#define PMUDB_COMPILER_VENDOR_TREE_H

#include "compiler/model.h"

/* Reads every list of the vendor directory DIR into m->uarchs, where the
 * newest list of each µarch wins (vendor_newest.h); ORIGIN names it (NULL:
 * its path).  An entry that cannot be read is left out with a note.
 * Returns 0, or -1 with *error malloc'd, "FILE:LINE:COLUMN: what is wrong"
 * for a file that cannot be read. */
int vendor_tree_read(struct model *m, const char *dir, const char *origin, char **error);

#endif
