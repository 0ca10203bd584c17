/*
 * bench.c - `make bench`: pmudb's encoder against libpfm's, in one process,
 * on the harness corpus; and a whole `pmudb encode X` process against a
 * libpfm program that initialises and encodes X.
 *
 * Rounds are interleaved (the order of the arms rotates every round) and a
 * null-control arm, libpfm against itself, is printed beside each ratio as
 * the noise floor.  Only ratios are printed: the machine is shared.
 *
 * usage: bench [--rounds N] [--sample N] PMUDB_BINARY LIBPFM_ONCE_BINARY
 */
#include <getopt.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "corpus.h"
#include "libpfm_ask.h"
#include "pmudb.h"

struct corpus {
	char **items;
	size_t count, cap;
	long seen, sample;
};

static void collect(void *ctx, const char *group, const char *s)
{
	(void)group;
	struct corpus *c = ctx;
	if (c->seen++ % c->sample)
		return;
	if (c->count == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4096;
		c->items = realloc(c->items, c->cap * sizeof(*c->items));
	}
	c->items[c->count++] = strdup(s);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static pmudb_t *db;

static double run_pmudb(const struct corpus *c)
{
	struct pmudb_encoding e;
	struct pmudb_error err;
	double t0 = now();
	for (size_t i = 0; i < c->count; i++)
		pmudb_encode(db, c->items[i], NULL, &e, &err);
	return now() - t0;
}

static double run_libpfm(const struct corpus *c)
{
	double t0 = now();
	for (size_t i = 0; i < c->count; i++) {
		struct perf_event_attr attr;
		char *fstr = NULL;
		libpfm_ask(c->items[i], &attr, &fstr, NULL);
		free(fstr);
	}
	return now() - t0;
}

static double run_process(char *const argv[])
{
	fflush(stdout);
	double t0 = now();
	pid_t pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	int st;
	waitpid(pid, &st, 0);
	return now() - t0;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), compare_doubles);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Three arms A (pmudb), B and C (libpfm twice) in rotating order. */
static void report(const char *what, double *ratio, double *null, int rounds)
{
	double r = median(ratio, rounds), n = median(null, rounds);
	printf("%-44s %6.2f   (null control libpfm/libpfm: %.2f)\n", what, r, n);
}

int main(int argc, char **argv)
{
	int rounds = 7, opt;
	long sample = 5;
	static const struct option options[] = {
		{ "rounds", required_argument, NULL, 'r' }, { "sample", required_argument, NULL, 's' }, { NULL, 0, NULL, 0 },
	};
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (opt == 'r')
			rounds = atoi(optarg) > 0 ? atoi(optarg) : 7;
		else if (opt == 's')
			sample = atol(optarg) > 0 ? atol(optarg) : 1;
		else
			return 2;
	}
	if (argc - optind != 2) {
		fputs("usage: bench [--rounds N] [--sample N] PMUDB_BINARY LIBPFM_ONCE_BINARY\n", stderr);
		return 2;
	}
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	struct pmudb_error err;
	if (pfm_initialize() != PFM_SUCCESS || !(db = pmudb_open(NULL, &err))) {
		fprintf(stderr, "bench: cannot start\n");
		return 2;
	}
	struct corpus c = { .sample = sample };
	corpus_generate(db, NULL, collect, &c);
	run_pmudb(&c);	/* warm: tables loaded, caches filled */
	run_libpfm(&c);

	double *ratio = calloc((size_t)rounds, sizeof(double)), *null = calloc((size_t)rounds, sizeof(double));
	for (int r = 0; r < rounds; r++) {
		double t[3];
		for (int k = 0; k < 3; k++) {
			int arm = (r + k) % 3;
			t[arm] = arm == 0 ? run_pmudb(&c) : run_libpfm(&c);
		}
		ratio[r] = t[1] / t[0];
		null[r] = t[1] / t[2];
	}
	printf("corpus: %zu strings (every %ld%s of the harness corpus), %d interleaved rounds\n", c.count, sample,
	       sample == 1 ? "" : "th", rounds);
	printf("ratios are libpfm's time / pmudb's time (above 1: pmudb is faster), medians of the rounds\n");
	report("warm encode, per string (pmudb vs libpfm)", ratio, null, rounds);

	const char *event = "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS";
	char *pmudb_argv[] = { argv[optind], "encode", (char *)event, NULL };
	char *libpfm_argv[] = { argv[optind + 1], (char *)event, NULL };
	int runs = rounds * 5;
	double *pr = calloc((size_t)runs, sizeof(double)), *pn = calloc((size_t)runs, sizeof(double));
	for (int r = 0; r < runs; r++) {
		double t[3];
		for (int k = 0; k < 3; k++) {
			int arm = (r + k) % 3;
			t[arm] = run_process(arm == 0 ? pmudb_argv : libpfm_argv);
		}
		pr[r] = t[1] / t[0];
		pn[r] = t[1] / t[2];
	}
	report("whole process `pmudb encode X` vs libpfm", pr, pn, runs);
	pmudb_close(db);
	pfm_terminate();
	return 0;
}
