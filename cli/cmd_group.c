/*
 * cmd_group.c - pmudb group [--json] [--smt on|off] [--counters N[,F]]
 * EVENT...: whether the events can be counted at once, as one group per
 * PMU, with the catalog's counter constraints (pmudb_group): where each
 * goes when they fit, else the events that compete and the smallest split
 * into groups that each fit.  Answers offline (--cpu) as on the host.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static const char help[] =
	"usage: pmudb group [--json] [--smt on|off] [--counters N[,F]] EVENT...\n"
	"\n"
	"Whether the EVENTs can be counted at once, as one group per PMU (perf opens\n"
	"a hybrid's group on each core type), by the counters each may use: the\n"
	"vendors' lists (Counter, CounterHTOff, PEBScounters, TakenAlone, counter.json)\n"
	"and the encodings Linux puts on a fixed counter (tables/counters.yaml).  The\n"
	"placing is exact: fixed counters first, as the kernel does.  When they fit,\n"
	"where each goes; when not, the events that compete for too few counters and\n"
	"the smallest split into groups that each fit.\n"
	"\n"
	"  --json            one JSON object (docs/commands.md)\n"
	"  --smt on|off      as with SMT (Hyper-Threading) on or off: pre-Ice Lake Intel\n"
	"                    cores have more general counters with it off (default: this\n"
	"                    host's, read from /sys/devices/system/cpu/smt/active; on\n"
	"                    with --cpu or --pmu)\n"
	"  --counters N[,F]  N general and F fixed counters, whatever the catalog says\n"
	"                    (for a PMU whose counters no list states)\n"
	"\n"
	"exit status: 0 the events fit, 1 an event was rejected, 2 usage or catalog\n"
	"error (or a PMU whose counters are not known), 3 they do not fit (the split\n"
	"is printed)\n";

/* "0-3,6" for the counters of MASK; "none" for none. */
void cli_counter_list(uint64_t mask, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < 64 && used < size; i++) {
		if (!(mask >> i & 1))
			continue;
		int j = i;
		while (j + 1 < 64 && (mask >> (j + 1) & 1))
			j++;
		int w = j > i ? snprintf(buf + used, size - used, "%s%d-%d", used ? "," : "", i, j)
			      : snprintf(buf + used, size - used, "%s%d", used ? "," : "", i);
		used += w > 0 ? (size_t)w : 0;
		i = j;
	}
	if (!buf[0])
		snprintf(buf, size, "none");
}

static void counter_name(int counter, char *buf, size_t size)
{
	if (counter < 0)
		snprintf(buf, size, "%s", "-");
	else if (counter >= PMUDB_GROUP_FIXED)
		snprintf(buf, size, "fixed %d", counter - PMUDB_GROUP_FIXED);
	else
		snprintf(buf, size, "general %d", counter);
}

/* What counters M may use, in words. */
static void where_text(const struct pmudb_group_member *m, char *buf, size_t size)
{
	char g[200], f[100];
	if (m->where.no_counter) {
		snprintf(buf, size, "%s", m->where.free_running ? "a free-running counter" : "no counter");
		return;
	}
	cli_counter_list(m->where.general, g, sizeof(g));
	cli_counter_list(m->where.fixed, f, sizeof(f));
	snprintf(buf, size, "%s%s%s%s%s%s", m->where.general ? "general " : "", m->where.general ? g : "",
		 m->where.general && m->where.fixed ? ", " : "", m->where.fixed ? "fixed " : "", m->where.fixed ? f : "",
		 m->where.taken_alone ? ", taken alone" : "");
}

static void print_text(const struct pmudb_group *g, char **events, bool smt_off)
{
	for (int p = 0; p < g->npmus; p++) {
		const struct pmudb_group_pmu *u = &g->pmus[p];
		const struct pmudb_group_member *m = g->members + u->first;
		if (!u->count.known)
			printf("%s: its events need no counter\n", u->pmu);	/* else place_pmu refused */
		else if (smt_off && u->count.generic_smt_off > 0 && u->count.generic_smt_off != u->count.generic)
			printf("%s: %d general counters with SMT off (%d with it on), %d fixed (%s)\n", u->pmu,
			       u->count.generic_smt_off, u->count.generic, u->count.fixed, u->count.source);
		else
			printf("%s: %d general, %d fixed counters (%s)\n", u->pmu, u->count.generic, u->count.fixed,
			       u->count.source);
		if (u->fits)
			printf("  fits: yes\n");
		else if (u->parts < 0)
			printf("  fits: no: an event has no counter on %s\n", u->pmu);
		else if (u->could_fit)
			printf("  fits: no: the counters could hold them, but Linux's scheduler (by weight, first free counter)"
			       " does not find the order: it refuses the group\n");
		else {
			printf("  fits: no:");
			const char *sep = " ";
			for (int i = 0; i < u->n; i++)
				if (m[i].competes) {
					printf("%s%s", sep, events[m[i].event]);
					sep = ", ";
				}
			printf(" compete for %d counter%s\n", u->competing_counters, u->competing_counters == 1 ? "" : "s");
		}
		for (int i = 0; i < u->n; i++) {
			char at[32], can[400];
			counter_name(m[i].counter, at, sizeof(at));
			where_text(&m[i], can, sizeof(can));
			printf("  %-40s %-10s may use %s  (%s%s%s)\n", events[m[i].event], u->fits ? at : "",
			       can, m[i].where.stated ? m[i].where.event : "", m[i].where.stated ? ": " : "",
			       m[i].where.source);
		}
		if (!u->fits && u->parts > 0) {
			printf("  smallest split: %d groups%s\n", u->parts, u->exact ? "" : " (first-fit: not proven smallest)");
			for (int k = 0; k < u->parts; k++) {
				printf("    {");
				const char *sep = "";
				for (int i = 0; i < u->n; i++)
					if (m[i].part == k) {
						printf("%s%s", sep, events[m[i].event]);
						sep = ",";
					}
				printf("}\n");
			}
		}
	}
}

static void print_json(const struct pmudb_group *g, char **events, bool all_fit)
{
	printf("{\"fits\":%s,\"pmus\":[", all_fit ? "true" : "false");
	for (int p = 0; p < g->npmus; p++) {
		const struct pmudb_group_pmu *u = &g->pmus[p];
		const struct pmudb_group_member *m = g->members + u->first;
		printf("%s{\"pmu\":", p ? "," : "");
		json_quoted(stdout, u->pmu);
		printf(",\"generic\":%d,\"fixed\":%d", u->count.generic, u->count.fixed);
		if (u->count.generic_smt_off >= 0)
			printf(",\"generic_smt_off\":%d", u->count.generic_smt_off);
		else
			printf(",\"generic_smt_off\":null");
		cli_json_field("counters_source", u->count.known ? u->count.source : NULL);
		printf(",\"fits\":%s,\"could_fit\":%s,\"parts\":%d,\"exact\":%s,\"competing_counters\":%d,\"events\":[",
		       u->fits ? "true" : "false", u->could_fit ? "true" : "false", u->parts, u->exact ? "true" : "false", u->competing_counters);
		for (int i = 0; i < u->n; i++) {
			const struct pmudb_counters *w = &m[i].where;
			printf("%s{\"event\":", i ? "," : "");
			json_quoted(stdout, events[m[i].event]);
			printf(",\"index\":%d,\"config\":\"0x%llx\",\"counter\":", m[i].event, (unsigned long long)m[i].enc.config);
			if (m[i].counter < 0)
				printf("null");
			else
				printf("{\"kind\":\"%s\",\"number\":%d}", m[i].counter >= PMUDB_GROUP_FIXED ? "fixed" : "general",
				       m[i].counter % PMUDB_GROUP_FIXED);
			putchar(',');
			cli_counters_json(w);
			printf(",\"part\":%d,\"competes\":%s}", m[i].part, m[i].competes ? "true" : "false");
		}
		printf("]}");
	}
	printf("]}\n");
}

int cmd_group(struct cli *c, int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' }, { "smt", required_argument, NULL, 's' },
		{ "counters", required_argument, NULL, 'n' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct pmudb_group_options o = {0};
	bool json = false, smt_given = false;
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'j': json = true; break;
		case 's':
			if (strcmp(optarg, "on") && strcmp(optarg, "off")) {
				fprintf(stderr, "pmudb: group: --smt '%s': on or off\n", optarg);
				return EXIT_USAGE;
			}
			o.smt_off = !strcmp(optarg, "off");
			smt_given = true;
			break;
		case 'n': {
			char *end;
			long n = strtol(optarg, &end, 10), f = 0;
			if (*end == ',')
				f = strtol(end + 1, &end, 10);
			if (*end || n < 1 || n > 64 || f < 0 || f > 32) {
				fprintf(stderr, "pmudb: group: --counters '%s': N general (1-64)[,F fixed (0-32)]\n", optarg);
				return EXIT_USAGE;
			}
			o.generic = (int)n;
			o.fixed = (int)f;
			break;
		}
		case 'h': fputs(help, stdout); return EXIT_GOOD;
		default: fputs("usage: pmudb group [--json] [--smt on|off] [--counters N[,F]] EVENT...\n", stderr); return EXIT_USAGE;
		}
	}
	int n = argc - optind;
	if (n < 1 || n > 32) {
		fputs("pmudb: group: give 1 to 32 events (usage: pmudb group [--json] [--smt on|off] [--counters N[,F]] EVENT...)\n",
		      stderr);
		return EXIT_USAGE;
	}
	char **events = argv + optind;
	int status = cli_open(c);
	if (status != EXIT_GOOD) {
		cli_close(c);
		return status;
	}
	if (!smt_given && !c->cpu && !c->npmus && !c->cpuinfo)
		o.smt_off = cli_smt_active() == 0;	/* off only where the kernel says so */
	/* each event encodes first, on its own, for an error that names it
	 * (and the host's missing CPU, and the names near it) */
	const struct pmudb_scope *scope = NULL;
	struct pmudb_error err = {0};
	for (int i = 0; i < n; i++) {
		struct pmudb_encoding enc[8];
		const struct pmudb_scope *s = cli_scope_for(c, events[i]);
		int r = pmudb_encode_each(c->db, events[i], s, enc, 8, &err);
		if (r <= 0) {
			r = cli_why_not_found(c, events[i], r, &err);
			cli_add_suggestion(c, events[i], &err);
			fprintf(stderr, "pmudb: group: %s: %s\n", events[i], err.message);
			cli_close(c);
			return r == PMUDB_ERR_CATALOG ? EXIT_USAGE : EXIT_REJECTED;
		}
		if (s)
			scope = s;
	}
	struct pmudb_group g = {0};
	int r = pmudb_group(c->db, (const char *const *)events, n, scope, &o, &g, &err);
	if (r) {
		fprintf(stderr, "pmudb: group: %s\n", err.message);
		cli_close(c);
		return EXIT_USAGE;
	}
	bool all_fit = true;
	for (int p = 0; p < g.npmus; p++)
		all_fit &= g.pmus[p].fits;
	if (json)
		print_json(&g, events, all_fit);
	else
		print_text(&g, events, o.smt_off);
	pmudb_group_free(&g);
	cli_close(c);
	return all_fit ? EXIT_GOOD : EXIT_DOES_NOT_FIT;
}
