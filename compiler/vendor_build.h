/*
 * vendor_build.h - the PMUs made from the vendors' lists: their events, the
 * names libpfm users already type, and their CPUID map entries.
 */
#ifndef PMUDB_COMPILER_VENDOR_BUILD_H
#define PMUDB_COMPILER_VENDOR_BUILD_H

#include "model.h"

/* The perf_event_attr config and config1 the vendor states for V on a PMU of
 * encoding family FAMILY (perf's sysfs format: event, umask, edge, any, inv,
 * cmask; offcore_rsp, ldlat, frontend in config1).  Returns -1 for a family
 * it does not know. */
int vendor_config(const char *family, const struct vendor_event *v, uint64_t *config, uint64_t *config1);

/* Fills every PMU the vendor_pmus section made (after derive: it takes the
 * measured rules of its 'like' PMU), and adds the mapfile rows of every
 * mapped µarch to the CPUID map, after the tables' own entries.  libpfm must
 * be initialised.  Returns 0, or -1 with *error malloc'd. */
int vendor_build(struct model *m, char **error);

#endif
