/*
 * cache_slot.h - the slot of a handle's lookup caches (the PMUs found by
 * name, the events found by "PMU::EVENT"): one 64-bit word holding the
 * hash of the name asked and what it found, so that a slot is read and
 * written whole, without a lock.  A hit is only a candidate: the caller
 * checks the names of what it points at, so a slot another thread is
 * overwriting, or another name with the same hash, costs the lookup the
 * cache stands in for, never a wrong answer.
 */
#ifndef PMUDB_CACHE_SLOT_H
#define PMUDB_CACHE_SLOT_H

#include <stdatomic.h>
#include <stdint.h>

/* Notes FOUND (not 0) for HASH. */
static inline void cache_slot_put(_Atomic uint64_t *slot, uint32_t hash, uint32_t found)
{
	atomic_store_explicit(slot, (uint64_t)hash << 32 | found, memory_order_relaxed);
}

/* What was noted for HASH, or 0. */
static inline uint32_t cache_slot_get(_Atomic uint64_t *slot, uint32_t hash)
{
	uint64_t seen = atomic_load_explicit(slot, memory_order_relaxed);
	return seen >> 32 == hash ? (uint32_t)seen : 0;
}

#endif
