/*
 * test_vendor.c - the vendors' event lists as a second source.
 *
 * Fixture trees written for this test (tests/fixtures/pmu-events/): the
 * kernel's layout (a hybrid, an Intel server core, a Zen, an Arm core with
 * architecture-standard events) and Intel's perfmon layout, built into
 * catalogs of their own; malformed trees stopping the build at the
 * FILE:LINE:COLUMN their 'expect' file states, the previous catalog kept.
 * Then the real tree `make` used ($PMUDB_PMU_EVENTS): every core event of
 * every vendor PMU encodes, to the config this test computes from the
 * event's JSON fields (Intel: event, umask, edge, any, inv, cmask and the
 * MSR value; AMD: the split event select; Arm: the event number), and the
 * libpfm names a vendor PMU answers to encode as libpfm encodes them on its
 * 'like' PMU.  A sys/ folder of system PMUs (fixture sys/) on a fixture
 * driver (tests/fixtures/kernel-source).
 */
#include <ctype.h>
#include <dirent.h>
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
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/libpfm_ask.h"
#include "pmudb.h"
#include "tests/testlib.h"
#include "tests/vendor_json.h"

#define FIXTURES "tests/fixtures/pmu-events"

static char *tmp, *compiler, *kernel_db, *perfmon_db;

static int run_build(const char *tree, const char *out, struct run_result *r)
{
	char *argv[] = { compiler, "--quiet", "--tables", "tables/families.yaml", "--tables", FIXTURES "/vendor_pmus.yaml",
			 "--pmu-events", (char *)tree, "--out", (char *)out, NULL };
	test_run(argv, NULL, r);
	return r->status;
}

static char *temp_path(const char *name)
{
	char *p = NULL;
	assert_true(asprintf(&p, "%s/%s", tmp, name) > 0);
	return p;
}

static int setup(void **state)
{
	(void)state;
	tmp = test_tempdir();
	compiler = test_build_path("pmudb-build");
	kernel_db = temp_path("kernel.db");
	perfmon_db = temp_path("perfmon.db");
	const char *trees[] = { FIXTURES "/kernel", FIXTURES "/perfmon" };
	char *outs[] = { kernel_db, perfmon_db };
	for (int i = 0; i < 2; i++) {
		struct run_result r;
		int status = run_build(trees[i], outs[i], &r);
		if (status)
			fprintf(stderr, "fixture build of %s failed: %s\n", trees[i], r.err);
		test_run_free(&r);
		if (status)
			return -1;
	}
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	return pfm_initialize() != PFM_SUCCESS;
}

static int teardown(void **state)
{
	(void)state;
	test_rmtree(tmp);
	free(tmp);
	free(compiler);
	free(kernel_db);
	free(perfmon_db);
	pfm_terminate();
	return 0;
}

/* Another entry of the list is NAME.something: the bare one is left out. */
static bool has_dotted(json_t *list, const char *name)
{
	size_t i, n = strlen(name);
	json_t *e;
	json_array_foreach(list, i, e) {
		const char *other = json_string_value(json_object_get(e, "EventName"));
		if (other && !strncasecmp(other, name, n) && other[n] == '.')
			return true;
	}
	return false;
}

/* The fstr of ENC (what S encoded to) encodes to the same attributes and
 * the same fstr: what pmudb prints for a vendor PMU can be fed back. */
static void expect_fstr_reencodes(pmudb_t *db, const char *s, const struct pmudb_encoding *enc)
{
	struct pmudb_encoding again;
	struct pmudb_error err;
	if (pmudb_encode(db, enc->fstr, NULL, &again, &err))
		fail_msg("%s: its fstr %s does not encode: %s", s, enc->fstr, err.message);
	if (again.config != enc->config || again.config1 != enc->config1 || again.config2 != enc->config2 ||
	    again.type != enc->type || again.exclude_user != enc->exclude_user || again.exclude_kernel != enc->exclude_kernel ||
	    again.exclude_hv != enc->exclude_hv || again.precise_ip != enc->precise_ip || strcmp(again.fstr, enc->fstr))
		fail_msg("%s: its fstr %s encodes to %s 0x%llx 0x%llx, not 0x%llx 0x%llx", s, enc->fstr, again.fstr,
			 (unsigned long long)again.config, (unsigned long long)again.config1,
			 (unsigned long long)enc->config, (unsigned long long)enc->config1);
}

/*
 * Encodes every core entry of the vendor folder DIR (of unit UNIT, or none)
 * as PMU::NAME on catalog DB and compares with its fields, and its fstr fed
 * back.  Returns how many.
 */
static int check_vendor_events(pmudb_t *db, const char *pmu, const char *family, const char *dir, const char *unit,
			       json_t *std)
{
	json_t *list = vendor_load_dir(dir);
	int checked = 0;
	size_t i;
	json_t *e;
	json_array_foreach(list, i, e) {
		const char *name = json_string_value(json_object_get(e, "EventName"));
		json_t *fields = e;
		const char *arch_std = json_string_value(json_object_get(e, "ArchStdEvent"));
		if (!name && arch_std && std && (fields = vendor_std_event(std, arch_std)))
			name = arch_std;
		const char *eunit = json_string_value(json_object_get(e, "Unit"));
		bool core_unit = !eunit || !strncmp(eunit, "cpu_", 4);
		if (!name || !core_unit || json_object_get(e, "ConfigCode") || json_object_get(e, "EventidCode")
		    || (unit ? !eunit || strcmp(unit, eunit) : eunit != NULL) || (!strchr(name, '.') && has_dotted(list, name)))
			continue;
		char s[512];
		snprintf(s, sizeof(s), "%s::%s", pmu, name);
		struct pmudb_encoding enc;
		struct pmudb_error err;
		if (pmudb_encode(db, s, NULL, &enc, &err))
			fail_msg("%s: %s", s, err.message);
		uint64_t config, config1;
		vendor_expected_config(family, fields, &config, &config1);
		if (enc.config != config || enc.config1 != config1)
			fail_msg("%s: config 0x%llx config1 0x%llx; its JSON fields say 0x%llx, 0x%llx (%s)", s,
				 (unsigned long long)enc.config, (unsigned long long)enc.config1, (unsigned long long)config,
				 (unsigned long long)config1, dir);
		expect_fstr_reencodes(db, s, &enc);
		checked++;
	}
	json_decref(list);
	return checked;
}

/* ---- the fixture trees ------------------------------------------------- */

static void expect_encoding(pmudb_t *db, const char *s, uint64_t config, uint64_t config1, const char *sysfs)
{
	struct pmudb_encoding e;
	struct pmudb_error err;
	if (pmudb_encode(db, s, NULL, &e, &err))
		fail_msg("%s: %s", s, err.message);
	if (e.config != config || e.config1 != config1)
		fail_msg("%s: config 0x%llx config1 0x%llx, expected 0x%llx 0x%llx", s, (unsigned long long)e.config,
			 (unsigned long long)e.config1, (unsigned long long)config, (unsigned long long)config1);
	if (sysfs)
		assert_string_equal(e.sysfs_pmu, sysfs);
}

static int expect_error(pmudb_t *db, const char *s)
{
	struct pmudb_encoding e;
	struct pmudb_error err;
	int r = pmudb_encode(db, s, NULL, &e, &err);
	if (!r)
		fail_msg("%s encodes (0x%llx); it must not", s, (unsigned long long)e.config);
	return r;
}

/* libpfm's encoding of S, which must succeed. */
static uint64_t libpfm_config(const char *s)
{
	struct perf_event_attr attr;
	char *fstr = NULL;
	int r = libpfm_ask(s, &attr, &fstr, NULL);
	free(fstr);
	if (r)
		fail_msg("libpfm: %s: %s", s, pfm_strerror(r));
	return attr.config;
}

static void test_kernel_layout_fixture(void **state)
{
	(void)state;
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(kernel_db, &err);
	assert_non_null(db);
	int n = check_vendor_events(db, "frp", "intel_x86", FIXTURES "/kernel/x86/fakerapids", NULL, NULL)
		+ check_vendor_events(db, "fkl_big", "intel_x86", FIXTURES "/kernel/x86/fakelake", "cpu_core", NULL)
		+ check_vendor_events(db, "fkl_small", "intel_x86", FIXTURES "/kernel/x86/fakelake", "cpu_atom", NULL)
		+ check_vendor_events(db, "fakezen5", "amd64", FIXTURES "/kernel/x86/fakezen", NULL, NULL);
	json_t *std = vendor_load_json(FIXTURES "/kernel/arm64/common-and-microarch.json");
	n += check_vendor_events(db, "arm_fake", "arm_pmuv3", FIXTURES "/kernel/arm64/vendor/fakecore", NULL, std);
	n += check_vendor_events(db, "arm_fake2", "arm_pmuv3", FIXTURES "/kernel/arm64/vendor/fakecore", NULL, std);
	json_decref(std);
	assert_int_equal(n, 44);	/* the core events of the fixture files, arm64's twice (two PMUs) */
	/* a frontend MSR value without PEBS: in config1, shown as no modifier,
	 * and the event takes no load latency it could never use */
	struct pmudb_encoding ms;
	assert_int_equal(pmudb_encode(db, "frp::UOPS_RETIRED.MS", NULL, &ms, &err), 0);
	assert_true((ms.config & 0xffff) == 0x04c2 && ms.config1 == 0x8);
	assert_null(strstr(ms.fstr, "ldlat"));
	int frp = pmudb_find_pmu(db, "frp"), uops = -1;
	struct pmudb_pmu_info frp_info;
	assert_int_equal(pmudb_pmu_info(db, frp, &frp_info), 0);
	for (int e = 0; e < frp_info.event_count; e++) {
		struct pmudb_event_info ei;
		if (!pmudb_event_info(db, frp, e, &ei) && !strcmp(ei.name, "UOPS_RETIRED"))
			uops = e;
	}
	assert_true(uops >= 0);
	struct pmudb_event_info uops_info;
	assert_int_equal(pmudb_event_info(db, frp, uops, &uops_info), 0);
	for (int m = 0; m < uops_info.modifier_count; m++) {
		struct pmudb_modifier_info mi;
		assert_int_equal(pmudb_modifier_info(db, frp, uops, m, &mi), 0);
		if (!strcmp(mi.name, "ldlat"))
			fail_msg("frp::UOPS_RETIRED takes ldlat, which every unit mask refuses");
	}

	/* what the fields mean beyond the config */
	assert_int_equal(expect_error(db, "frp::ARITH.DIV_ACTIVE:c=2"), PMUDB_ERR_ATTR_SET);	/* CounterMask hard-wired */
	assert_int_equal(expect_error(db, "frp::MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=8"), PMUDB_ERR_ATTR_SET);
	assert_int_equal(expect_error(db, "frp::OCR.DEMAND_DATA_RD.ANY_RESPONSE:OCR.DEMAND_DATA_RD.L3_HIT"), PMUDB_ERR_ATTR);
	assert_int_equal(expect_error(db, "frp::OCR:DEMAND_DATA_RD_ANY_RESPONSE:DEMAND_DATA_RD_L3_HIT"), PMUDB_ERR_FEATCOMB);
	assert_int_equal(expect_error(db, "frp::UNC_CHA_CLOCKTICKS"), PMUDB_ERR_NOTFOUND);	/* uncore: left out */
	assert_int_equal(expect_error(db, "frp::UNC_IIO_BANDWIDTH_IN"), PMUDB_ERR_NOTFOUND);
	assert_int_equal(expect_error(db, "frp::ipc"), PMUDB_ERR_NOTFOUND);	/* metrics too */
	assert_int_equal(expect_error(db, "fakezen5::l3_lookup_state.all_coherent_accesses_to_l3"), PMUDB_ERR_NOTFOUND);
	assert_int_equal(expect_error(db, "arm_fake::frontend_bound"), PMUDB_ERR_NOTFOUND);
	struct pmudb_encoding e;
	assert_int_equal(pmudb_encode(db, "frp::ARITH.DIV_IDLE", NULL, &e, &err), 0);
	assert_non_null(strstr(e.fstr, "frp::ARITH:DIV_IDLE:e=0:i=1:c=1:"));
	/* the fixed counters' pseudo-encodings as perf opens the names
	 * (jevents.py's real_event): 0x0100 and 0x0200 count on no fixed
	 * counter of glc in Linux 6.12 */
	uint64_t perf_form;
	assert_true(vendor_perf_form("INST_RETIRED.ANY", &perf_form));
	expect_encoding(db, "frp::INST_RETIRED.ANY", perf_form, 0, NULL);
	assert_true(vendor_perf_form("CPU_CLK_UNHALTED.THREAD", &perf_form));
	expect_encoding(db, "frp::CPU_CLK_UNHALTED.THREAD", perf_form, 0, NULL);
	expect_encoding(db, "frp::CPU_CLK_UNHALTED:THREAD", perf_form, 0, NULL);
	expect_encoding(db, "frp::CPU_CLK_UNHALTED.REF_TSC", 0x300, 0, NULL);
	/* AMD unit masks combine, as on libpfm's Zen tables */
	expect_encoding(db, "fakezen5::ls_dispatch:ld_dispatch:store_dispatch", 0x329, 0, NULL);
	/* a hybrid's two core PMUs take their types from their kernel PMUs */
	expect_encoding(db, "fkl_big::INST_RETIRED.ANY_P", 0xc0, 0, "cpu_core");
	expect_encoding(db, "fkl_small::INST_RETIRED.ANY_P", 0xc0, 0, "cpu_atom");
	/* the names libpfm users type on the like PMU, for the same encodings */
	expect_encoding(db, "frp::INSTRUCTIONS_RETIRED", libpfm_config("spr::INSTRUCTIONS_RETIRED"), 0, NULL);
	expect_encoding(db, "frp::UNHALTED_CORE_CYCLES", libpfm_config("spr::UNHALTED_CORE_CYCLES"), 0, NULL);
	/* spr's bare INST_RETIRED is its ANY, 0x1c0, which the vendor list does
	 * not have: no default is made up */
	assert_int_equal(expect_error(db, "frp::INST_RETIRED"), PMUDB_ERR_UMASK);
	expect_encoding(db, "fakezen5::RETIRED_INSTRUCTIONS", libpfm_config("amd64_fam19h_zen4::RETIRED_INSTRUCTIONS"), 0,
			NULL);
	expect_encoding(db, "fakezen5::RETIRED_SSE_AVX_FLOPS:ADD_SUB_FLOPS",
			libpfm_config("amd64_fam19h_zen4::RETIRED_SSE_AVX_FLOPS:ADD_SUB_FLOPS"), 0, NULL);
	/* an event made of several entries says none of its unit masks'
	 * words: each unit mask has its own (MEM_LOAD_RETIRED would say
	 * FB_HIT's of every other) */
	for (int pi_ = 0; pi_ < 3; pi_++) {
		const char *vendor_pmus[] = { "frp", "fkl_big", "fkl_small" };
		int vp = pmudb_find_pmu(db, vendor_pmus[pi_]);
		struct pmudb_pmu_info vpi;
		assert_int_equal(pmudb_pmu_info(db, vp, &vpi), 0);
		for (int e = 0; e < vpi.event_count; e++) {
			struct pmudb_event_info ei;
			assert_int_equal(pmudb_event_info(db, vp, e, &ei), 0);
			int from_list = 0;
			for (int pass = 0; pass < 2; pass++)
				for (int u = 0; u < ei.umask_count; u++) {
					struct pmudb_umask_info ui;
					assert_int_equal(pmudb_umask_info(db, vp, e, u, &ui), 0);
					from_list += !pass && ui.source != NULL;
					if (pass && from_list > 1 && ui.description && !strcmp(ui.description, ei.description))
						fail_msg("%s::%s says %s's words", vpi.name, ei.name, ui.name);
				}
		}
	}
	/* an Arm core's own words replace the standard description */
	int p, ev;
	struct pmudb_event_info info;
	assert_int_equal(pmudb_find_event(db, "arm_fake::INST_RETIRED", NULL, &p, &ev, &err), 0);
	assert_int_equal(pmudb_event_info(db, p, ev, &info), 0);
	assert_string_equal(info.description, "Instruction architecturally executed");

	/* detection from the mapfiles: hybrid P-core first, stepping rows, MIDRs */
	struct {
		const char *cpu, *first, *second;
	} cpus[] = {
		{ "GenuineIntel/6/0xf0", "fkl_big", "fkl_small" }, { "GenuineIntel/6/0xf1/7", "fkl_big", "fkl_small" },
		{ "GenuineIntel/6/0xf2", "frp", NULL }, { "GenuineIntel/6/0xf5/3", "frp", NULL },
		{ "AuthenticAMD/26/0x44", "fakezen5", NULL }, { "0x41/8/0xf00", "arm_fake", NULL },
		{ "0x41/8/0xf01", "arm_fake2", NULL },
	};
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		struct pmudb_cpu cpu;
		struct pmudb_scope scope;
		struct pmudb_pmu_info pi;
		assert_int_equal(pmudb_cpu_parse(cpus[i].cpu, &cpu, &err), 0);
		if (pmudb_scope_cpu(db, &cpu, &scope, NULL, &err))
			fail_msg("%s: %s", cpus[i].cpu, err.message);
		assert_int_equal(scope.count, cpus[i].second ? 2 : 1);
		pmudb_pmu_info(db, scope.pmus[0], &pi);
		assert_string_equal(pi.name, cpus[i].first);
		if (cpus[i].second) {
			pmudb_pmu_info(db, scope.pmus[1], &pi);
			assert_string_equal(pi.name, cpus[i].second);
		}
	}
	struct pmudb_cpu cpu;
	struct pmudb_scope scope;
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/6/0xf5/4", &cpu, &err), 0);
	assert_int_equal(pmudb_scope_cpu(db, &cpu, &scope, NULL, &err), PMUDB_ERR_NOCPU);
	print_message("kernel layout: %d vendor events encode as their fields say\n", n);
	pmudb_close(db);
}

/* The answer of S (prefixed), which must encode. */
static struct pmudb_encoding encoding_of(pmudb_t *db, const char *s)
{
	struct pmudb_encoding e;
	struct pmudb_error err;
	if (pmudb_encode(db, s, NULL, &e, &err))
		fail_msg("%s: %s", s, err.message);
	return e;
}

/* A hybrid's name answers on each core type that has it, P-core first:
 * a name only the E-core has (libpfm's way stops at the P-core), one
 * both have with other encodings, one only the P-core has.  The E-core's
 * type is its kernel PMU's (the kernel routes PERF_TYPE_RAW to cpu_core). */
static void test_hybrid_names_answer_on_each_core_type(void **state)
{
	(void)state;
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(kernel_db, &err);
	assert_non_null(db);
	struct pmudb_cpu cpu;
	struct pmudb_scope scope;
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/6/0xf0", &cpu, &err), 0);
	assert_int_equal(pmudb_scope_cpu(db, &cpu, &scope, NULL, &err), 0);
	struct {
		const char *name;
		const char *pmus[2];
	} cases[] = {
		{ "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_8", { "fkl_small" } },
		{ "OCR.DEMAND_DATA_RD.ANY_RESPONSE", { "fkl_big", "fkl_small" } },
		{ "INST_RETIRED.ANY_P", { "fkl_big", "fkl_small" } },
		{ "TOPDOWN.SLOTS", { "fkl_big" } },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmudb_encoding each[4], one;
		int n = pmudb_encode_each(db, cases[i].name, &scope, each, 4, &err);
		int want = cases[i].pmus[1] ? 2 : 1;
		if (n != want)
			fail_msg("%s: %d answers (%s), expected %d", cases[i].name, n, n < 0 ? err.message : "", want);
		assert_int_equal(pmudb_encode(db, cases[i].name, &scope, &one, &err), 0);
		for (int k = 0; k < n; k++) {
			char s[256];
			snprintf(s, sizeof(s), "%s::%s", cases[i].pmus[k], cases[i].name);
			struct pmudb_encoding e = encoding_of(db, s);
			assert_string_equal(each[k].pmu, cases[i].pmus[k]);
			assert_string_equal(each[k].fstr, e.fstr);
			assert_true(each[k].config == e.config && each[k].config1 == e.config1 && each[k].type == e.type);
		}
		assert_string_equal(one.fstr, each[0].fstr);	/* pmudb_encode: the first answer */
	}
	/* OCR: the two core types encode it apart (0x2a vs 0xb7) */
	struct pmudb_encoding two[2];
	assert_int_equal(pmudb_encode_each(db, "OCR.DEMAND_DATA_RD.ANY_RESPONSE", &scope, two, 2, &err), 2);
	assert_true((two[0].config & 0xff) == 0x2a && (two[1].config & 0xff) == 0xb7);
	/* room for one: the first; a prefixed name: its one PMU */
	assert_int_equal(pmudb_encode_each(db, "INST_RETIRED.ANY_P", &scope, two, 1, &err), 1);
	assert_string_equal(two[0].pmu, "fkl_big");
	assert_int_equal(pmudb_encode_each(db, "fkl_small::INST_RETIRED.ANY_P", &scope, two, 2, &err), 1);
	assert_int_equal(pmudb_encode_each(db, "INST_RETIRED.ANY_P", &scope, two, 0, &err), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_encode_each(db, "NO_SUCH_EVENT", &scope, two, 2, &err), PMUDB_ERR_NOTFOUND);
	/* types: the P-core's falls back to PERF_TYPE_RAW, the E-core's is
	 * read from sysfs or unresolved */
	struct pmudb_encoding small = encoding_of(db, "fkl_small::INST_RETIRED.ANY_P");
	struct pmudb_encoding big = encoding_of(db, "fkl_big::INST_RETIRED.ANY_P");
	assert_string_equal(small.sysfs_pmu, "cpu_atom");
	FILE *f = fopen("/sys/bus/event_source/devices/cpu_atom/type", "r");
	int host_type = -1;
	if (f) {
		if (fscanf(f, "%d", &host_type) != 1)
			host_type = -1;
		fclose(f);
	}
	assert_int_equal(small.type, host_type);
	if (access("/sys/bus/event_source/devices/cpu_core/type", F_OK))
		assert_int_equal(big.type, 4);
	pmudb_close(db);

	/* the command: a line per input, the core types' events joined */
	struct run_result r;
	test_pmudb(&r, NULL, "--db", kernel_db, "--cpu", "GenuineIntel/6/0xf0", "encode", "--format", "perf",
		   "OCR.DEMAND_DATA_RD.ANY_RESPONSE", "NO_SUCH_EVENT", "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_8", NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_line_count(r.out), 3);
	char *second = strchr(r.out, '\n') + 1;
	assert_true(!strncmp(r.out, "cpu_core/", 9) && strstr(r.out, ",cpu_atom/") < second);
	assert_true(!strncmp(second, "# pmudb: NO_SUCH_EVENT: ", 24));
	assert_true(!strncmp(strchr(second, '\n') + 1, "cpu_atom/", 9));
	test_run_free(&r);
	test_pmudb(&r, "INST_RETIRED.ANY_P\n", "--db", kernel_db, "--cpu", "GenuineIntel/6/0xf0", "encode", "--stdin",
		   NULL);
	json_error_t jerr;
	json_t *o = json_loads(r.out, 0, &jerr);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "pmu")), "fkl_big");
	json_t *others = json_object_get(o, "others");
	assert_int_equal(json_array_size(others), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(others, 0), "pmu")), "fkl_small");
	assert_string_equal(json_string_value(json_object_get(json_array_get(others, 0), "core_type")), "cpu_atom");
	json_decref(o);
	test_run_free(&r);
	/* stat: one row per core type, as perf names them (refused on a
	 * machine without them, counted on one with them) */
	test_pmudb(&r, NULL, "--db", kernel_db, "--cpu", "GenuineIntel/6/0xf0", "stat", "-e", "INST_RETIRED.ANY_P:u",
		   "--", "true", NULL);
	char *both = NULL;
	assert_true(asprintf(&both, "%s%s", r.out, r.err) > 0);
	assert_non_null(strstr(both, "cpu_core/INST_RETIRED.ANY_P:u/"));
	assert_non_null(strstr(both, "cpu_atom/INST_RETIRED.ANY_P:u/"));
	free(both);
	test_run_free(&r);
}

/* Names people type: perf's generic names unprefixed, under a CPU's scope
 * and a PMU's, are the OS PMU's as libpfm finds them after the CPU's; a
 * name not found, or a unit mask the event lacks, gets the nearest names,
 * and a right name with a wrong modifier none. */
static void test_names_people_type_resolve(void **state)
{
	(void)state;
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(kernel_db, &err);
	assert_non_null(db);
	struct pmudb_cpu cpu;
	struct pmudb_scope by_cpu, by_pmu;
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/6/0xf2", &cpu, &err), 0);
	assert_int_equal(pmudb_scope_cpu(db, &cpu, &by_cpu, NULL, &err), 0);
	assert_int_equal(pmudb_scope_pmu(db, "frp", &by_pmu, &err), 0);
	const char *generic[][2] = {
		{ "cycles", "perf::CYCLES" },
		{ "PERF_COUNT_HW_CPU_CYCLES", "perf::PERF_COUNT_HW_CPU_CYCLES" },
		{ "task-clock", "perf::PERF_COUNT_SW_TASK_CLOCK" },
		{ "instructions:u", "perf::PERF_COUNT_HW_INSTRUCTIONS:u" },
	};
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
		struct pmudb_encoding want = encoding_of(db, generic[i][1]), got;
		const struct pmudb_scope *scopes[] = { &by_cpu, &by_pmu };
		for (int k = 0; k < 2; k++) {
			if (pmudb_encode(db, generic[i][0], scopes[k], &got, &err))
				fail_msg("%s: %s", generic[i][0], err.message);
			assert_string_equal(got.pmu, "perf");
			assert_true(got.type == want.type && got.config == want.config);
			assert_int_equal(got.exclude_user, want.exclude_user);
		}
	}
	/* the CPU's own PMU comes first: a name both have is the CPU's */
	struct pmudb_encoding e;
	assert_int_equal(pmudb_encode(db, "INST_RETIRED.ANY_P", &by_cpu, &e, &err), 0);
	assert_string_equal(e.pmu, "frp");
	assert_int_equal(pmudb_encode(db, "NO_SUCH_EVENT", &by_cpu, &e, &err), PMUDB_ERR_NOTFOUND);
	pmudb_close(db);

	struct {
		const char *args[4];
		const char *said;	/* among the "did you mean" names of the one error line; NULL: none */
	} cases[] = {
		{ { "--pmu", "frp", "encode", "INST_RETIRD.ANY_P" }, "frp::INST_RETIRED.ANY_P" },
		{ { "--cpu", "GenuineIntel/6/0xf2", "encode", "INST_RETIRED.ANYP" }, "frp::INST_RETIRED.ANY_P" },
		{ { "--cpu", "GenuineIntel/6/0xf2", "encode", "task-clok" }, "perf::TASK-CLOCK" },
		{ { "--cpu", "GenuineIntel/6/0xf2", "info", "frp::INST_RETIRED.ANYP" }, "frp::INST_RETIRED.ANY_P" },
		{ { "--cpu", "GenuineIntel/6/0xf2", "encode", "INST_RETIRED.ANY_P:kk" }, NULL },
		{ { "--cpu", "GenuineIntel/6/0xf2", "encode", "ZZZZZZZZZZZZ" }, NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_result r;
		test_pmudb(&r, NULL, "--db", kernel_db, cases[i].args[0], cases[i].args[1], cases[i].args[2],
			   cases[i].args[3], NULL);
		assert_int_equal(r.status, 1);
		assert_int_equal(test_line_count(r.err), 1);
		if (cases[i].said && !(strstr(r.err, "; did you mean ") && strstr(r.err, cases[i].said)))
			fail_msg("%s %s: said '%s', expected '%s'", cases[i].args[2], cases[i].args[3], r.err,
				 cases[i].said);
		if (!cases[i].said && strstr(r.err, "did you mean"))
			fail_msg("%s %s: said '%s'", cases[i].args[2], cases[i].args[3], r.err);
		test_run_free(&r);
	}
}

/* search keeps to the PMUs chosen, takes a glob over names and --json;
 * --pmu takes the vendor's µarch name (the fixture's folder). */
static void test_search_filters_and_globs(void **state)
{
	(void)state;
	struct run_result r;
	/* without --pmu another PMU's match is there; with it only frp's */
	test_pmudb(&r, NULL, "--db", kernel_db, "search", "INST_RETIRED", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\nfkl_big::"));
	test_run_free(&r);
	const char *chooser[][2] = { { "--pmu", "frp" }, { "--pmu", "fakerapids" }, { "--cpu", "GenuineIntel/6/0xf2" } };
	for (size_t k = 0; k < sizeof(chooser) / sizeof(chooser[0]); k++) {
		test_pmudb(&r, NULL, "--db", kernel_db, chooser[k][0], chooser[k][1], "search", "INST_RETIRED", NULL);
		assert_int_equal(r.status, 0);
		int lines = test_line_count(r.out);
		assert_true(lines > 0);
		for (const char *line = r.out; *line; line = strchr(line, '\n') + 1)
			if (strncmp(line, "frp::", 5))
				fail_msg("%s %s search: '%.60s'", chooser[k][0], chooser[k][1], line);
		test_run_free(&r);
	}
	/* a glob: names only, in either joining */
	test_pmudb(&r, NULL, "--db", kernel_db, "--pmu", "frp", "search", "inst_retired.any*", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "frp::INST_RETIRED"));
	assert_non_null(strstr(r.out, "ANY_P"));
	test_run_free(&r);
	test_pmudb(&r, NULL, "--db", kernel_db, "--pmu", "frp", "search", "--json", "INST_RETIRED?ANY_P", NULL);
	assert_int_equal(r.status, 0);
	json_error_t jerr;
	json_t *a = json_loads(r.out, 0, &jerr);
	assert_non_null(a);
	assert_true(json_array_size(a) >= 1);
	for (size_t i = 0; i < json_array_size(a); i++) {
		json_t *o = json_array_get(a, i);
		assert_string_equal(json_string_value(json_object_get(o, "pmu")), "frp");
		assert_non_null(json_object_get(o, "description"));
	}
	json_decref(a);
	test_run_free(&r);
	/* nothing in the PMUs chosen: one line, status 1; an empty --json array */
	test_pmudb(&r, NULL, "--db", kernel_db, "--pmu", "frp", "search", "--json", "NO_SUCH_*", NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "[]\n");
	assert_int_equal(test_line_count(r.err), 1);
	test_run_free(&r);
	test_pmudb(&r, NULL, "--db", kernel_db, "--pmu", "nosuchuarch", "search", "X", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "nosuchuarch"));
	test_run_free(&r);
}

/* Writes TEXT to DIR/NAME, the folders made as needed. */
static void write_file(const char *dir, const char *name, const char *text)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (char *slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* A µarch libpfm runs on a sibling's table keeps its own list whole under
 * its CPUID: a fake Westmere-EX on wsm_dp (reconciled with a fake
 * Westmere-EP list) answers its own names, single-dot ones whose event
 * wsm_dp has too, its own MSR value where the sibling's list gives the
 * same name another, and a group of 300 offcore names (more than an event
 * holds unit masks) split into events that still answer the whole names. */
static void test_stand_in_uarchs_keep_their_list(void **state)
{
	(void)state;
	char *tree = temp_path("standin"), *tables = temp_path("standin.yaml"), *db_path = temp_path("standin.db");
	mkdir(tree, 0755);
	write_file(tree, "x86/mapfile.csv",
		   "Family-model,Version,Filename,EventType\nGenuineIntel-6-F3,v1,fakewestmereep,core\n"
		   "GenuineIntel-6-F4,v1,fakewestmereex,core\n");
	static const char entry[] = "  {\"EventCode\": \"0xB7\", \"EventName\": \"OFFCORE_RESPONSE.PF_DATA.ANY_CACHE_DRAM\","
				    " \"MSRIndex\": \"0x1A6\", \"MSRValue\": \"%s\", \"UMask\": \"0x1\","
				    " \"BriefDescription\": \"d\"}";
	char *ep = NULL, one[512];
	snprintf(one, sizeof(one), entry, "0x7F50");
	assert_true(asprintf(&ep, "[\n%s\n]\n", one) > 0);
	write_file(tree, "x86/fakewestmereep/cache.json", ep);
	free(ep);
	/* the EX list: the shared name with its own value, a name whose event
	 * wsm_dp has (MEM_LOAD_RETIRED, 0xcb) but not its unit mask, and 300
	 * OFFCORE_RESPONSE.Gg.Kk names */
	char *ex = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&ex, &size);
	snprintf(one, sizeof(one), entry, "0x7F30");
	fprintf(f, "[\n%s,\n  {\"EventCode\": \"0xCB\", \"EventName\": \"MEM_LOAD_RETIRED.FAKE_EX_ONLY\", \"UMask\": \"0x80\","
		   " \"BriefDescription\": \"d\"}", one);
	for (int g = 0; g < 15; g++)
		for (int k = 0; k < 20; k++)
			fprintf(f, ",\n  {\"EventCode\": \"0xB7\", \"EventName\": \"OFFCORE_RESPONSE.G%d.K%d\", \"MSRIndex\": \"0x1A6\","
				   " \"MSRValue\": \"0x%x\", \"UMask\": \"0x1\", \"BriefDescription\": \"d\"}", g, k, (g << 8 | k) + 1);
	fprintf(f, "\n]\n");
	fclose(f);
	write_file(tree, "x86/fakewestmereex/cache.json", ex);
	free(ex);
	FILE *t = fopen(tables, "w");
	assert_non_null(t);
	fputs("vendor_pmus:\n"
	      "  - {uarch: fakewestmereep, pmu: wsm_dp, why: test}\n"
	      "  - {uarch: fakewestmereex, pmu: fwx, like: wsm_dp, description: \"a fake Westmere-EX\", why: test}\n"
	      "cpuid:\n"
	      "  - {vendor: GenuineIntel, family: 6, model: 0xF4, pmus: [wsm_dp, fwx], why: test}\n", t);
	assert_int_equal(fclose(t), 0);
	char *argv[] = { compiler, "--quiet", "--tables", "tables/families.yaml", "--tables", tables, "--pmu-events", tree,
			 "--out", db_path, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	if (r.status)
		fail_msg("stand-in fixture build: %s", r.err);
	test_run_free(&r);

	struct pmudb_error err;
	pmudb_t *db = pmudb_open(db_path, &err);
	assert_non_null(db);
	struct pmudb_cpu cpu;
	struct pmudb_scope scope;
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/6/0xf4", &cpu, &err), 0);
	assert_int_equal(pmudb_scope_cpu(db, &cpu, &scope, NULL, &err), 0);
	struct pmudb_encoding e;
	/* libpfm's PMU answers first, as libpfm does */
	assert_int_equal(pmudb_encode(db, "INST_RETIRED:ANY_P", &scope, &e, &err), 0);
	assert_string_equal(e.pmu, "wsm_dp");
	/* the shared name: the EX list's value */
	if (pmudb_encode(db, "OFFCORE_RESPONSE.PF_DATA.ANY_CACHE_DRAM", &scope, &e, &err))
		fail_msg("OFFCORE_RESPONSE.PF_DATA.ANY_CACHE_DRAM: %s", err.message);
	assert_true((e.config & 0xffff) == 0x1b7 && e.config1 == 0x7f30);
	/* wsm_dp has the event, not the unit mask: the own list answers */
	if (pmudb_encode(db, "MEM_LOAD_RETIRED.FAKE_EX_ONLY", &scope, &e, &err))
		fail_msg("MEM_LOAD_RETIRED.FAKE_EX_ONLY: %s", err.message);
	assert_string_equal(e.pmu, "fwx");
	assert_true((e.config & 0xffff) == 0x80cb);
	/* every split offcore name, whole, with its own value */
	for (int g = 0; g < 15; g++)
		for (int k = 0; k < 20; k++) {
			char name[64];
			snprintf(name, sizeof(name), "OFFCORE_RESPONSE.G%d.K%d", g, k);
			if (pmudb_encode(db, name, &scope, &e, &err))
				fail_msg("%s: %s", name, err.message);
			assert_int_equal(e.config1, (uint64_t)((g << 8 | k) + 1));
			assert_true((e.config & 0xffff) == 0x1b7);
		}
	/* on the EP's CPU the EP's value stays */
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/6/0xf3", &cpu, &err), 0);
	assert_int_equal(pmudb_scope_cpu(db, &cpu, &scope, NULL, &err), 0);
	if (!pmudb_encode(db, "OFFCORE_RESPONSE.PF_DATA.ANY_CACHE_DRAM", &scope, &e, &err))
		assert_int_equal(e.config1, 0x7f50);
	assert_int_equal(pmudb_encode(db, "MEM_LOAD_RETIRED.FAKE_EX_ONLY", &scope, &e, &err) == 0, false);
	pmudb_close(db);
	free(tree);
	free(tables);
	free(db_path);
}

/* Intel's perfmon layout of the same events encodes the same. */
static void test_perfmon_layout_fixture(void **state)
{
	(void)state;
	struct pmudb_error err;
	pmudb_t *k = pmudb_open(kernel_db, &err), *p = pmudb_open(perfmon_db, &err);
	assert_non_null(k);
	assert_non_null(p);
	const char *pmus[] = { "frp", "fkl_big", "fkl_small" };
	int n = 0;
	for (size_t i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++) {
		int kp = pmudb_find_pmu(k, pmus[i]);
		struct pmudb_pmu_info pi;
		assert_int_equal(pmudb_pmu_info(k, kp, &pi), 0);
		for (int e = 0; e < pi.event_count; e++) {
			struct pmudb_event_info ei;
			assert_int_equal(pmudb_event_info(k, kp, e, &ei), 0);
			for (int u = -1; u < ei.umask_count; u++) {
				struct pmudb_umask_info ui = { .name = NULL };
				if (u >= 0 && pmudb_umask_info(k, kp, e, u, &ui))
					continue;
				char s[512];
				snprintf(s, sizeof(s), "%s::%s%s%s", pmus[i], ei.name, u >= 0 ? ":" : "", u >= 0 ? ui.name : "");
				struct pmudb_encoding a, b;
				int ra = pmudb_encode(k, s, NULL, &a, &err), rb = pmudb_encode(p, s, NULL, &b, &err);
				assert_int_equal(ra, rb);
				if (!ra && (a.config != b.config || a.config1 != b.config1 || strcmp(a.fstr, b.fstr)))
					fail_msg("%s: %s in the kernel layout, %s in the perfmon layout", s, a.fstr, b.fstr);
				n++;
			}
		}
	}
	/* the E-core file alone on another model is a PMU of its own */
	struct pmudb_cpu cpu;
	struct pmudb_scope scope;
	struct pmudb_pmu_info pi;
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/6/0xf4", &cpu, &err), 0);
	assert_int_equal(pmudb_scope_cpu(p, &cpu, &scope, NULL, &err), 0);
	pmudb_pmu_info(p, scope.pmus[0], &pi);
	assert_string_equal(pi.name, "fkln");
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/6/0xf0", &cpu, &err), 0);
	assert_int_equal(pmudb_scope_cpu(p, &cpu, &scope, NULL, &err), 0);
	assert_int_equal(scope.count, 2);
	pmudb_pmu_info(p, scope.pmus[0], &pi);
	assert_string_equal(pi.name, "fkl_big");
	print_message("perfmon layout: %d strings encode as in the kernel layout\n", n);
	pmudb_close(k);
	pmudb_close(p);
}

static int dir_name(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* A malformed tree (a file that cannot be read as a list) stops the build
 * at its position; the catalog stays. */
static void test_malformed_trees_are_refused(void **state)
{
	(void)state;
	char *target = temp_path("keep.db"), *before = temp_path("keep-before.db");
	assert_int_equal(test_copy_file(kernel_db, target), 0);
	assert_int_equal(test_copy_file(kernel_db, before), 0);
	struct dirent **names;
	int n = scandir(FIXTURES "/bad", &names, dir_name, alphasort);
	assert_true(n >= 8);
	for (int i = 0; i < n; i++) {
		char tree[512], path[600], prefix[800], words[256];
		snprintf(tree, sizeof(tree), FIXTURES "/bad/%s", names[i]->d_name);
		snprintf(path, sizeof(path), "%s/expect", tree);
		char *expect = test_read_file(path, NULL);
		assert_non_null(expect);
		char file[256] = "";
		int line, column;
		/* "FILE:LINE:COL: words", FILE relative to the tree (may be empty) */
		if (sscanf(expect, "%255[^:]:%d:%d: %255[^\n]", file, &line, &column, words) != 4
		    && sscanf(expect, ":%d:%d: %255[^\n]", &line, &column, words) != 3)
			fail_msg("%s: expected 'FILE:LINE:COLUMN: words'", path);
		snprintf(prefix, sizeof(prefix), "%s%s%s:%d:%d: ", tree, file[0] ? "/" : "", file, line, column);
		struct run_result r;
		assert_int_equal(run_build(tree, target, &r), 1);
		if (test_line_count(r.err) != 1 || strncmp(r.err, prefix, strlen(prefix)) || !strstr(r.err, words))
			fail_msg("%s: stderr:\n%s\nexpected one line starting '%s' with '%s'", tree, r.err, prefix, words);
		print_message("%s", r.err);
		assert_true(test_files_equal(target, before));
		test_run_free(&r);
		free(expect);
		free(names[i]);
	}
	free(names);
	free(target);
	free(before);
}

/* A bad entry of a list is left out with a note at its position; the
 * rest is built (real lists carry such quirks: a build of intel/perfmon
 * must not stop at its first).  The fixtures are given as sources of one
 * build (each is read and noted before the newest list is chosen). */
static void test_a_bad_entry_is_left_out_with_a_note(void **state)
{
	(void)state;
	struct dirent **names;
	int n = scandir(FIXTURES "/entries", &names, dir_name, alphasort);
	assert_true(n >= 5 && n <= 16);
	char *target = temp_path("entries.db"), *argv[48], trees[16][512];
	int argc = 0;
	argv[argc++] = compiler;
	argv[argc++] = "--tables";
	argv[argc++] = "tables/families.yaml";
	argv[argc++] = "--tables";
	argv[argc++] = FIXTURES "/vendor_pmus.yaml";
	for (int i = 0; i < n; i++) {
		snprintf(trees[i], sizeof(trees[i]), FIXTURES "/entries/%s", names[i]->d_name);
		argv[argc++] = "--pmu-events";
		argv[argc++] = trees[i];
	}
	argv[argc++] = "--out";
	argv[argc++] = target;
	argv[argc] = NULL;
	struct run_result r;
	test_run(argv, NULL, &r);
	if (r.status)
		fail_msg("the build failed: %s", r.err);
	for (int i = 0; i < n; i++) {
		char path[600], prefix[900], words[256];
		snprintf(path, sizeof(path), "%s/expect", trees[i]);
		char *expect = test_read_file(path, NULL);
		assert_non_null(expect);
		char file[256] = "";
		int line, column;
		if (sscanf(expect, "%255[^:]:%d:%d: %255[^\n]", file, &line, &column, words) != 4)
			fail_msg("%s: expected 'FILE:LINE:COLUMN: words'", path);
		snprintf(prefix, sizeof(prefix), "pmudb-build: note: %s/%s:%d:%d: ", trees[i], file, line, column);
		const char *note = strstr(r.out, prefix);
		const char *end = note ? strchr(note, '\n') : NULL;
		if (!note || !end || !strstr(note, words) || strstr(note, words) > end || strncmp(end - 10, "(left out)", 10))
			fail_msg("%s: stdout:\n%s\nexpected a note starting '%s' with '%s', ending '(left out)'", trees[i],
				 r.out, prefix, words);
		print_message("%.*s\n", (int)(end - note), note);
		free(expect);
		free(names[i]);
	}
	free(names);
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(target, &err);
	if (!db)
		fail_msg("the catalog built does not open: %s", err.message);
	pmudb_close(db);
	test_run_free(&r);
	free(target);
}

/* Where the Nth "NAME" (quoted) of TEXT is, as LINE:COLUMN: 0 when absent. */
static int nth_place(const char *text, const char *name, int nth, int *line, int *column)
{
	char quoted[256];
	snprintf(quoted, sizeof(quoted), "\"%s\"", name);
	const char *at = text;
	for (int i = 0; at && i < nth; i++)
		at = strstr(i ? at + 1 : at, quoted);
	if (!at)
		return 0;
	*line = *column = 1;
	for (const char *p = text; p < at; p++) {
		if (*p == '\n') {
			(*line)++;
			*column = 1;
		} else {
			(*column)++;
		}
	}
	return 1;
}

/* A name a list gives twice, at once or later: the first entry is kept,
 * and the note names the second, where it is listed again.  So too two
 * names of one unit-mask name (ls_dispatch.ld.any and .ld_any are both
 * ld_any): one unit mask where they say the same, the dotted name another
 * name of it; the first where they do not. */
static void test_a_name_listed_twice_is_noted_where_listed_again(void **state)
{
	(void)state;
	const char *tree = FIXTURES "/listed_twice", *file = FIXTURES "/listed_twice/x86/fakezen/core.json";
	char *out = temp_path("twice.db"), *text = test_read_file(file, NULL);
	assert_non_null(text);
	char *argv[] = { compiler, "--tables", "tables/families.yaml", "--tables", FIXTURES "/vendor_pmus.yaml",
			 "--pmu-events", (char *)tree, "--out", out, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	assert_int_equal(r.status, 0);
	const char *names[] = { "ex_ret_instr", "ls_dispatch.ld_dispatch" };
	for (int i = 0; i < 2; i++) {
		int line = 0, column = 0;
		assert_true(nth_place(text, names[i], 2, &line, &column));
		char note[256];
		snprintf(note, sizeof(note), "x86/fakezen/core.json:%d:%d: %s is listed twice: the first is kept", line,
			 column, names[i]);
		if (!strstr(r.out, note))
			fail_msg("expected the note '%s' in:\n%s", note, r.out);
	}
	const struct { const char *name, *rest; } repeated[] = {
		{ "ls_dispatch.ld_any", "is unit mask ld_any, as an earlier entry is, with the same fields: another name of it" },
		{ "ls_dispatch.st_any", "is unit mask st_any, as an earlier entry is, with other fields: left out" },
	};
	for (int i = 0; i < 2; i++) {
		int line = 0, column = 0;
		assert_true(nth_place(text, repeated[i].name, 1, &line, &column));
		char note[256];
		snprintf(note, sizeof(note), "x86/fakezen/core.json:%d:%d: %s %s", line, column, repeated[i].name,
			 repeated[i].rest);
		if (!strstr(r.out, note))
			fail_msg("expected the note '%s' in:\n%s", note, r.out);
	}
	/* a metric written twice alike is kept once, noted at the second;
	 * two metrics of one name that differ are both kept */
	char *metrics_text = test_read_file(FIXTURES "/listed_twice/x86/fakezen/metrics.json", NULL);
	assert_non_null(metrics_text);
	int line = 0, column = 0;
	assert_true(nth_place(metrics_text, "fake_ratio", 2, &line, &column));
	char note[256];
	snprintf(note, sizeof(note), "x86/fakezen/metrics.json:%d:%d: metric fake_ratio is listed twice, alike: the first is kept",
		 line, column);
	if (!strstr(r.out, note))
		fail_msg("expected the note '%s' in:\n%s", note, r.out);
	assert_null(strstr(r.out, "metric fake_count is listed twice"));
	free(metrics_text);
	test_run_free(&r);
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(out, &err);
	assert_non_null(db);
	expect_encoding(db, "fakezen5::ex_ret_instr", 0xc0, 0, NULL);
	expect_encoding(db, "fakezen5::ls_dispatch:ld_dispatch", 0x129, 0, NULL);
	expect_encoding(db, "fakezen5::ls_dispatch:ld_any", 0x129, 0, NULL);
	expect_encoding(db, "fakezen5::ls_dispatch.ld.any", 0x129, 0, NULL);
	expect_encoding(db, "fakezen5::ls_dispatch:st_any", 0x229, 0, NULL);
	/* each unit-mask name once on the vendor PMU (libpfm's own tables may repeat one: hswep_unc_ha) */
	sqlite3 *raw;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open_v2(out, &raw, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(raw, "SELECT count(*), (SELECT count(*) FROM pmu_event_umask WHERE pmu ="
					    " 'fakezen5') FROM (SELECT 1 FROM pmu_event_umask WHERE pmu = 'fakezen5'"
					    " GROUP BY event, umask HAVING count(*) > 1)", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 0);
	assert_true(sqlite3_column_int(st, 1) >= 3);
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(raw, "SELECT (SELECT count(*) FROM metric WHERE name = 'fake_ratio'),"
					    " (SELECT count(*) FROM metric WHERE name = 'fake_count')", -1, &st, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 1);
	assert_int_equal(sqlite3_column_int(st, 1), 2);
	sqlite3_finalize(st);
	sqlite3_close(raw);
	pmudb_close(db);
	free(text);
	free(out);
}

/* ---- the tree `make` used ------------------------------------------------ */

static void test_every_vendor_event_of_the_tree_encodes(void **state)
{
	(void)state;
	const char *tree = getenv("PMUDB_PMU_EVENTS");
	char *catalog = test_build_path("pmudb.db");
	sqlite3 *raw;
	assert_int_equal(sqlite3_open_v2(catalog, &raw, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(raw, "SELECT name, family, substr(source, 12) FROM pmu WHERE source LIKE"
					    " 'pmu-events:%' AND family != 'kernel_format' ORDER BY id", -1, &st, NULL),
			 SQLITE_OK);
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(catalog, &err);
	assert_non_null(db);
	char std_path[1024];
	snprintf(std_path, sizeof(std_path), "%s/arm64", tree ? tree : ".");
	json_t *std = tree ? vendor_load_dir(std_path) : NULL;
	/* built with more sources (PMU_EVENTS_EXTRA), a µarch's list may be
	 * another source's: those are test_sources' */
	const char *origin = getenv("PMUDB_PMU_EVENTS_ORIGIN");
	sqlite3_stmt *from = NULL;
	assert_int_equal(sqlite3_prepare_v2(raw, "SELECT source FROM vendor_list WHERE uarch = ? AND superseded_by IS NULL",
					    -1, &from, NULL), SQLITE_OK);
	int pmus = 0, events = 0, elsewhere = 0;
	while (tree && sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *family = (const char *)sqlite3_column_text(st, 1);
		char where[512], dir[1024];
		snprintf(where, sizeof(where), "%s", sqlite3_column_text(st, 2));
		char *unit = strchr(where, '@');
		if (unit)
			*unit++ = '\0';
		sqlite3_bind_text(from, 1, where, -1, SQLITE_TRANSIENT);
		bool ours = sqlite3_step(from) != SQLITE_ROW || !origin
			    || !strcmp((const char *)sqlite3_column_text(from, 0), origin);
		sqlite3_reset(from);
		if (!ours) {
			elsewhere++;
			continue;
		}
		snprintf(dir, sizeof(dir), "%s/%s", tree, where);
		int n = check_vendor_events(db, name, family, dir, unit, std);
		if (!n)
			fail_msg("%s: no event of %s encodes", name, dir);
		pmus++;
		events += n;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(from);
	sqlite3_close(raw);
	json_decref(std);
	if (elsewhere)
		print_message("%d vendor PMUs encode another source's list (checked by test_sources)\n", elsewhere);
	if (!tree || !pmus) {
		print_message("SKIP: the catalog was built without a vendor tree ($PMUDB_PMU_EVENTS unset)\n");
	} else {
		/* the done-when: Zen 5 by CPUID, with the name libpfm users type */
		struct pmudb_cpu cpu;
		struct pmudb_scope scope;
		struct pmudb_encoding e;
		assert_int_equal(pmudb_cpu_parse("AuthenticAMD/0x1a/0x2", &cpu, &err), 0);
		assert_int_equal(pmudb_scope_cpu(db, &cpu, &scope, NULL, &err), 0);
		assert_int_equal(pmudb_encode(db, "RETIRED_INSTRUCTIONS", &scope, &e, &err), 0);
		assert_string_equal(e.pmu, "amd64_fam1ah_zen5");
		assert_int_equal(e.config, libpfm_config("amd64_fam19h_zen4::RETIRED_INSTRUCTIONS"));
		assert_int_equal(e.config, 0xc0);
		print_message("%d vendor PMUs, %d events: each encodes as its JSON fields say\n", pmus, events);
	}
	pmudb_close(db);
	free(catalog);
}

/*
 * A vendor PMU answers to a libpfm name only where its 'like' PMU encodes
 * that name the same: every event and unit mask alias added so, and every
 * event whose default was taken so, against libpfm itself.
 */
static void test_libpfm_names_encode_as_libpfm(void **state)
{
	(void)state;
	char *catalog = test_build_path("pmudb.db");
	sqlite3 *raw;
	assert_int_equal(sqlite3_open_v2(catalog, &raw, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(raw,
					    "SELECT p.name, p.like_pmu, a.name, ':' || u.name FROM pmu p"
					    " JOIN event_alias a ON a.table_id = p.event_table_id AND a.attrs IS NULL"
					    " JOIN umask u ON u.event_id = a.event_id AND u.equiv IS NOT NULL"
					    " WHERE p.source IS NOT NULL AND p.like_pmu IS NOT NULL"
					    " UNION ALL SELECT p.name, p.like_pmu, a.name, '' FROM pmu p"
					    " JOIN event_alias a ON a.table_id = p.event_table_id AND a.attrs IS NOT NULL"
					    " AND a.name NOT LIKE '%.%'"
					    " WHERE p.source IS NOT NULL AND p.like_pmu IS NOT NULL"
					    " UNION ALL SELECT p.name, p.like_pmu, e.name, '' FROM pmu p"
					    " JOIN event e ON e.table_id = p.event_table_id AND e.id IN (SELECT event_id FROM event_default)"
					    " WHERE p.source IS NOT NULL AND p.like_pmu IS NOT NULL",
					    -1, &st, NULL), SQLITE_OK);
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(catalog, &err);
	assert_non_null(db);
	int n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char mine[512], theirs[512];
		const char *pmu = (const char *)sqlite3_column_text(st, 0), *like = (const char *)sqlite3_column_text(st, 1);
		const char *event = (const char *)sqlite3_column_text(st, 2), *umask = (const char *)sqlite3_column_text(st, 3);
		snprintf(mine, sizeof(mine), "%s::%s%s", pmu, event, umask);
		snprintf(theirs, sizeof(theirs), "%s::%s%s", like, event, umask);
		struct perf_event_attr attr;
		char *fstr = NULL;
		int r = libpfm_ask(theirs, &attr, &fstr, NULL);
		free(fstr);
		if (r)
			continue;	/* a vendor name in that event, not libpfm's */
		struct pmudb_encoding e;
		if (pmudb_encode(db, mine, NULL, &e, &err))
			fail_msg("%s: %s", mine, err.message);
		if (e.config != attr.config || e.config1 != attr.config1)
			fail_msg("%s: 0x%llx/0x%llx; libpfm's %s: 0x%llx/0x%llx", mine, (unsigned long long)e.config,
				 (unsigned long long)e.config1, theirs, (unsigned long long)attr.config,
				 (unsigned long long)attr.config1);
		n++;
	}
	sqlite3_finalize(st);
	sqlite3_close(raw);
	pmudb_close(db);
	free(catalog);
	print_message("%d libpfm names on vendor PMUs encode as libpfm encodes them on the like PMU\n", n);
}

/* One µarch's uncore entries, as test_every_uncore_entry_encodes counts them. */
struct uncore_count {
	char uarch[64];
	int entries, equal, refused, no_pmu, alone, untypable;
};

/* A vendor name pmudb can take: letters, digits, '_' and '-' in parts
 * joined by single dots. */
static bool typable_name(const char *name)
{
	bool part = false;
	for (const char *p = name; *p; p++) {
		if (*p == '.' && !part)
			return false;
		if (*p != '.' && !isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			return false;
		part = *p != '.';
	}
	return part;
}

static struct uncore_count *uncore_count_of(struct uncore_count *counts, int *n, const char *uarch)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(counts[i].uarch, uarch))
			return &counts[i];
	assert_true(*n < 128);
	struct uncore_count *c = &counts[(*n)++];
	memset(c, 0, sizeof(*c));
	snprintf(c->uarch, sizeof(c->uarch), "%s", uarch);
	return c;
}

/* The first string pmudb_decode finds. */
struct first_decoded {
	char event[512];
};

static int take_first(void *ctx, const struct pmudb_decoded *d)
{
	struct first_decoded *f = ctx;
	if (!f->event[0] && d->exact)
		snprintf(f->event, sizeof(f->event), "%s", d->event);
	return 0;
}

/* The catalog PMU made of kernel PMU KPMU of µarch UARCH, or NULL. */
static char *uncore_pmu_of(sqlite3 *raw, const char *uarch, const char *kpmu)
{
	sqlite3_stmt *st;
	char *pattern = NULL, *name = NULL;
	assert_true(asprintf(&pattern, "pmu-events:%%/%s@%s", uarch, kpmu) > 0);
	assert_int_equal(sqlite3_prepare_v2(raw, "SELECT name FROM pmu WHERE source LIKE ?", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, pattern, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW)
		name = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	free(pattern);
	return name;
}

/*
 * Every uncore entry of the tree, against what perf makes of it, computed
 * by tests/uncore_truth.py apart from pmudb: perf's own jevents.py writes
 * the entry's terms and names its kernel PMU, the kernel driver's source
 * gives the formats, and the terms are placed as perf places them.  Where
 * pmudb made the PMU, each entry encodes by its vendor name to that
 * config, config1 and config2 (with the modifiers' implied values), and
 * each entry perf refuses is refused too; where pmudb did not make it
 * (libpfm has a PMU of that name, reconciled later), it is counted.
 */
static void test_every_uncore_entry_encodes_as_perf_places_it(void **state)
{
	(void)state;
	const char *tree = getenv("PMUDB_PMU_EVENTS");
	const char *kernel = getenv("PMUDB_KERNEL_SOURCE") ? getenv("PMUDB_KERNEL_SOURCE") : "build/kernel-source";
	char jevents[1024], cmd[4096];
	snprintf(jevents, sizeof(jevents), "%s/../jevents.py", tree ? tree : ".");
	if (!tree || access(jevents, R_OK) || access(kernel, R_OK)
	    || system("python3 -c 'import yaml' 2>/dev/null")) {
		print_message("SKIP: needs $PMUDB_PMU_EVENTS with perf's jevents.py beside it, the kernel source (%s)"
			      " and python3-yaml\n", kernel);
		return;
	}
	snprintf(cmd, sizeof(cmd), "python3 tests/uncore_truth.py '%s' '%s/..' '%s' tables/uncore.yaml", tree, tree,
		 kernel);
	FILE *truth = popen(cmd, "r");
	assert_non_null(truth);
	char *catalog = test_build_path("pmudb.db");
	sqlite3 *raw;
	assert_int_equal(sqlite3_open_v2(catalog, &raw, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(catalog, &err);
	assert_non_null(db);
	static struct uncore_count counts[128];
	int ncounts = 0, lines = 0, decoded = 0, in_terms = 0;
	char line[4096], last_key[256] = "", *pmu = NULL;
	while (fgets(line, sizeof(line), truth)) {
		char *field[8] = {0};
		int nf = 0;
		line[strcspn(line, "\n")] = '\0';
		for (char *p = line; p && nf < 8; nf++) {
			field[nf] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		assert_true(nf >= 4);
		lines++;
		if (!strcmp(field[3], "untabled"))
			continue;	/* no format table for it: not counted (hisi) */
		struct uncore_count *c = uncore_count_of(counts, &ncounts, field[0]);
		c->entries++;
		char key[256];
		snprintf(key, sizeof(key), "%s@%s", field[0], field[1]);
		if (strcmp(key, last_key)) {
			free(pmu);
			pmu = uncore_pmu_of(raw, field[0], field[1]);
			snprintf(last_key, sizeof(last_key), "%s", key);
		}
		if (!pmu) {
			c->no_pmu++;
			continue;
		}
		char name[512];
		snprintf(name, sizeof(name), "%s::%s", pmu, field[2]);
		struct pmudb_encoding e;
		int r = pmudb_encode(db, name, NULL, &e, &err);
		if (!typable_name(field[2])) {
			if (!r)
				fail_msg("%s: a name that cannot be typed encodes", name);
			c->untypable++;	/* noted and left out by the build */
			continue;
		}
		if (!strcmp(field[3], "refused")) {
			if (!r)
				fail_msg("%s: perf refuses it (%s), pmudb encodes it", name, field[4]);
			c->refused++;
			continue;
		}
		assert_true(nf >= 7);
		if (r && !strchr(field[2], '.') && strstr(err.message, "needs a unit mask")) {
			c->alone++;	/* listed alone and with unit masks: noted by the build */
			continue;
		}
		if (r)
			fail_msg("%s: %s", name, err.message);
		unsigned long long want[3] = { strtoull(field[4], NULL, 16), strtoull(field[5], NULL, 16),
					       strtoull(field[6], NULL, 16) };
		if (e.config != want[0] || e.config1 != want[1] || e.config2 != want[2])
			fail_msg("%s: 0x%llx/0x%llx/0x%llx; perf: 0x%llx/0x%llx/0x%llx", name, (unsigned long long)e.config,
				 (unsigned long long)e.config1, (unsigned long long)e.config2, want[0], want[1], want[2]);
		c->equal++;
		/* one in 25 decoded back: the encoding names an event of that
		 * PMU, exactly, and that string encodes to it again */
		if (c->equal % (25 * test_sample_step()) == 1) {
			struct first_decoded got = {0};
			pmudb_decoder_t *dec = pmudb_decoder_open(db, pmudb_find_pmu(db, pmu), &err);
			assert_non_null(dec);
			if (pmudb_decode(dec, want[0], want[1], want[2], 1, take_first, &got, &err) < 1)
				fail_msg("%s: 0x%llx/0x%llx/0x%llx decodes to no exact string", name, want[0], want[1], want[2]);
			pmudb_decoder_close(dec);
			struct pmudb_encoding back;
			assert_int_equal(pmudb_encode(db, got.event, NULL, &back, &err), 0);
			assert_true(back.config == e.config && back.config1 == e.config1 && back.config2 == e.config2);
			decoded++;
			/* and perf's syntax of it, terms of the kernel PMU's format
			 * where it has one, reads back to the same words */
			char text[1024];
			struct pmudb_raw_event raw_event;
			assert_int_equal(pmudb_perf_syntax(db, &e, text, sizeof(text), &err), 0);
			if (pmudb_perf_parse(text, NULL, &raw_event, &err))
				fail_msg("%s: %s: %s", name, text, err.message);
			if (raw_event.config != e.config || raw_event.config1 != e.config1 || raw_event.config2 != e.config2)
				fail_msg("%s: %s reads back as 0x%llx/0x%llx/0x%llx", name, text,
					 (unsigned long long)raw_event.config, (unsigned long long)raw_event.config1,
					 (unsigned long long)raw_event.config2);
			if (strstr(text, "event="))
				in_terms++;
		}
	}
	free(pmu);
	assert_int_equal(pclose(truth), 0);
	assert_true(lines > 1000);
	int total[6] = {0};
	print_message("%-20s %7s %7s %8s %8s %6s %5s\n", "uarch", "entries", "equal", "refused", "libpfm's", "alone",
		      "names");
	for (int i = 0; i < ncounts; i++) {
		const struct uncore_count *c = &counts[i];
		print_message("%-20s %7d %7d %8d %8d %6d %5d\n", c->uarch, c->entries, c->equal, c->refused, c->no_pmu,
			      c->alone, c->untypable);
		total[0] += c->entries, total[1] += c->equal, total[2] += c->refused, total[3] += c->no_pmu;
		total[4] += c->alone, total[5] += c->untypable;
		assert_int_equal(c->entries, c->equal + c->refused + c->no_pmu + c->alone + c->untypable);
	}
	print_message("%-20s %7d %7d %8d %8d %6d %5d\n", "all", total[0], total[1], total[2], total[3], total[4],
		      total[5]);
	print_message("%d of them decoded back to an exact string of their PMU, and read back from perf's syntax"
		      " (%d written as format terms)\n", decoded, in_terms);
	assert_true(in_terms > 0);
	assert_true(decoded > total[1] / (30 * test_sample_step()));
	pmudb_close(db);
	sqlite3_close(raw);
	free(catalog);
}

/*
 * `pmudb info` of a vendor uncore event names its kernel PMU and how its
 * boxes are numbered: by the discovery tables on the µarchs whose kernel
 * init sets use_discovery (arch/x86/events/intel/uncore.c: spr_uncore_init
 * and gnr_uncore_init, Sapphire Rapids to Grand Ridge), by the driver
 * elsewhere.
 */
static void test_info_says_how_boxes_are_numbered(void **state)
{
	(void)state;
	static const struct { const char *event, *kpmu; bool discovery; } cases[] = {
		{ "gnr_unc_cha::UNC_CHA_CLOCKTICKS", "uncore_cha", true },
		{ "spr_unc_imc::UNC_M_CLOCKTICKS", "uncore_imc", true },
		{ "icx_unc_cha::UNC_CHA_CLOCKTICKS", "uncore_cha", false },
		{ "amd64_fam19h_zen4_l3::L3_LOOKUP_STATE", "amd_l3", false },
	};
	struct pmudb_error err;
	char *catalog = test_build_path("pmudb.db");
	pmudb_t *db = pmudb_open(catalog, &err);
	assert_non_null(db);
	if (pmudb_find_pmu(db, "gnr_unc_cha") < 0) {
		print_message("SKIP: the catalog has no vendor uncore PMUs (built without the vendor tree or kernel source)\n");
		pmudb_close(db);
		free(catalog);
		return;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_result r;
		test_pmudb(&r, NULL, "--db", catalog, "info", cases[i].event, (char *)NULL);
		assert_int_equal(r.status, 0);
		char want[128];
		snprintf(want, sizeof(want), "counts on kernel PMU %s:", cases[i].kpmu);
		if (!strstr(r.out, want))
			fail_msg("%s: info does not say '%s':\n%s", cases[i].event, want, r.out);
		assert_int_equal(strstr(r.out, "discovery tables") != NULL, cases[i].discovery);
		test_run_free(&r);
	}
	pmudb_close(db);
	free(catalog);
}

/* encode --box N: an uncore event on box N of its kernel PMU, its type
 * from that box's sysfs entry (a stand-in here); one line, exit 1, for an
 * event that counts on no box or a PMU that is one box already; exit 2 for
 * a number that is not one. */
static void test_encode_on_one_box(void **state)
{
	(void)state;
	char *catalog = test_build_path("pmudb.db");
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(catalog, &err);
	assert_non_null(db);
	bool have = pmudb_find_pmu(db, "gnr_unc_cha") >= 0;
	pmudb_close(db);
	if (!have) {
		print_message("SKIP: the catalog has no vendor uncore PMUs (built without the vendor tree or kernel source)\n");
		free(catalog);
		return;
	}
	struct run_result r;
	test_pmudb(&r, NULL, "--db", catalog, "encode", "--box", "3", "--format", "perf",
		   "gnr_unc_cha::UNC_CHA_CLOCKTICKS", (char *)NULL);
	assert_int_equal(r.status, 0);
	assert_true(!strncmp(r.out, "uncore_cha_3/", 13));
	test_run_free(&r);

	char *dir = test_tempdir(), path[1024];
	snprintf(path, sizeof(path), "%s/uncore_cha_3", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/uncore_cha_3/type", dir);
	FILE *f = fopen(path, "w");
	fputs("4242\n", f);
	fclose(f);
	setenv("PMUDB_SYSFS_DEVICES", dir, 1);
	test_pmudb(&r, NULL, "--db", catalog, "encode", "--box", "3", "--format", "json", "gnr_unc_cha::UNC_CHA_CLOCKTICKS",
		   (char *)NULL);
	unsetenv("PMUDB_SYSFS_DEVICES");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"type\":4242"));
	assert_non_null(strstr(r.out, "uncore_cha_3"));
	test_run_free(&r);
	test_rmtree(dir);
	free(dir);

	static const char *const refused[] = { "skx_unc_cha0::UNC_C_CLOCKTICKS", "gnr::INST_RETIRED.ANY_P" };
	for (int i = 0; i < 2; i++) {
		test_pmudb(&r, NULL, "--db", catalog, "encode", "--box", "1", refused[i], (char *)NULL);
		assert_int_equal(r.status, 1);
		assert_int_equal(test_line_count(r.err), 1);
		assert_non_null(strstr(r.err, refused[i]));
		test_run_free(&r);
	}
	test_pmudb(&r, NULL, "--db", catalog, "encode", "--box", "-1", "gnr_unc_cha::UNC_CHA_CLOCKTICKS", (char *)NULL);
	assert_int_equal(r.status, 2);
	test_run_free(&r);
	free(catalog);
}

/* A build of the fixture tree sys/ with the fixture driver's formats;
 * TABLE, when given, one more tables file.  Its exit status. */
static int build_system_fixture(const char *out, const char *table, struct run_result *r)
{
	char *argv[] = { compiler, "--quiet", "--tables", "tables/families.yaml", "--tables", FIXTURES "/sys_uncore.yaml",
			 "--pmu-events", FIXTURES "/sys", "--kernel-source", "tests/fixtures/kernel-source", "--out",
			 (char *)out, table ? "--tables" : NULL, (char *)table, NULL };
	test_run(argv, NULL, r);
	return r->status;
}

/* FIELD of E as a number, or 0 when E lacks it. */
static uint64_t json_number(json_t *e, const char *field)
{
	const char *text = json_string_value(json_object_get(e, field));
	return text ? strtoull(text, NULL, 0) : 0;
}

/*
 * A sys/ folder (system PMUs: perf matches them by the device, not a CPU)
 * is read as a µarch of its own, and its entries are encoded by the
 * formats of tests/fixtures/kernel-source's fake driver, in the forms
 * drivers/perf writes them: masks #define'd as GENMASK_ULL or BIT_ULL
 * (config, or the word given), PMU_FORMAT_ATTR, attributes made in place.
 * Each entry's config is computed here from its JSON fields and the
 * driver's bits as the fixture writes them; an entry wider than its field
 * is left out as perf refuses it; a mask in another form stops the build
 * naming the driver's line, the catalog kept.
 */
static void test_system_pmus_encode_by_the_drivers_formats(void **state)
{
	(void)state;
	char *db_path = temp_path("sys.db");
	struct run_result r;
	if (build_system_fixture(db_path, NULL, &r))
		fail_msg("fixture build of sys/ failed: %s", r.err);
	test_run_free(&r);
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(db_path, &err);
	assert_non_null(db);
	json_t *list = vendor_load_dir(FIXTURES "/sys/arm64/vendor/fakesoc/sys");
	size_t i;
	json_t *e;
	int encoded = 0, refused = 0;
	json_array_foreach(list, i, e) {
		const char *name = json_string_value(json_object_get(e, "EventName"));
		const char *unit = json_string_value(json_object_get(e, "Unit"));
		if (!name)
			continue;	/* a metric (metrics.json) */
		const char *pmu = !strcmp(unit, "fake_mesh") ? "fakesoc_mesh" : !strcmp(unit, "fake_ddr") ? "fakesoc_ddr"
				  : "fakesoc_cache";
		uint64_t type = json_number(e, "NodeType"), eventid = json_number(e, "EventidCode");
		/* the fixture driver: type config:0-15, eventid config:16-26,
		 * event config:0-7 (ddr) or 0-4 (cache); ConfigCode whole */
		bool fits = type < (1u << 16) && eventid < (1u << 11);
		uint64_t want = json_object_get(e, "ConfigCode") ? json_number(e, "ConfigCode")
				: !strcmp(unit, "fake_mesh") ? type | eventid << 16 : json_number(e, "EventCode");
		char text[256];
		snprintf(text, sizeof(text), "%s::%s", pmu, name);
		struct pmudb_encoding enc;
		int rc = pmudb_encode(db, text, NULL, &enc, &err);
		if (!fits) {
			if (!rc)
				fail_msg("%s: wider than its format, yet encodes", text);
			refused++;
			continue;
		}
		if (rc)
			fail_msg("%s: %s", text, err.message);
		if (enc.config != want || enc.config1 || enc.config2)
			fail_msg("%s: 0x%llx, expected 0x%llx", text, (unsigned long long)enc.config, (unsigned long long)want);
		encoded++;
	}
	json_decref(list);
	assert_int_equal(encoded, 5);
	assert_int_equal(refused, 1);
	/* the formats are modifiers, landing where the driver puts them */
	struct pmudb_encoding enc;
	assert_int_equal(pmudb_encode(db, "fakesoc_mesh::mesh_cache_miss:nodeid=3:bynodeid:match=0xffff", NULL, &enc, &err),
			 0);
	assert_true(enc.config == (0x10005 | 1ULL << 31 | 3ULL << 32) && enc.config1 == 0xffff);
	assert_int_equal(pmudb_encode(db, "fakesoc_ddr::fake_ddr.read:axi_id=0x12:port=7", NULL, &enc, &err), 0);
	assert_true(enc.config == 0x2a && enc.config1 == 0x12 && enc.config2 == 7);
	assert_int_not_equal(pmudb_encode(db, "fakesoc_ddr::fake_ddr.read:port=8", NULL, &enc, &err), 0);
	/* the kernel's names: the Unit's PMU, or the pattern the table gives */
	assert_int_equal(pmudb_encode(db, "fakesoc_cache::cache_hits", NULL, &enc, &err), 0);
	assert_string_equal(enc.sysfs_pmu, "fake_sccl*_cache*");
	assert_int_equal(pmudb_encode(db, "fakesoc_mesh::mesh_snoops", NULL, &enc, &err), 0);
	assert_string_equal(enc.sysfs_pmu, "fake_mesh");
	pmudb_close(db);
	/* another form of mask: refused at the driver's line, nothing written */
	char *odd = temp_path("odd.yaml");
	FILE *f = fopen(odd, "w");
	assert_non_null(f);
	fputs("uncore_pmus:\n  - {uarch: vendor/fakesoc/sys, pmu: fake_mesh, name: fakesoc_mesh,"
	      " file: drivers/perf/fake_soc_pmu.c, formats: odd_format_attrs, why: test}\n", f);
	fclose(f);
	char *before = temp_path("sys-before.db");
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", db_path, before);
	assert_int_equal(system(cmd), 0);
	assert_int_not_equal(build_system_fixture(db_path, odd, &r), 0);
	assert_int_equal(test_line_count(r.err), 1);
	assert_non_null(strstr(r.err, "fake_soc_pmu.c:43: odd_format_attrs"));
	test_run_free(&r);
	assert_true(test_files_equal(db_path, before));
	free(before);
	free(odd);
	free(db_path);
}

/* Writes TEXT as the identifier of stand-in sysfs device DEVICE of DIR. */
static void stand_in_device(const char *dir, const char *device, const char *text)
{
	char path[2048];
	snprintf(path, sizeof(path), "%s/%s", dir, device);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s/identifier", dir, device);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * A system PMU belongs to the machine whose device it is: as perf takes a
 * sys/ list, pmudb_scope_add_devices adds a PMU where a device of its
 * kernel PMU (its name, NAME_NUMBER, or its pattern) has a sysfs
 * identifier the vendor's Compat matches whole; then its events resolve
 * unprefixed.  A stand-in sysfs: a matching mesh and DDR, a cache whose
 * identifier does not match, a name that is no instance, an identifier
 * file too long to be one.
 */
static void test_system_pmus_belong_to_the_devices_they_match(void **state)
{
	(void)state;
	char *db_path = temp_path("devices.db");
	struct run_result r;
	if (build_system_fixture(db_path, NULL, &r))
		fail_msg("fixture build of sys/ failed: %s", r.err);
	test_run_free(&r);
	char *devices = temp_path("devices");
	assert_int_equal(mkdir(devices, 0755), 0);
	stand_in_device(devices, "fake_mesh_0", "fake-700\n");		/* "fake.*" */
	stand_in_device(devices, "fake_ddr0", "fake\n");			/* "fake" whole */
	stand_in_device(devices, "fake_ddr1", "fakeX\n");			/* not whole */
	stand_in_device(devices, "fake_sccl1_cache0", "0x31\n");		/* "0x30": another version */
	stand_in_device(devices, "fake_mesh_zz", "fake-700\n");		/* no _NUMBER: no instance */
	char longer[600];
	memset(longer, 'f', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	stand_in_device(devices, "fake_mesh_1", longer);			/* too long: ignored */
	setenv("PMUDB_SYSFS_DEVICES", devices, 1);
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(db_path, &err);
	assert_non_null(db);
	struct pmudb_scope scope = { 0 };
	assert_int_equal(pmudb_scope_add_devices(db, &scope, &err), 2);
	assert_int_equal(scope.count, 2);
	int mesh = pmudb_find_pmu(db, "fakesoc_mesh"), ddr = pmudb_find_pmu(db, "fakesoc_ddr");
	assert_true((scope.pmus[0] == mesh && scope.pmus[1] == ddr) || (scope.pmus[0] == ddr && scope.pmus[1] == mesh));
	assert_int_equal(pmudb_scope_add_devices(db, &scope, &err), 0);	/* not twice */
	struct pmudb_encoding enc;
	assert_int_equal(pmudb_encode(db, "mesh_cache_miss", &scope, &enc, &err), 0);
	assert_true(enc.config == 0x10005 && !strcmp(enc.pmu, "fakesoc_mesh"));
	assert_int_equal(pmudb_encode(db, "fake_ddr.read", &scope, &enc, &err), 0);
	assert_int_not_equal(pmudb_encode(db, "cache_hits", &scope, &enc, &err), 0);
	struct pmudb_uncore_info u;
	assert_int_equal(pmudb_pmu_uncore(db, mesh, &u, &err), 0);
	assert_string_equal(u.device_identifier, "fake.*");
	assert_false(u.discovery_boxes);
	assert_int_equal(pmudb_pmu_uncore(db, pmudb_find_pmu(db, "fakesoc_cache"), &u, &err), 0);
	assert_string_equal(u.device_identifier, "0x30");
	pmudb_close(db);
	/* the catalog says what the device is, whatever sysfs has */
	test_pmudb(&r, NULL, "--db", db_path, "info", "fakesoc_ddr::fake_ddr.read", (char *)NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "matches fake whole"));
	test_run_free(&r);
	/* and the real catalog on an Arm CMN's sysfs: where the host's CPU has
	 * a table, detect lists arm_cmn and its events resolve unprefixed */
	char *catalog = test_build_path("pmudb.db");
	db = pmudb_open(catalog, &err);
	assert_non_null(db);
	bool cmn = pmudb_find_pmu(db, "arm_cmn") >= 0;
	pmudb_close(db);
	stand_in_device(devices, "arm_cmn_0", "43c\n");
	test_pmudb(&r, NULL, "--db", catalog, "detect", (char *)NULL);
	if (!cmn || r.status != 0) {
		print_message("SKIP: detect with arm_cmn: %s\n", !cmn ? "the catalog has no arm_cmn (no vendor tree)"
								 : "this host's CPU has no table in the catalog");
	} else {
		assert_non_null(strstr(r.out, " arm_cmn"));
		assert_non_null(strstr(r.out, "arm_cmn on arm_cmn (a device whose identifier matches (434|436|43c|43a).*): 1 in sysfs"));
		test_run_free(&r);
		test_pmudb(&r, NULL, "--db", catalog, "encode", "--format", "perf", "hnf_cache_miss", (char *)NULL);
		assert_int_equal(r.status, 0);
		assert_string_equal(r.out, "arm_cmn/type=0x5,eventid=0x1,name=hnf_cache_miss/\n");
	}
	test_run_free(&r);
	unsetenv("PMUDB_SYSFS_DEVICES");
	free(catalog);
	free(devices);
	free(db_path);
}

/*
 * pmudb stat -M on the fixture sys/ tree: its metric fake_ddr_busy
 * (fake_ddr.cycles / duration_time) is for fakesoc_ddr (its Unit); with a
 * stand-in fake_ddr0 of the software PMU's type, fake_ddr.cycles (event 0)
 * is CPU 0's clock, so the metric is about 1 (100 %) over its threshold
 * 0.5; a metric naming an event no list has is refused in one line.
 */
static void test_stat_counts_a_metric(void **state)
{
	(void)state;
	char *db_path = temp_path("stat-metric.db");
	struct run_result r;
	if (build_system_fixture(db_path, NULL, &r))
		fail_msg("fixture build of sys/ failed: %s", r.err);
	test_run_free(&r);
	test_pmudb(&r, NULL, "--db", db_path, "--pmu", "fakesoc_ddr", "metrics", "--json", (char *)NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"name\":\"fake_ddr_busy\",\"pmu\":\"fakesoc_ddr\""));
	assert_non_null(strstr(r.out, "\"missing\":\"names 'fake_ddr.nosuch'"));
	test_run_free(&r);
	test_pmudb(&r, NULL, "--db", db_path, "--pmu", "fakesoc_ddr", "stat", "-M", "fake_ddr_missing", "--", "true",
		   (char *)NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_line_count(r.err), 1);
	assert_non_null(strstr(r.err, "fake_ddr.nosuch"));
	test_run_free(&r);
	FILE *p = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int paranoid = 2;
	if (p) {
		if (fscanf(p, "%d", &paranoid) != 1)
			paranoid = 2;
		fclose(p);
	}
	if (geteuid() != 0 && paranoid > 0) {
		print_message("SKIP: counting on a CPU needs root or perf_event_paranoid 0 or lower\n");
		free(db_path);
		return;
	}
	char *devices = temp_path("stat-devices");
	assert_int_equal(mkdir(devices, 0755), 0);
	static const char *const files[][2] = { { "fake_ddr0", NULL }, { "fake_ddr0/type", "1\n" },
						  { "fake_ddr0/cpumask", "0\n" } };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[2048];
		snprintf(path, sizeof(path), "%s/%s", devices, files[i][0]);
		if (!files[i][1]) {
			assert_int_equal(mkdir(path, 0755), 0);
			continue;
		}
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(files[i][1], f);
		fclose(f);
	}
	setenv("PMUDB_SYSFS_DEVICES", devices, 1);
	test_pmudb(&r, NULL, "--db", db_path, "--pmu", "fakesoc_ddr", "stat", "--json", "-M", "fake_group", "--", "sleep",
		   "0.2", (char *)NULL);
	unsetenv("PMUDB_SYSFS_DEVICES");
	if (r.status)
		fail_msg("exit %d: %s", r.status, r.err);
	json_error_t jerr;
	json_t *out = json_loads(r.out, 0, &jerr);
	assert_non_null(out);
	json_t *metric = json_array_get(json_object_get(out, "metrics"), 0);
	assert_string_equal(json_string_value(json_object_get(metric, "name")), "fake_ddr_busy");
	double v = json_number_value(json_object_get(metric, "value"));
	if (v < 0.5 || v > 1.5)
		fail_msg("fake_ddr_busy is %g, not about 1: %s", v, r.out);
	assert_true(json_is_true(json_object_get(metric, "threshold")));
	assert_string_equal(json_string_value(json_object_get(metric, "unit")), "%");
	print_message("stat -M fake_group: fake_ddr_busy %.3f (CPU 0's clock over 0.2 s)\n", v);
	json_decref(out);
	test_run_free(&r);
	free(devices);
	free(db_path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_layout_fixture),
		cmocka_unit_test(test_perfmon_layout_fixture),
		cmocka_unit_test(test_hybrid_names_answer_on_each_core_type),
		cmocka_unit_test(test_names_people_type_resolve),
		cmocka_unit_test(test_search_filters_and_globs),
		cmocka_unit_test(test_stand_in_uarchs_keep_their_list),
		cmocka_unit_test(test_malformed_trees_are_refused),
		cmocka_unit_test(test_a_bad_entry_is_left_out_with_a_note),
		cmocka_unit_test(test_a_name_listed_twice_is_noted_where_listed_again),
		cmocka_unit_test(test_every_vendor_event_of_the_tree_encodes),
		cmocka_unit_test(test_libpfm_names_encode_as_libpfm),
		cmocka_unit_test(test_every_uncore_entry_encodes_as_perf_places_it),
		cmocka_unit_test(test_info_says_how_boxes_are_numbered),
		cmocka_unit_test(test_encode_on_one_box),
		cmocka_unit_test(test_system_pmus_encode_by_the_drivers_formats),
		cmocka_unit_test(test_system_pmus_belong_to_the_devices_they_match),
		cmocka_unit_test(test_stat_counts_a_metric),
	};
	return cmocka_run_group_tests_name("vendor", tests, setup, teardown);
}
