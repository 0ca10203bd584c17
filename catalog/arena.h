/*
 * arena.h - memory for what is read at once and freed at once (an event
 * table and everything in it): allocation is a pointer bump, and freeing
 * the arena frees it all.
 */
#ifndef PMUDB_ARENA_H
#define PMUDB_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *chunks;
	size_t used, size;	/* of the first chunk */
	struct arena_chunk *spare;	/* a chunk a rewind gave back, for the next */
};

/* N zeroed bytes aligned for any type, or NULL when out of memory or when
 * COUNT * SIZE overflows. */
void *arena_calloc(struct arena *a, size_t count, size_t size);
/* The same, starting at a multiple of ALIGN (a power of two up to a page):
 * what an encoding reads of one thing in as few cache lines as it can. */
void *arena_calloc_aligned(struct arena *a, size_t count, size_t size, size_t align);
char *arena_strdup(struct arena *a, const char *s);
/* The bytes from P, allocated from A, to where A's next allocation would
 * start (what was allocated since P, in one piece), or 0 when P is not
 * in the piece A allocates from now. */
size_t arena_extent_from(const struct arena *a, const void *p);
void arena_free(struct arena *a);

/* Where A stands, and back there: what was allocated since is freed. */
struct arena_mark {
	struct arena_chunk *chunks;
	size_t used, size;
};
struct arena_mark arena_mark(const struct arena *a);
void arena_rewind(struct arena *a, struct arena_mark mark);

#endif
