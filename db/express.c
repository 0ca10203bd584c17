/*
 * express.c - the express lane: the strings most callers write,
 * "PMU::EVENT" with perf_events modifiers (u, k, period=...) and plain PMU
 * modifiers (c=1, i=1, e=1), encoded from the event's bare encoding
 * (bare.h) in one pass over the string, without the stages.
 *
 * The stages (encode.c) are the reference, and the lane gives their
 * answers: it takes an attribute only where its effect on the bare
 * encoding is known (bare.c decides which PMU modifiers qualify, once per
 * event), refuses only what the stages would refuse, in their order, and
 * only for a caller that wants no message; everything else (unit masks,
 * raw ones, repeats, aliases, names without "PMU::", a value strtoull
 * must read, an event not named before) it declines, and the stages
 * answer.  Through the stages, most of such a string's work was
 * bookkeeping these shapes do not need: the request's set-up, the scans
 * and lookups of each stage, every digit of fstr written again.
 */
#include "express.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "attr_value.h"
#include "event_cache.h"
#include "fstr_form.h"
#include "perf_defaults.h"
#include "perf_layer.h"
#include "rules.h"

/* The most attributes the lane reads: more go to the stages. */
#define EXPRESS_ATTRS 8

/* The word of the name of N bytes at AT of S, LEN bytes long with its
 * NUL (at least 8): read from where eight bytes fit in the string. */
static inline uint64_t word_at(const char *s, size_t len, size_t at, size_t n)
{
	/* no branch: which way a string's last token goes is not predicted */
	size_t from = at + 8 <= len ? at : len - 8;
	return name_word_of(name_word_load(s + from) >> (8 * (at - from)), n);
}

/* One attribute: a modifier's position in the event's set, its value. */
struct given {
	int m;
	uint64_t value;
};

/* The string's event and attributes, read. */
struct reading {
	const struct bare_encoding *bare;
	uint64_t given;		/* bit m: modifier m */
	unsigned kinds;		/* bit k: a perf modifier of kind k */
	int count;
	struct given attrs[EXPRESS_ATTRS];
};

/* The value of modifier MOD from the N bytes at VALUE (NULL: none
 * given): false where the stages must judge it. */
static bool read_value(const struct modifier *mod, const char *value, size_t n, uint64_t *v)
{
	if (!value) {
		*v = 1;
		return !mod->is_integer;
	}
	if (n == 1)
		return attr_char((unsigned char)value[0], mod->is_integer, v);
	return mod->is_integer && attr_decimal(value, n, v);
}

/* The attributes of S (read into IN) after the event's name: each a
 * modifier the lane takes, given once; false otherwise. */
static bool read_attributes(const char *s, const struct intake *in, struct reading *rd)
{
	const struct bare_encoding *b = rd->bare;
	const struct modifier_set *set = b->set;
	for (size_t at = in->name_end; at + 1 < in->len;) {
		/* NAME or NAME=VALUE, ended by ':', '.' or the NUL */
		size_t tok = at + 1, end = intake_next(in, tok), eq = end;
		bool has_value = s[end] == '=';
		if (has_value && s[end = intake_next(in, eq + 1)] == '=')
			return false;
		size_t name_len = eq - tok;
		if (!name_len || name_len > NAME_WORD_MAX || rd->count == EXPRESS_ATTRS)
			return false;
		int m = word_index_find(&set->by_word, word_at(s, in->len, tok, name_len));
		uint64_t bit = m >= 0 ? 1ULL << m : 0;
		const struct modifier *mod = &set->items[m < 0 ? 0 : m];
		/* unknown, given before, a unit mask's name, a PMU modifier
		 * the lane does not place */
		if (!bit || (rd->given & bit) || (!has_value && (b->shadowed & bit)) || !(mod->from_perf || (b->placed & bit)))
			return false;
		uint64_t v;
		if (!read_value(mod, has_value ? s + eq + 1 : NULL, has_value ? end - eq - 1 : 0, &v))
			return false;
		rd->given |= bit;
		rd->kinds |= mod->from_perf ? 1u << mod->perf_kind : 0;
		rd->attrs[rd->count++] = (struct given){ m, v };
		at = end;
	}
	return true;
}

/* The PMU modifiers placed into the bare registers, in the order given,
 * each checked against its range first, as the encoders check them all
 * before they place any: 0 or the refusal. */
static int place_modifiers(const struct reading *rd, uint64_t *config)
{
	const struct modifier_set *set = rd->bare->set;
	uint64_t pmu = rd->given & ~set->from_perf;
	if (!pmu)
		return 0;
	for (int i = 0; i < rd->count; i++) {
		const struct modifier *mod = &set->items[rd->attrs[i].m];
		uint64_t v = rd->attrs[i].value;
		if ((set->ranged >> rd->attrs[i].m & 1) && (v < mod->min || v > mod->max))
			return mod->range_error ? mod->range_error : PMUDB_ERR_ATTR_VAL;
	}
	for (int i = 0; i < rd->count; i++) {
		const struct modifier *mod = &set->items[rd->attrs[i].m];
		if (mod->from_perf)
			continue;
		uint64_t mask = mod->landings[0].mask;
		*config = (*config & ~mask) | (rd->attrs[i].value << __builtin_ctzll(mask) & mask);
	}
	return 0;
}

/* What check_requirements says of the registers in OUT (rules.c): the
 * rule that some modifiers need another one non-zero. */
static int requirements(const struct reading *rd, struct pmudb_encoding *out)
{
	struct pmudb_error spare;
	struct request rq;
	rq.db = NULL;
	rq.pmu = rd->bare->pmu;
	rq.ev = rd->bare->ev;	/* the rule's rare: these lines may be read */
	rq.err = &spare;
	rq.quiet = true;
	rq.out = out;
	rq.nasked = 0;
	rq.given = rd->given;
	memset(rq.codes, 0, sizeof(rq.codes));
	for (int i = 0; i < rd->count; i++)
		rq.value[rd->attrs[i].m] = rd->attrs[i].value;
	return check_requirements(&rq);
}

/* The perf modifiers, in the order given: 0 or the refusal. */
static int take_perf(const struct reading *rd, struct perf_state *st, struct pmudb_encoding *out)
{
	const struct modifier_set *set = rd->bare->set;
	for (int i = 0; rd->kinds && i < rd->count; i++) {
		const struct modifier *mod = &set->items[rd->attrs[i].m];
		int r = mod->from_perf ? perf_take(st, out, mod->perf_kind, rd->attrs[i].value) : 0;
		if (r)
			return r;
	}
	return 0;
}

/* What goes into the bare fstr: LEN bytes at AT of the part after "PMU::"
 * replaced by the N bytes at TEXT. */
struct patch {
	int at, len, n;
	const char *text;
};

/*
 * OUT's fstr: the bare one with the placed modifiers' digits (read back
 * from CONFIG, as the encoders print them), the perf digits as SHOWS has
 * them and a period's keys in their place.  False, with OUT's
 * fstr untouched, when the result would reach libpfm's limit (where the
 * stages cut it).
 */
static bool write_fstr(const struct reading *rd, uint64_t config, const uint8_t shows[P_NONE + 1],
		       struct pmudb_encoding *out)
{
	const struct bare_encoding *b = rd->bare;
	const struct fstr_form *form = b->form;
	struct patch patches[EXPRESS_ATTRS + 1];
	char digits[EXPRESS_ATTRS][24], keys[FSTR_MAX];
	int npatches = 0, len = b->fstr_len, m;
	/* in the order of their places: the PMU digits, then the period */
	for (each_bit(m, rd->given & b->placed)) {
		const struct form_digit *d = &form->digit[__builtin_popcountll(form->pmu & ((1ULL << m) - 1))];
		int n = (int)fstr_decimal(digits[npatches], config >> d->shift & d->width);
		patches[npatches] = (struct patch){ b->form_at + d->at, 1, n, digits[npatches] };
		npatches++;
	}
	if (out->sample_period) {
		int n = form->period_at >= 0 ? fstr_form_period_keys(form, b->set, out->sample_period, keys) : -1;
		if (n < 0)
			return false;
		patches[npatches++] = (struct patch){ b->form_at + form->period_at, 0, n, keys };
	}
	for (int i = 0; i < npatches; i++)
		len += patches[i].n - patches[i].len;
	if (len >= FSTR_MAX - 1)
		return false;
	char *part = out->fstr + (b->whole_len - b->fstr_len);
	memcpy(out->fstr, b->fstr, (size_t)b->whole_len + 1);
	fstr_form_put_perf(form, part + b->form_at, shows);
	/* from the last place back, so that each place still holds */
	int tail = b->fstr_len;
	for (int i = npatches - 1; i >= 0; i--) {
		const struct patch *p = &patches[i];
		char *at = part + p->at;
		if (p->n != p->len)
			memmove(at + p->n, at + p->len, (size_t)(tail - p->at - p->len) + 1);
		memcpy(at, p->text, (size_t)p->n);
		tail += p->n - p->len;
	}
	return true;
}

/* OUT from the reading, as the stages would write it: 0, a refusal, or
 * EXPRESS_DECLINED where the stages must answer. */
static int encode_reading(const struct reading *rd, struct pmudb_encoding *out, bool quiet)
{
	const struct bare_encoding *b = rd->bare;
	uint64_t config = b->config;
	int r = place_modifiers(rd, &config);
	memset(&out->config, 0, sizeof(*out) - offsetof(struct pmudb_encoding, config));
	out->config = config;
	out->config1 = b->config1;
	out->config2 = b->config2;
	out->cpu = -1;
	if (!r && b->set->requiring)
		r = requirements(rd, out);
	struct perf_state st = { 0 };
	if (!r)
		r = take_perf(rd, &st, out);
	if (r)
		return quiet ? r : EXPRESS_DECLINED;	/* the stages say why */
	unsigned plm, vmx_plm;
	uint8_t shows[P_NONE + 1];
	perf_settle(&st, b->plm, out, &plm, &vmx_plm);
	perf_shows(plm, vmx_plm, out->precise_ip, out->exclusive, shows);
	if (!write_fstr(rd, config, shows, out))
		return EXPRESS_DECLINED;
	out->sysfs_pmu[0] = '\0';
	if (b->type != INT32_MIN)
		out->type = b->type;
	else
		perf_type_resolve(b->pmu, b->ev, out);
	memcpy(out->pmu, b->spelled, (size_t)b->out_name_len);
	out->pmu[b->out_name_len] = '\0';
	return 0;
}

int express_encode(struct pmudb *db, const char *event, const struct intake *in, struct pmudb_encoding *out,
		   bool quiet, const struct bare_encoding **found)
{
	*found = NULL;
	/* "PMU::EVENT", the event's name ended by ':' or the NUL (a '.'
	 * may make it a vendor's dotted name); no blank or ',' in it */
	size_t n = in->name_end;
	if (db->express_off || !in->marked || in->low || !in->has_pmu || n == in->pmu_end + 2 || event[n] == '.')
		return EXPRESS_DECLINED;
	struct reading rd;
	rd.bare = *found = event_cache_find(db, event_cache_key(event, n), event, n, in->len);
	rd.given = 0;
	rd.kinds = 0;
	rd.count = 0;
	if (!rd.bare || !rd.bare->express || !read_attributes(event, in, &rd))
		return EXPRESS_DECLINED;
	return encode_reading(&rd, out, quiet);
}

void express_allow(struct pmudb *db, bool allowed)
{
	db->express_off = !allowed;
}
