/*
 * corpus.c - the strings the differential harness and the benchmark use,
 * built from libpfm's own enumeration (see corpus.h).
 */
#include "tests/corpus.h"

#include <perfmon/pfmlib_perf_event.h>
#include "tests/libpfm_ask.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pmudb_t *db;	/* for the measured ranges of integer modifiers */
static unsigned shapes;	/* enum corpus_shapes */

struct emit {
	corpus_fn fn;
	void *ctx;
	const char *group;
	bool first_event;	/* of its PMU, still to come */
	bool raw_order_done;	/* of its PMU: raw_order_corpus */
};

#define RANDOM_PER_EVENT 80

static void emitf(struct emit *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emitf(struct emit *out, const char *fmt, ...)
{
	char s[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s, sizeof(s), fmt, ap);
	va_end(ap);
	out->fn(out->ctx, out->group, s);
}

struct attr_list {
	int n;
	pfm_event_attr_info_t items[512];
};

static void event_attrs(int idx, int nattrs, struct attr_list *umasks, struct attr_list *mods)
{
	umasks->n = mods->n = 0;
	for (int a = 0; a < nattrs; a++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (pfm_get_event_attr_info(idx, a, PFM_OS_PERF_EVENT_EXT, &ai) != PFM_SUCCESS)
			continue;
		struct attr_list *l = ai.type == PFM_ATTR_UMASK ? umasks : mods;
		if (l->n < 512)
			l->items[l->n++] = ai;
	}
}

/* Integer bounds: the catalog's measured range, and one past each end. */
static void integer_values(const char *pmu, const char *event, const char *mod, uint64_t *v, int *n)
{
	*n = 0;
	v[(*n)++] = 0;
	v[(*n)++] = 1;
	int p, e;
	char name[512];
	snprintf(name, sizeof(name), "%s::%s", pmu, event);
	if (pmudb_find_event(db, name, NULL, &p, &e, NULL))
		return;
	struct pmudb_event_info ei;
	pmudb_event_info(db, p, e, &ei);
	for (int m = 0; m < ei.modifier_count; m++) {
		struct pmudb_modifier_info mi;
		if (pmudb_modifier_info(db, p, e, m, &mi) || strcmp(mi.name, mod) || !mi.range_known)
			continue;
		if (mi.min > 1)
			v[(*n)++] = mi.min;
		if (mi.min > 2)
			v[(*n)++] = mi.min - 1;
		if (mi.max > 1)
			v[(*n)++] = mi.max;
		if (mi.max != UINT64_MAX)
			v[(*n)++] = mi.max + 1;
	}
}

static bool libpfm_encodes(const char *s)
{
	struct perf_event_attr attr;
	return libpfm_ask(s, &attr, NULL, NULL) == PFM_SUCCESS;
}

enum which_modifiers { ALL, PERF_ONLY, PMU_ONLY };

/* BASE with each modifier (those of the perf_events layer only, or the
 * PMU's only) at 0 and 1, or at its bounds and one past them. */
static void modifier_corpus(struct emit *out, const char *pmu, const char *event, const char *base,
			    const struct attr_list *mods, enum which_modifiers which)
{
	for (int i = 0; i < mods->n; i++) {
		const char *m = mods->items[i].name;
		bool perf = mods->items[i].ctrl == PFM_ATTR_CTRL_PERF_EVENT;
		if ((which == PERF_ONLY && !perf) || (which == PMU_ONLY && perf))
			continue;
		if (mods->items[i].type == PFM_ATTR_MOD_BOOL) {
			emitf(out, "%s:%s=0", base, m);
			emitf(out, "%s:%s=1", base, m);
			continue;
		}
		uint64_t v[8];
		int n;
		integer_values(pmu, event, m, v, &n);
		for (int k = 0; k < n; k++)
			emitf(out, "%s:%s=%llu", base, m, (unsigned long long)v[k]);
	}
}

/* Attributes given more than once, which libpfm's parser takes one by
 * one: each unit mask twice, the first three times and around another;
 * each modifier repeated, alone and with two values, and three times so
 * that an earlier value escapes the parser's pass (m=1:m=1:m=0 leaves
 * m=1:m=0): at one then the other boolean value, at the last value
 * integer_values gives (past the bound where there is one) then 1, and
 * at 1 three times. */
static void repeat_corpus(struct emit *out, const char *pmu, const char *event, const char *base,
			  const struct attr_list *umasks, const struct attr_list *mods)
{
	for (int i = 0; i < umasks->n; i++)
		emitf(out, "%s:%s:%s", base, umasks->items[i].name, umasks->items[i].name);
	if (umasks->n) {
		const char *u = umasks->items[0].name;
		emitf(out, "%s:%s:%s:%s", base, u, u, u);
		if (umasks->n > 1)
			emitf(out, "%s:%s:%s:%s", base, u, umasks->items[1].name, u);
	}
	for (int i = 0; i < mods->n; i++) {
		const char *m = mods->items[i].name;
		if (mods->items[i].type != PFM_ATTR_MOD_BOOL) {
			uint64_t v[8];
			int n;
			integer_values(pmu, event, m, v, &n);
			emitf(out, "%s:%s=%llu:%s=%llu:%s=1", base, m, (unsigned long long)v[n - 1], m,
			      (unsigned long long)v[n - 1], m);
			emitf(out, "%s:%s=1:%s=1:%s=1", base, m, m, m);
			continue;
		}
		emitf(out, "%s:%s=1:%s=1:%s=0", base, m, m, m);
		emitf(out, "%s:%s:%s", base, m, m);
		emitf(out, "%s:%s=0:%s=0:%s", base, m, m, m);
		emitf(out, "%s:%s=1:%s=0", base, m, m);
	}
}

/*
 * Unit masks given as numbers, the way libpfm's parser reads them: in and
 * past the widths its encoders take (8 bits, 16 and 38 for offcore
 * response), in upper case, twice, beside a named one, with a value, not a
 * number; and with each PMU modifier at 1 (a band event needs ff= beside
 * it, a node filter a unit mask that needs it).
 */
static void raw_corpus(struct emit *out, const char *base, const struct attr_list *umasks,
		       const struct attr_list *mods)
{
	static const char *const raws[] = {
		"0x1", "0x0", "0X3", "0x00ff", "0xff", "0x100", "0xffff", "0x1ffff", "0x3fffffffff", "0x4000000000",
		"0xffffffffffffffff", "0x1:0x1", "0x1:0x2", "0x1=1", "0xzz", "0x",
	};
	for (size_t i = 0; i < sizeof(raws) / sizeof(raws[0]); i++)
		emitf(out, "%s:%s", base, raws[i]);
	if (umasks->n) {
		emitf(out, "%s:%s:0x1", base, umasks->items[0].name);
		emitf(out, "%s:0x1:%s", base, umasks->items[0].name);
	}
	for (int i = 0; i < mods->n; i++)
		if (mods->items[i].ctrl != PFM_ATTR_CTRL_PERF_EVENT)
			emitf(out, "%s:0x1:%s=1", base, mods->items[i].name);
}

/* A seed of S's bytes (FNV-1a): the same sample on every run. */
static unsigned seed_of(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void random_modifier(char *buf, size_t n, const char *pmu, const char *event, const pfm_event_attr_info_t *m,
			    unsigned *seed)
{
	if (m->type == PFM_ATTR_MOD_BOOL) {
		snprintf(buf, n, "%s=%d", m->name, rand_r(seed) & 1);
		return;
	}
	uint64_t v[8];
	int k;
	integer_values(pmu, event, m->name, v, &k);
	snprintf(buf, n, "%s=%llu", m->name, (unsigned long long)v[rand_r(seed) % k]);
}

/*
 * A seeded random sample per event: unit-mask triples in any order and
 * case, and each with two or three modifiers at random values (the other
 * shapes keep to one modifier and to pairs in table order).
 */
static void random_corpus(struct emit *out, const char *pmu, const char *event, const char *base,
			  const struct attr_list *umasks, const struct attr_list *mods)
{
	unsigned seed = seed_of(base);
	for (int t = 0; t < RANDOM_PER_EVENT; t++) {
		char s[2048];
		int len = snprintf(s, sizeof(s), "%s", base);
		for (int k = 0; umasks->n && k < 3; k++) {
			const char *u = umasks->items[rand_r(&seed) % umasks->n].name;
			len += snprintf(s + len, sizeof(s) - (size_t)len, ":%s", u);
			if (rand_r(&seed) % 4 == 0)	/* names are case-blind */
				for (char *c = s + len - strlen(u); *c; c++)
					*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
		}
		for (int k = 0; mods->n && k < 2 + t % 2; k++) {
			char m[256];
			random_modifier(m, sizeof(m), pmu, event, &mods->items[rand_r(&seed) % mods->n], &seed);
			len += snprintf(s + len, sizeof(s) - (size_t)len, ":%s", m);
		}
		emitf(out, "%s", s);
	}
}

/* BASE, then ATTR COUNT times, into S (SIZE bytes); its length. */
static int repeated(char *s, size_t size, const char *base, const char *attr, int count)
{
	int len = snprintf(s, size, "%s", base);
	for (int k = 0; k < count && len < (int)size - 200; k++)
		len += snprintf(s + len, size - (size_t)len, ":%s", attr);
	return len;
}

/*
 * libpfm's limit of 64 attributes: a modifier 63, 64 and 65 times, and the
 * first unit mask 64 and 65 times (libpfm overruns its array on the 65th
 * unit mask and may crash: the harness asks libpfm in a child for these).
 * Past the 64th modifier, each refusal libpfm's parser makes of an
 * attribute, before or after it counts the attribute (a value that is no
 * number, an empty one, none, '==', an unknown name), and a raw unit
 * mask, which counts too: past them, and before 63 and 64 modifiers.
 */
static void limit_corpus(struct emit *out, const char *base, const struct attr_list *umasks,
			 const struct attr_list *mods)
{
	static const int counts[] = { 63, 64, 65 };
	char s[4096], one[160];
	for (int i = 0; i < mods->n; i++) {
		const char *m = mods->items[i].name;
		if (mods->items[i].ctrl == PFM_ATTR_CTRL_PERF_EVENT)
			continue;
		snprintf(one, sizeof(one), "%s=1", m);
		for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
			repeated(s, sizeof(s), base, one, counts[c]);
			emitf(out, "%s", s);
		}
		repeated(s, sizeof(s), base, one, 64);
		emitf(out, "%s:%s=x", s, m);
		emitf(out, "%s:%s=", s, m);
		emitf(out, "%s:%s", s, m);
		emitf(out, "%s:%s==1", s, m);
		emitf(out, "%s:NO_SUCH_ATTRIBUTE", s);
		emitf(out, "%s:0x1", s);
		for (int c = 63; c <= 64; c++) {
			char raw[600];
			snprintf(raw, sizeof(raw), "%s:0x1", base);
			repeated(s, sizeof(s), raw, one, c);
			emitf(out, "%s", s);
		}
		break;
	}
	for (size_t c = 1; umasks->n && c < sizeof(counts) / sizeof(counts[0]); c++) {
		repeated(s, sizeof(s), base, umasks->items[0].name, counts[c]);
		emitf(out, "%s", s);
	}
	for (int i = 0; umasks->n && i < mods->n; i++)
		if (mods->items[i].ctrl != PFM_ATTR_CTRL_PERF_EVENT) {
			repeated(s, sizeof(s), base, umasks->items[0].name, 64);
			emitf(out, "%s:%s=x", s, mods->items[i].name);
			break;
		}
}

/*
 * Where a raw unit mask too wide for the event stands among other
 * refusals: libpfm's parser refuses what follows it first (a value that is
 * no number, an unknown name), and its pass over repeats (a modifier given
 * twice at two values); its encoder checks the width as it reads the
 * attributes, so of it and a modifier out of range the first decides.
 * Once per PMU, on its first event that takes a raw unit mask.
 */
static void raw_order_corpus(struct emit *out, const char *pmu, const char *event, const char *base,
			     const struct attr_list *mods)
{
	static const char wide[] = "0xffffffffffffffff";
	emitf(out, "%s:%s:NO_SUCH_ATTRIBUTE", base, wide);
	for (int i = 0; i < mods->n; i++) {
		const char *m = mods->items[i].name;
		emitf(out, "%s:%s:%s=x", base, wide, m);
		emitf(out, "%s:%s:%s=1:%s=0", base, wide, m, m);
		if (mods->items[i].type != PFM_ATTR_MOD_INTEGER)
			continue;
		uint64_t v[8];
		int n;
		integer_values(pmu, event, m, v, &n);
		emitf(out, "%s:%s=%llu:%s", base, m, (unsigned long long)v[n - 1], wide);
		emitf(out, "%s:%s:%s=%llu", base, wide, m, (unsigned long long)v[n - 1]);
	}
}

struct vendor_names {
	struct emit *out;
	const char *pmu;
	bool has_u;		/* the event takes u= */
};

static int vendor_name_found(void *ctx, const struct pmudb_finding *f)
{
	struct vendor_names *v = ctx;
	if (f->vendor_name && strchr(f->vendor_name, '.')) {
		emitf(v->out, "%s::%s", v->pmu, f->vendor_name);
		if (v->has_u)
			emitf(v->out, "%s::%s:u=1", v->pmu, f->vendor_name);
	}
	return 0;
}

/*
 * The dotted names a vendor's list gives for the event where reconciling
 * found them different or added them (pmudb_event_findings): libpfm reads
 * one as the event and its unit masks, and where it encodes that reading
 * pmudb must give it; where it does not, pmudb gives the vendor's meaning
 * (the harness checks it against the finding's encoding).
 */
static void vendor_name_corpus(struct emit *out, const char *pmu, const char *base, const struct attr_list *mods)
{
	int p, e;
	if (pmudb_find_event(db, base, NULL, &p, &e, NULL))
		return;
	struct vendor_names v = { out, pmu, false };
	for (int i = 0; i < mods->n; i++)
		v.has_u |= !strcmp(mods->items[i].name, "u");
	pmudb_event_findings(db, p, e, vendor_name_found, &v);
}

static void event_corpus(struct emit *out, const char *pmu, const pfm_event_info_t *ei)
{
	static struct attr_list umasks, mods;
	event_attrs(ei->idx, ei->nattrs, &umasks, &mods);
	char base[512];
	snprintf(base, sizeof(base), "%s::%s", pmu, ei->name);
	emitf(out, "%s", base);
	for (int i = 0; i < umasks.n; i++)
		emitf(out, "%s:%s", base, umasks.items[i].name);
	for (int i = 0; i < umasks.n; i++)
		for (int j = i + 1; j < umasks.n; j++)
			emitf(out, "%s:%s:%s", base, umasks.items[i].name, umasks.items[j].name);
	modifier_corpus(out, pmu, ei->name, base, &mods, ALL);
	if (shapes & CORPUS_REPEATS)
		repeat_corpus(out, pmu, ei->name, base, &umasks, &mods);
	if (shapes & CORPUS_RAW_UMASKS)
		raw_corpus(out, base, &umasks, &mods);
	if (shapes & CORPUS_RANDOM)
		random_corpus(out, pmu, ei->name, base, &umasks, &mods);
	/* the limit once per PMU: its first event */
	if ((shapes & CORPUS_ATTR_LIMIT) && out->first_event) {
		limit_corpus(out, base, &umasks, &mods);
		out->first_event = false;
	}
	if (shapes & CORPUS_VENDOR_NAMES)
		vendor_name_corpus(out, pmu, base, &mods);
	if ((shapes & CORPUS_RAW_UMASKS) && !out->raw_order_done) {
		char raw[600];
		snprintf(raw, sizeof(raw), "%s:0x1", base);
		if (libpfm_encodes(raw)) {
			raw_order_corpus(out, pmu, ei->name, base, &mods);
			out->raw_order_done = true;
		}
	}
	/* each unit mask with each of the PMU's modifiers: what a unit mask
	 * hard-wires, implies or leaves alone shows only together */
	for (int i = 0; (shapes & CORPUS_UMASK_MODIFIERS) && i < umasks.n; i++) {
		char with[1024];
		snprintf(with, sizeof(with), "%s:%s", base, umasks.items[i].name);
		modifier_corpus(out, pmu, ei->name, with, &mods, PMU_ONLY);
	}
	/* an event libpfm refuses alone refuses every modifier string above:
	 * the perf_events layer's are given again on the first unit mask
	 * libpfm takes alone (TOPDOWN_M:BACKEND_BOUND takes no modifiers,
	 * :u=1 is refused) */
	if (!umasks.n || libpfm_encodes(base))
		return;
	for (int i = 0; i < umasks.n; i++) {
		char with[1024];
		snprintf(with, sizeof(with), "%s:%s", base, umasks.items[i].name);
		if (libpfm_encodes(with)) {
			modifier_corpus(out, pmu, ei->name, with, &mods, PERF_ONLY);
			return;
		}
	}
}

static void malformed_corpus(struct emit *out)
{
	static char big[10 * 1024 + 1];
	memset(big, 'A', sizeof(big) - 1);
	memcpy(big, "skl::", 5);
	/* perf_raw names first: libpfm reads them with strtoull without
	 * clearing errno, so an earlier overflow (c=999...) would make them
	 * "not found" in libpfm only */
	const char *fixed[] = {
		"perf_raw::r01c2:u", "perf_raw::rzz", "perf_raw::r", "perf_raw::rffffffffffffffffff",
		"::", "skl::", "skl::INST_RETIRED:", "skl::INST_RETIRED::", ":", "", "no_such_pmu::INST_RETIRED",
		"skl::NO_SUCH_EVENT", "skl::INST_RETIRED:NO_SUCH_UMASK", "skl::INST_RETIRED:ANY_P:ANY_P",
		"skl::INST_RETIRED:ANY_P:c=99999999999999999999999", "skl::INST_RETIRED:ANY_P:c=0x",
		"skl::INST_RETIRED:ANY_P:c=1:c=2", "skl::INST_RETIRED,skl::INST_RETIRED", "skl::INST RETIRED",
		"skl::INST_RETIRED:ANY_P:u=2", "skl::INST_RETIRED:ANY_P:ANY_P=1", "skl::INST_RETIRED:ANY_P:c",
		"skl::INST_RETIRED:\xc3\xa9", "skl::\xff\xfe", "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:u:u",
		"perf::PERF_COUNT_HW_CPU_CYCLES:period=0", "perf::PERF_COUNT_HW_CPU_CYCLES:period=10:freq=10",
		"SKL::inst_retired:any_p", "skl::INST_RETIRED.ANY_P", big,
	};
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		out->fn(out->ctx, "malformed", fixed[i]);
	/* every byte below '-' (the blanks and ',' that libpfm refuses among
	 * them) put into a string that encodes, at each end, in the PMU's and
	 * the event's names, in attributes, and on both sides of the 16-byte
	 * chunks pmudb scans (scan.h) */
	const char *base = "amd64_fam10h_barcelona::DATA_CACHE_REFILLS_FROM_SYSTEM:MODIFIED:OWNED:u=1:k=0";
	const size_t at[] = { 0, 3, 15, 16, 17, 22, 24, 31, 32, 33, 47, 48, 55, 63, 64, 65, 72, 77 };
	size_t n = strlen(base);
	for (int b = 1; b < '-'; b++)
		for (size_t i = 0; i < sizeof(at) / sizeof(at[0]) && at[i] <= n; i++) {
			char s[128];
			memcpy(s, base, at[i]);
			s[at[i]] = (char)b;
			memcpy(s + at[i] + 1, base + at[i], n - at[i] + 1);
			out->fn(out->ctx, "malformed", s);
		}
}

void corpus_generate(pmudb_t *db_, const char *only_pmu, unsigned shapes_, corpus_fn fn, void *ctx)
{
	db = db_;
	shapes = shapes_;
	pfm_pmu_t id;
	pfm_for_all_pmus(id) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(id, &pi) != PFM_SUCCESS || (only_pmu && strcmp(only_pmu, pi.name)))
			continue;
		int p = pmudb_find_pmu(db, pi.name);
		struct pmudb_pmu_info info;
		struct emit out = { fn, ctx, p >= 0 && !pmudb_pmu_info(db, p, &info) ? info.family_group : "other", true, false };
		for (int e = pi.first_event; e != -1; e = pfm_get_event_next(e)) {
			pfm_event_info_t ei;
			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(e, PFM_OS_PERF_EVENT_EXT, &ei) == PFM_SUCCESS)
				event_corpus(&out, pi.name, &ei);
		}
	}
	struct emit bad = { fn, ctx, "malformed", false, true };
	malformed_corpus(&bad);
}

