/*
 * emit.h - write the model as a SQLite catalog.
 */
#ifndef PMUDB_COMPILER_EMIT_H
#define PMUDB_COMPILER_EMIT_H

#include "compiler/model.h"

struct emit_stats {
	long pmus, events, umasks;		/* as libpfm counts them: per PMU */
	long libpfm_pmus, libpfm_events, libpfm_umasks;	/* of those, libpfm's own */
	long stored_events, stored_umasks;	/* rows, once per shared table */
	long event_tables, modifier_sets, pair_rule_misses;
	long metrics;				/* the vendors' metrics */
};

/* Writes M into a new database at PATH, which must not exist yet.
 * Returns 0, or -1 with *error malloc'd. */
int emit_catalog(const struct model *m, const char *path, struct emit_stats *stats, char **error);

#endif
