/*
 * arena.c - see arena.h.
 */
#include "arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"

#define CHUNK (64 * 1024)

struct arena_chunk {
	struct arena_chunk *next;
	bool from_region;	/* for pages_free */
	alignas(max_align_t) unsigned char data[];
};

void *arena_calloc(struct arena *a, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	size_t n = count * size, align = alignof(max_align_t);
	if (n > SIZE_MAX - align)
		return NULL;
	n = (n + align - 1) & ~(align - 1);
	if (!a->chunks || a->size - a->used < n) {
		size_t size_new = n > CHUNK ? n : CHUNK;
		bool from_region;
		struct arena_chunk *c = pages_alloc(sizeof(*c) + size_new, &from_region);
		if (!c)
			return NULL;
		c->from_region = from_region;
		c->next = a->chunks;
		a->chunks = c;
		a->used = 0;
		a->size = size_new;
	}
	void *p = a->chunks->data + a->used;
	a->used += n;
	return memset(p, 0, n);
}

char *arena_strdup(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = arena_calloc(a, n, 1);
	return d ? memcpy(d, s, n) : NULL;
}

void arena_free(struct arena *a)
{
	while (a->chunks) {
		struct arena_chunk *next = a->chunks->next;
		pages_free(a->chunks, a->chunks->from_region);
		a->chunks = next;
	}
	a->used = a->size = 0;
}

struct arena_mark arena_mark(const struct arena *a)
{
	return (struct arena_mark){ a->chunks, a->used, a->size };
}

void arena_rewind(struct arena *a, struct arena_mark mark)
{
	while (a->chunks && a->chunks != mark.chunks) {
		struct arena_chunk *next = a->chunks->next;
		pages_free(a->chunks, a->chunks->from_region);
		a->chunks = next;
	}
	a->used = mark.used;
	a->size = mark.size;
}
