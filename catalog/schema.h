/*
 * schema.h - the catalog's SQL schema: schema.sql, with the CREATE TABLE
 * of event, umask and modifier written from their field lists
 * (catalog/field_lists.h) where schema.sql has an "@fields" line.
 */
#ifndef PMUDB_CATALOG_SCHEMA_H
#define PMUDB_CATALOG_SCHEMA_H

/* The whole schema as SQL, to be freed with sqlite3_free(); NULL when
 * out of memory. */
char *catalog_schema(void);

#endif
