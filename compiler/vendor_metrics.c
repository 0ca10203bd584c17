/*
 * vendor_metrics.c - the vendors' metrics (vendor_metrics.h).
 *
 * A metric is kept as the vendor wrote it; its expression must read as
 * perf reads it (catalog/metric_expr.c), or the build stops naming the file
 * and the metric.  What the expression names is then looked up: another
 * metric of the µarch, one of perf's own names (duration_time, tsc, an
 * msr@...@ or a raw pmu@event\=...@ term), or an event of the µarch's
 * lists, its modifiers (:k, :percore) and its PMU (cpu_core@...@) aside.
 * A metric naming anything else is kept, marked with what it lacks.
 */
#include "compiler/vendor_metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/metric_expr.h"

static const char *const text_fields[] = { "MetricName", "MetricExpr", "BriefDescription", "PublicDescription",
					   "MetricGroup", "MetricThreshold", "ScaleUnit", "MetricConstraint",
					   "DefaultMetricgroupName", "Unit" };

/* FIELD of E, else of BASE; NULL when neither has it. */
static const char *field_of(json_t *e, json_t *base, const char *field)
{
	json_t *v = json_object_get(e, field);
	if (!v && base)
		v = json_object_get(base, field);
	return json_string_value(v);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

int vendor_metric_read(struct vendor_uarch *u, json_t *e, json_t *base, const char *file, int line, int column,
		       char **error)
{
	for (size_t i = 0; i < sizeof(text_fields) / sizeof(text_fields[0]); i++) {
		json_t *v = json_object_get(e, text_fields[i]);
		if (v && !json_is_string(v)) {
			*error = xprintf("%s:%d:%d: a metric's %s is not a string", file, line, column, text_fields[i]);
			return -1;
		}
	}
	const char *name = field_of(e, base, "MetricName"), *expr = field_of(e, base, "MetricExpr");
	if (!name || !expr) {
		*error = xprintf("%s:%d:%d: metric '%s' has no %s", file, line, column, name ? name : "?",
				 name ? "MetricExpr" : "MetricName");
		return -1;
	}
	struct metric_expr parsed;
	char why[256];
	if (metric_expr_parse(expr, &parsed, why, sizeof(why))) {
		*error = xprintf("%s:%d:%d: metric '%s': MetricExpr cannot be read as perf reads it: %s", file, line,
				 column, name, why);
		return -1;
	}
	metric_expr_free(&parsed);
	struct vendor_metric *m = vec_push(&u->metrics);
	m->name = xstrdup(name);
	m->expr = xstrdup(expr);
	const char *desc = field_of(e, base, "BriefDescription");
	m->description = xstrdup(desc ? desc : field_of(e, base, "PublicDescription") ? field_of(e, base, "PublicDescription")
					   : "");
	m->groups = dup_or_null(field_of(e, base, "MetricGroup"));
	m->threshold = dup_or_null(field_of(e, base, "MetricThreshold"));
	m->scale_unit = dup_or_null(field_of(e, base, "ScaleUnit"));
	m->constraint = dup_or_null(field_of(e, base, "MetricConstraint"));
	m->default_group = dup_or_null(field_of(e, base, "DefaultMetricgroupName"));
	m->unit = dup_or_null(field_of(e, base, "Unit"));
	m->file = xstrdup(file);
	m->line = line;
	m->column = column;
	return 0;
}

/* ---- what an expression names -------------------------------------------- */

/* perf's own names, which no list defines (tools/perf/util/tool_pmu.c,
 * and the msr PMU's tsc). */
static bool perf_name(const char *name)
{
	static const char *const own[] = { "duration_time", "user_time", "system_time", "tsc", "interval_ns" };
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (!strcasecmp(name, own[i]))
			return true;
	return false;
}

static bool is_metric(const struct vendor_uarch *u, const char *name)
{
	for (size_t i = 0; i < u->metrics.count; i++)
		if (!strcasecmp(u->metrics.items[i].name, name))
			return true;
	return false;
}

static bool is_event(const struct vendor_uarch *u, const char *name)
{
	for (size_t i = 0; i < u->events.count; i++)
		if (!strcasecmp(u->events.items[i].name, name))
			return true;
	for (size_t i = 0; i < u->uncore.count; i++)
		if (!strcasecmp(u->uncore.items[i].name, name))
			return true;
	return false;
}

/* Whether NAME, as an expression writes it, is known on U; *WHAT the
 * event looked for. */
static bool known(const struct vendor_uarch *u, const char *name, char *what, size_t n)
{
	snprintf(what, n, "%s", name);
	if (is_metric(u, name) || perf_name(name))
		return true;
	/* PMU@EVENT@: perf's cpu_core/EVENT/ (a raw term list, event=..., is
	 * an encoding of its own; msr@tsc@ and power@...@ perf's PMUs) */
	char *at = strchr(what, '@');
	if (at) {
		if (strchr(at, '=') || !strncmp(what, "msr@", 4) || !strncmp(what, "power@", 6))
			return true;
		memmove(what, at + 1, strlen(at + 1) + 1);
		what[strcspn(what, "@")] = '\0';
	}
	what[strcspn(what, ":")] = '\0';	/* its modifiers: :k, :percore */
	return is_event(u, what) || is_metric(u, what) || perf_name(what);
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether metrics A and B are one entry written twice in one file: every
 * field alike (amdzen4's recommended.json lists umc_cas_cmd_rate so). */
static bool same_metric(const struct vendor_metric *a, const struct vendor_metric *b)
{
	return !strcmp(a->name, b->name) && same_text(a->unit, b->unit) && !strcmp(a->file, b->file) &&
	       !strcmp(a->expr, b->expr) && same_text(a->description, b->description) &&
	       same_text(a->groups, b->groups) && same_text(a->threshold, b->threshold) &&
	       same_text(a->scale_unit, b->scale_unit) && same_text(a->constraint, b->constraint) &&
	       same_text(a->default_group, b->default_group);
}

/* Drops each metric of U that repeats an earlier one whole, with a note
 * where it is written again; metrics of one name that differ are kept. */
static void drop_repeated(struct model *m, struct vendor_uarch *u)
{
	size_t kept = 0;
	for (size_t k = 0; k < u->metrics.count; k++) {
		struct vendor_metric *v = &u->metrics.items[k];
		bool repeated = false;
		for (size_t j = 0; j < kept && !repeated; j++)
			repeated = same_metric(&u->metrics.items[j], v);
		if (repeated) {
			model_note(m, "%s:%d:%d: metric %s is listed twice, alike: the first is kept", v->file, v->line,
				   v->column, v->name);
			model_free_metric(v);
			continue;
		}
		u->metrics.items[kept++] = *v;
	}
	u->metrics.count = kept;
}

void vendor_metrics_check(struct model *m)
{
	for (size_t i = 0; i < m->uarchs.count; i++) {
		struct vendor_uarch *u = &m->uarchs.items[i];
		drop_repeated(m, u);
		size_t marked = 0;
		const char *example = NULL;
		for (size_t k = 0; k < u->metrics.count; k++) {
			struct vendor_metric *v = &u->metrics.items[k];
			struct metric_expr e;
			char why[256];
			if (metric_expr_parse(v->expr, &e, why, sizeof(why)))
				continue;	/* read once already */
			for (int n = 0; n < e.count && !v->missing; n++) {
				const struct metric_node *node = &e.nodes[n];
				char what[512];
				if (node->kind != METRIC_ID || known(u, metric_expr_name(&e, node), what, sizeof(what)))
					continue;
				v->missing = xprintf("names '%.200s', which is no event of %s's lists nor a metric", what,
						     u->name);
				marked++;
				if (!example)
					example = v->name;
			}
			metric_expr_free(&e);
		}
		if (marked)
			model_note(m, "vendor tree: µarch %s: %zu of %zu metrics name what its lists lack (%s ...): kept,"
				   " marked", u->name, marked, u->metrics.count, example);
	}
}
