/*
 * schema.c - the catalog's SQL schema (schema.h): schema.sql, compiled in
 * as text (schema_sql.S), with each "-- @fields TABLE" line replaced by
 * that table's CREATE TABLE from its field list; and the check that a
 * catalog's schema is that one.
 */
#include "catalog/schema.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/fields.h"

extern const char pmudb_schema_sql[];

#define MARK "-- @fields "

static const struct field_list *list_named(const char *name, size_t len)
{
	const struct field_list *lists[] = { &umask_field_list, &event_field_list, &modifier_field_list };
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (strlen(lists[i]->table) == len && !memcmp(lists[i]->table, name, len))
			return lists[i];
	return NULL;
}

#define VENDOR_LISTS "-- @vendor-lists"

char *catalog_schema(bool vendor_lists)
{
	sqlite3_str *s = sqlite3_str_new(NULL);
	const char *p = pmudb_schema_sql;
	const char *lists = strstr(p, VENDOR_LISTS);
	char *upto = !vendor_lists && lists ? strndup(p, (size_t)(lists - p)) : NULL;
	if (upto)
		p = upto;
	for (const char *mark; (mark = strstr(p, MARK)); ) {
		const char *name = mark + strlen(MARK), *end = strchrnul(name, '\n');
		const struct field_list *l = list_named(name, strcspn(name, ": \n"));
		sqlite3_str_append(s, p, (int)(mark - p));
		if (l)
			fields_create_table(s, l);
		else
			sqlite3_str_append(s, mark, (int)(end - mark));
		p = end;
	}
	sqlite3_str_appendall(s, p);
	free(upto);
	return sqlite3_str_finish(s);
}

/* Every object of a schema, in one order: what the two schemas compare. */
#define OBJECTS "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name"

static const char *text(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);
	return s ? (const char *)s : "";
}

/* Objects A and B (type, then name) in the order OBJECTS gives them. */
static int compare_objects(sqlite3_stmt *a, sqlite3_stmt *b)
{
	int c = strcmp(text(a, 0), text(b, 0));
	return c ? c : strcmp(text(a, 1), text(b, 1));
}

int catalog_schema_check(sqlite3 *db, char *why, size_t size)
{
	sqlite3 *want = NULL;
	sqlite3_stmt *a = NULL, *b = NULL;
	/* a catalog built with vendor lists has their tables, one without
	 * has none */
	sqlite3_stmt *has = NULL;
	bool lists = sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_schema WHERE name = 'vendor_list'", -1, &has, NULL)
			     == SQLITE_OK
		     && sqlite3_step(has) == SQLITE_ROW;
	sqlite3_finalize(has);
	char *sql = catalog_schema(lists);
	int r = -1;
	snprintf(why, size, "out of memory");
	if (!sql || sqlite3_open_v2(":memory:", &want, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK
	    || sqlite3_exec(want, sql, NULL, NULL, NULL) != SQLITE_OK
	    || sqlite3_prepare_v2(want, OBJECTS, -1, &a, NULL) != SQLITE_OK)
		goto out;
	if (sqlite3_prepare_v2(db, OBJECTS, -1, &b, NULL) != SQLITE_OK) {
		snprintf(why, size, "its schema cannot be read: %s", sqlite3_errmsg(db));
		goto out;
	}
	int ra = sqlite3_step(a), rb = sqlite3_step(b);
	for (;; ra = sqlite3_step(a), rb = sqlite3_step(b)) {
		if (rb != SQLITE_ROW && rb != SQLITE_DONE) {
			snprintf(why, size, "its schema cannot be read: %s", sqlite3_errmsg(db));
			break;
		}
		if (ra == SQLITE_DONE && rb == SQLITE_DONE) {
			r = 0;
			break;
		}
		int c = ra != SQLITE_ROW ? 1 : rb != SQLITE_ROW ? -1 : compare_objects(a, b);
		if (c > 0)
			snprintf(why, size, "it holds %s %s, which no pmudb catalog has", text(b, 0), text(b, 1));
		else if (c < 0)
			snprintf(why, size, "it lacks %s %s", text(a, 0), text(a, 1));
		else if (strcmp(text(a, 2), text(b, 2)) || strcmp(text(a, 3), text(b, 3)))
			snprintf(why, size, "its %s %s is not the one this pmudb writes", text(a, 0), text(a, 1));
		else
			continue;
		break;
	}
out:
	sqlite3_finalize(a);
	sqlite3_finalize(b);
	sqlite3_close(want);
	sqlite3_free(sql);
	return r;
}
