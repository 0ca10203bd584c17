/*
 * test_reconcile.c - libpfm against the vendors' lists, in the catalog `make`
 * built with the vendor tree ($PMUDB_PMU_EVENTS):
 *   - no difference is unexplained;
 *   - every difference an override corrects now encodes, under libpfm's
 *     name and the vendor's, as the vendor's JSON fields say (computed here);
 *   - every known difference keeps libpfm's encoding (asked of libpfm);
 *   - every vendor name made an alias encodes as the libpfm string it stands
 *     for, and as its own fields say;
 *   - every vendor-only entry added encodes as its fields say;
 *   - `pmudb info` shows a corrected event's difference.
 * Without a vendor tree, each part prints a SKIP line.
 */
#include <jansson.h>
#include <perfmon/pfmlib_perf_event.h>
#include <setjmp.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/libpfm_ask.h"
#include "pmudb.h"
#include "tests/testlib.h"
#include "tests/vendor_json.h"

static pmudb_t *db;
static sqlite3 *raw;
static const char *tree;

static int setup(void **state)
{
	(void)state;
	char *path = test_build_path("pmudb.db");
	struct pmudb_error err;
	db = pmudb_open(path, &err);
	int r = !db || sqlite3_open_v2(path, &raw, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK;
	free(path);
	tree = getenv("PMUDB_PMU_EVENTS");
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	return r || pfm_initialize() != PFM_SUCCESS;
}

static int teardown(void **state)
{
	(void)state;
	pmudb_close(db);
	sqlite3_close(raw);
	pfm_terminate();
	return 0;
}

static sqlite3_stmt *query(const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(raw, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(raw));
	return st;
}

static bool have_findings(void)
{
	sqlite3_stmt *st = query("SELECT count(*) FROM reconcile_summary");
	bool yes = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	if (!yes || !tree)
		print_message("SKIP: the catalog was built without a vendor tree: nothing was reconciled\n");
	return yes && tree;
}

static const char *text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

/* The JSON entry NAME of the tree's FILE; where a hybrid's file has one
 * per core type, the one whose Unit is the PMU's kernel name (cpu_core). */
static json_t *vendor_entry(const char *file, const char *name, const char *unit)
{
	/* in the tree, or (make PMU_EVENTS_EXTRA=...) in the source whose list
	 * is encoded: the files' paths are their sources' own */
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", tree, file);
	const char *more = getenv("PMUDB_PMU_EVENTS_MORE");
	char *dirs = strdup(more ? more : ""), *save = NULL;
	for (char *d = strtok_r(dirs, " ", &save); d && access(path, R_OK); d = strtok_r(NULL, " ", &save))
		snprintf(path, sizeof(path), "%s/%s", d, file);
	free(dirs);
	json_t *list = vendor_load_json(path), *e, *found = NULL;
	size_t i;
	json_array_foreach(list, i, e) {
		const char *n = json_string_value(json_object_get(e, "EventName"));
		if (!n || strcasecmp(n, name))
			continue;
		const char *u = json_string_value(json_object_get(e, "Unit"));
		if (!found || (unit && u && !strcmp(u, unit)))
			found = e;
	}
	if (!found)
		fail_msg("%s has no entry %s", path, name);
	json_incref(found);
	json_decref(list);
	return found;
}

static const struct pmudb_pmu_info *info_of(const char *pmu)
{
	static struct pmudb_pmu_info pi;
	assert_int_equal(pmudb_pmu_info(db, pmudb_find_pmu(db, pmu), &pi), 0);
	return &pi;
}

static void expect_fields(const char *pmu, const char *name, const char *file, const char *vendor_name)
{
	char s[512];
	snprintf(s, sizeof(s), "%s::%s", pmu, name);
	const struct pmudb_pmu_info *pi = info_of(pmu);
	json_t *e = vendor_entry(file, vendor_name, pi->sysfs_pmu);
	uint64_t config, config1;
	vendor_expected_config(pi->family, e, &config, &config1);
	json_decref(e);
	struct pmudb_encoding enc;
	struct pmudb_error err;
	if (pmudb_encode(db, s, NULL, &enc, &err))
		fail_msg("%s: %s", s, err.message);
	if (enc.config != config || enc.config1 != config1)
		fail_msg("%s: 0x%llx/0x%llx, where %s %s says 0x%llx/0x%llx", s, (unsigned long long)enc.config,
			 (unsigned long long)enc.config1, file, vendor_name, (unsigned long long)config,
			 (unsigned long long)config1);
}

static void test_no_difference_is_unexplained(void **state)
{
	(void)state;
	if (!have_findings())
		return;
	sqlite3_stmt *st = query("SELECT pmu, uarch, agree, differ, corrected, equivalent + by_design, vendor_error + kept,"
				 " unexplained, other_name, vendor_only, added FROM reconcile_summary");
	long differ = 0, corrected = 0, known = 0, rows = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_int(st, 7))
			fail_msg("%s with %s: %d differences neither corrected nor known", text(st, 0), text(st, 1),
				 sqlite3_column_int(st, 7));
		assert_int_equal(sqlite3_column_int(st, 3),
				 sqlite3_column_int(st, 4) + sqlite3_column_int(st, 5) + sqlite3_column_int(st, 6));
		differ += sqlite3_column_int(st, 3);
		corrected += sqlite3_column_int(st, 4);
		known += sqlite3_column_int(st, 5) + sqlite3_column_int(st, 6);
		rows++;
	}
	sqlite3_finalize(st);
	/* the rows agree with the summary */
	st = query("SELECT count(*) FROM finding WHERE match = 'differ' AND explained IS NULL");
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 0);
	sqlite3_finalize(st);
	print_message("%ld PMUs reconciled: %ld differences, %ld corrected, %ld known, 0 unexplained\n", rows, differ,
		      corrected, known);
}

static void test_corrections_encode_as_the_vendor_says(void **state)
{
	(void)state;
	if (!have_findings())
		return;
	sqlite3_stmt *st = query("SELECT pmu, libpfm_name, vendor_name, vendor_file, explained, libpfm_config,"
				 " libpfm_config1 FROM finding WHERE match = 'differ'");
	int corrected = 0, kept = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *pmu = text(st, 0), *name = text(st, 1), *vname = text(st, 2), *file = text(st, 3);
		if (!text(st, 4))
			continue;	/* unexplained: test_no_difference_is_unexplained says so */
		if (!strcmp(text(st, 4), "corrected")) {
			expect_fields(pmu, name, file, vname);	/* libpfm's name */
			expect_fields(pmu, vname, file, vname);	/* the vendor's */
			corrected++;
			continue;
		}
		/* a known difference: libpfm's answer stays */
		char s[512];
		snprintf(s, sizeof(s), "%s::%s", pmu, name);
		struct perf_event_attr attr;
		char *fstr = NULL;
		assert_int_equal(libpfm_ask(s, &attr, &fstr, NULL), 0);
		free(fstr);
		struct pmudb_encoding e;
		struct pmudb_error err;
		assert_int_equal(pmudb_encode(db, s, NULL, &e, &err), 0);
		assert_int_equal(e.config, attr.config);
		assert_int_equal(e.config1, attr.config1);
		assert_int_equal(attr.config, (uint64_t)sqlite3_column_int64(st, 5));
		kept++;
	}
	sqlite3_finalize(st);
	print_message("%d corrections encode as the vendor's fields say, under both names; %d known differences"
		      " keep libpfm's encoding\n", corrected, kept);
}

/* Whether an override corrected anything of PMU: most PMUs have none, and
 * corrected()'s query over tens of thousands of aliases took minutes. */
static bool has_corrections(const char *pmu)
{
	static char names[512][64];
	static int count = -1;
	if (count < 0) {
		sqlite3_stmt *st = query("SELECT DISTINCT p.name FROM pmu p JOIN event e ON e.table_id = p.event_table_id"
					 " LEFT JOIN umask u ON u.event_id = e.id WHERE e.why IS NOT NULL OR u.why IS NOT NULL");
		count = 0;
		while (sqlite3_step(st) == SQLITE_ROW) {
			assert_true(count < 512);
			snprintf(names[count++], sizeof(names[0]), "%s", text(st, 0));
		}
		sqlite3_finalize(st);
	}
	for (int i = 0; i < count; i++)
		if (!strcasecmp(names[i], pmu))
			return true;
	return false;
}

/* Did an override correct libpfm's string PMU::EVENT[:ATTRS]? */
static bool corrected(const char *pmu, const char *event, const char *attrs)
{
	if (!has_corrections(pmu))
		return false;
	sqlite3_stmt *st = query("SELECT count(*) FROM pmu p JOIN event e ON e.table_id = p.event_table_id"
				 " LEFT JOIN umask u ON u.event_id = e.id AND (':' || ?3 || ':') LIKE ('%:' || u.name || ':%')"
				 " WHERE p.name = ?1 AND (e.why IS NOT NULL OR u.why IS NOT NULL) AND (e.name = ?2 OR e.name ="
				 " (SELECT substr(x.equiv, 1, instr(x.equiv || ':', ':') - 1) FROM event x"
				 "  WHERE x.table_id = p.event_table_id AND x.name = ?2))");
	sqlite3_bind_text(st, 1, pmu, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, event, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, attrs ? attrs : "", -1, SQLITE_STATIC);
	bool yes = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	return yes;
}

/* Vendor names that are aliases of libpfm strings, and added vendor-only
 * entries: each as its fields say; an alias as the string it stands for,
 * which is libpfm's answer unless an override corrected it. */
static void test_vendor_names_on_libpfm_pmus(void **state)
{
	(void)state;
	if (!have_findings())
		return;
	sqlite3_stmt *st = query("SELECT p.name, a.name, e.name, a.attrs FROM pmu p"
				 " JOIN event_alias a ON a.table_id = p.event_table_id JOIN event e ON e.id = a.event_id"
				 " WHERE p.source IS NULL AND e.source IS NULL AND a.name LIKE '%.%'"
				 " AND NOT EXISTS (SELECT 1 FROM umask u WHERE u.event_id = e.id AND u.name = a.attrs"
				 " AND u.source IS NOT NULL) ORDER BY p.id, a.name");
	int aliases = 0, shadowed = 0;
	long row = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (row++ % test_sample_step())
			continue;	/* sampled under the sanitizers */
		char mine[512], theirs[512];
		snprintf(mine, sizeof(mine), "%s::%s", text(st, 0), text(st, 1));
		snprintf(theirs, sizeof(theirs), "%s::%s%s%s", text(st, 0), text(st, 2), text(st, 3) ? ":" : "",
			 text(st, 3) ? text(st, 3) : "");
		struct perf_event_attr attr;
		char *fstr = NULL;
		int r = libpfm_ask(theirs, &attr, &fstr, NULL);
		free(fstr);
		if (r)
			fail_msg("%s stands for %s, which libpfm refuses: %s", mine, theirs, pfm_strerror(r));
		struct pmudb_encoding e, t;
		struct pmudb_error err;
		/* a vendor name libpfm itself reads by its dots keeps libpfm's
		 * answer (perfmon's nhm OFFCORE_RESPONSE_0.ANY_DATA.ANY_CACHE_DRAM
		 * is libpfm's OFFCORE_RESPONSE_0:ANY_DATA:ANY_CACHE_DRAM) */
		struct perf_event_attr own;
		fstr = NULL;
		if (!libpfm_ask(mine, &own, &fstr, NULL)) {
			free(fstr);
			if (pmudb_encode(db, mine, NULL, &e, &err) || e.config != own.config || e.config1 != own.config1)
				fail_msg("%s: libpfm reads it as 0x%llx/0x%llx; pmudb must too", mine,
					 (unsigned long long)own.config, (unsigned long long)own.config1);
			shadowed++;
			continue;
		}
		if (pmudb_encode(db, mine, NULL, &e, &err) || pmudb_encode(db, theirs, NULL, &t, &err))
			fail_msg("%s: %s", mine, err.message);
		if (e.config != t.config || e.config1 != t.config1)
			fail_msg("%s: 0x%llx/0x%llx, but the libpfm string it stands for, %s, 0x%llx/0x%llx", mine,
				 (unsigned long long)e.config, (unsigned long long)e.config1, theirs,
				 (unsigned long long)t.config, (unsigned long long)t.config1);
		if (corrected(text(st, 0), text(st, 2), text(st, 3)))
			continue;
		if (e.config != attr.config || e.config1 != attr.config1)
			fail_msg("%s: 0x%llx/0x%llx; libpfm's %s 0x%llx/0x%llx", mine, (unsigned long long)e.config,
				 (unsigned long long)e.config1, theirs, (unsigned long long)attr.config,
				 (unsigned long long)attr.config1);
		aliases++;
	}
	sqlite3_finalize(st);
	st = query("SELECT pmu, vendor_name, vendor_file FROM finding WHERE match = 'vendor_only' AND added = 1");
	int added = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		expect_fields(text(st, 0), text(st, 1), text(st, 2), text(st, 1));
		added++;
	}
	sqlite3_finalize(st);
	assert_true(aliases > 0 && added > 0);
	print_message("%d vendor names encode as the libpfm strings they alias; %d vendor-only entries added encode"
		      " as their fields say\n", aliases, added);
	if (shadowed)
		print_message("%d vendor names libpfm reads by its own dots keep libpfm's answer\n", shadowed);
}

struct reentry {
	int findings, encoded;
	char pmu[128];
};

/* A callback that uses the handle: each finding's vendor name encoded, and
 * a catalog read that takes the handle's lock whatever is cached. */
static int use_the_handle(void *ctx, const struct pmudb_finding *f)
{
	struct reentry *r = ctx;
	char s[512];
	struct pmudb_encoding e;
	snprintf(s, sizeof(s), "%s::%s", r->pmu, f->vendor_name);
	r->encoded += pmudb_encode(db, s, NULL, &e, NULL) == PMUDB_OK;
	assert_non_null(pmudb_meta(db, "libpfm_version"));
	r->findings++;
	return 0;
}

/* pmudb_event_findings calls back without the handle's lock: a callback
 * that used the handle hung on it.  alarm: a hang fails the test. */
static void test_findings_callback_may_use_the_handle(void **state)
{
	(void)state;
	if (!have_findings())
		return;
	sqlite3_stmt *st = query("SELECT pmu, vendor_name FROM finding WHERE match = 'vendor_only' AND added = 1"
				 " AND vendor_name LIKE '%.%' ORDER BY id LIMIT 1");
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	struct reentry r = { 0, 0, "" };
	snprintf(r.pmu, sizeof(r.pmu), "%s", text(st, 0));
	char name[512];
	snprintf(name, sizeof(name), "%s::%s", text(st, 0), text(st, 1));
	sqlite3_finalize(st);
	int p, e;
	assert_int_equal(pmudb_find_event(db, name, NULL, &p, &e, NULL), PMUDB_OK);
	alarm(60);
	int n = pmudb_event_findings(db, p, e, use_the_handle, &r);
	alarm(0);
	assert_true(n > 0);
	assert_int_equal(r.findings, n);
	assert_int_equal(r.encoded, n);
}

/* pmudb info names a corrected event's difference and its source. */
static void test_info_shows_the_difference(void **state)
{
	(void)state;
	if (!have_findings())
		return;
	sqlite3_stmt *st = query("SELECT pmu, libpfm_name, vendor_file FROM finding WHERE explained = 'corrected' LIMIT 1");
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	char event[512];
	snprintf(event, sizeof(event), "%s::%s", text(st, 0), text(st, 1));
	event[strcspn(event + strlen(text(st, 0)) + 2, ":") + strlen(text(st, 0)) + 2] = '\0';
	char *pmudb = test_build_path("pmudb");
	char *argv[] = { pmudb, "info", event, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "against the vendor's list") || !strstr(r.out, "corrected") || !strstr(r.out, text(st, 2)))
		fail_msg("pmudb info %s:\n%s", event, r.out);
	test_run_free(&r);
	sqlite3_finalize(st);
	free(pmudb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_difference_is_unexplained),
		cmocka_unit_test(test_corrections_encode_as_the_vendor_says),
		cmocka_unit_test(test_vendor_names_on_libpfm_pmus),
		cmocka_unit_test(test_info_shows_the_difference),
		cmocka_unit_test(test_findings_callback_may_use_the_handle),
	};
	return cmocka_run_group_tests_name("reconcile", tests, setup, teardown);
}
