/*
 * encoding_check.h - what the functions that read a caller's
 * pmudb_encoding (perf_syntax.c, perf_attr.c) check before they read its
 * names: a caller may fill one by hand, and a name that does not end
 * within its array would be read past it.
 */
#ifndef PMUDB_ENCODING_CHECK_H
#define PMUDB_ENCODING_CHECK_H

#include <stdbool.h>
#include <string.h>

#include "pmudb.h"

/* Whether ENC's PMU names (pmu, sysfs_pmu) end within their arrays. */
static inline bool encoding_names_end(const struct pmudb_encoding *enc)
{
	return memchr(enc->pmu, '\0', sizeof(enc->pmu)) && memchr(enc->sysfs_pmu, '\0', sizeof(enc->sysfs_pmu));
}

#endif
