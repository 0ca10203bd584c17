/*
 * test_encoding_view.c - the catalog's `encoding` view (name_encoding and
 * name_encoding_pmu) gives, for every bare string of every PMU, what `pmudb encode`
 * gives: the view's rows against the command's --stdin JSON (type, kernel
 * PMU, config, config1, config2, refusal), its perf syntax against
 * `encode --format perf` (whose name= term it leaves out), and all of it
 * against the library.  The view must hold every live event, unit mask
 * and alias of every PMU, and nothing else.
 *
 * Both sides are asked as on a machine whose sysfs lists no PMU, as the
 * build encoded them: the host's own PMUs change nothing.
 */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <cmocka.h>

#include "pmudb.h"
#include "tests/testlib.h"

#define NO_SYSFS "/dev/null/no-sysfs"
/* `encode --format perf` is asked about every PERF_STEP-th row */
#define PERF_STEP 10
#define PERF_BATCH 400

struct view_row {
	char *string, *error, *kernel_pmu, *perf;
	int type;			/* -1: NULL */
	uint64_t config, config1, config2;
};

static struct view_row *rows;
static size_t nrows;
static char *catalog;

static char *dup_column(sqlite3_stmt *q, int col)
{
	const unsigned char *t = sqlite3_column_text(q, col);
	return t ? strdup((const char *)t) : NULL;
}

static int setup(void **state)
{
	(void)state;
	setenv("PMUDB_SYSFS_DEVICES", NO_SYSFS, 1);
	unsetenv("PMUDB_DB");
	catalog = test_build_path("pmudb.db");
	sqlite3 *db;
	sqlite3_stmt *q;
	if (sqlite3_open_v2(catalog, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK
	    || sqlite3_prepare_v2(db, "SELECT string, error, type, kernel_pmu, config, config1, config2, perf FROM encoding",
				  -1, &q, NULL) != SQLITE_OK)
		return -1;
	size_t size = 0;
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (nrows == size) {
			size = size ? 2 * size : 65536;
			rows = realloc(rows, size * sizeof(*rows));
		}
		struct view_row *r = &rows[nrows++];
		r->string = dup_column(q, 0);
		r->error = dup_column(q, 1);
		r->type = sqlite3_column_type(q, 2) == SQLITE_NULL ? -1 : sqlite3_column_int(q, 2);
		r->kernel_pmu = dup_column(q, 3);
		r->config = (uint64_t)sqlite3_column_int64(q, 4);
		r->config1 = (uint64_t)sqlite3_column_int64(q, 5);
		r->config2 = (uint64_t)sqlite3_column_int64(q, 6);
		r->perf = dup_column(q, 7);
	}
	sqlite3_finalize(q);
	sqlite3_close(db);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < nrows; i++) {
		free(rows[i].string);
		free(rows[i].error);
		free(rows[i].kernel_pmu);
		free(rows[i].perf);
	}
	free(rows);
	free(catalog);
	return 0;
}

static long count_of(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	long n = (long)sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return n;
}

/* Every bare string once: each PMU's live events, unit masks and aliases. */
static void test_view_holds_every_bare_string(void **state)
{
	(void)state;
	sqlite3 *db;
	assert_int_equal(sqlite3_open_v2(catalog, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	/* a name twice in one table (libpfm's hswep_unc_ha has two
	 * UNC_H_SBO0_CREDIT_OCCUPANCY) is one string, which the first answers */
	long events = count_of(db, "SELECT count(*) FROM (SELECT DISTINCT pmu, event FROM pmu_event)");
	long umasks = count_of(db, "SELECT count(*) FROM (SELECT DISTINCT pmu, event, umask FROM pmu_event_umask)");
	long aliases = count_of(db, "SELECT count(*) FROM pmu p JOIN event_alias a ON a.table_id = p.event_table_id");
	long distinct = count_of(db, "SELECT count(DISTINCT string) FROM encoding");
	long refused = count_of(db, "SELECT count(*) FROM encoding WHERE error <> 'PFM_SUCCESS'");
	sqlite3_close(db);
	print_message("the view: %zu strings (%ld events, %ld unit masks, %ld aliases), %ld refused\n", nrows, events,
		      umasks, aliases, refused);
	assert_int_equal(nrows, events + umasks + aliases);
	assert_int_equal(distinct, nrows);
	assert_true(refused > 0 && refused < (long)nrows / 2);
}

static void expect_row(const struct view_row *r, int code, const struct pmudb_encoding *e, const char *perf)
{
	if (strcmp(r->error, pmudb_error_name(code)))
		fail_msg("%s: the view says %s, the library %s", r->string, r->error, pmudb_error_name(code));
	if (code)
		return;
	if (r->type != e->type || strcmp(r->kernel_pmu ? r->kernel_pmu : "", e->sysfs_pmu) || r->config != e->config
	    || r->config1 != e->config1 || r->config2 != e->config2)
		fail_msg("%s: the view says type %d (%s) 0x%llx 0x%llx 0x%llx, the library type %d (%s) 0x%llx 0x%llx 0x%llx",
			 r->string, r->type, r->kernel_pmu ? r->kernel_pmu : "", (unsigned long long)r->config,
			 (unsigned long long)r->config1, (unsigned long long)r->config2, e->type, e->sysfs_pmu,
			 (unsigned long long)e->config, (unsigned long long)e->config1, (unsigned long long)e->config2);
	if (strcmp(r->perf ? r->perf : "", perf ? perf : ""))
		fail_msg("%s: the view's perf syntax is '%s', the library's '%s'", r->string, r->perf ? r->perf : "(none)",
			 perf ? perf : "(none)");
}

/* The library, on the same catalog file. */
static void test_view_equals_the_library(void **state)
{
	(void)state;
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(catalog, &err);
	assert_non_null(db);
	long checked = 0;
	for (size_t i = 0; i < nrows; i += (size_t)test_sample_step()) {
		struct pmudb_encoding e;
		char perf[1024];
		int code = pmudb_encode(db, rows[i].string, NULL, &e, NULL);
		bool has_perf = !code && !pmudb_perf_syntax(db, &e, perf, sizeof(perf), NULL);
		expect_row(&rows[i], code, &e, has_perf ? perf : NULL);
		checked++;
	}
	pmudb_close(db);
	print_message("the library: %ld strings, 0 differ\n", checked);
}

static uint64_t hex_field(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	assert_non_null(s);
	return strtoull(s, NULL, 16);
}

/* `pmudb encode --stdin`, every string (a sample under the sanitizers). */
static void test_view_equals_encode_stdin(void **state)
{
	(void)state;
	size_t step = (size_t)test_sample_step(), cap = 0, len = 0;
	char *input = NULL;
	for (size_t i = 0; i < nrows; i += step) {
		size_t n = strlen(rows[i].string);
		if (len + n + 2 > cap) {
			cap = 2 * (len + n + 2);
			input = realloc(input, cap);
		}
		memcpy(input + len, rows[i].string, n);
		len += n;
		input[len++] = '\n';
	}
	input[len] = '\0';
	struct run_result r;
	test_pmudb(&r, input, "--db", catalog, "encode", "--stdin", NULL);
	assert_int_equal(r.status, 1);	/* some lines are refused */
	char *line = r.out;
	long checked = 0;
	for (size_t i = 0; i < nrows; i += step) {
		char *end = strchr(line, '\n');
		assert_non_null(end);
		*end = '\0';
		json_error_t jerr;
		json_t *o = json_loads(line, 0, &jerr);
		if (!o)
			fail_msg("line %ld: %s: %s", checked + 1, jerr.text, line);
		const char *code = json_string_value(json_object_get(o, "error_code"));
		struct pmudb_encoding e = { .type = -1 };
		if (!code) {
			code = "PFM_SUCCESS";
			e.type = (int)json_integer_value(json_object_get(o, "type"));
			const char *k = json_string_value(json_object_get(o, "sysfs_pmu"));
			snprintf(e.sysfs_pmu, sizeof(e.sysfs_pmu), "%s", k ? k : "");
			e.config = hex_field(o, "config");
			e.config1 = hex_field(o, "config1");
			e.config2 = hex_field(o, "config2");
		}
		const struct view_row *v = &rows[i];
		if (strcmp(json_string_value(json_object_get(o, "event")), v->string))
			fail_msg("line %ld answers %s, not %s", checked + 1,
				 json_string_value(json_object_get(o, "event")), v->string);
		if (strcmp(v->error, code))
			fail_msg("%s: the view says %s, pmudb encode %s", v->string, v->error, code);
		if (!strcmp(code, "PFM_SUCCESS"))
			expect_row(v, 0, &e, v->perf);
		json_decref(o);
		line = end + 1;
		checked++;
	}
	print_message("pmudb encode --stdin: %ld strings, 0 differ\n", checked);
	test_run_free(&r);
	free(input);
}

/* LINE, one `encode --format perf` answer for STRING, without its name=
 * term: perf's syntax as the view holds it. */
static void strip_name(char *line, const char *string)
{
	char term[600];
	bool bare = strspn(string, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-") == strlen(string);
	snprintf(term, sizeof(term), bare ? ",name=%s/" : ",name='%s'/", string);
	char *at = strstr(line, term);
	if (at) {
		memmove(at, at + strlen(term) - 1, strlen(at + strlen(term) - 1) + 1);
		return;
	}
	/* a generic event's: cycles/name=X/ is cycles */
	snprintf(term, sizeof(term), bare ? "/name=%s/" : "/name='%s'/", string);
	at = strstr(line, term);
	if (at)
		memmove(at, at + strlen(term), strlen(at + strlen(term)) + 1);
}

/* `pmudb encode --format perf`, every PERF_STEP-th string. */
static void test_view_equals_encode_perf(void **state)
{
	(void)state;
	char *pmudb = test_build_path("pmudb");
	size_t step = PERF_STEP * (size_t)test_sample_step();
	long checked = 0, none = 0;
	for (size_t first = 0; first < nrows; first += step * PERF_BATCH) {
		char *argv[PERF_BATCH + 8] = { pmudb, "--db", catalog, "encode", "--format", "perf" };
		int n = 6;
		size_t which[PERF_BATCH];
		int count = 0;
		for (size_t i = first; i < nrows && count < PERF_BATCH; i += step)
			if (!strcmp(rows[i].error, "PFM_SUCCESS")) {
				which[count++] = i;
				argv[n++] = rows[i].string;
			}
		argv[n] = NULL;
		if (!count)
			continue;
		struct run_result r;
		test_run(argv, NULL, &r);
		/* a string perf has no syntax for is named on stderr, the rest answered */
		char *line = r.out;
		for (int k = 0; k < count; k++) {
			const struct view_row *v = &rows[which[k]];
			if (!v->perf) {
				if (!strstr(r.err, v->string))
					fail_msg("%s: the view has no perf syntax; pmudb encode --format perf does not say why",
						 v->string);
				none++;
				continue;
			}
			char *end = strchr(line, '\n');
			if (!end)
				fail_msg("%s: pmudb encode --format perf gave no line (%s)", v->string, r.err);
			*end = '\0';
			strip_name(line, v->string);
			if (strcmp(line, v->perf))
				fail_msg("%s: the view's perf syntax is '%s', pmudb encode --format perf's '%s'", v->string,
					 v->perf, line);
			line = end + 1;
			checked++;
		}
		test_run_free(&r);
	}
	print_message("pmudb encode --format perf: %ld strings, 0 differ (%ld without perf syntax)\n", checked, none);
	assert_true(checked > 0);
	free(pmudb);
}

/* The view's perf syntax read back (pmudb_perf_parse, as `pmudb decode`
 * reads what perf takes) gives the row's registers; perf's own names of
 * generic events (cycles, L1-dcache-loads) are not that syntax. */
static void test_view_perf_reads_back(void **state)
{
	(void)state;
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(catalog, &err);
	assert_non_null(db);
	long checked = 0, named = 0;
	for (size_t i = 0; i < nrows; i += (size_t)test_sample_step()) {
		const struct view_row *v = &rows[i];
		if (!v->perf)
			continue;
		if (!strchr(v->perf, '/')) {
			named++;
			continue;
		}
		char pmu[128];
		snprintf(pmu, sizeof(pmu), "%.*s", (int)strcspn(v->string, ":"), v->string);
		struct pmudb_pmu_info info;
		assert_int_equal(pmudb_pmu_info(db, pmudb_find_pmu(db, pmu), &info), 0);
		struct pmudb_raw_event raw;
		if (pmudb_perf_parse(v->perf, info.family, &raw, &err))
			fail_msg("%s: the view's perf syntax '%s' does not read back: %s", v->string, v->perf, err.message);
		if (raw.config != v->config || raw.config1 != v->config1 || raw.config2 != v->config2)
			fail_msg("%s: '%s' reads back as 0x%llx,0x%llx,0x%llx, the view says 0x%llx,0x%llx,0x%llx", v->string,
				 v->perf, (unsigned long long)raw.config, (unsigned long long)raw.config1,
				 (unsigned long long)raw.config2, (unsigned long long)v->config,
				 (unsigned long long)v->config1, (unsigned long long)v->config2);
		checked++;
	}
	pmudb_close(db);
	print_message("perf syntax read back: %ld strings, 0 differ (%ld named as perf names them)\n", checked, named);
	assert_true(checked > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_holds_every_bare_string),
		cmocka_unit_test(test_view_equals_the_library),
		cmocka_unit_test(test_view_equals_encode_stdin),
		cmocka_unit_test(test_view_equals_encode_perf),
		cmocka_unit_test(test_view_perf_reads_back),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
