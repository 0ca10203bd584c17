/*
 * cmd_search.c - pmudb search [--json] TEXT|GLOB: events and unit masks by
 * name or description, or names by a shell pattern; within the PMUs of
 * --pmu, --cpu or --cpuinfo when one is given.
 */
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

struct search {
	struct cli *c;
	const char *pattern;		/* a glob over names, or NULL: TEXT anywhere */
	const struct pmudb_scope *scope;	/* NULL: every PMU */
	bool json;
	int printed;
};

static bool in_scope(const struct pmudb_scope *scope, int pmu)
{
	for (int i = 0; i < scope->count; i++)
		if (scope->pmus[i] == pmu)
			return true;
	return false;
}

/* Whether PATTERN matches the name, with or without its PMU, its unit
 * mask joined as libpfm (':') or as the vendors ('.') join it. */
static bool glob_matches(const char *pattern, const char *pmu, const char *event, const char *umask)
{
	char name[512];
	for (int form = 0; form < 4; form++) {
		const char *sep = form & 1 ? "." : ":";
		if (!umask && form & 1)
			continue;
		int n = form < 2 ? snprintf(name, sizeof(name), "%s%s%s", event, umask ? sep : "", umask ? umask : "")
				 : snprintf(name, sizeof(name), "%s::%s%s%s", pmu, event, umask ? sep : "", umask ? umask : "");
		if (n > 0 && (size_t)n < sizeof(name) && !fnmatch(pattern, name, FNM_CASEFOLD))
			return true;
	}
	return false;
}

static int print_match(void *ctx, int pmu, int event, int umask)
{
	struct search *s = ctx;
	pmudb_t *db = s->c->db;
	struct pmudb_pmu_info p;
	struct pmudb_event_info ev;
	struct pmudb_umask_info u;
	if (s->scope && !in_scope(s->scope, pmu))
		return 0;
	/* the search names only what it read: a table it cannot read now is
	 * left out, not printed from uninitialised memory */
	if (pmudb_pmu_info(db, pmu, &p) || pmudb_event_info(db, pmu, event, &ev))
		return 0;
	if (umask >= 0 && pmudb_umask_info(db, pmu, event, umask, &u))
		return 0;
	const char *um = umask >= 0 ? u.name : NULL;
	const char *description = umask >= 0 ? u.description : ev.description;
	if (s->pattern && !glob_matches(s->pattern, p.name, ev.name, um))
		return 0;
	if (s->json) {
		printf("%s{\"pmu\":", s->printed ? ",\n" : "[\n");
		json_quoted(stdout, p.name);
		printf(",\"event\":");
		json_quoted(stdout, ev.name);
		printf(",\"umask\":");
		if (um)
			json_quoted(stdout, um);
		else
			printf("null");
		printf(",\"description\":");
		json_quoted(stdout, description ? description : "");
		printf("}");
	} else if (um) {
		printf("%s::%s:%s\t%s\n", p.name, ev.name, um, description);
	} else {
		printf("%s::%s\t%s\n", p.name, ev.name, description);
	}
	s->printed++;
	return 0;
}

static int usage(bool help)
{
	fputs("usage: pmudb [--pmu PMU|UARCH | --cpu CPU | --cpuinfo FILE] search [--json] TEXT|GLOB\n"
	      "  TEXT: in an event's or unit mask's name or description (case ignored)\n"
	      "  GLOB: a pattern with * ? [...] over names (EVENT, EVENT:UMASK, EVENT.UMASK, PMU::...)\n"
	      "  --pmu, --cpu, --cpuinfo: only that PMU's, or that CPU's PMUs\n"
	      "  --json: one JSON array of {pmu, event, umask, description}\n",
	      help ? stdout : stderr);
	return help ? EXIT_GOOD : EXIT_USAGE;
}

int cmd_search(struct cli *c, int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	struct search s = { .c = c };
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		if (opt == 'j')
			s.json = true;
		else
			return usage(opt == 'h');
	}
	if (argc - optind != 1)
		return usage(false);
	const char *text = argv[optind];
	bool glob = strpbrk(text, "*?[") != NULL;
	if (glob)
		s.pattern = text;
	int status = cli_open(c);
	if (status == EXIT_GOOD && (c->pmu || c->cpu || (c->cpuinfo && !c->cpuinfo_from_env))) {
		if (cli_scope_damaged(c, "search"))
			status = EXIT_USAGE;
		else
			s.scope = cli_scope(c);
	}
	if (status == EXIT_GOOD) {
		int n = pmudb_search(c->db, glob ? "" : text, print_match, &s);
		if (s.json)
			printf(s.printed ? "\n]\n" : "[]\n");
		if (n < 0) {
			cli_damaged(c, "the events searched");
			status = EXIT_USAGE;
		} else if (s.printed == 0) {
			fprintf(stderr, "pmudb: search: nothing matches '%s'%s\n", text,
				s.scope ? " in the PMUs chosen" : "");
			status = EXIT_REJECTED;
		}
	}
	cli_close(c);
	return status;
}
