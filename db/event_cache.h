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

#include "bare.h"
#include "catalog.h"

/* The key of "PMU::EVENT", the N bytes at NAME. */
static inline uint32_t event_cache_key(const char *name, size_t n)
{
	return name_index_hash(name, n);
}

/* The bare encoding of "PMU::EVENT", the N bytes at NAME (AVAIL bytes
 * readable there), by its KEY; NULL when the cache does not know it. */
const struct bare_encoding *event_cache_find(struct pmudb *db, uint32_t key, const char *name, size_t n,
					     size_t avail);

/* Notes B, found by its own name, whose key is KEY. */
void event_cache_add(struct pmudb *db, uint32_t key, const struct bare_encoding *b);

#endif
