/*
 * cmd_search.c - pmudb search TEXT: events and unit masks by name or
 * description.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static int print_match(void *ctx, int pmu, int event, int umask)
{
	pmudb_t *db = ctx;
	struct pmudb_pmu_info p;
	struct pmudb_event_info ev;
	/* the search names only what it read: a table it cannot read now is
	 * left out, not printed from uninitialised memory */
	if (pmudb_pmu_info(db, pmu, &p) || pmudb_event_info(db, pmu, event, &ev))
		return 0;
	if (umask < 0) {
		printf("%s::%s\t%s\n", p.name, ev.name, ev.description);
	} else {
		struct pmudb_umask_info u;
		if (pmudb_umask_info(db, pmu, event, umask, &u))
			return 0;
		printf("%s::%s:%s\t%s\n", p.name, ev.name, u.name, u.description);
	}
	return 0;
}

int cmd_search(struct cli *c, int argc, char **argv)
{
	bool dashes = cli_take_dashes(&argc, &argv);
	if (argc != 2 || (!dashes && argv[1][0] == '-')) {
		bool help = argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
		fputs("usage: pmudb search TEXT\n", help ? stdout : stderr);
		return help ? EXIT_GOOD : EXIT_USAGE;
	}
	int status = cli_open(c);
	if (status == EXIT_GOOD) {
		int n = pmudb_search(c->db, argv[1], print_match, c->db);
		if (n < 0) {
			cli_damaged(c, "the events searched");
			status = EXIT_USAGE;
		} else if (n == 0) {
			fprintf(stderr, "pmudb: search: nothing matches '%s'\n", argv[1]);
			status = EXIT_REJECTED;
		}
	}
	cli_close(c);
	return status;
}
