/*
 * catalog_file.h - what a catalog file must be before SQLite reads it, and
 * SQLite's refusals that have a cause to name: shared by the runtime's
 * open (catalog.c) and the compiler's --image-of, which read the same
 * files.
 */
#ifndef PMUDB_CATALOG_FILE_H
#define PMUDB_CATALOG_FILE_H

#include <sqlite3.h>

#include "pmudb.h"

/* PATH is a regular, non-empty file; if SQLite's, as long as its header
 * says and not in WAL mode.  0, or PMUDB_ERR_CATALOG with ERR naming PATH. */
int catalog_file_check(const char *path, struct pmudb_error *err);

/* After SQLite on DB (PATH, opened read-only) failed its first read: 0 when
 * the cause is none of those named here, else PMUDB_ERR_CATALOG with ERR
 * saying it (a hot journal beside the file). */
int catalog_file_refusal(sqlite3 *db, const char *path, struct pmudb_error *err);

#endif
