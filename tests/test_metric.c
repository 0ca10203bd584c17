/*
 * test_metric.c - the vendors' metrics in the catalog, computed as perf
 * computes them.
 *
 * The oracle is perf's own parser of metric expressions, metric.py of
 * linux-source-6.12 (tests/metric_truth.py computes each metric's parse
 * tree on three seeded vectors of made-up counts): every metric of the tree
 * `make` used is found in the catalog and computes to the same value
 * through pmudb_metric_eval_expr, and through pmudb_metric_eval by its
 * name where its PMU has one metric of the name (NaN where perf divides by
 * zero).  Then the commands: `metrics` lists a
 * group, `metric eval` computes from a JSON file of counts, and refuses a
 * bad file, an unknown metric and a missing count in one line each.
 */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "pmudb.h"
#include "tests/testlib.h"

static pmudb_t *db;
static char *catalog, *tmp;

static int setup(void **state)
{
	(void)state;
	catalog = test_build_path("pmudb.db");
	tmp = test_tempdir();
	struct pmudb_error err;
	db = pmudb_open(catalog, &err);
	return db == NULL;
}

static int teardown(void **state)
{
	(void)state;
	pmudb_close(db);
	test_rmtree(tmp);
	free(tmp);
	free(catalog);
	return 0;
}

/* The made-up counts of metric_truth.py: FNV-1a of "SEED:NAME" modulo
 * 100000, plus 1, or 0 when the hash is a multiple of 11. */
static const char *seed = "0";

static double made_up(const char *name)
{
	char keyed[700];
	snprintf(keyed, sizeof(keyed), "%s:%s", seed, name);
	uint32_t h = 0x811c9dc5u;
	for (const unsigned char *p = (const unsigned char *)keyed; *p; p++)
		h = (h ^ *p) * 0x01000193u;
	return h % 11 == 0 ? 0.0 : (double)(h % 100000 + 1);
}

/* Every name counts: "source_count(X)" as metric_truth.py's "s:X". */
static int made_up_count(void *ctx, const char *name, double *value)
{
	(void)ctx;
	static const struct { const char *call, *key; } queries[] = {
		{ "source_count(", "s:" }, { "has_event(", "h:" }, { "strcmp_cpuid_str(", "c:" },
	};
	for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++) {
		size_t n = strlen(queries[i].call), len = strlen(name);
		if (!strncmp(name, queries[i].call, n) && len > n && name[len - 1] == ')') {
			char key[600];
			snprintf(key, sizeof(key), "%s%.*s", queries[i].key, (int)(len - n - 1), name + n);
			*value = made_up(key);
			return 0;
		}
	}
	*value = made_up(name);
	return 0;
}

/* The catalog's metric of one name, source file and expression (a
 * hybrid's file holds a metric of the name for each core type). */
struct lookup {
	const char *source, *expr;
	char pmu[64];
	int found, same_name;
};

static int take_metric(void *ctx, const struct pmudb_metric *m)
{
	struct lookup *l = ctx;
	if (!strcmp(m->source, l->source) && !strcmp(m->expr, l->expr) && m->pmu && !l->found++)
		snprintf(l->pmu, sizeof(l->pmu), "%s", m->pmu);
	return 0;
}

static int count_same(void *ctx, const struct pmudb_metric *m)
{
	(void)m;
	(*(int *)ctx)++;
	return 0;
}

static void test_every_metric_computes_as_perf_reads_it(void **state)
{
	(void)state;
	const char *tree = getenv("PMUDB_PMU_EVENTS");
	char metric_py[1024], cmd[4096];
	snprintf(metric_py, sizeof(metric_py), "%s/../metric.py", tree ? tree : ".");
	if (!tree || access(metric_py, R_OK)) {
		print_message("SKIP: needs $PMUDB_PMU_EVENTS with perf's metric.py beside it\n");
		return;
	}
	snprintf(cmd, sizeof(cmd), "python3 tests/metric_truth.py '%s' '%s/..' 0 1 2", tree, tree);
	FILE *truth = popen(cmd, "r");
	assert_non_null(truth);
	char line[65536];
	int rows = 0, equal = 0, nan_both = 0, no_pmu = 0, errors = 0, by_name = 0, lines = 0;
	while (fgets(line, sizeof(line), truth)) {
		if (lines++ % test_sample_step())
			continue;	/* under the sanitizers, a sample */
		char *field[5] = { 0 };
		char *p = line;
		line[strcspn(line, "\n")] = '\0';
		for (int i = 0; i < 5 && p; i++) {
			field[i] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		assert_non_null(field[4]);
		rows++;
		seed = field[0];
		struct pmudb_error err;
		json_error_t jerr;
		json_t *expr = json_loads(field[4], JSON_DECODE_ANY, &jerr);
		assert_non_null(json_string_value(expr));
		/* the catalog's metric, looked up once for the seeds of a line */
		static char last[3][4096];
		static struct lookup l;
		static struct pmudb_scope scope;
		static int same;
		if (strcmp(last[0], field[1]) || strcmp(last[1], field[2]) || strcmp(last[2], json_string_value(expr))) {
			snprintf(last[0], sizeof(last[0]), "%s", field[1]);
			snprintf(last[1], sizeof(last[1]), "%s", field[2]);
			snprintf(last[2], sizeof(last[2]), "%s", json_string_value(expr));
			l = (struct lookup){ last[0], last[2], "", 0, 0 };
			assert_true(pmudb_metrics(db, NULL, field[2], take_metric, &l, &err) >= 0);
			same = 0;
			if (l.found) {
				assert_int_equal(pmudb_scope_pmu(db, l.pmu, &scope, &err), 0);
				assert_true(pmudb_metrics(db, &scope, field[2], count_same, &same, &err) >= 0);
			}
		}
		if (!l.found) {
			json_decref(expr);
			no_pmu++;	/* a µarch no PMU of the catalog is for */
			continue;
		}
		double v;
		int r = pmudb_metric_eval_expr(db, &scope, l.expr, made_up_count, NULL, &v, &err);
		/* by its name too (the first vector), where its PMU has one
		 * metric of the name */
		if (same == 1 && !strcmp(seed, "0")) {
			double named;
			int rn = pmudb_metric_eval(db, &scope, field[2], made_up_count, NULL, &named, &err);
			if (rn != r || (!r && !(named == v || (isnan(named) && isnan(v)))))
				fail_msg("%s %s: by name %g (%d), by its expression %g (%d)", field[1], field[2], named, rn, v, r);
			by_name++;
		}
		json_decref(expr);
		if (!strcmp(field[3], "error")) {
			if (!r)
				fail_msg("%s %s: perf cannot compute it, pmudb gives %g", field[1], field[2], v);
			errors++;
			continue;
		}
		if (r)
			fail_msg("%s %s: %s", field[1], field[2], err.message);
		bool want_nan = !strcmp(field[3], "nan");
		double want = want_nan ? NAN : strtod(field[3], NULL);
		bool agree = want_nan ? isnan(v) : fabs(v - want) <= 1e-9 * fabs(want);
		if (!agree)
			fail_msg("seed %s: %s %s: pmudb %.17g, perf's parse %.17g: %s", seed, field[1], field[2], v, want,
				 field[4]);
		equal++;
		nan_both += want_nan;
	}
	assert_int_equal(pclose(truth), 0);
	print_message("%d metric values (3 vectors of counts): %d equal to perf's parse (%d of them NaN, a division by"
		      " zero), %d perf cannot compute either, %d of no PMU of the catalog; %d also computed by name\n",
		      rows, equal, nan_both, errors, no_pmu, by_name);
	assert_true(rows > 3000 / test_sample_step());
	assert_int_equal(equal + errors + no_pmu, rows);
	assert_int_equal(no_pmu, 0);
}

/* Every metric the build did not mark: each event it names encodes, on
 * the metric's PMU (pmu@EVENT@ is EVENT) or on a PMU of its µarch. */
struct resolving {
	const struct pmudb_metric *m;
	struct pmudb_scope uarch;
	bool have_uarch;
	int events, failed;
	char first[600];
};

/* Every metric's "PMU\tname", lower case, sorted: which names are metrics. */
static char **metric_keys;
static int nmetric_keys;

static int compare_keys(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *metric_key(const char *pmu, const char *name)
{
	char *key = NULL;
	assert_true(asprintf(&key, "%s\t%s", pmu ? pmu : "", name) > 0);
	for (char *p = key; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return key;
}

static int collect_key(void *ctx, const struct pmudb_metric *m)
{
	(void)ctx;
	metric_keys = realloc(metric_keys, (size_t)(nmetric_keys + 1) * sizeof(*metric_keys));
	assert_non_null(metric_keys);
	metric_keys[nmetric_keys++] = metric_key(m->pmu, m->name);
	return 0;
}

static bool is_metric_of(const char *pmu, const char *name)
{
	char *key = metric_key(pmu, name);
	bool found = bsearch(&key, metric_keys, (size_t)nmetric_keys, sizeof(*metric_keys), compare_keys) != NULL;
	free(key);
	return found;
}

static int resolve_term(void *ctx, const char *name, char kind)
{
	struct resolving *r = ctx;
	static const char *const own[] = { "duration_time", "user_time", "system_time", "tsc", "interval_ns" };
	if (kind != 'i')
		return 0;
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (!strcasecmp(name, own[i]))
			return 0;
	const char *at = strchr(name, '@');
	if (at && (strchr(at, '=') || !strncmp(name, "msr@", 4) || !strncmp(name, "power@", 6)))
		return 0;	/* perf's raw terms and its own PMUs */
	struct pmudb_error err;
	if (is_metric_of(r->m->pmu, name))
		return 0;	/* another metric */
	char event[600], own_pmu[700];
	snprintf(event, sizeof(event), "%s", at ? at + 1 : name);
	event[strcspn(event, "@")] = '\0';
	snprintf(own_pmu, sizeof(own_pmu), "%s::%s", r->m->pmu, event);
	struct pmudb_encoding enc;
	r->events++;
	if (pmudb_encode(db, own_pmu, NULL, &enc, &err)
	    && (!r->have_uarch || pmudb_encode(db, event, &r->uarch, &enc, &err))) {
		if (!r->failed++)
			snprintf(r->first, sizeof(r->first), "%s (%s)", name, err.message);
	}
	return 0;
}

struct resolved_tally {
	int metrics, marked, events, failed;
};

static int check_resolved(void *ctx, const struct pmudb_metric *m)
{
	struct resolved_tally *t = ctx;
	if (t->metrics++ % test_sample_step())
		return 0;	/* under the sanitizers, a sample */
	if (m->missing || !m->pmu) {
		t->marked++;
		return 0;
	}
	struct resolving r = { m, { 0, { 0 } }, false, 0, 0, "" };
	struct pmudb_error err;
	r.have_uarch = !pmudb_scope_pmu(db, strchr(m->uarch, '/') + 1, &r.uarch, &err);
	assert_int_equal(pmudb_metric_terms(m->expr, resolve_term, &r, &err), 0);
	if (r.failed)
		fail_msg("%s of %s: %d of its events do not encode, the first %s", m->name, m->uarch, r.failed, r.first);
	t->events += r.events;
	return 0;
}

static void test_every_unmarked_metric_resolves(void **state)
{
	(void)state;
	struct resolved_tally t = { 0, 0, 0, 0 };
	struct pmudb_error err;
	assert_true(pmudb_metrics(db, NULL, NULL, collect_key, NULL, &err) >= 0);
	qsort(metric_keys, (size_t)nmetric_keys, sizeof(*metric_keys), compare_keys);
	assert_true(pmudb_metrics(db, NULL, NULL, check_resolved, &t, &err) >= 0);
	for (int i = 0; i < nmetric_keys; i++)
		free(metric_keys[i]);
	free(metric_keys);
	metric_keys = NULL;
	nmetric_keys = 0;
	print_message("%d metrics: %d resolved (%d events they name, each encoding), %d marked as lacking\n", t.metrics,
		      t.metrics - t.marked, t.events, t.marked);
}

/* The commands: metrics lists, metric eval computes, refusals are one line. */
static void test_metric_commands(void **state)
{
	(void)state;
	struct pmudb_scope scope;
	struct pmudb_error err;
	int cpi = 0;
	if (pmudb_scope_pmu(db, "spr", &scope, &err) || pmudb_metrics(db, &scope, "cpi", count_same, &cpi, &err) != 1) {
		print_message("SKIP: the catalog has no metric CPI for spr (built without the vendor tree)\n");
		return;
	}
	struct run_result r;
	test_pmudb(&r, NULL, "--db", catalog, "--pmu", "spr", "metrics", "TopdownL1", (char *)NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "tma_retiring"));
	assert_null(strstr(r.out, "tma_heavy_operations"));	/* level 2 */
	test_run_free(&r);
	char counts[1024];
	snprintf(counts, sizeof(counts), "%s/counts.json", tmp);
	FILE *f = fopen(counts, "w");
	assert_non_null(f);
	fputs("{\"CPU_CLK_UNHALTED.THREAD\": 300, \"INST_RETIRED.ANY\": 100}\n", f);
	fclose(f);
	test_pmudb(&r, NULL, "--db", catalog, "--pmu", "spr", "metric", "eval", "cpi", "--counts", counts, (char *)NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "cpi"));
	assert_non_null(strstr(r.out, " 3 "));
	test_run_free(&r);
	test_pmudb(&r, NULL, "--db", catalog, "--pmu", "spr", "metric", "eval", "cpi", "--counts", counts, "--json",
		   (char *)NULL);
	assert_int_equal(r.status, 0);
	json_error_t jerr;
	json_t *out = json_loads(r.out, 0, &jerr);
	assert_non_null(out);
	assert_true(json_number_value(json_object_get(json_array_get(out, 0), "value")) == 3.0);
	json_decref(out);
	test_run_free(&r);
	/* a threshold (tma_avx_assists > 0.1), computed on the same counts,
	 * with the metric it names (tma_info_thread_slots, TOPDOWN.SLOTS) */
	static const struct { const char *counts; const char *threshold; } thresholds[] = {
		{ "{\"ASSISTS.SSE_AVX_MIX\": 10, \"TOPDOWN.SLOTS\": 1000}", "\"threshold\":true" },
		{ "{\"ASSISTS.SSE_AVX_MIX\": 1, \"TOPDOWN.SLOTS\": 1000}", "\"threshold\":false" },
	};
	for (size_t i = 0; i < sizeof(thresholds) / sizeof(thresholds[0]); i++) {
		f = fopen(counts, "w");
		assert_non_null(f);
		fputs(thresholds[i].counts, f);
		fclose(f);
		test_pmudb(&r, NULL, "--db", catalog, "--pmu", "spr", "metric", "eval", "tma_avx_assists", "--counts", counts,
			   "--json", (char *)NULL);
		assert_int_equal(r.status, 0);
		if (!strstr(r.out, thresholds[i].threshold))
			fail_msg("%s: %s", thresholds[i].counts, r.out);
		test_run_free(&r);
	}
	f = fopen(counts, "w");
	fputs("{\"CPU_CLK_UNHALTED.THREAD\": 300, \"INST_RETIRED.ANY\": 100}\n", f);
	fclose(f);
	/* the same counts as perf stat -x, writes them: the same value */
	char csv[1024];
	snprintf(csv, sizeof(csv), "%s/counts.csv", tmp);
	f = fopen(csv, "w");
	assert_non_null(f);
	fputs("# started on Sat Dec  5 10:00:00 2026\n\n300,,cpu_clk_unhalted.thread,1000,100.00,,\n"
	      "100,,INST_RETIRED.ANY,1000,100.00,,\n<not counted>,,UOPS_ISSUED.ANY,0,100.00,,\n", f);
	fclose(f);
	test_pmudb(&r, NULL, "--db", catalog, "--pmu", "spr", "metric", "eval", "cpi", "--counts", csv, (char *)NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, " 3 "));
	test_run_free(&r);
	/* a count not given, a metric not there, a file that is no JSON */
	f = fopen(counts, "w");
	fputs("{\"CPU_CLK_UNHALTED.THREAD\": 300}\n", f);
	fclose(f);
	test_pmudb(&r, NULL, "--db", catalog, "--pmu", "spr", "metric", "eval", "cpi", "--counts", counts, (char *)NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_line_count(r.err), 1);
	assert_non_null(strstr(r.err, "INST_RETIRED.ANY"));
	test_run_free(&r);
	test_pmudb(&r, NULL, "--db", catalog, "--pmu", "spr", "metric", "eval", "no_such_metric", "--counts", counts,
		   (char *)NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_line_count(r.err), 1);
	test_run_free(&r);
	f = fopen(counts, "w");
	fputs("{\"CPI\": \n", f);
	fclose(f);
	test_pmudb(&r, NULL, "--db", catalog, "--pmu", "spr", "metric", "eval", "cpi", "--counts", counts, (char *)NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(test_line_count(r.err), 1);
	assert_non_null(strstr(r.err, "counts.json:"));
	test_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_metric_computes_as_perf_reads_it),
		cmocka_unit_test(test_every_unmarked_metric_resolves),
		cmocka_unit_test(test_metric_commands),
	};
	return cmocka_run_group_tests_name("metric", tests, setup, teardown);
}
