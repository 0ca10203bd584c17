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
