/*
 * event_cache.c - see event_cache.h.
 */
#include "event_cache.h"

#include <string.h>

#include "cache_slot.h"
#include "family_encoders.h"

/* What a slot holds: (PMU index + 1) << EVENT_BITS | event position. */
#define EVENT_BITS 20
#define PMU_LIMIT ((1 << (32 - EVENT_BITS)) - 1)

/* NAME (LEN bytes) is the catalog's S (S_LEN bytes), case aside. */
static bool named(const char *s, size_t s_len, const char *name, size_t len)
{
	return s_len == len && same_name_filed(s, name, len);
}

/*
 * The slots KEY may be in: a set of WAYS, one cache line, the event found
 * last first.  With sets of two, a third event in a set evicted one of
 * the others, and the AMD core strings of the bench's corpus (1,651
 * events) met a third of their events' first strings missing, each a
 * lookup of the PMU and the event; some events share a key too
 * (name_index_hash reads no more than 32 bytes of the span:
 * DR2_BREAKPOINT_MATCHES and DR3_...), and each keeps a slot of its own.
 */
#define WAYS 8
_Static_assert(EVENT_CACHE_SLOTS % WAYS == 0 && WAYS * sizeof(uint64_t) == 64, "a set is one cache line");

static _Atomic uint64_t *set_of(struct pmudb *db, uint32_t key)
{
	return &db->event_cache[key % (EVENT_CACHE_SLOTS / WAYS) * WAYS];
}

/* The event of slot FOUND, when it is PNAME::NAME. */
static bool take(struct pmudb *db, uint32_t found, const char *pname, size_t plen, const char *name, size_t len,
		 const struct pmu **p, const struct event **ev)
{
	struct pmu *pmu = catalog_pmu_read(db, (int)(found >> EVENT_BITS) - 1);
	if (!pmu || !catalog_table_read(pmu))
		return false;
	const struct event *event = catalog_event_read(pmu, (int)(found & ((1u << EVENT_BITS) - 1)));
	/* what the encoding reads next, asked for at once: otherwise each
	 * of these lines is a miss that waits for the one before it (a warm
	 * pass after other work meets every event cold) */
	if (event) {
		__builtin_prefetch(atomic_load_explicit(&event->bare, memory_order_relaxed));
		__builtin_prefetch(event->umask_by_name.slots);
		__builtin_prefetch(event->umasks);
		/* its third and fourth lines: the rules, pairs and measured
		 * registers a unit mask's encoding reads */
		__builtin_prefetch(&event->rule_groups);
		__builtin_prefetch(&event->filter_base);
	}
	if (!event || !named(pmu->name, pmu->name_len, pname, plen) || !named(event->name, (size_t)event->name_len, name, len))
		return false;
	*p = pmu;
	*ev = event;
	return true;
}

/* The first way from FROM on whose slot holds KEY, or WAYS. */
static int next_way(_Atomic uint64_t *set, uint32_t key, int from)
{
	for (int way = from; way < WAYS; way++)
		if (cache_slot_get(&set[way], key))
			return way;
	return WAYS;
}

bool event_cache_find(struct pmudb *db, uint32_t key, const char *pname, size_t plen, const char *name, size_t len,
		      const struct pmu **p, const struct event **ev)
{
	_Atomic uint64_t *set = set_of(db, key);
	for (int way = next_way(set, key, 0); way < WAYS; way = next_way(set, key, way + 1)) {
		if (!take(db, cache_slot_get(&set[way], key), pname, plen, name, len, p, ev))
			continue;
		/* to the front: the next strings, mostly of the same event,
		 * find it at the first way, and the loop's exit is predicted
		 * (found at any way, it mispredicted at each encoding).  Two
		 * slot stores: a lookup between them at worst misses. */
		if (way) {
			uint64_t found = atomic_load_explicit(&set[way], memory_order_relaxed);
			atomic_store_explicit(&set[way], atomic_load_explicit(&set[0], memory_order_relaxed),
					      memory_order_relaxed);
			atomic_store_explicit(&set[0], found, memory_order_relaxed);
		}
		return true;
	}
	return false;
}

void event_cache_add(struct pmudb *db, uint32_t key, const char *pname, const char *name, int index, int e)
{
	struct pmu *pmu = catalog_pmu_read(db, index);
	if (!pmu || index >= PMU_LIMIT || e < 0 || e >= 1 << EVENT_BITS || (pmu->family && pmu->family->match_name))
		return;
	/* found by these names themselves, so any spelling of them finds it */
	if (!same_name(pmu->name, pname) || !same_name(pmu->table->events[e].name, name))
		return;
	/* the newest first, the others a way down, the last out */
	_Atomic uint64_t *set = set_of(db, key);
	for (int way = WAYS - 1; way > 0; way--)
		atomic_store_explicit(&set[way], atomic_load_explicit(&set[way - 1], memory_order_relaxed), memory_order_relaxed);
	cache_slot_put(&set[0], key, (uint32_t)(index + 1) << EVENT_BITS | (uint32_t)e);
}
