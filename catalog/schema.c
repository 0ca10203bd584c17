/*
 * schema.c - the catalog's SQL schema (schema.h): schema.sql, compiled in
 * as text (schema_sql.S), with each "-- @fields TABLE" line replaced by
 * that table's CREATE TABLE from its field list.
 */
#include "catalog/schema.h"

#include <sqlite3.h>
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

char *catalog_schema(void)
{
	sqlite3_str *s = sqlite3_str_new(NULL);
	const char *p = pmudb_schema_sql;
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
	return sqlite3_str_finish(s);
}
