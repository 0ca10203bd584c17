/*
 * pack.c - writes the packed form (packed.h) of a catalog from its rows:
 * one blob per event table, one PMU directory.  The blobs are read back from
 * the rows just written, so they say exactly what the rows say.
 *
 * With checking on (every build), each row is checked as the runtime would
 * check it and each blob is read back by the runtime's own reader
 * (unpack.c), the directory with the PMU rows it carries too: a
 * catalog the runtime would refuse is never written.
 * Checking off writes whatever the rows say; the tests use that to make the
 * hostile catalogs the runtime must refuse.
 *
 * The records of an event table (packed.h gives the layout around them),
 * varints, "str" as packed.h says; "fields" is a row's fields of
 * catalog/field_lists.h, as fields_write() writes them:
 *   a modifier set: count; per modifier: fields, nlandings, (field,
 *     mask)..., npresence, (field, bits)..., nnonzero, (field, bits)...
 *   an event: fields, set (0: none, else index + 1), hidden (bit per
 *     modifier), svarint error per hidden bit, no_modifiers (bit per
 *     modifier: refused non-zero with a unit mask that takes none), svarint
 *     error per such bit, numasks,
 *     per unit mask: fields, unlocks (bit per modifier), nadded,
 *       positions..., nimplied, (modifier, value, hardwired)...
 *     nbare, positions..., nrules, (svarint group_a, group_b, error,
 *       after_reading, third_lifts, svarint lifted_by (-1 none))...,
 *     npairs, (umask_a, umask_b, nadded, positions...)...
 * The aliases: naliases, (str name, str attrs, event position)...
 * The directory: see packed.h.
 */
#include "catalog/pack.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/fields.h"
#include "catalog/name_index.h"
#include "catalog/packed.h"
#include "catalog/unpack.h"

#define MAX_POSITIONS MAX_UMASKS

struct packer {
	sqlite3 *db;
	bool check;
	char *error;
	struct packed_writer w;
	struct string_pool pool;	/* of the table being packed */
	int64_t table;		/* being packed */
};

static int fail(struct packer *pk, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct packer *pk, const char *fmt, ...)
{
	if (pk->error)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	char msg[512];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pk->error = malloc(strlen(msg) + 64);
	if (pk->error)
		sprintf(pk->error, "catalog: event table %lld: %s", (long long)pk->table, msg);
	return -1;
}

/* A statement of SQL with its ?1 bound to ID; NULL (and the packer failed)
 * on a SQLite error. */
static sqlite3_stmt *query(struct packer *pk, const char *sql, int64_t id)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(pk->db, sql, -1, &st, NULL) != SQLITE_OK) {
		fail(pk, "%s: %s", sql, sqlite3_errmsg(pk->db));
		sqlite3_finalize(st);
		return NULL;
	}
	sqlite3_bind_int64(st, 1, id);
	return st;
}

static const char *text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

static int64_t integer(sqlite3_stmt *st, int col)
{
	return sqlite3_column_int64(st, col);
}

static bool is_null(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL;
}

/* ---- modifier sets ---------------------------------------------------------- */

static int write_field_masks(struct packer *pk, const char *sql, int64_t set, int64_t position)
{
	sqlite3_stmt *st = query(pk, sql, set);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 2, position);
	struct packed_writer rows = { 0 };
	int n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int f = field_by_name(text(st, 0));
		if (f < 0 && pk->check) {
			/* the name is the statement's: said before it is finalized */
			fail(pk, "modifier set %lld: unknown field '%s'", (long long)set, text(st, 0) ? text(st, 0) : "NULL");
			sqlite3_finalize(st);
			free(rows.data);
			return -1;
		}
		write_varint(&rows, (uint64_t)(f < 0 ? 999 : f));
		write_varint(&rows, (uint64_t)integer(st, 1));
		n++;
	}
	sqlite3_finalize(st);
	write_varint(&pk->w, (uint64_t)n);
	write_bytes(&pk->w, rows.data, rows.len);
	free(rows.data);
	return rows.failed ? fail(pk, "out of memory") : 0;
}

/* A statement selecting the position, then the packed fields of L (from
 * table alias A), then EXTRA, of the rows of KEY = ?1, in order. */
static sqlite3_stmt *query_fields(struct packer *pk, const struct field_list *l, const char *a, const char *extra,
				  const char *key, int64_t id)
{
	sqlite3_str *q = sqlite3_str_new(pk->db);
	sqlite3_str_appendf(q, "SELECT %s.position", a);
	fields_select_packed(q, l, a);
	sqlite3_str_appendf(q, "%s FROM %s %s WHERE %s = ?1 ORDER BY %s.position", extra, l->table, a, key, a);
	char *sql = sqlite3_str_finish(q);
	sqlite3_stmt *st = sql ? query(pk, sql, id) : NULL;
	if (!sql)
		fail(pk, "out of memory");
	sqlite3_free(sql);
	return st;
}

/* The packed fields of L from ST's columns from COL on, written. */
static int write_fields(struct packer *pk, struct packed_writer *w, const struct field_list *l, sqlite3_stmt *st,
			int col, const char *what, int64_t id, int n)
{
	union field_value row[64];
	assert(l->count <= 64);
	const char *fault = fields_from_sql(st, col, l, row, pk->check);
	if (fault)
		return fail(pk, "%s %lld: %s %d: %s", what, (long long)id, l->table, n, fault);
	fields_write(w, &pk->pool, l, row);
	return 0;
}

static int write_modifier_set(struct packer *pk, int64_t set)
{
	sqlite3_stmt *st = query_fields(pk, &modifier_field_list, "m", "", "set_id", set);
	if (!st)
		return -1;
	struct packed_writer mods = { 0 };
	int n = 0, r = 0;
	while (!r && sqlite3_step(st) == SQLITE_ROW) {
		if (pk->check && integer(st, 0) != n) {
			r = fail(pk, "modifier set %lld: modifier %d has a gap in positions", (long long)set, n);
			break;
		}
		r = write_fields(pk, &mods, &modifier_field_list, st, 1, "modifier set", set, n);
		struct packed_writer saved = pk->w;
		pk->w = mods;
		r = r || write_field_masks(pk, "SELECT field, mask FROM modifier_landing WHERE set_id = ?1 AND position = ?2",
				      set, n)
		    || write_field_masks(pk, "SELECT field, bits FROM modifier_presence WHERE set_id = ?1 AND position = ?2",
					 set, n)
		    || write_field_masks(pk, "SELECT field, bits FROM modifier_nonzero WHERE set_id = ?1 AND position = ?2",
					 set, n);
		mods = pk->w;
		pk->w = saved;
		n++;
	}
	sqlite3_finalize(st);
	write_varint(&pk->w, (uint64_t)n);
	write_bytes(&pk->w, mods.data, mods.len);
	free(mods.data);
	return r;
}

/* The ids of the modifier sets the events of the table use, in id order. */
static int table_sets(struct packer *pk, int64_t **sets, int *nsets)
{
	sqlite3_stmt *st = query(pk, "SELECT DISTINCT modifier_set_id FROM event WHERE table_id = ?1"
				 " AND modifier_set_id IS NOT NULL ORDER BY 1", pk->table);
	if (!st)
		return -1;
	*nsets = 0;
	*sets = NULL;
	int r = 0;
	while (!r && sqlite3_step(st) == SQLITE_ROW) {
		int64_t *s = realloc(*sets, (size_t)(*nsets + 1) * sizeof(*s));
		if (!s)
			r = fail(pk, "out of memory");
		else
			(*sets = s)[(*nsets)++] = integer(st, 0);
	}
	sqlite3_finalize(st);
	return r;
}

/* ---- events and unit masks ----------------------------------------------------- */

/* What the rows say of each unit mask of one event, gathered before the
 * unit masks are written. */
struct umask_rows {
	int count;		/* unit masks of the event */
	struct packed_writer added[MAX_POSITIONS], implied[MAX_POSITIONS];
	int nadded[MAX_POSITIONS], nimplied[MAX_POSITIONS];
	uint64_t unlocks[MAX_POSITIONS];
};

/* A unit-mask position of a row: in range, or (checking off) clamped to
 * where it does no harm to the packer; -1 to leave the row out. */
static int row_umask(struct packer *pk, const struct umask_rows *u, int64_t pos, const char *what)
{
	if (pos >= 0 && pos < u->count)
		return (int)pos;
	if (pk->check)
		fail(pk, "%s row for unit mask %lld, which the event lacks", what, (long long)pos);
	return -1;
}

static int gather_umask_rows(struct packer *pk, int64_t event, struct umask_rows *u)
{
	sqlite3_stmt *st = query(pk, "SELECT umask_position, added_position FROM umask_default WHERE event_id = ?1"
				 " ORDER BY 1, 2", event);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		int p = row_umask(pk, u, integer(st, 0), "umask_default");
		if (p >= 0) {
			write_varint(&u->added[p], (uint64_t)integer(st, 1));
			u->nadded[p]++;
		}
	}
	sqlite3_finalize(st);
	st = query(pk, "SELECT umask_position, modifier_position, value, hardwired FROM umask_implied"
		   " WHERE event_id = ?1 ORDER BY 1, 2", event);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		int p = row_umask(pk, u, integer(st, 0), "umask_implied");
		if (p >= 0) {
			write_varint(&u->implied[p], (uint64_t)integer(st, 1));
			write_varint(&u->implied[p], (uint64_t)integer(st, 2));
			write_varint(&u->implied[p], (uint64_t)integer(st, 3));
			u->nimplied[p]++;
		}
	}
	sqlite3_finalize(st);
	st = query(pk, "SELECT umask_position, modifier_position FROM umask_unlock WHERE event_id = ?1", event);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		int p = row_umask(pk, u, integer(st, 0), "umask_unlock");
		int64_t m = integer(st, 1);
		if (p >= 0)
			u->unlocks[p] |= m >= 0 && m < 64 ? 1ULL << m : ~0ULL;
	}
	sqlite3_finalize(st);
	return pk->error ? -1 : 0;
}

static int write_umasks(struct packer *pk, int64_t event, int numasks)
{
	struct umask_rows *u = calloc(1, sizeof(*u));
	if (!u)
		return fail(pk, "out of memory");
	u->count = numasks;
	sqlite3_stmt *st = NULL;
	int r = gather_umask_rows(pk, event, u);
	if (!r)
		st = query_fields(pk, &umask_field_list, "u", "", "event_id", event);
	int n = 0;
	while (!r && st && sqlite3_step(st) == SQLITE_ROW) {
		if (integer(st, 0) != n || n >= numasks) {
			r = fail(pk, "event %lld: unit-mask positions are not 0, 1, 2 ...", (long long)event);
			break;
		}
		if ((r = write_fields(pk, &pk->w, &umask_field_list, st, 1, "event", event, n)))
			break;
		write_varint(&pk->w, u->unlocks[n]);
		write_varint(&pk->w, (uint64_t)u->nadded[n]);
		write_bytes(&pk->w, u->added[n].data, u->added[n].len);
		write_varint(&pk->w, (uint64_t)u->nimplied[n]);
		write_bytes(&pk->w, u->implied[n].data, u->implied[n].len);
		n++;
	}
	sqlite3_finalize(st);
	if (!r && n != numasks)
		r = fail(pk, "event %lld: %d unit masks counted, %d read", (long long)event, numasks, n);
	for (int i = 0; i < MAX_POSITIONS; i++) {
		free(u->added[i].data);
		free(u->implied[i].data);
	}
	free(u);
	return r;
}

/* Rows of one column of integers (or, with SIGNED, zigzagged), counted. */
static int write_list(struct packer *pk, const char *sql, int64_t event, int columns, const bool *is_signed)
{
	sqlite3_stmt *st = query(pk, sql, event);
	if (!st)
		return -1;
	struct packed_writer rows = { 0 };
	int n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (int c = 0; c < columns; c++)
			if (is_signed && is_signed[c])
				write_svarint(&rows, integer(st, c));
			else
				write_varint(&rows, (uint64_t)integer(st, c));
		n++;
	}
	sqlite3_finalize(st);
	write_varint(&pk->w, (uint64_t)n);
	write_bytes(&pk->w, rows.data, rows.len);
	free(rows.data);
	return 0;
}

/* Pairs and what each adds: rows (a, b, added or -1), grouped by pair. */
static int write_pairs(struct packer *pk, int64_t event)
{
	sqlite3_stmt *st = query(pk, "SELECT umask_a, umask_b, added_position FROM pair_default WHERE event_id = ?1"
				 " ORDER BY 1, 2, 3", event);
	if (!st)
		return -1;
	struct packed_writer pairs = { 0 }, added = { 0 };
	int npairs = 0, nadded = 0;
	int64_t a = -1, b = -1;
	bool open = false;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (!open || integer(st, 0) != a || integer(st, 1) != b) {
			if (open) {
				write_varint(&pairs, (uint64_t)nadded);
				write_bytes(&pairs, added.data, added.len);
			}
			a = integer(st, 0);
			b = integer(st, 1);
			write_varint(&pairs, (uint64_t)a);
			write_varint(&pairs, (uint64_t)b);
			added.len = 0;
			nadded = 0;
			npairs++;
			open = true;
		}
		if (integer(st, 2) != -1) {	/* -1: the pair adds nothing */
			write_varint(&added, (uint64_t)integer(st, 2));
			nadded++;
		}
	}
	if (open) {
		write_varint(&pairs, (uint64_t)nadded);
		write_bytes(&pairs, added.data, added.len);
	}
	sqlite3_finalize(st);
	write_varint(&pk->w, (uint64_t)npairs);
	write_bytes(&pk->w, pairs.data, pairs.len);
	free(pairs.data);
	free(added.data);
	return 0;
}

/* Modifiers by bit, then the error of each (SQL selects position, error). */
static int write_modifier_bits(struct packer *pk, const char *sql, int64_t event)
{
	sqlite3_stmt *st = query(pk, sql, event);
	if (!st)
		return -1;
	uint64_t bits = 0;
	int64_t errors[64] = { 0 };
	int r = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t m = integer(st, 0);
		if (m < 0 || m >= 64) {
			r = fail(pk, "event %lld: modifier %lld out of range", (long long)event, (long long)m);
			break;
		}
		bits |= 1ULL << m;
		errors[m] = integer(st, 1);
	}
	sqlite3_finalize(st);
	write_varint(&pk->w, bits);
	for (int m = 0; m < 64; m++)
		if (bits >> m & 1)
			write_svarint(&pk->w, errors[m]);
	return r;
}

static int set_index(const int64_t *sets, int nsets, int64_t id)
{
	for (int i = 0; i < nsets; i++)
		if (sets[i] == id)
			return i + 1;
	return 0;
}

/* The columns of write_events' statement before the fields. */
enum { EV_ID, EV_POSITION, EV_SET, EV_NUMASKS, EV_FIELDS };

static int write_event(struct packer *pk, sqlite3_stmt *ev, const int64_t *sets, int nsets, int n)
{
	int64_t id = integer(ev, EV_ID);
	if (write_fields(pk, &pk->w, &event_field_list, ev, EV_FIELDS, "event table", pk->table, n))
		return -1;
	write_varint(&pk->w, is_null(ev, EV_SET) ? 0 : (uint64_t)set_index(sets, nsets, integer(ev, EV_SET)));
	if (write_modifier_bits(pk, "SELECT modifier_position, given_error FROM event_hidden_modifier"
				" WHERE event_id = ?1 ORDER BY 1", id)
	    || write_modifier_bits(pk, "SELECT modifier_position, error FROM event_no_modifier"
				   " WHERE event_id = ?1 ORDER BY 1", id))
		return -1;
	int numasks = (int)integer(ev, EV_NUMASKS);
	if (numasks > MAX_POSITIONS)
		return fail(pk, "event %s has %d unit masks; pmudb reads at most %d", text(ev, EV_FIELDS), numasks,
			    MAX_POSITIONS);
	write_varint(&pk->w, (uint64_t)numasks);
	static const bool rule_signs[] = { true, true, true, false, false, true };
	return write_umasks(pk, id, numasks)
	       || write_list(pk, "SELECT umask_position FROM event_default WHERE event_id = ?1 ORDER BY 1", id, 1, NULL)
	       || write_list(pk,
			     "SELECT group_a, group_b, error, after_reading, third_lifts, coalesce(lifted_by, -1)"
			     " FROM group_rule WHERE event_id = ?1 ORDER BY 1, 2",
			     id, 6, rule_signs)
	       || write_pairs(pk, id);
}

/* The events' count, then their records; each record's offset goes into
 * the array at OFFSETS. */
static int write_events(struct packer *pk, const int64_t *sets, int nsets, size_t offsets)
{
	sqlite3_str *q = sqlite3_str_new(pk->db);
	sqlite3_str_appendall(q, "SELECT e.id, e.position, e.modifier_set_id,"
			      " (SELECT count(*) FROM umask u WHERE u.event_id = e.id)");
	fields_select_packed(q, &event_field_list, "e");
	sqlite3_str_appendall(q, " FROM event e WHERE table_id = ?1 ORDER BY position");
	char *sql = sqlite3_str_finish(q);
	sqlite3_stmt *st = sql ? query(pk, sql, pk->table) : NULL;
	sqlite3_free(sql);
	int r = st ? 0 : -1, n = 0;
	while (!r && sqlite3_step(st) == SQLITE_ROW) {
		write_u32_at(&pk->w, offsets + 4 * (size_t)n, (uint32_t)pk->w.len);
		if (pk->check && integer(st, EV_POSITION) != n)
			r = fail(pk, "event %d: positions are not 0, 1, 2 ...", n);
		else
			r = write_event(pk, st, sets, nsets, n);
		n++;
	}
	sqlite3_finalize(st);
	return r;
}

static int write_aliases(struct packer *pk)
{
	sqlite3_stmt *st = query(pk, "SELECT a.name, a.attrs, e.position FROM event_alias a JOIN event e ON e.id = a.event_id"
				 " WHERE a.table_id = ?1 ORDER BY a.name", pk->table);
	if (!st)
		return -1;
	struct packed_writer rows = { 0 };
	int n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		write_string(&rows, NULL, text(st, 0));
		write_string(&rows, NULL, text(st, 1));
		write_varint(&rows, (uint64_t)integer(st, 2));
		n++;
	}
	sqlite3_finalize(st);
	pk->w.len = 0;
	write_bytes(&pk->w, PACKED_ALIASES_MAGIC, PACKED_HEADER);
	write_varint(&pk->w, (uint64_t)n);
	write_bytes(&pk->w, rows.data, rows.len);
	free(rows.data);
	return 0;
}

/* The runtime reads it back: what it refuses is not written.  Every event
 * is decoded, and the aliases when ALIASES. */
static int read_back(struct packer *pk, const struct packed_writer *aliases)
{
	struct event_table t = { .id = pk->table, .blob = pk->w.data, .size = pk->w.len };
	const char *why = NULL;
	int r = unpack_table(&t, &why), e = -1;
	for (e = 0; !r && e < t.nevents; e++) {
		struct event *ev;
		r = unpack_event(&t, e, &ev, &why);
	}
	if (!r && aliases)
		r = unpack_aliases(&t, aliases->data, aliases->len, &why);
	char where[128] = "";
	if (r && e > 0 && e <= t.nevents)
		snprintf(where, sizeof(where), "event %s: ", t.events[e - 1].name);
	arena_free(&t.arena);
	return r ? fail(pk, "the runtime would refuse its packed form: %s%s", where, why ? why : "unreadable") : 0;
}

/* Stores W, packed, with SQL's ?1 bound to ID and ?2 to the blob. */
static int store(struct packer *pk, const struct packed_writer *w, const char *sql, int64_t id)
{
	size_t size = 0;
	unsigned char *frame = packed_close(w, &size);
	if (frame && !packed_size_ok(w->len, size)) {
		free(frame);
		return fail(pk, "a blob of %zu bytes packs to %zu: more than the runtime unpacks (packed.h)", w->len, size);
	}
	sqlite3_stmt *st = frame ? query(pk, sql, id) : NULL;
	int r = -1;
	if (st) {
		sqlite3_bind_blob(st, 2, frame, (int)size, SQLITE_STATIC);
		r = sqlite3_step(st) == SQLITE_DONE ? 0 : fail(pk, "cannot store: %s", sqlite3_errmsg(pk->db));
	} else if (!frame) {
		r = fail(pk, "out of memory (zstd)");
	}
	sqlite3_finalize(st);
	free(frame);
	return r;
}

/* The table's record: counts, offsets, sets, events. */
static int write_table(struct packer *pk)
{
	int64_t *sets = NULL;
	int nsets = 0;
	if (table_sets(pk, &sets, &nsets))
		return -1;
	sqlite3_stmt *st = query(pk, "SELECT count(*) FROM event WHERE table_id = ?1", pk->table);
	uint32_t nevents = st && sqlite3_step(st) == SQLITE_ROW ? (uint32_t)integer(st, 0) : 0;
	sqlite3_finalize(st);
	static const unsigned char zero[4];
	pk->w.len = 0;
	pool_free(&pk->pool);
	write_bytes(&pk->w, PACKED_TABLE_MAGIC, PACKED_HEADER);
	for (int i = 0; i < 3; i++)
		write_bytes(&pk->w, zero, 4);
	write_u32_at(&pk->w, PACKED_HEADER, nevents);
	write_u32_at(&pk->w, PACKED_HEADER + 4, (uint32_t)nsets);
	size_t event_offsets = pk->w.len, set_offsets = event_offsets + 4 * (size_t)nevents;
	for (size_t i = 0; i < nevents + (size_t)nsets; i++)
		write_bytes(&pk->w, zero, 4);
	int r = 0;
	for (int i = 0; !r && i < nsets; i++) {
		write_u32_at(&pk->w, set_offsets + 4 * (size_t)i, (uint32_t)pk->w.len);
		r = write_modifier_set(pk, sets[i]);
	}
	if (!r)
		r = write_events(pk, sets, nsets, event_offsets);
	free(sets);
	/* the pool last, and never empty: it ends with a NUL */
	write_u32_at(&pk->w, PACKED_HEADER + 8, (uint32_t)pk->w.len);
	if (pk->pool.bytes.len)
		write_bytes(&pk->w, pk->pool.bytes.data, pk->pool.bytes.len);
	else
		write_bytes(&pk->w, "", 1);
	if (pk->pool.bytes.failed)
		pk->w.failed = true;
	if (!r && pk->w.failed)
		r = fail(pk, "out of memory");
	return r;
}

static int pack_table(struct packer *pk, int64_t table)
{
	pk->table = table;
	struct packed_writer events;
	if (write_table(pk))
		return -1;
	events = pk->w;
	pk->w = (struct packed_writer){ 0 };
	int r = write_aliases(pk);
	struct packed_writer aliases = pk->w;
	pk->w = events;
	if (!r && pk->check)
		r = read_back(pk, &aliases);
	if (!r)
		r = store(pk, &events, "UPDATE event_table SET packed = ?2 WHERE id = ?1", table)
		    || store(pk, &aliases, "UPDATE event_table SET packed_aliases = ?2 WHERE id = ?1", table);
	free(aliases.data);
	return r;
}

/* ---- the PMU directory ------------------------------------------------------------ */

/* Every PMU row, in id order, with the fields its directory entry holds
 * (packed.h), in that order from column 2 on. */
static const char pmu_rows_sql[] =
	"SELECT p.id, p.name, description, kind, family, family_group, source, like_pmu, s.name, num_counters,"
	" num_fixed_counters, supported_plm, perf_type, event_table_id, config_cleared FROM pmu p"
	" LEFT JOIN pmu_sysfs s ON s.pmu_id = p.id AND s.position = 0 ORDER BY p.id";

/* The row ST is on, after its name: its strings, then its numbers. */
static void write_pmu_row(struct packed_writer *w, sqlite3_stmt *st)
{
	for (int c = 2; c <= 8; c++)
		write_string(w, NULL, text(st, c));
	for (int c = 9; c <= 11; c++)
		write_varint(w, (uint64_t)integer(st, c));
	write_svarint(w, integer(st, 12));
	write_varint(w, (uint64_t)integer(st, 13));
	write_varint(w, (uint64_t)integer(st, 14));
}

/* Checks the directory as the runtime will: every entry's row read by
 * its reader, each naming an event table that was packed. */
static int check_directory(struct packer *pk)
{
	uint32_t n, slots, tables;
	if (unpack_directory(pk->w.data, pk->w.len, &n, &slots, &tables))
		return fail(pk, "the PMU directory: the runtime would refuse it");
	for (uint32_t k = 0; k < n; k++) {
		struct pmu p;
		int64_t table;
		const char *why = NULL;
		if (unpack_directory_pmu(pk->w.data, pk->w.len, slots, n, tables, (int)k, &p, &table, &why))
			return fail(pk, "the PMU directory: the runtime would refuse PMU %u (%s): %s", k,
				    why && p.name ? p.name : "?", why ? why : "unreadable");
		sqlite3_stmt *st = query(pk, "SELECT 1 FROM event_table WHERE id = ?1", table);
		if (!st)
			return -1;
		bool found = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
		if (!found)
			return fail(pk, "the PMU directory: the runtime would refuse PMU %s: its event table has no row",
				    p.name);
	}
	return 0;
}

static int write_directory(struct packer *pk)
{
	pk->table = 0;
	sqlite3_stmt *st = query(pk, "SELECT (SELECT count(*) FROM pmu), (SELECT coalesce(max(id), 0) FROM event_table)", 0);
	bool ok = st && sqlite3_step(st) == SQLITE_ROW;
	uint32_t npmus = ok ? (uint32_t)integer(st, 0) : 0, ntables = ok ? (uint32_t)integer(st, 1) : 0;
	sqlite3_finalize(st);
	uint32_t nslots = 16;
	while (nslots < 2 * npmus)
		nslots *= 2;
	static const unsigned char zero[4];
	pk->w.len = 0;
	write_bytes(&pk->w, PACKED_DIRECTORY_MAGIC, PACKED_HEADER);
	size_t header = pk->w.len, slots = header + 12, entries = slots + 4 * (size_t)nslots;
	for (size_t i = 0; i < 3 + nslots + 2 * (size_t)npmus; i++)
		write_bytes(&pk->w, zero, 4);
	write_u32_at(&pk->w, header, npmus);
	write_u32_at(&pk->w, header + 4, nslots);
	write_u32_at(&pk->w, header + 8, ntables);
	uint32_t *filled = calloc(nslots, sizeof(*filled));
	st = query(pk, pmu_rows_sql, 0);
	uint32_t i = 0;
	while (st && filled && sqlite3_step(st) == SQLITE_ROW && i < npmus) {
		const char *name = text(st, 1) ? text(st, 1) : "";
		uint32_t h = name_hash(name) & (nslots - 1);
		while (filled[h])
			h = (h + 1) & (nslots - 1);
		filled[h] = i + 1;
		write_u32_at(&pk->w, slots + 4 * (size_t)h, i + 1);
		write_u32_at(&pk->w, entries + 8 * (size_t)i, (uint32_t)pk->w.len);
		write_u32_at(&pk->w, entries + 8 * (size_t)i + 4, (uint32_t)integer(st, 0));
		write_bytes(&pk->w, name, strlen(name) + 1);
		write_pmu_row(&pk->w, st);
		i++;
	}
	sqlite3_finalize(st);
	free(filled);
	/* the blob ends with a NUL (packed.h) */
	write_bytes(&pk->w, zero, 1);
	if (!filled || pk->w.failed || i != npmus)
		return fail(pk, "the PMU directory: out of memory or rows changed");
	if (pk->check && check_directory(pk))
		return -1;
	return store(pk, &pk->w, "INSERT INTO pmu_directory (packed) VALUES (?2)", 0);
}

int pack_catalog(sqlite3 *db, bool check, char **error)
{
	struct packer pk = { .db = db, .check = check };
	sqlite3_stmt *st = NULL;
	int r = sqlite3_exec(db, "DELETE FROM pmu_directory", NULL, NULL, NULL) == SQLITE_OK
		&& sqlite3_prepare_v2(db, "SELECT id FROM event_table ORDER BY id", -1, &st, NULL) == SQLITE_OK ? 0 : -1;
	if (r)
		fail(&pk, "cannot pack: %s", sqlite3_errmsg(db));
	int64_t *ids = NULL;
	size_t n = 0;
	while (!r && sqlite3_step(st) == SQLITE_ROW) {
		int64_t *more = realloc(ids, (n + 1) * sizeof(*ids));
		if (!more) {
			r = fail(&pk, "out of memory");
			break;
		}
		ids = more;
		ids[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	for (size_t i = 0; !r && i < n; i++)
		r = pack_table(&pk, ids[i]);
	if (!r)
		r = write_directory(&pk);
	free(ids);
	free(pk.w.data);
	pool_free(&pk.pool);
	*error = pk.error;
	return r;
}
