/*
 * hybrid.h - an unprefixed name on a hybrid CPU: the scopes of its core
 * types, each of which encode.c tries (hybrid.c).
 */
#ifndef PMUDB_HYBRID_H
#define PMUDB_HYBRID_H

#include "pmudb.h"

#define HYBRID_MAX_TYPES 8

/* The core types of a hybrid's scope, each as a scope of its own: the
 * type's core PMU and every PMU of the scope that is no core type, in the
 * scope's order. */
struct hybrid_types {
	int count;
	struct pmudb_scope scope[HYBRID_MAX_TYPES];
	const char *pmu[HYBRID_MAX_TYPES];	/* each type's core PMU */
};

/* The core types an unprefixed EVENT is tried on, P-core first, into OUT;
 * how many: 0 when EVENT names its PMU ("pmu::event") or SCOPE (NULL
 * allowed) is no hybrid's. */
int hybrid_types(pmudb_t *db, const char *event, const struct pmudb_scope *scope, struct hybrid_types *out);

#endif
