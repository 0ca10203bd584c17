/*
 * cmd_encode.c - pmudb encode: event strings to perf_event_attr fields.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum format { TEXT, JSON, PERF };

static void print_json(FILE *f, const char *event, const struct pmudb_encoding *e)
{
	fputs("{\"event\":", f);
	json_string(f, event);
	fputs(",\"pmu\":", f);
	json_string(f, e->pmu);
	fputs(",\"fstr\":", f);
	json_string(f, e->fstr);
	fprintf(f, ",\"type\":%d,\"config\":\"0x%llx\",\"config1\":\"0x%llx\",\"config2\":\"0x%llx\"", e->type,
		(unsigned long long)e->config, (unsigned long long)e->config1, (unsigned long long)e->config2);
	fprintf(f, ",\"exclude_user\":%d,\"exclude_kernel\":%d,\"exclude_hv\":%d,\"exclude_host\":%d,\"exclude_guest\":%d",
		e->exclude_user, e->exclude_kernel, e->exclude_hv, e->exclude_host, e->exclude_guest);
	fprintf(f, ",\"precise_ip\":%u,\"sample_period\":%llu,\"freq\":%d,\"exclusive\":%d,\"pinned\":%d",
		e->precise_ip, (unsigned long long)e->sample_period, e->freq, e->exclusive, e->pinned);
	if (e->sysfs_pmu[0]) {
		fputs(",\"sysfs_pmu\":", f);
		json_string(f, e->sysfs_pmu);
	}
	fputs("}\n", f);
}

static void print_json_error(FILE *f, const char *event, const struct pmudb_error *err)
{
	fputs("{\"event\":", f);
	json_string(f, event);
	fputs(",\"error\":", f);
	json_string(f, err->message);
	fputs(",\"error_code\":", f);
	json_string(f, pmudb_error_name(err->code));
	fputs("}\n", f);
}

static void print_text(const struct pmudb_encoding *e)
{
	printf("%s\n", e->fstr);
	if (e->type >= 0)
		printf("  type            %d\n", e->type);
	else
		printf("  type            unresolved (kernel PMU %s is not in this machine's sysfs)\n", e->sysfs_pmu);
	if (e->sysfs_pmu[0])
		printf("  kernel PMU      %s\n", e->sysfs_pmu);
	printf("  config          0x%llx\n  config1         0x%llx\n  config2         0x%llx\n",
	       (unsigned long long)e->config, (unsigned long long)e->config1, (unsigned long long)e->config2);
	printf("  exclude_user    %d\n  exclude_kernel  %d\n  exclude_hv      %d\n", e->exclude_user, e->exclude_kernel,
	       e->exclude_hv);
	printf("  exclude_host    %d\n  exclude_guest   %d\n  precise_ip      %u\n", e->exclude_host, e->exclude_guest,
	       e->precise_ip);
	if (e->sample_period)
		printf("  %-15s %llu\n", e->freq ? "sample_freq" : "sample_period", (unsigned long long)e->sample_period);
	if (e->exclusive || e->pinned)
		printf("  exclusive       %d\n  pinned          %d\n", e->exclusive, e->pinned);
}

/* What `perf stat -e` takes: PMU/config=...,config1=.../ then modifiers. */
static int print_perf(const struct pmudb_encoding *e, const char *event)
{
	const char *pmu = e->sysfs_pmu[0] ? e->sysfs_pmu : e->type == 4 ? "cpu" : e->type == 1 ? "software" : NULL;
	if (!pmu) {
		fprintf(stderr, "pmudb: %s: perf has no PMU name for perf_event_attr.type %d; use --format text\n",
			event, e->type);
		return -1;
	}
	printf("%s/config=0x%llx", pmu, (unsigned long long)e->config);
	if (e->config1)
		printf(",config1=0x%llx", (unsigned long long)e->config1);
	if (e->config2)
		printf(",config2=0x%llx", (unsigned long long)e->config2);
	if (e->sample_period)
		printf(",%s=%llu", e->freq ? "freq" : "period", (unsigned long long)e->sample_period);
	putchar('/');
	if (e->exclude_user != e->exclude_kernel)
		putchar(e->exclude_user ? 'k' : 'u');
	for (unsigned i = 0; i < e->precise_ip; i++)
		putchar('p');
	if (!e->exclude_guest && e->exclude_host)
		putchar('G');
	putchar('\n');
	return 0;
}

/* Reads lines of any length; a line may hold any bytes. */
static int encode_stdin(struct cli *c)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int status = EXIT_GOOD;
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		struct pmudb_encoding enc;
		struct pmudb_error err;
		if (strlen(line) != (size_t)n) {	/* a NUL byte inside the line */
			err.code = PMUDB_ERR_INVAL;
			snprintf(err.message, sizeof(err.message), "invalid parameters: the line holds a NUL byte");
			print_json_error(stdout, line, &err);
			status = EXIT_REJECTED;
		} else if (pmudb_encode(c->db, line, cli_scope(c), &enc, &err)) {
			if (err.code == PMUDB_ERR_NOTFOUND && !c->has_scope && !strstr(line, "::"))
				err = c->scope_error;
			print_json_error(stdout, line, &err);
			status = EXIT_REJECTED;
		} else {
			print_json(stdout, line, &enc);
		}
	}
	free(line);
	return status;
}

int cmd_encode(struct cli *c, int argc, char **argv)
{
	static const struct option options[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "stdin", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum format format = TEXT;
	bool from_stdin = false;
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!strcmp(optarg, "text"))
				format = TEXT;
			else if (!strcmp(optarg, "json"))
				format = JSON;
			else if (!strcmp(optarg, "perf"))
				format = PERF;
			else {
				fprintf(stderr, "pmudb encode: unknown format '%s' (text, json or perf)\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 's': from_stdin = true; break;
		case 'h':
			puts("usage: pmudb encode [--format text|json|perf] EVENT...\n"
			     "       pmudb encode --stdin   (one event per line in, one JSON object per line out)");
			return EXIT_GOOD;
		default: return EXIT_USAGE;
		}
	}
	if (!from_stdin && optind >= argc) {
		fputs("pmudb encode: no event given (or use --stdin)\n", stderr);
		return EXIT_USAGE;
	}
	int status = cli_open(c);
	if (status != EXIT_GOOD) {
		cli_close(c);
		return status;
	}
	if (from_stdin) {
		status = encode_stdin(c);
	} else {
		for (int i = optind; i < argc; i++) {
			struct pmudb_encoding enc;
			struct pmudb_error err;
			if (pmudb_encode(c->db, argv[i], cli_scope(c), &enc, &err)) {
				if (err.code == PMUDB_ERR_NOTFOUND && !c->has_scope && !strstr(argv[i], "::"))
					err = c->scope_error;	/* no CPU: say so, not "not found" */
				if (format == JSON)
					print_json_error(stdout, argv[i], &err);
				fprintf(stderr, "pmudb: %s: %s\n", argv[i], err.message);
				status = EXIT_REJECTED;
				continue;
			}
			if (format == JSON)
				print_json(stdout, argv[i], &enc);
			else if (format == PERF && print_perf(&enc, argv[i]))
				status = EXIT_REJECTED;
			else if (format == TEXT)
				print_text(&enc);
		}
	}
	cli_close(c);
	return status;
}
