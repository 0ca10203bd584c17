/*
 * family_encoders.c - one encoder per libpfm encoding family: where the event code
 * and the unit-mask codes go in the registers.
 *
 * Everything else is data from the catalog and generic code: the unit-mask
 * rules (rules.c), where PMU modifiers land (modifier_landing, applied by
 * apply_landings()), the perf_events layer (perf_layer.c).  What is here is
 * what the catalog cannot say: how libpfm's encoder of that family places a
 * code, using the placements the build measured (event-select overrides,
 * config1 unit masks, filter bits).  The encoders restate libpfm's rules
 * (lib/pfmlib_*.c of libpfm 4.13); no libpfm code is copied.  NetBurst's
 * encoder has a file of its own (family_netburst.c).  The PMUs made from the
 * vendors' lists use the same encoders (see compiler/vendor_build.c), and Arm
 * PMUv3 the simplest: the event number is config.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/encode/family_encoders.h"
#include "runtime/encode/rules.h"

/* ---- Intel x86 core (and client uncore) --------------------------------- */

static bool asked_for(const struct request *rq, int umask)
{
	for (int i = 0; i < rq->nasked; i++)
		if (rq->asked[i] == umask)
			return true;
	return false;
}

/*
 * libpfm's API gives an Intel unit mask's code shifted down to the umask
 * field, except for the unit masks that also replace the event select
 * (INTEL_X86_CODE_OVERRIDE), whose code is whole.  The build measured which
 * those are (umask.sets_event_select); two different replacements conflict.
 * Where it measured that a default libpfm adds replaces nothing (spr's
 * bare INST_RETIRED stays 0x1c0 with ANY, 0x100 asked for), a default's
 * code only goes to the umask field.
 */
static int intel_umask_bits(struct request *rq, uint64_t *config, uint64_t *umask, bool skip_filter_codes)
{
	int override = -1;
	*umask |= rq->raw_umask;
	for (int i = 0; i < rq->nfinal; i++) {
		const struct umask *u = &rq->ev->umasks[rq->final[i]];
		if (skip_filter_codes && u->code_is_filter)
			continue;	/* measured into filter_config1, filter_config2 instead */
		/* a unit mask asked replaces the others asked, not those added
		 * (with none asked, there is no last one) */
		if (rq->ev->last_umask_wins && asked_for(rq, rq->final[i]) && rq->final[i] != rq->asked[rq->nasked - 1])
			continue;
		if (u->sets_event_select && rq->ev->defaults_keep_select && !asked_for(rq, rq->final[i])) {
			*umask |= u->code >> 8;
			continue;
		}
		if (!u->sets_event_select) {
			*umask |= u->code;
			continue;
		}
		*umask |= u->code >> 8;
		int code = (int)(u->code & 0xff);
		if (override >= 0 && override != code)
			return request_fail(rq, PMUDB_ERR_FEATCOMB, "unit masks of %s select two different event codes",
				    rq->ev->name);
		override = code;
	}
	if (override >= 0)
		*config = (*config & ~0xffULL) | (uint64_t)override;
	return 0;
}

static int encode_intel_x86(struct request *rq)
{
	const struct event *ev = rq->ev;
	struct pmudb_encoding *out = rq->out;
	uint64_t umask = 0;

	out->config = ev->code;
	int r = intel_umask_bits(rq, &out->config, &umask, false);
	/* what a unit mask puts in the extra registers beyond its code, where
	 * the catalog states it (the MSR value of a vendor's offcore or
	 * frontend event); the modifiers (ldlat=, fe_thres=) land over it */
	for (int i = 0; !r && ev->filters_given && i < rq->nfinal; i++) {
		out->config1 |= ev->umasks[rq->final[i]].filter_config1;
		out->config2 |= ev->umasks[rq->final[i]].filter_config2;
	}
	if (!r)
		r = apply_pmu_modifiers(rq, true);
	if (r)
		return r;

	int m = ev->modifiers->ldlat;
	/* a vendor PMU's ldlat=0 is none given (take_unset_thresholds in
	 * compiler/vendor_events.c): its fstr reads back */
	if (m >= 0 && is_given(rq, m) && !(rq->value[m] == 0 && rq->pmu->source)) {
		bool implied = false;
		for (int i = 0; i < rq->nasked && !implied; i++)
			for (int k = 0; k < ev->umasks[rq->asked[i]].nimplied; k++)
				implied |= ev->umasks[rq->asked[i]].implied[k].modifier == m;
		if (!implied)
			return request_fail(rq, PMUDB_ERR_ATTR, "ldlat needs a load-latency unit mask");
	}
	/* offcore-response and precise-frontend events keep their unit mask
	 * in the extra register (config1); the build measured which */
	if (ev->umasks_in_config1)
		out->config1 |= umask;
	else
		out->config |= umask << 8;
	fstr_pmu_modifiers(rq);
	return 0;
}

/* ---- AMD64 --------------------------------------------------------------- */

static int encode_amd64(struct request *rq)
{
	const struct event *ev = rq->ev;
	struct pmudb_encoding *out = rq->out;
	/* an event without unit masks may fix one itself, in code bits 16-23
	 * (a vendor's all_data_cache_accesses); libpfm's codes stop at bit 11 */
	uint64_t umask = ((ev->code >> 16) & 0xff) | rq->raw_umask;
	for (int i = 0; i < rq->nfinal; i++)
		umask |= ev->umasks[rq->final[i]].code;
	/* event select bits 0-7 and 32-35, unit mask bits 8-15 */
	out->config = (ev->code & 0xff) | (((ev->code >> 8) & 0xf) << 32) | ((umask & 0xff) << 8);
	int r = apply_pmu_modifiers(rq, true);
	if (r)
		return r;
	fstr_pmu_modifiers(rq);
	return 0;
}

/* ---- families whose codes simply combine --------------------------------- */

/* perf_events generic events, RAPL, Arm PMUv3: the event code and the
 * unit-mask codes OR'ed into config. */
static int encode_or(struct request *rq)
{
	const struct event *ev = rq->ev;
	rq->out->config = ev->code;
	for (int i = 0; i < rq->nfinal; i++)
		rq->out->config |= ev->umasks[rq->final[i]].code;
	int r = apply_pmu_modifiers(rq, true);
	if (!r)
		fstr_pmu_modifiers(rq);
	return r;
}

/* Intel server uncore: unit-mask codes above bit 8 shift into the umask
 * field, as for the core PMU (the filter registers are not modelled). */
static int encode_intel_snbep_unc(struct request *rq)
{
	const struct event *ev = rq->ev;
	uint64_t umask = ev->code >> 8;
	rq->out->config = ev->code & 0xff;
	int r = intel_umask_bits(rq, &rq->out->config, &umask, true);
	if (r)
		return r;
	rq->out->config |= umask << 8;
	/* the filter registers, as measured: the event's bits and those of
	 * each final unit mask */
	uint64_t own = 0;
	rq->out->config2 = ev->filter_config2;
	/* where filter 1 goes follows the umask byte's bit 0 (libpfm's CBo
	 * filter events), measured per unit mask, and for a raw one */
	bool layout = rq->has_raw && (rq->raw_umask & 1) && ev->raw_layout_bit0;
	for (int i = 0; i < rq->nfinal; i++) {
		own |= ev->umasks[rq->final[i]].filter_config1;
		rq->out->config2 |= ev->umasks[rq->final[i]].filter_config2;
		layout |= ev->umasks[rq->final[i]].filter_layout;
	}
	rq->out->config1 = (ev->filter_config1 & ~ev->filter_default) | own;
	r = apply_pmu_modifiers(rq, false);
	if (r)
		return r;
	/* libpfm ORs the unit-mask bits in once more after the modifiers: a
	 * code reaching the edge bit keeps it set whatever e= says
	 * (spr_unc_imc's RDB_10_ELEM in libpfm's current source) */
	rq->out->config |= umask << 8;
	/* the event's default filter holds while neither unit masks nor
	 * modifiers left a bit in its half (skx CHA's 0x3b: loc=0 keeps it,
	 * isoc=1 replaces it) */
	uint64_t half = ev->filter_default >> 32 ? ~0xffffffffULL : 0xffffffffULL;
	if (!(rq->out->config1 & half))
		rq->out->config1 |= ev->filter_default;
	fstr_pmu_modifiers(rq);
	/* libpfm places the second filter last, modifiers' bits with it */
	if (layout) {
		rq->out->config1 |= rq->out->config2 << 32;
		rq->out->config2 = 0;
	}
	return 0;
}

/* ---- uncore PMUs of the vendors' lists: fields placed by the kernel ----- */

/*
 * The build placed each entry's fields where its kernel PMU's format
 * attributes say (compiler/vendor_uncore.c): the event's code and filters
 * for an entry alone, a unit mask's for an entry EVENT.UMASK, whole (one
 * unit mask at a time).  What a modifier sets (edge, thresh, ch_mask, a
 * filter) replaces its field: a value the entry gives is the unit mask's
 * implied value, so that fstr shows it.
 */
static int encode_kernel_format(struct request *rq)
{
	const struct event *ev = rq->ev;
	struct pmudb_encoding *out = rq->out;
	out->config = ev->code;
	out->config1 = ev->filter_config1;
	out->config2 = ev->filter_config2;
	for (int i = 0; i < rq->nfinal; i++) {
		const struct umask *u = &ev->umasks[rq->final[i]];
		out->config |= u->code;
		out->config1 |= u->filter_config1;
		out->config2 |= u->filter_config2;
	}
	int r = apply_pmu_modifiers(rq, true);
	if (!r)
		fstr_pmu_modifiers(rq);
	return r;
}

/* ---- perf_raw: events named rNNNN, the number is config ------------------ */

int family_event_number(const char *name, uint64_t *code)
{
	if (name[0] != 'r' || !isxdigit((unsigned char)name[1]))
		return -1;
	char *end = NULL;
	errno = 0;
	*code = strtoull(name + 1, &end, 16);
	return *code == ULLONG_MAX || errno == ERANGE || *end ? -1 : 0;
}

static int encode_perf_raw(struct request *rq)
{
	rq->out->config = rq->raw_code;
	return 0;
}

/* By family id (catalog/families.h): every family has its encoder. */
int (*const family_encoders[FAMILY_COUNT])(struct request *rq) = {
	[FAMILY_INTEL_X86] = encode_intel_x86,
	[FAMILY_AMD64] = encode_amd64,
	[FAMILY_PERF] = encode_or,
	[FAMILY_INTEL_RAPL] = encode_or,
	[FAMILY_AMD64_RAPL] = encode_or,
	[FAMILY_INTEL_SNBEP_UNC] = encode_intel_snbep_unc,
	[FAMILY_INTEL_NHM_UNC] = encode_intel_snbep_unc,
	[FAMILY_PERF_RAW] = encode_perf_raw,
	[FAMILY_ARM_PMUV3] = encode_or,
	[FAMILY_INTEL_NETBURST] = encode_netburst,
	[FAMILY_KERNEL_FORMAT] = encode_kernel_format,
};
