/*
 * schema.h - the catalog's SQL schema: schema.sql, with the CREATE TABLE
 * of event, umask and modifier written from their field lists
 * (catalog/field_lists.h) where schema.sql has an "@fields" line.
 */
#ifndef PMUDB_CATALOG_SCHEMA_H
#define PMUDB_CATALOG_SCHEMA_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

/* The whole schema as SQL, to be freed with sqlite3_free(); NULL when
 * out of memory.  Without VENDOR_LISTS, without the tables of the vendor
 * lists read (vendor_list, list_change): a catalog built from libpfm
 * alone has none. */
char *catalog_schema(bool vendor_lists);

/* Whether DB's schema is exactly the one catalog_schema() writes (with
 * the vendor lists' tables where DB has one of them): the same
 * tables, indexes and views with the same SQL, and nothing else (no view
 * where a table belongs, no trigger, no virtual table).  0, or -1 with
 * the first difference written to WHY (SIZE bytes). */
int catalog_schema_check(sqlite3 *db, char *why, size_t size);

#endif
