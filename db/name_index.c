/*
 * name_index.c - see name_index.h.  Open addressing with linear probing;
 * the table is at most half full.
 */
#include "name_index.h"

#include "arena.h"

#include <stdlib.h>
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

/* The hash of the in-memory indexes, which nothing stores.  Not every
 * byte: words at both ends and, past sixteen bytes, at 8 and n - 16, with
 * the length, which covers a name of up to 32 bytes whole; of the 100,000
 * unit-mask names of today's catalog, 46 longer ones share a hash with
 * another of their event (a probe more, never a wrong answer: names are
 * compared).  Hashing every word was a tenth of a warm encoding, and
 * name_hash's byte loop (which the directory's format fixes) more.  Bit 5
 * set in every byte folds the case of ASCII letters, as in name_hash.
 * Every word lies within the name: no read past its end. */
uint32_t name_index_hash(const char *s, size_t n)
{
	const uint64_t fold = 0x2020202020202020ull, k = 0x9e3779b97f4a7c15ull;
	uint64_t h = n * k;
	if (n >= 8) {
		uint64_t a, b, c, d;
		memcpy(&a, s, 8);
		memcpy(&b, s + (n > 16 ? 8 : 0), 8);
		memcpy(&c, s + (n > 16 ? n - 16 : 0), 8);
		memcpy(&d, s + n - 8, 8);
		h ^= ((a | fold) * (k + 2)) ^ ((b | fold) * (k + 4)) ^ ((c | fold) * (k + 6)) ^ ((d | fold) * (k + 8));
	} else if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		h ^= (((uint64_t)b << 32 | a) | fold) * (k + 2);
	} else {
		uint64_t w = 0;
		for (size_t i = 0; i < n; i++)
			w |= (uint64_t)(unsigned char)s[i] << 8 * i;
		h ^= (w | fold) * (k + 2);
	}
	h ^= h >> 32;
	h *= 0x7feb352dull;
	return (uint32_t)(h ^ (h >> 31));
}

static uint32_t slot_of(const struct name_index *ix, uint32_t hash, int key)
{
	return (hash ^ (uint32_t)key * 0x9e3779b1u) & ix->mask;
}

static int key_of(const struct name_index *ix, int i)
{
	return ix->key_at ? ix->key_at(ix->list, i) : 0;
}

static int find(const struct name_index *ix, const char *name, uint32_t hash, int key)
{
	for (uint32_t h = slot_of(ix, hash, key); ix->slots[h].position; h = (h + 1) & ix->mask) {
		const struct name_slot *s = &ix->slots[h];
		if (s->hash != hash)
			continue;
		int i = (int)s->position - 1;
		if (key_of(ix, i) == key && same_name(s->name, name))
			return i;
	}
	return -1;
}

int name_index_build(struct name_index *ix, const void *list, int count, name_at_fn name_at, key_at_fn key_at,
		     struct arena *arena)
{
	uint32_t size = 16;
	while (size < 2u * (uint32_t)count)
		size *= 2;
	ix->mask = size - 1;
	ix->list = list;
	ix->name_at = name_at;
	ix->key_at = key_at;
	ix->in_arena = arena != NULL;
	ix->slots = arena ? arena_calloc(arena, size, sizeof(*ix->slots)) : calloc(size, sizeof(*ix->slots));
	if (!ix->slots)
		return -1;
	for (int i = 0; i < count; i++) {
		const char *name = name_at(list, i);
		if (!name)
			continue;
		uint32_t hash = name_index_hash(name, strlen(name));
		int key = key_of(ix, i);
		if (find(ix, name, hash, key) >= 0)
			continue;	/* the first of equal names wins */
		uint32_t h = slot_of(ix, hash, key);
		while (ix->slots[h].position)
			h = (h + 1) & ix->mask;
		ix->slots[h] = (struct name_slot){ hash, (uint32_t)(i + 1), name };
	}
	return 0;
}

int name_index_find(const struct name_index *ix, const char *name, int key)
{
	return ix->slots ? find(ix, name, name_index_hash(name, strlen(name)), key) : -1;
}

int name_index_find_hashed(const struct name_index *ix, const char *name, uint32_t hash, int key)
{
	return ix->slots ? find(ix, name, hash, key) : -1;
}

void name_index_free(struct name_index *ix)
{
	if (!ix->in_arena)
		free(ix->slots);
	ix->slots = NULL;
}
