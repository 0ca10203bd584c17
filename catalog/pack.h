/*
 * pack.h - the packed form of a catalog, written from its rows (pack.c).
 */
#ifndef PMUDB_COMPILER_PACK_H
#define PMUDB_COMPILER_PACK_H

#include <sqlite3.h>
#include <stdbool.h>

/* Writes every event table's packed blob and the PMU directory into DB
 * from its rows.  With CHECK, refuses (returns -1, *error malloc'd and
 * naming the table) what the runtime would refuse. */
int pack_catalog(sqlite3 *db, bool check, char **error);

#endif
