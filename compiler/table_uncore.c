/*
 * table_uncore.c - loads the sections 'uncore_units' and 'uncore_pmus':
 * which kernel PMU a vendor list's uncore Unit is, and which of the
 * kernel's format attributes each kernel PMU of a µarch has.
 *
 *   uncore_units:                    # perf's names for Units it does not
 *     - {unit: CBO, pmu: uncore_cbox}  # call uncore_UNIT (jevents.py)
 *   uncore_pmus:
 *     - uarch: [sapphirerapids, emeraldrapids]
 *       pmu: uncore_cha              # the kernel PMU, as perf names it
 *       file: arch/x86/events/intel/uncore_snbep.c   # within the kernel source
 *       formats: spr_uncore_cha_formats_attr   # the driver's array, or
 *       # attrs: [event8, umask8]    # its DEFINE_UNCORE_FORMAT_ATTR symbols
 *       wide_umask: umask_ext4       # optional: the layout of a vendor UMask
 *                                    # wider than the PMU's umask (SPR's IIO)
 *       why: spr_uncore_chabox (uncore_snbep.c:5960) sets this format group
 *     - uarch: freescale/imx8mm/sys  # a system PMU's folder: no CPU of its own
 *       pmu: imx8_ddr
 *       name: imx8mm_ddr             # optional: the catalog PMU's name
 *       sysfs: "imx8_ddr*"           # optional: its sysfs names as perf
 *                                    # matches them, where not KPMU_N
 *
 * The formats themselves are read from the kernel source the build is
 * given (--kernel-source, kernel_formats.c): the table says which, the
 * kernel what they are.  Without a kernel source or a vendor tree the
 * section is noted and left out.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/kernel_formats.h"
#include "compiler/sections.h"
#include "compiler/vendor_uncore.h"

static const char *const unit_keys[] = { "unit", "pmu", "why", NULL };
static const char *const pmu_keys[] = { "uarch", "pmu", "file", "formats", "attrs", "wide_umask", "like", "boxes", "name",
					"sysfs", "why", NULL };

int uncore_units_apply(struct ydoc *d, yaml_node_t *list, struct model *m)
{
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		yaml_node_t *n = ydoc_node(d, *it);
		struct uncore_unit u = {0};
		char *why = NULL;
		int r = ydoc_expect_mapping(d, n, "an uncore_units entry", unit_keys)
			|| ydoc_field_string(d, n, "unit", true, &u.unit) || ydoc_field_string(d, n, "pmu", true, &u.pmu)
			|| ydoc_field_string(d, n, "why", true, &why);
		free(why);
		if (r) {
			free(u.unit);
			free(u.pmu);
			return -1;
		}
		*(struct uncore_unit *)vec_push(&m->uncore_units) = u;
	}
	return 0;
}

/* The names of NODE: one scalar, or a list of them, into OUT. */
static int names(struct ydoc *d, yaml_node_t *node, const char *key, struct pmu_names *out)
{
	if (node->type == YAML_SCALAR_NODE)
		return ydoc_string(d, node, key, (char **)vec_push(out));
	if (ydoc_expect_sequence(d, node, key))
		return -1;
	for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++)
		if (ydoc_string(d, ydoc_node(d, *it), key, (char **)vec_push(out)))
			return -1;
	return 0;
}

static int apply_pmu(struct ydoc *d, yaml_node_t *n, struct model *m)
{
	struct uncore_spec spec = {0};
	char *file = NULL, *array = NULL, *why = NULL;
	yaml_node_t *uarchs = NULL, *attrs = NULL;
	int r = ydoc_expect_mapping(d, n, "an uncore_pmus entry", pmu_keys)
		|| !(uarchs = ydoc_require(d, n, "uarch", "an uncore_pmus entry"))
		|| names(d, uarchs, "uarch", &spec.uarchs)
		|| ydoc_field_string(d, n, "pmu", true, &spec.pmu)
		|| ydoc_field_string(d, n, "file", true, &file)
		|| ydoc_field_string(d, n, "formats", false, &array)
		|| ydoc_field_string(d, n, "like", false, &spec.like)
		|| ydoc_field_string(d, n, "wide_umask", false, &spec.wide_umask)
		|| ydoc_field_string(d, n, "why", true, &why)
		|| ydoc_field_string(d, n, "boxes", false, &spec.boxes)
		|| ydoc_field_string(d, n, "name", false, &spec.name)
		|| ydoc_field_string(d, n, "sysfs", false, &spec.sysfs)
		|| ((attrs = ydoc_get(d, n, "attrs")) && names(d, attrs, "attrs", &spec.attrs));
	if (!r && spec.boxes && strcmp(spec.boxes, "discovery"))
		r = ydoc_fail(d, ydoc_get(d, n, "boxes"), "unknown 'boxes' value '%s' (expected discovery)", spec.boxes);
	if (!r && spec.name && spec.uarchs.count != 1)
		r = ydoc_fail(d, n, "'name' names the PMU of one µarch: this entry has %zu", spec.uarchs.count);
	if (!r && !array == !attrs)
		r = ydoc_fail(d, n, "an uncore_pmus entry names its formats by 'formats' (the driver's array) or"
				    " 'attrs' (its symbols), one of the two");
	if (!r && !m->kernel_source) {
		static bool said;
		if (!said)
			model_note(m, "%s:%zu: uncore_pmus: no --kernel-source: the vendors' uncore PMUs are left out",
				   d->path, n->start_mark.line + 1);
		said = true;
	} else if (!r && m->vendor_tree) {
		spec.file = file;
		file = NULL;
		spec.array = array;
		array = NULL;
		spec.at = xprintf("%s:%zu", d->path, n->start_mark.line + 1);
		char *error = NULL;
		r = vendor_uncore_make(m, &spec, &error);
		if (r)
			r = ydoc_fail(d, n, "%s", error);
		free(error);
	}
	vendor_uncore_spec_free(&spec);
	free(file);
	free(array);
	free(why);
	return r;
}

int uncore_pmus_apply(struct ydoc *d, yaml_node_t *list, struct model *m)
{
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++)
		if (apply_pmu(d, ydoc_node(d, *it), m))
			return -1;
	return 0;
}
