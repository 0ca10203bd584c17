/*
 * browse.c - see browse.h.
 */
#include "tests/fuzz/browse.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"

/* Bounds per input: the seed catalog's PMUs have at most 8 events each. */
#define MAX_PMUS 16
#define MAX_EVENTS 32
#define MAX_ATTRS 8

static struct browse_result *result;

/* A count (findings, search) or a code. */
static void check_count(int r, const char *what)
{
	if (r < 0 && !strcmp(pmudb_error_name(r), "PMUDB_ERR_UNKNOWN"))
		fuzz_fail("%s: an unknown code %d", what, r);
	result->other_catalog += r == PMUDB_ERR_CATALOG;
}

static void check_code(int r, const char *what)
{
	if (r > 0 || !strcmp(pmudb_error_name(r), "PMUDB_ERR_UNKNOWN"))
		fuzz_fail("%s: an unknown code %d", what, r);
	result->other_catalog += r == PMUDB_ERR_CATALOG;
}

static void check_refusal(int r, const struct pmudb_error *err, const char *what)
{
	check_code(r, what);
	if (r != err->code || !memchr(err->message, '\0', sizeof(err->message)))
		fuzz_fail("%s: returned %d, err.code %d", what, r, err->code);
	if (strpbrk(err->message, "\r\n"))
		fuzz_fail("%s: a refusal of more than one line: %s", what, err->message);
}

static void encode(pmudb_t *db, const char *s, const struct pmudb_scope *scope)
{
	struct pmudb_encoding e;
	struct pmudb_error err;
	int r = pmudb_encode(db, s, scope, &e, &err);
	if (r == PMUDB_ERR_CATALOG && !result->encode_catalog++)
		snprintf(result->first_encode, sizeof(result->first_encode), "%s: %s", s, err.message);
	if (r)
		check_refusal(r, &err, s);
	else if (!memchr(e.fstr, '\0', sizeof(e.fstr)) || !e.pmu[0])
		fuzz_fail("%s: an encoding without a PMU or a terminated fstr", s);
}

/* A group of EVENTS in SCOPE: refused in one line, or placed with every
 * number in range (the counter rows are the catalog's, untrusted). */
static void group(pmudb_t *db, const char *const *events, int n, const struct pmudb_scope *scope)
{
	struct pmudb_group g;
	struct pmudb_error err;
	int r = pmudb_group(db, events, n, scope, NULL, &g, &err);
	if (r) {
		check_refusal(r, &err, "group");
		return;
	}
	if (g.nmembers < 0 || g.npmus < 0 || g.npmus > g.nmembers + 1)
		fuzz_fail("group: %d PMUs for %d members", g.npmus, g.nmembers);
	for (int p = 0; p < g.npmus; p++) {
		const struct pmudb_group_pmu *u = &g.pmus[p];
		if (u->first < 0 || u->n < 0 || u->first + u->n > g.nmembers || u->parts > u->n
		    || u->count.generic < 0 || u->count.generic > 64 || u->count.fixed < 0 || u->count.fixed > 32)
			fuzz_fail("group: PMU %d out of range", p);
		for (int i = u->first; i < u->first + u->n; i++) {
			const struct pmudb_group_member *m = &g.members[i];
			if (m->event < 0 || m->event >= n || m->counter < -1 || m->counter >= PMUDB_GROUP_FIXED + 32
			    || m->part < -1 || m->part >= (u->parts > 0 ? u->parts : 1)
			    || !memchr(m->where.source, '\0', sizeof(m->where.source)))
				fuzz_fail("group: member %d out of range", i);
		}
	}
	pmudb_group_free(&g);
}

static int count_finding(void *ctx, const struct pmudb_finding *f)
{
	if (!f->uarch || !f->match || !f->vendor_name || !f->vendor_file)
		fuzz_fail("a finding without its uarch, match or vendor name");
	return ++*(int *)ctx >= 4;
}

static int count_match(void *ctx, int pmu, int event, int umask)
{
	(void)pmu;
	(void)event;
	(void)umask;
	return ++*(int *)ctx >= 16;
}

static void browse_event(pmudb_t *db, int p, const char *pmu, int e)
{
	struct pmudb_event_info ei;
	int r = pmudb_event_info(db, p, e, &ei);
	check_code(r, "event info");
	if (r && r != PMUDB_ERR_NOTFOUND)
		return;
	if (!ei.name || !ei.description || ei.umask_count < 0 || ei.modifier_count < 0)
		fuzz_fail("%s event %d: info without a name or description, or negative counts", pmu, e);
	char s[1024];
	snprintf(s, sizeof(s), "%s::%s", pmu, ei.name);
	encode(db, s, NULL);
	for (int u = 0; u < ei.umask_count && u < MAX_ATTRS; u++) {
		struct pmudb_umask_info ui;
		r = pmudb_umask_info(db, p, e, u, &ui);
		check_code(r, "umask info");
		if (r && r != PMUDB_ERR_NOTFOUND)
			continue;
		if (!ui.name || !ui.description)
			fuzz_fail("%s::%s unit mask %d: info without a name or description", pmu, ei.name, u);
		snprintf(s, sizeof(s), "%s::%s:%s", pmu, ei.name, ui.name);
		encode(db, s, NULL);
	}
	for (int m = 0; m < ei.modifier_count && m < MAX_ATTRS; m++) {
		struct pmudb_modifier_info mi;
		r = pmudb_modifier_info(db, p, e, m, &mi);
		check_code(r, "modifier info");
		if (r)
			continue;
		if (!mi.name || !mi.description)
			fuzz_fail("%s::%s modifier %d: info without a name or description", pmu, ei.name, m);
		snprintf(s, sizeof(s), "%s::%s:%s=%" PRIu64, pmu, ei.name, mi.name, mi.max);
		encode(db, s, NULL);
		snprintf(s, sizeof(s), "%s::%s:%s=0x%" PRIx64, pmu, ei.name, mi.name, mi.max + 1);
		encode(db, s, NULL);
	}
	int n = 0;
	check_count(pmudb_event_findings(db, p, e, count_finding, &n), "findings");
}

static int count_decoded(void *ctx, const struct pmudb_decoded *d)
{
	(void)d;
	return ++*(int *)ctx >= 8;
}

/* What `pmudb decode` does with the PMU: its decoder, and a few values
 * (a Skylake event, a unit mask, an AMD one, bits everywhere). */
static void decode(pmudb_t *db, int p)
{
	struct pmudb_error err;
	pmudb_decoder_t *dec = pmudb_decoder_open(db, p, &err);
	if (!dec) {
		check_refusal(err.code, &err, "decoder");
		return;
	}
	static const uint64_t configs[][3] = {
		{ 0xc0, 0, 0 }, { 0x1c4, 0, 0 }, { 0x5300c0, 0, 0 }, { 0x10000003c, 0, 0 }, { 0xffff, 0x1, 0 },
		{ ~0ULL, ~0ULL, ~0ULL }, { 0, 0, 0 },
	};
	for (size_t i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		int n = 0;
		int r = pmudb_decode(dec, configs[i][0], configs[i][1], configs[i][2], 8, count_decoded, &n, &err);
		if (r < 0)
			check_refusal(r, &err, "decode");
	}
	pmudb_decoder_close(dec);
}

static void browse_pmu(pmudb_t *db, int p)
{
	struct pmudb_pmu_info pi;
	int r = pmudb_pmu_info(db, p, &pi);
	check_code(r, "pmu info");
	if (r)
		return;
	if (!pi.name || !pi.description || !pi.kind || !pi.family || !pi.family_group || pi.event_count < 0)
		fuzz_fail("PMU %d: info without a name, description, kind or family", p);
	if (pmudb_find_pmu(db, pi.name) < 0)
		check_code(PMUDB_ERR_CATALOG, "a PMU not found by its own name");
	for (int e = 0; e < pi.event_count && e < MAX_EVENTS; e++)
		browse_event(db, p, pi.name, e);
	decode(db, p);
}

void browse(pmudb_t *db, struct browse_result *r)
{
	memset(r, 0, sizeof(*r));
	result = r;
	int n = pmudb_pmu_count(db);
	for (int p = 0; p < n && p < MAX_PMUS; p++)
		browse_pmu(db, p);
	int matches = 0;
	check_count(pmudb_search(db, "retired", count_match, &matches), "search");
	check_count(pmudb_search(db, "", NULL, NULL), "search");
	static const char *const cpus[] = {
		"GenuineIntel/6/0x5e/3", "GenuineIntel/6/0x55/4", "AuthenticAMD/0x19/0x61", "AuthenticAMD/0x1a/0x44",
	};
	static const char *const events[] = {
		"INST_RETIRED:ANY_P:u", "RETIRED_INSTRUCTIONS:k", "UNC_C_CLOCKTICKS", "PERF_COUNT_HW_CPU_CYCLES",
		"ex_ret_instr", "INST_RETIRED.ANY_P", "r01c2:u", "BR_INST_RETIRED:ALL_BRANCHES:c=1:i",
	};
	for (size_t c = 0; c < sizeof(cpus) / sizeof(cpus[0]); c++) {
		struct pmudb_cpu cpu;
		struct pmudb_scope scope;
		struct pmudb_error err;
		if (pmudb_cpu_parse(cpus[c], &cpu, &err))
			fuzz_fail("%s: %s", cpus[c], err.message);
		int refused = pmudb_scope_cpu(db, &cpu, &scope, NULL, &err);
		if (refused) {
			check_refusal(refused, &err, cpus[c]);
			continue;
		}
		for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
			encode(db, events[i], &scope);
		group(db, events, 2, &scope);
	}
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		encode(db, events[i], NULL);
	/* counted apart: encode() counts its own */
	r->other_catalog -= r->encode_catalog;
}
