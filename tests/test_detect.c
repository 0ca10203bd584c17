/*
 * test_detect.c - CPU detection from the CPUID map: cpuinfo fixtures of
 * real CPUs, the map against the catalog, and the map against libpfm.
 *
 * What libpfm detects is asked of the installed libpfm at test time: on
 * this host directly, and on every fixture CPU and every x86 entry of
 * tables/cpuid.yaml under qemu-x86_64 with that CPU's CPUID
 * (libpfm_cpu.h).  Whatever libpfm detects, the map's entry must name,
 * its core PMU first.  What the fixtures name beyond that is the map's
 * own intent (a newer table where libpfm has none): the first of the
 * listed PMUs the catalog has.
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
#include <sys/stat.h>
#include <cmocka.h>

#include "tests/libpfm_ask.h"
#include "tests/libpfm_cpu.h"
#include "pmudb.h"
#include "tests/testlib.h"

#define FIXTURES "tests/fixtures/cpuinfo/"

static pmudb_t *db;

static int setup(void **state)
{
	(void)state;
	struct pmudb_error err;
	db = pmudb_open(NULL, &err);
	/* pmu:: names of PMUs absent here encode too; bare names still only
	 * resolve among the PMUs libpfm detects on this host */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	return !db || pfm_initialize() != PFM_SUCCESS;
}

static int teardown(void **state)
{
	(void)state;
	pmudb_close(db);
	pfm_terminate();
	return 0;
}

static const char *pmu_name(int index)
{
	static struct pmudb_pmu_info info;
	pmudb_pmu_info(db, index, &info);
	return info.name;
}

static bool scope_has(const struct pmudb_scope *s, const char *name)
{
	for (int i = 0; i < s->count; i++)
		if (!strcmp(pmu_name(s->pmus[i]), name))
			return true;
	return false;
}

/* The first of NAMES (NULL-ended) that the catalog has, or NULL: a PMU a
 * newer libpfm or the vendor tree brings, else the older table it ran on. */
static const char *first_present(const char *const *names)
{
	for (; *names; names++)
		if (pmudb_find_pmu(db, *names) >= 0)
			return *names;
	return NULL;
}

static bool is_x86(const struct pmudb_cpu *cpu)
{
	return !strcmp(cpu->vendor, "GenuineIntel") || !strcmp(cpu->vendor, "AuthenticAMD");
}

/*
 * Every PMU libpfm detects on CPU is in its SCOPE, and where libpfm
 * detects a core PMU the scope starts with one.  Returns how many PMUs
 * libpfm detects, or -1 when it cannot be asked (then nothing is checked).
 */
static int check_against_libpfm(const char *what, const struct pmudb_cpu *cpu, const struct pmudb_scope *scope)
{
	if (libpfm_cpu_unavailable() || !is_x86(cpu))
		return -1;
	struct libpfm_pmu l[PMUDB_SCOPE_MAX];
	int n = libpfm_cpu_pmus(cpu, l, PMUDB_SCOPE_MAX);
	if (n < 0)
		fail_msg("%s: libpfm_detect under qemu failed", what);
	bool core = false, first_is_core = false;
	for (int i = 0; i < n; i++) {
		if (!scope_has(scope, l[i].name))
			fail_msg("%s (%s %d/0x%x): libpfm detects %s; the CPUID map's entry lacks it", what, cpu->vendor,
				 cpu->family, (unsigned)cpu->model, l[i].name);
		core |= l[i].core;
		first_is_core |= l[i].core && scope->count && !strcmp(pmu_name(scope->pmus[0]), l[i].name);
	}
	if (core && !first_is_core)
		fail_msg("%s (%s %d/0x%x): the entry starts with %s, not with a core PMU libpfm detects", what,
			 cpu->vendor, cpu->family, (unsigned)cpu->model, pmu_name(scope->pmus[0]));
	return n;
}

static void test_fixtures_get_their_pmus(void **state)
{
	(void)state;
	struct {
		const char *file;
		const char *first[3];	/* the core PMU, looked up first: the first of these the catalog has */
		const char *also;	/* another PMU that must be there, or NULL */
	} cases[] = {
		{ "ryzen9_7940hx.txt", { "amd64_fam19h_zen4" }, NULL },
		{ "zen3_epyc_7763.txt", { "amd64_fam19h_zen3" }, "amd64_fam19h_zen3_l3" },
		{ "zen2_epyc_7742.txt", { "amd64_fam17h_zen2" }, "amd64_rapl" },
		{ "skylake_i7_6700.txt", { "skl" }, "rapl" },
		{ "skylake_x_gold_6148.txt", { "skx" }, "skx_unc_cha27" },
		{ "cascadelake_platinum_8280.txt", { "clx" }, "skx_unc_cha0" },
		{ "icelake_sp_platinum_8380.txt", { "icx" }, "rapl" },
		{ "sapphire_rapids_platinum_8480.txt", { "spr" }, "rapl" },
		{ "emerald_rapids_platinum_8592.txt", { "emr", "spr" }, NULL },
		{ "epyc_9005_zen5.txt", { "amd64_fam1ah_zen5" }, NULL },
		{ "ryzen9_9950x_zen5.txt", { "amd64_fam1ah_zen5" }, NULL },
		{ "granite_rapids_xeon_6980p.txt", { "gnr" }, NULL },
		{ "meteorlake_core_ultra_7_155h.txt", { "mtl_rwc" }, "mtl_cmt" },
		{ "alderlake_i9_12900k.txt", { "adl_glc" }, "adl_grt" },
		{ "neoverse_n2.txt", { "arm_n2" }, NULL },
	};
	int skipped = 0, asked = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmudb_cpu cpu;
		struct pmudb_scope scope;
		struct pmudb_cpu_match match;
		struct pmudb_error err;
		char path[256];
		snprintf(path, sizeof(path), FIXTURES "%s", cases[i].file);
		assert_int_equal(pmudb_cpu_from_cpuinfo(path, &cpu, &err), 0);
		const char *first = first_present(cases[i].first);
		int r = pmudb_scope_cpu(db, &cpu, &scope, &match, &err);
		if (!first) {
			/* built without the vendor tree: an honest "no table" */
			if (r != PMUDB_ERR_NOCPU)
				fail_msg("%s: the catalog has no %s, yet the CPU got PMUs", cases[i].file, cases[i].first[0]);
			skipped++;
			continue;
		}
		if (r)
			fail_msg("%s: %s", cases[i].file, err.message);
		if (strcmp(pmu_name(scope.pmus[0]), first))
			fail_msg("%s: first PMU %s, expected %s", cases[i].file, pmu_name(scope.pmus[0]), first);
		if (cases[i].also && !scope_has(&scope, cases[i].also))
			fail_msg("%s: %s missing", cases[i].file, cases[i].also);
		for (int a = 0; a < scope.count; a++)
			for (int b = a + 1; b < scope.count; b++)
				if (scope.pmus[a] == scope.pmus[b])
					fail_msg("%s: %s twice", cases[i].file, pmu_name(scope.pmus[a]));
		/* a tables entry, or a vendor source's row (a mapfile's; an
		 * ARM-software/data core list's, pmu/CORE.json) */
		assert_true(match.why[0] && (strstr(match.source, "cpuid.yaml:") || strstr(match.source, "mapfile.csv:")
					     || !strncmp(match.source, "pmu-events:pmu/", 15)));
		asked += check_against_libpfm(cases[i].file, &cpu, &scope) >= 0;
	}
	if (skipped)
		print_message("SKIP: %d fixtures name CPUs whose PMUs this catalog lacks (no vendor tree): each answered"
			      " 'no event table'\n", skipped);
	if (libpfm_cpu_unavailable())
		print_message("SKIP part: the fixtures are not checked against libpfm: %s\n", libpfm_cpu_unavailable());
	else
		print_message("%d x86 fixtures: every PMU libpfm detects on each (asked under qemu) is in its entry\n",
			      asked);
}

/* Every x86 entry of the tables (not the vendor tree's mapfile rows) at
 * its lowest model and stepping: what libpfm detects there, the entry
 * names (the map covers what the installed libpfm detects). */
static void test_map_entries_against_libpfm(void **state)
{
	(void)state;
	if (libpfm_cpu_unavailable()) {
		print_message("SKIP: the CPUID map is not checked against libpfm: %s\n", libpfm_cpu_unavailable());
		return;
	}
	char *path = test_build_path("pmudb.db");
	sqlite3 *raw;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open_v2(path, &raw, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(raw, "SELECT vendor, family, model_lo, stepping_lo, source FROM cpuid_map"
					    " WHERE source LIKE '%cpuid.yaml:%' AND vendor IN ('GenuineIntel', 'AuthenticAMD')"
					    " ORDER BY id", -1, &st, NULL), SQLITE_OK);
	int entries = 0, detected = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct pmudb_cpu cpu = { .family = sqlite3_column_int(st, 1), .model = sqlite3_column_int(st, 2),
					 .stepping = sqlite3_column_int(st, 3) };
		snprintf(cpu.vendor, sizeof(cpu.vendor), "%s", (const char *)sqlite3_column_text(st, 0));
		struct pmudb_scope scope;
		struct pmudb_error err;
		if (pmudb_scope_cpu(db, &cpu, &scope, NULL, &err))
			fail_msg("%s: %s", (const char *)sqlite3_column_text(st, 4), err.message);
		detected += check_against_libpfm((const char *)sqlite3_column_text(st, 4), &cpu, &scope) > 0;
		entries++;
	}
	sqlite3_finalize(st);
	sqlite3_close(raw);
	free(path);
	assert_true(entries > 0);
	print_message("%d x86 CPUID map entries against libpfm under qemu: libpfm detects PMUs on %d, each in its"
		      " entry\n", entries, detected);
}

static void test_cpus_without_a_table_get_an_honest_answer(void **state)
{
	(void)state;
	struct {
		const char *file;
		const char *words;
	} cases[] = {
		{ "lakefield_i5_l16g7.txt", "no event table for GenuineIntel 6/0x8A" },
		{ "unknown_vendor.txt", "no event table for CentaurHauls 6/0xF" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmudb_cpu cpu;
		struct pmudb_scope scope;
		struct pmudb_error err;
		char path[256];
		snprintf(path, sizeof(path), FIXTURES "%s", cases[i].file);
		assert_int_equal(pmudb_cpu_from_cpuinfo(path, &cpu, &err), 0);
		/* libpfm detects nothing there either (else the map must have it) */
		struct libpfm_pmu l[PMUDB_SCOPE_MAX];
		if (!libpfm_cpu_unavailable() && is_x86(&cpu) && libpfm_cpu_pmus(&cpu, l, PMUDB_SCOPE_MAX) != 0)
			fail_msg("%s: libpfm detects %s there, yet the case expects no table", cases[i].file, l[0].name);
		assert_int_equal(pmudb_scope_cpu(db, &cpu, &scope, NULL, &err), PMUDB_ERR_NOCPU);
		assert_int_equal(scope.count, 0);
		if (!strstr(err.message, cases[i].words) || !strstr(err.message, "in this catalog's CPUID map"))
			fail_msg("%s: '%s' lacks '%s' ... in this catalog's CPUID map", cases[i].file, err.message,
				 cases[i].words);
	}
	/* Lakefield's answer names the nearest family-6 entries */
	struct pmudb_cpu lkf;
	struct pmudb_scope scope;
	struct pmudb_error err;
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/6/0x8a", &lkf, &err), 0);
	assert_int_equal(pmudb_scope_cpu(db, &lkf, &scope, NULL, &err), PMUDB_ERR_NOCPU);
	assert_non_null(strstr(err.message, "nearest"));
	/* entries that differ by stepping only are named once: Skylake-X and
	 * Cascade Lake share model 0x55, and Cascade Lake has two stepping
	 * ranges */
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/6/0x55/999", &lkf, &err), 0);
	if (pmudb_scope_cpu(db, &lkf, &scope, NULL, &err) == PMUDB_ERR_NOCPU) {
		const char *list = strstr(err.message, "nearest entries of that family: ");
		assert_non_null(list);
		char items[3][64] = { "", "", "" };
		int n = sscanf(list + strlen("nearest entries of that family: "), "%63[^,], %63[^,], %63[^,]", items[0],
			       items[1], items[2]);
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				if (!strcmp(items[i], items[j]))
					fail_msg("'%s' names %s twice", err.message, items[i]);
	}
	/* a CPU filled by hand whose vendor fills its array: refused, not
	 * read past (sanitizers watch) */
	memset(lkf.vendor, 'G', sizeof(lkf.vendor));
	assert_int_equal(pmudb_scope_cpu(db, &lkf, &scope, NULL, &err), PMUDB_ERR_INVAL);
	assert_non_null(strstr(err.message, "vendor does not end"));
}

/* A family the map has no entry for: the answer says so of the map, not of
 * the catalog, and names the core PMUs no entry names (a table may well be
 * there for it: ix86arch is on every Intel CPU). */
static void test_a_family_without_entries_names_the_unmapped_tables(void **state)
{
	(void)state;
	struct pmudb_cpu cpu;
	struct pmudb_scope scope;
	struct pmudb_error err;
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/0x13/0x1", &cpu, &err), 0);
	assert_int_equal(pmudb_scope_cpu(db, &cpu, &scope, NULL, &err), PMUDB_ERR_NOCPU);
	assert_non_null(strstr(err.message, "CPUID map, which has no entry for that family"));
	assert_null(strstr(err.message, "nor for any CPU"));
	char *path = test_build_path("pmudb.db");
	sqlite3 *raw;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open_v2(path, &raw, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(raw, "SELECT name FROM pmu WHERE kind = 'core' AND name NOT IN"
					    " (SELECT pmu_name FROM cpuid_map_pmu) ORDER BY id LIMIT 8", -1, &st, NULL), SQLITE_OK);
	int unmapped = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		if (!strstr(err.message, name))
			fail_msg("the catalog's %s is in no map entry, and '%s' does not name it", name, err.message);
		unmapped++;
	}
	sqlite3_finalize(st);
	sqlite3_close(raw);
	free(path);
	if (!unmapped)
		assert_non_null(strstr(err.message, "names every core PMU"));
}

static void test_bad_cpuinfo_is_refused(void **state)
{
	(void)state;
	struct pmudb_cpu cpu;
	struct pmudb_error err;
	assert_int_equal(pmudb_cpu_from_cpuinfo(FIXTURES "malformed.txt", &cpu, &err), PMUDB_ERR_INVAL);
	assert_non_null(strstr(err.message, "malformed.txt:3"));
	assert_int_equal(pmudb_cpu_from_cpuinfo(FIXTURES "empty.txt", &cpu, &err), PMUDB_ERR_INVAL);
	assert_non_null(strstr(err.message, "empty.txt"));
	assert_int_equal(pmudb_cpu_from_cpuinfo(FIXTURES "no-such-file.txt", &cpu, &err), PMUDB_ERR_INVAL);
	/* a file without end: refused in bounded time (a child under timeout,
	 * so that reading forever fails the test instead of hanging it) */
	if (!access("/dev/zero", R_OK)) {
		char *pmudb = test_build_path("pmudb");
		char *argv[] = { "/usr/bin/timeout", "20", pmudb, "--cpuinfo", "/dev/zero", "detect", NULL };
		struct run_result r;
		test_run(argv, NULL, &r);
		assert_int_equal(r.status, 2);
		assert_non_null(strstr(r.err, "/dev/zero:1: a NUL byte"));
		assert_int_equal(test_line_count(r.err), 1);
		test_run_free(&r);
		free(pmudb);
	}
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/6", &cpu, &err), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/six/1", &cpu, &err), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_cpu_parse("AuthenticAMD/0x19/0x61/2", &cpu, &err), 0);
	assert_int_equal(cpu.family, 0x19);
	assert_int_equal(cpu.model, 0x61);
	assert_int_equal(cpu.stepping, 2);
}

/* cpuinfo as users hand it over: CRLF lines, "stepping : unknown" (Linux,
 * for CPUs without one), no stepping line, numbers decimal even with a
 * leading 0; and an Arm cpuinfo (implementer and part, no vendor_id). */
static void test_cpuinfo_edges(void **state)
{
	(void)state;
	struct pmudb_cpu cpu;
	struct pmudb_scope scope;
	struct pmudb_error err;
	assert_int_equal(pmudb_cpu_from_cpuinfo(FIXTURES "crlf_unknown_stepping.txt", &cpu, &err), 0);
	assert_string_equal(cpu.vendor, "GenuineIntel");
	assert_int_equal(cpu.model, 143);
	assert_int_equal(cpu.stepping, -1);
	assert_int_equal(pmudb_scope_cpu(db, &cpu, &scope, NULL, &err), 0);
	assert_string_equal(pmu_name(scope.pmus[0]), "spr");
	assert_int_equal(pmudb_cpu_from_cpuinfo(FIXTURES "decimal_model_no_stepping.txt", &cpu, &err), 0);
	assert_int_equal(cpu.model, 10);
	assert_int_equal(cpu.stepping, -1);
	assert_int_equal(pmudb_cpu_from_cpuinfo(FIXTURES "neoverse_n2.txt", &cpu, &err), 0);
	assert_string_equal(cpu.vendor, "0x41");
	assert_int_equal(cpu.family, 8);
	assert_int_equal(cpu.model, 0xd49);
	assert_int_equal(cpu.stepping, 0);
	assert_int_equal(pmudb_cpu_parse("0x41/8/0xd49", &cpu, &err), 0);
	assert_int_equal(cpu.model, 0xd49);
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/6/010", &cpu, &err), 0);
	assert_int_equal(cpu.model, 10);
}

/* Stepping decides between Skylake-X and Cascade Lake. */
static void test_stepping_decides(void **state)
{
	(void)state;
	struct pmudb_cpu cpu;
	struct pmudb_scope scope;
	struct pmudb_error err;
	for (int stepping = 0; stepping <= 15; stepping++) {
		char spec[64];
		snprintf(spec, sizeof(spec), "GenuineIntel/6/85/%d", stepping);
		assert_int_equal(pmudb_cpu_parse(spec, &cpu, &err), 0);
		assert_int_equal(pmudb_scope_cpu(db, &cpu, &scope, NULL, &err), 0);
		assert_string_equal(pmu_name(scope.pmus[0]), stepping < 5 ? "skx" : "clx");
	}
}

static void test_every_pmu_the_map_names_is_in_the_catalog(void **state)
{
	(void)state;
	char *path = test_build_path("pmudb.db");
	sqlite3 *raw;
	assert_int_equal(sqlite3_open_v2(path, &raw, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(raw, "SELECT DISTINCT pmu_name FROM cpuid_map_pmu", -1, &st, NULL), SQLITE_OK);
	int n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		if (pmudb_find_pmu(db, name) < 0)
			fail_msg("the CPUID map names %s, which the catalog does not have", name);
		n++;
	}
	sqlite3_finalize(st);
	sqlite3_close(raw);
	free(path);
	assert_true(n > 0);
}

/* This host: whatever libpfm activates, the map's entry has it; where
 * libpfm finds no core PMU but the map does, pmudb encodes anyway. */
static void test_host_against_libpfm(void **state)
{
	(void)state;
	struct pmudb_cpu cpu;
	struct pmudb_scope scope;
	struct pmudb_error err;
	assert_int_equal(pmudb_cpu_host(&cpu, &err), 0);
	int r = pmudb_scope_cpu(db, &cpu, &scope, NULL, &err);
	bool libpfm_core = false;
	pfm_pmu_t id;
	pfm_for_all_pmus(id) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(id, &pi) != PFM_SUCCESS || !pi.is_present || pi.type == PFM_PMU_TYPE_OS_GENERIC)
			continue;
		if (strcmp(pi.name, "ix86arch"))	/* the architected fallback is not in the map */
			libpfm_core |= pi.type == PFM_PMU_TYPE_CORE;
		if (!r && strcmp(pi.name, "ix86arch") && !scope_has(&scope, pi.name))
			fail_msg("libpfm activates %s on this host; the map's entry lacks it", pi.name);
	}
	if (r) {
		assert_false(libpfm_core);	/* the map knows every CPU libpfm knows */
		print_message("SKIP: neither libpfm nor the CPUID map has a table for this host (%s %d/0x%x): %s\n",
			      cpu.vendor, cpu.family, (unsigned)cpu.model, err.message);
		return;
	}
	if (libpfm_core) {
		print_message("SKIP: libpfm detects this host's core PMU itself; no gap to show here\n");
		return;
	}
	struct pmudb_encoding e;
	struct pmudb_event_info ei;
	assert_int_equal(pmudb_event_info(db, scope.pmus[0], 0, &ei), 0);
	assert_int_equal(pmudb_encode(db, ei.name, &scope, &e, &err), 0);
	print_message("this host: libpfm finds no core PMU, pmudb encodes %s on %s\n", ei.name, e.pmu);
}

/* The gap the issue names, on a simulated Emerald Rapids: libpfm on this
 * host cannot encode INST_RETIRED:ANY_P without a PMU prefix; pmudb with
 * the Emerald Rapids cpuinfo gives libpfm's spr encoding (Emerald Rapids
 * runs Sapphire Rapids' table), on emr where the catalog has it. */
static void test_emerald_rapids_gap_is_closed(void **state)
{
	(void)state;
	char *pmudb = test_build_path("pmudb");
	char *argv[] = { pmudb, "--cpuinfo", FIXTURES "emerald_rapids_platinum_8592.txt", "encode", "--format", "json",
			 "INST_RETIRED:ANY_P", NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	assert_int_equal(r.status, 0);

	struct perf_event_attr attr;
	char *fstr = NULL, *ignored = NULL;
	int unprefixed = libpfm_ask("INST_RETIRED:ANY_P", &attr, &ignored, NULL);
	free(ignored);
	int spr = libpfm_ask("spr::INST_RETIRED:ANY_P", &attr, &fstr, NULL);
	assert_int_equal(spr, PFM_SUCCESS);
	char expect[128];
	snprintf(expect, sizeof(expect), "\"config\":\"0x%llx\"", (unsigned long long)attr.config);
	assert_non_null(strstr(r.out, expect));
	const char *emr = pmudb_find_pmu(db, "emr") >= 0 ? "emr" : "spr";
	assert_non_null(strstr(r.out, emr));
	assert_non_null(strstr(r.out, strstr(fstr, "::")));	/* the same fstr past the PMU name */
	if (unprefixed == PFM_SUCCESS)
		print_message("SKIP part: libpfm on this host encodes INST_RETIRED:ANY_P itself\n");
	else
		print_message("libpfm on this host: INST_RETIRED:ANY_P -> %s; pmudb --cpuinfo EMR: %s\n",
			      pfm_strerror(unprefixed), expect);
	free(fstr);
	test_run_free(&r);

	char *detect[] = { pmudb, "--cpuinfo", FIXTURES "emerald_rapids_platinum_8592.txt", "detect", "--json", NULL };
	test_run(detect, NULL, &r);
	assert_int_equal(r.status, 0);
	char pmus[64];
	snprintf(pmus, sizeof(pmus), "\"pmus\":[\"%s\"", emr);	/* then its uncore PMUs, where the catalog has them */
	assert_non_null(strstr(r.out, pmus));
	assert_non_null(strstr(r.out, "\"model\":207"));
	assert_non_null(strstr(r.out, "\"why\":\"Emerald Rapids"));
	test_run_free(&r);
	free(pmudb);
}

/* `pmudb detect --json` of this host, parsed (the caller frees it). */
static json_t *detect_json(void)
{
	struct run_result r;
	test_pmudb(&r, NULL, "detect", "--json", (char *)NULL);
	json_error_t jerr;
	json_t *j = json_loads(r.out, 0, &jerr);
	if (!j)
		fail_msg("detect --json: %s: %s", jerr.text, r.out);
	test_run_free(&r);
	return j;
}

static void make_dir(const char *dir, const char *name)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0755), 0);
}

/* On this host, detect lists the uncore PMUs of its µarch with their
 * kernel PMUs, and how many boxes of each this machine's sysfs has: a
 * stand-in sysfs ($PMUDB_SYSFS_DEVICES) with the first kernel PMU as two
 * numbered boxes, the second as itself, the others absent. */
static void test_detect_counts_the_uncore_boxes_sysfs_has(void **state)
{
	(void)state;
	json_t *j = detect_json();
	json_t *uncore = json_object_get(j, "uncore");
	if (!json_is_array(uncore) || json_array_size(uncore) == 0) {
		print_message("SKIP: this host's CPU has no uncore PMU in the catalog (%s)\n",
			      json_string_value(json_object_get(j, "error")) ? json_string_value(json_object_get(j, "error"))
									      : "no map entry lists one");
		json_decref(j);
		return;
	}
	char *dir = test_tempdir();
	size_t n = json_array_size(uncore);
	char first[128], second[128] = "";
	snprintf(first, sizeof(first), "%s", json_string_value(json_object_get(json_array_get(uncore, 0), "kernel_pmu")));
	char name[160];
	snprintf(name, sizeof(name), "%s_0", first);
	make_dir(dir, name);
	snprintf(name, sizeof(name), "%s_7", first);
	make_dir(dir, name);
	for (size_t i = 1; i < n && !second[0]; i++) {
		const char *k = json_string_value(json_object_get(json_array_get(uncore, i), "kernel_pmu"));
		if (strcmp(k, first))
			snprintf(second, sizeof(second), "%s", k);
	}
	if (second[0])
		make_dir(dir, second);
	make_dir(dir, "software");
	json_decref(j);

	setenv("PMUDB_SYSFS_DEVICES", dir, 1);
	j = detect_json();
	unsetenv("PMUDB_SYSFS_DEVICES");
	uncore = json_object_get(j, "uncore");
	assert_int_equal(json_array_size(uncore), n);
	for (size_t i = 0; i < n; i++) {
		json_t *u = json_array_get(uncore, i);
		const char *k = json_string_value(json_object_get(u, "kernel_pmu"));
		long want = !strcmp(k, first) ? 2 : !strcmp(k, second) ? 1 : 0;
		assert_int_equal(json_integer_value(json_object_get(u, "in_sysfs")), want);
	}
	json_t *sysfs = json_object_get(j, "sysfs");
	assert_int_equal(json_array_size(sysfs), second[0] ? 4 : 3);
	json_decref(j);

	/* another CPU's: its µarch's uncore PMUs, no sysfs */
	struct run_result r;
	test_pmudb(&r, NULL, "--cpu", "AuthenticAMD/0x1a/0x2", "detect", (char *)NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "sysfs"));
	test_run_free(&r);
	test_rmtree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures_get_their_pmus),
		cmocka_unit_test(test_map_entries_against_libpfm),
		cmocka_unit_test(test_cpus_without_a_table_get_an_honest_answer),
		cmocka_unit_test(test_a_family_without_entries_names_the_unmapped_tables),
		cmocka_unit_test(test_bad_cpuinfo_is_refused),
		cmocka_unit_test(test_cpuinfo_edges),
		cmocka_unit_test(test_stepping_decides),
		cmocka_unit_test(test_every_pmu_the_map_names_is_in_the_catalog),
		cmocka_unit_test(test_host_against_libpfm),
		cmocka_unit_test(test_emerald_rapids_gap_is_closed),
		cmocka_unit_test(test_detect_counts_the_uncore_boxes_sysfs_has),
	};
	return cmocka_run_group_tests_name("detect", tests, setup, teardown);
}
