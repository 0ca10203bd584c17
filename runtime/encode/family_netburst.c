/*
 * family_netburst.c - the encoder of libpfm's NetBurst family (Pentium 4 and
 * its Xeons: PMUs netburst and netburst_p).
 *
 * A NetBurst event is programmed in two registers, an ESCR (event select,
 * event mask, tag bits, privilege bits) and a CCCR (which ESCR, compare,
 * complement, threshold, edge, enable, threads); libpfm's perf encoding packs
 * the ESCR into config bits 32-63 and the CCCR into bits 0-31, with perf's
 * own number for the event as the ESCR's event select.  None of that is in
 * libpfm's API, whose codes are the hardware event select and a bit number
 * per unit mask, so pmudb does not compute the registers from the codes: the
 * build measured them (compiler/derive_config.c) as each event's config_base
 * and each unit mask's config_bits, and where e, cmpl and thr land, with the
 * compare bit each sets when it is not 0 (modifier_nonzero).
 *
 * What is here is libpfm's rule for putting those together, restated from
 * lib/pfmlib_intel_netburst.c and pfmlib_intel_netburst_perf_event.c of
 * libpfm 4.13 (no libpfm code is copied):
 *   - config is the event's base OR'ed with the bits of each final unit
 *     mask; the unit masks combine freely, and libpfm adds the event's
 *     default only when none is given (the derived defaults say so);
 *   - e, cmpl and thr land in the CCCR; u and k are the perf layer's
 *     (exclude_user, exclude_kernel): in a perf encoding libpfm leaves the
 *     ESCR's privilege bits at the default levels, whatever is given;
 *   - the fstr is not the other families': after the unit masks libpfm's
 *     NetBurst encoder always prints k and u as the ESCR's privilege bits
 *     hold them, then e, cmpl and thr as the CCCR holds them, in that order;
 *     the perf layer then adds its own u, k and the rest.
 */
#include <string.h>

#include "runtime/encode/family_encoders.h"
#include "runtime/encode/rules.h"

/* ":NAME=0" or ":NAME=1". */
static void fstr_flag(struct request *rq, const char *key, bool on)
{
	fstr_append(rq, key, strlen(key));
	fstr_append(rq, on ? "1" : "0", 1);
}

/* The PMU modifier NAME with the value its register holds. */
static int fstr_register_modifier(struct request *rq, const char *name)
{
	int m = find_modifier(rq->ev, name);
	if (m < 0 || rq->ev->modifiers->items[m].from_perf)
		return request_fail(rq, PMUDB_ERR_CATALOG, "NetBurst event %s lacks libpfm's modifier %s", rq->ev->name, name);
	fstr_add_modifier(rq, &rq->ev->modifiers->items[m], register_value(rq, m));
	return 0;
}

/* libpfm's NetBurst encoder sets e, cmpl and thr only for a value that is
 * not 0, so where an earlier value escaped libpfm's pass over repeats
 * (e=1:e=1:e=0, see apply_attributes) a final 0 leaves it standing. */
static void keep_earlier_nonzero(struct request *rq)
{
	for (int i = 0; i < rq->nattrs; i++) {
		int m = rq->attrs[i].modifier;
		if (m >= 0 && !rq->ev->modifiers->items[m].from_perf && rq->value[m] == 0)
			rq->value[m] = rq->attrs[i].value;
	}
}

int encode_netburst(struct request *rq)
{
	const struct event *ev = rq->ev;
	if (!ev->config_measured)
		return request_fail(rq, PMUDB_ERR_CATALOG, "NetBurst event %s has no measured registers", ev->name);
	rq->out->config = ev->config_base;
	for (int i = 0; i < rq->nfinal; i++)
		rq->out->config |= ev->umasks[rq->final[i]].config_bits;
	keep_earlier_nonzero(rq);
	int r = apply_pmu_modifiers(rq, true);
	if (r)
		return r;
	/* the ESCR's privilege bits: the default levels, which the base has */
	fstr_flag(rq, ":k=", PLM_DEFAULT & PLM0);
	fstr_flag(rq, ":u=", PLM_DEFAULT & PLM3);
	return fstr_register_modifier(rq, "e") || fstr_register_modifier(rq, "cmpl")
	       || fstr_register_modifier(rq, "thr") ? rq->err->code : 0;
}
