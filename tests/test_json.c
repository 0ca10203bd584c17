/*
 * test_json.c - every command's JSON holds to the shape docs/json.md
 * documents: the shapes are read from the page itself (json_shape.c), so
 * the page and the commands cannot drift apart.  Each command runs on the
 * built catalog, in the cases that write each object kind (an inexact
 * decode, a group that does not fit, a hybrid's other core types, a CPU
 * without a table, a refused event); at the end every kind the page
 * describes must have been met, but for those this machine cannot make
 * (said in a SKIP line) and those test_sources checks on its catalog of
 * two vendor sources.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "pmudb.h"
#include "tests/json_shape.h"
#include "tests/testlib.h"

static struct json_shapes *shapes;
static char *pmudb, *tmp;
static pmudb_t *db;
static bool no_hybrid_answer;	/* encode.other could not be made here (a SKIP line said why) */

static int setup(void **state)
{
	(void)state;
	char *error = NULL;
	shapes = json_shapes_load("docs/json.md", &error);
	if (!shapes) {
		fprintf(stderr, "%s\n", error);
		free(error);
		return -1;
	}
	return test_cli_start(&pmudb, &tmp, &db);
}

static int teardown(void **state)
{
	(void)state;
	test_cli_end(pmudb, tmp, db);
	json_shapes_free(shapes);
	return 0;
}

/* Runs pmudb with the NULL-ended arguments (stdin INPUT), expects exit
 * STATUS (-1: 0 or 1) and output of top TOP. */
static void expect_shape(const char *top, int status, const char *input, ...)
{
	char *argv[32] = { pmudb };
	int n = 1;
	va_list ap;
	va_start(ap, input);
	for (char *a; (a = va_arg(ap, char *)) && n < 31;)
		argv[n++] = a;
	va_end(ap);
	struct run_result r;
	test_run(argv, input, &r);
	char command[512] = "pmudb";
	for (int i = 1; i < n; i++)
		snprintf(command + strlen(command), sizeof(command) - strlen(command), " %s", argv[i]);
	if (status >= 0 ? r.status != status : r.status > 1)
		fail_msg("%s: exit %d, not %d: %s", command, r.status, status, r.err);
	char *why = json_shapes_check(shapes, top, r.out);
	if (why)
		fail_msg("%s: %s\n(docs/json.md documents its shape)", command, why);
	test_run_free(&r);
}

static bool has_pmu(const char *name)
{
	return pmudb_find_pmu(db, name) >= 0;
}

static void test_browsing(void **state)
{
	(void)state;
	expect_shape("pmus", 0, NULL, "pmus", "--json", NULL);
	expect_shape("list", 0, NULL, "list", "--json", "skl", NULL);
	expect_shape("info", 0, NULL, "info", "--json", "skl::INST_RETIRED", NULL);
	expect_shape("info", 0, NULL, "info", "--json", "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS", NULL);
	expect_shape("search", 0, NULL, "search", "--json", "L3_MISS", "--pmu", "skl", NULL);
	expect_shape("search", 0, NULL, "search", "--json", "INST_RETIRED*", NULL);
	expect_shape("search", 1, NULL, "search", "--json", "no_such_event_at_all", NULL);
	expect_shape("diff", 0, NULL, "diff", "--json", "skl", "icl", NULL);
	expect_shape("diff", 0, NULL, "diff", "--json", "amd64_fam17h_zen2", "amd64_fam19h_zen3", NULL);
}

static void test_detecting(void **state)
{
	(void)state;
	expect_shape("detect", -1, NULL, "detect", "--json", NULL);	/* this host: with its sysfs */
	expect_shape("detect", 0, NULL, "--cpu", "GenuineIntel-6-55-4", "detect", "--json", NULL);
	expect_shape("detect", 0, NULL, "--cpu", "AuthenticAMD/0x19/0x11", "detect", "--json", NULL);
	/* no table for the CPU: the object with its error */
	expect_shape("detect", 1, NULL, "--cpu", "GenuineIntel/6/0x01", "detect", "--json", NULL);
	expect_shape("sources", -1, NULL, "sources", "--json", NULL);
}

/* The first event or unit mask of CPU's first core type that its other
 * core type has too (each libpfm names them as it likes), into NAME. */
static bool event_of_both_core_types(const char *cpu_spec, char *name, size_t size)
{
	struct pmudb_cpu cpu;
	struct pmudb_scope scope;
	struct pmudb_error err;
	if (pmudb_cpu_parse(cpu_spec, &cpu, &err) || pmudb_scope_cpu(db, &cpu, &scope, NULL, &err))
		return false;
	struct pmudb_pmu_info core;
	if (!scope.count || pmudb_pmu_info(db, scope.pmus[0], &core))
		return false;
	for (int e = 0; e < core.event_count; e++) {
		struct pmudb_event_info ev;
		if (pmudb_event_info(db, scope.pmus[0], e, &ev))
			continue;
		for (int u = -1; u < ev.umask_count; u++) {
			struct pmudb_umask_info um;
			struct pmudb_encoding two[2];
			if (u >= 0 && pmudb_umask_info(db, scope.pmus[0], e, u, &um))
				continue;
			snprintf(name, size, "%s%s%s", ev.name, u >= 0 ? ":" : "", u >= 0 ? um.name : "");
			if (pmudb_encode_each(db, name, &scope, two, 2, NULL) == 2)
				return true;
		}
	}
	return false;
}

static void test_encoding(void **state)
{
	(void)state;
	expect_shape("encode", 1, NULL, "encode", "--format", "json", "skl::INST_RETIRED:ANY_P:u",
		     "skx_unc_cha3::UNC_C_CLOCKTICKS", "perf::PERF_COUNT_SW_TASK_CLOCK", "no_such::EVENT", NULL);
	/* a hybrid: the other core type in "others" */
	char both[256];
	if (event_of_both_core_types("GenuineIntel/6/0x97", both, sizeof(both)))
		expect_shape("encode", 0, NULL, "--cpu", "GenuineIntel-6-97", "encode", "--format", "json", both, NULL);
	else {
		no_hybrid_answer = true;
		print_message("SKIP: encode's others: no event of Alder Lake's P-core in this catalog encodes on its E-core"
			      " too\n");
	}
	expect_shape("encode", 1, "skl::INST_RETIRED:ANY_P\nbad::\xff\nskl::UOPS_ISSUED:ANY:c=1\r\n", "encode", "--stdin",
		     NULL);
	/* exact, inexact (bits left over) and nothing at all */
	expect_shape("decode", 1, NULL, "decode", "--json", "--pmu", "skl", "0x1c2", "r01c2", "cpu/event=0x3c/u",
		     "0x4000ffc2", "0xff", NULL);
	expect_shape("group", 0, NULL, "group", "--json", "skl::INST_RETIRED:ANY_P", "skl::UOPS_ISSUED:ANY", NULL);
	/* more than the counters: exit 3, with the competing events */
	expect_shape("group", 3, NULL, "group", "--json", "skl::UOPS_DISPATCHED_PORT:PORT_0",
		     "skl::UOPS_DISPATCHED_PORT:PORT_1", "skl::UOPS_DISPATCHED_PORT:PORT_2",
		     "skl::UOPS_DISPATCHED_PORT:PORT_3", "skl::UOPS_DISPATCHED_PORT:PORT_4",
		     "skl::UOPS_DISPATCHED_PORT:PORT_5", "skl::UOPS_DISPATCHED_PORT:PORT_6",
		     "skl::UOPS_DISPATCHED_PORT:PORT_7", "skl::UOPS_ISSUED:ANY", NULL);
	expect_shape("group", 0, NULL, "group", "--json", "perf::PERF_COUNT_SW_TASK_CLOCK", NULL);
}

static void test_metrics(void **state)
{
	(void)state;
	if (!has_pmu("spr") || !has_pmu("gnr")) {
		print_message("SKIP: metrics: the catalog has no vendor metrics (built without a vendor tree)\n");
		return;
	}
	expect_shape("metrics", 0, NULL, "--pmu", "spr", "metrics", "--json", NULL);
	expect_shape("metrics", 0, NULL, "--pmu", "spr", "metrics", "--json", "TopdownL1", NULL);
	expect_shape("info", 0, NULL, "--pmu", "spr", "info", "--json", "cpi", NULL);
	char counts[1024];
	snprintf(counts, sizeof(counts), "%s/counts.json", tmp);
	FILE *f = fopen(counts, "w");
	assert_non_null(f);
	/* cpi computes; a ratio over zero is not finite (null) */
	fputs("{\"CPU_CLK_UNHALTED.THREAD\": 300, \"INST_RETIRED.ANY\": 0, \"ASSISTS.SSE_AVX_MIX\": 1e308,"
	      " \"TOPDOWN.SLOTS\": 1e-300}\n", f);
	fclose(f);
	expect_shape("metriceval", -1, NULL, "--pmu", "spr", "metric", "eval", "cpi", "--counts", counts, "--json", NULL);
	expect_shape("metriceval", -1, NULL, "--pmu", "spr", "metric", "eval", "tma_avx_assists", "--counts", counts,
		     "--json", NULL);
	/* a finite value whose scaled value (times 100, a percentage) is not */
	f = fopen(counts, "w");
	assert_non_null(f);
	fputs("{\"UNC_CHA_TOR_INSERTS.IO_MISS_ITOM\": 1e308, \"UNC_CHA_TOR_INSERTS.IO_ITOM\": 1}\n", f);
	fclose(f);
	expect_shape("metriceval", 0, NULL, "--pmu", "spr", "metric", "eval", "io_percent_of_inbound_full_writes_that_miss_l3",
		     "--counts", counts, "--json", NULL);
	f = fopen(counts, "w");
	assert_non_null(f);
	fputs("{\"CPU_CLK_UNHALTED.THREAD\": 300, \"INST_RETIRED.ANY\": 100}\n", f);
	fclose(f);
	expect_shape("metriceval", 0, NULL, "--pmu", "spr", "metric", "eval", "cpi", "--counts", counts, "--json", NULL);
}

/* Whether this machine counts task-clock for its own tasks (a container
 * may forbid perf_event_open outright). */
static bool can_count_software(void)
{
	struct run_result r;
	char *argv[] = { pmudb, "stat", "-e", "perf::PERF_COUNT_SW_TASK_CLOCK:u", "--", "true", NULL };
	test_run(argv, NULL, &r);
	bool ok = r.status == 0;
	test_run_free(&r);
	return ok;
}

static void test_counting(void **state)
{
	(void)state;
	if (!can_count_software()) {
		print_message("SKIP: stat: perf_event_open refuses even software events here\n");
		return;
	}
	char out[1024];
	snprintf(out, sizeof(out), "%s/stat.json", tmp);
	expect_shape("stat", 0, NULL, "stat", "--json", "-I", "20", "-e", "perf::PERF_COUNT_SW_TASK_CLOCK:u", "-e",
		     "{perf::PERF_COUNT_SW_CONTEXT_SWITCHES:u,perf::PERF_COUNT_SW_PAGE_FAULTS:u}", "--", "sh", "-c",
		     "sleep 0.1", NULL);
	expect_shape("stat", 0, NULL, "stat", "--json", "-e", "perf::PERF_COUNT_SW_TASK_CLOCK:u", "--", "sh", "-c",
		     "kill -TERM $$", NULL);
	/* -p PID: a sleeper of ours */
	char *sleeper[] = { "/bin/sleep", "0.3", NULL };
	pid_t pid = test_spawn(sleeper);
	char pid_text[32];
	snprintf(pid_text, sizeof(pid_text), "%d", (int)pid);
	expect_shape("stat", 0, NULL, "stat", "--json", "-e", "perf::PERF_COUNT_SW_TASK_CLOCK:u", "-p", pid_text, NULL);
	waitpid(pid, NULL, 0);
	/* -o FILE: the same shape in the file */
	struct run_result r;
	char *argv[] = { pmudb, "stat", "--json", "-o", out, "-e", "perf::PERF_COUNT_SW_TASK_CLOCK:u", "--", "true", NULL };
	test_run(argv, NULL, &r);
	assert_int_equal(r.status, 0);
	test_run_free(&r);
	char *text = test_read_file(out, NULL);
	assert_non_null(text);
	char *why = json_shapes_check(shapes, "stat", text);
	if (why)
		fail_msg("pmudb stat --json -o FILE: %s", why);
	free(text);
}

/* Every kind the page describes was met, but for those only another test
 * or another machine can make. */
static void test_every_shape_was_met(void **state)
{
	(void)state;
	static const char *const by_test_sources[] = { "difflists.top", "difflists.side", "difflists.change", NULL };
	const char *excused[8] = { 0 };
	int n = 0;
	for (const char *const *k = by_test_sources; *k; k++)
		excused[n++] = *k;
	if (no_hybrid_answer)
		excused[n++] = "encode.other";
	/* a metric of stat -M needs the hardware counters its events use: the
	 * first metric of this host's PMUs */
	struct run_result r;
	char *list[] = { pmudb, "metrics", "--json", NULL };
	test_run(list, NULL, &r);
	json_t *metrics = r.status ? NULL : json_loads(r.out, 0, NULL);
	const char *name = json_string_value(json_object_get(json_array_get(metrics, 0), "name"));
	char *metric = name ? strdup(name) : NULL;
	json_decref(metrics);
	test_run_free(&r);
	int status = -1;
	if (metric) {
		char *argv[] = { pmudb, "stat", "--json", "-M", metric, "--", "true", NULL };
		test_run(argv, NULL, &r);
		status = r.status;
		if (status == 0) {
			char *why = json_shapes_check(shapes, "stat", r.out);
			if (why)
				fail_msg("pmudb stat --json -M %s: %s", metric, why);
		} else {
			print_message("SKIP: stat -M's metric objects: %.*s\n", (int)strcspn(r.err, "\n"), r.err);
		}
		test_run_free(&r);
	} else {
		print_message("SKIP: stat -M's metric objects: the catalog has no metric for this host's PMUs\n");
	}
	if (status != 0)
		excused[n++] = "stat.metric";
	free(metric);
	char *unmet = json_shapes_unmet(shapes, excused);
	if (unmet)
		fail_msg("docs/json.md describes objects no command here wrote: %s", unmet);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_browsing),
		cmocka_unit_test(test_detecting),
		cmocka_unit_test(test_encoding),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_counting),
		cmocka_unit_test(test_every_shape_was_met),
	};
	return cmocka_run_group_tests_name("json", tests, setup, teardown);
}
