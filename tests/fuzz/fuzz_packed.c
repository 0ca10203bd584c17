/*
 * fuzz_packed.c - the packed form of a catalog (catalog/packed.h), below SQLite
 * and zstd: a catalog's blobs are checksummed zstd frames, so mutating the
 * file (fuzz_catalog_bytes) rarely reaches the reader of what is inside.
 * Here the bytes are the unpacked blob itself, read by catalog/unpack.c as the
 * runtime reads it.  The first byte picks what the rest is:
 *   0  an event table: unpack_table, then unpack_event on every event
 *   1  an aliases blob (the second byte: how many events its table has):
 *      unpack_aliases
 *   2  the PMU directory: unpack_directory, every slot and every entry,
 *      with the PMU row it carries (unpack_directory_pmu)
 *   3  a zstd frame: packed_open as a table, then as mode 0
 * Each blob is in a buffer of its exact size, so that a read past its end
 * is an AddressSanitizer report.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "tests/fuzz/fuzz.h"
#include "catalog/packed.h"
#include "catalog/unpack.h"

static void table(unsigned char *blob, size_t size)
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

static void aliases(unsigned nevents, unsigned char *blob, size_t size)
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

static void directory(const unsigned char *dir, size_t size)
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int mode = data[0] % 4;
	data++;
	size--;
	if (mode == 1) {
		if (size < 1)
			return 0;
		unsigned nevents = data[0];
		data++;
		size--;
		unsigned char *blob = malloc(size ? size : 1);
		memcpy(blob, data, size);
		aliases(nevents, blob, size);
		free(blob);
		return 0;
	}
	unsigned char *blob = NULL;
	if (mode == 3) {
		size_t n = 0;
		blob = packed_open(NULL, data, size, PACKED_TABLE_MAGIC, &n);
		size = n;
	} else {
		blob = malloc(size ? size : 1);
		memcpy(blob, data, size);
	}
	if (blob && mode == 2)
		directory(blob, size);
	else if (blob)
		table(blob, size);
	free(blob);
	return 0;
}
