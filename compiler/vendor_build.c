/*
 * vendor_build.c - makes catalog events of the vendors' lists, for the PMUs
 * the vendor_pmus section named (see table_vendor_pmus.c).
 *
 * A vendor list is flat: one entry per encoding, named EVENT.UMASK (Intel,
 * AMD) or EVENT (Arm, and AMD events without unit masks).  Each becomes
 * event EVENT with unit mask UMASK, as libpfm's tables are laid out, so that
 * the same grammar and the same encoders serve both sources.  What libpfm's
 * tables say with flags, an entry says with fields, and they land where the
 * family's encoder puts them:
 *   - an EventCode other than the event's: the unit mask replaces the event
 *     select (libpfm's code override, umask.sets_event_select);
 *   - CounterMask, Invert, EdgeDetect, AnyThread: values the unit mask
 *     hard-wires on the modifiers c, i, e, t (another value is refused);
 *   - the load-latency MSR: a hard-wired ldlat; the offcore-response and
 *     frontend MSRs: the unit mask's config1 bits;
 *   - PEBS: the event takes the modifiers of a precise libpfm event.
 * The modifiers, their measured ranges and landings, the perf type and the
 * privilege levels are those of the 'like' PMU (a libpfm PMU of the same
 * family).  Where the like PMU has a libpfm name for the same encoding, the
 * new PMU answers to that name too, and takes its default unit mask.
 */
#include "vendor_build.h"

#include <perfmon/pfmlib.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "probe.h"

#define MSR_OFFCORE_0 0x1a6
#define MSR_OFFCORE_1 0x1a7
#define MSR_LOAD_LATENCY 0x3f6
#define MSR_FRONTEND 0x3f7

int vendor_config(const char *family, const struct vendor_event *v, uint64_t *config, uint64_t *config1)
{
	uint64_t flags = v->edge << 18 | v->any << 21 | v->inv << 23 | v->cmask << 24;
	*config1 = 0;
	if (!strcmp(family, "intel_x86")) {
		*config = (v->code & 0xff) | v->umask << 8 | flags;
		if (v->msr_index == MSR_OFFCORE_0 || v->msr_index == MSR_OFFCORE_1 || v->msr_index == MSR_LOAD_LATENCY
		    || v->msr_index == MSR_FRONTEND)
			*config1 = v->msr_value;
	} else if (!strcmp(family, "amd64")) {
		*config = (v->code & 0xff) | ((v->code >> 8) & 0xf) << 32 | v->umask << 8 | flags;
	} else if (!strcmp(family, "arm_pmuv3")) {
		*config = v->code;
	} else {
		return -1;
	}
	return 0;
}

/* ---- what the like PMU's libpfm names encode to -------------------------- */

struct like_string {
	int event, umask;	/* positions in the like PMU; umask -1: the bare event */
	uint64_t config, config1;
};

struct like_strings { struct like_string *items; size_t count, cap; };

/* Asks libpfm for every event of LIKE alone and with each unit mask. */
static void probe_like(const struct pmu *like, struct like_strings *out)
{
	for (size_t e = 0; e < like->events.count; e++) {
		const struct event *ev = &like->events.items[e];
		if (ev->libpfm_index < 0 || ev->retired)
			continue;
		for (int u = -1; u < (int)ev->umasks.count; u++) {
			if (u >= 0 && (ev->umasks.items[u].libpfm_index < 0 || ev->umasks.items[u].retired))
				continue;
			char *s = u < 0 ? xprintf("%s::%s", like->name, ev->name)
					: xprintf("%s::%s:%s", like->name, ev->name, ev->umasks.items[u].name);
			struct probe q;
			probe_encode(s, PFM_PLM0 | PFM_PLM3, &q);
			free(s);
			if (q.error || q.raw_only)
				continue;
			struct like_string *ls = vec_push(out);
			ls->event = (int)e;
			ls->umask = u;
			ls->config = q.attr.config;
			ls->config1 = q.attr.config1;
		}
	}
}

/* ---- grouping the flat list into events ---------------------------------- */

struct group {
	char *name;		/* EVENT */
	VEC(size_t) entries;	/* indexes into the µarch's events, EVENT.UMASK ones */
	long bare;		/* the entry named EVENT alone, or -1 */
};

struct groups { struct group *items; size_t count, cap; };

static struct group *group_named(struct groups *gs, const char *name, size_t len)
{
	for (size_t i = 0; i < gs->count; i++)
		if (strlen(gs->items[i].name) == len && !strncasecmp(gs->items[i].name, name, len))
			return &gs->items[i];
	struct group *g = vec_push(gs);
	g->name = strndup(name, len);
	g->bare = -1;
	return g;
}

static bool same_unit(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void group_entries(struct model *m, const struct vendor_uarch *u, const char *unit, struct groups *gs)
{
	for (size_t i = 0; i < u->events.count; i++) {
		const struct vendor_event *v = &u->events.items[i];
		if (!same_unit(v->unit, unit))
			continue;
		const char *dot = strchr(v->name, '.');
		struct group *g = group_named(gs, v->name, dot ? (size_t)(dot - v->name) : strlen(v->name));
		bool duplicate = false;
		for (size_t k = 0; k < g->entries.count && !duplicate; k++)
			duplicate = !strcasecmp(u->events.items[g->entries.items[k]].name, v->name);
		if (duplicate || (!dot && g->bare >= 0)) {
			model_note(m, "%s:%d:%d: %s is listed twice: the first is kept", v->file, v->line, v->column, v->name);
			continue;
		}
		if (dot)
			*(size_t *)vec_push(&g->entries) = i;
		else
			g->bare = (long)i;
	}
}

/* ---- one event ----------------------------------------------------------- */

static bool has_modifier(const struct event *ev, const char *name)
{
	for (size_t i = 0; i < ev->modifiers.count; i++)
		if (!strcmp(ev->modifiers.items[i].name, name))
			return true;
	return false;
}

static size_t probed_count(const struct event *ev)
{
	size_t n = 0;
	for (size_t i = 0; i < ev->modifiers.count; i++)
		n += ev->modifiers.items[i].probed;
	return n;
}

struct shape {
	bool precise, ldlat, frontend, any;
};

static bool fits(const struct event *ev, const struct shape *want, bool like_has_frontend)
{
	return has_modifier(ev, "precise") == want->precise && has_modifier(ev, "ldlat") == want->ldlat
	       && (!like_has_frontend || has_modifier(ev, "fe_thres") == want->frontend)
	       && (!want->any || has_modifier(ev, "t"));
}

/*
 * The libpfm event of LIKE whose modifiers EVENT takes: the event of the
 * same name where its modifiers fit (precise sampling, load latency,
 * frontend threshold, any-thread), else the fitting event whose modifiers
 * were measured best, else the best measured of all.
 */
static const struct event *pick_template(const struct pmu *like, const char *name, const struct shape *want)
{
	bool like_has_frontend = false;
	for (size_t i = 0; i < like->events.count; i++)
		like_has_frontend |= has_modifier(&like->events.items[i], "fe_thres");
	const struct event *best = NULL, *fitting = NULL;
	for (size_t i = 0; i < like->events.count; i++) {
		const struct event *ev = &like->events.items[i];
		if (ev->libpfm_index < 0 || !ev->modifiers.count)
			continue;
		if (!strcasecmp(ev->name, name) && fits(ev, want, like_has_frontend) && probed_count(ev) == ev->modifiers.count)
			return ev;
		if (fits(ev, want, like_has_frontend) && (!fitting || probed_count(ev) > probed_count(fitting)))
			fitting = ev;
		if (!best || probed_count(ev) > probed_count(best))
			best = ev;
	}
	return fitting ? fitting : best;
}

static bool kept(const struct pmu *p, const char *modifier)
{
	for (size_t i = 0; i < p->modifier_names.count; i++)
		if (!strcasecmp(p->modifier_names.items[i], modifier))
			return true;
	return !p->modifier_names.count;
}

static void copy_modifiers(const struct pmu *p, struct event *to, const struct event *from)
{
	for (size_t i = 0; from && i < from->modifiers.count; i++) {
		const struct modifier *f = &from->modifiers.items[i];
		if (!kept(p, f->name))
			continue;
		struct modifier *t = vec_push(&to->modifiers);
		*t = *f;
		t->name = xstrdup(f->name);
		t->description = xstrdup(f->description);
		t->landings.items = NULL;
		t->landings.count = t->landings.cap = 0;
		t->presence.items = NULL;
		t->presence.count = t->presence.cap = 0;
		for (size_t j = 0; j < f->landings.count; j++)
			*(struct landing *)vec_push(&t->landings) = f->landings.items[j];
		for (size_t j = 0; j < f->presence.count; j++)
			*(struct landing *)vec_push(&t->presence) = f->presence.items[j];
		/* a modifier that needs another keeps it only when both are kept */
		if (t->requires >= 0) {
			const char *needed = from->modifiers.items[t->requires].name;
			t->requires = -1;
			for (size_t j = 0; j < to->modifiers.count - 1; j++)
				if (!strcmp(to->modifiers.items[j].name, needed))
					t->requires = (int)j;
		}
	}
	/* requirements on a later modifier: resolved now that all are in */
	for (size_t i = 0; from && i < to->modifiers.count; i++) {
		struct modifier *t = &to->modifiers.items[i];
		for (size_t k = 0; k < from->modifiers.count; k++) {
			const struct modifier *f = &from->modifiers.items[k];
			if (strcmp(f->name, t->name) || f->requires < 0 || t->requires >= 0)
				continue;
			for (size_t j = 0; j < to->modifiers.count; j++)
				if (!strcmp(to->modifiers.items[j].name, from->modifiers.items[f->requires].name))
					t->requires = (int)j;
		}
	}
}

static int modifier_index(const struct event *ev, const char *name)
{
	for (size_t i = 0; i < ev->modifiers.count; i++)
		if (!strcmp(ev->modifiers.items[i].name, name))
			return (int)i;
	return -1;
}

/* Hard-wires modifier NAME to VALUE for unit mask U; false when EV has no
 * such modifier. */
static bool hardwire(struct event *ev, struct umask *u, const char *name, uint64_t value)
{
	int m = modifier_index(ev, name);
	if (m < 0)
		return false;
	struct implied_value *iv = vec_push(&u->implied);
	iv->modifier = m;
	iv->value = value;
	iv->hardwired = true;
	return true;
}

/* The event code most of the group's entries have. */
static uint64_t common_code(const struct vendor_uarch *u, const struct group *g)
{
	uint64_t best = 0;
	size_t best_n = 0;
	for (size_t i = 0; i < g->entries.count; i++) {
		uint64_t c = u->events.items[g->entries.items[i]].code;
		size_t n = 0;
		for (size_t j = 0; j < g->entries.count; j++)
			n += u->events.items[g->entries.items[j]].code == c;
		if (n > best_n) {
			best = c;
			best_n = n;
		}
	}
	return best;
}

/* Intel: config bits 8-31 of an entry (unit mask, edge, any, inv, cmask),
 * shifted down as libpfm's unit-mask codes hold them. */
static uint64_t intel_upper_bits(const struct vendor_event *v)
{
	return v->umask | v->edge << 10 | v->any << 13 | v->inv << 15 | v->cmask << 16;
}

/*
 * Intel: the unit mask's code, as libpfm's tables give it (its config bits
 * above the select, flags included, so that it encodes whole when it is a
 * default too), and the values it hard-wires on the modifiers that show
 * them (a c=2 beside a CounterMask of 1 is refused).
 */
static void intel_umask(struct event *ev, struct umask *um, const struct vendor_event *v)
{
	uint64_t select = v->code & 0xff;
	um->code = intel_upper_bits(v);
	if (v->cmask)
		hardwire(ev, um, "c", v->cmask);
	if (v->inv)
		hardwire(ev, um, "i", v->inv);
	if (v->edge)
		hardwire(ev, um, "e", v->edge);
	if (v->any)
		hardwire(ev, um, "t", v->any);
	if ((v->msr_index == MSR_LOAD_LATENCY && !hardwire(ev, um, "ldlat", v->msr_value))
	    || (v->msr_index && v->msr_index != MSR_LOAD_LATENCY)) {
		um->filter_bits[0] = v->msr_value;
		ev->filters_given = true;
	}
	if (select != (ev->code & 0xff)) {
		um->sets_event_select = true;
		um->code = select | um->code << 8;
	}
}

/* AMD: the unit mask's code; hard-wired flags where the event has them. */
static bool amd_umask(struct event *ev, struct umask *um, const struct vendor_event *v)
{
	um->code = v->umask;
	return (!v->cmask || hardwire(ev, um, "c", v->cmask)) && (!v->inv || hardwire(ev, um, "i", v->inv))
	       && (!v->edge || hardwire(ev, um, "e", v->edge)) && v->code == ev->code;
}

static char *umask_name(const char *vendor_name)
{
	char *s = xstrdup(strchr(vendor_name, '.') + 1);
	for (char *p = s; *p; p++)
		if (*p == '.')
			*p = '_';
	return s;
}

/* Adds the unit masks of G to EV; returns whether they may combine (AMD's
 * OR together, as libpfm's amd64 tables allow; Intel's entries are each a
 * whole encoding). */
static bool add_umasks(struct model *m, const struct pmu *p, struct event *ev, const struct vendor_uarch *u,
		       const struct group *g)
{
	bool intel = !strcmp(p->family, "intel_x86"), combine = !intel;
	for (size_t i = 0; i < g->entries.count; i++) {
		const struct vendor_event *v = &u->events.items[g->entries.items[i]];
		struct umask *um = vec_push(&ev->umasks);
		um->name = umask_name(v->name);
		um->description = xstrdup(v->description);
		um->source = xstrdup(v->file);
		um->libpfm_index = -1;
		if (intel) {
			intel_umask(ev, um, v);
		} else if (!amd_umask(ev, um, v)) {
			combine = false;
			if (v->code != ev->code || v->cmask || v->inv || v->edge)
				model_note(m, "%s:%d:%d: %s: its flags or event code do not fit %s's encoder: encoded without them",
					   v->file, v->line, v->column, v->name, p->family);
		}
		if (strchr(strchr(v->name, '.') + 1, '.')) {
			/* OCR.DEMAND_DATA_RD.ANY_RESPONSE: typable as a whole too */
			struct event_alias *a = vec_push(&ev->aliases);
			a->name = xstrdup(v->name);
			a->attrs = xstrdup(um->name);
		}
	}
	return combine;
}

static void build_event(struct model *m, struct pmu *p, const struct pmu *like, const struct vendor_uarch *u,
			const struct group *g)
{
	struct shape want = {0};
	const struct vendor_event *first = &u->events.items[g->bare >= 0 ? (size_t)g->bare : g->entries.items[0]];
	for (size_t i = 0; i <= g->entries.count; i++) {
		const struct vendor_event *v = i < g->entries.count ? &u->events.items[g->entries.items[i]]
				  : g->bare >= 0 ? &u->events.items[g->bare] : NULL;
		if (!v)
			continue;
		want.precise |= v->pebs > 0;
		want.ldlat |= v->msr_index == MSR_LOAD_LATENCY;
		want.frontend |= v->msr_index == MSR_FRONTEND;
		want.any |= v->any != 0;
	}
	struct event *ev = vec_push(&p->events);
	ev->name = xstrdup(g->name);
	ev->description = xstrdup(first->description);
	ev->source = xstrdup(first->file);
	ev->libpfm_index = -1;
	ev->perf_type = -2;
	ev->is_precise = want.precise;
	ev->dtype = PFM_DTYPE_UINT64;
	copy_modifiers(p, ev, pick_template(like, g->name, &want));
	if (g->bare >= 0 && !g->entries.count) {
		/* the bare event is the encoding: Intel keeps a unit mask in
		 * the code above the select (as libpfm's codes do), AMD above
		 * the extended select (bits 16-23, see db/family_encoders.c) */
		if (!strcmp(p->family, "intel_x86"))
			ev->code = (first->code & 0xff) | intel_upper_bits(first) << 8;
		else
			ev->code = first->code | (first->umask ? first->umask << 16 : 0);
		return;
	}
	if (g->bare >= 0)
		model_note(m, "%s:%d:%d: %s is listed alone and with unit masks: the one alone is left out", first->file,
			   first->line, first->column, first->name);
	ev->code = common_code(u, g);
	bool combine = add_umasks(m, p, ev, u, g);
	ev->group_count = 1;
	if (!combine) {
		struct group_rule *r = vec_push(&ev->group_rules);
		r->error = PFM_ERR_FEATCOMB;
	}
	ev->bare_error = PFM_ERR_UMASK;
}

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

static void vendor_strings(const struct pmu *p, const struct vendor_uarch *u, struct vendor_strings *out,
			   struct groups *gs)
{
	for (size_t e = 0; e < p->events.count && e < gs->count; e++) {
		const struct group *g = &gs->items[e];
		for (long i = -1; i < (long)g->entries.count; i++) {
			long v = i < 0 ? (g->entries.count ? -1 : g->bare) : (long)g->entries.items[i];
			if (v < 0)
				continue;
			struct vendor_string *s = vec_push(out);
			s->event = (int)e;
			s->umask = (int)i;
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
static const struct vendor_string *same_encoding(const struct vendor_strings *vs, int e, const struct like_string *l)
{
	for (size_t k = 0; k < vs->count; k++)
		if (vs->items[k].event == e && vs->items[k].config == l->config && vs->items[k].config1 == l->config1)
			return &vs->items[k];
	return NULL;
}

/* The event of P with most encodings of like event E, or -1. */
static int best_match(const struct like_strings *ls, const struct vendor_strings *vs, size_t e, int *votes, size_t n)
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
static void add_like_names(struct pmu *p, const struct pmu *like, const struct like_strings *ls,
			   const struct vendor_uarch *u, struct groups *gs)
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
			const struct like_string *l = &ls->items[i];
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
	p->num_counters = like->num_counters;
	p->num_fixed_counters = like->num_fixed_counters;
	p->max_encoding = like->max_encoding;
}

static void free_groups(struct groups *gs)
{
	for (size_t i = 0; i < gs->count; i++) {
		free(gs->items[i].name);
		free(gs->items[i].entries.items);
	}
	free(gs->items);
}

static int build_pmu(struct model *m, size_t index)
{
	struct pmu *p = &m->pmus.items[index];
	const struct pmu *like = model_find_pmu(m, p->like);
	const struct vendor_uarch *u = &m->uarchs.items[p->uarch];
	take_like_rules(p, like);
	struct groups gs = {0};
	group_entries(m, u, p->unit, &gs);
	for (size_t i = 0; i < gs.count; i++)
		build_event(m, p, like, u, &gs.items[i]);
	struct like_strings ls = {0};
	probe_like(like, &ls);
	add_like_names(p, like, &ls, u, &gs);
	free(ls.items);
	free_groups(&gs);
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
	e->why = xprintf("perf pmu-events mapfile row '%s': %s", c->id, u->name);
	e->file = xprintf("pmu-events:%s", c->file);
	e->line = c->line;
	e->from_vendor = true;
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
		if (!u->mapped) {
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
