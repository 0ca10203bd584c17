/*
 * name_index.c - see name_index.h.  Open addressing with linear probing;
 * the table is at most half full.
 */
#include "name_index.h"

#include "arena.h"

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

int word_index_build(struct word_index *ix, const void *list, int count, name_at_fn name_at, struct arena *arena)
{
	/* at most half full: an empty slot ends every probe */
	unsigned bits = 4;
	while ((1 << bits) < 2 * count)
		bits++;
	ix->shift = 64 - bits;
	ix->slots = arena_calloc(arena, (size_t)1 << bits, sizeof(*ix->slots));
	if (!ix->slots)
		return -1;
	uint64_t mask = (1ULL << bits) - 1;
	for (int i = 0; i < count; i++) {
		const char *name = name_at(list, i);
		size_t n = name ? strlen(name) : 0;
		if (!n || n > NAME_WORD_MAX)
			continue;
		char padded[8] = { 0 };
		memcpy(padded, name, n);
		uint64_t word = name_word(padded, n);
		if (word_index_find(ix, word) >= 0)
			continue;	/* the first of equal names wins */
		uint64_t h = word * 0x9e3779b97f4a7c15ull >> ix->shift;
		while (ix->slots[h].word)
			h = (h + 1) & mask;
		ix->slots[h] = (struct word_slot){ word, i };
	}
	return 0;
}
