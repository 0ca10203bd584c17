/*
 * test_python.c - the Python module (python/pmudb) answers as the pmudb
 * command does: a sample of the harness corpus (every 40th string of its
 * first shapes and the vendors' dotted names, printable ones) encoded by
 * both, every field compared, then pmus, search, info, detect and group
 * against their --json (tests/python_agrees.py does the comparing).  The
 * module's examples (its docstring) run as doctests.
 *
 * Both passes: under the sanitizers Python loads the ASan- and
 * UBSan-built libpmudb.so with the sanitizers' runtimes preloaded
 * (SANITIZER_RUNTIMES, from mk/tests.mk), which such a library needs in a
 * program not built with them; Python's own allocations are not checked
 * for leaks.  There every 5th string of the sample is asked.
 */
#include <perfmon/pfmlib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmudb.h"
#include "tests/corpus.h"
#include "tests/testlib.h"

#define SAMPLE 40

struct sample {
	FILE *out;
	long seen, written;
};

static void on_string(void *ctx, const char *group, const char *event)
{
	struct sample *s = ctx;
	(void)group;
	if (s->seen++ % (SAMPLE * test_sample_step()))
		return;
	for (const char *p = event; *p; p++)
		if (*p < ' ' || *p > '~')
			return;	/* the command's lines and Python's str differ there, not the answers */
	if (!*event)
		return;
	fprintf(s->out, "%s\n", event);
	s->written++;
}

/* Runs ARGS (python3, found on $PATH by env) with the module on its
 * path and the built library. */
static void run_python(struct run_result *r, char *const *args)
{
	char *library = test_build_path("libpmudb.so");
	setenv("PYTHONPATH", "python", 1);
	setenv("PYTHONDONTWRITEBYTECODE", "1", 1);	/* nothing written into the source tree */
	setenv("PMUDB_LIBRARY", library, 1);
	unsetenv("PMUDB_DB");
#ifdef SANITIZER_RUNTIMES
	setenv("LD_PRELOAD", SANITIZER_RUNTIMES, 1);
	setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
#endif
	test_run(args, NULL, r);
	free(library);
}

static bool have_python(void)
{
	struct run_result r;
	char *args[] = { "/usr/bin/env", "python3", "-c", "import ctypes", NULL };
	test_run(args, NULL, &r);
	bool ok = r.status == 0;
	test_run_free(&r);
	return ok;
}

static void test_module_agrees_with_the_command(void **state)
{
	(void)state;
	if (!have_python()) {
		print_message("SKIP: no python3 with ctypes on this machine\n");
		return;
	}
	char *tmp = test_tempdir(), *strings, *catalog = test_build_path("pmudb.db"), *pmudb = test_build_path("pmudb");
	assert_true(asprintf(&strings, "%s/strings.txt", tmp) > 0);
	struct pmudb_error err;
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	pmudb_t *db = pmudb_open(catalog, &err);
	assert_non_null(db);
	assert_int_equal(pfm_initialize(), PFM_SUCCESS);
	struct sample s = { fopen(strings, "w"), 0, 0 };
	assert_non_null(s.out);
	corpus_generate(db, NULL, CORPUS_BASE | CORPUS_VENDOR_NAMES, on_string, &s);
	assert_int_equal(fclose(s.out), 0);
	pmudb_close(db);
	print_message("%ld of the corpus's %ld strings (every %d, printable)\n", s.written, s.seen,
		      SAMPLE * test_sample_step());
	assert_true(s.written > 1000);

	struct run_result r;
	char *args[] = { "/usr/bin/env", "python3", "tests/python_agrees.py", strings, pmudb, catalog, NULL };
	run_python(&r, args);
	print_message("%s%s", r.out, r.err);
	assert_int_equal(r.status, 0);
	test_run_free(&r);

	/* the module's docstring examples, on the built-in catalog */
	char *doctest[] = { "/usr/bin/env", "python3", "-c", "import doctest, pmudb, sys; sys.exit(doctest.testmod(pmudb).failed)", NULL };
	run_python(&r, doctest);
	if (r.status)
		fail_msg("the module's examples: %s%s", r.out, r.err);
	test_run_free(&r);

	/* a refusal is an exception with the library's line and code */
	char *refusal[] = { "/usr/bin/env", "python3", "-c",
			    "import pmudb\n"
			    "try:\n"
			    "    pmudb.encode('gnr::NO_SUCH_EVENT')\n"
			    "except pmudb.PmudbError as e:\n"
			    "    print(e.code, e.name, e)\n",
			    NULL };
	run_python(&r, refusal);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "-4 PFM_ERR_NOTFOUND event not found: no event 'NO_SUCH_EVENT'"));
	test_run_free(&r);
	test_rmtree(tmp);
	free(tmp);
	free(strings);
	free(catalog);
	free(pmudb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_module_agrees_with_the_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
