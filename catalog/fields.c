/*
 * fields.c - the field lists of fields.h as data, and what is done with a
 * row of them the same way for every table: its SQL (the CREATE TABLE
 * with each column's meaning, the columns to select), its packed record
 * (written, read and checked), and its place in the runtime's structs.
 */
#include "catalog/fields.h"

#include <assert.h>
#include <limits.h>
#include <string.h>

#include "catalog/errors.h"
#include "catalog/model.h"

/* Where the runtime keeps a field: its offset and size in STRUCT, or none
 * for one that stays in the rows. */
#define RUNTIME_AT_SQL(type, member) SIZE_MAX, 0
#define RUNTIME_AT_HOT(type, member) offsetof(type, member), sizeof(((type *)0)->member)
#define RUNTIME_AT_PACKED(type, member) RUNTIME_AT_HOT(type, member)

#define FIELD_OF(type, member, column, kind, use, origin, doc) \
	{ #member, #column, FK_##kind, FU_##use, FO_##origin, doc, RUNTIME_AT_##use(type, member) },
#define UMASK_FIELD(...) FIELD_OF(struct umask, __VA_ARGS__)
#define EVENT_FIELD(...) FIELD_OF(struct event, __VA_ARGS__)
#define MODIFIER_FIELD(...) FIELD_OF(struct modifier, __VA_ARGS__)

static const struct field umask_fields[] = { UMASK_FIELDS(UMASK_FIELD) };
static const struct field event_fields[] = { EVENT_FIELDS(EVENT_FIELD) };
static const struct field modifier_fields[] = { MODIFIER_FIELDS(MODIFIER_FIELD) };

const struct field_list umask_field_list = {
	"umask", umask_fields, UMASK_FIELD_COUNT,
	"event_id INTEGER NOT NULL REFERENCES event(id),\n\tposition INTEGER NOT NULL",
	"\tPRIMARY KEY (event_id, position)\n) WITHOUT ROWID",
};
const struct field_list event_field_list = {
	"event", event_fields, EVENT_FIELD_COUNT,
	"id INTEGER PRIMARY KEY,\n\ttable_id INTEGER NOT NULL REFERENCES event_table(id),\n\tposition INTEGER NOT NULL,\n"
	"\t-- its modifiers, NULL if none\n\tmodifier_set_id INTEGER REFERENCES modifier_set(id)",
	")",
};
const struct field_list modifier_field_list = {
	"modifier", modifier_fields, MODIFIER_FIELD_COUNT,
	"set_id INTEGER NOT NULL REFERENCES modifier_set(id),\n\tposition INTEGER NOT NULL",
	"\tPRIMARY KEY (set_id, position)\n) WITHOUT ROWID",
};

static bool is_packed(const struct field *f)
{
	return f->use != FU_SQL;
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

void fields_create_table(sqlite3_str *s, const struct field_list *l)
{
	sqlite3_str_appendf(s, "CREATE TABLE %s (\n\t%s,\n", l->table, l->keys);
	for (int i = 0; i < l->count; i++) {
		const struct field *f = &l->fields[i];
		sqlite3_str_appendf(s, "\t-- %s\n\t%s ", f->doc, f->column);
		column_type(s, f);
		sqlite3_str_appendall(s, i + 1 < l->count || l->end[0] == '\t' ? ",\n" : "\n");
	}
	sqlite3_str_appendf(s, "%s;\n", l->end);
}

void fields_column_names(sqlite3_str *s, const struct field_list *l)
{
	for (int i = 0; i < l->count; i++)
		sqlite3_str_appendf(s, ", %s", l->fields[i].column);
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
		if (is_string(f->kind))
			write_string(w, pool, row[i].s);
		else if (f->kind == FK_FLAG)
			flags |= (uint64_t)(row[i].u != 0) << bit++;
		else if (f->kind == FK_PTYPE)
			flags |= (uint64_t)(row[i].i != FIELD_PTYPE_NONE) << bit++;
	}
	write_varint(w, flags);
	for (int i = 0; i < l->count; i++) {
		const struct field *f = &l->fields[i];
		if (!is_packed(f) || is_string(f->kind) || f->kind == FK_FLAG)
			continue;
		if (f->kind == FK_U64)
			write_varint(w, row[i].u);
		else if (f->kind != FK_PTYPE || row[i].i != FIELD_PTYPE_NONE)
			write_svarint(w, row[i].i);
	}
}

const char *fields_read(struct packed_reader *r, const struct field_list *l, union field_value *row, bool head_only)
{
	for (int i = 0; i < l->count; i++)
		if (is_packed(&l->fields[i]) && is_string(l->fields[i].kind))
			row[i].s = read_string(r);
	uint64_t flags = read_varint(r);
	int bit = 0;
	for (int i = 0; i < l->count; i++) {
		const struct field *f = &l->fields[i];
		if (!is_packed(f))
			continue;
		if (f->kind == FK_FLAG)
			row[i].u = flags >> bit++ & 1;
		else if (f->kind == FK_PTYPE)
			row[i].i = flags >> bit++ & 1 ? 0 : FIELD_PTYPE_NONE;
	}
	if (flags >> bit)
		return "a flag the format does not have";
	for (int i = 0; !head_only && i < l->count; i++) {
		const struct field *f = &l->fields[i];
		if (!is_packed(f) || is_string(f->kind) || f->kind == FK_FLAG)
			continue;
		if (f->kind == FK_U64) {
			row[i].u = read_varint(r);
		} else if (f->kind != FK_PTYPE) {
			row[i].i = read_svarint(r);
		} else if (row[i].i != FIELD_PTYPE_NONE) {	/* present */
			row[i].i = read_svarint(r);
			if (row[i].i == FIELD_PTYPE_NONE && r->ok)
				return "a perf type out of range";
		}
	}
	if (!r->ok)
		return "a field runs past the end of its record";
	for (int i = 0; i < l->count; i++) {
		const struct field *f = &l->fields[i];
		bool read = is_packed(f) && (!head_only || is_string(f->kind) || f->kind == FK_FLAG);
		const char *fault = read ? check_value(f->kind, row[i]) : NULL;
		if (fault)
			return fault;
	}
	return NULL;
}

/* V stored in SIZE bytes at P, as the kind K keeps it; false when it does
 * not fit. */
static bool store(void *p, size_t size, enum field_kind k, union field_value v)
{
	if (is_string(k)) {
		assert(size == sizeof(const char *));
		memcpy(p, &v.s, sizeof(v.s));
		return true;
	}
	if (k == FK_FLAG) {
		assert(size == sizeof(bool));
		*(bool *)p = v.u != 0;
		return true;
	}
	if (k == FK_U64) {
		assert(size == sizeof(uint64_t));
		memcpy(p, &v.u, sizeof(v.u));
		return true;
	}
	switch (size) {
	case 1: {
		int8_t n = (int8_t)v.i;
		memcpy(p, &n, 1);
		return n == v.i;
	}
	case 2: {
		int16_t n = (int16_t)v.i;
		memcpy(p, &n, 2);
		return n == v.i;
	}
	case 4: {
		int32_t n = (int32_t)v.i;
		memcpy(p, &n, 4);
		return n == v.i;
	}
	default:
		assert(size == 8);
		memcpy(p, &v.i, 8);
		return true;
	}
}

const char *fields_place(const struct field_list *l, const union field_value *row, void *runtime)
{
	for (int i = 0; i < l->count; i++) {
		const struct field *f = &l->fields[i];
		if (is_packed(f) && !store((char *)runtime + f->runtime_offset, f->runtime_size, f->kind, row[i]))
			return "a value too large for where the encoder keeps it";
	}
	return NULL;
}
