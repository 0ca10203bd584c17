/*
 * api.c - the public calls of pmudb.h that are not encoding: open and
 * close, PMU scopes, browsing and search.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "catalog/pages.h"
#include "runtime/encode/fstr_form.h"

/* A handle is mostly its caches (36 KB), of which a one-event process
 * touches a slot or two: calloc cleared it all, nine page faults. */
static struct pmudb *handle_alloc(void)
{
	return pages_zeroed(sizeof(struct pmudb));
}

static void handle_free(struct pmudb *db)
{
	pages_zeroed_free(db, sizeof(*db));
}

pmudb_t *pmudb_open(const char *path, struct pmudb_error *err)
{
	struct pmudb *db = handle_alloc();
	if (!db) {
		set_error(err, PMUDB_ERR_NOMEM, "out of memory");
		return NULL;
	}
	/* each event, once decoded, gets the form its fstr is printed in */
	db->finish_event = fstr_form_build;
	if (catalog_open(db, path, err)) {
		catalog_close(db);
		handle_free(db);
		return NULL;
	}
	return db;
}

void pmudb_close(pmudb_t *db)
{
	if (!db)
		return;
	catalog_close(db);
	handle_free(db);
}

/* Reads the meta table into DB once (under its lock); a table that cannot
 * be read is as none. */
static void read_meta(struct pmudb *db)
{
	db->meta_read = true;
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(catalog_sql(db), "SELECT count(*) FROM meta", -1, &st, NULL) != SQLITE_OK
	    || sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return;
	}
	long count = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (count <= 0 || count > 4096)
		return;
	const char **keys = arena_calloc(&db->arena, (size_t)count, sizeof(*keys));
	const char **values = arena_calloc(&db->arena, (size_t)count, sizeof(*values));
	if (!keys || !values || sqlite3_prepare_v2(catalog_sql(db), "SELECT key, value FROM meta", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return;
	}
	int n = 0;
	while (n < count && sqlite3_step(st) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0), *v = (const char *)sqlite3_column_text(st, 1);
		if (!k || !v || !(keys[n] = arena_strdup(&db->arena, k)) || !(values[n] = arena_strdup(&db->arena, v)))
			continue;
		n++;
	}
	sqlite3_finalize(st);
	db->meta_keys = keys;
	db->meta_values = values;
	db->nmeta = n;
}

const char *pmudb_meta(pmudb_t *db, const char *key)
{
	if (!db || !key)
		return NULL;
	const char *value = NULL;
	pthread_mutex_lock(&db->lock);
	if (!db->meta_read)
		read_meta(db);
	for (int i = 0; i < db->nmeta && !value; i++)
		if (!strcmp(db->meta_keys[i], key))
			value = db->meta_values[i];
	pthread_mutex_unlock(&db->lock);
	return value;
}

int pmudb_pmu_count(pmudb_t *db)
{
	return db ? db->npmus : 0;
}

int pmudb_find_pmu(pmudb_t *db, const char *name)
{
	if (!db || !name)
		return -1;
	int i = catalog_find_pmu(db, name, NULL);
	return i < 0 ? -1 : i;
}

int pmudb_pmu_shares_events(pmudb_t *db, int a, int b)
{
	struct pmu *pa = db ? catalog_pmu(db, a, NULL) : NULL, *pb = db ? catalog_pmu(db, b, NULL) : NULL;
	if (!pa || !pb)
		return PMUDB_ERR_INVAL;
	return pa->table == pb->table;
}

/* SCOPE: the PMUs that carry the vendor list of µarch UARCH (perf's folder
 * name, "graniterapids"): PMUs made from it, core types in catalog order,
 * and libpfm PMUs reconciled with it.  Their number (0: no such µarch) or
 * an error. */
static int uarch_scope(pmudb_t *db, const char *uarch, struct pmudb_scope *scope, struct pmudb_error *err)
{
	/* the source's folder: "pmu-events:ARCH/[VENDOR/]UARCH[@UNIT]" */
	static const char sql[] =
		"WITH list(id, name, folder) AS (SELECT id, name, CASE WHEN instr(source, '@') THEN substr(source, 1,"
		" instr(source, '@') - 1) ELSE source END FROM pmu WHERE source IS NOT NULL)"
		" SELECT id, name FROM list WHERE lower(substr(folder, -length(?1) - 1)) = lower('/' || ?1)"
		" UNION SELECT id, name FROM pmu WHERE name IN"
		" (SELECT pmu FROM reconcile_summary WHERE uarch = ?1 COLLATE NOCASE) ORDER BY id";
	char names[PMUDB_SCOPE_MAX][64];
	int n = 0;
	sqlite3_stmt *st = NULL;
	if (!*uarch || strchr(uarch, '/'))
		return 0;
	pthread_mutex_lock(&db->lock);
	if (sqlite3_prepare_v2(catalog_sql(db), sql, -1, &st, NULL) == SQLITE_OK
	    && sqlite3_bind_text(st, 1, uarch, -1, SQLITE_STATIC) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW && n < PMUDB_SCOPE_MAX) {
			const char *name = (const char *)sqlite3_column_text(st, 1);
			if (name && strlen(name) < sizeof(names[0]))
				strcpy(names[n++], name);
		}
	}
	sqlite3_finalize(st);
	pthread_mutex_unlock(&db->lock);
	scope->count = 0;
	for (int k = 0; k < n; k++) {
		int i = catalog_find_pmu(db, names[k], err);
		if (i == PMUDB_ERR_CATALOG)
			return i;
		if (i >= 0)
			scope->pmus[scope->count++] = i;
	}
	return scope->count;
}

int pmudb_scope_pmu(pmudb_t *db, const char *name, struct pmudb_scope *scope, struct pmudb_error *err)
{
	if (!db || !name || !scope)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog, PMU name or scope", pmudb_strerror(PMUDB_ERR_INVAL));
	int i = catalog_find_pmu(db, name, err);
	if (i == PMUDB_ERR_CATALOG)
		return i;
	if (i < 0) {
		int n = uarch_scope(db, name, scope, err);
		if (n)
			return n < 0 ? n : 0;
		return set_error(err, PMUDB_ERR_NOTFOUND, "%s: unknown PMU '%s' (neither a PMU nor a vendor µarch of"
				 " this catalog)", pmudb_strerror(PMUDB_ERR_NOTFOUND), name);
	}
	scope->count = 1;
	scope->pmus[0] = i;
	return 0;
}

/* The PMU at index PMU with its events read (and their descriptions with
 * DETAILS), or NULL. */
static struct pmu *loaded_pmu(pmudb_t *db, int pmu, bool details)
{
	if (!db)
		return NULL;
	struct pmu *p = catalog_pmu(db, pmu, NULL);
	if (!p || (details ? catalog_load_details(db, p, NULL) : catalog_load_table(db, p, NULL)))
		return NULL;
	return p;
}

/* Event EVENT of PMU, with its descriptions read, or NULL (*CODE says why). */
static const struct event *event_at(pmudb_t *db, int pmu, int event, struct pmu **p, int *code)
{
	*p = loaded_pmu(db, pmu, true);
	*code = PMUDB_ERR_INVAL;
	if (!*p) {
		if (db && pmu >= 0 && pmu < db->npmus)
			*code = PMUDB_ERR_CATALOG;
		return NULL;
	}
	if (event < 0 || event >= (*p)->table->nevents)
		return NULL;
	/* decoded by catalog_load_details, which read them all */
	return catalog_event(db, *p, event, NULL);
}

int pmudb_pmu_info(pmudb_t *db, int pmu, struct pmudb_pmu_info *info)
{
	struct pmu *p = loaded_pmu(db, pmu, false);
	if (!info)
		return PMUDB_ERR_INVAL;
	if (!p)
		return db && pmu >= 0 && pmu < db->npmus ? PMUDB_ERR_CATALOG : PMUDB_ERR_INVAL;
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
	struct pmu *p;
	int code;
	const struct event *ev = event_at(db, pmu, event, &p, &code);
	if (!ev || !info)
		return code;
	const struct details *d = &p->table->details[event].own;
	memset(info, 0, sizeof(*info));
	info->name = ev->name;
	info->description = d->description;
	info->equiv = ev->equiv;
	info->code = ev->code;
	info->is_precise = ev->is_precise;
	info->umask_count = ev->numasks;
	info->source = d->source;
	info->why = d->why;
	info->modifier_count = ev->modifiers->count;
	return ev->retired ? PMUDB_ERR_NOTFOUND : 0;
}

int pmudb_umask_info(pmudb_t *db, int pmu, int event, int umask, struct pmudb_umask_info *info)
{
	struct pmu *p;
	int code;
	const struct event *ev = event_at(db, pmu, event, &p, &code);
	if (!ev || !info)
		return code;
	if (umask < 0 || umask >= ev->numasks)
		return PMUDB_ERR_INVAL;
	const struct umask *u = &ev->umasks[umask];
	const struct details *d = &p->table->details[event].umasks[umask];
	memset(info, 0, sizeof(*info));
	info->name = u->name;
	info->description = d->description;
	info->equiv = u->equiv;
	info->code = u->code;
	info->is_default = u->is_default;
	info->source = d->source;
	info->why = d->why;
	return u->retired ? PMUDB_ERR_NOTFOUND : 0;
}

int pmudb_modifier_info(pmudb_t *db, int pmu, int event, int modifier, struct pmudb_modifier_info *info)
{
	struct pmu *p;
	int code;
	const struct event *ev = event_at(db, pmu, event, &p, &code);
	if (!ev || !info)
		return code;
	if (modifier < 0 || modifier >= ev->modifiers->count)
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

/* Looks NAME (cut at its first ':') up in PMU P: whole, then, for a dotted
 * name, up to its first dot.  The event's position, -1, or an error. */
static int event_named(pmudb_t *db, const struct pmu *p, char *name, struct pmudb_error *err)
{
	char *dot = strchr(name, '.');
	int e = catalog_find_event(db, p, name, NULL, err);
	if (e == -1 && dot) {
		*dot = '\0';
		e = catalog_find_event(db, p, name, NULL, err);
		*dot = '.';
	}
	return e;
}

int pmudb_find_event(pmudb_t *db, const char *event, const struct pmudb_scope *scope, int *pmu, int *ev,
		     struct pmudb_error *err)
{
	if (!db || !event || !pmu || !ev)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog, event or result", pmudb_strerror(PMUDB_ERR_INVAL));
	if (scope && (scope->count < 0 || scope->count > PMUDB_SCOPE_MAX))
		return set_error(err, PMUDB_ERR_INVAL, "%s: a scope of %d PMUs", pmudb_strerror(PMUDB_ERR_INVAL),
				 scope->count);
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
	name[strcspn(name, ":")] = '\0';
	int r = set_error(err, PMUDB_ERR_NOTFOUND, "%s: no event '%s'", pmudb_strerror(PMUDB_ERR_NOTFOUND), name);
	int n = pname ? 1 : scope ? scope->count : db->npmus;
	for (int i = 0; i < n && r; i++) {
		int p = pname ? catalog_find_pmu(db, pname, err) : scope ? scope->pmus[i] : i;
		if (p == PMUDB_ERR_CATALOG) {
			r = p;
			break;
		}
		if (p < 0) {
			r = set_error(err, PMUDB_ERR_NOTFOUND, "%s: unknown PMU '%s'", pmudb_strerror(PMUDB_ERR_NOTFOUND),
				      pname);
			break;
		}
		struct pmu *pm = catalog_pmu(db, p, err);
		if (!pm || catalog_load_table(db, pm, err)) {
			r = err ? err->code : PMUDB_ERR_CATALOG;
			break;
		}
		int e = event_named(db, pm, name, err);
		if (e == PMUDB_ERR_CATALOG) {
			r = e;
			break;
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

/* A finding read, its texts copied after it: FOUND is called once the
 * handle's lock is released, so that it may use the handle (a lock held
 * across it hung a caller that encoded each finding's name). */
struct finding_row {
	struct finding_row *next;
	struct pmudb_finding f;
	char texts[];
};

enum { F_UARCH, F_MATCH, F_LIBPFM_NAME, F_VENDOR_NAME, F_VENDOR_FILE, F_EXPLAINED, F_WHY, F_TEXTS };

/* Row ST as a finding_row, or NULL when out of memory. */
static struct finding_row *finding_row_read(sqlite3_stmt *st)
{
	static const int column[F_TEXTS] = { 0, 1, 2, 3, 4, 9, 10 };
	size_t size = 0;
	for (int i = 0; i < F_TEXTS; i++)
		size += sqlite3_column_text(st, column[i]) ? (size_t)sqlite3_column_bytes(st, column[i]) + 1 : 0;
	struct finding_row *row = malloc(sizeof(*row) + size);
	if (!row)
		return NULL;
	const char *text[F_TEXTS];
	char *at = row->texts;
	for (int i = 0; i < F_TEXTS; i++) {
		const char *t = (const char *)sqlite3_column_text(st, column[i]);
		text[i] = t ? memcpy(at, t, (size_t)sqlite3_column_bytes(st, column[i]) + 1) : NULL;
		at += t ? (size_t)sqlite3_column_bytes(st, column[i]) + 1 : 0;
	}
	row->next = NULL;
	row->f = (struct pmudb_finding){
		text[F_UARCH], text[F_MATCH], text[F_LIBPFM_NAME], text[F_VENDOR_NAME], text[F_VENDOR_FILE],
		(uint64_t)sqlite3_column_int64(st, 5), (uint64_t)sqlite3_column_int64(st, 6),
		(uint64_t)sqlite3_column_int64(st, 7), (uint64_t)sqlite3_column_int64(st, 8), text[F_EXPLAINED],
		text[F_WHY], sqlite3_column_int(st, 11) != 0,
	};
	return row;
}

/* The findings about event EV of P, in catalog order, into *ROWS: 0, or an
 * error.  Takes the handle's lock. */
static int findings_read(pmudb_t *db, const struct pmu *p, const struct event *ev, struct finding_row **rows)
{
	sqlite3_stmt *st = NULL;
	struct finding_row **tail = rows;
	int r = 0;
	*rows = NULL;
	pthread_mutex_lock(&db->lock);	/* SQLite is used by one thread at a time */
	if (sqlite3_prepare_v2(catalog_sql(db),
			       "SELECT uarch, match, libpfm_name, vendor_name, vendor_file, libpfm_config, libpfm_config1,"
			       " vendor_config, vendor_config1, explained, why, added FROM finding WHERE pmu = ?1 AND"
			       " (libpfm_name = ?2 OR libpfm_name LIKE ?2 || ':%' OR vendor_name = ?2 OR vendor_name LIKE ?2 || '.%')"
			       " ORDER BY id", -1, &st, NULL) != SQLITE_OK) {
		pthread_mutex_unlock(&db->lock);
		return PMUDB_ERR_CATALOG;
	}
	sqlite3_bind_text(st, 1, p->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ev->name, -1, SQLITE_STATIC);
	int rc;
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct finding_row *row = finding_row_read(st);
		if (!row) {
			r = PMUDB_ERR_NOMEM;
		} else if (!row->f.uarch || !row->f.match || !row->f.vendor_name || !row->f.vendor_file) {
			free(row);	/* a row no build writes */
		} else {
			*tail = row;
			tail = &row->next;
		}
	}
	if (!r && rc != SQLITE_DONE)
		r = PMUDB_ERR_CATALOG;	/* damaged: not "no findings" */
	sqlite3_finalize(st);
	pthread_mutex_unlock(&db->lock);
	return r;
}

int pmudb_event_findings(pmudb_t *db, int pmu, int event, pmudb_finding_fn found, void *ctx)
{
	struct pmu *p;
	int code;
	const struct event *ev = event_at(db, pmu, event, &p, &code);
	if (!ev || !found)
		return ev ? PMUDB_ERR_INVAL : code;
	struct finding_row *rows;
	int r = findings_read(db, p, ev, &rows), n = 0;
	bool stopped = false;
	while (rows) {
		struct finding_row *next = rows->next;
		n++;
		stopped = stopped || (!r && found(ctx, &rows->f));
		free(rows);
		rows = next;
	}
	return r ? r : n;
}

/* Calls FOUND for what in PMU P (its descriptions read) matches TEXT;
 * returns 1 when FOUND stopped the search. */
static int search_pmu(pmudb_t *db, const struct pmu *p, int pmu, const char *text, pmudb_search_fn found, void *ctx,
		      int *count)
{
	const struct event_table *t = p->table;
	for (int e = 0; e < t->nevents; e++) {
		const struct event *ev = catalog_event(db, p, e, NULL);
		if (!ev || ev->retired)
			continue;
		const struct event_details *d = &t->details[e];
		if (strcasestr(ev->name, text) || strcasestr(d->own.description, text)) {
			++*count;
			if (found && found(ctx, pmu, e, -1))
				return 1;
		}
		for (int u = 0; u < ev->numasks; u++) {
			const struct umask *um = &ev->umasks[u];
			if (um->retired || !(strcasestr(um->name, text) || strcasestr(d->umasks[u].description, text)))
				continue;
			++*count;
			if (found && found(ctx, pmu, e, u))
				return 1;
		}
	}
	return 0;
}

int pmudb_search(pmudb_t *db, const char *text, pmudb_search_fn found, void *ctx)
{
	if (!db || !text)
		return PMUDB_ERR_INVAL;
	int count = 0;
	for (int p = 0; p < db->npmus; p++) {
		struct pmu *pmu = loaded_pmu(db, p, true);
		if (!pmu)
			return PMUDB_ERR_CATALOG;
		if (search_pmu(db, pmu, p, text, found, ctx, &count))
			break;
	}
	return count;
}
