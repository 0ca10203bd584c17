/*
 * fuzz_catalog_bytes.c - a catalog file is input too (issue 9): tools pass
 * catalogs around, and `--db FILE` opens any file.  The bytes are the whole
 * file; it is opened with pmudb_open() and, when that succeeds, used every
 * way the API allows (browse.c).  A damaged file must be refused with one
 * line, never crash or overrun; what SQLite's and zstd's own checks let
 * through reaches the runtime's readers.
 *
 * Seeds: the seed catalog (seed_catalog.c, 120 kB) and tests/fuzz/seeds/.
 */
#include <string.h>

#include "tests/fuzz/browse.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmudb_error err;
	memset(&err, 0, sizeof(err));
	pmudb_t *db = pmudb_open(fuzz_file(data, size), &err);
	if (!db) {
		fuzz_note("refused: %s", err.message);
		if (err.code != PMUDB_ERR_CATALOG && err.code != PMUDB_ERR_NOMEM)
			fuzz_fail("open refused with %d (%s), not PMUDB_ERR_CATALOG", err.code, err.message);
		if (strpbrk(err.message, "\r\n") || !err.message[0])
			fuzz_fail("open refused without one line: '%s'", err.message);
		return 0;
	}
	struct browse_result r;
	browse(db, &r);
	fuzz_note("opened: %d PMUs; PMUDB_ERR_CATALOG from %d encodes, %d other calls", pmudb_pmu_count(db),
		  r.encode_catalog, r.other_catalog);
	pmudb_close(db);
	return 0;
}
