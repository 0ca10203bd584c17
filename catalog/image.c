/*
 * image.c - reads the built-in image (image.h): the header at open, a
 * blob's place and magic when it is asked for (so that opening costs the
 * same however many tables the catalog holds); the blobs' contents are
 * checked by unpack.c as for blobs read through SQLite.
 */
#include "catalog/image.h"

#include <string.h>

#include "catalog/packed.h"

/* The blob at the offset and size stored at AT, if inside the image and
 * starting with MAGIC. */
static const unsigned char *blob_at(const struct image *im, size_t at, const char *magic, size_t *size)
{
	uint64_t offset = read_u32_le(im->data + at), n = read_u32_le(im->data + at + 4);
	if (n < PACKED_HEADER || offset + n > im->size || memcmp(im->data + offset, magic, PACKED_HEADER))
		return NULL;
	*size = (size_t)n;
	return im->data + offset;
}

int image_open(struct image *im, const unsigned char *data, size_t size, uint32_t version, const char **why)
{
	*why = "not a pmudb image";
	if (size < IMAGE_HEADER || memcmp(data, IMAGE_MAGIC, PACKED_HEADER))
		return -1;
	uint32_t v = read_u32_le(data + 8), ntables = read_u32_le(data + 12);
	*why = "an image of another schema version";
	if (v != version)
		return -1;
	*why = "the image's index runs past its end";
	if (ntables > PACKED_MAX_PMUS || IMAGE_HEADER + (uint64_t)ntables * IMAGE_ENTRY > size)
		return -1;
	im->data = data;
	im->size = size;
	im->ntables = ntables;
	*why = NULL;
	return 0;
}

const unsigned char *image_directory(const struct image *im, size_t *size)
{
	return blob_at(im, 16, PACKED_DIRECTORY_MAGIC, size);
}

const unsigned char *image_table(const struct image *im, int64_t id, bool aliases, size_t *size)
{
	if (id < 1 || id > im->ntables)
		return NULL;
	size_t at = IMAGE_HEADER + (size_t)(id - 1) * IMAGE_ENTRY + (aliases ? 8 : 0);
	return blob_at(im, at, aliases ? PACKED_ALIASES_MAGIC : PACKED_TABLE_MAGIC, size);
}
