/*
 * decode.c - from registers back to event strings (pmudb_decode): which
 * strings of a PMU encode to exactly this config, config1, config2.
 *
 * Built once per PMU (pmudb_decoder_open): for every event, its base (the
 * registers of its event code with no unit mask and no modifier), the own
 * bits of each unit mask (what it changes alone, measured with the PMU's
 * own family encoder, so no placement rule is restated here), and the
 * bits its modifiers land in.  The bits no unit mask or modifier of any
 * event can change form the PMU's key; events are sorted by the key of
 * their base, so a decode looks at the few events whose event code can
 * give the config asked.
 *
 * For each such event, the bits the unit masks must supply (those that
 * differ from the base outside the modifiers' fields) are covered by
 * unit masks whose own bits fit; each cover becomes a string, the bits
 * still differing are given as modifier values read from the registers,
 * and pmudb_encode decides: only a string that encodes to the registers
 * asked is an answer.  So the search may be generous, never wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "runtime/encode/family_encoders.h"
#include "runtime/encode/request.h"

#define MAX_DEPTH 8		/* unit masks in one string */
#define MAX_NODES 4000		/* covers tried per event and decode */
#define STRING_MAX 512

struct dec_event {
	int index;
	const struct event *ev;
	uint64_t key;
	uint64_t base[3], mods[3];	/* base registers; bits its modifiers can set */
	uint64_t defaults[3];		/* bits of the registers defaults may add */
	uint64_t (*own)[3];		/* per unit mask; all zero for equivs and retired ones */
	bool *usable;			/* per unit mask: live and not an equiv */
};

struct pmudb_decoder {
	pmudb_t *db;
	struct pmu *pmu;
	uint64_t keymask;
	int nevents;
	struct dec_event *events;	/* sorted by key */
};

/* Registers of EV with exactly the unit masks FINAL (no defaults), as the
 * family encoder puts them; -1 when it refuses. */
static int encode_final(pmudb_t *db, struct pmu *p, const struct event *ev, const uint16_t *final, int n,
			uint64_t regs[3])
{
	struct request rq;
	struct pmudb_encoding out;
	struct pmudb_error err;
	memset(&rq, 0, sizeof(rq));
	memset(&out, 0, sizeof(out));
	rq.db = db;
	rq.pmu = p;
	rq.ev = ev;
	rq.err = &err;
	rq.out = &out;
	rq.fstr = out.fstr;
	rq.nasked = rq.nfinal = n;
	if (n) {	/* FINAL is NULL for none */
		memcpy(rq.asked, final, (size_t)n * sizeof(*final));
		memcpy(rq.final, final, (size_t)n * sizeof(*final));
	}
	if (family_encode(&rq))
		return -1;
	regs[0] = out.config, regs[1] = out.config1, regs[2] = out.config2;
	return 0;
}

static void add_field(uint64_t regs[3], int field, uint64_t mask)
{
	if (field == F_CONFIG)
		regs[0] |= mask;
	else if (field == F_CONFIG1)
		regs[1] |= mask;
	else if (field == F_CONFIG2)
		regs[2] |= mask;
}

/* ORs into BITS the own bits of the unit masks the equivalence TEXT
 * ("A:B:C") names; -1 when one is unknown or it nests too deep. */
static int equiv_bits(const struct event *ev, const struct dec_event *d, const char *text, int depth, uint64_t bits[3])
{
	if (depth > 8)
		return -1;
	while (*text) {
		size_t n = strcspn(text, ":.");
		char name[128];
		if (!n || n >= sizeof(name))
			return -1;
		memcpy(name, text, n);
		name[n] = '\0';
		int u = catalog_find_umask(ev, name);
		if (u < 0)
			return -1;
		if (ev->umasks[u].equiv) {
			if (equiv_bits(ev, d, ev->umasks[u].equiv, depth + 1, bits))
				return -1;
		} else if (d->usable[u]) {
			for (int w = 0; w < 3; w++)
				bits[w] |= d->own[u][w];
		} else {
			return -1;
		}
		text += n + (text[n] != '\0');
	}
	return 0;
}

/* ORs into BITS what the unit masks at positions ADDED change alone. */
static void add_defaults(pmudb_t *db, struct pmu *p, const struct event *ev, const uint16_t *added, int n,
			 uint64_t bits[3])
{
	uint64_t base[3], regs[3];
	if (encode_final(db, p, ev, NULL, 0, base))
		return;
	for (int i = 0; i < n; i++) {
		if (added[i] >= ev->numasks || encode_final(db, p, ev, &added[i], 1, regs))
			continue;
		for (int w = 0; w < 3; w++)
			bits[w] |= regs[w] ^ base[w];
	}
}

static int measure_event(pmudb_t *db, struct pmu *p, int e, struct dec_event *d)
{
	const struct event *ev = catalog_event(db, p, e, NULL);
	if (!ev || ev->retired)
		return 1;
	memset(d, 0, sizeof(*d));
	d->index = e;
	d->ev = ev;
	if (ev->equiv) {
		/* another event's name (LLC_MISSES): what its string encodes to,
		 * bare; its unit masks are the other event's, found there */
		char str[STRING_MAX];
		struct pmudb_encoding enc;
		snprintf(str, sizeof(str), "%s::%s", p->name, ev->name);
		if (pmudb_encode(db, str, NULL, &enc, NULL))
			return 1;
		d->base[0] = enc.config, d->base[1] = enc.config1, d->base[2] = enc.config2;
	} else if (encode_final(db, p, ev, NULL, 0, d->base)) {
		return 1;
	}
	for (int m = 0; m < ev->modifiers->count; m++) {
		const struct modifier *mod = &ev->modifiers->items[m];
		for (int i = 0; !mod->from_perf && i < mod->nlandings; i++)
			add_field(d->mods, mod->landings[i].field, mod->landings[i].mask);
		for (int i = 0; !mod->from_perf && i < mod->npresence; i++)
			add_field(d->mods, mod->presence[i].field, mod->presence[i].mask);
	}
	d->own = calloc((size_t)ev->numasks + 1, sizeof(*d->own));
	d->usable = calloc((size_t)ev->numasks + 1, sizeof(*d->usable));
	if (!d->own || !d->usable)
		return -1;
	for (int u = 0; u < ev->numasks && !ev->equiv; u++) {
		uint16_t one = (uint16_t)u;
		uint64_t regs[3];
		if (ev->umasks[u].retired || ev->umasks[u].equiv || encode_final(db, p, ev, &one, 1, regs))
			continue;
		d->usable[u] = true;
		for (int w = 0; w < 3; w++)
			d->own[u][w] = regs[w] ^ d->base[w];
	}
	/* what defaults may add: the bits of every unit mask the encoder adds
	 * by itself, alone, to a single unit mask or to a pair (glm's
	 * OFFCORE_RESPONSE_1:ANY_RFO:L2_HIT gets snoop bits that no unit mask
	 * given explicitly gives) */
	add_defaults(db, p, ev, ev->bare_added, ev->nbare, d->defaults);
	for (int u = 0; u < ev->numasks && !ev->equiv; u++)
		add_defaults(db, p, ev, ev->umasks[u].added, ev->umasks[u].nadded, d->defaults);
	for (int i = 0; i < ev->npairs && !ev->equiv; i++)
		add_defaults(db, p, ev, ev->pairs[i].added, ev->pairs[i].nadded, d->defaults);
	/* an equivalence (SNP_ANY, all the snoop unit masks) has the bits of
	 * the unit masks it stands for: one atom instead of many */
	for (int u = 0; u < ev->numasks && !ev->equiv; u++)
		if (!ev->umasks[u].retired && ev->umasks[u].equiv)
			d->usable[u] = !equiv_bits(ev, d, ev->umasks[u].equiv, 0, d->own[u]);
	return 0;
}

static int by_key(const void *a, const void *b)
{
	const struct dec_event *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key ? 1 : x->index - y->index;
}

pmudb_decoder_t *pmudb_decoder_open(pmudb_t *db, int pmu, struct pmudb_error *err)
{
	struct pmu *p = db ? catalog_pmu(db, pmu, err) : NULL;
	if (!p || catalog_load_table(db, p, err))
		return db && p ? NULL : (set_error(err, PMUDB_ERR_INVAL, "%s: no catalog or no PMU %d",
						   pmudb_strerror(PMUDB_ERR_INVAL), pmu), NULL);
	if (!p->family || p->family->names_are_numbers) {
		set_error(err, PMUDB_ERR_NOTSUPP, "%s: PMU %s has no named events to decode into",
			  pmudb_strerror(PMUDB_ERR_NOTSUPP), p->name);
		return NULL;
	}
	struct pmudb_decoder *dec = calloc(1, sizeof(*dec));
	if (dec)
		dec->events = calloc((size_t)p->table->nevents + 1, sizeof(*dec->events));
	if (!dec || !dec->events) {
		pmudb_decoder_close(dec);
		set_error(err, PMUDB_ERR_NOMEM, "%s", pmudb_strerror(PMUDB_ERR_NOMEM));
		return NULL;
	}
	dec->db = db;
	dec->pmu = p;
	uint64_t variable = 0;
	for (int e = 0; e < p->table->nevents; e++) {
		struct dec_event *d = &dec->events[dec->nevents];
		int r = measure_event(db, p, e, d);
		if (r < 0) {
			dec->nevents++;
			pmudb_decoder_close(dec);
			set_error(err, PMUDB_ERR_NOMEM, "%s", pmudb_strerror(PMUDB_ERR_NOMEM));
			return NULL;
		}
		if (r)
			continue;
		variable |= d->mods[0];
		for (int u = 0; u < d->ev->numasks; u++)
			variable |= d->own[u][0];
		dec->nevents++;
	}
	dec->keymask = ~variable;
	for (int i = 0; i < dec->nevents; i++)
		dec->events[i].key = dec->events[i].base[0] & dec->keymask;
	qsort(dec->events, (size_t)dec->nevents, sizeof(*dec->events), by_key);
	return dec;
}

void pmudb_decoder_close(pmudb_decoder_t *dec)
{
	if (!dec)
		return;
	for (int i = 0; i < dec->nevents; i++) {
		free(dec->events[i].own);
		free(dec->events[i].usable);
	}
	free(dec->events);
	free(dec);
}

/* ---- one decode ---------------------------------------------------------- */

struct candidate {
	int umask, covers;	/* how many bits left to cover it covers */
};

static int covering_most(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;
	return x->covers != y->covers ? y->covers - x->covers : x->umask - y->umask;
}

struct search {
	pmudb_decoder_t *dec;
	struct candidate *candidates;	/* MAX_DEPTH rows of the event's unit masks */
	const struct dec_event *d;
	uint64_t want[3];
	uint64_t need[3];		/* bits unit masks must supply */
	int nodes;
	/* answers */
	char **exact;
	int nexact, cap;
	char nearest[STRING_MAX];
	uint64_t nearest_left[3];
	int nearest_bits;		/* -1: none yet */
	bool nomem;
};

static int popcount3(const uint64_t v[3])
{
	return __builtin_popcountll(v[0]) + __builtin_popcountll(v[1]) + __builtin_popcountll(v[2]);
}

static void keep_exact(struct search *s, const char *str)
{
	for (int i = 0; i < s->nexact; i++)
		if (!strcmp(s->exact[i], str))
			return;
	if (s->nexact == s->cap) {
		int cap = s->cap ? s->cap * 2 : 16;
		char **more = realloc(s->exact, (size_t)cap * sizeof(*more));
		if (!more) {
			s->nomem = true;
			return;
		}
		s->exact = more, s->cap = cap;
	}
	if (!(s->exact[s->nexact] = strdup(str)))
		s->nomem = true;
	else
		s->nexact++;
}

/* The registers STR encodes to, or -1. */
static int registers(struct search *s, const char *str, uint64_t regs[3])
{
	struct pmudb_encoding e;
	if (pmudb_encode(s->dec->db, str, NULL, &e, NULL))
		return -1;
	regs[0] = e.config, regs[1] = e.config1, regs[2] = e.config2;
	return 0;
}

/* Appends ":m=v" for each modifier whose field differs in LEFT, the value
 * read from the registers wanted. */
static void add_modifiers(struct search *s, const uint64_t left[3], char *str, size_t size)
{
	const struct event *ev = s->d->ev;
	for (int m = 0; m < ev->modifiers->count; m++) {
		const struct modifier *mod = &ev->modifiers->items[m];
		for (int i = 0; !mod->from_perf && i < mod->nlandings; i++) {
			int f = mod->landings[i].field;
			int w = f == F_CONFIG ? 0 : f == F_CONFIG1 ? 1 : f == F_CONFIG2 ? 2 : -1;
			uint64_t mask = mod->landings[i].mask;
			if (w < 0 || !mask || !(left[w] & mask))
				continue;
			uint64_t v = (s->want[w] & mask) >> __builtin_ctzll(mask);
			size_t n = strlen(str);
			snprintf(str + n, size - n, ":%s=%llu", mod->name, (unsigned long long)v);
			break;
		}
	}
}

/* Tries STR, then STR with the modifiers the registers still need. */
static void try_string(struct search *s, char *str)
{
	uint64_t got[3], left[3];
	if (registers(s, str, got))
		return;
	for (int w = 0; w < 3; w++)
		left[w] = got[w] ^ s->want[w];
	if (popcount3(left)) {
		add_modifiers(s, left, str, STRING_MAX);
		if (!registers(s, str, got))
			for (int w = 0; w < 3; w++)
				left[w] = got[w] ^ s->want[w];
	}
	int bits = popcount3(left);
	if (!bits) {
		keep_exact(s, str);
	} else if (s->nearest_bits < 0 || bits < s->nearest_bits
		   || (bits == s->nearest_bits && strlen(str) < strlen(s->nearest))) {
		s->nearest_bits = bits;
		snprintf(s->nearest, sizeof(s->nearest), "%s", str);
		memcpy(s->nearest_left, left, sizeof(left));
	}
}

/* The string of the event with the unit masks CHOSEN (those in SKIP left
 * out), unit masks in catalog order. */
static void build(struct search *s, const int *chosen, int n, unsigned skip, char *str)
{
	int order[MAX_DEPTH];
	memcpy(order, chosen, (size_t)n * sizeof(*order));
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && order[j] < order[j - 1]; j--) {
			int t = order[j];
			order[j] = order[j - 1], order[j - 1] = t;
		}
	size_t len = (size_t)snprintf(str, STRING_MAX, "%s::%s", s->dec->pmu->name, s->d->ev->name);
	for (int i = 0; i < n && len < STRING_MAX; i++) {
		int k = -1;
		for (int j = 0; j < n; j++)
			if (chosen[j] == order[i])
				k = j;
		if (!(skip >> k & 1))
			len += (size_t)snprintf(str + len, STRING_MAX - len, ":%s", s->d->ev->umasks[order[i]].name);
	}
}

/* A cover: tried whole, and without each subset of its defaults (which
 * the encoder adds back by itself, for a shorter string). */
static void try_subsets(struct search *s, const int *chosen, int n)
{
	char str[STRING_MAX];
	unsigned defaults = 0;
	for (int i = 0; i < n; i++)
		if (s->d->ev->umasks[chosen[i]].is_default)
			defaults |= 1u << i;
	for (unsigned skip = defaults;; skip = (skip - 1) & defaults) {
		build(s, chosen, n, skip, str);
		try_string(s, str);
		if (!skip)
			break;
	}
}

/* A unit mask that sets no bit of its own (core's EXCL_PREFETCH, code 0)
 * may still matter: it takes the place of a default of its group. */
static bool sets_nothing(const struct dec_event *d, int u)
{
	bool none = d->usable[u];
	for (int k = 0; none && k < 3; k++)
		none = !(d->own[u][k] & ~d->mods[k]);
	return none;
}

/* A cover, then the cover with each unit mask that sets nothing added, for
 * when only that keeps a default out. */
static void try_cover(struct search *s, int *chosen, int n)
{
	int before = s->nexact;
	try_subsets(s, chosen, n);
	if (s->nexact > before || n == MAX_DEPTH)
		return;
	for (int u = 0; u < s->d->ev->numasks; u++) {
		bool taken = false;
		for (int i = 0; i < n; i++)
			taken |= chosen[i] == u;
		if (taken || !sets_nothing(s->d, u))
			continue;
		chosen[n] = u;
		try_subsets(s, chosen, n + 1);
	}
}

static void cover(struct search *s, int *chosen, int n, const uint64_t covered[3])
{
	uint64_t rest[3];
	for (int w = 0; w < 3; w++)
		rest[w] = s->need[w] & ~covered[w];
	if (!popcount3(rest)) {
		try_cover(s, chosen, n);
		return;
	}
	/* what is left the encoder's defaults may add by themselves (glm's
	 * OFFCORE_RESPONSE_1:ANY_RFO:L2_HIT gets a snoop default whose bits
	 * no unit mask given explicitly has; the bare event too, where the
	 * default keeps the event select it replaces when asked: spr's
	 * INST_RETIRED is 0x1c0 in libpfm's current source, its ANY 0x100) */
	bool by_defaults = true;
	for (int w = 0; w < 3; w++)
		by_defaults &= !(rest[w] & ~s->d->defaults[w]);
	if (by_defaults)
		try_cover(s, chosen, n);
	if (n == MAX_DEPTH || s->nodes++ > MAX_NODES || s->nomem)
		return;
	int w = rest[0] ? 0 : rest[1] ? 1 : 2;
	uint64_t bit = rest[w] & -rest[w];
	const struct dec_event *d = s->d;
	struct candidate *c = s->candidates + (size_t)n * (size_t)d->ev->numasks;
	int nc = 0;
	for (int u = 0; u < d->ev->numasks; u++) {
		if (!d->usable[u] || !(d->own[u][w] & bit))
			continue;
		bool fits = true, taken = false;
		for (int k = 0; k < 3; k++)
			fits &= !(d->own[u][k] & ~d->mods[k] & ~(s->want[k] ^ d->base[k]));
		for (int i = 0; i < n; i++)
			taken |= chosen[i] == u;
		if (!fits || taken)
			continue;
		uint64_t mine[3] = { d->own[u][0] & rest[0], d->own[u][1] & rest[1], d->own[u][2] & rest[2] };
		c[nc++] = (struct candidate){ u, popcount3(mine) };
	}
	/* those that cover most of what is left first: a field of values
	 * (zen5's SCALAR_ADD 0x1 .. SCALAR_ALL 0xf) otherwise spends the
	 * search on combinations of its parts before its whole */
	qsort(c, (size_t)nc, sizeof(*c), covering_most);
	for (int i = 0; i < nc; i++) {
		int u = c[i].umask;
		uint64_t more[3];
		for (int k = 0; k < 3; k++)
			more[k] = covered[k] | d->own[u][k];
		chosen[n] = u;
		cover(s, chosen, n + 1, more);
	}
}

static void search_event(struct search *s, const struct dec_event *d)
{
	s->d = d;
	s->nodes = 0;
	for (int w = 0; w < 3; w++)
		s->need[w] = (s->want[w] ^ d->base[w]) & ~d->mods[w];
	int chosen[MAX_DEPTH];
	uint64_t none[3] = { 0, 0, 0 };
	s->candidates = malloc(MAX_DEPTH * ((size_t)d->ev->numasks + 1) * sizeof(*s->candidates));
	if (!s->candidates) {
		s->nomem = true;
		return;
	}
	cover(s, chosen, 0, none);
	free(s->candidates);
	s->candidates = NULL;
	/* nothing needed: also each unit mask that changes only what the
	 * modifiers set, or nothing (INST_RETIRED:ANY_P, code 0) */
	if (popcount3(s->need))
		return;
	for (int u = 0; u < d->ev->numasks; u++)
		if (sets_nothing(d, u)) {
			chosen[0] = u;
			try_subsets(s, chosen, 1);
		}
}

/* No event's code fits: the events nearest by their base, each tried bare
 * and with each unit mask alone, for the nearest string. */
static void search_nearest(struct search *s)
{
	int best = 65 * 3;
	pmudb_decoder_t *dec = s->dec;
	for (int i = 0; i < dec->nevents; i++) {
		uint64_t x[3];
		for (int w = 0; w < 3; w++)
			x[w] = (dec->events[i].base[w] ^ s->want[w]) & ~dec->events[i].mods[w];
		if (popcount3(x) < best)
			best = popcount3(x);
	}
	for (int i = 0; i < dec->nevents; i++) {
		const struct dec_event *d = &dec->events[i];
		uint64_t x[3];
		for (int w = 0; w < 3; w++)
			x[w] = (d->base[w] ^ s->want[w]) & ~d->mods[w];
		if (popcount3(x) > best + 2)
			continue;
		s->d = d;
		char str[STRING_MAX];
		snprintf(str, sizeof(str), "%s::%s", dec->pmu->name, d->ev->name);
		try_string(s, str);
		for (int u = 0; u < d->ev->numasks; u++)
			if (d->usable[u]) {
				snprintf(str, sizeof(str), "%s::%s:%s", dec->pmu->name, d->ev->name, d->ev->umasks[u].name);
				try_string(s, str);
			}
	}
}

static int shortest_first(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t lx = strlen(x), ly = strlen(y);
	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

static int report(struct search *s, int max, pmudb_decode_fn found, void *ctx)
{
	if (s->nexact)
		qsort(s->exact, (size_t)s->nexact, sizeof(*s->exact), shortest_first);
	for (int i = 0; i < s->nexact && i < max; i++) {
		struct pmudb_decoded d = { s->exact[i], true, { 0, 0, 0 } };
		if (found && found(ctx, &d))
			break;
	}
	if (!s->nexact && s->nearest_bits > 0 && found) {
		struct pmudb_decoded d = { s->nearest, false, { s->nearest_left[0], s->nearest_left[1], s->nearest_left[2] } };
		found(ctx, &d);
	}
	return s->nexact;
}

int pmudb_decode(pmudb_decoder_t *dec, uint64_t config, uint64_t config1, uint64_t config2, int max,
		 pmudb_decode_fn found, void *ctx, struct pmudb_error *err)
{
	if (!dec || max < 1)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no decoder, or max < 1", pmudb_strerror(PMUDB_ERR_INVAL));
	struct search s = { .dec = dec, .want = { config, config1, config2 }, .nearest_bits = -1 };
	uint64_t key = config & dec->keymask;
	/* the events whose key is KEY: a run in the sorted array */
	int lo = 0, hi = dec->nevents;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (dec->events[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int i = lo; i < dec->nevents && dec->events[i].key == key; i++)
		search_event(&s, &dec->events[i]);
	if (!s.nexact && s.nearest_bits < 0)
		search_nearest(&s);
	int n = s.nomem ? set_error(err, PMUDB_ERR_NOMEM, "%s", pmudb_strerror(PMUDB_ERR_NOMEM))
			: report(&s, max, found, ctx);
	for (int i = 0; i < s.nexact; i++)
		free(s.exact[i]);
	free(s.exact);
	return n;
}
