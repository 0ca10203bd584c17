/*
 * name_index.c - see name_index.h.  Open addressing with linear probing;
 * the table is at most half full.
 */
#include "catalog/name_index.h"

#include "catalog/arena.h"

#include <assert.h>
#include <string.h>

/* tolower() of the C locale, without the locale lookup. */
static inline unsigned char ascii_lower(unsigned char c)
{
	return (unsigned char)(c + ((unsigned)(c - 'A') < 26u ? 'a' - 'A' : 0));
}

/* Bit 5 set folds the case of ASCII letters (other bytes that differ only
 * there merely share a hash): no branch, no table. */
uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ ((unsigned char)*s | 0x20u)) * 16777619u;
	/* FNV's low bits, which pick the slot, mix poorly: avalanche them */
	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	return h;
}

bool same_name(const char *a, const char *b)
{
	/* a name is mostly written as the catalog spells it: one fast
	 * comparison, the folding loop only when that fails */
	if (!strcmp(a, b))
		return true;
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
	for (; *x; x++, y++)
		if (*x != *y && ascii_lower(*x) != ascii_lower(*y))
			return false;
	return !*y;
}

bool same_name_len(const char *filed, const char *name, size_t len)
{
	const unsigned char *x = (const unsigned char *)filed, *y = (const unsigned char *)name;
	for (size_t i = 0; i < len; i++)
		if (!x[i] || (x[i] != y[i] && ascii_lower(x[i]) != ascii_lower(y[i])))
			return false;
	return !x[len];
}

static int find(const struct name_index *ix, const char *name, size_t len, uint32_t hash)
{
	size_t filed_len = len < NAME_INDEX_LONG ? len : NAME_INDEX_LONG;
	for (uint32_t h = hash & ix->mask; ix->slots[h].place; h = (h + 1) & ix->mask) {
		const struct name_slot *s = &ix->slots[h];
		if (s->hash != hash || s->place >> 24 != filed_len)
			continue;
		/* a length filed whole is the name's: the inline comparison first */
		if (filed_len < NAME_INDEX_LONG ? same_name_filed(s->name, name, len) : same_name_len(s->name, name, len))
			return (int)(s->place & 0xffffff) - 1;
	}
	return -1;
}

int name_index_build(struct name_index *ix, const void *list, int count, name_at_fn name_at, struct arena *arena)
{
	if (count > NAME_INDEX_MAX)
		return -1;
	uint32_t size = 4;	/* most events have a few unit masks */
	while (size < 2u * (uint32_t)count)
		size *= 2;
	ix->mask = size - 1;
	/* probing ends: fewer names than slots, a power of two of them */
	assert((size & ix->mask) == 0 && (uint32_t)count < size);
	ix->slots = arena_calloc(arena, size, sizeof(*ix->slots));
	if (!ix->slots)
		return -1;
	for (int i = 0; i < count; i++) {
		const char *name = name_at(list, i);
		if (!name)
			continue;
		size_t len = strlen(name);
		uint32_t hash = name_index_hash(name, len);
		if (find(ix, name, len, hash) >= 0)
			continue;	/* the first of equal names wins */
		uint32_t h = hash & ix->mask;
		while (ix->slots[h].place)
			h = (h + 1) & ix->mask;
		uint32_t filed_len = len < NAME_INDEX_LONG ? (uint32_t)len : NAME_INDEX_LONG;
		ix->slots[h] = (struct name_slot){ hash, filed_len << 24 | (uint32_t)(i + 1), name };
	}
	return 0;
}

int name_index_find(const struct name_index *ix, const char *name)
{
	size_t len = strlen(name);
	return ix->slots ? find(ix, name, len, name_index_hash(name, len)) : -1;
}

int name_index_find_hashed(const struct name_index *ix, const char *name, size_t len, uint32_t hash)
{
	return ix->slots ? find(ix, name, len, hash) : -1;
}

/* Places the N words of WORDS (positions POS) in 2^BITS slots with
 * MULTIPLIER, none sharing a slot: false when two would. */
static bool place_words(struct word_index *ix, const uint64_t *words, const int8_t *pos, int n, unsigned bits,
			uint64_t multiplier)
{
	size_t slots = (size_t)1 << bits;
	memset(ix->words, 0, slots * sizeof(*ix->words));
	ix->multiplier = multiplier;
	ix->shift = 64 - bits;
	for (int i = 0; i < n; i++) {
		uint64_t h = words[i] * multiplier >> ix->shift;
		if (ix->words[h])
			return false;
		ix->words[h] = words[i];
		ix->positions[h] = pos[i];
	}
	return true;
}

int word_index_build(struct word_index *ix, const void *list, int count, name_at_fn name_at, struct arena *arena)
{
	uint64_t words[64];
	int8_t pos[64];
	int n = 0;
	ix->words = NULL;
	for (int i = 0; i < count && i < 64; i++) {
		const char *name = name_at(list, i);
		size_t len = name ? strlen(name) : 0;
		if (!len || len > NAME_WORD_MAX)
			continue;
		char padded[8] = { 0 };
		memcpy(padded, name, len);
		uint64_t word = name_word(padded, len);
		bool seen = false;
		for (int k = 0; k < n && !seen; k++)
			seen = words[k] == word;	/* the first of equal names wins */
		if (!seen) {
			words[n] = word;
			pos[n++] = (int8_t)i;
		}
	}
	/* eight slots a name, then more, until some multiplier (odd, from a
	 * fixed sequence: the same catalog, the same layout) separates them */
	uint64_t multiplier = 0x9e3779b97f4a7c15ull;
	for (unsigned bits = 4; bits <= 12; bits++) {
		if ((1u << bits) < 8u * (unsigned)n)
			continue;
		ix->words = arena_calloc(arena, (size_t)1 << bits, sizeof(*ix->words));
		ix->positions = arena_calloc(arena, (size_t)1 << bits, sizeof(*ix->positions));
		if (!ix->words || !ix->positions)
			return -1;
		for (int tries = 0; tries < 64; tries++, multiplier = multiplier * 0x5851f42d4c957f2dull + 0x14057b7ef767814full)
			if (place_words(ix, words, pos, n, bits, multiplier | 1))
				return 0;
	}
	/* none found (names no catalog has): no index, and a lookup finds
	 * nothing (the lane then leaves every string to the stages) */
	ix->words = NULL;
	return 0;
}
