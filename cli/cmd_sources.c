/*
 * cmd_sources.c - pmudb sources [--json] [UARCH]: the vendor lists the
 * catalog was built from, per µarch the one encoded (its source, version,
 * date and what it lists) and the older ones it superseded, with how many
 * entries changed (pmudb diff UARCH@OLD UARCH@NEW lists them).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

struct listing {
	struct cli *c;
	bool json;
	int shown;
	pmudb_t *db;
};

static int count_change(void *ctx, const struct pmudb_list_change *change)
{
	(void)change;
	(*(int *)ctx)++;
	return 0;
}

static int show(void *ctx, const struct pmudb_vendor_list *l)
{
	struct listing *s = ctx;
	int changes = 0;
	struct pmudb_error err = {0};
	if (l->superseded_by && pmudb_list_changes(s->db, l->id, count_change, &changes, &err) < 0)
		changes = -1;
	if (s->json) {
		fputs(s->shown ? ",\n{\"uarch\":" : "{\"uarch\":", stdout);
		json_quoted(stdout, l->uarch);
		printf(",\"encoded\":%s", l->superseded_by ? "false" : "true");
		cli_json_field("source", l->source);
		cli_json_field("layout", l->layout);
		cli_json_field("file", l->file);
		cli_json_field("version", l->version);
		cli_json_field("date", l->date);
		printf(",\"events\":%d,\"uncore\":%d,\"metrics\":%d", l->events, l->uncore, l->metrics);
		cli_json_field("kept", l->kept);
		if (l->superseded_by)
			printf(",\"changes\":%d", changes);
		putchar('}');
	} else {
		if (!l->superseded_by)
			printf("%-30s %-8s %-7s %-10s %6d %6d %7d  %s\n", l->uarch, l->layout, l->version ? l->version : "-",
			       l->date ? l->date : "-", l->events, l->uncore, l->metrics, l->source);
		else
			printf("  supersedes %-18s %-8s %-7s %-10s %6d %6d %7d  %s; %d changes%s%s%s\n", "", l->layout,
			       l->version ? l->version : "-", l->date ? l->date : "-", l->events, l->uncore, l->metrics,
			       l->source, changes, l->kept ? "; its " : "", l->kept ? l->kept : "",
			       l->kept ? " still encoded" : "");
	}
	s->shown++;
	return 0;
}

int cmd_sources(struct cli *c, int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct listing s = { .c = c };
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'j': s.json = true; break;
		case 'h':
			puts("usage: pmudb sources [--json] [UARCH]\n"
			     "  the vendor lists the catalog was built from: per µarch (perf's folder name,\n"
			     "  graniterapids or x86/graniterapids) the list encoded, its source, version, date\n"
			     "  and what it lists, then the older lists it superseded and how many entries\n"
			     "  changed (pmudb diff UARCH@OLD UARCH@NEW lists them)\n"
			     "  exit status: 0 listed, 1 no list of that µarch, 2 usage or catalog error");
			return EXIT_GOOD;
		default: fputs("usage: pmudb sources [--json] [UARCH]\n", stderr); return EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		fputs("usage: pmudb sources [--json] [UARCH]\n", stderr);
		return EXIT_USAGE;
	}
	const char *uarch = optind < argc ? argv[optind] : NULL;
	int status = cli_open(c);
	if (status != EXIT_GOOD) {
		cli_close(c);
		return status;
	}
	s.db = c->db;
	if (s.json)
		fputs("[", stdout);
	else
		printf("%-30s %-8s %-7s %-10s %6s %6s %7s  %s\n", "UARCH", "LAYOUT", "VERSION", "DATE", "EVENTS", "UNCORE",
		       "METRICS", "SOURCE");
	struct pmudb_error err = {0};
	int n = pmudb_vendor_lists(c->db, uarch, show, &s, &err);
	if (s.json)
		fputs("]\n", stdout);
	if (n < 0) {
		fprintf(stderr, "pmudb: sources: %s\n", err.message);
		status = EXIT_USAGE;
	} else if (!n && uarch) {
		fprintf(stderr, "pmudb: sources: no vendor list of µarch '%s' in this catalog\n", uarch);
		status = EXIT_REJECTED;
	} else if (!n && !s.json) {
		puts("(this catalog was built without vendor lists)");
	}
	cli_close(c);
	return status;
}
