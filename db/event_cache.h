/*
 * event_cache.h - the events a handle found by "PMU::EVENT", by the
 * names' hashes: a probe and two name comparisons instead of probing for
 * the PMU, then for the event (two fifths of what a warm encoding spent
 * finding its event).
 *
 * A slot (cache_slot.h) holds the PMU's index and the event's position.
 * An entry is made only for an event found by its own name (not an alias,
 * nor a PMU whose names are numbers), and taken only when the PMU and the
 * event bear the names asked for, case aside: a name lookup gives the same
 * answer for every spelling of a name, so a hit gives what the lookups
 * would.
 */
#ifndef PMUDB_EVENT_CACHE_H
#define PMUDB_EVENT_CACHE_H

#include "catalog.h"

/* The key of "PMU::EVENT", the N bytes at SPAN (the PMU's name, two bytes
 * between, the event's name): one hash of the whole, which a hit needs
 * and a miss has no use for. */
static inline uint32_t event_cache_key(const char *span, size_t n)
{
	return name_index_hash(span, n);
}

/* True, with *P and *EV set, when the cache knows PNAME::NAME (PLEN and
 * LEN bytes, within the span KEY was made of) by KEY. */
bool event_cache_find(struct pmudb *db, uint32_t key, const char *pname, size_t plen, const char *name, size_t len,
		      const struct pmu **p, const struct event **ev);

/* Notes that PNAME::NAME (KEY) is event E of PMU INDEX, found by name. */
void event_cache_add(struct pmudb *db, uint32_t key, const char *pname, const char *name, int index, int e);

#endif
