/*
 * unpack.c - reads packed blobs (packed.h) into the structures of
 * catalog.h, checking every field as it is read: a count against its limit,
 * an offset or position against what it points into, an error code against
 * libpfm's, a string for its NUL, the unit-mask equivalences for cycles.
 * What passes here the encoder can use without another check.
 *
 * The order of fields is the order catalog/pack.c writes them in.
 */
#include "catalog/unpack.h"


#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "catalog/errors.h"
#include "catalog/fields.h"
#include "catalog/packed.h"
#include "catalog/shared_sets.h"

#define LANDING_FIELD_NAME(id, name, where) [F_##id] = #name,
const char *const landing_field_names[F_COUNT] = { LANDING_FIELDS(LANDING_FIELD_NAME) };

int field_by_name(const char *name)
{
	for (int i = 0; name && i < F_COUNT; i++)
		if (!strcmp(landing_field_names[i], name))
			return i;
	return -1;
}

static const char *const perf_names[P_NONE] = {
	"u", "k", "h", "period", "freq", "precise", "excl", "mg", "mh", "cpu", "pinned", "hw_smpl",
};

enum perf_mod perf_modifier_kind(const char *name)
{
	/* the first letter first: a decoded event's set asks a dozen times */
	unsigned char c = (unsigned char)(name[0] | 0x20);
	for (int i = 0; i < P_NONE; i++)
		if (c == (unsigned char)perf_names[i][0] && !strcasecmp(name, perf_names[i]))
			return (enum perf_mod)i;
	return P_NONE;
}

static const struct modifier_set no_modifiers = { .ldlat = -1 };

struct unpacker {
	struct packed_reader r;
	struct event_table *t;
	const char *fault;	/* what was wrong, for the message */
};

static int refuse(struct unpacker *u, const char *what)
{
	if (!u->fault)
		u->fault = *what ? what : "a field runs past the end of its record";
	return -1;
}

/* Starts reading T's record at OFFSET, which ends at END, where the next
 * record starts (read_index checked both lie below the pool, in order): a
 * record cannot be read twice as parts of others.  Strings come from the
 * pool. */
static void seek(struct unpacker *u, uint32_t offset, uint32_t end)
{
	const struct event_table *t = u->t;
	reader_init(&u->r, t->blob + offset, offset < end ? end - offset : 0);
	u->r.ok = offset < end && end <= t->pool_offset;
	u->r.pool = (const char *)t->blob + t->pool_offset;
	u->r.pool_size = t->size - t->pool_offset;
}

/* Where modifier set S's record and event E's end (read_index). */
static uint32_t set_end(const struct event_table *t, int s)
{
	return s + 1 < t->nsets ? t->set_offsets[s + 1] : t->nevents ? t->events[0].offset : t->pool_offset;
}

static uint32_t event_end(const struct event_table *t, int e)
{
	return e + 1 < t->nevents ? t->events[e + 1].offset : t->pool_offset;
}

static bool is_error_code(int64_t v)
{
	return v <= 0 && v >= LIBPFM_LAST_ERROR;
}

/* An error code libpfm returns: 0 when NONZERO is false. */
static int read_error(struct unpacker *u, bool nonzero)
{
	int64_t v = read_svarint(&u->r);
	if (!is_error_code(v) || (nonzero && !v)) {
		refuse(u, "an error code that is not libpfm's");
		return PMUDB_ERR_INVAL;
	}
	return (int)v;
}

/* Bits at or above COUNT (at most 64) are set in MASK. */
static bool bits_past(uint64_t mask, int count)
{
	return count < 64 && mask >> count;
}

/* ---- modifier sets --------------------------------------------------------- */

static int read_landings(struct unpacker *u, struct landing *list, int *n, int cap)
{
	*n = (int)read_length(&u->r, (uint64_t)cap);
	for (int i = 0; i < *n; i++) {
		list[i].field = (int)read_count(&u->r, F_COUNT - 1);
		list[i].mask = read_varint(&u->r);
	}
	return u->r.ok ? 0 : refuse(u, "a modifier's landings");
}

static int read_modifier(struct unpacker *u, struct modifier *m, int count)
{
	const char *fault = fields_read_modifier(&u->r, m);
	if (fault)
		return refuse(u, fault);
	if (m->requires >= count)
		return refuse(u, "a modifier requires a modifier the set lacks");
	if (m->shown_from >= count)
		return refuse(u, "a modifier is shown from a modifier the set lacks");
	/* only the perf layer's modifiers are ever asked their kind */
	m->perf_kind = m->from_perf ? perf_modifier_kind(m->name) : P_NONE;
	size_t n = strlen(m->name);
	/* at least FSTR_KEY_COPY bytes, zeros after the key: fstr_add_modifier
	 * copies that many at once */
	char *key = n < 200 ? arena_calloc(&u->t->arena, n + 3 < FSTR_KEY_COPY ? FSTR_KEY_COPY : n + 3, 1) : NULL;
	if (!key)
		return refuse(u, n < 200 ? "out of memory" : "a modifier name too long");
	key[0] = ':';
	memcpy(key + 1, m->name, n);
	key[n + 1] = '=';
	m->fstr_key = key;
	m->fstr_key_len = (int)n + 2;
	return read_landings(u, m->landings, &m->nlandings, 4) || read_landings(u, m->presence, &m->npresence, 3)
	       || read_landings(u, m->nonzero, &m->nnonzero, 3);
}

static const char *modifier_name(const void *list, int i)
{
	return ((const struct modifier *)list)[i].name;
}

/* Modifier set S of the table, decoded on first use. */
static const struct modifier_set *modifier_set(struct unpacker *u, int s)
{
	struct event_table *t = u->t;
	if (t->sets[s])
		return t->sets[s];
	struct arena_mark before = arena_mark(&t->arena);
	struct modifier_set *set = arena_calloc(&t->arena, 1, sizeof(*set));
	if (!set) {
		refuse(u, "out of memory");
		return NULL;
	}
	seek(u, t->set_offsets[s], set_end(t, s));
	set->count = (int)read_length(&u->r, MAX_MODIFIERS);
	set->items = arena_calloc(&t->arena, (size_t)set->count + 1, sizeof(*set->items));
	set->ldlat = -1;
	if (!set->items) {
		refuse(u, "out of memory");
		return NULL;
	}
	for (int m = 0; m < set->count; m++) {
		const struct modifier *mod = &set->items[m];
		if (read_modifier(u, &set->items[m], set->count))
			return NULL;
		if (set->ldlat < 0 && !strcasecmp(mod->name, "ldlat"))
			set->ldlat = m;
		set->from_perf |= mod->from_perf ? 1ULL << m : 0;
		/* a "range" libpfm refused with ATTR_SET was a unit mask forcing
		 * the value, measured on a base that forces it: not a range */
		set->ranged |= !mod->from_perf && mod->is_integer && mod->probed && mod->range_error != PMUDB_ERR_ATTR_SET
			       ? 1ULL << m : 0;
		set->requiring |= mod->requires >= 0 ? 1ULL << m : 0;
	}
	if (name_index_build(&set->by_name, set->items, set->count, modifier_name, &t->arena)
	    || word_index_build(&set->by_word, set->items, set->count, modifier_name, &t->arena)) {
		refuse(u, "out of memory");
		return NULL;
	}
	if (t->shared_sets) {
		uint64_t hash;
		const struct modifier_set *same = shared_sets_find(t->shared_sets, set, &hash);
		if (same) {
			/* another table's copy: this one's memory back */
			arena_rewind(&t->arena, before);
			return t->sets[s] = same;
		}
		shared_sets_add(t->shared_sets, set, hash);
	}
	return t->sets[s] = set;
}

/* ---- one event -------------------------------------------------------------- */

/* N distinct positions below LIMIT. */
static int read_positions(struct unpacker *u, uint16_t **items, int *n, int limit)
{
	*n = (int)read_length(&u->r, (uint64_t)limit);
	if (!u->r.ok)
		return refuse(u, "more unit-mask positions than the event has unit masks");
	*items = NULL;	/* most lists are empty: no memory for them */
	if (!*n)
		return 0;
	*items = arena_calloc(&u->t->arena, (size_t)*n, sizeof(**items));
	if (!*items)
		return refuse(u, "out of memory");
	uint64_t seen[MAX_UMASKS / 64] = { 0 };
	for (int i = 0; i < *n; i++) {
		uint64_t p = read_count(&u->r, (uint64_t)limit - 1);
		if (!u->r.ok || seen[p / 64] >> (p % 64) & 1)
			return refuse(u, "a unit-mask position out of range or given twice");
		seen[p / 64] |= 1ULL << (p % 64);
		(*items)[i] = (uint16_t)p;
	}
	return 0;
}

static int read_umask(struct unpacker *u, struct event *ev, struct umask *um)
{
	/* the set is read before the unit masks that name its modifiers */
	assert(ev->modifiers);
	struct packed_reader *r = &u->r;
	int nmods = ev->modifiers->count;
	const char *fault = fields_read_umask(r, um);
	if (fault)
		return refuse(u, fault);
	um->unlocks = read_varint(r);
	if (!r->ok)
		return refuse(u, "");
	um->name_len = (int)strnlen(um->name, INT_MAX);
	/* measured registers are its event's, or none */
	if (um->config_bits && !ev->config_measured)
		return refuse(u, "a unit mask's measured registers where its event has none");
	if (bits_past(um->unlocks, nmods))
		return refuse(u, "a unit mask unlocks a modifier the event lacks");
	if (read_positions(u, &um->added, &um->nadded, ev->numasks))
		return -1;
	um->nimplied = (int)read_length(r, MAX_MODIFIERS);
	um->implied = um->nimplied ? arena_calloc(&u->t->arena, (size_t)um->nimplied, sizeof(*um->implied)) : NULL;
	if (um->nimplied && !um->implied)
		return refuse(u, "out of memory");
	for (int k = 0; k < um->nimplied; k++) {
		struct implied *im = &um->implied[k];
		uint64_t m = read_varint(r);
		im->value = read_varint(r);
		im->hardwired = read_varint(r) != 0;
		if (!r->ok || m >= (uint64_t)nmods)
			return refuse(u, "a unit mask implies a modifier the event lacks");
		im->modifier = (int)m;
		um->implies |= 1ULL << m;
	}
	return 0;
}

/* The group rules as a matrix, when the groups are few. */
static int rule_matrix(struct unpacker *u, struct event *ev)
{
	int groups = 0;
	for (int i = 0; i < ev->nrules; i++)
		if (ev->rules[i].group_b >= groups)
			groups = ev->rules[i].group_b + 1;
	if (!ev->nrules || groups > 32 || ev->nrules > UINT8_MAX)
		return 0;
	ev->rule_matrix = arena_calloc(&u->t->arena, (size_t)(groups * groups), 1);
	ev->rule_partners = arena_calloc(&u->t->arena, (size_t)groups, sizeof(*ev->rule_partners));
	if (!ev->rule_matrix || !ev->rule_partners)
		return refuse(u, "out of memory");
	for (int i = 0; i < ev->nrules; i++) {
		const struct group_rule *g = &ev->rules[i];
		ev->rule_matrix[g->group_a * groups + g->group_b] = (uint8_t)(i + 1);
		ev->rule_matrix[g->group_b * groups + g->group_a] = (uint8_t)(i + 1);
		ev->rule_partners[g->group_a] |= 1u << g->group_b;
		ev->rule_partners[g->group_b] |= 1u << g->group_a;
	}
	ev->rule_groups = groups;
	return 0;
}

/* The pairs of an event, hashed by key (the reader keeps them in order:
 * each key once): three or more unit masks look pairs up a dozen times. */
static int index_pairs(struct unpacker *u, struct event *ev)
{
	if (!ev->npairs)
		return 0;
	uint32_t size = 4;
	while (size < 2u * (uint32_t)ev->npairs)
		size *= 2;
	ev->pair_slots = arena_calloc(&u->t->arena, size, sizeof(*ev->pair_slots));
	if (!ev->pair_slots)
		return refuse(u, "out of memory");
	ev->pair_mask = size - 1;
	for (int i = 0; i < ev->npairs; i++) {
		uint32_t h = pair_slot(pair_key(&ev->pairs[i])) & ev->pair_mask;
		while (ev->pair_slots[h])
			h = (h + 1) & ev->pair_mask;
		ev->pair_slots[h] = (uint32_t)i + 1;
	}
	return 0;
}

static int collect_pair_added(struct unpacker *u, struct event *ev)
{
	ev->pair_added = arena_calloc(&u->t->arena, (size_t)ev->numasks + 1, sizeof(*ev->pair_added));
	if (!ev->pair_added)
		return refuse(u, "out of memory");
	bool seen[MAX_UMASKS] = { false };	/* read_umasks bounded numasks */
	for (int i = 0; i < ev->npairs; i++)
		for (int k = 0; k < ev->pairs[i].nadded; k++) {
			int d = ev->pairs[i].added[k];	/* read_positions checked it */
			if (!seen[d]) {
				seen[d] = true;
				ev->pair_added[ev->npair_added++] = (uint16_t)d;
			}
		}
	return 0;
}

static int read_rules(struct unpacker *u, struct event *ev)
{
	struct packed_reader *r = &u->r;
	struct arena *a = &u->t->arena;
	if (read_positions(u, &ev->bare_added, &ev->nbare, ev->numasks))
		return -1;
	ev->nrules = (int)read_length(r, (uint64_t)MAX_UMASKS * MAX_UMASKS);
	ev->rules = arena_calloc(a, (size_t)ev->nrules + 1, sizeof(*ev->rules));
	if (!ev->rules)
		return refuse(u, "out of memory");
	for (int i = 0; i < ev->nrules; i++) {
		int64_t ga = read_svarint(r), gb = read_svarint(r);
		ev->rules[i].error = read_error(u, true);
		uint64_t after = read_varint(r), third = read_varint(r);
		int64_t lifted = read_svarint(r);
		if (ga < 0 || gb < ga || gb > INT_MAX)
			return refuse(u, "a group rule out of range");
		if (after > 1 || third > 1 || lifted < -1 || lifted >= ev->modifiers->count)
			return refuse(u, "a group rule's stage or lifting modifier out of range");
		ev->rules[i].group_a = (int)ga;
		ev->rules[i].group_b = (int)gb;
		ev->rules[i].after_reading = after;
		ev->rules[i].third_lifts = third;
		ev->rules[i].lifted_by = (int)lifted;
	}
	if (rule_matrix(u, ev))
		return -1;
	ev->npairs = (int)read_length(r, (uint64_t)MAX_UMASKS * MAX_UMASKS);
	ev->pairs = arena_calloc(a, (size_t)ev->npairs + 1, sizeof(*ev->pairs));
	if (!ev->pairs)
		return refuse(u, "out of memory");
	for (int i = 0; i < ev->npairs; i++) {
		struct pair_default *pd = &ev->pairs[i];
		uint64_t pa = read_varint(r), pb = read_varint(r);
		if (!r->ok || pa >= pb || pb >= (uint64_t)ev->numasks)
			return refuse(u, "a unit-mask pair out of range");
		/* in order: each key once, as index_pairs needs */
		if (i && (pa < pd[-1].umask_a || (pa == pd[-1].umask_a && pb <= pd[-1].umask_b)))
			return refuse(u, "unit-mask pairs out of order");
		pd->umask_a = (uint16_t)pa;
		pd->umask_b = (uint16_t)pb;
		if (read_positions(u, &pd->added, &pd->nadded, ev->numasks))
			return -1;
	}
	return collect_pair_added(u, ev) || index_pairs(u, ev) ? -1 : 0;
}

/* A bit per modifier of EV, then an error per bit set: the hidden
 * modifiers, and those refused with a unit mask that takes none. */
static int read_modifier_bits(struct unpacker *u, const struct event *ev, uint64_t *bits, int **errors,
			      const char *what)
{
	int nmods = ev->modifiers->count;
	*bits = read_varint(&u->r);
	if (bits_past(*bits, nmods))
		return refuse(u, what);
	*errors = arena_calloc(&u->t->arena, (size_t)nmods + 1, sizeof(**errors));
	if (!*errors)
		return refuse(u, "out of memory");
	for (int m = 0; m < nmods; m++)
		if (*bits >> m & 1)
			(*errors)[m] = read_error(u, false);
	return u->r.ok ? 0 : refuse(u, what);
}

static int read_hidden(struct unpacker *u, struct event *ev)
{
	return read_modifier_bits(u, ev, &ev->hidden, &ev->hidden_error, "an event hides a modifier it lacks")
	       || read_modifier_bits(u, ev, &ev->no_modifiers, &ev->no_modifiers_error,
				     "an event refuses a modifier it lacks");
}

static int read_event(struct unpacker *u, struct event *ev)
{
	struct packed_reader *r = &u->r;
	struct event_table *t = u->t;
	const char *fault = fields_read_event(r, ev);
	if (fault)
		return refuse(u, fault);
	uint64_t set = read_count(r, (uint64_t)t->nsets);
	if (!r->ok)
		return refuse(u, "");
	ev->name_len = (int)strnlen(ev->name, INT_MAX);
	if (ev->equiv && strcspn(ev->equiv, ":.") > MAX_EQUIV_NAME)
		return refuse(u, "an event stands for an event name too long");
	if (!ev->config_measured && ev->config_base)
		return refuse(u, "an event's measured registers where its config is not measured");
	struct packed_reader here = u->r;
	ev->modifiers = set ? modifier_set(u, (int)set - 1) : &no_modifiers;
	if (!ev->modifiers)
		return -1;
	if (ev->bare_needs >= ev->modifiers->count)
		return refuse(u, "an event needs a modifier its set lacks");
	u->r = here;
	if (read_hidden(u, ev))
		return -1;
	ev->numasks = (int)read_length(r, MAX_UMASKS);
	ev->umasks = arena_calloc_aligned(&t->arena, (size_t)ev->numasks + 1, sizeof(*ev->umasks), alignof(struct umask));
	if (!ev->umasks)
		return refuse(u, "out of memory");
	for (int i = 0; i < ev->numasks; i++) {
		if (read_umask(u, ev, &ev->umasks[i]))
			return -1;
		ev->implies |= ev->umasks[i].implies;
		ev->some_take_no_modifiers |= ev->umasks[i].takes_no_modifiers;
		ev->some_add_defaults |= ev->umasks[i].nadded > 0;
		ev->some_unlock |= ev->umasks[i].unlocks != 0;
	}
	return read_rules(u, ev);
}

/* ---- unit-mask equivalences: no cycles, a bounded depth and width -------- */

#define MAX_EQUIV_DEPTH 8
/* The unit masks one equivalence may stand for, counted through every
 * level (a mask named twice counted twice): the encoder and the decoder
 * walk that many.  libpfm's widest stands for a few dozen. */
#define MAX_EQUIV_WIDTH 1024

/* The live unit mask the LEN bytes at NAME name, as the encoder finds it
 * (by the event's index), or -1. */
static int umask_named(const struct event *ev, const char *name, size_t len)
{
	return name_index_find_hashed(&ev->umask_by_name, name, len, name_index_hash(name, len));
}

/* What expanding a unit mask takes: its depth (1 without an equiv; 0 not
 * yet known, -1 while being expanded) and the unit masks it ends in. */
struct expansion {
	int depth;
	uint32_t width;
};

/* Unit mask I's expansion into X[I]; -1 on a cycle.  A width past
 * MAX_EQUIV_WIDTH stops counting there. */
static int expand(const struct event *ev, int i, struct expansion *x)
{
	if (x[i].depth < 0)
		return -1;
	if (x[i].depth)
		return 0;
	const char *s = ev->umasks[i].equiv;
	if (!s) {
		x[i] = (struct expansion){ 1, 1 };
		return 0;
	}
	x[i].depth = -1;
	int deepest = 0;
	uint32_t width = 0;
	while (*s) {
		size_t len = strcspn(s, ":.");
		if (len && !memchr(s, '=', len)) {
			int j = umask_named(ev, s, len);
			if (j >= 0 && expand(ev, j, x))
				return -1;
			deepest = j >= 0 && x[j].depth > deepest ? x[j].depth : deepest;
			width += j >= 0 ? x[j].width : 1;
			width = width > MAX_EQUIV_WIDTH ? MAX_EQUIV_WIDTH + 1 : width;
		}
		s += len + (s[len] != '\0');
	}
	x[i] = (struct expansion){ deepest + 1, width };
	return 0;
}

static int check_equivs(struct unpacker *u, const struct event *ev)
{
	bool any = false;
	for (int i = 0; i < ev->numasks && !any; i++)
		any = ev->umasks[i].equiv != NULL;
	if (!any)
		return 0;	/* nothing to expand, nor to clear X for */
	struct expansion x[MAX_UMASKS] = { { 0, 0 } };
	for (int i = 0; i < ev->numasks; i++) {
		if (expand(ev, i, x))
			return refuse(u, "unit-mask equivalences that form a cycle");
		if (x[i].depth > MAX_EQUIV_DEPTH)
			return refuse(u, "unit-mask equivalences nested too deep");
		if (x[i].width > MAX_EQUIV_WIDTH)
			return refuse(u, "a unit-mask equivalence that stands for too many unit masks");
	}
	return 0;
}

/*
 * Unit mask UM's equiv as the positions of the unit masks it names, count
 * first, when each token is a live unit mask's name spelled as the mask
 * itself is (then what the encoder would do for the token is add that
 * mask, and a message naming the token names the mask); NULL otherwise
 * (a modifier, a raw mask, an empty or unknown token: the encoder parses
 * the string, with its errors).  0, or -1 when out of memory.
 */
static int resolve_equiv(const struct event *ev, struct umask *um, struct arena *arena)
{
	uint16_t list[MAX_UMASKS + 1];
	int n = 0;
	for (const char *s = um->equiv;; s++) {
		size_t len = strcspn(s, ":.");
		if (!len || n == MAX_UMASKS || memchr(s, '=', len) || (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))
			return 0;
		int u = umask_named(ev, s, len);
		if (u < 0 || (size_t)ev->umasks[u].name_len != len || memcmp(ev->umasks[u].name, s, len))
			return 0;
		list[++n] = (uint16_t)u;
		s += len;
		if (!*s)
			break;
	}
	uint16_t *copy = arena_calloc(arena, (size_t)n + 1, sizeof(*copy));
	if (!copy)
		return -1;
	list[0] = (uint16_t)n;
	memcpy(copy, list, ((size_t)n + 1) * sizeof(*copy));
	um->expansion = copy;
	return 0;
}

static int resolve_equivs(struct event *ev, struct arena *arena)
{
	for (int i = 0; i < ev->numasks; i++)
		if (ev->umasks[i].equiv && resolve_equiv(ev, &ev->umasks[i], arena))
			return -1;
	return 0;
}

static const char *live_umask_name(const void *list, int i)
{
	const struct umask *um = &((const struct umask *)list)[i];
	return um->retired ? NULL : um->name;
}

int unpack_event(struct event_table *t, int e, struct event **out, const char **why)
{
	struct unpacker u = { .t = t };
	struct event *ev = arena_calloc_aligned(&t->arena, 1, sizeof(*ev), alignof(struct event));
	if (!ev) {
		*why = "out of memory";
		return -1;
	}
	seek(&u, t->events[e].offset, event_end(t, e));
	/* a field refused along the way, or a read past the end, is enough */
	if (read_event(&u, ev) || u.fault || (!u.r.ok && refuse(&u, ""))
	    || name_index_build(&ev->umask_by_name, ev->umasks, ev->numasks, live_umask_name, &t->arena)
	    || check_equivs(&u, ev) || resolve_equivs(ev, &t->arena)) {
		*why = u.fault ? u.fault : "out of memory";
		return -1;
	}
	*out = ev;
	return 0;
}

/* ---- a table: its offsets and names --------------------------------------- */

static const char *live_event_name(const void *list, int i)
{
	const struct event_slot *ev = &((const struct event_slot *)list)[i];
	return ev->retired ? NULL : ev->name;
}

/* The u32 array of N entries at *AT, each an offset inside the blob past
 * the arrays and past the one before (the records follow one another, as
 * the packer writes them); *AT moves past it. */
static uint32_t *read_offsets(struct unpacker *u, size_t *at, uint32_t n, size_t end_of_arrays)
{
	struct event_table *t = u->t;
	uint32_t *list = arena_calloc(&t->arena, (size_t)n + 1, sizeof(*list));
	if (!list) {
		refuse(u, "out of memory");
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++, *at += 4) {
		list[i] = read_u32_le(t->blob + *at);
		if (list[i] < end_of_arrays || list[i] >= t->pool_offset) {
			refuse(u, "a record offset outside the blob");
			return NULL;
		}
		if (i && list[i] <= list[i - 1]) {
			refuse(u, "records out of order, or one inside another");
			return NULL;
		}
	}
	return list;
}

static int read_index(struct unpacker *u)
{
	struct event_table *t = u->t;
	if (t->size < PACKED_HEADER + 12 || memcmp(t->blob, PACKED_TABLE_MAGIC, PACKED_HEADER))
		return refuse(u, "not a packed event table");
	uint32_t nevents = read_u32_le(t->blob + PACKED_HEADER), nsets = read_u32_le(t->blob + PACKED_HEADER + 4);
	t->pool_offset = read_u32_le(t->blob + PACKED_HEADER + 8);
	size_t at = PACKED_HEADER + 12, end = at + 4 * ((uint64_t)nevents + nsets);
	if (nevents > PACKED_MAX_EVENTS || nsets > PACKED_MAX_EVENTS || end > t->size)
		return refuse(u, "more events or modifier sets than the blob holds");
	if (t->pool_offset < end || t->pool_offset >= t->size || t->blob[t->size - 1] != '\0')
		return refuse(u, "its string pool is misplaced or unterminated");
	t->nevents = (int)nevents;
	t->nsets = (int)nsets;
	uint32_t *events = read_offsets(u, &at, nevents, end);
	t->set_offsets = events ? read_offsets(u, &at, nsets, end) : NULL;
	t->events = arena_calloc(&t->arena, (size_t)nevents + 1, sizeof(*t->events));
	t->decoded = arena_calloc(&t->arena, (size_t)nevents + 1, sizeof(*t->decoded));
	t->sets = arena_calloc(&t->arena, (size_t)nsets + 1, sizeof(*t->sets));
	if (!events || !t->set_offsets)
		return -1;
	if (!t->events || !t->sets || !t->decoded)
		return refuse(u, "out of memory");
	if (nsets && nevents && events[0] <= t->set_offsets[nsets - 1])
		return refuse(u, "records out of order, or one inside another");
	for (int e = 0; e < t->nevents; e++)
		t->events[e].offset = events[e];
	for (int e = 0; e < t->nevents; e++) {
		seek(u, events[e], event_end(t, e));
		const char *fault = fields_read_event_head(&u->r, &t->events[e].name, &t->events[e].retired);
		if (fault)
			return refuse(u, fault);
	}
	if (name_index_build(&t->by_name, t->events, t->nevents, live_event_name, &t->arena))
		return refuse(u, "out of memory");
	return 0;
}

int unpack_table(struct event_table *t, const char **why)
{
	struct unpacker u = { .t = t };
	if (!read_index(&u) && !u.fault)
		return 0;
	*why = u.fault ? u.fault : "unreadable";
	return -1;
}

/* ---- aliases --------------------------------------------------------------- */

static const char *alias_name(const void *list, int i)
{
	return ((const struct alias *)list)[i].name;
}

int unpack_aliases(struct event_table *t, const unsigned char *blob, size_t size, const char **why)
{
	struct unpacker u = { .t = t };
	reader_init(&u.r, blob, size);
	if (size < PACKED_HEADER || memcmp(blob, PACKED_ALIASES_MAGIC, PACKED_HEADER)) {
		*why = "not a packed alias list";
		return -1;
	}
	u.r.p += PACKED_HEADER;
	t->naliases = (int)read_length(&u.r, INT_MAX / 2);
	t->aliases = arena_calloc(&t->arena, (size_t)t->naliases + 1, sizeof(*t->aliases));
	if (!t->aliases)
		refuse(&u, "out of memory");
	for (int i = 0; !u.fault && i < t->naliases; i++) {
		struct alias *a = &t->aliases[i];
		a->name = read_string(&u.r);
		a->attrs = read_string(&u.r);
		uint64_t e = read_varint(&u.r);
		if (!u.r.ok || !a->name || e >= (uint64_t)t->nevents)
			refuse(&u, "an alias of an event the table lacks");
		a->event = (int)e;
	}
	if (!u.fault && u.r.p != u.r.end)
		refuse(&u, "bytes after the last alias");
	if (!u.fault && name_index_build(&t->alias_by_name, t->aliases, t->naliases, alias_name, &t->arena))
		refuse(&u, "out of memory");
	*why = u.fault;
	return u.fault ? -1 : 0;
}

/* ---- the PMU directory ------------------------------------------------------ */

/* Where the slots start, and where PMU INDEX's entry is. */
#define DIRECTORY_SLOTS (PACKED_HEADER + 12)

int unpack_directory(const unsigned char *dir, size_t n, uint32_t *npmus, uint32_t *nslots, uint32_t *ntables)
{
	if (n < DIRECTORY_SLOTS || memcmp(dir, PACKED_DIRECTORY_MAGIC, PACKED_HEADER) || dir[n - 1] != '\0')
		return -1;
	*npmus = read_u32_le(dir + PACKED_HEADER);
	*nslots = read_u32_le(dir + PACKED_HEADER + 4);
	*ntables = read_u32_le(dir + PACKED_HEADER + 8);
	/* slots a power of two, more than the PMUs (so probing ends), and
	 * the arrays inside the blob, before the names */
	uint64_t need = DIRECTORY_SLOTS + 4 * ((uint64_t)*nslots + 2 * (uint64_t)*npmus);
	if (*npmus > PACKED_MAX_PMUS || *ntables > PACKED_MAX_PMUS || *nslots <= *npmus || (*nslots & (*nslots - 1))
	    || need > n)
		return -1;
	return 0;
}

uint32_t directory_slot(const unsigned char *dir, uint32_t h)
{
	return read_u32_le(dir + DIRECTORY_SLOTS + 4 * (size_t)h);
}

int unpack_directory_entry(const unsigned char *dir, size_t n, uint32_t nslots, uint32_t npmus, int index,
			   const char **name, int64_t *pmu_id)
{
	size_t names = DIRECTORY_SLOTS + 4 * ((size_t)nslots + 2 * (size_t)npmus);
	const unsigned char *entry = dir + DIRECTORY_SLOTS + 4 * ((size_t)nslots + 2 * (size_t)index);
	uint32_t offset = read_u32_le(entry);
	*pmu_id = read_u32_le(entry + 4);
	/* the blob ends with a NUL, so any offset among the names ends in one */
	if (offset < names || offset >= n)
		return -1;
	*name = (const char *)dir + offset;
	return **name ? 0 : -1;
}

/* A kernel PMU name goes into a sysfs path. */
static bool sysfs_name_ok(const char *s)
{
	return !s || (*s && !strchr(s, '/') && strcmp(s, "..") && strcmp(s, ".") && strlen(s) < 64);
}

int unpack_directory_pmu(const unsigned char *dir, size_t n, uint32_t nslots, uint32_t npmus, uint32_t ntables,
			 int index, struct pmu *p, int64_t *table_id, const char **why)
{
	int64_t pmu_id;
	memset(p, 0, sizeof(*p));
	*why = "its name is not in the directory";
	if (unpack_directory_entry(dir, n, nslots, npmus, index, &p->name, &pmu_id))
		return -1;
	struct packed_reader r;
	const unsigned char *row = (const unsigned char *)p->name + strlen(p->name) + 1;
	reader_init(&r, row, (size_t)(dir + n - row));
	const char **strings[] = { &p->description, &p->kind, &p->family_name, &p->family_group, &p->source, &p->like,
				   &p->sysfs_name };
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		*strings[i] = read_string(&r);
	uint64_t counters = read_varint(&r), fixed = read_varint(&r), plm = read_varint(&r);
	int64_t type = read_svarint(&r);
	uint64_t table = read_varint(&r);
	p->config_cleared = read_varint(&r);
	if (!r.ok)
		*why = "its row runs past the end of the directory";
	else if (!p->description || !p->kind || !p->family_name || !p->family_group)
		*why = "its description, kind, family or family group is NULL";
	else if (counters > INT_MAX || fixed > INT_MAX)
		*why = "a count of counters out of range";
	else if (plm > PLM_ALL)
		*why = "its privilege levels are out of range";
	else if (type < -1 || type > INT32_MAX)
		*why = "its perf type is out of range";
	else if (!sysfs_name_ok(p->sysfs_name))
		*why = "its kernel PMU name cannot be a sysfs name";
	else if (table < 1 || table > ntables)
		*why = "its event table is out of range";
	else
		*why = NULL;
	p->num_counters = (int)counters;
	p->num_fixed_counters = (int)fixed;
	p->supported_plm = (unsigned)plm;
	p->perf_type = (int)type;
	*table_id = (int64_t)table;
	return *why ? -1 : 0;
}
