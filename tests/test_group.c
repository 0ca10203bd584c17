/*
 * test_group.c - counter constraints and pmudb group (issue 46), against
 * what the vendors' lists say and an exhaustive search.
 *
 * For every core PMU of perf's tree ($PMUDB_PMU_EVENTS, x86 and arm64),
 * the test reads the µarch's JSON itself: each entry's Counter field
 * (none on AMD and Arm: any general counter) and counter.json
 * against where pmudb_counters says its encoding may be counted, with the
 * kernel's fixed-counter rules as the test reads them (docs/groups.md).
 * Then seeded random groups of 2 to 12 of those events: pmudb_group's
 * answer (fits, could fit, the assignment, the competing events, the
 * smallest split) against tests/exhaustive.c, which tries every
 * assignment and every split, on the constraints the JSON gives.  Cases:
 * restricted events, fixed counters beside a full set of general ones, a
 * hybrid's two core types, Zen 5 and a Neoverse core (libpfm's and the
 * table's counts), a PMU whose counters nobody states, software events,
 * a damaged catalog, and the CLI against the library.
 */
#include <ctype.h>
#include <dirent.h>
#include <jansson.h>
#include <sqlite3.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmudb.h"
#include "tests/exhaustive.h"
#include "tests/testlib.h"
#include "tests/vendor_json.h"

#define INTEL_MASK 0xff03ff8cffffULL	/* event, umask, edge, pc, inv, cmask, TSX bits, umask2 */

static char *catalog, *tmp;
static const char *tree;	/* perf's tree, or NULL */
static pmudb_t *db;

#define run(r, ...) test_pmudb((r), NULL, "--db", catalog, __VA_ARGS__, (char *)NULL)

static int setup(void **state)
{
	(void)state;
	catalog = test_build_path("pmudb.db");
	tmp = test_tempdir();
	tree = getenv("PMUDB_PMU_EVENTS");
	if (tree && !*tree)
		tree = NULL;
	struct pmudb_error err;
	db = pmudb_open(catalog, &err);
	if (!db)
		fprintf(stderr, "%s: %s\n", catalog, err.message);
	return db ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	pmudb_close(db);
	test_rmtree(tmp);
	free(tmp);
	free(catalog);
	return 0;
}

static uint64_t all_of(int n)
{
	return n >= 64 ? ~0ULL : (1ULL << n) - 1;
}

/* Ice Lake and later big cores in Linux 6.12: FIXED_EVENT_CONSTRAINT(0x0100,
 * 0) and (0x0400, 3) in intel_icl, intel_glc and intel_lnc_event_constraints. */
static bool icl_or_later_big_core(const char *pmu)
{
	static const char *const big[] = { "icl", "icx", "tgl", "rkl", "spr", "emr", "gnr", "adl_glc", "mtl_rwc", "lnl_lnc",
					   "arl_lnc", NULL };
	for (int i = 0; big[i]; i++)
		if (!strcmp(big[i], pmu))
			return true;
	return false;
}

/* The kernel's fixed-counter rule for CONFIG on PMU, as the test reads
 * arch/x86/events/intel/core.c and drivers/perf/arm_pmuv3.c: the fixed
 * counter (or -1), and whether a general counter may count it too. */
static int kernel_fixed(const char *pmu, const char *family, uint64_t config, int nfixed, bool *general)
{
	int f = -1;
	*general = true;
	uint64_t c = config & 0x3ff8cffffULL;
	if (!strcmp(family, "intel_x86")) {
		if (c == 0xc0)
			f = 0;
		else if (c == 0x3c)
			f = 1;
		else if (c == 0x300)
			f = 2, *general = false;
		else if (icl_or_later_big_core(pmu) && c == 0x100)
			f = 0, *general = false;
		else if (icl_or_later_big_core(pmu) && c == 0x400)
			f = 3, *general = false;
	} else if (!strcmp(family, "arm_pmuv3") && (config & 0xffff) == 0x11) {
		f = 0;
	}
	return f >= 0 && f < nfixed ? f : -1;
}

/* ---- one PMU's events, as its list says -------------------------------- */

struct entry {
	char *string;		/* "PMU::NAME" */
	struct ex_event ex;	/* where the list and the kernel let it count */
	bool restricted;	/* not "any general counter" */
};

struct pmu_case {
	char pmu[64], family[32];
	int generic, fixed;
	struct entry *entries;
	int n;
	int checked, differ;	/* entries whose counters were compared, and differed */
};

/* The entries of LIST on PMU P (INFO), each encoded and its counters held
 * against the list's; entries of one encoding counted as one rule. */
static void read_entries(struct pmu_case *pc, json_t *list, const char *unit)
{
	size_t i;
	json_t *e;
	struct pmudb_counter_count count;
	struct pmudb_counters w;
	pc->entries = calloc(json_array_size(list) + 1, sizeof(*pc->entries));
	json_array_foreach(list, i, e) {
		const char *name = json_string_value(json_object_get(e, "EventName"));
		const char *eunit = json_string_value(json_object_get(e, "Unit"));
		bool intel = !strcmp(pc->family, "intel_x86");
		if (!name)	/* arm64: an architecture-standard event by its name */
			name = json_string_value(json_object_get(e, "ArchStdEvent"));
		/* Intel's entries state their counters; AMD's and Arm's none
		 * (any general counter) */
		if (!name || (intel && !json_object_get(e, "Counter")) || (eunit ? !unit || strcmp(eunit, unit) : unit != NULL))
			continue;
		char string[300];
		struct pmudb_encoding enc;
		snprintf(string, sizeof(string), "%s::%s", pc->pmu, name);
		if (pmudb_encode(db, string, NULL, &enc, NULL))
			continue;	/* a name the catalog does not take (test_vendor's matter) */
		struct pmudb_error err;
		if (pmudb_counters(db, &enc, false, &count, &w, &err))
			fail_msg("%s: pmudb_counters: %s", string, err.message);
		/* every entry of the list with this encoding: their counters */
		uint64_t general = 0, fixed = 0;
		size_t k;
		json_t *o;
		json_array_foreach(list, k, o) {
			const char *ounit = json_string_value(json_object_get(o, "Unit"));
			uint64_t config, config1, g, f;
			if (!json_object_get(o, "Counter") || !json_object_get(o, "EventCode")
			    || (ounit ? !unit || strcmp(ounit, unit) : unit != NULL))
				continue;
			vendor_expected_config(pc->family, o, &config, &config1);
			uint64_t mask = !strcmp(pc->family, "intel_x86") ? INTEL_MASK : 0xffff;
			if ((config & mask) != (enc.config & mask))
				continue;
			vendor_counters(o, "Counter", &g, &f);
			general |= g;
			fixed |= f;
		}
		bool kernel_general;
		int kf = kernel_fixed(pc->pmu, pc->family, enc.config, pc->fixed, &kernel_general);
		if (kf >= 0) {
			fixed = 1ULL << kf;
			general = kernel_general ? (general ? general : all_of(pc->generic)) : 0;
		}
		if (!general && !fixed)
			general = all_of(pc->generic);
		general &= all_of(pc->generic);
		pc->checked++;
		if (w.general != general || w.fixed != fixed) {
			if (pc->differ++ < 3)
				print_message("%s: %s may use general 0x%llx fixed 0x%llx, the list says 0x%llx 0x%llx (%s)\n",
					      pc->pmu, name, (unsigned long long)w.general, (unsigned long long)w.fixed,
					      (unsigned long long)general, (unsigned long long)fixed, w.source);
		}
		struct entry *en = &pc->entries[pc->n++];
		en->string = strdup(string);
		en->ex = (struct ex_event){ .general = general, .fixed = (uint32_t)fixed };
		en->restricted = general != all_of(pc->generic) || fixed;
	}
}

static void free_case(struct pmu_case *pc)
{
	for (int i = 0; i < pc->n; i++)
		free(pc->entries[i].string);
	free(pc->entries);
}

/* The counters counter.json states for Unit core, or the highest the
 * Counter fields name; false where neither does. */
static bool list_counts(const char *dir, json_t *list, const char *unit, int *generic, int *fixed)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/counter.json", dir);
	FILE *f = fopen(path, "r");
	if (f) {
		fclose(f);
		json_t *c = vendor_load_json(path);
		size_t i;
		json_t *e;
		bool found = false;
		json_array_foreach(c, i, e)
			if (!found && !strcmp(json_string_value(json_object_get(e, "Unit")), "core")) {
				*generic = atoi(json_string_value(json_object_get(e, "CountersNumGeneric")));
				*fixed = atoi(json_string_value(json_object_get(e, "CountersNumFixed")));
				found = true;
			}
		json_decref(c);
		if (found)
			return true;
	}
	uint64_t general = 0, fixed_mask = 0;
	size_t i;
	json_t *e;
	json_array_foreach(list, i, e) {
		const char *eunit = json_string_value(json_object_get(e, "Unit"));
		uint64_t g, fx;
		if (eunit ? !unit || strcmp(eunit, unit) : unit != NULL)
			continue;
		vendor_counters(e, "Counter", &g, &fx);
		general |= g;
		fixed_mask |= fx;
	}
	*generic = 64 - __builtin_clzll(general | 1) - !general;
	*fixed = fixed_mask ? 64 - __builtin_clzll(fixed_mask) : 0;
	return general != 0;
}

/* ---- the exhaustive comparison ----------------------------------------- */

static unsigned seed = 46;

static unsigned next_random(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 0x7fff;
}

/* One group of PC's entries against the exhaustive search: the number of
 * differences (printed, the first few). */
static int check_group(struct pmu_case *pc, const int *pick, int n, int *shown)
{
	const char *strings[EX_MAX_EVENTS];
	struct ex_event ex[EX_MAX_EVENTS];
	for (int i = 0; i < n; i++) {
		strings[i] = pc->entries[pick[i]].string;
		ex[i] = pc->entries[pick[i]].ex;
	}
	struct pmudb_group g;
	struct pmudb_error err;
	if (pmudb_group(db, strings, n, NULL, NULL, &g, &err)) {
		fail_msg("%s: pmudb_group: %s", pc->pmu, err.message);
	}
	assert_int_equal(g.npmus, 1);
	const struct pmudb_group_pmu *u = &g.pmus[0];
	assert_int_equal(u->n, n);
	bool fits = ex_kernel_fits(ex, n), could = ex_could_fit(ex, n, pc->generic, pc->fixed);
	int parts = ex_fewest_groups(ex, n), bad = 0;
	char why[200] = "";
	if (u->fits != fits)
		bad++, snprintf(why, sizeof(why), "fits %d, the exhaustive search %d", u->fits, fits);
	else if (u->could_fit != could)
		bad++, snprintf(why, sizeof(why), "could fit %d, the exhaustive search %d", u->could_fit, could);
	else if (u->parts != parts)
		bad++, snprintf(why, sizeof(why), "%d groups, the exhaustive search %d", u->parts, parts);
	/* the assignment: each on a counter the list allows, none shared */
	uint64_t used_general = 0, used_fixed = 0;
	for (int i = 0; fits && !bad && i < n; i++) {
		int c = g.members[u->first + i].counter, e = g.members[u->first + i].event;
		bool fixed = c >= PMUDB_GROUP_FIXED;
		int k = fixed ? c - PMUDB_GROUP_FIXED : c;
		bool ok = c >= 0 && (fixed ? (ex[e].fixed >> k & 1) && !(used_fixed >> k & 1)
					 : (ex[e].general >> k & 1) && !(used_general >> k & 1));
		if (!ok)
			bad++, snprintf(why, sizeof(why), "%s on counter %d", strings[e], c);
		if (fixed)
			used_fixed |= 1ULL << k;
		else
			used_general |= 1ULL << k;
	}
	/* the competing events: fewer counters among them than members */
	if (!could && !bad) {
		uint64_t general = 0, fixed = 0;
		int members = 0, alone = 0;
		for (int i = 0; i < n; i++) {
			const struct pmudb_group_member *m = &g.members[u->first + i];
			alone += ex[m->event].alone;
			if (m->competes) {
				members++;
				general |= ex[m->event].general;
				fixed |= ex[m->event].fixed;
			}
		}
		int counters = __builtin_popcountll(general) + __builtin_popcountll(fixed);
		if (!alone && (counters >= members || counters != u->competing_counters))
			bad++, snprintf(why, sizeof(why), "%d competing events on %d counters (said %d)", members, counters,
					u->competing_counters);
	}
	/* each group of the split fits */
	for (int k = 0; !fits && !bad && k < u->parts; k++) {
		struct ex_event part[EX_MAX_EVENTS];
		int m = 0;
		for (int i = 0; i < n; i++)
			if (g.members[u->first + i].part == k)
				part[m++] = ex[g.members[u->first + i].event];
		if (!m || !ex_kernel_fits(part, m))
			bad++, snprintf(why, sizeof(why), "group %d of the split does not fit", k);
	}
	if (bad && (*shown)++ < 5) {
		print_message("%s: {", pc->pmu);
		for (int i = 0; i < n; i++)
			print_message("%s%s", i ? "," : "", strings[i]);
		print_message("}: %s\n", why);
	}
	pmudb_group_free(&g);
	return bad;
}

/* Every core PMU of perf's tree: its entries' counters as its list says,
 * and seeded random groups against the exhaustive search. */
/* One mapfile's µarchs (ARCH: "x86", "arm64"), into the totals. */
struct totals {
	int seen, pmus, checked, differ, groups, bad, shown, unchecked_counts;
	char done[256][128];
	int ndone;
};

static void check_arch(const char *arch, struct totals *t)
{
	char mapfile[4096];
	snprintf(mapfile, sizeof(mapfile), "%s/%s/mapfile.csv", tree, arch);
	char *text = test_read_file(mapfile, NULL);
	assert_non_null(text);
	int step = test_sample_step();
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char id[128], version[32], folder[128], type[32];
		if (sscanf(line, "%127[^,],%31[^,],%127[^,],%31s", id, version, folder, type) != 4 || strcmp(type, "core"))
			continue;
		bool again = false;
		for (int k = 0; k < t->ndone; k++)
			again |= !strcmp(t->done[k], folder);
		if (again || t->ndone == 256)
			continue;
		snprintf(t->done[t->ndone++], sizeof(t->done[0]), "%s", folder);
		if (t->seen++ % step)
			continue;
		/* the µarch's PMUs: by its folder's last name (arm/neoverse-n1) */
		const char *last = strrchr(folder, '/');
		struct pmudb_scope scope;
		if (pmudb_scope_pmu(db, last ? last + 1 : folder, &scope, NULL))
			continue;
		char dir[4096];
		snprintf(dir, sizeof(dir), "%s/%s/%s", tree, arch, folder);
		json_t *list = vendor_load_dir(dir);
		for (int s = 0; s < scope.count; s++) {
			struct pmudb_pmu_info info;
			assert_int_equal(pmudb_pmu_info(db, scope.pmus[s], &info), 0);
			if (strcmp(info.kind, "core"))
				continue;
			struct pmu_case pc = {0};
			snprintf(pc.pmu, sizeof(pc.pmu), "%s", info.name);
			snprintf(pc.family, sizeof(pc.family), "%s", info.family);
			const char *unit = info.sysfs_pmu && !strncmp(info.sysfs_pmu, "cpu_", 4) ? info.sysfs_pmu : NULL;
			/* the PMU's counters: counter.json's, else the highest
			 * the Counter fields name; where the list says none
			 * (AMD, Arm), the catalog's other sources', unchecked */
			struct pmudb_counter_count count;
			assert_int_equal(pmudb_pmu_counters(db, info.name, &count, NULL), 0);
			if (list_counts(dir, list, unit, &pc.generic, &pc.fixed)) {
				if (count.generic != pc.generic || count.fixed != pc.fixed)
					fail_msg("%s (%s): %d general and %d fixed counters, the list says %d and %d", info.name,
						 folder, count.generic, count.fixed, pc.generic, pc.fixed);
			} else if (count.known) {
				pc.generic = count.generic;
				pc.fixed = count.fixed;
				t->unchecked_counts++;
			} else {
				continue;	/* nobody states them: pmudb group asks (test_other_vendors) */
			}
			if (pc.generic + pc.fixed > EX_MAX_COUNTERS)
				continue;
			read_entries(&pc, list, unit);
			t->pmus++;
			t->checked += pc.checked;
			t->differ += pc.differ;
			/* groups of 2 to 12, about half their events restricted */
			int restricted[4096], nr = 0;
			for (int i = 0; i < pc.n && nr < 4096; i++)
				if (pc.entries[i].restricted)
					restricted[nr++] = i;
			int ngroups = pc.n < 2 ? 0 : step > 1 ? 6 : 30;
			for (int k = 0; k < ngroups; k++) {
				int n = 2 + (int)(next_random() % 11), pick[EX_MAX_EVENTS];
				for (int i = 0; i < n; i++)
					pick[i] = nr && next_random() % 2 ? restricted[next_random() % nr] : (int)(next_random() % pc.n);
				/* one event twice is two events of one encoding: kept */
				t->bad += check_group(&pc, pick, n, &t->shown);
				t->groups++;
			}
			free_case(&pc);
		}
		json_decref(list);
	}
	free(text);
}

/* Every core PMU of perf's tree: its entries' counters as its list says,
 * and seeded random groups against the exhaustive search. */
static void test_lists_and_exhaustive_search(void **state)
{
	(void)state;
	if (!tree) {
		print_message("SKIP: no $PMUDB_PMU_EVENTS (perf's tree): the lists' counters are not compared\n");
		return;
	}
	struct totals *t = calloc(1, sizeof(*t));
	assert_non_null(t);
	check_arch("x86", t);
	check_arch("arm64", t);
	print_message("counters of %d core PMUs of perf's tree (%d with counters no list states: libpfm's or the table's):"
		      " %d entries against their lists (Counter fields, or none: any general counter), %d differ;"
		      " %d random groups of 2 to 12 against the exhaustive search, %d differ\n",
		      t->pmus, t->unchecked_counts, t->checked, t->differ, t->groups, t->bad);
	assert_true(t->pmus > 0 && t->checked > 0 && t->groups > 0);
	assert_int_equal(t->differ, 0);
	assert_int_equal(t->bad, 0);
	free(t);
}

/* ---- cases ---------------------------------------------------------------- */

static struct pmudb_group group_of(const char *const *events, int n, const struct pmudb_scope *scope,
				   const struct pmudb_group_options *o)
{
	struct pmudb_group g;
	struct pmudb_error err;
	if (pmudb_group(db, events, n, scope, o, &g, &err))
		fail_msg("pmudb_group: %s", err.message);
	return g;
}

/* Granite Rapids: the four fixed counters beside eight general ones hold
 * twelve events; a ninth general one does not fit, and the split is two. */
static void test_fixed_beside_a_full_set(void **state)
{
	(void)state;
	if (pmudb_find_pmu(db, "gnr") < 0) {
		print_message("SKIP: no gnr in this catalog (built without perf's tree)\n");
		return;
	}
	const char *events[] = { "gnr::INST_RETIRED.ANY", "gnr::CPU_CLK_UNHALTED.THREAD", "gnr::CPU_CLK_UNHALTED.REF_TSC",
				 "gnr::TOPDOWN.SLOTS", "gnr::BR_INST_RETIRED.ALL_BRANCHES", "gnr::BR_MISP_RETIRED.ALL_BRANCHES",
				 "gnr::UOPS_ISSUED.ANY", "gnr::UOPS_RETIRED.SLOTS", "gnr::INST_RETIRED.NOP",
				 "gnr::MACHINE_CLEARS.COUNT", "gnr::ASSISTS.ANY", "gnr::INT_MISC.CLEARS_COUNT",
				 "gnr::BACLEARS.ANY" };
	struct pmudb_group g = group_of(events, 12, NULL, NULL);
	assert_int_equal(g.npmus, 1);
	assert_true(g.pmus[0].fits);
	for (int i = 0; i < 4; i++)
		assert_int_equal(g.members[i].counter, PMUDB_GROUP_FIXED + i);
	for (int i = 4; i < 12; i++)
		assert_true(g.members[i].counter >= 0 && g.members[i].counter < 8);
	pmudb_group_free(&g);
	g = group_of(events, 13, NULL, NULL);
	assert_false(g.pmus[0].fits);
	assert_false(g.pmus[0].could_fit);
	assert_int_equal(g.pmus[0].parts, 2);
	pmudb_group_free(&g);
}

/* Sapphire Rapids: four events its list restricts to counters 0-3 fit,
 * five compete for those four, and the others may go elsewhere. */
static void test_restricted_events(void **state)
{
	(void)state;
	if (!tree) {
		print_message("SKIP: no $PMUDB_PMU_EVENTS: spr has no list of counters\n");
		return;
	}
	const char *events[] = { "spr::MEM_LOAD_RETIRED.L3_MISS", "spr::L1D_PEND_MISS.PENDING",
				 "spr::OFFCORE_REQUESTS.DEMAND_DATA_RD", "spr::L2_LINES_OUT.SILENT", "spr::BACLEARS.ANY",
				 "spr::BR_MISP_RETIRED.ALL_BRANCHES" };
	struct pmudb_group g = group_of(events, 4, NULL, NULL);
	assert_true(g.pmus[0].fits);
	pmudb_group_free(&g);
	g = group_of(events, 6, NULL, NULL);
	assert_false(g.pmus[0].fits);
	assert_int_equal(g.pmus[0].competing_counters, 4);
	for (int i = 0; i < 6; i++)
		assert_int_equal(g.members[i].competes, i < 5);
	assert_int_equal(g.pmus[0].parts, 2);
	pmudb_group_free(&g);
}

/* Alder Lake: an unprefixed name counts on both core types; each core
 * type's counters are its own (8 and 6 general). */
static void test_hybrid_core_types(void **state)
{
	(void)state;
	struct pmudb_scope scope;
	if (!tree || pmudb_scope_pmu(db, "alderlake", &scope, NULL)) {
		print_message("SKIP: no alderlake in this catalog\n");
		return;
	}
	const char *events[] = { "BR_MISP_RETIRED.ALL_BRANCHES", "INST_RETIRED.ANY_P" };
	struct pmudb_group g = group_of(events, 2, &scope, NULL);
	assert_int_equal(g.npmus, 2);
	assert_string_equal(g.pmus[0].pmu, "adl_glc");
	assert_string_equal(g.pmus[1].pmu, "adl_grt");
	assert_int_equal(g.pmus[0].count.generic, 8);
	assert_int_equal(g.pmus[1].count.generic, 6);
	assert_true(g.pmus[0].fits && g.pmus[1].fits);
	/* INST_RETIRED.ANY_P takes fixed counter 0 on both, as the kernel does */
	assert_int_equal(g.members[g.pmus[0].first + 1].counter, PMUDB_GROUP_FIXED);
	assert_int_equal(g.members[g.pmus[1].first + 1].counter, PMUDB_GROUP_FIXED);
	pmudb_group_free(&g);
}

/* Zen 5 (libpfm's six counters, no fixed one) and Neoverse N1 (the table's
 * six and the cycle counter); a core whose counters nobody states asks for
 * them; software events take none. */
static void test_other_vendors(void **state)
{
	(void)state;
	const char *zen[] = { "amd64_fam1ah_zen5::ex_ret_instr", "amd64_fam1ah_zen5::ex_ret_ops",
			      "amd64_fam1ah_zen5::ex_ret_brn", "amd64_fam1ah_zen5::ex_ret_brn_misp",
			      "amd64_fam1ah_zen5::ex_ret_brn_tkn", "amd64_fam1ah_zen5::ex_ret_brn_tkn_misp",
			      "amd64_fam1ah_zen5::ex_ret_near_ret" };
	if (pmudb_find_pmu(db, "amd64_fam1ah_zen5") >= 0) {
		struct pmudb_group g = group_of(zen, 6, NULL, NULL);
		assert_true(g.pmus[0].fits);
		assert_int_equal(g.pmus[0].count.generic, 6);
		assert_int_equal(g.pmus[0].count.fixed, 0);
		pmudb_group_free(&g);
		g = group_of(zen, 7, NULL, NULL);
		assert_false(g.pmus[0].fits);
		assert_int_equal(g.pmus[0].parts, 2);
		assert_int_equal(g.pmus[0].competing_counters, 6);
		pmudb_group_free(&g);
	}
	const char *n1[] = { "arm_n1::CPU_CYCLES", "arm_n1::INST_RETIRED", "arm_n1::L1D_CACHE", "arm_n1::L1D_CACHE_REFILL",
			     "arm_n1::BR_MIS_PRED", "arm_n1::BR_PRED", "arm_n1::L2D_CACHE", "arm_n1::L2D_CACHE_REFILL" };
	if (pmudb_find_pmu(db, "arm_n1") >= 0) {
		struct pmudb_group g = group_of(n1, 7, NULL, NULL);
		assert_true(g.pmus[0].fits);
		assert_int_equal(g.members[0].counter, PMUDB_GROUP_FIXED);	/* the cycle counter */
		pmudb_group_free(&g);
		g = group_of(n1, 8, NULL, NULL);
		assert_false(g.pmus[0].fits);
		pmudb_group_free(&g);
	}
	/* no list or table states Cortex-X4's counters: asked for */
	if (pmudb_find_pmu(db, "arm_x4") >= 0) {
		const char *x4[] = { "arm_x4::CPU_CYCLES", "arm_x4::INST_RETIRED" };
		struct pmudb_group g;
		struct pmudb_error err;
		assert_int_equal(pmudb_group(db, x4, 2, NULL, NULL, &g, &err), PMUDB_ERR_NOTSUPP);
		assert_non_null(strstr(err.message, "arm_x4"));
		struct pmudb_group_options o = { .generic = 1 };
		g = group_of(x4, 2, NULL, &o);
		assert_false(g.pmus[0].fits);
		pmudb_group_free(&g);
	}
	const char *soft[] = { "perf::PERF_COUNT_SW_TASK_CLOCK", "perf::PERF_COUNT_SW_CONTEXT_SWITCHES" };
	struct pmudb_group g = group_of(soft, 2, NULL, NULL);
	assert_true(g.pmus[0].fits);
	assert_true(g.members[0].where.no_counter);
	assert_int_equal(g.members[0].counter, -1);
	pmudb_group_free(&g);
}

/* The CLI says what the library says: the JSON of pmudb group, and its
 * exit status (3: they do not fit). */
static void test_cli_agrees(void **state)
{
	(void)state;
	if (pmudb_find_pmu(db, "gnr") < 0)
		return;
	const char *events[] = { "gnr::INST_RETIRED.ANY", "gnr::MEM_LOAD_RETIRED.L3_MISS", "gnr::L1D_PEND_MISS.PENDING",
				 "gnr::OFFCORE_REQUESTS.DEMAND_DATA_RD", "gnr::L2_LINES_OUT.SILENT", "gnr::BACLEARS.ANY" };
	for (int n = 2; n <= 6; n += 4) {
		struct pmudb_group g = group_of(events, n, NULL, NULL);
		struct run_result r;
		if (n == 2)
			run(&r, "group", "--json", events[0], events[1]);
		else
			run(&r, "group", "--json", events[0], events[1], events[2], events[3], events[4], events[5]);
		assert_int_equal(r.status, g.pmus[0].fits ? 0 : 3);
		json_error_t jerr;
		json_t *j = json_loads(r.out, 0, &jerr);
		assert_non_null(j);
		json_t *p = json_array_get(json_object_get(j, "pmus"), 0);
		assert_string_equal(json_string_value(json_object_get(p, "pmu")), "gnr");
		assert_int_equal(json_is_true(json_object_get(p, "fits")), g.pmus[0].fits);
		assert_int_equal(json_integer_value(json_object_get(p, "parts")), g.pmus[0].parts);
		json_t *evs = json_object_get(p, "events");
		assert_int_equal((int)json_array_size(evs), n);
		for (int i = 0; i < n; i++) {
			json_t *e = json_array_get(evs, (size_t)i), *c = json_object_get(e, "counter");
			int counter = json_is_null(c) ? -1
				      : (int)json_integer_value(json_object_get(c, "number"))
					+ (strcmp(json_string_value(json_object_get(c, "kind")), "fixed") ? 0 : PMUDB_GROUP_FIXED);
			assert_int_equal(counter, g.members[i].counter);
			assert_int_equal(json_integer_value(json_object_get(e, "part")), g.members[i].part);
		}
		json_decref(j);
		test_run_free(&r);
		pmudb_group_free(&g);
	}
	struct run_result r;
	run(&r, "group", "--counters", "0", "gnr::INST_RETIRED.ANY");
	assert_int_equal(r.status, 2);
	assert_int_equal(test_line_count(r.err), 1);
	test_run_free(&r);
}

/* pmudb stat splits a group its PMU's counters cannot hold, before
 * counting, and says so in one line naming the events that compete; a
 * group that fits is left alone.  (Counted or not then depends on the
 * machine: this one may have no hardware PMU.) */
static void test_stat_splits_an_overfull_group(void **state)
{
	(void)state;
	if (pmudb_find_pmu(db, "gnr") < 0)
		return;
	struct run_result r;
	run(&r, "--cpu", "GenuineIntel/6/0xad", "stat", "-e",
	    "{MEM_LOAD_RETIRED.L3_MISS,L1D_PEND_MISS.PENDING,OFFCORE_REQUESTS.DEMAND_DATA_RD,L2_LINES_OUT.SILENT,"
	    "BACLEARS.ANY,perf::PERF_COUNT_SW_TASK_CLOCK}",
	    "--", "true");
	const char *warning = strstr(r.err, "pmudb stat: warning: group {");
	assert_non_null(warning);
	assert_non_null(strstr(warning, "cannot be counted at once: gnr (8 general, 4 fixed counters: "));
	assert_non_null(strstr(warning, "compete for 4)"));
	/* the first four restricted events and the software one stay; the
	 * fifth is a group of its own */
	assert_non_null(strstr(warning, "counted as {MEM_LOAD_RETIRED.L3_MISS,L1D_PEND_MISS.PENDING,"
				       "OFFCORE_REQUESTS.DEMAND_DATA_RD,L2_LINES_OUT.SILENT,perf::PERF_COUNT_SW_TASK_CLOCK}"
				       " {BACLEARS.ANY}"));
	assert_null(strchr(strchr(warning, '\n') ? strchr(warning, '\n') + 1 : "", '{'));
	test_run_free(&r);
	run(&r, "--cpu", "GenuineIntel/6/0xad", "stat", "-e", "{MEM_LOAD_RETIRED.L3_MISS,INST_RETIRED.ANY}", "--", "true");
	assert_null(strstr(r.err, "warning: group"));
	test_run_free(&r);
}

/* A damaged counter row is refused in one line naming it; nothing else. */
static void test_damaged_catalog(void **state)
{
	(void)state;
	if (pmudb_find_pmu(db, "gnr") < 0)
		return;
	char *copy;
	assert_true(asprintf(&copy, "%s/damaged.db", tmp) > 0);
	assert_int_equal(test_copy_file(catalog, copy), 0);
	sqlite3 *s;
	assert_int_equal(sqlite3_open(copy, &s), SQLITE_OK);
	assert_int_equal(sqlite3_exec(s, "PRAGMA ignore_check_constraints = ON; UPDATE counter_count SET generic = 99 WHERE pmu = 'gnr';"
				      "UPDATE counter_rule SET fixed_counters = 1 << 40 WHERE pmu = 'srf'",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(s);
	struct run_result r;
	test_pmudb(&r, NULL, "--db", copy, "group", "gnr::INST_RETIRED.ANY", (char *)NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(test_line_count(r.err), 1);
	assert_non_null(strstr(r.err, "counter_count row of PMU gnr"));
	test_run_free(&r);
	test_pmudb(&r, NULL, "--db", copy, "group", "srf::INST_RETIRED.ANY", (char *)NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "counter_rule of PMU srf"));
	test_run_free(&r);
	free(copy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists_and_exhaustive_search),
		cmocka_unit_test(test_fixed_beside_a_full_set),
		cmocka_unit_test(test_restricted_events),
		cmocka_unit_test(test_hybrid_core_types),
		cmocka_unit_test(test_other_vendors),
		cmocka_unit_test(test_cli_agrees),
		cmocka_unit_test(test_stat_splits_an_overfull_group),
		cmocka_unit_test(test_damaged_catalog),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
