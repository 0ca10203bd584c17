/*
 * stat_metrics.c - pmudb stat -M (stat_metrics.h).
 *
 * A metric's expression names events, other metrics (computed from their
 * own events: the top-down tree) and values of the machine (#smt_on).
 * Each event is counted once however many metrics name it, as the string
 * pmudb encodes: EVENT on the metric's own PMU first (a hybrid's core
 * type; perf's cpu_core@EVENT@ is EVENT there), else EVENT where the
 * selected PMUs have it (an uncore event).  Values of the machine come from
 * sysfs and sysconf, as perf's expr.c takes them; one pmudb cannot know
 * (#system_tsc_freq) leaves the metrics that need it without a value,
 * said on their line.
 */
#include "cli/stat_metrics.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* How deep metrics may name metrics (the top-down tree is 6 deep). */
#define NESTING 32

struct metric {
	char *name, *pmu, *uarch, *scale_unit;
	char *unavailable;	/* why it cannot be counted here, or NULL */
};

/* An event as an expression writes it, and the event counted for it. */
struct term {
	char *written;
	int event;
};

struct stat_metrics {
	struct cli *c;
	struct metric *metrics;
	int nmetrics;
	char **events;
	int nevents;
	struct term *terms;
	int nterms;
	bool failed;
};

static char *copy(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* ---- the metrics asked for ------------------------------------------------- */

static int take_metric(void *ctx, const struct pmudb_metric *pm)
{
	struct stat_metrics *m = ctx;
	for (int i = 0; i < m->nmetrics; i++)
		if (!strcasecmp(m->metrics[i].name, pm->name))
			return 0;	/* asked twice (by name and by group) */
	struct metric *more = realloc(m->metrics, (size_t)(m->nmetrics + 1) * sizeof(*more));
	if (!more) {
		m->failed = true;
		return 1;
	}
	m->metrics = more;
	more[m->nmetrics++] = (struct metric){ copy(pm->name), copy(pm->pmu), copy(pm->uarch), copy(pm->scale_unit), NULL };
	return 0;
}

/* ---- the events they need ---------------------------------------------------- */

static int event_index(struct stat_metrics *m, const char *event)
{
	for (int i = 0; i < m->nevents; i++)
		if (!strcmp(m->events[i], event))
			return i;
	char **more = realloc(m->events, (size_t)(m->nevents + 1) * sizeof(*more));
	if (!more || !(more[m->nevents] = strdup(event))) {
		if (more)
			m->events = more;
		return -1;
	}
	m->events = more;
	return m->nevents++;
}

static int term_of(const struct stat_metrics *m, const char *written)
{
	for (int i = 0; i < m->nterms; i++)
		if (!strcmp(m->terms[i].written, written))
			return i;
	return -1;
}

/* perf's own names: values of the run, not events */
static bool run_value(const char *name)
{
	return !strcasecmp(name, "duration_time") || !strcasecmp(name, "user_time")
	       || !strcasecmp(name, "system_time");
}

struct walk {
	struct stat_metrics *m;
	const char *pmu;		/* the metric's own PMU */
	const char *uarch;		/* its µarch, "x86/emeraldrapids" */
	const char *metric;		/* the metric asked for, for messages */
	int depth;
	bool failed;
	char why[700];			/* failed: why */
};

static int walk_expr(struct walk *w, const char *expr);

static int expr_of(void *ctx, const struct pmudb_metric *pm)
{
	char **expr = ((void **)ctx)[0];
	const char *name = ((void **)ctx)[1];
	if (!*expr && !strcasecmp(pm->name, name))
		*expr = strdup(pm->expr);
	return 0;
}

static int walk_term(void *ctx, const char *name, char kind)
{
	struct walk *w = ctx;
	struct stat_metrics *m = w->m;
	if (kind != 'i' || run_value(name) || term_of(m, name) >= 0)
		return 0;
	/* another metric: its own events */
	char *expr = NULL;
	void *args[2] = { &expr, (void *)name };
	struct pmudb_error err;
	if (pmudb_metrics(m->c->db, cli_scope(m->c), name, expr_of, args, &err) < 0) {
		snprintf(w->why, sizeof(w->why), "%.600s", err.message);
		return w->failed = true;
	}
	if (expr) {
		int r = 0;
		if (w->depth < NESTING) {	/* deeper: pmudb_metric_eval says so */
			w->depth++;
			r = walk_expr(w, expr);
			w->depth--;
		}
		free(expr);
		return r;
	}
	/* an event: on the metric's PMU (pmu@EVENT@ is EVENT), else on a PMU
	 * of its µarch (an uncore box), else where the selected PMUs have it;
	 * counted by its whole name, PMU::EVENT */
	char event[600], own[700], chosen_name[700];
	const char *at = strchr(name, '@');
	snprintf(event, sizeof(event), "%s", at && !strchr(at, '=') ? at + 1 : name);
	event[strcspn(event, "@")] = '\0';
	snprintf(own, sizeof(own), "%s::%s", w->pmu ? w->pmu : "", event);
	struct pmudb_encoding enc;
	struct pmudb_scope uarch;
	const char *folder = w->uarch && strchr(w->uarch, '/') ? strchr(w->uarch, '/') + 1 : NULL;
	const char *chosen = NULL;
	if (w->pmu && !pmudb_encode(m->c->db, own, NULL, &enc, &err))
		chosen = own;
	else if ((folder && !pmudb_scope_pmu(m->c->db, folder, &uarch, NULL)
		  && !pmudb_encode(m->c->db, event, &uarch, &enc, &err))
		 || !pmudb_encode(m->c->db, event, cli_scope_for(m->c, event), &enc, &err)) {
		snprintf(chosen_name, sizeof(chosen_name), "%s::%s", enc.pmu, event);
		chosen = chosen_name;
	}
	if (!chosen) {
		snprintf(w->why, sizeof(w->why), "it needs '%.100s', which does not encode here: %.250s", name, err.message);
		return w->failed = true;
	}
	struct term *more = realloc(m->terms, (size_t)(m->nterms + 1) * sizeof(*more));
	int e = more ? event_index(m, chosen) : -1;
	if (more)
		m->terms = more;
	if (e < 0 || !(more[m->nterms].written = strdup(name))) {
		snprintf(w->why, sizeof(w->why), "out of memory");
		return w->failed = true;
	}
	more[m->nterms++].event = e;
	return 0;
}

static int walk_expr(struct walk *w, const char *expr)
{
	struct pmudb_error err;
	if (pmudb_metric_terms(expr, walk_term, w, &err) && !w->failed) {
		snprintf(w->why, sizeof(w->why), "%.600s", err.message);
		w->failed = true;
	}
	return w->failed;
}

struct stat_metrics *stat_metrics_open(struct cli *c, char *const *names, int n)
{
	struct stat_metrics *m = calloc(1, sizeof(*m));
	if (!m) {
		fputs("pmudb stat: out of memory\n", stderr);
		return NULL;
	}
	m->c = c;
	struct pmudb_error err;
	for (int i = 0; i < n && !m->failed; i++) {
		int found = pmudb_metrics(c->db, cli_scope(c), names[i], take_metric, m, &err);
		if (found < 0 || !found) {
			if (found < 0)
				fprintf(stderr, "pmudb stat: -M %s: %s\n", names[i], err.message);
			else
				fprintf(stderr, "pmudb stat: -M %s: no metric or group of that name for these PMUs (pmudb"
					" metrics lists them)\n", names[i]);
			m->failed = true;
		}
	}
	/* a metric whose events cannot all be had here is left out (its events
	 * too) and says why where the values are printed */
	int available = 0;
	const char *first_why = NULL, *first_name = NULL;
	for (int i = 0; i < m->nmetrics && !m->failed; i++) {
		char *expr = NULL;
		void *args[2] = { &expr, m->metrics[i].name };
		struct walk w = { m, m->metrics[i].pmu, m->metrics[i].uarch, m->metrics[i].name, 0, false, "" };
		int nterms = m->nterms, nevents = m->nevents;
		if (pmudb_metrics(c->db, cli_scope(c), m->metrics[i].name, expr_of, args, &err) < 0 || !expr)
			snprintf(w.why, sizeof(w.why), "its expression cannot be read"), w.failed = true;
		else
			walk_expr(&w, expr);
		free(expr);
		if (!w.failed) {
			available++;
			continue;
		}
		while (m->nterms > nterms)
			free(m->terms[--m->nterms].written);
		while (m->nevents > nevents)
			free(m->events[--m->nevents]);
		m->metrics[i].unavailable = strdup(w.why);
		if (!m->metrics[i].unavailable)
			m->failed = true;
		else if (!first_why)
			first_why = m->metrics[i].unavailable, first_name = m->metrics[i].name;
	}
	if (!m->failed && !available) {
		fprintf(stderr, "pmudb stat: -M %s: %s\n", first_name, first_why);
		m->failed = true;
	}
	if (m->failed) {
		stat_metrics_free(m);
		return NULL;
	}
	return m;
}

void stat_metrics_free(struct stat_metrics *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nmetrics; i++) {
		free(m->metrics[i].name);
		free(m->metrics[i].pmu);
		free(m->metrics[i].uarch);
		free(m->metrics[i].scale_unit);
		free(m->metrics[i].unavailable);
	}
	for (int i = 0; i < m->nevents; i++)
		free(m->events[i]);
	for (int i = 0; i < m->nterms; i++)
		free(m->terms[i].written);
	free(m->metrics);
	free(m->events);
	free(m->terms);
	free(m);
}

int stat_metrics_events(const struct stat_metrics *m)
{
	return m->nevents;
}

const char *stat_metrics_event(const struct stat_metrics *m, int i)
{
	return i >= 0 && i < m->nevents ? m->events[i] : NULL;
}

/* ---- computing ---------------------------------------------------------------- */

/* The distinct values of a topology file over the CPUs (physical_package_id:
 * #num_packages), or 0 when sysfs does not say. */
static int distinct_topology(const char *file)
{
	int seen[256], n = 0;
	DIR *d = opendir("/sys/devices/system/cpu");
	for (struct dirent *e; d && (e = readdir(d));) {
		if (strncmp(e->d_name, "cpu", 3) || !strchr("0123456789", e->d_name[3]))
			continue;
		char path[512];
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s/topology/%s", e->d_name, file);
		FILE *f = fopen(path, "r");
		int id;
		if (!f)
			continue;
		if (fscanf(f, "%d", &id) == 1) {
			bool have = false;
			for (int k = 0; k < n && !have; k++)
				have = seen[k] == id;
			if (!have && n < 256)
				seen[n++] = id;
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

struct computing {
	struct stat_metrics *m;
	stat_count_fn count;
	void *ctx;
	const struct stat_context *sc;
	const char *lacking;		/* the value a metric could not have */
};

static int value_of(void *ctx, const char *name, double *value)
{
	struct computing *cp = ctx;
	int t = term_of(cp->m, name);
	if (t >= 0)
		return cp->count(cp->ctx, cp->m->terms[t].event, value) ? 0 : (cp->lacking = "a count", -1);
	if (!strcasecmp(name, "duration_time")) {
		*value = cp->sc->elapsed * 1e9;
		return 0;
	}
	if (!strcmp(name, "#smt_on")) {
		*value = cli_smt_active() == 1;
		return 0;
	}
	if (!strcmp(name, "#core_wide")) {
		*value = cp->sc->system_wide || cli_smt_active() != 1;
		return 0;
	}
	if (!strcmp(name, "#num_cpus_online") || !strcmp(name, "#num_cpus")) {
		long n = sysconf(!strcmp(name, "#num_cpus") ? _SC_NPROCESSORS_CONF : _SC_NPROCESSORS_ONLN);
		*value = n > 0 ? (double)n : 1;
		return 0;
	}
	if (!strcmp(name, "#num_packages") || !strcmp(name, "#num_dies")) {
		int n = distinct_topology(!strcmp(name, "#num_packages") ? "physical_package_id" : "die_id");
		*value = n > 0 ? n : 1;
		return 0;
	}
	if (!strncmp(name, "source_count(", 13)) {
		*value = 1;	/* one count per name: its boxes are summed */
		return 0;
	}
	if (!strncmp(name, "has_event(", 10)) {
		char inner[600];
		snprintf(inner, sizeof(inner), "%.*s", (int)strlen(name) - 11, name + 10);
		*value = term_of(cp->m, inner) >= 0;
		return 0;
	}
	/* not counted here: another metric (computed by the library), or a
	 * value pmudb does not know (#system_tsc_freq) */
	cp->lacking = name;
	return -1;
}

void stat_metrics_print(struct stat_metrics *m, FILE *f, bool json, stat_count_fn count, void *ctx,
			const struct stat_context *sc)
{
	if (json)
		fputc('[', f);
	else
		fprintf(f, "#%19s %-8s %s\n", "metric", "unit", "name");
	for (int i = 0; i < m->nmetrics; i++) {
		const struct metric *mt = &m->metrics[i];
		struct computing cp = { m, count, ctx, sc, NULL };
		struct pmudb_error err;
		double v = NAN;
		const char *unit;
		double scale = cli_scale_unit(mt->scale_unit, &unit);
		int r = mt->unavailable ? PMUDB_ERR_NOTFOUND
			: pmudb_metric_eval(m->c->db, cli_scope(m->c), mt->name, value_of, &cp, &v, &err);
		if (mt->unavailable)
			snprintf(err.message, sizeof(err.message), "%s", mt->unavailable);
		int crossed = -1;
		if (!r && pmudb_metric_threshold(m->c->db, cli_scope(m->c), mt->name, value_of, &cp, &crossed, &err))
			crossed = -1;
		if (json) {
			fputs(i ? ",{\"name\":" : "{\"name\":", f);
			json_quoted(f, mt->name);
			fputs(",\"value\":", f);
			cli_json_number(f, r ? NAN : v);
			fputs(",\"scaled\":", f);
			cli_json_number(f, r ? NAN : v * scale);
			fputs(",\"unit\":", f);
			json_quoted(f, unit);
			fprintf(f, ",\"threshold\":%s", crossed < 0 ? "null" : crossed ? "true" : "false");
			if (r) {
				fputs(",\"error\":", f);
				json_quoted(f, err.message);
			}
			fputc('}', f);
		} else if (r) {
			fprintf(f, " %19s %-8s %s: %s\n", "n/a", unit, mt->name, err.message);
		} else {
			fprintf(f, " %19.6g %-8s %s%s\n", v * scale, unit, mt->name,
				crossed == 1 ? "  (over its threshold)" : "");
		}
	}
	if (json)
		fputc(']', f);
}
