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

/* The scope's core types: positions in SCOPE of core PMUs with a kernel
 * PMU name of their own.  Their number, at most MAX. */
static int core_types(pmudb_t *db, const struct pmudb_scope *scope, int *types, int max)
{
	int n = 0;
	for (int i = 0; i < scope->count && n < max; i++) {
		const struct pmu *p = catalog_pmu(db, scope->pmus[i], NULL);
		if (!p || !p->sysfs_name || !p->kind || strcmp(p->kind, "core"))
			continue;
		bool seen = false;
		for (int k = 0; k < n && !seen; k++)
			seen = !strcmp(catalog_pmu(db, scope->pmus[types[k]], NULL)->sysfs_name, p->sysfs_name);
		if (!seen)
			types[n++] = i;
	}
	return n;
}

/* SCOPE without the core types of TYPES (N of them) but the K-th. */
static void scope_of_type(pmudb_t *db, const struct pmudb_scope *scope, const int *types, int n, int k,
			  struct pmudb_scope *out)
{
	const char *mine = catalog_pmu(db, scope->pmus[types[k]], NULL)->sysfs_name;
	out->count = 0;
	for (int i = 0; i < scope->count; i++) {
		const struct pmu *p = catalog_pmu(db, scope->pmus[i], NULL);
		bool other_type = false;
		for (int t = 0; t < n && !other_type; t++)
			other_type = t != k && p && p->sysfs_name && p->kind && !strcmp(p->kind, "core")
				     && strcmp(p->sysfs_name, mine)
				     && !strcmp(p->sysfs_name, catalog_pmu(db, scope->pmus[types[t]], NULL)->sysfs_name);
		if (!other_type)
			out->pmus[out->count++] = scope->pmus[i];
	}
}

/* Whether EVENT names its PMU ("pmu::event"). */
static bool names_pmu(const char *event)
{
	return strstr(event, "::") != NULL;
}

#define MAX_CORE_TYPES 8

int pmudb_encode_each(pmudb_t *db, const char *event, const struct pmudb_scope *scope,
		      struct pmudb_encoding *out, int max, struct pmudb_error *err)
{
	if (max < 1 || !out)
		return set_error(err, PMUDB_ERR_INVAL, "%s: room for %d encodings", pmudb_strerror(PMUDB_ERR_INVAL), max);
	/* the first answer as pmudb_encode gives it: libpfm's where libpfm
	 * answers, else the first core type's that has the name */
	int r = pmudb_encode(db, event, scope, &out[0], err);
	int types[MAX_CORE_TYPES];
	int n = !r && db && event && scope && !names_pmu(event) && scope->count <= PMUDB_SCOPE_MAX
			? core_types(db, scope, types, MAX_CORE_TYPES)
			: 0;
	if (r || n < 2)
		return r ? r : 1;
	int found = 1;
	for (int k = 0; k < n && found < max; k++) {
		struct pmudb_scope one;
		scope_of_type(db, scope, types, n, k, &one);
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
	int types[MAX_CORE_TYPES];
	if (names_pmu(event) || scope->count > PMUDB_SCOPE_MAX)
		return -1;
	int n = core_types(db, scope, types, MAX_CORE_TYPES);
	/* each scope of one core type has no other to retry in */
	for (int k = 0; n >= 2 && k < n; k++) {
		struct pmudb_scope one;
		scope_of_type(db, scope, types, n, k, &one);
		if (!pmudb_encode(db, event, &one, out, NULL))
			return 0;
	}
	return -1;
}
