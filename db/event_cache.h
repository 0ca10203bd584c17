/*
 * event_cache.h - the events a handle found by "PMU::EVENT", by a hash of
 * a few words of those names: a cheap hash and two name comparisons
 * instead of hashing both names whole and probing for the PMU, then for
 * the event (two fifths of what a warm encoding spent finding its event).
 *
 * A slot holds the hash, the PMU's index and the event's position.  An
 * entry is made only for an event found by its own name (not an alias,
 * nor a PMU whose names are numbers), and taken only when the PMU and the
 * event bear the names asked for, case aside: a name lookup gives the same
 * answer for every spelling of a name, so a hit gives what the lookups
 * would.  A slot being overwritten by another thread, or another name with
 * the same hash, costs the lookups, never a wrong answer.
 */
#ifndef PMUDB_EVENT_CACHE_H
#define PMUDB_EVENT_CACHE_H

#include "catalog.h"

/* The hash of PNAME::NAME (PLEN and LEN bytes), both in a working copy
 * padded for scan.h. */
uint32_t event_cache_hash(const char *pname, size_t plen, const char *name, size_t len);

/* True, with *P and *EV set, when the cache knows PNAME::NAME (HASH). */
bool event_cache_find(struct pmudb *db, uint32_t hash, const char *pname, size_t plen, const char *name, size_t len,
		      const struct pmu **p, const struct event **ev);

/* Notes that PNAME::NAME (HASH) is event E of PMU INDEX, found by name. */
void event_cache_add(struct pmudb *db, uint32_t hash, const char *pname, const char *name, int index, int e);

#endif
