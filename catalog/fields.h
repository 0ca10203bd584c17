/*
 * fields.h - the field lists of field_lists.h as data (struct field_list),
 * and what is done with a row of them alike for every table: its SQL, its
 * packed record, its reading into the runtime's structs (fields.c).
 */
#ifndef PMUDB_CATALOG_FIELDS_H
#define PMUDB_CATALOG_FIELDS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/field_lists.h"
#include "catalog/packed.h"

/* Each list's positions, by member: UMASK_F_name ... */
#define FIELD_ENUM(prefix, member) prefix##member,
#define UMASK_FIELD_ENUM(member, column, kind, use, origin, doc) FIELD_ENUM(UMASK_F_, member)
#define EVENT_FIELD_ENUM(member, column, kind, use, origin, doc) FIELD_ENUM(EVENT_F_, member)
#define MODIFIER_FIELD_ENUM(member, column, kind, use, origin, doc) FIELD_ENUM(MODIFIER_F_, member)
enum { UMASK_FIELDS(UMASK_FIELD_ENUM) UMASK_FIELD_COUNT };
enum { EVENT_FIELDS(EVENT_FIELD_ENUM) EVENT_FIELD_COUNT };
enum { MODIFIER_FIELDS(MODIFIER_FIELD_ENUM) MODIFIER_FIELD_COUNT };

struct field {
	const char *member, *column;
	enum field_kind kind;
	enum field_use use;
	enum field_origin origin;
	const char *doc;
};

/* One table's fields, and what its rows have besides them. */
struct field_list {
	const char *table;
	const struct field *fields;
	int count;
	const char *keys;	/* the columns before the fields, as SQL */
	const char *end;	/* after them: the key, and the table's options */
	/* the companion table of its SPARSE fields: its keys (the table's),
	 * and what ends it */
	const char *sparse_keys, *sparse_end;
};
extern const struct field_list umask_field_list, event_field_list, modifier_field_list;

/* One row's values, by field position: strings in s, flags 0 or 1 in u,
 * signed kinds in i (-1 for a POS of none, FIELD_PTYPE_NONE for a PTYPE
 * of the PMU's). */
union field_value {
	uint64_t u;
	int64_t i;
	const char *s;
};

/* The CREATE TABLE of L's table: its keys, each field with its meaning as
 * a comment, its end. */
void fields_create_table(sqlite3_str *s, const struct field_list *l);
/* ", column" for each field of L in its table (SPARSE: in its companion),
 * in order (an INSERT's columns); the count. */
int fields_column_names(sqlite3_str *s, const struct field_list *l, bool sparse);
/* ", ALIAS.column" for each packed field of L, in order, a description as
 * its text (a SELECT's columns, for fields_from_sql). */
void fields_select_packed(sqlite3_str *s, const struct field_list *l, const char *alias);
/* The packed fields of ROW from the columns of ST from COL on, as
 * fields_select_packed selects them; with CHECK, each checked as the
 * reader checks it: NULL, or what is wrong.  Strings point into ST. */
const char *fields_from_sql(sqlite3_stmt *st, int col, const struct field_list *l, union field_value *row, bool check);

/* ROW's packed record (the layout above). */
void fields_write(struct packed_writer *w, struct string_pool *pool, const struct field_list *l,
		  const union field_value *row);
/* A record's packed fields read into the runtime's struct (catalog/model.h),
 * each checked by its kind and for the member it goes to: NULL, or what
 * is wrong ("" when the record ends early). */
struct umask;
struct event;
struct modifier;
const char *fields_read_umask(struct packed_reader *r, struct umask *rt);
const char *fields_read_event(struct packed_reader *r, struct event *rt);
const char *fields_read_modifier(struct packed_reader *r, struct modifier *rt);
/* What indexing a table's names reads of an event's record: its name and
 * whether it is retired. */
const char *fields_read_event_head(struct packed_reader *r, const char **name, bool *retired);

#endif
