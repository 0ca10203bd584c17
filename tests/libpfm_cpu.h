/*
 * libpfm_cpu.h - what libpfm detects on an x86 CPU other than this host's:
 * tests/libpfm_detect run under qemu-x86_64 (Debian's qemu-user-static)
 * with that CPU's vendor, family, model and stepping as its CPUID.  So
 * the tests compute what libpfm detects from the installed libpfm,
 * whatever its release and whatever the host.
 */
#ifndef PMUDB_TESTS_LIBPFM_CPU_H
#define PMUDB_TESTS_LIBPFM_CPU_H

#include <stdbool.h>

#include "pmudb.h"

struct libpfm_pmu {
	char name[64];
	bool core;
};

/* NULL when libpfm can be asked about other CPUs here, else why not (for a
 * SKIP line): not an x86-64 host, no qemu-x86_64, no helper. */
const char *libpfm_cpu_unavailable(void);

/* The PMUs libpfm detects on CPU, its OS-generic ones (perf, perf_raw) and
 * the architected ix86arch left out, in libpfm's order, into OUT (up to
 * MAX); their count, or -1 when the helper failed. */
int libpfm_cpu_pmus(const struct pmudb_cpu *cpu, struct libpfm_pmu *out, int max);

#endif
