/*
 * table_match.c - PMU names and globs in the tables, resolved against the
 * model, for the section loaders.
 */
#include "compiler/sections.h"

#include <stdlib.h>
#include <string.h>

int section_match_pmus(struct ydoc *d, yaml_node_t *node, struct model *m, const char *pattern,
		       struct pmu_list *out)
{
	model_match_pmus(m, pattern, out);
	if (!out->count)
		return ydoc_fail(d, node, "unknown PMU '%s': neither libpfm %s nor the vendor_pmus section has it",
				 pattern, m->libpfm_version);
	return 0;
}

/* With LIBPFM_ONLY (an entry's 'libpfm_only: true', for the tables of a
 * newer libpfm): only the PMUs libpfm itself has, not one the vendor tree
 * made under that name; none is no error but a note, the entry left out. */
int section_match_libpfm_pmus(struct ydoc *d, yaml_node_t *node, struct model *m, const char *pattern,
			      bool libpfm_only, struct pmu_list *out)
{
	if (!libpfm_only)
		return section_match_pmus(d, node, m, pattern, out);
	model_match_pmus(m, pattern, out);
	size_t kept = 0;
	for (size_t i = 0; i < out->count; i++)
		if (!out->items[i]->source)
			out->items[kept++] = out->items[i];
	out->count = kept;
	if (kept)
		return 0;
	/* one note per file and PMU: a newer libpfm's PMU has many entries */
	char *note = xprintf("%s: libpfm %s has no PMU '%s' of its own: its libpfm_only entries are left out", d->path,
			     m->libpfm_version, pattern);
	bool said = false;
	for (size_t i = 0; i < m->notes.count && !said; i++)
		said = !strcmp(m->notes.items[i], note);
	if (!said)
		*(char **)vec_push(&m->notes) = note;
	else
		free(note);
	return 0;
}
