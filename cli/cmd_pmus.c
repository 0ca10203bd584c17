/*
 * cmd_pmus.c - pmudb pmus [--json]: the PMUs of the catalog.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char usage[] = "usage: pmudb pmus [--json]\n";

/* One PMU as a JSON object: its fields, its counters and where they come
 * from (docs/commands.md). */
static void print_json(struct cli *c, const struct pmudb_pmu_info *p, bool first)
{
	printf("%s{\"name\":", first ? "" : ",\n");
	json_quoted(stdout, p->name);
	cli_json_field("kind", p->kind);
	cli_json_field("family", p->family);
	cli_json_field("family_group", p->family_group);
	printf(",\"events\":%d", p->event_count);
	cli_json_field("source", p->source);
	cli_json_field("like", p->like);
	cli_json_field("sysfs_pmu", p->sysfs_pmu);
	printf(",\"perf_type\":%d", p->perf_type);
	cli_json_field("description", p->description);
	struct pmudb_counter_count count;
	if (!pmudb_pmu_counters(c->db, p->name, &count, NULL) && count.known) {
		printf(",\"counters\":{\"generic\":%d,\"fixed\":%d,\"generic_smt_off\":", count.generic, count.fixed);
		if (count.generic_smt_off >= 0)
			printf("%d", count.generic_smt_off);
		else
			fputs("null", stdout);
		cli_json_field("source", count.source);
		putchar('}');
	} else {
		fputs(",\"counters\":null", stdout);
	}
	putchar('}');
}

int cmd_pmus(struct cli *c, int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	bool json = false;
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'j': json = true; break;
		case 'h':
			fputs(usage, stdout);
			fputs("  every PMU of the catalog: name, kind, encoding family, events, source\n"
			      "  (libpfm's or a vendor list's) and description; --json: one JSON array of\n"
			      "  objects, each with its counters (docs/commands.md)\n",
			      stdout);
			return EXIT_GOOD;
		default: fputs(usage, stderr); return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	int status = cli_open(c);
	if (status == EXIT_GOOD) {
		if (json)
			putchar('[');
		else
			printf("%-28s %-7s %-16s %6s  %-8s %s\n", "PMU", "KIND", "FAMILY", "EVENTS", "SOURCE", "DESCRIPTION");
		for (int i = 0; i < pmudb_pmu_count(c->db); i++) {
			struct pmudb_pmu_info p;
			if (pmudb_pmu_info(c->db, i, &p)) {
				cli_damaged(c, "PMU %d", i);
				status = EXIT_USAGE;
				break;
			}
			if (json)
				print_json(c, &p, i == 0);
			else
				printf("%-28s %-7s %-16s %6d  %-8s %s\n", p.name, p.kind, p.family, p.event_count,
				       p.source ? "vendor" : "libpfm", p.description);
		}
		if (json)
			puts("]");
	}
	cli_close(c);
	return status;
}
