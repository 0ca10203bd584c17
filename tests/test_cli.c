/*
 * test_cli.c - the pmudb command as a user runs it: outputs, exit status,
 * bad input, the built-in catalog, and no libpfm at run time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "pmudb.h"
#include "tests/testlib.h"

static char *pmudb, *tmp;

static int setup(void **state)
{
	(void)state;
	pmudb = test_build_path("pmudb");
	tmp = test_tempdir();
	unsetenv("PMUDB_DB");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	test_rmtree(tmp);
	free(tmp);
	free(pmudb);
	return 0;
}

/* Runs pmudb with INPUT and arguments up to the first NULL. */
#define run(r, input, ...) test_pmudb(r, input, __VA_ARGS__, NULL)

static void test_help_and_version(void **state)
{
	(void)state;
	struct run_result r;
	run(&r, NULL, "--help", NULL, NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: pmudb"));
	assert_non_null(strstr(r.out, "exit status"));
	test_run_free(&r);
	run(&r, NULL, "--version", NULL, NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "pmudb "));
	/* what the catalog came from: the fingerprint the build put in its meta */
	char *catalog = test_build_path("pmudb.db");
	sqlite3 *raw;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open_v2(catalog, &raw, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(raw, "SELECT value FROM meta WHERE key = 'libpfm_fingerprint'", -1, &st, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	char expect[64];
	snprintf(expect, sizeof(expect), "enumeration fingerprint %s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(raw);
	if (!strstr(r.out, expect))
		fail_msg("pmudb --version lacks '%s': %s", expect, r.out);
	/* the vendor tree as what it is (a package) or where it was (an
	 * absolute path), never a path relative to some build */
	const char *tree = strstr(r.out, "vendor lists ");
	if (tree && !(tree[13] == '/' || !strncmp(tree + 13, "Debian ", 7)))
		fail_msg("pmudb --version names the vendor tree by a relative path: %s", r.out);
	test_run_free(&r);
	run(&r, NULL, "--db", catalog, "--version", NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, expect));
	test_run_free(&r);
	/* a command beside it is refused, not ignored */
	run(&r, NULL, "--version", "pmus", NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(test_line_count(r.err), 1);
	test_run_free(&r);
	free(catalog);
	run(&r, NULL, "frobnicate", NULL, NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(test_line_count(r.err), 1);
	test_run_free(&r);
}

/* The manuals are the code's: pmudb.1 has a COMMANDS entry and a synopsis
 * line for every command --help lists, libpmudb.3 a synopsis line and a
 * description for every function pmudb.h declares. */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("%s: cannot read", path);
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, m);
	fclose(f);
	fclose(m);
	return text;
}

static void test_manuals_cover_every_command_and_function(void **state)
{
	(void)state;
	char *man1 = read_text("docs/pmudb.1"), *man3 = read_text("docs/libpmudb.3"), *header = read_text("include/pmudb.h");
	const char *commands_section = strstr(man1, "\n.SH COMMANDS");
	const char *options_section = strstr(man1, "\n.SH OPTIONS");
	assert_non_null(commands_section);
	assert_non_null(options_section);
	struct run_result r;
	run(&r, NULL, "--help", NULL, NULL, NULL, NULL, NULL);
	const char *line = strstr(r.out, "\ncommands:\n");
	assert_non_null(line);
	int commands = 0;
	for (line = strchr(line + 1, '\n') + 1; !strncmp(line, "  ", 2); line = strchr(line, '\n') + 1) {
		char name[32];
		if (line[2] == ' ' || sscanf(line, " %31[a-z]", name) != 1)
			continue;	/* a continued line */
		char tag[4][64], synopsis[64];
		snprintf(tag[0], sizeof(tag[0]), ".TP\n.B %s", name);
		snprintf(tag[1], sizeof(tag[1]), ".TP\n.BR %s ", name);
		snprintf(tag[2], sizeof(tag[2]), ".TP\n.BI %s ", name);
		snprintf(tag[3], sizeof(tag[3]), ".TP\n\\fB%s\\fR", name);
		bool entry = false;
		for (int k = 0; k < 4 && !entry; k++) {
			const char *at = strstr(commands_section, tag[k]);
			entry = at && at < options_section;
		}
		snprintf(synopsis, sizeof(synopsis), ".RI [ OPTIONS ]\n.B %s", name);
		if (!entry || !strstr(man1, synopsis))
			fail_msg("docs/pmudb.1 lacks %s command '%s'", entry ? "a synopsis line for" : "an entry for", name);
		commands++;
	}
	assert_true(commands >= 10);
	test_run_free(&r);
	int functions = 0;
	for (const char *p = header; (p = strstr(p, "pmudb_")); p++) {
		/* a declaration: the name begins a line's word and '(' follows */
		size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyz_0123456789");
		const char *bol = p;
		while (bol > header && bol[-1] != '\n')
			bol--;
		if (p[len] != '(' || *bol == ' ' || *bol == '\t' || *bol == '/' || *bol == '#' || *bol == '*' ||
		    !strncmp(bol, "typedef", 7) || (p > header && (p[-1] == '(' || p[-1] == ',')))
			continue;
		char name[64], synopsis[80], described[80];
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		snprintf(synopsis, sizeof(synopsis), "%s(", name);
		snprintf(described, sizeof(described), ".BR %s ()", name);
		if (!strstr(man3, synopsis) || !strstr(man3, described))
			fail_msg("docs/libpmudb.3 lacks %s %s()", strstr(man3, synopsis) ? "a description of" : "the synopsis of",
				 name);
		functions++;
	}
	assert_true(functions >= 30);
	free(man1);
	free(man3);
	free(header);
}

static void test_encode_formats(void **state)
{
	(void)state;
	struct run_result r;
	run(&r, NULL, "encode", "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:u", NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "config          0xc0\n"));
	assert_non_null(strstr(r.out, "exclude_kernel  1\n"));
	test_run_free(&r);

	run(&r, NULL, "encode", "--format", "json", "amd64_fam19h_zen4::RETIRED_SSE_AVX_FLOPS:ADD_SUB_FLOPS", NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"config\":\"0x103\""));
	assert_non_null(strstr(r.out, "\"type\":4"));
	test_run_free(&r);

	run(&r, NULL, "encode", "--format", "perf", "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:u", NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "cpu/config=0xc0,name=amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:u/u\n");
	test_run_free(&r);

	run(&r, NULL, "--pmu", "amd64_fam19h_zen4", "encode", "RETIRED_INSTRUCTIONS", NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:"));
	test_run_free(&r);
	/* the same with the option after the command, as in the usage */
	run(&r, NULL, "encode", "--pmu", "amd64_fam19h_zen4", "--format", "json", "RETIRED_INSTRUCTIONS");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"config\":\"0xc0\""));
	test_run_free(&r);
	run(&r, NULL, "encode", "--cpu=AuthenticAMD/0x19/0x61", "RETIRED_INSTRUCTIONS", NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	test_run_free(&r);
}

static void test_rejected_event_exits_1_with_one_line(void **state)
{
	(void)state;
	struct run_result r;
	run(&r, NULL, "encode", "skl::INST_RETIRED:NO_SUCH_UMASK", NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_line_count(r.err), 1);
	assert_non_null(strstr(r.err, "NO_SUCH_UMASK"));
	test_run_free(&r);
}

static void test_stdin_batch_survives_bad_lines(void **state)
{
	(void)state;
	static char input[16 * 1024];
	char big[10 * 1024 + 1];
	memset(big, 'X', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	snprintf(input, sizeof(input),
		 "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS\n"
		 "skl::INST_RETIRED:NO_SUCH_UMASK\n"
		 "%s\n"
		 "skl::\xc3\xa9\xff\"\\\n"
		 "\n"
		 "perf::PERF_COUNT_HW_CPU_CYCLES\n", big);
	struct run_result r;
	/* --pmu: names without pmu:: resolve the same on every host */
	run(&r, input, "--pmu", "skl", "encode", "--stdin", NULL, NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_line_count(r.out), 6);
	char *line = r.out;
	const char *expect[] = { "\"config\":\"0xc0\"", "\"error_code\":\"PFM_ERR_ATTR\"", "\"error_code\":\"PFM_ERR_NOTFOUND\"",
				 "\"error_code\":", "\"error_code\":", "\"type\":0" };
	for (int i = 0; i < 6; i++) {
		char *end = strchr(line, '\n');
		assert_non_null(end);
		*end = '\0';
		if (line[0] != '{' || end[-1] != '}' || !strstr(line, expect[i]))
			fail_msg("line %d: %.200s (expected %s)", i + 1, line, expect[i]);
		/* valid JSON and valid UTF-8 (jansson refuses anything else):
		 * UTF-8 kept, a byte that is not UTF-8 as U+FFFD */
		json_error_t jerr;
		json_t *j = json_loads(line, 0, &jerr);
		if (!j)
			fail_msg("line %d is not JSON or not UTF-8: %s", i + 1, jerr.text);
		if (i == 3)
			assert_string_equal(json_string_value(json_object_get(j, "event")), "skl::\xc3\xa9\xef\xbf\xbd\"\\");
		json_decref(j);
		line = end + 1;
	}
	test_run_free(&r);
}

static void test_bad_catalog_exits_2_with_one_line(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof(path), "%s/not-a-catalog.db", tmp);
	FILE *f = fopen(path, "w");
	fputs("hello\n", f);
	fclose(f);
	struct run_result r;
	run(&r, NULL, "--db", path, "encode", "perf::PERF_COUNT_HW_CPU_CYCLES", NULL, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(test_line_count(r.err), 1);
	assert_non_null(strstr(r.err, path));
	test_run_free(&r);

	/* a directory and a FIFO: the cause named, not SQLite's "disk I/O
	 * error" or an empty file */
	char fifo[512];
	snprintf(fifo, sizeof(fifo), "%s/fifo.db", tmp);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	const char *const odd[][2] = { { tmp, "is a directory" }, { fifo, "not a regular file" } };
	for (int i = 0; i < 2; i++) {
		run(&r, NULL, "--db", odd[i][0], "pmus", NULL, NULL, NULL);
		assert_int_equal(r.status, 2);
		assert_int_equal(test_line_count(r.err), 1);
		if (!strstr(r.err, odd[i][1]))
			fail_msg("--db %s: '%s' lacks '%s'", odd[i][0], r.err, odd[i][1]);
		test_run_free(&r);
	}
	unlink(fifo);

	setenv("PMUDB_DB", "/nonexistent/pmudb.db", 1);
	run(&r, NULL, "pmus", NULL, NULL, NULL, NULL, NULL);
	unsetenv("PMUDB_DB");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "/nonexistent/pmudb.db"));
	test_run_free(&r);
}

/* PATH: a copy of the catalog `make` built, with SQL applied. */
static void edited_catalog(char *path, size_t size, const char *name, const char *sql)
{
	snprintf(path, size, "%s/%s.db", tmp, name);
	char *catalog = test_build_path("pmudb.db");
	assert_int_equal(test_copy_file(catalog, path), 0);
	free(catalog);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* Whether OUT is one JSON value, or JSON values one a line. */
static bool whole_json(const char *out)
{
	json_t *j = json_loads(out, JSON_DECODE_ANY, NULL);
	if (j) {
		json_decref(j);
		return true;
	}
	for (const char *p = out; *p;) {
		const char *nl = strchr(p, '\n');
		if (!nl)
			return false;
		j = json_loadb(p, (size_t)(nl - p), 0, NULL);
		if (!j)
			return false;
		json_decref(j);
		p = nl + 1;
	}
	return true;
}

/* Every command that reads a PMU's table, over a catalog whose skl table
 * is damaged: one line naming the catalog, exit 2, never a crash, a
 * "(null)" or a silent failure. */
static void test_every_command_over_a_damaged_table(void **state)
{
	(void)state;
	char path[512];
	edited_catalog(path, sizeof(path), "damaged",
		       "UPDATE event_table SET packed = x'706d75646254340000000000'"
		       " WHERE id = (SELECT event_table_id FROM pmu WHERE name = 'skl')");
	static const char *const commands[][5] = {
		{ "--cpu", "GenuineIntel/6/0x5e", "detect", "--json" },
		{ "info", "--json", "skl::INST_RETIRED", NULL },
		{ "list", "--json", "skl", NULL },
		{ "search", "--json", "INST_RETIRED", NULL },
		{ "diff", "--json", "skl", "skx" },
		{ "--pmu", "skl", "decode", "--json", "0xc0" },
		{ "group", "--json", "skl::INST_RETIRED:ANY_P", NULL },
		{ "--cpu", "GenuineIntel/6/0x5e", "detect", NULL },
		{ "info", "skl::INST_RETIRED", NULL, NULL },
		{ "list", "skl", NULL, NULL },
		{ "encode", "skl::INST_RETIRED:ANY_P", NULL, NULL },
		{ "encode", "--format", "json", "skl::INST_RETIRED:ANY_P" },
		{ "pmus", NULL, NULL, NULL },
		{ "search", "INST_RETIRED", NULL, NULL },
		{ "diff", "skl", "skx", NULL },
		{ "export", "--format", "csv", NULL },
		{ "--pmu", "skl", "decode", "0xc0" },
		{ "group", "skl::INST_RETIRED:ANY_P", NULL, NULL },
	};
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		struct run_result r;
		const char *const *a = commands[i];
		run(&r, NULL, "--db", path, a[0], a[1], a[2], a[3], a[4]);
		if (r.status != 2 || test_line_count(r.err) != 1 || !strstr(r.err, path) || strstr(r.out, "(null)"))
			fail_msg("%s %s %s: exit %d, stderr '%s'", a[0], a[1] ? a[1] : "", a[2] ? a[2] : "", r.status,
				 r.err);
		/* what a --json command wrote before the damage is whole JSON */
		bool json = false;
		for (int k = 0; k < 5 && a[k]; k++)
			json |= !strcmp(a[k], "--json");
		if (json && *r.out && !whole_json(r.out))
			fail_msg("%s %s %s: not whole JSON on a damaged catalog:\n%s", a[0], a[1], a[2] ? a[2] : "", r.out);
		test_run_free(&r);
	}
	struct run_result r;
	run(&r, "skl::INST_RETIRED:ANY_P\n", "--db", path, "encode", "--stdin", NULL, NULL);
	assert_int_equal(r.status, 2);	/* a catalog error, not a rejected event */
	assert_non_null(strstr(r.out, "PMUDB_ERR_CATALOG"));
	test_run_free(&r);
}

/* Every command that reads the CPUID map for the host, over a catalog whose
 * map lost its Intel family-6 entries: one line naming the catalog, exit
 * 2, not "no event table for this CPU" (exit 1) or an empty mapfile. */
static void test_every_command_over_a_damaged_cpuid_map(void **state)
{
	(void)state;
	char path[512], dir[600];
	edited_catalog(path, sizeof(path), "short_map", "DELETE FROM cpuid_map WHERE family = 6");
	snprintf(dir, sizeof(dir), "%s/short_map_tree", tmp);
	setenv("PMUDB_CPUINFO", "tests/fixtures/cpuinfo/cascadelake_platinum_8280.txt", 1);
	/* DIR: the folder export writes */
	static const char *const commands[][5] = {
		{ "detect", NULL }, { "detect", "--json", NULL }, { "encode", "INST_RETIRED:ANY_P", NULL },
		{ "decode", "0xc0", NULL }, { "stat", "-e", "INST_RETIRED:ANY_P", "true", NULL },
		{ "info", "INST_RETIRED:ANY_P", NULL }, { "list", NULL },
		{ "export", "--format", "perf-json", "--out", "DIR" },
	};
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		char *argv[9] = { pmudb, "--db", path };
		for (int k = 0; k < 5 && commands[i][k]; k++)
			argv[3 + k] = !strcmp(commands[i][k], "DIR") ? dir : (char *)commands[i][k];
		struct run_result r;
		test_run(argv, NULL, &r);
		if (r.status != 2 || test_line_count(r.err) != 1 || !strstr(r.err, path))
			fail_msg("%s %s: exit %d, stderr '%s'", argv[3], argv[4] ? argv[4] : "", r.status, r.err);
		test_run_free(&r);
	}
	struct run_result r;
	run(&r, "INST_RETIRED:ANY_P\n", "--db", path, "encode", "--stdin", NULL, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.out, "PMUDB_ERR_CATALOG"));
	test_run_free(&r);
	unsetenv("PMUDB_CPUINFO");
}

/* Output that cannot be written is an error: one line, exit 2. */
static void test_lost_output_is_an_error(void **state)
{
	(void)state;
	static const char *const commands[][3] = {
		{ "pmus", NULL, NULL }, { "list", "skl", NULL }, { "encode", "perf::PERF_COUNT_HW_CPU_CYCLES", NULL },
		{ "info", "skl::INST_RETIRED", NULL }, { "export", "--format", "csv" }, { "--help", NULL, NULL },
	};
	char script[1024];
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		/* the shell points standard output at /dev/full */
		snprintf(script, sizeof(script), "exec '%s' %s %s %s >/dev/full", pmudb, commands[i][0],
			 commands[i][1] ? commands[i][1] : "", commands[i][2] ? commands[i][2] : "");
		char *argv[] = { "/bin/sh", "-c", script, NULL };
		struct run_result r;
		test_run(argv, NULL, &r);
		if (r.status != 2 || test_line_count(r.err) != 1 || !strstr(r.err, "write failed"))
			fail_msg("%s: exit %d, stderr '%s'", script, r.status, r.err);
		test_run_free(&r);
	}
	snprintf(script, sizeof(script), "printf 'perf::PERF_COUNT_HW_CPU_CYCLES\\n' | '%s' encode --stdin >/dev/full",
		 pmudb);
	char *argv[] = { "/bin/sh", "-c", script, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "write failed"));
	test_run_free(&r);
}

/* A failed export leaves the file --out names as it was. */
static void test_failed_export_keeps_the_old_file(void **state)
{
	(void)state;
	char out[512], damaged[512];
	snprintf(out, sizeof(out), "%s/kept.csv", tmp);
	snprintf(damaged, sizeof(damaged), "%s/damaged.db", tmp);
	FILE *f = fopen(out, "w");
	fputs("keep\n", f);
	fclose(f);
	struct run_result r;
	/* made by test_every_command_over_a_damaged_table */
	char *failing[] = { pmudb, "--db", damaged, "export", "--format", "csv", "--out", out, NULL };
	test_run(failing, NULL, &r);
	assert_int_equal(r.status, 2);
	size_t size;
	char *text = test_read_file(out, &size);
	assert_non_null(text);
	assert_string_equal(text, "keep\n");
	free(text);
	test_run_free(&r);
	/* and a good one replaces it whole */
	char *good[] = { pmudb, "export", "--format", "csv", "--pmu", "skl", "--out", out, NULL };
	test_run(good, NULL, &r);
	assert_int_equal(r.status, 0);
	text = test_read_file(out, &size);
	assert_non_null(strstr(text, "\"skl\",\"INST_RETIRED\""));
	free(text);
	test_run_free(&r);
}

/* A 128 MB line through a pipe that hands it over 4 KB at a time: each
 * byte is searched for its LF once (searching the whole pending line at
 * every read made a 200 MB line take 35 s through a 64 KB pipe, and
 * takes this one minutes).  Under timeout, so that quadratic work fails
 * the test instead of stalling it; the lines around it are answered. */
static void test_stdin_long_line_in_linear_time(void **state)
{
	(void)state;
	/* under the sanitizers (a scan of every byte checks its shadow too,
	 * beside the plain pass) a 4 MB line: what is answered, not how fast */
	bool sampled = test_sample_step() > 1;
	size_t n = sampled ? 4u << 20 : 128u << 20;
	const char *first = "skl::INST_RETIRED:ANY_P\n";
	char *input = malloc(n + 64);
	strcpy(input, first);
	memset(input + strlen(first), 'A', n);
	strcpy(input + strlen(first) + n, "\nskl::INST_RETIRED:ANY_P\n");
	char *argv[] = { "/usr/bin/timeout", sampled ? "120" : "20", pmudb, "encode", "--stdin", NULL };
	struct run_result r;
	test_run_small_pipe(argv, input, &r);
	free(input);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_line_count(r.out), 3);
	char *last = strrchr(r.out, '{');
	assert_non_null(strstr(last, "\"config\":\"0xc0\""));
	test_run_free(&r);
}

/* encode --stdin answers each line before it waits for the next: a
 * program that writes a line and waits for its answer gets it. */
static void test_stdin_batch_answers_before_waiting(void **state)
{
	(void)state;
	int in[2], out[2];
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]), close(in[1]), close(out[0]), close(out[1]);
		execl(pmudb, pmudb, "encode", "--stdin", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	const char line[] = "perf::PERF_COUNT_HW_CPU_CYCLES\n";
	assert_int_equal(write(in[1], line, sizeof(line) - 1), (ssize_t)(sizeof(line) - 1));
	/* the input stays open: the answer must come anyway */
	struct pollfd p = { .fd = out[0], .events = POLLIN };
	int ready = poll(&p, 1, 30000);
	char answer[4096] = "";
	ssize_t got = ready == 1 ? read(out[0], answer, sizeof(answer) - 1) : -1;
	close(in[1]);
	int status;
	waitpid(pid, &status, 0);
	close(out[0]);
	if (got <= 0)
		fail_msg("no answer within 30 s while the input stayed open");
	answer[got] = '\0';
	assert_non_null(strstr(answer, "\"event\":\"perf::PERF_COUNT_HW_CPU_CYCLES\""));
}

/* What the options say wins over the environment, and what cannot go
 * together is refused, not ignored. */
static void test_options_and_their_conflicts(void **state)
{
	(void)state;
	char cpuinfo[512];
	snprintf(cpuinfo, sizeof(cpuinfo), "%s/not-cpuinfo", tmp);
	FILE *f = fopen(cpuinfo, "w");
	fputs("nothing here\n", f);
	fclose(f);
	static const struct {
		bool with_cpuinfo;	/* $PMUDB_CPUINFO names a file that is none */
		const char *input, *args[6];
		int status;
		const char *out_has, *err_has;
	} cases[] = {
		/* --pmu overrides $PMUDB_CPUINFO, and a prefixed name never needs it */
		{ true, NULL, { "--pmu", "skl", "encode", "INST_RETIRED:ANY_P" }, 0, NULL, NULL },
		{ true, NULL, { "encode", "skl::INST_RETIRED:ANY_P" }, 0, NULL, NULL },
		{ true, NULL, { "encode", "INST_RETIRED:ANY_P" }, 1, NULL, "not a cpuinfo file" },
		/* --stdin reads the events and writes JSON */
		{ false, "", { "encode", "--stdin", "skl::INST_RETIRED:ANY_P" }, 2, NULL, "no event arguments" },
		{ false, "", { "encode", "--stdin", "--format", "perf" }, 2, NULL, "no --format" },
		/* a CPU named by the user that has no table: 1, as detect answers */
		{ false, NULL, { "--cpu", "GenuineIntel/6/0x1ff", "encode", "INST_RETIRED" }, 1, NULL, "no event table" },
		/* "--": what follows is the operand, whatever it looks like */
		{ false, NULL, { "search", "--", "--db" }, 1, NULL, "nothing matches '--db'" },
		{ false, NULL, { "list", "--", "skl" }, 0, "skl::INST_RETIRED\n", NULL },
		{ false, NULL, { "info", "--", "skl::INST_RETIRED" }, 0, "skl::INST_RETIRED\n", NULL },
		/* info refuses the attributes encode refuses, and shows a
		 * combination the event does not take (what info is for) */
		{ false, NULL, { "info", "skl::INST_RETIRED:BOGUS" }, 1, NULL, "BOGUS" },
		{ false, NULL, { "info", "skl::INST_RETIRED:c=x" }, 1, NULL, "c=x" },
		{ false, NULL, { "info", "skl::INST_RETIRED:ANY_P:u" }, 0, "unit masks:", NULL },
		/* a command's option error names the program */
		{ false, NULL, { "encode", "--bogus" }, 2, NULL, "pmudb encode: " },
	};
	struct run_result r;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const *a = cases[i].args;
		if (cases[i].with_cpuinfo)
			setenv("PMUDB_CPUINFO", cpuinfo, 1);
		run(&r, cases[i].input, a[0], a[1], a[2], a[3], a[4], a[5]);
		unsetenv("PMUDB_CPUINFO");
		if (r.status != cases[i].status || test_line_count(r.err) > 1
		    || (cases[i].out_has && !strstr(r.out, cases[i].out_has))
		    || (cases[i].err_has && !strstr(r.err, cases[i].err_has)))
			fail_msg("%s %s %s %s: exit %d (expected %d), stderr '%s'", a[0], a[1] ? a[1] : "", a[2] ? a[2] : "",
				 a[3] ? a[3] : "", r.status, cases[i].status, r.err);
		test_run_free(&r);
	}
	/* a batch line holding a NUL: its object names the whole line */
	char script[1024];
	snprintf(script, sizeof(script), "printf 'skl::INST_RETIRED\\000junk\\n' | '%s' encode --stdin", pmudb);
	char *sh[] = { "/bin/sh", "-c", script, NULL };
	test_run(sh, NULL, &r);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "\"event\":\"skl::INST_RETIRED\\u0000junk\""));
	test_run_free(&r);
}

/* perf's modifiers after the '/' are kept in decode's answers: each answer
 * encodes to the registers and to the privilege, guest/host, precise,
 * pinned and exclusive settings perf reads the modifiers as (computed
 * here from perf's rules), and decoding encode --format perf's own output
 * gives such answers. */
static void test_decode_keeps_perf_modifiers(void **state)
{
	(void)state;
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(NULL, &err);
	assert_non_null(db);
	static const char *const mods[] = { "u", "k", "uk", "G", "H", "GH", "pp", "D", "e", "upGD", "kk" };
	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		const char *m = mods[i];
		char input[64];
		snprintf(input, sizeof(input), "cpu/event=0xc0/%s", m);
		struct run_result r;
		run(&r, NULL, "--pmu", "skl", "decode", "--json", input, NULL);
		assert_int_equal(r.status, 0);
		json_error_t jerr;
		json_t *j = json_loads(r.out, 0, &jerr);
		assert_non_null(j);
		json_t *answers = json_object_get(j, "answers");
		assert_true(json_array_size(answers) > 0);
		bool u = strchr(m, 'u'), k = strchr(m, 'k'), g = strchr(m, 'G'), h = strchr(m, 'H');
		unsigned precise = 0;
		for (const char *c = m; *c; c++)
			precise += *c == 'p';
		for (size_t a = 0; a < json_array_size(answers); a++) {
			const char *event = json_string_value(json_object_get(json_array_get(answers, a), "event"));
			struct pmudb_encoding e;
			if (pmudb_encode(db, event, NULL, &e, &err))
				fail_msg("%s: answer %s does not encode: %s", input, event, err.message);
			/* perf: of u and k, only those given are counted; the
			 * host only unless G (H with it: both) */
			bool plm = u || k;
			if (e.config != 0xc0 || (plm && (e.exclude_user != !u || e.exclude_kernel != !k))
			    || e.exclude_host != (g && !h) || e.exclude_guest != !g || e.precise_ip != precise
			    || e.pinned != !!strchr(m, 'D') || e.exclusive != !!strchr(m, 'e'))
				fail_msg("%s: answer %s encodes otherwise than perf reads the modifiers", input, event);
		}
		json_decref(j);
		test_run_free(&r);
	}
	/* one libpfm cannot write: refused, not dropped */
	struct run_result r;
	run(&r, NULL, "--pmu", "skl", "decode", "cpu/event=0xc0/I", NULL, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "'I'"));
	test_run_free(&r);
	pmudb_close(db);
}

/* decode reads back what encode --format perf prints: perf's generic
 * names, software/..., name= terms, G/H/e/D; an Arm core PMU's string by
 * that PMU's kernel name, never the host's core PMU. */
static void test_decode_reads_what_format_perf_prints(void **state)
{
	(void)state;
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(NULL, &err);
	assert_non_null(db);
	static const char *const cases[] = {
		"perf::PERF_COUNT_SW_TASK_CLOCK", "perf::PERF_COUNT_SW_TASK_CLOCK:mg=1:mh=1:excl=1:pinned=1",
		"perf::PERF_COUNT_SW_PAGE_FAULTS:u", "perf::PERF_COUNT_HW_CPU_CYCLES:u", "perf::PERF_COUNT_HW_INSTRUCTIONS",
		"perf::L1-DCACHE-LOAD-MISSES:k", "skl::INST_RETIRED:ANY_P:u:mg=1",
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmudb_encoding want;
		assert_int_equal(pmudb_encode(db, cases[i], NULL, &want, &err), 0);
		struct run_result r;
		run(&r, NULL, "--pmu", "skl", "encode", "--format", "perf", cases[i], NULL);
		assert_int_equal(r.status, 0);
		char printed[512];
		snprintf(printed, sizeof(printed), "%.*s", (int)strcspn(r.out, "\n"), r.out);
		test_run_free(&r);
		run(&r, NULL, "--pmu", "skl", "decode", "--json", printed, NULL);
		if (r.status)
			fail_msg("decode %s (of %s): status %d: %s", printed, cases[i], r.status, r.err);
		json_error_t jerr;
		json_t *j = json_loads(r.out, 0, &jerr);
		assert_non_null(j);
		json_t *answers = json_object_get(j, "answers");
		assert_true(json_array_size(answers) > 0);
		for (size_t a = 0; a < json_array_size(answers); a++) {
			const char *event = json_string_value(json_object_get(json_array_get(answers, a), "event"));
			struct pmudb_encoding e;
			if (pmudb_encode(db, event, NULL, &e, &err))
				fail_msg("%s: answer %s does not encode: %s", printed, event, err.message);
			if (e.type != want.type || e.config != want.config || e.exclude_user != want.exclude_user ||
			    e.exclude_kernel != want.exclude_kernel || e.exclude_guest != want.exclude_guest ||
			    e.exclude_host != want.exclude_host || e.exclusive != want.exclusive || e.pinned != want.pinned)
				fail_msg("%s (of %s): answer %s encodes otherwise", printed, cases[i], event);
		}
		json_decref(j);
		test_run_free(&r);
	}
	/* an Arm core's string on any host: an Arm PMU's names, where the
	 * catalog has Arm cores */
	bool arm = false;
	for (int p = 0; p < pmudb_pmu_count(db) && !arm; p++) {
		struct pmudb_pmu_info pi;
		arm = !pmudb_pmu_info(db, p, &pi) && !strcmp(pi.family, "arm_pmuv3");
	}
	if (arm) {
		struct run_result r;
		run(&r, NULL, "--cpu", "AuthenticAMD/0x19/0x61", "decode", "armv8_pmuv3_0/config=0x11/u", NULL);
		assert_int_equal(r.status, 0);
		assert_non_null(strstr(r.out, "::CPU_CYCLES:u"));
		assert_null(strstr(r.out, "amd64"));
		test_run_free(&r);
	} else {
		print_message("SKIP: Arm part: this catalog has no Arm core PMU (built without a vendor tree)\n");
	}
	pmudb_close(db);
}

static void test_browsing_commands(void **state)
{
	(void)state;
	struct run_result r;
	run(&r, NULL, "pmus", NULL, NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "amd64_fam19h_zen4"));
	test_run_free(&r);
	run(&r, NULL, "list", "amd64_fam19h_zen4", NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS\n"));
	test_run_free(&r);
	run(&r, NULL, "list", "no_such_pmu", NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 1);
	test_run_free(&r);
	run(&r, NULL, "info", "amd64_fam19h_zen4::RETIRED_SSE_AVX_FLOPS", NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "ADD_SUB_FLOPS"));
	assert_non_null(strstr(r.out, "modifiers:"));
	test_run_free(&r);
	run(&r, NULL, "search", "RETIRED_SSE_AVX", NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "amd64_fam19h_zen4::RETIRED_SSE_AVX_FLOPS"));
	test_run_free(&r);
}

/* The binary alone, away from the build tree, with no catalog file. */
static void test_builtin_catalog_needs_no_file(void **state)
{
	(void)state;
	char copy[512];
	snprintf(copy, sizeof(copy), "%s/pmudb", tmp);
	assert_int_equal(test_copy_file(pmudb, copy), 0);
	assert_int_equal(chmod(copy, 0755), 0);
	char *argv[] = { copy, "encode", "--format", "json", "perf::PERF_COUNT_HW_CPU_CYCLES", NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"config\":\"0x0\""));
	test_run_free(&r);
}

static void test_no_libpfm_at_run_time(void **state)
{
	(void)state;
	char *argv[] = { "/usr/bin/ldd", pmudb, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	assert_null(strstr(r.out, "libpfm"));	/* static: "not a dynamic executable" */
	/* SQLite is linked in, but for the sanitizer build, whose binary is
	 * dynamic (the sanitizers' runtimes do not link statically) */
	if (!strstr(r.out, "libasan"))
		assert_null(strstr(r.out, "libsqlite3"));
	test_run_free(&r);
	char *nm[] = { "/usr/bin/nm", pmudb, NULL };
	test_run(nm, NULL, &r);
	assert_null(strstr(r.out, " pfm_"));
	test_run_free(&r);
}

/* --explain: what Linux does with a fixed counter's pseudo-encoding, for
 * whichever spr string of the catalog encodes 0x0200 (libpfm's
 * CPU_CLK_UNHALTED:THREAD where this libpfm has it). */
static void test_encode_explains_pseudo_encodings(void **state)
{
	(void)state;
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(NULL, &err);
	assert_non_null(db);
	struct pmudb_encoding e;
	const char *s = "spr::CPU_CLK_UNHALTED:THREAD";
	bool pseudo = !pmudb_encode(db, s, NULL, &e, NULL) && e.config == 0x200;
	pmudb_close(db);
	struct run_result r;
	run(&r, NULL, "encode", "--explain", "perf::PERF_COUNT_SW_TASK_CLOCK");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "nothing to add"));
	test_run_free(&r);
	run(&r, NULL, "encode", "--explain", "--format", "json", "perf::PERF_COUNT_SW_TASK_CLOCK");
	assert_int_equal(r.status, 2);
	test_run_free(&r);
	if (!pseudo) {
		print_message("SKIP: %s does not encode 0x200 in this catalog\n", s);
		return;
	}
	run(&r, NULL, "encode", "--explain", s);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "  linux           0x200 is a fixed counter's pseudo-encoding"));
	assert_non_null(strstr(r.out, "no fixed counter"));
	test_run_free(&r);
}

/* What people type: -h on every command, perf's CPUID form, a vendor that
 * is no vendor of the map. */
static void test_names_people_type(void **state)
{
	(void)state;
	struct run_result r;
	const char *commands[] = { "encode", "pmus", "list", "info", "search", "detect", "decode", "diff", "export",
				   "stat" };
	run(&r, NULL, "-h");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: pmudb"));
	test_run_free(&r);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		run(&r, NULL, commands[i], "-h");
		if (r.status != 0 || !strstr(r.out, "usage: pmudb"))
			fail_msg("pmudb %s -h: exit %d, %s", commands[i], r.status, r.err);
		test_run_free(&r);
	}
	/* perf's mapfile and $PERF_CPUID form: family decimal, model and
	 * stepping hex */
	struct pmudb_cpu a, b;
	struct pmudb_error err;
	assert_int_equal(pmudb_cpu_parse("GenuineIntel-6-AD", &a, &err), 0);
	assert_int_equal(pmudb_cpu_parse("GenuineIntel/6/0xad", &b, &err), 0);
	assert_true(a.family == b.family && a.model == b.model && a.stepping == b.stepping && !strcmp(a.vendor, b.vendor));
	assert_int_equal(pmudb_cpu_parse("AuthenticAMD-25-61-2", &a, &err), 0);
	assert_true(a.family == 25 && a.model == 0x61 && a.stepping == 2);
	assert_int_equal(pmudb_cpu_parse("GenuineIntel-6-ZZ", &a, &err), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_cpu_parse("GenuineIntel-6--1", &a, &err), PMUDB_ERR_INVAL);
	run(&r, NULL, "--cpu", "intel/6/0xad", "encode", "INST_RETIRED.ANY");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "'intel' is none of its vendors"));
	assert_non_null(strstr(r.err, "GenuineIntel"));
	test_run_free(&r);
}

/* `info PMU::EVENT` of the row ST stands on (PMU, EVENT, an override's
 * why) prints that why. */
static void expect_info_says_why(sqlite3_stmt *st)
{
	char event[512], why[1024];
	snprintf(event, sizeof(event), "%s::%s", sqlite3_column_text(st, 0), sqlite3_column_text(st, 1));
	snprintf(why, sizeof(why), "overridden: %s", sqlite3_column_text(st, 2));
	struct run_result r;
	run(&r, NULL, "info", event);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, why))
		fail_msg("info %s does not say '%s'", event, why);
	test_run_free(&r);
}

/* info shows the why of every override that changed a unit mask, the
 * first such unit mask of the catalog (whichever this libpfm needs). */
static void test_info_shows_overrides(void **state)
{
	(void)state;
	char *catalog = test_build_path("pmudb.db");
	sqlite3 *sql;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open_v2(catalog, &sql, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(sql,
					    "SELECT p.name, e.name, u.why FROM umask u JOIN event e ON u.event_id = e.id"
					    " JOIN pmu_event pe ON pe.event_id = e.id JOIN pmu p ON p.id = pe.pmu_id"
					    " WHERE u.why IS NOT NULL AND u.why != '' ORDER BY p.name, e.name LIMIT 1",
					    -1, &st, NULL),
			 SQLITE_OK);
	if (sqlite3_step(st) != SQLITE_ROW) {
		print_message("SKIP: no unit mask of this catalog was overridden\n");
	} else {
		expect_info_says_why(st);
	}
	sqlite3_finalize(st);
	/* another name for an overridden event (tmt::OCR for
	 * OFFCORE_RESPONSE_0) shows the unit masks it encodes with, and their
	 * overrides */
	assert_int_equal(sqlite3_prepare_v2(sql,
					    "SELECT p.name, e2.name, u.why FROM umask u JOIN event e ON u.event_id = e.id"
					    " JOIN pmu_event pe ON pe.event_id = e.id JOIN pmu p ON p.id = pe.pmu_id"
					    " JOIN pmu_event pe2 ON pe2.pmu_id = p.id JOIN event e2 ON e2.id = pe2.event_id"
					    " WHERE u.why IS NOT NULL AND u.why != '' AND (e2.equiv = e.name OR e2.equiv LIKE"
					    " e.name || ':%') ORDER BY p.name, e2.name",
					    -1, &st, NULL),
			 SQLITE_OK);
	int named = 0;
	while (sqlite3_step(st) == SQLITE_ROW && named < 20) {
		expect_info_says_why(st);
		named++;
	}
	if (!named)
		print_message("SKIP: no other name of an overridden event in this catalog\n");
	sqlite3_finalize(st);
	sqlite3_close(sql);
	free(catalog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help_and_version),
		cmocka_unit_test(test_manuals_cover_every_command_and_function),
		cmocka_unit_test(test_encode_formats),
		cmocka_unit_test(test_info_shows_overrides),
		cmocka_unit_test(test_names_people_type),
		cmocka_unit_test(test_encode_explains_pseudo_encodings),
		cmocka_unit_test(test_rejected_event_exits_1_with_one_line),
		cmocka_unit_test(test_stdin_batch_survives_bad_lines),
		cmocka_unit_test(test_stdin_long_line_in_linear_time),
		cmocka_unit_test(test_bad_catalog_exits_2_with_one_line),
		cmocka_unit_test(test_browsing_commands),
		cmocka_unit_test(test_every_command_over_a_damaged_table),
		cmocka_unit_test(test_every_command_over_a_damaged_cpuid_map),
		cmocka_unit_test(test_stdin_batch_answers_before_waiting),
		cmocka_unit_test(test_options_and_their_conflicts),
		cmocka_unit_test(test_decode_keeps_perf_modifiers),
		cmocka_unit_test(test_decode_reads_what_format_perf_prints),
		cmocka_unit_test(test_lost_output_is_an_error),
		cmocka_unit_test(test_failed_export_keeps_the_old_file),
		cmocka_unit_test(test_builtin_catalog_needs_no_file),
		cmocka_unit_test(test_no_libpfm_at_run_time),
	};
	return cmocka_run_group_tests_name("cli", tests, setup, teardown);
}
