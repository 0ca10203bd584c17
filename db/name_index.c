/*
 * name_index.c - see name_index.h.  Open addressing with linear probing;
 * the table is at most half full.
 */
#include "name_index.h"

#include "arena.h"

#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (uint32_t)tolower((unsigned char)*s)) * 16777619u;
	return h;
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
	for (uint32_t h = slot_of(ix, hash, key); ix->slots[h]; h = (h + 1) & ix->mask) {
		int i = ix->slots[h] - 1;
		if (key_of(ix, i) == key && !strcasecmp(ix->name_at(ix->list, i), name))
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
		uint32_t hash = name_hash(name);
		int key = key_of(ix, i);
		if (find(ix, name, hash, key) >= 0)
			continue;	/* the first of equal names wins */
		uint32_t h = slot_of(ix, hash, key);
		while (ix->slots[h])
			h = (h + 1) & ix->mask;
		ix->slots[h] = i + 1;
	}
	return 0;
}

int name_index_find(const struct name_index *ix, const char *name, int key)
{
	return ix->slots ? find(ix, name, name_hash(name), key) : -1;
}

void name_index_free(struct name_index *ix)
{
	if (!ix->in_arena)
		free(ix->slots);
	ix->slots = NULL;
}
