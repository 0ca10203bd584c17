/*
 * fuzz_yaml.c - the YAML tables (the files of tables/): the bytes are one
 * table file, loaded by the compiler's loader (compiler/tables.c,
 * yaml_doc.c) and applied section by section as pmudb-build applies them
 * (table_*.c): families, vendor_pmus and cpuid before the derive pass,
 * overrides and differences after it.
 *
 * The model they apply to needs no libpfm: it is made for each input from
 * the built-in catalog through the public API, as ingest.c would have
 * made it from libpfm: every libpfm PMU by name, kind and sysfs name,
 * without its family; the events, unit masks and modifiers of a few (skl,
 * skx_unc_cha0, amd64_fam19h_zen4, perf, atom, spr, icl, hsw: the seeds
 * use them), made only when the input names them or has a glob (making
 * them is most of an input's time); and the vendor µarchs the catalog's
 * vendor PMUs come from, as vendor_tree.c would have read them.
 *
 * The input is loaded with a second table file, made once from the
 * catalog: a 'families' section giving each libpfm PMU its family, as
 * tables/families.yaml does in a build.  Sections are applied across the
 * files in order, so the input's families come first, then those; its
 * vendor_pmus then find their 'like' PMUs' families, and its overrides
 * apply after families_check, as in a build.
 *
 * Checked besides crashes and overruns: a refusal is one line that starts
 * with the file's name, where its position follows (FILE:LINE:COLUMN).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/family_check.h"
#include "compiler/model.h"
#include "compiler/sections.h"
#include "compiler/tables.h"
#include "tests/fuzz/fuzz.h"
#include "pmudb.h"

static pmudb_t *db;

static const char *const with_events[] = { "skl", "skx_unc_cha0", "amd64_fam19h_zen4", "perf", "atom", "spr",
						   "icl", "hsw" };

static bool wanted(const char *name)
{
	for (size_t i = 0; i < sizeof(with_events) / sizeof(with_events[0]); i++)
		if (!strcmp(with_events[i], name))
			return true;
	return false;
}

static enum pmu_kind kind_of(const char *kind)
{
	return !strcmp(kind, "core") ? PMU_CORE : !strcmp(kind, "uncore") ? PMU_UNCORE : !strcmp(kind, "os") ? PMU_OS
												       : PMU_UNKNOWN;
}

static void add_events(struct pmu *mp, int p, int count)
{
	for (int e = 0; e < count; e++) {
		struct pmudb_event_info ei;
		int r = pmudb_event_info(db, p, e, &ei);
		if (r && r != PMUDB_ERR_NOTFOUND)
			continue;
		struct event *ev = vec_push(&mp->events);
		ev->name = xstrdup(ei.name);
		ev->description = xstrdup(ei.description);
		ev->equiv = xstrdup(ei.equiv);
		ev->code = ei.code;
		ev->libpfm_index = e;
		ev->perf_type = -2;
		ev->retired = r == PMUDB_ERR_NOTFOUND;
		for (int u = 0; u < ei.umask_count; u++) {
			struct pmudb_umask_info ui;
			r = pmudb_umask_info(db, p, e, u, &ui);
			if (r && r != PMUDB_ERR_NOTFOUND)
				continue;
			struct umask *um = vec_push(&ev->umasks);
			um->name = xstrdup(ui.name);
			um->description = xstrdup(ui.description);
			um->equiv = xstrdup(ui.equiv);
			um->code = ui.code;
			um->libpfm_index = u;
			um->is_default = ui.is_default;
			um->retired = r == PMUDB_ERR_NOTFOUND;
			um->group = ui.equiv ? -1 : ev->group_count++;
		}
		for (int m = 0; m < ei.modifier_count; m++) {
			struct pmudb_modifier_info mi;
			if (pmudb_modifier_info(db, p, e, m, &mi))
				continue;
			struct modifier *mod = vec_push(&ev->modifiers);
			mod->name = xstrdup(mi.name);
			mod->description = xstrdup(mi.description);
			mod->is_integer = mi.is_integer;
			mod->from_perf = mi.from_perf;
			mod->libpfm_index = m;
			mod->default_value = mi.default_value;
			mod->probed = mi.range_known;
			mod->min = mi.min;
			mod->max = mi.max;
			mod->requires = -1;
		}
	}
}

/* "pmu-events:ARCH/UARCH[@UNIT]": the µarch, with its unit, into M. */
static void add_uarch(struct model *m, const char *source)
{
	const char *arch = source + strlen("pmu-events:"), *slash = strchr(arch, '/');
	if (strncmp(source, "pmu-events:", 11) || !slash)
		return;
	char *name = xstrdup(slash + 1), *unit = strchr(name, '@');
	if (unit)
		*unit++ = '\0';
	struct vendor_uarch *u = NULL;
	for (size_t i = 0; i < m->uarchs.count && !u; i++)
		if (!strcmp(m->uarchs.items[i].name, name))
			u = &m->uarchs.items[i];
	if (!u) {
		u = vec_push(&m->uarchs);
		u->name = xstrdup(name);
		u->arch = xprintf("%.*s", (int)(slash - arch), arch);
	}
	if (unit)
		*(char **)vec_push(&u->units) = xstrdup(unit);
	free(name);
}

/* TEXT names PMU NAME, as a name or a glob may (case-insensitively). */
static bool named(const char *text, const char *name)
{
	return strpbrk(text, "*?[") || strcasestr(text, name);
}

static void make_model(struct model *m, const char *text)
{
	memset(m, 0, sizeof(*m));
	m->libpfm_version = xstrdup("4.13.0");
	m->vendor_tree = xstrdup("pmu-events");
	m->vendor_layout = xstrdup("kernel");
	for (int p = 0; p < pmudb_pmu_count(db); p++) {
		struct pmudb_pmu_info pi;
		if (pmudb_pmu_info(db, p, &pi))
			fuzz_fail("the built-in catalog: PMU %d", p);
		if (pi.source) {
			add_uarch(m, pi.source);
			continue;
		}
		struct pmu *mp = vec_push(&m->pmus);
		mp->name = xstrdup(pi.name);
		mp->description = xstrdup(pi.description);
		mp->libpfm_id = p;
		mp->kind = kind_of(pi.kind);
		mp->num_counters = pi.num_counters;
		mp->num_fixed_counters = pi.num_fixed_counters;
		mp->perf_type = -1;
		mp->uarch = -1;
		if (pi.sysfs_pmu)
			*(char **)vec_push(&mp->sysfs_names) = xstrdup(pi.sysfs_pmu);
		if (wanted(pi.name) && named(text, pi.name))
			add_events(mp, p, pi.event_count);
	}
}

/* The second table file: every libpfm PMU's family, from the catalog. */
static char *families_file(void)
{
	char *yaml = xstrdup("families:\n");
	for (int p = 0; p < pmudb_pmu_count(db); p++) {
		struct pmudb_pmu_info pi;
		if (pmudb_pmu_info(db, p, &pi))
			fuzz_fail("the built-in catalog: PMU %d", p);
		if (pi.source)
			continue;
		char *longer = xprintf("%s  - {family: %s, group: %s, pmus: [\"%s\"], why: the catalog's}\n", yaml,
				       pi.family, pi.family_group, pi.name);
		free(yaml);
		yaml = longer;
	}
	char *path = xprintf("%s/families.yaml", fuzz_tempdir());
	fuzz_write(fuzz_tempdir(), "families.yaml", yaml, strlen(yaml));
	free(yaml);
	return path;
}

static void check_refusal(const char *error, const char *path, bool positioned)
{
	fuzz_note("refused: %s", error ? error : "(nothing)");
	if (!error || !*error || strchr(error, '\n'))
		fuzz_fail("a refusal that is not one line: '%s'", error ? error : "(none)");
	if (positioned && (strncmp(error, path, strlen(path)) || error[strlen(path)] != ':'))
		fuzz_fail("a refusal without the file's position: '%s'", error);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmudb_error err;
	if (!db && !(db = pmudb_open(NULL, &err)))
		fuzz_fail("the built-in catalog: %s", err.message);
	static char *families;
	if (!families)
		families = families_file();
	char *path = xstrdup(fuzz_file(data, size)), *error = NULL;
	char *paths[] = { path, families };
	struct tables *t = tables_load(paths, 2, &error);
	if (!t) {
		check_refusal(error, path, true);
	} else {
		struct model m;
		char *text = fuzz_string(data, size);
		make_model(&m, text);
		free(text);
		int r = tables_apply(t, &m, TABLES_BEFORE_DERIVE, &error);
		bool positioned = true;
		if (!r) {
			positioned = false;	/* families_check names PMUs, not a line */
			static FILE *quiet;	/* the per-PMU lines; the error is one line */
			if (!quiet && !(quiet = fopen("/dev/null", "w")))
				fuzz_fail("/dev/null: cannot open");
			r = families_check(&m, quiet, &error);
		}
		if (!r) {
			positioned = true;
			r = tables_apply(t, &m, TABLES_AFTER_DERIVE, &error);
		}
		if (r)
			check_refusal(error, path, positioned);
		else
			fuzz_note("applied: %zu PMUs, %zu CPUID entries, %zu overrides", m.pmus.count, m.cpuid.count,
				  m.overrides.count);
		model_free(&m);
		tables_free(t);
	}
	free(error);
	free(path);
	return 0;
}
