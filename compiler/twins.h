/*
 * twins.h - libpfm PMUs that are one event table under several names (the
 * 60 CHA boxes spr_unc_cha0..59, emr on spr's table): what libpfm's
 * encoder says about one says it about all, so derive.c asks it once.
 */
#ifndef PMUDB_COMPILER_TWINS_H
#define PMUDB_COMPILER_TWINS_H

#include "compiler/model.h"

/* The first PMU before P in M whose ingested table is P's (events, unit
 * masks, modifiers, descriptions and codes alike) with the same family,
 * kind and encoding size; NULL when none.  Vendor PMUs have no twin. */
const struct pmu *twins_find(const struct model *m, const struct pmu *p);

/* Copies FROM's derived rules (of its events, unit masks and modifiers)
 * onto TO, whose table is the same, and the config bits the perf encoding
 * clears (a property of the encoder).  The perf type, sysfs names and
 * privilege levels are not copied: they are each PMU's own. */
void twins_copy_rules(struct pmu *to, const struct pmu *from);

#endif
