/*
 * reconcile.c - libpfm's tables against the vendors' lists (see
 * reconcile.h).
 *
 * Both sources are compared as encodings, not as tables: each libpfm
 * string (an event alone, or with one unit mask) as libpfm's encoder
 * answers it, each vendor entry as its fields state it (vendor_config()).
 * A vendor entry is matched first by name (EVENT.UMASK against
 * EVENT:UMASK), then by encoding (the same config and config1 under
 * another name), which may be several of libpfm's unit masks of one event
 * together (AMD's unit-mask bits, Intel's offcore-response bits).  What no libpfm string has is
 * vendor-only, and is added to the PMU: as a unit mask of libpfm's event of
 * that name where its encoder can carry it, else as an event of its own.
 * libpfm stays the answer for every name it has; overrides correct it
 * where the vendor proves it wrong.  They are applied before this: a
 * string they changed is compared by name (libpfm's answer, which the
 * override corrects), never matched by encoding, since the catalog no
 * longer encodes it as libpfm does.
 */
#include "compiler/reconcile.h"

#include <fnmatch.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/probe.h"
#include "compiler/vendor_events.h"
#include "compiler/vendor_uncore.h"

/* The libpfm name of string S of P: "EVENT" or "EVENT:UMASK". */
static char *string_name(const struct pmu *p, const struct pmu_string *s)
{
	const struct event *ev = &p->events.items[s->event];
	return s->umask < 0 ? xstrdup(ev->name) : xprintf("%s:%s", ev->name, ev->umasks.items[s->umask].name);
}

/* The libpfm string named EVENT[:UMASK] (UMASK NULL: the bare event), or -1. */
static long string_named(const struct pmu *p, const struct pmu_strings *ls, const char *event, const char *umask)
{
	for (size_t i = 0; i < ls->count; i++) {
		const struct event *ev = &p->events.items[ls->items[i].event];
		if (strcasecmp(ev->name, event) || (ls->items[i].umask < 0) != !umask)
			continue;
		if (!umask || !strcasecmp(ev->umasks.items[ls->items[i].umask].name, umask))
			return (long)i;
	}
	return -1;
}

/* Did an override change string S (its event, or its unit mask)? */
static bool overridden(const struct pmu *p, const struct pmu_string *s)
{
	const struct event *ev = &p->events.items[s->event];
	return ev->why || (s->umask >= 0 && ev->umasks.items[s->umask].why);
}

static long string_encoded(const struct pmu *p, const struct pmu_strings *ls, const uint64_t config[2])
{
	for (size_t i = 0; i < ls->count; i++)
		if (ls->items[i].config == config[0] && ls->items[i].config1 == config[1] && !overridden(p, &ls->items[i]))
			return (long)i;
	return -1;
}

/* Candidate unit masks of one libpfm event for a combination: position and
 * the bits it contributes. */
struct part { int umask; uint64_t bits; };

static int by_more_bits(const void *a, const void *b)
{
	int na = __builtin_popcountll(((const struct part *)a)->bits), nb = __builtin_popcountll(((const struct part *)b)->bits);
	return nb - na ? nb - na : ((const struct part *)a)->umask - ((const struct part *)b)->umask;
}

/*
 * The unit masks of EV whose bits cover TARGET, the widest first, as the
 * attributes ":U1:U2...", or NULL.  Event EV's unit-mask codes are config1
 * bits (offcore response) or its umask field, taken from its single
 * encodings that have the entry's select and flags.
 */
static char *cover(const struct pmu *p, const struct pmu_strings *ls, int e, const uint64_t config[2])
{
	const struct event *ev = &p->events.items[e];
	uint64_t target = ev->umasks_in_config1 ? config[1] : (config[0] >> 8) & 0xff;
	struct part *parts = calloc(ev->umasks.count + 1, sizeof(*parts));
	size_t n = 0;
	for (size_t i = 0; parts && i < ls->count; i++) {
		const struct pmu_string *s = &ls->items[i];
		if (s->event != e || s->umask < 0 || ev->umasks.items[s->umask].equiv || overridden(p, s))
			continue;
		uint64_t bits = ev->umasks_in_config1 ? ev->umasks.items[s->umask].code : (s->config >> 8) & 0xff;
		bool same_rest = ev->umasks_in_config1 ? s->config == config[0]
				 : (s->config & ~0xff00ULL) == (config[0] & ~0xff00ULL) && !s->config1 && !config[1];
		if (same_rest && bits && !(bits & ~target))
			parts[n++] = (struct part){ s->umask, bits };
	}
	qsort(parts, n, sizeof(*parts), by_more_bits);
	uint64_t have = 0;
	char *attrs = NULL;
	for (size_t i = 0; i < n && have != target; i++) {
		if (!(parts[i].bits & ~have))
			continue;
		have |= parts[i].bits;
		char *longer = xprintf("%s:%s", attrs ? attrs : "", ev->umasks.items[parts[i].umask].name);
		free(attrs);
		attrs = longer;
	}
	free(parts);
	if (!target || have != target) {
		free(attrs);
		return NULL;
	}
	return attrs;
}

/*
 * Several of libpfm's unit masks of one event together, where the vendor
 * lists their combination as one entry (AMD's ls_dispatch.ld_st_dispatch,
 * Intel's OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_HIT.ANY_SNOOP), confirmed by
 * libpfm's encoder.  Returns "EVENT:U1:U2..." or NULL.
 */
static char *combination(const struct pmu *p, const struct pmu_strings *ls, const uint64_t config[2])
{
	for (size_t e = 0; e < p->events.count; e++) {
		if (p->events.items[e].libpfm_index < 0 || p->events.items[e].retired || p->events.items[e].why)
			continue;
		char *attrs = cover(p, ls, (int)e, config);
		if (!attrs)
			continue;
		char *s = xprintf("%s::%s%s", p->name, p->events.items[e].name, attrs);
		struct probe q;
		probe_encode(s, PFM_PLM0 | PFM_PLM3, &q);
		free(s);
		if (!q.error && !q.raw_only && q.attr.config == config[0] && q.attr.config1 == config[1]) {
			char *name = xprintf("%s%s", p->events.items[e].name, attrs);
			free(attrs);
			return name;
		}
		free(attrs);
	}
	return NULL;
}

static struct finding *add_finding(struct model *m, const struct pmu *p, const struct vendor_uarch *u,
				   enum match match)
{
	struct finding *f = vec_push(&m->findings);
	f->pmu = xstrdup(p->name);
	f->uarch = xstrdup(u->name);
	f->match = match;
	return f;
}

/* A finding of vendor entry V, whose encoding is VC (config, config1). */
static struct finding *vendor_finding(struct model *m, const struct pmu *p, const struct vendor_uarch *u,
				      enum match match, const struct vendor_event *v, const uint64_t vc[2])
{
	struct finding *f = add_finding(m, p, u, match);
	f->vendor_name = xstrdup(v->name);
	f->vendor_file = xstrdup(v->file);
	memcpy(f->vendor_config, vc, sizeof(f->vendor_config));
	return f;
}

/* F's libpfm side: string S of LS, which a vendor entry has now met. */
static void libpfm_side(struct finding *f, const struct pmu *p, const struct pmu_strings *ls, long s, bool *seen)
{
	seen[s] = true;
	f->libpfm_name = string_name(p, &ls->items[s]);
	f->libpfm_config[0] = ls->items[s].config;
	f->libpfm_config[1] = ls->items[s].config1;
}

/* A finding for each string of LS (libpfm's, of P) that no vendor entry
 * met. */
static void add_libpfm_only(struct model *m, const struct pmu *p, const struct vendor_uarch *u,
			    const struct pmu_strings *ls, const bool *seen)
{
	for (size_t i = 0; seen && i < ls->count; i++) {
		if (seen[i])
			continue;
		struct finding *f = add_finding(m, p, u, MATCH_LIBPFM_ONLY);
		f->libpfm_name = string_name(p, &ls->items[i]);
		f->libpfm_config[0] = ls->items[i].config;
		f->libpfm_config[1] = ls->items[i].config1;
	}
}

static bool name_taken(const struct pmu *p, const char *name)
{
	for (size_t e = 0; e < p->events.count; e++) {
		if (!strcasecmp(p->events.items[e].name, name))
			return true;
		for (size_t a = 0; a < p->events.items[e].aliases.count; a++)
			if (!strcasecmp(p->events.items[e].aliases.items[a].name, name))
				return true;
	}
	return false;
}

/* The vendor's NAME stands for libpfm's EVENT:ATTRS ("EVENT" or
 * "EVENT:U1:U2"). */
static void add_vendor_alias(struct pmu *p, const char *name, const char *libpfm_name)
{
	char *event = xstrdup(libpfm_name), *attrs = strchr(event, ':');
	if (attrs)
		*attrs++ = '\0';
	struct event *ev = pmu_find_event(p, event);
	if (ev && !name_taken(p, name)) {
		struct event_alias *a = vec_push(&ev->aliases);
		a->name = xstrdup(name);
		a->attrs = xstrdup(attrs);
	}
	free(event);
}

/* The group of the vendor unit masks added to EV: one for all of them
 * (made on first use), refused beside every group when REFUSED. */
static int vendor_group(struct event *ev, bool refused)
{
	for (size_t i = 0; i < ev->umasks.count; i++)
		if (ev->umasks.items[i].source && ev->umasks.items[i].group >= 0)
			return ev->umasks.items[i].group;
	int g = ev->group_count++;
	for (int k = 0; refused && k <= g; k++) {
		struct group_rule *r = vec_push(&ev->group_rules);
		r->group_a = k;
		r->group_b = g;
		r->error = PFM_ERR_FEATCOMB;
		r->after_reading = false;
		r->third_lifts = false;
		r->lifted_by = -1;
	}
	return g;
}

/*
 * A vendor-only entry V as a new unit mask of libpfm's event EV of the same
 * name, where EV's encoder can carry it: refused beside any other on Intel
 * (each entry is a whole encoding), combining on AMD.
 */
static bool add_vendor_umask(struct pmu *p, struct event *ev, const struct vendor_event *v)
{
	bool intel = !strcmp(p->family, "intel_x86"), amd = !strcmp(p->family, "amd64");
	bool config1_msr = v->msr_index == MSR_OFFCORE_0 || v->msr_index == MSR_OFFCORE_1 || v->msr_index == MSR_FRONTEND;
	if (!intel && !amd)
		return false;
	if (amd && ((v->code & 0xfff) != (ev->code & 0xfff) || v->cmask || v->inv || v->edge))
		return false;
	if (intel && ev->umasks_in_config1
	    ? !config1_msr || ((v->code & 0xff) | v->umask << 8) != (ev->code & 0xffff)
	    : config1_msr || (v->msr_index == MSR_LOAD_LATENCY && event_modifier(ev, "ldlat") < 0))
		return false;
	struct umask *um = vec_push(&ev->umasks);
	um->name = vendor_umask_name(v->name);
	um->description = xstrdup(v->description);
	um->source = xstrdup(v->file);
	um->libpfm_index = -1;
	if (amd)
		um->code = v->umask;
	else if (ev->umasks_in_config1)
		um->code = v->msr_value;
	else
		vendor_intel_umask(ev, um, v);
	um->group = vendor_group(ev, intel);
	const char *dot = strchr(v->name, '.');
	if (dot && strchr(dot + 1, '.') && !name_taken(p, v->name)) {
		struct event_alias *a = vec_push(&ev->aliases);	/* typable whole, as the vendor names it */
		a->name = xstrdup(v->name);
		a->attrs = xstrdup(um->name);
	}
	return true;
}

/* Vendor-only entries of group G (their findings ROWS, in order): onto
 * libpfm's event of that name, else a new event of the PMU (ruled like the
 * PMU's own events). */
static void add_vendor_only(struct model *m, struct pmu *p, const struct vendor_uarch *u,
			    const struct vendor_group *g, const size_t *rows)
{
	struct event *ev = pmu_find_event(p, g->name);
	if (!ev) {
		vendor_make_event(m, p, p, u, g);	/* (an entry alone beside dotted ones is left out) */
		for (size_t i = 0; i < g->entries.count + (g->bare >= 0); i++)
			m->findings.items[rows[i]].added = i > 0 || g->bare < 0 || !g->entries.count;
		return;
	}
	if (ev->equiv) {
		/* libpfm's name for another event (tmt's OCR is OFFCORE_RESPONSE_0):
		 * the unit masks go to that one, which the name then reaches */
		char *target = xstrdup(ev->equiv);
		target[strcspn(target, ":.")] = '\0';
		struct event *to = pmu_find_event(p, target);
		free(target);
		if (!to || to->equiv) {
			model_note(m, "%s: vendor-only entries of %s: libpfm's %s::%s is another name for %s: not added",
				   u->name, g->name, p->name, ev->name, ev->equiv);
			return;
		}
		ev = to;
	}
	if (g->bare >= 0)
		model_note(m, "%s: vendor-only %s: libpfm's %s::%s has it not alone: not added", u->events.items[g->bare].file,
			   u->events.items[g->bare].name, p->name, ev->name);
	for (size_t i = 0; i < g->entries.count; i++) {
		const struct vendor_event *v = &u->events.items[g->entries.items[i]];
		bool added = add_vendor_umask(p, ev, v);
		m->findings.items[rows[i + (g->bare >= 0)]].added = added;
		if (!added)
			model_note(m, "%s:%d:%d: %s: vendor-only, and %s::%s's encoder cannot carry it: not added", v->file,
				   v->line, v->column, v->name, p->name, ev->name);
	}
}

/* One vendor entry against libpfm's strings: its finding. */
static struct finding *match_entry(struct model *m, struct pmu *p, const struct vendor_uarch *u,
				   const struct pmu_strings *ls, bool *seen, const struct vendor_group *g,
				   const struct vendor_event *v)
{
	uint64_t vc[2];
	vendor_config(p->family, v, &vc[0], &vc[1]);
	char *umask = strchr(v->name, '.') ? vendor_umask_name(v->name) : NULL;
	long s = string_named(p, ls, g->name, umask);
	free(umask);
	enum match match = s >= 0 ? (ls->items[s].config == vc[0] && ls->items[s].config1 == vc[1] ? MATCH_AGREE
				     : MATCH_DIFFER) : MATCH_OTHER_NAME;
	char *libpfm_name = NULL;
	if (s < 0 && (s = string_encoded(p, ls, vc)) < 0)
		libpfm_name = combination(p, ls, vc);
	if (s < 0 && !libpfm_name)
		match = MATCH_VENDOR_ONLY;
	struct finding *f = vendor_finding(m, p, u, match, v, vc);
	if (s >= 0) {
		libpfm_side(f, p, ls, s, seen);
	} else if (libpfm_name) {
		f->libpfm_name = libpfm_name;
		memcpy(f->libpfm_config, vc, sizeof(vc));
	}
	/* the vendor's name resolves: as an alias where another name has its
	 * encoding, and, dotted twice or more, whole (OCR.X.Y is OCR:X_Y) */
	const char *dot = strchr(v->name, '.');
	if (match == MATCH_OTHER_NAME || (match != MATCH_VENDOR_ONLY && dot && strchr(dot + 1, '.')))
		add_vendor_alias(p, v->name, f->libpfm_name);
	return f;
}

static void reconcile_pmu(struct model *m, size_t index)
{
	struct pmu *p = &m->pmus.items[index];
	const struct vendor_uarch *u = &m->uarchs.items[p->uarch];
	uint64_t unused[2];
	if (vendor_config(p->family, &(struct vendor_event){0}, &unused[0], &unused[1])) {
		model_note(m, "reconcile: %s: its family %s reads no vendor fields: %s not compared", p->name, p->family,
			   u->name);
		return;
	}
	struct pmu_strings ls = {0};
	probe_pmu_strings(p, &ls);
	bool *seen = calloc(ls.count + 1, sizeof(*seen));
	struct vendor_groups gs = {0};
	vendor_group_entries(m, u, p->unit, &gs);
	for (size_t gi = 0; seen && gi < gs.count; gi++) {
		struct vendor_group *g = &gs.items[gi];
		/* the group's vendor-only entries, and their findings (by
		 * position: the findings grow) */
		struct vendor_group only = { g->name, { NULL, 0, 0 }, -1, g->depth };
		size_t *rows = calloc(g->entries.count + 2, sizeof(*rows)), nrows = 0;
		if (g->bare >= 0 && match_entry(m, p, u, &ls, seen, g, &u->events.items[g->bare])->match == MATCH_VENDOR_ONLY) {
			only.bare = g->bare;
			rows[nrows++] = m->findings.count - 1;
		}
		for (size_t i = 0; i < g->entries.count; i++) {
			if (match_entry(m, p, u, &ls, seen, g, &u->events.items[g->entries.items[i]])->match != MATCH_VENDOR_ONLY)
				continue;
			*(size_t *)vec_push(&only.entries) = g->entries.items[i];
			rows[nrows++] = m->findings.count - 1;
		}
		if (nrows)
			add_vendor_only(m, p, u, &only, rows);
		free(only.entries.items);
		free(rows);
	}
	add_libpfm_only(m, p, u, &ls, seen);
	vendor_free_groups(&gs);
	free(seen);
	free(ls.items);
}

void reconcile(struct model *m)
{
	for (size_t i = 0; i < m->pmus.count; i++)
		if (!m->pmus.items[i].source && m->pmus.items[i].uarch >= 0)
			reconcile_pmu(m, i);
}

/* ---- uncore boxes ---------------------------------------------------------- */

/* Whether sysfs name NAME is kernel PMU KPMU or its box KPMU_N: the box
 * number in *BOX (-1 for KPMU itself). */
static bool box_of(const char *name, const char *kpmu, long *box)
{
	size_t n = strlen(kpmu);
	if (!strcmp(name, kpmu)) {
		*box = -1;
		return true;
	}
	if (strncmp(name, kpmu, n) || name[n] != '_' || !name[n + 1]
	    || strspn(name + n + 1, "0123456789") != strlen(name + n + 1))
		return false;
	*box = strtol(name + n + 1, NULL, 10);
	return true;
}

/* Whether libpfm's PMU NAME runs on CPUs of µarch UARCH: a cpuid entry
 * lists it beside a core PMU of that µarch. */
static bool on_uarch(const struct model *m, const char *name, size_t uarch)
{
	for (size_t i = 0; i < m->cpuid.count; i++) {
		const struct cpuid_entry *e = &m->cpuid.items[i];
		for (size_t k = 0; k < e->pmus.count; k++)
			if (!strcmp(e->pmus.items[k], name) && vendor_uncore_lists_core_of(m, e, uarch))
				return true;
	}
	return false;
}

/* Libpfm's boxes of kernel PMU KPMU on µarch UARCH (positions in the
 * model), the lowest numbered first; how many. */
static size_t libpfm_boxes(const struct model *m, size_t uarch, const char *kpmu, size_t *out, size_t max)
{
	size_t n = 0;
	long first = 0;
	for (size_t i = 0; i < m->pmus.count && n < max; i++) {
		const struct pmu *p = &m->pmus.items[i];
		long box;
		if (p->source || p->kind != PMU_UNCORE || !p->sysfs_names.count
		    || !box_of(p->sysfs_names.items[0], kpmu, &box) || !on_uarch(m, p->name, uarch))
			continue;
		out[n++] = i;
		if (n == 1 || box < first) {
			first = box;
			size_t t = out[0];
			out[0] = i;
			out[n - 1] = t;
		}
	}
	return n;
}

/* "UNC_C_" of "UNC_C_CLOCKTICKS": a name up to its second '_', or "". */
static char *name_prefix(const char *name)
{
	const char *u = strchr(name, '_');
	u = u ? strchr(u + 1, '_') : NULL;
	return u ? xprintf("%.*s", (int)(u - name + 1), name) : xstrdup("");
}

/* Vendor entry V of µarch U against libpfm's box strings LS of BOXES[0]
 * (whose event names begin LIBPFM_PREFIX): its finding; the vendor's name
 * an alias on every box where it encodes as libpfm's string of another
 * name (UNC_CHA_X.Y for skx's UNC_C_X:Y). */
static void match_box_entry(struct model *m, const size_t *boxes, size_t nboxes, const struct vendor_uarch *u,
			    const struct pmu_strings *ls, bool *seen, const char *libpfm_prefix,
			    const struct vendor_event *v)
{
	struct pmu *p = &m->pmus.items[boxes[0]];
	const char *dot = strchr(v->name, '.');
	char *event = dot ? xprintf("%.*s", (int)(dot - v->name), v->name) : xstrdup(v->name);
	char *umask = dot ? vendor_umask_name(v->name) : NULL;
	char *prefix = name_prefix(event);
	bool renamed = false;
	long s = string_named(p, ls, event, umask);
	if (s < 0 && *libpfm_prefix && strcmp(prefix, libpfm_prefix)) {
		char *other = xprintf("%s%s", libpfm_prefix, event + strlen(prefix));
		s = string_named(p, ls, other, umask);
		renamed = s >= 0;
		free(other);
	}
	const uint64_t *vc = v->encoding;
	enum match match = s >= 0 ? (ls->items[s].config == vc[0] && ls->items[s].config1 == vc[1] && !vc[2]
				     ? MATCH_AGREE : MATCH_DIFFER) : MATCH_OTHER_NAME;
	if (s < 0 && (vc[2] || (s = string_encoded(p, ls, vc)) < 0))
		match = MATCH_VENDOR_ONLY;
	/* (a vendor-only entry is the vendor PMU's, not added to libpfm's box) */
	struct finding *f = vendor_finding(m, p, u, match, v, vc);
	if (s >= 0)
		libpfm_side(f, p, ls, s, seen);
	/* the vendor's name answers on libpfm's boxes where it is another
	 * name of libpfm's encoding; where the encodings differ it stays the
	 * vendor PMU's */
	bool twice = dot && strchr(dot + 1, '.');
	if (match == MATCH_OTHER_NAME || (match == MATCH_AGREE && (renamed || twice)))
		for (size_t i = 0; i < nboxes; i++)
			add_vendor_alias(&m->pmus.items[boxes[i]], v->name, f->libpfm_name);
	if (match == MATCH_VENDOR_ONLY && v->on_libpfm_box)
		model_note(m, "%s:%d:%d: %s: vendor-only, on libpfm's %s, which its encoder cannot carry: not added",
			   v->file, v->line, v->column, v->name, p->name);
	free(event);
	free(umask);
	free(prefix);
}

/* The entries of kernel PMU KPMU of µarch U against libpfm's boxes of it. */
static void reconcile_box(struct model *m, size_t uarch, const char *kpmu)
{
	size_t boxes[256];
	size_t nboxes = libpfm_boxes(m, uarch, kpmu, boxes, 256);
	if (!nboxes)
		return;
	const struct vendor_uarch *u = &m->uarchs.items[uarch];
	struct pmu *p = &m->pmus.items[boxes[0]];
	struct pmu_strings ls = {0};
	probe_pmu_strings(p, &ls);
	bool *seen = calloc(ls.count + 1, sizeof(*seen));
	char *libpfm_prefix = p->events.count ? name_prefix(p->events.items[0].name) : xstrdup("");
	for (size_t i = 0; seen && i < u->uncore.count; i++) {
		const struct vendor_event *v = &u->uncore.items[i];
		if ((v->taken || v->on_libpfm_box) && !strcmp(v->kernel_pmu, kpmu))
			match_box_entry(m, boxes, nboxes, u, &ls, seen, libpfm_prefix, v);
	}
	add_libpfm_only(m, p, u, &ls, seen);
	free(libpfm_prefix);
	free(seen);
	free(ls.items);
}

void reconcile_uncore(struct model *m)
{
	for (size_t ui = 0; ui < m->uarchs.count; ui++) {
		const struct vendor_uarch *u = &m->uarchs.items[ui];
		/* each kernel PMU of the µarch's encoded entries, once */
		VEC(const char *) done = {0};
		for (size_t i = 0; i < u->uncore.count; i++) {
			const struct vendor_event *v = &u->uncore.items[i];
			bool seen = !(v->taken || v->on_libpfm_box);
			for (size_t k = 0; !seen && k < done.count; k++)
				seen = !strcmp(done.items[k], v->kernel_pmu);
			if (seen)
				continue;
			*(const char **)vec_push(&done) = v->kernel_pmu;
			reconcile_box(m, ui, v->kernel_pmu);
		}
		free(done.items);
	}
}

size_t reconcile_counts(const struct model *m, struct reconcile_count *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < m->findings.count; i++) {
		const struct finding *f = &m->findings.items[i];
		struct reconcile_count *c = n ? &out[n - 1] : NULL;
		if (!c || strcmp(c->pmu, f->pmu) || strcmp(c->uarch, f->uarch)) {
			if (n == max)
				break;
			c = &out[n++];
			memset(c, 0, sizeof(*c));
			c->pmu = f->pmu;
			c->uarch = f->uarch;
		}
		c->agree += f->match == MATCH_AGREE;
		c->differ += f->match == MATCH_DIFFER;
		c->corrected += f->explained && !strcmp(f->explained, "corrected");
		c->equivalent += f->explained && !strcmp(f->explained, "equivalent");
		c->by_design += f->explained && !strcmp(f->explained, "by_design");
		c->vendor_error += f->explained && !strcmp(f->explained, "vendor_error");
		c->kept += f->explained && !strcmp(f->explained, "kept");
		c->unexplained += f->match == MATCH_DIFFER && !f->explained;
		c->other_name += f->match == MATCH_OTHER_NAME;
		c->vendor_only += f->match == MATCH_VENDOR_ONLY;
		c->added += f->added;
		c->libpfm_only += f->match == MATCH_LIBPFM_ONLY;
	}
	return n;
}

/* ---- explaining the differences ------------------------------------------ */

/* Does TARGET ("pmu::event[:umask]", each a glob) name F's libpfm string,
 * or the string it stands for where F's event is another's name (tmt's OCR
 * is OFFCORE_RESPONSE_0)? */
static bool names(struct model *m, const char *target_pmu, const char *event, const char *umask,
		  const struct finding *f)
{
	char *mine = xstrdup(f->libpfm_name), *my_umask = strchr(mine, ':');
	if (my_umask)
		*my_umask++ = '\0';
	struct pmu *p = model_find_pmu(m, f->pmu);
	struct event *ev = p ? pmu_find_event(p, mine) : NULL;
	char *target = ev && ev->equiv ? xstrdup(ev->equiv) : NULL;
	if (target)
		target[strcspn(target, ":.")] = '\0';
	bool yes = !fnmatch(target_pmu, f->pmu, FNM_CASEFOLD)
		   && (!fnmatch(event, mine, FNM_CASEFOLD) || (target && !fnmatch(event, target, FNM_CASEFOLD)))
		   && (!umask || (my_umask && !fnmatch(umask, my_umask, FNM_CASEFOLD)));
	free(target);
	free(mine);
	return yes;
}

static bool corrected_by_override(struct model *m, struct finding *f)
{
	for (size_t i = 0; i < m->overrides.count; i++) {
		const struct override_record *o = &m->overrides.items[i];
		char *pmu = xstrdup(o->target), *event = strstr(pmu, "::");
		*event = '\0';
		event += 2;
		char *umask = strchr(event, ':');
		if (umask)
			*umask++ = '\0';
		bool yes = names(m, pmu, event, umask, f);
		free(pmu);
		if (yes) {
			f->explained = xstrdup("corrected");
			f->why = xprintf("%s (%s:%d)", o->why, o->file, o->line);
			return true;
		}
	}
	return false;
}

static bool known_difference(struct model *m, struct finding *f)
{
	for (size_t i = 0; i < m->differences.count; i++) {
		struct known_difference *q = &m->differences.items[i];
		bool bits = true;
		for (int w = 0; w < 2; w++)
			bits &= !q->has_xor[w] || (f->libpfm_config[w] ^ f->vendor_config[w]) == q->xor[w];
		if (bits && names(m, q->pmu, q->event, q->umask, f)) {
			q->used = true;
			f->explained = xstrdup(q->kind);
			f->why = xprintf("%s (%s:%d)", q->why, q->file, q->line);
			return true;
		}
	}
	return false;
}

long reconcile_explain(struct model *m)
{
	long unexplained = 0;
	for (size_t i = 0; i < m->findings.count; i++) {
		struct finding *f = &m->findings.items[i];
		if (f->match != MATCH_DIFFER || corrected_by_override(m, f) || known_difference(m, f))
			continue;
		unexplained++;
		model_note(m, "%s: reconcile: libpfm's %s::%s is 0x%llx/0x%llx, the vendor's %s (%s) 0x%llx/0x%llx:"
			   " neither corrected nor a known difference", f->uarch, f->pmu, f->libpfm_name,
			   (unsigned long long)f->libpfm_config[0], (unsigned long long)f->libpfm_config[1], f->vendor_name,
			   f->vendor_file, (unsigned long long)f->vendor_config[0], (unsigned long long)f->vendor_config[1]);
	}
	for (size_t i = 0; i < m->differences.count; i++) {
		const struct known_difference *q = &m->differences.items[i];
		if (!q->used)
			model_note(m, "%s:%d: differences: %s::%s%s%s names no difference from a vendor list", q->file, q->line,
				   q->pmu, q->event, q->umask ? ":" : "", q->umask ? q->umask : "");
	}
	return unexplained;
}
