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
#include <string.h>

struct arena;

/* FNV-1a over the bytes with their case folded: also the hash of the PMU
 * directory the compiler writes (packed.h), so it changes only with the
 * format's version. */
uint32_t name_hash(const char *s);
/* The hash the indexes file NAME (N bytes, its length) under, which
 * nothing stores: a name looked up in several indexes is hashed once
 * (name_index_find_hashed), inline as a warm encoding hashes three or
 * four names.  Not every byte: words at both ends and, past sixteen
 * bytes, at 8 and n - 16, with the length, which covers a name of up to
 * 32 bytes whole; of the 100,000 unit-mask names of today's catalog, 46
 * longer ones share a hash with another of their event (a probe more,
 * never a wrong answer: names are compared).  Hashing every word was a
 * tenth of a warm encoding, and name_hash's byte loop (which the
 * directory's format fixes) more.  Bit 5 set in every byte folds the case
 * of ASCII letters, as in name_hash.  Every word lies within the name: no
 * read past its end. */
static inline uint32_t name_index_hash(const char *s, size_t n)
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
