/*
 * catalog_file.c - see catalog_file.h.
 */
#include "catalog/catalog_file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog/errors.h"

/* A file shorter than its header says was cut short: refused at once,
 * whichever pages are missing (SQLite reads pages only when asked). */
static int check_length(const unsigned char *header, size_t size)
{
	if (size < 100)
		return -1;
	unsigned page = (unsigned)header[16] << 8 | header[17];
	uint64_t page_size = page == 1 ? 65536 : page;
	uint64_t pages = (uint64_t)header[28] << 24 | (uint64_t)header[29] << 16 | (uint64_t)header[30] << 8 | header[31];
	return pages * page_size > size ? -1 : 0;
}

int catalog_file_check(const char *path, struct pmudb_error *err)
{
	struct stat sb;
	if (stat(path, &sb))
		return set_error(err, PMUDB_ERR_CATALOG, "%s: %s", path,
				 errno == ENOENT ? "no such catalog file" : strerror(errno));
	/* SQLite's own words for these ("disk I/O error", an empty FIFO) name
	 * no cause */
	if (S_ISDIR(sb.st_mode))
		return set_error(err, PMUDB_ERR_CATALOG, "%s: is a directory, not a catalog file", path);
	if (!S_ISREG(sb.st_mode))
		return set_error(err, PMUDB_ERR_CATALOG, "%s: not a regular file (a catalog is one)", path);
	if (sb.st_size == 0)
		return set_error(err, PMUDB_ERR_CATALOG, "%s: catalog file is empty", path);
	unsigned char header[100];
	FILE *f = fopen(path, "rb");
	if (!f)
		return set_error(err, PMUDB_ERR_CATALOG, "%s: cannot read: %s", path, strerror(errno));
	size_t n = fread(header, 1, sizeof(header), f);
	fclose(f);
	bool sqlite = n == sizeof(header) && !memcmp(header, "SQLite format 3", 16);
	if (sqlite && check_length(header, (size_t)sb.st_size))
		return set_error(err, PMUDB_ERR_CATALOG, "%s: catalog is damaged: the file is shorter than it says", path);
	/* read-only, SQLite would still make -wal and -shm files beside it
	 * (or fail where it cannot), and a -wal file is part of the file */
	if (sqlite && header[18] == 2 && header[19] == 2)
		return set_error(err, PMUDB_ERR_CATALOG, "%s: the catalog was put in WAL mode, which the build never writes;"
				 " sqlite3 '%s' 'PRAGMA journal_mode=DELETE' puts it back", path, path);
	return 0;
}

int catalog_file_refusal(sqlite3 *db, const char *path, struct pmudb_error *err)
{
	if (sqlite3_extended_errcode(db) != SQLITE_READONLY_ROLLBACK)
		return 0;
	return set_error(err, PMUDB_ERR_CATALOG, "%s: a write to it was interrupted and its journal (%s-journal) is"
			 " beside it: SQLite rolls that back only with write access (open the catalog once with"
			 " sqlite3, or build it again)", path, path);
}
