/*
 * common.c - opening the catalog for a command, and output helpers.
 */
#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

/* The scope of --cpu, --cpuinfo or the host (with the system PMUs of the
 * host's devices, pmudb_scope_add_devices).  A CPU named by the user
 * that cannot be read is a usage error (printed, EXIT_USAGE), one the map
 * has no table for EXIT_REJECTED (printed), as pmudb detect answers it;
 * the host's (or $PMUDB_CPUINFO's) is only an error for names without
 * "pmu::", kept in c->scope_error. */
static int resolve_cpu_scope(struct cli *c)
{
	struct pmudb_error err;
	int r;
	c->scope_resolved = true;
	if (c->cpu)
		r = pmudb_cpu_parse(c->cpu, &c->host, &err);
	else if (c->cpuinfo)
		r = pmudb_cpu_from_cpuinfo(c->cpuinfo, &c->host, &err);
	else
		r = pmudb_cpu_host(&c->host, &err);
	if (!r)
		r = pmudb_scope_cpu(c->db, &c->host, &c->scope, &c->match, &err);
	/* the host's devices too: a system PMU (Arm CMN) is the machine's */
	if (!r && !c->cpu && !c->cpuinfo)
		r = pmudb_scope_add_devices(c->db, &c->scope, &err) < 0 ? PMUDB_ERR_CATALOG : 0;
	c->has_scope = r == 0;
	if (!r)
		return EXIT_GOOD;
	c->scope_error = err;
	if (c->cpu || (c->cpuinfo && !c->cpuinfo_from_env)) {
		/* the library's message names the spec or the file */
		if (c->cpu)
			fprintf(stderr, "pmudb: %s\n", err.message);
		else
			fprintf(stderr, "pmudb: %s: %s\n", c->cpuinfo_from_env ? "$PMUDB_CPUINFO" : "--cpuinfo", err.message);
		return r == PMUDB_ERR_NOCPU ? EXIT_REJECTED : EXIT_USAGE;
	}
	return EXIT_GOOD;
}

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
		c->has_scope = c->scope_resolved = true;
		return EXIT_GOOD;
	}
	if (c->cpu || (c->cpuinfo && !c->cpuinfo_from_env))
		return resolve_cpu_scope(c);
	/* the host's scope, or $PMUDB_CPUINFO's, is found when first needed */
	return EXIT_GOOD;
}

void cli_close(struct cli *c)
{
	pmudb_close(c->db);
	c->db = NULL;
}

/* With no CPU found, an unprefixed name matches nothing: guessing a PMU
 * could give a silently wrong encoding. */
const struct pmudb_scope *cli_scope(struct cli *c)
{
	static const struct pmudb_scope none = { 0, { 0 } };
	if (!c->scope_resolved)
		resolve_cpu_scope(c);
	return c->has_scope ? &c->scope : &none;
}

int cli_why_not_found(struct cli *c, const char *event, int r, struct pmudb_error *err)
{
	if (r != PMUDB_ERR_NOTFOUND || c->has_scope || cli_names_pmu(event))
		return r;
	*err = c->scope_error;
	/* a damaged CPUID map, not a name not found */
	return err->code == PMUDB_ERR_CATALOG ? err->code : r;
}

bool cli_scope_damaged(struct cli *c, const char *command)
{
	cli_scope(c);
	if (c->has_scope || c->scope_error.code != PMUDB_ERR_CATALOG)
		return false;
	fprintf(stderr, "pmudb: %s: %s\n", command, c->scope_error.message);
	return true;
}

bool cli_names_pmu(const char *event)
{
	/* the first ':' is the prefix's in "pmu::event": one strchr, where
	 * strstr cost a batch line sixty instructions */
	const char *p = strchr(event, ':');
	while (p && p[1] != ':')
		p = strchr(p + 1, ':');
	return p != NULL;
}

const struct pmudb_scope *cli_scope_for(struct cli *c, const char *event)
{
	return cli_names_pmu(event) ? NULL : cli_scope(c);
}

bool cli_take_dashes(int *argc, char ***argv)
{
	if (*argc < 2 || strcmp((*argv)[1], "--"))
		return false;
	(*argv)[1] = (*argv)[0];
	(*argv)++, (*argc)--;
	return true;
}

void cli_damaged(const struct cli *c, const char *fmt, ...)
{
	char what[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	fprintf(stderr, "pmudb: %s: %s: cannot read %s: the catalog is damaged\n", c->command,
		c->db_path ? c->db_path : "the built-in catalog", what);
}

void json_quoted(FILE *f, const char *s)
{
	struct out o;
	out_start(&o, f);
	out_json_string(&o, s);
	out_flush(&o);
}

void cli_json_field(const char *key, const char *value)
{
	printf(",\"%s\":", key);
	if (value)
		json_quoted(stdout, value);
	else
		fputs("null", stdout);
}

void cli_json_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fputs("null", f);
}

void cli_counters_json(const struct pmudb_counters *w)
{
	printf("\"general\":\"0x%llx\",\"fixed\":\"0x%llx\",\"pebs\":\"0x%llx\",\"taken_alone\":%s,\"no_counter\":%s,"
	       "\"stated\":%s",
	       (unsigned long long)w->general, (unsigned long long)w->fixed, (unsigned long long)w->pebs,
	       w->taken_alone ? "true" : "false", w->no_counter ? "true" : "false", w->stated ? "true" : "false");
	cli_json_field("rule", w->stated ? w->event : NULL);
	cli_json_field("source", w->source);
}

int cli_smt_active(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/smt/active", "r");
	int on = -1;
	if (f) {
		if (fscanf(f, "%d", &on) != 1)
			on = -1;
		fclose(f);
	}
	return on;
}

double cli_scale_unit(const char *scale_unit, const char **unit)
{
	*unit = "";
	if (!scale_unit)
		return 1;
	char *end;
	double scale = strtod(scale_unit, &end);
	*unit = end;
	return end == scale_unit || !isfinite(scale) ? 1 : scale;
}

static int compare_ints(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
}

/* Whether sysfs device NAME is an instance of kernel PMU KPMU as perf 6.12
 * matches them: the glob, or KPMU, an optional '_' and a number (decimal,
 * or hex of more than 2 digits). */
static bool device_of(const char *name, const char *kpmu)
{
	if (strpbrk(kpmu, "*?["))
		return !fnmatch(kpmu, name, 0);
	size_t n = strlen(kpmu);
	if (strncmp(name, kpmu, n) || !name[n])
		return false;
	const char *suffix = name + n + (name[n] == '_');
	size_t digits = strspn(suffix, "0123456789"), xdigits = strspn(suffix, "0123456789abcdefABCDEF");
	return xdigits && !suffix[xdigits] && (digits == xdigits || xdigits > 2);
}

static int by_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int cli_kernel_devices(const char *kpmu, char ***names)
{
	*names = NULL;
	char path[PATH_MAX];
	struct stat st;
	if (snprintf(path, sizeof(path), "%s/%s", pmudb_sysfs_devices(), kpmu) < (int)sizeof(path) && !strpbrk(kpmu, "*?[")
	    && !stat(path, &st)) {
		/* the kernel PMU itself: one device */
		*names = malloc(sizeof(**names));
		if (!*names || !((*names)[0] = strdup(kpmu))) {
			free(*names);
			*names = NULL;
			return 0;
		}
		return 1;
	}
	DIR *d = opendir(pmudb_sysfs_devices());
	int count = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.' || !device_of(e->d_name, kpmu))
			continue;
		char **more = realloc(*names, (size_t)(count + 1) * sizeof(*more));
		if (!more || !(more[count] = strdup(e->d_name))) {
			if (more)
				*names = more;
			break;
		}
		*names = more;
		count++;
	}
	if (d)
		closedir(d);
	if (count)
		qsort(*names, (size_t)count, sizeof(**names), by_version);
	return count;
}

void cli_free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int cli_kernel_boxes(const char *kpmu, int **boxes, bool *itself)
{
	char path[PATH_MAX];
	struct stat st;
	if (boxes)
		*boxes = NULL;
	bool whole = snprintf(path, sizeof(path), "%s/%s", pmudb_sysfs_devices(), kpmu) < (int)sizeof(path) && !stat(path, &st);
	if (itself)
		*itself = whole;
	DIR *d = whole ? NULL : opendir(pmudb_sysfs_devices());
	if (!d)
		return 0;
	size_t n = strlen(kpmu);
	int count = 0;
	for (struct dirent *e; (e = readdir(d));) {
		const char *digits = e->d_name + n + 1;
		if (strncmp(e->d_name, kpmu, n) || e->d_name[n] != '_' || !*digits || strlen(digits) > 6
		    || strspn(digits, "0123456789") != strlen(digits))
			continue;
		if (boxes) {
			int *more = realloc(*boxes, (size_t)(count + 1) * sizeof(int));
			if (!more)
				break;
			*boxes = more;
			more[count] = atoi(digits);
		}
		count++;
	}
	closedir(d);
	if (boxes && count)
		qsort(*boxes, (size_t)count, sizeof(int), compare_ints);
	return count;
}
