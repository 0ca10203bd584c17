/*
 * perf_layer.c - what libpfm's perf_events layer adds on top of a PMU's
 * encoding: privilege levels as exclude_* bits, guest/host, sampling period
 * or frequency, precise_ip, exclusive, pinned, cpu; and their part of fstr.
 *
 * These modifiers come from the perf_events layer for every PMU alike, so
 * they are handled here by name, in the order they are given (libpfm's
 * perf layer takes them as its parser left them).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "runtime/encode/perf_layer.h"

#include "runtime/encode/fstr_form.h"
#include "runtime/encode/perf_defaults.h"
#include "runtime/sysfs/sysfs.h"

int perf_take(struct perf_state *st, struct pmudb_encoding *out, enum perf_mod which, uint64_t v)
{
	/* the levels, most strings' perf modifiers, without the switch's
	 * jump, which a varied corpus mispredicts */
	static const unsigned level[] = { [P_U] = PLM3, [P_K] = PLM0, [P_H] = PLMH };
	_Static_assert(P_U == 0 && P_K == 1 && P_H == 2, "the levels come first");
	if (which <= P_H) {
		st->plm |= v ? level[which] : 0;
		st->has_plm = true;
		return 0;
	}
	switch (which) {
	case P_U: case P_K: case P_H: break;
	case P_PERIOD:
		if (!v || out->freq)
			return PMUDB_ERR_ATTR_VAL;
		out->sample_period = v;
		break;
	case P_FREQ:
		if (!v || out->sample_period)
			return PMUDB_ERR_ATTR_VAL;
		out->sample_period = v;
		out->freq = true;
		break;
	case P_PRECISE:
		if (v > 3)
			return PMUDB_ERR_ATTR_VAL;
		out->precise_ip = (unsigned)v;
		break;
	case P_EXCL: out->exclusive |= v != 0; break;
	/* libpfm counts mg and mh as given whatever their value */
	case P_MG:
		if (v || !st->guest_host_values)
			st->vmx_plm |= PLM3, st->has_vmx_plm = true;
		break;
	case P_MH:
		if (v || !st->guest_host_values)
			st->vmx_plm |= PLM0, st->has_vmx_plm = true;
		break;
	case P_CPU:
		if (v >= INT_MAX)
			return PMUDB_ERR_ATTR_VAL;
		out->cpu = (int)v;
		break;
	case P_PINNED: out->pinned = v != 0; break;
	case P_HW_SMPL: out->precise_ip = v != 0; break;
	case P_NONE: break;
	}
	return 0;
}

/* What perf_take refused, said. */
static int refuse(struct request *rq, int code, enum perf_mod which, uint64_t v)
{
	unsigned long long value = v;
	switch (which) {
	case P_PERIOD: return request_fail(rq, code, "period must be non-zero and cannot go with freq");
	case P_FREQ: return request_fail(rq, code, "freq must be non-zero and cannot go with period");
	case P_PRECISE: return request_fail(rq, code, "precise=%llu: the largest is 3", value);
	case P_CPU: return request_fail(rq, code, "cpu=%llu is too large", value);
	default: return request_fail(rq, code, "%llu is refused", value);
	}
}

void perf_settle(const struct perf_state *st, unsigned supported, struct pmudb_encoding *out, unsigned *plm,
		 unsigned *vmx_plm)
{
	*plm = perf_settled_plm(st->plm, st->has_plm, supported);
	*vmx_plm = perf_settled_vmx_plm(st->vmx_plm, st->has_vmx_plm, supported);
	out->exclude_user = !(*plm & PLM3);
	out->exclude_kernel = !(*plm & PLM0);
	out->exclude_hv = !(*plm & PLMH);
	out->exclude_guest = !(*vmx_plm & PLM3);
	out->exclude_host = !(*vmx_plm & PLM0);
}

/* The type of PMU P, read from sysfs once per handle. */
static int sysfs_type(const struct pmu *p)
{
	struct pmu *mp = (struct pmu *)p;	/* the cache is the only mutable part */
	int type = atomic_load_explicit(&mp->sysfs_type, memory_order_relaxed);
	if (type != INT32_MIN)
		return type;
	struct sysfs_file file;
	type = sysfs_pmu_type(p->sysfs_name, &file);
	if (type < 0)
		type = -1;	/* none here, or a file refused: unresolved, as pmudb_to_perf_attr says why */
	atomic_store_explicit(&mp->sysfs_type, type, memory_order_relaxed);
	return type;
}

int perf_type_fixed(const struct pmu *p, const struct event *ev)
{
	int type = ev->perf_type != INT32_MIN ? ev->perf_type : p->perf_type;
	return (type >= 0 && ev->perf_type != INT32_MIN) || !p->sysfs_name ? type : INT32_MIN;
}

void perf_type_resolve(const struct pmu *p, const struct event *ev, struct pmudb_encoding *out)
{
	int type = ev->perf_type != INT32_MIN ? ev->perf_type : p->perf_type;
	out->type = type;
	if (perf_type_fixed(p, ev) != INT32_MIN)
		return;
	size_t n = strnlen(p->sysfs_name, sizeof(out->sysfs_pmu) - 1);
	memcpy(out->sysfs_pmu, p->sysfs_name, n);
	out->sysfs_pmu[n] = '\0';
	int found = sysfs_type(p);
	if (found >= 0)
		out->type = found;
}

static void fstr_perf(struct request *rq, int m, const uint8_t shows[P_NONE + 1])
{
	enum perf_mod which = rq->ev->modifiers->items[m].perf_kind;
	bool period = which == P_PERIOD || which == P_FREQ;
	if (period && rq->out->sample_period)
		fstr_add_modifier(rq, &rq->ev->modifiers->items[m], rq->out->sample_period);
	else if (fstr_always_printed(which))
		fstr_add_modifier(rq, &rq->ev->modifiers->items[m], shows[which]);
}

/*
 * A final unit mask (asked or added) that takes no modifiers (TOPDOWN_M's
 * metrics): libpfm refuses the perf modifiers the build saw it refuse
 * there when given non-zero, and gives no fstr at all.
 */
static int no_modifiers(struct request *rq)
{
	const struct event *ev = rq->ev;
	bool none = false;
	if (!ev->some_take_no_modifiers)
		return 0;
	for (int i = 0; i < rq->nfinal && !none; i++)
		none = ev->umasks[rq->final[i]].takes_no_modifiers;
	if (!none)
		return 0;
	rq->no_fstr = true;
	for (int m = 0; m < ev->modifiers->count; m++)
		if ((ev->no_modifiers >> m & 1) && is_given(rq, m) && rq->value[m])
			return request_fail(rq, ev->no_modifiers_error[m], "%s:%s takes no modifiers: %s=%llu is refused",
				    ev->name, ev->umasks[rq->final[0]].name, ev->modifiers->items[m].name,
				    (unsigned long long)rq->value[m]);
	return 0;
}

int apply_perf_layer(struct request *rq)
{
	const struct modifier_set *set = rq->ev->modifiers;
	struct perf_state st = { .guest_host_values = rq->pmu->source != NULL };
	int r = no_modifiers(rq);
	if (r)
		return r;
	/* each as given, in order, an escaped earlier value too (see
	 * apply_attributes): u=1:u=1:u=0 ORs in u, hw_smpl=1:precise=0
	 * leaves precise_ip 0, a second freq is refused */
	bool given = rq->given & set->from_perf;
	int m;
	for (int i = 0; given && i < rq->nattrs; i++) {
		m = rq->attrs[i].modifier;
		if (m < 0 || !set->items[m].from_perf)
			continue;
		enum perf_mod which = set->items[m].perf_kind;
		if ((r = perf_take(&st, rq->out, which, rq->attrs[i].value)))
			return refuse(rq, r, which, rq->attrs[i].value);
	}
	unsigned plm, vmx_plm;
	struct pmudb_encoding *out = rq->out;
	perf_settle(&st, rq->pmu->supported_plm, out, &plm, &vmx_plm);

	/* no perf modifier given: the form shows the defaults already */
	if (!given && fstr_form_shows_defaults(rq))
		return 0;
	uint8_t shows[P_NONE + 1];
	perf_shows(plm, vmx_plm, out->precise_ip, out->exclusive, shows);
	if (fstr_form_perf(rq, shows))
		return 0;
	for (each_bit(m, set->from_perf))
		fstr_perf(rq, m, shows);
	return 0;
}
