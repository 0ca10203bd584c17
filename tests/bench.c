/*
 * bench.c - `make bench`: pmudb against libpfm, as ratios (libpfm's time /
 * pmudb's: above 1, pmudb is faster), each beside a null control (libpfm
 * against itself, the noise floor).  Only ratios and memory are printed:
 * the machine is shared and its speed drifts.
 *
 *   warm   in this process, per string, per family group of the harness
 *          corpus (all its strings, then those libpfm encodes and those it
 *          refuses apart) and over the whole mix, each list's strings laid out one
 *          after another (lay_out says why); rounds interleaved, the order of
 *          the four arms rotating: pmudb, libpfm, libpfm again, and pmudb
 *          writing the message of each refusal (libpfm gives a code only,
 *          as pmudb does for a caller that passes no pmudb_error)
 *          and the vendors' uncore PMUs (family kernel_format) where
 *          libpfm has the box: their strings against libpfm's of the
 *          same name on its box
 *   cold   a whole `pmudb encode EVENT` process against a libpfm program
 *          that initialises and encodes EVENT: CPU time (user + system, the
 *          kernel's accounting of the reaped child) and peak memory (the
 *          median over the runs, and the largest), for a core event, an
 *          uncore event and an event of the largest table;
 *          fifteen runs a round, as a process's CPU time on a VM jumps
 *          between two levels (a static no-op: 1.1 or 2.4 ms) and 35
 *          per-run ratios gave medians 0.1 apart from one bench to the next
 *   batch  `pmudb encode --stdin` against a libpfm program reading the
 *          same 100,000 lines and printing its encodings
 *
 * ROUNDS, sixteen: four whole turns of the warm arms' rotation, so that
 * each arm runs in each place as often (pmudb's pass follows a libpfm
 * pass in one place of four, and there meets its own lines evicted: the
 * AMD pass some 7 % slower).  A round's pmudb pass over the AMD core
 * strings lasts about a millisecond and moves 8 % either way from round
 * to round, where libpfm's 24 ms move 1 %: over seven rounds, the
 * median of four benches in a row read 20.33 to 21.74; over fifteen,
 * three read 20.99 to 21.67 (2026-12-04).
 *
 * Everything runs on the one CPU the bench starts on, the programs it
 * starts too: on a VM whose CPUs run at different speeds (one of two was
 * 40 % slower for minutes at a time on 2026-12-03) an arm that moved
 * between them measured the move, and a batch's null control read 0.66.
 *
 * usage: bench [--rounds N] [--sample N] PMUDB LIBPFM_ONCE LIBPFM_BATCH SPAWNER
 */
#include <fcntl.h>
#include <getopt.h>
#include <perfmon/pfmlib_perf_event.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/corpus.h"
#include "tests/libpfm_ask.h"
#include "pmudb.h"

/* ---- the corpus, by family group ------------------------------------------ */

struct strings {
	char **items;
	size_t count, cap;
};

static void push(struct strings *s, const char *item)
{
	if (s->count == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		s->items = realloc(s->items, s->cap * sizeof(*s->items));
		if (!s->items)
			exit(2);
	}
	if (!(s->items[s->count++] = strdup(item)))
		exit(2);
}

/*
 * The strings of a list laid out one after another, as a caller's argument
 * list or configuration file holds them.  Collected, each was a heap copy
 * among half a million others (every string of the corpus, and every core
 * string again for the batch), and the first touch of each cost pmudb a
 * miss to memory, some 85 ns of its 210 (Intel core) and 170 (AMD core),
 * which libpfm's 3,700 and 1,700 did not show: the ratio measured where
 * the bench had put the strings, not the encoders.
 */
static void lay_out(struct strings *s)
{
	size_t total = 0;
	for (size_t i = 0; i < s->count; i++)
		total += strlen(s->items[i]) + 1;
	char *text = malloc(total ? total : 1), *at = text;
	if (!text)
		exit(2);
	for (size_t i = 0; i < s->count; i++) {
		size_t n = strlen(s->items[i]) + 1;
		memcpy(at, s->items[i], n);
		free(s->items[i]);
		s->items[i] = at;
		at += n;
	}
}

static const char *const groups[] = { "intel_core", "amd_core", "intel_uncore", "amd_uncore_rapl", "os" };
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

struct corpus {
	long seen, sample;
	/* each group's sample, and of it the strings libpfm encodes
	 * (valid) and those it refuses: a group's core sample is about half
	 * refusals, which cost both encoders less */
	struct strings group[NGROUPS], valid[NGROUPS], refused[NGROUPS], all, core;
};

static void collect(void *ctx, const char *group, const char *s)
{
	struct corpus *c = ctx;
	for (size_t g = 0; g < NGROUPS; g++)
		if (!strcmp(group, groups[g])) {
			if (g < 2)
				push(&c->core, s);	/* every core string, for the batch */
			if (c->seen++ % c->sample == 0) {
				struct perf_event_attr attr;
				push(&c->group[g], s);
				push(libpfm_ask(s, &attr, NULL, NULL) == PFM_SUCCESS ? &c->valid[g] : &c->refused[g], s);
				push(&c->all, s);
			}
		}
}

/* ---- timing ------------------------------------------------------------------ */

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static pmudb_t *db;

/* Like libpfm's arm, the code and the encoding; with MESSAGES, also the
 * one-line message of each refusal, which libpfm does not write. */
static double run_pmudb(const struct strings *c, bool messages)
{
	struct pmudb_encoding e;
	struct pmudb_error err, *want = messages ? &err : NULL;
	double t0 = now();
	for (size_t i = 0; i < c->count; i++)
		pmudb_encode(db, c->items[i], NULL, &e, want);
	return now() - t0;
}

static double run_libpfm(const struct strings *c)
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

struct usage {
	double cpu;		/* seconds, user + system */
	long peak_kb;
};

/* Processes are started by tests/spawner.c, which says why. */
static FILE *to_spawner, *from_spawner;

static void start_spawner(const char *path)
{
	int req[2], rep[2];
	if (pipe(req) || pipe(rep))
		exit(2);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(req[0], 0);
		dup2(rep[1], 1);
		/* only stdin and stdout: holding the request pipe's write end
		 * itself, the spawner would never see the end of its input and
		 * would outlive the bench */
		close(req[0]);
		close(req[1]);
		close(rep[0]);
		close(rep[1]);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(req[0]);
	close(rep[1]);
	to_spawner = fdopen(req[1], "w");
	from_spawner = fdopen(rep[0], "r");
}

/* Runs ARGV with stdin from IN (or /dev/null) and stdout to /dev/null. */
static struct usage run_process(char *const argv[], const char *in)
{
	fprintf(to_spawner, "%s", in ? in : "");
	for (int i = 0; argv[i]; i++)
		fprintf(to_spawner, "\t%s", argv[i]);
	fputc('\n', to_spawner);
	fflush(to_spawner);
	struct usage u = { 0, 0 };
	if (fscanf(from_spawner, "%lf %ld", &u.cpu, &u.peak_kb) != 2)
		exit(2);
	return u;
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

static void report(const char *what, double *ratio, double *null, int n, const char *extra)
{
	double r = median(ratio, n), z = median(null, n);
	printf("  %-42s %7.2f   (null control libpfm/libpfm: %.2f)%s\n", what, r, z, extra ? extra : "");
}

/* ---- the three benchmarks ---------------------------------------------------- */

/* pmudb encodes string i of MINE where libpfm encodes string i of THEIRS
 * (the same strings but for the vendors' uncore PMUs, whose strings libpfm
 * has under its own PMU's name). */
static void warm_paired(const char *what, const struct strings *mine, const struct strings *theirs, int rounds)
{
	const struct strings *c = mine;
	if (!c->count || theirs->count != c->count)
		return;
	run_pmudb(c, true);	/* tables read, caches filled */
	run_libpfm(theirs);
	double *ratio = calloc((size_t)rounds, sizeof(double)), *null = calloc((size_t)rounds, sizeof(double));
	double *with = calloc((size_t)rounds, sizeof(double));
	for (int r = 0; r < rounds; r++) {
		/* arms: pmudb, libpfm, libpfm again, pmudb writing messages */
		double t[4];
		for (int k = 0; k < 4; k++) {
			int arm = (r + k) % 4;
			t[arm] = arm == 0 ? run_pmudb(c, false) : arm == 3 ? run_pmudb(c, true) : run_libpfm(theirs);
		}
		ratio[r] = t[1] / t[0];
		null[r] = t[1] / t[2];
		with[r] = t[1] / t[3];
	}
	char label[96], extra[96];
	snprintf(label, sizeof(label), "%s (%zu strings)", what, c->count);
	snprintf(extra, sizeof(extra), "  with messages %.2f", median(with, rounds));
	report(label, ratio, null, rounds, extra);
	free(ratio);
	free(null);
	free(with);
}

static void warm(const char *what, const struct strings *c, int rounds)
{
	warm_paired(what, c, c, rounds);
}

/* ---- the vendors' uncore PMUs ---------------------------------------------- */

/* Each string of a vendor uncore PMU (V::EVENT:UMASK) whose name libpfm has
 * on its box of the same kernel PMU (the box, or box 0, on the same CPUs):
 * pmudb's string in MINE, libpfm's (L::EVENT:UMASK) in THEIRS. */
struct vendor_pairs {
	struct strings mine, theirs;
	char done[256][64];
	int ndone;
};

static int libpfm_box_of(const struct pmudb_cpuid_entry *e, const char *kpmu)
{
	char box0[80];
	snprintf(box0, sizeof(box0), "%s_0", kpmu);
	for (int i = 0; i < e->npmus; i++) {
		int p = pmudb_find_pmu(db, e->pmus[i]);
		struct pmudb_pmu_info pi;
		if (p >= 0 && !pmudb_pmu_info(db, p, &pi) && !pi.source && !strcmp(pi.kind, "uncore") && pi.sysfs_pmu
		    && (!strcmp(pi.sysfs_pmu, kpmu) || !strcmp(pi.sysfs_pmu, box0)))
			return p;
	}
	return -1;
}

static void pair_strings(struct vendor_pairs *vp, int v, int l)
{
	struct pmudb_pmu_info vi, li;
	pmudb_pmu_info(db, v, &vi);
	pmudb_pmu_info(db, l, &li);
	for (int e = 0; e < vi.event_count; e++) {
		struct pmudb_event_info ei;
		if (pmudb_event_info(db, v, e, &ei))
			continue;
		for (int u = ei.umask_count ? 0 : -1; u < ei.umask_count; u++) {
			struct pmudb_umask_info ui;
			char mine[512], theirs[512];
			if (u >= 0 && pmudb_umask_info(db, v, e, u, &ui))
				continue;
			snprintf(mine, sizeof(mine), "%s::%s%s%s", vi.name, ei.name, u >= 0 ? ":" : "", u >= 0 ? ui.name : "");
			snprintf(theirs, sizeof(theirs), "%s::%s%s%s", li.name, ei.name, u >= 0 ? ":" : "",
				 u >= 0 ? ui.name : "");
			struct perf_event_attr attr;
			if (libpfm_ask(theirs, &attr, NULL, NULL) == PFM_SUCCESS) {
				push(&vp->mine, mine);
				push(&vp->theirs, theirs);
			}
		}
	}
}

static int pair_entry(void *ctx, const struct pmudb_cpuid_entry *e)
{
	struct vendor_pairs *vp = ctx;
	for (int i = 0; i < e->npmus; i++) {
		int v = pmudb_find_pmu(db, e->pmus[i]), l;
		struct pmudb_pmu_info vi;
		if (v < 0 || pmudb_pmu_info(db, v, &vi) || strcmp(vi.family, "kernel_format") || !vi.sysfs_pmu
		    || (l = libpfm_box_of(e, vi.sysfs_pmu)) < 0)
			continue;
		bool done = false;
		for (int k = 0; k < vp->ndone && !done; k++)
			done = !strcmp(vp->done[k], vi.name);
		if (done || vp->ndone == 256)
			continue;
		snprintf(vp->done[vp->ndone++], sizeof(vp->done[0]), "%s", vi.name);
		pair_strings(vp, v, l);
	}
	return 0;
}

/* Interleaves RUNS of A against B and B against itself. */
static void processes(const char *what, char *const a[], char *const b[], const char *in, int runs)
{
	double *ratio = calloc((size_t)runs, sizeof(double)), *null = calloc((size_t)runs, sizeof(double));
	double *peak_a = calloc((size_t)runs, sizeof(double)), *peak_b = calloc((size_t)runs, sizeof(double));
	run_process(a, in);
	run_process(b, in);
	for (int r = 0; r < runs; r++) {
		struct usage u[3];
		for (int k = 0; k < 3; k++) {
			int arm = (r + k) % 3;
			u[arm] = run_process(arm == 0 ? a : b, in);
		}
		ratio[r] = u[0].cpu > 0 ? u[1].cpu / u[0].cpu : 0;
		null[r] = u[2].cpu > 0 ? u[1].cpu / u[2].cpu : 0;
		peak_a[r] = (double)u[0].peak_kb / 1024;
		peak_b[r] = (double)u[1].peak_kb / 1024;
	}
	/* the median, and the largest (settle_page_cache says why a run
	 * can differ) */
	double typical_a = median(peak_a, runs), typical_b = median(peak_b, runs);
	/* median() sorted them: the largest is last */
	char extra[128];
	snprintf(extra, sizeof(extra), "  peak memory, median (largest): pmudb %.1f MB (%.1f), libpfm %.1f MB (%.1f)",
		 typical_a, peak_a[runs - 1], typical_b, peak_b[runs - 1]);
	report(what, ratio, null, runs, extra);
	free(ratio);
	free(null);
	free(peak_a);
	free(peak_b);
}

/* libpfm's PMU whose table is largest (events and unit masks), and its
 * first event with a unit mask, as "pmu::event:umask". */
static void largest_event(char *out, size_t size)
{
	int best = -1, best_size = -1;
	for (int p = 0; p < pmudb_pmu_count(db); p++) {
		struct pmudb_pmu_info pi;
		if (pmudb_pmu_info(db, p, &pi) || pi.source)
			continue;
		int n = 0;
		for (int e = 0; e < pi.event_count; e++) {
			struct pmudb_event_info ei;
			if (!pmudb_event_info(db, p, e, &ei))
				n += 1 + ei.umask_count;
		}
		if (n > best_size) {
			best = p;
			best_size = n;
		}
	}
	struct pmudb_pmu_info pi;
	pmudb_pmu_info(db, best, &pi);
	for (int e = 0; e < pi.event_count; e++) {
		struct pmudb_event_info ei;
		struct pmudb_umask_info ui;
		if (!pmudb_event_info(db, best, e, &ei) && ei.umask_count && !pmudb_umask_info(db, best, e, 0, &ui)) {
			snprintf(out, size, "%s::%s:%s", pi.name, ei.name, ui.name);
			return;
		}
	}
	snprintf(out, size, "%s::0", pi.name);
}

/*
 * Drops the page cache of the program at PATH, which nothing of this
 * process maps: a program just written (the build's link, an install)
 * sits in the cache in large folios, and the kernel maps a whole folio
 * at a fault and counts it in the process's peak (right after a build,
 * pmudb's one-event peak read 4.5 MB, 1.6 to 1.8 once read back from
 * disk; README, Speed).  Dropped, each program is read back as any
 * program long installed is: the peak no longer says how long ago it
 * was linked.
 * The libraries this process maps (libpfm's among them) stay as they
 * are: the kernel keeps a mapped page.
 */
static void settle_page_cache(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	/* only clean pages are dropped */
	if (fdatasync(fd) == 0)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

static void cold(char *const argv[], int runs)
{
	char largest[256];
	largest_event(largest, sizeof(largest));
	const char *events[] = { "spr::INST_RETIRED:ANY_P:u", "skx_unc_cha0::UNC_C_CLOCKTICKS", largest };
	const char *kinds[] = { "core", "uncore", "largest table" };
	for (int i = 0; i < 3; i++) {
		char *p[] = { argv[0], "encode", (char *)events[i], NULL };
		char *l[] = { argv[1], (char *)events[i], NULL };
		char what[256];
		snprintf(what, sizeof(what), "%s: %s", kinds[i], events[i]);
		processes(what, p, l, NULL, runs);
	}
}

static void batch(char *const argv[], const struct strings *core, int runs)
{
	char path[] = "/tmp/pmudb-bench-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f || !core->count)
		return;
	const size_t lines = 100000;
	for (size_t i = 0; i < lines; i++)
		fprintf(f, "%s\n", core->items[(i * 7919) % core->count]);
	fclose(f);
	char *p[] = { argv[0], "encode", "--stdin", NULL };
	char *l[] = { argv[2], NULL };
	char what[96];
	snprintf(what, sizeof(what), "%zu core lines through --stdin", lines);
	processes(what, p, l, path, runs);
	unlink(path);
}

/* Keeps this process and its children on the CPU it runs on now; says
 * which, or that it could not (then each arm goes where the kernel puts
 * it, as before). */
static void stay_on_one_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;
	CPU_ZERO(&set);
	if (cpu >= 0)
		CPU_SET(cpu, &set);
	if (cpu < 0 || sched_setaffinity(0, sizeof(set), &set))
		printf("every arm where the kernel puts it (cannot keep to one CPU)\n");
	else
		printf("every arm on CPU %d, the programs it starts too\n", cpu);
}

/* Rounds unless --rounds says otherwise (the header says why). */
#define ROUNDS 16

int main(int argc, char **argv)
{
	int rounds = ROUNDS, opt;
	long sample = 5;
	static const struct option options[] = {
		{ "rounds", required_argument, NULL, 'r' }, { "sample", required_argument, NULL, 's' }, { NULL, 0, NULL, 0 },
	};
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (opt == 'r')
			rounds = atoi(optarg) > 0 ? atoi(optarg) : ROUNDS;
		else if (opt == 's')
			sample = atol(optarg) > 0 ? atol(optarg) : 1;
		else
			return 2;
	}
	if (argc - optind != 4) {
		fputs("usage: bench [--rounds N] [--sample N] PMUDB LIBPFM_ONCE LIBPFM_BATCH SPAWNER\n", stderr);
		return 2;
	}
	/* libpfm encodes every PMU, not only this host's, as the harness does */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	stay_on_one_cpu();
	start_spawner(argv[optind + 3]);
	struct pmudb_error err;
	if (pfm_initialize() != PFM_SUCCESS || !(db = pmudb_open(NULL, &err))) {
		fprintf(stderr, "bench: cannot start\n");
		return 2;
	}
	struct corpus c = { .sample = sample };
	corpus_generate(db, NULL, CORPUS_BASE, collect, &c);
	for (size_t g = 0; g < NGROUPS; g++) {
		lay_out(&c.group[g]);
		lay_out(&c.valid[g]);
		lay_out(&c.refused[g]);
	}
	lay_out(&c.all);
	printf("ratios: libpfm's time / pmudb's time (above 1: pmudb is faster), medians of interleaved rounds\n");
	printf("warm, per string in one process (every %ldth string of the harness corpus, %d rounds):\n", sample, rounds);
	for (size_t g = 0; g < NGROUPS; g++) {
		char what[64];
		warm(groups[g], &c.group[g], rounds);
		snprintf(what, sizeof(what), "  %s, valid", groups[g]);
		warm(what, &c.valid[g], rounds);
		snprintf(what, sizeof(what), "  %s, refused", groups[g]);
		warm(what, &c.refused[g], rounds);
	}
	warm("the harness mix", &c.all, rounds);
	struct vendor_pairs vp = {0};
	struct pmudb_error perr;
	pmudb_cpuid_map(db, pair_entry, &vp, &perr);
	lay_out(&vp.mine);
	lay_out(&vp.theirs);
	printf("warm, the vendors' uncore PMUs (kernel_format) against libpfm's box of the same name, every string"
	       " of the %d PMUs whose names libpfm has:\n", vp.ndone);
	warm_paired("vendor_uncore", &vp.mine, &vp.theirs, rounds);
	for (int i = 0; i < 3; i++)
		settle_page_cache(argv[optind + i]);
	printf("cold, one `pmudb encode EVENT` process against a libpfm program, CPU time (%d runs):\n", rounds * 15);
	cold(argv + optind, rounds * 15);
	printf("batch, CPU time (%d runs):\n", rounds > 5 ? 5 : rounds);
	batch(argv + optind, &c.core, rounds > 5 ? 5 : rounds);
	pmudb_close(db);
	pfm_terminate();
	return 0;
}
