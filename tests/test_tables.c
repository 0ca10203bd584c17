/*
 * test_tables.c - the YAML tables: every bad input stops the build with one
 * line "FILE:LINE:COLUMN: what is wrong" and no catalog; every override
 * action lands in the catalog.
 *
 * Each file in tests/fixtures/tables/bad/ starts with "# expect: L:C: text":
 * the position and the words its error must have.
 */
#include <dirent.h>
#include <perfmon/pfmlib_perf_event.h>
#include <setjmp.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/libpfm_ask.h"
#include "pmudb.h"
#include "tests/testlib.h"

#define BAD_DIR "tests/fixtures/tables/bad"

static char *tmp;

static int setup(void **state)
{
	(void)state;
	tmp = test_tempdir();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	test_rmtree(tmp);
	free(tmp);
	return 0;
}

/* "# expect: 4:2: words" -> "PATH:4:2: " as prefix and "words". */
static void read_expectation(const char *path, char *prefix, size_t plen, char *words, size_t wlen)
{
	char *text = test_read_file(path, NULL);
	assert_non_null(text);
	int line, col;
	char rest[256];
	if (sscanf(text, "# expect: %d:%d: %255[^\n]", &line, &col, rest) != 3)
		fail_msg("%s: first line must be '# expect: LINE:COLUMN: words'", path);
	snprintf(prefix, plen, "%s:%d:%d: ", path, line, col);
	snprintf(words, wlen, "%s", rest);
	free(text);
}

static int yaml_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return n > 5 && !strcmp(e->d_name + n - 5, ".yaml");
}

/* Every bad table (every fifth under the sanitizers, where a compiler run
 * costs four times as much). */
static void test_every_bad_table_is_refused_with_its_position(void **state)
{
	(void)state;
	struct dirent **names;
	int n = scandir(BAD_DIR, &names, yaml_file, alphasort);
	assert_true(n > 0);
	char *compiler = test_build_path("pmudb-build");
	char *out = NULL;
	assert_true(asprintf(&out, "%s/bad.db", tmp) > 0);
	int step = test_sample_step();
	for (int i = 0; i < n; i++) {
		char path[512], prefix[600], words[256];
		if (i % step) {
			free(names[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", BAD_DIR, names[i]->d_name);
		read_expectation(path, prefix, sizeof(prefix), words, sizeof(words));
		char *argv[] = { compiler, "--tables", "tables", "--tables", path, "--out", out, NULL };
		struct run_result r;
		test_run(argv, NULL, &r);
		if (r.status != 1 || test_line_count(r.err) != 1 || strncmp(r.err, prefix, strlen(prefix))
		    || !strstr(r.err, words))
			fail_msg("%s: exit %d, stderr:\n%s\nexpected exit 1 and one line starting '%s' with '%s'",
				 path, r.status, r.err, prefix, words);
		assert_int_equal(access(out, F_OK), -1);
		print_message("%s", r.err);
		test_run_free(&r);
		free(names[i]);
	}
	free(names);
	free(out);
	free(compiler);
}

static int64_t query_int(sqlite3 *db, const char *sql);

/* Runs the compiler with TABLES (NULL-ended) and expects one line, exit 1,
 * starting with PREFIX and holding WORDS. */
static void expect_refusal(char *const *tables, const char *prefix, const char *words)
{
	char *compiler = test_build_path("pmudb-build");
	char *out = NULL;
	assert_true(asprintf(&out, "%s/bad.db", tmp) > 0);
	char *argv[16] = { compiler };
	int n = 1;
	for (int i = 0; tables[i] && n < 12; i++) {
		argv[n++] = "--tables";
		argv[n++] = tables[i];
	}
	argv[n++] = "--out";
	argv[n++] = out;
	struct run_result r;
	test_run(argv, NULL, &r);
	if (r.status != 1 || test_line_count(r.err) != 1 || strncmp(r.err, prefix, strlen(prefix)) || !strstr(r.err, words))
		fail_msg("exit %d, stderr:\n%s\nexpected exit 1 and one line starting '%s' with '%s'", r.status, r.err,
			 prefix, words);
	print_message("%s", r.err);
	assert_int_equal(access(out, F_OK), -1);
	test_run_free(&r);
	free(out);
	free(compiler);
}

/* More unit masks than the runtime reads, added one by one: the one past
 * the limit is refused where it is written. */
static void test_too_many_unit_masks_are_refused_where_written(void **state)
{
	(void)state;
	char *path = NULL;
	assert_true(asprintf(&path, "%s/many.yaml", tmp) > 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("overrides:\n", f);
	for (int i = 0; i < 300; i++)
		fprintf(f, "  - {action: add, pmu: skl, event: INST_RETIRED, umask: EXTRA_%d, code: 0x1, why: test}\n", i);
	fclose(f);
	/* INST_RETIRED has unit masks of its own when the overrides apply:
	 * libpfm's, counted here rather than assumed */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	assert_int_equal(pfm_initialize(), PFM_SUCCESS);
	int idx = pfm_find_event("skl::INST_RETIRED");
	assert_true(idx >= 0);
	pfm_event_info_t info = { .size = sizeof(info) };
	assert_int_equal(pfm_get_event_info(idx, PFM_OS_NONE, &info), PFM_SUCCESS);
	int64_t own = 0;
	for (int a = 0; a < info.nattrs; a++) {
		pfm_event_attr_info_t ai = { .size = sizeof(ai) };
		assert_int_equal(pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &ai), PFM_SUCCESS);
		own += ai.type == PFM_ATTR_UMASK;
	}
	char prefix[600];
	/* line 1 is the section key; entry k (from 0) is on line k + 2 */
	snprintf(prefix, sizeof(prefix), "%s:%lld:", path, (long long)(256 - own + 2));
	char *tables[] = { "tables", path, NULL };
	expect_refusal(tables, prefix, "pmudb reads at most 256");
	free(path);
}

/* What --tables names that holds no tables: a folder without *.yaml, a
 * folder or a FIFO among the *.yaml, tables without any 'families'
 * section (which listed all 386 libpfm PMUs as having no family). */
static void test_tables_that_are_not_tables_are_refused_in_one_line(void **state)
{
	(void)state;
	char *empty = NULL, *mixed = NULL, *folder = NULL;
	assert_true(asprintf(&empty, "%s/no_tables", tmp) > 0 && asprintf(&mixed, "%s/mixed", tmp) > 0
		    && asprintf(&folder, "%s/mixed/sub.yaml", tmp) > 0);
	assert_int_equal(mkdir(empty, 0755), 0);
	assert_int_equal(mkdir(mixed, 0755), 0);
	assert_int_equal(mkdir(folder, 0755), 0);
	char *only_empty[] = { empty, NULL }, *with_folder[] = { "tables", mixed, NULL },
	     *no_families[] = { "tables/cpuid.yaml", "tables/overrides.yaml", NULL };
	char prefix[600];
	snprintf(prefix, sizeof(prefix), "%s: ", empty);
	expect_refusal(only_empty, prefix, "no *.yaml table");
	snprintf(prefix, sizeof(prefix), "%s: ", folder);
	expect_refusal(with_folder, prefix, "a directory, not a table file");
	expect_refusal(no_families, "tables/cpuid.yaml ...: ", "no table has a 'families' section");
	/* a FIFO among them: the build waited on it for ever */
	assert_int_equal(rmdir(folder), 0);
	assert_int_equal(mkfifo(folder, 0600), 0);
	snprintf(prefix, sizeof(prefix), "%s: ", folder);
	expect_refusal(with_folder, prefix, "not a regular file");
	free(empty);
	free(mixed);
	free(folder);
}

/* A PMU no family covers: the build names every such PMU, at the position
 * of the families section to edit. */
static void test_pmus_without_family_are_listed_where_to_add_them(void **state)
{
	(void)state;
	/* one line per PMU (or run of numbered boxes), then the error naming
	 * the section where they go */
	char *compiler = test_build_path("pmudb-build"), *out = NULL;
	assert_true(asprintf(&out, "%s/bad.db", tmp) > 0);
	char *argv[] = { compiler, "--tables", "tests/fixtures/tables/families_only", "--out", out, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	assert_int_equal(r.status, 1);
	int lines = test_line_count(r.err), listed = 0;
	const char *last = NULL;
	for (const char *l = r.err; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		if (!strncmp(l, "pmudb-build: PMU", 16)) {
			listed++;
			assert_non_null(strstr(l, "add"));
		} else {
			last = l;
		}
	}
	/* skl has its family in that file; icl has none */
	assert_null(strstr(r.err, "PMU skl ("));
	assert_non_null(strstr(r.err, "PMU icl ("));
	assert_true(listed >= 2 && listed == lines - 1);
	assert_non_null(last);
	assert_int_equal(strncmp(last, "tests/fixtures/tables/families_only/families.yaml:4:3:", 53), 0);
	assert_non_null(strstr(last, "no encoding family"));
	assert_int_equal(access(out, F_OK), -1);
	test_run_free(&r);
	free(out);
	free(compiler);
}

static int64_t query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int64_t v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void test_every_override_action_lands_in_the_catalog(void **state)
{
	(void)state;
	char *compiler = test_build_path("pmudb-build");
	char *out = NULL;
	assert_true(asprintf(&out, "%s/good.db", tmp) > 0);
	char *argv[] = { compiler, "--quiet", "--tables", "tables", "--tables",
			 "tests/fixtures/tables/good/overrides.yaml", "--out", out, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	if (r.status != 0)
		fail_msg("build with the good overrides failed: %s", r.err);
	test_run_free(&r);

	sqlite3 *db;
	assert_int_equal(sqlite3_open_v2(out, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	/* change */
	assert_int_equal(query_int(db, "SELECT count(*) FROM pmu_event WHERE pmu = 'skl' AND event = 'INST_RETIRED'"
				   " AND description LIKE '%changed by a test override%'"), 1);
	/* retire: gone from the views, kept (marked) in the table */
	assert_int_equal(query_int(db, "SELECT count(*) FROM pmu_event WHERE pmu = 'skl' AND event = 'BR_INST_RETIRED'"), 0);
	assert_int_equal(query_int(db, "SELECT count(*) FROM event e JOIN pmu p ON p.event_table_id = e.table_id"
				   " WHERE p.name = 'skl' AND e.name = 'BR_INST_RETIRED' AND e.retired = 1"), 1);
	/* alias, on one PMU and on a glob of 28 */
	assert_int_equal(query_int(db, "SELECT count(*) FROM event_alias a JOIN pmu p ON p.event_table_id = a.table_id"
				   " WHERE p.name = 'skl' AND a.name = 'INSTRUCTIONS_DONE'"), 1);
	assert_int_equal(query_int(db, "SELECT count(*) FROM event_alias a JOIN pmu p ON p.event_table_id = a.table_id"
				   " WHERE p.name LIKE 'skx_unc_cha%' AND a.name = 'CHA_CLOCKS'"),
			 query_int(db, "SELECT count(*) FROM pmu WHERE name LIKE 'skx_unc_cha%'"));
	/* add an event and a unit mask */
	assert_int_equal(query_int(db, "SELECT code FROM pmu_event WHERE pmu = 'skl' AND event = 'TEST_ADDED_EVENT'"), 0x42);
	assert_int_equal(query_int(db, "SELECT code FROM pmu_event_umask WHERE pmu = 'skl' AND event = 'INST_RETIRED'"
				   " AND umask = 'TEST_ADDED_UMASK'"), 0x4200);
	/* provenance and the CPUID entry */
	assert_int_equal(query_int(db, "SELECT count(*) FROM override_log WHERE why LIKE 'test fixture%'"), 6);
	assert_int_equal(query_int(db, "SELECT count(*) FROM cpuid_map WHERE vendor = 'TestVendor' AND model_lo = 0x4e"
				   " AND model_hi = 0x5e"), 1);
	/* other PMUs are untouched: skl's changes did not leak into a shared table */
	assert_int_equal(query_int(db, "SELECT count(*) FROM pmu_event WHERE event = 'TEST_ADDED_EVENT'"), 1);
	sqlite3_close(db);
	free(out);
	free(compiler);
}

/* libpfm's config of S with the bits of MASK replaced by VALUE. */
static uint64_t libpfm_with(const char *s, uint64_t mask, uint64_t value)
{
	struct perf_event_attr attr;
	char *fstr = NULL;
	assert_int_equal(libpfm_ask(s, &attr, &fstr, NULL), 0);
	free(fstr);
	return (attr.config & ~mask) | value;
}

static void expect(pmudb_t *db, const char *s, uint64_t config, uint64_t config1)
{
	struct pmudb_encoding e;
	struct pmudb_error err;
	if (pmudb_encode(db, s, NULL, &e, &err))
		fail_msg("%s: %s", s, err.message);
	if (e.config != config || e.config1 != config1)
		fail_msg("%s: 0x%llx/0x%llx, expected 0x%llx/0x%llx", s, (unsigned long long)e.config,
			 (unsigned long long)e.config1, (unsigned long long)config, (unsigned long long)config1);
}

/* Overrides correct encodings: an event's code, a unit mask's event
 * select, a hard-wired modifier (refused at another value, as libpfm
 * refuses its own), a stated config1, an alias made a unit mask. */
static void test_overrides_change_encodings(void **state)
{
	(void)state;
	char *compiler = test_build_path("pmudb-build");
	char *out = NULL;
	assert_true(asprintf(&out, "%s/corrected.db", tmp) > 0);
	char *argv[] = { compiler, "--quiet", "--tables", "tables/families.yaml", "--tables",
			 "tests/fixtures/tables/good/corrections.yaml", "--out", out, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	if (r.status != 0)
		fail_msg("build with the corrections failed: %s", r.err);
	test_run_free(&r);
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	assert_int_equal(pfm_initialize(), PFM_SUCCESS);
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(out, &err);
	assert_non_null(db);
	expect(db, "icl::MEM_LOAD_MISC_RETIRED:UC", libpfm_with("icl::MEM_LOAD_MISC_RETIRED:UC", 0xff, 0xd4), 0);
	expect(db, "spr::TOPDOWN:BACKEND_BOUND_SLOTS", libpfm_with("spr::TOPDOWN:BACKEND_BOUND_SLOTS", 0xff, 0xa4), 0);
	expect(db, "spr::ARITH:IDIV_ACTIVE", libpfm_with("spr::ARITH:IDIV_ACTIVE", 0xff000000, 1 << 24), 0);
	expect(db, "spr::ARITH:IDIV_ACTIVE:c=1", libpfm_with("spr::ARITH:IDIV_ACTIVE", 0xff000000, 1 << 24), 0);
	struct pmudb_encoding e;
	assert_int_equal(pmudb_encode(db, "spr::ARITH:IDIV_ACTIVE:c=2", NULL, &e, &err), PMUDB_ERR_ATTR_SET);
	assert_int_equal(pmudb_encode(db, "spr::ARITH:IDIV_ACTIVE", NULL, &e, &err), 0);
	assert_non_null(strstr(e.fstr, ":c=1:"));
	expect(db, "spr::UOPS_RETIRED:MS", libpfm_with("spr::UOPS_RETIRED:MS", 0xff00, 0x400), 0x8);
	expect(db, "hsw::UOPS_RETIRED:TOTAL_CYCLES", libpfm_with("hsw::UOPS_RETIRED:ALL", 0xff000000, 16 << 24) | 1 << 23, 0);
	pmudb_close(db);
	pfm_terminate();
	free(out);
	free(compiler);
}

static void test_usage_errors_exit_2(void **state)
{
	(void)state;
	char *compiler = test_build_path("pmudb-build");
	char *argv[] = { compiler, "--no-such-option", NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	assert_int_equal(r.status, 2);
	test_run_free(&r);
	char *help[] = { compiler, "--help", NULL };
	test_run(help, NULL, &r);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: pmudb-build"));
	test_run_free(&r);
	free(compiler);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_bad_table_is_refused_with_its_position),
		cmocka_unit_test(test_too_many_unit_masks_are_refused_where_written),
		cmocka_unit_test(test_pmus_without_family_are_listed_where_to_add_them),
		cmocka_unit_test(test_tables_that_are_not_tables_are_refused_in_one_line),
		cmocka_unit_test(test_every_override_action_lands_in_the_catalog),
		cmocka_unit_test(test_overrides_change_encodings),
		cmocka_unit_test(test_usage_errors_exit_2),
	};
	return cmocka_run_group_tests_name("tables", tests, setup, teardown);
}
