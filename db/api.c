/*
 * api.c - the public calls of pmudb.h that are not encoding: open and
 * close, error names, PMU scopes, browsing and search.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog.h"
#include "encode.h"

static const char *const error_names[] = {
	"PFM_SUCCESS", "PFM_ERR_NOTSUPP", "PFM_ERR_INVAL", "PFM_ERR_NOINIT", "PFM_ERR_NOTFOUND",
	"PFM_ERR_FEATCOMB", "PFM_ERR_UMASK", "PFM_ERR_NOMEM", "PFM_ERR_ATTR", "PFM_ERR_ATTR_VAL",
	"PFM_ERR_ATTR_SET", "PFM_ERR_TOOMANY", "PFM_ERR_TOOSMALL",
};

/* libpfm's own words, so that messages read the same as its pfm_strerror(). */
static const char *const error_texts[] = {
	"success", "not supported", "invalid parameters", "pfmlib not initialized", "event not found",
	"invalid combination of model specific features", "invalid or missing unit mask", "out of memory",
	"invalid event attribute", "invalid event attribute value", "attribute value already set",
	"too many parameters", "parameter is too small",
};

#define NERRORS (int)(sizeof(error_names) / sizeof(error_names[0]))

const char *pmudb_error_name(int code)
{
	if (code == PMUDB_ERR_CATALOG)
		return "PMUDB_ERR_CATALOG";
	if (code == PMUDB_ERR_NOCPU)
		return "PMUDB_ERR_NOCPU";
	return code <= 0 && -code < NERRORS ? error_names[-code] : "PMUDB_ERR_UNKNOWN";
}

const char *pmudb_strerror(int code)
{
	if (code == PMUDB_ERR_CATALOG)
		return "catalog error";
	if (code == PMUDB_ERR_NOCPU)
		return "no event table for this CPU";
	return code <= 0 && -code < NERRORS ? error_texts[-code] : "unknown error code";
}

pmudb_t *pmudb_open(const char *path, struct pmudb_error *err)
{
	struct pmudb *db = calloc(1, sizeof(*db));
	if (!db) {
		set_error(err, PMUDB_ERR_NOMEM, "out of memory");
		return NULL;
	}
	if (catalog_open(db, path, err)) {
		catalog_close(db);
		free(db);
		return NULL;
	}
	for (int i = 0; i < db->npmus; i++)
		db->pmus[i].family = family_by_name(db->pmus[i].family_name);
	return db;
}

void pmudb_close(pmudb_t *db)
{
	if (!db)
		return;
	catalog_close(db);
	free(db);
}

int pmudb_pmu_count(pmudb_t *db)
{
	return db->npmus;
}

int pmudb_find_pmu(pmudb_t *db, const char *name)
{
	const struct pmu *p = catalog_find_pmu(db, name);
	return p ? (int)(p - db->pmus) : -1;
}

int pmudb_scope_pmu(pmudb_t *db, const char *name, struct pmudb_scope *scope, struct pmudb_error *err)
{
	int i = pmudb_find_pmu(db, name);
	if (i < 0)
		return set_error(err, PMUDB_ERR_NOTFOUND, "%s: unknown PMU '%s'", pmudb_strerror(PMUDB_ERR_NOTFOUND),
				 name);
	scope->count = 1;
	scope->pmus[0] = i;
	return 0;
}

/* The PMU at index PMU with its events read, or NULL. */
static struct pmu *loaded_pmu(pmudb_t *db, int pmu)
{
	if (pmu < 0 || pmu >= db->npmus)
		return NULL;
	struct pmu *p = &db->pmus[pmu];
	return catalog_load_table(db, p) ? NULL : p;
}

static const struct event *event_at(pmudb_t *db, int pmu, int event)
{
	struct pmu *p = loaded_pmu(db, pmu);
	if (!p || event < 0 || event >= p->table->nevents)
		return NULL;
	return &p->table->events[event];
}

int pmudb_pmu_info(pmudb_t *db, int pmu, struct pmudb_pmu_info *info)
{
	struct pmu *p = loaded_pmu(db, pmu);
	if (!p)
		return PMUDB_ERR_INVAL;
	memset(info, 0, sizeof(*info));
	info->name = p->name;
	info->description = p->description;
	info->kind = p->kind;
	info->family = p->family_name;
	info->family_group = p->family_group;
	info->num_counters = p->num_counters;
	info->num_fixed_counters = p->num_fixed_counters;
	info->perf_type = p->perf_type;
	info->sysfs_pmu = p->sysfs_name;
	info->event_count = p->table->nevents;
	info->source = p->source;
	info->like = p->like;
	return 0;
}

int pmudb_event_info(pmudb_t *db, int pmu, int event, struct pmudb_event_info *info)
{
	const struct event *ev = event_at(db, pmu, event);
	if (!ev)
		return PMUDB_ERR_INVAL;
	memset(info, 0, sizeof(*info));
	info->name = ev->name;
	info->description = ev->description;
	info->equiv = ev->equiv;
	info->code = ev->code;
	info->is_precise = ev->is_precise;
	info->umask_count = ev->numasks;
	info->source = ev->source;
	info->why = ev->why;
	info->modifier_count = ev->modifiers->count;
	return ev->retired ? PMUDB_ERR_NOTFOUND : 0;
}

int pmudb_umask_info(pmudb_t *db, int pmu, int event, int umask, struct pmudb_umask_info *info)
{
	const struct event *ev = event_at(db, pmu, event);
	if (!ev || umask < 0 || umask >= ev->numasks)
		return PMUDB_ERR_INVAL;
	const struct umask *u = &ev->umasks[umask];
	memset(info, 0, sizeof(*info));
	info->name = u->name;
	info->description = u->description;
	info->equiv = u->equiv;
	info->code = u->code;
	info->is_default = u->is_default;
	info->source = u->source;
	info->why = u->why;
	return u->retired ? PMUDB_ERR_NOTFOUND : 0;
}

int pmudb_modifier_info(pmudb_t *db, int pmu, int event, int modifier, struct pmudb_modifier_info *info)
{
	const struct event *ev = event_at(db, pmu, event);
	if (!ev || modifier < 0 || modifier >= ev->modifiers->count)
		return PMUDB_ERR_INVAL;
	const struct modifier *m = &ev->modifiers->items[modifier];
	memset(info, 0, sizeof(*info));
	info->name = m->name;
	info->description = m->description;
	info->is_integer = m->is_integer;
	info->from_perf = m->from_perf;
	info->range_known = m->probed;
	info->min = m->probed ? m->min : 0;
	info->max = m->probed ? m->max : (m->is_integer ? UINT64_MAX : 1);
	info->default_value = m->default_value;
	return 0;
}

int pmudb_find_event(pmudb_t *db, const char *event, const struct pmudb_scope *scope, int *pmu, int *ev,
		     struct pmudb_error *err)
{
	char *copy = strdup(event), *name = copy;
	if (!copy)
		return set_error(err, PMUDB_ERR_NOMEM, "out of memory");
	char *sep = strstr(copy, "::");
	const char *pname = NULL;
	if (sep) {
		*sep = '\0';
		pname = copy;
		name = sep + 2;
	}
	/* a vendor's dotted name is an alias, looked up whole first */
	name[strcspn(name, ":")] = '\0';
	char *dot = strchr(name, '.');
	int r = set_error(err, PMUDB_ERR_NOTFOUND, "%s: no event '%s'", pmudb_strerror(PMUDB_ERR_NOTFOUND), name);
	int n = pname ? 1 : scope ? scope->count : db->npmus;
	for (int i = 0; i < n && r; i++) {
		int p = pname ? pmudb_find_pmu(db, pname) : scope ? scope->pmus[i] : i;
		if (p < 0) {
			r = set_error(err, PMUDB_ERR_NOTFOUND, "%s: unknown PMU '%s'", pmudb_strerror(PMUDB_ERR_NOTFOUND),
				      pname);
			break;
		}
		if (!loaded_pmu(db, p)) {
			r = set_error(err, PMUDB_ERR_CATALOG, "catalog: cannot read the events of %s", db->pmus[p].name);
			break;
		}
		int e = catalog_find_event(&db->pmus[p], name, NULL);
		if (e < 0 && dot) {
			*dot = '\0';
			e = catalog_find_event(&db->pmus[p], name, NULL);
			*dot = '.';
		}
		if (e >= 0) {
			*pmu = p;
			*ev = e;
			r = 0;
		}
	}
	free(copy);
	return r;
}

static const char *text_or_null(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

int pmudb_event_findings(pmudb_t *db, int pmu, int event, pmudb_finding_fn found, void *ctx)
{
	const struct event *ev = event_at(db, pmu, event);
	if (!ev || !found)
		return PMUDB_ERR_INVAL;
	sqlite3_stmt *st = NULL;
	int n = 0;
	pthread_mutex_lock(&db->lock);	/* SQLite is used by one thread at a time */
	if (sqlite3_prepare_v2(db->db,
			       "SELECT uarch, match, libpfm_name, vendor_name, vendor_file, libpfm_config, libpfm_config1,"
			       " vendor_config, vendor_config1, explained, why, added FROM finding WHERE pmu = ?1 AND"
			       " (libpfm_name = ?2 OR libpfm_name LIKE ?2 || ':%' OR vendor_name = ?2 OR vendor_name LIKE ?2 || '.%')"
			       " ORDER BY id", -1, &st, NULL) != SQLITE_OK) {
		pthread_mutex_unlock(&db->lock);
		return PMUDB_ERR_CATALOG;
	}
	sqlite3_bind_text(st, 1, db->pmus[pmu].name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ev->name, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct pmudb_finding f = {
			text_or_null(st, 0), text_or_null(st, 1), text_or_null(st, 2), text_or_null(st, 3), text_or_null(st, 4),
			(uint64_t)sqlite3_column_int64(st, 5), (uint64_t)sqlite3_column_int64(st, 6),
			(uint64_t)sqlite3_column_int64(st, 7), (uint64_t)sqlite3_column_int64(st, 8), text_or_null(st, 9),
			text_or_null(st, 10), sqlite3_column_int(st, 11) != 0,
		};
		if (!f.uarch || !f.match || !f.vendor_name || !f.vendor_file)
			continue;	/* a row no build writes */
		n++;
		if (found(ctx, &f))
			break;
	}
	sqlite3_finalize(st);
	pthread_mutex_unlock(&db->lock);
	return n;
}

int pmudb_search(pmudb_t *db, const char *text, pmudb_search_fn found, void *ctx)
{
	int count = 0;
	for (int p = 0; p < db->npmus; p++) {
		struct pmu *pmu = loaded_pmu(db, p);
		if (!pmu)
			return PMUDB_ERR_CATALOG;
		for (int e = 0; e < pmu->table->nevents; e++) {
			const struct event *ev = &pmu->table->events[e];
			if (ev->retired)
				continue;
			if (strcasestr(ev->name, text) || strcasestr(ev->description, text)) {
				count++;
				if (found && found(ctx, p, e, -1))
					return count;
			}
			for (int u = 0; u < ev->numasks; u++) {
				const struct umask *um = &ev->umasks[u];
				if (um->retired || !(strcasestr(um->name, text) || strcasestr(um->description, text)))
					continue;
				count++;
				if (found && found(ctx, p, e, u))
					return count;
			}
		}
	}
	return count;
}
