/*
 * table_families.c - assigns each PMU its encoding family from the 'families'
 * section of the tables.
 *
 * libpfm's API does not say which of its encoders serves a PMU; the runtime
 * needs it to pick one.  Entries are matched in order and the first family
 * whose glob matches a PMU name wins, so a specific entry goes first.
 *
 *   families:
 *     - family: intel_x86        # encoder name
 *       group: intel_core        # family group in reports
 *       pmus: [ix86arch, "skl", "icl"]
 *       why: libpfm lib/pfmlib_intel_skl.c uses the intel_x86 encoder
 *
 * A name or glob that matches no PMU is noted, not an error: the table
 * names the PMUs of newer libpfm releases too.  Every PMU must end up
 * with a family (family_check.c).
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/families.h"
#include "compiler/sections.h"

static const char *const family_keys[] = { "family", "group", "pmus", "why", NULL };

static int apply_entry(struct ydoc *d, yaml_node_t *entry, struct model *m)
{
	char *family = NULL, *group = NULL, *why = NULL;
	yaml_node_t *pmus = NULL;
	int r = ydoc_expect_mapping(d, entry, "a families entry", family_keys)
		|| ydoc_field_string(d, entry, "family", true, &family)
		|| ydoc_field_string(d, entry, "group", true, &group)
		|| ydoc_field_string(d, entry, "why", true, &why)
		|| !(pmus = ydoc_require(d, entry, "pmus", "a families entry"))
		|| ydoc_expect_sequence(d, pmus, "'pmus'");
	/* a name the runtime does not know would encode nothing */
	if (!r && !family_by_name(family))
		r = ydoc_fail(d, ydoc_get(d, entry, "family"), "unknown encoding family '%s' (pmudb has encoders for: %s)",
			      family, family_names());

	for (yaml_node_item_t *it = r ? NULL : pmus->data.sequence.items.start;
	     it && it < pmus->data.sequence.items.top && !r; it++) {
		yaml_node_t *pn = ydoc_node(d, *it);
		char *pattern = NULL;
		struct pmu_list matched = {0};
		r = ydoc_string(d, pn, "pmus", &pattern);
		if (!r)
			model_match_pmus(m, pattern, &matched);
		/* a newer libpfm's PMU: one file serves every release (a PMU
		 * left without a family is caught by family_check.c) */
		if (!r && !matched.count)
			model_note(m, "%s:%zu:%zu: families: libpfm %s has no PMU '%s': left out of the entry", d->path,
				   pn->start_mark.line + 1, pn->start_mark.column + 1, m->libpfm_version, pattern);
		for (size_t i = 0; !r && i < matched.count; i++) {
			struct pmu *p = matched.items[i];
			if (p->family)
				continue;	/* an earlier entry was more specific */
			p->family = xstrdup(family);
			p->harness_group = xstrdup(group);
		}
		free(matched.items);
		free(pattern);
	}
	free(family);
	free(group);
	free(why);
	return r;
}

int families_apply(struct ydoc *d, yaml_node_t *list, struct model *m)
{
	free(m->families_at);
	m->families_at = xprintf("%s:%zu:%zu", d->path, list->start_mark.line + 1, list->start_mark.column + 1);
	if (!m->families_file)
		m->families_file = xstrdup(d->path);	/* where a missing family is to be added */
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++)
		if (apply_entry(d, ydoc_node(d, *it), m))
			return -1;
	return 0;
}
