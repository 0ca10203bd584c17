/*
 * main.c - pmudb-build: compiles libpfm's tables, the vendors' event lists
 * and the YAML tables into one SQLite catalog.
 *
 * The flow: ingest (libpfm) and vendor_tree (the vendor lists) fill one
 * model; the tables name families, vendor PMUs and the CPUID map; derive
 * learns libpfm's hidden rules from its encoder; vendor_build makes the
 * vendor PMUs on those rules; the overrides correct the tables; reconcile
 * compares libpfm with the vendors and adds what only they list; emit
 * writes SQLite; last, the runtime opens the new catalog and encodes every
 * bare string into it (name_encodings).
 *
 * The catalog is written to a temporary file beside the target, checked,
 * and renamed over the target only when complete: a failed or interrupted
 * build leaves the previous catalog as it was.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <perfmon/pfmlib.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compiler/name_encodings.h"
#include "compiler/derive.h"
#include "compiler/emit.h"
#include "compiler/family_check.h"
#include "compiler/fingerprint.h"
#include "compiler/emit_image.h"
#include "compiler/ingest.h"
#include "compiler/model.h"
#include "compiler/out_target.h"
#include "compiler/reconcile.h"
#include "compiler/tables.h"
#include "compiler/twins.h"
#include "compiler/vendor_build.h"
#include "compiler/vendor_metrics.h"
#include "compiler/counters.h"
#include "compiler/vendor_tree.h"
#include "compiler/vendor_uncore.h"

#define EXIT_BUILD_FAILED 1
#define EXIT_USAGE 2

static const char usage[] =
	"usage: pmudb-build [--tables PATH]... [--pmu-events DIR [--pmu-events-origin TEXT]]... [--kernel-source DIR]\n"
	"                   [--out FILE] [--quiet]\n"
	"       pmudb-build --image-of CATALOG --out FILE\n"
	"\n"
	"Reads every PMU, event and unit mask of the installed libpfm4, derives the\n"
	"rules its API does not expose by asking its encoder, adds the vendors' own\n"
	"event lists, applies the YAML tables (families, vendor PMUs, CPUID map,\n"
	"overrides) and writes one SQLite catalog.\n"
	"\n"
	"  --tables PATH     a directory of *.yaml tables, or one YAML file; may be\n"
	"                    repeated (default: tables)\n"
	"  --pmu-events DIR  the vendors' event lists: perf's pmu-events tree\n"
	"                    (tools/perf/pmu-events/arch of a Linux kernel, or the\n"
	"                    kernel's source), a checkout of ARM-software/data or a\n"
	"                    checkout of Intel's perfmon repository\n"
	"                    May be repeated: where several have a µarch, the newest\n"
	"                    list is encoded (the higher version, else the later\n"
	"                    date, else the one given later) and the others are kept\n"
	"                    as its history (pmudb sources)\n"
	"  --pmu-events-origin TEXT  what the --pmu-events before it is, as --version\n"
	"                    and pmudb sources print it (say\n"
	"                    'Debian linux-source-6.12 6.12.57-1'); default: its absolute path\n"
	"  --kernel-source DIR  a Linux source tree (its arch/x86/events/): the\n"
	"                    uncore drivers' format attributes, which encode the\n"
	"                    vendors' uncore entries (tables/uncore.yaml); without\n"
	"                    it they are left out\n"
	"  --out FILE        catalog to write (default: build/pmudb.db; a regular file or\n"
	"                    none, not an input; a symbolic link is followed); replaced only\n"
	"                    when the new one is complete and verified\n"
	"  --quiet           print nothing but errors\n"
	"  --image-of CATALOG  write the built-in image of a built catalog to FILE:\n"
	"                    its packed blobs, unpacked, which the library links\n"
	"                    beside it and reads in place\n"
	"  --help            this text\n"
	"\n"
	"Exit status: 0 built, 1 build failed (the message names the input at fault;\n"
	"FILE:LINE:COLUMN for the tables), 2 usage error.\n";

/* The temporary file, for the signal handler to remove. */
static char temp_path[4096];

static void remove_temp_and_exit(int sig)
{
	if (temp_path[0])
		unlink(temp_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Pairs of unit masks whose measured registers do not add up to libpfm's
 * encoding: pmudb would differ there, so the build says so. */
static void note_config_misses(struct model *m, const struct pmu *p)
{
	int misses = 0;
	for (size_t i = 0; i < p->events.count; i++)
		misses += p->events.items[i].config_misses;
	if (misses)
		model_note(m, "%s: %d unit-mask pair%s of libpfm's encoding differ from what the measured registers give",
			   p->name, misses, misses == 1 ? "" : "s");
}

/* Derives the libpfm PMUs not derived yet (with FIRST_ONLY those marked
 * derive_first); a twin of an earlier one (one table under two names:
 * the CHA boxes) takes its rules.  Returns how many did. */
static size_t derive_all(struct model *m, bool progress, bool first_only)
{
	size_t shared = 0;
	for (size_t i = 0; i < m->pmus.count; i++) {
		struct pmu *p = &m->pmus.items[i];
		if (p->source || p->derived || (first_only && !p->derive_first))
			continue;	/* a vendor PMU: vendor_build.c makes it */
		p->derived = true;
		if (progress)
			fprintf(stderr, "\rpmudb-build: deriving rules %zu/%zu PMUs (%s)\033[K", i + 1, m->pmus.count,
				p->name);
		const struct pmu *twin = twins_find(m, p);
		if (twin && derive_pmu_twin(p, twin)) {
			shared++;
			continue;
		}
		if (twin)
			model_note(m, "%s has %s's table but does not encode as it does: derived on its own", p->name,
				   twin->name);
		derive_pmu(p);
		note_config_misses(m, p);
	}
	if (progress)
		fputs("\r\033[K", stderr);
	return shared;
}

/* Re-reads the written file: SQLite's integrity check and the counts. */
static int verify(const char *path, const struct emit_stats *st, char **error)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *q = NULL;
	int ok = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK
		 && sqlite3_prepare_v2(db,
				       "SELECT (SELECT group_concat(integrity_check) FROM pragma_integrity_check),"
				       " (SELECT count(*) FROM pmu), (SELECT count(*) FROM pmu_event),"
				       " (SELECT count(*) FROM pmu_event_umask)", -1, &q, NULL) == SQLITE_OK
		 && sqlite3_step(q) == SQLITE_ROW;
	if (!ok) {
		*error = xprintf("%s: cannot verify the new catalog: %s", path, sqlite3_errmsg(db));
	} else if (strcmp((const char *)sqlite3_column_text(q, 0), "ok")) {
		*error = xprintf("%s: integrity check failed: %s", path, sqlite3_column_text(q, 0));
		ok = 0;
	} else if (sqlite3_column_int64(q, 1) != st->pmus || sqlite3_column_int64(q, 2) != st->events
		   || sqlite3_column_int64(q, 3) != st->umasks) {
		*error = xprintf("%s: reads back %lld PMUs, %lld events, %lld unit masks; wrote %ld, %ld, %ld", path,
				 sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2), sqlite3_column_int64(q, 3),
				 st->pmus, st->events, st->umasks);
		ok = 0;
	}
	sqlite3_finalize(q);
	sqlite3_close(db);
	return ok ? 0 : -1;
}

static int sync_path(const char *path, int flags)
{
	int fd = open(path, flags);
	if (fd < 0)
		return -1;
	int r = fsync(fd);
	close(fd);
	return r;
}

/* OUT's temporary file into BUF: beside it, for the rename to stay on one
 * file system, its name cut where OUT's own and ".tmp.PID" would pass
 * NAME_MAX. */
static void temp_of(char *buf, size_t size, const char *out, long pid)
{
	const char *base = strrchr(out, '/');
	base = base ? base + 1 : out;
	char suffix[32];
	int n = snprintf(suffix, sizeof(suffix), ".tmp.%ld", pid);
	size_t keep = strlen(base);
	if (keep + (size_t)n > NAME_MAX)
		keep = NAME_MAX - (size_t)n;
	snprintf(buf, size, "%.*s%s", (int)((size_t)(base - out) + keep), out, suffix);
}

static void temp_beside(char *buf, size_t size, const char *out)
{
	temp_of(buf, size, out, (long)getpid());
}

/* Removes what a build killed before it could clean up left beside OUT:
 * OUT's temporary files of processes that are gone (a live one's is its
 * own). */
static void remove_stale_temps(const char *out)
{
	char *copy = xstrdup(out);
	const char *dir = strchr(out, '/') ? dirname(copy) : ".";
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		const char *dot = strstr(e->d_name, ".tmp.");
		char *end;
		long pid = dot ? strtol(dot + 5, &end, 10) : 0;
		if (pid <= 0 || *end || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char temp[PATH_MAX], path[PATH_MAX];
		temp_of(temp, sizeof(temp), out, pid);
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		/* exactly the name this build would have made, with that PID */
		if (!strcmp(strrchr(temp, '/') ? strrchr(temp, '/') + 1 : temp, e->d_name))
			unlink(path);
	}
	if (d)
		closedir(d);
	free(copy);
}

/* Moves the verified TEMP over OUT, durably, with OUT's mode. */
static int install(const char *temp, const char *out, char **error)
{
	char *dir = xstrdup(out);
	out_keep_mode(temp, out);
	int r = sync_path(temp, O_RDONLY) || rename(temp, out) || sync_path(dirname(dir), O_RDONLY | O_DIRECTORY);
	if (r)
		*error = xprintf("%s: cannot install the new catalog: %s", out, strerror(errno));
	free(dir);
	return r ? -1 : 0;
}

static void print_sources(const struct model *m)
{
	long libpfm_events = 0, vendor_events = 0, vendor_pmus = 0, uarchs = 0;
	for (size_t i = 0; i < m->pmus.count; i++) {
		const struct pmu *p = &m->pmus.items[i];
		vendor_pmus += p->source != NULL;
		for (size_t j = 0; j < p->events.count; j++) {
			const struct event *ev = &p->events.items[j];
			long n = ev->umasks.count ? (long)ev->umasks.count : 1;
			if (ev->source)
				vendor_events += n;
			else
				libpfm_events += n;
		}
	}
	for (size_t i = 0; i < m->uarchs.count; i++)
		uarchs += m->uarchs.items[i].mapped;
	if (m->vendor_tree)
		printf("pmudb-build: vendor tree %s (%s layout): %zu µarchs, %ld mapped; %ld vendor PMUs\n"
		       "             encodings (events or unit masks): %ld from libpfm, %ld from the vendor lists\n",
		       m->vendor_tree, m->vendor_layout, m->uarchs.count, uarchs, vendor_pmus, libpfm_events, vendor_events);
}

/* The reconciliation in all, and each PMU with a difference unexplained
 * (the catalog's reconcile_summary has every PMU). */
static void print_reconciliation(const struct model *m)
{
	struct reconcile_count counts[256], all;
	memset(&all, 0, sizeof(all));
	size_t n = reconcile_counts(m, counts, 256);
	for (size_t i = 0; i < n; i++) {
		const struct reconcile_count *c = &counts[i];
		all.agree += c->agree;
		all.differ += c->differ;
		all.corrected += c->corrected;
		all.equivalent += c->equivalent;
		all.by_design += c->by_design;
		all.vendor_error += c->vendor_error;
		all.kept += c->kept;
		all.unexplained += c->unexplained;
		all.other_name += c->other_name;
		all.vendor_only += c->vendor_only;
		all.added += c->added;
		all.libpfm_only += c->libpfm_only;
		if (c->unexplained)
			printf("pmudb-build: reconcile %s with %s: %lld differences unexplained (see the notes)\n", c->pmu,
			       c->uarch, (long long)c->unexplained);
	}
	if (n)
		printf("pmudb-build: reconciled %zu libpfm PMUs with their vendor lists: %lld names agree, %lld differ"
		       " (%lld corrected, %lld equivalent, %lld by design, %lld the vendor's error, %lld kept, %lld unexplained),\n"
		       "             %lld vendor names have libpfm's encodings under other names (aliases now), %lld are"
		       " vendor-only (%lld added), %lld libpfm strings are libpfm's only\n", n, (long long)all.agree,
		       (long long)all.differ, (long long)all.corrected, (long long)all.equivalent, (long long)all.by_design,
		       (long long)all.vendor_error, (long long)all.kept, (long long)all.unexplained, (long long)all.other_name,
		       (long long)all.vendor_only, (long long)all.added, (long long)all.libpfm_only);
}

/* What the catalog is built from, before the tables change anything. */
static int fingerprint_inputs(struct model *m, const struct tables *t, char **error)
{
	size_t n = 0;
	while (tables_path(t, n))
		n++;
	const char **paths = calloc(n + 1, sizeof(*paths));
	for (size_t i = 0; paths && i < n; i++)
		paths[i] = tables_path(t, i);
	m->libpfm_fingerprint = fingerprint_libpfm(m);
	m->tables_fingerprint = paths ? fingerprint_files(paths, n) : NULL;
	m->vendor_fingerprint = fingerprint_vendor(m);
	free(paths);
	if (!m->tables_fingerprint)
		*error = xstrdup("pmudb-build: cannot read the tables again to fingerprint them");
	return m->tables_fingerprint ? 0 : -1;
}

/* The --pmu-events directories, each with its --pmu-events-origin. */
struct vendor_args {
	const char *dir[64], *origin[64];
	int count;
};

static int build(char **tables, int table_count, const struct vendor_args *vendor, const char *kernel_source,
		 const char *out, bool quiet, char **error)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct model m = {0};
	struct emit_stats st;
	long strings = 0;
	char err[512] = "";

	struct tables *t = tables_load(tables, table_count, error);
	int r = !t;
	m.kernel_source = kernel_source ? xstrdup(kernel_source) : NULL;
	if (!r && (r = ingest_libpfm(&m, err, sizeof(err))))
		*error = xstrdup(err);
	for (int i = 0; !r && i < vendor->count; i++)
		r = vendor_tree_read(&m, vendor->dir[i], vendor->origin[i], error);
	r = r || fingerprint_inputs(&m, t, error);
	r = r || tables_apply(t, &m, TABLES_BEFORE_DERIVE, error) || families_check(&m, stderr, error);
	size_t twins = 0, libpfm_pmus = m.pmus.count;
	double derive_seconds = 0;
	struct timespec d0;
	bool progress = !quiet && isatty(STDERR_FILENO);
	/* what the tables need first: a mistake in them stops the build
	 * before the other PMUs are derived */
	if (!r) {
		clock_gettime(CLOCK_MONOTONIC, &d0);
		for (size_t i = 0; i < m.pmus.count; i++)
			libpfm_pmus -= m.pmus.items[i].source != NULL;
		tables_mark_derive_first(t, &m);
		twins = derive_all(&m, progress, true);
		derive_seconds = seconds_since(&d0);
	}
	r = r || vendor_build(&m, error) || tables_apply(t, &m, TABLES_AFTER_DERIVE, error);
	if (!r)
		counters_derive(&m);
	vendor_uncore_finish(&m);
	vendor_metrics_check(&m);
	if (!r) {
		clock_gettime(CLOCK_MONOTONIC, &d0);
		twins += derive_all(&m, progress, false);
		derive_seconds += seconds_since(&d0);
	}
	if (!r) {
		derive_kernel_types(&m);
		reconcile(&m);
		reconcile_uncore(&m);
		reconcile_explain(&m);
	}
	tables_free(t);

	if (!r) {
		temp_beside(temp_path, sizeof(temp_path), out);
		unlink(temp_path);
		r = emit_catalog(&m, temp_path, &st, error) || name_encodings_fill(temp_path, &strings, error)
		    || verify(temp_path, &st, error) || install(temp_path, out, error);
		if (r)
			unlink(temp_path);
		temp_path[0] = '\0';
	}
	if (!r && !quiet) {
		struct stat sb;
		stat(out, &sb);
		printf("pmudb-build: libpfm %s (enumeration %s): %ld PMUs, %ld events, %ld unit masks\n", m.libpfm_version,
		       m.libpfm_fingerprint, st.libpfm_pmus, st.libpfm_events, st.libpfm_umasks);
		if (st.pmus != st.libpfm_pmus || st.events != st.libpfm_events)
			printf("pmudb-build: with the vendor lists: %ld PMUs, %ld events, %ld unit masks\n", st.pmus,
			       st.events, st.umasks);
		printf("pmudb-build: stored as %ld event tables (%ld events, %ld unit masks) and %ld modifier sets,\n"
		       "             shared where PMUs are identical\n",
		       st.event_tables, st.stored_events, st.stored_umasks, st.modifier_sets);
		printf("pmudb-build: %ld bare strings encoded by the runtime (the encoding view)\n", strings);
		printf("pmudb-build: rules derived from libpfm's encoder for %zu PMUs in %.1f s; %zu of them share an\n"
		       "             earlier PMU's table and took its rules\n", libpfm_pmus, derive_seconds, twins);
		printf("pmudb-build: tables: %zu overrides applied, %zu CPUID map entries\n", m.overrides.count,
		       m.cpuid.count);
		printf("pmudb-build: unit-mask pairs not following the default rule: %ld\n", st.pair_rule_misses);
		print_sources(&m);
		print_reconciliation(&m);
		for (size_t i = 0; i < m.notes.count; i++)
			printf("pmudb-build: note: %s\n", m.notes.items[i]);
		printf("pmudb-build: wrote %s (%lld bytes) in %.1f s\n", out, (long long)sb.st_size, seconds_since(&t0));
	}
	model_free(&m);
	return r ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "tables", required_argument, NULL, 't' },
		{ "pmu-events", required_argument, NULL, 'e' },
		{ "pmu-events-origin", required_argument, NULL, 'g' },
		{ "kernel-source", required_argument, NULL, 'k' },
		{ "out", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "image-of", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *default_tables[] = { "tables" };
	char **tables = calloc((size_t)argc, sizeof(*tables));
	int table_count = 0;
	const char *out = NULL, *image_of = NULL, *kernel_source = NULL;
	struct vendor_args vendor = { .count = 0 };
	bool quiet = false;
	int c;
	while ((c = getopt_long(argc, argv, "t:e:o:qh", options, NULL)) != -1) {
		switch (c) {
		case 't': tables[table_count++] = optarg; break;
		case 'o': out = optarg; break;
		case 'e':
			if (vendor.count == (int)(sizeof(vendor.dir) / sizeof(vendor.dir[0]))) {
				fprintf(stderr, "pmudb-build: more than 64 --pmu-events\n");
				free(tables);
				return EXIT_USAGE;
			}
			vendor.dir[vendor.count++] = optarg;
			break;
		case 'g':
			if (!vendor.count || vendor.origin[vendor.count - 1]) {
				fprintf(stderr, "pmudb-build: --pmu-events-origin names the --pmu-events just before it\n%s",
					usage);
				free(tables);
				return EXIT_USAGE;
			}
			vendor.origin[vendor.count - 1] = optarg;
			break;
		case 'k': kernel_source = optarg; break;
		case 'q': quiet = true; break;
		case 'i': image_of = optarg; break;
		case 'h': fputs(usage, stdout); free(tables); return 0;
		default: fputs(usage, stderr); free(tables); return EXIT_USAGE;
		}
	}
	if (!table_count) {
		free(tables);
		tables = default_tables;
		table_count = 1;
	}
	if (optind != argc) {
		fprintf(stderr, "pmudb-build: unexpected argument '%s'\n%s", argv[optind], usage);
		if (tables != default_tables)
			free(tables);
		return EXIT_USAGE;
	}
	if (image_of && (!out || vendor.count || kernel_source || tables != default_tables)) {
		fprintf(stderr, "pmudb-build: --image-of takes --out FILE and nothing else\n%s", usage);
		if (tables != default_tables)
			free(tables);
		return EXIT_USAGE;
	}
	char *error = NULL;
	char *const *inputs = image_of ? (char *const *)&image_of : tables;
	char *target = out_target(out ? out : "build/pmudb.db", inputs, image_of ? 1 : table_count, &error);
	if (!target) {
		fprintf(stderr, "%s\n", error);
		free(error);
		if (tables != default_tables)
			free(tables);
		return EXIT_USAGE;
	}
	remove_stale_temps(target);
	signal(SIGINT, remove_temp_and_exit);
	signal(SIGTERM, remove_temp_and_exit);
	signal(SIGHUP, remove_temp_and_exit);
	signal(SIGQUIT, remove_temp_and_exit);
	if (image_of) {
		temp_beside(temp_path, sizeof(temp_path), target);
		int failed = image_write(image_of, target, temp_path, &error);
		temp_path[0] = '\0';
		if (failed)
			fprintf(stderr, "pmudb-build: %s\n", error ? error : "out of memory");
		free(error);
		free(target);
		return failed ? EXIT_BUILD_FAILED : 0;
	}

	/* Encode every PMU, not only those of the build host. */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	int r = pfm_initialize();
	if (r != PFM_SUCCESS) {
		fprintf(stderr, "pmudb-build: libpfm: %s\n", pfm_strerror(r));
		return EXIT_BUILD_FAILED;
	}
	r = build(tables, table_count, &vendor, kernel_source, target, quiet, &error);
	free(target);
	if (r)
		fprintf(stderr, "%s\n", error ? error : "pmudb-build: failed");
	free(error);
	if (tables != default_tables)
		free(tables);
	pfm_terminate();
	return r ? EXIT_BUILD_FAILED : 0;
}
