/*
 * event_cache.c - see event_cache.h.
 */
#include "event_cache.h"

#include "family_encoders.h"
#include "scan.h"

/* A slot: hash << 32 | (PMU index + 1) << EVENT_BITS | event position. */
#define EVENT_BITS 20
#define PMU_LIMIT ((1 << (32 - EVENT_BITS)) - 1)

/* The word at S with only its first N bytes (up to eight), their case
 * folded as name_index_hash folds it. */
static uint64_t head(const char *s, size_t n)
{
	uint64_t w = scan_word(s) | 0x2020202020202020ull;
	return n >= 8 ? w : w & ((1ull << 8 * n) - 1);
}

/* Not every byte: the first and the last eight of each name, and both
 * lengths, which tell apart the PMUs (amd64_k8_revb, amd64_k8_revc) and
 * the events of a table but for a few (then the slot is shared); the
 * names are compared on a hit anyway. */
uint32_t event_cache_hash(const char *pname, size_t plen, const char *name, size_t len)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	uint64_t ptail = plen > 8 ? head(pname + plen - 8, 8) : 0, tail = len > 8 ? head(name + len - 8, 8) : 0;
	uint64_t h = (head(pname, plen) * k) ^ (ptail * (k + 6)) ^ (head(name, len) * (k + 2)) ^ (tail * (k + 4))
		     ^ ((plen << 16 | len) * k);
	h ^= h >> 29;
	h *= k;
	return (uint32_t)(h >> 32);
}

/* NAME (LEN bytes) is the catalog's S (S_LEN bytes), case aside. */
static bool named(const char *s, size_t s_len, const char *name, size_t len)
{
	return s_len == len && (!memcmp(s, name, len) || same_name(s, name));
}

bool event_cache_find(struct pmudb *db, uint32_t hash, const char *pname, size_t plen, const char *name, size_t len,
		      const struct pmu **p, const struct event **ev)
{
	uint64_t seen = atomic_load_explicit(&db->event_cache[hash % EVENT_CACHE_SLOTS], memory_order_relaxed);
	if (seen >> 32 != hash || !(uint32_t)seen)
		return false;
	int index = (int)((uint32_t)seen >> EVENT_BITS) - 1;
	int e = (int)(seen & ((1u << EVENT_BITS) - 1));
	struct pmu *pmu = catalog_pmu_read(db, index);
	if (!pmu || !catalog_table_read(pmu))
		return false;
	const struct event *found = catalog_event_read(pmu, e);
	if (!found || !named(pmu->name, pmu->name_len, pname, plen) || !named(found->name, (size_t)found->name_len, name, len))
		return false;
	*p = pmu;
	*ev = found;
	return true;
}

void event_cache_add(struct pmudb *db, uint32_t hash, const char *pname, const char *name, int index, int e)
{
	struct pmu *pmu = catalog_pmu_read(db, index);
	if (!pmu || index >= PMU_LIMIT || e < 0 || e >= 1 << EVENT_BITS || (pmu->family && pmu->family->match_name))
		return;
	/* found by these names themselves, so any spelling of them finds it */
	if (!same_name(pmu->name, pname) || !same_name(pmu->table->events[e].name, name))
		return;
	uint64_t slot = (uint64_t)hash << 32 | (uint64_t)(index + 1) << EVENT_BITS | (uint64_t)e;
	atomic_store_explicit(&db->event_cache[hash % EVENT_CACHE_SLOTS], slot, memory_order_relaxed);
}
