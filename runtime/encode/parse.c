/*
 * parse.c - an event string read the way libpfm reads it: the event found
 * by name (PMU, scope, alias, equivalence), its attributes cut into
 * tokens (libpfm's strsep loop, its duplicate pass in attributes.c), each
 * a unit mask, a raw unit mask or a modifier with its value; then the
 * stages (stages.c).
 *
 * The grammar is libpfm's: one event (no ',' or blanks), an optional
 * "PMU::" prefix, the event name, then attributes separated by ':' or '.',
 * each a unit mask, or a modifier with an optional "=value".  One addition:
 * a vendor's name with dots (OCR.DEMAND_DATA_RD.ANY_RESPONSE) is looked up
 * whole first, as the alias the catalog has for it (runtime/api/encode.c).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "runtime/encode/attr_value.h"
#include "runtime/encode/attributes.h"
#include "runtime/encode/family_encoders.h"
#include "runtime/encode/parse.h"
#include "runtime/encode/scan.h"
#include "runtime/encode/stages.h"

#define ATTR_DELIMS ":."

/* How deep unit-mask equivalences may nest (the table's reader refused
 * deeper ones and cycles; this keeps the recursion bounded regardless). */
#define MAX_EXPANSION 8

/* ---- one attribute ------------------------------------------------------ */

static int parse_attrs(struct request *rq, char *attrs);

char *parse_working_copy(const char *s, size_t len, char *buf, size_t size, char **heap)
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
	char *copy = parse_working_copy(attrs, strlen(attrs), buf, sizeof(buf), &heap);
	if (!copy)
		return request_fail(rq, PMUDB_ERR_NOMEM, "out of memory");
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
		return request_fail(rq, PMUDB_ERR_CATALOG, "unit mask %s of %s expands too deep", um->name, rq->ev->name);
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
			return request_fail(rq, PMUDB_ERR_ATTR_VAL, "'%s' needs a value", tok);
	} else if (!*val) {
		return request_fail(rq, PMUDB_ERR_ATTR_VAL, "'%s=' has no value", tok);
	}
	/* libpfm counts a modifier against its limit before it reads the
	 * value: a bad value past the limit is "too many" */
	if (rq->nattrs == MAX_ATTRS)
		return attributes_too_many(rq);
	if (!val)
		return 0;	/* a boolean given alone is set */
	if (!mod->is_integer) {
		if (attr_bool(val, val_len, value))
			return request_fail(rq, PMUDB_ERR_ATTR_VAL, "'%s=%s': a boolean is 0 or 1", tok, val);
	} else if (!attr_decimal(val, val_len, value)) {
		char *end = NULL;
		*value = strtoull(val, &end, 0);	/* as libpfm: no overflow check */
		if (*end)
			return request_fail(rq, PMUDB_ERR_ATTR_VAL, "'%s=%s' is not an integer", tok, val);
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
		return request_fail(rq, PMUDB_ERR_ATTR, "raw unit mask '%s': one per event, not beside a named unit mask", tok);
	if (!rq->ev->raw_umask_max)
		return request_fail(rq, PMUDB_ERR_ATTR, "%s::%s takes no raw unit mask ('%s')", rq->pmu->name, rq->ev->name, tok);
	char *end = NULL;
	uint64_t value = strtoull(tok, &end, 0);	/* as libpfm: no overflow check */
	if (*end)
		return request_fail(rq, PMUDB_ERR_ATTR, "raw unit mask '%s' is not a hexadecimal number", tok);
	if (val)
		return request_fail(rq, PMUDB_ERR_ATTR_VAL, "raw unit mask '%s' takes no value", tok);
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
			return request_fail(rq, PMUDB_ERR_ATTR, "unit mask %s beside a raw unit mask", tok);
		if (!rq->expanding)
			attributes_note_typed(rq, u);
		rq->named_umask |= !rq->in_catalog;
		return ev->umasks[u].equiv ? expand_umask(rq, &ev->umasks[u]) : attributes_add(rq, u, -1, 0);
	}
	int m = name_index_find_hashed(&ev->modifiers->by_name, tok, len, hash);
	if (m < 0) {
		if (eq)
			*eq = '=';
		return request_fail(rq, PMUDB_ERR_ATTR, "unknown attribute '%s' for %s::%s", tok, rq->pmu->name, ev->name);
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
	if (p->family && p->family->names_are_numbers)
		return p->table->nevents && !family_event_number(name, &rq->raw_code) ? 0 : -1;
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

/* The OS's PMUs (perf, perf_raw) after a scope's, as libpfm's active list
 * has them after the hardware's: unqualified "cycles" or "task-clock" is
 * found on a machine whatever its CPU.  As look_in. */
static int look_in_os_pmus(struct request *rq, const struct pmudb_scope *scope, const char *name, size_t len,
			   uint32_t hash, const char **attrs)
{
	for (int i = 0; i < rq->db->npmus; i++) {
		struct pmu *p = catalog_pmu_read(rq->db, i);
		if (!p && !(p = catalog_pmu(rq->db, i, rq->err)))
			return rq->err->code;
		if (strcmp(p->kind, "os"))
			continue;
		bool in_scope = false;
		for (int k = 0; k < scope->count && !in_scope; k++)
			in_scope = scope->pmus[k] == i;
		int r = in_scope ? 1 : look_in(rq, i, name, len, hash, attrs);
		if (r != 1)
			return r;
	}
	return 1;
}

int parse_find_event(struct request *rq, const char *pname, size_t plen, const char *name, size_t len,
		     const struct pmudb_scope *scope, const char **attrs)
{
	uint32_t hash = name_index_hash(name, len);
	if (pname) {
		int index = catalog_lookup_pmu(rq->db, pname, name_index_hash(pname, plen), rq->err);
		if (index == PMUDB_ERR_CATALOG)
			return PMUDB_ERR_CATALOG;
		if (index < 0)
			return request_fail(rq, PMUDB_ERR_NOTFOUND, "unknown PMU '%s'", pname);
		int r = look_in(rq, index, name, len, hash, attrs);
		if (r == 1)
			return request_fail(rq, PMUDB_ERR_NOTFOUND, "no event '%s' in PMU %s", name,
				    catalog_pmu(rq->db, index, NULL)->name);
		return r;
	}
	int n = scope ? scope->count : rq->db->npmus;
	for (int i = 0; i < n; i++) {
		int r = look_in(rq, scope ? scope->pmus[i] : i, name, len, hash, attrs);
		if (r != 1)
			return r;
	}
	int r = scope ? look_in_os_pmus(rq, scope, name, len, hash, attrs) : 1;
	if (r != 1)
		return r;
	return request_fail(rq, PMUDB_ERR_NOTFOUND, "no event '%s' in the PMUs of the selected CPU", name);
}

/* An event that is another's name: "OTHER:ATTRS" of the same PMU. */
static int follow_equiv(struct request *rq)
{
	const char *equiv = rq->ev->equiv;
	size_t len = token_length(equiv);
	char name[MAX_EQUIV_NAME + 1];
	if (len >= sizeof(name))
		return request_fail(rq, PMUDB_ERR_CATALOG, "%s stands for an event name too long", rq->ev->name);
	memcpy(name, equiv, len);
	name[len] = '\0';
	int e = catalog_find_event(rq->db, rq->pmu, name, NULL, rq->err);
	if (e == PMUDB_ERR_CATALOG)
		return e;
	if (e < 0)
		return request_fail(rq, PMUDB_ERR_NOTFOUND, "%s stands for %s, which is not in the catalog", rq->ev->name, name);
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

int parse_run(struct request *rq, const char *alias_attrs, char *user_attrs)
{
	int r = parse_everything(rq, alias_attrs, user_attrs);
	return r ? r : stages_encode(rq);
}

