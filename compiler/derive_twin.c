/*
 * derive_twin.c - a PMU whose libpfm table is another's (the boxes of one
 * kind: spr_unc_cha0..59) takes that one's derived rules instead of
 * asking libpfm's encoder the same hundred thousand questions again.
 *
 * What is each PMU's own is still asked: the kernel PMU libpfm reads the
 * perf type from (uncore_cha_3) and the privilege levels.  The same
 * encodings answer whether the twin really encodes alike: each event's
 * base string (the bare event, else its first unit mask libpfm accepts
 * alone) is encoded on both, and any difference beyond the kernel PMU
 * name sends the PMU back to a full derive.
 */
#include "compiler/derive.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/sysfs_spy.h"
#include "compiler/twins.h"

#define PLM_DEFAULT (PFM_PLM0 | PFM_PLM3)

/* The unit mask of EV's base string: -1 the bare event, -2 none encodes. */
static int base_umask(const struct event *ev)
{
	if (ev->bare_error == PFM_SUCCESS)
		return -1;
	for (size_t u = 0; u < ev->umasks.count; u++)
		if (ev->umasks.items[u].single_error == PFM_SUCCESS)
			return (int)u;
	return -2;
}

static bool same_type(const struct probe *a, const struct probe *b)
{
	bool sa = sysfs_spy_name((int)a->attr.type) != NULL, sb = sysfs_spy_name((int)b->attr.type) != NULL;
	return sa == sb && (sa || a->attr.type == b->attr.type);
}

/* The same answer, the kernel PMU name aside (a box's own). */
static bool same_answer(const struct probe *a, const struct probe *b)
{
	if (a->error != b->error || a->raw_only != b->raw_only || a->token_count != b->token_count)
		return false;
	if (a->error)
		return true;
	if (a->raw_only && (a->code_count != b->code_count || memcmp(a->codes, b->codes, sizeof(a->codes))))
		return false;
	const struct perf_event_attr *x = &a->attr, *y = &b->attr;
	if (!a->raw_only && (!same_type(a, b) || x->config != y->config || x->config1 != y->config1
			     || x->config2 != y->config2 || x->exclude_user != y->exclude_user
			     || x->exclude_kernel != y->exclude_kernel || x->exclude_hv != y->exclude_hv
			     || x->exclude_host != y->exclude_host || x->exclude_guest != y->exclude_guest
			     || x->precise_ip != y->precise_ip || x->sample_period != y->sample_period))
		return false;
	for (int t = 0; t < a->token_count; t++)
		if (strcmp(a->tokens[t].name, b->tokens[t].name) || a->tokens[t].has_value != b->tokens[t].has_value
		    || a->tokens[t].value != b->tokens[t].value)
			return false;
	return true;
}

/* Encodes event I's base string on P and on TWIN; TYPE gets P's answer's
 * perf type.  False when the answers differ. */
static bool encodes_alike(const struct pmu *p, const struct pmu *twin, size_t i, int u, uint32_t *type)
{
	char *mine = derive_event_string(p, &p->events.items[i], u);
	char *theirs = derive_event_string(twin, &twin->events.items[i], u);
	struct probe *q = malloc(2 * sizeof(*q));
	if (!q) {
		fputs("pmudb-build: out of memory\n", stderr);
		abort();
	}
	probe_encode(mine, PLM_DEFAULT, &q[0]);
	probe_encode(theirs, PLM_DEFAULT, &q[1]);
	bool same = same_answer(&q[0], &q[1]);
	*type = q[0].attr.type;
	free(q);
	free(mine);
	free(theirs);
	return same;
}

bool derive_pmu_twin(struct pmu *p, const struct pmu *twin)
{
	size_t n = p->events.count;
	uint32_t *types = calloc(n + 1, sizeof(*types));
	if (!types) {
		fputs("pmudb-build: out of memory\n", stderr);
		abort();
	}
	bool same = true;
	for (size_t i = 0; same && i < n; i++) {
		int u = base_umask(&twin->events.items[i]);
		same = u < -1 || encodes_alike(p, twin, i, u, &types[i]);
	}
	if (!same) {
		free(types);
		return false;
	}
	twins_copy_rules(p, twin);
	p->perf_type = -2;	/* not seen yet, as in derive_pmu() */
	bool plm_known = false;
	for (size_t i = 0; i < n; i++) {
		struct event *ev = &p->events.items[i];
		int u = base_umask(ev);
		if (u < -1)
			continue;
		struct probe q = { .attr = { .type = types[i] } };
		derive_note_perf_type(p, ev, &q);
		if (!plm_known) {
			char *base = derive_event_string(p, ev, u);
			p->supported_plm = derive_supported_plm(base);
			plm_known = true;
			free(base);
		}
	}
	if (p->perf_type == -2)
		p->perf_type = -1;
	/* where sysfs lacks its kernel PMU, libpfm does as for the twin's */
	if (p->sysfs_names.count && twin->sysfs_names.count)
		p->perf_type = twin->perf_type;
	free(types);
	return true;
}
