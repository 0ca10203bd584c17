/*
 * testlib.h - helpers shared by the cmocka tests: where the build is, running
 * a program and capturing what it says, comparing files.
 */
#ifndef PMUDB_TESTLIB_H
#define PMUDB_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The build directory under test ($PMUDB_BUILD, default "build"), and a
 * path inside it.  The result is malloc'd. */
const char *test_build_dir(void);
char *test_build_path(const char *name);

/* A fresh directory under $TMPDIR for this test; removed by test_rmtree(). */
char *test_tempdir(void);
void test_rmtree(const char *dir);

struct run_result {
	int status;		/* exit status, or 128 + signal */
	char *out;		/* everything written to stdout */
	char *err;		/* everything written to stderr */
};

/* Runs ARGV[0] with ARGV (NULL-ended), stdin from /dev/null or INPUT. */
void test_run(char *const argv[], const char *input, struct run_result *r);
/* The same, INPUT fed through a pipe of one page: the child reads it 4 KB
 * at a time. */
void test_run_small_pipe(char *const argv[], const char *input, struct run_result *r);
void test_run_free(struct run_result *r);

/* Runs the built pmudb ($PMUDB_BUILD/pmudb) with the NULL-ended
 * arguments after INPUT (stdin: INPUT, or /dev/null when NULL).  The
 * tests run pmudb through this one helper; a file whose calls pass a
 * fixed number of arguments wraps it in a macro (run()). */
void test_pmudb(struct run_result *r, const char *input, ...);

/* Starts ARGV in the background; returns its pid. */
pid_t test_spawn(char *const argv[]);

/* Whole file in memory (NUL-terminated); NULL if it cannot be read. */
char *test_read_file(const char *path, size_t *size);
bool test_files_equal(const char *a, const char *b);
int test_copy_file(const char *from, const char *to);

/* Number of lines in S (a last line without newline counts). */
int test_line_count(const char *s);

/* What the command-line tests start from: the built pmudb's path, a fresh
 * temporary directory, the built-in catalog open, and the environment that
 * would send pmudb elsewhere (PMUDB_DB, PMUDB_SYSFS_DEVICES) cleared.
 * -1 when the catalog does not open.  test_cli_end frees the three. */
struct pmudb;
int test_cli_start(char **pmudb, char **tmp, struct pmudb **db);
void test_cli_end(char *pmudb, char *tmp, struct pmudb *db);

/* Under the sanitizers a compiler run costs four times as much: the
 * costliest loops test every Nth case there (a sample, never none; every
 * 3rd put CI past its 20 minutes on a Zen 3 VM). */
static inline int test_sample_step(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return 5;
#else
	return 1;
#endif
}

#endif
