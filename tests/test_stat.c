/*
 * test_stat.c - counting for real: pmudb_to_perf_attr and the sysfs readers
 * of runtime/perf/perf_attr.c, and `pmudb stat` around real commands.
 *
 * Software events are counted here on every machine.  Hardware events are
 * tried; where the machine has no hardware PMU (a VM) the test says so on
 * a SKIP line, and where it has one, perf's generic instructions event and
 * the core PMU's own retired-instructions event must agree within 1 % on
 * one fixed loop.  What the kernel allows depends on who runs the tests and
 * on perf_event_paranoid: each test reads both and expects what applies.
 *
 * Run as `test_stat --spin`, this program is the fixed loop.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <cmocka.h>
#include <jansson.h>

#include "pmudb.h"
#include "tests/testlib.h"

/* Sleeps (a context switch, no CPU time) and spins (CPU time). */
#define SLEEP_AND_SPIN "sleep 0.2; i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"

static char *pmudb, *tmp, *self;
static pmudb_t *db;

static int setup(void **state)
{
	(void)state;
	self = realpath("/proc/self/exe", NULL);
	return test_cli_start(&pmudb, &tmp, &db) || !self ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	test_cli_end(pmudb, tmp, db);
	free(self);
	return 0;
}

/* ---- what this machine allows ------------------------------------------- */

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

/* Counting kernel space, and counting whole CPUs, as the kernel decides. */
static bool may_count_kernel(void)
{
	return geteuid() == 0 || paranoid() <= 1;
}

static bool may_count_cpus(void)
{
	return geteuid() == 0 || paranoid() <= 0;
}

/* ---- running pmudb stat --------------------------------------------------- */

/* Runs pmudb with the NULL-ended arguments. */
#define run_pmudb(r, ...) test_pmudb(r, NULL, __VA_ARGS__)

/* The final count of EVENT in text output: "value enabled running EVENT". */
static bool find_count(const char *out, const char *event, uint64_t v[3])
{
	bool found = false;
	for (const char *line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char name[512];
		uint64_t x[3];
		if (line[0] != '#' && sscanf(line, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %511s", &x[0], &x[1], &x[2], name) == 4 &&
		    !strcmp(name, event)) {
			memcpy(v, x, sizeof(x));
			found = true;
		}
	}
	return found;
}

/* Interval lines of EVENT: "seconds value enabled running EVENT". */
static int interval_lines(const char *out, const char *event)
{
	int n = 0;
	for (const char *line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char first[64], name[512];
		if (sscanf(line, "%63s %*s %*s %*s %511s", first, name) == 2 && strchr(first, '.') && !strcmp(name, event))
			n++;
	}
	return n;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double children_cpu_seconds(void)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

static void assert_one_line_naming(const struct run_result *r, const char *what)
{
	if (test_line_count(r->err) != 1 || !strstr(r->err, what))
		fail_msg("expected one line naming %s, got: %s", what, r->err);
}

/* ---- the library ----------------------------------------------------------- */

static void test_parse_cpulist(void **state)
{
	(void)state;
	struct pmudb_error err;
	int cpus[8];
	assert_int_equal(pmudb_parse_cpulist("0-3,8,10-11\n", cpus, 8, &err), 7);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[3], 3);
	assert_int_equal(cpus[4], 8);
	assert_int_equal(cpus[6], 11);
	assert_int_equal(pmudb_parse_cpulist("5", cpus, 8, &err), 1);
	assert_int_equal(cpus[0], 5);
	assert_int_equal(pmudb_parse_cpulist("\n", cpus, 8, &err), 0);
	/* more CPUs than room: counted, not written past MAX, no loop over them */
	assert_int_equal(pmudb_parse_cpulist("0-65535", cpus, 2, &err), 65536);
	assert_int_equal(cpus[1], 1);
	/* a CPU named twice is refused, not counted twice (a cpumask "0,0,0,0"
	 * would open four counters on CPU 0 and sum them) */
	assert_int_equal(pmudb_parse_cpulist("0-65535,0-65535", NULL, 0, &err), PMUDB_ERR_INVAL);
	assert_non_null(strstr(err.message, "CPU 0 is named twice"));

	static const char *const bad[] = {
		"0-", "-1", "3-1", "x", "1,,2", "1,", " 1", "1 2", "0-65536", "99999999999999999999", "1\n2",
		"\xff", "1-2-3", "+1", "0x1", "0,0,0,0", "0-3,2", "5,1-5",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		if (pmudb_parse_cpulist(bad[i], cpus, 8, &err) != PMUDB_ERR_INVAL)
			fail_msg("\"%s\" accepted", bad[i]);
		assert_int_equal(err.code, PMUDB_ERR_INVAL);
		assert_null(strchr(err.message, '\n'));	/* one line, whatever the input */
	}
	assert_int_equal(pmudb_parse_cpulist(NULL, cpus, 8, &err), PMUDB_ERR_INVAL);
}

static void encode(const char *event, struct pmudb_encoding *enc)
{
	struct pmudb_error err;
	if (pmudb_encode(db, event, NULL, enc, &err))
		fail_msg("%s: %s", event, err.message);
}

/* attr.size of a buffer that may be shorter than our struct perf_event_attr */
static uint32_t size_field(const void *attr)
{
	uint32_t size;
	memcpy(&size, (const char *)attr + offsetof(struct perf_event_attr, size), sizeof(size));
	return size;
}

static void test_to_perf_attr(void **state)
{
	(void)state;
	struct pmudb_encoding enc;
	struct pmudb_error err;
	struct perf_event_attr attr;
	encode("perf::PERF_COUNT_SW_TASK_CLOCK:u", &enc);
	memset(&attr, 0xff, sizeof(attr));
	assert_int_equal(pmudb_to_perf_attr(&enc, &attr, sizeof(attr), &err), PMUDB_OK);
	assert_int_equal(attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(attr.size, sizeof(attr));
	assert_int_equal(attr.config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(attr.exclude_kernel, 1);
	assert_int_equal(attr.exclude_user, 0);
	assert_int_equal(attr.disabled, 0);	/* the caller's: zero */
	assert_int_equal(attr.read_format, 0);

	/* the attr opens, and counts: the library's attr is usable as it is */
	attr.exclude_kernel = 1;
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		fail_msg("perf_event_open of the library's attr: %s", strerror(errno));
	for (volatile int i = 0; i < 1000000; i++)
		;
	uint64_t value = 0;
	assert_int_equal(read(fd, &value, sizeof(value)), sizeof(value));
	assert_true(value > 0);
	close(fd);

	/* an older header's attr (64 bytes), and a newer one's: zero past ours */
	_Alignas(uint64_t) unsigned char small[PERF_ATTR_SIZE_VER0], big[sizeof(attr) + 32];
	assert_int_equal(pmudb_to_perf_attr(&enc, (struct perf_event_attr *)small, sizeof(small), &err), PMUDB_OK);
	assert_int_equal(size_field(small), PERF_ATTR_SIZE_VER0);
	memset(big, 0xff, sizeof(big));
	assert_int_equal(pmudb_to_perf_attr(&enc, (struct perf_event_attr *)big, sizeof(big), &err), PMUDB_OK);
	assert_int_equal(size_field(big), sizeof(big));
	for (size_t i = sizeof(attr); i < sizeof(big); i++)
		assert_int_equal(big[i], 0);
	assert_int_equal(pmudb_to_perf_attr(&enc, &attr, 32, &err), PMUDB_ERR_INVAL);
	enc.config2 = 1;
	assert_int_equal(pmudb_to_perf_attr(&enc, (struct perf_event_attr *)small, sizeof(small), &err), PMUDB_ERR_TOOSMALL);
	assert_int_equal(pmudb_to_perf_attr(NULL, &attr, sizeof(attr), &err), PMUDB_ERR_INVAL);
	/* a caller's encoding whose kernel PMU name fills its array: refused,
	 * not read past (sanitizers watch) */
	struct pmudb_encoding unended = enc;
	memset(unended.sysfs_pmu, 'a', sizeof(unended.sysfs_pmu));
	assert_int_equal(pmudb_to_perf_attr(&unended, &attr, sizeof(attr), &err), PMUDB_ERR_INVAL);
	assert_non_null(strstr(err.message, "do not end"));

	/* sampling and precise modifiers land in their fields */
	encode("perf::PERF_COUNT_HW_INSTRUCTIONS:freq=100:precise=2", &enc);
	assert_int_equal(pmudb_to_perf_attr(&enc, &attr, sizeof(attr), &err), PMUDB_OK);
	assert_int_equal(attr.freq, 1);
	assert_int_equal(attr.sample_freq, 100);
	assert_int_equal(attr.precise_ip, 2);
}

/* A stand-in for the kernel's PMU tree: boxes uncore_cha_N, N each of
 * BOXES (COUNT of them), with TYPE and CPUMASK (NULL: no such file). */
static char *fake_sysfs_boxes(const char *type, const char *cpumask, const int *boxes, int count)
{
	char *dir = NULL, path[1024];
	if (asprintf(&dir, "%s/devices", tmp) < 0)
		abort();
	test_rmtree(dir);
	mkdir(dir, 0755);
	const char *names[] = { "type", "cpumask" }, *values[] = { type, cpumask };
	for (int b = 0; b < count; b++) {
		snprintf(path, sizeof(path), "%s/uncore_cha_%d", dir, boxes[b]);
		mkdir(path, 0755);
		for (int i = 0; i < 2; i++) {
			if (!values[i])
				continue;
			snprintf(path, sizeof(path), "%s/uncore_cha_%d/%s", dir, boxes[b], names[i]);
			FILE *f = fopen(path, "w");
			fputs(values[i], f);
			fclose(f);
		}
	}
	return dir;
}

/* The same with one box, uncore_cha_0. */
static char *fake_sysfs(const char *type, const char *cpumask)
{
	static const int first[] = { 0 };
	return fake_sysfs_boxes(type, cpumask, first, 1);
}

static void test_uncore_type_and_cpumask_from_sysfs(void **state)
{
	(void)state;
	struct pmudb_encoding enc;
	struct pmudb_error err;
	struct perf_event_attr attr;
	int cpus[4];
	encode("skx_unc_cha0::UNC_C_CLOCKTICKS", &enc);
	assert_string_equal(enc.sysfs_pmu, "uncore_cha_0");

	/* this machine's sysfs, where (on all but a Skylake-X) there is none */
	struct stat st;
	if (stat("/sys/bus/event_source/devices/uncore_cha_0", &st)) {
		assert_int_equal(pmudb_to_perf_attr(&enc, &attr, sizeof(attr), &err), PMUDB_ERR_NOTFOUND);
		assert_non_null(strstr(err.message, "no such PMU on this machine"));
		assert_int_equal(pmudb_kernel_pmu_cpus("uncore_cha_0", cpus, 4, &err), PMUDB_ERR_NOTFOUND);
	}

	char *dir = fake_sysfs("42\n", "0,2-3\n");
	setenv("PMUDB_SYSFS_DEVICES", dir, 1);
	assert_int_equal(pmudb_to_perf_attr(&enc, &attr, sizeof(attr), &err), PMUDB_OK);
	assert_int_equal(attr.type, 42);	/* read here, not the catalog's */
	assert_int_equal(pmudb_kernel_pmu_cpus("uncore_cha_0", cpus, 4, &err), 3);
	assert_int_equal(cpus[2], 3);
	assert_int_equal(pmudb_kernel_pmu_cpus("no_such_pmu", cpus, 4, &err), PMUDB_ERR_NOTFOUND);
	assert_int_equal(pmudb_kernel_pmu_cpus("../devices/uncore_cha_0", cpus, 4, &err), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_kernel_pmu_cpus("..", cpus, 4, &err), PMUDB_ERR_INVAL);
	free(dir);

	/* malformed files: refused, in one line, never guessed */
	static const char *const types[] = { "", "x\n", "-1\n", "4294967296\n", "1 2\n", "1\n\n\n\n\n\n\n\n\n\n\n\nx" };
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		free(fake_sysfs(types[i], "0\n"));
		if (pmudb_to_perf_attr(&enc, &attr, sizeof(attr), &err) != PMUDB_ERR_INVAL)
			fail_msg("type file \"%s\" accepted", types[i]);
		assert_null(strchr(err.message, '\n'));
	}
	static const char *const masks[] = { "", "\n", "0-\n", "a\n", "1,\xff\n" };
	for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		free(fake_sysfs("1\n", masks[i]));
		if (pmudb_kernel_pmu_cpus("uncore_cha_0", cpus, 4, &err) != PMUDB_ERR_INVAL)
			fail_msg("cpumask \"%s\" accepted", masks[i]);
		assert_null(strchr(err.message, '\n'));
	}
	free(fake_sysfs("1\n", NULL));	/* no cpumask: counts per task */
	assert_int_equal(pmudb_kernel_pmu_cpus("uncore_cha_0", cpus, 4, &err), 0);
	unsetenv("PMUDB_SYSFS_DEVICES");
}

/* ---- pmudb stat: software events, counted ----------------------------------- */

static void test_software_events_count(void **state)
{
	(void)state;
	const char *tc = may_count_kernel() ? "perf::PERF_COUNT_SW_TASK_CLOCK" : "perf::PERF_COUNT_SW_TASK_CLOCK:u";
	const char *cs = may_count_kernel() ? "perf::PERF_COUNT_SW_CONTEXT_SWITCHES"
					   : "perf::PERF_COUNT_SW_CONTEXT_SWITCHES:u";
	struct run_result r;
	double cpu0 = children_cpu_seconds(), t0 = now_seconds();
	run_pmudb(&r, "stat", "-e", tc, "-e", cs, "--", "sh", "-c", SLEEP_AND_SPIN, NULL);
	double wall = now_seconds() - t0, cpu = children_cpu_seconds() - cpu0;
	if (r.status)
		fail_msg("exit %d: %s", r.status, r.err);
	assert_non_null(strstr(r.out, "exit status 0"));
	uint64_t task[3], switches[3];
	assert_true(find_count(r.out, tc, task));
	assert_true(find_count(r.out, cs, switches));
	/* task-clock is CPU time in ns: the spin costs some, the sleep none;
	 * it cannot exceed the CPU time of pmudb and its children, nor the
	 * wall time on this machine's CPUs */
	double task_s = (double)task[0] / 1e9;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	print_message("task-clock %.4f s, CPU time of pmudb and children %.4f s, wall %.4f s; context switches %" PRIu64
		      "\n", task_s, cpu, wall, switches[0]);
	assert_true(task[0] >= 1000000);	/* 1 ms: 20000 shell iterations take more */
	assert_true(task_s <= cpu * 1.1 + 0.02);
	assert_true(task_s <= wall * (double)ncpu);
	assert_true(task[1] > 0 && task[1] == task[2]);	/* software: never multiplexed */
	if (may_count_kernel())
		assert_true(switches[0] >= 1);	/* the sleep switches away */
	else
		print_message("NOTE: context switches counted in user space only (perf_event_paranoid %d): may be 0\n",
			      paranoid());
	test_run_free(&r);
}

static void test_group_counts_together(void **state)
{
	(void)state;
	const char *group = may_count_kernel()
		? "{perf::PERF_COUNT_SW_TASK_CLOCK,perf::PERF_COUNT_SW_CONTEXT_SWITCHES,perf::PERF_COUNT_SW_PAGE_FAULTS}"
		: "{perf::PERF_COUNT_SW_TASK_CLOCK:u,perf::PERF_COUNT_SW_CONTEXT_SWITCHES:u,perf::PERF_COUNT_SW_PAGE_FAULTS:u}";
	struct run_result r;
	run_pmudb(&r, "stat", "-e", group, "--", "sh", "-c", "sleep 0.05", NULL);
	if (r.status)
		fail_msg("exit %d: %s", r.status, r.err);
	uint64_t a[3], b[3], c[3];
	char name[3][128];
	const char *p = group + 1;
	for (int i = 0; i < 3; i++) {
		size_t n = strcspn(p, ",}");
		snprintf(name[i], sizeof(name[i]), "%.*s", (int)n, p);
		p += n + 1;
	}
	assert_true(find_count(r.out, name[0], a));
	assert_true(find_count(r.out, name[1], b));
	assert_true(find_count(r.out, name[2], c));
	/* one group: one time_enabled and time_running for all */
	assert_true(a[1] == b[1] && b[1] == c[1] && a[2] == b[2]);
	assert_true(a[0] > 0 && c[0] > 0);	/* an exec faults pages in */
	assert_non_null(strstr(r.out, "[group 1]"));
	test_run_free(&r);

	/* --group does the same for separate -e */
	run_pmudb(&r, "stat", "--group", "-e", name[0], "-e", name[2], "--", "true", NULL);
	assert_int_equal(r.status, 0);
	assert_true(find_count(r.out, name[0], a) && find_count(r.out, name[2], c));
	assert_true(a[1] == c[1]);
	test_run_free(&r);
}

static void test_json_parses(void **state)
{
	(void)state;
	const char *tc = may_count_kernel() ? "perf::PERF_COUNT_SW_TASK_CLOCK" : "perf::PERF_COUNT_SW_TASK_CLOCK:u";
	struct run_result r;
	run_pmudb(&r, "stat", "--json", "-e", tc, "-e", "{perf::PERF_COUNT_SW_PAGE_FAULTS:u,perf::PERF_COUNT_SW_CPU_CLOCK:u}",
		  "--", "sh", "-c", "exit 3", NULL);
	if (r.status)
		fail_msg("exit %d: %s", r.status, r.err);
	json_error_t jerr;
	json_t *root = json_loads(r.out, 0, &jerr);
	if (!root)
		fail_msg("not JSON (%s): %s", jerr.text, r.out);
	assert_int_equal(json_integer_value(json_object_get(root, "exit_status")), 3);
	assert_string_equal(json_string_value(json_array_get(json_object_get(root, "command"), 0)), "sh");
	json_t *counts = json_object_get(root, "counts");
	assert_int_equal(json_array_size(counts), 3);
	for (size_t i = 0; i < 3; i++) {
		json_t *c = json_array_get(counts, i);
		assert_true(json_is_string(json_object_get(c, "event")));
		assert_string_equal(json_string_value(json_object_get(c, "pmu")), "perf");
		assert_true(json_is_integer(json_object_get(c, "value")));
		assert_true(json_is_integer(json_object_get(c, "time_enabled")));
		assert_true(json_is_integer(json_object_get(c, "time_running")));
		assert_true(json_is_integer(json_object_get(c, "scaled")));
		assert_int_equal(json_integer_value(json_object_get(c, "type")), PERF_TYPE_SOFTWARE);
	}
	assert_string_equal(json_string_value(json_object_get(json_array_get(counts, 0), "event")), tc);
	assert_null(json_object_get(json_array_get(counts, 0), "group"));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(counts, 1), "group")),
			 json_integer_value(json_object_get(json_array_get(counts, 2), "group")));
	assert_true(json_is_true(json_object_get(json_array_get(counts, 1), "leader")));
	json_decref(root);
	test_run_free(&r);
}

static void test_interval_lines(void **state)
{
	(void)state;
	const char *tc = "perf::PERF_COUNT_SW_CPU_CLOCK:u";
	struct run_result r;
	run_pmudb(&r, "stat", "-I", "100", "-e", tc, "--", "sh", "-c", "sleep 0.3", NULL);
	if (r.status)
		fail_msg("exit %d: %s", r.status, r.err);
	int n = interval_lines(r.out, tc);
	if (n < 2)
		fail_msg("%d interval lines:\n%s", n, r.out);
	uint64_t v[3];
	assert_true(find_count(r.out, tc, v));	/* and the total after them */
	test_run_free(&r);

	run_pmudb(&r, "stat", "--json", "-I", "100", "-e", tc, "--", "sh", "-c", "sleep 0.3", NULL);
	assert_int_equal(r.status, 0);
	int intervals = 0, finals = 0;
	double last = 0;
	for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
		json_error_t jerr;
		json_t *o = json_loads(line, 0, &jerr);
		if (!o)
			fail_msg("not a JSON line (%s): %s", jerr.text, line);
		json_t *t = json_object_get(o, "interval");
		if (t) {
			assert_true(json_real_value(t) > last);
			last = json_real_value(t);
			assert_int_equal(json_array_size(json_object_get(o, "counts")), 1);
			intervals++;
		} else {
			assert_non_null(json_object_get(o, "counts"));
			finals++;
		}
		json_decref(o);
	}
	assert_true(intervals >= 2);
	assert_int_equal(finals, 1);
	test_run_free(&r);
}

static void test_command_status_is_reported(void **state)
{
	(void)state;
	struct run_result r;
	run_pmudb(&r, "stat", "-e", "perf::PERF_COUNT_SW_CPU_CLOCK:u", "--", "sh", "-c", "exit 7", NULL);
	assert_int_equal(r.status, 0);	/* pmudb counted: its status is its own */
	assert_non_null(strstr(r.out, "exit status 7"));
	test_run_free(&r);
	run_pmudb(&r, "stat", "-e", "perf::PERF_COUNT_SW_CPU_CLOCK:u", "--", "sh", "-c", "kill -9 $$", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "killed by signal 9"));
	test_run_free(&r);
	/* -o FILE is emptied only once the command runs: a command that does
	 * not run leaves the file as it was */
	char *kept = NULL;
	assert_true(asprintf(&kept, "%s/kept.txt", tmp) > 0);
	FILE *f = fopen(kept, "w");
	fputs("keep\n", f);
	fclose(f);
	run_pmudb(&r, "stat", "-e", "perf::PERF_COUNT_SW_CPU_CLOCK:u", "-o", kept, "--", "/nonexistent/command", NULL);
	assert_int_equal(r.status, 2);
	char *text = test_read_file(kept, NULL);
	assert_string_equal(text, "keep\n");
	free(text);
	test_run_free(&r);
	run_pmudb(&r, "stat", "-e", "perf::PERF_COUNT_SW_CPU_CLOCK:u", "-o", kept, "--", "true", NULL);
	assert_int_equal(r.status, 0);
	text = test_read_file(kept, NULL);
	assert_null(strstr(text, "keep"));
	assert_non_null(strstr(text, "PERF_COUNT_SW_CPU_CLOCK"));
	free(text);
	free(kept);
	test_run_free(&r);
	/* a file that is not there is not made for a refused event, and is
	 * made once counting starts */
	char *fresh = NULL;
	assert_true(asprintf(&fresh, "%s/fresh.txt", tmp) > 0);
	run_pmudb(&r, "stat", "-e", "NO_SUCH_EVENT_ANYWHERE", "-o", fresh, "--", "true", NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(access(fresh, F_OK), -1);
	test_run_free(&r);
	run_pmudb(&r, "stat", "-e", "perf::PERF_COUNT_SW_CPU_CLOCK:u", "-o", fresh, "--", "true", NULL);
	assert_int_equal(r.status, 0);
	text = test_read_file(fresh, NULL);
	assert_non_null(strstr(text, "PERF_COUNT_SW_CPU_CLOCK"));
	free(text);
	free(fresh);
	test_run_free(&r);
	/* counts that cannot be written (a full device) are said, status 2 */
	if (!access("/dev/full", W_OK)) {
		run_pmudb(&r, "stat", "-e", "perf::PERF_COUNT_SW_CPU_CLOCK:u", "-o", "/dev/full", "--", "true", NULL);
		assert_int_equal(r.status, 2);
		assert_non_null(strstr(r.err, "could not be written"));
		assert_int_equal(test_line_count(r.err), 1);
		test_run_free(&r);
	}
	/* without "--", what follows the command's name is its own, pmudb's
	 * global options too */
	run_pmudb(&r, "stat", "-e", "perf::PERF_COUNT_SW_CPU_CLOCK:u", "echo", "A", "--pmu", "skl", "--db",
		  "/nonexistent", "-e", "B", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "A --pmu skl --db /nonexistent -e B\n"));
	test_run_free(&r);
}

/* ---- pmudb stat: errors -------------------------------------------------------- */

static void test_usage_and_catalog_errors(void **state)
{
	(void)state;
	struct run_result r;
	run_pmudb(&r, "stat", "-e", "perf::NO_SUCH_EVENT", "--", "true", NULL);
	assert_int_equal(r.status, 1);
	assert_one_line_naming(&r, "perf::NO_SUCH_EVENT");
	test_run_free(&r);

	/* every refused event gets its line, the good ones are opened to be
	 * checked too, and the command never runs */
	run_pmudb(&r, "stat", "-e", "perf::NO_SUCH_EVENT", "-e", "perf::PERF_COUNT_SW_CPU_CLOCK:u", "-e",
		  "{perf::PERF_COUNT_SW_PAGE_FAULTS:u,perf::ALSO_MISSING}", "-e", "perf::PERF_COUNT_SW_CPU_CLOCK:u:cpu=100000",
		  "--", "echo", "ran", NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_line_count(r.err), 3);
	assert_non_null(strstr(r.err, "perf::NO_SUCH_EVENT"));
	assert_non_null(strstr(r.err, "perf::ALSO_MISSING"));
	assert_non_null(strstr(r.err, "cpu=100000"));
	assert_string_equal(r.out, "");
	test_run_free(&r);

	run_pmudb(&r, "stat", "-e", "perf::PERF_COUNT_SW_CPU_CLOCK:u", NULL);	/* no command */
	assert_int_equal(r.status, 2);
	assert_one_line_naming(&r, "no command");
	test_run_free(&r);

	run_pmudb(&r, "stat", "-e", "perf::PERF_COUNT_SW_CPU_CLOCK:u", "--", "/nonexistent/command", NULL);
	assert_int_equal(r.status, 2);
	assert_one_line_naming(&r, "/nonexistent/command");
	assert_string_equal(r.out, "");
	test_run_free(&r);

	static const char *const bad[][2] = {
		{ "-I", "5" }, { "-e", "{perf::CS" }, { "-e", "{perf::CS,}" }, { "-e", "perf::CS,,perf::CS" },
		{ "-p", "x" }, { "-o", "/nonexistent/dir/out" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		run_pmudb(&r, "stat", "-e", "perf::CS:u", bad[i][0], bad[i][1], "--", "true", NULL);
		if (r.status != 2 || test_line_count(r.err) != 1 || !strstr(r.err, bad[i][1]))
			fail_msg("%s %s: exit %d: %s", bad[i][0], bad[i][1], r.status, r.err);
		test_run_free(&r);
	}
	run_pmudb(&r, "stat", "-e", "perf::CS:u", NULL);
	assert_int_equal(r.status, 2);
	test_run_free(&r);
	run_pmudb(&r, "stat", "--help", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "exit status"));
	test_run_free(&r);
}

/* The kernel's answer, asked directly, without pmudb. */
static int open_hw_instructions(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	int e = errno;
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : e;
}

static void test_hardware_event_tried(void **state)
{
	(void)state;
	struct run_result r;
	int e = open_hw_instructions();
	run_pmudb(&r, "stat", "-e", "perf::PERF_COUNT_HW_INSTRUCTIONS:u", "--", "true", NULL);
	if (!e) {
		assert_int_equal(r.status, 0);
		uint64_t v[3];
		assert_true(find_count(r.out, "perf::PERF_COUNT_HW_INSTRUCTIONS:u", v));
		assert_true(v[0] > 0);
	} else {
		/* one line naming the event, and why in the user's terms */
		assert_int_equal(r.status, 1);
		assert_one_line_naming(&r, "perf::PERF_COUNT_HW_INSTRUCTIONS:u");
		assert_true(strstr(r.err, "no such PMU on this machine") || strstr(r.err, "the kernel refused"));
		print_message("SKIP: no hardware PMU here (perf_event_open: %s); pmudb says: %s", strerror(e), r.err);
	}
	test_run_free(&r);
}

/* ---- pmudb stat: who may count what --------------------------------------------- */

/* Runs pmudb stat as an unprivileged user: ourselves, or nobody by setpriv
 * when the tests run as root.  False when that cannot be arranged. */
static bool run_unprivileged(struct run_result *r, const char *const *args)
{
	char *argv[32];
	int n = 0;
	static char copy[1024];
	if (geteuid() == 0) {
		if (access("/usr/bin/setpriv", X_OK))
			return false;
		/* a copy nobody can reach: the build tree may not be */
		snprintf(copy, sizeof(copy), "%s/pmudb-nobody", tmp);
		if (test_copy_file(pmudb, copy) || chmod(copy, 0755) || chmod(tmp, 0755))
			return false;
		argv[n++] = "/usr/bin/setpriv";
		argv[n++] = "--reuid=65534";
		argv[n++] = "--regid=65534";
		argv[n++] = "--clear-groups";
		argv[n++] = copy;
	} else {
		argv[n++] = pmudb;
	}
	for (; *args && n < 31; args++)
		argv[n++] = (char *)*args;
	argv[n] = NULL;
	test_run(argv, NULL, r);
	if (geteuid() == 0 && (r->status == 126 || r->status == 127 || strstr(r->err, "setpriv"))) {
		test_run_free(r);
		return false;
	}
	return true;
}

static void test_paranoid_refusals_are_explained(void **state)
{
	(void)state;
	int level = paranoid();
	char level_text[64];
	snprintf(level_text, sizeof(level_text), "perf_event_paranoid is %d", level);
	struct run_result r;

	static const char *const kernel[] = { "stat", "-e", "perf::PERF_COUNT_SW_TASK_CLOCK", "--", "true", NULL };
	if (!run_unprivileged(&r, kernel)) {
		print_message("SKIP: cannot run pmudb unprivileged here (root without setpriv)\n");
		return;
	}
	if (level >= 2) {
		assert_int_equal(r.status, 1);
		assert_one_line_naming(&r, "perf::PERF_COUNT_SW_TASK_CLOCK");
		assert_non_null(strstr(r.err, level >= 3 ? "perf_event_paranoid is 3" : level_text));
		if (level == 2)
			assert_non_null(strstr(r.err, "add :u"));
		assert_non_null(strstr(r.err, "uid"));
	} else {
		assert_int_equal(r.status, 0);
	}
	test_run_free(&r);

	static const char *const user[] = { "stat", "-e", "perf::PERF_COUNT_SW_TASK_CLOCK:u", "--", "true", NULL };
	assert_true(run_unprivileged(&r, user));
	assert_int_equal(r.status, level >= 3 ? 1 : 0);
	test_run_free(&r);

	static const char *const all[] = { "stat", "-a", "-e", "perf::PERF_COUNT_SW_CPU_CLOCK:u", "--", "true", NULL };
	assert_true(run_unprivileged(&r, all));
	if (level >= 1) {
		assert_int_equal(r.status, 1);
		assert_one_line_naming(&r, "perf_event_paranoid");
		assert_non_null(strstr(r.err, "perf::PERF_COUNT_SW_CPU_CLOCK:u"));
	} else {
		assert_int_equal(r.status, 0);
	}
	test_run_free(&r);
}

static void test_system_wide(void **state)
{
	(void)state;
	struct run_result r;
	run_pmudb(&r, "stat", "-a", "-e", "perf::PERF_COUNT_SW_CPU_CLOCK", "--", "sleep", "0.1", NULL);
	if (!may_count_cpus()) {
		assert_int_equal(r.status, 1);
		assert_one_line_naming(&r, "perf_event_paranoid");
		print_message("SKIP: -a needs root or perf_event_paranoid <= 0 here (it is %d)\n", paranoid());
		test_run_free(&r);
		return;
	}
	if (r.status)
		fail_msg("exit %d: %s", r.status, r.err);
	uint64_t v[3];
	assert_true(find_count(r.out, "perf::PERF_COUNT_SW_CPU_CLOCK", v));
	/* cpu-clock of every CPU for about 0.1 s: at least 0.1 s of one */
	assert_true(v[0] >= 90000000);
	test_run_free(&r);
}

/* The uncore path (a cpumask, one counter per CPU, pid -1) counted for real:
 * a stand-in uncore_cha_0 whose type is the software PMU's, so that
 * UNC_C_CLOCKTICKS (config 0) is cpu-clock on the CPUs its cpumask names. */
static void test_uncore_path_with_stand_in_sysfs(void **state)
{
	(void)state;
	char *dir = fake_sysfs("1\n", "0\n");
	struct run_result r;
	setenv("PMUDB_SYSFS_DEVICES", dir, 1);
	run_pmudb(&r, "stat", "-e", "skx_unc_cha0::UNC_C_CLOCKTICKS", "--", "sleep", "0.1", NULL);
	if (may_count_cpus()) {
		if (r.status)
			fail_msg("exit %d: %s", r.status, r.err);
		uint64_t v[3];
		assert_true(find_count(r.out, "skx_unc_cha0::UNC_C_CLOCKTICKS", v));
		assert_true(v[0] >= 90000000);	/* CPU 0's clock for 0.1 s, in ns */
	} else {
		assert_int_equal(r.status, 1);
		assert_one_line_naming(&r, "perf_event_paranoid");
	}
	test_run_free(&r);

	/* a group must count in one place: uncore CPUs and a task are two */
	run_pmudb(&r, "stat", "-e", "{skx_unc_cha0::UNC_C_CLOCKTICKS,perf::PERF_COUNT_SW_CPU_CLOCK:u}", "--", "true", NULL);
	assert_int_equal(r.status, 1);
	assert_one_line_naming(&r, "perf::PERF_COUNT_SW_CPU_CLOCK:u");
	test_run_free(&r);

	/* untrusted cpumask and type: one line naming the file, no crash */
	static const char *const masks[] = { "0-\n", "zz\n", "", "70000\n", "1-0\n" };
	for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		free(fake_sysfs("1\n", masks[i]));
		run_pmudb(&r, "stat", "-e", "skx_unc_cha0::UNC_C_CLOCKTICKS", "--", "true", NULL);
		assert_int_equal(r.status, 1);
		assert_one_line_naming(&r, "cpumask");
		test_run_free(&r);
	}
	free(fake_sysfs("1\n", "4095\n"));	/* a CPU this machine does not have */
	run_pmudb(&r, "stat", "-e", "skx_unc_cha0::UNC_C_CLOCKTICKS", "--", "true", NULL);
	assert_int_equal(r.status, 1);
	assert_one_line_naming(&r, "skx_unc_cha0::UNC_C_CLOCKTICKS");
	test_run_free(&r);
	unsetenv("PMUDB_SYSFS_DEVICES");
	free(dir);

	/* this machine's own sysfs: no such PMU (unless it is a Skylake-X) */
	struct stat st;
	if (stat("/sys/bus/event_source/devices/uncore_cha_0", &st)) {
		run_pmudb(&r, "stat", "-e", "skx_unc_cha0::UNC_C_CLOCKTICKS", "--", "true", NULL);
		assert_int_equal(r.status, 1);
		assert_one_line_naming(&r, "no such PMU on this machine");
		test_run_free(&r);
	}
}

/* A vendor uncore event alone counts on every box its kernel PMU has:
 * summed under its name, or one line a box with --per-box; in a group, on
 * the first box only.  UNC_CHA_CLOCKTICKS of skx_unc_cha is config 0,
 * cpu-clock on the stand-in's software type. */
static void test_uncore_event_counts_on_every_box(void **state)
{
	(void)state;
	const char *event = "skx_unc_cha::UNC_CHA_CLOCKTICKS";
	struct pmudb_encoding enc;
	struct pmudb_error err;
	if (pmudb_encode(db, event, NULL, &enc, &err) || enc.config) {
		print_message("SKIP: %s is not in this catalog as config 0 (built without the vendor tree)\n", event);
		return;
	}
	if (!may_count_cpus()) {
		print_message("SKIP: counting on a CPU needs root or perf_event_paranoid 0 or lower\n");
		return;
	}
	/* boxes 0, 1 and 3 (a gap, as discovery tables leave), each of the
	 * software PMU's type on CPU 0 */
	static const int boxes[] = { 0, 1, 3 };
	char *dir = fake_sysfs_boxes("1\n", "0\n", boxes, 3);
	setenv("PMUDB_SYSFS_DEVICES", dir, 1);
	struct run_result r;
	run_pmudb(&r, "stat", "-e", event, "--", "sleep", "0.1", NULL);
	if (r.status)
		fail_msg("exit %d: %s", r.status, r.err);
	uint64_t sum[3], box[3];
	assert_true(find_count(r.out, event, sum));
	assert_non_null(strstr(r.out, "(3 boxes of uncore_cha, summed)"));
	assert_true(sum[0] >= 3 * 90000000ULL);	/* three boxes' CPU 0 clock for 0.1 s */
	test_run_free(&r);

	run_pmudb(&r, "stat", "--per-box", "-e", event, "--", "sleep", "0.1", NULL);
	assert_int_equal(r.status, 0);
	static const char *const rows[] = { "uncore_cha_0/skx_unc_cha::UNC_CHA_CLOCKTICKS/",
					    "uncore_cha_1/skx_unc_cha::UNC_CHA_CLOCKTICKS/",
					    "uncore_cha_3/skx_unc_cha::UNC_CHA_CLOCKTICKS/" };
	for (int i = 0; i < 3; i++) {
		assert_true(find_count(r.out, rows[i], box));
		assert_true(box[0] >= 90000000ULL && box[0] < sum[0]);
	}
	assert_false(find_count(r.out, event, box));
	test_run_free(&r);

	run_pmudb(&r, "stat", "--json", "-e", event, "--", "true", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"kernel_pmu\":\"uncore_cha\",\"boxes\":3"));
	test_run_free(&r);

	/* in a group: the first box, as before */
	run_pmudb(&r, "stat", "-e", "{skx_unc_cha::UNC_CHA_CLOCKTICKS,skx_unc_cha::UNC_CHA_CLOCKTICKS}", "--", "true",
		  NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "boxes"));
	test_run_free(&r);
	unsetenv("PMUDB_SYSFS_DEVICES");
	free(dir);
}

/* ---- hardware: two encodings of one count must agree ---------------------------- */

/* The host core PMU's retired-instructions event, fully qualified with :u,
 * or false when the catalog has no table for this CPU. */
static bool host_retired_instructions(char *out, size_t n)
{
	static const char *const names[] = {
		"INST_RETIRED:ANY_P", "RETIRED_INSTRUCTIONS", "INST_RETIRED", "INSTRUCTIONS_RETIRED", "INSTRUCTION_RETIRED",
	};
	struct pmudb_cpu cpu;
	struct pmudb_scope scope;
	struct pmudb_error err;
	if (pmudb_cpu_host(&cpu, &err) || pmudb_scope_cpu(db, &cpu, &scope, NULL, &err))
		return false;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct pmudb_encoding enc;
		if (!pmudb_encode(db, names[i], &scope, &enc, &err)) {
			snprintf(out, n, "%s::%s:u", enc.pmu, names[i]);
			return true;
		}
	}
	return false;
}

static void test_hardware_instructions_agree(void **state)
{
	(void)state;
	int e = open_hw_instructions();
	if (e) {
		print_message("SKIP: no hardware PMU here (perf_event_open of PERF_COUNT_HW_INSTRUCTIONS: %s)\n",
			      strerror(e));
		return;
	}
	char core[256], group[512];
	if (!host_retired_instructions(core, sizeof(core))) {
		print_message("SKIP: the catalog has no retired-instructions event for this CPU\n");
		return;
	}
	/* one group: both count the same instructions at the same time */
	snprintf(group, sizeof(group), "{perf::PERF_COUNT_HW_INSTRUCTIONS:u,%s}", core);
	struct run_result r;
	run_pmudb(&r, "stat", "-e", group, "--", self, "--spin", NULL);
	if (r.status)
		fail_msg("exit %d: %s", r.status, r.err);
	uint64_t a[3], b[3];
	assert_true(find_count(r.out, "perf::PERF_COUNT_HW_INSTRUCTIONS:u", a));
	assert_true(find_count(r.out, core, b));
	double diff = a[0] > b[0] ? (double)(a[0] - b[0]) : (double)(b[0] - a[0]);
	double rel = diff / (double)(a[0] > b[0] ? a[0] : b[0]);
	print_message("instructions: perf %" PRIu64 ", %s %" PRIu64 ", difference %.4f %%\n", a[0], core, b[0],
		      100 * rel);
	assert_true(a[0] > 50000000);	/* the loop ran */
	assert_true(rel <= 0.01);
	test_run_free(&r);
}

/* The fixed loop: about 100 million instructions.  On a hybrid CPU it runs
 * on a P-core, where both events count (the core PMU is that core's). */
static int spin(void)
{
	char buf[4096];
	FILE *f = fopen("/sys/bus/event_source/devices/cpu_core/cpus", "r");
	if (f) {
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		int first;
		buf[n] = '\0';
		fclose(f);
		if (pmudb_parse_cpulist(buf, &first, 1, NULL) > 0) {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(first, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
	}
	volatile uint64_t x = 0;
	for (uint64_t i = 0; i < 20000000; i++)
		x += i;
	return x == 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--spin"))
		return spin();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_cpulist),
		cmocka_unit_test(test_to_perf_attr),
		cmocka_unit_test(test_uncore_type_and_cpumask_from_sysfs),
		cmocka_unit_test(test_software_events_count),
		cmocka_unit_test(test_group_counts_together),
		cmocka_unit_test(test_json_parses),
		cmocka_unit_test(test_interval_lines),
		cmocka_unit_test(test_command_status_is_reported),
		cmocka_unit_test(test_usage_and_catalog_errors),
		cmocka_unit_test(test_hardware_event_tried),
		cmocka_unit_test(test_paranoid_refusals_are_explained),
		cmocka_unit_test(test_system_wide),
		cmocka_unit_test(test_uncore_path_with_stand_in_sysfs),
		cmocka_unit_test(test_uncore_event_counts_on_every_box),
		cmocka_unit_test(test_hardware_instructions_agree),
	};
	return cmocka_run_group_tests_name("stat", tests, setup, teardown);
}
