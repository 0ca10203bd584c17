/*
 * cmd_list.c - pmudb list [--json] [PMU]: the events of a PMU.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char usage[] = "usage: pmudb list [--json] [PMU]   (no PMU: those of --pmu or --cpu)\n";

/* With --json: one array of {pmu, event, description, umasks, source}
 * over every PMU listed; SHOWN counts the objects written. */
static bool json;
static int shown;

static int list_pmu(struct cli *c, int pmu)
{
	struct pmudb_pmu_info p;
	if (pmudb_pmu_info(c->db, pmu, &p)) {
		cli_damaged(c, "the table of PMU %d", pmu);
		return EXIT_USAGE;
	}
	for (int e = 0; e < p.event_count; e++) {
		struct pmudb_event_info ev;
		int r = pmudb_event_info(c->db, pmu, e, &ev);
		if (r == PMUDB_ERR_NOTFOUND)
			continue;	/* retired */
		if (r) {
			cli_damaged(c, "event %d of PMU %.64s", e, p.name);
			return EXIT_USAGE;
		}
		if (!json) {
			printf("%s::%s\n", p.name, ev.name);
			continue;
		}
		printf("%s{\"pmu\":", shown++ ? ",\n" : "[");
		json_quoted(stdout, p.name);
		cli_json_field("event", ev.name);
		cli_json_field("description", ev.description);
		printf(",\"umasks\":%d", ev.umask_count);
		cli_json_field("source", ev.source);
		putchar('}');
	}
	return EXIT_GOOD;
}

int cmd_list(struct cli *c, int argc, char **argv)
{
	json = false;
	shown = 0;
	if (argc >= 2 && !strcmp(argv[1], "--json")) {
		json = true;
		argv[1] = argv[0];
		argv++, argc--;
	}
	bool dashes = cli_take_dashes(&argc, &argv);
	if (argc > 2 || (argc == 2 && !dashes && argv[1][0] == '-')) {
		bool help = argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
		fputs(usage, help ? stdout : stderr);
		return help ? EXIT_GOOD : EXIT_USAGE;
	}
	int status = cli_open(c);
	if (status != EXIT_GOOD) {
		cli_close(c);
		return status;
	}
	if (argc == 2) {
		int p = pmudb_find_pmu(c->db, argv[1]);
		if (p < 0) {
			fprintf(stderr, "pmudb: list: unknown PMU '%s' (see pmudb pmus)\n", argv[1]);
			status = EXIT_REJECTED;
		} else {
			status = list_pmu(c, p);
		}
	} else if (cli_scope(c)->count == 0) {
		if (!cli_scope_damaged(c, "list"))
			fputs("pmudb: list: name a PMU, or select one with --pmu or --cpu\n", stderr);
		status = EXIT_USAGE;
	} else {
		for (int i = 0; i < cli_scope(c)->count && status == EXIT_GOOD; i++)
			status = list_pmu(c, cli_scope(c)->pmus[i]);
	}
	if (json && (status == EXIT_GOOD || shown))
		puts(shown ? "]" : "[]");
	cli_close(c);
	return status;
}
