/*
 * vendor_tree.h - read the vendors' own event lists into the model: perf's
 * pmu-events tree (tools/perf/pmu-events/arch of the Linux kernel) or a
 * checkout of Intel's perfmon repository.  The second source of the catalog,
 * beside ingest.c (libpfm).
 */
#ifndef PMUDB_COMPILER_VENDOR_TREE_H
#define PMUDB_COMPILER_VENDOR_TREE_H

#include "compiler/model.h"

/* Reads every core event of every µarch that the tree's mapfiles name into
 * m->uarchs.  Returns 0, or -1 with *error malloc'd, "FILE:LINE:COLUMN: what
 * is wrong" for a malformed file. */
int vendor_tree_read(struct model *m, const char *dir, char **error);

#endif
