/*
 * tables.h - the YAML tables in tables/: encoding families, the vendor
 * µarchs, the CPUID map, overrides and known differences, applied to the
 * model around the derive pass.
 *
 * Every file is a mapping with any of these top-level keys, each a list:
 *   families:     which encoding family each PMU belongs to   (table_families.c)
 *   vendor_pmus:  which PMU each vendor µarch becomes         (table_vendor_pmus.c)
 *   cpuid:        CPUID (vendor, family, model, stepping) -> PMUs (table_cpuid.c)
 *   overrides:    add, change, retire or alias events and unit masks (table_overrides.c)
 *   differences:  differences from a vendor list that are not libpfm's mistakes (table_differences.c)
 *   counters, fixed_rules: counter counts no list states, and what Linux puts on a
 *                 fixed counter (table_counters.c; counters.c applies them)
 * The first three are applied before derive (they say what the PMUs are);
 * overrides and differences after it and after the vendor PMUs are made
 * (and before the reconciliation, which they explain), so that what
 * libpfm's encoder was asked about is libpfm's own table and an override
 * corrects the result.  Sections are applied in that order,
 * each across all files in name order.
 */
#ifndef PMUDB_COMPILER_TABLES_H
#define PMUDB_COMPILER_TABLES_H

#include "compiler/model.h"

enum tables_phase { TABLES_BEFORE_DERIVE, TABLES_AFTER_DERIVE };

struct tables;

/* Loads every PATH: a directory of *.yaml files, or one file.  Returns the
 * loaded tables, or NULL with *error malloc'd ("FILE:LINE:COLUMN: ..."). */
struct tables *tables_load(char *const *paths, int count, char **error);

/* Applies the sections of PHASE.  0, or -1 with *error malloc'd. */
int tables_apply(struct tables *t, struct model *m, enum tables_phase phase, char **error);

/* Marks derive_first the PMUs the overrides may touch (by name or glob,
 * a vendor PMU's like PMU for it) and the like PMUs of the vendor PMUs:
 * what applying the tables needs derived.  After TABLES_BEFORE_DERIVE. */
void tables_mark_derive_first(struct tables *t, struct model *m);

void tables_free(struct tables *t);

/* The path of loaded file I (in load order), or NULL past the last. */
const char *tables_path(const struct tables *t, size_t i);

#endif
