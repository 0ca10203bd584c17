/*
 * shared_sets.h - the modifier sets a handle has decoded, found by their
 * content, so that tables whose sets are equal share one decoded copy.
 * Each table's blob packs its own sets, and the core tables of a vendor
 * mostly repeat the same few: the 48 tables a batch of core events reads
 * decode 699 sets of 25 distinct contents, a quarter of the memory
 * unpacked events took.
 *
 * Sets are equal when every modifier has the same name, description and
 * values: a field added to struct modifier is compared without a change
 * here (a pointer among them compares by address, so such sets are simply
 * not shared).  The caller serialises use (the handle's lock).
 */
#ifndef PMUDB_SHARED_SETS_H
#define PMUDB_SHARED_SETS_H

#include <stdint.h>

#include "catalog/model.h"

/* The set equal to SET among SHARED, or NULL; *HASH: SET's, for
 * shared_sets_add. */
const struct modifier_set *shared_sets_find(const struct shared_sets *shared, const struct modifier_set *set,
					    uint64_t *hash);

/* Adds SET (HASH) to SHARED; out of memory, SET is simply not shared. */
void shared_sets_add(struct shared_sets *shared, const struct modifier_set *set, uint64_t hash);

void shared_sets_free(struct shared_sets *shared);

#endif
