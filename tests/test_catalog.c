/*
 * test_catalog.c - the catalog holds everything libpfm enumerates.
 *
 * Every expectation is computed here from libpfm at test time: PMU by PMU,
 * the names and codes of events, unit masks and modifiers, in libpfm's
 * order.  Nothing is compared with numbers written into the test.
 */
#include <dlfcn.h>
#include <limits.h>
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
#include <sys/stat.h>
#include <cmocka.h>

#include "tests/testlib.h"

static sqlite3 *db;

static int setup(void **state)
{
	(void)state;
	char *path = test_build_path("pmudb.db");
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	if (rc != SQLITE_OK)
		fprintf(stderr, "cannot open %s: %s\n", path, sqlite3_errstr(rc));
	free(path);
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	return rc != SQLITE_OK || pfm_initialize() != PFM_SUCCESS;
}

static int teardown(void **state)
{
	(void)state;
	sqlite3_close(db);
	pfm_terminate();
	return 0;
}

static sqlite3_stmt *prepare(const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	return st;
}

static int64_t query_int(const char *sql)
{
	sqlite3_stmt *st = prepare(sql);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int64_t v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void get_pmu(pfm_pmu_t id, pfm_pmu_info_t *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->size = sizeof(*pi);
	assert_int_equal(pfm_get_pmu_info(id, pi), PFM_SUCCESS);
}

static void get_event(int idx, pfm_event_info_t *ei)
{
	memset(ei, 0, sizeof(*ei));
	ei->size = sizeof(*ei);
	assert_int_equal(pfm_get_event_info(idx, PFM_OS_PERF_EVENT_EXT, ei), PFM_SUCCESS);
}

static void get_attr(int idx, int a, pfm_event_attr_info_t *ai)
{
	memset(ai, 0, sizeof(*ai));
	ai->size = sizeof(*ai);
	assert_int_equal(pfm_get_event_attr_info(idx, a, PFM_OS_PERF_EVENT_EXT, ai), PFM_SUCCESS);
}

/* The catalog's version is the one catalog/schema.sql declares (its
 * PRAGMA user_version line), in the pragma and in meta. */
static void test_schema_is_versioned(void **state)
{
	(void)state;
	char *schema = test_read_file("catalog/schema.sql", NULL);
	assert_non_null(schema);
	const char *at = strstr(schema, "PRAGMA user_version = ");
	assert_non_null(at);
	long version = strtol(at + strlen("PRAGMA user_version = "), NULL, 10);
	free(schema);
	assert_true(version >= 11);
	assert_int_equal(query_int("PRAGMA user_version"), version);
	assert_int_equal(query_int("SELECT value FROM meta WHERE key = 'schema_version'"), version);
}

/* The catalog says which libpfm it came from: its version string, its PMU
 * count (as libpfm enumerates them now) and a fingerprint of 16 hex
 * digits (its enumeration: the version string does not tell releases apart). */
static void test_meta_records_the_libpfm(void **state)
{
	(void)state;
	int pmus = 0;
	pfm_pmu_t id;
	pfm_for_all_pmus(id) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		pmus += pfm_get_pmu_info(id, &pi) == PFM_SUCCESS;
	}
	assert_int_equal(query_int("SELECT value FROM meta WHERE key = 'libpfm_pmus'"), pmus);
	assert_int_equal(query_int("SELECT count(*) FROM meta WHERE key = 'libpfm_version' AND length(value) > 0"), 1);
	assert_int_equal(query_int("SELECT count(*) FROM meta WHERE key IN ('libpfm_fingerprint', 'tables_fingerprint')"
				   " AND length(value) = 16 AND NOT value GLOB '*[^0-9a-f]*'"), 2);
}

/* Compares one event's unit masks and modifiers with libpfm's, in order. */
static void check_attributes(const char *pmu, const pfm_event_info_t *ei, int64_t event_id)
{
	/* libpfm's unit masks: not those the reconciliation added from a
	 * vendor list (source) or an override added (no libpfm index: why and
	 * an equiv or a code of its own); an override's change of code is
	 * compared in test_tables and test_reconcile */
	sqlite3_stmt *um = prepare("SELECT name, code, is_default, why FROM umask WHERE event_id = ? AND source IS NULL"
				   " ORDER BY position");
	sqlite3_stmt *mod = prepare("SELECT m.name FROM event e JOIN modifier m ON m.set_id = e.modifier_set_id"
				    " WHERE e.id = ? ORDER BY m.position");
	sqlite3_bind_int64(um, 1, event_id);
	sqlite3_bind_int64(mod, 1, event_id);
	for (int a = 0; a < ei->nattrs; a++) {
		pfm_event_attr_info_t ai;
		get_attr(ei->idx, a, &ai);
		sqlite3_stmt *st = ai.type == PFM_ATTR_UMASK ? um : mod;
		if (sqlite3_step(st) != SQLITE_ROW)
			fail_msg("%s::%s: attribute %s missing from the catalog", pmu, ei->name, ai.name);
		if (strcmp((const char *)sqlite3_column_text(st, 0), ai.name))
			fail_msg("%s::%s: attribute %d is %s in the catalog, %s in libpfm", pmu, ei->name, a,
				 sqlite3_column_text(st, 0), ai.name);
		if (ai.type == PFM_ATTR_UMASK) {
			if (!sqlite3_column_text(st, 3))
				assert_int_equal((uint64_t)sqlite3_column_int64(st, 1), ai.code);
			assert_int_equal(sqlite3_column_int(st, 2), ai.is_dfl);
		}
	}
	if (sqlite3_step(um) == SQLITE_ROW || sqlite3_step(mod) == SQLITE_ROW)
		fail_msg("%s::%s: the catalog has attributes libpfm does not", pmu, ei->name);
	sqlite3_finalize(um);
	sqlite3_finalize(mod);
}

static void test_every_pmu_event_and_attribute_is_in_the_catalog(void **state)
{
	(void)state;
	sqlite3_stmt *ev = prepare("SELECT e.id, e.name, e.code, e.why FROM pmu p JOIN event e ON e.table_id = p.event_table_id"
				   " WHERE p.name = ? AND e.source IS NULL ORDER BY e.position");
	pfm_pmu_t id;
	int pmus = 0;
	long events = 0, umasks = 0;
	pfm_for_all_pmus(id) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(id, &pi) != PFM_SUCCESS)
			continue;
		pmus++;
		sqlite3_bind_text(ev, 1, pi.name, -1, SQLITE_STATIC);
		for (int e = pi.first_event; e != -1; e = pfm_get_event_next(e)) {
			pfm_event_info_t ei;
			get_event(e, &ei);
			if (sqlite3_step(ev) != SQLITE_ROW)
				fail_msg("%s::%s missing from the catalog", pi.name, ei.name);
			if (strcmp((const char *)sqlite3_column_text(ev, 1), ei.name))
				fail_msg("%s: event %s in the catalog where libpfm has %s", pi.name,
					 sqlite3_column_text(ev, 1), ei.name);
			if (!sqlite3_column_text(ev, 3))
				assert_int_equal((uint64_t)sqlite3_column_int64(ev, 2), ei.code);
			check_attributes(pi.name, &ei, sqlite3_column_int64(ev, 0));
			events++;
			for (int a = 0; a < ei.nattrs; a++) {
				pfm_event_attr_info_t ai;
				get_attr(e, a, &ai);
				umasks += ai.type == PFM_ATTR_UMASK;
			}
		}
		if (sqlite3_step(ev) == SQLITE_ROW)
			fail_msg("%s: the catalog has event %s that libpfm does not", pi.name, sqlite3_column_text(ev, 1));
		sqlite3_reset(ev);
	}
	sqlite3_finalize(ev);
	/* the catalog's own PMUs (source NULL) are libpfm's, all of them */
	assert_int_equal(query_int("SELECT count(*) FROM pmu WHERE source IS NULL"), pmus);
	assert_int_equal(query_int("SELECT count(*) FROM pmu_event pe JOIN pmu p ON p.id = pe.pmu_id"
				   " JOIN event e ON e.id = pe.event_id WHERE p.source IS NULL AND e.source IS NULL"), events);
	assert_int_equal(query_int("SELECT count(*) FROM pmu p JOIN event e ON e.table_id = p.event_table_id"
				   " JOIN umask u ON u.event_id = e.id WHERE p.source IS NULL AND e.source IS NULL"
				   " AND u.source IS NULL AND e.retired = 0 AND u.retired = 0"), umasks);
	assert_int_equal(query_int("SELECT value FROM meta WHERE key = 'libpfm_events'"), events);
	assert_int_equal(query_int("SELECT value FROM meta WHERE key = 'libpfm_umasks'"), umasks);
	print_message("%d PMUs, %ld events, %ld unit masks: all in the catalog\n", pmus, events, umasks);
}

/* A signature of a PMU's event list as libpfm gives it. */
static char *pmu_signature(const pfm_pmu_info_t *pi)
{
	char *sig = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&sig, &len);
	for (int e = pi->first_event; e != -1; e = pfm_get_event_next(e)) {
		pfm_event_info_t ei;
		get_event(e, &ei);
		fprintf(f, "%s/%s/%llx;", ei.name, ei.desc, (unsigned long long)ei.code);
		for (int a = 0; a < ei.nattrs; a++) {
			pfm_event_attr_info_t ai;
			get_attr(e, a, &ai);
			fprintf(f, "%s/%s/%llx,", ai.name, ai.desc, (unsigned long long)ai.code);
		}
	}
	fclose(f);
	return sig;
}

static void test_identical_pmus_share_one_event_table(void **state)
{
	(void)state;
	sqlite3_stmt *tab = prepare("SELECT event_table_id FROM pmu WHERE name = ?");
	char *sigs[PFM_PMU_MAX] = {0};
	int64_t tables[PFM_PMU_MAX] = {0};
	int shared = 0;
	pfm_pmu_t id;
	pfm_for_all_pmus(id) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(id, &pi) != PFM_SUCCESS || !pi.nevents)
			continue;
		/* a PMU the vendor list or an override added to (an entry, a
		 * correction, a vendor name as an alias) keeps its own table */
		char sql[512];
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM pmu p JOIN event e ON e.table_id = p.event_table_id"
			 " LEFT JOIN umask u ON u.event_id = e.id WHERE p.name = '%s' AND (e.source IS NOT NULL OR"
			 " e.why IS NOT NULL OR u.source IS NOT NULL OR u.why IS NOT NULL OR EXISTS (SELECT 1 FROM"
			 " event_alias a WHERE a.event_id = e.id))", pi.name);
		if (query_int(sql))
			continue;
		sigs[id] = pmu_signature(&pi);
		sqlite3_bind_text(tab, 1, pi.name, -1, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(tab), SQLITE_ROW);
		tables[id] = sqlite3_column_int64(tab, 0);
		sqlite3_reset(tab);
		for (int other = 0; other < (int)id; other++)
			if (sigs[other] && !strcmp(sigs[other], sigs[id])) {
				if (tables[other] != tables[id])
					fail_msg("%s has the same events as PMU %d but another event table", pi.name, other);
				shared++;
				break;
			}
	}
	for (int i = 0; i < PFM_PMU_MAX; i++)
		free(sigs[i]);
	sqlite3_finalize(tab);
	assert_true(shared > 0);
	/* The 28 Skylake-X CHA boxes the issue names: one table. */
	assert_int_equal(query_int("SELECT count(DISTINCT event_table_id) FROM pmu WHERE name GLOB 'skx_unc_cha[0-9]*'"), 1);
	print_message("%d PMUs reuse another PMU's event table\n", shared);
}

/* The derived rules say what libpfm's encoder says, for every event and
 * unit mask of a few PMUs of different families (raw encoding: it needs no
 * sysfs, so uncore PMUs answer too). */
static void check_event_rules(const char *pmu, int64_t event_id, const char *event)
{
	char s[512];
	uint64_t *codes = NULL;
	int count = 0;
	snprintf(s, sizeof(s), "%s::%s", pmu, event);
	int bare = pfm_get_event_encoding(s, PFM_PLM0 | PFM_PLM3, NULL, NULL, &codes, &count);
	free(codes);
	char sql[160];
	snprintf(sql, sizeof(sql), "SELECT bare_error FROM event WHERE id = %lld", (long long)event_id);
	if (query_int(sql) != bare)
		fail_msg("%s: bare_error %lld, libpfm says %d", s, (long long)query_int(sql), bare);

	sqlite3_stmt *um = prepare("SELECT name, single_error FROM umask WHERE event_id = ? AND equiv IS NULL"
				   " AND source IS NULL AND why IS NULL");
	sqlite3_bind_int64(um, 1, event_id);
	while (sqlite3_step(um) == SQLITE_ROW) {
		snprintf(s, sizeof(s), "%s::%s:%s", pmu, event, sqlite3_column_text(um, 0));
		codes = NULL;
		count = 0;
		int r = pfm_get_event_encoding(s, PFM_PLM0 | PFM_PLM3, NULL, NULL, &codes, &count);
		free(codes);
		if (r != sqlite3_column_int(um, 1))
			fail_msg("%s: single_error %d, libpfm says %d", s, sqlite3_column_int(um, 1), r);
	}
	sqlite3_finalize(um);
}

static void test_derived_rules_agree_with_libpfm(void **state)
{
	(void)state;
	sqlite3_stmt *ev = prepare("SELECT pe.pmu, pe.event_id, pe.event FROM pmu_event pe JOIN event e ON e.id = pe.event_id"
				   " WHERE e.source IS NULL AND pe.pmu IN"
				   " ('skl', 'amd64_fam19h_zen4', 'skx_unc_cha0', 'amd64_fam17h_zen2', 'icx')");
	int n = 0;
	while (sqlite3_step(ev) == SQLITE_ROW) {
		check_event_rules((const char *)sqlite3_column_text(ev, 0), sqlite3_column_int64(ev, 1),
				  (const char *)sqlite3_column_text(ev, 2));
		n++;
	}
	sqlite3_finalize(ev);
	assert_true(n > 0);
	print_message("%d events checked against libpfm's encoder\n", n);
}

static void test_views_answer_common_questions(void **state)
{
	(void)state;
	pfm_pmu_info_t pi;
	get_pmu(PFM_PMU_AMD64_FAM19H_ZEN4, &pi);
	char sql[256];
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM pmu_event pe JOIN event e ON e.id = pe.event_id"
		 " WHERE pe.pmu = '%s' AND e.source IS NULL", pi.name);
	assert_int_equal(query_int(sql), pi.nevents);
	assert_true(query_int("SELECT count(*) FROM search WHERE name LIKE 'RETIRED_INSTRUCTIONS'"
			      " AND pmu = 'amd64_fam19h_zen4'") == 1);
	assert_true(query_int("SELECT count(*) FROM search WHERE description LIKE '%floating%'") > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema_is_versioned),
		cmocka_unit_test(test_meta_records_the_libpfm),
		cmocka_unit_test(test_every_pmu_event_and_attribute_is_in_the_catalog),
		cmocka_unit_test(test_identical_pmus_share_one_event_table),
		cmocka_unit_test(test_derived_rules_agree_with_libpfm),
		cmocka_unit_test(test_views_answer_common_questions),
	};
	return cmocka_run_group_tests_name("catalog", tests, setup, teardown);
}
