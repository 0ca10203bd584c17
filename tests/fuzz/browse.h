/*
 * browse.h - a catalog used every way the public API allows, for the
 * catalog fuzz targets: what `pmudb pmus`, `list`, `info`, `search`,
 * `detect`, `encode` and `decode` would do with it (browse.c); `export`
 * and `diff` are made of the same calls.
 */
#ifndef PMUDB_FUZZ_BROWSE_H
#define PMUDB_FUZZ_BROWSE_H

#include "pmudb.h"

/* How many answers were PMUDB_ERR_CATALOG: of encodes (with the first
 * one's string and refusal), and of the rest. */
struct browse_result {
	int encode_catalog, other_catalog;
	char first_encode[1200];
};

/* Every PMU, event, unit mask, modifier and finding (up to a bound that
 * keeps one input quick), encodes built from them, each PMU's decoder on
 * a few values, search, and the scopes of a few CPUs.  Crashes, overruns and broken promises of pmudb.h (an
 * unknown code, a NULL where a string is promised, a refusal of more than
 * one line) are findings; refusals are not, they are counted in R. */
void browse(pmudb_t *db, struct browse_result *r);

#endif
