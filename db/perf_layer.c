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
#include <string.h>
#include <strings.h>

#include "perf_layer.h"

#include "fstr_form.h"
#include "perf_defaults.h"

struct perf_state {
	unsigned plm, vmx_plm;
	bool has_plm, has_vmx_plm;
};

static int apply_one(struct request *rq, enum perf_mod which, uint64_t v, struct perf_state *st)
{
	struct pmudb_encoding *out = rq->out;
	switch (which) {
	case P_U: st->plm |= v ? PLM3 : 0; st->has_plm = true; break;
	case P_K: st->plm |= v ? PLM0 : 0; st->has_plm = true; break;
	case P_H: st->plm |= v ? PLMH : 0; st->has_plm = true; break;
	case P_PERIOD:
		if (!v || out->freq)
			return fail(rq, PMUDB_ERR_ATTR_VAL, "period must be non-zero and cannot go with freq");
		out->sample_period = v;
		break;
	case P_FREQ:
		if (!v || out->sample_period)
			return fail(rq, PMUDB_ERR_ATTR_VAL, "freq must be non-zero and cannot go with period");
		out->sample_period = v;
		out->freq = true;
		break;
	case P_PRECISE:
		if (v > 3)
			return fail(rq, PMUDB_ERR_ATTR_VAL, "precise=%llu: the largest is 3", (unsigned long long)v);
		out->precise_ip = (unsigned)v;
		break;
	case P_EXCL: out->exclusive |= v != 0; break;
	/* libpfm counts mg and mh as given whatever their value */
	case P_MG: st->vmx_plm |= PLM3; st->has_vmx_plm = true; break;
	case P_MH: st->vmx_plm |= PLM0; st->has_vmx_plm = true; break;
	case P_CPU:
		if (v >= INT_MAX)
			return fail(rq, PMUDB_ERR_ATTR_VAL, "cpu=%llu is too large", (unsigned long long)v);
		out->cpu = (int)v;
		break;
	case P_PINNED: out->pinned = v != 0; break;
	case P_HW_SMPL: out->precise_ip = v != 0; break;
	case P_NONE: break;
	}
	return 0;
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
			return fail(rq, ev->no_modifiers_error[m], "%s:%s takes no modifiers: %s=%llu is refused",
				    ev->name, ev->umasks[rq->final[0]].name, ev->modifiers->items[m].name,
				    (unsigned long long)rq->value[m]);
	return 0;
}

int apply_perf_layer(struct request *rq)
{
	const struct modifier_set *set = rq->ev->modifiers;
	struct perf_state st = {0};
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
		if (m >= 0 && set->items[m].from_perf
		    && (r = apply_one(rq, set->items[m].perf_kind, rq->attrs[i].value, &st)))
			return r;
	}
	unsigned supported = rq->pmu->supported_plm;
	unsigned plm = perf_settled_plm(st.plm, st.has_plm, supported);
	unsigned vmx_plm = perf_settled_vmx_plm(st.vmx_plm, st.has_vmx_plm, supported);
	struct pmudb_encoding *out = rq->out;
	out->exclude_user = !(plm & PLM3);
	out->exclude_kernel = !(plm & PLM0);
	out->exclude_hv = !(plm & PLMH);
	out->exclude_guest = !(vmx_plm & PLM3);
	out->exclude_host = !(vmx_plm & PLM0);

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
