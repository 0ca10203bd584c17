/*
 * derive.c - learns the rules libpfm's public API does not expose, by
 * asking its encoder and recording the answers.
 *
 * For every event it encodes the event alone, with each unit mask, and with
 * each pair of unit masks.  From the answers it derives:
 *   - the defaults libpfm adds to a bare event and to each unit mask;
 *   - unit-mask groups: umasks that get the same answer alone and with every
 *     other umask.  A pair's answer then depends only on the two groups, so
 *     the refused combinations are stored per pair of groups;
 *   - the pairs whose defaults break that rule, kept as they are;
 *   - modifier values a unit mask implies (ldlat=3, c=1 ...), and whether
 *     they are hard-wired (libpfm refuses another value with ATTR_SET);
 *   - where each unit mask's code went (event select, config1) and the
 *     filter-register bits it sets (config1/config2, the server uncore);
 *   - the modifiers the event's fstr leaves out.
 * For every modifier list of a PMU it finds the accepted range, the error
 * past it, where the value lands (bits of config/config1/config2 or a
 * perf_event_attr field), what giving it sets beyond its value, and which
 * other modifier it needs; for the PMU, how its perf type is found and
 * which privilege levels it filters.  Nothing here knows a PMU family: the
 * same questions are asked of all of them, and the config of the families
 * whose encoder places measured registers (NetBurst's) is measured too
 * (derive_config.c).
 */
#include "compiler/derive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/families.h"
#include "catalog/landings.h"
#include "compiler/derive_config.h"
#include "compiler/probe.h"
#include "compiler/sysfs_spy.h"

#define PLM_DEFAULT (PFM_PLM0 | PFM_PLM3)

/* ---- perf_event_attr fields, by name ---------------------------------- */

/* The landing fields of catalog/model.h, by name and in a probe. */
#define field_names landing_field_names
#define FIELD_COUNT F_COUNT

static uint64_t field_value(const struct probe *p, size_t field)
{
	const struct perf_event_attr *a = &p->attr;
#define VALUE_ATTR(id, name) case F_##id: return a->name;
#define VALUE_OPEN(id, name)
#define VALUE_RAW(id, name)
#define LANDING_VALUE(id, name, where) VALUE_##where(id, name)
	switch (field) {
	LANDING_FIELDS(LANDING_VALUE)
	case F_CPU: return (uint64_t)(int64_t)p->cpu;
	case F_FLAGS: return (uint64_t)(int64_t)p->flags;
	default: return p->codes[field - F_CODE0];	/* raw-only PMUs */
	}
}

/* Records every field that differs between two successful encodings. */
static void record_landings(struct modifier *m, const struct probe *lo, const struct probe *hi)
{
	for (size_t f = 0; f < FIELD_COUNT; f++) {
		uint64_t diff = field_value(lo, f) ^ field_value(hi, f);
		if (!diff)
			continue;
		struct landing *l = NULL;
		for (size_t i = 0; i < m->landings.count && !l; i++)
			if (!strcmp(m->landings.items[i].field, field_names[f]))
				l = &m->landings.items[i];
		if (!l) {
			l = vec_push(&m->landings);
			snprintf(l->field, sizeof(l->field), "%s", field_names[f]);
		}
		l->mask |= diff;
	}
}

static bool accepts(const char *base, const char *mod, uint64_t value, struct probe *out);

/* An integer's bits: the smallest value against the largest, and against
 * the next one, so that a low bit set in both still shows. */
static void measure_int_landing(const char *base, struct modifier *m, uint64_t min, uint64_t max)
{
	struct probe lo, hi;
	if (min == max || !accepts(base, m->name, min, &lo))
		return;
	if (accepts(base, m->name, max, &hi))
		record_landings(m, &lo, &hi);
	if (min + 1 < max && accepts(base, m->name, min + 1, &hi))
		record_landings(m, &lo, &hi);
}

/* ---- modifiers --------------------------------------------------------- */

static bool accepts(const char *base, const char *mod, uint64_t value, struct probe *out)
{
	char *s = xprintf("%s:%s=%llu", base, mod, (unsigned long long)value);
	probe_encode(s, PLM_DEFAULT, out);
	free(s);
	return out->error == PFM_SUCCESS;
}

static bool taken(const char *base, const char *mod, uint64_t value)
{
	struct probe p;
	return accepts(base, mod, value, &p);
}

/* Largest value in [ok, bad) that TAKES, given ok does and bad does not. */
static uint64_t search_max(const char *base, const char *mod, uint64_t ok, uint64_t bad,
			   bool (*takes)(const char *, const char *, uint64_t))
{
	while (bad - ok > 1) {
		uint64_t mid = ok + (bad - ok) / 2;
		if (takes(base, mod, mid))
			ok = mid;
		else
			bad = mid;
	}
	return ok;
}

/*
 * A boolean that libpfm refuses alone may need another modifier: Intel's
 * edge detect (e=1) needs a counter mask (c>=1).  Try each integer modifier
 * of the PMU at 1 beside it; the first that makes it pass is recorded.
 */
static void find_requirement(const char *base, struct event *ev, size_t mi, int error)
{
	struct modifier *m = &ev->modifiers.items[mi];
	struct probe lo, hi;
	for (size_t j = 0; j < ev->modifiers.count; j++) {
		const struct modifier *other = &ev->modifiers.items[j];
		if (j == mi || !other->is_integer || other->from_perf)
			continue;
		char *with = xprintf("%s:%s=1", base, other->name);
		bool ok = accepts(with, m->name, 0, &lo) && accepts(with, m->name, 1, &hi);
		free(with);
		if (ok) {
			m->requires = (int)j;
			m->refused_error = error;
			m->max = 1;
			record_landings(m, &lo, &hi);
			return;
		}
	}
}

/* Whether the registers of Q hold VALUE where M lands (its first landing). */
static bool register_holds(const struct probe *q, const struct modifier *m, uint64_t value)
{
	for (size_t i = 0; i < m->landings.count; i++)
		for (size_t f = 1; f <= 3; f++)
			if (!strcmp(m->landings.items[i].field, field_names[f]) && m->landings.items[i].mask)
				return (field_value(q, f) & m->landings.items[i].mask)
				       >> __builtin_ctzll(m->landings.items[i].mask) == value;
	return false;
}

/*
 * What giving a PMU modifier does beyond its value: register bits set
 * whatever the value (the server uncore's thread-id enable for tf=), and an
 * fstr that shows a constant instead of the value (tf=1).
 */
static void find_presence(const char *base, struct modifier *m)
{
	struct probe none, lo, hi;
	probe_encode(base, PLM_DEFAULT, &none);
	if (none.error || none.raw_only || !accepts(base, m->name, m->min, &lo))
		return;
	for (size_t f = 1; f <= 3; f++) {	/* config, config1, config2 */
		uint64_t value_bits = 0;
		for (size_t i = 0; i < m->landings.count; i++)
			if (!strcmp(m->landings.items[i].field, field_names[f]))
				value_bits |= m->landings.items[i].mask;
		uint64_t bits = (field_value(&lo, f) & ~field_value(&none, f)) & ~value_bits;
		if (!bits)
			continue;
		struct landing *l = vec_push(&m->presence);
		snprintf(l->field, sizeof(l->field), "%s", field_names[f]);
		l->mask = bits;
	}
	const struct probe_token *a = probe_modifier(&lo, m->name);
	if (!a || a->value == m->min || m->max == m->min || !accepts(base, m->name, m->max, &hi))
		return;
	const struct probe_token *b = probe_modifier(&hi, m->name);
	/* a value the register holds anyway is no constant (skx CHA's loc=0
	 * shows 1 while the event's default filter has its bit) */
	if (b && b->value == a->value && !register_holds(&lo, m, a->value)) {
		m->has_shown = true;
		m->shown = a->value;
	}
}

/* The mask of M's landing in register field F (config, config1, config2). */
static uint64_t *landing_mask(struct modifier *m, size_t f)
{
	for (size_t i = 0; i < m->landings.count; i++)
		if (!strcmp(m->landings.items[i].field, field_names[f]))
			return &m->landings.items[i].mask;
	return NULL;
}

/*
 * Bits several modifiers set whenever their value is not 0, on top of
 * their values: NetBurst's CCCR compare bit, which e=1, cmpl=1 and any
 * non-zero thr set.  Measured as a landing, such a bit looks like part of
 * each modifier's value.  Where another modifier N, given alone, sets bits
 * of M's landing while the fstr still shows M's value unchanged, those bits
 * are not M's value: they move from M's landing to the bits M sets when
 * non-zero (and M at its smallest value, 0, must not set them).
 */
static void find_nonzero_bits(const char *base, struct event *ev)
{
	struct probe none, lo;
	probe_encode(base, PLM_DEFAULT, &none);
	if (none.error || none.raw_only)
		return;
	for (size_t n = 0; n < ev->modifiers.count; n++) {
		const struct modifier *other = &ev->modifiers.items[n];
		struct probe with;
		if (other->from_perf || !other->probed || other->max < 1 || other->min > 1
		    || !accepts(base, other->name, 1, &with))
			continue;
		for (size_t mi = 0; mi < ev->modifiers.count; mi++) {
			struct modifier *m = &ev->modifiers.items[mi];
			const struct probe_token *before = probe_modifier(&none, m->name);
			const struct probe_token *after = probe_modifier(&with, m->name);
			if (mi == n || m->from_perf || m->min != 0 || !before || !after || before->value != after->value
			    || !accepts(base, m->name, 0, &lo))
				continue;
			for (size_t f = 1; f <= 3; f++) {
				uint64_t *mask = landing_mask(m, f);
				uint64_t set = field_value(&with, f) & ~field_value(&none, f);
				uint64_t shared = mask ? *mask & set & ~field_value(&lo, f) : 0;
				if (!shared)
					continue;
				*mask &= ~shared;
				struct landing *l = NULL;
				for (size_t i = 0; i < m->nonzero.count && !l; i++)
					if (!strcmp(m->nonzero.items[i].field, field_names[f]))
						l = &m->nonzero.items[i];
				if (!l) {
					l = vec_push(&m->nonzero);
					snprintf(l->field, sizeof(l->field), "%s", field_names[f]);
				}
				l->mask |= shared;
			}
		}
	}
}

/*
 * A filter bit at 0 can leave the filter empty, and then libpfm puts the
 * event's default filter in (skx CHA: 0x3b): the plain difference would
 * count the default's bits as the modifier's.  The modifier's bits are
 * those it sets beyond what stays when the default is taken out.
 */
static void undo_default_filter(const struct event *ev, struct modifier *m, const struct probe *lo, const struct probe *hi)
{
	uint64_t d = ev->filter_default;
	if (!d || (lo->attr.config1 & d) != d || (hi->attr.config1 & d) == d)
		return;
	for (size_t i = 0; i < m->landings.count; i++)
		if (!strcmp(m->landings.items[i].field, "config1"))
			m->landings.items[i].mask = hi->attr.config1 & ~(lo->attr.config1 & ~d);
}

/*
 * A boolean whose fstr shows another modifier's bit (skx CHA's rmem=1 sets
 * filter bit 5 and prints rem's bit 0): given 1 it shows 0; the first other
 * boolean that, given 1 beside it, makes it show 1 is where its value is
 * read from.  Beside it, not alone: alone, most would bring skx CHA's
 * default filter back, rem's bit with it.
 */
static void find_shown_from(const char *base, struct event *ev, size_t mi, const struct probe *one)
{
	struct modifier *m = &ev->modifiers.items[mi];
	const struct probe_token *t = probe_modifier(one, m->name);
	if (!t || t->value != 0)
		return;
	for (size_t j = 0; j < ev->modifiers.count; j++) {
		const struct modifier *other = &ev->modifiers.items[j];
		if (j == mi || other->is_integer || other->from_perf)
			continue;
		struct probe q;
		char *with = xprintf("%s:%s=1", base, m->name);
		bool ok = accepts(with, other->name, 1, &q);
		free(with);
		t = ok ? probe_modifier(&q, m->name) : NULL;
		if (t && t->value == 1) {
			m->shown_from = (int)j;
			return;
		}
	}
}

static void derive_modifier(const char *base, struct event *ev, size_t mi)
{
	struct modifier *m = &ev->modifiers.items[mi];
	struct probe lo, hi;

	if (!m->is_integer) {
		bool z = accepts(base, m->name, 0, &lo);
		bool o = accepts(base, m->name, 1, &hi);
		m->probed = z || o;
		m->min = z ? 0 : 1;
		m->max = o ? 1 : 0;
		if (z && o) {
			record_landings(m, &lo, &hi);
			undo_default_filter(ev, m, &lo, &hi);
			if (!m->from_perf)
				find_shown_from(base, ev, mi, &hi);
		} else if (z)
			find_requirement(base, ev, mi, hi.error);
		if (m->probed && !m->from_perf)
			find_presence(base, m);
		return;
	}
	/* Smallest accepted value: 0, 1, or nothing we can find cheaply. */
	uint64_t min = 0;
	if (!accepts(base, m->name, 0, &lo)) {
		min = 1;
		if (!accepts(base, m->name, 1, &lo))
			return;
	}
	m->probed = true;
	m->min = min;
	if (accepts(base, m->name, UINT64_MAX, &hi))
		m->max = UINT64_MAX;
	else
		m->max = search_max(base, m->name, min, UINT64_MAX, taken);
	/* the error for a value out of range: usually ATTR_VAL, not always */
	struct probe past;
	if (m->max != UINT64_MAX && !accepts(base, m->name, m->max + 1, &past))
		m->range_error = past.error;
	else if (min > 0 && !accepts(base, m->name, min - 1, &past))
		m->range_error = past.error;
	measure_int_landing(base, m, min, m->max);
	if (!m->from_perf)
		find_presence(base, m);
}

static bool in_range(const char *base, const char *mod, uint64_t value)
{
	struct probe q;
	accepts(base, mod, value, &q);
	return q.error != PFM_ERR_ATTR_VAL;
}

/*
 * An integer no string takes (knl CHA's nf=: no unit mask needs it) still
 * has a range: libpfm checks it first, so nf=0 is PFM_ERR_ATTR_VAL where
 * nf=1 is the later "no unit mask needs it".  Read from the errors.
 */
static void derive_range_from_errors(const char *base, struct modifier *m)
{
	uint64_t min = 0;
	if (!in_range(base, m->name, 0)) {
		min = 1;
		if (!in_range(base, m->name, 1))
			return;
	}
	m->probed = true;
	m->min = min;
	m->max = in_range(base, m->name, UINT64_MAX) ? UINT64_MAX
		 : search_max(base, m->name, min, UINT64_MAX, in_range);
	m->range_error = PFM_ERR_ATTR_VAL;
}

/* Modifiers whose fstr value changes with the privilege-level mask. */
static void find_plm_modifiers(const char *base, struct event *ev)
{
	struct probe a, b;
	probe_encode(base, PFM_PLM0 | PFM_PLM3, &a);
	probe_encode(base, PFM_PLM3, &b);
	if (a.error || b.error)
		return;
	for (size_t i = 0; i < ev->modifiers.count; i++) {
		struct modifier *m = &ev->modifiers.items[i];
		const struct probe_token *ta = probe_modifier(&a, m->name);
		const struct probe_token *tb = probe_modifier(&b, m->name);
		m->follows_plm = ta && tb && ta->value != tb->value;
	}
}

static bool same_modifier_list(const struct event *a, const struct event *b)
{
	if (a->modifiers.count != b->modifiers.count)
		return false;
	for (size_t i = 0; i < a->modifiers.count; i++) {
		const struct modifier *x = &a->modifiers.items[i], *y = &b->modifiers.items[i];
		if (strcmp(x->name, y->name) || x->is_integer != y->is_integer || x->from_perf != y->from_perf)
			return false;
	}
	return true;
}

static void copy_modifier_rules(struct event *to, const struct event *from)
{
	for (size_t i = 0; i < to->modifiers.count; i++) {
		struct modifier *t = &to->modifiers.items[i];
		const struct modifier *f = &from->modifiers.items[i];
		t->probed = f->probed;
		t->min = f->min;
		t->max = f->max;
		t->follows_plm = f->follows_plm;
		t->requires = f->requires;
		t->range_error = f->range_error;
		t->refused_error = f->refused_error;
		t->landings.count = 0;
		for (size_t j = 0; j < f->landings.count; j++)
			*(struct landing *)vec_push(&t->landings) = f->landings.items[j];
		t->presence.count = 0;
		for (size_t j = 0; j < f->presence.count; j++)
			*(struct landing *)vec_push(&t->presence) = f->presence.items[j];
		t->nonzero.count = 0;
		for (size_t j = 0; j < f->nonzero.count; j++)
			*(struct landing *)vec_push(&t->nonzero) = f->nonzero.items[j];
		t->has_shown = f->has_shown;
		t->shown = f->shown;
		t->shown_from = f->shown_from;
	}
}

/* ---- one event --------------------------------------------------------- */

/* "PMU::EVENT", or "PMU::EVENT:UMASK" when UMASK >= 0. */
char *derive_event_string(const struct pmu *p, const struct event *ev, int umask)
{
	if (umask < 0)
		return xprintf("%s::%s", p->name, ev->name);
	return xprintf("%s::%s:%s", p->name, ev->name, ev->umasks.items[umask].name);
}

static int umask_by_name(const struct event *ev, const char *name)
{
	for (size_t i = 0; i < ev->umasks.count; i++)
		if (!strcmp(ev->umasks.items[i].name, name))
			return (int)i;
	return -1;
}

static bool in_set(const int *a, size_t n, int x)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] == x)
			return true;
	return false;
}

/* The umasks that umask U stands for: its equiv list, or U itself. */
static void expand_umask(const struct event *ev, int u, struct int_vec *out)
{
	const char *equiv = ev->umasks.items[u].equiv;
	if (!equiv) {
		*(int *)vec_push(out) = u;
		return;
	}
	char *copy = xstrdup(equiv), *save = NULL;
	for (char *t = strtok_r(copy, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
		int v = umask_by_name(ev, t);
		if (v >= 0 && !in_set(out->items, out->count, v))
			*(int *)vec_push(out) = v;
	}
	free(copy);
}

/* Unit masks in a probe's fstr other than those REQUESTED stands for. */
static void collect_added(const struct event *ev, const struct probe *p, const struct int_vec *requested,
			  struct int_vec *out)
{
	for (int t = 0; t < p->token_count; t++) {
		if (p->tokens[t].has_value)
			continue;
		int u = umask_by_name(ev, p->tokens[t].name);
		if (u >= 0 && !in_set(requested->items, requested->count, u))
			*(int *)vec_push(out) = u;
	}
}

static bool int_set_equal(const int *a, size_t na, const int *b, size_t nb)
{
	return na == nb && (na == 0 || !memcmp(a, b, na * sizeof(*a)));
}

/* Umasks whose behaviour libpfm can tell: not equivs (which stand for their
 * expansion).  (Overrides come after derive: every unit mask here is
 * libpfm's.) */
static bool learnable(const struct umask *u)
{
	return !u->equiv;
}

/* Are umasks I and J interchangeable: same answer alone and with all others? */
static bool same_refusal(const struct pair_refusal *a, const struct pair_refusal *b)
{
	return a->error == b->error && a->after_reading == b->after_reading && a->third_lifts == b->third_lifts
	       && a->lifted_by == b->lifted_by;
}

static bool same_behaviour(const struct event *ev, const struct pair_refusal *pair, size_t n, size_t i, size_t j)
{
	const struct umask *a = &ev->umasks.items[i], *b = &ev->umasks.items[j];
	if (a->single_error != b->single_error
	    || !int_set_equal(a->added.items, a->added.count, b->added.items, b->added.count))
		return false;
	for (size_t w = 0; w < n; w++)
		if (w != i && w != j && learnable(&ev->umasks.items[w])
		    && !same_refusal(&pair[i * n + w], &pair[j * n + w]))
			return false;
	return true;
}

static void derive_groups(struct event *ev, const struct pair_refusal *pair, size_t n)
{
	VEC(size_t) reps = {0};
	for (size_t i = 0; i < n; i++) {
		if (!learnable(&ev->umasks.items[i])) {
			ev->umasks.items[i].group = -1;
			continue;
		}
		size_t g = 0;
		while (g < reps.count && !same_behaviour(ev, pair, n, reps.items[g], i))
			g++;
		if (g == reps.count)
			*(size_t *)vec_push(&reps) = i;
		ev->umasks.items[i].group = (int)g;
	}
	ev->group_count = (int)reps.count;
	free(reps.items);

	/* One answer per pair of groups; keep the refusals. */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			int ga = ev->umasks.items[i].group, gb = ev->umasks.items[j].group;
			if (ga < 0 || gb < 0)
				continue;
			int lo = ga < gb ? ga : gb, hi = ga < gb ? gb : ga;
			const struct pair_refusal *pr = &pair[i * n + j];
			bool known = false;
			for (size_t r = 0; r < ev->group_rules.count; r++)
				if (ev->group_rules.items[r].group_a == lo && ev->group_rules.items[r].group_b == hi) {
					known = true;
					if (ev->group_rules.items[r].error != pr->error)
						ev->pair_rule_misses++;
				}
			if (!known && pr->error != PFM_SUCCESS) {
				struct group_rule *r = vec_push(&ev->group_rules);
				r->group_a = lo;
				r->group_b = hi;
				r->error = pr->error;
				r->after_reading = pr->after_reading;
				r->third_lifts = pr->third_lifts;
				r->lifted_by = pr->lifted_by;
			}
		}
}

/* A value of M other than VALUE that libpfm takes for M elsewhere: the
 * other boolean, else the range's low end (or the next value). */
static bool other_value(const struct modifier *m, uint64_t value, uint64_t *other)
{
	if (!m->is_integer)
		*other = !value;
	else if (m->probed)
		*other = value != m->min ? m->min : m->min + 1;
	else
		*other = value ? 0 : 1;
	return !m->is_integer || !m->probed || *other <= m->max;
}

/* libpfm's hard-wired modifiers (modhw): given with unit mask I at any
 * other value than VALUE, libpfm refuses with PFM_ERR_ATTR_SET. */
static bool hardwired(const struct pmu *p, const struct event *ev, size_t i, const struct modifier *m,
		      uint64_t value)
{
	uint64_t other;
	if (!other_value(m, value, &other))
		return false;
	char *base = derive_event_string(p, ev, (int)i);
	struct probe q;
	accepts(base, m->name, other, &q);
	free(base);
	return q.error == PFM_ERR_ATTR_SET;
}

/*
 * A unit mask implies a value when its encoding shows a PMU modifier at
 * another value than the modifier's default, and hard-wires one whose
 * other values libpfm refuses, the default included (INST_RETIRED:ANY's
 * c, i, intx on icl: c=1 is PFM_ERR_ATTR_SET).  The perf_events layer's
 * modifiers are computed by that layer, not implied.
 */
static void derive_implied(const struct pmu *p, struct event *ev, const struct probe *singles, size_t n)
{
	for (size_t mi = 0; mi < ev->modifiers.count; mi++) {
		const struct modifier *m = &ev->modifiers.items[mi];
		if (m->follows_plm || m->from_perf)
			continue;
		for (size_t i = 0; i < n; i++) {
			if (singles[i].error)
				continue;
			const struct probe_token *t = probe_modifier(&singles[i], m->name);
			uint64_t value = t ? t->value : m->default_value;
			bool wired = hardwired(p, ev, i, m, value);
			if (value == m->default_value && !wired)
				continue;
			struct implied_value *iv = vec_push(&ev->umasks.items[i].implied);
			iv->modifier = (int)mi;
			iv->value = value;
			iv->hardwired = wired;
		}
	}
}

static bool umask_implies(const struct umask *u, size_t modifier)
{
	for (size_t k = 0; k < u->implied.count; k++)
		if (u->implied.items[k].modifier == (int)modifier)
			return true;
	return false;
}

static bool same_registers(const struct probe *a, const struct probe *b)
{
	return a->attr.config == b->attr.config && a->attr.config1 == b->attr.config1
	       && a->attr.config2 == b->attr.config2;
}

/*
 * A modifier some unit masks imply may set its bits only beside one of
 * them (libpfm's fe_thres goes in only with a FETHR unit mask): given to
 * another unit mask it is taken, printed and changes nothing.  One probe
 * per such modifier, on the first unit mask that does not imply it.
 */
static void derive_inert_modifiers(const struct pmu *p, struct event *ev, const struct probe *singles, size_t n)
{
	for (size_t mi = 0; mi < ev->modifiers.count; mi++) {
		struct modifier *m = &ev->modifiers.items[mi];
		if (m->from_perf || !m->landings.count)
			continue;
		size_t u = 0, implying = 0;
		for (size_t i = 0; i < n; i++)
			implying += umask_implies(&ev->umasks.items[i], mi);
		while (u < n && (singles[u].error || singles[u].raw_only || umask_implies(&ev->umasks.items[u], mi)))
			u++;
		uint64_t other;
		if (!implying || u == n || !other_value(m, m->default_value, &other))
			continue;
		char *with = derive_event_string(p, ev, (int)u);
		struct probe q;
		/* two values, lest one land on bits the unit mask sets anyway */
		m->inert_unless_implied = accepts(with, m->name, other, &q) && same_registers(&q, &singles[u]);
		if (m->inert_unless_implied && m->is_integer && m->max != other)
			m->inert_unless_implied = accepts(with, m->name, m->max, &q) && same_registers(&q, &singles[u]);
		free(with);
	}
}

static size_t unprobed_modifiers(const struct event *ev)
{
	size_t n = 0;
	for (size_t i = 0; i < ev->modifiers.count; i++)
		n += !ev->modifiers.items[i].probed;
	return n;
}

/*
 * Some modifiers act only with the unit masks that imply them (fe_thres with
 * the precise-frontend unit masks): where none was seen, measure the
 * landing on such a unit mask.
 */
static void find_implied_landings(const struct pmu *p, struct event *ev)
{
	for (size_t u = 0; u < ev->umasks.count; u++) {
		const struct umask *um = &ev->umasks.items[u];
		for (size_t k = 0; k < um->implied.count; k++) {
			struct modifier *m = &ev->modifiers.items[um->implied.items[k].modifier];
			if (m->landings.count || !m->is_integer)
				continue;
			char *base = derive_event_string(p, ev, (int)u);
			measure_int_landing(base, m, m->probed ? m->min : 1, m->probed ? m->max : 2);
			free(base);
		}
	}
}

/* Does a probe show every PMU modifier at its default value? */
static bool plain_probe(const struct event *ev, const struct probe *q)
{
	for (size_t i = 0; i < ev->modifiers.count; i++) {
		const struct modifier *m = &ev->modifiers.items[i];
		const struct probe_token *t = m->from_perf ? NULL : probe_modifier(q, m->name);
		if (t && t->value != m->default_value)
			return false;
	}
	return true;
}

/*
 * A string for EV that libpfm encodes, or NULL: the bare event, else a unit
 * mask that forces no modifier value (a forced c=1 would make c look like
 * it only takes 1), else any unit mask that encodes.
 */
static char *encodable_base(const struct pmu *p, const struct event *ev, const struct probe *singles, bool *plain)
{
	*plain = true;
	if (ev->bare_error == PFM_SUCCESS)
		return derive_event_string(p, ev, -1);
	for (size_t i = 0; i < ev->umasks.count; i++)
		if (singles[i].error == PFM_SUCCESS && plain_probe(ev, &singles[i]))
			return derive_event_string(p, ev, (int)i);
	*plain = false;
	for (size_t i = 0; i < ev->umasks.count; i++)
		if (singles[i].error == PFM_SUCCESS)
			return derive_event_string(p, ev, (int)i);
	return NULL;
}

void derive_note_perf_type(struct pmu *p, struct event *ev, const struct probe *q)
{
	int type = (int)q->attr.type;
	const char *sysfs = sysfs_spy_name(type);
	if (sysfs) {
		bool seen = false;
		for (size_t i = 0; i < p->sysfs_names.count; i++)
			seen |= !strcmp(p->sysfs_names.items[i], sysfs);
		if (!seen)
			*(char **)vec_push(&p->sysfs_names) = xstrdup(sysfs);
		type = -1;
	}
	if (p->perf_type == -2)
		p->perf_type = type;
	ev->perf_type = type == p->perf_type ? FIELD_PTYPE_NONE : type;
}

/*
 * Where a unit mask's code went, seen in its single encoding: whether it
 * replaced the event select (config bits 0-7), and whether the event keeps
 * unit-mask codes in config1 (its umask field unchanged, the code there).
 */
static void note_umask_placement(struct event *ev, struct umask *u, const struct probe *q)
{
	if (q->raw_only)
		return;
	uint64_t config = q->attr.config, config1 = q->attr.config1;
	u->sets_event_select = (config & 0xff) != (ev->code & 0xff);
	/* a code that is in a filter register and not in the unit-mask field */
	if (u->code && ((config1 | q->attr.config2) & u->code) == u->code && (((config >> 8) & 0xff) & u->code) != u->code)
		u->code_is_filter = true;
	/* config1 is exactly the codes of the final unit masks (not, say, a
	 * load-latency threshold that happens to share a bit) */
	uint64_t codes = 0;
	for (int t = 0; t < q->token_count; t++) {
		int v = q->tokens[t].has_value ? -1 : umask_by_name(ev, q->tokens[t].name);
		if (v >= 0)
			codes |= ev->umasks.items[v].code;
	}
	if (u->code && config1 && config1 == codes && ((config >> 8) & 0xff) == ((ev->code >> 8) & 0xff))
		ev->umasks_in_config1 = true;
}

/*
 * The extra registers (config1, config2: the server uncore's filters) are
 * measured, not computed.  Every encoding libpfm makes of EV alone or with
 * one unit mask shows its final unit masks (defaults included) and its
 * registers.  The bits all of them have are the event's; the bits all
 * encodings that contain unit mask U have, beyond those, are U's.  (Pairs
 * are left out: with two filters libpfm may lay the registers out anew.)
 */
struct filter_seen {
	uint64_t base[2];
	bool any;
	uint64_t (*bits)[2];	/* per unit mask, AND of the encodings with it */
	bool *seen;
};

static void note_filters(const struct event *ev, const struct probe *q, struct filter_seen *fs)
{
	if (q->error || q->raw_only)
		return;
	uint64_t regs[2] = { q->attr.config1, q->attr.config2 };
	for (int k = 0; k < 2; k++)
		fs->base[k] &= regs[k];
	fs->any = true;
	for (int t = 0; t < q->token_count; t++) {
		int u = q->tokens[t].has_value ? -1 : umask_by_name(ev, q->tokens[t].name);
		if (u < 0)
			continue;
		for (int k = 0; k < 2; k++)
			fs->bits[u][k] &= regs[k];
		fs->seen[u] = true;
	}
}

static void store_filters(struct event *ev, const struct filter_seen *fs)
{
	if (!fs->any)
		return;
	ev->filter_config1 = fs->base[0];
	ev->filter_config2 = fs->base[1];
	for (size_t u = 0; u < ev->umasks.count; u++)
		if (fs->seen[u]) {
			ev->umasks.items[u].filter_config1 = fs->bits[u][0] & ~fs->base[0];
			ev->umasks.items[u].filter_config2 = fs->bits[u][1] & ~fs->base[1];
		}
}

/* Encodes EV with each of its umasks alone; records answers and defaults. */
static void probe_singles(const struct pmu *p, struct event *ev, struct probe *singles)
{
	for (size_t i = 0; i < ev->umasks.count; i++) {
		struct umask *u = &ev->umasks.items[i];
		char *s = derive_event_string(p, ev, (int)i);
		probe_encode(s, PLM_DEFAULT, &singles[i]);
		/* given three times, a unit mask reaches libpfm's encoder twice
		 * (see attributes_apply in runtime/encode/attributes.c) */
		char *thrice = xprintf("%s:%s:%s", s, u->name, u->name);
		struct probe q;
		probe_encode(thrice, PLM_DEFAULT, &q);
		/* refused as it is alone (NID:NID:NID as NID), the repeat
		 * adds nothing: the later checks say it */
		u->repeat_error = q.error == singles[i].error ? PFM_SUCCESS : q.error;
		free(thrice);
		free(s);
		u->single_error = singles[i].error;
		if (u->single_error != PFM_SUCCESS)
			continue;
		u->takes_no_modifiers = !singles[i].raw_only && !singles[i].has_fstr;
		note_umask_placement(ev, u, &singles[i]);
		struct int_vec requested = {0};
		expand_umask(ev, (int)i, &requested);
		collect_added(ev, &singles[i], &requested, &u->added);
		free(requested.items);
	}
}

/*
 * libpfm's Intel encoder replaces the event select for the unit masks asked
 * for (CODE_OVERRIDE), not for the defaults it adds: spr's INST_RETIRED:ANY
 * is 0x100 when asked for, while the bare INST_RETIRED, which gets ANY as
 * its default, stays 0x1c0.  Seen wherever libpfm added a default that
 * replaces the select alone, to a string whose own unit mask does not.
 */
static void note_default_select(struct event *ev, const struct probe *q, int asked, const struct int_vec *added)
{
	if (q->error || q->raw_only || (asked >= 0 && ev->umasks.items[asked].sets_event_select))
		return;
	for (size_t k = 0; k < added->count; k++) {
		const struct umask *d = &ev->umasks.items[added->items[k]];
		if (d->sets_event_select && (d->code & 0xff) != (ev->code & 0xff))
			ev->defaults_keep_select = (q->attr.config & 0xff) == (ev->code & 0xff);
	}
}

/*
 * A unit mask that takes no modifiers (libpfm's INTEL_X86_NO_MODS: the
 * TOPDOWN_M metrics read from PERF_METRICS) makes libpfm's perf layer leave
 * the fstr out and refuse perf modifiers given a non-zero value.  Which
 * ones, and with what error, is asked on the first such unit mask.
 */
static void derive_no_modifiers(const struct pmu *p, struct event *ev)
{
	int u = 0;
	while (u < (int)ev->umasks.count && !ev->umasks.items[u].takes_no_modifiers)
		u++;
	if (u == (int)ev->umasks.count)
		return;
	char *base = derive_event_string(p, ev, u);
	for (size_t m = 0; m < ev->modifiers.count; m++) {
		struct probe q;
		if (!ev->modifiers.items[m].from_perf || accepts(base, ev->modifiers.items[m].name, 1, &q))
			continue;
		*(int *)vec_push(&ev->no_modifiers) = (int)m;
		*(int *)vec_push(&ev->no_modifiers_errors) = q.error;
	}
	free(base);
}

/* Does a successful pair get exactly the defaults both its umasks get alone?
 * The encoder relies on this; where it fails, the pair's own defaults are
 * kept (event->pair_defaults) and the build counts it. */
static bool pair_follows_default_rule(struct event *ev, int i, int j, const struct probe *q)
{
	const struct umask *a = &ev->umasks.items[i], *b = &ev->umasks.items[j];
	struct int_vec requested = {0}, got = {0};
	expand_umask(ev, i, &requested);
	expand_umask(ev, j, &requested);
	collect_added(ev, q, &requested, &got);
	size_t expected = 0;
	for (size_t k = 0; k < a->added.count; k++) {
		int d = a->added.items[k];
		expected += in_set(b->added.items, b->added.count, d) && !in_set(requested.items, requested.count, d);
	}
	bool ok = got.count == expected;
	for (size_t k = 0; ok && k < got.count; k++)
		ok = in_set(a->added.items, a->added.count, got.items[k])
		     && in_set(b->added.items, b->added.count, got.items[k]);
	free(requested.items);
	if (ok) {
		free(got.items);
		return true;
	}
	struct pair_defaults *pd = vec_push(&ev->pair_defaults);
	pd->umask_a = i;
	pd->umask_b = j;
	pd->added = got;
	return false;
}

/*
 * The server uncore lays its two filters out in config1 and config2, or both
 * in config1 (the second in bits 32-63) when a unit mask makes the event a
 * filtering one (TOR_INSERTS:LOCAL_OPCODE).  A pair that moves the other
 * unit mask's config2 bits up shows which unit mask does it.
 */
static void note_filter_layout(struct event *ev, int i, int j, const struct probe *q)
{
	if (q->raw_only || q->attr.config2)
		return;
	int pair[2] = { i, j };
	for (int k = 0; k < 2; k++) {
		uint64_t moved = ev->umasks.items[pair[1 - k]].filter_config2;
		if (moved && ((q->attr.config1 >> 32) & moved) == moved)
			ev->umasks.items[pair[k]].filter_layout = true;
	}
}

/*
 * A unit mask that libpfm refuses alone (TOR_INSERTS:OPC_RFO needs a queue)
 * has no single encoding to measure; its pairs with measured unit masks
 * show its filter bits (what the pair has beyond the other's), and whether
 * its code is a filter rather than a unit-mask field value (the pair's umask
 * field lacks it).  PAIR_BITS accumulates the AND over such pairs.
 */
static void note_pair_only_filters(struct event *ev, int i, int j, const struct probe *q, uint64_t (*pair_bits)[2],
				   bool *pair_seen)
{
	if (q->raw_only)
		return;
	int pair[2] = { i, j };
	for (int k = 0; k < 2; k++) {
		struct umask *u = &ev->umasks.items[pair[k]];
		const struct umask *other = &ev->umasks.items[pair[1 - k]];
		if (u->single_error == PFM_SUCCESS || other->single_error != PFM_SUCCESS)
			continue;
		pair_bits[pair[k]][0] &= q->attr.config1 & ~(ev->filter_config1 | other->filter_config1);
		pair_bits[pair[k]][1] &= q->attr.config2 & ~(ev->filter_config2 | other->filter_config2);
		pair_seen[pair[k]] = true;
		if (u->code && (((q->attr.config >> 8) & 0xff) & u->code) != u->code)
			u->code_is_filter = true;
	}
}

/*
 * When libpfm refuses the pair S (a string) with ERROR: its encoders read
 * the attributes in order and refuse two unit masks that exclude each
 * other there, before a modifier given after them; what they refuse once
 * everything is read (a queue or a group's unit mask missing, NID without
 * nf=) comes after a modifier's range.  A PMU integer modifier at the
 * largest value tells which: refused for its range, the pair's refusal
 * comes after reading.  Such a refusal may lift when a hidden modifier is
 * given (NID with nf=1): the first that lifts it is recorded.  Whether a
 * third unit mask lifts it is found once every pair is known
 * (find_third_that_lifts).
 */
static void classify_refusal(const struct event *ev, const char *s, int error, struct pair_refusal *out)
{
	*out = (struct pair_refusal){ error, false, false, -1 };
	if (error == PFM_SUCCESS || error == PFM_ERR_ATTR_VAL)
		return;
	for (size_t i = 0; i < ev->modifiers.count; i++) {
		const struct modifier *m = &ev->modifiers.items[i];
		if (m->from_perf || !m->is_integer)
			continue;
		struct probe q;
		accepts(s, m->name, UINT64_MAX, &q);
		out->after_reading = q.error == PFM_ERR_ATTR_VAL;
		break;
	}
	for (size_t h = 0; out->after_reading && h < ev->hidden.count; h++) {
		struct probe q;
		if (accepts(s, ev->modifiers.items[ev->hidden.items[h]].name, 1, &q)) {
			out->lifted_by = ev->hidden.items[h];
			break;
		}
	}
}

/*
 * Whether a third unit mask lifts the after-reading refusal of the pair
 * I, J: tried with the third unit masks that pair with both, the only ones
 * the runtime takes (rules.c, third_goes_with_both).
 */
static void find_third_that_lifts(const struct pmu *p, struct event *ev, struct pair_refusal *pair, size_t i, size_t j)
{
	size_t n = ev->umasks.count;
	struct pair_refusal *pr = &pair[i * n + j];
	for (size_t z = 0; z < n && !pr->third_lifts; z++) {
		if (z == i || z == j || !learnable(&ev->umasks.items[z]) || pair[i * n + z].error != PFM_SUCCESS
		    || pair[j * n + z].error != PFM_SUCCESS)
			continue;
		char *triple = xprintf("%s::%s:%s:%s:%s", p->name, ev->name, ev->umasks.items[i].name,
				       ev->umasks.items[j].name, ev->umasks.items[z].name);
		struct probe q;
		probe_encode(triple, PLM_DEFAULT, &q);
		free(triple);
		pr->third_lifts = q.error == PFM_SUCCESS;
	}
	pair[j * n + i] = *pr;
}

/* Encodes EV with every pair of plain (non-equiv) umasks: PAIR[i*n+j]. */
static void probe_pairs(const struct pmu *p, struct event *ev, struct pair_refusal *pair)
{
	uint64_t (*pair_bits)[2] = malloc((ev->umasks.count + 1) * sizeof(*pair_bits));
	bool *pair_seen = calloc(ev->umasks.count + 1, sizeof(*pair_seen));
	if (!pair_bits || !pair_seen) {
		fputs("pmudb-build: out of memory\n", stderr);
		abort();
	}
	memset(pair_bits, 0xff, (ev->umasks.count + 1) * sizeof(*pair_bits));
	/* pairs refine the first filter (config1 bits 0-31), which no layout
	 * moves: a default's filter is not the unit mask's that pulled it in */
	uint64_t *low = malloc((ev->umasks.count + 1) * sizeof(*low));
	if (!low) {
		fputs("pmudb-build: out of memory\n", stderr);
		abort();
	}
	for (size_t u = 0; u < ev->umasks.count; u++)
		low[u] = ~0ULL;
	uint64_t all_pairs = ~0ULL;	/* config1 bits of every encoded pair */
	size_t n = ev->umasks.count;
	/* Pairs with an equiv are probed for their defaults only: an equiv
	 * stands for its expansion everywhere else. */
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++) {
			bool plain = learnable(&ev->umasks.items[i]) && learnable(&ev->umasks.items[j]);
			struct probe q;
			char *s = xprintf("%s::%s:%s:%s", p->name, ev->name,
					  ev->umasks.items[i].name, ev->umasks.items[j].name);
			probe_encode(s, PLM_DEFAULT, &q);
			if (plain)
				classify_refusal(ev, s, q.error, &pair[i * n + j]);
			free(s);
			if (q.error == PFM_SUCCESS && !pair_follows_default_rule(ev, (int)i, (int)j, &q))
				ev->pair_rule_misses++;
			if (!config_pair_agrees(ev, &q))
				ev->config_misses++;
			if (!plain)
				continue;
			pair[j * n + i] = pair[i * n + j];
			if (q.error == PFM_SUCCESS) {
				note_filter_layout(ev, (int)i, (int)j, &q);
				note_pair_only_filters(ev, (int)i, (int)j, &q, pair_bits, pair_seen);
				if (!q.raw_only)
					all_pairs &= q.attr.config1;
				for (int t = 0; !q.raw_only && t < q.token_count; t++) {
					int u = q.tokens[t].has_value ? -1 : umask_by_name(ev, q.tokens[t].name);
					if (u >= 0)
						low[u] &= q.attr.config1 | ~0xffffffffULL;
				}
			}
		}
	}
	/* a queue beside skx's OPC0 and OPC1 lifts their refusal;
	 * ANY_RESPONSE beside a snoop unit mask lifts for none */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (pair[i * n + j].after_reading)
				find_third_that_lifts(p, ev, pair, i, j);
	for (size_t u = 0; u < ev->umasks.count; u++) {
		if (pair_seen[u]) {
			ev->umasks.items[u].filter_config1 = pair_bits[u][0];
			ev->umasks.items[u].filter_config2 = pair_bits[u][1];
		}
		ev->umasks.items[u].filter_config1 &= low[u];
	}
	/* The event's config1 bits some pair lacks are a default libpfm puts in
	 * only while no unit mask sets that filter (skx CHA: 0x3b) */
	ev->filter_default = ev->filter_config1 & ~all_pairs;
	free(low);
	free(pair_bits);
	free(pair_seen);
}

/*
 * PMU modifiers libpfm leaves out of the fstr of every encoding of EV that
 * was seen (the server uncore prints nf= only with the unit masks that need
 * it).  Nothing is hidden when nothing encoded.
 */
static void find_hidden_modifiers(struct event *ev, const struct probe *bare, const struct probe *singles)
{
	for (size_t m = 0; m < ev->modifiers.count; m++) {
		const struct modifier *mod = &ev->modifiers.items[m];
		if (mod->from_perf)
			continue;
		bool seen = false, any = false;
		if (!bare->error) {
			any = true;
			seen = probe_modifier(bare, mod->name) != NULL;
		}
		for (size_t u = 0; u < ev->umasks.count && !seen; u++)
			if (!singles[u].error) {
				any = true;
				seen = probe_modifier(&singles[u], mod->name) != NULL;
			}
		if (any && !seen)
			*(int *)vec_push(&ev->hidden) = (int)m;
	}
}

/* The filter registers of EV, from its bare and single encodings. */
static void derive_filters(struct event *ev, const struct probe *bare, const struct probe *singles)
{
	size_t n = ev->umasks.count;
	struct filter_seen fs = { { ~0ULL, ~0ULL }, false, calloc(n + 1, sizeof(*fs.bits)), calloc(n + 1, sizeof(bool)) };
	if (!fs.bits || !fs.seen) {
		fputs("pmudb-build: out of memory\n", stderr);
		abort();
	}
	memset(fs.bits, 0xff, (n + 1) * sizeof(*fs.bits));
	note_filters(ev, bare, &fs);
	for (size_t i = 0; i < n; i++)
		note_filters(ev, &singles[i], &fs);
	store_filters(ev, &fs);
	free(fs.bits);
	free(fs.seen);
}

/* Where the modifiers of EV go.  Events with the same modifiers share what
 * was measured, unless the earlier event could not measure them all, or
 * only on a unit mask that forces some of them. */
struct modifier_source {
	struct event *event;
	bool plain;
	bool has_delta;
	uint64_t delta[3];	/* what its modifiers at 1 change */
	uint64_t regs[3];	/* on its base's registers */
};

/*
 * What EV's modifiers, each at 1 where 1 is in its range, change in
 * config, config1 and config2 on BASE.  Events that share a modifier list
 * mostly place the modifiers alike; where this differs from the source's,
 * the copy would be wrong (a PCU occupancy event's e and i land at bits 31
 * and 30, not 18 and 23) and the event is measured on its own.  REGS gets
 * the base's registers: bits a base sets already (nhm's LSD wires c=1)
 * cannot change, and are not compared.
 */
static bool modifier_delta(const char *base, const struct event *ev, uint64_t delta[3], uint64_t regs[3])
{
	struct probe none, all;
	probe_encode(base, PLM_DEFAULT, &none);
	if (none.error || none.raw_only)
		return false;
	char *s = xstrdup(base);
	for (size_t i = 0; i < ev->modifiers.count; i++) {
		const struct modifier *m = &ev->modifiers.items[i];
		if (m->from_perf || !m->probed || m->min > 1 || m->max < 1)
			continue;
		char *longer = xprintf("%s:%s=1", s, m->name);
		free(s);
		s = longer;
	}
	probe_encode(s, PLM_DEFAULT, &all);
	free(s);
	if (all.error || all.raw_only)
		return false;
	for (size_t f = 0; f < 3; f++) {
		regs[f] = field_value(&none, f + 1);
		delta[f] = regs[f] ^ field_value(&all, f + 1);
	}
	return true;
}

/* Forgets what was measured or copied into M, to measure it afresh. */
static void reset_modifier(struct modifier *m)
{
	m->probed = m->follows_plm = m->has_shown = false;
	m->min = m->max = m->shown = 0;
	m->range_error = m->refused_error = 0;
	m->requires = m->shown_from = -1;
	m->landings.count = m->presence.count = m->nonzero.count = 0;
}

static bool copy_fits(const struct modifier_source *src, const char *base, const struct event *ev)
{
	uint64_t d[3], regs[3];
	if (!src->has_delta || !modifier_delta(base, ev, d, regs))
		return true;
	for (size_t f = 0; f < 3; f++)
		if ((d[f] ^ src->delta[f]) & ~(regs[f] | src->regs[f]))
			return false;
	return true;
}

/* How many later events a forced base looks at for a plain one. */
#define PLAIN_LOOKAHEAD 64

/*
 * A plain base from a later event of P with EV's modifiers, or NULL.  When
 * every unit mask of EV forces a value (hsw's INT_MISC: c=1 on each),
 * ranges measured on EV would be that value alone, and the unit masks'
 * hard-wiring would go unseen.
 */
static char *plain_base_after(const struct pmu *p, const struct event *ev)
{
	const struct event *end = p->events.items + p->events.count;
	int looked = 0;
	for (const struct event *e = ev + 1; e < end && looked < PLAIN_LOOKAHEAD; e++) {
		if (!same_modifier_list(e, ev))
			continue;
		looked++;
		char *s = derive_event_string(p, e, -1);
		struct probe q;
		probe_encode(s, PLM_DEFAULT, &q);
		if (q.error == PFM_SUCCESS && !q.raw_only && plain_probe(e, &q))
			return s;
		free(s);
	}
	return NULL;
}

static void derive_modifiers(const struct pmu *p, struct event *ev, const char *base, bool plain,
			     struct modifier_source *src)
{
	struct event *from = src->event;
	if (from && same_modifier_list(from, ev) && !unprobed_modifiers(from) && (src->plain || !plain)) {
		copy_modifier_rules(ev, from);
		if (copy_fits(src, base, ev))
			return;
		for (size_t i = 0; i < ev->modifiers.count; i++)
			reset_modifier(&ev->modifiers.items[i]);
	}
	char *borrowed = plain ? NULL : plain_base_after(p, ev);
	if (borrowed) {
		base = borrowed;
		plain = true;
	}
	find_plm_modifiers(base, ev);
	for (size_t i = 0; i < ev->modifiers.count; i++)
		derive_modifier(base, ev, i);
	find_nonzero_bits(base, ev);
	/* a modifier the base refuses may act with some unit mask */
	/* (a unit mask refused alone may be one that needs the modifier) */
	for (size_t u = 0; u < ev->umasks.count && u < 32 && unprobed_modifiers(ev); u++) {
		if (!learnable(&ev->umasks.items[u]))
			continue;
		char *with = derive_event_string(p, ev, (int)u);
		for (size_t i = 0; i < ev->modifiers.count; i++)
			if (!ev->modifiers.items[i].probed)
				derive_modifier(with, ev, i);
		free(with);
	}
	for (size_t i = 0; i < ev->modifiers.count; i++) {
		struct modifier *m = &ev->modifiers.items[i];
		if (!m->probed && m->is_integer && !m->from_perf)
			derive_range_from_errors(base, m);
	}
	if (!from || !same_modifier_list(from, ev) || unprobed_modifiers(ev) < unprobed_modifiers(from)
	    || (plain && !src->plain)) {
		src->event = ev;
		src->plain = plain;
		src->has_delta = modifier_delta(base, ev, src->delta, src->regs);
	}
	free(borrowed);
}

/* Whether unit mask W encodes, alone or beside some unit mask but U,
 * without a hidden modifier: then W is not the one that needs it. */
static bool goes_without(const struct event *ev, int w, int u, const struct pair_refusal *pairs)
{
	size_t n = ev->umasks.count;
	if (ev->umasks.items[w].single_error == PFM_SUCCESS)
		return true;
	for (size_t z = 0; z < n; z++)
		if ((int)z != w && (int)z != u && learnable(&ev->umasks.items[z])
		    && pairs[(size_t)w * n + z].error == PFM_SUCCESS)
			return true;
	return false;
}

/*
 * Unit mask U refused with modifier NAME for another reason than the
 * modifier (LLC_VICTIMS:NID:nf=1 lacks a state, which has no default):
 * the first string where it takes NAME beside a unit mask W that does not
 * take it alone and goes without it elsewhere (so U is the one that needs
 * it: snbep TOR's OPC_PF_RFO:NID_MISS_OPCODE:nf=1 credits the NID unit
 * mask, not the opcode), or NULL.
 */
static char *unlocks_beside_another(const struct pmu *p, const struct event *ev, int u, int mi, uint64_t v,
				    const struct pair_refusal *pairs)
{
	size_t n = ev->umasks.count;
	const char *name = ev->modifiers.items[mi].name;
	for (size_t w = 0; w < n; w++) {
		/* only a pair the modifier lifts (probe_pairs measured it) */
		if ((int)w == u || !learnable(&ev->umasks.items[w]) || pairs[w * n + (size_t)u].lifted_by != mi
		    || !goes_without(ev, (int)w, u, pairs))
			continue;
		char *other = derive_event_string(p, ev, (int)w);
		char *pair = xprintf("%s:%s", other, ev->umasks.items[u].name);
		struct probe q;
		bool takes = !accepts(other, name, v, &q) && accepts(pair, name, v, &q);
		free(other);
		if (takes)
			return pair;	/* the string that takes it */
		free(pair);
	}
	return NULL;
}

/*
 * A unit mask refused with hidden modifier MI alone for another reason
 * (LLC_VICTIMS:NID:nf=1 lacks a state, whose group has no default;
 * snbep's TOR NID_MISS_OPCODE an opcode) unlocks it when it takes it
 * beside another.  Where none takes it alone (MEASURE), where it lands and
 * its range are measured on the first such pair, not copied from another
 * event.
 */
static void derive_unlocks_beside(const struct pmu *p, struct event *ev, int mi, int hidden_error, bool measure,
				  const struct pair_refusal *pairs)
{
	const char *name = ev->modifiers.items[mi].name;
	bool measured = !measure;
	size_t n = ev->umasks.count;
	for (size_t u = 0; u < n; u++) {
		bool lifted = false;
		for (size_t w = 0; w < n && !lifted; w++)
			lifted = w != u && pairs[w * n + u].lifted_by == mi;
		if (!learnable(&ev->umasks.items[u]) || !lifted)
			continue;
		char *with = derive_event_string(p, ev, (int)u);
		struct probe q;
		char *pair = NULL;
		if (!accepts(with, name, 1, &q) && q.error != hidden_error && q.error != PFM_ERR_ATTR_VAL)
			pair = unlocks_beside_another(p, ev, (int)u, mi, 1, pairs);
		free(with);
		if (!pair)
			continue;
		((struct implied_value *)vec_push(&ev->umasks.items[u].unlocks))->modifier = mi;
		if (!measured) {
			reset_modifier(&ev->modifiers.items[mi]);
			derive_modifier(pair, ev, (size_t)mi);
			measured = true;
		}
		free(pair);
	}
}

/*
 * A hidden modifier (nf= of the server uncore) is accepted only with the
 * unit masks that need it; given otherwise libpfm refuses it.  Record that
 * error and which unit masks unlock the modifier.
 */
static void derive_unlocks(const struct pmu *p, struct event *ev, const char *base, const struct pair_refusal *pairs)
{
	for (size_t h = 0; h < ev->hidden.count; h++) {
		int mi = ev->hidden.items[h];
		const struct modifier *m = &ev->modifiers.items[mi];
		uint64_t v = m->probed ? m->min : 1;
		struct probe q;
		accepts(base, m->name, v, &q);
		int hidden_error = q.error;
		*(int *)vec_push(&ev->hidden_errors) = hidden_error;
		if (hidden_error == PFM_SUCCESS)
			continue;
		bool taken_alone = false;
		for (size_t u = 0; u < ev->umasks.count; u++) {
			if (!learnable(&ev->umasks.items[u]))
				continue;
			char *with = derive_event_string(p, ev, (int)u);
			if (accepts(with, m->name, v, &q)) {
				struct umask *um = &ev->umasks.items[u];
				((struct implied_value *)vec_push(&um->unlocks))->modifier = mi;
				taken_alone = true;
				/* refused alone for want of the modifier (NID without
				 * nf=): what libpfm adds to it is seen here */
				if (um->single_error && !um->added.count) {
					struct int_vec requested = {0};
					expand_umask(ev, (int)u, &requested);
					collect_added(ev, &q, &requested, &um->added);
					free(requested.items);
				}
			}
			free(with);
		}
		derive_unlocks_beside(p, ev, mi, hidden_error, !taken_alone, pairs);
	}
}

/*
 * An event refused alone that has no unit mask to give may need a modifier
 * instead (the PCU's FREQ_BAND0_CYCLES needs ff=): the first integer
 * modifier that makes it encode, and that string as the base.
 */
static char *base_with_needed_modifier(const struct pmu *p, struct event *ev)
{
	char *bare = derive_event_string(p, ev, -1);
	for (size_t i = 0; i < ev->modifiers.count; i++) {
		const struct modifier *m = &ev->modifiers.items[i];
		if (m->from_perf || !m->is_integer)
			continue;
		char *s = xprintf("%s:%s=1", bare, m->name);
		struct probe q;
		probe_encode(s, PLM_DEFAULT, &q);
		if (q.error == PFM_SUCCESS) {
			ev->bare_needs = (int)i;
			free(bare);
			return s;
		}
		free(s);
	}
	free(bare);
	return NULL;
}

/* The needed modifier is measured on the bare string: on the base it is
 * given already.  Its place is the event's own (FREQ_BAND1's ff= goes to
 * config1 bits 8-15), never a copy. */
static void derive_needed_modifier(const struct pmu *p, struct event *ev)
{
	reset_modifier(&ev->modifiers.items[ev->bare_needs]);
	char *bare = derive_event_string(p, ev, -1);
	derive_modifier(bare, ev, (size_t)ev->bare_needs);
	free(bare);
}

/*
 * Unit-mask codes OR together, so their order cannot matter; where it does,
 * the last one given replaces the others (the PCU occupancy select of bdx
 * and skx: CORES_C0:CORES_C3 is C3's 0x8080).  Asked of the first pair of
 * unit masks that encode differently alone and together both ways.
 */
static void derive_last_umask_wins(const struct pmu *p, struct event *ev, const struct probe *singles,
				   const struct pair_refusal *pair)
{
	size_t n = ev->umasks.count;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			if (!learnable(&ev->umasks.items[i]) || !learnable(&ev->umasks.items[j]) || singles[i].error
			    || singles[j].error || pair[i * n + j].error != PFM_SUCCESS
			    || singles[i].attr.config == singles[j].attr.config)
				continue;
			char *a = derive_event_string(p, ev, (int)i), *b = derive_event_string(p, ev, (int)j);
			char *ab = xprintf("%s:%s", a, ev->umasks.items[j].name);
			char *ba = xprintf("%s:%s", b, ev->umasks.items[i].name);
			struct probe qab, qba;
			probe_encode(ab, PLM_DEFAULT, &qab);
			probe_encode(ba, PLM_DEFAULT, &qba);
			ev->last_umask_wins = !qab.error && !qba.error && qab.attr.config == singles[j].attr.config
					      && qba.attr.config == singles[i].attr.config;
			free(a);
			free(b);
			free(ab);
			free(ba);
			return;
		}
}

static bool raw_accepted(const char *base, uint64_t value)
{
	char *s = xprintf("%s:0x%llx", base, (unsigned long long)value);
	struct probe q;
	probe_encode(s, PLM_DEFAULT, &q);
	free(s);
	return q.error == PFM_SUCCESS;
}

/*
 * Where the server uncore's second filter goes follows bit 0 of the umask
 * byte (libpfm's CBo filter events: config1 bits 32-63 when set, config2
 * when clear).  The build measures it per unit mask; for a raw one, a
 * modifier of that filter at 0x1 and at 0x0 shows it: a boolean that lands
 * in config2 or config1's high half (measured before).
 */
static bool lands_in_filter1(const struct modifier *m)
{
	for (size_t i = 0; i < m->landings.count; i++)
		if (!strcmp(m->landings.items[i].field, "config2")
		    || (!strcmp(m->landings.items[i].field, "config1") && m->landings.items[i].mask >> 32))
			return true;
	return false;
}

static void derive_raw_layout(const struct pmu *p, struct event *ev)
{
	if (!ev->raw_umask_max)
		return;
	char *base = derive_event_string(p, ev, -1);
	for (size_t i = 0; i < ev->modifiers.count && !ev->raw_layout_bit0; i++) {
		const struct modifier *m = &ev->modifiers.items[i];
		if (m->from_perf || m->is_integer || !lands_in_filter1(m))
			continue;
		char *one = xprintf("%s:0x1:%s=1", base, m->name), *zero = xprintf("%s:0x0:%s=1", base, m->name);
		struct probe q1, q0;
		probe_encode(one, PLM_DEFAULT, &q1);
		probe_encode(zero, PLM_DEFAULT, &q0);
		free(one);
		free(zero);
		ev->raw_layout_bit0 = !q1.error && !q0.error && !q1.raw_only && !q0.raw_only && q0.attr.config2
				      && q1.attr.config1 >> 32 == q0.attr.config2;
	}
	free(base);
}

/*
 * The widest unit mask given as a number that libpfm takes for EV (8 bits
 * mostly, 38 for offcore response; 0 where the PMU takes none): 0x1, 0xff
 * and 0x100, then the highest bit by halving.  On the bare event with the
 * modifier it needs, if any.
 */
static void derive_raw_umask(const struct pmu *p, struct event *ev)
{
	char *bare = derive_event_string(p, ev, -1);
	char *base = ev->bare_needs >= 0 ? xprintf("%s:%s=1", bare, ev->modifiers.items[ev->bare_needs].name)
					 : xstrdup(bare);
	free(bare);
	ev->raw_umask_max = 0;
	if (raw_accepted(base, 0x1) && raw_accepted(base, 0xff)) {
		int ok = 7, bad = 64;	/* bit OK is taken, bit BAD is not */
		if (!raw_accepted(base, 0x100))
			bad = 8;
		while (bad - ok > 1) {
			int mid = (ok + bad) / 2;
			if (raw_accepted(base, 1ULL << mid))
				ok = mid;
			else
				bad = mid;
		}
		ev->raw_umask_max = ok == 63 ? UINT64_MAX : (1ULL << (ok + 1)) - 1;
	}
	free(base);
}

/* Derives EV's rules; returns a string libpfm encodes for it, or NULL.
 * MEASURE_CONFIG: P's encoder places the config measured here. */
static char *derive_event(struct pmu *p, struct event *ev, struct modifier_source *src, bool measure_config)
{
	size_t n = ev->umasks.count;
	struct probe bare;
	struct int_vec none = {0};
	char *s = derive_event_string(p, ev, -1);
	probe_encode(s, PLM_DEFAULT, &bare);
	free(s);
	ev->bare_error = bare.error;
	if (bare.error == PFM_SUCCESS)
		collect_added(ev, &bare, &none, &ev->bare_added);

	struct probe *singles = calloc(n ? n : 1, sizeof(*singles));
	struct pair_refusal *pair = calloc(n ? n * n : 1, sizeof(*pair));
	if (!singles || !pair) {
		fputs("pmudb-build: out of memory\n", stderr);
		abort();
	}
	probe_singles(p, ev, singles);
	note_default_select(ev, &bare, -1, &ev->bare_added);
	for (size_t i = 0; i < n; i++)
		note_default_select(ev, &singles[i], (int)i, &ev->umasks.items[i].added);
	derive_no_modifiers(p, ev);
	find_hidden_modifiers(ev, &bare, singles);
	derive_filters(ev, &bare, singles);
	if (measure_config)
		derive_config(ev, &bare, singles);
	probe_pairs(p, ev, pair);
	derive_groups(ev, pair, n);
	derive_last_umask_wins(p, ev, singles, pair);

	bool plain;
	char *base = encodable_base(p, ev, singles, &plain);
	if (!base && ev->bare_error && !ev->umasks.count) {
		base = base_with_needed_modifier(p, ev);
		plain = true;
	}
	derive_raw_umask(p, ev);
	if (!base && ev->raw_umask_max) {
		/* nothing named encodes alone (snb's MEM_LOAD_UOPS_LLC_MISS_RETIRED):
		 * a raw unit mask does, and takes the modifiers */
		char *bare = derive_event_string(p, ev, -1);
		base = xprintf("%s:0x1", bare);
		free(bare);
		plain = true;
	}
	if (base) {
		struct probe q;
		probe_encode(base, PLM_DEFAULT, &q);
		derive_note_perf_type(p, ev, &q);
		derive_modifiers(p, ev, base, plain, src);
		if (ev->bare_needs >= 0)
			derive_needed_modifier(p, ev);
		derive_unlocks(p, ev, base, pair);
		derive_implied(p, ev, singles, n);
		find_implied_landings(p, ev);
		derive_inert_modifiers(p, ev, singles, n);
		derive_raw_layout(p, ev);
	} else {
		ev->perf_type = FIELD_PTYPE_NONE;
	}
	free(singles);
	free(pair);
	return base;
}

/*
 * The privilege levels the PMU filters on (libpfm's supported_plm).  The
 * perf layer marks a level excluded only when the PMU supports it, so an
 * encoding with no level requested excludes exactly the supported ones.
 * PMUs libpfm encodes only raw: the levels that change the raw codes.
 */
unsigned derive_supported_plm(const char *base)
{
	struct probe q;
	probe_encode(base, 0, &q);
	if (q.error == PFM_SUCCESS && !q.raw_only)
		return (q.attr.exclude_kernel ? PFM_PLM0 : 0u) | (q.attr.exclude_user ? PFM_PLM3 : 0u)
		       | (q.attr.exclude_hv ? PFM_PLMH : 0u);

	static const int levels[] = { PFM_PLM0, PFM_PLM1, PFM_PLM2, PFM_PLM3, PFM_PLMH };
	uint64_t none[4] = {0}, with[4] = {0};
	int nn, nw;
	unsigned plm = 0;
	if (probe_raw_codes(base, 0, none, &nn))
		return 0;
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (!probe_raw_codes(base, levels[i], with, &nw)
		    && (nw != nn || memcmp(none, with, (size_t)nn * sizeof(*none))))
			plm |= (unsigned)levels[i];
	return plm;
}

/*
 * The config bits libpfm's perf encoding clears whatever the event (Intel's
 * and AMD's enable, interrupt, OS and user bits): set in BASE's raw
 * encoding, absent from its perf encoding.  A unit-mask code reaching
 * them (adl_glc's LOAD_LATENCY_GT_512, 0x20000: bit 17) is cleared too.
 */
static uint64_t derive_config_cleared(const char *base)
{
	struct probe q;
	uint64_t raw[4];
	int n;
	probe_encode(base, PLM_DEFAULT, &q);
	if (q.error || q.raw_only || probe_raw_codes(base, PLM_DEFAULT, raw, &n) || n < 1)
		return 0;
	return raw[0] & ~q.attr.config;
}

/*
 * A PMU whose perf type libpfm reads from sysfs: what libpfm does on a
 * machine whose sysfs lacks that kernel PMU.  The Intel core encoder falls
 * back to PERF_TYPE_RAW (the hybrids' cpu_core and cpu_atom on a kernel
 * without them): that type is the PMU's, read from sysfs first.  The
 * uncore encoders fail: -1 stays.  Asked with the spy answering "absent".
 */
static void derive_sysfs_fallback(struct pmu *p, const char *base)
{
	if (!p->sysfs_names.count || p->perf_type != -1)
		return;
	struct probe q;
	sysfs_spy_absent(true);
	probe_encode(base, PLM_DEFAULT, &q);
	sysfs_spy_absent(false);
	if (q.error == PFM_SUCCESS && !q.raw_only)
		p->perf_type = (int)q.attr.type;
}

/*
 * The kernel registers PERF_TYPE_RAW for the core PMU ("cpu") or, on a
 * hybrid, for the big cores' ("cpu_core"); the small cores' PMU
 * ("cpu_atom") gets its type at boot (arch/x86/events/core.c:2185-2186,
 * names at arch/x86/events/intel/core.c:6390-6391, linux 6.12).  libpfm
 * falls back to PERF_TYPE_RAW for the small cores too where sysfs lacks
 * them, which a hybrid routes to cpu_core: such a PMU has no fallback, its
 * type is read from sysfs or unresolved.
 */
void derive_kernel_types(struct model *m)
{
	for (size_t i = 0; i < m->pmus.count; i++) {
		struct pmu *p = &m->pmus.items[i];
		bool small_cores = false;
		for (size_t k = 0; k < p->sysfs_names.count; k++)
			small_cores |= !strcmp(p->sysfs_names.items[k], "cpu_atom");
		if (small_cores && p->perf_type == PERF_TYPE_RAW)
			p->perf_type = -1;
	}
}

void derive_pmu(struct pmu *p)
{
	struct modifier_source src = { 0 };
	p->perf_type = -2;	/* not seen yet */
	/* the one question that depends on the family: whether its encoder
	 * reads libpfm's codes or the registers measured here */
	const struct family *f = family_by_name(p->family ? p->family : "");
	bool measure_config = f && f->measured_config;
	char *first = NULL;
	for (size_t i = 0; i < p->events.count; i++) {
		char *base = derive_event(p, &p->events.items[i], &src, measure_config);
		/* Any string the PMU encodes serves to find the privilege levels. */
		if (base && !first) {
			p->supported_plm = derive_supported_plm(base);
			p->config_cleared = derive_config_cleared(base);
			first = base;
			continue;
		}
		free(base);
	}
	if (p->perf_type == -2)
		p->perf_type = -1;
	if (first)
		derive_sysfs_fallback(p, first);
	free(first);
}
