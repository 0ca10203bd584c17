/*
 * event_cache.c - see event_cache.h.
 */
#include "event_cache.h"

/*
 * The slots KEY may be in: a set of EVENT_CACHE_WAYS in one cache line,
 * the event found last first.  With sets of two, a third event in a set
 * evicted one of the others, and the AMD core strings of the bench's
 * corpus (1,651 events) met a third of their events' first strings
 * missing, each a lookup of the PMU and the event; some events share a
 * key too (name_index_hash reads no more than 32 bytes of the name:
 * DR2_BREAKPOINT_MATCHES and DR3_...), and each keeps a slot of its own.
 */
static struct event_cache_set *set_of(struct pmudb *db, uint32_t key)
{
	return &db->event_cache[key % EVENT_CACHE_SETS];
}

const struct bare_encoding *event_cache_find(struct pmudb *db, uint32_t key, const char *name, size_t n,
					     size_t avail)
{
	struct event_cache_set *set = set_of(db, key);
	for (int way = 0; way < EVENT_CACHE_WAYS; way++) {
		if (atomic_load_explicit(&set->key[way], memory_order_relaxed) != key)
			continue;
		const struct bare_encoding *b = atomic_load_explicit(&set->bare[way], memory_order_acquire);
		if (!b || !bare_named(b, name, n, avail))
			continue;
		/* to the front: the next strings, mostly of the same event,
		 * find it at the first way, and the loop's exit is predicted.
		 * A lookup between the stores at worst misses. */
		if (way) {
			const struct bare_encoding *first = atomic_load_explicit(&set->bare[0], memory_order_relaxed);
			uint32_t first_key = atomic_load_explicit(&set->key[0], memory_order_relaxed);
			atomic_store_explicit(&set->bare[way], first, memory_order_release);
			atomic_store_explicit(&set->key[way], first_key, memory_order_relaxed);
			atomic_store_explicit(&set->bare[0], b, memory_order_release);
			atomic_store_explicit(&set->key[0], key, memory_order_relaxed);
		}
		return b;
	}
	return NULL;
}

void event_cache_add(struct pmudb *db, uint32_t key, const struct bare_encoding *b)
{
	/* the newest first, the others a way down, the last out */
	struct event_cache_set *set = set_of(db, key);
	for (int way = EVENT_CACHE_WAYS - 1; way > 0; way--) {
		atomic_store_explicit(&set->bare[way], atomic_load_explicit(&set->bare[way - 1], memory_order_relaxed),
				      memory_order_release);
		atomic_store_explicit(&set->key[way], atomic_load_explicit(&set->key[way - 1], memory_order_relaxed),
				      memory_order_relaxed);
	}
	atomic_store_explicit(&set->bare[0], b, memory_order_release);
	atomic_store_explicit(&set->key[0], key, memory_order_relaxed);
}
