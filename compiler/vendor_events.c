/*
 * vendor_events.c - catalog events from a vendor list's entries.
 *
 * A vendor list is flat: one entry per encoding, named EVENT.UMASK (Intel,
 * AMD) or EVENT (Arm, and AMD events without unit masks).  Each becomes
 * event EVENT with unit mask UMASK, as libpfm's tables are laid out, so that
 * the same grammar and the same encoders serve both sources.  What libpfm's
 * tables say with flags, an entry says with fields, and they land where the
 * family's encoder puts them:
 *   - an EventCode other than the event's: the unit mask replaces the event
 *     select (libpfm's code override, umask.sets_event_select);
 *   - CounterMask, Invert, EdgeDetect, AnyThread: in the unit mask's code,
 *     as libpfm's codes hold them, and hard-wired on the modifiers c, i, e,
 *     t (another value is refused);
 *   - the load-latency MSR: a hard-wired ldlat; the offcore-response and
 *     frontend MSRs: the unit mask's config1 bits;
 *   - PEBS: the event takes the modifiers of a precise event of the PMU it
 *     is like.
 * Used for the PMUs made from a vendor list (vendor_build.c) and for the
 * vendor-only events added to libpfm's PMUs (reconcile.c).
 */
#include "compiler/vendor_events.h"
#include "catalog/limits.h"

#include <assert.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int vendor_config(const char *family, const struct vendor_event *v, uint64_t *config, uint64_t *config1)
{
	uint64_t flags = v->edge << 18 | v->any << 21 | v->inv << 23 | v->cmask << 24;
	*config1 = 0;
	if (!strcmp(family, "intel_x86")) {
		*config = (v->code & 0xff) | v->umask << 8 | v->umask_ext << 40 | flags;
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

/* ---- grouping the flat list into events ---------------------------------- */


static struct vendor_group *group_named(struct vendor_groups *gs, const char *name, size_t len)
{
	for (size_t i = 0; i < gs->count; i++)
		if (strlen(gs->items[i].name) == len && !strncasecmp(gs->items[i].name, name, len))
			return &gs->items[i];
	struct vendor_group *g = vec_push(gs);
	g->name = strndup(name, len);
	g->bare = -1;
	g->depth = 1;
	return g;
}

/* The entries of G, too many for one event, moved into groups named by
 * their first two dotted parts ("A.B.C" into "A_B"); those with one part
 * after the event stay in G. */
static void split_group(const struct vendor_uarch *u, struct vendor_groups *gs, size_t index)
{
	size_t kept = 0;
	for (size_t k = 0; k < gs->items[index].entries.count; k++) {
		size_t i = gs->items[index].entries.items[k];
		const char *name = u->events.items[i].name;
		const char *first = strchr(name, '.'), *second = first ? strchr(first + 1, '.') : NULL;
		if (!second) {
			gs->items[index].entries.items[kept++] = i;
			continue;
		}
		char *joined = strndup(name, (size_t)(second - name));
		joined[first - name] = '_';
		struct vendor_group *sub = group_named(gs, joined, strlen(joined));
		free(joined);
		sub->depth = 2;
		*(size_t *)vec_push(&sub->entries) = i;
	}
	gs->items[index].entries.count = kept;
}

static bool same_unit(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

void vendor_group_entries(struct model *m, const struct vendor_uarch *u, const char *unit, struct vendor_groups *gs)
{
	for (size_t i = 0; i < u->events.count; i++) {
		const struct vendor_event *v = &u->events.items[i];
		if (!same_unit(v->unit, unit))
			continue;
		const char *dot = strchr(v->name, '.');
		struct vendor_group *g = group_named(gs, v->name, dot ? (size_t)(dot - v->name) : strlen(v->name));
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
	size_t count = gs->count;
	for (size_t k = 0; k < count; k++)
		if (gs->items[k].entries.count > MAX_UMASKS)
			split_group(u, gs, k);
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

/* Whether EV's modifiers hold none that WANT's event cannot use: a load
 * latency or frontend threshold it has no MSR for, precise sampling where
 * it has no PEBS. */
static bool adds_nothing(const struct event *ev, const struct shape *want)
{
	return (want->ldlat || !has_modifier(ev, "ldlat")) && (want->frontend || !has_modifier(ev, "fe_thres"))
	       && (want->precise || !has_modifier(ev, "precise"));
}

/*
 * The libpfm event of LIKE whose modifiers EVENT takes: the event of the
 * same name where its modifiers fit (precise sampling, load latency,
 * frontend threshold, any-thread), else the fitting event whose modifiers
 * were measured best, else the best measured of those that add no
 * modifier the event cannot use (UOPS_RETIRED.MS, a frontend MSR value
 * without PEBS, must not show it as a load latency), else the best
 * measured of all.
 */
static const struct event *pick_template(const struct pmu *like, const char *name, const struct shape *want)
{
	bool like_has_frontend = false;
	for (size_t i = 0; i < like->events.count; i++)
		like_has_frontend |= has_modifier(&like->events.items[i], "fe_thres");
	const struct event *best = NULL, *fitting = NULL, *harmless = NULL;
	for (size_t i = 0; i < like->events.count; i++) {
		const struct event *ev = &like->events.items[i];
		if (ev->libpfm_index < 0 || !ev->modifiers.count)
			continue;
		if (!strcasecmp(ev->name, name) && fits(ev, want, like_has_frontend) && probed_count(ev) == ev->modifiers.count)
			return ev;
		if (fits(ev, want, like_has_frontend) && (!fitting || probed_count(ev) > probed_count(fitting)))
			fitting = ev;
		if (adds_nothing(ev, want) && (!harmless || probed_count(ev) > probed_count(harmless)))
			harmless = ev;
		if (!best || probed_count(ev) > probed_count(best))
			best = ev;
	}
	return fitting ? fitting : harmless ? harmless : best;
}


/* Hard-wires modifier NAME to VALUE for unit mask U; false when EV has no
 * such modifier. */
bool vendor_hardwire(struct event *ev, struct umask *u, const char *name, uint64_t value)
{
	int m = event_modifier(ev, name);
	if (m < 0)
		return false;
	struct implied_value *iv = vec_push(&u->implied);
	iv->modifier = m;
	iv->value = value;
	iv->hardwired = true;
	return true;
}

/* The event code most of the group's entries have. */
static uint64_t common_code(const struct vendor_uarch *u, const struct vendor_group *g)
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
uint64_t vendor_intel_upper_bits(const struct vendor_event *v)
{
	return v->umask | v->edge << 10 | v->any << 13 | v->inv << 15 | v->cmask << 16 | v->umask_ext << 32;
}

/*
 * Intel: the unit mask's code, as libpfm's tables give it (its config bits
 * above the select, flags included, so that it encodes whole when it is a
 * default too), and the values it hard-wires on the modifiers that show
 * them (a c=2 beside a CounterMask of 1 is refused).
 */
void vendor_intel_umask(struct event *ev, struct umask *um, const struct vendor_event *v)
{
	uint64_t select = v->code & 0xff;
	um->code = vendor_intel_upper_bits(v);
	if (v->cmask)
		vendor_hardwire(ev, um, "c", v->cmask);
	if (v->inv)
		vendor_hardwire(ev, um, "i", v->inv);
	if (v->edge)
		vendor_hardwire(ev, um, "e", v->edge);
	if (v->any)
		vendor_hardwire(ev, um, "t", v->any);
	/* the MSRs perf programs (jevents.py's msrmap: offcore response,
	 * load latency, frontend); another (Nova Lake's 0x3E0) is not perf's
	 * to set, and its value stays out of config1 as perf leaves it */
	bool perf_msr = v->msr_index == MSR_OFFCORE_0 || v->msr_index == MSR_OFFCORE_1 || v->msr_index == MSR_FRONTEND;
	if ((v->msr_index == MSR_LOAD_LATENCY && !vendor_hardwire(ev, um, "ldlat", v->msr_value)) || perf_msr) {
		um->filter_config1 = v->msr_value;
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
	return (!v->cmask || vendor_hardwire(ev, um, "c", v->cmask)) && (!v->inv || vendor_hardwire(ev, um, "i", v->inv))
	       && (!v->edge || vendor_hardwire(ev, um, "e", v->edge)) && v->code == ev->code;
}

/* Where the vendor's entry V says it may be counted, into ITEM (an event
 * or a unit mask: both have the fields of catalog/field_lists.h). */
#define VENDOR_COUNTERS(item, v) \
	((item)->counters = (v)->counters, (item)->counters_ht_off = (v)->counters_ht_off, \
	 (item)->pebs_counters = (v)->pebs_counters, (item)->fixed_counters = (v)->fixed_counters, \
	 (item)->taken_alone = (v)->taken_alone, (item)->free_running = (v)->free_running)

char *vendor_umask_name(const char *vendor_name)
{
	return vendor_umask_name_after(vendor_name, 1);
}

char *vendor_umask_name_after(const char *vendor_name, int depth)
{
	const char *rest = vendor_name;
	for (int d = 0; d < depth; d++)
		rest = strchr(rest, '.') + 1;
	char *s = xstrdup(rest);
	for (char *p = s; *p; p++)
		if (*p == '.')
			*p = '_';
	return s;
}

static bool same_implied(const struct umask *a, const struct umask *b)
{
	if (a->implied.count != b->implied.count)
		return false;
	for (size_t i = 0; i < a->implied.count; i++)
		if (a->implied.items[i].modifier != b->implied.items[i].modifier
		    || a->implied.items[i].value != b->implied.items[i].value
		    || a->implied.items[i].hardwired != b->implied.items[i].hardwired)
			return false;
	return true;
}

bool vendor_umask_repeated(struct model *m, struct event *ev, const struct vendor_event *v, bool *same_fields)
{
	assert(ev->umasks.count > 0);
	struct umask *um = &ev->umasks.items[ev->umasks.count - 1];
	const struct umask *first = NULL;
	for (size_t i = 0; i + 1 < ev->umasks.count && !first; i++)
		if (!strcasecmp(ev->umasks.items[i].name, um->name))
			first = &ev->umasks.items[i];
	if (!first)
		return false;
	bool same = first->code == um->code && first->filter_config1 == um->filter_config1
		    && first->filter_config2 == um->filter_config2 && same_implied(first, um);
	*same_fields = same;
	model_note(m, "%s:%d:%d: %s is unit mask %s, as an earlier entry is%s", v->file, v->line, v->column, v->name,
		   um->name, same ? ", with the same fields: another name of it" : ", with other fields: left out");
	if (same && strchr(strchr(v->name, '.') + 1, '.')) {
		struct event_alias *a = vec_push(&ev->aliases);
		a->name = xstrdup(v->name);
		a->attrs = xstrdup(first->name);
	}
	model_free_umask(um);
	ev->umasks.count--;
	return true;
}

/* Adds the unit masks of G to EV; returns whether they may combine (AMD's
 * OR together, as libpfm's amd64 tables allow; Intel's entries are each a
 * whole encoding). */
static bool add_umasks(struct model *m, const struct pmu *p, struct event *ev, const struct vendor_uarch *u,
		       const struct vendor_group *g)
{
	bool intel = !strcmp(p->family, "intel_x86"), combine = !intel;
	for (size_t i = 0; i < g->entries.count; i++) {
		const struct vendor_event *v = &u->events.items[g->entries.items[i]];
		struct umask *um = vec_push(&ev->umasks);
		um->name = vendor_umask_name_after(v->name, g->depth);
		um->description = xstrdup(v->description);
		um->source = xstrdup(v->file);
		um->libpfm_index = -1;
		VENDOR_COUNTERS(um, v);
		if (intel) {
			vendor_intel_umask(ev, um, v);
		} else if (!amd_umask(ev, um, v)) {
			combine = false;
			if (v->code != ev->code || v->cmask || v->inv || v->edge)
				model_note(m, "%s:%d:%d: %s: its flags or event code do not fit %s's encoder: encoded without them",
					   v->file, v->line, v->column, v->name, p->family);
		}
		bool same;
		if (vendor_umask_repeated(m, ev, v, &same))
			continue;
		if (strchr(strchr(v->name, '.') + 1, '.')) {
			/* OCR.DEMAND_DATA_RD.ANY_RESPONSE: typable as a whole too */
			struct event_alias *a = vec_push(&ev->aliases);
			a->name = xstrdup(v->name);
			a->attrs = xstrdup(um->name);
		}
	}
	return combine;
}

static void describe_group(struct event *ev, const char *name)
{
	char text[512];
	snprintf(text, sizeof(text), "%.200s.* of the vendor's list: each unit mask says what it counts", name);
	ev->description = xstrdup(text);
}

/* A load latency or frontend threshold of 0 is taken as none given: the
 * fstr shows such a modifier of a unit mask that sets none as 0
 * (MEM_TRANS_RETIRED:STORE_SAMPLE:...:ldlat=0), and what pmudb prints for
 * a vendor PMU must read back (libpfm's own spr fstr does not: its range
 * starts at 1).  0 lands nothing. */
static void take_unset_thresholds(struct event *ev)
{
	for (size_t i = 0; i < ev->modifiers.count; i++) {
		struct modifier *mod = &ev->modifiers.items[i];
		if ((!strcmp(mod->name, "ldlat") || !strcmp(mod->name, "fe_thres")) && mod->probed && mod->min == 1)
			mod->min = 0;
	}
}

int vendor_make_event(struct model *m, struct pmu *p, const struct pmu *like, const struct vendor_uarch *u,
		      const struct vendor_group *g)
{
	int position = (int)p->events.count;
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
	ev->bare_needs = -1;
	ev->name = xstrdup(g->name);
	/* an event made of several entries has no description of its own in
	 * the list: each unit mask has its entry's, and one of them would say
	 * what another unit mask does not count */
	if (g->bare >= 0 || g->entries.count == 1)
		ev->description = xstrdup(first->description);
	else
		describe_group(ev, g->name);
	ev->source = xstrdup(first->file);
	ev->libpfm_index = -1;
	ev->perf_type = FIELD_PTYPE_NONE;
	ev->is_precise = want.precise;
	ev->dtype = PFM_DTYPE_UINT64;
	event_copy_modifiers(ev, pick_template(like, g->name, &want), p->modifier_names.items, p->modifier_names.count);
	take_unset_thresholds(ev);
	if (g->bare >= 0 && !g->entries.count) {
		/* the bare event is the encoding: Intel keeps a unit mask in
		 * the code above the select (as libpfm's codes do), AMD above
		 * the extended select (bits 16-23, see runtime/encode/family_encoders.c) */
		VENDOR_COUNTERS(ev, first);
		if (!strcmp(p->family, "intel_x86"))
			ev->code = (first->code & 0xff) | vendor_intel_upper_bits(first) << 8;
		else
			ev->code = first->code | (first->umask ? first->umask << 16 : 0);
		return position;
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
	return position;
}

void vendor_free_groups(struct vendor_groups *gs)
{
	for (size_t i = 0; i < gs->count; i++) {
		free(gs->items[i].name);
		free(gs->items[i].entries.items);
	}
	free(gs->items);
}

