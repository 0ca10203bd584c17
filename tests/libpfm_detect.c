/*
 * libpfm_detect.c - the PMUs libpfm detects on the CPU it runs on, one a
 * line, "NAME core|uncore|os|other", in libpfm's order.
 *
 * test_detect runs it under qemu-x86_64 with a CPUID of its choosing, to
 * ask libpfm what it detects on CPUs this host is not (libpfm reads the
 * CPUID instruction itself: no file stands in for it).  Built without
 * the sanitizers, which do not run under qemu-user.
 */
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *type_name(pfm_pmu_type_t t)
{
	switch (t) {
	case PFM_PMU_TYPE_CORE: return "core";
	case PFM_PMU_TYPE_UNCORE: return "uncore";
	case PFM_PMU_TYPE_OS_GENERIC: return "os";
	default: return "other";
	}
}

int main(void)
{
	/* what is detected, not every table (the tests set this for themselves) */
	unsetenv("LIBPFM_ENCODE_INACTIVE");
	unsetenv("LIBPFM_FORCE_PMU");
	int r = pfm_initialize();
	if (r != PFM_SUCCESS) {
		fprintf(stderr, "libpfm_detect: libpfm: %s\n", pfm_strerror(r));
		return 2;
	}
	pfm_pmu_t id;
	pfm_for_all_pmus(id) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(id, &pi) == PFM_SUCCESS && pi.is_present)
			printf("%s %s\n", pi.name, type_name(pi.type));
	}
	pfm_terminate();
	return fflush(stdout) ? 2 : 0;
}
