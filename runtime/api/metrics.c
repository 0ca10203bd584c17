/*
 * metrics.c - the vendors' metrics in the catalog: listing them for a
 * scope (pmudb_metrics) and computing one from counts taken anywhere
 * (pmudb_metric_eval).  The metric table is read through SQL; the catalog
 * is untrusted, so every expression is parsed again here
 * (catalog/metric_expr.c), bounded, and one that does not read is an error
 * naming the metric, never a guess.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "catalog/metric_expr.h"

/* How deep metrics may name metrics (the top-down tree is 6 deep). */
#define METRIC_NESTING 32

static const char *column_text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

/* Whether GROUPS (names joined by ';' or ',') has NAME. */
static bool in_groups(const char *groups, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = groups; p && *p;) {
		size_t len = strcspn(p, ";,");
		if (len == n && !strncasecmp(p, name, n))
			return true;
		p += len + (p[len] != '\0');
	}
	return false;
}

/* The scope's PMU names, into NAMES; their count. */
static int scope_names(pmudb_t *db, const struct pmudb_scope *scope, const char *names[PMUDB_SCOPE_MAX])
{
	int n = 0;
	for (int i = 0; scope && i < scope->count && i < PMUDB_SCOPE_MAX; i++) {
		struct pmudb_pmu_info info;
		if (!pmudb_pmu_info(db, scope->pmus[i], &info))
			names[n++] = info.name;
	}
	return n;
}

int pmudb_metrics(pmudb_t *db, const struct pmudb_scope *scope, const char *name, pmudb_metric_fn found, void *ctx,
		  struct pmudb_error *err)
{
	if (!db || !found || (scope && (scope->count < 0 || scope->count > PMUDB_SCOPE_MAX)))
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog, callback or a scope out of range",
				 pmudb_strerror(PMUDB_ERR_INVAL));
	const char *pmus[PMUDB_SCOPE_MAX];
	int npmus = scope_names(db, scope, pmus);
	sqlite3_stmt *st;
	pthread_mutex_lock(&db->lock);
	if (sqlite3_prepare_v2(catalog_sql(db),
			       "SELECT pmu, uarch, name, description, expr, groups, threshold, scale_unit, constraint_, missing,"
			       " source FROM metric WHERE ?1 IS NULL OR name = ?1 COLLATE NOCASE"
			       " OR groups LIKE '%' || ?1 || '%' ORDER BY name COLLATE NOCASE, id", -1, &st, NULL)
		!= SQLITE_OK) {
		int r = set_error(err, PMUDB_ERR_CATALOG, "%s: cannot read its metrics: %s", db->what,
				  catalog_sql_error(db));
		pthread_mutex_unlock(&db->lock);
		return r;
	}
	/* the name asked is found by SQLite, checked again below (the catalog
	 * is untrusted); rows are read into a list first: the callback may use
	 * the handle */
	if (name)
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	struct row { struct pmudb_metric m; char *text[11]; };
	struct row *rows = NULL;
	int count = 0, r = 0, rc;
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *pmu = column_text(st, 0), *mname = column_text(st, 2), *groups = column_text(st, 5);
		if (!column_text(st, 1) || !mname || !column_text(st, 3) || !column_text(st, 4) || !column_text(st, 10)) {
			r = set_error(err, PMUDB_ERR_CATALOG, "%s: a metric row with its name, µarch, description,"
				      " expression or source missing", db->what);
			break;
		}
		bool mine = !scope;
		for (int i = 0; !mine && pmu && i < npmus; i++)
			mine = !strcasecmp(pmus[i], pmu);
		if (!mine || (name && strcasecmp(name, mname) && !in_groups(groups, name)))
			continue;
		struct row *more = realloc(rows, (size_t)(count + 1) * sizeof(*rows));
		if (!more) {
			r = set_error(err, PMUDB_ERR_NOMEM, "out of memory listing metrics");
			break;
		}
		rows = more;
		struct row *w = &rows[count++];
		memset(w, 0, sizeof(*w));
		for (int c = 0; c < 11; c++)
			w->text[c] = column_text(st, c) ? strdup(column_text(st, c)) : NULL;
		w->m = (struct pmudb_metric){ w->text[0], w->text[1], w->text[2], w->text[3], w->text[4], w->text[5],
					      w->text[6], w->text[7], w->text[8], w->text[9], w->text[10] };
	}
	if (!r && rc != SQLITE_DONE)
		r = set_error(err, PMUDB_ERR_CATALOG, "%s: cannot read its metrics: %s", db->what, catalog_sql_error(db));
	sqlite3_finalize(st);
	pthread_mutex_unlock(&db->lock);
	for (int i = 0; i < count; i++) {
		bool whole = rows[i].text[1] && rows[i].text[2] && rows[i].text[3] && rows[i].text[4] && rows[i].text[10];
		if (!r && !whole)
			r = set_error(err, PMUDB_ERR_NOMEM, "out of memory listing metrics");
		if (!r && found(ctx, &rows[i].m))
			r = 1;	/* stopped by the caller */
		for (int c = 0; c < 11; c++)
			free(rows[i].text[c]);
	}
	free(rows);
	return r < 0 ? r : count;
}

/* ---- computing ------------------------------------------------------------ */

struct evaluation {
	pmudb_t *db;
	const struct pmudb_scope *scope;
	pmudb_count_fn count;
	void *ctx;
	int depth;
	const char *chain[METRIC_NESTING];
	struct pmudb_error *err;
	int failed;
};

/* The metric of exactly that name: its name, expression and threshold
 * (NULL: none), copied. */
struct named {
	const char *name;
	char *found, *expr, *threshold;
	bool failed;
};

static int take_named(void *ctx, const struct pmudb_metric *m)
{
	struct named *want = ctx;
	if (want->found || strcasecmp(m->name, want->name))
		return 0;	/* a group of that name: not it */
	want->found = strdup(m->name);
	want->expr = strdup(m->expr);
	want->threshold = m->threshold ? strdup(m->threshold) : NULL;
	want->failed = !want->found || !want->expr || (m->threshold && !want->threshold);
	return 1;
}

static void free_named(struct named *n)
{
	free(n->found);
	free(n->expr);
	free(n->threshold);
}

static int compute(struct evaluation *ev, const char *name, double *out);

/* What a node is asked as: its name, or a query's call ("source_count(X)"). */
static void asked_name(const struct metric_node *node, const char *name, char *out, size_t n)
{
	if (node->kind == METRIC_QUERY)
		snprintf(out, n, "%s(%s)", node->op == 's' ? "source_count" : node->op == 'h' ? "has_event"
					   : "strcmp_cpuid_str", name);
	else
		snprintf(out, n, "%s", name);
}

static int value_of(void *ctx, const struct metric_node *node, const char *name, double *value)
{
	struct evaluation *ev = ctx;
	char asked[600];
	asked_name(node, name, asked, sizeof(asked));
	if (!ev->count(ev->ctx, asked, value))
		return 0;
	/* not counted: another metric of the scope (the top-down tree) */
	if (node->kind == METRIC_ID)
		return compute(ev, name, value);
	ev->failed = set_error(ev->err, PMUDB_ERR_NOTFOUND, "metric %s needs a value for '%.200s', which the counts"
			       " do not give", ev->chain[0], asked);
	return ev->failed;
}

/* Metric NAME of the scope, looked up into *WANT; 0, or an error. */
static int look_up(struct evaluation *ev, const char *name, struct named *want)
{
	for (int i = 0; i < ev->depth; i++)
		if (!strcasecmp(ev->chain[i], name))
			return ev->failed = set_error(ev->err, PMUDB_ERR_CATALOG, "metric %s names itself through %s",
						      ev->chain[0], name);
	if (ev->depth == METRIC_NESTING)
		return ev->failed = set_error(ev->err, PMUDB_ERR_CATALOG, "metric %s names metrics %d deep",
					      ev->chain[0], METRIC_NESTING);
	*want = (struct named){ name, NULL, NULL, NULL, false };
	int r = pmudb_metrics(ev->db, ev->scope, name, take_named, want, ev->err);
	if (r < 0)
		return ev->failed = r;
	if (want->failed) {
		free_named(want);
		return ev->failed = set_error(ev->err, PMUDB_ERR_NOMEM, "out of memory computing metric %s", name);
	}
	if (!want->found) {
		if (ev->depth == 0)
			return ev->failed = set_error(ev->err, PMUDB_ERR_NOTFOUND, "no metric %.200s for these PMUs", name);
		return ev->failed = set_error(ev->err, PMUDB_ERR_NOTFOUND, "metric %s needs a value for '%.200s', which"
					      " the counts do not give", ev->chain[0], name);
	}
	return 0;
}

/* TEXT, an expression of metric WANT (its own, or its threshold), as LABEL
 * in the chain of metrics being computed. */
static int evaluate(struct evaluation *ev, const struct named *want, const char *label, const char *text, double *out)
{
	struct metric_expr e;
	char why[256];
	if (metric_expr_parse(text, &e, why, sizeof(why)))
		return ev->failed = set_error(ev->err, PMUDB_ERR_CATALOG, "%s: metric %s: an expression that does not"
					      " read: %s", ev->db->what, want->found, why);
	ev->chain[ev->depth++] = label;
	int r = metric_expr_eval(&e, value_of, ev, out);
	ev->depth--;
	if (r && !ev->failed)
		ev->failed = set_error(ev->err, PMUDB_ERR_INVAL, "metric %s: a remainder ('%%') by zero", want->found);
	metric_expr_free(&e);
	return r ? ev->failed : 0;
}

static int compute(struct evaluation *ev, const char *name, double *out)
{
	struct named want;
	int r = look_up(ev, name, &want);
	if (!r)
		r = evaluate(ev, &want, want.found, want.expr, out);
	free_named(&want);
	return r;
}

int pmudb_metric_eval(pmudb_t *db, const struct pmudb_scope *scope, const char *name, pmudb_count_fn count, void *ctx,
		      double *value, struct pmudb_error *err)
{
	if (!db || !name || !count || !value)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog, metric name, counts or result",
				 pmudb_strerror(PMUDB_ERR_INVAL));
	struct evaluation ev = { .db = db, .scope = scope, .count = count, .ctx = ctx, .err = err };
	return compute(&ev, name, value);
}

int pmudb_metric_eval_expr(pmudb_t *db, const struct pmudb_scope *scope, const char *expr, pmudb_count_fn count,
			   void *ctx, double *value, struct pmudb_error *err)
{
	if (!db || !expr || !count || !value)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog, expression, counts or result",
				 pmudb_strerror(PMUDB_ERR_INVAL));
	struct evaluation ev = { .db = db, .scope = scope, .count = count, .ctx = ctx, .err = err };
	struct named given = { "the expression", (char *)"the expression", NULL, NULL, false };
	return evaluate(&ev, &given, given.found, expr, value);
}

int pmudb_metric_threshold(pmudb_t *db, const struct pmudb_scope *scope, const char *name, pmudb_count_fn count,
			   void *ctx, int *crossed, struct pmudb_error *err)
{
	if (!db || !name || !count || !crossed)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog, metric name, counts or result",
				 pmudb_strerror(PMUDB_ERR_INVAL));
	struct evaluation ev = { .db = db, .scope = scope, .count = count, .ctx = ctx, .err = err };
	struct named want;
	int r = look_up(&ev, name, &want);
	double v = 0;
	*crossed = -1;
	/* its threshold names its own value: no circle */
	char label[300];
	snprintf(label, sizeof(label), "%.200s's threshold", name);
	if (!r && want.threshold && !(r = evaluate(&ev, &want, label, want.threshold, &v)))
		*crossed = isnan(v) ? -1 : fpclassify(v) != FP_ZERO;
	free_named(&want);
	return r;
}

int pmudb_metric_terms(const char *expr, pmudb_term_fn found, void *ctx, struct pmudb_error *err)
{
	if (!expr || !found)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no expression or callback", pmudb_strerror(PMUDB_ERR_INVAL));
	struct metric_expr e;
	char why[256];
	if (metric_expr_parse(expr, &e, why, sizeof(why)))
		return set_error(err, PMUDB_ERR_INVAL, "the expression does not read: %s", why);
	int r = 0;
	for (int i = 0; !r && i < e.count; i++) {
		const struct metric_node *n = &e.nodes[i];
		if (n->kind != METRIC_ID && n->kind != METRIC_LITERAL && n->kind != METRIC_QUERY)
			continue;
		char name[600];
		asked_name(n, metric_expr_name(&e, n), name, sizeof(name));
		bool seen = false;
		for (int k = 0; k < i && !seen; k++) {
			const struct metric_node *o = &e.nodes[k];
			seen = o->kind == n->kind && o->op == n->op && o->name >= 0
			       && !strcmp(metric_expr_name(&e, o), metric_expr_name(&e, n));
		}
		if (!seen)
			r = found(ctx, name, n->kind == METRIC_ID ? 'i' : n->kind == METRIC_LITERAL ? 'l' : 'q');
	}
	metric_expr_free(&e);
	return r;
}
