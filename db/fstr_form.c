/*
 * fstr_form.c - see fstr_form.h.  The form holds what libpfm prints for
 * the modifiers whatever the values: the PMU modifiers (all but those the
 * event hides unless given), then the perf_events layer's that are always
 * printed; a period or frequency, printed only when set, is left out, and
 * an encoding with one prints the perf part one by one.
 */
#include "fstr_form.h"

#include <string.h>

#include "arena.h"

/* Which register of a request field F is, as form_digit.reg: -1 for the
 * perf_event_attr fields the perf layer sets. */
static int reg_of(int f)
{
	if (f >= F_CONFIG && f <= F_CONFIG2)
		return f - F_CONFIG;
	if (f >= F_CODE0 && f <= F_CODE3)
		return 3 + f - F_CODE0;
	return -1;
}

/* Where PMU modifier M's shown value can be read straight from a register
 * (rules.c's shown_value reading register_value's first landing), into D,
 * and true; D->reg stays -1 otherwise.  *VALUE_OF is then the modifier
 * whose value M shows when it lands in no register (register_value's
 * modifier_value), or -1 when it is shown some other way. */
static bool plain_field(const struct modifier_set *set, int m, struct form_digit *d, int *value_of)
{
	const struct modifier *mod = &set->items[m];
	int from = mod->shown_from >= 0 ? mod->shown_from : m;
	const struct modifier *src = &set->items[from];
	d->reg = -1;
	*value_of = -1;
	if (mod->has_shown)
		return false;
	*value_of = from;
	if (src->inert_unless_implied)
		return false;
	for (int i = 0; i < src->nlandings; i++) {
		int reg = reg_of(src->landings[i].field);
		uint64_t mask = src->landings[i].mask;
		if (reg < 0 || !mask)
			continue;
		d->reg = (int8_t)reg;
		d->shift = (uint8_t)__builtin_ctzll(mask);
		d->width = mask >> d->shift;
		*value_of = -1;
		return true;
	}
	return false;
}

/* Appends modifier M's key and a '0' to FORM at *LEN, its digit to
 * DIGITS; false when it does not fit. */
static bool lay_out(const struct modifier *m, char *form, int *len, struct form_digit *digits, int *ndigits)
{
	if (*len + m->fstr_key_len + 1 >= FSTR_MAX)
		return false;
	memcpy(form + *len, m->fstr_key, (size_t)m->fstr_key_len);
	*len += m->fstr_key_len;
	digits[*ndigits].at = (uint8_t)*len;
	digits[(*ndigits)++].reg = -1;
	form[(*len)++] = '0';
	return true;
}

int fstr_form_build(struct event *ev, struct arena *arena)
{
	const struct modifier_set *set = ev->modifiers;
	uint64_t all = set->count < 64 ? (1ULL << set->count) - 1 : ~0ULL;
	uint64_t perf = 0;
	int m;
	for (each_bit(m, set->from_perf))
		perf |= fstr_always_printed(set->items[m].perf_kind) ? 1ULL << m : 0;
	char form[FSTR_MAX];
	struct form_digit digits[MAX_MODIFIERS];
	int len = 0, n = 0;
	ev->form_pmu = all & ~set->from_perf & ~ev->hidden;
	ev->form_perf = perf;
	ev->form_plain = true;
	for (each_bit(m, ev->form_pmu)) {
		if (!lay_out(&set->items[m], form, &len, digits, &n))
			return 0;
		struct form_digit *d = &digits[n - 1];
		int value_of;
		if (plain_field(set, m, d, &value_of) && d->reg <= 2) {
			ev->form_fields[d->reg] |= d->width << d->shift;
			continue;
		}
		/* a value given, implied or by default: the default, in the
		 * form, while neither of the others holds */
		uint64_t v = value_of >= 0 ? set->items[value_of].default_value : 10;
		if (v > 9)
			ev->form_plain = false;
		else
			form[d->at] = (char)('0' + v);
		ev->form_values |= value_of >= 0 ? 1ULL << value_of : 0;
	}
	ev->form_perf_at = len;
	ev->form_perf_digit = n;
	/* a period or frequency goes where its keys fall among the perf
	 * modifiers always printed; all in one place, or -1 */
	ev->form_period_at = -1;
	bool period_seen = false, apart = false;
	for (each_bit(m, set->from_perf)) {
		enum perf_mod kind = set->items[m].perf_kind;
		if (kind == P_PERIOD || kind == P_FREQ) {
			apart |= period_seen && ev->form_period_at != len;
			period_seen = true;
			ev->form_period_at = len;
			continue;
		}
		if (!(perf >> m & 1))
			continue;
		if (!lay_out(&set->items[m], form, &len, digits, &n))
			return 0;
		digits[n - 1].reg = (int8_t)kind;
	}
	if (apart)
		ev->form_period_at = -1;
	char *text = arena_calloc(arena, (size_t)len + 1, 1);
	struct form_digit *at = arena_calloc(arena, (size_t)n + 1, sizeof(*at));
	if (!text || !at)
		return -1;
	memcpy(text, form, (size_t)len);
	memcpy(at, digits, (size_t)n * sizeof(*at));
	ev->form_len = len;
	ev->form_digits = n;
	ev->form_digit = at;
	ev->form = text;
	return 0;
}

bool fstr_form_pmu(struct request *rq, uint64_t (*value)(struct request *rq, int m))
{
	const struct event *ev = rq->ev;
	if (!ev->form || (ev->hidden & rq->given) || rq->fstr_len + ev->form_len >= FSTR_MAX)
		return false;
	const struct pmudb_encoding *out = rq->out;
	char *f = rq->fstr + rq->fstr_len;
	if (ev->form_plain && !(out->config & ev->form_fields[0]) && !(out->config1 & ev->form_fields[1])
	    && !(out->config2 & ev->form_fields[2]) && !((rq->given | asked_implies(rq)) & ev->form_values)) {
		/* the common case: no modifier's field is set, no value shown
		 * given or implied: the form's digits as they are */
		memcpy(f, ev->form, (size_t)ev->form_len + 1);
		rq->form_at = rq->fstr_len;
		rq->fstr_len += ev->form_len;
		return true;
	}
	const uint64_t regs[7] = { out->config, out->config1, out->config2, rq->codes[0], rq->codes[1],
				   rq->codes[2], rq->codes[3] };
	char digits[MAX_MODIFIERS];
	const struct form_digit *d = ev->form_digit;
	int n = 0, m;
	for (each_bit(m, ev->form_pmu)) {
		uint64_t v = d[n].reg >= 0 ? regs[d[n].reg] >> d[n].shift & d[n].width : value(rq, m);
		if (v > 9)
			return false;
		digits[n++] = (char)('0' + v);
	}
	memcpy(f, ev->form, (size_t)ev->form_len + 1);
	for (int k = 0; k < n; k++)
		f[d[k].at] = digits[k];
	rq->form_at = rq->fstr_len;
	rq->fstr_len += ev->form_len;
	return true;
}

/* The keys of the period-like modifiers of EV's set, each with
 * VALUE, into BUF (FSTR_MAX bytes); their length. */
static int period_keys(const struct event *ev, uint64_t value, char *buf)
{
	const struct modifier_set *set = ev->modifiers;
	char digits[24];
	int ndigits = (int)fstr_decimal(digits, value), len = 0, m;
	for (each_bit(m, set->from_perf)) {
		const struct modifier *mod = &set->items[m];
		if (mod->perf_kind != P_PERIOD && mod->perf_kind != P_FREQ)
			continue;
		if (len + mod->fstr_key_len + ndigits >= FSTR_MAX)
			return -1;
		memcpy(buf + len, mod->fstr_key, (size_t)mod->fstr_key_len);
		memcpy(buf + len + mod->fstr_key_len, digits, (size_t)ndigits);
		len += mod->fstr_key_len + ndigits;
	}
	return len;
}

bool fstr_form_perf(struct request *rq, const uint8_t shows[P_NONE + 1])
{
	const struct event *ev = rq->ev;
	if (rq->form_at < 0 || rq->fstr_len != rq->form_at + ev->form_len)
		return false;
	char *f = rq->fstr + rq->form_at;
	const struct form_digit *d = ev->form_digit;
	/* one digit each: the form holds the kinds always printed, whose
	 * values are 0 or 1 but precise_ip's, which apply_one keeps to 3 */
	for (int k = ev->form_perf_digit; k < ev->form_digits; k++)
		f[d[k].at] = (char)('0' + shows[d[k].reg]);
	if (!rq->out->sample_period)
		return true;
	/* a period's keys go in at their place, the rest of the form after */
	char keys[FSTR_MAX];
	int n = ev->form_period_at >= 0 ? period_keys(ev, rq->out->sample_period, keys) : -1;
	if (n < 0 || rq->fstr_len + n >= FSTR_MAX) {
		/* the form's perf part, written already, comes off again */
		rq->fstr_len = rq->form_at + ev->form_perf_at;
		rq->fstr[rq->fstr_len] = '\0';
		return false;
	}
	char *at = f + ev->form_period_at;
	memmove(at + n, at, (size_t)(ev->form_len - ev->form_period_at) + 1);
	memcpy(at, keys, (size_t)n);
	rq->fstr_len += n;
	return true;
}
