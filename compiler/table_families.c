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
 */
#include <stdlib.h>
#include <string.h>

#include "../db/family_encoders.h"
#include "sections.h"

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
		r = ydoc_string(d, pn, "pmus", &pattern) || section_match_pmus(d, pn, m, pattern, &matched);
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
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++)
		if (apply_entry(d, ydoc_node(d, *it), m))
			return -1;
	return 0;
}

/* Lists every PMU without a family at once: a newer libpfm brings several. */
int families_check(struct model *m, char **error)
{
	char *list = NULL;
	size_t missing = 0;
	for (size_t i = 0; i < m->pmus.count; i++) {
		if (m->pmus.items[i].family)
			continue;
		char *longer = xprintf("%s%s%s", list ? list : "", list ? ", " : "", m->pmus.items[i].name);
		free(list);
		list = longer;
		missing++;
	}
	if (!missing)
		return 0;
	*error = xprintf("%s: %zu PMU%s of libpfm %s %s no encoding family: %s; add %s to this 'families' section",
			 m->families_at ? m->families_at : "tables/families.yaml:1:1", missing, missing == 1 ? "" : "s",
			 m->libpfm_version, missing == 1 ? "has" : "have", list, missing == 1 ? "it" : "them");
	free(list);
	return -1;
}
