/*
 * test_export.c - `pmudb export` and `pmudb diff` as a user runs them.
 *
 * json: every line one JSON object (jansson reads it), every PMU's
 * record then its events' and unit masks', each encoding equal to what
 * pmudb_encode gives its string; a PMU that names an earlier one's events
 * (events_of), read as docs/export.md says, gives every bare string of
 * its own the library's encoding.  csv: a row per event and unit mask.
 * perf-json: the whole catalog exported, then perf's own jevents.py (from
 * the extracted kernel tree: $PMUDB_PMU_EVENTS/../jevents.py) compiles
 * the tree; it must accept it, and for every exported entry the terms
 * jevents.py wrote (event=0xc0,umask=0x1,...) must give, read through the
 * PMU's format, the registers pmudb encodes the entry's string to.
 * diff: spr against emr, zen4 against zen5, computed again here.
 */
#include <ctype.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "pmudb.h"
#include "tests/testlib.h"

static char *pmudb, *tmp;
static pmudb_t *db;

static int setup(void **state)
{
	(void)state;
	return test_cli_start(&pmudb, &tmp, &db);
}

static int teardown(void **state)
{
	(void)state;
	test_cli_end(pmudb, tmp, db);
	return 0;
}

/* Runs pmudb with the arguments up to the first NULL. */
#define run(r, ...) test_pmudb(r, NULL, __VA_ARGS__, NULL)

static uint64_t hex(json_t *v)
{
	return strtoull(json_string_value(v), NULL, 16);
}

static int count_metric(void *ctx, const struct pmudb_metric *m)
{
	(void)ctx;
	(void)m;
	return 0;
}

static void test_json(void **state)
{
	(void)state;
	struct run_result r;
	run(&r, "export", "--format", "json", "--pmu", "skl", "--pmu", "amd64_fam1ah_zen5");
	assert_int_equal(r.status, 0);
	int pmus = 0, events = 0, umasks = 0, checked = 0, metrics = 0;
	long lists = 0;	/* the modifier lists of the PMU being read */
	bool any_p = false;
	for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
		json_error_t jerr;
		json_t *o = json_loads(line, 0, &jerr);
		assert_non_null(o);
		const char *rec = json_string_value(json_object_get(o, "record"));
		assert_non_null(rec);
		if (!strcmp(rec, "pmu")) {
			pmus++;
			lists = 0;
		} else if (!strcmp(rec, "modifiers")) {
			assert_int_equal(json_integer_value(json_object_get(o, "id")), lists++);
			assert_true(json_array_size(json_object_get(o, "modifiers")) > 0);
		} else if (!strcmp(rec, "metric")) {
			/* a vendor metric of the PMUs exported, as written */
			const char *of = json_string_value(json_object_get(o, "pmu"));
			assert_non_null(json_string_value(json_object_get(o, "expr")));
			assert_true(!strcmp(of, "skl") || !strcmp(of, "amd64_fam1ah_zen5"));
			metrics++;
		} else {
			++*(!strcmp(rec, "event") ? &events : &umasks);
			json_t *enc = json_object_get(o, "encoding");
			if (enc) {
				struct pmudb_encoding e;
				const char *um = json_string_value(json_object_get(o, "umask"));
				char string[600];
				snprintf(string, sizeof(string), "%s::%s%s%s", json_string_value(json_object_get(o, "pmu")),
					 json_string_value(json_object_get(o, "event")), um ? ":" : "", um ? um : "");
				assert_int_equal(pmudb_encode(db, string, NULL, &e, NULL), 0);
				assert_string_equal(e.fstr, json_string_value(json_object_get(enc, "fstr")));
				assert_int_equal(e.config, hex(json_object_get(enc, "config")));
				assert_int_equal(e.config1, hex(json_object_get(enc, "config1")));
				assert_int_equal(e.type, json_integer_value(json_object_get(enc, "type")));
				checked++;
			} else {
				assert_non_null(json_object_get(o, "error"));
			}
			if (!strcmp(rec, "umask") && !strcmp(json_string_value(json_object_get(o, "event")), "INST_RETIRED")
			    && !strcmp(json_string_value(json_object_get(o, "umask")), "ANY_P")) {
				any_p = true;
				assert_true(json_is_true(json_object_get(o, "default")));
				assert_string_equal(json_string_value(json_object_get(enc, "perf")), "cpu/config=0xc0/");
			}
			/* an event names a modifier list of its PMU written before it */
			if (!strcmp(rec, "event")) {
				json_t *id = json_object_get(o, "modifiers");
				assert_true(json_is_integer(id) && json_integer_value(id) < lists);
			}
		}
		json_decref(o);
	}
	assert_int_equal(pmus, 2);
	assert_true(any_p);
	assert_true(checked > 500);
	int skl = pmudb_find_pmu(db, "skl");
	struct pmudb_pmu_info info;
	pmudb_pmu_info(db, skl, &info);
	assert_true(events >= info.event_count);
	/* the metrics the catalog has for them (Skylake's and Zen 5's, from the
	 * vendor tree) */
	struct pmudb_scope both = { 2, { skl, pmudb_find_pmu(db, "amd64_fam1ah_zen5") } };
	int want = both.pmus[1] >= 0 ? pmudb_metrics(db, &both, NULL, count_metric, NULL, NULL) : 0;
	assert_int_equal(metrics, want);
	print_message("json: 2 PMUs, %d events, %d unit masks, %d encodings checked, %d metrics\n", events, umasks,
		      checked, metrics);
	test_run_free(&r);

	/* csv: a header, then as many rows as json has records (metrics too) */
	run(&r, "export", "--format", "csv", "--pmu", "skl", "--pmu", "amd64_fam1ah_zen5");
	assert_int_equal(r.status, 0);
	assert_int_equal(test_line_count(r.out), 1 + events + umasks + metrics);
	assert_non_null(strstr(r.out, "\"umask\",\"skl\",\"INST_RETIRED\",\"ANY_P\",\"0x0\",\"1\",\"skl::INST_RETIRED:ANY_P\",\"4\",\"0xc0\",\"0x0\",\"0x0\",\"\""));
	test_run_free(&r);

	run(&r, "export", "--help", NULL, NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: pmudb export"));
	test_run_free(&r);
	run(&r, "diff", "--help", NULL, NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: pmudb diff"));
	test_run_free(&r);
	/* one-line errors, exit 2 */
	run(&r, "export", "--format", "yaml", NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(test_line_count(r.err), 1);
	test_run_free(&r);
	run(&r, "export", "--format", "json", "--pmu", "no_such_pmu", NULL, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "no_such_pmu"));
	assert_int_equal(test_line_count(r.err), 1);
	test_run_free(&r);
	run(&r, "export", "--format", "perf-json", NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--out"));
	test_run_free(&r);
}

/* ---- json: a PMU with another's events ----------------------------------- */

/* S with every "FROM::" made "TO::", into BUF (docs/export.md's rule). */
static void renamed(const char *s, const char *from, const char *to, char *buf, size_t size)
{
	char pattern[80];
	snprintf(pattern, sizeof(pattern), "%s::", from);
	size_t len = 0;
	buf[0] = '\0';
	for (const char *at; (at = strstr(s, pattern)); s = at + strlen(pattern))
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%.*s%s::", (int)(at - s), s, to);
	if (len < size)
		snprintf(buf + len, size - len, "%s", s);
}

struct exported_pmu {
	json_t *record;
	json_t *items;		/* its own event and unit-mask records, in order */
	const char *events_of;	/* NULL: its own */
};

static struct exported_pmu *exported_named(struct exported_pmu *pmus, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(json_string_value(json_object_get(pmus[i].record, "pmu")), name))
			return &pmus[i];
	return NULL;
}

static const char *text_or_empty(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/* Item O of PMU A's records, read as PMU P's (A == P for its own), against
 * the library's answer for P's string. */
static void expect_item(const struct exported_pmu *a, const struct exported_pmu *p, json_t *o)
{
	const char *an = json_string_value(json_object_get(a->record, "pmu"));
	const char *pn = json_string_value(json_object_get(p->record, "pmu"));
	const char *um = json_string_value(json_object_get(o, "umask"));
	char string[600], want[1024];
	snprintf(string, sizeof(string), "%s::%s%s%s", pn, text_or_empty(o, "event"), um ? ":" : "", um ? um : "");
	struct pmudb_encoding e;
	struct pmudb_error err;
	int code = pmudb_encode(db, string, NULL, &e, &err);
	json_t *enc = json_object_get(o, "encoding");
	if (!enc) {
		if (strcmp(text_or_empty(o, "error_code"), pmudb_error_name(code)))
			fail_msg("%s: the export says %s, the library %s", string, text_or_empty(o, "error_code"),
				 pmudb_error_name(code));
		renamed(text_or_empty(o, "error"), an, pn, want, sizeof(want));
		assert_string_equal(want, err.message);
		return;
	}
	if (code)
		fail_msg("%s: the export has an encoding, the library refuses it: %s", string, err.message);
	renamed(text_or_empty(enc, "fstr"), an, pn, want, sizeof(want));
	if (strcmp(want, e.fstr) || e.type != json_integer_value(json_object_get(enc, "type"))
	    || e.config != hex(json_object_get(enc, "config")) || e.config1 != hex(json_object_get(enc, "config1"))
	    || e.config2 != hex(json_object_get(enc, "config2")))
		fail_msg("%s: the export (as %s's) says %s 0x%llx, the library %s 0x%llx", string, an, want,
			 (unsigned long long)hex(json_object_get(enc, "config")), e.fstr, (unsigned long long)e.config);
	const char *ka = text_or_empty(a->record, "sysfs_pmu"), *kp = text_or_empty(p->record, "sysfs_pmu");
	const char *k = text_or_empty(enc, "sysfs_pmu");
	assert_string_equal(!strcmp(k, ka) ? kp : k, e.sysfs_pmu);
	char perf[1024];
	const char *listed = json_string_value(json_object_get(enc, "perf"));
	bool has = !pmudb_perf_syntax(db, &e, perf, sizeof(perf), NULL);
	assert_int_equal(has, listed != NULL);
	if (has) {
		size_t n = strlen(ka);
		if (*ka && !strncmp(listed, ka, n) && listed[n] == '/')
			snprintf(want, sizeof(want), "%s%s", kp, listed + n);
		else
			snprintf(want, sizeof(want), "%s", listed);
		assert_string_equal(want, perf);
	}
}

/* The json export of PMUs sharing event tables: each PMU whose events
 * answer as an earlier one's names it (events_of) and has no records of
 * its own; read as docs/export.md says, every bare string of every PMU
 * is there with the library's encoding.  The whole catalog (Skylake-X's
 * and Sapphire Rapids' boxes among others; a selection under the
 * sanitizers). */
static void test_json_events_of(void **state)
{
	(void)state;
	char *argv[64] = { pmudb, "export", "--format", "json" };
	int argc = 4;
#if defined(__SANITIZE_ADDRESS__)
	static const char *const some[] = { "skl", "skx_unc_cha0", "skx_unc_cha1", "skx_unc_cha2", "skx_unc_imc0",
					     "skx_unc_imc1", "adl_glc", "adl_grt", "perf", "amd64_fam19h_zen4" };
	for (size_t i = 0; i < sizeof(some) / sizeof(some[0]); i++)
		if (pmudb_find_pmu(db, some[i]) >= 0) {
			argv[argc++] = "--pmu";
			argv[argc++] = (char *)some[i];
		}
#endif
	argv[argc] = NULL;
	struct run_result r;
	test_run(argv, NULL, &r);
	assert_int_equal(r.status, 0);
	int npmus = 0, cap = 1024, shared = 0;
	long items = 0;
	struct exported_pmu *pmus = calloc((size_t)cap, sizeof(*pmus));
	for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
		json_error_t jerr;
		json_t *o = json_loads(line, 0, &jerr);
		assert_non_null(o);
		const char *rec = text_or_empty(o, "record");
		if (!strcmp(rec, "pmu")) {
			assert_true(npmus < cap);
			struct exported_pmu *p = &pmus[npmus++];
			p->record = o;
			p->items = json_array();
			p->events_of = json_string_value(json_object_get(o, "events_of"));
			if (p->events_of) {
				/* an earlier PMU, with records of its own */
				struct exported_pmu *a = exported_named(pmus, npmus - 1, p->events_of);
				assert_non_null(a);
				assert_null(a->events_of);
				shared++;
			}
			continue;
		}
		if (strcmp(rec, "event") && strcmp(rec, "umask")) {
			json_decref(o);
			continue;
		}
		struct exported_pmu *p = &pmus[npmus - 1];
		assert_null(p->events_of);
		assert_string_equal(text_or_empty(o, "pmu"), text_or_empty(p->record, "pmu"));
		json_array_append_new(p->items, o);
	}
	for (int i = 0; i < npmus; i++) {
		struct exported_pmu *p = &pmus[i];
		const struct exported_pmu *a = p->events_of ? exported_named(pmus, npmus, p->events_of) : p;
		/* as many records as the PMU has live events and unit masks */
		int pmu = pmudb_find_pmu(db, text_or_empty(p->record, "pmu"));
		struct pmudb_pmu_info info;
		assert_int_equal(pmudb_pmu_info(db, pmu, &info), 0);
		size_t live = 0;
		for (int e = 0; e < info.event_count; e++) {
			struct pmudb_event_info ev;
			if (pmudb_event_info(db, pmu, e, &ev))
				continue;
			live++;
			for (int u = 0; u < ev.umask_count; u++) {
				struct pmudb_umask_info um;
				live += !pmudb_umask_info(db, pmu, e, u, &um);
			}
		}
		assert_int_equal(json_array_size(a->items), live);
		size_t k;
		json_t *o;
		json_array_foreach(a->items, k, o) {
			expect_item(a, p, o);
			items++;
		}
	}
	print_message("json: %d PMUs, %d of them with an earlier one's events (events_of), %ld bare strings read "
		      "back to the library's encodings\n", npmus, shared, items);
	assert_true(shared > 0);
	for (int i = 0; i < npmus; i++) {
		json_decref(pmus[i].record);
		json_decref(pmus[i].items);
	}
	free(pmus);
	test_run_free(&r);
}

/* ---- perf-json through jevents.py -------------------------------------- */

struct jevents_entry {
	char *table;	/* pmu_events__skx_default_core */
	char *name;	/* inst_retired.any_p */
	char *terms;	/* event=0xc0,period=2000003 */
};

struct jevents_out {
	int n, cap;
	struct jevents_entry *e;
};

static int by_table_name(const void *a, const void *b)
{
	const struct jevents_entry *x = a, *y = b;
	int c = strcmp(x->table, y->table);
	return c ? c : strcmp(x->name, y->name);
}

/* Field K of "a\000b\000c..." (the C escape as text). */
static char *field(const char *s, int k)
{
	for (int i = 0; i < k && s; i++) {
		s = strstr(s, "\\000");
		if (s)
			s += 4;
	}
	if (!s)
		return NULL;
	const char *end = strstr(s, "\\000");
	return end ? strndup(s, (size_t)(end - s)) : NULL;
}

static void read_jevents(const char *path, struct jevents_out *out)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *line = NULL, table[256] = "";
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "static const struct compact_pmu_event %255[A-Za-z0-9_][] = {", table) == 1)
			continue;
		if (!strncmp(line, "};", 2))
			table[0] = '\0';
		char *c = strstr(line, "}, /* ");
		if (!table[0] || !c)
			continue;
		if (out->n == out->cap) {
			out->cap = out->cap ? 2 * out->cap : 4096;
			out->e = realloc(out->e, (size_t)out->cap * sizeof(*out->e));
		}
		struct jevents_entry *e = &out->e[out->n++];
		e->table = strdup(table);
		e->name = field(c + 6, 0);
		e->terms = field(c + 6, 3);
		assert_non_null(e->name);
		assert_non_null(e->terms);
	}
	free(line);
	fclose(f);
	qsort(out->e, (size_t)out->n, sizeof(*out->e), by_table_name);
}

/* "pmu_events__DIR_PMU", PMU as jevents.py names it from Unit. */
static void table_name(char *buf, size_t size, const char *dir, const char *unit)
{
	char pmu[128];
	if (!unit)
		snprintf(pmu, sizeof(pmu), "default_core");
	else if (!strcmp(unit, "L3PMC"))
		snprintf(pmu, sizeof(pmu), "amd_l3");
	else if (!strcmp(unit, "DFPMC"))
		snprintf(pmu, sizeof(pmu), "amd_df");
	else if (!strcmp(unit, "UMCPMC"))
		snprintf(pmu, sizeof(pmu), "amd_umc");
	else if (strpbrk(unit, "abcdefghijklmnopqrstuvwxyz")) {
		/* a system PMU's Unit (arm_cmn, hisi_sccl,ddrc), which the export
		 * writes in lower case as jevents.py's unit table names it: the
		 * table is named after it, ',' as '_' */
		size_t n = 0;
		for (const char *u = unit; *u && n + 1 < sizeof(pmu); u++)
			pmu[n++] = *u == ',' ? '_' : *u;
		pmu[n] = '\0';
	} else {
		size_t n = (size_t)snprintf(pmu, sizeof(pmu), "uncore_");
		for (const char *u = unit; *u && n + 1 < sizeof(pmu); u++)
			pmu[n++] = *u == '-' ? '_' : (char)tolower((unsigned char)*u);
		pmu[n] = '\0';
	}
	snprintf(buf, size, "pmu_events__%s_%s", dir, pmu);
}

struct tally {
	int entries, files, fixed, metrics;
};

/* Every entry of one exported file against jevents.py's terms for it. */
static void check_file(const char *path, const char *arch, const char *dir, struct jevents_out *jev, struct tally *t)
{
	json_error_t jerr;
	json_t *list = json_load_file(path, 0, &jerr);
	assert_non_null(list);
	size_t i;
	json_t *o;
	t->files++;
	json_array_foreach(list, i, o) {
		const char *string = json_string_value(json_object_get(o, "PmudbString"));
		const char *unit = json_string_value(json_object_get(o, "Unit"));
		char table[512], name[600];
		table_name(table, sizeof(table), dir, unit);
		snprintf(name, sizeof(name), "%s", json_string_value(json_object_get(o, "EventName")));
		for (char *p = name; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		/* jevents.py gives six x86 names fixed encodings of its own
		 * (real_event: cpu_clk_unhalted.thread is event=0x3c, where
		 * libpfm's is the fixed counter's pseudo-encoding 0x0200) */
		static const char *const perf_fixed[] = { "inst_retired.any", "inst_retired.any_p", "cpu_clk_unhalted.ref",
							  "cpu_clk_unhalted.thread", "cpu_clk_unhalted.core",
							  "cpu_clk_unhalted.thread_any" };
		bool fixed = false;
		for (size_t k = 0; k < sizeof(perf_fixed) / sizeof(perf_fixed[0]); k++)
			fixed |= !strcmp(name, perf_fixed[k]) && !strcmp(arch, "x86");
		struct jevents_entry key = { table, name, NULL };
		struct jevents_entry *found = bsearch(&key, jev->e, (size_t)jev->n, sizeof(*jev->e), by_table_name);
		if (!found)
			fail_msg("%s: %s (%s) is not in jevents.py's table %s", path, name, string, table);
		struct pmudb_encoding e;
		assert_int_equal(pmudb_encode(db, string, NULL, &e, NULL), 0);
		t->entries++;
		if (fixed) {
			t->fixed++;
			continue;
		}
		struct pmudb_pmu_info info;
		pmudb_pmu_info(db, pmudb_find_pmu(db, e.pmu), &info);
		const char *kernel = e.sysfs_pmu[0] ? e.sysfs_pmu : !strcmp(arch, "arm64") ? "armv8_pmuv3_0" : "cpu";
		char perf[2048];
		snprintf(perf, sizeof(perf), "%s/%s/", kernel, found->terms);
		struct pmudb_raw_event raw;
		struct pmudb_error err;
		if (pmudb_perf_parse(perf, info.family, &raw, &err))
			fail_msg("%s: %s: jevents.py wrote %s: %s", path, string, perf, err.message);
		if (raw.config != e.config || raw.config1 != e.config1 || raw.config2 != e.config2)
			fail_msg("%s: %s encodes to 0x%llx,0x%llx,0x%llx; jevents.py's %s is 0x%llx,0x%llx,0x%llx", path, string,
				 (unsigned long long)e.config, (unsigned long long)e.config1, (unsigned long long)e.config2,
				 perf, (unsigned long long)raw.config, (unsigned long long)raw.config1,
				 (unsigned long long)raw.config2);
	}
	json_decref(list);
}

static void check_tree(const char *root, struct jevents_out *jev, struct tally *t)
{
	static const char *const arches[] = { "x86", "arm64" };
	for (size_t a = 0; a < 2; a++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", root, arches[a]);
		DIR *d = opendir(path);
		assert_non_null(d);
		struct dirent *de;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.' || strstr(de->d_name, ".csv"))
				continue;
			char sub[4352];
			snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
			DIR *files = opendir(sub);
			assert_non_null(files);
			struct dirent *fe;
			while ((fe = readdir(files)))
				if (!strncmp(fe->d_name, "metrics-", 8)) {
					/* the vendors' metrics: jevents.py read them (the
					 * run above); counted here */
					char file[4608];
					snprintf(file, sizeof(file), "%s/%s", sub, fe->d_name);
					json_error_t jerr;
					json_t *list = json_load_file(file, 0, &jerr);
					assert_non_null(list);
					t->metrics += (int)json_array_size(list);
					json_decref(list);
				} else if (strstr(fe->d_name, ".json")) {
					char file[4608];
					snprintf(file, sizeof(file), "%s/%s", sub, fe->d_name);
					check_file(file, arches[a], de->d_name, jev, t);
				}
			closedir(files);
		}
		closedir(d);
	}
}

static void test_perf_json_jevents(void **state)
{
	(void)state;
	const char *tree = getenv("PMUDB_PMU_EVENTS");
	char jevents[1024];
	snprintf(jevents, sizeof(jevents), "%s/../jevents.py", tree ? tree : "build/pmu-events/arch");
	if (access(jevents, R_OK) || system("python3 -c 'import sys' 2>/dev/null")) {
		print_message("SKIP: no jevents.py at %s, or no python3 (packages linux-source-6.12, python3)\n", jevents);
		return;
	}
	char out[1024], cmd[16384];
	snprintf(out, sizeof(out), "%s/perf-json", tmp);
	struct run_result r;
	run(&r, "export", "--format", "perf-json", "--out", out, NULL, NULL);
	assert_int_equal(r.status, 0);
	test_run_free(&r);
	/* jevents.py wants perf's own test architecture beside the others */
	snprintf(cmd, sizeof(cmd), "cp -r '%s/test' '%s/' && python3 '%s' all all '%s' '%s/pmu-events.c'", tree ? tree : "build/pmu-events/arch",
		 out, jevents, out, tmp);
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	test_run(argv, NULL, &r);
	if (r.status)
		print_message("jevents.py refused the export: %s\n", r.err);
	assert_int_equal(r.status, 0);
	test_run_free(&r);
	struct jevents_out jev = { 0 };
	snprintf(cmd, sizeof(cmd), "%s/pmu-events.c", tmp);
	read_jevents(cmd, &jev);
	struct tally t = { 0 };
	check_tree(out, &jev, &t);
	/* every PMU that has events outside perf's generic ones is in it */
	int expected = 0;
	for (int p = 0; p < pmudb_pmu_count(db); p++) {
		struct pmudb_pmu_info info;
		pmudb_pmu_info(db, p, &info);
		expected += strcmp(info.kind, "os") && strcmp(info.family, "intel_netburst");
	}
	print_message("jevents.py accepted the perf-json export: %d files, %d entries, each read back to its encoding "
		      "but %d that jevents.py encodes its own way (%d PMUs exported), and %d metrics\n", t.files, t.entries,
		      t.fixed, expected, t.metrics);
	/* and took the metrics into its tables */
	snprintf(cmd, sizeof(cmd), "grep -q 'tma_retiring' '%s/pmu-events.c'", tmp);
	if (t.metrics)
		assert_int_equal(system(cmd), 0);
	assert_true(t.entries > 20000);
	for (int i = 0; i < jev.n; i++)
		free(jev.e[i].table), free(jev.e[i].name), free(jev.e[i].terms);
	free(jev.e);
}

/* Files under DIR, counted (folders too). */
static int count_tree(const char *dir)
{
	char cmd[1200];
	snprintf(cmd, sizeof(cmd), "find '%s' | wc -l", dir);
	FILE *f = popen(cmd, "r");
	int n = -1;
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &n), 1);
	pclose(f);
	return n;
}

/* perf-json is written beside the folder and moved into place whole: a
 * folder that holds files is refused unless --replace (an export skipped
 * the files there and kept them), and a write that fails (a file size
 * limit standing for a full disk) leaves the folder as it was, with
 * nothing beside it. */
static void test_perf_json_into_place(void **state)
{
	(void)state;
	char dir[1024], stale[1100], cmd[4096];
	snprintf(dir, sizeof(dir), "%s/again", tmp);
	struct run_result r;
	run(&r, "export", "--format", "perf-json", "--pmu", "skx", "--out", dir);
	assert_int_equal(r.status, 0);
	test_run_free(&r);
	int files = count_tree(dir);
	snprintf(stale, sizeof(stale), "%s/x86/skx/stale.json", dir);
	FILE *f = fopen(stale, "w");
	assert_non_null(f);
	fclose(f);
	run(&r, "export", "--format", "perf-json", "--pmu", "skx", "--out", dir);
	assert_int_equal(r.status, 2);
	assert_int_equal(test_line_count(r.err), 1);
	assert_non_null(strstr(r.err, "--replace"));
	test_run_free(&r);
	assert_int_equal(access(stale, F_OK), 0);
	run(&r, "export", "--format", "perf-json", "--pmu", "skx", "--out", dir, "--replace");
	assert_int_equal(r.status, 0);
	test_run_free(&r);
	assert_int_not_equal(access(stale, F_OK), 0);
	assert_int_equal(count_tree(dir), files);
	/* 8 blocks of 512 bytes at most per file, SIGXFSZ ignored: writes fail
	 * with EFBIG, as on a full disk */
	f = fopen(stale, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "trap '' XFSZ; ulimit -f 8; exec '%s' export --format perf-json --pmu skx --out '%s' --replace",
		 pmudb, dir);
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	test_run(argv, NULL, &r);
	print_message("  %s", r.err);
	assert_int_equal(r.status, 2);
	assert_int_equal(test_line_count(r.err), 1);
	assert_non_null(strstr(r.err, dir));
	test_run_free(&r);
	assert_int_equal(access(stale, F_OK), 0);
	assert_int_equal(count_tree(dir), files + 1);
	DIR *d = opendir(tmp);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));)
		if (!strncmp(e->d_name, "again.", 6))
			fail_msg("%s/%s left beside the folder", tmp, e->d_name);
	closedir(d);
}

/* ---- diff ---------------------------------------------------------------- */

static void test_diff(void **state)
{
	(void)state;
	struct run_result r;
	run(&r, "diff", "--json", "spr", "emr", NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	json_error_t jerr;
	json_t *o = json_loads(r.out, 0, &jerr);
	assert_non_null(o);
	/* each "differ" pair: the two encodings, as pmudb_encode gives them */
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(o, "differ"), i, d) {
		char a[512], b[512];
		struct pmudb_encoding ea, eb;
		snprintf(a, sizeof(a), "spr::%s", json_string_value(json_object_get(d, "name")));
		snprintf(b, sizeof(b), "emr::%s", json_string_value(json_object_get(d, "name")));
		int ra = pmudb_encode(db, a, NULL, &ea, NULL), rb = pmudb_encode(db, b, NULL, &eb, NULL);
		assert_true(ra || rb || ea.config != eb.config || ea.config1 != eb.config1 || ea.config2 != eb.config2);
	}
	/* every name only in spr: emr does not encode it, or not as spr does */
	json_t *name;
	json_array_foreach(json_object_get(o, "only_a"), i, name) {
		char a[512], b[512];
		struct pmudb_encoding ea, eb;
		snprintf(a, sizeof(a), "spr::%s", json_string_value(name));
		snprintf(b, sizeof(b), "emr::%s", json_string_value(name));
		if (!pmudb_encode(db, b, NULL, &eb, NULL) && !pmudb_encode(db, a, NULL, &ea, NULL))
			assert_true(ea.config != eb.config || ea.config1 != eb.config1 || ea.config2 != eb.config2);
	}
	print_message("spr/emr: %zu differ, %zu renamed, %zu only in spr, %zu only in emr, %lld the same\n",
		      json_array_size(json_object_get(o, "differ")), json_array_size(json_object_get(o, "renamed")),
		      json_array_size(json_object_get(o, "only_a")), json_array_size(json_object_get(o, "only_b")),
		      json_integer_value(json_object_get(o, "same")));
	json_decref(o);
	test_run_free(&r);

	/* a rename is the same encoding for the same reader: perf's generic
	 * events (types 0 to 3) and a core PMU's (raw) share configs only by
	 * chance, as do a core PMU and an uncore box */
	static char *const pairs[][2] = { { "perf", "skl" }, { "skx", "skx_unc_cha0" } };
	for (size_t p = 0; p < 2; p++) {
		run(&r, "diff", "--json", pairs[p][0], pairs[p][1], NULL, NULL, NULL);
		o = json_loads(r.out, 0, &jerr);
		assert_non_null(o);
		json_array_foreach(json_object_get(o, "renamed"), i, d) {
			char a[512], b[512];
			struct pmudb_encoding ea, eb;
			snprintf(a, sizeof(a), "%s::%s", pairs[p][0], json_string_value(json_object_get(d, "a")));
			snprintf(b, sizeof(b), "%s::%s", pairs[p][1], json_string_value(json_object_get(d, "b")));
			assert_int_equal(pmudb_encode(db, a, NULL, &ea, NULL), 0);
			assert_int_equal(pmudb_encode(db, b, NULL, &eb, NULL), 0);
			if (ea.type != eb.type || strcmp(ea.sysfs_pmu, eb.sysfs_pmu) || ea.config != eb.config)
				fail_msg("%s and %s paired as a rename: type %d/%d, kernel PMU '%s'/'%s'", a, b, ea.type,
					 eb.type, ea.sysfs_pmu, eb.sysfs_pmu);
		}
		json_decref(o);
		test_run_free(&r);
	}

	/* zen4 against zen5: libpfm's names against AMD's, paired by encoding */
	run(&r, "diff", "--json", "amd64_fam19h_zen4", "amd64_fam1ah_zen5", NULL, NULL, NULL);
	assert_int_equal(r.status, 0);
	o = json_loads(r.out, 0, &jerr);
	assert_non_null(o);
	bool found = false;
	json_array_foreach(json_object_get(o, "renamed"), i, d) {
		char a[512], b[512];
		struct pmudb_encoding ea, eb;
		snprintf(a, sizeof(a), "amd64_fam19h_zen4::%s", json_string_value(json_object_get(d, "a")));
		snprintf(b, sizeof(b), "amd64_fam1ah_zen5::%s", json_string_value(json_object_get(d, "b")));
		assert_int_equal(pmudb_encode(db, a, NULL, &ea, NULL), 0);
		assert_int_equal(pmudb_encode(db, b, NULL, &eb, NULL), 0);
		assert_int_equal(ea.config, eb.config);
		found |= !strcmp(json_string_value(json_object_get(d, "a")), "RETIRED_INSTRUCTIONS");
	}
	/* AMD's list names events its own way; a libpfm that has its own
	 * Zen 5 table (its current source) names them as for Zen 4 */
	struct pmudb_pmu_info zen5;
	assert_int_equal(pmudb_pmu_info(db, pmudb_find_pmu(db, "amd64_fam1ah_zen5"), &zen5), 0);
	if (zen5.source) {
		assert_true(json_array_size(json_object_get(o, "renamed")) > 100);
		assert_true(found);
	} else {
		assert_true(json_integer_value(json_object_get(o, "same")) > 100);
	}
	json_decref(o);
	test_run_free(&r);

	run(&r, "diff", "spr", "no_such_pmu", NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_line_count(r.err), 1);
	assert_non_null(strstr(r.err, "no_such_pmu"));
	test_run_free(&r);
	run(&r, "diff", "spr", NULL, NULL, NULL, NULL, NULL);
	assert_int_equal(r.status, 2);
	test_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_events_of),
		cmocka_unit_test(test_perf_json_jevents),
		cmocka_unit_test(test_perf_json_into_place),
		cmocka_unit_test(test_diff),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
