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
	if (c->pmu && c->cpu) {
		fprintf(stderr, "pmudb: --pmu and --cpu cannot go together\n");
		return EXIT_USAGE;
	}
	if (c->pmu) {
		if (pmudb_scope_pmu(c->db, c->pmu, &c->scope, &err)) {
			fprintf(stderr, "pmudb: --pmu %s: %s\n", c->pmu, err.message);
			return EXIT_USAGE;
		}
		c->has_scope = true;
	} else if (c->cpu) {
		fprintf(stderr, "pmudb: --cpu %s: CPU selection is not available yet; use --pmu or pmu::EVENT\n", c->cpu);
		return EXIT_USAGE;
	}
	return EXIT_GOOD;
}

void cli_close(struct cli *c)
{
	pmudb_close(c->db);
	c->db = NULL;
}

/* With no CPU or PMU selected, an unprefixed name matches nothing: guessing
 * a PMU could give a silently wrong encoding. */
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
