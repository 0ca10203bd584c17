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
	uint32_t size = 4;	/* most events have a few unit masks */
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
