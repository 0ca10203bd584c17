/*
 * table_vendor_pmus.c - loads the 'vendor_pmus' section: which catalog PMU
 * each µarch of the vendor tree (--pmu-events) becomes.
 *
 *   vendor_pmus:
 *     - uarch: amdzen5               # the tree's name for it (mapfile); a list
 *                                    # names it in several layouts
 *       pmu: amd64_fam1ah_zen5       # the catalog PMU
 *       like: amd64_fam19h_zen4      # a libpfm PMU whose family, modifiers,
 *                                    # perf type and privilege rules it takes
 *       description: AMD64 Fam1Ah Zen5
 *       why: libpfm4's current source names Zen 5 so (pfmlib_amd64_fam1ah.c)
 *     - uarch: alderlake
 *       unit: cpu_core               # a hybrid's core type: its own PMU
 *       pmu: adl_glc
 *       like: spr
 *       sysfs: cpu_core              # the kernel PMU the perf type is read from
 *       ...
 *     - uarch: skylake
 *       pmu: skl                     # libpfm has it: reconciled, not added
 *
 * Optional: family and group (instead of the like PMU's), modifiers (the
 * like PMU's modifiers to keep; default all), cpus (the mapfile rows, by
 * their id, whose CPUs have this PMU, where one folder serves several
 * cores: neoverse-n2-v2 is arm_n2 on 0x00000000410fd490, arm_v2 on
 * 0x00000000410fd4f0; default all rows).  Several entries may name one
 * libpfm PMU (Tiger Lake and Ice Lake are both icl); its vendor list is
 * the first entry's.  A PMU named here that libpfm
 * already has (a newer libpfm, or an older µarch) stays libpfm's: the vendor
 * list is checked against it, not added twice.  A µarch the tree does not
 * have, or no tree at all, leaves the entry out with a note.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/sections.h"

static const char *const keys[] = {
	"uarch", "unit", "pmu", "like", "family", "group", "sysfs", "modifiers", "cpus", "description", "why", NULL
};

struct entry {
	yaml_node_t *uarch;	/* a name, or a list of names */
	char *unit, *pmu, *like, *family, *group, *sysfs, *description, *why;
	yaml_node_t *modifiers, *cpus;
};

static void entry_free(struct entry *e)
{
	free(e->unit);
	free(e->pmu);
	free(e->like);
	free(e->family);
	free(e->group);
	free(e->sysfs);
	free(e->description);
	free(e->why);
}

static int read_entry(struct ydoc *d, yaml_node_t *node, struct entry *e)
{
	memset(e, 0, sizeof(*e));
	if (ydoc_expect_mapping(d, node, "a vendor_pmus entry", keys)
	    || !(e->uarch = ydoc_require(d, node, "uarch", "a vendor_pmus entry"))
	    || ydoc_field_string(d, node, "unit", false, &e->unit)
	    || ydoc_field_string(d, node, "pmu", true, &e->pmu)
	    || ydoc_field_string(d, node, "like", false, &e->like)
	    || ydoc_field_string(d, node, "family", false, &e->family)
	    || ydoc_field_string(d, node, "group", false, &e->group)
	    || ydoc_field_string(d, node, "sysfs", false, &e->sysfs)
	    || ydoc_field_string(d, node, "description", false, &e->description)
	    || ydoc_field_string(d, node, "why", true, &e->why))
		return -1;
	if (e->uarch->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = e->uarch->data.sequence.items.start; it < e->uarch->data.sequence.items.top; it++)
			if (ydoc_node(d, *it)->type != YAML_SCALAR_NODE)
				return ydoc_fail(d, ydoc_node(d, *it), "wrong type: 'uarch' lists names");
	} else if (e->uarch->type != YAML_SCALAR_NODE) {
		return ydoc_fail(d, e->uarch, "wrong type: 'uarch' must be a name or a list of names");
	}
	e->modifiers = ydoc_get(d, node, "modifiers");
	if (e->modifiers && ydoc_expect_sequence(d, e->modifiers, "'modifiers'"))
		return -1;
	e->cpus = ydoc_get(d, node, "cpus");
	if (e->cpus && ydoc_expect_sequence(d, e->cpus, "'cpus'"))
		return -1;
	if (strpbrk(e->pmu, ":.*?[ \t") || strlen(e->pmu) >= 64)
		return ydoc_fail(d, ydoc_get(d, node, "pmu"),
				 "PMU name '%s' cannot be typed before '::' (no ':', '.', blanks or globs, under 64 bytes)",
				 e->pmu);
	return 0;
}

/* The first of the entry's names that the tree has. */
static struct vendor_uarch *find_uarch(struct ydoc *d, struct model *m, yaml_node_t *names)
{
	yaml_node_item_t one = 0, *start = &one, *top = &one + 1;
	if (names->type == YAML_SEQUENCE_NODE) {
		start = names->data.sequence.items.start;
		top = names->data.sequence.items.top;
	}
	for (yaml_node_item_t *it = start; it < top; it++) {
		yaml_node_t *n = it == &one ? names : ydoc_node(d, *it);
		for (size_t i = 0; i < m->uarchs.count; i++)
			if (!strcasecmp(m->uarchs.items[i].name, (const char *)n->data.scalar.value))
				return &m->uarchs.items[i];
	}
	return NULL;
}

static bool has_unit(const struct vendor_uarch *u, const char *unit)
{
	for (size_t i = 0; i < u->units.count; i++)
		if (!strcasecmp(u->units.items[i], unit))
			return true;
	return false;
}

/* A new PMU: named here, ruled like the libpfm PMU LIKE. */
static int add_pmu(struct ydoc *d, yaml_node_t *node, struct model *m, const struct entry *e, size_t uarch)
{
	struct pmu *like = e->like ? model_find_pmu(m, e->like) : NULL;
	if (!e->like)
		return ydoc_fail(d, node, "'%s' is not a libpfm PMU: a new PMU needs 'like' (a libpfm PMU to take"
				 " its modifiers and encoding from)", e->pmu);
	if (!like || like->source)
		return ydoc_fail(d, ydoc_get(d, node, "like"), "unknown PMU '%s': 'like' names a PMU of libpfm %s",
				 e->like, m->libpfm_version);
	if (!like->family && !e->family)
		return ydoc_fail(d, ydoc_get(d, node, "like"), "'%s' has no encoding family: list it in 'families' first",
				 e->like);
	struct pmu p = {0};
	p.name = xstrdup(e->pmu);
	p.description = xstrdup(e->description ? e->description : e->pmu);
	p.libpfm_id = -1;
	p.kind = PMU_CORE;
	p.family = xstrdup(e->family ? e->family : like->family);
	p.harness_group = xstrdup(e->group ? e->group : like->harness_group);
	p.perf_type = -1;
	/* where in the tree its events are: ARCH/UARCH, and @UNIT for a hybrid's */
	p.source = xprintf("pmu-events:%s/%s%s%s", m->uarchs.items[uarch].arch, m->uarchs.items[uarch].name,
			   e->unit ? "@" : "", e->unit ? e->unit : "");
	p.like = xstrdup(like->name);
	p.uarch = (int)uarch;
	p.unit = xstrdup(e->unit);
	if (e->sysfs)
		*(char **)vec_push(&p.sysfs_names) = xstrdup(e->sysfs);
	for (yaml_node_item_t *it = e->modifiers ? e->modifiers->data.sequence.items.start : NULL;
	     it && it < e->modifiers->data.sequence.items.top; it++) {
		char *name = NULL;
		if (ydoc_string(d, ydoc_node(d, *it), "modifiers", &name)) {
			model_free_pmu(&p);
			return -1;
		}
		*(char **)vec_push(&p.modifier_names) = name;
	}
	*(struct pmu *)vec_push(&m->pmus) = p;
	return 0;
}

static int apply_entry(struct ydoc *d, yaml_node_t *node, struct model *m)
{
	struct entry e;
	int r = read_entry(d, node, &e);
	struct vendor_uarch *u = r ? NULL : find_uarch(d, m, e.uarch);
	if (r || !m->vendor_tree) {
		entry_free(&e);
		return r;
	}
	if (!u || (e.unit && !has_unit(u, e.unit))) {
		const yaml_node_t *name = e.uarch->type == YAML_SCALAR_NODE ? e.uarch
					  : ydoc_node(d, e.uarch->data.sequence.items.start[0]);
		model_note(m, "%s:%zu: vendor_pmus: the vendor lists have no µarch %s%s%s: %s left out", d->path,
			   node->start_mark.line + 1, (const char *)name->data.scalar.value,
			   u ? " with unit " : "", u ? e.unit : "", e.pmu);
		entry_free(&e);
		return 0;
	}
	u->mapped = true;
	int uarch = (int)(u - m->uarchs.items);
	struct pmu *have = model_find_pmu(m, e.pmu);
	if (have && have->source) {
		r = ydoc_fail(d, ydoc_get(d, node, "pmu"), "PMU '%s' is already made from µarch '%s'", e.pmu,
			      m->uarchs.items[have->uarch].name);
	} else if (have) {
		/* libpfm has it: the (first) vendor list is reconciled against it */
		if (have->uarch < 0) {
			have->uarch = uarch;
			have->unit = xstrdup(e.unit);
		}
	} else {
		r = add_pmu(d, node, m, &e, (size_t)uarch);
	}
	struct vendor_map *map = r ? NULL : vec_push(&m->vendor_maps);
	if (map) {
		map->uarch = uarch;
		map->pmu = xstrdup(e.pmu);
	}
	for (yaml_node_item_t *it = map && e.cpus ? e.cpus->data.sequence.items.start : NULL;
	     it && it < e.cpus->data.sequence.items.top && !r; it++) {
		char *id = NULL;
		r = ydoc_string(d, ydoc_node(d, *it), "cpus", &id);
		if (!r)
			*(char **)vec_push(&map->cpus) = id;
	}
	entry_free(&e);
	return r;
}

int vendor_pmus_apply(struct ydoc *d, yaml_node_t *list, struct model *m)
{
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++)
		if (apply_entry(d, ydoc_node(d, *it), m))
			return -1;
	return 0;
}
