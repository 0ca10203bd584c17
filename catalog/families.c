/*
 * families.c - the encoding families as data (families.h).
 */
#include "catalog/families.h"

#include <stdio.h>
#include <string.h>

static const struct family families[FAMILY_COUNT] = {
	{ .name = "intel_x86", .id = FAMILY_INTEL_X86 },
	/* unit mask bits 8-15 (encode_amd64) */
	{ .name = "amd64", .id = FAMILY_AMD64, .umask_field = 0xff, .umask_shift = 8 },
	{ .name = "perf", .id = FAMILY_PERF, .umask_field = ~0ULL },
	{ .name = "intel_rapl", .id = FAMILY_INTEL_RAPL, .umask_field = ~0ULL },
	{ .name = "amd64_rapl", .id = FAMILY_AMD64_RAPL, .umask_field = ~0ULL },
	{ .name = "intel_snbep_unc", .id = FAMILY_INTEL_SNBEP_UNC },
	{ .name = "intel_nhm_unc", .id = FAMILY_INTEL_NHM_UNC },
	{ .name = "perf_raw", .id = FAMILY_PERF_RAW, .names_are_numbers = true },
	{ .name = "arm_pmuv3", .id = FAMILY_ARM_PMUV3, .umask_field = ~0ULL },
	{ .name = "intel_netburst", .id = FAMILY_INTEL_NETBURST, .measured_config = true },
	{ .name = "kernel_format", .id = FAMILY_KERNEL_FORMAT },
};

const char *family_names(void)
{
	static char list[256];
	if (!list[0])
		for (size_t i = 0; i < FAMILY_COUNT; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "", families[i].name);
	return list;
}

const struct family *family_by_name(const char *name)
{
	for (size_t i = 0; i < FAMILY_COUNT; i++)
		if (!strcmp(families[i].name, name))
			return &families[i];
	return NULL;
}
