/*
 * encode.c - pmudb_encode(): the string read once (runtime/fast/intake.c),
 * the express lane first (runtime/fast/express.c); what it declines is
 * cut up here and read the way libpfm reads it (runtime/encode/parse.c),
 * in a working copy, its event found through the event cache when it was
 * asked for before.  On a hybrid, an unprefixed name is tried on each core
 * type hybrid.c gives (pmudb_encode_each: every answer).
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/families.h"
#include "runtime/api/hybrid.h"
#include "runtime/encode/bare.h"
#include "runtime/encode/parse.h"
#include "runtime/encode/scan.h"
#include "runtime/encode/stages.h"
#include "runtime/fast/event_cache.h"
#include "runtime/fast/express.h"
#include "runtime/fast/intake.h"

/* Notes the event just found by PMU::NAME (PMU index INDEX), KEY the
 * hash of what was asked, in the event cache: where it was found by its
 * own names, not an alias's, nor as the number a PMU reads from its name. */
static void remember(struct request *rq, uint32_t key, const char *pname, const char *name)
{
	const struct pmu *p = rq->pmu;
	if ((p->family && p->family->names_are_numbers) || !same_name(p->name, pname) || !same_name(rq->ev->name, name))
		return;
	const struct bare_encoding *b = bare_read(p, rq->event_index);
	if (!b)
		b = stages_bare(rq);
	if (b)
		event_cache_add(rq->db, key, b);
}

/* The event the cache found, B's (its record is asked for next, by
 * stages_fetch). */
static void take_cached(struct request *rq, const struct bare_encoding *b)
{
	rq->pmu = b->pmu;
	rq->ev = b->ev;
	rq->event_index = b->index;
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
	if (cached) {
		take_cached(rq, cached);
	} else {
		r = parse_find_event(rq, sep ? copy : NULL, sep ? (size_t)(sep - copy) : 0, name, len, scope, &alias_attrs);
		if (!r && sep && !alias_attrs)
			remember(rq, key, copy, name);
	}
	if (r)
		return r;
	stages_fetch(rq->ev);
	return parse_run(rq, alias_attrs, rest);
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
	char *copy = parse_working_copy(event, len, buf, sizeof(buf), &heap);
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

/* SCOPE with the PMUs made from a vendor's list first, in their order, then
 * the others: a vendor's whole name is the CPU's own list's where a PMU it
 * stands on (libpfm's, reconciled with a sibling µarch's list) has the
 * name too (Westmere-EX's OFFCORE_RESPONSE.PF_DATA.ANY_CACHE_DRAM on
 * wsm_ex, not Westmere-EP's on wsm_dp). */
static void vendor_lists_first(struct pmudb *db, const struct pmudb_scope *scope, struct pmudb_scope *out)
{
	out->count = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < scope->count; i++) {
			const struct pmu *p = catalog_pmu(db, scope->pmus[i], NULL);
			bool from_list = p && p->source;
			if (from_list == (pass == 0))
				out->pmus[out->count++] = scope->pmus[i];
		}
}

/* For a CPU libpfm runs on a sibling µarch's table (Tiger Lake on icl),
 * whose own list stands after it in the scope (tgl): EVENT, unprefixed,
 * encoded in that list's PMU alone, where libpfm's PMU had the event but
 * refused the unit mask (EXE_ACTIVITY.BOUND_ON_LOADS).  0 with OUT
 * filled, or -1. */
static int own_list_retry(struct pmudb *db, const char *event, const struct pmudb_scope *scope,
			  struct pmudb_encoding *out)
{
	if (strstr(event, "::"))
		return -1;
	bool after_libpfm = false;
	for (int i = 0; i < scope->count; i++) {
		const struct pmu *p = catalog_pmu(db, scope->pmus[i], NULL);
		if (!p || strcmp(p->kind, "core"))
			continue;
		if (!p->source) {
			after_libpfm = true;
			continue;
		}
		struct pmudb_scope one = { 1, { scope->pmus[i] } };
		if (after_libpfm && !pmudb_encode(db, event, &one, out, NULL))
			return 0;
	}
	return -1;
}

/* When EVENT (no "pmu::") failed where libpfm looks it up: the first core
 * type of a hybrid's SCOPE that encodes it.  0 with OUT filled, or -1. */
static int hybrid_retry(pmudb_t *db, const char *event, const struct pmudb_scope *scope, struct pmudb_encoding *out)
{
	struct hybrid_types t;
	int types = hybrid_types(db, event, scope, &t);
	for (int k = 0; k < types; k++)
		if (!pmudb_encode(db, event, &t.scope[k], out, NULL))
			return 0;
	return -1;
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
		struct pmudb_scope lists_first;
		if (scope)
			vendor_lists_first(db, scope, &lists_first);
		int vendor = encode_string(db, event, &in, scope ? &lists_first : NULL, out, err, quiet, true, &dotted, NULL);
		if (vendor && vendor != PMUDB_ERR_CATALOG)
			*err = first;
		else
			r = vendor;
	}
	/* a hybrid's core type that has the name, where the first PMU with
	 * it (libpfm's answer) refused it */
	if (r && r != PMUDB_ERR_CATALOG && scope && !hybrid_retry(db, event, scope, out))
		r = 0;
	/* the CPU's own list, where libpfm's PMU it stands on refused */
	if (r && r != PMUDB_ERR_CATALOG && scope && !own_list_retry(db, event, scope, out))
		r = 0;
	if (r)
		out->fstr[0] = '\0';
	else
		err->code = 0, err->message[0] = '\0';
	return r;
}

int pmudb_encode_each(pmudb_t *db, const char *event, const struct pmudb_scope *scope,
		      struct pmudb_encoding *out, int max, struct pmudb_error *err)
{
	if (max < 1 || !out)
		return set_error(err, PMUDB_ERR_INVAL, "%s: room for %d encodings", pmudb_strerror(PMUDB_ERR_INVAL), max);
	/* the first answer as pmudb_encode gives it: libpfm's where libpfm
	 * answers, else the first core type's that has the name; then each
	 * other core type's */
	int r = pmudb_encode(db, event, scope, &out[0], err);
	if (r)
		return r;
	struct hybrid_types t;
	int types = hybrid_types(db, event, scope, &t), found = 1;
	for (int k = 0; k < types && found < max; k++) {
		/* the first answer's core type is answered already */
		if (!strcmp(out[0].pmu, t.pmu[k]))
			continue;
		struct pmudb_encoding *e = &out[found];
		if (pmudb_encode(db, event, &t.scope[k], e, NULL))
			continue;
		bool again = false;
		for (int i = 0; i < found && !again; i++)
			again = !strcmp(out[i].pmu, e->pmu);
		if (!again)
			found++;
	}
	return found;
}
