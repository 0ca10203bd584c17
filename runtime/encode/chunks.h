/*
 * chunks.h - copies of strings in fixed-size chunks.  A copy of each
 * string's own size (memcpy's) branches on the size, and mispredicts it
 * as names of other lengths follow each other: a warm AMD encoding with
 * unit masks met one such miss per name it copied.
 */
#ifndef PMUDB_CHUNKS_H
#define PMUDB_CHUNKS_H

#include <stddef.h>
#include <string.h>

#define CHUNK_SIZE 16
/* What chunks_copy_short copies whole. */
#define CHUNKS_SHORT 64

/* N bytes of SRC into DST, no byte past them read or written: in chunks,
 * the last ending at N, eight of them whatever N up to 128 (a chunk
 * copied twice is the same); past 128, eight more. */
static inline void chunks_copy(char *dst, const char *src, size_t n)
{
	if (n < CHUNK_SIZE) {
		memcpy(dst, src, n);
		return;
	}
	size_t last = n - CHUNK_SIZE;
	for (size_t base = 0; base < n; base += 8 * CHUNK_SIZE)
		for (size_t at = base; at < base + 8 * CHUNK_SIZE; at += CHUNK_SIZE) {
			size_t from = at < last ? at : last;
			char chunk[CHUNK_SIZE];
			memcpy(chunk, src + from, CHUNK_SIZE);
			memcpy(dst + from, chunk, CHUNK_SIZE);
		}
}

/* N bytes of SRC into DST, N up to 64, no byte past them read or
 * written: four chunks, the later ones clamped to end at N.  chunks_copy
 * with rounds of four would do, but its loop over rounds, which N up to
 * 64 never repeats, is a branch that mixed names mispredict. */
static inline void chunks_copy_64(char *dst, const char *src, size_t n)
{
	if (n < CHUNK_SIZE) {
		memcpy(dst, src, n);
		return;
	}
	size_t last = n - CHUNK_SIZE;
	for (size_t at = 0; at < 4 * CHUNK_SIZE; at += CHUNK_SIZE) {
		size_t from = at < last ? at : last;
		char chunk[CHUNK_SIZE];
		memcpy(chunk, src + from, CHUNK_SIZE);
		memcpy(dst + from, chunk, CHUNK_SIZE);
	}
}

/* CHUNKS_SHORT bytes of SRC into DST, for a string shorter than that
 * whose bytes after it may be read (a catalog's name: packed.h's
 * PACKED_READ_PAD) and overwritten at DST. */
static inline void chunks_copy_short(char *dst, const char *src)
{
	memcpy(dst, src, CHUNKS_SHORT);
}

#endif
