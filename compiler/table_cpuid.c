/*
 * table_cpuid.c - loads the 'cpuid' section: which PMUs a CPU has.
 *
 *   cpuid:
 *     - vendor: AuthenticAMD
 *       family: 0x19
 *       model: [0x60, 0x7f]      # one model, or a range [low, high]
 *       stepping: [0, 15]        # optional; all steppings when absent
 *       pmus: [amd64_fam19h_zen4, amd64_rapl]   # names or globs, core PMU first
 *       fallback: [...]          # optional: the PMUs when none of 'pmus' is here
 *       why: libpfm 4.14 pfmlib_amd64.c maps these models to Zen 4
 *
 * Families are the displayed family (base + extended), models the displayed
 * model (with the extended model bits), as /proc/cpuinfo prints them.  An
 * Arm CPU is its implementer as vendor ("0x41"), architecture 8 as family
 * and part number as model (up to 0xfff).
 * Two entries may overlap only if they name the same PMUs: otherwise the
 * answer for a CPU would depend on the order of lines in a file.  The
 * vendor tree's mapfile rows come after every entry here (vendor_build.c),
 * so an entry here wins over them.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/sections.h"
#include "pmudb.h"

static const char *const cpuid_keys[] = { "vendor", "family", "model", "stepping", "pmus", "fallback", "why", NULL };

static bool same_pmus(const struct cpuid_entry *a, const struct cpuid_entry *b)
{
	if (a->pmus.count != b->pmus.count)
		return false;
	for (size_t i = 0; i < a->pmus.count; i++)
		if (strcmp(a->pmus.items[i], b->pmus.items[i]))
			return false;
	return true;
}

static bool overlap(const struct cpuid_entry *a, const struct cpuid_entry *b)
{
	return !strcmp(a->vendor, b->vendor) && a->family == b->family
	       && a->model_lo <= b->model_hi && b->model_lo <= a->model_hi
	       && a->stepping_lo <= b->stepping_hi && b->stepping_lo <= a->stepping_hi;
}

/*
 * A name that matches no PMU is left out of the entry, with a note: the
 * map names PMUs of newer libpfm releases and of the vendor tree, which a
 * build against another libpfm or without the tree does not have.
 */
static int load_pmus(struct ydoc *d, yaml_node_t *list, struct model *m, struct cpuid_entry *c)
{
	if (ydoc_expect_sequence(d, list, "'pmus'"))
		return -1;
	if (list->data.sequence.items.top == list->data.sequence.items.start)
		return ydoc_fail(d, list, "'pmus' must name at least one PMU");
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		yaml_node_t *pn = ydoc_node(d, *it);
		char *pattern = NULL;
		struct pmu_list matched = {0};
		if (ydoc_string(d, pn, "pmus", &pattern))
			return -1;
		model_match_pmus(m, pattern, &matched);
		if (!matched.count)
			model_note(m, "%s:%zu:%zu: cpuid: PMU '%s' is not in this catalog: left out of the entry", d->path,
				   pn->start_mark.line + 1, pn->start_mark.column + 1, pattern);
		for (size_t i = 0; i < matched.count; i++)
			*(char **)vec_push(&c->pmus) = xstrdup(matched.items[i]->name);
		free(matched.items);
		free(pattern);
		/* the runtime's scope holds that many */
		if (c->pmus.count > PMUDB_SCOPE_MAX)
			return ydoc_fail(d, pn, "the entry names %zu PMUs so far, more than the %d a CPU's scope holds",
					 c->pmus.count, PMUDB_SCOPE_MAX);
	}
	return 0;
}

static int load_entry(struct ydoc *d, yaml_node_t *entry, struct model *m)
{
	if (ydoc_expect_mapping(d, entry, "a cpuid entry", cpuid_keys))
		return -1;
	struct cpuid_entry c = {0};
	int64_t family = 0, mlo = 0, mhi = 0, slo = 0, shi = 15;
	yaml_node_t *n;
	int r = ydoc_field_string(d, entry, "vendor", true, &c.vendor)
		|| ydoc_field_string(d, entry, "why", true, &c.why)
		|| !(n = ydoc_require(d, entry, "family", "a cpuid entry"))
		|| ydoc_int(d, n, "family", 0, 0x10e, &family)
		|| !(n = ydoc_require(d, entry, "model", "a cpuid entry"))
		|| ydoc_range(d, n, "model", 0, 0xfff, &mlo, &mhi)
		|| ((n = ydoc_get(d, entry, "stepping")) && ydoc_range(d, n, "stepping", 0, 15, &slo, &shi))
		|| !(n = ydoc_require(d, entry, "pmus", "a cpuid entry"))
		|| load_pmus(d, n, m, &c)
		|| (!c.pmus.count && (n = ydoc_get(d, entry, "fallback")) && load_pmus(d, n, m, &c));
	c.family = (int)family;
	c.model_lo = (int)mlo;
	c.model_hi = (int)mhi;
	c.stepping_lo = (int)slo;
	c.stepping_hi = (int)shi;
	c.file = xstrdup(d->path);
	c.line = (int)entry->start_mark.line + 1;
	c.uarch = -1;

	for (size_t i = 0; !r && c.pmus.count && i < m->cpuid.count; i++) {
		const struct cpuid_entry *o = &m->cpuid.items[i];
		if (!o->from_vendor && overlap(o, &c) && !same_pmus(o, &c))
			r = ydoc_fail(d, entry, "this entry overlaps the one at %s:%d (%s family 0x%x) but names other PMUs",
				      o->file, o->line, o->vendor, (unsigned)o->family);
	}
	if (!r && !c.pmus.count)
		model_note(m, "%s:%d: cpuid: no PMU of this entry is in the catalog: entry left out", c.file, c.line);
	if (r || !c.pmus.count) {
		for (size_t i = 0; i < c.pmus.count; i++)
			free(c.pmus.items[i]);
		free(c.pmus.items);
		free(c.vendor);
		free(c.why);
		free(c.file);
		return r ? -1 : 0;
	}
	*(struct cpuid_entry *)vec_push(&m->cpuid) = c;
	return 0;
}

int cpuid_map_load(struct ydoc *d, yaml_node_t *list, struct model *m)
{
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++)
		if (load_entry(d, ydoc_node(d, *it), m))
			return -1;
	return 0;
}
