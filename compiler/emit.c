/*
 * emit.c - writes the model into a new SQLite catalog (schema.sql).
 *
 * PMUs with identical events share one event table: the 28 CHA boxes of
 * Skylake-X are one table with 28 pmu rows pointing at it.  Identity is
 * decided by a canonical serialisation of everything stored for a table;
 * SQLite itself finds equal keys (a temporary table with a unique key).
 * Modifier lists are shared the same way.  Rows go in in model order, so
 * the same model gives the same file.
 */
#include "compiler/emit.h"

#include "catalog/schema.h"
#include "compiler/model_fields.h"
#include "catalog/pack.h"

#include "compiler/reconcile.h"
#include "compiler/vendor_uncore.h"

#include <assert.h>
#include <perfmon/pfmlib.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


enum stmt_id {
	S_FIND_TABLE, S_ADD_TABLE_KEY, S_ADD_TABLE, S_SHARE_TABLE,
	S_FIND_MODSET, S_ADD_MODSET_KEY, S_ADD_MODSET, S_ADD_MODIFIER, S_ADD_LANDING,
	S_ADD_PMU, S_ADD_SYSFS, S_ADD_METRIC, S_ADD_EVENT, S_ADD_ALIAS, S_ADD_UMASK,
	S_ADD_EVENT_DEFAULT, S_ADD_UMASK_DEFAULT, S_ADD_GROUP_RULE, S_ADD_IMPLIED,
	S_ADD_CPUID, S_ADD_CPUID_PMU, S_ADD_OVERRIDE, S_ADD_META, S_ADD_SCHEMA_VERSION, S_ADD_ERROR,
	S_FIND_TEXT, S_ADD_TEXT, S_ADD_TEXT_KEY, S_ADD_PAIR_DEFAULT, S_ADD_HIDDEN, S_ADD_NO_MODIFIER, S_ADD_PRESENCE, S_ADD_NONZERO, S_ADD_UNLOCK,
	S_ADD_FINDING, S_ADD_SUMMARY, S_ADD_MODIFIER_SPARSE, S_ADD_EVENT_SPARSE, S_ADD_UMASK_SPARSE,
	S_ADD_VENDOR_LIST, S_ADD_LIST_CHANGE, S_ADD_COUNTER_COUNT, S_ADD_COUNTER_RULE,
	S_COUNT
};

static const char *const stmt_sql[S_COUNT] = {
	[S_FIND_TABLE] = "SELECT table_id FROM temp.table_key WHERE key = ?",
	[S_ADD_TABLE_KEY] = "INSERT INTO temp.table_key(key, table_id) VALUES (?, ?)",
	[S_ADD_TABLE] = "INSERT INTO event_table(pmu_count) VALUES (1)",
	[S_SHARE_TABLE] = "UPDATE event_table SET pmu_count = pmu_count + 1 WHERE id = ?",
	[S_FIND_MODSET] = "SELECT set_id FROM temp.modset_key WHERE key = ?",
	[S_ADD_MODSET_KEY] = "INSERT INTO temp.modset_key(key, set_id) VALUES (?, ?)",
	[S_ADD_MODSET] = "INSERT INTO modifier_set DEFAULT VALUES",
	/* S_ADD_MODIFIER, S_ADD_EVENT, S_ADD_UMASK: from their field lists (insert_sql) */
	[S_ADD_LANDING] = "INSERT INTO modifier_landing VALUES (?,?,?,?)",
	[S_ADD_PMU] = "INSERT INTO pmu VALUES (NULL,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_ADD_SYSFS] = "INSERT INTO pmu_sysfs VALUES (?,?,?)",
	[S_ADD_METRIC] = "INSERT INTO metric VALUES (NULL,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_ADD_ALIAS] = "INSERT INTO event_alias VALUES (?,?,?,?)",
	[S_ADD_EVENT_DEFAULT] = "INSERT INTO event_default VALUES (?,?)",
	[S_ADD_UMASK_DEFAULT] = "INSERT INTO umask_default VALUES (?,?,?)",
	[S_ADD_GROUP_RULE] = "INSERT INTO group_rule VALUES (?,?,?,?,?,?,?)",
	[S_ADD_IMPLIED] = "INSERT INTO umask_implied VALUES (?,?,?,?,?)",
	[S_ADD_CPUID] = "INSERT INTO cpuid_map VALUES (NULL,?,?,?,?,?,?,?,?)",
	[S_ADD_CPUID_PMU] = "INSERT INTO cpuid_map_pmu VALUES (?,?,?)",
	[S_ADD_OVERRIDE] = "INSERT INTO override_log VALUES (NULL,?,?,?,?)",
	[S_ADD_VENDOR_LIST] = "INSERT INTO vendor_list VALUES (NULL,?,?,?,?,?,?,?,?,?,?,?)",
	[S_ADD_LIST_CHANGE] = "INSERT INTO list_change VALUES (?,?,?,?,?)",
	[S_ADD_COUNTER_COUNT] = "INSERT INTO counter_count VALUES (?,?,?,?,?)",
	[S_ADD_COUNTER_RULE] = "INSERT INTO counter_rule VALUES (?,?,?,?,?,?,?,?,?,?,?)",
	[S_ADD_META] = "INSERT INTO meta VALUES (?,?)",
	/* schema.sql's user_version is the one place the version is written */
	[S_ADD_SCHEMA_VERSION] = "INSERT INTO meta SELECT 'schema_version', CAST(user_version AS TEXT) FROM pragma_user_version",
	[S_ADD_ERROR] = "INSERT INTO pfm_error VALUES (?,?,?)",
	[S_ADD_PRESENCE] = "INSERT INTO modifier_presence VALUES (?,?,?,?)",
	[S_ADD_NONZERO] = "INSERT INTO modifier_nonzero VALUES (?,?,?,?)",
	[S_ADD_HIDDEN] = "INSERT INTO event_hidden_modifier VALUES (?,?,?)",
	[S_ADD_NO_MODIFIER] = "INSERT INTO event_no_modifier VALUES (?,?,?)",
	[S_ADD_UNLOCK] = "INSERT INTO umask_unlock VALUES (?,?,?)",
	[S_ADD_PAIR_DEFAULT] = "INSERT INTO pair_default VALUES (?,?,?,?)",
	[S_ADD_FINDING] = "INSERT INTO finding VALUES (NULL,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_ADD_SUMMARY] = "INSERT INTO reconcile_summary VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_FIND_TEXT] = "SELECT id FROM temp.text_key WHERE value = ?",
	[S_ADD_TEXT] = "INSERT INTO text(value) VALUES (?)",
	[S_ADD_TEXT_KEY] = "INSERT INTO temp.text_key(value, id) VALUES (?, ?)",
};

struct emitter {
	sqlite3 *db;
	sqlite3_stmt *stmt[S_COUNT];
	struct emit_stats *stats;
	char *error;
	bool vendor_lists;	/* built with vendor lists: their tables exist */
};

static int fail(struct emitter *em, const char *what)
{
	if (!em->error)
		em->error = xprintf("catalog: %s: %s", what, sqlite3_errmsg(em->db));
	return -1;
}

/*
 * Binds the arguments by FORMAT ('i' int64, 'n' an int "is NULL" then an
 * int64, 's' text or NULL, 'k' a blob key given as sqlite3_str*), runs the
 * statement and resets
 * it.  Returns 0 with *rowid set (when ROWID is not NULL), -1 on error.
 */
static int run(struct emitter *em, enum stmt_id id, int64_t *rowid, const char *format, ...)
{
	sqlite3_stmt *st = em->stmt[id];
	if ((size_t)sqlite3_bind_parameter_count(st) != strlen(format)) {
		if (!em->error)
			em->error = xprintf("catalog: %s: format '%s' does not fit its parameters", stmt_sql[id], format);
		return -1;
	}
	va_list ap;
	va_start(ap, format);
	for (int i = 0; format[i]; i++) {
		switch (format[i]) {
		case 'i': sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t)); break;
		case 'n': {
			int is_null = va_arg(ap, int);
			int64_t v = va_arg(ap, int64_t);
			if (is_null)
				sqlite3_bind_null(st, i + 1);
			else
				sqlite3_bind_int64(st, i + 1, v);
			break;
		}
		case 's': sqlite3_bind_text(st, i + 1, va_arg(ap, const char *), -1, SQLITE_STATIC); break;
		case 'k': {
			sqlite3_str *k = va_arg(ap, sqlite3_str *);
			sqlite3_bind_blob(st, i + 1, sqlite3_str_value(k), sqlite3_str_length(k), SQLITE_STATIC);
			break;
		}
		}
	}
	va_end(ap);
	int rc = sqlite3_step(st);
	int64_t found = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	if (rc == SQLITE_DONE && rowid)
		*rowid = sqlite3_last_insert_rowid(em->db);
	if (rc == SQLITE_ROW && rowid)
		*rowid = found;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return fail(em, stmt_sql[id]);
	return rc == SQLITE_ROW ? 1 : 0;
}

static const char *kind_name(enum pmu_kind k)
{
	switch (k) {
	case PMU_CORE: return "core";
	case PMU_UNCORE: return "uncore";
	case PMU_OS: return "os";
	default: return "unknown";
	}
}

/* The id of description TEXT in the text table, inserting it if new. */
static int text_id(struct emitter *em, const char *text, int64_t *id)
{
	if (!text)
		text = "";
	int r = run(em, S_FIND_TEXT, id, "s", text);
	if (r == 0)
		r = run(em, S_ADD_TEXT, id, "s", text) || run(em, S_ADD_TEXT_KEY, NULL, "si", text, *id) ? -1 : 0;
	return r < 0 ? -1 : 0;
}

/* ---- the fields of catalog/field_lists.h ------------------------------------ */

/* The INSERT of L's table (with SPARSE, of its companion): KEYS (the
 * columns before the fields, as fields.c's list says them) bound first,
 * then each field; NULL when the companion has no fields. */
static char *insert_sql(const struct field_list *l, bool sparse, const char *keys, int nkeys)
{
	sqlite3_str *q = sqlite3_str_new(NULL);
	sqlite3_str_appendf(q, "INSERT INTO %s%s (%s", l->table, sparse ? "_sparse" : "", keys);
	int n = fields_column_names(q, l, sparse);
	sqlite3_str_appendall(q, ") VALUES (");
	for (int i = 0; i < nkeys + n; i++)
		sqlite3_str_appendall(q, i ? ",?" : "?");
	sqlite3_str_appendall(q, ")");
	char *sql = sqlite3_str_finish(q);
	if (!n && sparse) {
		sqlite3_free(sql);
		return NULL;
	}
	return sql;
}

/* ROW's fields of L (the SPARSE ones, or the others) bound to ST's
 * parameters from FIRST on. */
static int bind_fields(struct emitter *em, sqlite3_stmt *st, int first, const struct field_list *l,
		       const union field_value *row, bool sparse)
{
	int p = first - 1;
	for (int i = 0; i < l->count; i++) {
		if ((l->fields[i].use == FU_SPARSE) != sparse)
			continue;
		p++;
		int64_t id;
		switch (l->fields[i].kind) {
		case FK_NAME:
		case FK_STR: sqlite3_bind_text(st, p, row[i].s, -1, SQLITE_STATIC); break;
		case FK_DESC:
			if (text_id(em, row[i].s, &id))
				return -1;
			sqlite3_bind_int64(st, p, id);
			break;
		case FK_U64:
		case FK_FLAG: sqlite3_bind_int64(st, p, (int64_t)row[i].u); break;
		case FK_I32:
		case FK_ERR: sqlite3_bind_int64(st, p, row[i].i); break;
		case FK_POS:
			if (row[i].i < 0)
				sqlite3_bind_null(st, p);
			else
				sqlite3_bind_int64(st, p, row[i].i);
			break;
		case FK_PTYPE:
			if (row[i].i == FIELD_PTYPE_NONE)
				sqlite3_bind_null(st, p);
			else
				sqlite3_bind_int64(st, p, row[i].i);
			break;
		}
	}
	return 0;
}

/* Runs statement ST, its keys and ROW's fields of L bound (bind_fields);
 * 0 with *ROWID set (when not NULL), or -1. */
static int insert_row(struct emitter *em, sqlite3_stmt *st, const struct field_list *l, const union field_value *row,
		      bool sparse, const int64_t *keys, int nkeys, int64_t *rowid)
{
	for (int i = 0; i < nkeys; i++)
		if (keys[i] == INT64_MIN)
			sqlite3_bind_null(st, i + 1);
		else
			sqlite3_bind_int64(st, i + 1, keys[i]);
	int r = bind_fields(em, st, nkeys + 1, l, row, sparse);
	int rc = r ? SQLITE_ERROR : sqlite3_step(st);
	if (rc == SQLITE_DONE && rowid)
		*rowid = sqlite3_last_insert_rowid(em->db);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : fail(em, l->table);
}

/* Inserts ITEM's row of L with statement ID (its keys, then its fields),
 * and where one of its SPARSE fields is set, the companion's row with
 * statement SPARSE_ID (the same keys, or for an event its id). */
static int insert_fields(struct emitter *em, enum stmt_id id, enum stmt_id sparse_id, const struct field_list *l,
			 const void *item, const int64_t *keys, int nkeys, int64_t *rowid)
{
	union field_value row[64];
	assert(l->count <= 64);
	model_fields_row(l, item, row);
	int64_t own;
	if (insert_row(em, em->stmt[id], l, row, false, keys, nkeys, &own))
		return -1;
	if (rowid)
		*rowid = own;
	bool set = false;
	for (int i = 0; i < l->count; i++)
		set |= l->fields[i].use == FU_SPARSE && row[i].u != 0;
	if (!set)
		return 0;
	assert(em->stmt[sparse_id]);
	/* an event's companion is keyed by the event's id */
	return rowid ? insert_row(em, em->stmt[sparse_id], l, row, true, &own, 1, NULL)
		     : insert_row(em, em->stmt[sparse_id], l, row, true, keys, nkeys, NULL);
}

/* ITEM's fields of L appended to key K: every one, so that two items
 * with one key are equal in every column. */
static void key_fields(sqlite3_str *k, const struct field_list *l, const void *item)
{
	union field_value row[64];
	model_fields_row(l, item, row);
	for (int i = 0; i < l->count; i++)
		switch (l->fields[i].kind) {
		case FK_NAME:
		case FK_STR:
		case FK_DESC: sqlite3_str_appendf(k, "%s\x1f", row[i].s ? row[i].s : "\x01"); break;
		default: sqlite3_str_appendf(k, "%llx\x1f", (unsigned long long)row[i].u); break;
		}
}

/* ---- modifier sets ----------------------------------------------------- */

static void key_modifiers(sqlite3_str *k, const struct event *ev)
{
	for (size_t i = 0; i < ev->modifiers.count; i++) {
		const struct modifier *m = &ev->modifiers.items[i];
		key_fields(k, &modifier_field_list, m);
		for (size_t j = 0; j < m->landings.count; j++)
			sqlite3_str_appendf(k, "%s=%llx,", m->landings.items[j].field,
					    (unsigned long long)m->landings.items[j].mask);
		for (size_t j = 0; j < m->presence.count; j++)
			sqlite3_str_appendf(k, "+%s=%llx,", m->presence.items[j].field,
					    (unsigned long long)m->presence.items[j].mask);
		for (size_t j = 0; j < m->nonzero.count; j++)
			sqlite3_str_appendf(k, "!%s=%llx,", m->nonzero.items[j].field,
					    (unsigned long long)m->nonzero.items[j].mask);
		sqlite3_str_appendchar(k, 1, '\x1e');
	}
}

static int insert_modifiers(struct emitter *em, int64_t set, const struct event *ev)
{
	for (size_t i = 0; i < ev->modifiers.count; i++) {
		const struct modifier *m = &ev->modifiers.items[i];
		int64_t keys[] = { set, (int64_t)i };
		if (insert_fields(em, S_ADD_MODIFIER, S_ADD_MODIFIER_SPARSE, &modifier_field_list, m, keys, 2, NULL) < 0)
			return -1;
		for (size_t j = 0; j < m->landings.count; j++)
			if (run(em, S_ADD_LANDING, NULL, "iisi", set, (int64_t)i, m->landings.items[j].field,
				(int64_t)m->landings.items[j].mask) < 0)
				return -1;
		for (size_t j = 0; j < m->presence.count; j++)
			if (run(em, S_ADD_PRESENCE, NULL, "iisi", set, (int64_t)i, m->presence.items[j].field,
				(int64_t)m->presence.items[j].mask) < 0)
				return -1;
		for (size_t j = 0; j < m->nonzero.count; j++)
			if (run(em, S_ADD_NONZERO, NULL, "iisi", set, (int64_t)i, m->nonzero.items[j].field,
				(int64_t)m->nonzero.items[j].mask) < 0)
				return -1;
	}
	return 0;
}

/* The shared modifier set of EV (0 when it has none), inserting it if new. */
static int modifier_set(struct emitter *em, const struct event *ev, int64_t *set)
{
	*set = 0;
	if (!ev->modifiers.count)
		return 0;
	sqlite3_str *k = sqlite3_str_new(em->db);
	key_modifiers(k, ev);
	int r = run(em, S_FIND_MODSET, set, "k", k);
	if (r == 0) {
		r = run(em, S_ADD_MODSET, set, "")
		    || run(em, S_ADD_MODSET_KEY, NULL, "ki", k, *set)
		    || insert_modifiers(em, *set, ev);
		r = r ? -1 : 0;
		em->stats->modifier_sets += !r;
	}
	sqlite3_free(sqlite3_str_finish(k));
	return r < 0 ? -1 : 0;
}

/* ---- event tables ------------------------------------------------------ */

static void key_ints(sqlite3_str *k, const struct int_vec *v)
{
	for (size_t i = 0; i < v->count; i++)
		sqlite3_str_appendf(k, "%d,", v->items[i]);
	sqlite3_str_appendchar(k, 1, '\x1f');
}

static void key_event(sqlite3_str *k, const struct event *ev, int64_t modset)
{
	key_fields(k, &event_field_list, ev);
	sqlite3_str_appendf(k, "%lld\x1f", (long long)modset);
	key_ints(k, &ev->bare_added);
	key_ints(k, &ev->hidden);
	key_ints(k, &ev->hidden_errors);
	key_ints(k, &ev->no_modifiers);
	key_ints(k, &ev->no_modifiers_errors);
	for (size_t i = 0; i < ev->aliases.count; i++)
		sqlite3_str_appendf(k, "%s=%s,", ev->aliases.items[i].name,
				    ev->aliases.items[i].attrs ? ev->aliases.items[i].attrs : "");
	for (size_t i = 0; i < ev->group_rules.count; i++)
		sqlite3_str_appendf(k, "%d/%d/%d/%d/%d/%d,", ev->group_rules.items[i].group_a,
				    ev->group_rules.items[i].group_b, ev->group_rules.items[i].error,
				    ev->group_rules.items[i].after_reading, ev->group_rules.items[i].third_lifts,
				    ev->group_rules.items[i].lifted_by);
	for (size_t i = 0; i < ev->pair_defaults.count; i++) {
		sqlite3_str_appendf(k, "p%d/%d:", ev->pair_defaults.items[i].umask_a, ev->pair_defaults.items[i].umask_b);
		key_ints(k, &ev->pair_defaults.items[i].added);
	}
	for (size_t i = 0; i < ev->umasks.count; i++) {
		const struct umask *u = &ev->umasks.items[i];
		sqlite3_str_appendchar(k, 1, '\x1e');
		key_fields(k, &umask_field_list, u);
		key_ints(k, &u->added);
		for (size_t j = 0; j < u->implied.count; j++)
			sqlite3_str_appendf(k, "%d=%llu%c,", u->implied.items[j].modifier,
					    (unsigned long long)u->implied.items[j].value, u->implied.items[j].hardwired ? 'h' : 's');
		for (size_t j = 0; j < u->unlocks.count; j++)
			sqlite3_str_appendf(k, "u%d,", u->unlocks.items[j].modifier);
	}
	sqlite3_str_appendchar(k, 1, '\x1d');
}

static int insert_umasks(struct emitter *em, const struct event *ev, int64_t event_id)
{
	for (size_t i = 0; i < ev->umasks.count; i++) {
		const struct umask *u = &ev->umasks.items[i];
		int64_t pos = (int64_t)i, keys[] = { event_id, pos };
		if (insert_fields(em, S_ADD_UMASK, S_ADD_UMASK_SPARSE, &umask_field_list, u, keys, 2, NULL) < 0)
			return -1;
		em->stats->stored_umasks++;
		for (size_t j = 0; j < u->added.count; j++)
			if (run(em, S_ADD_UMASK_DEFAULT, NULL, "iii", event_id, pos, (int64_t)u->added.items[j]) < 0)
				return -1;
		for (size_t j = 0; j < u->implied.count; j++)
			if (run(em, S_ADD_IMPLIED, NULL, "iiiii", event_id, pos, (int64_t)u->implied.items[j].modifier,
				(int64_t)u->implied.items[j].value, (int64_t)u->implied.items[j].hardwired) < 0)
				return -1;
		for (size_t j = 0; j < u->unlocks.count; j++)
			if (run(em, S_ADD_UNLOCK, NULL, "iii", event_id, pos, (int64_t)u->unlocks.items[j].modifier) < 0)
				return -1;
	}
	return 0;
}

static int insert_event(struct emitter *em, int64_t table, size_t position, const struct event *ev, int64_t modset)
{
	int64_t id, keys[] = { table, (int64_t)position, modset ? modset : INT64_MIN };
	if (insert_fields(em, S_ADD_EVENT, S_ADD_EVENT_SPARSE, &event_field_list, ev, keys, 3, &id) < 0)
		return -1;
	em->stats->stored_events++;
	int r = insert_umasks(em, ev, id);
	for (size_t i = 0; !r && i < ev->bare_added.count; i++)
		r = run(em, S_ADD_EVENT_DEFAULT, NULL, "ii", id, (int64_t)ev->bare_added.items[i]) < 0;
	for (size_t i = 0; !r && i < ev->group_rules.count; i++) {
		const struct group_rule *g = &ev->group_rules.items[i];
		r = run(em, S_ADD_GROUP_RULE, NULL, "iiiiiin", id, (int64_t)g->group_a, (int64_t)g->group_b,
			(int64_t)g->error, (int64_t)g->after_reading, (int64_t)g->third_lifts, g->lifted_by < 0,
			(int64_t)g->lifted_by) < 0;
	}
	for (size_t i = 0; !r && i < ev->aliases.count; i++)
		r = run(em, S_ADD_ALIAS, NULL, "isis", table, ev->aliases.items[i].name, id, ev->aliases.items[i].attrs) < 0;
	for (size_t i = 0; !r && i < ev->hidden.count; i++)
		r = run(em, S_ADD_HIDDEN, NULL, "iii", id, (int64_t)ev->hidden.items[i],
			(int64_t)(i < ev->hidden_errors.count ? ev->hidden_errors.items[i] : 0)) < 0;
	for (size_t i = 0; !r && i < ev->no_modifiers.count; i++)
		r = run(em, S_ADD_NO_MODIFIER, NULL, "iii", id, (int64_t)ev->no_modifiers.items[i],
			(int64_t)ev->no_modifiers_errors.items[i]) < 0;
	for (size_t i = 0; !r && i < ev->pair_defaults.count; i++) {
		const struct pair_defaults *pd = &ev->pair_defaults.items[i];
		for (size_t k = 0; !r && k <= pd->added.count; k++) {
			if (k == pd->added.count && pd->added.count)
				break;
			int added = pd->added.count ? pd->added.items[k] : -1;
			r = run(em, S_ADD_PAIR_DEFAULT, NULL, "iiii", id, (int64_t)pd->umask_a, (int64_t)pd->umask_b,
				(int64_t)added) < 0;
		}
	}
	return r ? -1 : 0;
}

/* The event table of P, shared with an earlier PMU when identical. */
static int event_table(struct emitter *em, const struct pmu *p, int64_t *table)
{
	int64_t *modsets = calloc(p->events.count + 1, sizeof(*modsets));
	if (!modsets)
		return fail(em, "out of memory");
	sqlite3_str *k = sqlite3_str_new(em->db);
	int r = 0;
	for (size_t i = 0; !r && i < p->events.count; i++) {
		r = modifier_set(em, &p->events.items[i], &modsets[i]);
		key_event(k, &p->events.items[i], modsets[i]);
	}
	if (!r)
		r = run(em, S_FIND_TABLE, table, "k", k);
	if (r == 1) {
		r = run(em, S_SHARE_TABLE, NULL, "i", *table) < 0 ? -1 : 0;
	} else if (r == 0) {
		r = run(em, S_ADD_TABLE, table, "") || run(em, S_ADD_TABLE_KEY, NULL, "ki", k, *table) ? -1 : 0;
		for (size_t i = 0; !r && i < p->events.count; i++)
			r = insert_event(em, *table, i, &p->events.items[i], modsets[i]);
		em->stats->event_tables += !r;
	}
	sqlite3_free(sqlite3_str_finish(k));
	free(modsets);
	return r;
}

static int insert_pmu(struct emitter *em, const struct pmu *p)
{
	int64_t table, id;
	if (event_table(em, p, &table)
	    || run(em, S_ADD_PMU, &id, "ssisssiiiiiississ", p->name, p->description ? p->description : "",
		   (int64_t)p->libpfm_id, kind_name(p->kind), p->family, p->harness_group,
		   (int64_t)p->num_counters, (int64_t)p->num_fixed_counters, (int64_t)p->max_encoding,
		   (int64_t)p->supported_plm, (int64_t)p->perf_type, table, p->source, p->like,
		   (int64_t)p->config_cleared, p->box_numbering, p->device_identifier) < 0)
		return -1;
	for (size_t i = 0; i < p->sysfs_names.count; i++)
		if (run(em, S_ADD_SYSFS, NULL, "iis", id, (int64_t)i, p->sysfs_names.items[i]) < 0)
			return -1;
	em->stats->pmus++;
	em->stats->libpfm_pmus += !p->source;
	for (size_t i = 0; i < p->events.count; i++) {
		const struct event *ev = &p->events.items[i];
		bool libpfm = !p->source && !ev->source;
		em->stats->events += !ev->retired;
		em->stats->libpfm_events += !ev->retired && libpfm;
		for (size_t j = 0; !ev->retired && j < ev->umasks.count; j++) {
			em->stats->umasks += !ev->umasks.items[j].retired;
			em->stats->libpfm_umasks += !ev->umasks.items[j].retired && libpfm && !ev->umasks.items[j].source;
		}
	}
	return 0;
}

/* ---- the rest ---------------------------------------------------------- */

static int insert_cpuid(struct emitter *em, const struct model *m)
{
	for (size_t i = 0; i < m->cpuid.count; i++) {
		const struct cpuid_entry *c = &m->cpuid.items[i];
		int64_t id;
		char *source = xprintf("%s:%d", c->file, c->line);
		int r = run(em, S_ADD_CPUID, &id, "siiiiiss", c->vendor, (int64_t)c->family, (int64_t)c->model_lo,
			    (int64_t)c->model_hi, (int64_t)c->stepping_lo, (int64_t)c->stepping_hi, c->why, source);
		free(source);
		for (size_t j = 0; !r && j < c->pmus.count; j++)
			r = run(em, S_ADD_CPUID_PMU, NULL, "iis", id, (int64_t)j, c->pmus.items[j]);
		if (r < 0)
			return -1;
	}
	return 0;
}

/* Whether P is the uncore PMU its µarch made of kernel PMU KPMU (its
 * source ends "@KPMU"). */
static bool made_of(const struct pmu *p, const char *kpmu)
{
	const char *at = p->source ? strrchr(p->source, '@') : NULL;
	return at && !strcmp(at + 1, kpmu);
}

/* The catalog PMU a metric of µarch U is for: the core PMU of its core
 * type (a hybrid's metric names cpu_core or cpu_atom), or the PMU made of
 * its Unit's kernel PMU (a system PMU's metric: arm_cmn, imx8_ddr), else
 * the µarch's core PMU, else its first PMU.  NULL when none was made. */
static const char *metric_pmu(const struct model *m, size_t u, const char *unit)
{
	char *kpmu = unit ? vendor_uncore_pmu_of(m, unit) : NULL;
	const char *found = NULL;
	for (size_t i = 0; i < m->pmus.count && !found; i++) {
		const struct pmu *p = &m->pmus.items[i];
		if (p->uarch == (int)u && unit && ((p->kind == PMU_CORE && p->unit && !strcmp(p->unit, unit))
						  || (p->kind == PMU_UNCORE && made_of(p, kpmu))))
			found = p->name;
	}
	free(kpmu);
	if (found)
		return found;
	for (size_t i = 0; i < m->vendor_maps.count; i++)
		for (size_t k = 0; m->vendor_maps.items[i].uarch == (int)u && k < m->pmus.count; k++)
			if (!strcmp(m->pmus.items[k].name, m->vendor_maps.items[i].pmu))
				return m->pmus.items[k].name;
	for (size_t i = 0; i < m->pmus.count; i++)
		if (m->pmus.items[i].uarch == (int)u)
			return m->pmus.items[i].name;
	return NULL;
}

static int insert_metrics(struct emitter *em, const struct model *m)
{
	for (size_t u = 0; u < m->uarchs.count; u++) {
		const struct vendor_uarch *ua = &m->uarchs.items[u];
		for (size_t i = 0; i < ua->metrics.count; i++) {
			const struct vendor_metric *v = &ua->metrics.items[i];
			char *uarch = xprintf("%s/%s", ua->arch, ua->name);
			int r = run(em, S_ADD_METRIC, NULL, "ssssssssssss", metric_pmu(m, u, v->unit), uarch, v->name,
				    v->description, v->expr, v->groups, v->threshold, v->scale_unit, v->constraint,
				    v->default_group, v->file, v->missing);
			free(uarch);
			if (r < 0)
				return -1;
			em->stats->metrics++;
		}
	}
	return 0;
}

/* One list of UARCH (ARCH/NAME); *ID its row.  NEWER: the row of the
 * list that superseded it, 0 for the one encoded. */
static int insert_list(struct emitter *em, const struct model *m, const char *uarch, const struct vendor_list *l,
		       int64_t newer, int64_t *id)
{
	const struct vendor_source *s = &m->sources.items[l->source];
	if (run(em, S_ADD_VENDOR_LIST, id, "ssssssiiins", uarch, s->origin, s->layout, l->file, l->version, l->date,
		(int64_t)l->events, (int64_t)l->uncore, (int64_t)l->metrics, newer == 0, newer, l->kept) < 0)
		return -1;
	for (size_t i = 0; i < l->changes.count; i++) {
		const struct list_change *c = &l->changes.items[i];
		if (run(em, S_ADD_LIST_CHANGE, NULL, "issss", *id, c->event, c->change, c->was, c->now) < 0)
			return -1;
	}
	return 0;
}

static int insert_vendor_lists(struct emitter *em, const struct model *m)
{
	for (size_t u = 0; em->vendor_lists && u < m->uarchs.count; u++) {
		const struct vendor_uarch *ua = &m->uarchs.items[u];
		char *uarch = xprintf("%s/%s", ua->arch, ua->name);
		int64_t id = 0, old = 0;
		int r = insert_list(em, m, uarch, &ua->list, 0, &id);
		for (size_t i = 0; !r && i < ua->older.count; i++)
			r = insert_list(em, m, uarch, &ua->older.items[i], id, &old);
		free(uarch);
		if (r)
			return -1;
	}
	return 0;
}

static int insert_counters(struct emitter *em, const struct model *m)
{
	for (size_t i = 0; em->vendor_lists && i < m->counter_counts.count; i++) {
		const struct counter_count *c = &m->counter_counts.items[i];
		if (run(em, S_ADD_COUNTER_COUNT, NULL, "sinis", c->pmu, (int64_t)c->generic, c->generic_smt_off < 0,
			(int64_t)c->generic_smt_off, (int64_t)c->fixed, c->source) < 0)
			return -1;
	}
	for (size_t i = 0; em->vendor_lists && i < m->counter_rules.count; i++) {
		const struct counter_rule *r = &m->counter_rules.items[i];
		if (run(em, S_ADD_COUNTER_RULE, NULL, "siiiiiiiiss", r->pmu, (int64_t)r->config, (int64_t)r->mask,
			(int64_t)r->counters, (int64_t)r->counters_smt_off, (int64_t)r->pebs_counters,
			(int64_t)r->fixed_counters, (int64_t)r->taken_alone, (int64_t)r->free_running, r->event,
			r->source) < 0)
			return -1;
	}
	return 0;
}

static int insert_overrides(struct emitter *em, const struct model *m)
{
	for (size_t i = 0; i < m->overrides.count; i++) {
		const struct override_record *o = &m->overrides.items[i];
		char *source = xprintf("%s:%d", o->file, o->line);
		int r = run(em, S_ADD_OVERRIDE, NULL, "ssss", source, o->action, o->target, o->why);
		free(source);
		if (r < 0)
			return -1;
	}
	return 0;
}

static const char *const match_names[MATCH_COUNT] = {
	[MATCH_AGREE] = "agree", [MATCH_DIFFER] = "differ", [MATCH_OTHER_NAME] = "other_name",
	[MATCH_VENDOR_ONLY] = "vendor_only", [MATCH_LIBPFM_ONLY] = "libpfm_only",
};

static int insert_findings(struct emitter *em, const struct model *m)
{
	for (size_t i = 0; i < m->findings.count; i++) {
		const struct finding *f = &m->findings.items[i];
		/* agreements and other names are counted only: an other name
		 * is an alias of the catalog already */
		if (f->match != MATCH_DIFFER && f->match != MATCH_VENDOR_ONLY)
			continue;
		if (run(em, S_ADD_FINDING, NULL, "ssssssnniissi", f->pmu, f->uarch, match_names[f->match], f->libpfm_name,
			f->vendor_name, f->vendor_file, !f->libpfm_name, (int64_t)f->libpfm_config[0], !f->libpfm_name,
			(int64_t)f->libpfm_config[1], (int64_t)f->vendor_config[0], (int64_t)f->vendor_config[1],
			f->explained, f->why, (int64_t)f->added) < 0)
			return -1;
	}
	struct reconcile_count counts[256];
	size_t n = reconcile_counts(m, counts, 256);
	for (size_t i = 0; i < n; i++) {
		const struct reconcile_count *c = &counts[i];
		if (run(em, S_ADD_SUMMARY, NULL, "ssiiiiiiiiiiii", c->pmu, c->uarch, c->agree, c->differ, c->corrected,
			c->equivalent, c->by_design, c->vendor_error, c->unexplained, c->other_name, c->vendor_only, c->added,
			c->libpfm_only, c->kept) < 0)
			return -1;
	}
	return 0;
}

static const char *const error_names[] = {
	"PFM_SUCCESS", "PFM_ERR_NOTSUPP", "PFM_ERR_INVAL", "PFM_ERR_NOINIT", "PFM_ERR_NOTFOUND",
	"PFM_ERR_FEATCOMB", "PFM_ERR_UMASK", "PFM_ERR_NOMEM", "PFM_ERR_ATTR", "PFM_ERR_ATTR_VAL",
	"PFM_ERR_ATTR_SET", "PFM_ERR_TOOMANY", "PFM_ERR_TOOSMALL",
};

static int insert_errors(struct emitter *em)
{
	for (int i = 0; i < (int)(sizeof(error_names) / sizeof(error_names[0])); i++)
		if (run(em, S_ADD_ERROR, NULL, "iss", (int64_t)-i, error_names[i], pfm_strerror(-i)) < 0)
			return -1;
	return 0;
}

static int insert_meta(struct emitter *em, const struct model *m)
{
	char buf[64];
	long misses = 0;
	for (size_t i = 0; i < m->pmus.count; i++)
		for (size_t j = 0; j < m->pmus.items[i].events.count; j++)
			misses += m->pmus.items[i].events.items[j].pair_rule_misses;
	em->stats->pair_rule_misses = misses;
	struct { const char *key; long value; } counts[] = {
		{ "metrics", em->stats->metrics }, { "pmus", em->stats->pmus }, { "events", em->stats->events }, { "umasks", em->stats->umasks },
		{ "libpfm_pmus", em->stats->libpfm_pmus }, { "libpfm_events", em->stats->libpfm_events },
		{ "libpfm_umasks", em->stats->libpfm_umasks },
		{ "event_tables", em->stats->event_tables }, { "overrides", (long)m->overrides.count },
		{ "cpuid_entries", (long)m->cpuid.count }, { "pair_rule_misses", misses },
	};
	if (run(em, S_ADD_META, NULL, "ss", "libpfm_version", m->libpfm_version) < 0
	    || run(em, S_ADD_META, NULL, "ss", "libpfm_fingerprint", m->libpfm_fingerprint) < 0
	    || run(em, S_ADD_META, NULL, "ss", "tables_fingerprint", m->tables_fingerprint) < 0
	    || (m->vendor_fingerprint && run(em, S_ADD_META, NULL, "ss", "vendor_fingerprint", m->vendor_fingerprint) < 0)
	    || run(em, S_ADD_SCHEMA_VERSION, NULL, "") < 0
	    || (m->vendor_tree && (run(em, S_ADD_META, NULL, "ss", "vendor_tree", m->vendor_tree) < 0
				   || run(em, S_ADD_META, NULL, "ss", "vendor_layout", m->vendor_layout) < 0)))
		return -1;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		snprintf(buf, sizeof(buf), "%ld", counts[i].value);
		if (run(em, S_ADD_META, NULL, "ss", counts[i].key, buf) < 0)
			return -1;
	}
	return 0;
}

static int prepare(struct emitter *em)
{
	char *err = NULL, *schema = NULL;
	if (sqlite3_exec(em->db,
			 "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
			 "CREATE TEMP TABLE table_key(key BLOB PRIMARY KEY, table_id INTEGER);"
			 "CREATE TEMP TABLE modset_key(key BLOB PRIMARY KEY, set_id INTEGER);"
			 "CREATE TEMP TABLE text_key(value TEXT PRIMARY KEY, id INTEGER);", NULL, NULL, &err) != SQLITE_OK
	    || !(schema = catalog_schema(em->vendor_lists)) || sqlite3_exec(em->db, schema, NULL, NULL, &err) != SQLITE_OK) {
		em->error = xprintf("catalog: schema: %s", err ? err : "error");
		sqlite3_free(err);
		sqlite3_free(schema);
		return -1;
	}
	sqlite3_free(schema);
	char *fields_sql[S_COUNT] = {
		[S_ADD_MODIFIER] = insert_sql(&modifier_field_list, false, "set_id, position", 2),
		[S_ADD_EVENT] = insert_sql(&event_field_list, false, "table_id, position, modifier_set_id", 3),
		[S_ADD_UMASK] = insert_sql(&umask_field_list, false, "event_id, position", 2),
		[S_ADD_MODIFIER_SPARSE] = insert_sql(&modifier_field_list, true, "set_id, position", 2),
		[S_ADD_EVENT_SPARSE] = insert_sql(&event_field_list, true, "event_id", 1),
		[S_ADD_UMASK_SPARSE] = insert_sql(&umask_field_list, true, "event_id, position", 2),
	};
	int r = 0;
	for (int i = 0; !r && i < S_COUNT; i++) {
		const char *sql = stmt_sql[i] ? stmt_sql[i] : fields_sql[i];
		bool companion = i == S_ADD_MODIFIER_SPARSE || i == S_ADD_EVENT_SPARSE || i == S_ADD_UMASK_SPARSE;
		if (!sql && companion)
			continue;	/* a list without SPARSE fields has none */
		if (!em->vendor_lists && (i == S_ADD_VENDOR_LIST || i == S_ADD_LIST_CHANGE || i == S_ADD_COUNTER_COUNT
					  || i == S_ADD_COUNTER_RULE))
			continue;
		if (!sql || sqlite3_prepare_v2(em->db, sql, -1, &em->stmt[i], NULL) != SQLITE_OK)
			r = fail(em, sql ? sql : "out of memory");
	}
	for (int i = 0; i < S_COUNT; i++)
		sqlite3_free(fields_sql[i]);
	return r;
}

int emit_catalog(const struct model *m, const char *path, struct emit_stats *stats, char **error)
{
	struct emitter em = { .stats = stats, .vendor_lists = m->sources.count > 0 };
	memset(stats, 0, sizeof(*stats));
	int r = sqlite3_open_v2(path, &em.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK;
	if (r)
		fail(&em, path);
	r = r || prepare(&em) || sqlite3_exec(em.db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK;
	for (size_t i = 0; !r && i < m->pmus.count; i++)
		r = insert_pmu(&em, &m->pmus.items[i]);
	r = r || insert_cpuid(&em, m) || insert_metrics(&em, m) || insert_vendor_lists(&em, m) || insert_counters(&em, m)
	    || insert_overrides(&em, m) || insert_findings(&em, m) || insert_errors(&em)
	    || insert_meta(&em, m);
	for (int i = 0; i < S_COUNT; i++)
		sqlite3_finalize(em.stmt[i]);
	if (!r && pack_catalog(em.db, true, &em.error))
		r = -1;
	if (!r && (sqlite3_exec(em.db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK
		   || sqlite3_exec(em.db, "DROP TABLE temp.table_key; DROP TABLE temp.modset_key; DROP TABLE temp.text_key; VACUUM",
				   NULL, NULL, NULL) != SQLITE_OK))
		r = fail(&em, "commit");
	if (r && !em.error)
		fail(&em, "write");
	sqlite3_close(em.db);
	*error = em.error;
	return r ? -1 : 0;
}
