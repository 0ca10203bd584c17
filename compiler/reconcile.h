/*
 * reconcile.h - libpfm's tables against the vendors' own lists, wherever
 * both have a µarch.
 */
#ifndef PMUDB_COMPILER_RECONCILE_H
#define PMUDB_COMPILER_RECONCILE_H

#include "compiler/model.h"

/* For every libpfm PMU a vendor_pmus entry gives a vendor list: compares
 * libpfm's encodings with the vendor's, name by name and by encoding,
 * records the findings, makes the vendor's names aliases where they encode
 * as a libpfm string, and adds the vendor-only entries to the PMU.  libpfm
 * must be initialised. */
void reconcile(struct model *m);

/* The vendors' uncore entries against libpfm's boxes of the same kernel
 * PMU on the same µarch (skx_unc_cha0 to 27 for skylakex's uncore_cha),
 * compared with the first box, as reconcile() compares a core PMU; the
 * vendor's names that encode as libpfm's under another name become
 * aliases on every box.  After reconcile(). */
void reconcile_uncore(struct model *m);

/* The findings of one reconciled PMU, counted. */
struct reconcile_count {
	const char *pmu, *uarch;
	int64_t agree, differ, corrected, equivalent, by_design, vendor_error, kept, unexplained, other_name,
		vendor_only, added, libpfm_only;
};

/* Fills OUT (at most MAX) with the counts per PMU, in the order the findings
 * were made; returns how many. */
size_t reconcile_counts(const struct model *m, struct reconcile_count *out, size_t max);

/* After the overrides and differences: a difference an override corrects,
 * or a differences entry names, is explained; the others, and entries that
 * name no difference, are noted.  Returns the number unexplained. */
long reconcile_explain(struct model *m);

#endif
