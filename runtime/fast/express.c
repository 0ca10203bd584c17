/*
 * express.c - the express lane: the strings most callers write,
 * "PMU::EVENT" with unit masks and modifiers, read where they lie (the
 * intake's marks, the event cache, the modifiers' word index) without
 * the stages' working copy and scans.  Those with perf_events modifiers
 * (u, k, period=...), plain PMU modifiers (c=1, i=1, e=1) and plain unit
 * masks alone are encoded from the event's bare encoding, or from the
 * event encoded without unit masks where some are given (bare.h); those
 * with other unit masks or modifiers are handed to the stages as a
 * request read (stages.h).
 *
 * The stages are the reference, and the lane gives their answers: it
 * changes the bare encoding only where the effect of an attribute is known
 * (bare.c decides which PMU modifiers and unit masks qualify, once per
 * event), refuses
 * only what the stages would refuse, in their order, and only for a
 * caller that wants no message; what it does not read (raw unit masks,
 * repeats, aliases and equivalences, names without "PMU::", a value
 * strtoull must read, an event not named before) it declines, and
 * encode.c reads it the stages' way.
 */
#include "runtime/fast/express.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "runtime/encode/attr_value.h"
#include "runtime/encode/attributes.h"
#include "runtime/fast/event_cache.h"
#include "runtime/encode/fstr_form.h"
#include "runtime/encode/perf_defaults.h"
#include "runtime/encode/perf_layer.h"
#include "runtime/encode/rules.h"
#include "runtime/encode/stages.h"

/* The most attributes the lane reads: more go to the stages. */
#define EXPRESS_ATTRS 8

/* The eight bytes at AT of S, LEN bytes long with its NUL (at least 8),
 * the first in the low bits: read from where eight bytes fit in the
 * string, those past its end anything. */
static inline uint64_t bytes_at(const char *s, size_t len, size_t at)
{
	/* no branch: which way a string's last token goes is not predicted */
	size_t past = -(size_t)(at + 8 > len);
	size_t from = (at & ~past) | ((len - 8) & past);
	return name_word_load(s + from) >> (8 * (at - from));
}

/* A modifier given: its position in the event's set and its value. */
struct given {
	int m;
	uint64_t value;
};

/* What the lane makes of a string's attributes. */
enum shape {
	DECLINE,	/* the stages' whole work: the lane declines it */
	BARE,		/* perf modifiers, placed or shown-only PMU modifiers
			 * and plain unit masks: the bare encoding (or the one
			 * without unit masks) and what each changes */
	STAGES,		/* other unit masks or modifiers, read by the lane and
			 * run through the stages (stages.h) */
	RULED,		/* the same, with two unit masks a rule names together */
};

/* The string's event and attributes, read. */
struct reading {
	const struct bare_encoding *bare;
	/* what the lane changes: BARE, or its with_umasks where unit masks
	 * are given */
	const struct bare_encoding *base;
	uint64_t given;		/* bit m: modifier m */
	uint64_t umask_bits;	/* bit u % 64: unit mask u may be given */
	unsigned kinds;		/* bit k: a modifier of kind k (P_NONE: a PMU's) */
	uint64_t pmu_given;	/* the PMU modifiers among GIVEN */
	/* the attributes, modifiers and unit masks apart (each loop of the
	 * lane's is over one of them), bit i of UMASK_AT set where the i-th
	 * given is a unit mask */
	int nmods, numasks;
	unsigned umask_at;
	struct given mods[EXPRESS_ATTRS];
	int umasks[EXPRESS_ATTRS];
};

/* The value of modifier MOD from the N bytes at AT of S (read into IN;
 * AT 0: none given): false where the stages must judge it. */
static bool read_value(const struct modifier *mod, const char *s, const struct intake *in, size_t at, size_t n,
		       uint64_t *v)
{
	if (!at) {
		*v = 1;
		return !mod->is_integer;
	}
	if (!mod->is_integer)
		return !attr_bool(s + at, n, v);
	if (n - 1 < 8)
		return attr_decimal_word(bytes_at(s, in->len, at), n, v);
	return attr_decimal(s + at, n, v);
}

/* The live unit mask of RD's event named by the N bytes at NAME (not one
 * the lane leaves to the stages: another's name), or -1. */
static int umask_named(const struct reading *rd, const char *name, size_t n)
{
	const struct event *ev = rd->bare->ev;
	stages_fetch(ev);
	int u = name_index_find_hashed(&ev->umask_by_name, name, n, name_index_hash(name, n));
	return u >= 0 && !ev->umasks[u].equiv ? u : -1;
}

/* One attribute of S (read into IN), from TOK to END, its '=' at EQ (END:
 * none): into RD, false where the stages must read it. */
static bool read_attribute(const char *s, const struct intake *in, size_t tok, size_t eq, size_t end,
			   struct reading *rd)
{
	const struct bare_encoding *b = rd->bare;
	const struct modifier_set *set = b->set;
	bool has_value = eq < end;
	size_t name_len = eq - tok;
	if (!name_len || rd->nmods + rd->numasks == EXPRESS_ATTRS)
		return false;
	/* a name that is both a unit mask and a modifier is the modifier
	 * when it has a value, as in libpfm */
	size_t word_len = name_len < NAME_WORD_MAX ? name_len : NAME_WORD_MAX;
	int m = word_index_find(&set->by_word, name_word_of(bytes_at(s, in->len, tok), word_len));
	/* no branch on the length, as unit masks and modifiers alternate */
	m = name_len <= NAME_WORD_MAX ? m : -1;
	uint64_t bit = m >= 0 ? 1ULL << m : 0;
	if (!has_value && (!bit || (b->shadowed & bit))) {
		/* the encoding the unit masks go into, made apart when the
		 * event alone adds defaults: asked for while they are found
		 * (again for each: a test would be mispredicted) */
		bare_fetch(b->with_umasks ? b->with_umasks : b);
		int u = umask_named(rd, s + tok, name_len);
		/* the list searched only when a unit mask of the same bit was
		 * given: a loop as long as it mispredicted its end */
		uint64_t ubit = 1ULL << (u & 63);
		for (int i = 0; u >= 0 && (rd->umask_bits & ubit) && i < rd->numasks; i++)
			if (rd->umasks[i] == u)
				return false;	/* given twice */
		rd->umask_bits |= ubit;
		rd->umask_at |= 1u << (rd->nmods + rd->numasks);
		rd->umasks[rd->numasks++] = u;
		return u >= 0;
	}
	const struct modifier *mod = &set->items[m < 0 ? 0 : m];
	uint64_t v;
	if (!bit || (rd->given & bit) || !read_value(mod, s, in, has_value ? eq + 1 : 0, end - eq - 1, &v))
		return false;
	rd->given |= bit;
	/* a PMU modifier's kind is P_NONE: a bit no perf kind has */
	rd->kinds |= 1u << mod->perf_kind;
	rd->pmu_given |= mod->from_perf ? 0 : bit;
	rd->mods[rd->nmods++] = (struct given){ m, v };
	return true;
}

/* Whether two unit masks RD gives meet a rule. */
static bool umasks_ruled(const struct reading *rd)
{
	const struct event *ev = rd->bare->ev;
	for (int j = 1; j < rd->numasks; j++)
		for (int i = 0; i < j; i++)
			if (pair_rule(ev, rd->umasks[i], rd->umasks[j]))
				return true;
	return false;
}

/*
 * The shape of what RD read: BARE where the lane changes its base (the
 * event alone, or without unit masks) for each attribute.  Where the lane
 * may add unit masks, the event has at most 64 and RD's umask_bits are
 * those given: they are checked plain, and two of them looked up for a
 * rule only where two have groups a rule names.
 */
static enum shape shape_of(struct reading *rd)
{
	const struct bare_encoding *b = rd->bare;
	rd->base = b;
	if (rd->numasks) {
		uint64_t ruled = rd->umask_bits & b->ruled_umasks;
		rd->base = b->with_umasks;
		if (!rd->base)
			return STAGES;
		if ((ruled & (ruled - 1)) && umasks_ruled(rd))
			return RULED;
		if (rd->umask_bits & ~b->plain_umasks)
			return STAGES;
	}
	const struct bare_encoding *base = rd->base;
	return base->express && !(rd->pmu_given & ~(base->placed | base->shown_only)) ? BARE : STAGES;
}

/* What the stages refuse first as they read RD's attributes (rules.c's
 * check_as_read), the encoder's family known to encode: a modifier out of
 * its range, or a unit mask a rule excludes beside one before it; 0 for
 * none (a rule found once all are read is the stages' to judge). */
static int refused_as_read(const struct reading *rd)
{
	const struct event *ev = rd->bare->ev;
	const struct modifier_set *set = rd->bare->set;
	for (int i = 0, u = 0, m = 0; i < rd->nmods + rd->numasks; i++) {
		if (rd->umask_at >> i & 1) {
			for (int k = 0; k < u; k++) {
				const struct group_rule *rule = pair_rule(ev, rd->umasks[k], rd->umasks[u]);
				if (rule && !rule->after_reading)
					return rule->error;
			}
			u++;
			continue;
		}
		const struct given *g = &rd->mods[m++];
		int r = set->ranged >> g->m & 1 ? range_refusal(&set->items[g->m], g->value) : 0;
		if (r)
			return r;
	}
	return 0;
}

/* The attributes of S (read into IN) after the event's name: RD's shape,
 * DECLINE for an attribute the lane does not read (one it does not know,
 * one given twice, a raw unit mask, a value strtoull must read). */
static enum shape read_attributes(const char *s, const struct intake *in, struct reading *rd)
{
	for (size_t at = in->name_end; at + 1 < in->len;) {
		/* NAME or NAME=VALUE, ended by ':', '.' or the NUL */
		size_t tok = at + 1, end = intake_next(in, tok), eq = end;
		if (s[end] == '=' && s[end = intake_next(in, eq + 1)] == '=')
			return DECLINE;
		if (!read_attribute(s, in, tok, eq, end, rd))
			return DECLINE;
		at = end;
	}
	return shape_of(rd);
}

/* The PMU modifiers placed into the bare registers, in the order given,
 * each checked against its range first, as the encoders check them all
 * before they place any: 0 or the refusal. */
static int place_modifiers(const struct reading *rd, uint64_t *config)
{
	const struct modifier_set *set = rd->base->set;
	if (!rd->pmu_given)
		return 0;
	for (int i = 0; i < rd->nmods; i++) {
		int m = rd->mods[i].m, r = set->ranged >> m & 1 ? range_refusal(&set->items[m], rd->mods[i].value) : 0;
		if (r)
			return r;
	}
	for (int i = 0; i < rd->nmods; i++) {
		const struct modifier *mod = &set->items[rd->mods[i].m];
		if (!(rd->base->placed >> rd->mods[i].m & 1))
			continue;
		uint64_t mask = mod->landings[0].mask;
		*config = (*config & ~mask) | (rd->mods[i].value << __builtin_ctzll(mask) & mask);
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
	rq.ev = rd->bare->ev;
	rq.err = &spare;
	rq.quiet = true;
	rq.out = out;
	rq.nasked = 0;
	rq.given = rd->given;
	rq.codes[0] = rq.codes[1] = rq.codes[2] = rq.codes[3] = 0;
	for (int i = 0; i < rd->nmods; i++)
		rq.value[rd->mods[i].m] = rd->mods[i].value;
	return check_requirements(&rq);
}

/* The perf modifiers, in the order given: 0 or the refusal. */
static int take_perf(const struct reading *rd, struct perf_state *st, struct pmudb_encoding *out)
{
	const struct modifier_set *set = rd->bare->set;
	for (int i = 0; (rd->kinds & ((1u << P_NONE) - 1)) && i < rd->nmods; i++) {
		const struct modifier *mod = &set->items[rd->mods[i].m];
		int r = mod->from_perf ? perf_take(st, out, mod->perf_kind, rd->mods[i].value) : 0;
		if (r)
			return r;
	}
	return 0;
}

/* The value RD gives modifier M, which it gives. */
static uint64_t given_value(const struct reading *rd, int m)
{
	for (int i = 0; i < rd->nmods; i++)
		if (rd->mods[i].m == m)
			return rd->mods[i].value;
	return 0;
}

/* What goes into the bare fstr: LEN bytes at AT of the part after "PMU::"
 * replaced by the N bytes at TEXT. */
struct patch {
	int at, len, n;
	const char *text;
};

/* The patches of PART (LEN bytes after "PMU::"), in the order of their
 * places: from the last back, so that each place still holds. */
static void apply_patches(char *part, int len, const struct patch *patches, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		const struct patch *p = &patches[i];
		char *at = part + p->at;
		memmove(at + p->n, at + p->len, (size_t)(len - p->at - p->len) + 1);
		memcpy(at, p->text, (size_t)p->n);
		len += p->n - p->len;
	}
}

/* The room umask_text writes into. */
#define UMASK_TEXT_ROOM (FSTR_MAX + CHUNKS_SHORT + 1)

/* The unit masks RD gives as the fstr shows them, ":NAME" each in
 * position order (as the stages sort the final ones), into TEXT: their
 * length, or -1 where they reach libpfm's limit alone.  Their codes are
 * ORed into *CODES. */
static int umask_text(const struct reading *rd, char text[UMASK_TEXT_ROOM], uint64_t *codes)
{
	const struct event *ev = rd->bare->ev;
	int order[EXPRESS_ATTRS], n = rd->numasks, len = 0;
	for (int i = 0; i < n; i++) {
		int u = rd->umasks[i], j = i;
		for (; j > 0 && order[j - 1] > u; j--)
			order[j] = order[j - 1];
		order[j] = u;
	}
	for (int i = 0; i < n; i++) {
		const struct umask *um = &ev->umasks[order[i]];
		*codes |= um->code;
		if (um->name_len >= CHUNKS_SHORT || len + 1 + um->name_len >= FSTR_MAX)
			return -1;
		text[len] = ':';
		/* a catalog's name (packed.h's PACKED_READ_PAD) */
		chunks_copy_short(text + len + 1, um->name);
		len += 1 + um->name_len;
	}
	return len;
}

/*
 * OUT's fstr: B's, with the unit masks' ULEN bytes at UTEXT after the
 * event's name, the placed modifiers' digits (read back from CONFIG, as
 * the encoders print them), the perf digits as SHOWS has them and a
 * period's keys in their place.  False, with OUT's fstr untouched, when
 * the result would reach libpfm's limit (where the stages cut it).  A
 * value of one digit is written in place; one of more, and a period,
 * move what follows.
 */
static bool write_fstr(const struct reading *rd, const struct bare_encoding *b, const char *utext, int ulen,
		       uint64_t config, const uint8_t shows[P_NONE + 1], struct pmudb_encoding *out)
{
	const struct fstr_form *form = b->form;
	struct patch patches[EXPRESS_ATTRS + 1];
	char digits[EXPRESS_ATTRS][24], keys[FSTR_MAX + FSTR_KEYS_PAD], one[EXPRESS_ATTRS];
	int npatches = 0, nones = 0, len = b->fstr_len + ulen, form_at = b->form_at + ulen, m;
	int one_at[EXPRESS_ATTRS];
	for (each_bit(m, rd->given & (b->placed | b->shown_only))) {
		const struct form_digit *d = &form->digit[__builtin_popcountll(form->pmu & ((1ULL << m) - 1))];
		uint64_t v = b->placed >> m & 1 ? config >> d->shift & d->width : given_value(rd, m);
		if (v < 10) {
			one_at[nones] = form_at + d->at;
			one[nones++] = (char)('0' + v);
			continue;
		}
		int n = (int)fstr_decimal(digits[npatches], v);
		patches[npatches] = (struct patch){ form_at + d->at, 1, n, digits[npatches] };
		len += n - 1;
		npatches++;
	}
	if (out->sample_period) {
		int n = form->period_at >= 0 ? fstr_form_period_keys(form, b->set, out->sample_period, keys) : -1;
		if (n < 0)
			return false;
		patches[npatches++] = (struct patch){ form_at + form->period_at, 0, n, keys };
		len += n;
	}
	if (len >= FSTR_MAX - 1)
		return false;
	char *part = out->fstr + (b->whole_len - b->fstr_len);
	if (ulen) {
		size_t name = (size_t)(b->whole_len - b->fstr_len + b->form_at);
		chunks_copy(out->fstr, b->fstr, name);
		chunks_copy(out->fstr + name, utext, (size_t)ulen);
		chunks_copy(out->fstr + name + ulen, b->fstr + name, (size_t)(b->fstr_len - b->form_at) + 1);
	} else {
		bare_copy_fstr(out->fstr, b);
	}
	fstr_form_put_perf(form, part + form_at, shows);
	for (int i = 0; i < nones; i++)
		part[one_at[i]] = one[i];
	if (npatches)
		apply_patches(part, b->fstr_len + ulen, patches, npatches);
	return true;
}

/* OUT from the reading, of shape BARE, as the stages would write it: 0,
 * a refusal (its code only), or EXPRESS_DECLINED where the stages must
 * answer. */
static int encode_reading(const struct reading *rd, struct pmudb_encoding *out)
{
	const struct bare_encoding *b = rd->base;
	uint64_t config = b->config;
	char utext[UMASK_TEXT_ROOM];
	int ulen = 0;
	if (rd->numasks) {
		uint64_t codes = 0;
		ulen = umask_text(rd, utext, &codes);
		if (ulen < 0)
			return EXPRESS_DECLINED;
		config |= codes << b->umask_shift & b->umask_bits;
	}
	int r = place_modifiers(rd, &config);
	encoding_clear(out);
	out->config = config;
	out->config1 = b->config1;
	out->config2 = b->config2;
	if (b->set->requiring && !r)
		r = requirements(rd, out);
	struct perf_state st = { .guest_host_values = b->guest_host_values };
	if (!r)
		r = take_perf(rd, &st, out);
	if (r)
		return r;
	unsigned plm, vmx_plm;
	uint8_t shows[P_NONE + 1];
	perf_settle(&st, b->plm, out, &plm, &vmx_plm);
	perf_shows(plm, vmx_plm, out->precise_ip, out->exclusive, shows);
	if (!write_fstr(rd, b, utext, ulen, config, shows, out))
		return EXPRESS_DECLINED;
	out->sysfs_pmu[0] = '\0';
	if (b->type != INT32_MIN)
		out->type = b->type;
	else
		perf_type_resolve(b->pmu, b->ev, out);
	chunks_copy_64(out->pmu, b->spelled, (size_t)b->out_name_len);
	out->pmu[b->out_name_len] = '\0';
	return 0;
}

/* RD through the stages: 0, or the refusal, in ERR with its message
 * unless QUIET (the stages' messages name the catalog's names and the
 * values, not the string's tokens: the same as encode.c's request's). */
static int encode_by_stages(struct pmudb *db, const struct reading *rd, struct pmudb_encoding *out,
			    struct pmudb_error *err, bool quiet)
{
	const struct bare_encoding *b = rd->bare;
	struct request rq;
	rq.db = db;
	rq.out = out;
	rq.err = err;
	rq.quiet = quiet;
	request_start(&rq);
	rq.pmu = b->pmu;
	rq.ev = b->ev;
	rq.event_index = b->index;
	rq.named_umask = true;
	int r = 0;
	for (int i = 0, u = 0, m = 0; i < rd->nmods + rd->numasks && !r; i++) {
		if (rd->umask_at >> i & 1) {
			attributes_note_typed(&rq, rd->umasks[u]);
			r = attributes_add(&rq, rd->umasks[u++], -1, 0);
		} else {
			r = attributes_add(&rq, -1, rd->mods[m].m, rd->mods[m].value);
			m++;
		}
	}
	if (!r)
		r = attributes_apply(&rq);
	if (!r)
		r = stages_encode(&rq);
	return r;
}

int express_encode(struct pmudb *db, const char *event, const struct intake *in, struct pmudb_encoding *out,
		   struct pmudb_error *err, bool quiet, const struct bare_encoding **found)
{
	*found = NULL;
	/* "PMU::EVENT", the event's name ended by ':' or the NUL (a '.'
	 * may make it a vendor's dotted name); no blank or ',' in it */
	size_t n = in->name_end;
	if (db->express_off || !in->marked || in->low || !in->has_pmu || n == in->pmu_end + 2 || event[n] == '.')
		return EXPRESS_DECLINED;
	struct reading rd;
	rd.bare = *found = event_cache_find(db, event_cache_key(event, n), event, n, in->len);
	rd.given = rd.umask_bits = 0;
	rd.kinds = 0;
	rd.pmu_given = 0;
	rd.nmods = rd.numasks = 0;
	rd.umask_at = 0;
	/* an event that is another's name: the stages follow it */
	if (!rd.bare || rd.bare->names_another)
		return EXPRESS_DECLINED;
	enum shape shape = read_attributes(event, in, &rd);
	if (shape == DECLINE)
		return EXPRESS_DECLINED;
	/* an event the lane adds unit masks to has a family that encodes:
	 * the stages' first refusal is check_rules' */
	if (shape == RULED && quiet) {
		int r = refused_as_read(&rd);
		if (r)
			return r;
	}
	if (shape == BARE) {
		int r = encode_reading(&rd, out);
		/* the stages write a refusal's message, and cut an fstr at
		 * libpfm's limit */
		if (!r || (r < 0 && quiet))
			return r;
	}
	/* unit masks with rules, or an event refused alone, say */
	return encode_by_stages(db, &rd, out, err, quiet);
}

void express_allow(struct pmudb *db, bool allowed)
{
	db->express_off = !allowed;
}
