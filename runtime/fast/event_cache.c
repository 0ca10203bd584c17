/*
 * event_cache.c - see event_cache.h.
 */
#include "runtime/fast/event_cache.h"

/* To the front: the next strings, mostly of the same event, find it at
 * the first way, and the loop's exit is predicted.  A lookup between the
 * stores at worst misses. */
void event_cache_to_front(struct event_cache_set *set, int way, uint32_t key, const struct bare_encoding *b)
{
	const struct bare_encoding *first = atomic_load_explicit(&set->bare[0], memory_order_relaxed);
	uint32_t first_key = atomic_load_explicit(&set->key[0], memory_order_relaxed);
	atomic_store_explicit(&set->bare[way], first, memory_order_release);
	atomic_store_explicit(&set->key[way], first_key, memory_order_relaxed);
	atomic_store_explicit(&set->bare[0], b, memory_order_release);
	atomic_store_explicit(&set->key[0], key, memory_order_relaxed);
}

void event_cache_add(struct pmudb *db, uint32_t key, const struct bare_encoding *b)
{
	/* the newest first, the others a way down, the last out */
	struct event_cache_set *set = event_cache_set_of(db, key);
	for (int way = EVENT_CACHE_WAYS - 1; way > 0; way--) {
		atomic_store_explicit(&set->bare[way], atomic_load_explicit(&set->bare[way - 1], memory_order_relaxed),
				      memory_order_release);
		atomic_store_explicit(&set->key[way], atomic_load_explicit(&set->key[way - 1], memory_order_relaxed),
				      memory_order_relaxed);
	}
	atomic_store_explicit(&set->bare[0], b, memory_order_release);
	atomic_store_explicit(&set->key[0], key, memory_order_relaxed);
}
