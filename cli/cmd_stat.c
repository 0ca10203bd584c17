/*
 * cmd_stat.c - pmudb stat: open the catalog's encodings with
 * perf_event_open(2) on this machine and count them around a command, in a
 * running process (-p) or on every CPU (-a).
 *
 * The point is to prove an encoding where it will be used, so each event is
 * opened exactly as encoded (no modifier dropped, no fallback), and every
 * refusal is one line naming the event and saying why in the user's terms:
 * the machine has no such PMU, perf_event_paranoid forbids it (with its
 * value and what would allow it), or the kernel refused the attr (printed).
 *
 * Flow: parse -e arguments into groups, encode them (catalog errors are
 * reported before anything runs), start the command stopped (it waits on a
 * pipe), open every counter on it, let it exec (the leaders are
 * enable_on_exec, so pmudb's own work between fork and exec is not
 * counted), wait for it with ppoll (printing intervals), read and print.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "cli/cli.h"
#include "cli/stat_metrics.h"

static const char help[] =
	"usage: pmudb stat [-e EVENT]... [--group] [--json] [-I MS] [-o FILE] -- COMMAND [ARGS]\n"
	"       pmudb stat [-e EVENT]... -p PID [-- COMMAND [ARGS]]\n"
	"       pmudb stat [-e EVENT]... -a [-- COMMAND [ARGS]]\n"
	"\n"
	"Encodes each EVENT with the catalog, opens it with perf_event_open(2) on this\n"
	"machine, runs COMMAND (its children are counted too) and prints each count with\n"
	"time_enabled and time_running, and the value scaled to the whole time when the\n"
	"kernel multiplexed the counter.\n"
	"\n"
	"  -e, --event EVENT   an event to count; may repeat; 'a,b' is two events, '{a,b}' a\n"
	"                      group (counted together, the first is the leader)\n"
	"  --group             count all the events as one group\n"
	"                      (a group the PMU's counters cannot hold at once is split\n"
	"                      into the fewest that fit, with a warning: pmudb group)\n"
	"  -p, --pid PID       count the threads of PID until it exits or Ctrl-C (or while\n"
	"                      COMMAND runs)\n"
	"  -a, --all-cpus      count on every CPU until Ctrl-C (or while COMMAND runs);\n"
	"                      needs root (CAP_PERFMON) or perf_event_paranoid 0 or lower\n"
	"  -I, --interval MS   also print the counts of every MS milliseconds (10 or more)\n"
	"  --json              one JSON object; with -I one per interval before it\n"
	"  -o, --output FILE   write the counts to FILE, not to standard output (which\n"
	"                      COMMAND shares)\n"
	"  -M, --metrics NAME  the vendor's metric NAME (or each of group NAME: TopdownL1)\n"
	"                      of the selected PMUs: its events are counted (a core PMU's\n"
	"                      in the fewest groups its counters hold) and its value\n"
	"                      printed after the counts; may repeat\n"
	"  --per-box           an uncore event counted on every box of its kernel PMU\n"
	"                      (uncore_cha_0, uncore_cha_1, ...): one line per box, not\n"
	"                      their sum\n"
	"\n"
	"Each event is opened as encoded, nothing dropped: where perf_event_paranoid is 2,\n"
	"users without CAP_PERFMON count user space only, so write EVENT:u.  Uncore events\n"
	"count on the CPUs their kernel PMU's cpumask names, system-wide (root or\n"
	"perf_event_paranoid 0 or lower); an uncore event alone, on every box of its\n"
	"kernel PMU that sysfs lists (in a group: on the first box).  The type of a\n"
	"kernel PMU is read from\n"
	"/sys/bus/event_source/devices (or $PMUDB_SYSFS_DEVICES).\n"
	"\n"
	"exit status: 0 counted (COMMAND's own exit status is printed, not returned);\n"
	"1 an event was rejected, by the catalog or by the kernel (one line each; COMMAND\n"
	"is not run); 2 usage or catalog error, COMMAND cannot be run (not found, not\n"
	"executable), or the counts cannot be written (a full disk).  -o FILE that does not\n"
	"exist is made only once counting starts.\n";

#define COMMAND_PID (-2)	/* target placeholder until the command is forked */
#define MAX_INTERVAL_MS 3600000L

struct target {
	pid_t pid;		/* -1: the whole CPU */
	int cpu;		/* -1: any CPU */
};

struct count {
	uint64_t value, enabled, running;
};

struct event {
	char *name;			/* as the user gave it */
	int group;
	struct pmudb_encoding enc;
	bool encoded;			/* enc is one core type's answer already */
	struct perf_event_attr attr;
	int *fds;			/* one per target of its group; -1 when not open */
	uint64_t *ids;			/* PERF_EVENT_IOC_ID of each fd */
	struct count now, last;		/* summed over the targets; last: previous interval */
	/* an uncore event alone counted on every box of its kernel PMU: each
	 * box is an event of its own ("uncore_cha_3/NAME/"); the first box
	 * holds the name as given and how many boxes there are, printed as
	 * their sum unless --per-box */
	int box_first;			/* index of the first box, or -1 */
	int boxes;			/* the first box: how many; else 0 */
	char *all_boxes_name;		/* the first box: the name as given */
	char kernel_pmu[64];		/* the first box: its kernel PMU (uncore_cha) */
};

struct group {
	int first, n;			/* events[first .. first + n) */
	int label;			/* "group LABEL": 1, 2 ... among groups of two or more */
	bool rejected;			/* an event of it was refused before opening: not opened */
	struct target *targets;
	int ntargets;
	char where[96];			/* for messages: "the command", "CPUs of uncore_imc_0" ... */
};

struct stat_run {
	struct cli *cli;
	struct event *events;
	int nevents;
	struct group *groups;
	int ngroups;
	bool json, system_wide, group_all, per_box;
	long interval_ms;
	pid_t pid;			/* -p, or 0 */
	struct target *threads;		/* -p's threads */
	int nthreads;
	char **command;			/* NULL-ended, or NULL */
	FILE *out;
	bool truncate_out;		/* -o FILE: emptied once counting starts */
	const char *output;		/* -o FILE, for messages */
	bool create_out;		/* -o FILE does not exist: made once counting starts */
	int intervals;			/* printed so far */
	pid_t child;
	int status;			/* the command's wait status */
	double elapsed;
	char **metric_names;		/* -M's */
	int nmetric_names;
	struct stat_metrics *metrics;
};

/* ---- small helpers ----------------------------------------------------- */

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Strict decimal in [LO, HI]. */
static bool parse_long(const char *s, long lo, long hi, long *v)
{
	char *end;
	errno = 0;
	long x = strtol(s, &end, 10);
	if (errno || end == s || *end || x < lo || x > hi || *s == '+' || *s == ' ')
		return false;
	*v = x;
	return true;
}

/* The value of /proc/sys/kernel/perf_event_paranoid, or INT_MIN. */
static int read_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = INT_MIN;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = INT_MIN;
		fclose(f);
	}
	return v;
}

/* Whether the kernel lists a core (CPU) PMU: x86's cpu, a hybrid's cpu_core
 * and cpu_atom, Arm's armv8_*.  A VM without PMU passthrough has none. */
static bool has_core_pmu(void)
{
	DIR *d = opendir(pmudb_sysfs_devices());
	bool found = false;
	if (!d)
		return false;
	for (struct dirent *e; !found && (e = readdir(d));)
		found = !strcmp(e->d_name, "cpu") || !strncmp(e->d_name, "cpu_", 4) || !strncmp(e->d_name, "armv", 4);
	closedir(d);
	return found;
}

static int perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, (unsigned long)PERF_FLAG_FD_CLOEXEC);
}

/* ---- parsing the events ---------------------------------------------- */

static int add_event(struct stat_run *s, const char *name, size_t len, int group)
{
	if (len == 0)
		return -1;
	struct event *ev = realloc(s->events, (size_t)(s->nevents + 1) * sizeof(*ev));
	if (!ev)
		return -1;
	s->events = ev;
	ev = &s->events[s->nevents];
	memset(ev, 0, sizeof(*ev));
	ev->name = strndup(name, len);
	ev->group = group;
	ev->box_first = -1;
	if (!ev->name)
		return -1;
	s->nevents++;
	return 0;
}

/* One -e argument: "a", "a,b" (two events) or "{a,b}" (one group). */
static int parse_event_arg(struct stat_run *s, const char *arg)
{
	size_t len = strlen(arg);
	bool braced = arg[0] == '{';
	if (braced && (len < 2 || arg[len - 1] != '}')) {
		fprintf(stderr, "pmudb stat: -e '%s': a group is '{EVENT,EVENT...}', closed by '}' at the end\n", arg);
		return -1;
	}
	const char *p = braced ? arg + 1 : arg, *end = braced ? arg + len - 1 : arg + len;
	int group = braced ? s->ngroups++ : -1;
	while (p <= end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;
		if (memchr(p, '{', (size_t)(stop - p)) || memchr(p, '}', (size_t)(stop - p))) {
			fprintf(stderr, "pmudb stat: -e '%s': groups do not nest, and '{' '}' go around a whole -e argument\n",
				arg);
			return -1;
		}
		if (add_event(s, p, (size_t)(stop - p), braced ? group : s->ngroups++)) {
			fprintf(stderr, "pmudb stat: -e '%s': an empty event name\n", arg);
			return -1;
		}
		p = stop + 1;
	}
	return 0;
}

/* Whether event I is in no group with others (each event alone has a
 * group number of its own until make_groups). */
static bool event_alone(const struct stat_run *s, int i)
{
	int group = s->events[i].group;
	return (i == 0 || s->events[i - 1].group != group) && (i + 1 == s->nevents || s->events[i + 1].group != group);
}

/* Room for event I to become N events: N - 1 zeroed places after it, the
 * later events moved up.  -1 when out of memory (nothing changed). */
static int widen(struct stat_run *s, int i, int n)
{
	struct event *more = realloc(s->events, (size_t)(s->nevents + n - 1) * sizeof(*more));
	if (!more)
		return -1;
	s->events = more;
	memmove(&more[i + n], &more[i + 1], (size_t)(s->nevents - i - 1) * sizeof(*more));
	memset(&more[i + 1], 0, (size_t)(n - 1) * sizeof(*more));
	s->nevents += n - 1;
	return 0;
}

/*
 * On a hybrid CPU an event alone (in no group with others) counts on each
 * core type that has it, as perf opens it: one row each, named as perf
 * names them ("cpu_atom/EVENT/").  In a group it counts on the first core
 * type that has it: a group counts on one PMU.  Before make_groups, while
 * each event alone has a group number of its own.
 */
static int expand_hybrid(struct stat_run *s)
{
	enum { MAX_TYPES = 4 };
	for (int i = 0; !s->group_all && i < s->nevents; i++) {
		struct event *ev = &s->events[i];
		struct pmudb_encoding enc[MAX_TYPES];
		int n = event_alone(s, i) && !cli_names_pmu(ev->name)
				? pmudb_encode_each(s->cli->db, ev->name, cli_scope(s->cli), enc, MAX_TYPES, NULL)
				: 0;
		if (n < 2)
			continue;
		if (widen(s, i, n))
			return -1;
		struct event *more = s->events;
		char *name = more[i].name;
		for (int k = 0; k < n; k++) {
			struct event *e = &more[i + k];
			memset(e, 0, sizeof(*e));
			size_t len = strlen(enc[k].sysfs_pmu) + strlen(name) + 3;
			e->name = malloc(len);
			if (!e->name) {
				/* the places not yet filled hold copies of later events */
				memset(&more[i + k], 0, (size_t)(n - k) * sizeof(*more));
				free(name);
				return -1;
			}
			snprintf(e->name, len, "%s/%s/", enc[k].sysfs_pmu, name);
			e->box_first = -1;
			e->enc = enc[k];
			e->encoded = true;
			e->group = s->ngroups++;
		}
		free(name);
		i += n - 1;
	}
	return 0;
}

/*
 * An uncore event alone whose kernel PMU sysfs lists as numbered boxes
 * (uncore_cha_0, uncore_cha_1, ...: perf's uncore_cha/.../ takes them all)
 * counts on every box, as perf counts it: one event a box, "KPMU_N/NAME/",
 * summed when printed unless --per-box.  In a group it counts on the first
 * box: a group counts on one PMU.  Before make_groups.
 */
static int expand_boxes(struct stat_run *s)
{
	for (int i = 0; !s->group_all && i < s->nevents; i++) {
		struct event *ev = &s->events[i];
		struct pmudb_encoding enc;
		char **boxes = NULL;
		int n = 0;
		if (event_alone(s, i) && !ev->encoded
		    && !pmudb_encode(s->cli->db, ev->name, cli_scope(s->cli), &enc, NULL) && enc.sysfs_pmu[0])
			n = cli_kernel_devices(enc.sysfs_pmu, &boxes);
		if (n == 1 && strcmp(boxes[0], enc.sysfs_pmu) && strlen(boxes[0]) < sizeof(enc.sysfs_pmu)) {
			/* one device of another name (imx8_ddr0 of imx8_ddr) */
			ev->enc = enc;
			snprintf(ev->enc.sysfs_pmu, sizeof(ev->enc.sysfs_pmu), "%s", boxes[0]);
			ev->encoded = true;
		}
		if (n < 2 || widen(s, i, n)) {
			cli_free_names(boxes, n);
			if (n < 2)
				continue;
			return -1;
		}
		struct event *more = s->events;
		char *name = more[i].name;
		int group = more[i].group;
		for (int k = 0; k < n; k++) {
			struct event *e = &more[i + k];
			memset(e, 0, sizeof(*e));
			size_t len = strlen(enc.sysfs_pmu) + strlen(name) + 16;
			e->name = malloc(len);
			e->box_first = i;
			e->group = k ? s->ngroups++ : group;
			e->enc = enc;
			e->encoded = true;
			snprintf(e->enc.sysfs_pmu, sizeof(e->enc.sysfs_pmu), "%s", boxes[k]);
			if (e->name)
				snprintf(e->name, len, "%s/%s/", e->enc.sysfs_pmu, name);
			if (!e->name) {
				free(name);
				cli_free_names(boxes, n);
				return -1;
			}
		}
		more[i].boxes = n;
		more[i].all_boxes_name = name;
		snprintf(more[i].kernel_pmu, sizeof(more[i].kernel_pmu), "%s", enc.sysfs_pmu);
		cli_free_names(boxes, n);
		i += n - 1;
	}
	return 0;
}

/* What an event counted: in all, or since the last interval. */
typedef struct count count_of_fn(const struct event *ev);

static struct count count_in_all(const struct event *ev)
{
	return ev->now;
}

static struct count delta(const struct count *now, const struct count *last)
{
	return (struct count){ now->value - last->value, now->enabled - last->enabled, now->running - last->running };
}

static struct count count_since_last(const struct event *ev)
{
	return delta(&ev->now, &ev->last);
}

/* The count event I prints with (COUNT_OF each event's): its own; the sum
 * of its boxes for the first box of an event counted on every box (unless
 * --per-box); false for the other boxes, whose counts are in that sum. */
static bool row_count(const struct stat_run *s, int i, count_of_fn *count_of, struct count *out)
{
	const struct event *ev = &s->events[i];
	if (s->per_box || ev->box_first < 0) {
		*out = count_of(ev);
		return true;
	}
	if (ev->box_first != i)
		return false;
	*out = (struct count){ 0, 0, 0 };
	for (int k = i; k < i + ev->boxes; k++) {
		struct count c = count_of(&s->events[k]);
		out->value += c.value;
		out->enabled += c.enabled;
		out->running += c.running;
	}
	/* the boxes ran side by side: their times are one time */
	out->enabled /= (uint64_t)ev->boxes;
	out->running /= (uint64_t)ev->boxes;
	return true;
}

/* The name an event prints as: the name given for the sum of its boxes. */
static const char *row_name(const struct stat_run *s, const struct event *ev)
{
	return !s->per_box && ev->boxes ? ev->all_boxes_name : ev->name;
}

/* Event I's encoding: made already (a core type's, a box's), else the
 * catalog's; false where it does not encode (encode_events says why). */
static bool event_encoding(struct stat_run *s, int i, struct pmudb_encoding *enc)
{
	const struct event *ev = &s->events[i];
	if (ev->encoded) {
		*enc = ev->enc;
		return true;
	}
	return !pmudb_encode(s->cli->db, ev->name, cli_scope_for(s->cli, ev->name), enc, NULL);
}

/*
 * A group the counters cannot hold at once is never counted (the kernel
 * refuses to schedule it: perf's <not counted>): each is checked with the
 * catalog's counter constraints (pmudb group) and, where it does not fit,
 * split into the fewest groups that do, with a warning naming the events
 * that compete (METRICS_GROUP: -M's events, grouped this way without a
 * word).  Events alone beyond a PMU's counters are multiplexed by the
 * kernel: said once, as their counts are scaled.  A group whose events
 * do not encode, or a PMU whose counters the catalog does not know, is
 * left as given (encode_events says what is wrong).  Before make_groups.
 */
static int fit_groups(struct stat_run *s, int metrics_group)
{
	if (s->group_all)
		for (int i = 0; i < s->nevents; i++)
			s->events[i].group = 0;
	s->group_all = false;
	struct pmudb_group_options o = {0};
	for (int i = 0, j; i < s->nevents; i = j) {
		for (j = i + 1; j < s->nevents && s->events[j].group == s->events[i].group; j++)
			;
		int n = j - i;
		if (n < 2)
			continue;
		struct pmudb_encoding *enc = calloc((size_t)n, sizeof(*enc));
		struct pmudb_group g = {0};
		bool encoded = enc != NULL;
		for (int k = 0; encoded && k < n; k++)
			encoded = event_encoding(s, i + k, &enc[k]);
		/* left as given: an event that does not encode, a PMU whose
		 * counters nobody states, an event with no counter at all */
		bool fits = !encoded || pmudb_group_encoded(s->cli->db, enc, n, &o, &g, NULL);
		if (!fits) {
			fits = true;
			for (int p = 0; p < g.npmus; p++)
				fits &= g.pmus[p].fits || g.pmus[p].parts < 1;
		}
		free(enc);
		if (fits) {
			pmudb_group_free(&g);
			continue;
		}
		/* the new order: the first group keeps what fits (software
		 * events, another PMU's that fit: mixing PMUs is the kernel's
		 * to refuse, not a matter of counters) and each over-full PMU's
		 * first part; each further part is a group of its own */
		struct event *was = malloc((size_t)n * sizeof(*was));
		if (!was) {
			pmudb_group_free(&g);
			return -1;
		}
		memcpy(was, &s->events[i], (size_t)n * sizeof(*was));
		int at = i, first_group = s->events[i].group;
		if (first_group != metrics_group) {
			fprintf(stderr, "pmudb stat: warning: group {");
			for (int k = 0; k < n; k++)
				fprintf(stderr, "%s%s", k ? "," : "", was[k].name);
			fprintf(stderr, "} cannot be counted at once:");
		}
		for (int part = 0;; part++) {
			bool more = false;
			int group = part ? s->ngroups++ : first_group;
			for (int p = 0; p < g.npmus; p++) {
				const struct pmudb_group_pmu *u = &g.pmus[p];
				const struct pmudb_group_member *m = g.members + u->first;
				bool split = !u->fits && u->parts > 1;
				more |= split && part + 1 < u->parts;
				for (int k = 0; k < u->n; k++)
					if (split ? m[k].part == part : part == 0) {
						s->events[at] = was[m[k].event];
						s->events[at++].group = group;
					}
				if (part == 0 && split && first_group != metrics_group) {
					fprintf(stderr, " %s (%d general, %d fixed counters", u->pmu, u->count.generic, u->count.fixed);
					const char *sep = ": ";
					for (int k = 0; k < u->n; k++)
						if (m[k].competes) {
							fprintf(stderr, "%s%s", sep, was[m[k].event].name);
							sep = ", ";
						}
					if (*sep == ',')
						fprintf(stderr, " compete for %d", u->competing_counters);
					fprintf(stderr, ")");
				}
			}
			if (!more)
				break;
		}
		if (first_group != metrics_group) {
			fprintf(stderr, "; counted as");
			for (int k = i; k < j; k++)
				fprintf(stderr, "%s%s%s", k == i || s->events[k].group != s->events[k - 1].group ? " {" : ",",
					s->events[k].name, k + 1 == j || s->events[k + 1].group != s->events[k].group ? "}" : "");
			fprintf(stderr, " (pmudb group)\n");
		}
		free(was);
		pmudb_group_free(&g);
	}
	return 0;
}

/* The events alone, per PMU: more than its counters hold at once are
 * multiplexed by the kernel; said once, as their counts are scaled. */
static void note_multiplexing(struct stat_run *s)
{
	struct pmudb_encoding *enc = calloc((size_t)s->nevents + 1, sizeof(*enc));
	int n = 0;
	for (int i = 0; enc && i < s->nevents && n < 256; i++) {
		bool alone = (i == 0 || s->events[i - 1].group != s->events[i].group)
			     && (i + 1 == s->nevents || s->events[i + 1].group != s->events[i].group);
		if (alone && event_encoding(s, i, &enc[n]))
			n++;
	}
	struct pmudb_group g = {0};
	struct pmudb_group_options o = {0};
	if (n > 1 && !pmudb_group_encoded(s->cli->db, enc, n, &o, &g, NULL))
		for (int p = 0; p < g.npmus; p++)
			if (!g.pmus[p].fits)
				fprintf(stderr, "pmudb stat: note: the %d events alone on %s do not fit its %d general and %d fixed"
					" counters at once: the kernel takes turns (multiplexes), and their counts are scaled to the"
					" whole time (time_running < time_enabled)\n", g.pmus[p].n, g.pmus[p].pmu,
					g.pmus[p].count.generic, g.pmus[p].count.fixed);
	pmudb_group_free(&g);
	free(enc);
}

/* Groups from the events' group numbers (consecutive by construction). */
static int make_groups(struct stat_run *s)
{
	if (s->group_all)
		for (int i = 0; i < s->nevents; i++)
			s->events[i].group = 0;
	s->ngroups = 0;
	if (s->nevents <= 0)
		return -1;
	s->groups = calloc((unsigned)s->nevents, sizeof(*s->groups));
	if (!s->groups)
		return -1;
	for (int i = 0; i < s->nevents; i++) {
		if (i == 0 || s->events[i].group != s->events[i - 1].group)
			s->groups[s->ngroups++].first = i;
		s->groups[s->ngroups - 1].n++;
		s->events[i].group = s->ngroups - 1;
	}
	for (int g = 0, label = 0; g < s->ngroups; g++)
		s->groups[g].label = s->groups[g].n > 1 ? ++label : 0;
	return 0;
}

/* ---- encoding --------------------------------------------------------- */

/* A core event of another CPU's PMU opens without complaint and counts
 * something else: say so (a warning: the user may mean it). */
static void warn_foreign_pmu(const struct stat_run *s, const struct event *ev)
{
	const struct cli *c = s->cli;
	int pmu = pmudb_find_pmu(c->db, ev->enc.pmu);
	struct pmudb_pmu_info info;
	if (!c->has_scope || pmu < 0 || pmudb_pmu_info(c->db, pmu, &info) || strcmp(info.kind, "core"))
		return;
	for (int i = 0; i < c->scope.count; i++)
		if (c->scope.pmus[i] == pmu)
			return;
	struct pmudb_pmu_info host;
	if (pmudb_pmu_info(c->db, c->scope.pmus[0], &host))
		return;
	fprintf(stderr, "pmudb stat: warning: %s: an event of PMU %s, but this CPU's core PMU is %s; counting it anyway\n",
		ev->name, ev->enc.pmu, host.name);
}

static int encode_events(struct stat_run *s)
{
	int status = EXIT_GOOD;
	for (int i = 0; i < s->nevents; i++) {
		struct event *ev = &s->events[i];
		struct pmudb_error err;
		int r = ev->encoded ? 0 : pmudb_encode(s->cli->db, ev->name, cli_scope(s->cli), &ev->enc, &err);
		r = cli_why_not_found(s->cli, ev->name, r, &err);	/* no CPU: say so, not "not found" */
		if (!r)
			r = pmudb_to_perf_attr(&ev->enc, &ev->attr, sizeof(ev->attr), &err);
		if (r) {
			cli_add_suggestion(s->cli, ev->name, &err);
			fprintf(stderr, "pmudb stat: %s: %s\n", ev->name, err.message);
			s->groups[ev->group].rejected = true;
			/* a damaged catalog outweighs an event refused */
			if (status != EXIT_USAGE)
				status = err.code == PMUDB_ERR_CATALOG ? EXIT_USAGE : EXIT_REJECTED;
		}
	}
	return status;
}

/* ---- where each event counts -------------------------------------------- */

static int read_cpulist_file(const char *path, int **cpus, char *why, size_t whylen)
{
	char buf[4096];
	FILE *f = fopen(path, "re");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	if (!f) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf[n] = '\0';
	struct pmudb_error err;
	int count = pmudb_parse_cpulist(buf, NULL, 0, &err);
	if (count <= 0) {
		snprintf(why, whylen, "%s: %s", path, count ? err.message : "no CPU listed");
		return -1;
	}
	*cpus = calloc((size_t)count, sizeof(int));
	if (!*cpus)
		return -1;
	return pmudb_parse_cpulist(buf, *cpus, count, &err);
}

/* The CPUs of an uncore event's kernel PMU (pid -1 on each); 0 when its
 * PMU counts per task. */
static int uncore_cpus(const struct event *ev, int **cpus, char *why, size_t whylen)
{
	struct pmudb_error err;
	if (!ev->enc.sysfs_pmu[0])
		return 0;
	int count = pmudb_kernel_pmu_cpus(ev->enc.sysfs_pmu, NULL, 0, &err);
	if (count == PMUDB_ERR_NOTFOUND)
		return 0;	/* the type came from the catalog: a per-task PMU */
	if (count < 0) {
		snprintf(why, whylen, "%s", err.message);
		return -1;
	}
	if (count == 0)
		return 0;
	*cpus = calloc((size_t)count, sizeof(int));
	if (!*cpus)
		return -1;
	/* read again: the file may have changed in between, so take no more
	 * CPUs than there is room for, and no fewer than it now lists */
	int got = pmudb_kernel_pmu_cpus(ev->enc.sysfs_pmu, *cpus, count, &err);
	if (got <= 0) {
		free(*cpus);
		*cpus = NULL;
		snprintf(why, whylen, "%s", got < 0 ? err.message : "its cpumask changed while read");
		return -1;
	}
	return got < count ? got : count;
}

/* The threads of -p, each counted (with its future children: inherit). */
static int list_threads(struct stat_run *s)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)s->pid);
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "pmudb stat: -p %d: %s\n", (int)s->pid, errno == ENOENT ? "no such process" : strerror(errno));
		return EXIT_USAGE;
	}
	struct target **out = &s->threads;
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		long tid;
		if (!parse_long(e->d_name, 1, INT_MAX, &tid))
			continue;
		struct target *t = realloc(*out, (size_t)(n + 1) * sizeof(**out));
		if (!t)
			break;
		*out = t;
		t[n++] = (struct target){ (pid_t)tid, -1 };
	}
	closedir(d);
	s->nthreads = n;
	if (!n)
		fprintf(stderr, "pmudb stat: -p %d: no threads\n", (int)s->pid);
	return n ? EXIT_GOOD : EXIT_USAGE;
}

/* The targets of EV: uncore CPUs, every CPU (-a), PID's threads (-p), or
 * the command; narrowed to the encoding's cpu= when it has one. */
static int event_targets(const struct stat_run *s, const struct event *ev, struct target **out, char *where,
			 size_t wherelen, char *why, size_t whylen)
{
	int *cpus = NULL;
	int n = uncore_cpus(ev, &cpus, why, whylen);
	*out = NULL;
	if (n < 0)
		return -1;
	if (n > 0)
		snprintf(where, wherelen, "the CPUs of %s", ev->enc.sysfs_pmu);
	else if (s->system_wide) {
		snprintf(where, wherelen, "every CPU, -a");
		n = read_cpulist_file("/sys/devices/system/cpu/online", &cpus, why, whylen);
		if (n < 0)
			return -1;
	} else if (s->pid > 0) {
		snprintf(where, wherelen, "pid %d", (int)s->pid);
		*out = malloc((unsigned)s->nthreads * sizeof(**out));
		if (!*out)
			return -1;
		memcpy(*out, s->threads, (unsigned)s->nthreads * sizeof(**out));
		n = s->nthreads;
	} else {
		snprintf(where, wherelen, "the command");
		*out = malloc(sizeof(**out));
		if (!*out)
			return -1;
		(*out)[0] = (struct target){ COMMAND_PID, -1 };
		n = 1;
	}
	if (cpus && n > 0) {
		*out = calloc((unsigned)n, sizeof(**out));
		for (int i = 0; *out && i < n; i++)
			(*out)[i] = (struct target){ -1, cpus[i] };
		free(cpus);
		if (!*out)
			return -1;
	}
	if (n > 0 && ev->enc.cpu >= 0) {	/* cpu=N: that CPU only */
		int keep = 0;
		for (int i = 0; i < n; i++)
			if ((*out)[i].pid != -1 || (*out)[i].cpu == ev->enc.cpu)
				(*out)[keep++] = (struct target){ (*out)[i].pid, ev->enc.cpu };
		if (!keep) {
			snprintf(why, whylen, "cpu=%d is not one of %s", ev->enc.cpu, where);
			return -1;
		}
		n = keep;
	}
	return n;
}

static bool same_targets(const struct target *a, int na, const struct target *b, int nb)
{
	return na == nb && !memcmp(a, b, (size_t)na * sizeof(*a));
}

/* Every event of a group must count in the same place as its leader. */
static int plan_targets(struct stat_run *s)
{
	int status = EXIT_GOOD;
	for (int g = 0; g < s->ngroups; g++) {
		struct group *gr = &s->groups[g];
		char why[600] = "out of memory";
		for (int i = 0; i < gr->n && !gr->rejected; i++) {
			struct event *ev = &s->events[gr->first + i];
			struct target *t;
			char where[96];
			int n = event_targets(s, ev, &t, where, sizeof(where), why, sizeof(why));
			if (n < 0) {
				fprintf(stderr, "pmudb stat: %s: %s\n", ev->name, why);
				free(t);
				gr->rejected = true;
				status = EXIT_REJECTED;
				break;
			}
			if (i == 0) {
				gr->targets = t;
				gr->ntargets = n;
				snprintf(gr->where, sizeof(gr->where), "%s", where);
			} else {
				bool same = same_targets(gr->targets, gr->ntargets, t, n);
				free(t);
				if (!same) {
					fprintf(stderr, "pmudb stat: %s: counts on %s, but its group leader %s on %s; "
						"a group counts in one place\n", ev->name, where, s->events[gr->first].name,
						gr->where);
					gr->rejected = true;
					status = EXIT_REJECTED;
					break;
				}
			}
		}
		if (gr->rejected)
			gr->ntargets = 0;	/* nothing of it is opened */
		for (int i = 0; i < gr->n; i++) {
			struct event *ev = &s->events[gr->first + i];
			ev->fds = malloc((size_t)(gr->ntargets ? gr->ntargets : 1) * sizeof(int));
			ev->ids = calloc((size_t)(gr->ntargets ? gr->ntargets : 1), sizeof(uint64_t));
			if (!ev->fds || !ev->ids)
				return EXIT_USAGE;
			for (int t = 0; t < gr->ntargets; t++)
				ev->fds[t] = -1;
		}
	}
	return status;
}

/* ---- explaining a refusal ------------------------------------------------ */

static int attr_text(char *buf, size_t n, const struct perf_event_attr *a, const struct target *t)
{
	return snprintf(buf, n,
			"attr {type=%u config=0x%llx config1=0x%llx config2=0x%llx exclude_user=%u exclude_kernel=%u "
			"exclude_hv=%u exclude_host=%u exclude_guest=%u precise_ip=%u sample_period=%llu freq=%u "
			"pinned=%u exclusive=%u inherit=%u read_format=0x%llx} pid=%d cpu=%d",
			a->type, (unsigned long long)a->config, (unsigned long long)a->config1,
			(unsigned long long)a->config2, a->exclude_user, a->exclude_kernel, a->exclude_hv, a->exclude_host,
			a->exclude_guest, a->precise_ip, (unsigned long long)a->sample_period, a->freq, a->pinned,
			a->exclusive, a->inherit, (unsigned long long)a->read_format, (int)t->pid, t->cpu);
}

static bool is_core_type(uint32_t type)
{
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE || type == PERF_TYPE_RAW;
}

/* Why the kernel said EACCES or EPERM, from the rules it applies:
 * perf_event_paranoid >= 3 (Debian's) nothing without CAP_PERFMON; >= 1 no
 * whole-CPU counting; >= 2 no kernel space.  Root passes them all. */
static void explain_permission(char *buf, size_t n, const struct stat_run *s, const struct group *g,
			       const struct perf_event_attr *a, const struct target *t, int e)
{
	int paranoid = read_paranoid();
	uid_t uid = geteuid();
	if (uid == 0)
		snprintf(buf, n, "the kernel refused it (%s) although you are root: perf_event_open is blocked here "
			 "(a seccomp filter, a container's user namespace or kernel lockdown)", strerror(e));
	else if (paranoid >= 3)
		snprintf(buf, n, "perf_event_paranoid is %d, which allows no perf_event_open to users without "
			 "CAP_PERFMON (you are uid %d); run as root, or set kernel.perf_event_paranoid to 2 or lower",
			 paranoid, (int)uid);
	else if (t->pid == -1 && paranoid >= 1)
		snprintf(buf, n, "it counts whole CPUs (%s), which perf_event_paranoid %d forbids to users without "
			 "CAP_PERFMON (you are uid %d); run as root, or set kernel.perf_event_paranoid to 0 or lower",
			 g->where, paranoid, (int)uid);
	else if (!a->exclude_kernel && paranoid >= 2)
		snprintf(buf, n, "perf_event_paranoid is %d, which lets users without CAP_PERFMON (you are uid %d) "
			 "count user space only, and this event counts kernel space too; add :u, or run as root, or "
			 "set kernel.perf_event_paranoid to 1 or lower", paranoid, (int)uid);
	else if (s->pid > 0 && t->pid > 0)
		snprintf(buf, n, "not allowed to watch pid %d (%s): it is another user's, or ptrace is restricted "
			 "(kernel.yama.ptrace_scope)", (int)t->pid, strerror(e));
	else
		snprintf(buf, n, "the kernel refused it (%s; perf_event_paranoid is %d, you are uid %d)", strerror(e),
			 paranoid, (int)uid);
}

/* Whether CPU is online here (true when that cannot be told). */
static bool cpu_online(int cpu)
{
	int *cpus = NULL;
	char why[600];
	int n = read_cpulist_file("/sys/devices/system/cpu/online", &cpus, why, sizeof(why));
	bool found = n <= 0;
	for (int i = 0; i < n && !found; i++)
		found = cpus[i] == cpu;
	free(cpus);
	return found;
}

/* What the kernel means by refusing an attr with E, or NULL. */
static const char *refusal_text(int e)
{
	switch (e) {
	case ENOENT: return "no PMU of this kernel takes this type and config";
	case EINVAL: return "the PMU does not accept this attr";
	case EOPNOTSUPP: return "the PMU cannot do what this attr asks (sampling, a privilege filter, ...)";
	case ENODEV: return "the PMU does not count on this CPU";
	default: return NULL;
	}
}

static void explain(char *buf, size_t n, const struct stat_run *s, const struct group *g, const struct event *ev,
		    const struct perf_event_attr *a, const struct target *t, int e)
{
	char attr[512];
	attr_text(attr, sizeof(attr), a, t);
	if (e == EACCES || e == EPERM) {
		explain_permission(buf, n, s, g, a, t, e);
	} else if (refusal_text(e) && ev->enc.sysfs_pmu[0] &&
		   pmudb_kernel_pmu_cpus(ev->enc.sysfs_pmu, NULL, 0, NULL) == PMUDB_ERR_NOTFOUND) {
		/* the catalog's fallback type (a hybrid's PERF_TYPE_RAW) was refused */
		snprintf(buf, n, "no such PMU on this machine: the kernel has no PMU %s (%s/%s is missing; the "
			 "kernel said %s)", ev->enc.sysfs_pmu, pmudb_sysfs_devices(), ev->enc.sysfs_pmu, strerrorname_np(e));
	} else if (refusal_text(e) && is_core_type(a->type) && !has_core_pmu()) {
		snprintf(buf, n, "no such PMU on this machine: the kernel has no hardware PMU (%s/cpu is missing, "
			 "as in a VM without PMU passthrough; the kernel said %s)", pmudb_sysfs_devices(), strerrorname_np(e));
	} else if ((e == EINVAL || e == ENODEV || e == ENXIO) && t->cpu >= 0 && !cpu_online(t->cpu)) {
		snprintf(buf, n, "CPU %d is not online on this machine (counting on %s; the kernel said %s)", t->cpu,
			 g->where, strerrorname_np(e));
	} else if (refusal_text(e)) {
		snprintf(buf, n, "the kernel refused the encoding (%s: %s%s%s): %s", strerrorname_np(e), refusal_text(e),
			 ev != &s->events[g->first] ? " in a group led by " : "",
			 ev != &s->events[g->first] ? s->events[g->first].name : "", attr);
	} else if (e == ESRCH) {
		snprintf(buf, n, "pid %d: no such process", (int)t->pid);
	} else if (e == EMFILE || e == ENFILE) {
		snprintf(buf, n, "out of file descriptors (%s): each event takes one per CPU or thread; raise ulimit -n",
			 strerrorname_np(e));
	} else if (e == EBUSY) {
		snprintf(buf, n, "the counter is busy (EBUSY): another program holds it exclusively, or the "
			 "exclusive or pinned the event asks cannot be had: %s", attr);
	} else if (e == ENOSYS) {
		snprintf(buf, n, "this kernel has no perf_event_open (ENOSYS: built without perf events, or blocked)");
	} else {
		snprintf(buf, n, "the kernel refused it (%s: %s): %s", strerrorname_np(e) ? strerrorname_np(e) : "?",
			 strerror(e), attr);
	}
}

/* ---- opening ------------------------------------------------------------- */

/* The attr as stat opens it: the encoding, plus how to read and enable. */
static struct perf_event_attr stat_attr(const struct stat_run *s, const struct group *g, const struct event *ev,
					const struct target *t)
{
	struct perf_event_attr a = ev->attr;
	bool leader = ev == &s->events[g->first];
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (g->n > 1)
		a.read_format |= PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	a.inherit = t->pid != -1;	/* a task's children count too */
	/* Members follow their leader: only leaders are enabled. */
	a.disabled = leader;
	/* On the command, counting starts at its exec; elsewhere with an ioctl
	 * once everything is open. */
	a.enable_on_exec = leader && t->pid == COMMAND_PID;
	return a;
}

static int open_group(struct stat_run *s, struct group *g)
{
	int opened = 0;
	for (int t = 0; t < g->ntargets; t++) {
		struct target tg = g->targets[t];
		for (int i = 0; i < g->n; i++) {
			struct event *ev = &s->events[g->first + i];
			int leader_fd = i ? s->events[g->first].fds[t] : -1;
			if (i && leader_fd < 0)
				break;	/* its thread has gone (-p) */
			struct perf_event_attr a = stat_attr(s, g, ev, &tg);
			pid_t pid = tg.pid == COMMAND_PID ? s->child : tg.pid;
			int fd = perf_event_open(&a, pid, tg.cpu, leader_fd);
			if (fd < 0) {
				int e = errno;
				if (e == ESRCH && s->pid > 0 && tg.pid > 0 && g->ntargets > 1) {
					/* a thread of -p exited since it was listed: drop it */
					for (int k = 0; k < i; k++) {
						close(s->events[g->first + k].fds[t]);
						s->events[g->first + k].fds[t] = -1;
					}
					break;
				}
				char why[1024];
				struct target shown = { pid, tg.cpu };
				explain(why, sizeof(why), s, g, ev, &a, &shown, e);
				fprintf(stderr, "pmudb stat: %s: %s\n", ev->name, why);
				return -1;
			}
			ev->fds[t] = fd;
			if (ioctl(fd, PERF_EVENT_IOC_ID, &ev->ids[t]))
				ev->ids[t] = 0;
		}
		opened += s->events[g->first].fds[t] >= 0;
	}
	if (!opened) {
		fprintf(stderr, "pmudb stat: %s: pid %d has exited\n", s->events[g->first].name, (int)s->pid);
		return -1;
	}
	return 0;
}

static int open_all(struct stat_run *s)
{
	int status = EXIT_GOOD;
	for (int g = 0; g < s->ngroups; g++)
		if (!s->groups[g].rejected && open_group(s, &s->groups[g]))
			status = EXIT_REJECTED;	/* go on: report every event at fault */
	return status;
}

/* The command's groups enable themselves at its exec (pmudb's work between
 * fork and exec is not counted); the others, uncore and -p/-a, by ioctl. */
static void enable_all(struct stat_run *s, unsigned long request)
{
	for (int g = 0; g < s->ngroups; g++)
		for (int t = 0; t < s->groups[g].ntargets; t++) {
			if (request == PERF_EVENT_IOC_ENABLE && s->groups[g].targets[t].pid == COMMAND_PID)
				continue;
			int fd = s->events[s->groups[g].first].fds[t];
			if (fd >= 0)
				ioctl(fd, request, PERF_IOC_FLAG_GROUP);
		}
}

static void close_all(struct stat_run *s)
{
	for (int i = 0; i < s->nevents; i++) {
		int nt = s->groups ? s->groups[s->events[i].group].ntargets : 0;
		for (int t = 0; s->events[i].fds && t < nt; t++)
			if (s->events[i].fds[t] >= 0)
				close(s->events[i].fds[t]);
	}
}

/* ---- reading ------------------------------------------------------------ */

static int read_full(int fd, void *buf, size_t size)
{
	ssize_t n;
	do
		n = read(fd, buf, size);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : (int)n;
}

static int read_single(struct event *ev, int fd)
{
	uint64_t v[3];
	int n = read_full(fd, v, sizeof(v));
	if (n != (int)sizeof(v))
		return n < 0 ? n : -EIO;
	ev->now.value += v[0];
	ev->now.enabled += v[1];
	ev->now.running += v[2];
	return 0;
}

/* A group read: nr, time_enabled, time_running, then {value, id} per
 * member, in the order they joined.  The reply is checked, not trusted: its
 * size, nr, and each id (where PERF_EVENT_IOC_ID gave one). */
static int read_group(struct stat_run *s, const struct group *g, int t)
{
	size_t words = 3 + 2 * (size_t)g->n;
	uint64_t *v = calloc(words, sizeof(uint64_t));
	if (!v)
		return -ENOMEM;
	int n = read_full(s->events[g->first].fds[t], v, words * sizeof(uint64_t));
	int r = n == (int)(words * sizeof(uint64_t)) && v[0] == (uint64_t)g->n ? 0 : n < 0 ? n : -EIO;
	for (size_t k = 0; !r && k < (size_t)g->n; k++) {
		struct event *ev = &s->events[g->first + k];
		if (ev->ids[t] && ev->ids[t] != v[4 + 2 * k]) {
			r = -EIO;
			break;
		}
		ev->now.value += v[3 + 2 * k];
		ev->now.enabled += v[1];
		ev->now.running += v[2];
	}
	free(v);
	return r;
}

static int read_all(struct stat_run *s)
{
	for (int i = 0; i < s->nevents; i++)
		s->events[i].now = (struct count){ 0, 0, 0 };
	for (int g = 0; g < s->ngroups; g++) {
		const struct group *gr = &s->groups[g];
		for (int t = 0; t < gr->ntargets; t++) {
			if (s->events[gr->first].fds[t] < 0)
				continue;
			int r = 0;
			if (gr->n > 1)
				r = read_group(s, gr, t);
			else
				r = read_single(&s->events[gr->first], s->events[gr->first].fds[t]);
			if (r) {
				fprintf(stderr, "pmudb stat: %s: reading the counter failed (%s)\n",
					s->events[gr->first].name, r == -EIO ? "a short or malformed reply" : strerror(-r));
				return -1;
			}
		}
	}
	return 0;
}

/* ---- printing ------------------------------------------------------------ */

/* The value as if counted all the time: value * enabled / running.  False
 * when the counter was enabled but never ran (the PMU was busy).  A task's
 * counter is enabled only while the task runs: none of either, as over an
 * interval the command slept through, is a count of 0. */
static bool scaled_value(const struct count *c, uint64_t *out)
{
	if (!c->running && c->enabled)
		return false;
	if (c->running >= c->enabled) {
		*out = c->value;
		return true;
	}
	long double v = (long double)c->value * (long double)c->enabled / (long double)c->running;
	*out = v >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)(v + 0.5L);
	return true;
}

/* ARGV as a shell would take it back: safe words bare, others quoted. */
static void print_command(FILE *f, char **argv)
{
	for (int i = 0; argv[i]; i++) {
		const char *a = argv[i];
		bool bare = *a && strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=:,+-@%") ==
				      strlen(a);
		fputs(i ? " " : "", f);
		if (bare) {
			fputs(a, f);
			continue;
		}
		fputc('\'', f);
		for (; *a; a++)
			if (*a == '\'')
				fputs("'\\''", f);
			else
				fputc(*a, f);
		fputc('\'', f);
	}
}

static void print_text_count(FILE *f, const struct stat_run *s, const struct event *ev, const struct count *c)
{
	const struct group *g = &s->groups[ev->group];
	uint64_t scaled;
	bool counted = scaled_value(c, &scaled);
	if (counted)
		fprintf(f, "%20" PRIu64, c->value);
	else
		fprintf(f, "%20s", "<not counted>");
	fprintf(f, " %16" PRIu64 " %16" PRIu64 "  %s", c->enabled, c->running, row_name(s, ev));
	if (g->n > 1)
		fprintf(f, "  [group %d]", g->label);
	if (!s->per_box && ev->boxes)
		fprintf(f, "  (%d boxes of %s, summed)", ev->boxes, ev->kernel_pmu);
	if (g->ntargets > 1 && g->targets[0].pid == -1)
		fprintf(f, "  (%d CPUs)", g->ntargets);
	if (counted && c->running < c->enabled)
		fprintf(f, "  (multiplexed: scaled %" PRIu64 ", counted %.1f%% of the time)", scaled,
			100.0 * (double)c->running / (double)c->enabled);
	fputc('\n', f);
}

static void print_json_count(FILE *f, const struct stat_run *s, const struct event *ev, const struct count *c,
			     bool full)
{
	const struct group *g = &s->groups[ev->group];
	uint64_t scaled;
	bool counted = scaled_value(c, &scaled);
	bool summed = !s->per_box && ev->boxes;
	fputs("{\"event\":", f);
	json_quoted(f, row_name(s, ev));
	if (full) {
		fputs(",\"pmu\":", f);
		json_quoted(f, ev->enc.pmu);
		fputs(",\"fstr\":", f);
		json_quoted(f, ev->enc.fstr);
		if (ev->enc.sysfs_pmu[0]) {
			fputs(",\"kernel_pmu\":", f);
			if (summed)
				json_quoted(f, ev->kernel_pmu);
			else
				json_quoted(f, ev->enc.sysfs_pmu);
		}
		if (summed)
			fprintf(f, ",\"boxes\":%d", ev->boxes);
		fprintf(f, ",\"type\":%u,\"config\":\"0x%llx\",\"config1\":\"0x%llx\",\"config2\":\"0x%llx\"",
			ev->attr.type, (unsigned long long)ev->attr.config, (unsigned long long)ev->attr.config1,
			(unsigned long long)ev->attr.config2);
		if (g->n > 1)
			fprintf(f, ",\"group\":%d,\"leader\":%s", g->label, ev == &s->events[g->first] ? "true" : "false");
		fprintf(f, ",\"instances\":%d", g->ntargets);
	}
	fprintf(f, ",\"value\":%" PRIu64 ",\"time_enabled\":%" PRIu64 ",\"time_running\":%" PRIu64, c->value,
		c->enabled, c->running);
	if (counted)
		fprintf(f, ",\"scaled\":%" PRIu64, scaled);
	else
		fputs(",\"scaled\":null", f);
	fprintf(f, ",\"counted\":%s,\"multiplexed\":%s", counted ? "true" : "false",
		counted && c->running < c->enabled ? "true" : "false");
	fputc('}', f);
}

static void print_interval(struct stat_run *s, double t)
{
	FILE *f = s->out;
	if (s->json)
		fprintf(f, "{\"interval\":%.6f,\"counts\":[", t);
	else if (!s->intervals)
		fprintf(f, "#%11s %20s %16s %16s  %s\n", "time", "value", "time_enabled", "time_running", "event");
	s->intervals++;
	for (int i = 0, rows = 0; i < s->nevents; i++) {
		struct event *ev = &s->events[i];
		struct count c;
		if (!row_count(s, i, count_since_last, &c))
			continue;
		if (s->json) {
			fputs(rows++ ? "," : "", f);
			print_json_count(f, s, ev, &c, false);
		} else {
			fprintf(f, "%12.6f ", t);
			print_text_count(f, s, ev, &c);
		}
	}
	/* after every row: a sum of boxes reads the boxes after it */
	for (int i = 0; i < s->nevents; i++)
		s->events[i].last = s->events[i].now;
	if (s->json)
		fputs("]}\n", f);
	fflush(f);
}

/* What was counted: the command and how it ended, or -p/-a. */
static void print_subject_text(FILE *f, const struct stat_run *s)
{
	fputs("# ", f);
	if (s->command) {
		print_command(f, s->command);
		if (WIFEXITED(s->status))
			fprintf(f, ": exit status %d", WEXITSTATUS(s->status));
		else if (WIFSIGNALED(s->status))
			fprintf(f, ": killed by signal %d (%s)", WTERMSIG(s->status), strsignal(WTERMSIG(s->status)));
		fputs(s->pid > 0 ? ", pid " : s->system_wide ? ", all CPUs" : "", f);
		if (s->pid > 0)
			fprintf(f, "%d", (int)s->pid);
	} else if (s->pid > 0) {
		fprintf(f, "pid %d", (int)s->pid);
	} else {
		fputs("all CPUs", f);
	}
	fprintf(f, ", %.3f s\n", s->elapsed);
}

/* -M's event I, counted: the row of its name (the sum of its boxes), as if
 * counted all the time. */
static bool metric_count(void *ctx, int i, double *value)
{
	const struct stat_run *s = ctx;
	const char *name = stat_metrics_event(s->metrics, i);
	for (int k = 0; name && k < s->nevents; k++) {
		struct count c;
		uint64_t v;
		if (strcmp(row_name(s, &s->events[k]), name) || !row_count(s, k, count_in_all, &c))
			continue;
		if (!scaled_value(&c, &v))
			return false;
		*value = (double)v;
		return true;
	}
	return false;
}

static void print_final(struct stat_run *s)
{
	FILE *f = s->out;
	if (!s->json) {
		print_subject_text(f, s);
		fprintf(f, "#%19s %16s %16s  %s\n", "value", "time_enabled", "time_running", "event");
	}
	struct stat_context sc = { s->elapsed, s->system_wide };
	if (!s->json) {
		struct count c;
		for (int i = 0; i < s->nevents; i++)
			if (row_count(s, i, count_in_all, &c))
				print_text_count(f, s, &s->events[i], &c);
		if (s->metrics)
			stat_metrics_print(s->metrics, f, false, metric_count, s, &sc);
		return;
	}
	fputs("{", f);
	if (s->command) {
		fputs("\"command\":[", f);
		for (int i = 0; s->command[i]; i++) {
			fputs(i ? "," : "", f);
			json_quoted(f, s->command[i]);
		}
		fputs("],", f);
		if (WIFEXITED(s->status))
			fprintf(f, "\"exit_status\":%d,\"signal\":null,", WEXITSTATUS(s->status));
		else
			fprintf(f, "\"exit_status\":null,\"signal\":%d,", WTERMSIG(s->status));
	}
	if (s->pid > 0)
		fprintf(f, "\"pid\":%d,", (int)s->pid);
	fprintf(f, "\"system_wide\":%s,\"elapsed\":%.6f,\"counts\":[", s->system_wide ? "true" : "false", s->elapsed);
	for (int i = 0, rows = 0; i < s->nevents; i++) {
		struct count c;
		if (!row_count(s, i, count_in_all, &c))
			continue;
		fputs(rows++ ? "," : "", f);
		print_json_count(f, s, &s->events[i], &c, true);
	}
	fputs("]", f);
	if (s->metrics) {
		fputs(",\"metrics\":", f);
		stat_metrics_print(s->metrics, f, true, metric_count, s, &sc);
	}
	fputs("}\n", f);
}

/* ---- the command -------------------------------------------------------- */

struct launch {
	int go;		/* write end: one byte lets the command exec */
	int exec_error;	/* read end: errno from a failed exec, or EOF */
};

/* Forks COMMAND, stopped before exec until launch_go().  The child takes
 * back the signal mask and dispositions pmudb changed. */
static pid_t launch_start(char **command, const sigset_t *mask, struct launch *l)
{
	int go[2], er[2];
	if (pipe2(go, O_CLOEXEC))
		return -1;
	if (pipe2(er, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		char byte;
		ssize_t n;
		close(go[1]);
		close(er[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_SETMASK, mask, NULL);
		do
			n = read(go[0], &byte, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(127);	/* pmudb gave up: an event was refused */
		execvp(command[0], command);
		int e = errno;
		if (write(er[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(er[1]);
	if (pid < 0) {
		close(go[1]);
		close(er[0]);
		return -1;
	}
	l->go = go[1];
	l->exec_error = er[0];
	return pid;
}

/* Lets the command exec; returns 0, or the errno of a failed exec. */
static int launch_go(struct launch *l)
{
	int e = 0;
	ssize_t n = write(l->go, "x", 1);
	close(l->go);
	if (n != 1)
		e = EPIPE;
	else if (read_full(l->exec_error, &e, sizeof(e)) != (int)sizeof(e))
		e = 0;	/* EOF: the exec closed the pipe */
	close(l->exec_error);
	return e;
}

/* Never let the command run: it exits at EOF on the go pipe. */
static void launch_abort(struct stat_run *s, struct launch *l)
{
	close(l->go);
	close(l->exec_error);
	while (waitpid(s->child, NULL, 0) < 0 && errno == EINTR)
		;
	s->child = 0;
}

/* ---- waiting --------------------------------------------------------------- */

static volatile sig_atomic_t got_stop;

static void on_signal(int sig)
{
	if (sig != SIGCHLD)
		got_stop = 1;	/* SIGCHLD only has to wake ppoll */
}

static int pidfd_of(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* Whether counting is over: the command exited, -p's process exited, or
 * (without a command) Ctrl-C. */
static bool finished(struct stat_run *s, int pidfd, bool pidfd_ready)
{
	if (s->child) {
		pid_t r = waitpid(s->child, &s->status, WNOHANG);
		return r == s->child || (r < 0 && errno == ECHILD);
	}
	if (got_stop)
		return true;
	if (s->pid > 0)
		return pidfd >= 0 ? pidfd_ready : kill(s->pid, 0) && errno == ESRCH;
	return false;
}

static int wait_and_tick(struct stat_run *s, const sigset_t *waitmask, double start)
{
	int pidfd = !s->child && s->pid > 0 ? pidfd_of(s->pid) : -1;
	double period = (double)s->interval_ms / 1000.0, next = start + period;
	bool ready = false;
	while (!finished(s, pidfd, ready)) {
		double now = now_seconds(), wait = -1;
		if (s->interval_ms)
			wait = next > now ? next - now : 0;
		else if (!s->child && s->pid > 0 && pidfd < 0)
			wait = 0.1;	/* no pidfd: look every 100 ms */
		struct timespec ts = { (time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9) };
		struct pollfd pfd = { pidfd, POLLIN, 0 };
		int r = ppoll(pidfd >= 0 ? &pfd : NULL, pidfd >= 0, wait >= 0 ? &ts : NULL, waitmask);
		ready = r > 0 && pfd.revents;
		if (s->interval_ms && now_seconds() >= next) {
			if (read_all(s)) {
				if (pidfd >= 0)
					close(pidfd);
				return -1;
			}
			print_interval(s, now_seconds() - start);
			while (next <= now_seconds())
				next += period;	/* a late wake-up skips intervals, never bunches them */
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	return 0;
}

/* ---- the command's flow ------------------------------------------------------ */

static int parse_options(struct stat_run *s, int argc, char **argv)
{
	static const struct option options[] = {
		{ "event", required_argument, NULL, 'e' }, { "json", no_argument, NULL, 'j' },
		{ "interval", required_argument, NULL, 'I' }, { "pid", required_argument, NULL, 'p' },
		{ "all-cpus", no_argument, NULL, 'a' }, { "group", no_argument, NULL, 'g' },
		{ "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' },
		{ "per-box", no_argument, NULL, 'b' }, { "metrics", required_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	long v;
	int opt;
	opterr = 0;
	/* '+': the command's own options are not pmudb's */
	while ((opt = getopt_long(argc, argv, "+:e:I:p:ao:hM:", options, NULL)) != -1) {
		switch (opt) {
		case 'M': {
			char **more = realloc(s->metric_names, (size_t)(s->nmetric_names + 1) * sizeof(*more));
			if (!more) {
				fputs("pmudb stat: out of memory\n", stderr);
				return EXIT_USAGE;
			}
			s->metric_names = more;
			more[s->nmetric_names++] = optarg;
			break;
		}
		case 'e':
			if (parse_event_arg(s, optarg))
				return EXIT_USAGE;
			break;
		case 'j': s->json = true; break;
		case 'g': s->group_all = true; break;
		case 'b': s->per_box = true; break;
		case 'a': s->system_wide = true; break;
		case 'o': output = optarg; break;
		case 'I':
			if (!parse_long(optarg, 10, MAX_INTERVAL_MS, &v)) {
				fprintf(stderr, "pmudb stat: -I %s: the interval is milliseconds, from 10 to %ld\n", optarg,
					MAX_INTERVAL_MS);
				return EXIT_USAGE;
			}
			s->interval_ms = v;
			break;
		case 'p':
			if (!parse_long(optarg, 1, INT_MAX, &v)) {
				fprintf(stderr, "pmudb stat: -p %s: not a process id\n", optarg);
				return EXIT_USAGE;
			}
			s->pid = (pid_t)v;
			break;
		case 'h': fputs(help, stdout); return -1;
		case ':':
			fprintf(stderr, "pmudb stat: %s needs a value\n", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			if (optopt)
				fprintf(stderr, "pmudb stat: unknown option '-%c' (try pmudb stat --help)\n", optopt);
			else
				fprintf(stderr, "pmudb stat: unknown option '%s' (try pmudb stat --help)\n", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		s->command = argv + optind;
	if (!s->nevents && !s->nmetric_names) {
		fputs("pmudb stat: no event given (-e EVENT, or -M METRIC)\n", stderr);
		return EXIT_USAGE;
	}
	if (s->pid > 0 && s->system_wide) {
		fputs("pmudb stat: -p and -a choose what to count two ways: give one\n", stderr);
		return EXIT_USAGE;
	}
	if (!s->command && !s->pid && !s->system_wide) {
		fputs("pmudb stat: no command given (pmudb stat -e EVENT -- COMMAND, or -p PID, or -a)\n", stderr);
		return EXIT_USAGE;
	}
	/* opened now, so that a file that cannot be written is said before
	 * anything runs; emptied only once counting starts (count), so that
	 * a refused event or a command that does not run leaves it as it was */
	s->output = output;
	int fd = output ? open(output, O_WRONLY | O_CLOEXEC) : -1;
	if (output && fd < 0 && errno == ENOENT) {
		/* a file that is not there is made only once counting starts:
		 * its folder must take it */
		char *dir = strdup(output);
		char *slash = dir ? strrchr(dir, '/') : NULL;
		const char *where = !dir ? "." : slash ? (slash == dir ? "/" : (*slash = '\0', dir)) : ".";
		int ok = dir && !access(where, W_OK | X_OK);
		int e = errno;
		free(dir);
		if (!ok) {
			fprintf(stderr, "pmudb stat: -o %s: cannot be made: %s\n", output, strerror(e));
			return EXIT_USAGE;
		}
		s->create_out = true;
		return EXIT_GOOD;
	}
	if (output && (fd < 0 || !(s->out = fdopen(fd, "w")))) {
		fprintf(stderr, "pmudb stat: -o %s: %s\n", output, strerror(errno));
		if (fd >= 0)
			close(fd);
		s->out = stdout;
		return EXIT_USAGE;
	}
	struct stat sb;
	s->truncate_out = output && !fstat(fd, &sb) && S_ISREG(sb.st_mode);	/* not /dev/null's */
	return EXIT_GOOD;
}

static void free_run(struct stat_run *s)
{
	close_all(s);
	for (int i = 0; i < s->nevents; i++) {
		free(s->events[i].name);
		free(s->events[i].all_boxes_name);
		free(s->events[i].fds);
		free(s->events[i].ids);
	}
	for (int g = 0; s->groups && g < s->ngroups; g++)
		free(s->groups[g].targets);
	free(s->events);
	free(s->groups);
	free(s->threads);
	free(s->metric_names);
	stat_metrics_free(s->metrics);
	if (s->out && s->out != stdout)
		fclose(s->out);
	s->out = NULL;
}

/* Whether the counts reached their file (or standard output): a write that
 * failed (a full disk, /dev/full) is said in one line, not lost. */
static bool counts_written(struct stat_run *s)
{
	FILE *f = s->out ? s->out : stdout;
	bool ok = !ferror(f) && !fflush(f);
	int e = errno;
	if (f != stdout) {
		ok = !fclose(f) && ok;
		e = ok ? 0 : errno ? errno : e;
		s->out = NULL;
	}
	if (!ok)
		fprintf(stderr, "pmudb stat: %s: the counts could not be written: %s\n",
			s->output && f != stdout ? s->output : "standard output", strerror(e ? e : EIO));
	return ok;
}

/* Opens the counters, runs the command (or waits for -p/-a), reads.
 * With REJECTED (an event refused before opening) the others are still
 * opened, so that every refusal is reported at once, but nothing runs. */
static int count(struct stat_run *s, const sigset_t *orig_mask, bool rejected)
{
	struct launch l = { -1, -1 };
	fflush(s->out);
	fflush(stderr);
	if (s->command) {
		s->child = launch_start(s->command, orig_mask, &l);
		if (s->child < 0) {
			fprintf(stderr, "pmudb stat: %s: cannot start it: %s\n", s->command[0], strerror(errno));
			s->child = 0;
			return EXIT_USAGE;
		}
	}
	int status = open_all(s);
	if (rejected)
		status = EXIT_REJECTED;
	if (status != EXIT_GOOD) {
		if (s->child)
			launch_abort(s, &l);
		return status;
	}
	for (int i = 0; i < s->nevents; i++)	/* only now: a refused event gets one line, no more */
		warn_foreign_pmu(s, &s->events[i]);
	enable_all(s, PERF_EVENT_IOC_ENABLE);
	double start = now_seconds();
	if (s->child) {
		int e = launch_go(&l);
		if (e) {
			while (waitpid(s->child, NULL, 0) < 0 && errno == EINTR)
				;
			s->child = 0;
			fprintf(stderr, "pmudb stat: cannot run '%s': %s\n", s->command[0], strerror(e));
			return EXIT_USAGE;
		}
	}
	/* the command runs: the file's old text goes (a failure leaves it
	 * behind what is written, which is said) */
	if (s->truncate_out && ftruncate(fileno(s->out), 0))
		fprintf(stderr, "pmudb stat: warning: -o: cannot empty the file: %s\n", strerror(errno));
	if (s->create_out) {
		int fd = open(s->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f) {
			fprintf(stderr, "pmudb stat: -o %s: %s; the counts go to standard output\n", s->output, strerror(errno));
			if (fd >= 0)
				close(fd);
		} else {
			s->out = f;
		}
		s->create_out = false;
	}
	sigset_t waitmask = *orig_mask;
	sigdelset(&waitmask, SIGCHLD);
	sigdelset(&waitmask, SIGINT);
	sigdelset(&waitmask, SIGTERM);
	if (wait_and_tick(s, &waitmask, start))
		return EXIT_REJECTED;
	s->elapsed = now_seconds() - start;
	enable_all(s, PERF_EVENT_IOC_DISABLE);
	if (read_all(s))
		return EXIT_REJECTED;
	print_final(s);
	fflush(s->out);
	return EXIT_GOOD;
}

/* Whether EVENT encodes on a core PMU. */
static bool on_core_pmu(struct stat_run *s, const char *event)
{
	struct pmudb_encoding enc;
	struct pmudb_pmu_info info;
	int pmu;
	return !pmudb_encode(s->cli->db, event, cli_scope_for(s->cli, event), &enc, NULL)
	       && (pmu = pmudb_find_pmu(s->cli->db, enc.pmu)) >= 0 && !pmudb_pmu_info(s->cli->db, pmu, &info)
	       && !strcmp(info.kind, "core");
}

/* -M: the metrics' events, after -e's: a core PMU's in one group that
 * fit_groups splits into the fewest groups the counters hold (the events
 * of a group count over the same time, so a metric's ratio of them
 * holds); the others each alone, an uncore event on every box. */
static int add_metric_events(struct stat_run *s, int *group)
{
	s->metrics = stat_metrics_open(s->cli, s->metric_names, s->nmetric_names);
	if (!s->metrics)
		return EXIT_REJECTED;
	*group = s->ngroups++;
	for (int i = 0; i < stat_metrics_events(s->metrics); i++) {
		const char *e = stat_metrics_event(s->metrics, i);
		if (add_event(s, e, strlen(e), on_core_pmu(s, e) ? *group : s->ngroups++)) {
			fputs("pmudb stat: out of memory\n", stderr);
			return EXIT_USAGE;
		}
	}
	return EXIT_GOOD;
}

static int run_stat(struct stat_run *s)
{
	int status = cli_open(s->cli), metrics_group = -1;
	if (status == EXIT_GOOD && s->nmetric_names)
		status = add_metric_events(s, &metrics_group);
	if (status == EXIT_GOOD && (expand_hybrid(s) || expand_boxes(s) || fit_groups(s, metrics_group)
				     || (note_multiplexing(s), make_groups(s))))
		status = EXIT_USAGE;
	if (status == EXIT_GOOD && s->pid > 0)
		status = list_threads(s);
	if (status != EXIT_GOOD)
		return status;
	status = encode_events(s);
	if (status == EXIT_USAGE)
		return status;	/* a damaged catalog: the command is not run */
	bool rejected = status != EXIT_GOOD;
	status = plan_targets(s);
	if (status == EXIT_USAGE)
		return status;
	rejected |= status != EXIT_GOOD;

	/* SIGINT and SIGTERM end -p/-a counting; with a command pmudb waits for
	 * it (Ctrl-C reaches the command itself).  Blocked except inside ppoll,
	 * so none is lost between a check and the wait. */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigset_t block, orig;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &orig);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	status = count(s, &orig, rejected);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return status;
}

int cmd_stat(struct cli *c, int argc, char **argv)
{
	struct stat_run s;
	memset(&s, 0, sizeof(s));
	s.cli = c;
	s.out = stdout;
	int status = parse_options(&s, argc, argv);
	if (status == EXIT_GOOD)
		status = run_stat(&s);
	else if (status < 0)
		status = EXIT_GOOD;	/* --help */
	if (!counts_written(&s) && status == EXIT_GOOD)
		status = EXIT_USAGE;
	free_run(&s);
	cli_close(c);
	return status;
}
