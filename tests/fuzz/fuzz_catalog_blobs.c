/*
 * fuzz_catalog_blobs.c - catalogs whose packed blobs are mutated inside
 * their zstd frame: the bytes are an unpacked blob, which this target packs
 * (zstd, with its checksum) into the seed catalog in place of one of its
 * own, and the catalog is then opened and used every way (browse.c:
 * encode, info, search, scopes, decode).  Mutating the file
 * (fuzz_catalog_bytes) almost never gets a blob past zstd's checksum;
 * fuzz_packed reaches the reader of the blobs but not the runtime above
 * it.  Here a blob that unpacks to anything at all reaches both, as a
 * catalog handed over from elsewhere would.
 *
 * The input: a mode byte (% 3: 0 an event table, 1 its aliases, 2 the PMU
 * directory), the table's place among the seed's tables in id order (a
 * byte, modulo their count), then the unpacked blob.  Its seeds are the seed catalog's own blobs
 * (seed_catalog.c writes them).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "tests/fuzz/browse.h"
#include "tests/fuzz/fuzz.h"

static unsigned char *seed;
static long seed_size;
static int ntables;

static void load_seed(void)
{
	FILE *f = fopen(fuzz_seed_catalog(), "rb");
	if (!f)
		fuzz_fail("no seed catalog at %s (make it with `make fuzz`, or set PMUDB_FUZZ_SEED)", fuzz_seed_catalog());
	fseek(f, 0, SEEK_END);
	seed_size = ftell(f);
	rewind(f);
	seed = malloc((size_t)seed_size);
	if (!seed || fread(seed, 1, (size_t)seed_size, f) != (size_t)seed_size)
		fuzz_fail("cannot read %s", fuzz_seed_catalog());
	fclose(f);
	sqlite3 *db;
	sqlite3_stmt *st;
	sqlite3_open(fuzz_seed_catalog(), &db);
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM event_table", -1, &st, NULL) || sqlite3_step(st) != SQLITE_ROW)
		fuzz_fail("seed catalog: %s", sqlite3_errmsg(db));
	ntables = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	if (ntables < 1)
		fuzz_fail("seed catalog without event tables");
}

/* BLOB as the zstd frame a build writes (content size, checksum). */
static void *frame_of(const uint8_t *blob, size_t size, size_t *n)
{
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(size);
	void *out = malloc(cap);
	if (!cc || !out || ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1))
	    || ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 1)))
		fuzz_fail("out of memory (zstd)");
	*n = ZSTD_compress2(cc, out, cap, blob, size);
	if (ZSTD_isError(*n))
		fuzz_fail("zstd: %s", ZSTD_getErrorName(*n));
	ZSTD_freeCCtx(cc);
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	if (!seed)
		load_seed();
	int mode = data[0] % 3, place = data[1] % ntables;
	size_t n = 0;
	void *frame = frame_of(data + 2, size - 2, &n);

	sqlite3 *db;
	unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)seed_size);
	if (sqlite3_open(":memory:", &db) != SQLITE_OK || !copy)
		fuzz_fail("out of memory");
	memcpy(copy, seed, (size_t)seed_size);
	if (sqlite3_deserialize(db, "main", copy, seed_size, seed_size,
				SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE))
		fuzz_fail("cannot load the seed: %s", sqlite3_errmsg(db));
	static const char *const sql[] = {
		"UPDATE event_table SET packed = ?1 WHERE id = (SELECT id FROM event_table ORDER BY id LIMIT 1 OFFSET ?2)",
		("UPDATE event_table SET packed_aliases = ?1 WHERE id = (SELECT id FROM event_table ORDER BY id LIMIT 1"
		 " OFFSET ?2)"),
		"UPDATE pmu_directory SET packed = ?1",
	};
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql[mode], -1, &st, NULL) != SQLITE_OK)
		fuzz_fail("%s: %s", sql[mode], sqlite3_errmsg(db));
	sqlite3_bind_blob(st, 1, frame, (int)n, SQLITE_STATIC);
	if (mode < 2)
		sqlite3_bind_int(st, 2, place);
	if (sqlite3_step(st) != SQLITE_DONE)
		fuzz_fail("%s: %s", sql[mode], sqlite3_errmsg(db));
	sqlite3_finalize(st);
	free(frame);
	sqlite3_int64 bytes_size = 0;
	unsigned char *bytes = sqlite3_serialize(db, "main", &bytes_size, 0);
	sqlite3_close(db);
	if (!bytes)
		fuzz_fail("cannot serialize the catalog");
	const char *path = fuzz_file(bytes, (size_t)bytes_size);
	sqlite3_free(bytes);

	struct pmudb_error err;
	pmudb_t *pdb = pmudb_open(path, &err);
	if (!pdb) {
		if (err.code != PMUDB_ERR_CATALOG || strpbrk(err.message, "\r\n"))
			fuzz_fail("open refused with %d, not one line of PMUDB_ERR_CATALOG: %s", err.code, err.message);
		fuzz_note("refused at open: %s", err.message);
		return 0;
	}
	struct browse_result r;
	browse(pdb, &r);
	fuzz_note("%d encodes refused as damage, %d other answers", r.encode_catalog, r.other_catalog);
	pmudb_close(pdb);
	return 0;
}
