/*
 * scan.h - finding the bytes that end an event string's tokens eight at a
 * time.  A warm encoding's byte loops over the string (its length, the
 * blanks it may not hold, each token's end) cost more than the lookups
 * they lead to: a word at a time they cost a fraction.
 *
 * The scans read whole words (sixteen bytes with SSE2, on every x86-64;
 * else eight), so the string must be followed by at least SCAN_PAD
 * readable bytes (encode.c's working copies are padded with zeros); the
 * bytes past its end never change an answer.
 */
#ifndef PMUDB_SCAN_H
#define PMUDB_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "catalog/name_index.h"

#define SCAN_PAD 16

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

/* The bytes of the word at S that end a token: NUL, ':' or '.'. */
static inline uint64_t scan_token_ends(const char *s)
{
	/* the first byte in the low bits, so that the lowest mark is the
	 * first byte in the string */
	uint64_t w = name_word_load(s);
	return scan_bytes_equal(w, 0) | scan_bytes_equal(w, ':') | scan_bytes_equal(w, '.');
}

/* The offset of the first byte a mark of a scan stands for. */
static inline size_t scan_first(uint64_t marks)
{
	return (size_t)__builtin_ctzll(marks) / 8;
}

#ifdef __SSE2__
/* A bit for each of the sixteen bytes at S equal to A, B or C. */
static inline unsigned scan_equal3(const char *s, char a, char b, char c)
{
	__m128i x = _mm_loadu_si128((const __m128i *)s);
	__m128i m = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(a)),
				 _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(b)), _mm_cmpeq_epi8(x, _mm_set1_epi8(c))));
	return (unsigned)_mm_movemask_epi8(m);
}
#endif

/* strcspn(S, ":.") of a padded string. */
static inline size_t scan_token_length(const char *s)
{
#ifdef __SSE2__
	for (size_t i = 0;; i += 16) {
		unsigned ends = scan_equal3(s + i, 0, ':', '.');
		if (ends)
			return i + (size_t)__builtin_ctz(ends);
	}
#else
	for (size_t i = 0;; i += 8) {
		uint64_t ends = scan_token_ends(s + i);
		if (ends)
			return i + scan_first(ends);
	}
#endif
}

/* scan_token_length, with *EQ the offset of the token's first '=', or
 * the length when it has none. */
static inline size_t scan_token(const char *s, size_t *eq)
{
	size_t len = scan_token_length(s);
#ifdef __SSE2__
	for (size_t i = 0; i < len; i += 16) {
		unsigned m = scan_equal3(s + i, '=', '=', '=');
		if (m) {
			size_t at = i + (size_t)__builtin_ctz(m);
			*eq = at < len ? at : len;
			return len;
		}
	}
	*eq = len;
#else
	const char *e = memchr(s, '=', len);
	*eq = e ? (size_t)(e - s) : len;
#endif
	return len;
}

/* Of a padded string S of LEN bytes whose pad is zeros: true when it
 * holds a blank or ',' (libpfm takes one event); else *PMU_END the first
 * "::", or NULL.  The blanks are looked for in every chunk without a
 * branch, the "::" by the first token's end: a PMU's name mostly. */
static inline bool scan_event(char *s, size_t len, char **pmu_end)
{
#ifdef __SSE2__
	/* the blanks and ',' are below '-', as few bytes of event strings
	 * are: one comparison a chunk finds the strings to look at closely
	 * (the NUL and the pad's zeros, below too, are left out) */
	unsigned low = 0;
	for (size_t i = 0; i < len; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(s + i));
		__m128i below = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(',')), x);
		low |= (unsigned)_mm_movemask_epi8(_mm_andnot_si128(_mm_cmpeq_epi8(x, _mm_setzero_si128()), below));
	}
	unsigned blanks = 0;
	for (size_t i = 0; low && i < len; i += 16)
		blanks |= scan_equal3(s + i, ',', ' ', '\t') | scan_equal3(s + i, '\n', '\n', '\n');
	if (blanks)
		return true;
#else
	(void)len;
	if (strpbrk(s, ", \t\n"))
		return true;
#endif
	char *c = s + scan_token_length(s);
	*pmu_end = !*c ? NULL : c[0] == ':' && c[1] == ':' ? c : strstr(c, "::");
	return false;
}

#endif
