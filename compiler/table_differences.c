/*
 * table_differences.c - loads the 'differences' section: the differences
 * between libpfm and a vendor list that are not libpfm's mistakes, so are
 * recorded instead of corrected.
 *
 *   differences:
 *     - pmu: spr                  # a PMU name or glob
 *       event: INST_RETIRED
 *       umask: ANY                # optional: the whole event when absent
 *       kind: equivalent          # equivalent: both count the same;
 *                                 # by_design: libpfm chose otherwise on purpose
 *                                 # (a default qualifier the vendor's entry
 *                                 # leaves at 0); vendor_error: the vendor's
 *                                 # list is wrong; libpfm's encoding is kept;
 *                                 # kept: libpfm's encoding is kept, the
 *                                 # vendor's not shown right or not statable
 *       why: libpfm counts INST_RETIRED.ANY on a general counter (0x1c0);
 *            Intel's 0x100 is the fixed-counter pseudo-encoding
 *       libpfm_only: true         # optional, as for overrides
 *       xor: 0x200000             # optional: the difference is exactly these
 *       xor1: 0x0                 # config (config1) bits, libpfm's XOR the vendor's
 *
 * pmu, event and umask may be globs (* ? [..]), for a class of differences
 * with one cause; xor and xor1 then keep the class to that cause.
 * The reconciliation (reconcile.c) marks the difference it names with the
 * kind; an entry that names no difference is noted as stale.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/sections.h"

static const char *const keys[] = { "pmu", "event", "umask", "kind", "why", "libpfm_only", "xor", "xor1", NULL };

static int load_entry(struct ydoc *d, yaml_node_t *node, struct model *m)
{
	struct known_difference q = {0};
	struct pmu_list pmus = {0};
	bool libpfm_only = false;
	yaml_node_t *only = NULL;
	int r = ydoc_expect_mapping(d, node, "a differences entry", keys)
		|| ((only = ydoc_get(d, node, "libpfm_only")) && ydoc_bool(d, only, "libpfm_only", &libpfm_only))
		|| ydoc_field_string(d, node, "pmu", true, &q.pmu)
		|| ydoc_field_string(d, node, "event", true, &q.event)
		|| ydoc_field_string(d, node, "umask", false, &q.umask)
		|| ydoc_field_string(d, node, "kind", true, &q.kind)
		|| ydoc_field_string(d, node, "why", true, &q.why)
		|| section_match_libpfm_pmus(d, ydoc_get(d, node, "pmu"), m, q.pmu, libpfm_only, &pmus);
	static const char *const xor_keys[2] = { "xor", "xor1" };
	for (int w = 0; !r && w < 2; w++) {
		yaml_node_t *x = ydoc_get(d, node, xor_keys[w]);
		q.has_xor[w] = x != NULL;
		r = x && ydoc_u64(d, x, xor_keys[w], &q.xor[w]);
	}
	if (!r && strcmp(q.kind, "equivalent") && strcmp(q.kind, "by_design") && strcmp(q.kind, "vendor_error")
	    && strcmp(q.kind, "kept"))
		r = ydoc_fail(d, ydoc_get(d, node, "kind"),
			      "unknown kind '%s' (expected equivalent, by_design, vendor_error or kept)", q.kind);
	bool none = !pmus.count;	/* a libpfm_only entry for a PMU this libpfm lacks */
	free(pmus.items);
	if (r || none) {
		free(q.kind);
		free(q.pmu);
		free(q.event);
		free(q.umask);
		free(q.why);
		return r ? -1 : 0;
	}
	q.file = xstrdup(d->path);
	q.line = (int)node->start_mark.line + 1;
	*(struct known_difference *)vec_push(&m->differences) = q;
	return 0;
}

int differences_apply(struct ydoc *d, yaml_node_t *list, struct model *m)
{
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++)
		if (load_entry(d, ydoc_node(d, *it), m))
			return -1;
	return 0;
}
