/*
 * export_perf.c - `pmudb export --format perf-json --out DIR`: the catalog
 * in the layout of the kernel's tools/perf/pmu-events/arch/ tree, which
 * perf's jevents.py compiles into perf:
 *
 *   DIR/ARCH/mapfile.csv          CPUID (x86: Vendor-Family-Model regex;
 *                                 arm64: MIDR) -> µarch folder, from the
 *                                 catalog's CPUID map
 *   DIR/ARCH/UARCH/core.json      the core PMU's events
 *   DIR/ARCH/UARCH/uncore-X.json  the uncore PMUs the CPUID map gives the
 *                                 same CPUs (one file per kind of box)
 *
 * ARCH is arm64 for Arm PMUs, x86 for the others; UARCH is the core PMU's
 * catalog name.  One entry per unit mask (EventName EVENT.UMASK) and per
 * event without unit masks, as the vendors' lists have them.  The fields
 * come from the encoding of that string, split by the kernel PMU's format
 * into EventCode, UMask, CounterMask, Invert, EdgeDetect, AnyThread where
 * those fields cover config, else ConfigCode (config whole); config1 and
 * config2 go in Filter, which perf appends as written; an uncore PMU's
 * Unit is its kernel name's (uncore_cha_0: CHA).  Strings that do not
 * encode (NetBurst's) and the generic PMUs (perf, perf_raw: perf has those
 * events built in) are left out.
 *
 * The tree is written into a new folder beside DIR and moved into place
 * once whole: a failed export (a full disk) leaves DIR as it was, and no
 * file of an earlier export survives into a new one.  A DIR that holds
 * anything is replaced only when asked (--replace).
 */
#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/export.h"

struct tree {
	struct cli *c;
	const char *dir;	/* where it is written: beside SHOWN */
	const char *shown;	/* the folder asked for, for messages */
	int write_errno;	/* a write into the file being written failed: errno then */
	int npmus;
	bool *selected;		/* by PMU index */
	int *owner;		/* by PMU index: the core PMU whose folder holds it, -1 */
	FILE *mapfile[2];	/* x86, arm64 */
	char *rows[1024];	/* mapfile rows written, each once (the tables' */
	int nrows;		/* entries and the vendors' may say the same) */
	/* the file being written */
	FILE *f;
	int entries;
	struct pmudb_perf_format fmt;
	bool have_fmt;
	char unit[64];
	int status;
	/* the names in the file, lowercased as perf keys them: perf refuses a
	 * name twice (libpfm lists hswep_unc_ha's UNC_H_SBO0_CREDIT_OCCUPANCY
	 * twice; the first wins, as in libpfm) */
	char **seen;
	size_t nseen, seen_cap;
};

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s)) * 1099511628211ULL;
	return h;
}

/* False when NAME is already in the file (or memory ran out). */
static bool first_time(struct tree *t, const char *name)
{
	if (2 * (t->nseen + 1) > t->seen_cap) {
		size_t cap = t->seen_cap ? 2 * t->seen_cap : 1024;
		char **table = calloc(cap, sizeof(*table));
		if (!table)
			return false;
		for (size_t i = 0; i < t->seen_cap; i++)
			if (t->seen[i]) {
				size_t k = name_hash(t->seen[i]) & (cap - 1);
				while (table[k])
					k = (k + 1) & (cap - 1);
				table[k] = t->seen[i];
			}
		free(t->seen);
		t->seen = table, t->seen_cap = cap;
	}
	size_t k = name_hash(name) & (t->seen_cap - 1);
	for (; t->seen[k]; k = (k + 1) & (t->seen_cap - 1))
		if (!strcasecmp(t->seen[k], name))
			return false;
	if (!(t->seen[k] = strdup(name)))
		return false;
	t->nseen++;
	return true;
}

static void forget_names(struct tree *t)
{
	for (size_t i = 0; i < t->seen_cap; i++)
		free(t->seen[i]);
	free(t->seen);
	t->seen = NULL, t->nseen = t->seen_cap = 0;
}

static const char *arch_of(const struct pmudb_pmu_info *p)
{
	/* a vendor list's PMU is of its list's arch (an Arm SoC's uncore) */
	if (p->source && !strncmp(p->source, "pmu-events:arm64/", 17))
		return "arm64";
	return p->family && !strcmp(p->family, "arm_pmuv3") ? "arm64" : "x86";
}

/* One line for a failure WHAT (with errno's words) at PATH inside the
 * tree, named as it will be in the folder asked for. */
static void say_failed(const struct tree *t, const char *what, const char *path)
{
	int saved = errno;
	size_t n = strlen(t->dir);
	const char *inside = !strncmp(path, t->dir, n) && path[n] == '/' ? path + n + 1 : path;
	fprintf(stderr, "pmudb: export: --out %s: %s %s%s%s\n", t->shown, what, inside, saved ? ": " : "",
		saved ? strerror(saved) : "");
}

static int make_dir(const struct tree *t, const char *path)
{
	if (mkdir(path, 0777) && errno != EEXIST) {
		say_failed(t, "cannot create", path);
		return -1;
	}
	return 0;
}

/* ---- mapfile.csv ------------------------------------------------------------ */

/* "(3C|45|46)" of LO..HI, hex as perf's cpuid string writes it. */
static void alternatives(char *buf, size_t size, int lo, int hi)
{
	size_t n = (size_t)snprintf(buf, size, lo == hi ? "" : "(");
	for (int v = lo; v <= hi && n < size; v++)
		n += (size_t)snprintf(buf + n, size - n, "%s%X", v > lo ? "|" : "", (unsigned)v);
	if (lo != hi && n < size)
		snprintf(buf + n, size - n, ")");
}

static FILE *open_mapfile(struct tree *t, const char *arch)
{
	int i = !strcmp(arch, "arm64");
	if (t->mapfile[i])
		return t->mapfile[i];
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", t->dir, arch);
	if (make_dir(t, path))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s/mapfile.csv", t->dir, arch);
	t->mapfile[i] = fopen(path, "w");
	if (!t->mapfile[i])
		say_failed(t, "cannot write", path);
	else
		fputs("Family-model,Version,Filename,EventType\n", t->mapfile[i]);
	return t->mapfile[i];
}

/* Writes ROW unless it was. */
static void put_row(struct tree *t, FILE *f, const char *row)
{
	for (int i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i], row))
			return;
	if (t->nrows < (int)(sizeof(t->rows) / sizeof(t->rows[0])))
		t->rows[t->nrows++] = strdup(row);
	fputs(row, f);
}

static void map_row(struct tree *t, const struct pmudb_cpuid_entry *e, const struct pmudb_pmu_info *core)
{
	FILE *f = open_mapfile(t, arch_of(core));
	if (!f) {
		t->status = EXIT_USAGE;
		return;
	}
	if (!strcmp(arch_of(core), "arm64")) {
		/* MIDR: implementer, variant 0, architecture 0xf, part, revision 0 */
		unsigned impl = (unsigned)strtoul(e->vendor, NULL, 0);
		for (int part = e->model_lo; part <= e->model_hi && part - e->model_lo < 4096; part++) {
			char row[256];
			snprintf(row, sizeof(row), "0x00000000%02x0f%03x0,v1,%s,core\n", impl & 0xff, (unsigned)part & 0xfff,
				 core->name);
			put_row(t, f, row);
		}
		return;
	}
	char models[4096], steppings[256] = "";
	alternatives(models, sizeof(models), e->model_lo, e->model_hi);
	if (e->stepping_lo > 0 || e->stepping_hi < 15) {
		steppings[0] = '-';
		alternatives(steppings + 1, sizeof(steppings) - 1, e->stepping_lo, e->stepping_hi);
	}
	char row[4608];
	snprintf(row, sizeof(row), "%s-%d-%s%s,v1,%s,core\n", e->vendor, e->family, models, steppings, core->name);
	put_row(t, f, row);
}

/* Gives each entry's core PMU a folder, with the entry's other PMUs in it. */
static int place(void *ctx, const struct pmudb_cpuid_entry *e)
{
	struct tree *t = ctx;
	int core = pmudb_find_pmu(t->c->db, e->pmus[0]);
	struct pmudb_pmu_info info;
	if (core < 0 || !t->selected[core] || pmudb_pmu_info(t->c->db, core, &info) || strcmp(info.kind, "core"))
		return 0;
	map_row(t, e, &info);
	if (t->owner[core] < 0)
		t->owner[core] = core;
	for (int i = 1; i < e->npmus; i++) {
		int p = pmudb_find_pmu(t->c->db, e->pmus[i]);
		if (p >= 0 && t->selected[p] && t->owner[p] < 0)
			t->owner[p] = core;
	}
	return t->status;
}

/* ---- one entry ---------------------------------------------------------- */

static void json_pair(FILE *f, const char *key, const char *value, bool *first)
{
	struct out o;
	out_start(&o, f);
	out_str(&o, *first ? "  {\n    \"" : ",\n    \"");
	out_str(&o, key);
	out_str(&o, "\": ");
	out_json_string(&o, value);
	out_flush(&o);
	*first = false;
}

/* EventCode, UMask ... where the format's fields cover config; else
 * ConfigCode.  The JSON keys are those jevents.py turns into the terms
 * event=, umask=, cmask=, inv=, edge=, any=. */
static void config_fields(struct tree *t, uint64_t config, bool *first)
{
	static const struct { const char *term, *key; } keys[] = {
		{ "event", "EventCode" }, { "umask", "UMask" }, { "cmask", "CounterMask" },
		{ "inv", "Invert" }, { "edge", "EdgeDetect" }, { "any", "AnyThread" },
	};
	uint64_t covered = 0;
	for (size_t k = 0; t->have_fmt && k < sizeof(keys) / sizeof(keys[0]); k++)
		for (int i = 0; i < t->fmt.count; i++)
			if (!t->fmt.terms[i].field && !strcmp(t->fmt.terms[i].name, keys[k].term))
				covered |= t->fmt.terms[i].mask;
	char v[32];
	if (!t->have_fmt || (config & ~covered)) {
		snprintf(v, sizeof(v), "0x%llx", (unsigned long long)config);
		json_pair(t->f, "ConfigCode", v, first);
		return;
	}
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		for (int i = 0; i < t->fmt.count; i++) {
			const struct pmudb_format_term *term = &t->fmt.terms[i];
			if (term->field || strcmp(term->name, keys[k].term))
				continue;
			uint64_t value = pmudb_format_get(term->mask, config);
			if (!value && k > 1)
				continue;	/* flags and masks only when set */
			snprintf(v, sizeof(v), "0x%llx", (unsigned long long)value);
			json_pair(t->f, keys[k].key, v, first);
		}
}

static void entry(struct tree *t, const struct export_item *it)
{
	char name[600], text[1200];
	bool first = true;
	if (it->um)
		snprintf(name, sizeof(name), "%s.%s", it->ev->name, it->um->name);
	else
		snprintf(name, sizeof(name), "%s", it->ev->name);
	if (!first_time(t, name))
		return;
	fputs(t->entries++ ? ",\n" : "[\n", t->f);
	json_pair(t->f, "EventName", name, &first);
	/* a unit mask from a vendor's list carries its entry's whole
	 * description; libpfm's says what it adds to its event's */
	if (it->um && it->um->source && it->um->description)
		snprintf(text, sizeof(text), "%s", it->um->description);
	else
		snprintf(text, sizeof(text), "%s%s%s", it->ev->description ? it->ev->description : "",
			 it->um && it->um->description ? ": " : "",
			 it->um && it->um->description ? it->um->description : "");
	json_pair(t->f, "BriefDescription", text, &first);
	config_fields(t, it->enc.config, &first);
	if (it->enc.config1 || it->enc.config2) {
		int n = 0;
		if (it->enc.config1)
			n = snprintf(text, sizeof(text), "config1=0x%llx", (unsigned long long)it->enc.config1);
		if (it->enc.config2)
			snprintf(text + n, sizeof(text) - (size_t)n, "%sconfig2=0x%llx", n ? "," : "",
				 (unsigned long long)it->enc.config2);
		json_pair(t->f, "Filter", text, &first);
	}
	if (t->unit[0])
		json_pair(t->f, "Unit", t->unit, &first);
	if (it->ev->is_precise)
		json_pair(t->f, "PEBS", "1", &first);
	json_pair(t->f, "PmudbString", it->string, &first);
	fputs("\n  }", t->f);
}

/* ---- files ----------------------------------------------------------------- */

/* The topic file of PMU P ("core", or "uncore-" and its kind of box) and
 * its Unit (uncore_cha_0: CHA; amd_l3: L3PMC). */
static void topic_of(const struct pmudb_pmu_info *p, char *topic, size_t size, char *unit, size_t usize)
{
	unit[0] = '\0';
	if (!strcmp(p->kind, "core")) {
		snprintf(topic, size, "core");
		return;
	}
	char stem[64];
	/* a vendor list's PMU is its kernel PMU's boxes, one file each: where a
	 * folder's CPUs have two lists' (Broadwell-DE's beside Broadwell-EP's),
	 * the first one's */
	bool vendor = !strcmp(p->family, "kernel_format") && p->sysfs_pmu;
	bool glob = vendor && strpbrk(p->sysfs_pmu, "*?[");
	snprintf(stem, sizeof(stem), "%s", vendor && !glob ? p->sysfs_pmu : p->name);
	/* libpfm's boxes are numbered (skx_unc_cha0); a vendor list's PMU is
	 * all of its boxes, its name no number (amd64_fam19h_zen4_l3) */
	for (size_t n = strlen(stem); !vendor && n > 0 && stem[n - 1] >= '0' && stem[n - 1] <= '9';)
		stem[--n] = '\0';
	snprintf(topic, size, "uncore-%s", stem);
	const char *k = p->sysfs_pmu ? p->sysfs_pmu : p->name;
	static const struct { const char *sysfs, *unit; } amd[] = {
		{ "amd_l3", "L3PMC" }, { "amd_df", "DFPMC" }, { "amd_umc", "UMCPMC" },
	};
	for (size_t i = 0; i < sizeof(amd) / sizeof(amd[0]); i++)
		if (!strcmp(k, amd[i].sysfs)) {
			snprintf(unit, usize, "%s", amd[i].unit);
			return;
		}
	if (vendor && strncmp(k, "uncore_", 7)) {
		/* a system PMU's Unit is its kernel PMU as jevents.py's table
		 * names it (arm_cmn, imx8_ddr); one whose devices carry numbers
		 * inside (hisi_sccl*_ddrc*) perf's "hisi_sccl,ddrc" */
		size_t n = 0;
		for (const char *c = k; *c && n + 1 < usize; c++)
			if (*c != '*')
				unit[n++] = *c;
			else if (c[1] == '_')
				unit[n++] = ',', c++;
		unit[n] = '\0';
		return;
	}
	if (!strncmp(k, "uncore_", 7))
		k += 7;
	size_t n = 0;
	for (; k[n] && n + 1 < usize; n++)
		unit[n] = (char)(k[n] >= 'a' && k[n] <= 'z' ? k[n] - 'a' + 'A' : k[n]);
	unit[n] = '\0';
	while (n > 0 && ((unit[n - 1] >= '0' && unit[n - 1] <= '9') || unit[n - 1] == '_'))
		unit[--n] = '\0';
}

static int write_entry(void *ctx, int pmu, const struct pmudb_pmu_info *p, const struct export_item *it)
{
	struct tree *t = ctx;
	(void)pmu;
	(void)p;
	/* an event with unit masks is exported through them */
	if (!it || it->status || (!it->um && it->ev->umask_count))
		return 0;
	entry(t, it);
	if (!ferror(t->f))
		return 0;
	t->write_errno = errno;
	return EXIT_USAGE;
}

/* A name from the catalog made a file name: one path component of
 * ordinary characters (the catalog is data, and "../x" must not walk out
 * of the export directory). */
static bool safe_component(const char *name)
{
	if (!*name || !strcmp(name, ".") || !strcmp(name, "..") || strlen(name) > 200)
		return false;
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("_.-", *c)))
			return false;
	return true;
}

/* Writes PMU P into its folder, unless a PMU of the same kind of box did. */
static int write_pmu(struct tree *t, int p, const struct pmudb_pmu_info *info)
{
	const char *arch = arch_of(info);
	struct pmudb_pmu_info owner;
	if (pmudb_pmu_info(t->c->db, t->owner[p], &owner)) {
		cli_damaged(t->c, "PMU %d", t->owner[p]);
		return EXIT_USAGE;
	}
	char topic[96], path[4096];
	topic_of(info, topic, sizeof(topic), t->unit, sizeof(t->unit));
	if (!safe_component(owner.name) || !safe_component(topic)) {
		fprintf(stderr, "pmudb: export: the catalog's PMU name '%.60s' cannot be a file name\n", info->name);
		return EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/%s", t->dir, arch);
	if (make_dir(t, path))
		return EXIT_USAGE;
	snprintf(path, sizeof(path), "%s/%s/%s", t->dir, arch, owner.name);
	if (make_dir(t, path))
		return EXIT_USAGE;
	snprintf(path, sizeof(path), "%s/%s/%s/%s.json", t->dir, arch, owner.name, topic);
	struct stat st;
	if (!stat(path, &st))
		return EXIT_GOOD;	/* uncore_cha_1 ... as uncore_cha_0 */
	/* the format the fields are split by: the kernel PMU's, else cpu's */
	const char *kernel = info->sysfs_pmu ? info->sysfs_pmu : !strcmp(arch, "arm64") ? "armv8_pmuv3_0" : "cpu";
	/* a vendor list's uncore PMU: config whole (ConfigCode), as its
	 * fields were placed by its driver's formats, not by a table's */
	t->have_fmt = strcmp(info->family, "kernel_format") && !pmudb_perf_format(kernel, info->family, &t->fmt, NULL);
	t->f = fopen(path, "w");
	t->entries = 0;
	t->write_errno = 0;
	if (!t->f) {
		say_failed(t, "cannot write", path);
		return EXIT_USAGE;
	}
	int r = export_walk(t->c, &p, 1, write_entry, t);
	forget_names(t);
	fputs(t->entries ? "\n]\n" : "[]\n", t->f);
	errno = 0;
	bool failed = ferror(t->f) | fclose(t->f);
	if (t->write_errno)
		errno = t->write_errno;
	/* a walk that failed for another reason said why */
	if (failed || t->write_errno)
		say_failed(t, "cannot write", path);
	if (failed || r)
		return EXIT_USAGE;
	if (!t->entries)
		remove(path);	/* nothing encodes (NetBurst): no file */
	return EXIT_GOOD;
}

/* Whether vendor list PMU P (family kernel_format) shares its folder and
 * kernel PMU with a libpfm PMU (bdx_unc_cbo beside Broadwell-DE's list):
 * perf takes one event of a name per kernel PMU, and the catalog's answer
 * for that box is libpfm's. */
static bool libpfm_has_the_box(const struct tree *t, int p, const struct pmudb_pmu_info *info)
{
	if (strcmp(info->family, "kernel_format") || !info->sysfs_pmu)
		return false;
	size_t n = strlen(info->sysfs_pmu);
	for (int q = 0; q < t->npmus; q++) {
		struct pmudb_pmu_info other;
		if (q == p || t->owner[q] != t->owner[p] || pmudb_pmu_info(t->c->db, q, &other) || !other.sysfs_pmu
		    || !strcmp(other.family, "kernel_format"))
			continue;
		if (!strncmp(other.sysfs_pmu, info->sysfs_pmu, n)
		    && (!other.sysfs_pmu[n] || (other.sysfs_pmu[n] == '_' && isdigit((unsigned char)other.sysfs_pmu[n + 1]))))
			return true;
	}
	return false;
}

/* ---- metrics ---------------------------------------------------------------- */

struct metric_file {
	FILE *f;
	const char *pmu;
	int n;
};

static int write_metric(void *ctx, const struct pmudb_metric *m)
{
	struct metric_file *mf = ctx;
	if (!m->pmu || strcmp(m->pmu, mf->pmu))
		return 0;
	fputs(mf->n++ ? ",\n" : "[\n", mf->f);
	bool first = true;
	json_pair(mf->f, "MetricName", m->name, &first);
	json_pair(mf->f, "MetricExpr", m->expr, &first);
	json_pair(mf->f, "BriefDescription", m->description, &first);
	const char *keys[] = { "MetricGroup", "MetricThreshold", "ScaleUnit", "MetricConstraint" };
	const char *values[] = { m->groups, m->threshold, m->scale_unit, m->constraint };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (values[i])
			json_pair(mf->f, keys[i], values[i], &first);
	fputs("\n  }", mf->f);
	return 0;
}

/* The vendors' metrics of PMU P, in perf's layout, beside its events:
 * metrics-PMU.json in its folder (jevents.py reads every file of it). */
static int write_metrics(struct tree *t, int p, const struct pmudb_pmu_info *info)
{
	struct pmudb_pmu_info owner;
	if (pmudb_pmu_info(t->c->db, t->owner[p], &owner) || !safe_component(info->name))
		return EXIT_GOOD;	/* write_pmu said why */
	struct pmudb_scope scope = { 1, { p } };
	struct pmudb_error err;
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s/%s/metrics-%s.json", t->dir, arch_of(info), owner.name, info->name);
	struct metric_file count = { NULL, info->name, 0 };
	FILE *null = fopen("/dev/null", "w");
	if (!null)
		return EXIT_GOOD;
	count.f = null;
	int r = pmudb_metrics(t->c->db, &scope, NULL, write_metric, &count, &err);
	fclose(null);
	if (r < 0) {
		fprintf(stderr, "pmudb: export: %s\n", err.message);
		return EXIT_USAGE;
	}
	if (!count.n)
		return EXIT_GOOD;
	struct metric_file mf = { fopen(path, "w"), info->name, 0 };
	if (!mf.f) {
		say_failed(t, "cannot write", path);
		return EXIT_USAGE;
	}
	r = pmudb_metrics(t->c->db, &scope, NULL, write_metric, &mf, &err);
	fputs("\n]\n", mf.f);
	errno = 0;
	if ((ferror(mf.f) | fclose(mf.f)) || r < 0) {
		say_failed(t, "cannot write", path);
		return EXIT_USAGE;
	}
	return EXIT_GOOD;
}

static int write_tree(struct cli *c, const int *pmus, int count, const char *dir, const char *shown)
{
	struct tree t = { .c = c, .dir = dir, .shown = shown, .npmus = pmudb_pmu_count(c->db) };
	t.selected = calloc((size_t)t.npmus + 1, sizeof(*t.selected));
	t.owner = malloc(((size_t)t.npmus + 1) * sizeof(*t.owner));
	if (!t.selected || !t.owner) {
		free(t.selected), free(t.owner);
		fputs("pmudb: export: out of memory\n", stderr);
		return EXIT_USAGE;
	}
	for (int i = 0; i < t.npmus; i++)
		t.owner[i] = -1;
	for (int i = 0; i < count; i++)
		t.selected[pmus[i]] = true;
	struct pmudb_error err;
	if (pmudb_cpuid_map(c->db, place, &t, &err) < 0) {
		fprintf(stderr, "pmudb: export: %s\n", err.message);
		t.status = EXIT_USAGE;
	}
	for (int i = 0; !t.status && i < count; i++) {
		struct pmudb_pmu_info info;
		if (pmudb_pmu_info(c->db, pmus[i], &info) || !strcmp(info.kind, "os"))
			continue;	/* perf's generic events are built into perf */
		if (t.owner[pmus[i]] < 0)
			t.owner[pmus[i]] = pmus[i];
		if (libpfm_has_the_box(&t, pmus[i], &info))
			continue;
		t.status = write_pmu(&t, pmus[i], &info);
		if (!t.status)
			t.status = write_metrics(&t, pmus[i], &info);
	}
	for (int i = 0; i < 2; i++) {
		errno = 0;
		if (t.mapfile[i] && (ferror(t.mapfile[i]) | fclose(t.mapfile[i])) && !t.status) {
			fprintf(stderr, "pmudb: export: --out %s: cannot write %s/mapfile.csv%s%s\n", shown, i ? "arm64" : "x86",
				errno ? ": " : "", errno ? strerror(errno) : "");
			t.status = EXIT_USAGE;
		}
	}
	for (int i = 0; i < t.nrows; i++)
		free(t.rows[i]);
	free(t.selected);
	free(t.owner);
	return t.status;
}

/* ---- into place ------------------------------------------------------------- */

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static void remove_tree(const char *path)
{
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* 1 when DIR is a folder with something in it, 0 when it is an empty one
 * or is not there, -1 (said why) when it is something else. */
static int holds_files(const char *dir)
{
	struct stat st;
	if (lstat(dir, &st))
		return errno == ENOENT ? 0 : (fprintf(stderr, "pmudb: export: --out %s: %s\n", dir, strerror(errno)), -1);
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "pmudb: export: --out %s: not a folder (perf-json writes a tree)\n", dir);
		return -1;
	}
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "pmudb: export: --out %s: %s\n", dir, strerror(errno));
		return -1;
	}
	int n = 0;
	for (struct dirent *e; !n && (e = readdir(d));)
		n = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

int export_perf_json(struct cli *c, const int *pmus, int count, const char *dir, bool replace)
{
	int full = holds_files(dir);
	if (full < 0)
		return EXIT_USAGE;
	if (full && !replace) {
		fprintf(stderr, "pmudb: export: --out %s: the folder holds files; give --replace to replace it whole\n", dir);
		return EXIT_USAGE;
	}
	char *tmp = NULL;
	if (asprintf(&tmp, "%s.XXXXXX", dir) < 0 || !mkdtemp(tmp)) {
		fprintf(stderr, "pmudb: export: --out %s: cannot make a folder beside it: %s\n", dir, strerror(errno));
		free(tmp);
		return EXIT_USAGE;
	}
	/* mkdtemp's 0700, as mkdir would have made it: 0777 less the umask */
	mode_t mask = umask(0);
	umask(mask);
	chmod(tmp, 0777 & ~mask);
	int status = write_tree(c, pmus, count, tmp, dir);
	/* into place: over an empty folder or none, or swapped with a full one */
	if (!status && (full ? renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE) : rename(tmp, dir))) {
		fprintf(stderr, "pmudb: export: --out %s: cannot move the new tree into place: %s\n", dir, strerror(errno));
		status = EXIT_USAGE;
	}
	remove_tree(tmp);	/* what failed, or the tree it replaced */
	free(tmp);
	return status;
}
