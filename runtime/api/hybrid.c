/*
 * hybrid.c - an unprefixed event name on a hybrid CPU: the answers of its
 * core types.
 *
 * A hybrid CPU (Alder Lake, Meteor Lake, Lunar Lake ...) has one core PMU
 * per core type, each with its own kernel PMU (cpu_core, cpu_atom) and
 * its own event list.  libpfm looks an unprefixed name up in the first
 * PMU that has it and stops there, right or wrong; perf opens the name on
 * every core type that has it.  Here the scope is split into one scope per
 * core type (the type's PMU and every PMU of the scope that is no core
 * type, in the scope's order), and the name encoded in each.
 *
 * What libpfm answers stays the first answer: the first core type in the
 * scope is the P-core (the CPUID map lists it first), and libpfm finds the
 * name there first too.  The encoding is encode.c's: this file only makes
 * the scopes.
 */
#include <string.h>

#include "catalog/catalog.h"
#include "pmudb.h"
#include "runtime/api/hybrid.h"

/* A scope's core types: each a core PMU with a kernel PMU name of its
 * own, read once. */
struct core_types {
	int count;
	int position[HYBRID_MAX_TYPES];		/* in the scope */
	const char *name[HYBRID_MAX_TYPES];	/* the catalog PMU's */
	const char *kernel[HYBRID_MAX_TYPES];	/* its kernel PMU's */
};

static bool is_core_type(const struct pmu *p)
{
	return p && p->sysfs_name && p->kind && !strcmp(p->kind, "core");
}

static void find_core_types(pmudb_t *db, const struct pmudb_scope *scope, struct core_types *t)
{
	t->count = 0;
	for (int i = 0; i < scope->count && t->count < HYBRID_MAX_TYPES; i++) {
		const struct pmu *p = catalog_pmu(db, scope->pmus[i], NULL);
		if (!is_core_type(p))
			continue;
		bool seen = false;
		for (int k = 0; k < t->count && !seen; k++)
			seen = !strcmp(t->kernel[k], p->sysfs_name);
		if (seen)
			continue;
		t->position[t->count] = i;
		t->name[t->count] = p->name;
		t->kernel[t->count++] = p->sysfs_name;
	}
}

/* SCOPE without the PMUs of core types other than the K-th of T. */
static void scope_of_type(pmudb_t *db, const struct pmudb_scope *scope, const struct core_types *t, int k,
			  struct pmudb_scope *out)
{
	out->count = 0;
	for (int i = 0; i < scope->count; i++) {
		const struct pmu *p = catalog_pmu(db, scope->pmus[i], NULL);
		bool other_type = false;
		if (is_core_type(p) && strcmp(p->sysfs_name, t->kernel[k]))
			for (int o = 0; o < t->count && !other_type; o++)
				other_type = !strcmp(p->sysfs_name, t->kernel[o]);
		if (!other_type)
			out->pmus[out->count++] = scope->pmus[i];
	}
}

/* Whether EVENT names its PMU ("pmu::event"). */
static bool names_pmu(const char *event)
{
	return strstr(event, "::") != NULL;
}

int hybrid_types(pmudb_t *db, const char *event, const struct pmudb_scope *scope, struct hybrid_types *out)
{
	out->count = 0;
	if (!scope || names_pmu(event) || scope->count > PMUDB_SCOPE_MAX)
		return 0;
	struct core_types t;
	find_core_types(db, scope, &t);
	if (t.count < 2)
		return 0;
	for (int k = 0; k < t.count; k++) {
		scope_of_type(db, scope, &t, k, &out->scope[k]);
		out->pmu[k] = t.name[k];
	}
	out->count = t.count;
	return out->count;
}
