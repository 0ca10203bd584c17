/*
 * test_sources.c - several vendor sources in one build (issue 45): perf's
 * tree of linux-source-6.12 ($PMUDB_PMU_EVENTS) with fixture trees of the
 * three layouts (tests/fixtures/sources: perf's, Intel's perfmon,
 * ARM-software/data) whose versions of one µarch conflict.  Checked: the
 * list encoded is the newest as the test computes it from what each file
 * states, and its events encode as their JSON says; the others are kept
 * with what changed (pmudb sources, info, diff UARCH@A UARCH@B); a new
 * µarch of one source (Nova Lake, family 18) is detected and encodes;
 * quirks of real lists are read or left out with a note; the library and
 * the CLI give the same lists.
 */
#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <sqlite3.h>
#include <strings.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmudb.h"
#include "tests/exhaustive.h"
#include "tests/json_shape.h"
#include "tests/testlib.h"
#include "tests/vendor_json.h"

#define FIXTURES "tests/fixtures/sources"

static char *tmp, *catalog, *build_out;
static const char *debian;	/* perf's tree of linux-source-6.12, or NULL */
static pmudb_t *db;

#define run(r, ...) test_pmudb((r), NULL, "--db", catalog, __VA_ARGS__, (char *)NULL)

static int setup(void **state)
{
	(void)state;
	tmp = test_tempdir();
	debian = getenv("PMUDB_PMU_EVENTS");
	if (debian && !*debian)
		debian = NULL;
	/* under the sanitizers a build costs twice a plain one's with
	 * Debian's tree: the fixtures alone there, Debian's in the plain pass */
	bool sampled = test_sample_step() > 1 && debian;
	if (sampled)
		debian = NULL;
	assert_true(asprintf(&catalog, "%s/sources.db", tmp) > 0);
	char *compiler = test_build_path("pmudb-build");
	char *argv[16];
	int n = 0;
	argv[n++] = compiler;
	argv[n++] = "--tables";
	argv[n++] = "tables";
	if (debian) {
		argv[n++] = "--pmu-events";
		argv[n++] = (char *)debian;
		argv[n++] = "--pmu-events-origin";
		argv[n++] = "Debian's tree";
	}
	char *trees[] = { FIXTURES "/kernel-newer", FIXTURES "/perfmon", FIXTURES "/arm-data" };
	for (int i = 0; i < 3; i++) {
		argv[n++] = "--pmu-events";
		argv[n++] = trees[i];
	}
	argv[n++] = "--out";
	argv[n++] = catalog;
	argv[n] = NULL;
	struct run_result r;
	test_run(argv, NULL, &r);
	free(compiler);
	if (r.status) {
		fprintf(stderr, "the build of the fixture sources failed: %s\n", r.err);
		test_run_free(&r);
		return -1;
	}
	build_out = r.out;
	free(r.err);
	struct pmudb_error err;
	db = pmudb_open(catalog, &err);
	if (!db)
		fprintf(stderr, "%s: %s\n", catalog, err.message);
	if (!debian)
		print_message("SKIP (in part): %s: the fixture sources alone\n",
			      sampled ? "under the sanitizers (the plain pass adds Debian's tree)" : "no $PMUDB_PMU_EVENTS");
	return db ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	pmudb_close(db);
	test_rmtree(tmp);
	free(tmp);
	free(catalog);
	free(build_out);
	return 0;
}

/* ---- what the files state ------------------------------------------------ */

/* A list's version as a number to compare ("v1.50" is 1050, "V1.10" 1010). */
static int version_number(const char *text)
{
	int major = 0, minor = 0;
	assert_true(sscanf(text + (*text == 'v' || *text == 'V'), "%d.%d", &major, &minor) >= 1);
	return major * 1000 + minor;
}

/* The version column of the first row of MAPFILE naming FOLDER (perf's
 * layout: ID,VERSION,FOLDER,TYPE; perfmon's: ID,VERSION,/DIR/FILE,...). */
static char *mapfile_version(const char *mapfile, const char *folder)
{
	char *text = test_read_file(mapfile, NULL);
	assert_non_null(text);
	char *found = NULL, *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save)) {
		char id[128], version[32], file[256];
		if (sscanf(line, "%127[^,],%31[^,],%255[^,]", id, version, file) == 3 && strstr(file, folder))
			found = strdup(version);
	}
	free(text);
	assert_non_null(found);
	return found;
}

/* OUTPUT holds to the shape docs/json.md gives top TOP (test_json checks
 * the other commands; the objects of lists superseded are made here). */
static void expect_documented_shape(const char *top, const char *output)
{
	char *error = NULL;
	struct json_shapes *shapes = json_shapes_load("docs/json.md", &error);
	if (!shapes)
		fail_msg("%s", error);
	char *why = json_shapes_check(shapes, top, output);
	if (why)
		fail_msg("%s --json: %s\n(docs/json.md documents its shape)", top, why);
	json_shapes_free(shapes);
}

/* `pmudb sources --json UARCH`, parsed. */
static json_t *sources_of(const char *uarch)
{
	struct run_result r;
	run(&r, "sources", "--json", uarch);
	if (r.status)
		fail_msg("pmudb sources %s: %s", uarch, r.err);
	json_error_t jerr;
	json_t *j = json_loads(r.out, 0, &jerr);
	if (!json_is_array(j))
		fail_msg("pmudb sources --json %s is no JSON list: %s\n%s", uarch, jerr.text, r.out);
	test_run_free(&r);
	return j;
}

static const char *field(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* ---- the tests ----------------------------------------------------------- */

/* graniterapids is in three sources (four with Debian's): the newest list,
 * by the versions the test reads from the mapfiles, is encoded; the others
 * are listed as superseded, each with what changed. */
static void test_the_newest_list_is_encoded(void **state)
{
	(void)state;
	struct { const char *layout, *mapfile, *folder; char *version; } lists[] = {
		{ "kernel", FIXTURES "/kernel-newer/x86/mapfile.csv", "graniterapids", NULL },
		{ "perfmon", FIXTURES "/perfmon/mapfile.csv", "/GNR/", NULL },
		{ "kernel", NULL, "graniterapids", NULL },
	};
	char *debian_mapfile = NULL;
	if (debian)
		assert_true(asprintf(&debian_mapfile, "%s/x86/mapfile.csv", debian) > 0);
	lists[2].mapfile = debian_mapfile;
	int count = debian ? 3 : 2, newest = 0;
	for (int i = 0; i < count; i++) {
		lists[i].version = mapfile_version(lists[i].mapfile, lists[i].folder);
		if (version_number(lists[i].version) > version_number(lists[newest].version))
			newest = i;
	}
	json_t *j = sources_of("graniterapids");
	assert_int_equal(json_array_size(j), count);
	json_t *encoded = json_array_get(j, 0);
	assert_true(json_is_true(json_object_get(encoded, "encoded")));
	assert_string_equal(field(encoded, "layout"), lists[newest].layout);
	assert_int_equal(version_number(field(encoded, "version")), version_number(lists[newest].version));
	for (int i = 0; i < count; i++) {
		bool listed = false;
		for (size_t k = 0; k < json_array_size(j); k++) {
			json_t *l = json_array_get(j, k);
			if (!strcmp(field(l, "layout"), lists[i].layout)
			    && version_number(field(l, "version")) == version_number(lists[i].version)) {
				listed = true;
				assert_true(json_is_true(json_object_get(l, "encoded")) == (i == newest));
				if (i != newest)
					assert_true(json_integer_value(json_object_get(l, "changes")) > 0);
			}
		}
		if (!listed)
			fail_msg("graniterapids %s %s is not listed by pmudb sources", lists[i].layout, lists[i].version);
		free(lists[i].version);
	}
	json_t *perfmon = NULL;
	for (size_t k = 0; k < json_array_size(j); k++)
		if (!strcmp(field(json_array_get(j, k), "layout"), "perfmon"))
			perfmon = json_array_get(j, k);
	assert_string_equal(field(perfmon, "date"), "2025-03-01");	/* its Header's 03/01/2025 */
	json_decref(j);
	free(debian_mapfile);

	/* the encoded list's events encode as its JSON states them */
	json_t *list = vendor_load_json(FIXTURES "/kernel-newer/x86/graniterapids/pipeline.json");
	size_t i;
	json_t *e;
	json_array_foreach(list, i, e) {
		char s[256];
		snprintf(s, sizeof(s), "gnr::%s", json_string_value(json_object_get(e, "EventName")));
		uint64_t config, config1;
		vendor_expected_config("intel_x86", e, &config, &config1);
		struct pmudb_encoding enc;
		struct pmudb_error err;
		if (pmudb_encode(db, s, NULL, &enc, &err))
			fail_msg("%s: %s", s, err.message);
		if (enc.config != config || enc.config1 != config1)
			fail_msg("%s: 0x%llx 0x%llx, the newest list says 0x%llx 0x%llx", s, (unsigned long long)enc.config,
				 (unsigned long long)enc.config1, (unsigned long long)config, (unsigned long long)config1);
	}
	json_decref(list);
	/* what only an older list has is not the µarch's any more */
	struct pmudb_encoding enc;
	struct pmudb_error err;
	assert_int_not_equal(pmudb_encode(db, "gnr::FIXTURE_ONLY.V110", NULL, &enc, &err), 0);
	if (debian)
		assert_int_not_equal(pmudb_encode(db, "gnr::ARITH.DIV_ACTIVE", NULL, &enc, &err), 0);
}

/* info says which list an event is from, and what it superseded; diff
 * lists what changed between two of the lists, either way round. */
static void test_info_and_diff_say_where_from(void **state)
{
	(void)state;
	struct run_result r;
	run(&r, "info", "gnr::FIXTURE_ONLY.NEWER");
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "  list: version 1.50, fixture") && !strstr(r.out, "  list: version 1.50, "))
		fail_msg("info does not name the list encoded:\n%s", r.out);
	assert_non_null(strstr(r.out, "  supersedes: version 1.10 of 2025-03-01, "));
	assert_non_null(strstr(r.out, "(perfmon layout)"));
	test_run_free(&r);

	run(&r, "diff", "graniterapids@1.10", "graniterapids@1.50");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "  added    FIXTURE_ONLY.NEWER "));
	assert_non_null(strstr(r.out, "  removed  FIXTURE_ONLY.V110 "));
	assert_non_null(strstr(r.out, "  changed  BR_MISP_RETIRED.ALL_BRANCHES "));
	assert_non_null(strstr(r.out, "event=0xc5 -> event=0xc5,umask=0x3"));
	assert_non_null(strstr(r.out, "2 added, 1 removed, 1 changed\n"));	/* MEM_LOAD_RETIRED.L3_MISS is new too */
	test_run_free(&r);
	run(&r, "diff", "--json", "graniterapids@1.50", "graniterapids@perfmon");
	assert_int_equal(r.status, 0);
	expect_documented_shape("difflists", r.out);
	json_t *j = json_loads(r.out, 0, NULL);
	assert_non_null(j);
	json_t *changes = json_object_get(j, "changes");
	int removed = 0;
	size_t i;
	json_t *c;
	json_array_foreach(changes, i, c)
		removed += !strcmp(field(c, "change"), "removed") && !strcmp(field(c, "event"), "FIXTURE_ONLY.NEWER");
	assert_int_equal(removed, 1);	/* from the newest to the older: what it added is removed */
	json_decref(j);
	test_run_free(&r);

	run(&r, "diff", "graniterapids@9.99", "graniterapids@1.50");
	assert_int_equal(r.status, 1);
	assert_int_equal(test_line_count(r.err), 1);
	test_run_free(&r);
	if (debian) {
		run(&r, "diff", "graniterapids@1.02", "graniterapids@1.10");
		assert_int_equal(r.status, 2);	/* both superseded: their changes are not kept */
		assert_non_null(strstr(r.err, "both superseded"));
		test_run_free(&r);
	}
	run(&r, "sources", "no-such-uarch");
	assert_int_equal(r.status, 1);
	assert_int_equal(test_line_count(r.err), 1);
	test_run_free(&r);
}

/* A µarch only perfmon has (Nova Lake, family 18, a hybrid) is detected and
 * encodes; a number with a space after it, a fixed counter's CounterHTOff
 * and a second unit mask (UMaskExt, config bits 40-47) are read. */
static void test_new_silicon_from_perfmon(void **state)
{
	(void)state;
	struct run_result r;
	run(&r, "--cpu", "GenuineIntel/18/0x1", "detect");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "nvl_cyc"));
	assert_non_null(strstr(r.out, "nvl_awf"));
	test_run_free(&r);
	run(&r, "--cpu", "GenuineIntel-18-1", "encode", "--format", "json", "OCR.DEMAND_DATA_RD.ANY_RESPONSE");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"config1\":\"0x10001\""));
	test_run_free(&r);
	struct pmudb_encoding enc;
	struct pmudb_error err;
	assert_int_equal(pmudb_encode(db, "nvl_cyc::CPU_CLK_UNHALTED.THREAD", NULL, &enc, &err), 0);
	assert_int_equal(pmudb_encode(db, "nvl_awf::LONGEST_LAT_CACHE.MISS", NULL, &enc, &err), 0);
	assert_int_equal(enc.config & 0xffff, 0x412e);
	assert_int_equal(pmudb_encode(db, "nvl_cyc::L2_REQUEST.MISS", NULL, &enc, &err), 0);
	assert_int_equal(enc.config, 0x24 | 0x01 << 8 | 0x80ULL << 40);
	json_t *j = sources_of("novalake");
	assert_int_equal(json_array_size(j), 1);
	assert_string_equal(field(json_array_get(j, 0), "date"), "2026-07-09");
	json_decref(j);
}

/* Where the fixture's entry NAME may be counted, as its fields say: with
 * SMT off (CounterHTOff), sampled precisely (PEBScounters), alone. */
static struct ex_event fixture_counters(json_t *list, const char *name, bool smt_off, bool precise)
{
	size_t i;
	json_t *e;
	json_array_foreach(list, i, e)
		if (!strcmp(json_string_value(json_object_get(e, "EventName")), name)) {
			struct ex_event x = { .alone = vendor_field(e, "TakenAlone") != 0 };
			const char *key = precise && json_object_get(e, "PEBScounters") ? "PEBScounters"
					  : smt_off && json_object_get(e, "CounterHTOff") ? "CounterHTOff" : "Counter";
			uint64_t fixed;
			vendor_counters(e, key, &x.general, &fixed);
			x.fixed = (uint32_t)fixed;
			return x;
		}
	fail_msg("no fixture entry %s", name);
	return (struct ex_event){0};
}

/* Counter constraints of a perfmon list (issue 46): TakenAlone, the SMT-off
 * counters (CounterHTOff), the counters of precise sampling (PEBScounters),
 * each held against the exhaustive search on what the fixture states. */
static void test_counters_of_a_perfmon_list(void **state)
{
	(void)state;
	json_t *list = vendor_load_json(FIXTURES "/perfmon/NVL/events/novalake_coyotecove_core.json");
	struct {
		const char *events[3];
		int n;
		bool smt_off, precise;
		bool fits;
	} cases[] = {
		{ { "CYCLE_ACTIVITY.CYCLES_L1D_MISS", "CYCLE_ACTIVITY.STALLS_L1D_MISS" }, 2, false, false, false },
		{ { "CYCLE_ACTIVITY.CYCLES_L1D_MISS", "CYCLE_ACTIVITY.STALLS_L1D_MISS" }, 2, true, false, true },
		{ { "MEM_LOAD_RETIRED.L3_MISS", "MEM_LOAD_RETIRED.L2_MISS", "MEM_LOAD_RETIRED.L1_MISS" }, 3, false, false, true },
		{ { "MEM_LOAD_RETIRED.L3_MISS", "MEM_LOAD_RETIRED.L2_MISS", "MEM_LOAD_RETIRED.L1_MISS" }, 3, false, true, false },
		{ { "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", "L2_REQUEST.MISS" }, 2, false, false, false },
		{ { "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", "CPU_CLK_UNHALTED.THREAD" }, 2, false, false, true },
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const char *strings[3];
		char names[3][128];
		struct ex_event ex[3];
		for (int i = 0; i < cases[c].n; i++) {
			snprintf(names[i], sizeof(names[i]), "nvl_cyc::%s%s", cases[c].events[i], cases[c].precise ? ":precise=1" : "");
			strings[i] = names[i];
			ex[i] = fixture_counters(list, cases[c].events[i], cases[c].smt_off, cases[c].precise);
			/* the kernel's rule: event 0x3c on fixed counter 1 or a general one */
			if (!strcmp(cases[c].events[i], "CPU_CLK_UNHALTED.THREAD"))
				ex[i] = (struct ex_event){ .general = 0xff, .fixed = 0x2 };
		}
		struct pmudb_group_options o = { .smt_off = cases[c].smt_off };
		struct pmudb_group g;
		struct pmudb_error err;
		if (pmudb_group(db, strings, cases[c].n, NULL, &o, &g, &err))
			fail_msg("case %zu: %s", c, err.message);
		assert_int_equal(g.npmus, 1);
		assert_int_equal(g.pmus[0].fits, cases[c].fits);
		assert_int_equal(g.pmus[0].fits, ex_kernel_fits(ex, cases[c].n));
		assert_int_equal(g.pmus[0].could_fit, ex_could_fit(ex, cases[c].n, 8, 2));
		assert_int_equal(g.pmus[0].parts, ex_fewest_groups(ex, cases[c].n));
		assert_int_equal(g.members[0].where.taken_alone, ex[0].alone);
		pmudb_group_free(&g);
	}
	/* the PMU's counters: the highest its Counter fields name, with SMT
	 * off CounterHTOff's; and the CLI's --smt */
	struct run_result r;
	run(&r, "--cpu", "GenuineIntel-18-1", "group", "--smt", "off", "CYCLE_ACTIVITY.CYCLES_L1D_MISS",
	    "CYCLE_ACTIVITY.STALLS_L1D_MISS");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "nvl_cyc: 8 general, 2 fixed counters"));
	test_run_free(&r);
	run(&r, "--cpu", "GenuineIntel-18-1", "group", "--smt", "on", "CYCLE_ACTIVITY.CYCLES_L1D_MISS",
	    "CYCLE_ACTIVITY.STALLS_L1D_MISS");
	assert_int_equal(r.status, 3);
	assert_non_null(strstr(r.out, "compete for 1 counter"));
	test_run_free(&r);
	json_decref(list);
}

/* ARM-software/data: a dated list beats perf's undated one; a core perf
 * lacks is new; a common list and a 32-bit core are not read. */
static void test_arm_software_data(void **state)
{
	(void)state;
	json_t *j = sources_of("neoverse-v1");
	json_t *encoded = json_array_get(j, 0);
	assert_string_equal(field(encoded, "layout"), "arm-data");
	assert_string_equal(field(encoded, "date"), "2024-06-01");
	assert_int_equal(json_array_size(j), debian ? 2 : 1);
	json_decref(j);
	json_t *root = vendor_load_json(FIXTURES "/arm-data/pmu/neoverse-v1.json");
	json_t *list = json_object_get(root, "events");
	size_t i;
	json_t *e;
	int named = 0;
	json_array_foreach(list, i, e) {
		const char *name = field(e, "name");
		if (!name)
			continue;
		char s[128];
		snprintf(s, sizeof(s), "arm_v1::%s", name);
		struct pmudb_encoding enc;
		struct pmudb_error err;
		if (pmudb_encode(db, s, NULL, &enc, &err))
			fail_msg("%s: %s", s, err.message);
		assert_int_equal(enc.config, json_integer_value(json_object_get(e, "code")));
		named++;
	}
	assert_int_equal(named, 3);
	json_decref(root);
	struct pmudb_encoding enc;
	struct pmudb_error err;
	assert_int_equal(pmudb_encode(db, "arm_v3::STALL_SLOT", NULL, &enc, &err), 0);
	assert_int_equal(enc.config, 16444);
	assert_non_null(strstr(build_out, "arm-data/pmu/neoverse-v1.json:11:30: an event without a \"name\" (left out)"));
	assert_non_null(strstr(build_out, "arm-data/pmu/cortex-a8.json: pmu_architecture 'pmuv2', not PMUv3: not read"));
	struct run_result r;
	run(&r, "sources", "common_armv9");
	assert_int_equal(r.status, 1);
	test_run_free(&r);
}

/* ---- the real checkouts `make` was given (PMU_EVENTS_EXTRA) -------------- */

/* Whether the compiler keeps entry E of a perfmon list: a name users can
 * type. */
static bool kept_entry(json_t *e)
{
	const char *name = field(e, "EventName");
	if (!name || !*name || strlen(name) > 200 || name[0] == '.' || name[strlen(name) - 1] == '.' || strstr(name, ".."))
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' && *p != '-')
			return false;
	return true;
}

/* Another entry of LIST is NAME.something: the bare one is left out (an
 * event whose unit masks are listed). */
static bool has_dotted(json_t *list, const char *name)
{
	size_t i, n = strlen(name);
	json_t *e;
	json_array_foreach(list, i, e) {
		const char *other = field(e, "EventName");
		if (other && !strncasecmp(other, name, n) && other[n] == '.')
			return true;
	}
	return false;
}

/* The catalog's PMU made from ARCH/UARCH[@UNIT], or NULL (unmapped). */
static char *pmu_of(pmudb_t *d, const char *uarch, const char *unit)
{
	char want[512];
	snprintf(want, sizeof(want), "pmu-events:%s%s%s", uarch, unit ? "@" : "", unit ? unit : "");
	for (int i = 0; i < pmudb_pmu_count(d); i++) {
		struct pmudb_pmu_info p;
		if (!pmudb_pmu_info(d, i, &p) && p.source && !strcmp(p.source, want) && strcmp(p.family, "kernel_format"))
			return strdup(p.name);
	}
	return NULL;
}

struct encoded_from { const char *uarch; char source[1024]; };

static int encoded_source(void *ctx, const struct pmudb_vendor_list *l)
{
	struct encoded_from *f = ctx;
	if (!l->superseded_by && !strcmp(l->uarch, f->uarch))
		snprintf(f->source, sizeof(f->source), "%s", l->source);
	return 0;
}

/* Each entry of FILE (a perfmon core file of µarch x86/UARCH) that the
 * compiler keeps encodes, on its PMU, to what its fields say. */
static int check_perfmon_file(pmudb_t *d, const char *path, const char *uarch, const char *unit)
{
	char *pmu = pmu_of(d, uarch, unit);
	if (!pmu)
		return 0;
	json_t *list = vendor_load_json(path);
	json_t *seen = json_object();
	size_t i;
	json_t *e;
	int n = 0;
	json_array_foreach(list, i, e) {
		const char *name = field(e, "EventName");
		if (!kept_entry(e) || json_object_get(seen, name) || (!strchr(name, '.') && has_dotted(list, name)))
			continue;
		json_object_set_new(seen, name, json_true());
		char s[512];
		snprintf(s, sizeof(s), "%s::%s", pmu, name);
		uint64_t config, config1;
		vendor_expected_config("intel_x86", e, &config, &config1);
		struct pmudb_encoding enc;
		struct pmudb_error err;
		if (pmudb_encode(d, s, NULL, &enc, &err))
			fail_msg("%s (%s): %s", s, path, err.message);
		if (enc.config != config || enc.config1 != config1)
			fail_msg("%s (%s): 0x%llx 0x%llx, its fields say 0x%llx 0x%llx", s, path, (unsigned long long)enc.config,
				 (unsigned long long)enc.config1, (unsigned long long)config, (unsigned long long)config1);
		n++;
	}
	json_decref(seen);
	json_decref(list);
	free(pmu);
	return n;
}

/* A checkout of intel/perfmon `make` read: every core file of a µarch whose
 * list it encodes.  The µarch is named as the compiler names it (the file's
 * name without _core.json; a hybrid's before its first '_'). */
static int check_perfmon(pmudb_t *d, const char *dir, const char *abs, int *lists)
{
	char path[2048];
	snprintf(path, sizeof(path), "%s/mapfile.csv", dir);
	char *text = test_read_file(path, NULL);
	assert_non_null(text);
	json_t *done = json_object();
	int n = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *fields[8] = { 0 }, *s = line;
		int k = 0;
		while (s && k < 8)
			fields[k++] = strsep(&s, ",");
		if (k < 4 || (strcmp(fields[3], "core") && strcmp(fields[3], "hybridcore")))
			continue;
		bool hybrid = !strcmp(fields[3], "hybridcore");
		const char *file = fields[2] + strspn(fields[2], "/");
		if (json_object_get(done, file))
			continue;
		json_object_set_new(done, file, json_true());
		const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
		char name[256], uarch[300];
		snprintf(name, sizeof(name), "%s", base);
		for (char *p = name; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		if (hybrid)
			name[strcspn(name, "_.")] = '\0';
		else if (strstr(name, "_core.json"))
			*strstr(name, "_core.json") = '\0';
		else
			name[strcspn(name, ".")] = '\0';
		snprintf(uarch, sizeof(uarch), "x86/%s", name);
		const char *role = k >= 7 ? fields[6] : "";
		const char *unit = !hybrid ? NULL : !strcasecmp(role, "Core") ? "cpu_core"
						 : !strcasecmp(role, "Atom") ? "cpu_atom" : "cpu_lowpower";
		struct encoded_from f = { .uarch = uarch };
		pmudb_vendor_lists(d, uarch, encoded_source, &f, NULL);
		if (strcmp(f.source, abs))
			continue;	/* a newer list of another source is encoded */
		snprintf(path, sizeof(path), "%s/%s", dir, file);
		int got = check_perfmon_file(d, path, uarch, unit);
		n += got;
		*lists += got > 0;
	}
	json_decref(done);
	free(text);
	return n;
}

/* A checkout of ARM-software/data: each core list encoded from it. */
static int check_arm_data(pmudb_t *d, const char *abs, int *lists)
{
	sqlite3 *raw = NULL;
	char *path = test_build_path("pmudb.db");
	assert_int_equal(sqlite3_open_v2(path, &raw, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(raw, "SELECT l.uarch, l.file, p.name FROM vendor_list l JOIN pmu p ON"
					    " p.source = 'pmu-events:' || l.uarch WHERE l.layout = 'arm-data'"
					    " AND l.superseded_by IS NULL AND l.source = ?", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, abs, -1, SQLITE_STATIC);
	int n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char file[2048];
		snprintf(file, sizeof(file), "%s/%s", abs, (const char *)sqlite3_column_text(st, 1));
		const char *pmu = (const char *)sqlite3_column_text(st, 2);
		json_t *root = vendor_load_json(file);
		size_t i;
		json_t *e;
		json_array_foreach(json_object_get(root, "events"), i, e) {
			const char *name = field(e, "name");
			if (!name)
				continue;
			char s[512];
			snprintf(s, sizeof(s), "%s::%s", pmu, name);
			struct pmudb_encoding enc;
			struct pmudb_error err;
			if (pmudb_encode(d, s, NULL, &enc, &err))
				fail_msg("%s (%s): %s", s, file, err.message);
			if (enc.config != (uint64_t)json_integer_value(json_object_get(e, "code")))
				fail_msg("%s (%s): config 0x%llx, its code is %lld", s, file, (unsigned long long)enc.config,
					 (long long)json_integer_value(json_object_get(e, "code")));
			n++;
		}
		(*lists)++;
		json_decref(root);
	}
	sqlite3_finalize(st);
	sqlite3_close(raw);
	free(path);
	return n;
}

/* The catalog `make` built with PMU_EVENTS_EXTRA: every list it encodes
 * from a perfmon or ARM-software/data checkout, against its JSON. */
static void test_extra_sources_encode_as_their_json(void **state)
{
	(void)state;
	const char *more = getenv("PMUDB_PMU_EVENTS_MORE");
	if (!more || !*more) {
		print_message("SKIP: make was given no PMU_EVENTS_EXTRA (checkouts of intel/perfmon, ARM-software/data):"
			      " the fixture sources above stand for them\n");
		return;
	}
	char *path = test_build_path("pmudb.db");
	struct pmudb_error err;
	pmudb_t *d = pmudb_open(path, &err);
	assert_non_null(d);
	char *dirs = strdup(more), *save = NULL;
	for (char *dir = strtok_r(dirs, " ", &save); dir; dir = strtok_r(NULL, " ", &save)) {
		char *abs = realpath(dir, NULL), probe[2048];
		assert_non_null(abs);
		int lists = 0, n = 0;
		snprintf(probe, sizeof(probe), "%s/mapfile.csv", dir);
		const char *layout = NULL;
		if (!access(probe, R_OK)) {
			layout = "perfmon";
			n = check_perfmon(d, dir, abs, &lists);
		} else {
			snprintf(probe, sizeof(probe), "%s/cpus.json", dir);
			if (!access(probe, R_OK)) {
				layout = "arm-data";
				n = check_arm_data(d, abs, &lists);
			}
		}
		if (layout)
			print_message("%s (%s): %d lists encoded from it, %d events each as its JSON says\n", dir, layout,
				      lists, n);
		else
			print_message("%s: perf's layout, checked as Debian's is by test_vendor where it names the tree\n", dir);
		free(abs);
	}
	free(dirs);
	pmudb_close(d);
	free(path);
}

static int count_list(void *ctx, const struct pmudb_vendor_list *l)
{
	(void)l;
	(*(int *)ctx)++;
	return 0;
}

/* The library lists what the CLI prints. */
static void test_library_and_cli_agree(void **state)
{
	(void)state;
	struct run_result r;
	run(&r, "sources", "--json");
	assert_int_equal(r.status, 0);
	expect_documented_shape("sources", r.out);	/* superseded lists among them: "changes" */
	json_t *j = json_loads(r.out, 0, NULL);
	assert_non_null(j);
	int n = 0;
	struct pmudb_error err;
	int found = pmudb_vendor_lists(db, NULL, count_list, &n, &err);
	assert_int_equal(found, n);
	assert_int_equal((size_t)n, json_array_size(j));
	print_message("%d vendor lists, %s\n", n, debian ? "with Debian's tree" : "the fixtures alone");
	json_decref(j);
	test_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_newest_list_is_encoded),
		cmocka_unit_test(test_info_and_diff_say_where_from),
		cmocka_unit_test(test_new_silicon_from_perfmon),
		cmocka_unit_test(test_counters_of_a_perfmon_list),
		cmocka_unit_test(test_arm_software_data),
		cmocka_unit_test(test_library_and_cli_agree),
		cmocka_unit_test(test_extra_sources_encode_as_their_json),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
