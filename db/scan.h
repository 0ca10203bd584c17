/*
 * scan.h - finding the bytes that end an event string's tokens eight at a
 * time.  A warm encoding's byte loops over the string (its length, the
 * blanks it may not hold, each token's end) cost more than the lookups
 * they lead to: a word at a time they cost a fraction.
 *
 * The scans read whole words, so the string must be followed by at least
 * SCAN_PAD readable bytes (encode.c's working copies are padded with
 * zeros); the bytes past its end never change an answer.
 */
#ifndef PMUDB_SCAN_H
#define PMUDB_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SCAN_PAD 8

#define SCAN_ONES 0x0101010101010101ull
#define SCAN_HIGHS 0x8080808080808080ull

/* The high bit of the bytes of W equal to C.  Only the lowest one is
 * exact (a borrow can mark the byte above a match), which is all the
 * scans use. */
static inline uint64_t scan_bytes_equal(uint64_t w, unsigned char c)
{
	uint64_t x = w ^ (SCAN_ONES * c);
	return (x - SCAN_ONES) & ~x & SCAN_HIGHS;
}

/* The word at S, its first byte in the low bits whatever the machine's
 * byte order, so that the lowest mark is the first byte in the string. */
static inline uint64_t scan_word(const char *s)
{
	uint64_t w;
	memcpy(&w, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* The bytes of the word at S that end a token: NUL, ':' or '.'. */
static inline uint64_t scan_token_ends(const char *s)
{
	uint64_t w = scan_word(s);
	return scan_bytes_equal(w, 0) | scan_bytes_equal(w, ':') | scan_bytes_equal(w, '.');
}

/* The offset of the first byte a mark of a scan stands for. */
static inline size_t scan_first(uint64_t marks)
{
	return (size_t)__builtin_ctzll(marks) / 8;
}

/* strcspn(S, ":.") of a padded string. */
static inline size_t scan_token_length(const char *s)
{
	for (size_t i = 0;; i += 8) {
		uint64_t ends = scan_token_ends(s + i);
		if (ends)
			return i + scan_first(ends);
	}
}

#endif
