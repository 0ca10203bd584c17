/*
 * name_index.h - case-insensitive lookup of names by hashing: the events
 * and aliases of a table, an event's unit masks, a set's modifiers; and
 * the short names of a set's modifiers by their word (word_index).  A
 * name that appears twice keeps its first position, as libpfm's lookups
 * do.
 */
#ifndef PMUDB_NAME_INDEX_H
#define PMUDB_NAME_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct arena;

/* FNV-1a over the bytes with their case folded: also the hash of the PMU
 * directory the compiler writes (packed.h), so it changes only with the
 * format's version. */
uint32_t name_hash(const char *s);
/* The hash the indexes file NAME (N bytes, its length) under, which
 * nothing stores: a name looked up in several indexes is hashed once
 * (name_index_find_hashed), inline as a warm encoding hashes three or
 * four names.  Not every byte: words at both ends and, past sixteen
 * bytes, at 8 and n - 16, past 24 at 16, with the length, which covers a
 * name of up to 40 bytes whole (a "PMU::EVENT" of two PMUs whose names
 * differ past their sixteenth byte, amd64_fam17h_zen1 and _zen2, shared a
 * hash when 32 were, and a lookup of one often met the other first);
 * longer names may share a hash with another (a probe more, never a wrong
 * answer: names are compared).  Hashing every word was a
 * tenth of a warm encoding, and name_hash's byte loop (which the
 * directory's format fixes) more.  Bit 5 set in every byte folds the case
 * of ASCII letters, as in name_hash.  Every word lies within the name: no
 * read past its end. */
static inline uint32_t name_index_hash(const char *s, size_t n)
{
	const uint64_t fold = 0x2020202020202020ull, k = 0x9e3779b97f4a7c15ull;
	uint64_t h = n * k;
	if (n >= 8) {
		/* the middle words' places by arithmetic: a choice branched on
		 * the length, which names of an encoding vary */
		size_t longer = (size_t)0 - (n > 16), longest = (size_t)0 - (n > 24);
		uint64_t a, b, c, d, e;
		memcpy(&a, s, 8);
		memcpy(&b, s + (8 & longer), 8);
		memcpy(&c, s + ((n - 16) & longer), 8);
		memcpy(&d, s + n - 8, 8);
		memcpy(&e, s + ((16 & longest) | ((n - 8) & ~longest)), 8);
		h ^= ((a | fold) * (k + 2)) ^ ((b | fold) * (k + 4)) ^ ((c | fold) * (k + 6)) ^ ((d | fold) * (k + 8))
		     ^ ((e | fold) * (k + 10));
	} else if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		h ^= (((uint64_t)b << 32 | a) | fold) * (k + 2);
	} else if (n) {
		/* the first, middle and last bytes are every byte of a name of
		 * one to three: no loop, whose exit a varied corpus mispredicts */
		uint64_t w = (unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2] << 8
			     | (uint64_t)(unsigned char)s[n - 1] << 16;
		h ^= (w | fold) * (k + 2);
	}
	h ^= h >> 32;
	h *= 0x7feb352dull;
	return (uint32_t)(h ^ (h >> 31));
}

/* A and B equal but for the case of ASCII letters (strcasecmp in the C
 * locale, which every name lookup of libpfm's is). */
bool same_name(const char *a, const char *b);

/* The LEN bytes at NAME are the name FILED, but for the case of ASCII
 * letters; NAME need not end there (a token of an equiv).  FILED is read
 * no further than its NUL. */
bool same_name_len(const char *filed, const char *name, size_t len);

/* The N bytes at A and B are equal, compared a word at a time inline (the
 * names are short, and a call to compare them cost more than the
 * comparison).  Every word read lies within the N bytes. */
static inline bool name_bytes_equal(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	if (n < 8) {
		/* words at both ends that overlap, or the first, middle and last
		 * bytes (every byte of up to three): no byte loop */
		if (n >= 4) {
			uint32_t p, q, r, t;
			memcpy(&p, a, 4);
			memcpy(&q, b, 4);
			memcpy(&r, a + n - 4, 4);
			memcpy(&t, b + n - 4, 4);
			return ((p ^ q) | (r ^ t)) == 0;
		}
		return !n || ((a[0] ^ b[0]) | (a[n / 2] ^ b[n / 2]) | (a[n - 1] ^ b[n - 1])) == 0;
	}
	if (n <= 32) {
		/* four words, the later ones clamped to end at N (one compared
		 * twice is the same): no loop, whose end names of different
		 * lengths mispredicted */
		size_t last = n - 8, at1 = last < 8 ? last : 8, at2 = last < 16 ? last : 16;
		uint64_t p[4], q[4];
		memcpy(&p[0], a, 8), memcpy(&q[0], b, 8);
		memcpy(&p[1], a + at1, 8), memcpy(&q[1], b + at1, 8);
		memcpy(&p[2], a + at2, 8), memcpy(&q[2], b + at2, 8);
		memcpy(&p[3], a + last, 8), memcpy(&q[3], b + last, 8);
		return ((p[0] ^ q[0]) | (p[1] ^ q[1]) | (p[2] ^ q[2]) | (p[3] ^ q[3])) == 0;
	}
	for (size_t i = 0; i + 8 < n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return false;
	}
	memcpy(&x, a + n - 8, 8);
	memcpy(&y, b + n - 8, 8);
	return x == y;
}

/* FILED, a name LEN bytes long, is the LEN bytes at NAME, case aside: as
 * written mostly, compared inline; else through the case-folding loop. */
static inline bool same_name_filed(const char *filed, const char *name, size_t len)
{
	return name_bytes_equal(filed, name, len) || same_name_len(filed, name, len);
}

/* The name at position I of the indexed list (NULL: left out). */
typedef const char *(*name_at_fn)(const void *list, int i);

/* The most names an index files: a position + 1 takes 24 bits of a slot. */
#define NAME_INDEX_MAX ((1 << 24) - 2)
/* A slot's length of a name of this many bytes or more: compared whole. */
#define NAME_INDEX_LONG 255

/* A filed name: its hash; its position + 1 (0: an empty slot) in the low
 * 24 bits of PLACE and its length (up to NAME_INDEX_LONG) in the high 8,
 * so that a name of another length is passed over unread; and the name
 * itself, compared without going through NAME_AT (a lookup touches the
 * slot, then the name: no call, no entry of the list between). */
struct name_slot {
	uint32_t hash, place;
	const char *name;
};

struct name_index {
	uint32_t mask;		/* slot count - 1 */
	struct name_slot *slots;
};

/* Indexes the COUNT names of LIST, the slots in ARENA.  0, or -1 when out
 * of memory or COUNT is past NAME_INDEX_MAX. */
int name_index_build(struct name_index *ix, const void *list, int count, name_at_fn name_at, struct arena *arena);
/* The position of NAME, or -1. */
int name_index_find(const struct name_index *ix, const char *name);
/* The same, with NAME's length and name_index_hash given; NAME need not
 * end there (a token inside a longer string). */
int name_index_find_hashed(const struct name_index *ix, const char *name, size_t len, uint32_t hash);

/* ---- names of up to eight bytes, by their word ------------------------ */

/* The longest name a word holds. */
#define NAME_WORD_MAX 8

/* The word of a name of N bytes (1 to NAME_WORD_MAX), from W, eight
 * bytes whose first N are the name's (the first in the low bits): its
 * bytes from the lowest up, ASCII letters in lower case (the C locale's
 * strcasecmp folds no others), zeros past its end.  No name's word is 0. */
static inline uint64_t name_word_of(uint64_t w, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	if (n < 8)
		w &= (1ULL << (8 * n)) - 1;
	/* each byte's low seven bits plus a constant sets its high bit from
	 * 'A' on, and from past 'Z' on; no byte carries into the next */
	uint64_t low7 = w & ~high;
	uint64_t upper = (low7 + ones * (0x80 - 'A')) & ~(low7 + ones * (0x80 - 'Z' - 1)) & ~w & high;
	return w | upper >> 2;
}

/* Eight bytes at S as a word, the first in the low bits. */
static inline uint64_t name_word_load(const char *s)
{
	uint64_t w;
	memcpy(&w, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* The word of the name of N bytes at S, which eight readable bytes
 * follow. */
static inline uint64_t name_word(const char *s, size_t n)
{
	return name_word_of(name_word_load(s), n);
}

/* The names of up to NAME_WORD_MAX bytes of a list by their words: one
 * slot read and one word compared, where name_index hashes the name and
 * compares it byte-wise (a set's modifiers, which every attribute of an
 * encoding's string is looked up in).  The slots are laid out so that no
 * two names share one (a multiplier tried until none do): a lookup has no
 * loop, whose exit a varied corpus mispredicted. */
struct word_index {
	uint64_t multiplier;
	unsigned shift;		/* 64 - log2 of the slot count */
	uint64_t *words;	/* the name in each slot, 0: none */
	int8_t *positions;
};

/* Indexes the names of COUNT (up to 64) of LIST that fit a word, the slots
 * in ARENA.  0, or -1 when out of memory. */
int word_index_build(struct word_index *ix, const void *list, int count, name_at_fn name_at, struct arena *arena);

/* The position of the name whose word is WORD, or -1. */
static inline int word_index_find(const struct word_index *ix, uint64_t word)
{
	if (!ix->words)
		return -1;
	uint64_t h = word * ix->multiplier >> ix->shift;
	/* both read, one chosen: no branch on whether a name is a modifier */
	int position = ix->positions[h];
	return ix->words[h] == word ? position : -1;
}

#endif
