/*
 * catalog.c - opens a catalog (a file, or the one compiled in) and reads
 * from it what is asked for, when it is first asked for: the PMU directory
 * at open, a PMU when named, an event table when used, descriptions when
 * browsed (catalog.h).
 */
#include "catalog/catalog.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zstd.h>

#include "catalog/cache_slot.h"
#include "catalog/catalog_file.h"
#include "catalog/families.h"
#include "catalog/packed.h"
#include "catalog/image.h"
#include "catalog/schema.h"
#include "catalog/shared_sets.h"
#include "catalog/unpack.h"

#define SCHEMA_VERSION 12

/* The catalog `make` built and its image, linked in by builtin.S. */
extern const unsigned char pmudb_builtin_catalog[];
extern const unsigned char pmudb_builtin_catalog_end[];
extern const unsigned char pmudb_builtin_image[];
extern const unsigned char pmudb_builtin_image_end[];

/* ---- reading blobs -------------------------------------------------------- */

static const char *const statement_sql[STMT_COUNT] = {
	[STMT_TABLE] = "SELECT packed FROM event_table WHERE id = ?1",
	[STMT_ALIASES] = "SELECT packed_aliases FROM event_table WHERE id = ?1",
};

/* Statement WHICH, prepared on first use and kept, with ?1 bound to ID;
 * NULL if it cannot be prepared.  Called with the lock held (or while
 * opening); statement_done resets it for the next use. */
static sqlite3_stmt *statement(struct pmudb *db, enum statement which, int64_t id)
{
	sqlite3_stmt **st = &db->statements[which];
	if (!*st && sqlite3_prepare_v3(catalog_sql(db), statement_sql[which], -1, SQLITE_PREPARE_PERSISTENT, st, NULL) != SQLITE_OK) {
		sqlite3_finalize(*st);
		*st = NULL;
		return NULL;
	}
	sqlite3_bind_int64(*st, 1, id);
	return *st;
}

static void statement_done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* The one packed blob ST's first row holds, unpacked (packed.h), or NULL. */
static unsigned char *blob_of(struct pmudb *db, sqlite3_stmt *st, const char *magic, size_t *size)
{
	unsigned char *data = NULL;
	if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_BLOB) {
		const void *frame = sqlite3_column_blob(st, 0);
		if (!db->zstd)
			db->zstd = ZSTD_createDCtx();
		data = packed_open(db->zstd, frame, (size_t)sqlite3_column_bytes(st, 0), magic, size);
	}
	/* each blob is bounded by its stored size (packed.h), and all of a
	 * handle's together too */
	if (data && *size > UNPACKED_TOTAL_MAX - db->unpacked_bytes) {
		free(data);
		return NULL;
	}
	if (data)
		db->unpacked_bytes += *size;
	return data;
}

/* The packed blob of statement WHICH for ID, unpacked, or NULL. */
static unsigned char *read_blob(struct pmudb *db, enum statement which, int64_t id, const char *magic, size_t *size)
{
	sqlite3_stmt *st = statement(db, which, id);
	unsigned char *data = blob_of(db, st, magic, size);
	if (st)
		statement_done(st);
	return data;
}

/* A blob (of SIZE bytes) the handle will not use: freed, unless it is the
 * image's. */
static void drop_blob(struct pmudb *db, const unsigned char **blob, size_t size)
{
	if (*blob && !db->image.data) {
		free((void *)*blob);
		db->unpacked_bytes -= size;
	}
	*blob = NULL;
}

/* ---- first reads: once, under the lock, remembered ------------------------ */

/* Runs READ(DB, ARG) if *STATE is NOT_READ; returns the state after. */
static int read_once(struct pmudb *db, atomic_int *state, int (*read)(struct pmudb *db, void *arg), void *arg)
{
	int s = atomic_load_explicit(state, memory_order_acquire);
	if (s != NOT_READ)
		return s;
	pthread_mutex_lock(&db->lock);
	s = atomic_load_explicit(state, memory_order_relaxed);
	if (s == NOT_READ) {
		s = read(db, arg) ? FAILED : READ;
		atomic_store_explicit(state, s, memory_order_release);
	}
	pthread_mutex_unlock(&db->lock);
	return s;
}

static const char *keep(struct arena *a, sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);
	return s ? arena_strdup(a, (const char *)s) : NULL;
}

/* ---- PMUs ------------------------------------------------------------------ */

/* The table of id ID, its structure made on first mention; NULL when ID
 * is out of range.  Called with the lock held. */
static struct event_table *table_of(struct pmudb *db, int64_t id)
{
	if (id < 1 || id > db->ntables)
		return NULL;
	struct event_table *t = atomic_load_explicit(&db->tables[id - 1], memory_order_relaxed);
	if (!t && (t = arena_calloc(&db->arena, 1, sizeof(*t)))) {
		t->id = id;
		t->shared_sets = &db->shared_sets;
		atomic_store_explicit(&db->tables[id - 1], t, memory_order_release);
	}
	return t;
}

struct pmu_read {
	int index;
};

static int read_pmu(struct pmudb *db, void *arg)
{
	int index = ((struct pmu_read *)arg)->index;
	int64_t table;
	const char *why = "out of memory";
	struct pmu *p = arena_calloc(&db->arena, 1, sizeof(*p));
	if (!p || unpack_directory_pmu(db->directory, db->directory_size, db->nslots, (uint32_t)db->npmus,
				       (uint32_t)db->ntables, index, p, &table, &why)
	    || !(p->table = table_of(db, table))) {
		db->pmu_failure[index] = why;
		return -1;
	}
	p->family = family_by_name(p->family_name);
	p->name_len = strlen(p->name);
	size_t most = sizeof(((struct pmudb_encoding *)0)->fstr) - FSTR_NAME_ROOM;
	p->fstr_name_len = p->name_len < most ? p->name_len : most;
	most = sizeof(((struct pmudb_encoding *)0)->pmu) - 1;
	p->out_name_len = p->name_len < most ? p->name_len : most;
	atomic_init(&p->sysfs_type, INT32_MIN);
	atomic_store_explicit(&db->pmus[index], p, memory_order_release);
	return 0;
}

struct pmu *catalog_pmu(struct pmudb *db, int index, struct pmudb_error *err)
{
	if (index < 0 || index >= db->npmus) {
		set_error(err, PMUDB_ERR_INVAL, "%s: no PMU %d in the catalog", pmudb_strerror(PMUDB_ERR_INVAL), index);
		return NULL;
	}
	struct pmu_read arg = { index };
	if (read_once(db, &db->pmu_state[index], read_pmu, &arg) == READ)
		return atomic_load_explicit(&db->pmus[index], memory_order_acquire);
	set_error(err, PMUDB_ERR_CATALOG, "%s: PMU %d of the directory is damaged: %s", db->what, index,
		  db->pmu_failure[index] ? db->pmu_failure[index] : "unreadable");
	return NULL;
}

/* The directory's probe for NAME: its hash is fixed by the catalog's
 * format (name_hash, a byte at a time). */
static int directory_find(struct pmudb *db, const char *name, struct pmudb_error *err)
{
	uint32_t mask = db->nslots - 1;
	/* nslots > npmus: an empty slot ends every probe */
	for (uint32_t h = name_hash(name) & mask, n = 0; n < db->nslots; h = (h + 1) & mask, n++) {
		uint32_t slot = directory_slot(db->directory, h);
		if (!slot)
			return -1;
		const char *entry;
		int64_t id;
		if (slot > (uint32_t)db->npmus
		    || unpack_directory_entry(db->directory, db->directory_size, db->nslots, (uint32_t)db->npmus,
					      (int)slot - 1, &entry, &id))
			return set_error(err, PMUDB_ERR_CATALOG, "%s: the PMU directory is damaged", db->what);
		if (same_name(entry, name))
			return catalog_pmu(db, (int)slot - 1, err) ? (int)slot - 1 : PMUDB_ERR_CATALOG;
	}
	return -1;
}

/*
 * The PMUs found so far, by the index hash of the name asked (HASH), a
 * slot (cache_slot.h) holding the PMU's index + 1.  Every spelling of a
 * name (case aside) probes the directory alike, so a hit whose PMU bears
 * the name is what the directory would give.  Warm, this replaces the
 * directory's byte-at-a-time hash, its entry checks and the PMU's
 * read_once.
 */
int catalog_lookup_pmu(struct pmudb *db, const char *name, uint32_t hash, struct pmudb_error *err)
{
	_Atomic uint64_t *slot = &db->pmu_cache[hash % PMU_CACHE_SLOTS];
	int index = (int)cache_slot_get(slot, hash) - 1;
	struct pmu *p = catalog_pmu_read(db, index);
	if (p && same_name(p->name, name))
		return index;
	index = directory_find(db, name, err);
	if (index >= 0)
		cache_slot_put(slot, hash, (uint32_t)index + 1);
	return index;
}

int catalog_find_pmu(struct pmudb *db, const char *name, struct pmudb_error *err)
{
	return catalog_lookup_pmu(db, name, name_index_hash(name, strlen(name)), err);
}

/* ---- event tables ------------------------------------------------------------ */

static int read_table(struct pmudb *db, void *arg)
{
	struct event_table *t = arg;
	t->blob = db->image.data ? image_table(&db->image, t->id, false, &t->size)
				 : read_blob(db, STMT_TABLE, t->id, PACKED_TABLE_MAGIC, &t->size);
	if (!t->blob) {
		int code = db->db ? sqlite3_errcode(db->db) : SQLITE_OK;
		if (db->image.data)
			t->failure = "the built-in image has no such table, or a damaged one";
		else if (code != SQLITE_OK && code != SQLITE_ROW && code != SQLITE_DONE)
			t->failure = arena_strdup(&t->arena, catalog_sql_error(db));
		if (!t->failure)
			t->failure = "its packed form is missing, damaged, not zstd, or unpacks to more than its stored"
				     " size allows";
		return -1;
	}
	if (!unpack_table(t, &t->failure))
		return 0;
	/* refused: nothing of it is used again */
	drop_blob(db, &t->blob, t->size);
	return -1;
}

int catalog_load_table(struct pmudb *db, const struct pmu *p, struct pmudb_error *err)
{
	struct event_table *t = p->table;
	if (read_once(db, &t->state, read_table, t) == READ)
		return 0;
	return set_error(err, PMUDB_ERR_CATALOG, "%s: the event table of %s is damaged: %s", db->what, p->name,
			 t->failure);
}

struct event_read {
	struct event_table *t;
	int e;
	unsigned plm;	/* of the PMU it is read for (finish_event) */
};

static int read_event(struct pmudb *db, void *arg)
{
	struct event_read *er = arg;
	struct event_table *t = er->t;
	struct event_slot *slot = &t->events[er->e];
	struct event *ev;
	if (unpack_event(t, er->e, &ev, &slot->failure))
		return -1;
	assert(ev->modifiers && ev->name_len > 0);
	if (db->finish_event && db->finish_event(ev, er->plm, &t->arena)) {
		slot->failure = "out of memory";
		return -1;
	}
	/* what the decoding filled, for the encoder to fetch at once */
	size_t lines = (arena_extent_from(&t->arena, ev) + 63) / 64;
	ev->record_lines = (uint8_t)(lines < UINT8_MAX ? lines : UINT8_MAX);
	slot->event = ev;
	atomic_store_explicit(&t->decoded[er->e], ev, memory_order_release);
	return 0;
}

/* Event E of P's table decoded, for a first read that holds the lock
 * already. */
static const struct event *event_locked(struct pmudb *db, const struct pmu *p, int e)
{
	struct event_table *t = p->table;
	struct event_slot *slot = &t->events[e];
	int s = atomic_load_explicit(&slot->state, memory_order_relaxed);
	if (s == NOT_READ) {
		struct event_read er = { t, e, p->supported_plm };
		s = read_event(db, &er) ? FAILED : READ;
		atomic_store_explicit(&slot->state, s, memory_order_release);
	}
	return s == READ ? slot->event : NULL;
}

const struct event *catalog_event(struct pmudb *db, const struct pmu *p, int e, struct pmudb_error *err)
{
	struct event_table *t = p->table;
	if (e < 0 || e >= t->nevents) {
		set_error(err, PMUDB_ERR_INVAL, "%s: no event %d in PMU %s", pmudb_strerror(PMUDB_ERR_INVAL), e, p->name);
		return NULL;
	}
	struct event_slot *slot = &t->events[e];
	struct event_read arg = { t, e, p->supported_plm };
	if (read_once(db, &slot->state, read_event, &arg) == READ)
		return slot->event;
	set_error(err, PMUDB_ERR_CATALOG, "%s: event %s of %s is damaged: %s", db->what, slot->name, p->name,
		  slot->failure ? slot->failure : "unreadable");
	return NULL;
}

static int read_aliases(struct pmudb *db, void *arg)
{
	struct event_table *t = arg;
	size_t size = 0;
	t->alias_blob = db->image.data ? image_table(&db->image, t->id, true, &size)
				       : read_blob(db, STMT_ALIASES, t->id, PACKED_ALIASES_MAGIC, &size);
	const char *why = db->image.data ? "the built-in image has no such aliases, or damaged ones"
					 : "its packed aliases are missing, damaged or not zstd";
	if (!t->alias_blob || unpack_aliases(t, t->alias_blob, size, &why)) {
		t->failure = why;
		drop_blob(db, &t->alias_blob, size);
		return -1;
	}
	return 0;
}

int catalog_lookup_event(struct pmudb *db, const struct pmu *p, const char *name, size_t len, uint32_t hash,
			 const char **attrs, struct pmudb_error *err)
{
	struct event_table *t = p->table;
	if (attrs)
		*attrs = NULL;
	int e = name_index_find_hashed(&t->by_name, name, len, hash);
	if (e >= 0)
		return e;
	if (read_once(db, &t->alias_state, read_aliases, t) != READ)
		return set_error(err, PMUDB_ERR_CATALOG, "%s: the aliases of %s are damaged: %s", db->what, p->name,
				 t->failure);
	int a = name_index_find_hashed(&t->alias_by_name, name, len, hash);
	if (a < 0)
		return -1;
	if (attrs)
		*attrs = t->aliases[a].attrs;
	return t->aliases[a].event;
}

int catalog_find_event(struct pmudb *db, const struct pmu *p, const char *name, const char **attrs,
		       struct pmudb_error *err)
{
	size_t len = strlen(name);
	return catalog_lookup_event(db, p, name, len, name_index_hash(name, len), attrs, err);
}

int catalog_find_umask(const struct event *ev, const char *name)
{
	return name_index_find(&ev->umask_by_name, name);
}

/* ---- descriptions, for browsing ------------------------------------------------ */

/* Rows of (event position, umask position, description, source, why);
 * each lands in the details of that event (UMASKS false) or unit mask. */
static int read_detail_rows(struct pmudb *db, struct event_table *t, const char *sql, bool umasks)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(catalog_sql(db), sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	int r = 0, rc;
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t e = sqlite3_column_int64(st, 0), u = sqlite3_column_int64(st, 1);
		if (e < 0 || e >= t->nevents || (umasks && (u < 0 || u >= t->details[e].numasks))) {
			r = -1;
			break;
		}
		struct details *d = umasks ? &t->details[e].umasks[u] : &t->details[e].own;
		d->description = keep(&t->arena, st, 2);
		d->source = keep(&t->arena, st, 3);
		d->why = keep(&t->arena, st, 4);
		r = d->description ? 0 : -1;
	}
	if (!r && rc != SQLITE_DONE)
		r = -1;
	sqlite3_finalize(st);
	return r;
}

static int read_details(struct pmudb *db, void *arg)
{
	const struct pmu *p = arg;
	struct event_table *t = p->table;
	t->details = arena_calloc(&t->arena, (size_t)t->nevents + 1, sizeof(*t->details));
	if (!t->details)
		return -1;
	/* every event decoded: the unit masks' counts are checked there */
	for (int e = 0; e < t->nevents; e++) {
		const struct event *ev = event_locked(db, p, e);
		if (!ev)
			return -1;
		t->details[e].numasks = ev->numasks;
		t->details[e].umasks = arena_calloc(&t->arena, (size_t)t->details[e].numasks + 1, sizeof(*t->details[e].umasks));
		if (!t->details[e].umasks)
			return -1;
	}
	if (read_detail_rows(db, t, "SELECT e.position, 0, t.value, e.source, e.why FROM event e"
			     " JOIN text t ON t.id = e.description_id WHERE e.table_id = ?1", false)
	    || read_detail_rows(db, t, "SELECT e.position, u.position, t.value, u.source, u.why FROM umask u"
				" JOIN event e ON e.id = u.event_id JOIN text t ON t.id = u.description_id"
				" WHERE e.table_id = ?1", true))
		return -1;
	/* every event and unit mask has one */
	for (int e = 0; e < t->nevents; e++) {
		if (!t->details[e].own.description)
			return -1;
		for (int u = 0; u < t->details[e].numasks; u++)
			if (!t->details[e].umasks[u].description)
				return -1;
	}
	return 0;
}

int catalog_load_details(struct pmudb *db, const struct pmu *p, struct pmudb_error *err)
{
	int r = catalog_load_table(db, p, err);
	if (r)
		return r;
	if (read_once(db, &p->table->details_state, read_details, (void *)p) == READ)
		return 0;
	return set_error(err, PMUDB_ERR_CATALOG, "%s: the events of %s, or their descriptions, are damaged", db->what,
			 p->name);
}

/* ---- open and close -------------------------------------------------------------- */

static int check_version(struct pmudb *db, struct pmudb_error *err)
{
	sqlite3_stmt *st = NULL;
	int version = -1;
	if (sqlite3_prepare_v2(db->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK
	    && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version < 0 && catalog_file_refusal(db->db, db->what, err))
		return PMUDB_ERR_CATALOG;
	if (version < 0)
		return set_error(err, PMUDB_ERR_CATALOG, "%s: not a pmudb catalog: %s", db->what,
				 sqlite3_errmsg(db->db));
	if (version != SCHEMA_VERSION)
		return set_error(err, PMUDB_ERR_CATALOG, "%s: catalog schema version %d, this pmudb reads version %d",
				 db->what, version, SCHEMA_VERSION);
	return 0;
}

/* SQLite on the built-in catalog: read-only and not freed by SQLite, it
 * reads the linked-in bytes. */
static int open_builtin_sql(struct pmudb *db)
{
	size_t size = (size_t)(pmudb_builtin_catalog_end - pmudb_builtin_catalog);
	if (sqlite3_open_v2(":memory:", &db->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return -1;
	return sqlite3_deserialize(db->db, "main", (unsigned char *)pmudb_builtin_catalog, (sqlite3_int64)size,
				   (sqlite3_int64)size, SQLITE_DESERIALIZE_READONLY) == SQLITE_OK ? 0 : -1;
}

/* The built-in catalog's pages read in place, not copied into SQLite's
 * cache: fewer pages touched by a short process.  Never a file's: a file
 * cut short while mapped would kill the process (SIGBUS) where a read
 * gives SQLite an error to return. */
static void map_pages(struct pmudb *db)
{
	sqlite3_exec(db->db, "PRAGMA mmap_size = 1073741824", NULL, NULL, NULL);
}

/* SQLite's progress callback: a statement past the budget is interrupted
 * (catalog.h, sql_ticks). */
static int over_budget(void *arg)
{
	struct pmudb *db = arg;
	return ++db->sql_ticks > db->sql_budget;
}

/*
 * A catalog's SQL is input too: nothing in it may run code of its own or
 * run for ever.  Views and triggers are off (the runtime queries tables
 * only), the schema must be the one this pmudb writes (no view where a
 * table belongs), and every statement is bounded by the catalog's size.
 */
static int guard_sql(struct pmudb *db, struct pmudb_error *err)
{
	int off = 0;
	sqlite3_db_config(db->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &off);
	sqlite3_db_config(db->db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &off);
	sqlite3_db_config(db->db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, &off);
	sqlite3_stmt *st = NULL;
	int64_t pages = 0;
	if (sqlite3_prepare_v2(db->db, "PRAGMA page_count", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		pages = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	db->sql_budget = SQL_TICKS_FLOOR + (pages > 0 ? pages : 0) * SQL_TICKS_PER_PAGE;
	sqlite3_progress_handler(db->db, SQL_TICK, over_budget, db);
	char why[256];
	if (catalog_schema_check(db->db, why, sizeof(why)))
		return set_error(err, PMUDB_ERR_CATALOG, "%s: not a catalog this pmudb wrote: %s", db->what, why);
	return 0;
}

bool catalog_has_table(struct pmudb *db, const char *name)
{
	sqlite3_stmt *st = NULL;
	bool has = sqlite3_prepare_v2(catalog_sql(db), "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", -1,
				      &st, NULL) == SQLITE_OK
		   && sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return has;
}

sqlite3 *catalog_sql(struct pmudb *db)
{
	if (!db->db && db->image.data && !db->sql_failed) {
		struct pmudb_error ignored;
		if (open_builtin_sql(db) || (map_pages(db), check_version(db, &ignored)) || guard_sql(db, &ignored)) {
			sqlite3_close(db->db);
			db->db = NULL;
			db->sql_failed = true;
		}
	}
	/* each query the callers make starts with this call */
	db->sql_ticks = 0;
	return db->db;
}

const char *catalog_sql_error(struct pmudb *db)
{
	if (db->db && db->sql_ticks > db->sql_budget)
		return "a query ran past the bound the catalog's size sets (its SQL is damaged or hostile)";
	return db->db ? sqlite3_errmsg(db->db) : "the built-in catalog's SQL tables cannot be opened";
}

/* The directory's header read, and the handle's arrays by it. */
static int take_directory(struct pmudb *db, struct pmudb_error *err)
{
	uint32_t npmus = 0, ntables = 0;
	if (unpack_directory(db->directory, db->directory_size, &npmus, &db->nslots, &ntables))
		return set_error(err, PMUDB_ERR_CATALOG, "%s: the PMU directory is damaged", db->what);
	db->npmus = (int)npmus;
	db->ntables = (int)ntables;
	db->pmus = calloc((size_t)npmus + 1, sizeof(*db->pmus));
	db->pmu_state = calloc((size_t)npmus + 1, sizeof(*db->pmu_state));
	db->pmu_failure = calloc((size_t)npmus + 1, sizeof(*db->pmu_failure));
	db->tables = calloc((size_t)ntables + 1, sizeof(*db->tables));
	if (!db->pmus || !db->pmu_state || !db->pmu_failure || !db->tables)
		return set_error(err, PMUDB_ERR_NOMEM, "%s: out of memory", db->what);
	return 0;
}

static int read_directory(struct pmudb *db, struct pmudb_error *err)
{
	sqlite3_stmt *st = NULL;
	sqlite3_prepare_v2(db->db, "SELECT packed FROM pmu_directory LIMIT 1", -1, &st, NULL);
	db->directory = blob_of(db, st, PACKED_DIRECTORY_MAGIC, &db->directory_size);
	sqlite3_finalize(st);
	if (!db->directory)
		return set_error(err, PMUDB_ERR_CATALOG, "%s: the PMU directory is missing or damaged (%s)", db->what,
				 sqlite3_errmsg(db->db));
	return take_directory(db, err);
}

/* The built-in catalog: its image (image.h), SQLite not opened until
 * something outside the image is asked for. */
static int open_image(struct pmudb *db, struct pmudb_error *err)
{
	const char *why;
	size_t size = (size_t)(pmudb_builtin_image_end - pmudb_builtin_image);
	if (image_open(&db->image, pmudb_builtin_image, size, SCHEMA_VERSION, &why))
		return set_error(err, PMUDB_ERR_CATALOG, "%s: %s", db->what, why);
	db->directory = image_directory(&db->image, &db->directory_size);
	if (!db->directory)
		return set_error(err, PMUDB_ERR_CATALOG, "%s: the PMU directory is missing or damaged", db->what);
	return take_directory(db, err);
}

int catalog_open(struct pmudb *db, const char *path, struct pmudb_error *err)
{
	db->what = path ? path : "built-in catalog";
	pthread_mutex_init(&db->lock, NULL);
	if (!path)
		return open_image(db, err) ? PMUDB_ERR_CATALOG : 0;
	int r = catalog_file_check(path, err);
	if (r)
		return r;
	/* NOMUTEX: the handle's own lock serialises every use of SQLite */
	if (sqlite3_open_v2(path, &db->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return set_error(err, PMUDB_ERR_CATALOG, "%s: cannot open: %s", path, sqlite3_errmsg(db->db));
	return check_version(db, err) || guard_sql(db, err) || read_directory(db, err) ? PMUDB_ERR_CATALOG : 0;
}

void catalog_close(struct pmudb *db)
{
	for (int i = 0; db->tables && i < db->ntables; i++) {
		struct event_table *t = atomic_load_explicit(&db->tables[i], memory_order_relaxed);
		if (!t)
			continue;
		/* blobs are malloc'd but where they are the image's */
		if (!db->image.data) {
			free((void *)t->blob);
			free((void *)t->alias_blob);
		}
		arena_free(&t->arena);
	}
	free(db->tables);
	free(db->pmus);
	free(db->pmu_state);
	free(db->pmu_failure);
	if (!db->image.data)
		free((void *)db->directory);
	shared_sets_free(&db->shared_sets);
	arena_free(&db->arena);
	/* a handle on the built-in catalog mostly never used them: their
	 * code is pages a short process would fault in to free nothing */
	if (db->zstd)
		ZSTD_freeDCtx(db->zstd);
	if (db->db) {
		for (int i = 0; i < STMT_COUNT; i++)
			sqlite3_finalize(db->statements[i]);
		sqlite3_close(db->db);
	}
	pthread_mutex_destroy(&db->lock);
}
