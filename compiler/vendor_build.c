/*
 * vendor_build.c - the PMUs the vendor_pmus section made (see
 * table_vendor_pmus.c): their events (vendor_events.c), the libpfm names
 * their users already type, and their CPUID map entries from the mapfiles.
 *
 * The modifiers, their measured ranges and landings, the perf type and the
 * privilege levels are those of the 'like' PMU (a libpfm PMU of the same
 * family).  Where the like PMU has a libpfm name for the same encoding, the
 * new PMU answers to that name too, and takes its default unit mask.
 */
#include "compiler/vendor_build.h"

#include <perfmon/pfmlib.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/probe.h"
#include "compiler/vendor_events.h"

/* ---- names libpfm users already type ------------------------------------- */

static int find_event_index(const struct pmu *p, const char *name)
{
	for (size_t i = 0; i < p->events.count; i++) {
		if (!strcasecmp(p->events.items[i].name, name))
			return (int)i;
		for (size_t a = 0; a < p->events.items[i].aliases.count; a++)
			if (!strcasecmp(p->events.items[i].aliases.items[a].name, name))
				return (int)i;
	}
	return -1;
}

/* The vendor encodings of P's events: per event, per unit mask (-1 bare). */
struct vendor_string {
	int event, umask;
	uint64_t config, config1;
};

struct vendor_strings { struct vendor_string *items; size_t count, cap; };

/* The unit mask of EV that entry I of G became, or -1: found by name, as
 * an entry whose unit-mask name an earlier entry has was not made one
 * (vendor_umask_repeated), and the later entries' positions moved. */
static int umask_of_entry(const struct event *ev, const struct vendor_uarch *u, const struct vendor_group *g, size_t i)
{
	char *name = vendor_umask_name_after(u->events.items[g->entries.items[i]].name, g->depth);
	int found = -1;
	for (size_t j = 0; j < i && found == -1; j++) {
		char *earlier = vendor_umask_name_after(u->events.items[g->entries.items[j]].name, g->depth);
		if (!strcasecmp(earlier, name))
			found = -2;	/* the earlier entry's, not this one's */
		free(earlier);
	}
	for (size_t k = 0; found == -1 && k < ev->umasks.count; k++)
		if (!strcasecmp(ev->umasks.items[k].name, name))
			found = (int)k;
	free(name);
	return found < 0 ? -1 : found;
}

static void vendor_strings(const struct pmu *p, const struct vendor_uarch *u, struct vendor_strings *out,
			   struct vendor_groups *gs)
{
	for (size_t e = 0; e < p->events.count && e < gs->count; e++) {
		const struct vendor_group *g = &gs->items[e];
		for (long i = -1; i < (long)g->entries.count; i++) {
			long v = i < 0 ? (g->entries.count ? -1 : g->bare) : (long)g->entries.items[i];
			int umask = i < 0 ? -1 : umask_of_entry(&p->events.items[e], u, g, (size_t)i);
			if (v < 0 || (i >= 0 && umask < 0))
				continue;
			struct vendor_string *s = vec_push(out);
			s->event = (int)e;
			s->umask = umask;
			vendor_config(p->family, &u->events.items[v], &s->config, &s->config1);
		}
	}
}

static void add_umask_alias(struct event *ev, const char *name, const struct umask *target, const char *like)
{
	for (size_t i = 0; i < ev->umasks.count; i++)
		if (!strcasecmp(ev->umasks.items[i].name, name))
			return;
	char *target_name = xstrdup(target->name);
	struct umask *a = vec_push(&ev->umasks);
	a->name = xstrdup(name);
	a->description = xprintf("Alias of %s (the name %s gives it)", target_name, like);
	a->equiv = target_name;
	a->libpfm_index = -1;
	a->group = -1;
}

/* The vendor string of P's event E that encodes as the like string L, or NULL. */
static const struct vendor_string *same_encoding(const struct vendor_strings *vs, int e, const struct pmu_string *l)
{
	for (size_t k = 0; k < vs->count; k++)
		if (vs->items[k].event == e && vs->items[k].config == l->config && vs->items[k].config1 == l->config1)
			return &vs->items[k];
	return NULL;
}

/* The event of P with most encodings of like event E, or -1. */
static int best_match(const struct pmu_strings *ls, const struct vendor_strings *vs, size_t e, int *votes, size_t n)
{
	memset(votes, 0, n * sizeof(*votes));
	int best = -1;
	for (size_t i = 0; i < ls->count; i++)
		for (size_t k = 0; ls->items[i].event == (int)e && k < vs->count; k++)
			if (vs->items[k].config == ls->items[i].config && vs->items[k].config1 == ls->items[i].config1
			    && ++votes[vs->items[k].event] > (best < 0 ? 0 : votes[best]))
				best = vs->items[k].event;
	return best;
}

/*
 * For each event of LIKE, the event of P with most of the same encodings
 * answers to its name, and its unit masks to their names.  A libpfm event
 * without unit masks names one encoding: its alias stands for the unit mask
 * that has it (UNHALTED_CORE_CYCLES is CPU_CLK_UNHALTED:THREAD_P).  A bare
 * libpfm event that encodes as one of the unit masks of the event of the
 * same name makes that unit mask the default (INST_RETIRED is ANY_P).
 */
static void add_like_names(struct pmu *p, const struct pmu *like, const struct pmu_strings *ls,
			   const struct vendor_uarch *u, struct vendor_groups *gs)
{
	struct vendor_strings vs = {0};
	vendor_strings(p, u, &vs, gs);
	int *votes = calloc(p->events.count + 1, sizeof(*votes));
	for (size_t e = 0; votes && e < like->events.count; e++) {
		int best = best_match(ls, &vs, e, votes, p->events.count + 1);
		if (best < 0)
			continue;
		const struct event *le = &like->events.items[e];
		struct event *ve = &p->events.items[best];
		bool same_name = !strcasecmp(le->name, ve->name);
		int named = find_event_index(p, le->name);
		if (named >= 0 && named != best)
			continue;	/* the name is another event's */
		struct event_alias *alias = NULL;
		if (named < 0) {
			alias = vec_push(&ve->aliases);
			alias->name = xstrdup(le->name);
		}
		for (size_t i = 0; i < ls->count; i++) {
			const struct pmu_string *l = &ls->items[i];
			const struct vendor_string *s = l->event == (int)e ? same_encoding(&vs, best, l) : NULL;
			if (!s || s->umask < 0)
				continue;
			if (l->umask >= 0) {
				add_umask_alias(ve, le->umasks.items[l->umask].name, &ve->umasks.items[s->umask], like->name);
			} else if (!le->umasks.count && alias) {
				alias->attrs = xstrdup(ve->umasks.items[s->umask].name);
			} else if (same_name && ve->bare_error) {
				ve->umasks.items[s->umask].is_default = true;
				*(int *)vec_push(&ve->bare_added) = s->umask;
				ve->bare_error = 0;
			}
		}
	}
	free(votes);
	free(vs.items);
}

/* ---- the PMU ------------------------------------------------------------- */

static void take_like_rules(struct pmu *p, const struct pmu *like)
{
	p->perf_type = like->perf_type;
	if (!p->sysfs_names.count)
		for (size_t i = 0; i < like->sysfs_names.count; i++)
			*(char **)vec_push(&p->sysfs_names) = xstrdup(like->sysfs_names.items[i]);
	p->supported_plm = like->supported_plm;
	p->config_cleared = like->config_cleared;
	p->num_counters = like->num_counters;
	p->num_fixed_counters = like->num_fixed_counters;
	p->max_encoding = like->max_encoding;
}

static int build_pmu(struct model *m, size_t index)
{
	struct pmu *p = &m->pmus.items[index];
	const struct pmu *like = model_find_pmu(m, p->like);
	const struct vendor_uarch *u = &m->uarchs.items[p->uarch];
	take_like_rules(p, like);
	struct vendor_groups gs = {0};
	vendor_group_entries(m, u, p->unit, &gs);
	for (size_t i = 0; i < gs.count; i++)
		vendor_make_event(m, p, like, u, &gs.items[i]);
	struct pmu_strings ls = {0};
	probe_pmu_strings(like, &ls);
	add_like_names(p, like, &ls, u, &gs);
	free(ls.items);
	vendor_free_groups(&gs);
	if (!p->events.count)
		model_note(m, "%s: µarch %s has no core events%s%s", p->name, u->name, p->unit ? " of unit " : "",
			   p->unit ? p->unit : "");
	return 0;
}

/* ---- the CPUID map from the mapfiles -------------------------------------- */

static void add_cpuid(struct model *m, const struct vendor_uarch *u, const struct vendor_cpu *c, const char *vendor,
		      int family, int model_lo, int model_hi, int step_lo, int step_hi)
{
	struct cpuid_entry entry = {0}, *e = &entry;
	for (size_t i = 0; i < m->vendor_maps.count; i++) {
		const struct vendor_map *map = &m->vendor_maps.items[i];
		bool for_row = !map->cpus.count;
		for (size_t k = 0; k < map->cpus.count; k++)
			for_row |= !strcasecmp(map->cpus.items[k], c->id);
		if (map->uarch == (int)(u - m->uarchs.items) && for_row)
			*(char **)vec_push(&e->pmus) = xstrdup(map->pmu);
	}
	if (!e->pmus.count)
		return;	/* this row's CPUs have no PMU of the tables */
	e->vendor = xstrdup(vendor);
	e->family = family;
	e->model_lo = model_lo;
	e->model_hi = model_hi;
	e->stepping_lo = step_lo;
	e->stepping_hi = step_hi;
	/* which source's row, as pmudb sources names the layouts */
	const char *layout = c->source >= 0 && (size_t)c->source < m->sources.count ? m->sources.items[c->source].layout
										     : "kernel";
	e->why = xprintf("%s row '%s' (%s layout): %s", c->file, c->id, layout, u->name);
	e->file = xprintf("pmu-events:%s", c->file);
	e->line = c->line;
	e->from_vendor = true;
	e->uarch = (int)(u - m->uarchs.items);
	*(struct cpuid_entry *)vec_push(&m->cpuid) = entry;
}

/* An x86 row: a regular expression over "Vendor-Family-Model[-Stepping]"
 * (family decimal, model and stepping hex), matched whole as perf does. */
static int x86_cpuid(struct model *m, const struct vendor_uarch *u, const struct vendor_cpu *c)
{
	char vendor[32];
	int family = -1, used = 0;
	if (sscanf(c->id, "%31[^-]-%d-%n", vendor, &family, &used) < 2 || !used || family < 0 || family > 0x10e) {
		model_note(m, "pmu-events:%s:%d: row '%s' has no vendor and decimal family: left out", c->file, c->line, c->id);
		return 0;
	}
	char *pattern = xprintf("^(%s)$", c->id);
	regex_t re;
	int rc = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);
	free(pattern);
	if (rc) {
		model_note(m, "pmu-events:%s:%d: row '%s' is not a regular expression: left out", c->file, c->line, c->id);
		return 0;
	}
	int run_lo = -1, run_mask = 0;
	for (int model = 0; model <= 0x100; model++) {
		int mask = 0;
		char id[96];
		snprintf(id, sizeof(id), "%s-%d-%X", vendor, family, model);
		bool any_stepping = model <= 0xff && !regexec(&re, id, 0, NULL, 0);
		if (any_stepping)
			mask = 0xffff;
		for (int s = 0; model <= 0xff && !any_stepping && s < 16; s++) {
			snprintf(id, sizeof(id), "%s-%d-%X-%X", vendor, family, model, s);
			mask |= regexec(&re, id, 0, NULL, 0) ? 0 : 1 << s;
		}
		if (run_lo >= 0 && mask == run_mask)
			continue;
		/* a run of models with the same steppings ends: one entry per
		 * run of steppings */
		for (int s = 0; run_lo >= 0 && run_mask && s < 16; s++) {
			if (!(run_mask >> s & 1))
				continue;
			int e = s;
			while (e + 1 < 16 && run_mask >> (e + 1) & 1)
				e++;
			add_cpuid(m, u, c, vendor, family, run_lo, model - 1, s, e);
			s = e;
		}
		run_lo = model;
		run_mask = mask;
	}
	regfree(&re);
	return 0;
}

/* An arm64 row: a MIDR, matched on implementer and part number (perf masks
 * the variant and revision). */
static int arm64_cpuid(struct model *m, const struct vendor_uarch *u, const struct vendor_cpu *c)
{
	char *end = NULL;
	unsigned long long midr = strtoull(c->id, &end, 16);
	if (!end || *end) {
		model_note(m, "pmu-events:%s:%d: MIDR '%s' is not a number: left out", c->file, c->line, c->id);
		return 0;
	}
	char vendor[8];
	snprintf(vendor, sizeof(vendor), "0x%02llx", (midr >> 24) & 0xff);
	int part = (int)((midr >> 4) & 0xfff);
	add_cpuid(m, u, c, vendor, 8, part, part, 0, 15);
	return 0;
}

int vendor_build(struct model *m, char **error)
{
	(void)error;
	for (size_t i = 0; i < m->pmus.count; i++)
		if (m->pmus.items[i].source && m->pmus.items[i].uarch >= 0 && build_pmu(m, i))
			return -1;
	for (size_t i = 0; i < m->uarchs.count; i++) {
		const struct vendor_uarch *u = &m->uarchs.items[i];
		if (!u->mapped && !u->system) {
			model_note(m, "vendor tree: µarch %s/%s has no vendor_pmus entry in tables/: left out", u->arch,
				   u->name);
			continue;
		}
		for (size_t c = 0; c < u->cpus.count; c++) {
			int r = !strcmp(u->arch, "arm64") ? arm64_cpuid(m, u, &u->cpus.items[c])
							  : x86_cpuid(m, u, &u->cpus.items[c]);
			if (r)
				return -1;
		}
	}
	return 0;
}
