/*
 * cmd_pmus.c - pmudb pmus: the PMUs of the catalog.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int cmd_pmus(struct cli *c, int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fputs("usage: pmudb pmus\n", argc == 2 && argv[1][0] == '-' ? stdout : stderr);
		return argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) ? EXIT_GOOD : EXIT_USAGE;
	}
	int status = cli_open(c);
	if (status == EXIT_GOOD) {
		printf("%-28s %-7s %-16s %6s  %-8s %s\n", "PMU", "KIND", "FAMILY", "EVENTS", "SOURCE", "DESCRIPTION");
		for (int i = 0; i < pmudb_pmu_count(c->db); i++) {
			struct pmudb_pmu_info p;
			if (pmudb_pmu_info(c->db, i, &p)) {
				cli_damaged(c, "PMU %d", i);
				status = EXIT_USAGE;
				break;
			}
			printf("%-28s %-7s %-16s %6d  %-8s %s\n", p.name, p.kind, p.family, p.event_count,
			       p.source ? "vendor" : "libpfm", p.description);
		}
	}
	cli_close(c);
	return status;
}
