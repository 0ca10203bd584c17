/*
 * arena.c - see arena.h.
 */
#include "catalog/arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/pages.h"

#define CHUNK (64 * 1024)

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	bool from_region;	/* for pages_free */
	alignas(max_align_t) unsigned char data[];
};

/* The bytes the first chunk skips for its next allocation to start at a
 * multiple of ALIGN. */
static size_t padding(const struct arena *a, size_t align)
{
	return a->chunks ? (size_t)(-(uintptr_t)(a->chunks->data + a->used) & (align - 1)) : 0;
}

void *arena_calloc_aligned(struct arena *a, size_t count, size_t size, size_t align)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	if (align < alignof(max_align_t))
		align = alignof(max_align_t);
	size_t n = count * size;
	if (n > SIZE_MAX - 2 * align - CHUNK)
		return NULL;
	n = (n + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
	if (!a->chunks || a->size - a->used < n + padding(a, align)) {
		/* a new chunk's data is aligned for max_align_t only */
		size_t need = n + align - alignof(max_align_t);
		size_t size_new = need > CHUNK ? need : CHUNK;
		struct arena_chunk *c = size_new == CHUNK ? a->spare : NULL;
		if (c) {
			a->spare = NULL;
		} else {
			bool from_region;
			c = pages_alloc(sizeof(*c) + size_new, &from_region);
			if (!c)
				return NULL;
			c->from_region = from_region;
			c->size = size_new;
		}
		c->next = a->chunks;
		a->chunks = c;
		a->used = 0;
		a->size = size_new;
	}
	a->used += padding(a, align);
	void *p = a->chunks->data + a->used;
	a->used += n;
	return memset(p, 0, n);
}

void *arena_calloc(struct arena *a, size_t count, size_t size)
{
	return arena_calloc_aligned(a, count, size, alignof(max_align_t));
}

char *arena_strdup(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = arena_calloc(a, n, 1);
	return d ? memcpy(d, s, n) : NULL;
}

size_t arena_extent_from(const struct arena *a, const void *p)
{
	if (!a->chunks)
		return 0;
	/* compared as integers: P may lie in another chunk */
	uintptr_t at = (uintptr_t)p, start = (uintptr_t)a->chunks->data, top = start + a->used;
	return at >= start && at <= top ? top - at : 0;
}

/* Frees chunk C, or keeps it as A's spare: a rewind mostly undoes an
 * allocation that had just opened a new chunk (an event's modifier set,
 * decoded, found equal to one decoded before and dropped), and the next
 * allocation would open another; a quarter of a batch's chunks were
 * opened so, each fresh memory to touch. */
static void give_back(struct arena *a, struct arena_chunk *c)
{
	if (!a->spare && c->size == CHUNK)
		a->spare = c;
	else
		pages_free(c, c->from_region);
}

void arena_free(struct arena *a)
{
	while (a->chunks) {
		struct arena_chunk *next = a->chunks->next;
		pages_free(a->chunks, a->chunks->from_region);
		a->chunks = next;
	}
	if (a->spare)
		pages_free(a->spare, a->spare->from_region);
	a->spare = NULL;
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
		give_back(a, a->chunks);
		a->chunks = next;
	}
	a->used = mark.used;
	a->size = mark.size;
}
