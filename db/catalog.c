/*
 * catalog.c - opens a catalog (a file, or the one compiled in) and reads it
 * into the structures of catalog.h.
 */
#include "catalog.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define SCHEMA_VERSION 2

/* The catalog `make` built, linked in by builtin.S. */
extern const unsigned char pmudb_builtin_catalog[];
extern const unsigned char pmudb_builtin_catalog_end[];

static const char *const field_names[F_COUNT] = {
	[F_TYPE] = "type", [F_CONFIG] = "config", [F_CONFIG1] = "config1", [F_CONFIG2] = "config2",
	[F_SAMPLE_PERIOD] = "sample_period", [F_FREQ] = "freq", [F_EXCLUDE_USER] = "exclude_user",
	[F_EXCLUDE_KERNEL] = "exclude_kernel", [F_EXCLUDE_HV] = "exclude_hv", [F_EXCLUDE_IDLE] = "exclude_idle",
	[F_EXCLUDE_HOST] = "exclude_host", [F_EXCLUDE_GUEST] = "exclude_guest", [F_PRECISE_IP] = "precise_ip",
	[F_EXCLUSIVE] = "exclusive", [F_PINNED] = "pinned", [F_CPU] = "cpu", [F_FLAGS] = "flags",
	[F_CODE0] = "code0", [F_CODE1] = "code1", [F_CODE2] = "code2", [F_CODE3] = "code3",
};

int field_by_name(const char *name)
{
	for (int i = 0; i < F_COUNT; i++)
		if (!strcmp(field_names[i], name))
			return i;
	return -1;
}

int set_error(struct pmudb_error *err, int code, const char *fmt, ...)
{
	if (err) {
		err->code = code;
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return code;
}

static char *dup_column(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);
	return s ? strdup((const char *)s) : NULL;
}

static int prepare(struct pmudb *db, const char *sql, sqlite3_stmt **st)
{
	return sqlite3_prepare_v2(db->db, sql, -1, st, NULL) == SQLITE_OK ? 0 : -1;
}

/* ---- modifier sets, read with the first table that uses them ------------- */

/* Rows (position, field, mask) of SQL for set ID: landings, or the bits
 * set by presence when PRESENCE. */
static int load_field_masks(struct pmudb *db, const char *sql, int64_t id, struct modifier_set *set, bool presence)
{
	sqlite3_stmt *st;
	if (prepare(db, sql, &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	int r = 0;
	while (!r && sqlite3_step(st) == SQLITE_ROW) {
		int pos = sqlite3_column_int(st, 0);
		int f = field_by_name((const char *)sqlite3_column_text(st, 1));
		struct modifier *m = pos >= 0 && pos < set->count ? &set->items[pos] : NULL;
		int *n = m ? (presence ? &m->npresence : &m->nlandings) : NULL;
		struct landing *list = m ? (presence ? m->presence : m->landings) : NULL;
		int cap = presence ? 3 : 4;
		if (!m || f < 0 || *n == cap) {
			r = -1;
			break;
		}
		list[*n].field = f;
		list[(*n)++].mask = (uint64_t)sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	return r;
}

static int load_modifier_set(struct pmudb *db, int64_t id, struct modifier_set *set)
{
	sqlite3_stmt *st;
	if (prepare(db, "SELECT count(*) FROM modifier WHERE set_id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	set->count = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	if (set->count > MAX_MODIFIERS)
		return -1;
	set->items = calloc((size_t)set->count + 1, sizeof(*set->items));
	if (!set->items || prepare(db, "SELECT position, name, t.value, type, provider, default_value, probed, min_value,"
					" max_value, follows_plm, requires_position, refused_error, range_error, shown_value FROM modifier m"
					" JOIN text t ON t.id = m.description_id WHERE set_id = ? ORDER BY position", &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	int r = 0, i = 0;
	while (!r && sqlite3_step(st) == SQLITE_ROW) {
		if (i >= set->count || sqlite3_column_int(st, 0) != i) {
			r = -1;
			break;
		}
		struct modifier *m = &set->items[i++];
		m->name = dup_column(st, 1);
		m->description = dup_column(st, 2);
		m->is_integer = !strcmp((const char *)sqlite3_column_text(st, 3), "int");
		m->from_perf = !strcmp((const char *)sqlite3_column_text(st, 4), "perf");
		m->perf_kind = perf_modifier_kind(m->name ? m->name : "");
		m->default_value = (uint64_t)sqlite3_column_int64(st, 5);
		m->probed = sqlite3_column_int(st, 6);
		m->min = (uint64_t)sqlite3_column_int64(st, 7);
		m->max = (uint64_t)sqlite3_column_int64(st, 8);
		m->follows_plm = sqlite3_column_int(st, 9);
		m->requires = sqlite3_column_type(st, 10) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 10);
		m->refused_error = sqlite3_column_int(st, 11);
		m->range_error = sqlite3_column_int(st, 12);
		m->has_shown = sqlite3_column_type(st, 13) != SQLITE_NULL;
		m->shown = (uint64_t)sqlite3_column_int64(st, 13);
		r = m->name && m->description ? 0 : -1;
	}
	sqlite3_finalize(st);
	if (r || i != set->count)
		return -1;
	return load_field_masks(db, "SELECT position, field, mask FROM modifier_landing WHERE set_id = ?", id, set, false)
	       || load_field_masks(db, "SELECT position, field, bits FROM modifier_presence WHERE set_id = ?", id, set,
				   true) ? -1 : 0;
}

/* The modifier set ID (ids are 1..nsets), read if not yet; NULL on error.
 * Called with the handle's lock held. */
static const struct modifier_set *find_set(struct pmudb *db, int64_t id)
{
	if (id < 1)
		return &db->no_modifiers;
	if (id > db->nsets)
		return NULL;
	struct modifier_set *set = &db->sets[id - 1];
	if (!set->items && load_modifier_set(db, id, set)) {
		free(set->items);
		set->items = NULL;
		return NULL;
	}
	return set;
}

static int count_sets(struct pmudb *db)
{
	sqlite3_stmt *st;
	if (prepare(db, "SELECT count(*), coalesce(max(id), 0) FROM modifier_set", &st))
		return -1;
	int ok = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == sqlite3_column_int(st, 1);
	db->nsets = ok ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	db->sets = calloc((size_t)db->nsets + 1, sizeof(*db->sets));
	return ok && db->sets ? 0 : -1;
}

/* ---- PMUs, read at open ------------------------------------------------- */

static int load_pmus(struct pmudb *db)
{
	sqlite3_stmt *st;
	if (prepare(db, "SELECT (SELECT count(*) FROM event_table), (SELECT min(id) FROM event_table)", &st))
		return -1;
	int64_t first_table = 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		db->ntables = sqlite3_column_int(st, 0);
		first_table = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	db->tables = calloc((size_t)db->ntables + 1, sizeof(*db->tables));
	if (!db->tables)
		return -1;
	for (int i = 0; i < db->ntables; i++)
		db->tables[i].id = first_table + i;

	if (prepare(db, "SELECT (SELECT count(*) FROM pmu), p.name, description, kind, family, family_group,"
			" num_counters, num_fixed_counters, supported_plm, perf_type, event_table_id, s.name, source, like_pmu"
			" FROM pmu p LEFT JOIN pmu_sysfs s ON s.pmu_id = p.id AND s.position = 0 ORDER BY p.id", &st))
		return -1;
	int i = 0, r = 0;
	while (!r && sqlite3_step(st) == SQLITE_ROW) {
		if (!db->pmus) {
			db->npmus = sqlite3_column_int(st, 0);
			if (!(db->pmus = calloc((size_t)db->npmus + 1, sizeof(*db->pmus))))
				r = -1;
		}
		if (r || i >= db->npmus) {
			r = -1;
			break;
		}
		struct pmu *p = &db->pmus[i++];
		p->name = dup_column(st, 1);
		p->description = dup_column(st, 2);
		p->kind = dup_column(st, 3);
		p->family_name = dup_column(st, 4);
		p->family_group = dup_column(st, 5);
		p->num_counters = sqlite3_column_int(st, 6);
		p->num_fixed_counters = sqlite3_column_int(st, 7);
		p->supported_plm = (unsigned)sqlite3_column_int(st, 8);
		p->perf_type = sqlite3_column_int(st, 9);
		int64_t t = sqlite3_column_int64(st, 10) - first_table;
		p->sysfs_name = dup_column(st, 11);
		p->source = dup_column(st, 12);
		p->like = dup_column(st, 13);
		atomic_init(&p->sysfs_type, INT32_MIN);
		if (!p->name || !p->description || !p->kind || !p->family_name || !p->family_group
		    || t < 0 || t >= db->ntables)
			r = -1;
		else
			p->table = &db->tables[t];
	}
	sqlite3_finalize(st);
	return r || i != db->npmus ? -1 : 0;
}

/* ---- event tables, read on first use ------------------------------------- */

/* Reads the rows of SQL (first column an event id of table T, the rest as
 * ROW wants them) into T's events. */
typedef int (*row_fn)(struct event *ev, sqlite3_stmt *st);

static int for_rows(struct pmudb *db, struct event_table *t, int64_t first_event, const char *sql, row_fn row)
{
	sqlite3_stmt *st;
	if (prepare(db, sql, &st))
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_int64(st, 2, first_event);
	sqlite3_bind_int64(st, 3, first_event + t->nevents - 1);
	int r = 0, rc = SQLITE_DONE;
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t e = sqlite3_column_int64(st, 0) - first_event;
		r = e < 0 || e >= t->nevents ? -1 : row(&t->events[e], st);
	}
	if (!r && rc != SQLITE_DONE)
		r = -1;
	sqlite3_finalize(st);
	return r;
}

static int umask_row(struct event *ev, sqlite3_stmt *st)
{
	int pos = sqlite3_column_int(st, 1);
	if (pos != ev->numasks || pos >= MAX_UMASKS)
		return -1;	/* positions are dense and ordered, and few enough */
	struct umask *u = realloc(ev->umasks, (size_t)(pos + 1) * sizeof(*u));
	if (!u)
		return -1;
	ev->umasks = u;
	u = &u[pos];
	memset(u, 0, sizeof(*u));
	ev->numasks++;
	u->name = dup_column(st, 2);
	u->description = dup_column(st, 3);
	u->equiv = dup_column(st, 4);
	u->code = (uint64_t)sqlite3_column_int64(st, 5);
	u->is_default = sqlite3_column_int(st, 6);
	u->group = sqlite3_column_type(st, 7) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 7);
	u->single_error = sqlite3_column_int(st, 8);
	u->retired = sqlite3_column_int(st, 9);
	u->sets_event_select = sqlite3_column_int(st, 10);
	u->filter_bits[0] = (uint64_t)sqlite3_column_int64(st, 11);
	u->filter_bits[1] = (uint64_t)sqlite3_column_int64(st, 12);
	u->filter_layout = sqlite3_column_int(st, 13);
	u->code_is_filter = sqlite3_column_int(st, 14);
	u->source = dup_column(st, 15);
	u->why = dup_column(st, 16);
	return u->name && u->description ? 0 : -1;
}

static int push_position(uint16_t **items, int *count, int position)
{
	uint16_t *p = realloc(*items, (size_t)(*count + 1) * sizeof(*p));
	if (!p)
		return -1;
	p[(*count)++] = (uint16_t)position;
	*items = p;
	return 0;
}

static int event_default_row(struct event *ev, sqlite3_stmt *st)
{
	int pos = sqlite3_column_int(st, 1);
	return pos < ev->numasks ? push_position(&ev->bare_added, &ev->nbare, pos) : -1;
}

static int umask_default_row(struct event *ev, sqlite3_stmt *st)
{
	int pos = sqlite3_column_int(st, 1), added = sqlite3_column_int(st, 2);
	if (pos >= ev->numasks || added >= ev->numasks)
		return -1;
	struct umask *u = &ev->umasks[pos];
	return push_position(&u->added, &u->nadded, added);
}

static int implied_row(struct event *ev, sqlite3_stmt *st)
{
	int pos = sqlite3_column_int(st, 1);
	if (pos >= ev->numasks)
		return -1;
	struct umask *u = &ev->umasks[pos];
	struct implied *im = realloc(u->implied, (size_t)(u->nimplied + 1) * sizeof(*im));
	if (!im)
		return -1;
	u->implied = im;
	im[u->nimplied].modifier = sqlite3_column_int(st, 2);
	im[u->nimplied].value = (uint64_t)sqlite3_column_int64(st, 3);
	im[u->nimplied++].hardwired = sqlite3_column_int(st, 4);
	return 0;
}

static int rule_row(struct event *ev, sqlite3_stmt *st)
{
	struct group_rule *r = realloc(ev->rules, (size_t)(ev->nrules + 1) * sizeof(*r));
	if (!r)
		return -1;
	ev->rules = r;
	r[ev->nrules].group_a = sqlite3_column_int(st, 1);
	r[ev->nrules].group_b = sqlite3_column_int(st, 2);
	r[ev->nrules++].error = sqlite3_column_int(st, 3);
	return 0;
}

static int hidden_row(struct event *ev, sqlite3_stmt *st)
{
	int m = sqlite3_column_int(st, 1);
	if (m < 0 || m >= MAX_MODIFIERS)
		return -1;
	ev->hidden |= 1ULL << m;
	ev->hidden_error[m] = sqlite3_column_int(st, 2);
	return 0;
}

static int unlock_row(struct event *ev, sqlite3_stmt *st)
{
	int pos = sqlite3_column_int(st, 1), m = sqlite3_column_int(st, 2);
	if (pos < 0 || pos >= ev->numasks || m < 0 || m >= MAX_MODIFIERS)
		return -1;
	ev->umasks[pos].unlocks |= 1ULL << m;
	return 0;
}

static int pair_default_row(struct event *ev, sqlite3_stmt *st)
{
	int a = sqlite3_column_int(st, 1), b = sqlite3_column_int(st, 2), added = sqlite3_column_int(st, 3);
	if (a >= ev->numasks || b >= ev->numasks || added >= ev->numasks)
		return -1;
	struct pair_default *pd = ev->npairs ? &ev->pairs[ev->npairs - 1] : NULL;
	if (!pd || pd->umask_a != a || pd->umask_b != b) {
		pd = realloc(ev->pairs, (size_t)(ev->npairs + 1) * sizeof(*pd));
		if (!pd)
			return -1;
		ev->pairs = pd;
		pd = &pd[ev->npairs++];
		memset(pd, 0, sizeof(*pd));
		pd->umask_a = (uint16_t)a;
		pd->umask_b = (uint16_t)b;
	}
	return added < 0 ? 0 : push_position(&pd->added, &pd->nadded, added);
}

static int load_events(struct pmudb *db, struct event_table *t, int64_t *first_event)
{
	sqlite3_stmt *st;
	if (prepare(db, "SELECT count(*), min(id) FROM event WHERE table_id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		t->nevents = sqlite3_column_int(st, 0);
		*first_event = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	t->events = calloc((size_t)t->nevents + 1, sizeof(*t->events));
	if (!t->events || prepare(db, "SELECT e.id, e.name, t.value, equiv, code, is_precise, modifier_set_id, perf_type,"
				      " bare_error, group_count, retired, umasks_in_config1, filter_config1, filter_config2, filter_default,"
				      " source, filters_given, why FROM event e"
				      " JOIN text t ON t.id = e.description_id"
				      " WHERE table_id = ? ORDER BY position", &st))
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	int i = 0, r = 0;
	while (!r && sqlite3_step(st) == SQLITE_ROW) {
		if (i >= t->nevents || sqlite3_column_int64(st, 0) != *first_event + i) {
			r = -1;	/* ids of one table are consecutive, in position order */
			break;
		}
		struct event *ev = &t->events[i++];
		ev->name = dup_column(st, 1);
		ev->description = dup_column(st, 2);
		ev->equiv = dup_column(st, 3);
		ev->code = (uint64_t)sqlite3_column_int64(st, 4);
		ev->is_precise = sqlite3_column_int(st, 5);
		ev->modifiers = find_set(db, sqlite3_column_type(st, 6) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 6));
		if (!ev->modifiers) {
			ev->modifiers = &db->no_modifiers;
			r = -1;
		}
		ev->perf_type = sqlite3_column_type(st, 7) == SQLITE_NULL ? INT32_MIN : sqlite3_column_int(st, 7);
		ev->bare_error = sqlite3_column_int(st, 8);
		ev->group_count = sqlite3_column_int(st, 9);
		ev->retired = sqlite3_column_int(st, 10);
		ev->umasks_in_config1 = sqlite3_column_int(st, 11);
		ev->filter_base[0] = (uint64_t)sqlite3_column_int64(st, 12);
		ev->filter_base[1] = (uint64_t)sqlite3_column_int64(st, 13);
		ev->filter_default = (uint64_t)sqlite3_column_int64(st, 14);
		ev->source = dup_column(st, 15);
		ev->filters_given = sqlite3_column_int(st, 16);
		ev->why = dup_column(st, 17);
		if (!ev->name || !ev->description)
			r = -1;
	}
	sqlite3_finalize(st);
	return r || i != t->nevents ? -1 : 0;
}

static int load_aliases(struct pmudb *db, struct event_table *t, int64_t first_event)
{
	sqlite3_stmt *st;
	if (prepare(db, "SELECT name, event_id, attrs FROM event_alias WHERE table_id = ? ORDER BY name", &st))
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	int r = 0;
	while (!r && sqlite3_step(st) == SQLITE_ROW) {
		struct alias *a = realloc(t->aliases, (size_t)(t->naliases + 1) * sizeof(*a));
		int64_t e = sqlite3_column_int64(st, 1) - first_event;
		if (!a || e < 0 || e >= t->nevents) {
			free(a == t->aliases ? NULL : a);
			r = -1;
			break;
		}
		t->aliases = a;
		a[t->naliases].name = dup_column(st, 0);
		a[t->naliases].attrs = dup_column(st, 2);
		a[t->naliases++].event = (int)e;
		if (!a[t->naliases - 1].name)
			r = -1;
	}
	sqlite3_finalize(st);
	return r;
}

/* The events of one table have consecutive ids: ?2 to ?3. */
#define OF_TABLE "event_id BETWEEN ?2 AND ?3"

static int load_table(struct pmudb *db, struct event_table *t)
{
	int64_t first = 0;
	if (load_events(db, t, &first) || load_aliases(db, t, first))
		return -1;
	return for_rows(db, t, first, "SELECT event_id, position, name, t.value, equiv, code, is_default, grp,"
			" single_error, retired, sets_event_select, filter_config1, filter_config2, filter_layout, code_is_filter,"
			" source, why FROM umask u"
			" JOIN text t ON t.id = u.description_id WHERE " OF_TABLE
			" ORDER BY event_id, position", umask_row)
	       || for_rows(db, t, first, "SELECT event_id, umask_position FROM event_default WHERE " OF_TABLE,
			   event_default_row)
	       || for_rows(db, t, first, "SELECT event_id, umask_position, added_position FROM umask_default WHERE "
			   OF_TABLE, umask_default_row)
	       || for_rows(db, t, first, "SELECT event_id, umask_position, modifier_position, value, hardwired"
			   " FROM umask_implied WHERE " OF_TABLE, implied_row)
	       || for_rows(db, t, first, "SELECT event_id, group_a, group_b, error FROM group_rule WHERE " OF_TABLE,
			   rule_row)
	       || for_rows(db, t, first, "SELECT event_id, modifier_position, given_error FROM event_hidden_modifier WHERE "
			   OF_TABLE, hidden_row)
	       || for_rows(db, t, first, "SELECT event_id, umask_position, modifier_position FROM umask_unlock WHERE "
			   OF_TABLE, unlock_row)
	       || for_rows(db, t, first, "SELECT event_id, umask_a, umask_b, added_position FROM pair_default WHERE "
			   OF_TABLE " ORDER BY event_id, umask_a, umask_b, added_position", pair_default_row) ? -1 : 0;
}

static const char *live_event_name(const void *list, int i)
{
	const struct event *ev = &((const struct event *)list)[i];
	return ev->retired ? NULL : ev->name;
}

static const char *alias_name(const void *list, int i)
{
	return ((const struct alias *)list)[i].name;
}

static const char *pmu_name(const void *list, int i)
{
	return ((const struct pmu *)list)[i].name;
}

int catalog_load_table(struct pmudb *db, const struct pmu *p)
{
	struct event_table *t = p->table;
	if (atomic_load_explicit(&t->loaded, memory_order_acquire))
		return 0;
	pthread_mutex_lock(&db->lock);
	int r = 0;
	if (!atomic_load_explicit(&t->loaded, memory_order_relaxed)) {
		r = load_table(db, t);
		if (!r)
			r = name_index_build(&t->by_name, t->events, t->nevents, live_event_name)
			    || name_index_build(&t->alias_by_name, t->aliases, t->naliases, alias_name);
		if (!r)
			atomic_store_explicit(&t->loaded, true, memory_order_release);
	}
	pthread_mutex_unlock(&db->lock);
	return r;
}

int catalog_find_event(const struct pmu *p, const char *name, const char **attrs)
{
	const struct event_table *t = p->table;
	if (attrs)
		*attrs = NULL;
	int e = name_index_find(&t->by_name, t->events, live_event_name, name);
	if (e >= 0)
		return e;
	int a = name_index_find(&t->alias_by_name, t->aliases, alias_name, name);
	if (a < 0)
		return -1;
	if (attrs)
		*attrs = t->aliases[a].attrs;
	return t->aliases[a].event;
}

const struct pmu *catalog_find_pmu(const struct pmudb *db, const char *name)
{
	int i = name_index_find(&db->pmu_by_name, db->pmus, pmu_name, name);
	return i < 0 ? NULL : &db->pmus[i];
}

/* ---- open and close ----------------------------------------------------- */

static int check_catalog(struct pmudb *db, const char *what, struct pmudb_error *err)
{
	sqlite3_stmt *st = NULL;
	int version = -1;
	if (sqlite3_prepare_v2(db->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK
	    && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version < 0)
		return set_error(err, PMUDB_ERR_CATALOG, "%s: not a pmudb catalog: %s", what, sqlite3_errmsg(db->db));
	if (version != SCHEMA_VERSION)
		return set_error(err, PMUDB_ERR_CATALOG, "%s: catalog schema version %d, this pmudb reads version %d",
				 what, version, SCHEMA_VERSION);
	return 0;
}

/* A damaged or truncated file is refused at open, not half-read later. */
static int check_integrity(struct pmudb *db, const char *what, struct pmudb_error *err)
{
	sqlite3_stmt *st = NULL;
	int ok = sqlite3_prepare_v2(db->db, "PRAGMA quick_check", -1, &st, NULL) == SQLITE_OK
		 && sqlite3_step(st) == SQLITE_ROW && !strcmp((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	return ok ? 0 : set_error(err, PMUDB_ERR_CATALOG, "%s: catalog is damaged (SQLite quick_check failed: %s)",
				  what, sqlite3_errmsg(db->db));
}

static int open_builtin(struct pmudb *db)
{
	size_t size = (size_t)(pmudb_builtin_catalog_end - pmudb_builtin_catalog);
	if (sqlite3_open_v2(":memory:", &db->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return -1;
	/* Read-only and not freed by SQLite: it reads the linked-in bytes. */
	return sqlite3_deserialize(db->db, "main", (unsigned char *)pmudb_builtin_catalog, (sqlite3_int64)size,
				   (sqlite3_int64)size, SQLITE_DESERIALIZE_READONLY) == SQLITE_OK ? 0 : -1;
}

int catalog_open(struct pmudb *db, const char *path, struct pmudb_error *err)
{
	const char *what = path ? path : "built-in catalog";
	pthread_mutex_init(&db->lock, NULL);
	if (path) {
		struct stat sb;
		if (stat(path, &sb))
			return set_error(err, PMUDB_ERR_CATALOG, "%s: no such catalog file", path);
		if (sb.st_size == 0)
			return set_error(err, PMUDB_ERR_CATALOG, "%s: catalog file is empty", path);
		/* NOMUTEX: the handle's own lock serialises every use of SQLite */
		if (sqlite3_open_v2(path, &db->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
			return set_error(err, PMUDB_ERR_CATALOG, "%s: cannot open: %s", path, sqlite3_errmsg(db->db));
	} else if (open_builtin(db)) {
		return set_error(err, PMUDB_ERR_CATALOG, "%s: cannot open: %s", what, sqlite3_errmsg(db->db));
	}
	int r = check_catalog(db, what, err);
	if (!r && path)
		r = check_integrity(db, what, err);
	if (!r && (count_sets(db) || load_pmus(db) || name_index_build(&db->pmu_by_name, db->pmus, db->npmus, pmu_name)))
		r = set_error(err, PMUDB_ERR_CATALOG, "%s: cannot read the catalog: %s", what, sqlite3_errmsg(db->db));
	return r;
}

static void free_event(struct event *ev)
{
	for (int i = 0; i < ev->numasks; i++) {
		free(ev->umasks[i].name);
		free(ev->umasks[i].description);
		free(ev->umasks[i].equiv);
		free(ev->umasks[i].added);
		free(ev->umasks[i].implied);
		free(ev->umasks[i].source);
		free(ev->umasks[i].why);
	}
	free(ev->umasks);
	free(ev->bare_added);
	free(ev->rules);
	for (int i = 0; i < ev->npairs; i++)
		free(ev->pairs[i].added);
	free(ev->pairs);
	free(ev->name);
	free(ev->description);
	free(ev->equiv);
	free(ev->source);
	free(ev->why);
}

void catalog_close(struct pmudb *db)
{
	for (int i = 0; i < db->ntables; i++) {
		struct event_table *t = &db->tables[i];
		for (int j = 0; t->events && j < t->nevents; j++)
			free_event(&t->events[j]);
		for (int j = 0; j < t->naliases; j++) {
			free(t->aliases[j].name);
			free(t->aliases[j].attrs);
		}
		free(t->events);
		free(t->aliases);
		name_index_free(&t->by_name);
		name_index_free(&t->alias_by_name);
	}
	for (int i = 0; i < db->npmus; i++) {
		struct pmu *p = &db->pmus[i];
		free(p->name);
		free(p->description);
		free(p->kind);
		free(p->family_name);
		free(p->family_group);
		free(p->sysfs_name);
		free(p->source);
		free(p->like);
	}
	for (int i = 0; i < db->nsets; i++) {
		for (int j = 0; db->sets[i].items && j < db->sets[i].count; j++) {
			free(db->sets[i].items[j].name);
			free(db->sets[i].items[j].description);
		}
		free(db->sets[i].items);
	}
	free(db->sets);
	free(db->tables);
	free(db->pmus);
	name_index_free(&db->pmu_by_name);
	sqlite3_close(db->db);
	pthread_mutex_destroy(&db->lock);
}
