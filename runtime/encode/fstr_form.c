/*
 * fstr_form.c - see fstr_form.h.  The form holds what libpfm prints for
 * the modifiers whatever the values: the PMU modifiers (all but those the
 * event hides unless given), then the perf_events layer's that are always
 * printed; a period or frequency, printed only when set, is left out, and
 * an encoding with one prints the perf part one by one.
 */
#include "runtime/encode/fstr_form.h"

#include <string.h>

#include "catalog/arena.h"
#include "runtime/encode/perf_defaults.h"

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

/* Lays out the form of SET's events that hide HIDDEN, for PMUs that can
 * filter PLM, into F and ARENA; 0 (F->text NULL when it would be too
 * long), or -1 when out of memory. */
static int lay_out_form(const struct modifier_set *set, uint64_t hidden, unsigned plm, struct fstr_form *f,
			struct arena *arena)
{
	uint64_t all = set->count < 64 ? (1ULL << set->count) - 1 : ~0ULL;
	uint64_t perf = 0;
	int m;
	for (each_bit(m, set->from_perf))
		perf |= fstr_always_printed(set->items[m].perf_kind) ? 1ULL << m : 0;
	char form[FSTR_MAX];
	struct form_digit digits[MAX_MODIFIERS];
	int len = 0, n = 0;
	f->hidden = hidden;
	f->pmu = all & ~set->from_perf & ~hidden;
	f->perf = perf;
	f->plain = true;
	for (each_bit(m, f->pmu)) {
		if (!lay_out(&set->items[m], form, &len, digits, &n))
			return 0;
		struct form_digit *d = &digits[n - 1];
		int value_of;
		if (plain_field(set, m, d, &value_of) && d->reg <= 2) {
			f->fields[d->reg] |= d->width << d->shift;
			continue;
		}
		/* a value given, implied or by default: the default, in the
		 * form, while neither of the others holds */
		uint64_t v = value_of >= 0 ? set->items[value_of].default_value : 10;
		if (v > 9)
			f->plain = false;
		else
			form[d->at] = (char)('0' + v);
		f->values |= value_of >= 0 ? 1ULL << value_of : 0;
	}
	f->perf_at = len;
	int perf_digit = n;
	/* a period or frequency goes where its keys fall among the perf
	 * modifiers always printed; all in one place, or -1 */
	f->period_at = -1;
	bool period_seen = false, apart = false;
	for (each_bit(m, set->from_perf)) {
		enum perf_mod kind = set->items[m].perf_kind;
		if (kind == P_PERIOD || kind == P_FREQ) {
			apart |= period_seen && f->period_at != len;
			period_seen = true;
			f->period_at = len;
			f->period_mods |= 1ULL << m;
			continue;
		}
		if (!(perf >> m & 1))
			continue;
		if (f->kind_at[kind] || !lay_out(&set->items[m], form, &len, digits, &n))
			return 0;
		digits[n - 1].reg = (int8_t)kind;
		f->kind_at[kind] = (uint16_t)(digits[n - 1].at + 1);
	}
	/* + 1 while laid out (0: none yet); a kind not shown, the NUL's place */
	for (int k = 0; k < P_NONE; k++)
		f->kind_at[k] = (uint16_t)(f->kind_at[k] ? f->kind_at[k] - 1 : len);
	if (apart)
		f->period_at = -1;
	uint8_t shows[P_NONE + 1];
	perf_default_shows(plm, shows);
	for (int k = perf_digit; k < n; k++)
		form[digits[k].at] = (char)('0' + shows[digits[k].reg]);
	f->plm = plm;
	char *text = arena_calloc(arena, (size_t)len + 1, 1);
	struct form_digit *at = arena_calloc(arena, (size_t)n + 1, sizeof(*at));
	if (!text || !at)
		return -1;
	memcpy(text, form, (size_t)len);
	memcpy(at, digits, (size_t)n * sizeof(*at));
	f->len = len;
	f->digit = at;
	f->text = text;
	return 0;
}

int fstr_form_build(struct event *ev, unsigned plm, struct arena *arena)
{
	/* the set without modifiers is the reader's, of every handle: its
	 * events print no modifiers, one by one */
	struct modifier_set *set = (struct modifier_set *)ev->modifiers;
	if (!set->count)
		return 0;
	for (const struct fstr_form *f = set->forms; f; f = f->next)
		if (f->hidden == ev->hidden && f->plm == plm) {
			ev->form = f->text ? f : NULL;
			return 0;
		}
	struct fstr_form *f = arena_calloc(arena, 1, sizeof(*f));
	if (!f || lay_out_form(set, ev->hidden, plm, f, arena))
		return -1;
	/* the set's forms are read and added only under the handle's lock,
	 * as events are decoded; a form too long is kept too, without text */
	f->next = set->forms;
	set->forms = f;
	ev->form = f->text ? f : NULL;
	return 0;
}

bool fstr_form_pmu(struct request *rq, uint64_t (*value)(struct request *rq, int m))
{
	const struct event *ev = rq->ev;
	const struct fstr_form *form = ev->form;
	if (!form || (ev->hidden & rq->given) || rq->fstr_len + form->len >= FSTR_MAX)
		return false;
	const struct pmudb_encoding *out = rq->out;
	char *f = rq->fstr + rq->fstr_len;
	if (form->plain && !(out->config & form->fields[0]) && !(out->config1 & form->fields[1])
	    && !(out->config2 & form->fields[2]) && !((rq->given | asked_implies(rq)) & form->values)) {
		/* the common case: no modifier's field is set, no value shown
		 * given or implied: the form's digits as they are */
		memcpy(f, form->text, (size_t)form->len + 1);
		rq->form_at = rq->fstr_len;
		rq->fstr_len += form->len;
		return true;
	}
	const uint64_t regs[7] = { out->config, out->config1, out->config2, rq->codes[0], rq->codes[1],
				   rq->codes[2], rq->codes[3] };
	char digits[MAX_MODIFIERS];
	const struct form_digit *d = form->digit;
	int n = 0, m;
	for (each_bit(m, form->pmu)) {
		uint64_t v = d[n].reg >= 0 ? regs[d[n].reg] >> d[n].shift & d[n].width : value(rq, m);
		if (v > 9)
			return false;
		digits[n++] = (char)('0' + v);
	}
	memcpy(f, form->text, (size_t)form->len + 1);
	for (int k = 0; k < n; k++)
		f[d[k].at] = digits[k];
	rq->form_at = rq->fstr_len;
	rq->fstr_len += form->len;
	return true;
}

int fstr_form_period_keys(const struct fstr_form *form, const struct modifier_set *set, uint64_t value, char *buf)
{
	/* fixed-size copies, of a key and its zeros, of the digits and what
	 * follows them: a copy of each one's size mispredicted its size */
	char digits[FSTR_DIGITS_COPY] = { 0 };
	int ndigits = (int)fstr_decimal(digits, value), len = 0, m;
	for (each_bit(m, form->period_mods)) {
		const struct modifier *mod = &set->items[m];
		int key = mod->fstr_key_len;
		if (len + key + ndigits >= FSTR_MAX)
			return -1;
		if (key < FSTR_KEY_COPY)
			memcpy(buf + len, mod->fstr_key, FSTR_KEY_COPY);
		else
			memcpy(buf + len, mod->fstr_key, (size_t)key);
		memcpy(buf + len + key, digits, FSTR_DIGITS_COPY);
		len += key + ndigits;
	}
	return len;
}

void fstr_form_put_perf(const struct fstr_form *form, char *f, const uint8_t shows[P_NONE + 1])
{
	/* one digit each: the kinds always printed show 0 or 1 but
	 * precise_ip's, which perf_take keeps to 3.  Every kind, one the form
	 * does not show at its NUL, which goes back after: no branch, as
	 * strings that give different kinds follow each other */
#define PUT(k) f[form->kind_at[k]] = (char)('0' + shows[k])
	PUT(P_U), PUT(P_K), PUT(P_H), PUT(P_PRECISE), PUT(P_HW_SMPL), PUT(P_MG), PUT(P_MH), PUT(P_EXCL);
#undef PUT
	f[form->len] = '\0';
	_Static_assert(FSTR_ALWAYS_PRINTED
			       == (1u << P_U | 1u << P_K | 1u << P_H | 1u << P_PRECISE | 1u << P_HW_SMPL | 1u << P_MG
				   | 1u << P_MH | 1u << P_EXCL),
		       "the kinds written here are those always printed");
}

bool fstr_form_shows_defaults(const struct request *rq)
{
	const struct fstr_form *form = rq->ev->form;
	return rq->form_at >= 0 && rq->fstr_len == rq->form_at + form->len && form->plm == rq->pmu->supported_plm
	       && !rq->out->sample_period;
}

bool fstr_form_perf(struct request *rq, const uint8_t shows[P_NONE + 1])
{
	const struct event *ev = rq->ev;
	const struct fstr_form *form = ev->form;
	/* the form was written (form_at), and is what fstr ends with */
	if (rq->form_at < 0 || rq->fstr_len != rq->form_at + form->len)
		return false;
	char *f = rq->fstr + rq->form_at;
	fstr_form_put_perf(form, f, shows);
	if (!rq->out->sample_period)
		return true;
	/* a period's keys go in at their place, the rest of the form after */
	char keys[FSTR_MAX + FSTR_KEYS_PAD];
	int n = form->period_at >= 0 ? fstr_form_period_keys(form, ev->modifiers, rq->out->sample_period, keys) : -1;
	if (n < 0 || rq->fstr_len + n >= FSTR_MAX) {
		/* the form's perf part, written already, comes off again */
		rq->fstr_len = rq->form_at + form->perf_at;
		rq->fstr[rq->fstr_len] = '\0';
		return false;
	}
	char *at = f + form->period_at;
	memmove(at + n, at, (size_t)(form->len - form->period_at) + 1);
	memcpy(at, keys, (size_t)n);
	rq->fstr_len += n;
	return true;
}
