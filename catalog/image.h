/*
 * image.h - the built-in catalog's packed blobs, unpacked and laid end to
 * end: what a one-event process reads, in place, instead of opening the
 * catalog with SQLite, which parses the whole schema (thirty tables and
 * views) before its first query and costs more than the encoding.
 *
 * The build writes the image from the catalog's own blobs (pmudb-build
 * --image-of, compiler/emit_image.c) and links it beside the catalog
 * (builtin.S); the catalog stays the one artifact users and tools read,
 * and a handle on the built-in catalog opens it when asked for what the
 * image does not hold (descriptions, the CPUID map, findings, meta).
 *
 * Layout, u32 little-endian: the magic "pmudbI1" and its NUL; u32 the
 * catalog's schema version; u32 ntables; u32 directory offset, u32 its
 * size; then per event table id 1..ntables u32 offset and size of its
 * table blob, then of its aliases blob (size 0: none).  Each blob is the
 * packed form of packed.h, its magic first, as packed_open gives it.
 */
#ifndef PMUDB_IMAGE_H
#define PMUDB_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IMAGE_MAGIC "pmudbI1"	/* 8 bytes with the NUL */
#define IMAGE_HEADER 24		/* the magic, version, ntables, directory */
#define IMAGE_ENTRY 16		/* per table */

struct image {
	const unsigned char *data;
	size_t size;
	uint32_t ntables;
};

/* Checks the header of DATA (SIZE bytes): its magic, schema VERSION, and
 * that its index lies inside; 0 and IM set, or -1 with *WHY set. */
int image_open(struct image *im, const unsigned char *data, size_t size, uint32_t version, const char **why);

/* The directory blob; NULL unless it lies inside the image and starts with
 * the directory's magic. */
const unsigned char *image_directory(const struct image *im, size_t *size);

/* The table blob (ALIASES false) or aliases blob of table ID; NULL when
 * there is none, or it lies outside or does not start with its kind's
 * magic. */
const unsigned char *image_table(const struct image *im, int64_t id, bool aliases, size_t *size);

#endif
