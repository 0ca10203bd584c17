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

/* The key of PMU::EVENT from the name_index_hash of each name: the hashes
 * a miss goes on to look the names up with. */
uint32_t event_cache_key(uint32_t pmu_hash, uint32_t event_hash);

/* True, with *P and *EV set, when the cache knows PNAME::NAME (PLEN and
 * LEN bytes) by KEY. */
bool event_cache_find(struct pmudb *db, uint32_t key, const char *pname, size_t plen, const char *name, size_t len,
		      const struct pmu **p, const struct event **ev);

/* Notes that PNAME::NAME (KEY) is event E of PMU INDEX, found by name. */
void event_cache_add(struct pmudb *db, uint32_t key, const char *pname, const char *name, int index, int e);

#endif
