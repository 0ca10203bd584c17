/*
 * group.c - where events may be counted, and whether a group of them fits
 * (pmudb.h, pmudb_counters and pmudb_group).
 *
 * The facts are the catalog's counter_count and counter_rule tables
 * (catalog/schema.sql), read through SQL: a PMU's counters, and the
 * encodings (config under a mask) that may be counted on other counters
 * than "any general one".  A PMU without a counter_count row has libpfm's
 * numbers; a catalog built without vendor lists has neither table.  The
 * placing itself is group/schedule.c's.  The catalog is untrusted: a
 * count out of range or a mask naming a counter the PMU lacks is refused,
 * naming the row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "runtime/group/schedule.h"

#define PERF_TYPE_SOFTWARE_ 1
#define PERF_TYPE_TRACEPOINT_ 2
#define PERF_TYPE_HARDWARE_ 0
#define PERF_TYPE_HW_CACHE_ 3

static uint64_t all_of(int n)
{
	return n >= 64 ? ~0ULL : (1ULL << n) - 1;
}

static void copy_text(char *to, size_t size, const unsigned char *from)
{
	snprintf(to, size, "%s", from ? (const char *)from : "");
}

/* The counter_count row of PMU, or libpfm's numbers. */
static int read_count(pmudb_t *db, const char *pmu, bool tables, struct pmudb_counter_count *c,
		      struct pmudb_error *err)
{
	*c = (struct pmudb_counter_count){ .generic_smt_off = -1 };
	sqlite3_stmt *st = NULL;
	int r = 0;
	if (tables && sqlite3_prepare_v2(catalog_sql(db),
					 "SELECT generic, generic_smt_off, fixed, source FROM counter_count WHERE pmu = ?", -1,
					 &st, NULL) != SQLITE_OK)
		return set_error(err, PMUDB_ERR_CATALOG, "catalog: counter_count: %s", catalog_sql_error(db));
	if (st && sqlite3_bind_text(st, 1, pmu, -1, SQLITE_STATIC) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		int64_t generic = sqlite3_column_int64(st, 0), fixed = sqlite3_column_int64(st, 2);
		bool smt_null = sqlite3_column_type(st, 1) == SQLITE_NULL;
		int64_t smt = sqlite3_column_int64(st, 1);
		if (generic < 0 || generic > 64 || fixed < 0 || fixed > 32 || (!smt_null && (smt < 0 || smt > 64))
		    || !sqlite3_column_text(st, 3))
			r = set_error(err, PMUDB_ERR_CATALOG, "catalog: counter_count row of PMU %s is damaged", pmu);
		c->generic = (int)generic;
		c->fixed = (int)fixed;
		c->generic_smt_off = smt_null ? -1 : (int)smt;
		c->known = true;
		copy_text(c->source, sizeof(c->source), sqlite3_column_text(st, 3));
		sqlite3_finalize(st);
		return r;
	}
	sqlite3_finalize(st);
	int index = catalog_find_pmu(db, pmu, NULL);
	struct pmu *p = index >= 0 ? catalog_pmu(db, index, NULL) : NULL;
	if (p && p->num_counters > 0 && p->num_counters <= 64 && p->num_fixed_counters >= 0 && p->num_fixed_counters <= 32) {
		c->generic = p->num_counters;
		c->fixed = p->num_fixed_counters;
		c->known = true;
		if (p->like)
			snprintf(c->source, sizeof(c->source), "libpfm's %s, the PMU it is made like (num_cntrs, num_fixed_cntrs)",
				 p->like);
		else
			snprintf(c->source, sizeof(c->source), "libpfm (num_cntrs, num_fixed_cntrs)");
	}
	return 0;
}

/* The rule of PMU for CONFIG: of those whose mask matches it, the most
 * specific (the mask with the most bits; an uncore rule's upper unit-mask
 * bits make it negative as SQLite reads it, so the choice is made here). */
static int read_rule(pmudb_t *db, const char *pmu, uint64_t config, const struct pmudb_counter_count *c,
		     struct pmudb_counters *w, uint64_t *smt_off, struct pmudb_error *err)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(catalog_sql(db),
			       "SELECT counters, counters_smt_off, pebs_counters, fixed_counters, taken_alone, free_running,"
			       " event, source, config, mask FROM counter_rule WHERE pmu = ?1 AND (?2 & mask) = config",
			       -1, &st, NULL) != SQLITE_OK)
		return set_error(err, PMUDB_ERR_CATALOG, "catalog: counter_rule: %s", catalog_sql_error(db));
	int r = 0, best_bits = -1;
	sqlite3_bind_text(st, 1, pmu, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (int64_t)config);
	while (!r && sqlite3_step(st) == SQLITE_ROW) {
		int bits = __builtin_popcountll((uint64_t)sqlite3_column_int64(st, 9));
		if (bits <= best_bits)
			continue;
		best_bits = bits;
		uint64_t general = (uint64_t)sqlite3_column_int64(st, 0), fixed = (uint64_t)sqlite3_column_int64(st, 3);
		*smt_off = (uint64_t)sqlite3_column_int64(st, 1);
		w->pebs = (uint64_t)sqlite3_column_int64(st, 2);
		int64_t alone = sqlite3_column_int64(st, 4), free_running = sqlite3_column_int64(st, 5);
		if (fixed >> 32 || (c->known && (fixed & ~all_of(c->fixed))) || (alone != 0 && alone != 1)
		    || (free_running != 0 && free_running != 1) || !sqlite3_column_text(st, 6) || !sqlite3_column_text(st, 7))
			r = set_error(err, PMUDB_ERR_CATALOG, "catalog: counter_rule of PMU %s for config 0x%llx is damaged", pmu,
				      (unsigned long long)sqlite3_column_int64(st, 8));
		w->general = general;
		w->fixed = fixed;
		w->taken_alone = alone;
		w->free_running = free_running;
		w->stated = true;
		copy_text(w->event, sizeof(w->event), sqlite3_column_text(st, 6));
		copy_text(w->source, sizeof(w->source), sqlite3_column_text(st, 7));
	}
	sqlite3_finalize(st);
	return r;
}

static int counters_locked(pmudb_t *db, const struct pmudb_encoding *enc, bool smt_off, struct pmudb_counter_count *c,
			   struct pmudb_counters *w, struct pmudb_error *err)
{
	*w = (struct pmudb_counters){0};
	if (memchr(enc->pmu, '\0', sizeof(enc->pmu)) == NULL)
		return set_error(err, PMUDB_ERR_INVAL, "%s: the encoding's PMU name does not end", pmudb_strerror(PMUDB_ERR_INVAL));
	bool tables = catalog_has_table(db, "counter_rule") && catalog_has_table(db, "counter_count");
	int r = read_count(db, enc->pmu, tables, c, err);
	if (r)
		return r;
	if (enc->type == PERF_TYPE_SOFTWARE_ || enc->type == PERF_TYPE_TRACEPOINT_) {
		w->no_counter = true;
		snprintf(w->source, sizeof(w->source), "a software event: counted by the kernel, on no counter");
		return 0;
	}
	if (enc->type == PERF_TYPE_HARDWARE_ || enc->type == PERF_TYPE_HW_CACHE_) {
		w->no_counter = true;
		snprintf(w->source, sizeof(w->source),
			 "one of perf's generic events: the kernel chooses its encoding, not placed here");
		return 0;
	}
	uint64_t rule_smt_off = 0;
	if (tables && (r = read_rule(db, enc->pmu, enc->config, c, w, &rule_smt_off, err)))
		return r;
	int generic = smt_off && c->generic_smt_off > 0 ? c->generic_smt_off : c->generic;
	uint64_t general = smt_off && rule_smt_off ? rule_smt_off : w->general;
	/* a rule that states no general counter of an event counted on
	 * general ones (taken alone, PEBS only) leaves it on any */
	if (!general && !w->fixed && !w->free_running)
		general = all_of(generic);
	w->general = general & all_of(generic);
	if (w->free_running) {
		w->no_counter = true;
		w->general = 0;
	}
	if (!w->stated)
		snprintf(w->source, sizeof(w->source), "no list restricts it: any general counter");
	return 0;
}

int pmudb_counters(pmudb_t *db, const struct pmudb_encoding *enc, bool smt_off, struct pmudb_counter_count *pmu_counters,
		   struct pmudb_counters *where, struct pmudb_error *err)
{
	if (!db || !enc || !pmu_counters || !where)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog, encoding or result", pmudb_strerror(PMUDB_ERR_INVAL));
	pthread_mutex_lock(&db->lock);
	int r = counters_locked(db, enc, smt_off, pmu_counters, where, err);
	pthread_mutex_unlock(&db->lock);
	return r;
}

int pmudb_pmu_counters(pmudb_t *db, const char *pmu, struct pmudb_counter_count *count, struct pmudb_error *err)
{
	if (!db || !pmu || !count)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog, PMU or result", pmudb_strerror(PMUDB_ERR_INVAL));
	pthread_mutex_lock(&db->lock);
	bool tables = catalog_has_table(db, "counter_rule") && catalog_has_table(db, "counter_count");
	int r = read_count(db, pmu, tables, count, err);
	pthread_mutex_unlock(&db->lock);
	return r;
}

/* ---- groups -------------------------------------------------------------- */

#define PER_EVENT 8	/* encodings of one event: a hybrid's core types */

void pmudb_group_free(struct pmudb_group *g)
{
	if (!g)
		return;
	free(g->pmus);
	free(g->members);
	*g = (struct pmudb_group){0};
}

/* The members of one PMU, placed. */
static int place_pmu(struct pmudb_group *g, struct pmudb_group_pmu *p, const struct pmudb_group_options *o,
		     struct pmudb_error *err)
{
	struct pmudb_group_member *m = g->members + p->first;
	if (o && o->generic > 0) {
		p->count.generic = o->generic > 64 ? 64 : o->generic;
		p->count.fixed = o->fixed < 0 ? 0 : o->fixed > 32 ? 32 : o->fixed;
		p->count.known = true;
		snprintf(p->count.source, sizeof(p->count.source), "given (--counters)");
		for (int i = 0; i < p->n; i++) {
			if (!m[i].where.stated && !m[i].where.no_counter)
				m[i].where.general = all_of(p->count.generic);
			m[i].where.general &= all_of(p->count.generic);
			m[i].where.fixed &= all_of(p->count.fixed);
		}
	}
	bool needs = false;
	for (int i = 0; i < p->n; i++)
		needs |= !m[i].where.no_counter;
	if (needs && !p->count.known)
		return set_error(err, PMUDB_ERR_NOTSUPP,
				 "%s: how many counters PMU %s has is not in the catalog (no vendor list or table states it); "
				 "give them (--counters N[,F])",
				 pmudb_strerror(PMUDB_ERR_NOTSUPP), p->pmu);
	struct sched_event ev[SCHED_MAX_EVENTS];
	int counter[SCHED_MAX_EVENTS], part[SCHED_MAX_EVENTS];
	bool competes[SCHED_MAX_EVENTS];
	for (int i = 0; i < p->n; i++) {
		const struct pmudb_counters *w = &m[i].where;
		bool precise = m[i].enc.precise_ip > 0 && w->pebs;
		ev[i] = (struct sched_event){ .general = precise ? w->pebs & 0xffffffffULL & w->general : w->general,
					      .fixed = (uint32_t)(precise ? (w->pebs >> 32) & w->fixed : w->fixed),
					      .alone = w->taken_alone,
					      .no_counter = w->no_counter };
	}
	p->fits = sched_fits(ev, p->n, counter);
	p->could_fit = p->fits || sched_fits_exact(ev, p->n);
	p->competing_counters = p->fits ? 0 : sched_competing(ev, p->n, competes);
	p->parts = sched_split(ev, p->n, part, &p->exact);
	for (int i = 0; i < p->n; i++) {
		m[i].counter = p->fits ? counter[i] : -1;
		m[i].part = part[i];
		m[i].competes = !p->fits && competes[i];
	}
	return 0;
}

/* FLAT[*N]: ENC of event EVENT, where it may be counted, its PMU's
 * counters in COUNTS[*N]. */
static int add_member(pmudb_t *db, struct pmudb_group_member *flat, struct pmudb_counter_count *counts, int *n, int event,
		      const struct pmudb_encoding *enc, const struct pmudb_group_options *options, struct pmudb_error *err)
{
	flat[*n] = (struct pmudb_group_member){ .event = event, .enc = *enc, .counter = -1 };
	int r = pmudb_counters(db, enc, options && options->smt_off, &counts[*n], &flat[*n].where, err);
	(*n)++;
	return r;
}

/* Places FLAT[0..NFLAT) (their PMUs' counters in COUNTS): one group per
 * PMU, in the order the PMUs first appear, each PMU's members in the
 * order given. */
static int place_all(struct pmudb_group_member *flat, const struct pmudb_counter_count *counts, int nflat,
		     const struct pmudb_group_options *options, struct pmudb_group *out, struct pmudb_error *err)
{
	struct pmudb_group g = { .members = calloc((size_t)nflat + 1, sizeof(*g.members)),
				 .pmus = calloc((size_t)nflat + 1, sizeof(*g.pmus)) };
	bool *taken = calloc((size_t)nflat + 1, sizeof(*taken));
	int r = 0;
	if (!g.members || !g.pmus || !taken)
		r = set_error(err, PMUDB_ERR_NOMEM, "%s", pmudb_strerror(PMUDB_ERR_NOMEM));
	for (int i = 0; !r && i < nflat; i++) {
		if (taken[i])
			continue;
		struct pmudb_group_pmu *p = &g.pmus[g.npmus++];
		snprintf(p->pmu, sizeof(p->pmu), "%s", flat[i].enc.pmu);
		p->first = g.nmembers;
		for (int j = i; j < nflat; j++)
			if (!taken[j] && !strcmp(flat[j].enc.pmu, p->pmu)) {
				taken[j] = true;
				g.members[g.nmembers++] = flat[j];
				p->n++;
			}
		p->count = counts[i];
		r = place_pmu(&g, p, options, err);
	}
	free(taken);
	if (r) {
		pmudb_group_free(&g);
		return r;
	}
	*out = g;
	return 0;
}

int pmudb_group_encoded(pmudb_t *db, const struct pmudb_encoding *encs, int n, const struct pmudb_group_options *options,
			struct pmudb_group *out, struct pmudb_error *err)
{
	if (!db || !out || (n && !encs) || n < 0 || n > SCHED_MAX_EVENTS)
		return set_error(err, PMUDB_ERR_INVAL, "%s: a group is 0 to %d encodings", pmudb_strerror(PMUDB_ERR_INVAL),
				 SCHED_MAX_EVENTS);
	*out = (struct pmudb_group){0};
	struct pmudb_group_member *flat = calloc((size_t)n + 1, sizeof(*flat));
	struct pmudb_counter_count *counts = calloc((size_t)n + 1, sizeof(*counts));
	int nflat = 0;
	int r = flat && counts ? 0 : set_error(err, PMUDB_ERR_NOMEM, "%s", pmudb_strerror(PMUDB_ERR_NOMEM));
	for (int i = 0; !r && i < n; i++)
		r = add_member(db, flat, counts, &nflat, i, &encs[i], options, err);
	if (!r)
		r = place_all(flat, counts, nflat, options, out, err);
	free(flat);
	free(counts);
	return r;
}

int pmudb_group(pmudb_t *db, const char *const *events, int n, const struct pmudb_scope *scope,
		const struct pmudb_group_options *options, struct pmudb_group *out, struct pmudb_error *err)
{
	if (!db || !out || (n && !events) || n < 0 || n > SCHED_MAX_EVENTS / PER_EVENT)
		return set_error(err, PMUDB_ERR_INVAL, "%s: a group is 0 to %d events", pmudb_strerror(PMUDB_ERR_INVAL),
				 SCHED_MAX_EVENTS / PER_EVENT);
	*out = (struct pmudb_group){0};
	struct pmudb_group_member *flat = calloc((size_t)n * PER_EVENT + 1, sizeof(*flat));
	struct pmudb_counter_count *counts = calloc((size_t)n * PER_EVENT + 1, sizeof(*counts));
	int nflat = 0;
	int r = flat && counts ? 0 : set_error(err, PMUDB_ERR_NOMEM, "%s", pmudb_strerror(PMUDB_ERR_NOMEM));
	for (int i = 0; !r && i < n; i++) {
		struct pmudb_encoding encs[PER_EVENT];
		int k = pmudb_encode_each(db, events[i], scope, encs, PER_EVENT, err);
		if (k < 0)
			r = k;
		for (int j = 0; !r && j < k; j++)
			r = add_member(db, flat, counts, &nflat, i, &encs[j], options, err);
	}
	if (!r)
		r = place_all(flat, counts, nflat, options, out, err);
	free(flat);
	free(counts);
	return r;
}
