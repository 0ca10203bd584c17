/*
 * event_cache.h - the events a handle found by "PMU::EVENT", by the
 * name's hash: one probe and one comparison of the name instead of
 * probing for the PMU, then for the event.  What it holds is each event's
 * bare encoding (bare.h), which holds the name it was found by.
 *
 * An entry is made only for an event found by its own name (not an alias,
 * nor a PMU whose names are numbers), and taken only when that name is the
 * name asked, case aside: a name lookup gives the same answer for every
 * spelling of a name, so a hit gives what the lookups would.  A set's
 * slots are read and written without a lock, a word at a time: a slot
 * read while another thread writes it costs the lookups it stands in for,
 * never a wrong answer, as the name is compared.
 */
#ifndef PMUDB_EVENT_CACHE_H
#define PMUDB_EVENT_CACHE_H

#include "runtime/encode/bare.h"
#include "catalog/catalog.h"

/* The key of "PMU::EVENT", the N bytes at NAME. */
static inline uint32_t event_cache_key(const char *name, size_t n)
{
	return name_index_hash(name, n);
}

/*
 * The slots KEY may be in: a set of EVENT_CACHE_WAYS in one cache line,
 * the event found last first.  With sets of two, a third event in a set
 * evicted one of the others, and the AMD core strings of the bench's
 * corpus (1,651 events) met a third of their events' first strings
 * missing, each a lookup of the PMU and the event; some events share a
 * key too (name_index_hash reads no more than 32 bytes of the name:
 * DR2_BREAKPOINT_MATCHES and DR3_...), and each keeps a slot of its own.
 */
static inline struct event_cache_set *event_cache_set_of(struct pmudb *db, uint32_t key)
{
	return &db->event_cache[key % EVENT_CACHE_SETS];
}

/* Moves the way WAY of SET, which holds B under KEY, to the front. */
void event_cache_to_front(struct event_cache_set *set, int way, uint32_t key, const struct bare_encoding *b);

/* The bare encoding of "PMU::EVENT", the N bytes at NAME (AVAIL bytes
 * readable there), by its KEY; NULL when the cache does not know it.
 * Inline: every encoding of a named event looks it up. */
static inline const struct bare_encoding *event_cache_find(struct pmudb *db, uint32_t key, const char *name,
							   size_t n, size_t avail)
{
	struct event_cache_set *set = event_cache_set_of(db, key);
	for (int way = 0; way < EVENT_CACHE_WAYS; way++) {
		if (atomic_load_explicit(&set->key[way], memory_order_relaxed) != key)
			continue;
		const struct bare_encoding *b = atomic_load_explicit(&set->bare[way], memory_order_acquire);
		if (b)
			bare_fetch(b);
		if (!b || !bare_named(b, name, n, avail))
			continue;
		if (way)
			event_cache_to_front(set, way, key, b);
		return b;
	}
	return NULL;
}

/* Notes B, found by its own name, whose key is KEY. */
void event_cache_add(struct pmudb *db, uint32_t key, const struct bare_encoding *b);

#endif
