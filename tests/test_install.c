/*
 * test_install.c - `make install` and `make uninstall` as a user runs them:
 * into a temporary prefix, a small C program built with
 * `pkg-config --cflags --libs pmudb` against what was installed, run, and
 * finding the installed catalog; the installed command; DESTDIR staging;
 * and uninstall removing exactly what install wrote, nothing of others'.
 *
 * Runs make in the source tree (the current directory, as `make check`
 * runs the tests) with $PMUDB_MAKE_FLAGS (BUILD=..., PMU_EVENTS=...), so
 * nothing is rebuilt: install copies the build under test.
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

#include "tests/testlib.h"

static char *tmp;

static int setup(void **state)
{
	(void)state;
	tmp = test_tempdir();
	unsetenv("PMUDB_DB");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	test_rmtree(tmp);
	free(tmp);
	return 0;
}

/* Runs a shell command line; its output in R. */
static void sh(struct run_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sh(struct run_result *r, const char *fmt, ...)
{
	char line[8192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	char *argv[] = { "/bin/sh", "-c", line, NULL };
	test_run(argv, NULL, r);
	if (r->status)
		print_message("%s\n-> %d: %s%s\n", line, r->status, r->out, r->err);
}

static const char *make_flags(void)
{
	const char *f = getenv("PMUDB_MAKE_FLAGS");
	static char fallback[1024];
	if (f && *f)
		return f;
	snprintf(fallback, sizeof(fallback), "BUILD=%s", test_build_dir());
	return fallback;
}

/* Every file and link under DIR, one a line, sorted, relative to DIR. */
static char *listing(const char *dir)
{
	struct run_result r;
	sh(&r, "cd '%s' && find . \\( -type f -o -type l \\) | sort", dir);
	assert_int_equal(r.status, 0);
	free(r.err);
	return r.out;
}

static const char program[] =
	"#include <stdio.h>\n"
	"#include <string.h>\n"
	"#include <pmudb.h>\n"
	"int main(void)\n"
	"{\n"
	"	char path[4096];\n"
	"	struct pmudb_error err;\n"
	"	struct pmudb_encoding e;\n"
	"	if (pmudb_installed_catalog(path, sizeof(path))) return 3;\n"
	"	pmudb_t *db = pmudb_open_installed(&err);\n"
	"	if (!db) { fprintf(stderr, \"%s\\n\", err.message); return 2; }\n"
	"	if (pmudb_encode(db, \"skl::INST_RETIRED:ANY_P:c=1:u\", NULL, &e, &err)) return 1;\n"
	"	printf(\"%s\\n%s 0x%llx %d\\n\", path, e.pmu, (unsigned long long)e.config, e.exclude_kernel);\n"
	"	pmudb_close(db);\n"
	"	db = pmudb_open(NULL, &err);\n"
	"	if (!db || pmudb_encode(db, \"perf::PERF_COUNT_HW_CPU_CYCLES\", NULL, &e, &err)) return 1;\n"
	"	printf(\"built-in %s %d\\n\", PMUDB_VERSION, e.type);\n"
	"	pmudb_close(db);\n"
	"	return 0;\n"
	"}\n";

static void test_install_build_run_uninstall(void **state)
{
	(void)state;
	struct run_result r;
	char prefix[1024], path[1200];
	snprintf(prefix, sizeof(prefix), "%s/prefix", tmp);
	/* someone else's file in the prefix, which uninstall must leave */
	sh(&r, "mkdir -p '%s/bin' && echo mine > '%s/bin/other-tool'", prefix, prefix);
	test_run_free(&r);
	char *before = listing(prefix);

	sh(&r, "make --no-print-directory %s install PREFIX='%s' DESTDIR=", make_flags(), prefix);
	assert_int_equal(r.status, 0);
	test_run_free(&r);
	char *after = listing(prefix);
	static const char *const expected[] = {
		"./bin/pmudb", "./bin/other-tool", "./include/pmudb.h", "./lib/libpmudb.a", "./lib/libpmudb.so",
		"./lib/libpmudb.so.0", "./lib/pkgconfig/pmudb.pc", "./share/man/man1/pmudb.1",
		"./share/man/man3/libpmudb.3", "./share/pmudb/pmudb.db",
	};
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		char line[256];
		snprintf(line, sizeof(line), "%s\n", expected[i]);
		assert_non_null(strstr(after, line));
	}
	assert_non_null(strstr(after, "./lib/libpmudb.so.0."));
	/* the soname links: libpmudb.so -> libpmudb.so.0 -> libpmudb.so.VERSION */
	sh(&r, "cd '%s/lib' && readlink libpmudb.so && readlink libpmudb.so.0 && "
	       "readelf -d libpmudb.so.0 | grep -o 'soname: \\[[^]]*\\]'", prefix);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "libpmudb.so.0\nlibpmudb.so.0."));
	assert_non_null(strstr(r.out, "soname: [libpmudb.so.0]"));
	test_run_free(&r);

	/* a program built with pkg-config against the installed library */
	snprintf(path, sizeof(path), "%s/prog.c", tmp);
	FILE *f = fopen(path, "w");
	fputs(program, f);
	fclose(f);
	sh(&r, "cd '%s' && PKG_CONFIG_PATH='%s/lib/pkgconfig' && export PKG_CONFIG_PATH && "
	       "cc -std=c11 -Wall -Werror prog.c $(pkg-config --cflags --libs pmudb) -o prog && "
	       "LD_LIBRARY_PATH='%s/lib' ./prog && LD_LIBRARY_PATH='%s/lib' ldd ./prog | grep libpmudb",
	   tmp, prefix, prefix, prefix);
	assert_int_equal(r.status, 0);
	char want[2048];
	snprintf(want, sizeof(want), "%s/share/pmudb/pmudb.db\nskl 0x10000c0 1\nbuilt-in ", prefix);
	assert_non_null(strstr(r.out, want));
	snprintf(want, sizeof(want), "%s/lib/libpmudb.so.0", prefix);
	assert_non_null(strstr(r.out, want));	/* the installed library, not the build's */
	test_run_free(&r);

	/* the installed Python module, with the installed library (and the
	 * bytecode Python writes beside it, which uninstall removes too) */
	sh(&r, "cd '%s' && site=$(ls -d '%s'/lib/python3*/site-packages) && env -u PYTHONDONTWRITEBYTECODE PYTHONPATH=\"$site\" python3 -c "
	       "'import pmudb; print(pmudb._find_library()); print(pmudb.encode(\"gnr::MEM_LOAD_RETIRED.L3_MISS\")[\"config\"])'",
	   tmp, prefix);
	if (r.status)
		fail_msg("the installed Python module: %s", r.err);
	snprintf(want, sizeof(want), "%s/lib/libpmudb.so.0\n8401\n", prefix);
	assert_string_equal(r.out, want);
	test_run_free(&r);

	/* the installed command, and the man page man can read */
	sh(&r, "'%s/bin/pmudb' encode --format perf perf::PERF_COUNT_HW_CPU_CYCLES:u && "
	       "'%s/bin/pmudb' --db '%s/share/pmudb/pmudb.db' encode --format perf skl::INST_RETIRED:ANY_P:u",
	   prefix, prefix, prefix);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "cycles/name=perf::PERF_COUNT_HW_CPU_CYCLES:u/u\ncpu/config=0xc0,name=skl::INST_RETIRED:ANY_P:u/u\n");
	test_run_free(&r);

	sh(&r, "make --no-print-directory %s uninstall PREFIX='%s' DESTDIR=", make_flags(), prefix);
	assert_int_equal(r.status, 0);
	test_run_free(&r);
	char *gone = listing(prefix);
	assert_string_equal(gone, before);	/* exactly what install wrote, no more */
	free(before);
	free(after);
	free(gone);
}

/* DESTDIR stages the tree: files under DESTDIR/PREFIX, and the prefix in
 * pmudb.pc is PREFIX, where they will be. */
static void test_destdir(void **state)
{
	(void)state;
	struct run_result r;
	char dest[1024];
	snprintf(dest, sizeof(dest), "%s/stage", tmp);
	sh(&r, "make --no-print-directory %s install PREFIX=/opt/pmudb DESTDIR='%s' && "
	       "grep '^prefix=' '%s/opt/pmudb/lib/pkgconfig/pmudb.pc' && test -f '%s/opt/pmudb/share/pmudb/pmudb.db' && "
	       "'%s/opt/pmudb/bin/pmudb' --version",
	   make_flags(), dest, dest, dest, dest);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "prefix=/opt/pmudb\npmudb "));
	test_run_free(&r);
	sh(&r, "make --no-print-directory %s uninstall PREFIX=/opt/pmudb DESTDIR='%s'", make_flags(), dest);
	assert_int_equal(r.status, 0);
	test_run_free(&r);
	char *left = listing(dest);
	assert_string_equal(left, "");
	free(left);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_install_build_run_uninstall),
		cmocka_unit_test(test_destdir),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
