/*
 * vendor_uncore.h - the uncore PMUs made from the vendors' lists: one per
 * kernel PMU of a µarch, its events encoded by that PMU's format
 * attributes (kernel_formats.h), as perf encodes the same entries.
 */
#ifndef PMUDB_COMPILER_VENDOR_UNCORE_H
#define PMUDB_COMPILER_VENDOR_UNCORE_H

#include "compiler/model.h"

struct pmu_names { char **items; size_t count, cap; };

/* One uncore_pmus entry of the tables (table_uncore.c). */
struct uncore_spec {
	struct pmu_names uarchs;	/* the tree's µarch names it is for */
	char *pmu;			/* the kernel PMU: "uncore_cha", "amd_l3" */
	char *file;			/* the driver, within the kernel source */
	char *array;			/* its array of format attributes, or NULL */
	struct pmu_names attrs;		/* else its attributes' symbols */
	char *like;			/* a libpfm PMU whose perf modifiers it takes, or NULL */
	char *wide_umask;		/* the format of a UMask wider than the PMU's, or NULL */
	char *boxes;			/* "discovery": boxes numbered by the discovery tables; or NULL */
	char *name;			/* the catalog PMU's name, or NULL: after the core PMU */
	char *sysfs;			/* the sysfs names as perf matches them ("imx8_ddr*"), or NULL: pmu */
	char *at;			/* FILE:LINE of the entry */
};

/* Makes the PMU of each µarch of S that the tree has, if its list has
 * entries of S's kernel PMU; 0, or -1 with *ERROR (a driver that cannot
 * be read, a 'like' PMU libpfm lacks). */
int vendor_uncore_make(struct model *m, const struct uncore_spec *s, char **error);
void vendor_uncore_spec_free(struct uncore_spec *s);

/* The kernel PMU perf gives a list's Unit: the tables' uncore_units, else
 * "uncore_" and the Unit in lower case (the caller frees it). */
char *vendor_uncore_pmu_of(const struct model *m, const char *unit);

/* Once the tables are applied: notes the uncore entries no PMU took, by
 * µarch and kernel PMU, and frees what the PMUs were made with. */
void vendor_uncore_finish(struct model *m);

/* Whether cpuid entry E lists a core PMU of µarch UARCH (vendor_pmus). */
bool vendor_uncore_lists_core_of(const struct model *m, const struct cpuid_entry *e, size_t uarch);

#endif
