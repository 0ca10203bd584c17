/*
 * common.c - opening the catalog for a command, and output helpers.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_open(struct cli *c)
{
	struct pmudb_error err;
	c->db = pmudb_open(c->db_path, &err);
	if (!c->db) {
		fprintf(stderr, "pmudb: %s\n", err.message);
		return EXIT_USAGE;
	}
	if (!!c->pmu + !!c->cpu + !!c->cpuinfo > 1) {
		fprintf(stderr, "pmudb: --pmu, --cpu and --cpuinfo choose the PMUs three ways: give one\n");
		return EXIT_USAGE;
	}
	if (c->pmu) {
		if (pmudb_scope_pmu(c->db, c->pmu, &c->scope, &err)) {
			fprintf(stderr, "pmudb: --pmu %s: %s\n", c->pmu, err.message);
			return EXIT_USAGE;
		}
		c->has_scope = true;
		return EXIT_GOOD;
	}
	/* A CPU named by the user that the map does not know is a usage error;
	 * the host's is only an error for names without "pmu::". */
	int r;
	if (c->cpu)
		r = pmudb_cpu_parse(c->cpu, &c->host, &err);
	else if (c->cpuinfo)
		r = pmudb_cpu_from_cpuinfo(c->cpuinfo, &c->host, &err);
	else
		r = pmudb_cpu_host(&c->host, &err);
	if (!r)
		r = pmudb_scope_cpu(c->db, &c->host, &c->scope, &c->match, &err);
	c->has_scope = r == 0;
	if (r) {
		c->scope_error = err;
		if (c->cpu || c->cpuinfo) {
			fprintf(stderr, "pmudb: %s %s: %s\n", c->cpu ? "--cpu" : "--cpuinfo", c->cpu ? c->cpu : c->cpuinfo,
				err.message);
			return EXIT_USAGE;
		}
	}
	return EXIT_GOOD;
}

void cli_close(struct cli *c)
{
	pmudb_close(c->db);
	c->db = NULL;
}

/* With no CPU found, an unprefixed name matches nothing: guessing a PMU
 * could give a silently wrong encoding. */
const struct pmudb_scope *cli_scope(const struct cli *c)
{
	static const struct pmudb_scope none = { 0, { 0 } };
	return c->has_scope ? &c->scope : &none;
}

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\u%04x", *p);	/* bytes as they are: input need not be UTF-8 */
		else
			fputc(*p, f);
	}
	fputc('"', f);
}
