/*
 * cmd_metrics.c - pmudb metrics: the vendors' metrics of the selected PMUs
 * (the host's CPU, --cpu, --pmu); and pmudb metric eval: one metric or a
 * group computed from counts taken anywhere: a JSON object of
 * {"EVENT.NAME": count, "#smt_on": 1, ...}, or the CSV that `perf stat -x,`
 * writes (COUNT,UNIT,EVENT,...; "<not counted>" is no count).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

struct listing {
	bool json;
	int rows;
};

static int print_metric(void *ctx, const struct pmudb_metric *m)
{
	struct listing *l = ctx;
	if (l->json) {
		fputs(l->rows++ ? ",\n{\"name\":" : "{\"name\":", stdout);
		json_quoted(stdout, m->name);
		cli_json_field("pmu", m->pmu);
		cli_json_field("uarch", m->uarch);
		cli_json_field("groups", m->groups);
		cli_json_field("description", m->description);
		cli_json_field("expr", m->expr);
		cli_json_field("threshold", m->threshold);
		cli_json_field("scale_unit", m->scale_unit);
		cli_json_field("constraint", m->constraint);
		cli_json_field("missing", m->missing);
		cli_json_field("source", m->source);
		putchar('}');
		return 0;
	}
	l->rows++;
	printf("%-40s %-32.32s %s%s%s\n", m->name, m->groups ? m->groups : "-", m->description,
	       m->missing ? "  [lacks: " : "", m->missing ? "an event of its lists]" : "");
	return 0;
}

int cmd_metrics(struct cli *c, int argc, char **argv)
{
	bool json = false;
	const char *name = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || argv[i][0] == '-' || name) {
			bool help = !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h");
			fputs("usage: pmudb [--cpu V/F/M | --pmu PMU] metrics [--json] [METRIC|GROUP]\n"
			      "  the vendors' metrics of the selected PMUs (this machine's CPU by default),\n"
			      "  or those of a group (TopdownL1), by name\n", help ? stdout : stderr);
			return help ? EXIT_GOOD : EXIT_USAGE;
		} else {
			name = argv[i];
		}
	}
	int status = cli_open(c);
	if (status != EXIT_GOOD)
		return status;
	struct pmudb_error err;
	struct listing l = { json, 0 };
	const struct pmudb_scope *scope = cli_scope(c);
	if (!scope->count) {
		fprintf(stderr, "pmudb: metrics: %s\n", c->scope_error.message[0] ? c->scope_error.message
			: "no PMUs selected");
		cli_close(c);
		return EXIT_REJECTED;
	}
	if (json)
		putchar('[');
	int n = pmudb_metrics(c->db, scope, name, print_metric, &l, &err);
	if (json)
		puts("]");
	if (n < 0) {
		fprintf(stderr, "pmudb: metrics: %s\n", err.message);
		status = EXIT_USAGE;
	} else if (!n) {
		fprintf(stderr, "pmudb: metrics: %s%s%s\n", name ? "no metric or group " : "no metrics for these PMUs",
			name ? name : "", name ? " for these PMUs" : "");
		status = EXIT_REJECTED;
	}
	cli_close(c);
	return status;
}

/* ---- metric eval ----------------------------------------------------------- */

/* The counts of a file, by name. */
struct counts {
	char **names;
	double *values;
	int n;
};

static int add_count(struct counts *c, const char *name, size_t len, double value)
{
	char **names = realloc(c->names, (size_t)(c->n + 1) * sizeof(*names));
	double *values = names ? realloc(c->values, (size_t)(c->n + 1) * sizeof(*values)) : NULL;
	if (names)
		c->names = names;
	if (values)
		c->values = values;
	char *copy = values ? strndup(name, len) : NULL;
	if (!copy)
		return -1;
	c->names[c->n] = copy;
	c->values[c->n++] = value;
	return 0;
}

static void free_counts(struct counts *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->names[i]);
	free(c->names);
	free(c->values);
}

/* Names compare as perf's do: case aside, and cpu_core@X@ as cpu_core/X/. */
static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '@' ? '/' : (char)tolower((unsigned char)*a);
		char y = *b == '@' ? '/' : (char)tolower((unsigned char)*b);
		if (x != y)
			return false;
	}
	return *a == *b;
}

static int count_of(void *ctx, const char *name, double *value)
{
	const struct counts *c = ctx;
	for (int i = 0; i < c->n; i++)
		if (same_name(c->names[i], name)) {
			*value = c->values[i];
			return 0;
		}
	return -1;
}

/* Counts files are small: a bigger one is no counts file. */
#define COUNTS_FILE_MAX (64u << 20)

/* The JSON object of counts in F (PATH), read by SQLite's JSON functions
 * (the library's SQLite, no parser of our own): each member a number. */
static int read_json_counts(const char *path, FILE *f, struct counts *out)
{
	char *text = malloc(COUNTS_FILE_MAX + 1);
	size_t n = text ? fread(text, 1, COUNTS_FILE_MAX + 1, f) : 0;
	if (!text || ferror(f) || n > COUNTS_FILE_MAX) {
		fprintf(stderr, "pmudb: metric eval: %s: %s\n", path, !text ? "out of memory"
			: ferror(f) ? strerror(errno) : "larger than a counts file (64 MB)");
		free(text);
		return EXIT_USAGE;
	}
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int r = EXIT_GOOD, rc = SQLITE_ERROR;
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) != SQLITE_OK
	    || sqlite3_prepare_v2(db, "SELECT json_valid(?1), CASE WHEN json_valid(?1) THEN json_type(?1) END, key, value, type FROM"
				  " (SELECT 1) LEFT JOIN json_each(CASE WHEN json_valid(?1) THEN ?1 END)", -1, &st, NULL)
		       != SQLITE_OK) {
		fprintf(stderr, "pmudb: metric eval: %s: cannot read: %s\n", path, db ? sqlite3_errmsg(db) : "no memory");
		r = EXIT_USAGE;
	} else {
		sqlite3_bind_text(st, 1, text, (int)n, SQLITE_STATIC);
		while (r == EXIT_GOOD && (rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *type = (const char *)sqlite3_column_text(st, 1);
			const char *key = (const char *)sqlite3_column_text(st, 2);
			const char *vtype = (const char *)sqlite3_column_text(st, 4);
			if (!sqlite3_column_int(st, 0) || !type || strcmp(type, "object")) {
				fprintf(stderr, "pmudb: metric eval: %s: %s\n", path, sqlite3_column_int(st, 0)
					? "expected a JSON object of counts" : "not valid JSON");
				r = EXIT_USAGE;
			} else if (!key) {
				/* an empty object: no counts */
			} else if (!vtype || (strcmp(vtype, "integer") && strcmp(vtype, "real"))) {
				fprintf(stderr, "pmudb: metric eval: %s: the count of '%.100s' is not a number\n", path, key);
				r = EXIT_USAGE;
			} else if (!count_of(out, key, &(double){ 0 })) {
				fprintf(stderr, "pmudb: metric eval: %s: '%.100s' is counted twice\n", path, key);
				r = EXIT_USAGE;
			} else if (add_count(out, key, strlen(key), sqlite3_column_double(st, 3))) {
				fprintf(stderr, "pmudb: metric eval: out of memory\n");
				r = EXIT_USAGE;
			}
		}
		if (r == EXIT_GOOD && rc != SQLITE_DONE) {
			fprintf(stderr, "pmudb: metric eval: %s: cannot read: %s\n", path, sqlite3_errmsg(db));
			r = EXIT_USAGE;
		}
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(text);
	return r;
}

/* PATH's counts: JSON, or perf stat -x, CSV.  0, or an exit status with
 * the line printed. */
static int read_counts(const char *path, struct counts *out)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "pmudb: metric eval: %s: %s\n", path, strerror(errno));
		return EXIT_USAGE;
	}
	int first = fgetc(f);
	while (first != EOF && isspace(first))
		first = fgetc(f);
	rewind(f);
	if (first == '{') {
		int r = read_json_counts(path, f, out);
		fclose(f);
		return r;
	}
	/* perf stat -x, : COUNT,UNIT,EVENT,RUN_TIME,PERCENT,... */
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, r = 0;
	while (!r && getline(&line, &cap, f) >= 0) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		char *comma1 = strchr(line, ','), *comma2 = comma1 ? strchr(comma1 + 1, ',') : NULL;
		size_t len = comma2 ? strcspn(comma2 + 1, ",") : 0;
		if (!comma2 || !len) {
			fprintf(stderr, "pmudb: metric eval: %s:%d: expected COUNT,UNIT,EVENT,... as perf stat -x, writes\n",
				path, lineno);
			r = EXIT_USAGE;
			break;
		}
		if (line[0] == '<')
			continue;	/* <not counted>, <not supported>: no count */
		char *end;
		errno = 0;
		double v = strtod(line, &end);
		if (end == line || end != comma1 || errno) {
			fprintf(stderr, "pmudb: metric eval: %s:%d: count '%.*s' is not a number\n", path, lineno,
				(int)(comma1 - line), line);
			r = EXIT_USAGE;
		} else if (add_count(out, comma2 + 1, len, v)) {
			fprintf(stderr, "pmudb: metric eval: out of memory\n");
			r = EXIT_USAGE;
		}
	}
	if (!r && ferror(f)) {
		fprintf(stderr, "pmudb: metric eval: %s: %s\n", path, strerror(errno));
		r = EXIT_USAGE;
	}
	free(line);
	fclose(f);
	return r;
}

struct evaluating {
	struct cli *c;
	struct counts *counts;
	bool json;
	int rows, failed;
};

/* The value as ScaleUnit shows it: "100%" is the value times 100, "%";
 * CROSSED whether its threshold holds (-1: none, or not computable from
 * these counts). */
static void print_value(const struct pmudb_metric *m, double v, int crossed, bool json)
{
	const char *unit;
	double scale = cli_scale_unit(m->scale_unit, &unit);
	if (json) {
		fputs(",\"value\":", stdout);
		cli_json_number(stdout, v);
		fputs(",\"scaled\":", stdout);
		cli_json_number(stdout, v * scale);
		cli_json_field("unit", unit);
		printf(",\"threshold\":%s", crossed < 0 ? "null" : crossed ? "true" : "false");
		return;
	}
	const char *mark = crossed == 1 ? "  (over its threshold)" : "";
	if (isfinite(v))
		printf("%-40s %16.6g %s%s\n", m->name, v * scale, unit, mark);
	else
		printf("%-40s %16s %s%s\n", m->name, "nan", unit, mark);
}

static int eval_one(void *ctx, const struct pmudb_metric *m)
{
	struct evaluating *e = ctx;
	double v;
	struct pmudb_error err;
	if (pmudb_metric_eval(e->c->db, cli_scope(e->c), m->name, count_of, e->counts, &v, &err)) {
		fprintf(stderr, "pmudb: metric eval: %s\n", err.message);
		e->failed = 1;
		return 0;
	}
	int crossed = -1;
	if (pmudb_metric_threshold(e->c->db, cli_scope(e->c), m->name, count_of, e->counts, &crossed, &err))
		crossed = -1;	/* its threshold needs counts these lack */
	if (e->json) {
		fputs(e->rows++ ? ",\n{\"name\":" : "{\"name\":", stdout);
		json_quoted(stdout, m->name);
		print_value(m, v, crossed, true);
		putchar('}');
	} else {
		e->rows++;
		print_value(m, v, crossed, false);
	}
	return 0;
}

int cmd_metric(struct cli *c, int argc, char **argv)
{
	const char *name = NULL, *counts = NULL;
	bool json = false, usage = argc < 2 || strcmp(argv[1], "eval");
	for (int i = 2; !usage && i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--counts") && i + 1 < argc)
			counts = argv[++i];
		else if (argv[i][0] != '-' && !name)
			name = argv[i];
		else
			usage = true;
	}
	if (usage || !name || !counts) {
		bool help = argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
		fputs("usage: pmudb [--cpu V/F/M | --pmu PMU] metric eval METRIC|GROUP --counts FILE [--json]\n"
		      "  computes the metric (or each of the group) from the counts in FILE: a JSON object\n"
		      "  {\"INST_RETIRED.ANY\": 123, \"#smt_on\": 1, ...} of the names its expression uses,\n"
		      "  or the CSV that perf stat -x, writes (COUNT,UNIT,EVENT,...)\n",
		      help ? stdout : stderr);
		return help ? EXIT_GOOD : EXIT_USAGE;
	}
	struct counts data = { 0 };
	int status = read_counts(counts, &data);
	if (status == EXIT_GOOD)
		status = cli_open(c);
	if (status != EXIT_GOOD) {
		free_counts(&data);
		return status;
	}
	struct evaluating e = { c, &data, json, 0, 0 };
	struct pmudb_error err;
	if (json)
		putchar('[');
	int n = pmudb_metrics(c->db, cli_scope(c), name, eval_one, &e, &err);
	if (json)
		puts("]");
	if (n < 0) {
		fprintf(stderr, "pmudb: metric eval: %s\n", err.message);
		status = EXIT_USAGE;
	} else if (!n) {
		fprintf(stderr, "pmudb: metric eval: no metric or group %s for these PMUs\n", name);
		status = EXIT_REJECTED;
	} else if (e.failed) {
		status = EXIT_REJECTED;
	}
	free_counts(&data);
	cli_close(c);
	return status;
}
