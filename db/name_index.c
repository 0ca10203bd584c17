/*
 * name_index.c - see name_index.h.  Open addressing with linear probing;
 * the table is at most half full.
 */
#include "name_index.h"

#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

/* FNV-1a over the lower-cased bytes. */
static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (uint32_t)tolower((unsigned char)*s)) * 16777619u;
	return h;
}

int name_index_build(struct name_index *ix, const void *list, int count, name_at_fn name_at)
{
	uint32_t size = 16;
	while (size < 2u * (uint32_t)count)
		size *= 2;
	ix->mask = size - 1;
	ix->slots = calloc(size, sizeof(*ix->slots));
	if (!ix->slots)
		return -1;
	for (int i = 0; i < count; i++) {
		const char *name = name_at(list, i);
		if (!name || name_index_find(ix, list, name_at, name) >= 0)
			continue;	/* the first of equal names wins */
		uint32_t h = hash_name(name) & ix->mask;
		while (ix->slots[h])
			h = (h + 1) & ix->mask;
		ix->slots[h] = i + 1;
	}
	return 0;
}

int name_index_find(const struct name_index *ix, const void *list, name_at_fn name_at, const char *name)
{
	if (!ix->slots)
		return -1;
	for (uint32_t h = hash_name(name) & ix->mask; ix->slots[h]; h = (h + 1) & ix->mask)
		if (!strcasecmp(name_at(list, ix->slots[h] - 1), name))
			return ix->slots[h] - 1;
	return -1;
}

void name_index_free(struct name_index *ix)
{
	free(ix->slots);
	ix->slots = NULL;
}
