/*
 * perf_layer.h - what libpfm's perf_events layer adds on top of a PMU's
 * encoding (perf_layer.c).
 */
#ifndef PMUDB_PERF_LAYER_H
#define PMUDB_PERF_LAYER_H

#include "runtime/encode/request.h"

/* Privilege levels, period, precise ... and their part of fstr. */
int apply_perf_layer(struct request *rq);

/* The privilege levels the perf modifiers gave so far. */
struct perf_state {
	unsigned plm, vmx_plm;
	bool has_plm, has_vmx_plm;
	/* a vendor PMU's: mg=0 and mh=0 are not given (libpfm counts them
	 * given whatever their value, so its own fstr, "mg=0:mh=1", reads
	 * back as mg=1; a vendor PMU's fstr reads back as printed) */
	bool guest_host_values;
};

/* Perf modifier WHICH at V, into ST and OUT, as libpfm's layer takes it
 * (in the order given): 0, or libpfm's error (a period or frequency of 0
 * or given with the other, precise past 3, a CPU past INT_MAX). */
int perf_take(struct perf_state *st, struct pmudb_encoding *out, enum perf_mod which, uint64_t v);

/* The levels counted by a PMU that can filter SUPPORTED, after the
 * modifiers ST took: OUT's exclude_* bits, *PLM and *VMX_PLM. */
void perf_settle(const struct perf_state *st, unsigned supported, struct pmudb_encoding *out, unsigned *plm,
		 unsigned *vmx_plm);

/* The perf type of EV through P where no machine's sysfs decides it, else
 * INT32_MIN. */
int perf_type_fixed(const struct pmu *p, const struct event *ev);
/* OUT's type (from sysfs, read once per handle, where P has a kernel name:
 * -1 for uncore PMUs the machine lacks, the catalog's fallback for a
 * hybrid's core PMUs, as libpfm falls back) and sysfs_pmu. */
void perf_type_resolve(const struct pmu *p, const struct event *ev, struct pmudb_encoding *out);

#endif
