/*
 * test_perf_syntax.c - `pmudb encode --format perf` as perf itself reads it.
 *
 * A sample of every PMU's encodings (events bare, with :u, with a precise
 * level or a period where the PMU has them) is written in perf's syntax by
 * the command, and Debian's perf (package linux-perf) is asked to parse
 * each: `perf stat -e EVENT true` (`perf record` for freq=, which perf stat
 * refuses).  The machine need not have the PMUs: opening may fail, parsing
 * must not, and perf says which ("event syntax error" is a parse error).
 * The kernel PMUs this machine lacks (cpu, uncore_cha_0, armv8_pmuv3_0 ...)
 * are described to perf as sysfs would, a directory with `type` and the
 * `format` files of pmudb_perf_format, bind-mounted over
 * /sys/bus/event_source/devices in a private mount namespace (unshare -m,
 * or -r -m when not root).  Where neither perf nor a mount namespace can be
 * had, the test says SKIP and why.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "pmudb.h"
#include "tests/testlib.h"

#define MAX_SAMPLE 4096

static char *pmudb, *tmp;
static pmudb_t *db;

struct sample {
	int count;
	char *event[MAX_SAMPLE];	/* pmudb's string */
	char *perf[MAX_SAMPLE];		/* the command's --format perf output */
};

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

/* The first string of event E of PMU P that encodes: bare, else with its
 * first unit mask that does. */
static int encodable(int p, int e, const char *pmu, char *buf, size_t size)
{
	struct pmudb_event_info ev;
	struct pmudb_encoding enc;
	if (pmudb_event_info(db, p, e, &ev))
		return -1;
	snprintf(buf, size, "%s::%s", pmu, ev.name);
	if (!pmudb_encode(db, buf, NULL, &enc, NULL))
		return 0;
	for (int u = 0; u < ev.umask_count; u++) {
		struct pmudb_umask_info um;
		if (pmudb_umask_info(db, p, e, u, &um))
			continue;
		snprintf(buf, size, "%s::%s:%s", pmu, ev.name, um.name);
		if (!pmudb_encode(db, buf, NULL, &enc, NULL))
			return 0;
	}
	return -1;
}

static void add(struct sample *s, const char *event)
{
	struct pmudb_encoding enc;
	if (s->count < MAX_SAMPLE && !pmudb_encode(db, event, NULL, &enc, NULL))
		s->event[s->count++] = strdup(event);
}

/* A modifier the event has (u, precise, period, freq ...), or false. */
static bool has_modifier(const char *event, const char *name)
{
	int p, e;
	if (pmudb_find_event(db, event, NULL, &p, &e, NULL))
		return false;
	struct pmudb_event_info ev;
	pmudb_event_info(db, p, e, &ev);
	for (int m = 0; m < ev.modifier_count; m++) {
		struct pmudb_modifier_info mi;
		if (!pmudb_modifier_info(db, p, e, m, &mi) && !strcmp(mi.name, name))
			return true;
	}
	return false;
}

/* Per PMU: two events, the first also with :u, :k, a precise level and
 * a period or frequency where it takes them. */
static void sample_pmu(struct sample *s, int p)
{
	struct pmudb_pmu_info info;
	if (pmudb_pmu_info(db, p, &info))
		return;
	int taken = 0;
	char buf[512], more[600];
	/* the generic PMU: every event, as every one has a perf name or not */
	int want = !strcmp(info.name, "perf") ? info.event_count : 2;
	for (int e = 0; e < info.event_count && taken < want; e++) {
		if (encodable(p, e, info.name, buf, sizeof(buf)))
			continue;
		add(s, buf);
		if (taken++)
			continue;
		static const char *const extra[] = { "u", "k", "precise=1", "precise=2", "period=10007", "freq=997" };
		for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
			char name[16];
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(extra[i], "="), extra[i]);
			if (has_modifier(buf, name)) {
				snprintf(more, sizeof(more), "%s:%s", buf, extra[i]);
				add(s, more);
			}
		}
	}
}

/* Asks the command for the perf syntax of every sampled string at once. */
static void ask_command(struct sample *s)
{
	char **argv = calloc((size_t)s->count + 5, sizeof(*argv));
	int n = 0;
	argv[n++] = pmudb;
	argv[n++] = "encode";
	argv[n++] = "--format";
	argv[n++] = "perf";
	for (int i = 0; i < s->count; i++)
		argv[n++] = s->event[i];
	struct run_result r;
	test_run(argv, NULL, &r);
	free(argv);
	/* perf has no name for some generic events (the stalled-cycles ones
	 * where libpfm gives a cache op perf refuses): each said in one line */
	char *line = r.out, *err = r.err;
	int said = 0;
	for (int i = 0; i < s->count; i++) {
		struct pmudb_encoding enc;
		char text[1024];
		pmudb_encode(db, s->event[i], NULL, &enc, NULL);
		if (pmudb_perf_syntax_named(db, &enc, s->event[i], text, sizeof(text), NULL)) {
			assert_non_null(strstr(err, s->event[i]));
			said++;
			continue;
		}
		char *nl = strchr(line, '\n');
		assert_non_null(nl);
		*nl = '\0';
		assert_string_equal(line, text);
		s->perf[i] = strdup(line);
		line = nl + 1;
	}
	assert_int_equal(test_line_count(r.err), said);
	assert_int_equal(r.status, said ? 1 : 0);
	test_run_free(&r);
}

/* "config:0-7,32-35" from a term, as sysfs writes it. */
static void write_term(const char *dir, const struct pmudb_format_term *t)
{
	char path[4096], text[512];
	int n = snprintf(text, sizeof(text), "config%s:", t->field ? (t->field == 1 ? "1" : "2") : "");
	for (int b = 0; b < 64;) {
		if (!(t->mask >> b & 1)) {
			b++;
			continue;
		}
		int hi = b;
		while (hi + 1 < 64 && t->mask >> (hi + 1) & 1)
			hi++;
		n += snprintf(text + n, sizeof(text) - (size_t)n, n && text[n - 1] != ':' ? ",%d" : "%d", b);
		if (hi > b)
			n += snprintf(text + n, sizeof(text) - (size_t)n, "-%d", hi);
		b = hi + 1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, t->name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* A sysfs devices directory: this machine's PMUs, and each PMU the
 * sample names that it lacks, with a type and its format. */
static char *fake_devices(struct sample *s)
{
	char *dir = malloc(strlen(tmp) + 16), path[2048];
	sprintf(dir, "%s/devices", tmp);
	assert_int_equal(mkdir(dir, 0755), 0);
	char cmd[2400];
	snprintf(cmd, sizeof(cmd), "cp -a /sys/bus/event_source/devices/. %s/ 2>/dev/null", dir);
	assert_int_equal(system(cmd), 0);
	int type = 64;
	for (int i = 0; i < s->count; i++) {
		if (!s->perf[i] || !strchr(s->perf[i], '/'))
			continue;	/* perf's own names: cycles, L1-dcache-loads */
		char name[200], device[200];
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(s->perf[i], "/") % 200, s->perf[i]);
		/* a pattern perf matches the kernel's names by
		 * (hisi_sccl*_ddrc*): one such name, the first device's */
		snprintf(device, sizeof(device), "%s", name);
		for (char *p = device; *p; p++)
			if (*p == '*')
				*p = '0';
		snprintf(path, sizeof(path), "%s/%s", dir, device);
		struct stat st;
		int generic_type;
		uint64_t generic_config;
		if (!lstat(path, &st) || !pmudb_perf_generic(name, strlen(name), &generic_type, &generic_config))
			continue;	/* there, or perf's own name ("cycles/name=.../") */
		/* the family of the PMU this string came from, for cpu's layout */
		struct pmudb_encoding enc;
		struct pmudb_pmu_info info;
		pmudb_encode(db, s->event[i], NULL, &enc, NULL);
		pmudb_pmu_info(db, pmudb_find_pmu(db, enc.pmu), &info);
		struct pmudb_perf_format fmt;
		if (pmudb_perf_format(name, info.family, &fmt, NULL))
			fail_msg("%s: no format for kernel PMU %s", s->perf[i], name);
		assert_int_equal(mkdir(path, 0755), 0);
		snprintf(path, sizeof(path), "%s/%s/type", dir, device);
		FILE *f = fopen(path, "w");
		fprintf(f, "%d\n", type++);
		fclose(f);
		snprintf(path, sizeof(path), "%s/%s/format", dir, device);
		assert_int_equal(mkdir(path, 0755), 0);
		for (int t = 0; t < fmt.count; t++)
			write_term(path, &fmt.terms[t]);
		/* the CPUs: a hybrid's core PMUs have cpus (perf looks for it to
		 * know them), the others a cpumask */
		bool hybrid = !strncmp(name, "cpu_", 4);
		snprintf(path, sizeof(path), "%s/%s/%s", dir, device, hybrid ? "cpus" : "cpumask");
		f = fopen(path, "w");
		fputs(hybrid ? "0-1\n" : "0\n", f);
		fclose(f);
	}
	return dir;
}

/* The script run in the namespace.  perf parses every -e before it opens
 * any, and stops at the first it cannot parse: the events go in batches,
 * and a batch that fails again one by one, so that each failure is named
 * ("PARSE-ERROR" lines); "PARSED n" at the end. */
static char *write_script(struct sample *s, const char *devices)
{
	char *path = malloc(strlen(tmp) + 16);
	sprintf(path, "%s/perf.sh", tmp);
	FILE *f = fopen(path, "w");
	fprintf(f, "set -u\nmount --bind '%s' /sys/bus/event_source/devices || exit 77\nn=0\n", devices);
	fprintf(f, "bad() { case \"$1\" in *'event syntax error'*|*'invalid or unsupported event'*) return 0;; esac; return 1; }\n"
		   "batch() {\n  cmd=$1; shift; set -- $(for e in \"$@\"; do printf -- '-e %%s ' \"$e\"; done)\n"
		   "  out=$(perf $cmd \"$@\" true 2>&1)\n  if ! bad \"$out\"; then n=$((n + $# / 2)); return; fi\n"
		   "  while [ $# -gt 0 ]; do out=$(perf $cmd -e \"$2\" true 2>&1)\n"
		   "    if bad \"$out\"; then echo \"PARSE-ERROR $2: $(echo \"$out\" | head -3 | tr '\\n' ' ')\"; else n=$((n+1)); fi\n"
		   "    shift 2; done\n}\n");
	/* perf stat refuses freq= (a sampling term): perf record parses those */
	for (int pass = 0; pass < 2; pass++) {
		int in_batch = 0;
		for (int i = 0; i < s->count; i++) {
			if (!s->perf[i] || (strstr(s->perf[i], "freq=") != NULL) != pass)
				continue;
			if (in_batch == 0)
				fprintf(f, "batch '%s'", pass ? "record -q -o /dev/null" : "stat");
			/* single-quoted for the shell: a quote in it (name='...') as '\''.
			 * A glob PMU (hisi_sccl*_ddrc*) as the device fake_devices
			 * made for it: Debian 12's perf 6.1 takes no glob for a PMU
			 * (perf 6.12 does, util/pmu.c perf_pmu__match), so the terms
			 * are checked on one device the glob names */
			fputs(" '", f);
			size_t pmu_end = strcspn(s->perf[i], "/");
			for (const char *c = s->perf[i]; *c; c++)
				fputs(*c == '\'' ? "'\\''" : *c == '*' && (size_t)(c - s->perf[i]) < pmu_end ? "0"
				      : (char[]){ *c, 0 }, f);
			fputs("'", f);
			if (++in_batch == 64) {
				fprintf(f, "\n");
				in_batch = 0;
			}
		}
		if (in_batch)
			fprintf(f, "\n");
	}
	fprintf(f, "echo \"PARSED $n\"\n");
	fclose(f);
	return path;
}

static void test_perf_parses_every_kind(void **state)
{
	(void)state;
	if (system("perf version >/dev/null 2>&1")) {
		print_message("SKIP: no perf here (Debian package linux-perf)\n");
		return;
	}
	static struct sample s;
	for (int p = 0; p < pmudb_pmu_count(db); p++)
		sample_pmu(&s, p);
	ask_command(&s);
	char *devices = fake_devices(&s);
	char *script = write_script(&s, devices);
	char command[2048];
	const char *how = getuid() ? "-rm" : "-m";
	snprintf(command, sizeof(command), "unshare %s sh '%s'", how, script);
	char *unshare[] = { "/bin/sh", "-c", command, NULL };
	struct run_result r;
	test_run(unshare, NULL, &r);
	if (r.status == 77 || (r.status && !strstr(r.out, "PARSED"))) {
		print_message("SKIP: no private mount namespace here (unshare %s: status %d, %s%s)\n", how, r.status, r.err, r.out);
	} else {
		int expected = 0, kinds = 0;
		for (int i = 0; i < s.count; i++)
			expected += s.perf[i] != NULL;
		int parsed = -1;
		sscanf(strstr(r.out, "PARSED"), "PARSED %d", &parsed);
		if (strstr(r.out, "PARSE-ERROR"))
			print_message("%s", r.out);
		assert_null(strstr(r.out, "PARSE-ERROR"));
		assert_int_equal(parsed, expected);
		/* every kind: generic names, software, cpu, uncore, Arm */
		static const char *const kind[] = { "cycles", "L1-dcache", "software/", "cpu/", "uncore_", "armv8_pmuv3_0/", "amd_" };
		for (size_t k = 0; k < sizeof(kind) / sizeof(kind[0]); k++)
			for (int i = 0; i < s.count; i++)
				if (s.perf[i] && !strncmp(s.perf[i], kind[k], strlen(kind[k]))) {
					kinds++;
					break;
				}
		assert_int_equal(kinds, (int)(sizeof(kind) / sizeof(kind[0])));
		print_message("perf parsed all %d sampled strings of %d PMUs\n", parsed, pmudb_pmu_count(db));
	}
	test_run_free(&r);
	for (int i = 0; i < s.count; i++)
		free(s.event[i]), free(s.perf[i]);
	free(devices);
	free(script);
}

/* The perf syntax of the generic events, against perf's own names. */
static void test_generic_names(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "perf::PERF_COUNT_HW_CPU_CYCLES", "cycles" },
		{ "perf::PERF_COUNT_HW_CPU_CYCLES:u", "cycles:u" },
		{ "perf::INSTRUCTIONS:k:precise=2", "instructions:kppH" },
		{ "perf::PERF_COUNT_HW_REF_CPU_CYCLES:period=1000", "ref-cycles/period=1000/" },
		{ "perf::L1-DCACHE-LOAD-MISSES", "L1-dcache-load-misses" },
		{ "perf::PERF_COUNT_HW_CACHE_L1D:WRITE:ACCESS:u", "L1-dcache-stores:u" },
		{ "perf::PERF_COUNT_HW_CACHE_NODE:PREFETCH:MISS", "node-prefetch-misses" },
		{ "perf::ITLB-LOAD-MISSES", "iTLB-load-misses" },
		{ "perf::PERF_COUNT_SW_CPU_CLOCK:u", "software/config=0x0/u" },
		{ "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:u", "cpu/config=0xc0/u" },
		{ "skx_unc_cha0::UNC_C_CLOCKTICKS", "uncore_cha_0/config=0x0/" },
		{ "arm_n2::CPU_CYCLES:u", "armv8_pmuv3_0/config=0x11/u" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmudb_encoding enc;
		struct pmudb_error err;
		char text[256];
		assert_int_equal(pmudb_encode(db, cases[i][0], NULL, &enc, &err), 0);
		assert_int_equal(pmudb_perf_syntax(db, &enc, text, sizeof(text), &err), 0);
		assert_string_equal(text, cases[i][1]);
	}
	/* too small a buffer is an error, not a cut string */
	struct pmudb_encoding enc;
	struct pmudb_error err;
	char small[6];
	pmudb_encode(db, "perf::PERF_COUNT_HW_CPU_CYCLES:u", NULL, &enc, &err);
	assert_int_equal(pmudb_perf_syntax(db, &enc, small, sizeof(small), &err), PMUDB_ERR_TOOSMALL);
	/* a caller's encoding whose names fill their arrays: refused, not
	 * read past (sanitizers watch) */
	char text[256];
	pmudb_encode(db, "skx_unc_cha0::UNC_C_CLOCKTICKS", NULL, &enc, &err);
	memset(enc.sysfs_pmu, 'a', sizeof(enc.sysfs_pmu));
	assert_int_equal(pmudb_perf_syntax(db, &enc, text, sizeof(text), &err), PMUDB_ERR_INVAL);
	pmudb_encode(db, "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS", NULL, &enc, &err);
	memset(enc.pmu, 'a', sizeof(enc.pmu));
	assert_int_equal(pmudb_perf_syntax(db, &enc, text, sizeof(text), &err), PMUDB_ERR_INVAL);
	assert_non_null(strstr(err.message, "do not end"));
}

/* A stand-in sysfs names the Arm PMU this machine has. */
static void test_arm_name_from_sysfs(void **state)
{
	(void)state;
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s/arm", tmp);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/arm/armv8_cortex_a72", tmp);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/arm", tmp);
	setenv("PMUDB_SYSFS_DEVICES", dir, 1);
	struct pmudb_encoding enc;
	char text[256];
	assert_int_equal(pmudb_encode(db, "arm_ac72::CPU_CYCLES", NULL, &enc, NULL), 0);
	assert_int_equal(pmudb_perf_syntax(db, &enc, text, sizeof(text), NULL), 0);
	assert_string_equal(text, "armv8_cortex_a72/config=0x11/");
	unsetenv("PMUDB_SYSFS_DEVICES");
}

/* The value of field KEY in the first perf_event_attr perf -vv printed in
 * OUT (perf prints only the fields that are not 0). */
static unsigned long long attr_field(const char *out, const char *key)
{
	const char *block = strstr(out, "perf_event_attr:");
	if (!block)
		return ~0ull;
	const char *end = strstr(block + 16, "------");
	size_t klen = strlen(key);
	for (const char *line = strchr(block, '\n'); line && (!end || line < end); line = strchr(line + 1, '\n')) {
		const char *p = line + 1;
		while (*p == ' ')
			p++;
		if (!strncmp(p, key, klen) && p[klen] == ' ')
			return strtoull(p + klen, NULL, 0);
	}
	return 0;
}

/* What `--format perf` prints, perf reads back to the same attributes:
 * guest and host (G, GH), exclusive (e), pinned (D), privilege levels, the
 * name= term perf labels its rows with; cpu=, which perf's syntax has no
 * term for, is said on standard error.  Software events and perf's
 * generic names, which perf parses on any machine: perf stat -vv prints
 * the attr before it opens it. */
static void test_perf_reads_back_the_attributes(void **state)
{
	(void)state;
	if (system("perf version >/dev/null 2>&1")) {
		print_message("SKIP: no perf here (Debian package linux-perf)\n");
		return;
	}
	static const char *const cases[] = {
		"perf::PERF_COUNT_SW_TASK_CLOCK",
		"perf::PERF_COUNT_SW_TASK_CLOCK:mg=1:mh=1",
		"perf::PERF_COUNT_SW_TASK_CLOCK:mg=1",
		"perf::PERF_COUNT_SW_TASK_CLOCK:mh=1",
		"perf::PERF_COUNT_SW_TASK_CLOCK:excl=1",
		"perf::PERF_COUNT_SW_TASK_CLOCK:pinned=1",
		"perf::PERF_COUNT_SW_TASK_CLOCK:u:excl=1:pinned=1:mg=1:mh=1",
		"perf::PERF_COUNT_SW_PAGE_FAULTS:k",
		"perf::PERF_COUNT_HW_CPU_CYCLES:u:mg=1:mh=1",
		"perf::PERF_COUNT_HW_INSTRUCTIONS:k:precise=1:excl=1",
		"perf::L1-DCACHE-LOAD-MISSES:mg=1",
		"perf::PERF_COUNT_SW_CPU_CLOCK:cpu=1",
	};
	static const char *const fields[] = { "type", "config", "config1", "exclude_user", "exclude_kernel", "exclude_guest",
					      "exclude_host", "exclusive", "pinned", "precise_ip" };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_result r;
		test_pmudb(&r, NULL, "encode", "--format", "perf", cases[i], NULL);
		assert_int_equal(r.status, 0);
		char printed[512];
		snprintf(printed, sizeof(printed), "%.*s", (int)strcspn(r.out, "\n"), r.out);
		/* perf labels the row as the user wrote it */
		char bare[300], quoted[300];
		snprintf(bare, sizeof(bare), "name=%s/", cases[i]);
		snprintf(quoted, sizeof(quoted), "name='%s'/", cases[i]);
		if (!strstr(printed, bare) && !strstr(printed, quoted))
			fail_msg("%s: printed %s, without %s", cases[i], printed, bare);
		bool cpu = strstr(cases[i], "cpu=") != NULL;
		assert_true(cpu == (strstr(r.err, "perf -C 1") != NULL));
		test_run_free(&r);
		char *perf[] = { "/bin/sh", "-c", "perf stat -vv -e \"$0\" true 2>&1", printed, NULL };
		test_run(perf, NULL, &r);
		if (strstr(r.out, "event syntax error") || !strstr(r.out, "perf_event_attr:"))
			fail_msg("perf does not read %s: %.400s", printed, r.out);
		struct pmudb_encoding e;
		assert_int_equal(pmudb_encode(db, cases[i], NULL, &e, NULL), 0);
		unsigned long long want[] = { (unsigned)e.type, e.config, e.config1, e.exclude_user, e.exclude_kernel,
					      e.exclude_guest, e.exclude_host, e.exclusive, e.pinned, e.precise_ip };
		for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++)
			if (attr_field(r.out, fields[f]) != want[f])
				fail_msg("%s: perf reads %s as %s %llu, pmudb encodes %llu", cases[i], printed, fields[f],
					 attr_field(r.out, fields[f]), want[f]);
		test_run_free(&r);
	}
	print_message("perf read back %zu strings with the attributes pmudb encodes\n", sizeof(cases) / sizeof(cases[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic_names),
		cmocka_unit_test(test_arm_name_from_sysfs),
		cmocka_unit_test(test_perf_parses_every_kind),
		cmocka_unit_test(test_perf_reads_back_the_attributes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
