/*
 * cmd_detect.c - pmudb detect: the CPU (this host's, or --cpu/--cpuinfo),
 * the CPUID map entry it matched and why, and its PMUs; the uncore ones
 * with their kernel PMUs and, on this host, how many boxes sysfs has.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
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

/* How many boxes of kernel PMU KPMU this machine's sysfs has (KPMU itself
 * is one). */
static int boxes_here(const char *kpmu)
{
	char **names;
	int n = cli_kernel_devices(kpmu, &names);
	cli_free_names(names, n);
	return n;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* This machine's kernel PMUs, sorted, into NAMES (at most MAX, each
 * freed by the caller); how many. */
static int sysfs_pmus(char **names, int max)
{
	DIR *d = opendir(pmudb_sysfs_devices());
	int n = 0;
	for (struct dirent *e; d && n < max && (e = readdir(d));)
		if (e->d_name[0] != '.' && (names[n] = strdup(e->d_name)))
			n++;
	if (d)
		closedir(d);
	qsort(names, (size_t)n, sizeof(*names), compare_names);
	return n;
}

/* Whether the I-th PMU of the scope is an uncore PMU with a kernel PMU:
 * its information in *P. */
static bool uncore_of_scope(const struct cli *c, int i, struct pmudb_pmu_info *p)
{
	return !pmudb_pmu_info(c->db, c->scope.pmus[i], p) && !strcmp(p->kind, "uncore") && p->sysfs_pmu;
}

/* The uncore PMUs of the scope and their kernel PMUs; on this host, with
 * the boxes its sysfs has (HOST), and the kernel PMUs it has. */
static void print_uncore_text(const struct cli *c, bool host)
{
	bool first = true;
	for (int i = 0; i < c->scope.count; i++) {
		struct pmudb_pmu_info p;
		if (!uncore_of_scope(c, i, &p))
			continue;
		struct pmudb_uncore_info u;
		bool device = !pmudb_pmu_uncore(c->db, c->scope.pmus[i], &u, NULL) && u.device_identifier[0];
		printf("%s %s on %s", first ? "uncore   " : "         ", p.name, p.sysfs_pmu);
		if (device)
			printf(" (a device whose identifier matches %s)", u.device_identifier);
		int n = host ? boxes_here(p.sysfs_pmu) : 0;
		if (host)
			printf(n ? ": %d in sysfs\n" : ": not in this machine's sysfs\n", n);
		else
			putchar('\n');
		first = false;
	}
	if (!host)
		return;
	char *names[512];
	int n = sysfs_pmus(names, 512);
	printf("sysfs    ");
	for (int i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("%s\n", n ? "" : " (none)");
}

static void print_uncore_json(const struct cli *c, bool host)
{
	fputs(",\"uncore\":[", stdout);
	for (int i = 0, rows = 0; i < c->scope.count; i++) {
		struct pmudb_pmu_info p;
		if (!uncore_of_scope(c, i, &p))
			continue;
		fputs(rows++ ? ",{\"pmu\":" : "{\"pmu\":", stdout);
		json_quoted(stdout, p.name);
		fputs(",\"kernel_pmu\":", stdout);
		json_quoted(stdout, p.sysfs_pmu);
		struct pmudb_uncore_info u;
		if (!pmudb_pmu_uncore(c->db, c->scope.pmus[i], &u, NULL) && u.device_identifier[0]) {
			fputs(",\"device_identifier\":", stdout);
			json_quoted(stdout, u.device_identifier);
		}
		if (host)
			printf(",\"in_sysfs\":%d", boxes_here(p.sysfs_pmu));
		putchar('}');
	}
	putchar(']');
	if (!host)
		return;
	char *names[512];
	int n = sysfs_pmus(names, 512);
	fputs(",\"sysfs\":[", stdout);
	for (int i = 0; i < n; i++) {
		if (i)
			putchar(',');
		json_quoted(stdout, names[i]);
		free(names[i]);
	}
	putchar(']');
}

static void print_json(const struct cli *c, const char **names, bool host)
{
	fputs("{\"vendor\":", stdout);
	json_quoted(stdout, c->host.vendor);
	printf(",\"family\":%d,\"model\":%d,\"stepping\":%d,\"pmus\":[", c->host.family, c->host.model, c->host.stepping);
	for (int i = 0; i < c->scope.count; i++) {
		if (i)
			putchar(',');
		json_quoted(stdout, names[i]);
	}
	fputs("],\"why\":", stdout);
	json_quoted(stdout, c->has_scope ? c->match.why : "");
	fputs(",\"source\":", stdout);
	json_quoted(stdout, c->has_scope ? c->match.source : "");
	print_uncore_json(c, host);
	if (!c->has_scope) {
		fputs(",\"error\":", stdout);
		json_quoted(stdout, c->scope_error.message);
	}
	fputs("}\n", stdout);
}

static void print_text(const struct cli *c, const char **names, bool host)
{
	printf("vendor    %s\nfamily    %d (0x%x)\nmodel     %d (0x%x)\n", c->host.vendor, c->host.family,
	       (unsigned)c->host.family, c->host.model, (unsigned)c->host.model);
	if (c->host.stepping >= 0)
		printf("stepping  %d\n", c->host.stepping);
	printf("entry     %s\nwhy       %s\npmus     ", c->match.source, c->match.why);
	for (int i = 0; i < c->scope.count; i++)
		printf(" %s", names[i]);
	putchar('\n');
	print_uncore_text(c, host);
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
		/* this machine's devices: system PMUs (Arm CMN) are its own */
		if (!r && !cpu && !cpuinfo && pmudb_scope_add_devices(c->db, &c->scope, &err) < 0)
			r = PMUDB_ERR_CATALOG;
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
		/* this machine's sysfs says something of this machine's CPU only */
		bool host = !cpu && !cpuinfo;
		if (json)
			print_json(c, names, host);
		else if (c->has_scope)
			print_text(c, names, host);
		if (r) {
			if (!json)
				fprintf(stderr, "pmudb: detect: %s\n", err.message);
			status = r == PMUDB_ERR_NOCPU ? EXIT_REJECTED : EXIT_USAGE;
		}
	}
	cli_close(c);
	return status;
}
