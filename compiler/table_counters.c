/*
 * table_counters.c - loads the sections 'counters' and 'fixed_rules' of
 * tables/counters.yaml: how many counters a core PMU has where no vendor
 * list states it, and the encodings Linux puts on a fixed counter.
 *
 *   counters:
 *     - {pmu: arm_n1, generic: 6, fixed: 1, why: "its TRM: PMCR_EL0.N = 6"}
 *   fixed_rules:
 *     - family: intel_x86            # the PMUs of this encoding family
 *       pmus: [icl, spr]             # optional: those matching a glob only
 *       name: INST_RETIRED.ANY       # what the rule counts, for messages
 *       config: 0x0100               # the encoding, matched under mask as
 *       mask: 0x3ff8cffff            # the kernel matches its constraint
 *       fixed: 0                     # the fixed counter
 *       general: false               # may a general counter count it too
 *       why: FIXED_EVENT_CONSTRAINT(0x0100, 0) in intel_icl_event_constraints
 *
 * counters.c applies both once the PMUs are made.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/sections.h"

/* The required KEY of N as an integer in LO..HI, a 64-bit number or a
 * boolean: absent, it fails naming the entry. */
static int int_field(struct ydoc *d, yaml_node_t *n, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
	yaml_node_t *v = ydoc_require(d, n, key, "a counters.yaml entry");
	return !v ? -1 : ydoc_int(d, v, key, lo, hi, out);
}

static int u64_field(struct ydoc *d, yaml_node_t *n, const char *key, uint64_t *out)
{
	yaml_node_t *v = ydoc_require(d, n, key, "a counters.yaml entry");
	return !v ? -1 : ydoc_u64(d, v, key, out);
}

static int bool_field(struct ydoc *d, yaml_node_t *n, const char *key, bool *out)
{
	yaml_node_t *v = ydoc_require(d, n, key, "a counters.yaml entry");
	return !v ? -1 : ydoc_bool(d, v, key, out);
}

static const char *const count_keys[] = { "pmu", "generic", "fixed", "why", NULL };
static const char *const rule_keys[] = { "family", "pmus", "name", "config", "mask", "fixed", "general", "why", NULL };

int counters_apply(struct ydoc *d, yaml_node_t *list, struct model *m)
{
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		yaml_node_t *n = ydoc_node(d, *it);
		struct counters_entry c = {0};
		int64_t generic = 0, fixed = 0;
		int r = ydoc_expect_mapping(d, n, "a counters entry", count_keys)
			|| ydoc_field_string(d, n, "pmu", true, &c.pmu_pattern)
			|| int_field(d, n, "generic", 0, 64, &generic)
			|| int_field(d, n, "fixed", 0, 32, &fixed)
			|| ydoc_field_string(d, n, "why", true, &c.why);
		if (r) {
			free(c.pmu_pattern);
			free(c.why);
			return -1;
		}
		c.generic = (int)generic;
		c.fixed = (int)fixed;
		c.file = xstrdup(d->path);
		c.line = (int)n->start_mark.line + 1;
		*(struct counters_entry *)vec_push(&m->counters_table) = c;
	}
	return 0;
}

static void free_rule(struct fixed_rule *f)
{
	free_strings(f->pmus.items, f->pmus.count);
	free(f->family);
	free(f->name);
	free(f->why);
}

int fixed_rules_apply(struct ydoc *d, yaml_node_t *list, struct model *m)
{
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		yaml_node_t *n = ydoc_node(d, *it), *pmus = NULL;
		struct fixed_rule f = {0};
		int64_t fixed = 0;
		int r = ydoc_expect_mapping(d, n, "a fixed_rules entry", rule_keys)
			|| ydoc_field_string(d, n, "family", true, &f.family)
			|| ydoc_field_string(d, n, "name", true, &f.name)
			|| u64_field(d, n, "config", &f.config)
			|| u64_field(d, n, "mask", &f.mask)
			|| int_field(d, n, "fixed", 0, 31, &fixed)
			|| bool_field(d, n, "general", &f.general)
			|| ydoc_field_string(d, n, "why", true, &f.why)
			|| ((pmus = ydoc_get(d, n, "pmus")) && ydoc_expect_sequence(d, pmus, "pmus"));
		for (yaml_node_item_t *p = pmus && !r ? pmus->data.sequence.items.start : NULL;
		     p && p < pmus->data.sequence.items.top && !r; p++) {
			char *glob = NULL;
			r = ydoc_string(d, ydoc_node(d, *p), "pmus", &glob);
			if (!r)
				*(char **)vec_push(&f.pmus) = glob;
		}
		if (!r && (f.config & ~f.mask))
			r = ydoc_fail(d, ydoc_get(d, n, "config"), "config 0x%llx has bits outside its mask 0x%llx",
				      (unsigned long long)f.config, (unsigned long long)f.mask);
		if (r) {
			free_rule(&f);
			return -1;
		}
		f.fixed = (int)fixed;
		f.file = xstrdup(d->path);
		f.line = (int)n->start_mark.line + 1;
		*(struct fixed_rule *)vec_push(&m->fixed_rules) = f;
	}
	return 0;
}
