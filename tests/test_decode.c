/*
 * test_decode.c - `pmudb decode` as a user runs it, and the readers under
 * it: perf's syntax (pmudb_perf_parse) and kernel PMU formats
 * (pmudb_perf_format), hostile input included.  Every string decode
 * prints is encoded again here and must give the registers asked; the
 * property over the whole harness corpus is tests/decode_property.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <jansson.h>

#include "pmudb.h"
#include "tests/testlib.h"

static char *pmudb, *tmp;
static pmudb_t *db;

static int setup(void **state)
{
	(void)state;
	return test_cli_start(&pmudb, &tmp, &db);
}

static int teardown(void **state)
{
	(void)state;
	test_cli_end(pmudb, tmp, db);
	return 0;
}

/* Runs pmudb with the arguments up to the first NULL. */
#define run(r, ...) test_pmudb(r, NULL, __VA_ARGS__, NULL)

/* Every "  PMU::..." line of OUT encodes to CONFIG, CONFIG1, CONFIG2;
 * returns how many there are. */
static int check_lines(const char *out, uint64_t config, uint64_t config1, uint64_t config2)
{
	int n = 0;
	char *copy = strdup(out);
	for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "  ", 2) || strstr(line, "nearest"))
			continue;
		struct pmudb_encoding e;
		struct pmudb_error err;
		if (pmudb_encode(db, line + 2, NULL, &e, &err))
			fail_msg("%s: %s", line + 2, err.message);
		assert_int_equal(e.config, config);
		assert_int_equal(e.config1, config1);
		assert_int_equal(e.config2, config2);
		n++;
	}
	free(copy);
	return n;
}

static void test_core_forms(void **state)
{
	(void)state;
	struct run_result r;
	/* the same registers four ways */
	static char *const forms[] = { "0x18001c2", "r18001c2", "cpu/event=0xc2,umask=0x1,cmask=1,inv/", "0x18001c2,0,0" };
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		run(&r, "--cpu", "GenuineIntel/6/0x55/4", "decode", forms[i], NULL);
		assert_int_equal(r.status, 0);
		assert_non_null(strstr(r.out, "  skx::UOPS_RETIRED:ALL:i=1:c=1\n"));
		assert_true(check_lines(r.out, 0x18001c2, 0, 0) >= 2);
		test_run_free(&r);
	}
	/* shortest first */
	run(&r, "--pmu", "skl", "decode", "0xc0", NULL);
	assert_int_equal(r.status, 0);
	char *first = strstr(r.out, "\n  ") + 3;
	assert_true(strlen(first) > 0);
	assert_true(check_lines(r.out, 0xc0, 0, 0) >= 2);
	size_t prev = 0;
	for (char *p = strstr(r.out, "\n  "); p; p = strstr(p + 1, "\n  ")) {
		size_t len = strcspn(p + 3, "\n");
		assert_true(len >= prev);
		prev = len;
	}
	test_run_free(&r);
	/* AMD: the event select's high bits (config 32-35) */
	run(&r, "--pmu", "amd64_fam19h_zen4", "decode", "cpu/event=0x1d0,umask=0x1/", NULL);
	assert_true(r.status == 0 || r.status == 1);
	if (!r.status)
		assert_true(check_lines(r.out, 0x1000001d0ULL | 0x100, 0, 0) >= 1);
	test_run_free(&r);
	/* Arm: by the PMUv3 PMU's name and format */
	run(&r, "--cpu", "0x41/8/0xd49", "decode", "armv8_pmuv3_0/event=0x11/", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "  arm_n2::CPU_CYCLES\n"));
	test_run_free(&r);
}

/* An uncore event with a filter in config1, written in perf's syntax from
 * its own encoding, decodes to strings of that box. */
static void test_uncore(void **state)
{
	(void)state;
	int p = pmudb_find_pmu(db, "skx_unc_cha0");
	struct pmudb_pmu_info info;
	assert_int_equal(pmudb_pmu_info(db, p, &info), 0);
	struct pmudb_encoding e;
	char str[512];
	bool found = false;
	for (int ev = 0; ev < info.event_count && !found; ev++) {
		struct pmudb_event_info ei;
		if (pmudb_event_info(db, p, ev, &ei))
			continue;
		for (int u = 0; u < ei.umask_count && !found; u++) {
			struct pmudb_umask_info ui;
			if (pmudb_umask_info(db, p, ev, u, &ui))
				continue;
			snprintf(str, sizeof(str), "skx_unc_cha0::%s:%s", ei.name, ui.name);
			found = !pmudb_encode(db, str, NULL, &e, NULL) && e.config1 && e.config <= 0xffff;
		}
	}
	assert_true(found);
	char perf[256];
	snprintf(perf, sizeof(perf), "uncore_cha_0/event=0x%llx,umask=0x%llx,config1=0x%llx/",
		 (unsigned long long)(e.config & 0xff), (unsigned long long)(e.config >> 8 & 0xff), (unsigned long long)e.config1);
	struct run_result r;
	run(&r, "decode", perf, NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "  skx_unc_cha0::"));
	assert_true(check_lines(r.out, e.config, e.config1, e.config2) >= 1);
	test_run_free(&r);
	/* the same with config1 after the closing '/' */
	snprintf(perf, sizeof(perf), "uncore_cha_0/event=0x%llx,umask=0x%llx/,config1=0x%llx",
		 (unsigned long long)(e.config & 0xff), (unsigned long long)(e.config >> 8 & 0xff), (unsigned long long)e.config1);
	run(&r, "decode", "--json", perf, NULL, NULL);
	assert_int_equal(r.status, 0);
	json_error_t jerr;
	json_t *o = json_loads(r.out, 0, &jerr);
	assert_non_null(o);
	json_t *answers = json_object_get(o, "answers");
	assert_true(json_array_size(answers) >= 1);
	assert_true(json_is_true(json_object_get(json_array_get(answers, 0), "exact")));
	json_decref(o);
	test_run_free(&r);
	printf("uncore: %s from %s\n", perf, str);
}

static void test_nearest_and_errors(void **state)
{
	(void)state;
	struct run_result r;
	/* bit 22 (the enable bit) is no event's: nearest, exit 1, the bit named */
	run(&r, "--pmu", "skx", "decode", "0x4001c2", NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "nearest: skx::UOPS_RETIRED"));
	assert_non_null(strstr(r.out, "config bits 0x400000"));
	test_run_free(&r);
	/* a unit-mask bit no unit mask has: named by its format field */
	run(&r, "--pmu", "skx", "decode", "--json", "cpu/event=0xc0,umask=0x80/");
	assert_int_equal(r.status, 1);
	json_error_t jerr;
	json_t *o = json_loads(r.out, 0, &jerr);
	assert_non_null(o);
	json_t *a = json_array_get(json_object_get(o, "answers"), 0);
	assert_false(json_is_true(json_object_get(a, "exact")));
	assert_non_null(strstr(json_string_value(json_object_get(a, "left_fields")), "umask="));
	json_decref(o);
	test_run_free(&r);

	static char *const bad[][2] = {
		{ "cpu/evnt=0xc0/", "evnt" }, { "cpu/umask=0x1ff/", "does not fit" }, { "cpu/event=zz/", "event=zz" },
		{ "cpu/event=0xc0", "closing" }, { "0x1,0x2,0x3,0x4", "more than" }, { "rzz", "rzz" },
		{ "cpu/event=0xc0/q", "'q'" }, { "/event=1/", "no PMU name" }, { "0x-1", "0x-1" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		run(&r, "--pmu", "skx", "decode", bad[i][0], NULL);
		assert_int_equal(r.status, 1);
		assert_int_equal(test_line_count(r.err), 1);
		if (!strstr(r.err, bad[i][1]))
			fail_msg("%s: %s", bad[i][0], r.err);
		test_run_free(&r);
	}
	run(&r, "decode", NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 2);
	test_run_free(&r);
	run(&r, "decode", "--help", NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: pmudb decode"));
	test_run_free(&r);
	run(&r, "decode", "uncore_nosuch_0/event=1/", NULL, NULL, NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_line_count(r.err), 1);
	test_run_free(&r);
}

/* Formats from a stand-in sysfs: read when present, refused when malformed. */
static void test_formats(void **state)
{
	(void)state;
	char dir[1024], path[1200];
	snprintf(dir, sizeof(dir), "%s/devices", tmp);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/uncore_x_0", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/uncore_x_0/format", dir);
	mkdir(path, 0755);
	static const char *const good[][2] = { { "ev", "config:0-7,32-35\n" }, { "flt", "config1:3" } };
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/uncore_x_0/format/%s", dir, good[i][0]);
		FILE *f = fopen(path, "w");
		fputs(good[i][1], f);
		fclose(f);
	}
	setenv("PMUDB_SYSFS_DEVICES", dir, 1);
	struct pmudb_raw_event raw;
	struct pmudb_error err;
	assert_int_equal(pmudb_perf_parse("uncore_x_0/ev=0x1c0,flt/", NULL, &raw, &err), 0);
	assert_int_equal(raw.config, 0x1000000c0ULL);
	assert_int_equal(raw.config1, 0x8);
	/* the table's terms are not this PMU's: sysfs wins */
	assert_int_not_equal(pmudb_perf_parse("uncore_x_0/event=1/", NULL, &raw, &err), 0);
	assert_non_null(strstr(err.message, "event"));
	static const char *const hostile[] = { "config:7-3", "config3:1", "config:64", "config:1,1", "config:",
					       "config:1-", "config:x", "", "config:0-7 junk" };
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		snprintf(path, sizeof(path), "%s/uncore_x_0/format/flt", dir);
		FILE *f = fopen(path, "w");
		fputs(hostile[i], f);
		fclose(f);
		struct pmudb_perf_format fmt;
		assert_int_equal(pmudb_perf_format("uncore_x_0", NULL, &fmt, &err), PMUDB_ERR_INVAL);
		assert_non_null(strstr(err.message, "flt"));
	}
	unsetenv("PMUDB_SYSFS_DEVICES");
	/* the table: AMD's cpu differs from Intel's */
	struct pmudb_perf_format fmt;
	assert_int_equal(pmudb_perf_format("cpu", "amd64", &fmt, &err), 0);
	assert_int_equal(pmudb_perf_parse("cpu/event=0x1c0/", "amd64", &raw, &err), 0);
	assert_int_equal(raw.config, 0x1000000c0ULL);
	assert_int_not_equal(pmudb_perf_parse("cpu/event=0x1c0/", "intel_x86", &raw, &err), 0);
	assert_int_not_equal(pmudb_perf_format("../x", NULL, &fmt, &err), 0);
	assert_int_equal(pmudb_perf_format("nosuchpmu", NULL, &fmt, &err), PMUDB_ERR_NOTFOUND);
	/* hostile strings: refused in one line, never a crash */
	static const char *const junk[] = { "", "/", "//", "cpu//", "cpu/,/", "cpu/=/", "cpu/event=/", "cpu/event==1/",
					    "cpu/config=99999999999999999999/", "r", "0x", ",", "cpu/event=1/,", "cpu/event=1/:" };
	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
		pmudb_perf_parse(junk[i], NULL, &raw, &err);
	char big[4000];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_not_equal(pmudb_perf_parse(big, NULL, &raw, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_core_forms),
		cmocka_unit_test(test_uncore),
		cmocka_unit_test(test_nearest_and_errors),
		cmocka_unit_test(test_formats),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
