/*
 * encode.c - pmudb_encode(): the string read once (intake.c), the express
 * lane first (express.c); what it declines is parsed here the way libpfm
 * parses it, in a working copy cut into tokens, its event found by name
 * (PMU, scope, alias, equivalence), and the stages run (stages.c): unit-
 * mask rules, the PMU's family encoder, the perf_events layer.
 *
 * The grammar is libpfm's: one event (no ',' or blanks), an optional
 * "PMU::" prefix, the event name, then attributes separated by ':' or '.',
 * each a unit mask, or a modifier with an optional "=value".  One addition:
 * a vendor's name with dots (OCR.DEMAND_DATA_RD.ANY_RESPONSE) is looked up
 * whole first, as the alias the catalog has for it.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "attr_value.h"
#include "attributes.h"
#include "bare.h"
#include "event_cache.h"
#include "express.h"
#include "family_encoders.h"
#include "intake.h"
#include "scan.h"
#include "stages.h"

#define ATTR_DELIMS ":."

/* How deep unit-mask equivalences may nest (the table's reader refused
 * deeper ones and cycles; this keeps the recursion bounded regardless). */
#define MAX_EXPANSION 8

/* ---- one attribute ------------------------------------------------------ */

static int parse_attrs(struct request *rq, char *attrs);

/* S, LEN bytes long, as a string to cut into tokens: in BUF when it fits,
 * else on the heap (*HEAP then to be freed, else NULL); followed by
 * SCAN_PAD zeros for scan.h. */
static char *working_copy(const char *s, size_t len, char *buf, size_t size, char **heap)
{
	size_t n = len + 1;
	*heap = NULL;
	char *copy = n + SCAN_PAD <= size ? buf : (*heap = malloc(n + SCAN_PAD));
	if (!copy)
		return NULL;
	memcpy(copy, s, n);
	memset(copy + n, 0, SCAN_PAD);
	return copy;
}

/* Parses ATTRS, a string of the catalog's (an equiv's or an alias's
 * unit masks), without changing it. */
static int parse_catalog_attrs(struct request *rq, const char *attrs)
{
	char buf[256], *heap;
	char *copy = working_copy(attrs, strlen(attrs), buf, sizeof(buf), &heap);
	if (!copy)
		return fail(rq, PMUDB_ERR_NOMEM, "out of memory");
	/* libpfm parses an equiv apart: its unit masks do not count against
	 * a raw one the user gives (wsm::LLC_REFERENCES:0x1) */
	rq->in_catalog++;
	int r = parse_attrs(rq, copy);
	rq->in_catalog--;
	if (heap)
		free(heap);
	return r;
}

static int expand_umask(struct request *rq, const struct umask *um);

/* The unit masks an equiv names, resolved when the event was read: what
 * parse_attr does for each of its tokens in a catalog's string, without
 * the string (an offcore ANY_REQUEST names eight). */
static int add_expansion(struct request *rq, const uint16_t *list)
{
	int r = 0;
	/* the unit masks asked for at once, not each miss after the last */
	for (int i = 1; i <= list[0]; i++)
		__builtin_prefetch(&rq->ev->umasks[list[i]]);
	rq->in_catalog++;
	for (int i = 1; i <= list[0] && !r; i++) {
		const struct umask *u = &rq->ev->umasks[list[i]];
		rq->token = u->name;	/* the token, as the equiv spells it */
		r = u->equiv ? expand_umask(rq, u) : attributes_add(rq, list[i], -1, 0);
	}
	rq->in_catalog--;
	return r;
}

static int expand_umask(struct request *rq, const struct umask *um)
{
	if (rq->expanding >= MAX_EXPANSION)
		return fail(rq, PMUDB_ERR_CATALOG, "unit mask %s of %s expands too deep", um->name, rq->ev->name);
	rq->expanding++;
	int r = um->expansion ? add_expansion(rq, um->expansion) : parse_catalog_attrs(rq, um->equiv);
	rq->expanding--;
	return r;
}

/* VAL (VAL_LEN bytes, NUL-terminated) the value of TOK, modifier MOD's:
 * NULL when none is given. */
static int parse_value(struct request *rq, const struct modifier *mod, const char *tok, const char *val,
		       size_t val_len, uint64_t *value)
{
	*value = 1;
	if (!val) {
		if (mod->is_integer)
			return fail(rq, PMUDB_ERR_ATTR_VAL, "'%s' needs a value", tok);
	} else if (!*val) {
		return fail(rq, PMUDB_ERR_ATTR_VAL, "'%s=' has no value", tok);
	}
	/* libpfm counts a modifier against its limit before it reads the
	 * value: a bad value past the limit is "too many" */
	if (rq->nattrs == MAX_ATTRS)
		return attributes_too_many(rq);
	if (!val)
		return 0;	/* a boolean given alone is set */
	if (!mod->is_integer) {
		if (attr_bool(val, val_len, value))
			return fail(rq, PMUDB_ERR_ATTR_VAL, "'%s=%s': a boolean is 0 or 1", tok, val);
	} else if (!attr_decimal(val, val_len, value)) {
		char *end = NULL;
		*value = strtoull(val, &end, 0);	/* as libpfm: no overflow check */
		if (*end)
			return fail(rq, PMUDB_ERR_ATTR_VAL, "'%s=%s' is not an integer", tok, val);
	}
	return 0;
}

/*
 * A unit mask given as a number (":0xff"), as libpfm takes it: hexadecimal
 * with its 0x, one per string and never beside a named one, for the events
 * the build saw take one (raw_umask_max: their width); in the encoding it
 * stands for the unit masks, and nothing is added to it.
 */
static int parse_raw_umask(struct request *rq, const char *tok, const char *val)
{
	if (rq->has_raw || rq->named_umask)
		return fail(rq, PMUDB_ERR_ATTR, "raw unit mask '%s': one per event, not beside a named unit mask", tok);
	if (!rq->ev->raw_umask_max)
		return fail(rq, PMUDB_ERR_ATTR, "%s::%s takes no raw unit mask ('%s')", rq->pmu->name, rq->ev->name, tok);
	char *end = NULL;
	uint64_t value = strtoull(tok, &end, 0);	/* as libpfm: no overflow check */
	if (*end)
		return fail(rq, PMUDB_ERR_ATTR, "raw unit mask '%s' is not a hexadecimal number", tok);
	if (val)
		return fail(rq, PMUDB_ERR_ATTR_VAL, "raw unit mask '%s' takes no value", tok);
	/* its width is checked with the attributes as the encoder reads them
	 * (check_rules): a refusal earlier in the string, or after it while
	 * parsing, comes first */
	rq->has_raw = true;
	rq->raw_umask = value;
	return attributes_add(rq, RAW_UMASK_ATTR, -1, value);
}

/* TOK is LEN bytes long, its first '=' at EQ (LEN: none). */
static int parse_attr(struct request *rq, char *tok, size_t len, size_t at)
{
	const struct event *ev = rq->ev;
	rq->token = tok;
	char *eq = at < len ? tok + at : NULL;
	size_t val_len = 0;
	if (eq) {
		*eq = '\0';
		val_len = len - at - 1;
		len = at;
	}
	const char *val = eq ? eq + 1 : NULL;

	if (tok[0] == '0' && (tok[1] | 0x20) == 'x')
		return parse_raw_umask(rq, tok, val);

	/* hashed once for both indexes it may be looked up in */
	uint32_t hash = name_index_hash(tok, len);
	/* A name that is both a unit mask and a modifier is the modifier when
	 * it has a value (snb::L2_LINES_IN:I:I=1), as in libpfm. */
	int u = val ? -1 : name_index_find_hashed(&ev->umask_by_name, tok, len, hash);
	if (u >= 0) {
		if (rq->has_raw && !rq->in_catalog)
			return fail(rq, PMUDB_ERR_ATTR, "unit mask %s beside a raw unit mask", tok);
		if (!rq->expanding)
			attributes_note_typed(rq, u);
		rq->named_umask |= !rq->in_catalog;
		return ev->umasks[u].equiv ? expand_umask(rq, &ev->umasks[u]) : attributes_add(rq, u, -1, 0);
	}
	int m = name_index_find_hashed(&ev->modifiers->by_name, tok, len, hash);
	if (m < 0) {
		if (eq)
			*eq = '=';
		return fail(rq, PMUDB_ERR_ATTR, "unknown attribute '%s' for %s::%s", tok, rq->pmu->name, ev->name);
	}
	uint64_t value;
	int r = parse_value(rq, &ev->modifiers->items[m], tok, val, val_len, &value);
	return r ? r : attributes_add(rq, -1, m, value);
}

/* strcspn(S, ATTR_DELIMS) of a catalog's string, which is not padded:
 * with the bytes that end a token in a table, one load a byte. */
static size_t token_length(const char *s)
{
	static const bool ends[256] = { [0] = true, [':'] = true, ['.'] = true };
	const char *p = s;
	while (!ends[(unsigned char)*p])
		p++;
	return (size_t)(p - s);
}

/* strsep(S, ATTR_DELIMS) for these two delimiters in a padded working
 * copy, with the token's length in *LEN and its first '=' in *EQ (scan.h's
 * scan_token): libc's strsep (through strcspn's table setup), then a byte
 * loop, cost more than the token's lookup. */
static char *next_token(char **s, size_t *len, size_t *eq)
{
	char *tok = *s, *p;
	if (!tok)
		return NULL;
	*len = scan_token(tok, eq);
	p = tok + *len;
	if (*p) {
		*p = '\0';
		*s = p + 1;
	} else {
		*s = NULL;
	}
	return tok;
}

/* Splits ATTRS at ':' and '.' like libpfm's strsep loop. */
static int parse_attrs(struct request *rq, char *attrs)
{
	char *s = attrs;
	while (s) {
		size_t len, eq;
		char *tok = next_token(&s, &len, &eq);
		int r = parse_attr(rq, tok, len, eq);
		if (r)
			return r;
	}
	return 0;
}

/* ---- event and PMU ------------------------------------------------------ */

/* The event NAME (LEN bytes) names in P: by name, or for a PMU whose names
 * are numbers its one event, with the number kept (libpfm's match_event).
 * *ATTRS: the unit masks an alias stands for.  -1 when there is none. */
static int event_in(struct request *rq, const struct pmu *p, const char *name, size_t len, uint32_t hash,
		    const char **attrs)
{
	*attrs = NULL;
	if (p->family && p->family->match_name)
		return p->table->nevents && !p->family->match_name(name, &rq->raw_code) ? 0 : -1;
	return catalog_lookup_event(rq->db, p, name, len, hash, attrs, rq->err);
}

/* Looks NAME up in PMU INDEX, its table read if need be: 0 and rq->pmu,
 * rq->ev set when found, 1 when not, or an error. */
static int look_in(struct request *rq, int index, const char *name, size_t len, uint32_t hash, const char **attrs)
{
	/* what was read already is taken without a call (catalog.h) */
	struct pmu *p = catalog_pmu_read(rq->db, index);
	if (!p && !(p = catalog_pmu(rq->db, index, rq->err)))
		return rq->err->code;
	int r = catalog_table_read(p) ? 0 : catalog_load_table(rq->db, p, rq->err);
	if (r)
		return r;
	int e = event_in(rq, p, name, len, hash, attrs);
	if (e == PMUDB_ERR_CATALOG)
		return e;
	if (e < 0)
		return 1;
	rq->pmu = p;
	rq->event_index = e;
	rq->ev = catalog_event_read(p, e);
	if (!rq->ev)
		rq->ev = catalog_event(rq->db, p, e, rq->err);
	return rq->ev ? 0 : rq->err->code;
}

/* Notes the event just found by PMU::NAME (PMU index INDEX), KEY the
 * hash of what was asked, in the event cache: where it was found by its
 * own names, not an alias's, nor as the number a PMU reads from its name. */
static void remember(struct request *rq, uint32_t key, const char *pname, const char *name)
{
	const struct pmu *p = rq->pmu;
	if ((p->family && p->family->match_name) || !same_name(p->name, pname) || !same_name(rq->ev->name, name))
		return;
	const struct bare_encoding *b = bare_read(p, rq->event_index);
	if (!b)
		b = stages_bare(rq);
	if (b)
		event_cache_add(rq->db, key, b);
}

/* Finds the event named NAME (LEN bytes): in PMU PNAME (PLEN bytes), else
 * in SCOPE (or every PMU).  KEY: the event cache's key of "PNAME::NAME". */
static int find_event(struct request *rq, const char *pname, size_t plen, const char *name, size_t len,
		      const struct pmudb_scope *scope, const char **attrs, uint32_t key)
{
	uint32_t hash = name_index_hash(name, len);
	if (pname) {
		int index = catalog_lookup_pmu(rq->db, pname, name_index_hash(pname, plen), rq->err);
		if (index == PMUDB_ERR_CATALOG)
			return PMUDB_ERR_CATALOG;
		if (index < 0)
			return fail(rq, PMUDB_ERR_NOTFOUND, "unknown PMU '%s'", pname);
		int r = look_in(rq, index, name, len, hash, attrs);
		if (r == 1)
			return fail(rq, PMUDB_ERR_NOTFOUND, "no event '%s' in PMU %s", name,
				    catalog_pmu(rq->db, index, NULL)->name);
		if (!r && !*attrs)
			remember(rq, key, pname, name);
		return r;
	}
	int n = scope ? scope->count : rq->db->npmus;
	for (int i = 0; i < n; i++) {
		int r = look_in(rq, scope ? scope->pmus[i] : i, name, len, hash, attrs);
		if (r != 1)
			return r;
	}
	return fail(rq, PMUDB_ERR_NOTFOUND, "no event '%s' in the PMUs of the selected CPU", name);
}

/* The event the cache found, B's (its record is asked for next, by
 * stages_fetch). */
static void take_cached(struct request *rq, const struct bare_encoding *b)
{
	rq->pmu = b->pmu;
	rq->ev = b->ev;
	rq->event_index = b->index;
}

/* An event that is another's name: "OTHER:ATTRS" of the same PMU. */
static int follow_equiv(struct request *rq)
{
	const char *equiv = rq->ev->equiv;
	size_t len = token_length(equiv);
	char name[MAX_EQUIV_NAME + 1];
	if (len >= sizeof(name))
		return fail(rq, PMUDB_ERR_CATALOG, "%s stands for an event name too long", rq->ev->name);
	memcpy(name, equiv, len);
	name[len] = '\0';
	int e = catalog_find_event(rq->db, rq->pmu, name, NULL, rq->err);
	if (e == PMUDB_ERR_CATALOG)
		return e;
	if (e < 0)
		return fail(rq, PMUDB_ERR_NOTFOUND, "%s stands for %s, which is not in the catalog", rq->ev->name, name);
	const struct event *ev = catalog_event(rq->db, rq->pmu, e, rq->err);
	if (!ev)
		return rq->err->code;
	rq->ev = ev;
	rq->event_index = e;
	return equiv[len] ? parse_catalog_attrs(rq, equiv + len + 1) : 0;
}

static int parse_everything(struct request *rq, const char *alias_attrs, char *user_attrs)
{
	int r = 0;
	if (rq->ev->equiv)
		r = follow_equiv(rq);
	if (!r && alias_attrs)
		r = parse_catalog_attrs(rq, alias_attrs);
	if (!r && user_attrs)
		r = parse_attrs(rq, user_attrs);
	rq->token = NULL;
	return r ? r : attributes_apply(rq);
}

/* The string's attributes parsed (the alias's, ALIAS_ATTRS, and the
 * user's, USER_ATTRS, after the event found), then the stages. */
static int run_stages(struct request *rq, const char *alias_attrs, char *user_attrs)
{
	int r = parse_everything(rq, alias_attrs, user_attrs);
	return r ? r : stages_encode(rq);
}

/* A scope the caller built: every index must name a PMU of the catalog. */
static int check_scope(struct pmudb *db, const struct pmudb_scope *scope, struct pmudb_error *err)
{
	if (scope->count < 0 || scope->count > PMUDB_SCOPE_MAX)
		return set_error(err, PMUDB_ERR_INVAL, "%s: a scope of %d PMUs (0 to %d)",
				 pmudb_strerror(PMUDB_ERR_INVAL), scope->count, PMUDB_SCOPE_MAX);
	for (int i = 0; i < scope->count; i++)
		if (scope->pmus[i] < 0 || scope->pmus[i] >= db->npmus)
			return set_error(err, PMUDB_ERR_INVAL, "%s: the scope names PMU %d, the catalog has %d",
					 pmudb_strerror(PMUDB_ERR_INVAL), scope->pmus[i], db->npmus);
	return 0;
}

/* Splits the string (in COPY, its first "::" at SEP or none, the event's
 * name LEN bytes from there) into PMU, event and attributes, finds the
 * event (FOUND, when the event cache gave it already) and runs the
 * stages. */
static int encode_copy(struct request *rq, char *copy, char *sep, size_t len, const struct pmudb_scope *scope,
		       const struct bare_encoding *found)
{
	char *rest = sep ? sep + 2 : copy;
	const char *alias_attrs = NULL;
	/* "PMU::EVENT" as written (not an event of a scope): the cache's key
	 * is one hash of it, the two names are looked up apart only when the
	 * cache does not know it */
	uint32_t key = 0;
	const struct bare_encoding *cached = found;
	if (sep && !cached) {
		size_t n = (size_t)(rest + len - copy);
		key = event_cache_key(copy, n);
		cached = event_cache_find(rq->db, key, copy, n, n + SCAN_PAD);
	}
	char *name = rest;
	rest = rest[len] ? rest + len + 1 : NULL;
	request_start(rq);
	if (sep)
		*sep = '\0';
	name[len] = '\0';
	int r = 0;
	if (cached)
		take_cached(rq, cached);
	else
		r = find_event(rq, sep ? copy : NULL, sep ? (size_t)(sep - copy) : 0, name, len, scope, &alias_attrs, key);
	if (r)
		return r;
	stages_fetch(rq->ev);
	return run_stages(rq, alias_attrs, rest);
}

/* Where COPY (of LEN bytes, the NUL not counted) names its PMU (*SEP, or
 * NULL) and how long its event's name is (*NAME_LEN): as IN read the
 * string, or scanned here.  The event's name ends at the first ':' or '.',
 * as libpfm reads it, or with WHOLE at the first ':' (a vendor's dotted
 * name: only aliases have dots); *DOTTED tells whether a '.' ended it
 * libpfm's way.  True when the string holds a blank or ','. */
static bool split(const struct intake *in, const char *event, char *copy, size_t len, bool whole, char **sep,
		  size_t *name_len, bool *dotted)
{
	if (in->marked) {
		/* the intake looked at every byte: only where it saw a byte
		 * below '-' may there be a blank or ',' */
		if (in->low && strpbrk(event, ", \t\n"))
			return true;
		*sep = in->has_pmu ? copy + in->pmu_end : NULL;
		*name_len = in->name_end - (in->has_pmu ? in->pmu_end + 2 : 0);
	} else {
		if (scan_event(copy, len, sep))
			return true;
		*name_len = scan_token_length(*sep ? *sep + 2 : copy);
	}
	char *name = *sep ? *sep + 2 : copy;
	*dotted = name[*name_len] == '.';
	if (whole)
		*name_len = (size_t)(strchrnul(name, ':') - name);
	return false;
}

/* EVENT (read into IN), in a working copy of its own, as encode_copy reads
 * it (WHOLE, *DOTTED as split says; FOUND there). */
static int encode_string(struct pmudb *db, const char *event, const struct intake *in,
			 const struct pmudb_scope *scope, struct pmudb_encoding *out, struct pmudb_error *err,
			 bool quiet, bool whole, bool *dotted, const struct bare_encoding *found)
{
	char buf[512], *heap;
	size_t len = in->len - 1;
	char *copy = working_copy(event, len, buf, sizeof(buf), &heap);
	if (!copy)
		return set_error(err, PMUDB_ERR_NOMEM, "%s", pmudb_strerror(PMUDB_ERR_NOMEM));
	/* request_start() clears the rest */
	struct request request;
	request.db = db;
	request.out = out;
	request.err = err;
	request.quiet = quiet;
	char *sep;
	size_t name_len;
	*dotted = false;
	int r = split(in, event, copy, len, whole, &sep, &name_len, dotted)
			? set_error(err, PMUDB_ERR_INVAL, "%s: one event at a time, without blanks or ','",
				    pmudb_strerror(PMUDB_ERR_INVAL))
			: encode_copy(&request, copy, sep, name_len, scope, whole ? NULL : found);
	if (heap)
		free(heap);
	return r;
}

int pmudb_encode(pmudb_t *db, const char *event, const struct pmudb_scope *scope,
		 struct pmudb_encoding *out, struct pmudb_error *err)
{
	/* a caller that passes no ERR gets no message written: a refusal
	 * costs no more than libpfm's (half of a mixed batch is refused) */
	struct pmudb_error spare;
	bool quiet = !err;
	if (quiet)
		err = &spare;
	if (!db || !event || !out)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog, event or result",
				 pmudb_strerror(PMUDB_ERR_INVAL));
	if (scope && check_scope(db, scope, err))
		return PMUDB_ERR_INVAL;
	/* the string read once, the express lane first: the stages answer
	 * what it declines, from the event it found if it found one */
	struct intake in;
	intake_read(event, &in);
	const struct bare_encoding *found;
	int r = express_encode(db, event, &in, out, err, quiet, &found);
	bool dotted = false;
	if (r == EXPRESS_DECLINED)
		r = encode_string(db, event, &in, scope, out, err, quiet, false, &dotted, found);
	/* a dotted name libpfm's way failed (L2_LD.SELF.PREFETCH.E_STATE: the
	 * event L2_LD, unit masks SELF, PREFETCH, E_STATE): as a vendor's
	 * name, whole.  What libpfm answers stands wherever it answers; where
	 * the name is no alias either, the first refusal and its message */
	if (r && r != PMUDB_ERR_CATALOG && dotted) {
		struct pmudb_error first = *err;
		int vendor = encode_string(db, event, &in, scope, out, err, quiet, true, &dotted, NULL);
		if (vendor && vendor != PMUDB_ERR_CATALOG)
			*err = first;
		else
			r = vendor;
	}
	if (r)
		out->fstr[0] = '\0';
	else
		err->code = 0, err->message[0] = '\0';
	return r;
}
