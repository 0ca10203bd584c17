/*
 * bare.c - see bare.h.  What the express lane may change in a bare
 * encoding is decided here, once per event, from the catalog's model: a
 * PMU modifier qualifies where placing its value into the bare registers
 * (or, one that lands in none, nothing) and writing its digit into the
 * bare fstr gives what the stages give.
 */
#include "runtime/encode/bare.h"

#include "runtime/encode/family_encoders.h"
#include "runtime/encode/fstr_form.h"
#include "runtime/encode/perf_layer.h"

/* The digit of PMU modifier M in FORM (M among form->pmu). */
static const struct form_digit *digit_of(const struct fstr_form *form, int m)
{
	return &form->digit[__builtin_popcountll(form->pmu & ((1ULL << m) - 1))];
}

/*
 * Whether the lane places PMU modifier M of EV through P, B holding the
 * event alone: its value lands in one field of config and nothing else
 * (no bits set beside it, no constant shown, not inert, not ldlat, which
 * the Intel encoder checks against the unit masks), its digit shows that
 * field, and the field is its own: no bit of it is set in the bare
 * registers (the family's codes, which some encoders OR in after the
 * modifiers: a landing there would not replace them), cleared by the
 * perf encoding, or shown by another digit.
 */
static bool placed(const struct pmu *p, const struct event *ev, const struct bare_encoding *b, int m)
{
	const struct modifier_set *set = ev->modifiers;
	const struct fstr_form *form = ev->form;
	const struct modifier *mod = &set->items[m];
	if (!(form->pmu >> m & 1) || mod->nlandings != 1 || mod->landings[0].field != F_CONFIG || mod->npresence
	    || mod->nnonzero || mod->has_shown || (mod->shown_from >= 0 && mod->shown_from != m)
	    || mod->inert_unless_implied || m == set->ldlat)
		return false;
	uint64_t mask = mod->landings[0].mask;
	const struct form_digit *d = digit_of(form, m);
	if (!mask || d->reg != 0 || d->shift != __builtin_ctzll(mask) || d->width != mask >> d->shift
	    || (b->config & mask) || (p->config_cleared & mask))
		return false;
	int other;
	for (each_bit(other, form->pmu)) {
		const struct form_digit *o = digit_of(form, other);
		if (other != m && o->reg == 0 && (o->width << o->shift & mask))
			return false;
	}
	return true;
}

/*
 * Whether the lane writes PMU modifier M of EV, which lands in no register
 * (AMD's g, in perf mode): its digit shows the value given, and nothing
 * else follows from it (no presence bits, no constant shown, not another's
 * value shown, not inert, not hidden, not ldlat).
 */
static bool shown_only(const struct event *ev, int m)
{
	const struct modifier_set *set = ev->modifiers;
	const struct fstr_form *form = ev->form;
	const struct modifier *mod = &set->items[m];
	return !mod->from_perf && (form->pmu >> m & 1) && !mod->nlandings && !mod->npresence && !mod->nnonzero
	       && !mod->has_shown && mod->shown_from < 0 && !mod->inert_unless_implied && m != set->ldlat
	       && !(ev->hidden >> m & 1) && digit_of(form, m)->reg < 0;
}

/* Whether the lane takes EV's strings through P: it encodes alone
 * through a family encoder into the registers and an fstr that ends with
 * the form (whose digits the lane writes), with no equivalence to follow
 * and no unit mask that takes away the perf modifiers. */
static bool takes_express(const struct pmu *p, const struct event *ev, const struct bare_encoding *b)
{
	const struct fstr_form *form = ev->form;
	return b->encodes && p->family && !p->family->names_are_numbers && !ev->equiv
	       && !ev->some_take_no_modifiers && form && b->form_at >= 0 && b->fstr_len == b->form_at + form->len
	       && b->fstr_len < FSTR_MAX;
}

/* N bytes at DST, S's ASCII letters in lower case. */
static void fold(char *dst, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = (char)((unsigned)(s[i] - 'A') < 26u ? s[i] + 'a' - 'A' : s[i]);
}

struct bare_encoding *bare_make(struct arena *arena, const struct pmu *p, int e, const struct event *ev,
				const struct pmudb_encoding *alone, int fstr_len, int form_at)
{
	size_t name_len = p->name_len + 2 + (size_t)ev->name_len;
	if (name_len > INT32_MAX / 4)
		return NULL;
	int whole_len = alone ? (int)strlen(alone->fstr) : 0;
	/* the name, at least a chunk long (bare_same_bytes) */
	size_t room = (name_len + CHUNK_SIZE) / CHUNK_SIZE * CHUNK_SIZE;
	bool in_fstr = alone && (size_t)whole_len >= CHUNK_SIZE && (size_t)whole_len >= name_len
		       && !memcmp(alone->fstr, p->name, p->name_len) && !memcmp(alone->fstr + p->name_len, "::", 2)
		       && !memcmp(alone->fstr + p->name_len + 2, ev->name, (size_t)ev->name_len);
	struct bare_encoding *b = arena_calloc_aligned(arena, 1,
						       sizeof(*b) + (size_t)whole_len + 1 + (in_fstr ? 1 : 2) * room,
						       alignof(struct bare_encoding));
	if (!b)
		return NULL;
	*b = (struct bare_encoding){ .pmu = p, .ev = ev, .index = e, .name_len = (int)name_len, .form_at = -1,
				     .set = ev->modifiers, .form = ev->form, .plm = p->supported_plm, .guest_host_values = p->source != NULL,
				     .out_name_len = (int)p->out_name_len, .type = perf_type_fixed(p, ev),
				     .names_another = ev->equiv != NULL };
	char *folded = b->fstr + whole_len + 1, *spelled = folded + room;
	memcpy(b->fstr, alone ? alone->fstr : "", (size_t)whole_len + 1);
	b->spelled = in_fstr ? b->fstr : spelled;
	if (!in_fstr) {
		memcpy(spelled, p->name, p->name_len);
		memcpy(spelled + p->name_len, "::", 2);
		memcpy(spelled + p->name_len + 2, ev->name, (size_t)ev->name_len);
	}
	fold(folded, p->name, p->name_len);
	memcpy(folded + p->name_len, "::", 2);
	fold(folded + p->name_len + 2, ev->name, (size_t)ev->name_len);
	b->folded = folded;
	const struct modifier_set *set = ev->modifiers;
	for (int m = 0; m < set->count; m++)
		b->shadowed |= name_index_find(&ev->umask_by_name, set->items[m].name) >= 0 ? 1ULL << m : 0;
	if (!alone)
		return b;
	b->encodes = true;
	b->config = alone->config;
	b->config1 = alone->config1;
	b->config2 = alone->config2;
	b->fstr_len = fstr_len;
	b->form_at = form_at;
	b->whole_len = whole_len;
	b->express = takes_express(p, ev, b);
	for (int m = 0; b->express && m < set->count; m++) {
		b->placed |= placed(p, ev, b, m) ? 1ULL << m : 0;
		b->shown_only |= shown_only(ev, m) ? 1ULL << m : 0;
	}
	return b;
}

/* Whether one of the N landings at L sets bits of FIELD (of config). */
static bool lands_in_field(const struct landing *l, int n, uint64_t field)
{
	for (int i = 0; i < n; i++)
		if (l[i].field == F_CONFIG && (l[i].mask & field))
			return true;
	return false;
}

/* Whether bits of FIELD (of config) are among where MOD lands or what it
 * sets. */
static bool touches_config(const struct modifier *mod, uint64_t field)
{
	return lands_in_field(mod->landings, mod->nlandings, field)
	       || lands_in_field(mod->presence, mod->npresence, field)
	       || lands_in_field(mod->nonzero, mod->nnonzero, field);
}

/*
 * Whether the lane may add unit masks to T, EV encoded through P with
 * none: P's family ORs their codes into a field of config (FIELD) and
 * nothing else reads that field (no modifier lands in it or shows it, so
 * the modifiers and the fstr's digits are T's); T's fstr is the event's
 * name and the form, the unit masks' names going between; and the event
 * has no rule on its unit masks beyond pairs refused, which the lane
 * looks up (no pair's own defaults, no implied values, no hidden
 * modifiers, nothing measured).
 */
static bool umasks_qualify(const struct event *ev, const struct bare_encoding *t, uint64_t field)
{
	const struct modifier_set *set = ev->modifiers;
	if (!t->express || t->form_at != ev->name_len || !t->form->plain || (t->form->fields[0] & field)
	    || ev->implies || ev->some_unlock || ev->hidden || ev->npairs || ev->last_umask_wins
	    || ev->config_measured || ev->umasks_in_config1 || ev->filters_given || ev->defaults_keep_select)
		return false;
	for (int m = 0; m < set->count; m++)
		if (touches_config(&set->items[m], field))
			return false;
	return true;
}

/* Whether unit mask U, asked, is its code and its name alone: no
 * defaults it adds, no other unit mask it needs, nothing it implies,
 * unlocks, replaces or measures, not another's name. */
static bool plain_umask(const struct umask *u)
{
	return !u->equiv && !u->expansion && !u->nadded && !u->single_error && !u->nimplied && !u->implies
	       && !u->unlocks && !u->takes_no_modifiers && !u->sets_event_select && !u->code_is_filter
	       && !u->filter_layout && !u->retired;
}

void bare_take_umasks(struct bare_encoding *b, struct bare_encoding *t)
{
	const struct pmu *p = b->pmu;
	const struct event *ev = b->ev;
	const struct family *family = p->family;
	uint64_t field = family->umask_field << family->umask_shift;
	if (ev->numasks > 64 || !umasks_qualify(ev, t, field))
		return;
	for (int u = 0; u < ev->numasks; u++) {
		int g = ev->umasks[u].group;
		b->plain_umasks |= plain_umask(&ev->umasks[u]) ? 1ULL << u : 0;
		for (int i = 0; g >= 0 && i < ev->nrules; i++)
			b->ruled_umasks |= ev->rules[i].group_a == g || ev->rules[i].group_b == g ? 1ULL << u : 0;
	}
	t->umask_bits = field & ~p->config_cleared;
	t->umask_shift = family->umask_shift;
	b->with_umasks = t;
}

int bare_publish(struct pmu *p, const struct bare_encoding *b, struct arena *arena)
{
	_Atomic(const struct bare_encoding *) *bares = atomic_load_explicit(&p->bares, memory_order_relaxed);
	if (!bares) {
		bares = arena_calloc(arena, (size_t)p->table->nevents + 1, sizeof(*bares));
		if (!bares)
			return -1;
		atomic_store_explicit(&p->bares, bares, memory_order_release);
	}
	atomic_store_explicit(&bares[b->index], b, memory_order_release);
	return 0;
}
