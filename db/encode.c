/*
 * encode.c - pmudb_encode(): reads an event string the way libpfm does,
 * then runs the stages: unit-mask rules, the PMU's family encoder, the
 * perf_events layer.
 *
 * The grammar is libpfm's: one event (no ',' or blanks), an optional
 * "PMU::" prefix, the event name, then attributes separated by ':' or '.',
 * each a unit mask, or a modifier with an optional "=value".  One addition:
 * a vendor's name with dots (OCR.DEMAND_DATA_RD.ANY_RESPONSE) is looked up
 * whole first, as the alias the catalog has for it.
 */
#include "encode.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ATTR_DELIMS ":."

/* Appends S, cut at libpfm's limit as its vsnprintf-based appends cut. */
static void fstr_put(struct request *rq, const char *s)
{
	while (*s && rq->fstr_len < FSTR_MAX - 1)
		rq->fstr[rq->fstr_len++] = *s++;
	rq->fstr[rq->fstr_len] = '\0';
}

void fstr_add(struct request *rq, const char *prefix, const char *name)
{
	fstr_put(rq, prefix);
	fstr_put(rq, name);
}

void fstr_add_value(struct request *rq, const char *name, uint64_t value)
{
	char digits[24], *d = digits + sizeof(digits) - 1;
	*d = '\0';
	do
		*--d = (char)('0' + value % 10);
	while (value /= 10);
	fstr_put(rq, ":");
	fstr_put(rq, name);
	fstr_put(rq, "=");
	fstr_put(rq, d);
}

int fail(struct request *rq, int code, const char *fmt, ...)
{
	struct pmudb_error *err = rq->err;
	err->code = code;
	int n = snprintf(err->message, sizeof(err->message), "%s: ", pmudb_strerror(code));
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message + n, sizeof(err->message) - (size_t)n, fmt, ap);
	va_end(ap);
	return code;
}

int find_modifier(const struct event *ev, const char *name)
{
	for (int i = 0; i < ev->modifiers->count; i++)
		if (!strcasecmp(ev->modifiers->items[i].name, name))
			return i;
	return -1;
}

/* ---- one attribute ------------------------------------------------------ */

static int parse_attrs(struct request *rq, char *attrs);

/* "y", "t", "1", "n", "f", "0" as libpfm reads a boolean. */
static int parse_bool(const char *s, uint64_t *out)
{
	if (strlen(s) != 1)
		return -1;
	char c = (char)tolower((unsigned char)*s);
	if (c == 'y' || c == 't' || c == '1')
		*out = 1;
	else if (c == 'n' || c == 'f' || c == '0')
		*out = 0;
	else
		return -1;
	return 0;
}

/* The unit masks as the user wrote them: the first two distinct, and a
 * count that goes past two when there are more. */
static void note_typed(struct request *rq, int u)
{
	for (int i = 0; i < rq->ntyped && i < 2; i++)
		if (rq->typed[i] == u)
			return;
	if (rq->ntyped < 2)
		rq->typed[rq->ntyped] = (uint16_t)u;
	rq->ntyped++;
}

static int add_umask(struct request *rq, int u)
{
	for (int i = 0; i < rq->nasked; i++)
		if (rq->asked[i] == u)
			return 0;	/* a repeated unit mask is one unit mask */
	if (rq->nasked == MAX_UMASKS)
		return fail(rq, PMUDB_ERR_TOOMANY, "too many unit masks at '%s'", rq->token);
	rq->asked[rq->nasked++] = (uint16_t)u;
	return 0;
}

/* A modifier given twice with two values is refused once the whole string
 * is read, as libpfm checks duplicates after parsing. */
static int add_modifier(struct request *rq, int m, uint64_t value)
{
	if (rq->given[m] && rq->value[m] != value && rq->conflict < 0)
		rq->conflict = m;
	rq->given[m] = true;
	rq->value[m] = value;
	return 0;
}

static int parse_attr(struct request *rq, char *tok)
{
	const struct event *ev = rq->ev;
	rq->token = tok;
	char *eq = strchr(tok, '=');
	if (eq)
		*eq = '\0';
	const char *val = eq ? eq + 1 : NULL;

	if (tok[0] == '0' && tolower((unsigned char)tok[1]) == 'x')
		return fail(rq, PMUDB_ERR_ATTR, "raw unit mask '%s' is not supported by pmudb", tok);

	/* A name that is both a unit mask and a modifier is the modifier when
	 * it has a value (snb::L2_LINES_IN:I:I=1), as in libpfm. */
	if (!val)
		for (int u = 0; u < ev->numasks; u++) {
			if (ev->umasks[u].retired || strcasecmp(ev->umasks[u].name, tok))
				continue;
			if (!rq->expanding)
				note_typed(rq, u);
			if (!ev->umasks[u].equiv)
				return add_umask(rq, u);
			char *copy = strdup(ev->umasks[u].equiv);
			if (!copy)
				return fail(rq, PMUDB_ERR_NOMEM, "out of memory");
			rq->expanding++;
			int r = parse_attrs(rq, copy);
			rq->expanding--;
			free(copy);
			return r;
		}
	int m = find_modifier(ev, tok);
	if (m < 0) {
		if (eq)
			*eq = '=';
		return fail(rq, PMUDB_ERR_ATTR, "unknown attribute '%s' for %s::%s", tok, rq->pmu->name, ev->name);
	}
	const struct modifier *mod = &ev->modifiers->items[m];
	uint64_t value = 1;
	if (!val) {
		if (mod->is_integer)
			return fail(rq, PMUDB_ERR_ATTR_VAL, "'%s' needs a value", tok);
	} else if (!*val) {
		return fail(rq, PMUDB_ERR_ATTR_VAL, "'%s=' has no value", tok);
	} else if (!mod->is_integer) {
		if (parse_bool(val, &value))
			return fail(rq, PMUDB_ERR_ATTR_VAL, "'%s=%s': a boolean is 0 or 1", tok, val);
	} else {
		char *end = NULL;
		value = strtoull(val, &end, 0);	/* as libpfm: no overflow check */
		if (*end)
			return fail(rq, PMUDB_ERR_ATTR_VAL, "'%s=%s' is not an integer", tok, val);
	}
	return add_modifier(rq, m, value);
}

/* Splits ATTRS at ':' and '.' like libpfm's strsep loop. */
static int parse_attrs(struct request *rq, char *attrs)
{
	char *s = attrs;
	while (s) {
		char *tok = strsep(&s, ATTR_DELIMS);
		int r = parse_attr(rq, tok);
		if (r)
			return r;
	}
	return 0;
}

/* ---- event and PMU ------------------------------------------------------ */

static int load(struct request *rq, const struct pmu *p)
{
	if (catalog_load_table(rq->db, p))
		return set_error(rq->err, PMUDB_ERR_CATALOG, "catalog: cannot read the events of %s", p->name);
	return 0;
}

/* The event NAME names in P: by name, or for a PMU whose names are numbers
 * its one event, with the number kept (libpfm's match_event).  *ATTRS: the
 * unit masks an alias stands for. */
static int event_in(struct request *rq, const struct pmu *p, const char *name, const char **attrs)
{
	*attrs = NULL;
	if (p->family && p->family->match_name)
		return p->table->nevents && !p->family->match_name(name, &rq->raw_code) ? 0 : -1;
	return catalog_find_event(p, name, attrs);
}

/* Finds the event named NAME: in PMU PNAME, else in SCOPE (or every PMU). */
static int find_event(struct request *rq, const char *pname, const char *name, const struct pmudb_scope *scope,
		      const char **attrs)
{
	if (pname) {
		const struct pmu *p = catalog_find_pmu(rq->db, pname);
		if (!p)
			return set_error(rq->err, PMUDB_ERR_NOTFOUND, "%s: unknown PMU '%s'",
					 pmudb_strerror(PMUDB_ERR_NOTFOUND), pname);
		if (load(rq, p))
			return PMUDB_ERR_CATALOG;
		int e = event_in(rq, p, name, attrs);
		if (e < 0)
			return set_error(rq->err, PMUDB_ERR_NOTFOUND, "%s: no event '%s' in PMU %s",
					 pmudb_strerror(PMUDB_ERR_NOTFOUND), name, p->name);
		rq->pmu = p;
		rq->ev = &p->table->events[e];
		return 0;
	}
	int n = scope ? scope->count : rq->db->npmus;
	for (int i = 0; i < n; i++) {
		const struct pmu *p = &rq->db->pmus[scope ? scope->pmus[i] : i];
		if (load(rq, p))
			return PMUDB_ERR_CATALOG;
		int e = event_in(rq, p, name, attrs);
		if (e >= 0) {
			rq->pmu = p;
			rq->ev = &p->table->events[e];
			return 0;
		}
	}
	return set_error(rq->err, PMUDB_ERR_NOTFOUND, "%s: no event '%s' in the PMUs of the selected CPU",
			 pmudb_strerror(PMUDB_ERR_NOTFOUND), name);
}

/* An event that is another's name: "OTHER:ATTRS" of the same PMU. */
static int follow_equiv(struct request *rq)
{
	char *copy = strdup(rq->ev->equiv), *attrs = copy;
	if (!copy)
		return fail(rq, PMUDB_ERR_NOMEM, "out of memory");
	char *name = strsep(&attrs, ATTR_DELIMS);
	int e = catalog_find_event(rq->pmu, name, NULL);
	int r = 0;
	if (e < 0)
		r = set_error(rq->err, PMUDB_ERR_NOTFOUND, "%s: %s stands for %s, which is not in the catalog",
			      pmudb_strerror(PMUDB_ERR_NOTFOUND), rq->ev->name, name);
	else
		rq->ev = &rq->pmu->table->events[e];
	if (!r && attrs)
		r = parse_attrs(rq, attrs);
	free(copy);
	return r;
}

/* A PMU whose type the kernel assigns: read sysfs once per handle. */
static int sysfs_type(const struct pmu *p)
{
	struct pmu *mp = (struct pmu *)p;	/* the cache is the only mutable part */
	int type = atomic_load_explicit(&mp->sysfs_type, memory_order_relaxed);
	if (type != INT32_MIN)
		return type;
	char path[256];
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", p->sysfs_name);
	FILE *f = fopen(path, "r");
	type = -1;
	if (f) {
		if (fscanf(f, "%d", &type) != 1)
			type = -1;
		fclose(f);
	}
	atomic_store_explicit(&mp->sysfs_type, type, memory_order_relaxed);
	return type;
}

/* The type from sysfs where the PMU has a kernel name, else (or where this
 * machine's sysfs lacks it) the catalog's: -1 for uncore PMUs, PERF_TYPE_RAW
 * for a hybrid's core PMUs, as libpfm falls back. */
static void resolve_perf_type(struct request *rq)
{
	struct pmudb_encoding *out = rq->out;
	int type = rq->ev->perf_type != INT32_MIN ? rq->ev->perf_type : rq->pmu->perf_type;
	out->type = type;
	if ((type >= 0 && rq->ev->perf_type != INT32_MIN) || !rq->pmu->sysfs_name)
		return;
	snprintf(out->sysfs_pmu, sizeof(out->sysfs_pmu), "%s", rq->pmu->sysfs_name);
	int found = sysfs_type(rq->pmu);
	if (found >= 0)
		out->type = found;
}

static int run_stages(struct request *rq, const char *alias_attrs, char *user_attrs)
{
	int r = 0;
	if (rq->ev->equiv)
		r = follow_equiv(rq);
	if (!r && alias_attrs) {
		char *copy = strdup(alias_attrs);
		r = copy ? parse_attrs(rq, copy) : fail(rq, PMUDB_ERR_NOMEM, "out of memory");
		free(copy);
	}
	if (!r && user_attrs)
		r = parse_attrs(rq, user_attrs);
	rq->token = NULL;
	if (!r && rq->conflict >= 0)
		r = fail(rq, PMUDB_ERR_ATTR_SET, "'%s' is given twice with different values",
			 rq->ev->modifiers->items[rq->conflict].name);
	if (r)
		return r;
	const struct family *family = rq->pmu->family;
	if (!family)
		return set_error(rq->err, PMUDB_ERR_NOTSUPP, "%s: pmudb has no encoder for the %s family of PMU %s",
				 pmudb_strerror(PMUDB_ERR_NOTSUPP), rq->pmu->family_name, rq->pmu->name);
	/* perf_raw's fstr has no event name: libpfm's perf encoder for it
	 * never writes one */
	if (!family->match_name)
		fstr_add(rq, "", rq->ev->name);
	r = check_umask_combination(rq);
	if (!r)
		r = check_modifier_values(rq);
	if (!r)
		r = add_umask_defaults(rq);
	if (!r)
		r = check_hidden_modifiers(rq);
	if (!r)
		r = family->encode(rq);
	if (!r)
		r = check_requirements(rq);
	if (!r)
		r = apply_perf_layer(rq);
	if (!r) {
		resolve_perf_type(rq);
		snprintf(rq->out->pmu, sizeof(rq->out->pmu), "%s", rq->pmu->name);
		snprintf(rq->out->fstr, sizeof(rq->out->fstr), "%s::%s", rq->pmu->name, rq->fstr);
	}
	return r;
}

int pmudb_encode(pmudb_t *db, const char *event, const struct pmudb_scope *scope,
		 struct pmudb_encoding *out, struct pmudb_error *err)
{
	struct pmudb_error spare;
	if (!err)
		err = &spare;
	if (!db || !event || !out)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog, event or result",
				 pmudb_strerror(PMUDB_ERR_INVAL));
	if (strpbrk(event, ", \t\n"))
		return set_error(err, PMUDB_ERR_INVAL, "%s: one event at a time, without blanks or ','",
				 pmudb_strerror(PMUDB_ERR_INVAL));
	char *copy = strdup(event);
	if (!copy)
		return set_error(err, PMUDB_ERR_NOMEM, "%s", pmudb_strerror(PMUDB_ERR_NOMEM));
	struct request request, *rq = &request;
	rq->nasked = rq->nfinal = rq->fstr_len = rq->ntyped = rq->expanding = 0;
	rq->fstr[0] = '\0';
	memset(rq->given, 0, sizeof(rq->given));
	memset(rq->value, 0, sizeof(rq->value));
	memset(rq->codes, 0, sizeof(rq->codes));
	rq->pmu = NULL;
	rq->ev = NULL;
	rq->token = NULL;
	memset(out, 0, sizeof(*out));
	out->cpu = -1;
	rq->db = db;
	rq->err = err;
	rq->conflict = -1;
	rq->out = out;

	char *pname = NULL, *rest = copy, *sep = strstr(copy, "::");
	if (sep) {
		*sep = '\0';
		pname = copy;
		rest = sep + 2;
	}
	const char *alias_attrs = NULL;
	int r = -1;
	size_t whole = strcspn(rest, ":");
	if (memchr(rest, '.', whole)) {
		/* a vendor's dotted name, whole: only aliases have dots */
		char *attrs = rest[whole] ? rest + whole + 1 : NULL;
		rest[whole] = '\0';
		r = find_event(rq, pname, rest, scope, &alias_attrs);
		if (r)
			rest[whole] = attrs ? ':' : '\0';
		else
			rest = attrs;
	}
	if (r) {
		char *name = strsep(&rest, ATTR_DELIMS);
		r = find_event(rq, pname, name, scope, &alias_attrs);
	}
	if (!r)
		r = run_stages(rq, alias_attrs, rest);
	free(copy);
	if (!r)
		err->code = 0, err->message[0] = '\0';
	return r;
}
