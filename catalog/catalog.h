/*
 * catalog.h - the handle that reads a catalog into its model
 * (catalog_model.h), and the lookups on it.
 *
 * Nothing is read before it is needed, so that a process encoding one
 * event touches little more than that event: pmudb_open() reads the PMU
 * directory (a hash of the names); a PMU's row is read when it is first
 * named; its event table's packed blob (packed.h) when first used, and of
 * that blob only the names are indexed; an event is decoded, and checked,
 * when first asked for; aliases (vendor names) when first looked up;
 * descriptions when first browsed.  Each first read takes the handle's
 * lock; what it produced never changes, so encoders read it without locks.
 * A first read that fails is remembered with its reason, never retried.
 */
#ifndef PMUDB_CATALOG_H
#define PMUDB_CATALOG_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "catalog/model.h"
#include "catalog/errors.h"
#include "catalog/image.h"

/* Slots of the cache of PMUs found by name: more than a CPU's PMUs. */
#define PMU_CACHE_SLOTS 256
/* Sets of the cache of events found by "PMU::EVENT" (event_cache.h), of
 * EVENT_CACHE_WAYS each: a set's keys and bare encodings in one cache line. */
#define EVENT_CACHE_SETS 1024
#define EVENT_CACHE_WAYS 4

struct bare_encoding;
struct event_cache_set {
	alignas(64) _Atomic uint32_t key[EVENT_CACHE_WAYS];
	_Atomic(const struct bare_encoding *) bare[EVENT_CACHE_WAYS];
};

/* A catalog's SQL bound (catalog_sql): SQLite calls back every SQL_TICK
 * steps of its machine, and a query may take SQL_TICKS_FLOOR callbacks
 * and SQL_TICKS_PER_PAGE more per page of the file; the runtime's own
 * queries on a good catalog take under a hundredth of that (docs/schema.md). */
#define SQL_TICK 1000
#define SQL_TICKS_FLOOR 10000
#define SQL_TICKS_PER_PAGE 20

/* What a handle's blobs may unpack to, all together (packed.h bounds each). */
#define UNPACKED_TOTAL_MAX ((size_t)256 << 20)

/* The statements a handle runs once per table read, kept prepared:
 * preparing one cost as much as decompressing the table it reads. */
enum statement { STMT_TABLE, STMT_ALIASES, STMT_COUNT };

struct pmudb {
	sqlite3 *db;
	sqlite3_stmt *statements[STMT_COUNT];	/* prepared on first use */
	const char *what;	/* the file, or "built-in catalog", for messages */
	/* What the runtime lays out in an event once it is decoded and before
	 * it is published (its fstr form), for a PMU that can filter the
	 * privilege levels PLM: set by whoever opens the handle, called
	 * under the lock; 0, or -1 when out of memory.  NULL: nothing. */
	int (*finish_event)(struct event *ev, unsigned plm, struct arena *arena);
	pthread_mutex_t lock;	/* first reads, and every use of SQLite */
	struct arena arena;	/* PMUs and tables, as they are read */
	struct shared_sets shared_sets;	/* the tables' modifier sets, by content */
	struct ZSTD_DCtx_s *zstd;	/* for every blob, made on first use */
	/* the built-in catalog's blobs (image.h), or none: data NULL */
	struct image image;
	bool sql_failed;	/* SQLite on the built-in catalog would not open */
	/* SQLite's progress callbacks (one per SQL_TICK steps of its machine)
	 * since the last catalog_sql(), and how many a query may take: a
	 * bound set by the catalog's size, past which it is interrupted */
	int64_t sql_ticks, sql_budget;
	size_t unpacked_bytes;	/* of the blobs it holds, up to UNPACKED_TOTAL_MAX */
	bool express_off;	/* the express lane declines all (express.h) */
	/* the meta table, read whole on the first pmudb_meta (api.c): a call
	 * then allocates nothing */
	bool meta_read;
	int nmeta;
	const char **meta_keys, **meta_values;
	const unsigned char *directory;	/* the PMU directory blob: malloc'd, or the image's */
	size_t directory_size;
	uint32_t nslots;
	int npmus;
	_Atomic(struct pmu *) *pmus;	/* NULL until read */
	atomic_int *pmu_state;		/* enum load_state */
	const char **pmu_failure;	/* why a PMU FAILED */
	int ntables;
	_Atomic(struct event_table *) *tables;	/* by id - 1, NULL until used */
	/* PMUs found by name: hash << 32 | index + 1 (catalog_lookup_pmu) */
	_Atomic uint64_t pmu_cache[PMU_CACHE_SLOTS];
	/* events found by "PMU::EVENT" (event_cache.h) */
	struct event_cache_set event_cache[EVENT_CACHE_SETS];
};

/* PMU INDEX, read if not yet; NULL with ERR set if it cannot be. */
struct pmu *catalog_pmu(struct pmudb *db, int index, struct pmudb_error *err);

/* Fast paths of the above for what was read already (a PMU is published
 * only once read whole, a state READ only after what it guards): NULL or
 * false when not, and then the call reads it. */
static inline struct pmu *catalog_pmu_read(struct pmudb *db, int index)
{
	return index >= 0 && index < db->npmus ? atomic_load_explicit(&db->pmus[index], memory_order_acquire) : NULL;
}

static inline bool catalog_table_read(const struct pmu *p)
{
	return atomic_load_explicit(&p->table->state, memory_order_acquire) == READ;
}

/* P's table read (catalog_table_read). */
static inline const struct event *catalog_event_read(const struct pmu *p, int e)
{
	const struct event_table *t = p->table;
	return e >= 0 && e < t->nevents ? atomic_load_explicit(&t->decoded[e], memory_order_acquire) : NULL;
}

/* The index of the PMU named NAME (case-insensitive), read; -1 when there
 * is none, PMUDB_ERR_CATALOG (ERR set) when the catalog is damaged. */
int catalog_find_pmu(struct pmudb *db, const char *name, struct pmudb_error *err);
/* The same, NAME's name_index_hash given. */
int catalog_lookup_pmu(struct pmudb *db, const char *name, uint32_t hash, struct pmudb_error *err);

/* Reads P's event table (its names) if not yet done.  0, or
 * PMUDB_ERR_CATALOG with ERR naming the catalog and the table's fault. */
int catalog_load_table(struct pmudb *db, const struct pmu *p, struct pmudb_error *err);

/* Event E of P's loaded table, decoded if not yet; NULL with ERR set when
 * E is out of range or its record is damaged. */
const struct event *catalog_event(struct pmudb *db, const struct pmu *p, int e, struct pmudb_error *err);

/* The first live event of P named NAME, else (when ATTRS is not NULL) the
 * event an alias of that name stands for, with *ATTRS set to the unit masks
 * it stands for (or NULL); -1 when there is none, PMUDB_ERR_CATALOG (ERR
 * set) when the aliases are damaged. */
int catalog_find_event(struct pmudb *db, const struct pmu *p, const char *name, const char **attrs,
		       struct pmudb_error *err);
int catalog_lookup_event(struct pmudb *db, const struct pmu *p, const char *name, size_t len, uint32_t hash,
			 const char **attrs, struct pmudb_error *err);

/* The first live unit mask of EV named NAME, or -1. */
int catalog_find_umask(const struct event *ev, const char *name);

/* Reads the descriptions of P's table if not yet done; 0 or
 * PMUDB_ERR_CATALOG with ERR set. */
int catalog_load_details(struct pmudb *db, const struct pmu *p, struct pmudb_error *err);

int catalog_open(struct pmudb *db, const char *path, struct pmudb_error *err);
/* The handle's SQLite connection, opened on first use for the built-in
 * catalog (whose encodings need none); NULL if it cannot be, and then
 * every statement on it fails.  Called with the lock held. */
sqlite3 *catalog_sql(struct pmudb *db);
/* SQLite's message for the last statement on catalog_sql's connection;
 * when it could not be opened, that (sqlite3_errmsg of no connection says
 * "out of memory"). */
const char *catalog_sql_error(struct pmudb *db);
/* Whether the catalog has table NAME (those of vendor lists are in
 * catalogs built with them only).  Called with the lock held. */
bool catalog_has_table(struct pmudb *db, const char *name);
void catalog_close(struct pmudb *db);

#endif
