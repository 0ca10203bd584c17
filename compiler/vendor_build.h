/*
 * vendor_build.h - the PMUs made from the vendors' lists: their events, the
 * names libpfm users already type, and their CPUID map entries.
 */
#ifndef PMUDB_COMPILER_VENDOR_BUILD_H
#define PMUDB_COMPILER_VENDOR_BUILD_H

#include "compiler/model.h"

/* Fills every PMU the vendor_pmus section made (after derive: it takes the
 * measured rules of its 'like' PMU), and adds the mapfile rows of every
 * mapped µarch to the CPUID map, after the tables' own entries.  libpfm must
 * be initialised.  Returns 0, or -1 with *error malloc'd. */
int vendor_build(struct model *m, char **error);

#endif
