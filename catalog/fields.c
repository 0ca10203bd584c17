/*
 * fields.c - the field lists of field_lists.h as data, and what is done with a
 * row of them the same way for every table: its SQL (the CREATE TABLE
 * with each column's meaning, the columns to select), its packed record
 * (written, read and checked), and its place in the runtime's structs.
 */
#include "catalog/fields.h"

#include <assert.h>
#include <limits.h>
#include <stdatomic.h>
#include <string.h>

#include "catalog/errors.h"
#include "catalog/model.h"

#define FIELD_OF(member, column, kind, use, origin, doc) { #member, #column, FK_##kind, FU_##use, FO_##origin, doc },

static const struct field umask_fields[] = { UMASK_FIELDS(FIELD_OF) };
static const struct field event_fields[] = { EVENT_FIELDS(FIELD_OF) };
static const struct field modifier_fields[] = { MODIFIER_FIELDS(FIELD_OF) };

const struct field_list umask_field_list = {
	"umask", umask_fields, UMASK_FIELD_COUNT,
	"event_id INTEGER NOT NULL REFERENCES event(id),\n\tposition INTEGER NOT NULL",
	"\tPRIMARY KEY (event_id, position)\n) WITHOUT ROWID",
	"event_id INTEGER NOT NULL,\n\tposition INTEGER NOT NULL",
	"\tPRIMARY KEY (event_id, position),\n\tFOREIGN KEY (event_id, position) REFERENCES umask(event_id, position)\n) WITHOUT ROWID",
};
const struct field_list event_field_list = {
	"event", event_fields, EVENT_FIELD_COUNT,
	"id INTEGER PRIMARY KEY,\n\ttable_id INTEGER NOT NULL REFERENCES event_table(id),\n\tposition INTEGER NOT NULL,\n"
	"\t-- its modifiers, NULL if none\n\tmodifier_set_id INTEGER REFERENCES modifier_set(id)",
	")",
	"event_id INTEGER PRIMARY KEY REFERENCES event(id)",
	")",
};
const struct field_list modifier_field_list = {
	"modifier", modifier_fields, MODIFIER_FIELD_COUNT,
	"set_id INTEGER NOT NULL REFERENCES modifier_set(id),\n\tposition INTEGER NOT NULL",
	"\tPRIMARY KEY (set_id, position)\n) WITHOUT ROWID",
	"set_id INTEGER NOT NULL,\n\tposition INTEGER NOT NULL",
	"\tPRIMARY KEY (set_id, position),\n\tFOREIGN KEY (set_id, position) REFERENCES modifier(set_id, position)\n) WITHOUT ROWID",
};

static bool is_packed(const struct field *f)
{
	return f->use == FU_HOT || f->use == FU_PACKED;
}

static bool is_string(enum field_kind k)
{
	return k == FK_NAME || k == FK_STR || k == FK_DESC;
}

/* ---- SQL -------------------------------------------------------------- */

static void column_type(sqlite3_str *s, const struct field *f)
{
	switch (f->kind) {
	case FK_NAME: sqlite3_str_appendall(s, "TEXT NOT NULL COLLATE NOCASE"); break;
	case FK_STR: sqlite3_str_appendall(s, "TEXT"); break;
	case FK_DESC: sqlite3_str_appendall(s, "INTEGER NOT NULL REFERENCES text(id)"); break;
	case FK_U64:
	case FK_I32: sqlite3_str_appendall(s, "INTEGER NOT NULL"); break;
	case FK_FLAG: sqlite3_str_appendf(s, "INTEGER NOT NULL CHECK (%s IN (0, 1))", f->column); break;
	case FK_ERR: sqlite3_str_appendall(s, "INTEGER NOT NULL REFERENCES pfm_error(code)"); break;
	case FK_POS:
	case FK_PTYPE: sqlite3_str_appendall(s, "INTEGER"); break;
	}
}

/* One CREATE TABLE: KEYS, the fields of L that are SPARSE or not, END. */
static void create_table(sqlite3_str *s, const struct field_list *l, bool sparse, const char *keys, const char *end)
{
	sqlite3_str_appendf(s, "CREATE TABLE %s%s (\n\t%s", l->table, sparse ? "_sparse" : "", keys);
	for (int i = 0; i < l->count; i++) {
		const struct field *f = &l->fields[i];
		if ((f->use == FU_SPARSE) != sparse)
			continue;
		sqlite3_str_appendf(s, ",\n\t-- %s\n\t%s ", f->doc, f->column);
		column_type(s, f);
	}
	sqlite3_str_appendf(s, "%s%s;\n", end[0] == '\t' ? ",\n" : "\n", end);
}

void fields_create_table(sqlite3_str *s, const struct field_list *l)
{
	create_table(s, l, false, l->keys, l->end);
	for (int i = 0; i < l->count; i++)
		if (l->fields[i].use == FU_SPARSE) {
			sqlite3_str_appendf(s, "\n-- the fields of %s most rows lack, a row where one is set\n", l->table);
			create_table(s, l, true, l->sparse_keys, l->sparse_end);
			break;
		}
}

int fields_column_names(sqlite3_str *s, const struct field_list *l, bool sparse)
{
	int n = 0;
	for (int i = 0; i < l->count; i++)
		if ((l->fields[i].use == FU_SPARSE) == sparse) {
			sqlite3_str_appendf(s, ", %s", l->fields[i].column);
			n++;
		}
	return n;
}

void fields_select_packed(sqlite3_str *s, const struct field_list *l, const char *alias)
{
	for (int i = 0; i < l->count; i++) {
		const struct field *f = &l->fields[i];
		if (!is_packed(f))
			continue;
		if (f->kind == FK_DESC)
			sqlite3_str_appendf(s, ", (SELECT value FROM text WHERE id = %s.%s)", alias, f->column);
		else
			sqlite3_str_appendf(s, ", %s.%s", alias, f->column);
	}
}

/* V checked as a field of kind K would be where it is read: NULL, or
 * what is wrong. */
static const char *check_value(enum field_kind k, union field_value v)
{
	switch (k) {
	case FK_NAME: return v.s && *v.s ? NULL : "a name that is NULL or empty";
	case FK_DESC: return v.s ? NULL : "a description that is NULL";
	case FK_STR:
	case FK_U64: return NULL;
	case FK_FLAG: return v.u <= 1 ? NULL : "a flag that is neither 0 nor 1";
	case FK_I32: return v.i >= INT_MIN && v.i <= INT_MAX ? NULL : "an integer out of range";
	case FK_ERR: return v.i <= 0 && v.i >= LIBPFM_LAST_ERROR ? NULL : "an error code that is not libpfm's";
	case FK_POS: return v.i >= -1 && v.i <= INT_MAX ? NULL : "a position out of range";
	case FK_PTYPE: return v.i >= INT32_MIN && v.i <= INT32_MAX ? NULL : "a perf type out of range";
	}
	return "a field of no known kind";
}

const char *fields_from_sql(sqlite3_stmt *st, int col, const struct field_list *l, union field_value *row, bool check)
{
	for (int i = 0; i < l->count; i++) {
		const struct field *f = &l->fields[i];
		if (!is_packed(f))
			continue;
		bool null = sqlite3_column_type(st, col) == SQLITE_NULL;
		if (check && null && f->kind != FK_STR && f->kind != FK_POS && f->kind != FK_PTYPE)
			return "a NULL in a column declared NOT NULL";
		if (is_string(f->kind))
			row[i].s = (const char *)sqlite3_column_text(st, col);
		else if (f->kind == FK_POS && null)
			row[i].i = -1;
		else if (f->kind == FK_PTYPE && null)
			row[i].i = FIELD_PTYPE_NONE;
		else
			row[i].i = sqlite3_column_int64(st, col);
		if (check && f->kind == FK_PTYPE && !null && row[i].i == FIELD_PTYPE_NONE)
			return "a perf type out of range";
		const char *fault = check ? check_value(f->kind, row[i]) : NULL;
		if (fault)
			return fault;
		col++;
	}
	return NULL;
}

/* ---- the packed record ------------------------------------------------ */

void fields_write(struct packed_writer *w, struct string_pool *pool, const struct field_list *l,
		  const union field_value *row)
{
	uint64_t flags = 0;
	int bit = 0;
	for (int i = 0; i < l->count; i++) {
		const struct field *f = &l->fields[i];
		if (!is_packed(f))
			continue;
		if (f->kind == FK_FLAG)
			flags |= (uint64_t)(row[i].u != 0) << bit++;
		else if (f->kind == FK_PTYPE)
			flags |= (uint64_t)(row[i].i != FIELD_PTYPE_NONE) << bit++;
	}
	write_varint(w, flags);
	for (int i = 0; i < l->count; i++) {
		const struct field *f = &l->fields[i];
		if (!is_packed(f) || f->kind == FK_FLAG)
			continue;
		if (is_string(f->kind))
			write_string(w, pool, row[i].s);
		else if (f->kind == FK_U64)
			write_varint(w, row[i].u);
		else if (f->kind != FK_PTYPE || row[i].i != FIELD_PTYPE_NONE)
			write_svarint(w, row[i].i);
	}
}

/*
 * The readers: for each list, straight-line code that reads a record's
 * packed fields in the writer's order into the runtime's struct, checking
 * each as it goes (a value that does not fit the member it goes to, too).
 * READ_<use>_<kind>(member) reads one field; SQL fields are not packed.
 */
#define FAULT(why) do { if (!fault) fault = (why); } while (0)
#define STORE_SIGNED(m, v, why) do { int64_t v_ = (v); rt->m = v_; if ((int64_t)rt->m != v_) { FAULT(why); } } while (0)

#define READ_HOT_NAME(m) { rt->m = read_string(r); if (!rt->m || !*rt->m) { FAULT("a name that is NULL or empty"); } }
#define READ_HOT_STR(m) rt->m = read_string(r);
#define READ_HOT_DESC(m) { rt->m = read_string(r); if (!rt->m) { FAULT("a description that is NULL"); } }
#define READ_HOT_U64(m) rt->m = read_varint(r);
#define READ_HOT_FLAG(m) rt->m = flags >> bit++ & 1;
#define READ_HOT_I32(m) STORE_SIGNED(m, read_svarint(r), "an integer out of range");
#define READ_HOT_ERR(m) { int64_t e_ = read_svarint(r); if (e_ > 0 || e_ < LIBPFM_LAST_ERROR) { \
	FAULT("an error code that is not libpfm's"); } STORE_SIGNED(m, e_, "an error code that is not libpfm's"); }
#define READ_HOT_POS(m) { int64_t p_ = read_svarint(r); if (p_ < -1) { FAULT("a position out of range"); } \
	STORE_SIGNED(m, p_, "a position out of range"); }
#define READ_HOT_PTYPE(m) { if (flags >> bit++ & 1) { int64_t t_ = read_svarint(r); \
	if (t_ == FIELD_PTYPE_NONE) { FAULT("a perf type out of range"); } STORE_SIGNED(m, t_, "a perf type out of range"); } \
	else { rt->m = FIELD_PTYPE_NONE; } }
#define READ_PACKED_NAME READ_HOT_NAME
#define READ_PACKED_STR READ_HOT_STR
#define READ_PACKED_DESC READ_HOT_DESC
#define READ_PACKED_U64 READ_HOT_U64
#define READ_PACKED_FLAG READ_HOT_FLAG
#define READ_PACKED_I32 READ_HOT_I32
#define READ_PACKED_ERR READ_HOT_ERR
#define READ_PACKED_POS READ_HOT_POS
#define READ_PACKED_PTYPE READ_HOT_PTYPE
#define READ_SPARSE_NAME(m)
#define READ_SPARSE_STR(m)
#define READ_SPARSE_DESC(m)
#define READ_SPARSE_U64(m)
#define READ_SPARSE_FLAG(m)
#define READ_SPARSE_I32(m)
#define READ_SPARSE_ERR(m)
#define READ_SPARSE_POS(m)
#define READ_SPARSE_PTYPE(m)
#define READ_SQL_NAME(m)
#define READ_SQL_STR(m)
#define READ_SQL_DESC(m)
#define READ_SQL_U64(m)
#define READ_SQL_FLAG(m)
#define READ_SQL_I32(m)
#define READ_SQL_ERR(m)
#define READ_SQL_POS(m)
#define READ_SQL_PTYPE(m)
#define READ_FIELD(member, column, kind, use, origin, doc) READ_##use##_##kind(member)

/* A flag bit past those the list has is no record of this format. */
#define FLAGS_END { if (flags >> bit) { FAULT("a flag the format does not have"); } if (!r->ok) { FAULT(""); } }

#define READER(name, type, list) \
	const char *name(struct packed_reader *r, type *rt) \
	{ \
		const char *fault = NULL; \
		uint64_t flags = read_varint(r); \
		int bit = 0; \
		list(READ_FIELD) \
		FLAGS_END \
		return fault; \
	}
READER(fields_read_umask, struct umask, UMASK_FIELDS)
READER(fields_read_event, struct event, EVENT_FIELDS)
READER(fields_read_modifier, struct modifier, MODIFIER_FIELDS)

/* The flag bit of a packed FLAG or PTYPE field, by list position. */
static int flag_bit(const struct field_list *l, int position)
{
	int bit = 0;
	for (int i = 0; i < position; i++)
		bit += is_packed(&l->fields[i]) && (l->fields[i].kind == FK_FLAG || l->fields[i].kind == FK_PTYPE);
	return bit;
}

const char *fields_read_event_head(struct packed_reader *r, const char **name, bool *retired)
{
	/* the same answer from every thread that asks first */
	static atomic_int retired_bit = -1;
	int bit = atomic_load_explicit(&retired_bit, memory_order_relaxed);
	if (bit < 0)
		atomic_store_explicit(&retired_bit, bit = flag_bit(&event_field_list, EVENT_F_retired), memory_order_relaxed);
	uint64_t flags = read_varint(r);
	*name = read_string(r);
	*retired = flags >> bit & 1;
	return r->ok && *name && **name ? NULL : "an event without a name";
}
