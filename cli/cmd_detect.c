/*
 * cmd_detect.c - pmudb detect: the CPU (this host's, or --cpu/--cpuinfo),
 * the CPUID map entry it matched and why, and its PMUs.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* The names of the scope's PMUs, into NAMES: false (the error printed)
 * when the catalog cannot give one, before anything is printed. */
static bool scope_names(const struct cli *c, const char **names)
{
	for (int i = 0; i < c->scope.count; i++) {
		struct pmudb_pmu_info p;
		if (pmudb_pmu_info(c->db, c->scope.pmus[i], &p) || !p.name) {
			cli_damaged(c, "PMU %d", c->scope.pmus[i]);
			return false;
		}
		names[i] = p.name;
	}
	return true;
}

static void print_json(const struct cli *c, const char **names)
{
	fputs("{\"vendor\":", stdout);
	json_string(stdout, c->host.vendor);
	printf(",\"family\":%d,\"model\":%d,\"stepping\":%d,\"pmus\":[", c->host.family, c->host.model, c->host.stepping);
	for (int i = 0; i < c->scope.count; i++) {
		if (i)
			putchar(',');
		json_string(stdout, names[i]);
	}
	fputs("],\"why\":", stdout);
	json_string(stdout, c->has_scope ? c->match.why : "");
	fputs(",\"source\":", stdout);
	json_string(stdout, c->has_scope ? c->match.source : "");
	if (!c->has_scope) {
		fputs(",\"error\":", stdout);
		json_string(stdout, c->scope_error.message);
	}
	fputs("}\n", stdout);
}

static void print_text(const struct cli *c, const char **names)
{
	printf("vendor    %s\nfamily    %d (0x%x)\nmodel     %d (0x%x)\n", c->host.vendor, c->host.family,
	       (unsigned)c->host.family, c->host.model, (unsigned)c->host.model);
	if (c->host.stepping >= 0)
		printf("stepping  %d\n", c->host.stepping);
	printf("entry     %s\nwhy       %s\npmus     ", c->match.source, c->match.why);
	for (int i = 0; i < c->scope.count; i++)
		printf(" %s", names[i]);
	putchar('\n');
}

int cmd_detect(struct cli *c, int argc, char **argv)
{
	bool json = argc == 2 && !strcmp(argv[1], "--json");
	if (argc > 2 || (argc == 2 && !json)) {
		bool help = argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
		fputs("usage: pmudb [--cpu V/F/M[/S] | --cpuinfo FILE] detect [--json]\n", help ? stdout : stderr);
		return help ? EXIT_GOOD : EXIT_USAGE;
	}
	if (c->pmu) {
		fputs("pmudb: detect: --pmu names no CPU; use --cpu or --cpuinfo\n", stderr);
		return EXIT_USAGE;
	}
	/* detect reports a CPU with no table itself, so it opens without --cpu */
	const char *cpu = c->cpu, *cpuinfo = c->cpuinfo;
	struct pmudb_error err;
	c->cpu = c->cpuinfo = NULL;
	int status = cli_open(c);
	if (status == EXIT_GOOD) {
		int r = cpu ? pmudb_cpu_parse(cpu, &c->host, &err)
		      : cpuinfo ? pmudb_cpu_from_cpuinfo(cpuinfo, &c->host, &err) : pmudb_cpu_host(&c->host, &err);
		if (r) {
			fprintf(stderr, "pmudb: detect: %s\n", err.message);
			cli_close(c);
			return EXIT_USAGE;
		}
		r = pmudb_scope_cpu(c->db, &c->host, &c->scope, &c->match, &err);
		if (r == PMUDB_ERR_CATALOG) {
			/* a damaged catalog, not an answer about the CPU */
			fprintf(stderr, "pmudb: detect: %s\n", err.message);
			cli_close(c);
			return EXIT_USAGE;
		}
		c->has_scope = r == 0;
		c->scope_error = err;
		const char *names[PMUDB_SCOPE_MAX];
		if (!scope_names(c, names)) {
			cli_close(c);
			return EXIT_USAGE;
		}
		if (json)
			print_json(c, names);
		else if (c->has_scope)
			print_text(c, names);
		if (r) {
			if (!json)
				fprintf(stderr, "pmudb: detect: %s\n", err.message);
			status = r == PMUDB_ERR_NOCPU ? EXIT_REJECTED : EXIT_USAGE;
		}
	}
	cli_close(c);
	return status;
}
