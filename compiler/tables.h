/*
 * tables.h - the YAML tables in tables/: encoding families, the CPUID map
 * and overrides, applied to the model after libpfm has been ingested.
 *
 * Every file is a mapping with any of three top-level keys:
 *   families:  which encoding family each PMU belongs to  (families.c)
 *   cpuid:     CPUID (vendor, family, model, stepping) -> PMUs (cpuid_map.c)
 *   overrides: add, change, retire or alias events and unit masks (overrides.c)
 * Files are read in name order; within a file, in the order above.
 */
#ifndef PMUDB_COMPILER_TABLES_H
#define PMUDB_COMPILER_TABLES_H

#include "model.h"
#include "yaml_doc.h"

/* Applies every DIR/\*.yaml.  Returns 0, or -1 with *error malloc'd
 * ("FILE:LINE:COLUMN: what is wrong"). */
int tables_apply_dir(struct model *m, const char *dir, char **error);

/* Applies one file; the same contract. */
int tables_apply_file(struct model *m, const char *path, char **error);

/* The sections, each given the list under its key. */
int families_apply(struct ydoc *d, yaml_node_t *list, struct model *m);
int cpuid_map_load(struct ydoc *d, yaml_node_t *list, struct model *m);
int overrides_apply(struct ydoc *d, yaml_node_t *list, struct model *m);

/* Checks done once all files are in: every PMU has a family, no two CPUID
 * entries overlap with different PMUs. */
int families_check(struct model *m, char **error);

/* PMUs whose name matches the glob PATTERN, case-insensitively; fails at
 * NODE when there are none.  Fills OUT (caller frees items). */
struct pmu_list { struct pmu **items; size_t count, cap; };
int tables_match_pmus(struct ydoc *d, yaml_node_t *node, struct model *m, const char *pattern,
		      struct pmu_list *out);

#endif
