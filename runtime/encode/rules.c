/*
 * rules.c - the unit-mask rules derived at build time, applied: which
 * combinations libpfm refuses, which defaults it adds, which modifier
 * values a unit mask implies.  See docs/schema.md, "The derived rules".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/encode/rules.h"

#include "runtime/encode/fstr_form.h"

const struct group_rule *pair_rule(const struct event *ev, int x, int y)
{
	int ga = ev->umasks[x].group, gb = ev->umasks[y].group;
	if (ga < 0 || gb < 0)
		return NULL;
	if (ev->rule_matrix) {
		if (ga >= ev->rule_groups || gb >= ev->rule_groups)
			return NULL;
		int k = ev->rule_matrix[ga * ev->rule_groups + gb];
		return k ? &ev->rules[k - 1] : NULL;
	}
	int lo = ga < gb ? ga : gb, hi = ga < gb ? gb : ga;
	for (int i = 0; i < ev->nrules; i++)
		if (ev->rules[i].group_a == lo && ev->rules[i].group_b == hi)
			return &ev->rules[i];
	return NULL;
}

/* Whether some two unit masks asked may meet a rule: false when no group
 * asked has a rule with a group asked, and no pair needs looking up (an
 * offcore string asks for twenty unit masks: 190 pairs). */
static bool rules_may_apply(const struct request *rq)
{
	const struct event *ev = rq->ev;
	if (!ev->nrules || rq->nasked < 2)
		return false;
	if (!ev->rule_partners)
		return true;
	uint32_t asked = 0, partners = 0;
	for (int i = 0; i < rq->nasked; i++) {
		int g = ev->umasks[rq->asked[i]].group;
		if (g >= 0 && g < ev->rule_groups) {
			asked |= 1u << g;
			partners |= ev->rule_partners[g];
		}
	}
	return (asked & partners) != 0;
}

static bool in_list(const uint16_t *items, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (items[i] == x)
			return true;
	return false;
}

/* The final unit masks are few: an insertion sort. */
static void sort_positions(uint16_t *v, int n)
{
	for (int i = 1; i < n; i++) {
		uint16_t x = v[i];
		int j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* The pair the build saw break the common-defaults rule, or NULL: by the
 * pairs' hash (an offcore event has thousands). */
static const struct pair_default *pair_exception(const struct event *ev, int x, int y)
{
	if (!ev->pair_slots)
		return NULL;
	uint32_t key = (uint32_t)(x < y ? x : y) << 16 | (uint32_t)(x < y ? y : x);
	for (uint32_t h = pair_slot(key) & ev->pair_mask; ev->pair_slots[h]; h = (h + 1) & ev->pair_mask)
		if (pair_key(&ev->pairs[ev->pair_slots[h] - 1]) == key)
			return &ev->pairs[ev->pair_slots[h] - 1];
	return NULL;
}

/* Whether libpfm adds default D to the pair X, Y: as the build saw the
 * pair, or else both add it alone. */
static bool pair_adds(const struct event *ev, int x, int y, int d)
{
	const struct pair_default *pd = pair_exception(ev, x, y);
	if (pd)
		return in_list(pd->added, pd->nadded, d);
	return in_list(ev->umasks[x].added, ev->umasks[x].nadded, d)
	       && in_list(ev->umasks[y].added, ev->umasks[y].nadded, d);
}

/*
 * The defaults of three or more unit masks: those that each of them adds
 * beside some other of them.  A default one unit mask lacks alone because
 * another default shuts its group out (BUS_LOCKS gets ANY_RESPONSE, which
 * excludes the snoop group) comes back when a unit mask of the shutting
 * group is asked too (BUS_LOCKS:LLC_HITS gets SNP_ANY); the pairs show it.
 */
static bool all_pairs_add(const struct request *rq, int d)
{
	for (int i = 0; i < rq->nasked; i++) {
		bool partner = false;
		for (int j = 0; j < rq->nasked && !partner; j++)
			partner = j != i && pair_adds(rq->ev, rq->asked[i], rq->asked[j], d);
		if (!partner)
			return false;
	}
	return true;
}

static void add_default(struct request *rq, int d)
{
	if (!in_list(rq->final, rq->nfinal, d))
		rq->final[rq->nfinal++] = (uint16_t)d;
}

/* A unit mask gets the defaults the build saw it get alone; a pair as
 * written (equivs included) what the build saw it get; more, see above. */
static void add_common_defaults(struct request *rq)
{
	const struct event *ev = rq->ev;
	/* no unit mask adds defaults, no pair is an exception */
	if (!ev->some_add_defaults && !ev->npairs)
		return;
	if (rq->ntyped == 2 || rq->nasked == 2) {
		const uint16_t *two = rq->ntyped == 2 ? rq->typed : rq->asked;
		const struct pair_default *pd = pair_exception(ev, two[0], two[1]);
		if (pd) {
			for (int k = 0; k < pd->nadded; k++)
				add_default(rq, pd->added[k]);
			return;
		}
	}
	if (rq->nasked < 3) {
		const struct umask *first = &ev->umasks[rq->asked[0]];
		for (int i = 0; i < first->nadded; i++)
			if (rq->nasked == 1 || pair_adds(ev, rq->asked[0], rq->asked[1], first->added[i]))
				add_default(rq, first->added[i]);
		return;
	}
	/* a default any of them gets alone, or some listed pair gets, is a
	 * candidate, each tried once (an offcore string may ask for thirty) */
	uint16_t candidates[MAX_UMASKS];
	int ncandidates = 0;
	for (int i = 0; i < rq->nasked; i++) {
		const struct umask *u = &ev->umasks[rq->asked[i]];
		for (int k = 0; k < u->nadded; k++)
			if (!in_list(candidates, ncandidates, u->added[k]) && ncandidates < MAX_UMASKS)
				candidates[ncandidates++] = u->added[k];
	}
	for (int k = 0; k < ev->npair_added; k++)
		if (!in_list(candidates, ncandidates, ev->pair_added[k]) && ncandidates < MAX_UMASKS)
			candidates[ncandidates++] = ev->pair_added[k];
	for (int c = 0; c < ncandidates; c++)
		if (all_pairs_add(rq, candidates[c]))
			add_default(rq, candidates[c]);
}

/* A unit mask refused alone that a hidden modifier unlocks needs it
 * (CBo's NID needs nf=). */
static bool needs_modifier(const struct umask *u)
{
	return u->unlocks && u->single_error == PMUDB_ERR_ATTR;
}

static int refuse_pair(struct request *rq, const struct group_rule *rule, int x, int y)
{
	const struct event *ev = rq->ev;
	return request_fail(rq, rule->error, "unit masks %s and %s of %s cannot be combined", ev->umasks[x].name,
		    ev->umasks[y].name, ev->name);
}

static int check_range(struct request *rq, const struct modifier *mod, uint64_t v)
{
	int code = range_refusal(mod, v);
	if (!code)
		return 0;
	return request_fail(rq, code, "%s=%llu is out of range %llu..%llu", mod->name, (unsigned long long)v,
		    (unsigned long long)mod->min, (unsigned long long)mod->max);
}

/*
 * What libpfm's encoders refuse while they read the attributes, in the
 * order given (so the first at fault decides): a unit mask given again
 * that they refuse repeated, a unit mask that excludes one before it, a
 * PMU modifier's value (an escaped earlier one too) out of its range, a
 * raw unit mask wider than the event takes.
 */
static int check_as_read(struct request *rq, bool rules)
{
	const struct event *ev = rq->ev;
	const struct modifier_set *set = ev->modifiers;
	uint16_t seen[MAX_UMASKS];
	int nseen = 0;
	for (int i = 0; i < rq->nattrs; i++) {
		const struct given_attr *a = &rq->attrs[i];
		int r = 0;
		if (a->modifier >= 0) {
			if (set->ranged >> a->modifier & 1)
				r = check_range(rq, &set->items[a->modifier], a->value);
		} else if (a->umask == RAW_UMASK_ATTR) {
			if (a->value > ev->raw_umask_max)
				r = request_fail(rq, PMUDB_ERR_ATTR, "raw unit mask 0x%llx is wider than %s takes (0x%llx)",
					 (unsigned long long)a->value, ev->name, (unsigned long long)ev->raw_umask_max);
		} else if (rq->nrepeated && in_list(seen, nseen, a->umask)) {
			const struct umask *u = &ev->umasks[a->umask];
			if (u->repeat_error)
				r = request_fail(rq, u->repeat_error, "unit mask %s of %s is given more than once", u->name, ev->name);
		} else {
			for (int k = 0; k < nseen && !r && rules; k++) {
				const struct group_rule *rule = pair_rule(ev, seen[k], a->umask);
				if (rule && !rule->after_reading)
					r = refuse_pair(rq, rule, seen[k], a->umask);
			}
			seen[nseen++] = (uint16_t)a->umask;
		}
		if (r)
			return r;
	}
	return 0;
}

/* Whether a third asked unit mask goes with both the I-th and the J-th. */
static bool third_goes_with_both(const struct request *rq, int i, int j)
{
	for (int k = 0; k < rq->nasked; k++)
		if (k != i && k != j && !pair_rule(rq->ev, rq->asked[k], rq->asked[i])
		    && !pair_rule(rq->ev, rq->asked[k], rq->asked[j]))
			return true;
	return false;
}

/*
 * What libpfm refuses once the attributes are read: a pair it refused for
 * want of something (a queue, a unit mask of another group, nf=), unless
 * the modifier that lifts it is given or a third unit mask goes with both
 * (skx TOR_INSERTS:IRQ:OPC0_RFO:OPC1_RFO).
 */
static int check_after_reading(struct request *rq, bool rules)
{
	if (!rules)
		return 0;
	for (int i = 0; i < rq->nasked; i++)
		for (int j = i + 1; j < rq->nasked; j++) {
			const struct group_rule *rule = pair_rule(rq->ev, rq->asked[i], rq->asked[j]);
			if (!rule || !rule->after_reading)
				continue;
			if ((rule->lifted_by >= 0 && is_given(rq, rule->lifted_by))
			    || (rule->third_lifts && third_goes_with_both(rq, i, j)))
				continue;
			return refuse_pair(rq, rule, rq->asked[i], rq->asked[j]);
		}
	return 0;
}

int check_rules(struct request *rq)
{
	/* one look at the groups asked serves both passes; without a rule, a
	 * repeat or a ranged modifier there is nothing to check */
	bool rules = rules_may_apply(rq);
	if (!rules && !rq->nrepeated && !rq->has_raw && !(rq->given & rq->ev->modifiers->ranged))
		return 0;
	int r = check_as_read(rq, rules);
	return r ? r : check_after_reading(rq, rules);
}

/* Modifier M given at another value than VALUE (an escaped earlier value
 * too, see apply_attributes). */
static bool given_otherwise(const struct request *rq, int m, uint64_t value)
{
	for (int i = 0; i < rq->nattrs; i++)
		if (rq->attrs[i].modifier == m && rq->attrs[i].value != value)
			return true;
	return false;
}

/* Only the unit masks asked for imply values, not the defaults libpfm adds
 * (its encoders collect them while reading the user's unit masks). */
static int apply_implied(struct request *rq)
{
	const struct event *ev = rq->ev;
	for (int i = 0; ev->implies && i < rq->nasked; i++) {
		const struct umask *u = &ev->umasks[rq->asked[i]];
		for (int k = 0; k < u->nimplied; k++) {
			const struct implied *im = &u->implied[k];
			if (im->modifier >= ev->modifiers->count)
				continue;
			if (im->hardwired && given_otherwise(rq, im->modifier, im->value))
				return request_fail(rq, PMUDB_ERR_ATTR_SET, "unit mask %s sets %s=%llu", u->name,
					    ev->modifiers->items[im->modifier].name, (unsigned long long)im->value);
		}
	}
	return 0;
}

/* A raw unit mask stands for them all: no defaults, no lone-unit-mask
 * rule; a modifier the event needs is still needed. */
static int take_raw_umask(struct request *rq)
{
	const struct event *ev = rq->ev;
	if (ev->bare_needs >= 0 && !is_given(rq, ev->bare_needs))
		return request_fail(rq, ev->bare_error, "%s needs %s", ev->name, ev->modifiers->items[ev->bare_needs].name);
	/* an event's equiv may have named some (wsm::LLC_REFERENCES): libpfm
	 * prints them, and its encoders take the raw one instead */
	uint16_t named[MAX_UMASKS];
	memcpy(named, rq->asked, (size_t)rq->nasked * sizeof(*named));
	sort_positions(named, rq->nasked);
	for (int i = 0; i < rq->nasked; i++)
		fstr_add_umask(rq, &ev->umasks[named[i]]);
	char hex[16];
	int n = snprintf(hex, sizeof(hex), ":0x%x", (unsigned)rq->raw_umask);	/* libpfm prints 32 bits */
	fstr_append(rq, hex, (size_t)n);
	return 0;
}

int add_umask_defaults(struct request *rq)
{
	const struct event *ev = rq->ev;
	rq->nfinal = 0;
	if (rq->has_raw)
		return take_raw_umask(rq);
	if (rq->without_umasks)
		return 0;
	if (rq->nasked == 0) {
		if (ev->bare_error && !(ev->bare_needs >= 0 && is_given(rq, ev->bare_needs)))
			return request_fail(rq, ev->bare_error, "%s needs a unit mask%s%s", ev->name,
				    ev->bare_needs >= 0 ? " or " : "",
				    ev->bare_needs >= 0 ? ev->modifiers->items[ev->bare_needs].name : "");
		for (int i = 0; i < ev->nbare; i++)
			rq->final[rq->nfinal++] = ev->bare_added[i];
	} else {
		const struct umask *only = &ev->umasks[rq->asked[0]];
		/* alone it may lack a modifier, not a unit mask: NID needs nf=,
		 * and the build saw NID:nf= encode (it unlocks nf) */
		if (rq->nasked == 1 && only->single_error && !(needs_modifier(only) && (only->unlocks & rq->given)))
			return request_fail(rq, only->single_error, "%s:%s needs another unit mask", ev->name, only->name);
		memcpy(rq->final, rq->asked, (size_t)rq->nasked * sizeof(*rq->asked));
		rq->nfinal = rq->nasked;
		add_common_defaults(rq);
	}
	sort_positions(rq->final, rq->nfinal);
	for (int i = 0; i < rq->nfinal; i++) {
		fstr_add_umask(rq, &ev->umasks[rq->final[i]]);
		/* libpfm prints each unit mask its encoder saw */
		for (int k = 0; k < rq->nrepeated; k++)
			if (rq->repeated[k] == rq->final[i])
				fstr_add_umask(rq, &ev->umasks[rq->final[i]]);
	}
	return apply_implied(rq);
}

/* ---- modifiers ----------------------------------------------------------- */

/* A hidden modifier (nf=) is taken only with a unit mask that needs it;
 * libpfm checks this once the unit masks are settled. */
int check_hidden_modifiers(struct request *rq)
{
	const struct event *ev = rq->ev;
	if (!ev->some_unlock && !(rq->given & ev->hidden))
		return 0;
	for (int i = 0; i < rq->nasked; i++) {
		const struct umask *u = &ev->umasks[rq->asked[i]];
		if (needs_modifier(u) && !(u->unlocks & rq->given))
			return request_fail(rq, PMUDB_ERR_ATTR, "%s:%s needs %s=", ev->name, u->name,
				    ev->modifiers->items[__builtin_ctzll(u->unlocks)].name);
	}
	int m;
	for (each_bit(m, rq->given & ev->hidden)) {
		if (!ev->hidden_error[m])
			continue;
		bool unlocked = false;
		for (int i = 0; i < rq->nasked && !unlocked; i++)
			unlocked = ev->umasks[rq->asked[i]].unlocks >> m & 1;
		if (!unlocked)
			return request_fail(rq, ev->hidden_error[m], "%s= goes only with a unit mask of %s that needs it",
				    ev->modifiers->items[m].name, ev->name);
	}
	return 0;
}

static uint64_t *field_ptr(struct request *rq, int field)
{
	switch (field) {
	case F_CONFIG: return &rq->out->config;
	case F_CONFIG1: return &rq->out->config1;
	case F_CONFIG2: return &rq->out->config2;
	case F_CODE0: return &rq->codes[0];
	case F_CODE1: return &rq->codes[1];
	case F_CODE2: return &rq->codes[2];
	case F_CODE3: return &rq->codes[3];
	default: return NULL;	/* perf_event_attr fields: perf_layer.c */
	}
}

void apply_presence(struct request *rq, const struct modifier *m)
{
	for (int i = 0; i < m->npresence; i++) {
		uint64_t *f = field_ptr(rq, m->presence[i].field);
		if (f)
			*f |= m->presence[i].mask;
	}
}

void apply_landings(struct request *rq, const struct modifier *m, uint64_t value)
{
	/* bits a non-zero value sets beside itself (NetBurst's compare bit),
	 * which a zero never clears: another modifier may have set them */
	for (int i = 0; value && i < m->nnonzero; i++) {
		uint64_t *f = field_ptr(rq, m->nonzero[i].field);
		if (f)
			*f |= m->nonzero[i].mask;
	}
	for (int i = 0; i < m->nlandings; i++) {
		uint64_t *f = field_ptr(rq, m->landings[i].field);
		uint64_t mask = m->landings[i].mask;
		if (!f || !mask)
			continue;
		int shift = __builtin_ctzll(mask);
		*f = (*f & ~mask) | ((value << shift) & mask);
	}
}

static bool implied_by_asked(const struct request *rq, int m)
{
	return asked_implies(rq) >> m & 1;
}

/* A modifier inert without a unit mask implying it is taken and printed
 * with the value given, and sets nothing (libpfm's fe_thres). */
static bool lands(const struct request *rq, int m)
{
	return !rq->ev->modifiers->items[m].inert_unless_implied || implied_by_asked(rq, m);
}

/* The given modifiers, latest first, each at its last occurrence in the
 * string: libpfm's encoders write each into its field as they read it, so
 * where two fields overlap (the PCU occupancy's e at bit 31, inside t's
 * byte) the later one given wins.  Returns the count. */
static int given_latest_first(const struct request *rq, int *order)
{
	uint64_t taken = 0;
	int n = 0;
	for (int i = rq->nattrs - 1; i >= 0; i--) {
		int m = rq->attrs[i].modifier;
		if (m >= 0 && !(taken >> m & 1)) {
			taken |= 1ULL << m;
			order[n++] = m;
		}
	}
	return n;
}

int apply_pmu_modifiers(struct request *rq, bool implied)
{
	const struct modifier_set *set = rq->ev->modifiers;
	/* neither given nor implied */
	if (!(rq->given & ~set->from_perf) && !(implied && rq->ev->implies))
		return 0;
	uint64_t values[MAX_MODIFIERS];
	uint64_t implied_mask = implied ? implied_modifiers(rq, values) & ~rq->given : 0;
	int m;
	/* a value a unit mask implies (ldlat=3) goes in too */
	for (each_bit(m, implied_mask & ~set->from_perf))
		if (values[m] != set->items[m].default_value)
			apply_landings(rq, &set->items[m], values[m]);
	int order[MAX_MODIFIERS];
	for (int i = given_latest_first(rq, order) - 1; i >= 0; i--) {
		m = order[i];
		const struct modifier *mod = &set->items[m];
		if (mod->from_perf || !lands(rq, m))
			continue;
		uint64_t v = rq->value[m];
		apply_landings(rq, mod, mod->is_integer ? v : v != 0);
		apply_presence(rq, mod);
	}
	return 0;
}

uint64_t implied_modifiers(const struct request *rq, uint64_t *values)
{
	const struct event *ev = rq->ev;
	uint64_t mask = 0;
	for (int i = 0; i < rq->nasked; i++) {
		const struct umask *u = &ev->umasks[rq->asked[i]];
		for (int k = 0; k < u->nimplied; k++) {
			int m = u->implied[k].modifier;
			if (!(mask >> m & 1))	/* the first unit mask asked wins */
				values[m] = u->implied[k].value;
			mask |= 1ULL << m;
		}
	}
	return mask;
}

uint64_t modifier_value(const struct request *rq, int m)
{
	if (is_given(rq, m))
		return rq->value[m];
	const struct event *ev = rq->ev;
	for (int i = 0; i < rq->nasked; i++) {
		const struct umask *u = &ev->umasks[rq->asked[i]];
		for (int k = 0; k < u->nimplied; k++)
			if (u->implied[k].modifier == m)
				return u->implied[k].value;
	}
	return ev->modifiers->items[m].default_value;
}

uint64_t register_value(struct request *rq, int m)
{
	const struct modifier *mod = &rq->ev->modifiers->items[m];
	if (!lands(rq, m))
		return modifier_value(rq, m);
	for (int i = 0; i < mod->nlandings; i++) {
		uint64_t *f = field_ptr(rq, mod->landings[i].field);
		if (f && mod->landings[i].mask)
			return (*f & mod->landings[i].mask) >> __builtin_ctzll(mod->landings[i].mask);
	}
	return modifier_value(rq, m);
}

int check_requirements(struct request *rq)
{
	const struct modifier_set *set = rq->ev->modifiers;
	int m;
	for (each_bit(m, set->requiring)) {
		const struct modifier *mod = &set->items[m];
		if (!register_value(rq, m))
			continue;
		if (!register_value(rq, mod->requires))
			return request_fail(rq, mod->refused_error, "%s=1 needs %s on %s", mod->name,
				    set->items[mod->requires].name, rq->pmu->name);
	}
	return 0;
}

/* A modifier whose fstr shows a constant (tf=1) shows it when given, or
 * when its presence bits are set by another (cf= sets tf's enable bit). */
static bool shows_constant(struct request *rq, int m)
{
	const struct modifier *mod = &rq->ev->modifiers->items[m];
	if (!mod->has_shown)
		return false;
	if (is_given(rq, m))
		return true;
	for (int i = 0; i < mod->npresence; i++) {
		uint64_t *f = field_ptr(rq, mod->presence[i].field);
		if (!f || (*f & mod->presence[i].mask) != mod->presence[i].mask)
			return false;
	}
	return mod->npresence > 0;
}

/* libpfm's encoders print each PMU modifier with the value that ended up
 * in the register, so that is where the value is read from. */
static uint64_t shown_value(struct request *rq, int m)
{
	const struct modifier *mod = &rq->ev->modifiers->items[m];
	return shows_constant(rq, m) ? mod->shown : register_value(rq, mod->shown_from >= 0 ? mod->shown_from : m);
}

void fstr_pmu_modifiers(struct request *rq)
{
	if (fstr_form_pmu(rq, shown_value))
		return;
	const struct modifier_set *set = rq->ev->modifiers;
	uint64_t all = set->count < 64 ? (1ULL << set->count) - 1 : ~0ULL;
	int m;
	/* hidden ones only when given */
	for (each_bit(m, all & ~set->from_perf & ~(rq->ev->hidden & ~rq->given)))
		fstr_add_modifier(rq, &set->items[m], shown_value(rq, m));
}
