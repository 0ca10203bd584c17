/*
 * harness.c - the differential harness: pmudb against libpfm, string by
 * string, over a corpus built from libpfm's own enumeration.
 *
 * For every PMU and event libpfm lists, the corpus has: the event alone;
 * with each unit mask; with each pair of unit masks; with each modifier at
 * 0 and 1 (boolean) or at its bounds and one past them (integer); and a
 * fixed list of malformed strings.  Both answers are compared field by
 * field (error class, perf_event_attr fields, fstr).  libpfm reads the perf
 * type of uncore PMUs from sysfs; the compiler's sysfs spy (linked in)
 * answers those reads, so uncore PMUs are compared in full too, with the
 * type checked as "the same kernel PMU name".
 *
 * Prints a table per family group and the first disagreements in full;
 * fails, naming the PMU, when a PMU falls below its floor in
 * tests/harness_floor.txt (floors.h: per PMU, no PMU's agreement may fall
 * and none may disagree more; a PMU the file lacks may not disagree at
 * all).  A string whose event or
 * unit mask (asked for, or added by default) an override in tables/
 * corrected is an intended difference: listed by name with the override's
 * source, apart from the disagreements.
 *
 * --print writes the corpus instead, one string a line (every Nth with
 * --sample N, the malformed strings always), for tests that feed it to
 * other programs (test_static: the arm64 binary against the native one).
 * --strings FILE compares FILE's lines ("-": standard input) instead of
 * the corpus, each in the group of the PMU it names: for looking at a
 * class of strings before it joins the corpus.
 *
 * usage: harness [--sample N] [--floor FILE] [--write-floor FILE] [--pmu NAME] [--all FILE] [--db FILE] [--print]
 *                [--strings FILE]
 */
#include <errno.h>
#include <getopt.h>
#include <perfmon/pfmlib_perf_event.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/sysfs_spy.h"
#include "tests/corpus.h"
#include "tests/floors.h"
#include "tests/libpfm_ask.h"
#include "pmudb.h"

#define MAX_SHOWN 5
#define MAX_GROUPS 16

struct group {
	char name[32];
	long tried, agree, disagree, intended;
	int shown;
};

static struct group groups[MAX_GROUPS];
static int ngroups;
static struct pmu_tally *tallies;	/* per PMU, in corpus order */
static int ntallies;
static pmudb_t *db;
static long sample = 1, counter;
static const char *only_pmu;
static FILE *all_out;	/* --all FILE: every disagreement */
static FILE *intended_out;	/* where intended differences are listed (stdout) */
static bool print_only;	/* --print: write the corpus, compare nothing */

static struct group *group_named(const char *name)
{
	for (int i = 0; i < ngroups; i++)
		if (!strcmp(groups[i].name, name))
			return &groups[i];
	if (ngroups == MAX_GROUPS)
		return &groups[MAX_GROUPS - 1];
	snprintf(groups[ngroups].name, sizeof(groups[ngroups].name), "%s", name);
	return &groups[ngroups++];
}

/* The tally of the PMU S names ("malformed" for GROUP malformed).  The
 * corpus gives each PMU's strings together: the last one is looked at
 * first. */
static struct pmu_tally *tally_of(const char *group, const char *s)
{
	char name[64];
	const char *sep = strstr(s, "::");
	size_t n = !strcmp(group, "malformed") || !sep ? 0 : (size_t)(sep - s);
	snprintf(name, sizeof(name), "%.*s", (int)(n ? n : 9), n ? s : "malformed");
	if (ntallies && !strcmp(tallies[ntallies - 1].name, name))
		return &tallies[ntallies - 1];
	for (int i = 0; i < ntallies; i++)
		if (!strcmp(tallies[i].name, name))
			return &tallies[i];
	struct pmu_tally *more = realloc(tallies, (size_t)(ntallies + 1) * sizeof(*more));
	if (!more) {
		fputs("harness: out of memory\n", stderr);
		exit(2);
	}
	tallies = more;
	memset(&tallies[ntallies], 0, sizeof(*tallies));
	snprintf(tallies[ntallies].name, sizeof(tallies[ntallies].name), "%s", name);
	return &tallies[ntallies++];
}

/* libpfm died answering (a positive code: libpfm's errors are negative) */
#define LIBPFM_CRASHED 1

struct answer {
	int error;
	int signal;		/* when LIBPFM_CRASHED */
	struct perf_event_attr attr;
	int cpu;
	char fstr[1024];
	char sysfs[64];
};

static void ask_libpfm_here(const char *s, struct answer *a)
{
	char *fstr = NULL;
	memset(a, 0, sizeof(*a));
	/* a clean errno: libpfm's perf_raw reads a stale one (README) */
	errno = 0;
	a->error = libpfm_ask(s, &a->attr, &fstr, &a->cpu);
	if (!a->error) {
		snprintf(a->fstr, sizeof(a->fstr), "%s", fstr ? fstr : "");
		const char *name = sysfs_spy_name((int)a->attr.type);
		if (name)
			snprintf(a->sysfs, sizeof(a->sysfs), "%s", name);
	}
	free(fstr);
}

/* Past this many attributes libpfm overruns its array (65 unit masks):
 * asked in a child, so that its crash is an answer, not the harness's. */
#define RISKY_ATTRS 60

static bool risky(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == ':';
	return n > RISKY_ATTRS;
}

static void ask_libpfm_in_child(const char *s, struct answer *a)
{
	int fd[2];
	memset(a, 0, sizeof(*a));
	fflush(NULL);
	pid_t pid = pipe(fd) ? -1 : fork();
	if (pid == 0) {
		close(fd[0]);
		ask_libpfm_here(s, a);
		_exit(write(fd[1], a, sizeof(*a)) == (ssize_t)sizeof(*a) ? 0 : 1);
	}
	size_t got = 0;
	if (pid > 0) {
		close(fd[1]);
		ssize_t n;
		while (got < sizeof(*a) && (n = read(fd[0], (char *)a + got, sizeof(*a) - got)) > 0)
			got += (size_t)n;
		close(fd[0]);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		fprintf(stderr, "harness: cannot ask libpfm in a child: %s\n", strerror(errno));
		exit(2);
	}
	if (got != sizeof(*a) || !WIFEXITED(status) || WEXITSTATUS(status)) {
		memset(a, 0, sizeof(*a));
		a->error = LIBPFM_CRASHED;
		a->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	}
}

static void ask_libpfm(const char *s, struct answer *a)
{
	if (risky(s))
		ask_libpfm_in_child(s, a);
	else
		ask_libpfm_here(s, a);
}

static void describe_libpfm(char *buf, size_t n, const struct answer *a)
{
	if (a->error == LIBPFM_CRASHED) {
		snprintf(buf, n, "crashed (signal %d)", a->signal);
		return;
	}
	if (a->error) {
		snprintf(buf, n, "error %s", pmudb_error_name(a->error));
		return;
	}
	const struct perf_event_attr *t = &a->attr;
	snprintf(buf, n, "type=%s%d config=0x%llx config1=0x%llx config2=0x%llx excl(u,k,hv,host,guest)=%d%d%d%d%d "
		 "precise=%d period=%llu freq=%d exclusive=%d pinned=%d cpu=%d fstr=%s",
		 a->sysfs[0] ? a->sysfs : "", a->sysfs[0] ? -1 : (int)t->type, (unsigned long long)t->config,
		 (unsigned long long)t->config1, (unsigned long long)t->config2, t->exclude_user, t->exclude_kernel,
		 t->exclude_hv, t->exclude_host, t->exclude_guest, t->precise_ip, (unsigned long long)t->sample_period,
		 t->freq, t->exclusive, t->pinned, a->cpu, a->fstr);
}

static void describe_pmudb(char *buf, size_t n, int error, const struct pmudb_encoding *e, const char *msg)
{
	if (error) {
		snprintf(buf, n, "error %s (%s)", pmudb_error_name(error), msg);
		return;
	}
	snprintf(buf, n, "type=%s%d config=0x%llx config1=0x%llx config2=0x%llx excl(u,k,hv,host,guest)=%d%d%d%d%d "
		 "precise=%u period=%llu freq=%d exclusive=%d pinned=%d cpu=%d fstr=%s",
		 e->sysfs_pmu, e->sysfs_pmu[0] ? -1 : e->type, (unsigned long long)e->config,
		 (unsigned long long)e->config1, (unsigned long long)e->config2, e->exclude_user, e->exclude_kernel,
		 e->exclude_hv, e->exclude_host, e->exclude_guest, e->precise_ip, (unsigned long long)e->sample_period,
		 e->freq, e->exclusive, e->pinned, e->cpu, e->fstr);
}

static bool same(const struct answer *a, int error, const struct pmudb_encoding *e)
{
	if (a->error || error)
		return a->error == error;
	const struct perf_event_attr *t = &a->attr;
	bool type_ok = a->sysfs[0] ? !strcmp(a->sysfs, e->sysfs_pmu) : (int)t->type == e->type && !e->sysfs_pmu[0];
	return type_ok && t->config == e->config && t->config1 == e->config1 && t->config2 == e->config2
	       && t->exclude_user == e->exclude_user && t->exclude_kernel == e->exclude_kernel
	       && t->exclude_hv == e->exclude_hv && t->exclude_host == e->exclude_host
	       && t->exclude_guest == e->exclude_guest && t->precise_ip == e->precise_ip
	       && t->sample_period == e->sample_period && t->freq == e->freq && t->exclusive == e->exclusive
	       && t->pinned == e->pinned && a->cpu == e->cpu && !strcmp(a->fstr, e->fstr);
}

/* The override source of a unit mask of PMU P's event E named in the
 * attributes ATTRS (':' or '.' separated), or NULL. */
static const char *umask_why(int p, int e, const char *attrs)
{
	struct pmudb_event_info ei;
	if (pmudb_event_info(db, p, e, &ei))
		return NULL;
	char copy[1024];
	snprintf(copy, sizeof(copy), "%s", attrs);
	for (char *save = NULL, *t = strtok_r(copy, ":.", &save); t; t = strtok_r(NULL, ":.", &save))
		for (int u = 0; u < ei.umask_count; u++) {
			struct pmudb_umask_info ui;
			if (!pmudb_umask_info(db, p, e, u, &ui) && ui.why && !strcasecmp(ui.name, t))
				return ui.why;
		}
	return NULL;
}

/* Why S's answer is meant to differ from libpfm's, or NULL: an override
 * corrected its event, or a unit mask in S or in pmudb's FSTR. */
static const char *corrected(const char *s, const char *fstr)
{
	int p, e;
	struct pmudb_event_info ei;
	if (pmudb_find_event(db, s, NULL, &p, &e, NULL) || pmudb_event_info(db, p, e, &ei))
		return NULL;
	if (ei.why)
		return ei.why;
	const char *after = strstr(s, "::");
	after = strpbrk(after ? after + 2 : s, ":.");
	const char *why = after ? umask_why(p, e, after) : NULL;
	/* the final unit masks, of the event the string stood for (tmt's OCR
	 * is OFFCORE_RESPONSE_0) */
	const char *fattrs = fstr ? strstr(fstr, "::") : NULL;
	if (!why && fattrs && (fattrs = strchr(fattrs + 2, ':')) && !pmudb_find_event(db, fstr, NULL, &p, &e, NULL))
		why = umask_why(p, e, fattrs);
	return why;
}

/* The finding F's encoding as the catalog holds it: the vendor's for an
 * entry it added or an override corrected, else libpfm's. */
static bool holds_vendors(const struct pmudb_finding *f)
{
	return !strcmp(f->match, "vendor_only") || (f->explained && !strcmp(f->explained, "corrected"));
}

struct named {
	const char *name;	/* the dotted name, up to its attributes */
	size_t len;
	const struct pmudb_encoding *e;
	/* of the finding that names it and gives E's encoding, copied: a
	 * finding's texts last only as long as the call that gives it */
	char file[512];
};

static int finding_named(void *ctx, const struct pmudb_finding *f)
{
	struct named *n = ctx;
	if (!f->vendor_name || strlen(f->vendor_name) != n->len || strncasecmp(f->vendor_name, n->name, n->len))
		return 0;
	uint64_t config = holds_vendors(f) ? f->vendor_config : f->libpfm_config;
	uint64_t config1 = holds_vendors(f) ? f->vendor_config1 : f->libpfm_config1;
	if (n->e->config == config && n->e->config1 == config1)
		snprintf(n->file, sizeof(n->file), "%s", f->vendor_file);
	return n->file[0] != '\0';
}

/* Where libpfm refuses S and pmudb encodes it as E: the vendor's file when
 * S's event is a vendor's dotted name that a finding about the event it
 * starts with (up to its first dot) names, with E the encoding that
 * finding gives; else NULL. */
static const char *vendor_named(const char *s, const struct pmudb_encoding *e)
{
	static struct named n;
	const char *name = strstr(s, "::");
	name = name ? name + 2 : s;
	n = (struct named){ name, strcspn(name, ":"), e, "" };
	const char *dot = memchr(name, '.', n.len);
	char first[600];
	int p, ev;
	if (!dot || snprintf(first, sizeof(first), "%.*s", (int)(dot - s), s) >= (int)sizeof(first)
	    || pmudb_find_event(db, first, NULL, &p, &ev, NULL))
		return NULL;
	pmudb_event_findings(db, p, ev, finding_named, &n);
	return n.file[0] ? n.file : NULL;
}

static void compare(struct group *g, struct pmu_tally *t, const char *s)
{
	if (counter++ % sample)
		return;
	struct answer a;
	struct pmudb_encoding e;
	struct pmudb_error err;
	ask_libpfm(s, &a);
	/* every other string as a caller that wants no message (pmudb then
	 * writes none): the answer must not depend on it */
	bool quiet = counter / sample % 2;
	int r = pmudb_encode(db, s, NULL, &e, quiet ? NULL : &err);
	g->tried++;
	t->tried++;
	if (same(&a, r, &e)) {
		g->agree++;
		t->agree++;
		return;
	}
	if (quiet && pmudb_encode(db, s, NULL, &e, &err) != r)
		snprintf(err.message, sizeof(err.message), "without a message %d, with one %d", r, err.code);
	const char *why = corrected(s, r ? NULL : e.fstr);
	/* where libpfm crashes, an error is the answer no caller can want less */
	bool crash = !why && a.error == LIBPFM_CRASHED && r;
	/* a vendor's name libpfm cannot read: pmudb gives the vendor's meaning */
	const char *vendor = !why && !r && a.error && a.error != LIBPFM_CRASHED ? vendor_named(s, &e) : NULL;
	if (why || crash || vendor) {
		g->intended++;
		t->intended++;
		if (intended_out && crash)
			fprintf(intended_out, "INTENDED [%s] %.300s: libpfm crashes on it (signal %d: it overruns its"
				" attribute array); pmudb refuses it (%s)\n", g->name, s, a.signal, err.message);
		else if (intended_out && vendor)
			fprintf(intended_out, "INTENDED [%s] %.300s: a vendor's name libpfm does not read (%s), encoded as"
				" that list gives\n", g->name, s, vendor);
		else if (intended_out)
			fprintf(intended_out, "INTENDED [%s] %.300s: corrected by %s\n", g->name, s, why);
		return;
	}
	g->disagree++;
	if (!t->disagree++)
		snprintf(t->first, sizeof(t->first), "%.300s", s);
	if (g->shown++ < MAX_SHOWN || all_out) {
		char l[2048], p[2048];
		describe_libpfm(l, sizeof(l), &a);
		describe_pmudb(p, sizeof(p), r, &e, err.message);
		FILE *f = g->shown <= MAX_SHOWN ? stdout : all_out;
		fprintf(f, "DISAGREE [%s] %.300s\n  libpfm: %s\n  pmudb:  %s\n", g->name, s, l, p);
		if (f == stdout && all_out)
			fprintf(all_out, "DISAGREE [%s] %.300s\n  libpfm: %s\n  pmudb:  %s\n", g->name, s, l, p);
	}
}

static void on_string(void *ctx, const char *group, const char *s)
{
	(void)ctx;
	if (print_only) {
		if (!strcmp(group, "malformed") || counter++ % sample == 0)
			puts(s);
		return;
	}
	compare(group_named(group), tally_of(group, s), s);
}

/* The family group of the PMU S names, "malformed" when it names none. */
static const char *group_of(const char *s)
{
	int p, e;
	struct pmudb_pmu_info pi;
	if (pmudb_find_event(db, s, NULL, &p, &e, NULL) || pmudb_pmu_info(db, p, &pi) || !pi.family_group)
		return "malformed";
	return pi.family_group;
}

/* Compares each line of FILE ("-": standard input).  0, or 2 when it
 * cannot be read. */
static int compare_lines(const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!f) {
		fprintf(stderr, "harness: cannot read %s: %s\n", file, strerror(errno));
		return 2;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		const char *group = group_of(line);
		compare(group_named(group), tally_of(group, line), line);
	}
	bool failed = ferror(f);
	free(line);
	if (f != stdin)
		fclose(f);
	if (failed)
		fprintf(stderr, "harness: cannot read %s\n", file);
	return failed ? 2 : 0;
}

/* ---- report and floors --------------------------------------------------- */

static void print_groups(void)
{
	printf("\n%-18s %10s %10s %10s %10s\n", "family group", "tried", "agree", "intended", "disagree");
	long tried = 0, agree = 0, disagree = 0, intended = 0;
	for (int i = 0; i < ngroups; i++) {
		const struct group *g = &groups[i];
		printf("%-18s %10ld %10ld %10ld %10ld\n", g->name, g->tried, g->agree, g->intended, g->disagree);
		tried += g->tried;
		agree += g->agree;
		disagree += g->disagree;
		intended += g->intended;
	}
	printf("%-18s %10ld %10ld %10ld %10ld\n", "all", tried, agree, intended, disagree);
}

static bool groups_disagree(void)
{
	for (int i = 0; i < ngroups; i++)
		if (groups[i].disagree)
			return true;
	return false;
}

/* Every PMU against its floor; returns how many fall below. */
static int check_floors(const char *file)
{
	struct floors f;
	if (floors_load(file, &f))
		exit(2);
	const char *mine = pmudb_meta(db, "libpfm_fingerprint");
	if (f.fingerprint[0] && mine && strcmp(f.fingerprint, mine))
		printf("\nthe floors were measured with libpfm enumeration %s, this catalog's is %s: a PMU %s lacks\n"
		       "may not disagree at all; one whose corpus lost strings keeps its floor less that loss\n",
		       f.fingerprint, mine, file);
	int below = 0, unlisted = 0;
	for (int i = 0; i < ntallies; i++) {
		bool listed = false;
		for (int k = 0; k < f.count && !listed; k++)
			listed = !strcmp(f.lines[k].name, tallies[i].name);
		unlisted += !listed;
		below += !floors_check(&f, &tallies[i], sample > 1, file, stdout);
	}
	printf("floors (%s%s): %d PMUs, %d of them not in the file; %d below their floor\n", file,
	       sample > 1 ? ", sampled: disagreements only" : "", ntallies, unlisted, below);
	floors_free(&f);
	return below;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "sample", required_argument, NULL, 's' }, { "floor", required_argument, NULL, 'f' },
		{ "write-floor", required_argument, NULL, 'w' }, { "pmu", required_argument, NULL, 'p' },
		{ "db", required_argument, NULL, 'd' }, { "all", required_argument, NULL, 'a' },
		{ "print", no_argument, NULL, 'P' }, { "strings", required_argument, NULL, 'S' }, { NULL, 0, NULL, 0 },
	};
	const char *floor_file = NULL, *write_floor = NULL, *catalog = NULL, *strings = NULL;
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 's': sample = atol(optarg) > 0 ? atol(optarg) : 1; break;
		case 'f': floor_file = optarg; break;
		case 'w': write_floor = optarg; break;
		case 'p': only_pmu = optarg; break;
		case 'd': catalog = optarg; break;
		case 'a': all_out = fopen(optarg, "w"); break;
		case 'P': print_only = true; break;
		case 'S': strings = optarg; break;
		default: return 2;
		}
	}
	if (strings && (print_only || floor_file || write_floor || only_pmu)) {
		fprintf(stderr, "harness: --strings takes none of --print, --floor, --write-floor, --pmu\n");
		return 2;
	}
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	struct pmudb_error err;
	if (pfm_initialize() != PFM_SUCCESS || !(db = pmudb_open(catalog, &err))) {
		fprintf(stderr, "harness: cannot start: %s\n", db ? "libpfm" : err.message);
		return 2;
	}
	if (print_only) {
		corpus_generate(db, only_pmu, CORPUS_ALL, on_string, NULL);
		pmudb_close(db);
		pfm_terminate();
		return fflush(stdout) ? 2 : 0;
	}
	intended_out = stdout;
	printf("intended differences (strings an override in tables/ corrects, with its source):\n");
	if (strings) {
		int r = compare_lines(strings);
		print_groups();
		pmudb_close(db);
		pfm_terminate();
		return r ? r : groups_disagree() ? 1 : 0;
	}
	corpus_generate(db, only_pmu, CORPUS_ALL, on_string, NULL);

	print_groups();
	int below = floor_file ? check_floors(floor_file) : 0;
	if (write_floor && (sample > 1 || only_pmu)) {
		fprintf(stderr, "harness: --write-floor needs the whole corpus (no --sample, no --pmu)\n");
		below = -1;
	} else if (write_floor && floors_write(write_floor, pmudb_meta(db, "libpfm_version"),
					       pmudb_meta(db, "libpfm_fingerprint"), tallies, ntallies)) {
		fprintf(stderr, "harness: cannot write %s\n", write_floor);
		below = -1;
	}
	free(tallies);
	pmudb_close(db);
	pfm_terminate();
	return below < 0 ? 2 : below ? 1 : 0;
}
