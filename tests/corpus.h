/*
 * corpus.h - event strings built from libpfm's own enumeration: every event
 * alone, with each unit mask, with each pair of unit masks, with each
 * modifier at 0 and 1 (boolean) or at its bounds and one past them
 * (integer) (an event libpfm refuses alone: the perf_events layer's also on
 * the first unit mask it takes alone), each unit mask with each of the
 * PMU's modifiers the same way, attributes given more than once (each unit
 * mask twice, the first three times and around another, each boolean
 * modifier as m:m, m=0:m=0:m and m=1:m=0), unit masks given as numbers
 * (:0xff, in and past every width, alone, twice, beside a named one and
 * each PMU modifier), a seeded random sample per event (unit-mask triples
 * in any order and case, with two or three modifiers at random values),
 * libpfm's 64-attribute limit (once per PMU, on its first event: past it
 * each refusal libpfm's parser makes and a raw unit mask, which counts), a
 * too-wide raw unit mask among other refusals (once per PMU), the dotted
 * names a vendor's list gives for an event where reconciling found them
 * different or added them (L2_LD.SELF.PREFETCH.E_STATE, which libpfm reads
 * as the event and three unit masks), alone and with u=1, a fixed
 * list of malformed strings, and every byte below '-' (the blanks and ','
 * among them) put at the ends, in the names and attributes, and at every
 * 16-byte chunk's edge of a string that encodes.
 */
#ifndef PMUDB_TESTS_CORPUS_H
#define PMUDB_TESTS_CORPUS_H

#include "pmudb.h"

/* GROUP is the PMU's family group ("intel_core" ...) or "malformed". */
typedef void (*corpus_fn)(void *ctx, const char *group, const char *event);

/* Which shapes: the first ones above, each unit mask with the modifiers,
 * the repeated attributes (which test libpfm's parser, not encodings), the
 * raw unit masks, the random sample, the attribute limit, the vendors'
 * dotted names. */
enum corpus_shapes {
	CORPUS_BASE = 1, CORPUS_UMASK_MODIFIERS = 2, CORPUS_REPEATS = 4, CORPUS_RAW_UMASKS = 8,
	CORPUS_RANDOM = 16, CORPUS_ATTR_LIMIT = 32, CORPUS_VENDOR_NAMES = 64,
	CORPUS_ALL = CORPUS_BASE | CORPUS_UMASK_MODIFIERS | CORPUS_REPEATS | CORPUS_RAW_UMASKS | CORPUS_RANDOM
		     | CORPUS_ATTR_LIMIT | CORPUS_VENDOR_NAMES,
};

/* libpfm must be initialised (LIBPFM_ENCODE_INACTIVE=1); DB gives the
 * measured ranges of integer modifiers.  ONLY_PMU: one PMU, or NULL.
 * SHAPES: an or of enum corpus_shapes; the first shapes and the
 * malformed strings come always. */
void corpus_generate(pmudb_t *db, const char *only_pmu, unsigned shapes, corpus_fn fn, void *ctx);

#endif
