/*
 * table_match.c - PMU names and globs in the tables, resolved against the
 * model, for the section loaders.
 */
#include "sections.h"

int section_match_pmus(struct ydoc *d, yaml_node_t *node, struct model *m, const char *pattern,
		       struct pmu_list *out)
{
	model_match_pmus(m, pattern, out);
	if (!out->count)
		return ydoc_fail(d, node, "unknown PMU '%s': neither libpfm %s nor the vendor_pmus section has it",
				 pattern, m->libpfm_version);
	return 0;
}
