/*
 * name_index.h - case-insensitive lookup of names by hashing: the events
 * and aliases of a table, and its unit masks by event and name.  Names that
 * appear twice (under one key) keep the first position, as libpfm's
 * lookups do.
 */
#ifndef PMUDB_NAME_INDEX_H
#define PMUDB_NAME_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;

/* FNV-1a over the bytes with their case folded: also the hash of the PMU
 * directory the compiler writes (packed.h), so it changes only with the
 * format's version. */
uint32_t name_hash(const char *s);
/* The hash the indexes file NAME (N bytes, its length) under: a name
 * looked up in several indexes is hashed once (name_index_find_hashed). */
uint32_t name_index_hash(const char *name, size_t n);
/* A and B equal but for the case of ASCII letters (strcasecmp in the C
 * locale, which every name lookup of libpfm's is). */
bool same_name(const char *a, const char *b);

/* The name at position I of the indexed list (NULL: left out), and the key
 * it is filed under (the event of a unit mask); KEY_AT may be NULL. */
typedef const char *(*name_at_fn)(const void *list, int i);
typedef int (*key_at_fn)(const void *list, int i);

/* A filed name: its hash, its position + 1 (0: an empty slot), and the
 * name itself, compared without going through NAME_AT (a lookup touches
 * the slot, then the name: no call, no entry of the list between). */
struct name_slot {
	uint32_t hash, position;
	const char *name;
};

struct name_index {
	uint32_t mask;		/* slot count - 1 */
	struct name_slot *slots;
	const void *list;
	name_at_fn name_at;
	key_at_fn key_at;
	bool in_arena;		/* slots freed with the arena, not by name_index_free */
};

/* Indexes the COUNT names of LIST, the slots in ARENA (or, when NULL, on
 * the heap).  0, or -1 when out of memory. */
int name_index_build(struct name_index *ix, const void *list, int count, name_at_fn name_at, key_at_fn key_at,
		     struct arena *arena);
/* The position of NAME under KEY, or -1. */
int name_index_find(const struct name_index *ix, const char *name, int key);
/* The same, with NAME's name_index_hash given. */
int name_index_find_hashed(const struct name_index *ix, const char *name, uint32_t hash, int key);
void name_index_free(struct name_index *ix);

#endif
