/*
 * fuzz_image.c - the built-in catalog's image (catalog/image.h), whose
 * reader (image.c) nothing else fuzzes: the bytes are an image, read as
 * the runtime reads the one linked into it.  Its header and index are
 * checked by image_open, each blob it finds is checked by kind, and then
 * unpacked (blobs.c): the directory, every table and every aliases blob.
 * The image lies in a buffer of its exact size and the PACKED_READ_PAD
 * zeros after it that builtin.S gives the linked-in one, so that a read
 * past those is an AddressSanitizer report.  The schema version is taken
 * from the header, so that mutations are not spent on it.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/image.h"
#include "catalog/packed.h"
#include "tests/fuzz/blobs.h"
#include "tests/fuzz/fuzz.h"

/* Tables looked at per input: the seed's image has a few. */
#define MAX_TABLES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *bytes = calloc(1, size + PACKED_READ_PAD);
	if (!bytes)
		fuzz_fail("out of memory");
	memcpy(bytes, data, size);
	uint32_t version = size >= 12 ? read_u32_le(bytes + 8) : 0;
	struct image im;
	const char *why = NULL;
	if (image_open(&im, bytes, size, version, &why)) {
		if (!why)
			fuzz_fail("an image refused without a reason");
		free(bytes);
		return 0;
	}
	size_t n = 0;
	const unsigned char *dir = image_directory(&im, &n);
	if (dir) {
		if (dir < bytes || dir + n > bytes + size)
			fuzz_fail("the directory lies outside the image");
		fuzz_blob_directory(dir, n);
	}
	for (uint32_t id = 1; id <= im.ntables && id <= MAX_TABLES; id++) {
		const unsigned char *t = image_table(&im, id, false, &n);
		if (t && (t < bytes || t + n > bytes + size))
			fuzz_fail("table %u lies outside the image", id);
		if (t)
			fuzz_blob_table(t, n);
		const unsigned char *a = image_table(&im, id, true, &n);
		if (a && (a < bytes || a + n > bytes + size))
			fuzz_fail("the aliases of table %u lie outside the image", id);
		if (a)
			fuzz_blob_aliases(64, a, n);
	}
	free(bytes);
	return 0;
}
