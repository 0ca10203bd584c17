/*
 * fstr_form.h - the modifiers' part of an event's fstr, laid out once for
 * the events of a modifier set that hide the same modifiers: every key in
 * order with a one-digit value slot.  A warm encoding copies it whole and
 * writes the digits, where printing a dozen ":name=value" one by one was a
 * fifth of the work (AMD core).  One form serves the set's events, so an
 * encoding after many others finds it in cache (each event's own was as
 * many cache misses as the rest of its data).
 */
#ifndef PMUDB_FSTR_FORM_H
#define PMUDB_FSTR_FORM_H

#include "runtime/encode/request.h"

/* A value digit of an event's fstr form (below): its offset, and
 * for a modifier that shows a plain register field, where that field is
 * (reg: 0-2 config..config2, 3-6 the raw code words; -1: not plain); for
 * a perf modifier, reg is its enum perf_mod. */
struct form_digit {
	uint8_t at;
	int8_t reg;
	uint8_t shift;
	uint64_t width;		/* the field's mask, shifted down */
};

/* The modifiers' part of fstr as the events of one modifier set that
 * hide the same modifiers print it, laid out once for them all: every key
 * in order with a one-digit value slot (below). */
struct fstr_form {
	const char *text;
	const struct form_digit *digit;	/* the value digits, in order */
	uint64_t hidden;	/* the events' event.hidden */
	uint64_t pmu, perf;	/* the modifiers it holds */
	int len, perf_at;	/* its length, where the perf part starts */
	/* where the digit of each kind of perf modifier always printed is,
	 * or len (where the form's NUL goes) for a kind it does not show
	 * (fstr_form_put_perf); a set whose kinds repeat gets no form */
	uint16_t kind_at[P_NONE];
	int period_at;		/* where a period's keys go in it, or -1 */
	uint64_t period_mods;	/* the modifiers whose keys those are */
	/* the perf digits show what the perf layer settles, without perf
	 * modifiers, for a PMU that can filter these privilege levels */
	unsigned plm;
	/* every PMU digit shows a field of config..config2, in these masks,
	 * or the value of a modifier of VALUES that lands in no register:
	 * where the registers have none of the fields' bits set, and none of
	 * those modifiers is given or implied, each digit is the form's
	 * (plain false: some digit is shown otherwise) */
	bool plain;
	uint64_t fields[3], values;
	const struct fstr_form *next;	/* the set's form for other events */
};

/* The perf modifiers libpfm prints whatever their value: the privilege
 * levels, precise, exclusive, guest/host (the period or frequency only
 * when set). */
#define FSTR_ALWAYS_PRINTED                                                                                  \
	(1u << P_U | 1u << P_K | 1u << P_H | 1u << P_PRECISE | 1u << P_HW_SMPL | 1u << P_MG | 1u << P_MH           \
	 | 1u << P_EXCL)
static inline bool fstr_always_printed(enum perf_mod kind)
{
	return FSTR_ALWAYS_PRINTED >> kind & 1;
}

/* Sets EV's form: its set's for the modifiers EV hides and a PMU that can
 * filter the privilege levels PLM (whose perf digits show what the perf
 * layer settles without perf modifiers), laid out in ARENA if it has none
 * yet (ev->form stays NULL when it would be too long, or the set has no
 * modifiers).  0, or -1 when out of memory.  Called as EV is decoded,
 * under the handle's lock. */
int fstr_form_build(struct event *ev, unsigned plm, struct arena *arena);

/* The PMU modifiers' part, by the form: false (nothing written) when it
 * does not apply (no form, a hidden modifier given, too long, a value of
 * two digits), and fstr_pmu_modifiers prints them one by one.  VALUE(RQ,
 * M) is the value modifier M shows. */
bool fstr_form_pmu(struct request *rq, uint64_t (*value)(struct request *rq, int m));

/* Whether the perf_events layer's part stands as the form has it, when
 * no perf modifier is given: fstr_form_pmu wrote the form, last, for the
 * PMU's privilege levels, and no period is shown. */
bool fstr_form_shows_defaults(const struct request *rq);

/* The perf_events layer's part, by the form, when fstr_form_pmu applied,
 * a period or frequency's keys in their place; else false, with the
 * form's perf part taken off again, for apply_perf_layer to print one by
 * one.  SHOWS: the value each kind of perf modifier shows (the period
 * and frequency show out->sample_period). */
bool fstr_form_perf(struct request *rq, const uint8_t shows[P_NONE + 1]);

/* FORM's perf digits, at F (where the form starts; the fstr ends with
 * it), as SHOWS has them. */
void fstr_form_put_perf(const struct fstr_form *form, char *f, const uint8_t shows[P_NONE + 1]);

/* The room past FSTR_MAX that fstr_form_period_keys may write into. */
#define FSTR_DIGITS_COPY 24
#define FSTR_KEYS_PAD (FSTR_KEY_COPY + FSTR_DIGITS_COPY)

/* The keys of FORM's period-like modifiers (of SET), each with VALUE,
 * into BUF (FSTR_MAX + FSTR_KEYS_PAD bytes, past the keys scribbled on):
 * their length, or -1 when they do not fit in FSTR_MAX. */
int fstr_form_period_keys(const struct fstr_form *form, const struct modifier_set *set, uint64_t value, char *buf);

#endif
