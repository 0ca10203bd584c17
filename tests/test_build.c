/*
 * test_build.c - nothing lost: two builds from the same inputs (libpfm, the
 * vendor tree, the tables) give the same file, and a build that fails or
 * is interrupted leaves the previous catalog exactly as it was.  Also the
 * size: what comes from libpfm takes less room than libpfm.so.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <perfmon/pfmlib.h>
#include <setjmp.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/testlib.h"

static char *tmp, *compiler, *catalog;

static int setup(void **state)
{
	(void)state;
	tmp = test_tempdir();
	compiler = test_build_path("pmudb-build");
	catalog = test_build_path("pmudb.db");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	test_rmtree(tmp);
	free(tmp);
	free(compiler);
	free(catalog);
	return 0;
}

static char *temp_path(const char *name)
{
	char *p = NULL;
	assert_true(asprintf(&p, "%s/%s", tmp, name) > 0);
	return p;
}

/* The vendor tree `make` uses ($PMUDB_PMU_EVENTS), or NULL. */
static char *vendor_tree(void)
{
	char *dir = getenv("PMUDB_PMU_EVENTS");
	return dir && *dir ? dir : NULL;
}

static void build_to(const char *out, bool with_vendor_tree)
{
	char *tree = with_vendor_tree ? vendor_tree() : NULL;
	/* the words `make` gave the tree, where it gave some */
	char *origin = tree ? getenv("PMUDB_PMU_EVENTS_ORIGIN") : NULL;
	if (origin && !*origin)
		origin = NULL;
	/* and the kernel source it gave, whose formats encode the uncore entries */
	char *kernel = tree ? getenv("PMUDB_KERNEL_SOURCE") : NULL;
	if (kernel && !*kernel)
		kernel = NULL;
	/* and the sources it gave after the tree (PMU_EVENTS_EXTRA) */
	const char *more = tree ? getenv("PMUDB_PMU_EVENTS_MORE") : NULL;
	char *dirs = strdup(more ? more : ""), *save = NULL, *argv[48];
	int n = 0;
	argv[n++] = compiler;
	argv[n++] = "--quiet";
	argv[n++] = "--out";
	argv[n++] = (char *)out;
	if (tree) {
		argv[n++] = "--pmu-events";
		argv[n++] = tree;
	}
	if (origin) {
		argv[n++] = "--pmu-events-origin";
		argv[n++] = origin;
	}
	for (char *d = strtok_r(dirs, " ", &save); d && n < 40; d = strtok_r(NULL, " ", &save)) {
		argv[n++] = "--pmu-events";
		argv[n++] = d;
	}
	if (kernel) {
		argv[n++] = "--kernel-source";
		argv[n++] = kernel;
	}
	argv[n] = NULL;
	struct run_result r;
	test_run(argv, NULL, &r);
	if (r.status != 0)
		fail_msg("build to %s failed (%d): %s", out, r.status, r.err);
	test_run_free(&r);
	free(dirs);
}

/* A build is byte-identical to the catalog `make` built from the same
 * inputs (make check passes its vendor tree as $PMUDB_PMU_EVENTS): one
 * build, not two, as a build under the sanitizers takes a minute.  With
 * no vendor tree named, two builds of libpfm and the tables. */
static void test_two_builds_are_byte_identical(void **state)
{
	(void)state;
	char *a = temp_path("a.db");
	build_to(a, true);
	if (vendor_tree()) {
		assert_true(test_files_equal(a, catalog));
	} else {
		print_message("SKIP: no vendor tree ($PMUDB_PMU_EVENTS): libpfm and the tables only\n");
		char *b = temp_path("b.db");
		build_to(b, true);
		assert_true(test_files_equal(a, b));
		free(b);
	}
	free(a);
}

/* libpfm's tables, compiled, are smaller than libpfm's library: the
 * catalog without the answers the build adds for SQL (the encoding view),
 * which libpfm's library does not hold. */
static void test_libpfm_part_is_smaller_than_libpfm(void **state)
{
	(void)state;
	Dl_info info;
	char lib[PATH_MAX];
	assert_true(dladdr((void *)pfm_initialize, &info) && realpath(info.dli_fname, lib));
	char *path = temp_path("libpfm-only.db");
	build_to(path, false);
	struct stat whole, a, b;
	assert_int_equal(stat(path, &whole), 0);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "DROP VIEW encoding; DROP TABLE name_encoding; DROP TABLE name_encoding_pmu; VACUUM",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(stat(path, &a), 0);
	assert_int_equal(stat(lib, &b), 0);
	print_message("catalog of libpfm's tables %lld bytes (%lld with the encoding view), %s %lld bytes\n",
		      (long long)a.st_size, (long long)whole.st_size, lib, (long long)b.st_size);
	assert_true(a.st_size < whole.st_size);
	assert_true(a.st_size < b.st_size);
	free(path);
}

/* Names in the temp dir that start with PREFIX. */
static int count_files(const char *prefix)
{
	DIR *d = opendir(tmp);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return n;
}

/* Starts a build over TARGET, waits until it writes its temporary file,
 * then sends SIG.  Returns how the build ended. */
static int interrupt_build(const char *target, int sig)
{
	char *argv[] = { compiler, "--quiet", "--out", (char *)target, NULL };
	pid_t pid = test_spawn(argv);
	assert_true(pid > 0);
	const char *base = strrchr(target, '/') + 1;
	char prefix[256];
	snprintf(prefix, sizeof(prefix), "%s.tmp.", base);
	struct timespec pause = { 0, 2000000 };
	int waited = 0, st;
	while (!count_files(prefix) && waitpid(pid, &st, WNOHANG) == 0 && waited++ < 150000)
		nanosleep(&pause, NULL);
	kill(pid, sig);
	waitpid(pid, &st, 0);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

static void test_interrupted_build_keeps_the_old_catalog(void **state)
{
	(void)state;
	char *target = temp_path("keep.db"), *before = temp_path("before.db");
	assert_int_equal(test_copy_file(catalog, target), 0);
	assert_int_equal(test_copy_file(catalog, before), 0);

	/* SIGINT: the build removes its temporary file on the way out. */
	assert_int_equal(interrupt_build(target, SIGINT), 128 + SIGINT);
	assert_true(test_files_equal(target, before));
	assert_int_equal(count_files("keep.db.tmp."), 0);

	/* SIGKILL cannot be caught: the temporary file stays, the catalog too;
	 * the next build into the same target removes it, and leaves the
	 * temporary file of a build still running (this process's PID) */
	assert_int_equal(interrupt_build(target, SIGKILL), 128 + SIGKILL);
	assert_true(test_files_equal(target, before));
	assert_int_equal(count_files("keep.db.tmp."), 1);
	char live[1024];
	snprintf(live, sizeof(live), "%s.tmp.%ld", target, (long)getpid());
	FILE *f = fopen(live, "w");
	assert_non_null(f);
	fclose(f);
	char *argv[] = { compiler, "--tables", "tables", "--tables", "tests/fixtures/tables/bad/unknown_event.yaml",
			 "--out", target, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	assert_int_equal(r.status, 1);
	test_run_free(&r);
	assert_int_equal(count_files("keep.db.tmp."), 1);
	assert_int_equal(access(live, F_OK), 0);
	unlink(live);
	free(target);
	free(before);
}

static void test_failed_build_keeps_the_old_catalog(void **state)
{
	(void)state;
	char *target = temp_path("failed.db"), *before = temp_path("failed-before.db");
	assert_int_equal(test_copy_file(catalog, target), 0);
	assert_int_equal(test_copy_file(catalog, before), 0);
	char *argv[] = { compiler, "--tables", "tables", "--tables", "tests/fixtures/tables/bad/unknown_event.yaml",
			 "--out", target, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	assert_int_equal(r.status, 1);
	test_run_free(&r);
	assert_true(test_files_equal(target, before));
	assert_int_equal(count_files("failed.db.tmp."), 0);
	free(target);
	free(before);
}

/* An --out name of 250 bytes: its temporary file's name is cut to fit the
 * file system's 255 (".tmp.PID" after the whole name did not fit). */
static void test_a_long_out_name_builds(void **state)
{
	(void)state;
	char name[251];
	memset(name, 'c', 247);
	memcpy(name + 247, ".db", 4);
	char *target = temp_path(name);
	char *argv[] = { compiler, "--quiet", "--out", target, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	if (r.status)
		fail_msg("exit %d: %s", r.status, r.err);
	test_run_free(&r);
	assert_int_equal(access(target, R_OK), 0);
	assert_int_equal(count_files("ccccc"), 1);	/* the catalog, no temporary file */
	unlink(target);
	free(target);
}

/* --out is checked before any work: a FIFO, a directory or an input is
 * refused (a rename would have replaced it: as root, --out /dev/null made
 * the device a file), and a symbolic link is written through, the
 * target's mode kept. */
static void test_out_is_checked_before_the_build(void **state)
{
	(void)state;
	char *fifo = temp_path("fifo.db"), *table = temp_path("table.yaml");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(test_copy_file("tables/cpuid.yaml", table), 0);
	struct {
		const char *out, *tables, *expect;
	} refused[] = {
		{ fifo, "tables", "not a regular file" },
		{ tmp, "tables", "a directory" },
		{ table, table, "an input of the build" },
		{ "/nonexistent/dir/x.db", "tables", "cannot write in /nonexistent/dir" },
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char *argv[] = { compiler, "--quiet", "--tables", (char *)refused[i].tables, "--out",
				 (char *)refused[i].out, NULL };
		struct run_result r;
		test_run(argv, NULL, &r);
		if (r.status != 2 || !strstr(r.err, refused[i].expect))
			fail_msg("--out %s: exit %d, '%s' (expected 2, '%s')", refused[i].out, r.status, r.err,
				 refused[i].expect);
		test_run_free(&r);
	}
	struct stat sb;
	assert_int_equal(stat(fifo, &sb), 0);
	assert_true(S_ISFIFO(sb.st_mode));
	assert_true(test_files_equal(table, "tables/cpuid.yaml"));
	/* --image-of needs its --out (the default is the catalog itself) */
	char *no_out[] = { compiler, "--image-of", catalog, NULL };
	struct run_result r;
	test_run(no_out, NULL, &r);
	assert_int_equal(r.status, 2);
	test_run_free(&r);
	/* through a symbolic link to a read-only file */
	char *image = temp_path("image.bin"), *link = temp_path("image.link");
	FILE *f = fopen(image, "w");
	fputs("old\n", f);
	fclose(f);
	assert_int_equal(chmod(image, 0444), 0);
	assert_int_equal(symlink(image, link), 0);
	char *through[] = { compiler, "--image-of", catalog, "--out", link, NULL };
	test_run(through, NULL, &r);
	assert_int_equal(r.status, 0);
	test_run_free(&r);
	assert_int_equal(lstat(link, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_int_equal(stat(image, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0444);
	assert_true(sb.st_size > 1000);
	free(fifo), free(table), free(image), free(link);
}

/* --image-of reads a catalog as the runtime does: one put in WAL mode is
 * refused, with nothing made beside it (SQLite made -wal and -shm). */
static void test_image_of_refuses_what_the_runtime_refuses(void **state)
{
	(void)state;
	char *wal = temp_path("wal.db"), *image = temp_path("wal.image");
	assert_int_equal(test_copy_file(catalog, wal), 0);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(wal, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	char *argv[] = { compiler, "--image-of", wal, "--out", image, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "WAL mode"));
	test_run_free(&r);
	assert_int_equal(count_files("wal.db-"), 0);
	assert_int_equal(access(image, F_OK), -1);
	free(wal);
	free(image);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_builds_are_byte_identical),
		cmocka_unit_test(test_libpfm_part_is_smaller_than_libpfm),
		cmocka_unit_test(test_interrupted_build_keeps_the_old_catalog),
		cmocka_unit_test(test_failed_build_keeps_the_old_catalog),
		cmocka_unit_test(test_a_long_out_name_builds),
		cmocka_unit_test(test_image_of_refuses_what_the_runtime_refuses),
		cmocka_unit_test(test_out_is_checked_before_the_build),
	};
	return cmocka_run_group_tests_name("build", tests, setup, teardown);
}
