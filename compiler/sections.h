/*
 * sections.h - the loaders of the sections of the YAML tables, one file
 * each (table_*.c), called by tables.c in a fixed order.
 */
#ifndef PMUDB_COMPILER_SECTIONS_H
#define PMUDB_COMPILER_SECTIONS_H

#include "compiler/model.h"
#include "compiler/yaml_doc.h"

/* Each gets the list under its key; returns 0, or -1 with d->error set. */
int families_apply(struct ydoc *d, yaml_node_t *list, struct model *m);
int vendor_pmus_apply(struct ydoc *d, yaml_node_t *list, struct model *m);
int cpuid_map_load(struct ydoc *d, yaml_node_t *list, struct model *m);
int uncore_units_apply(struct ydoc *d, yaml_node_t *list, struct model *m);
int uncore_pmus_apply(struct ydoc *d, yaml_node_t *list, struct model *m);
int overrides_apply(struct ydoc *d, yaml_node_t *list, struct model *m);
int differences_apply(struct ydoc *d, yaml_node_t *list, struct model *m);
int counters_apply(struct ydoc *d, yaml_node_t *list, struct model *m);
int fixed_rules_apply(struct ydoc *d, yaml_node_t *list, struct model *m);

/* The PMUs whose name matches the glob PATTERN; fails at NODE when there are
 * none, naming where PMUs come from. */
int section_match_pmus(struct ydoc *d, yaml_node_t *node, struct model *m, const char *pattern,
		       struct pmu_list *out);
/* The same, or with LIBPFM_ONLY libpfm's own PMUs only, none being no error. */
int section_match_libpfm_pmus(struct ydoc *d, yaml_node_t *node, struct model *m, const char *pattern,
			      bool libpfm_only, struct pmu_list *out);

#endif
