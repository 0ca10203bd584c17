/*
 * export_walk.c - the walk every exporter makes: the selected PMUs, each
 * live event and unit mask, and the encoding of its bare string.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/export.h"

int export_select(struct cli *c, int **pmus, int *count)
{
	int n = c->npmus ? c->npmus : pmudb_pmu_count(c->db);
	*pmus = calloc((size_t)n + 1, sizeof(**pmus));
	*count = 0;
	if (!*pmus) {
		fputs("pmudb: export: out of memory\n", stderr);
		return EXIT_USAGE;
	}
	for (int i = 0; i < n; i++) {
		int p = c->npmus ? pmudb_find_pmu(c->db, c->pmus[i]) : i;
		if (p < 0) {
			fprintf(stderr, "pmudb: export: --pmu %s: no such PMU (see pmudb pmus)\n", c->pmus[i]);
			return EXIT_USAGE;
		}
		bool again = false;	/* a PMU named twice is exported once */
		for (int k = 0; k < *count && !again; k++)
			again = (*pmus)[k] == p;
		if (!again)
			(*pmus)[(*count)++] = p;
	}
	return EXIT_GOOD;
}

static void encode_item(struct cli *c, struct export_item *it)
{
	if (it->um)
		snprintf(it->string, sizeof(it->string), "%s::%s:%s", it->p->name, it->ev->name, it->um->name);
	else
		snprintf(it->string, sizeof(it->string), "%s::%s", it->p->name, it->ev->name);
	it->status = pmudb_encode(c->db, it->string, NULL, &it->enc, &it->err);
}

static int walk_pmu(struct cli *c, int pmu, export_fn fn, void *ctx)
{
	struct pmudb_pmu_info p;
	if (pmudb_pmu_info(c->db, pmu, &p)) {
		cli_damaged(c, "the table of PMU %d", pmu);
		return EXIT_USAGE;
	}
	int r = fn(ctx, pmu, &p, NULL);
	for (int e = 0; !r && e < p.event_count; e++) {
		struct pmudb_event_info ev;
		int got = pmudb_event_info(c->db, pmu, e, &ev);
		if (got == PMUDB_ERR_NOTFOUND)
			continue;	/* retired by an override */
		if (got) {
			cli_damaged(c, "event %d of PMU %.64s", e, p.name);
			return EXIT_USAGE;
		}
		struct export_item it = { .pmu = pmu, .event = e, .umask = -1, .p = &p, .ev = &ev };
		encode_item(c, &it);
		r = fn(ctx, pmu, &p, &it);
		for (int u = 0; !r && u < ev.umask_count; u++) {
			struct pmudb_umask_info um;
			if (pmudb_umask_info(c->db, pmu, e, u, &um))
				continue;
			struct export_item ui = { .pmu = pmu, .event = e, .umask = u, .p = &p, .ev = &ev, .um = &um };
			encode_item(c, &ui);
			r = fn(ctx, pmu, &p, &ui);
		}
	}
	return r;
}

int export_walk(struct cli *c, const int *pmus, int count, export_fn fn, void *ctx)
{
	int r = 0;
	for (int i = 0; !r && i < count; i++)
		r = walk_pmu(c, pmus[i], fn, ctx);
	return r;
}

/* S with every "FROM::" made "TO::", into BUF. */
static void renamed(const char *s, const char *from, const char *to, char *buf, size_t size)
{
	char pattern[80];
	snprintf(pattern, sizeof(pattern), "%s::", from);
	size_t len = 0, plen = strlen(pattern);
	buf[0] = '\0';
	for (const char *at; (at = strstr(s, pattern)) && len < size; s = at + plen)
		len += (size_t)snprintf(buf + len, size - len, "%.*s%s::", (int)(at - s), s, to);
	if (len < size)
		snprintf(buf + len, size - len, "%s", s);
}

/* IT_B, B's answer, is IT_A's with A's names made B's. */
static bool answers_alike(struct cli *c, const struct export_item *ia, const struct export_item *ib)
{
	char want[1024];
	if (ia->status != ib->status)
		return false;
	if (ia->status) {
		renamed(ia->err.message, ia->p->name, ib->p->name, want, sizeof(want));
		return !strcmp(want, ib->err.message);
	}
	const struct pmudb_encoding *a = &ia->enc, *b = &ib->enc;
	const char *ka = ia->p->sysfs_pmu ? ia->p->sysfs_pmu : "", *kb = ib->p->sysfs_pmu ? ib->p->sysfs_pmu : "";
	bool own_a = !strcmp(a->sysfs_pmu, ka), own_b = !strcmp(b->sysfs_pmu, kb);
	renamed(a->fstr, ia->p->name, ib->p->name, want, sizeof(want));
	if (a->type != b->type || a->config != b->config || a->config1 != b->config1 || a->config2 != b->config2
	    || strcmp(want, b->fstr) || own_a != own_b || (!own_a && strcmp(a->sysfs_pmu, b->sysfs_pmu)))
		return false;
	char pa[1024], pb[1024];
	bool has_a = !pmudb_perf_syntax(c->db, a, pa, sizeof(pa), NULL);
	bool has_b = !pmudb_perf_syntax(c->db, b, pb, sizeof(pb), NULL);
	if (has_a != has_b)
		return false;
	if (!has_a)
		return true;
	size_t n = strlen(ka);
	if (*ka && !strncmp(pa, ka, n) && pa[n] == '/')
		snprintf(want, sizeof(want), "%s%s", kb, pa + n);
	else
		snprintf(want, sizeof(want), "%s", pa);
	return !strcmp(want, pb);
}

bool export_same_answers(struct cli *c, int a, int b)
{
	struct pmudb_pmu_info pa, pb;
	if (pmudb_pmu_shares_events(c->db, a, b) != 1 || pmudb_pmu_info(c->db, a, &pa) || pmudb_pmu_info(c->db, b, &pb))
		return false;
	for (int e = 0; e < pa.event_count; e++) {
		struct pmudb_event_info ev;
		if (pmudb_event_info(c->db, a, e, &ev))
			continue;	/* retired, or damaged: the full walk says so */
		for (int u = -1; u < ev.umask_count; u++) {
			struct pmudb_umask_info um;
			if (u >= 0 && pmudb_umask_info(c->db, a, e, u, &um))
				continue;
			struct export_item ia = { .pmu = a, .event = e, .umask = u, .p = &pa, .ev = &ev, .um = u >= 0 ? &um : NULL };
			struct export_item ib = ia;
			ib.pmu = b;
			ib.p = &pb;
			encode_item(c, &ia);
			encode_item(c, &ib);
			if (!answers_alike(c, &ia, &ib))
				return false;
		}
	}
	return true;
}
