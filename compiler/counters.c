/*
 * counters.c - where each PMU's events may be counted, for the catalog's
 * counter_count and counter_rule tables (pmudb group schedules by them).
 *
 * A PMU's counters: its list's counter.json (the Unit "core", or an
 * uncore PMU's Unit), else tables/counters.yaml, else what its list's
 * Counter fields name (the highest general and fixed counter), else
 * libpfm's numbers, which the runtime reads from the pmu table itself.
 *
 * An encoding's counters: a rule where the list says other than "any
 * general counter" (Counter, CounterHTOff, PEBScounters, TakenAlone,
 * CounterType FREERUN), keyed by the encoding the entry has under the
 * PMU's family (the event select, unit masks, edge, inv, cmask), so that
 * a libpfm PMU's own names and a raw encoding find it as the vendor's name
 * does; then the kernel's fixed-counter rules of tables/counters.yaml,
 * which decide what goes on a fixed counter (the lists' "Fixed counter N"
 * of a pseudo-encoding is not what Linux does: docs/fixed-counters.md).
 * Entries of one encoding are one rule: their counters together, taken
 * alone if any is.
 */
#include "compiler/counters.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/vendor_events.h"
#include "compiler/vendor_uncore.h"

/* The mask an Intel core encoding is matched under: event select, unit
 * mask, edge, pin control, inv, cmask, the TSX bits (the kernel's fixed
 * constraints' mask) and the second unit mask (config 40-47). */
#define INTEL_CORE_MASK 0xff03ff8cffffULL
#define ARM_CORE_MASK 0xffffULL
#define AMD_CORE_MASK 0xf0f8cffffULL

static int high_bit(uint64_t mask)
{
	int n = 0;
	while (mask >> n)
		n++;
	return n;	/* the number of counters up to the highest named */
}

static uint64_t all_counters(int n)
{
	return n >= 64 ? ~0ULL : (1ULL << n) - 1;
}

static bool core_unit(const struct pmu *p, const char *unit)
{
	return !strcmp(unit, "core") || (p->unit && !strcmp(unit, p->unit));
}

/* Whether core entry V is of P's core type (a hybrid's cpu_core or
 * cpu_atom; every entry, on a PMU or a list of one core type). */
static bool of_core_type(const struct pmu *p, const struct vendor_event *v)
{
	return !p->unit || !v->unit || !strcmp(p->unit, v->unit);
}

/* P's counters, or false where nothing states them (the runtime then
 * takes libpfm's). */
static bool count_of(const struct model *m, const struct pmu *p, const struct vendor_uarch *u, const char *kpmu,
		     struct counter_count *c)
{
	for (size_t i = 0; u && i < u->counts.count; i++) {
		const struct vendor_counts *k = &u->counts.items[i];
		char *unit_pmu = kpmu ? vendor_uncore_pmu_of(m, k->unit) : NULL;
		bool mine = kpmu ? !strcmp(unit_pmu, kpmu) : core_unit(p, k->unit);
		free(unit_pmu);
		if (mine) {
			c->generic = k->generic;
			c->fixed = k->fixed;
			c->source = xprintf("%s:%d (%s, Unit %s)", k->file, k->line, u->name, k->unit);
			return true;
		}
	}
	for (size_t i = 0; !kpmu && i < m->counters_table.count; i++) {
		const struct counters_entry *t = &m->counters_table.items[i];
		if (!fnmatch(t->pmu_pattern, p->name, FNM_CASEFOLD)) {
			c->generic = t->generic;
			c->fixed = t->fixed;
			c->source = xprintf("%s:%d: %s", t->file, t->line, t->why);
			return true;
		}
	}
	if (!u)
		return false;
	uint64_t general = 0, fixed = 0;
	const struct vendor_event *entries = kpmu ? u->uncore.items : u->events.items;
	size_t count = kpmu ? u->uncore.count : u->events.count;
	for (size_t i = 0; i < count; i++) {
		const struct vendor_event *v = &entries[i];
		if (kpmu ? (v->taken && v->kernel_pmu && !strcmp(v->kernel_pmu, kpmu))
			 : of_core_type(p, v)) {
			general |= v->counters;
			fixed |= v->fixed_counters;
		}
	}
	if (!general)
		return false;
	c->generic = high_bit(general);
	c->fixed = high_bit(fixed);
	c->source = xprintf("the highest counters the Counter fields of %s's list name", u->name);
	return true;
}

/* The rule of P for CONFIG under MASK, made where there is none. */
static struct counter_rule *rule_for(struct model *m, const struct pmu *p, size_t first, uint64_t config, uint64_t mask)
{
	for (size_t i = first; i < m->counter_rules.count; i++)
		if (m->counter_rules.items[i].config == config && m->counter_rules.items[i].mask == mask)
			return &m->counter_rules.items[i];
	struct counter_rule *r = vec_push(&m->counter_rules);
	r->pmu = xstrdup(p->name);
	r->config = config;
	r->mask = mask;
	return r;
}

static void add_name(char **names, const char *name)
{
	if (!*names) {
		*names = xstrdup(name);
	} else if (strlen(*names) < 200) {
		char *more = xprintf("%s, %s", *names, name);
		free(*names);
		*names = more;
	}
}

/* Whether rule R (its entries together) says what any encoding without
 * a rule gets: any general counter. */
static bool says_nothing(const struct counter_rule *r, uint64_t general, uint64_t smt_off)
{
	return (!r->counters || r->counters == general) && (!r->counters_smt_off || r->counters_smt_off == smt_off)
	       && (!r->pebs_counters || r->pebs_counters == (r->counters ? r->counters : general)) && !r->fixed_counters
	       && !r->taken_alone && !r->free_running;
}

/* Drops the rules of P from FIRST on that say nothing: entries of one
 * encoding are merged first, as one that restricts it may share its
 * encoding with one that does not (Knights Landing's INST_RETIRED.ANY_PS
 * on counter 0, INST_RETIRED.ANY_P on both). */
static void drop_silent_rules(struct model *m, size_t first, uint64_t general, uint64_t smt_off, int nfixed)
{
	size_t kept = first;
	for (size_t i = first; i < m->counter_rules.count; i++) {
		struct counter_rule *r = &m->counter_rules.items[i];
		/* a fixed counter the PMU lacks (a list's "Fixed counter 3"
		 * where counter.json says 3 fixed ones) is none: the runtime
		 * refuses a rule that names one */
		if (r->fixed_counters & ~all_counters(nfixed)) {
			model_note(m, "counters: %s: %s names fixed counters 0x%llx, the PMU has %d: left out", r->pmu, r->event,
				   (unsigned long long)r->fixed_counters, nfixed);
			r->fixed_counters &= all_counters(nfixed);
		}
		if (says_nothing(r, general, smt_off)) {
			free(r->pmu);
			free(r->event);
			free(r->source);
		} else {
			m->counter_rules.items[kept++] = *r;
		}
	}
	m->counter_rules.count = kept;
}

static void add_vendor_rule(struct model *m, const struct pmu *p, size_t first, const struct vendor_event *v,
			    uint64_t config, uint64_t mask)
{
	struct counter_rule *r = rule_for(m, p, first, config & mask, mask);
	r->counters |= v->counters;
	r->counters_smt_off |= v->counters_ht_off;
	r->pebs_counters |= v->pebs_counters;
	r->fixed_counters |= v->fixed_counters;
	r->taken_alone |= v->taken_alone;
	r->free_running |= v->free_running;
	add_name(&r->event, v->name);
	if (!r->source)
		r->source = xprintf("%s:%d", v->file, v->line);
}

static void core_rules(struct model *m, const struct pmu *p, const struct vendor_uarch *u, const struct counter_count *c)
{
	uint64_t mask = !strcmp(p->family, "intel_x86") ? INTEL_CORE_MASK
			: !strcmp(p->family, "arm_pmuv3") ? ARM_CORE_MASK
			: !strcmp(p->family, "amd64")	  ? AMD_CORE_MASK : 0;
	size_t first = m->counter_rules.count;
	uint64_t general = all_counters(c->generic), smt_off = c->generic_smt_off > 0 ? all_counters(c->generic_smt_off) : 0;
	for (size_t i = 0; mask && u && i < u->events.count; i++) {
		const struct vendor_event *v = &u->events.items[i];
		uint64_t config, config1;
		if (!of_core_type(p, v) || vendor_config(p->family, v, &config, &config1))
			continue;
		add_vendor_rule(m, p, first, v, config, mask);
	}
	for (size_t i = 0; i < m->fixed_rules.count; i++) {
		const struct fixed_rule *f = &m->fixed_rules.items[i];
		bool mine = !strcmp(f->family, p->family) && f->fixed < c->fixed, named = !f->pmus.count;
		for (size_t k = 0; k < f->pmus.count; k++)
			named |= !fnmatch(f->pmus.items[k], p->name, FNM_CASEFOLD);
		if (!mine || !named)
			continue;
		/* the kernel decides the fixed counter; a general counter
		 * counts it where the rule says so, on those the list names */
		struct counter_rule *r = NULL;
		for (size_t k = first; k < m->counter_rules.count && !r; k++)
			if ((m->counter_rules.items[k].config & f->mask) == f->config)
				r = &m->counter_rules.items[k];
		if (!r)
			r = rule_for(m, p, first, f->config, f->mask);
		r->fixed_counters = 1ULL << f->fixed;
		r->counters = f->general ? (r->counters ? r->counters : general) : 0;
		r->counters_smt_off = f->general ? r->counters_smt_off : 0;
		char *was = r->event;
		r->event = was && strcmp(was, f->name) ? xprintf("%s (%s)", f->name, was) : xstrdup(f->name);
		free(was);
		free(r->source);
		r->source = xprintf("%s:%d: %s", f->file, f->line, f->why);
	}
	drop_silent_rules(m, first, general, smt_off, c->fixed);
}

static void uncore_rules(struct model *m, const struct pmu *p, const struct vendor_uarch *u, const char *kpmu,
			 const struct counter_count *c)
{
	size_t first = m->counter_rules.count;
	uint64_t general = all_counters(c->generic);
	for (size_t i = 0; i < u->uncore.count; i++) {
		const struct vendor_event *v = &u->uncore.items[i];
		if (!v->taken || !v->kernel_pmu || strcmp(v->kernel_pmu, kpmu))
			continue;
		/* an uncore encoding is matched on its event and unit mask
		 * (config 0-15) and, where it has them, its upper unit-mask
		 * bits (32-63): not on the thresholds and filters a user adds */
		uint64_t mask = 0xffff | (v->encoding[0] >> 32 ? 0xffffffff00000000ULL : 0);
		add_vendor_rule(m, p, first, v, v->encoding[0], mask);
	}
	drop_silent_rules(m, first, general, 0, c->fixed);
}

void counters_derive(struct model *m)
{
	for (size_t i = 0; i < m->pmus.count; i++) {
		struct pmu *p = &m->pmus.items[i];
		const struct vendor_uarch *u = p->uarch >= 0 ? &m->uarchs.items[p->uarch] : NULL;
		const char *at = p->source ? strchr(p->source, '@') : NULL;
		const char *kpmu = p->kind == PMU_UNCORE && at ? at + 1 : NULL;
		if (p->kind != PMU_CORE && !kpmu)
			continue;
		struct counter_count c = { .generic_smt_off = -1 };
		if (!count_of(m, p, u, kpmu, &c))
			continue;
		uint64_t smt_off = 0;
		for (size_t k = 0; u && !kpmu && k < u->events.count; k++)
			if (of_core_type(p, &u->events.items[k]))
				smt_off |= u->events.items[k].counters_ht_off;
		if (smt_off)
			c.generic_smt_off = high_bit(smt_off) > c.generic ? high_bit(smt_off) : c.generic;
		c.pmu = xstrdup(p->name);
		if (kpmu)
			uncore_rules(m, p, u, kpmu, &c);
		else
			core_rules(m, p, u, &c);
		*(struct counter_count *)vec_push(&m->counter_counts) = c;
	}
}
