/*
 * main.c - the pmudb command: global options, then one command.
 */
#include <getopt.h>
#include <sqlite3.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static const char usage[] =
	"usage: pmudb [OPTIONS] COMMAND [ARGS]   (OPTIONS may also follow COMMAND)\n"
	"\n"
	"Encodes libpfm4 event strings (pmu::event:umask:modifier=value) into\n"
	"perf_event_attr fields from the pmudb catalog, without libpfm.\n"
	"\n"
	"commands:\n"
	"  encode [--format text|json|perf] [--explain] [--box N] EVENT...   encode events (on each core type of a\n"
	"                                              hybrid; an uncore event on box N of its kernel PMU)\n"
	"  encode --stdin                              one event per input line, one JSON object per output line\n"
	"  pmus [--json]                               list the PMUs of the catalog\n"
	"  list [--json] [PMU]                         list the events of a PMU (default: the selected ones)\n"
	"  info [--json] EVENT                         description, unit masks, modifiers, counters of an event\n"
	"  search [--json] TEXT|GLOB                   events and unit masks whose name or description has TEXT,\n"
	"                                              or whose name matches GLOB (* ? [..]); --pmu/--cpu: theirs only\n"
	"  detect [--json]                             the CPU, the CPUID map entry it matched, its PMUs\n"
	"  stat [-e EVENT]... [-M METRIC]... [--json] [-I MS] -- COMMAND   count the events around COMMAND\n"
	"                                              (or -p PID, -a); -M: a metric's events, and its value\n"
	"  decode [--json] ENCODING...                 the event strings that encode to 0x1c2, r01c2, cpu/event=.../\n"
	"  diff [--json] PMU_A PMU_B                   events and unit masks only in one, or encoded differently\n"
	"  export --format json|csv|perf-json [--pmu P]... [--out DIR|FILE]   the catalog for other tools\n"
	"  metrics [--json] [METRIC|GROUP]             the vendors' metrics of the selected PMUs\n"
	"  metric eval METRIC|GROUP --counts FILE      compute metrics from counts taken anywhere (JSON)\n"
	"  sources [--json] [UARCH]                    the vendor lists the catalog was built from: per µarch\n"
	"                                              the list encoded (source, version, date), those it superseded\n"
	"  group [--json] [--smt on|off] EVENT...      whether the events can be counted at once (per PMU): where\n"
	"                                              each goes, or what competes and the smallest split\n"
	"\n"
	"options:\n"
	"  --db PATH        catalog file to use (default: $PMUDB_DB, else the built-in catalog)\n"
	"  --pmu NAME       resolve event names without 'pmu::' in PMU NAME, or in the PMUs of the vendor\n"
	"                   µarch NAME (graniterapids, alderlake: perf's folder name)\n"
	"  --cpu V/F/M[/S]  resolve them in the PMUs of that CPU (e.g. AuthenticAMD/0x19/0x61, or\n"
	"                   perf's GenuineIntel-6-AD: family decimal, model and stepping hex)\n"
	"  --cpuinfo FILE   ... of the CPU in that /proc/cpuinfo (default: $PMUDB_CPUINFO, else this host)\n"
	"  --help           this text\n"
	"  --version        pmudb's version, and the libpfm, tables and vendor lists its catalog was built from\n"
	"\n"
	"exit status: 0 all good, 1 an event was rejected (or nothing found), 2 usage or catalog error,\n"
	"3 (group) the events do not fit at once\n";

/* What a command that runs another (stat) says of its own options: which
 * take the next argument as their value. */
struct own_options {
	const char *short_values;	/* "eIpo" */
	const char *const *long_values;	/* "--event" ..., NULL-ended */
};

/* Whether ARG, an option of the command's own, takes the next argument as
 * its value ("-e", "-ae", "--event"; not "-eEVENT" or "--event=E"). */
static bool takes_next(const char *arg, const struct own_options *own)
{
	if (arg[1] == '-') {
		for (const char *const *l = own->long_values; *l; l++)
			if (!strcmp(arg, *l))
				return true;
		return false;
	}
	for (const char *p = arg + 1; *p; p++)
		if (strchr(own->short_values, *p))
			return !p[1];	/* the rest of the cluster is its value */
	return false;
}

/*
 * The options that choose the catalog and the PMUs may also follow the
 * command (pmudb encode --pmu skl EVENT): they are taken out of the
 * command's arguments here, so each command parses only its own.  For a
 * command that runs another (OWN not NULL), only up to that command: what
 * follows is its arguments (pmudb stat -e E make --db x: make's --db).
 */
static int take_global_options(struct cli *c, int *argc, char **argv, const struct own_options *own)
{
	static const struct { const char *name; int offset; } globals[] = {
		{ "--db", offsetof(struct cli, db_path) }, { "--pmu", offsetof(struct cli, pmu) },
		{ "--cpu", offsetof(struct cli, cpu) }, { "--cpuinfo", offsetof(struct cli, cpuinfo) },
	};
	int out = 1;
	bool value_next = false;
	for (int i = 1; i < *argc; i++) {
		bool taken = false;
		bool operand = own && !value_next && (argv[i][0] != '-' || !argv[i][1]);
		if (!strcmp(argv[i], "--") || operand) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (value_next) {
			value_next = false;
			argv[out++] = argv[i];
			continue;
		}
		for (size_t g = 0; g < sizeof(globals) / sizeof(globals[0]) && !taken; g++) {
			size_t n = strlen(globals[g].name);
			const char **field = (const char **)((char *)c + globals[g].offset);
			if (!strncmp(argv[i], globals[g].name, n) && argv[i][n] == '=') {
				*field = argv[i] + n + 1;
				taken = true;
			} else if (!strcmp(argv[i], globals[g].name)) {
				if (i + 1 >= *argc) {
					fprintf(stderr, "pmudb: %s needs a value\n", globals[g].name);
					return -1;
				}
				*field = argv[++i];
				taken = true;
			}
			if (taken && field == &c->pmu) {
				if (c->npmus == (int)(sizeof(c->pmus) / sizeof(c->pmus[0]))) {
					fprintf(stderr, "pmudb: --pmu given more than %d times\n", c->npmus);
					return -1;
				}
				c->pmus[c->npmus++] = c->pmu;
			}
		}
		if (!taken) {
			value_next = own && takes_next(argv[i], own);
			argv[out++] = argv[i];
		}
	}
	*argc = out;
	argv[out] = NULL;
	return 0;
}

/* What was written must have reached standard output: a full disk, a
 * closed or broken pipe is an error (one line, exit 2), not exit 0 with
 * the output lost. */
static int output_written(int status)
{
	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return status;
	fprintf(stderr, "pmudb: standard output: write failed%s%s\n", errno ? ": " : "", errno ? strerror(errno) : "");
	return EXIT_USAGE;
}

static const char *const stat_long_values[] = { "--event", "--interval", "--pid", "--output", "--metrics", NULL };
static const struct own_options stat_options = { "eIpoM", stat_long_values };

static const struct {
	const char *name;
	int (*run)(struct cli *c, int argc, char **argv);
	const struct own_options *runs_a_command;	/* cmd_stat.c's options */
} commands[] = {
	{ "encode", cmd_encode, NULL }, { "pmus", cmd_pmus, NULL }, { "list", cmd_list, NULL },
	{ "info", cmd_info, NULL }, { "search", cmd_search, NULL }, { "detect", cmd_detect, NULL },
	{ "stat", cmd_stat, &stat_options }, { "decode", cmd_decode, NULL }, { "export", cmd_export, NULL },
	{ "diff", cmd_diff, NULL }, { "metrics", cmd_metrics, NULL }, { "metric", cmd_metric, NULL },
	{ "sources", cmd_sources, NULL }, { "group", cmd_group, NULL },
};

int main(int argc, char **argv)
{
	/* A short process reads SQLite's pages in place (the catalog is
	 * mapped): the page cache's first bulk allocation, 20 slots written
	 * one a page, cost a one-event encode 22 of its 132 page faults. */
	sqlite3_config(SQLITE_CONFIG_PAGECACHE, NULL, 0, 0);
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "pmu", required_argument, NULL, 'p' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "cpuinfo", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli c = { .db_path = getenv("PMUDB_DB") };
	if (c.db_path && !*c.db_path)
		c.db_path = NULL;
	int opt;
	bool version = false;
	/* '+': options after the command name belong to the command */
	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		switch (opt) {
		case 'd': c.db_path = optarg; break;
		case 'p':
			if (c.npmus == (int)(sizeof(c.pmus) / sizeof(c.pmus[0]))) {
				fprintf(stderr, "pmudb: --pmu given more than %d times\n", c.npmus);
				return EXIT_USAGE;
			}
			c.pmu = optarg;
			c.pmus[c.npmus++] = optarg;
			break;
		case 'c': c.cpu = optarg; break;
		case 'i': c.cpuinfo = optarg; break;
		case 'h': fputs(usage, stdout); return output_written(EXIT_GOOD);
		case 'V': version = true; break;
		default: fputs(usage, stderr); return EXIT_USAGE;
		}
	}
	if (version && optind < argc) {
		fprintf(stderr, "pmudb: --version takes no command ('%s')\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (version)
		return output_written(print_version(&c));	/* with the catalog --db names, wherever it is given */
	if (optind >= argc) {
		fprintf(stderr, "pmudb: no command given\n%s", usage);
		return EXIT_USAGE;
	}
	const char *name = argv[optind];
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name)) {
			int sub_argc = argc - optind;
			char **sub_argv = argv + optind;
			if (take_global_options(&c, &sub_argc, sub_argv, commands[i].runs_a_command))
				return EXIT_USAGE;
			/* $PMUDB_CPUINFO stands where no option chooses the PMUs */
			const char *env = getenv("PMUDB_CPUINFO");
			if (!c.cpuinfo && !c.pmu && !c.cpu && env && *env) {
				c.cpuinfo = env;
				c.cpuinfo_from_env = true;
			}
			c.command = name;
			/* getopt's messages start with argv[0]: "pmudb encode: ..." */
			char program[32];
			snprintf(program, sizeof(program), "pmudb %s", name);
			sub_argv[0] = program;
			optind = 0;	/* the command parses its own options */
			return output_written(commands[i].run(&c, sub_argc, sub_argv));
		}
	fprintf(stderr, "pmudb: unknown command '%s' (try pmudb --help)\n", name);
	return EXIT_USAGE;
}
