/*
 * fuzz_packed.c - the packed form of a catalog (catalog/packed.h), below SQLite
 * and zstd: a catalog's blobs are checksummed zstd frames, so mutating the
 * file (fuzz_catalog_bytes) rarely reaches the reader of what is inside.
 * Here the bytes are the unpacked blob itself, read by catalog/unpack.c as the
 * runtime reads it.  The first byte picks what the rest is:
 *   0  an event table: unpack_table, then unpack_event on every event
 *   1  an aliases blob (the second byte: how many events its table has):
 *      unpack_aliases
 *   2  the PMU directory: unpack_directory, every slot and every entry,
 *      with the PMU row it carries (unpack_directory_pmu)
 *   3  a zstd frame: packed_open as a table, then as mode 0
 * Each blob is in a buffer of its exact size, so that a read past its end
 * is an AddressSanitizer report.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/packed.h"
#include "tests/fuzz/blobs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int mode = data[0] % 4;
	data++;
	size--;
	if (mode == 1) {
		if (size < 1)
			return 0;
		unsigned nevents = data[0];
		data++;
		size--;
		unsigned char *blob = malloc(size ? size : 1);
		memcpy(blob, data, size);
		fuzz_blob_aliases(nevents, blob, size);
		free(blob);
		return 0;
	}
	unsigned char *blob = NULL;
	if (mode == 3) {
		size_t n = 0;
		blob = packed_open(NULL, data, size, PACKED_TABLE_MAGIC, &n);
		size = n;
	} else {
		blob = malloc(size ? size : 1);
		memcpy(blob, data, size);
	}
	if (blob && mode == 2)
		fuzz_blob_directory(blob, size);
	else if (blob)
		fuzz_blob_table(blob, size);
	free(blob);
	return 0;
}
