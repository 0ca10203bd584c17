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
 * name there first too.
 */
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/errors.h"
#include "pmudb.h"
#include "runtime/api/hybrid.h"

#define MAX_CORE_TYPES 8

/* A scope's core types: each a core PMU with a kernel PMU name of its
 * own, read once. */
struct core_types {
	int count;
	int position[MAX_CORE_TYPES];		/* in the scope */
	const char *name[MAX_CORE_TYPES];	/* the catalog PMU's */
	const char *kernel[MAX_CORE_TYPES];	/* its kernel PMU's */
};

static bool is_core_type(const struct pmu *p)
{
	return p && p->sysfs_name && p->kind && !strcmp(p->kind, "core");
}

static void find_core_types(pmudb_t *db, const struct pmudb_scope *scope, struct core_types *t)
{
	t->count = 0;
	for (int i = 0; i < scope->count && t->count < MAX_CORE_TYPES; i++) {
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

/* The core types an unprefixed EVENT is tried on: none (count 0) when
 * it names its PMU or SCOPE is no hybrid's. */
static void types_for(pmudb_t *db, const char *event, const struct pmudb_scope *scope, struct core_types *t)
{
	t->count = 0;
	if (!names_pmu(event) && scope->count <= PMUDB_SCOPE_MAX)
		find_core_types(db, scope, t);
	if (t->count < 2)
		t->count = 0;
}

int pmudb_encode_each(pmudb_t *db, const char *event, const struct pmudb_scope *scope,
		      struct pmudb_encoding *out, int max, struct pmudb_error *err)
{
	if (max < 1 || !out)
		return set_error(err, PMUDB_ERR_INVAL, "%s: room for %d encodings", pmudb_strerror(PMUDB_ERR_INVAL), max);
	/* the first answer as pmudb_encode gives it: libpfm's where libpfm
	 * answers, else the first core type's that has the name */
	int r = pmudb_encode(db, event, scope, &out[0], err);
	if (r)
		return r;
	struct core_types t = { 0 };
	if (scope)
		types_for(db, event, scope, &t);
	int found = 1;
	for (int k = 0; k < t.count && found < max; k++) {
		/* the first answer's core type is answered already */
		if (!strcmp(out[0].pmu, t.name[k]))
			continue;
		struct pmudb_scope one;
		scope_of_type(db, scope, &t, k, &one);
		struct pmudb_encoding *e = &out[found];
		if (pmudb_encode(db, event, &one, e, NULL))
			continue;
		bool again = false;
		for (int i = 0; i < found && !again; i++)
			again = !strcmp(out[i].pmu, e->pmu);
		if (!again)
			found++;
	}
	return found;
}

int hybrid_retry(pmudb_t *db, const char *event, const struct pmudb_scope *scope, struct pmudb_encoding *out)
{
	struct core_types t;
	types_for(db, event, scope, &t);
	/* each scope of one core type has no other to retry in */
	for (int k = 0; k < t.count; k++) {
		struct pmudb_scope one;
		scope_of_type(db, scope, &t, k, &one);
		if (!pmudb_encode(db, event, &one, out, NULL))
			return 0;
	}
	return -1;
}
