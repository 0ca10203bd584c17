/*
 * libpfm_ask.h - libpfm's answer for one event string, the way the issue
 * defines "libpfm's answer": pfm_get_os_event_encoding(str, PFM_PLM0|PFM_PLM3,
 * PFM_OS_PERF_EVENT_EXT).  Shared by the harness, the benchmark and tests.
 */
#ifndef PMUDB_TESTS_LIBPFM_ASK_H
#define PMUDB_TESTS_LIBPFM_ASK_H

#include <perfmon/pfmlib_perf_event.h>

/* Fills ATTR; *FSTR (may be NULL) is malloc'd; *CPU (may be NULL) set.
 * Returns libpfm's error code. */
int libpfm_ask(const char *event, struct perf_event_attr *attr, char **fstr, int *cpu);

#endif
