/*
 * tables.h - the YAML tables in tables/: encoding families, the vendor
 * µarchs, the CPUID map and overrides, applied to the model after libpfm
 * (and the vendor tree) have been read.
 *
 * Every file is a mapping with any of four top-level keys, each a list:
 *   families:     which encoding family each PMU belongs to   (table_families.c)
 *   vendor_pmus:  which PMU each vendor µarch becomes         (table_vendor_pmus.c)
 *   cpuid:        CPUID (vendor, family, model, stepping) -> PMUs (table_cpuid.c)
 *   overrides:    add, change, retire or alias events and unit masks (table_overrides.c)
 * Sections are applied in that order, each across all files in name order,
 * so that a section can rely on the ones before it wherever it is written.
 */
#ifndef PMUDB_COMPILER_TABLES_H
#define PMUDB_COMPILER_TABLES_H

#include "model.h"

/* Applies every PATH: a directory of *.yaml files, or one file.  Returns 0,
 * or -1 with *error malloc'd ("FILE:LINE:COLUMN: what is wrong"). */
int tables_apply(struct model *m, char *const *paths, int count, char **error);

#endif
