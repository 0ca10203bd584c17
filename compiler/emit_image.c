/*
 * emit_image.c - the built-in image (catalog/image.h): the blobs a finished catalog
 * holds, each unpacked as the runtime would unpack it, laid end to end
 * behind an index.  It is made from the catalog file, not from the model,
 * so that it says exactly what the catalog linked beside it says.
 */
#include "compiler/emit_image.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/out_target.h"
#include "catalog/catalog_file.h"
#include "catalog/image.h"
#include "catalog/packed.h"
#include "catalog/unpack.h"
#include "compiler/xalloc.h"

/* Blobs start on this boundary: a reader's first touch of one is one line. */
#define IMAGE_ALIGN 64

struct image_writer {
	struct packed_writer w;
	sqlite3 *db;
	const char *catalog;
	char *error;
};

/* Appends the unpacked FRAME (N bytes) of kind MAGIC, its offset and size
 * written at AT; none (0, 0) when FRAME is NULL. */
static int add_blob(struct image_writer *iw, size_t at, const void *frame, size_t n, const char *magic,
		    const char *what)
{
	if (!frame)
		return 0;
	size_t size = 0;
	unsigned char *data = packed_open(NULL, frame, n, magic, &size);
	if (!data) {
		iw->error = xprintf("%s: %s is not a packed blob the runtime reads", iw->catalog, what);
		return -1;
	}
	static const unsigned char zero[IMAGE_ALIGN];
	write_bytes(&iw->w, zero, (IMAGE_ALIGN - iw->w.len % IMAGE_ALIGN) % IMAGE_ALIGN);
	write_u32_at(&iw->w, at, (uint32_t)iw->w.len);
	write_u32_at(&iw->w, at + 4, (uint32_t)size);
	write_bytes(&iw->w, data, size);
	free(data);
	return 0;
}

static int add_tables(struct image_writer *iw, uint32_t ntables)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(iw->db, "SELECT id, packed, packed_aliases FROM event_table ORDER BY id", -1, &st, NULL)) {
		iw->error = xprintf("%s: cannot read the event tables: %s", iw->catalog, sqlite3_errmsg(iw->db));
		return -1;
	}
	int r = 0;
	while (!r && sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		if (id < 1 || id > ntables)
			continue;	/* no PMU can name it */
		size_t at = IMAGE_HEADER + (size_t)(id - 1) * IMAGE_ENTRY;
		char what[64];
		snprintf(what, sizeof(what), "event table %lld", (long long)id);
		r = add_blob(iw, at, sqlite3_column_blob(st, 1), (size_t)sqlite3_column_bytes(st, 1), PACKED_TABLE_MAGIC, what)
		    || add_blob(iw, at + 8, sqlite3_column_blob(st, 2), (size_t)sqlite3_column_bytes(st, 2),
				PACKED_ALIASES_MAGIC, what);
	}
	sqlite3_finalize(st);
	return r;
}

/* The header, the directory and every table, into IW->w. */
static int build(struct image_writer *iw)
{
	sqlite3_stmt *st = NULL;
	int version = -1;
	if (sqlite3_prepare_v2(iw->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	const void *frame = NULL;
	size_t n = 0;
	if (sqlite3_prepare_v2(iw->db, "SELECT packed FROM pmu_directory", -1, &st, NULL) == SQLITE_OK
	    && sqlite3_step(st) == SQLITE_ROW) {
		frame = sqlite3_column_blob(st, 0);
		n = (size_t)sqlite3_column_bytes(st, 0);
	}
	size_t dir_size = 0;
	unsigned char *dir = frame ? packed_open(NULL, frame, n, PACKED_DIRECTORY_MAGIC, &dir_size) : NULL;
	sqlite3_finalize(st);
	uint32_t npmus, nslots, ntables;
	if (version < 0 || !dir || unpack_directory(dir, dir_size, &npmus, &nslots, &ntables)) {
		free(dir);
		iw->error = xprintf("%s: not a catalog with a PMU directory the runtime reads", iw->catalog);
		return -1;
	}
	static const unsigned char zero[IMAGE_HEADER];
	write_bytes(&iw->w, IMAGE_MAGIC, PACKED_HEADER);
	write_bytes(&iw->w, zero, IMAGE_HEADER - PACKED_HEADER);
	for (uint32_t i = 0; i < ntables; i++)
		write_bytes(&iw->w, zero, IMAGE_ENTRY);
	write_u32_at(&iw->w, 8, (uint32_t)version);
	write_u32_at(&iw->w, 12, ntables);
	/* the directory, as one more blob */
	write_u32_at(&iw->w, 16, (uint32_t)iw->w.len);
	write_u32_at(&iw->w, 20, (uint32_t)dir_size);
	write_bytes(&iw->w, dir, dir_size);
	free(dir);
	return add_tables(iw, ntables);
}

/* What the runtime would say of the image: its header, its directory, and
 * each blob the index names (an entry of size 0 names none). */
static const char *check(const struct packed_writer *w)
{
	struct image im;
	const char *why = NULL;
	if (image_open(&im, w->data, w->len, read_u32_le(w->data + 8), &why))
		return why;
	size_t n;
	if (!image_directory(&im, &n))
		return "its directory is missing";
	for (uint32_t id = 1; id <= im.ntables; id++)
		for (int aliases = 0; aliases < 2; aliases++) {
			size_t at = IMAGE_HEADER + (size_t)(id - 1) * IMAGE_ENTRY + (aliases ? 8 : 0);
			if (read_u32_le(w->data + at + 4) && !image_table(&im, id, aliases, &n))
				return "a table's blob lies outside it or lacks its magic";
		}
	return NULL;
}

int image_write(const char *catalog, const char *out, const char *temp, char **error)
{
	struct image_writer iw = { .catalog = catalog };
	struct pmudb_error refused;
	*error = NULL;
	/* the runtime's refusals first: a WAL catalog would get -wal and
	 * -shm files beside it, a hot journal SQLite's "readonly database" */
	if (catalog_file_check(catalog, &refused)) {
		*error = xstrdup(refused.message);
		return -1;
	}
	if (sqlite3_open_v2(catalog, &iw.db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK
	    || sqlite3_exec(iw.db, "PRAGMA user_version", NULL, NULL, NULL) != SQLITE_OK) {
		*error = catalog_file_refusal(iw.db, catalog, &refused)
			       ? xstrdup(refused.message)
			       : xprintf("%s: cannot open: %s", catalog, sqlite3_errmsg(iw.db));
		sqlite3_close(iw.db);
		return -1;
	}
	int r = build(&iw);
	sqlite3_close(iw.db);
	const char *why = NULL;
	if (!r && (iw.w.failed || iw.w.len > UINT32_MAX || (why = check(&iw.w)))) {
		iw.error = xprintf("%s: the image of it would be refused: %s", catalog, why ? why : "too large");
		r = -1;
	}
	FILE *f = r ? NULL : fopen(temp, "wb");
	bool written = f && fwrite(iw.w.data, 1, iw.w.len, f) == iw.w.len;
	if (f && fclose(f))
		written = false;
	if (written)
		out_keep_mode(temp, out);
	if (!r && (!written || rename(temp, out))) {
		iw.error = xprintf("%s: cannot write: %s", out, strerror(errno));
		unlink(temp);
		r = -1;
	}
	free(iw.w.data);
	*error = iw.error;
	return r;
}
