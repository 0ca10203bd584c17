/*
 * blobs.c - see blobs.h.
 */
#include "tests/fuzz/blobs.h"

#include <string.h>

#include "catalog/catalog.h"
#include "catalog/packed.h"
#include "catalog/unpack.h"
#include "tests/fuzz/fuzz.h"

void fuzz_blob_table(const unsigned char *blob, size_t size)
{
	struct event_table t = { .blob = blob, .size = size };
	const char *why = NULL;
	if (!unpack_table(&t, &why)) {
		if (t.nevents < 0 || t.nevents > PACKED_MAX_EVENTS || t.nsets < 0)
			fuzz_fail("a table of %d events and %d sets", t.nevents, t.nsets);
		for (int e = 0; e < t.nevents; e++) {
			struct event *ev = NULL;
			if (unpack_event(&t, e, &ev, &why))
				continue;
			if (!ev || !ev->name || !ev->modifiers || ev->numasks < 0 || ev->numasks > MAX_UMASKS
			    || ev->modifiers->count > MAX_MODIFIERS)
				fuzz_fail("event %d: decoded out of its limits", e);
			/* what the encoder walks without checks */
			for (int u = 0; u < ev->numasks; u++)
				for (int k = 0; k < ev->umasks[u].nimplied; k++)
					if (ev->umasks[u].implied[k].modifier >= ev->modifiers->count)
						fuzz_fail("event %d: unit mask %d implies modifier %d of %d", e, u,
							  ev->umasks[u].implied[k].modifier, ev->modifiers->count);
		}
	} else if (!why) {
		fuzz_fail("a table refused without a reason");
	}
	arena_free(&t.arena);
}

void fuzz_blob_aliases(unsigned nevents, const unsigned char *blob, size_t size)
{
	struct event_table t = { .nevents = (int)nevents };
	const char *why = NULL;
	if (!unpack_aliases(&t, blob, size, &why)) {
		for (int i = 0; i < t.naliases; i++)
			if (!t.aliases[i].name || t.aliases[i].event < 0 || t.aliases[i].event >= t.nevents)
				fuzz_fail("alias %d: no name, or event %d of %d", i, t.aliases[i].event, t.nevents);
	} else if (!why) {
		fuzz_fail("aliases refused without a reason");
	}
	arena_free(&t.arena);
}

void fuzz_blob_directory(const unsigned char *dir, size_t size)
{
	uint32_t npmus, nslots, ntables;
	if (unpack_directory(dir, size, &npmus, &nslots, &ntables))
		return;
	for (uint32_t h = 0; h < nslots; h++)
		directory_slot(dir, h);
	const char *end = (const char *)dir + size;
	for (uint32_t i = 0; i < npmus; i++) {
		const char *name;
		int64_t id;
		if (unpack_directory_entry(dir, size, nslots, npmus, (int)i, &name, &id))
			continue;
		if (name < (const char *)dir || name >= end || !memchr(name, '\0', (size_t)(end - name)))
			fuzz_fail("directory entry %u: a name outside the blob", i);
		struct pmu p;
		int64_t table;
		const char *why = NULL;
		if (unpack_directory_pmu(dir, size, nslots, npmus, ntables, (int)i, &p, &table, &why)) {
			if (!why)
				fuzz_fail("directory entry %u: refused without a reason", i);
			continue;
		}
		/* what the runtime uses unchecked */
		if (!p.description || !p.kind || !p.family_name || !p.family_group || table < 1 || table > ntables
		    || p.supported_plm > PLM_ALL || p.perf_type < -1 || p.num_counters < 0 || p.num_fixed_counters < 0)
			fuzz_fail("directory entry %u: a row out of its limits", i);
		const char *strings[] = { p.description, p.kind, p.family_name, p.family_group, p.source, p.like,
					  p.sysfs_name };
		for (size_t k = 0; k < sizeof(strings) / sizeof(strings[0]); k++)
			if (strings[k] && (strings[k] < (const char *)dir || strings[k] >= end
					   || !memchr(strings[k], '\0', (size_t)(end - strings[k]))))
				fuzz_fail("directory entry %u: a string outside the blob", i);
	}
}
