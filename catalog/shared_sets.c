/*
 * shared_sets.c - see shared_sets.h.
 */
#include "catalog/shared_sets.h"

#include <stdlib.h>
#include <string.h>

/* M with its pointers cleared: the fields that are values.  The arena
 * zeroed M before its fields were set, so its padding compares too. */
static struct modifier values_of(const struct modifier *m)
{
	struct modifier v;
	memcpy(&v, m, sizeof(v));
	v.name = v.description = v.fstr_key = NULL;
	return v;
}

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* Of the names and a few values: sets that differ elsewhere only cost a
 * comparison. */
static uint64_t hash_of(const struct modifier_set *set)
{
	uint64_t h = mix(0xcbf29ce484222325ull, &set->count, sizeof(set->count));
	for (int m = 0; m < set->count; m++) {
		const struct modifier *mod = &set->items[m];
		h = mix(h, mod->name, strlen(mod->name) + 1);
		h = mix(h, &mod->default_value, sizeof(mod->default_value));
		h = mix(h, &mod->landings[0].mask, sizeof(mod->landings[0].mask));
	}
	return h;
}

static bool same_content(const struct modifier_set *a, const struct modifier_set *b)
{
	if (a->count != b->count)
		return false;
	for (int m = 0; m < a->count; m++) {
		const struct modifier *x = &a->items[m], *y = &b->items[m];
		struct modifier vx = values_of(x), vy = values_of(y);
		if (strcmp(x->name, y->name) || strcmp(x->description, y->description) || memcmp(&vx, &vy, sizeof(vx)))
			return false;
	}
	return true;
}

const struct modifier_set *shared_sets_find(const struct shared_sets *shared, const struct modifier_set *set,
					    uint64_t *hash)
{
	*hash = hash_of(set);
	for (int i = 0; i < shared->count; i++)
		if (shared->items[i].hash == *hash && same_content(shared->items[i].set, set))
			return shared->items[i].set;
	return NULL;
}

void shared_sets_add(struct shared_sets *shared, const struct modifier_set *set, uint64_t hash)
{
	if (shared->count == shared->cap) {
		int cap = shared->cap ? 2 * shared->cap : 32;
		struct shared_set *items = realloc(shared->items, (size_t)cap * sizeof(*items));
		if (!items)
			return;
		shared->items = items;
		shared->cap = cap;
	}
	shared->items[shared->count++] = (struct shared_set){ hash, set };
}

void shared_sets_free(struct shared_sets *shared)
{
	free(shared->items);
	shared->items = NULL;
	shared->count = shared->cap = 0;
}
