/*
 * cmd_export.c - pmudb export: the catalog for tools that do not read
 * SQLite.  --format json (pmudb's own, one JSON object a line, documented
 * in docs/export.md), csv (one row per event and unit mask, RFC 4180) and
 * perf-json (perf's pmu-events tree, export_perf.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/export.h"

struct writer {
	struct cli *c;
	struct out o;
	bool csv;
	int pending_set;	/* the id modifiers() found for the event being written */
	/* json: the modifier lists of the PMU being written, each once as a
	 * "modifiers" record that its events name by id */
	char **sets;
	int nsets;
	const char *events_of;	/* json: the PMU whose events the PMU being written has */
};

static void key(struct out *o, const char *name, bool first)
{
	out_str(o, first ? "{\"" : ",\"");
	out_str(o, name);
	out_str(o, "\":");
}

static void key_string(struct out *o, const char *name, const char *value)
{
	key(o, name, false);
	if (value)
		out_json_string(o, value);
	else
		out_str(o, "null");
}

static void key_hex(struct out *o, const char *name, uint64_t value)
{
	key(o, name, false);
	out_char(o, '"');
	out_hex(o, value);
	out_char(o, '"');
}

static void key_uint(struct out *o, const char *name, uint64_t value)
{
	key(o, name, false);
	out_uint(o, value);
}

static void key_bool(struct out *o, const char *name, bool value)
{
	key(o, name, false);
	out_str(o, value ? "true" : "false");
}

/* "encoding": the registers of the bare string, or "error". */
static void encoding(struct writer *w, const struct export_item *it)
{
	struct out *o = &w->o;
	if (it->status) {
		key_string(o, "error", it->err.message);
		key_string(o, "error_code", pmudb_error_name(it->status));
		return;
	}
	const struct pmudb_encoding *e = &it->enc;
	key(o, "encoding", false);
	out_str(o, "{\"fstr\":");
	out_json_string(o, e->fstr);
	key(o, "type", false);
	out_int(o, e->type);
	key_hex(o, "config", e->config);
	key_hex(o, "config1", e->config1);
	key_hex(o, "config2", e->config2);
	key_string(o, "sysfs_pmu", e->sysfs_pmu[0] ? e->sysfs_pmu : NULL);
	char perf[1024];
	key_string(o, "perf", pmudb_perf_syntax(w->c->db, e, perf, sizeof(perf), NULL) ? NULL : perf);
	out_char(o, '}');
}

/* The modifiers IT's event takes, as a JSON array, into O. */
static void modifier_list(struct writer *w, struct out *o, const struct export_item *it)
{
	out_char(o, '[');
	for (int m = 0; m < it->ev->modifier_count; m++) {
		struct pmudb_modifier_info mi;
		if (pmudb_modifier_info(w->c->db, it->pmu, it->event, m, &mi))
			continue;
		out_str(o, m ? "," : "");
		key(o, "name", true);
		out_json_string(o, mi.name);
		key_string(o, "type", mi.is_integer ? "int" : "bool");
		key_bool(o, "perf", mi.from_perf);
		/* as hex strings, like the codes: 2^64-1 is no JSON number most
		 * parsers read exactly */
		if (mi.range_known) {
			key_hex(o, "min", mi.min);
			key_hex(o, "max", mi.max);
		}
		key_hex(o, "default", mi.default_value);
		key_string(o, "description", mi.description);
		out_char(o, '}');
	}
	out_char(o, ']');
}

static void forget_sets(struct writer *w)
{
	for (int i = 0; i < w->nsets; i++)
		free(w->sets[i]);
	free(w->sets);
	w->sets = NULL;
	w->nsets = 0;
}

/* "modifiers": the id of IT's event's modifier list among its PMU's, the
 * list written first as a "modifiers" record where it is new (most events
 * of a PMU share one: written whole in every event, they were most of the
 * export).  -1 (and "modifiers": null) when memory runs out. */
static void modifiers(struct writer *w, const struct export_item *it)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int id = -1;
	if (f) {
		struct out list;
		out_start(&list, f);
		modifier_list(w, &list, it);
		out_flush(&list);
		fclose(f);
	}
	for (int i = 0; text && i < w->nsets && id < 0; i++)
		if (!strcmp(w->sets[i], text))
			id = i;
	char **more = text && id < 0 ? realloc(w->sets, (size_t)(w->nsets + 1) * sizeof(*more)) : NULL;
	if (more) {
		w->sets = more;
		id = w->nsets;
		w->sets[w->nsets++] = text;
		text = NULL;
		struct out *o = &w->o;
		key(o, "record", true);
		out_str(o, "\"modifiers\"");
		key_string(o, "pmu", it->p->name);
		key_uint(o, "id", (uint64_t)id);
		key(o, "modifiers", false);
		out_str(o, w->sets[id]);
		out_str(o, "}\n");
	}
	free(text);
	w->pending_set = id;
}

static void json_pmu(struct writer *w, const struct pmudb_pmu_info *p)
{
	struct out *o = &w->o;
	forget_sets(w);
	key(o, "record", true);
	out_str(o, "\"pmu\"");
	key_string(o, "pmu", p->name);
	key_string(o, "kind", p->kind);
	key_string(o, "family", p->family);
	key_string(o, "description", p->description);
	key_string(o, "source", p->source);
	key_string(o, "like", p->like);
	key(o, "perf_type", false);
	out_int(o, p->perf_type);
	key_string(o, "sysfs_pmu", p->sysfs_pmu);
	key_uint(o, "events", (uint64_t)p->event_count);
	key_string(o, "events_of", w->events_of);
	out_str(o, "}\n");
}

static void json_item(struct writer *w, const struct export_item *it)
{
	struct out *o = &w->o;
	if (!it->um)
		modifiers(w, it);	/* its list's record, where new, goes first */
	key(o, "record", true);
	out_str(o, it->um ? "\"umask\"" : "\"event\"");
	key_string(o, "pmu", it->p->name);
	key_string(o, "event", it->ev->name);
	if (it->um) {
		key_string(o, "umask", it->um->name);
		key_hex(o, "code", it->um->code);
		key_bool(o, "default", it->um->is_default);
		key_string(o, "description", it->um->description);
		key_string(o, "source", it->um->source);
		key_string(o, "equiv", it->um->equiv);
	} else {
		key_hex(o, "code", it->ev->code);
		key_string(o, "description", it->ev->description);
		key_string(o, "source", it->ev->source);
		key_string(o, "equiv", it->ev->equiv);
		key_bool(o, "precise", it->ev->is_precise);
		key_uint(o, "umasks", (uint64_t)it->ev->umask_count);
		key(o, "modifiers", false);
		if (w->pending_set >= 0)
			out_uint(o, (uint64_t)w->pending_set);
		else
			out_str(o, "null");
	}
	encoding(w, it);
	out_str(o, "}\n");
}

/* A CSV field, always quoted, '"' doubled (RFC 4180). */
static void csv_field(struct out *o, const char *s, bool last)
{
	out_char(o, '"');
	for (const char *p = s ? s : ""; *p; p++) {
		if (*p == '"')
			out_char(o, '"');
		out_char(o, *p);
	}
	out_str(o, last ? "\"\r\n" : "\",");
}

static void csv_item(struct writer *w, const struct export_item *it)
{
	struct out *o = &w->o;
	char code[24], type[16], regs[3][24];
	snprintf(code, sizeof(code), "0x%llx", (unsigned long long)(it->um ? it->um->code : it->ev->code));
	snprintf(type, sizeof(type), "%d", it->status ? 0 : it->enc.type);
	uint64_t v[3] = { it->enc.config, it->enc.config1, it->enc.config2 };
	for (int i = 0; i < 3; i++)
		snprintf(regs[i], sizeof(regs[i]), "0x%llx", (unsigned long long)v[i]);
	csv_field(o, it->um ? "umask" : "event", false);
	csv_field(o, it->p->name, false);
	csv_field(o, it->ev->name, false);
	csv_field(o, it->um ? it->um->name : "", false);
	csv_field(o, code, false);
	csv_field(o, it->um && it->um->is_default ? "1" : "0", false);
	csv_field(o, it->string, false);
	csv_field(o, it->status ? "" : type, false);
	for (int i = 0; i < 3; i++)
		csv_field(o, it->status ? "" : regs[i], false);
	csv_field(o, it->status ? it->err.message : "", false);
	csv_field(o, it->um ? it->um->source : it->ev->source, false);
	csv_field(o, it->um ? it->um->description : it->ev->description, true);
}

/* A vendor metric of an exported PMU: a "metric" record; in CSV the
 * expression in the string column, what it lacks in the error column. */
static int write_metric(void *ctx, const struct pmudb_metric *m)
{
	struct writer *w = ctx;
	struct out *o = &w->o;
	if (w->csv) {
		const char *fields[] = { "metric", m->pmu, m->name, "", "", "", m->expr, "", "", "", "", m->missing,
					 m->source, m->description };
		for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			csv_field(o, fields[i], i + 1 == sizeof(fields) / sizeof(fields[0]));
		return 0;
	}
	key(o, "record", true);
	out_str(o, "\"metric\"");
	key_string(o, "pmu", m->pmu);
	key_string(o, "name", m->name);
	key_string(o, "uarch", m->uarch);
	key_string(o, "expr", m->expr);
	key_string(o, "description", m->description);
	key_string(o, "groups", m->groups);
	key_string(o, "threshold", m->threshold);
	key_string(o, "scale_unit", m->scale_unit);
	key_string(o, "constraint", m->constraint);
	key_string(o, "missing", m->missing);
	key_string(o, "source", m->source);
	out_str(o, "}\n");
	return 0;
}

static int write_one(void *ctx, int pmu, const struct pmudb_pmu_info *p, const struct export_item *it)
{
	struct writer *w = ctx;
	(void)pmu;
	if (!it && !w->csv)
		json_pmu(w, p);
	else if (it && w->csv)
		csv_item(w, it);
	else if (it)
		json_item(w, it);
	if (w->o.len > sizeof(w->o.buf) / 2)
		out_flush(&w->o);
	return ferror(w->o.f) ? EXIT_USAGE : 0;
}

static const char help[] =
	"usage: pmudb export --format json|csv|perf-json [--pmu P]... [--out FILE|DIR [--replace]]\n"
	"  json       pmudb's own: one JSON object a line, a PMU then its events and unit masks, each\n"
	"             with its codes, the encoding of its bare string, defaults, description and source,\n"
	"             an event's modifiers by the id of a \"modifiers\" record of its PMU written before\n"
	"             it; a PMU whose events answer as an earlier one's names it (\"events_of\") instead\n"
	"             of repeating them (docs/export.md); to FILE or standard output\n"
	"  csv        one row per event and unit mask (RFC 4180, a header row); to FILE or standard output\n"
	"  perf-json  perf's tools/perf/pmu-events/arch layout into DIR (required): ARCH/mapfile.csv and\n"
	"             ARCH/UARCH/*.json, which perf's jevents.py reads; written beside DIR and moved into\n"
	"             place whole (a failure leaves DIR as it was)\n"
	"  --replace  perf-json: replace a DIR that holds files (refused otherwise)\n"
	"  --pmu P    only PMU P (repeatable); default every PMU of the catalog\n"
	"  exit status: 0 written, 2 usage, catalog or write error\n";

/* A new file beside PATH, to be renamed over it once whole (a failure
 * leaves what was there); its name in TMP.  NULL, the error printed, when
 * it cannot be made. */
static FILE *open_beside(const char *path, char **tmp)
{
	if (asprintf(tmp, "%s.XXXXXX", path) < 0) {
		*tmp = NULL;
		fprintf(stderr, "pmudb: export: --out %s: out of memory\n", path);
		return NULL;
	}
	int fd = mkstemp(*tmp);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		fprintf(stderr, "pmudb: export: --out %s: cannot write beside it: %s\n", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(*tmp);
		}
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	/* mkstemp's 0600, as fopen would have made it: 0666 less the umask */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	return f;
}

static int write_stream(struct cli *c, const int *pmus, int count, bool csv, const char *out_path)
{
	char *tmp = NULL;
	FILE *f = out_path ? open_beside(out_path, &tmp) : stdout;
	if (!f)
		return EXIT_USAGE;
	struct writer w = { .c = c, .csv = csv };
	bool *shared = calloc((size_t)count + 1, sizeof(*shared));	/* json: written by events_of */
	if (!shared) {
		fputs("pmudb: export: out of memory\n", stderr);
		if (out_path) {
			fclose(f);
			unlink(tmp);
			free(tmp);
		}
		return EXIT_USAGE;
	}
	out_start(&w.o, f);
	if (csv)
		out_str(&w.o, "record,pmu,event,umask,code,default,string,type,config,config1,config2,error,source,"
			      "description\r\n");
	/* a walk that fails has said why; a write that fails, here */
	int r = 0;
	for (int i = 0; !r && i < count; i++) {
		/* json: a PMU whose events answer as an earlier one's, written
		 * whole, names that PMU and no event of its own */
		int first = -1;
		for (int k = 0; !csv && k < i && first < 0; k++)
			if (!shared[k] && export_same_answers(c, pmus[k], pmus[i]))
				first = pmus[k];
		struct pmudb_pmu_info p, f;
		if (first >= 0 && !pmudb_pmu_info(c->db, pmus[i], &p) && !pmudb_pmu_info(c->db, first, &f)) {
			shared[i] = true;
			w.events_of = f.name;
			r = write_one(&w, pmus[i], &p, NULL);
			w.events_of = NULL;
		} else {
			r = export_walk(c, &pmus[i], 1, write_one, &w);
		}
	}
	/* then the vendors' metrics of the PMUs exported */
	for (int i = 0; !r && i < count; i++) {
		struct pmudb_scope one = { 1, { pmus[i] } };
		struct pmudb_error err;
		if (pmudb_metrics(c->db, &one, NULL, write_metric, &w, &err) < 0) {
			fprintf(stderr, "pmudb: export: %s\n", err.message);
			r = EXIT_USAGE;
		}
	}
	out_flush(&w.o);
	forget_sets(&w);
	free(shared);
	errno = 0;
	bool failed = fflush(f) || ferror(f);
	int saved = errno;
	if (out_path) {
		if (fclose(f) && !failed)
			failed = true, saved = errno;
		if (!failed && !r && rename(tmp, out_path))
			failed = true, saved = errno;
		if (failed || r)
			unlink(tmp);
		free(tmp);
	}
	/* standard output's failure is main's to report */
	if (failed && out_path) {
		fprintf(stderr, "pmudb: export: %s: write failed%s%s\n", out_path ? out_path : "standard output",
			saved ? ": " : "", saved ? strerror(saved) : "");
		return EXIT_USAGE;
	}
	return r || failed ? EXIT_USAGE : EXIT_GOOD;
}

int cmd_export(struct cli *c, int argc, char **argv)
{
	static const struct option options[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "out", required_argument, NULL, 'o' },
		{ "replace", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = NULL, *out_path = NULL;
	bool replace = false;
	int opt;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'f': format = optarg; break;
		case 'o': out_path = optarg; break;
		case 'r': replace = true; break;
		case 'h': fputs(help, stdout); return EXIT_GOOD;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pmudb export: unexpected argument '%s' (see pmudb export --help)\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (!format || (strcmp(format, "json") && strcmp(format, "csv") && strcmp(format, "perf-json"))) {
		fprintf(stderr, "pmudb export: --format %s: json, csv or perf-json\n", format ? format : "missing");
		return EXIT_USAGE;
	}
	bool tree = !strcmp(format, "perf-json");
	if (tree && !out_path) {
		fputs("pmudb export: --format perf-json writes a tree: give --out DIR\n", stderr);
		return EXIT_USAGE;
	}
	if (replace && !tree) {
		fputs("pmudb export: --replace is for --format perf-json (a file is always replaced whole)\n", stderr);
		return EXIT_USAGE;
	}
	/* the PMUs are chosen here, not as a scope: --pmu may be repeated */
	const char *last = c->pmu;
	c->pmu = NULL;
	int status = cli_open(c);
	c->pmu = last;
	int *pmus = NULL, count = 0;
	if (status == EXIT_GOOD)
		status = export_select(c, &pmus, &count);
	if (status == EXIT_GOOD)
		status = tree ? export_perf_json(c, pmus, count, out_path, replace)
			      : write_stream(c, pmus, count, !strcmp(format, "csv"), out_path);
	free(pmus);
	cli_close(c);
	return status;
}
