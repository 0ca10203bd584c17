/*
 * families.h - the encoding families as data: which families there are,
 * and what the catalog, the compiler and the fast path need to know of
 * each without calling its encoder.  The encoders themselves are the
 * runtime's (runtime/encode/family_encoders.c), one per family id.
 *
 * A family is how libpfm's encoder of a group of PMUs places an event's
 * codes in the registers (tables/families.yaml names each PMU's); the
 * uncore PMUs made from the vendors' lists have one of pmudb's own,
 * kernel_format, where the kernel driver's format attributes placed every
 * field when the catalog was built (compiler/vendor_uncore.c).
 */
#ifndef PMUDB_CATALOG_FAMILIES_H
#define PMUDB_CATALOG_FAMILIES_H

#include <stdbool.h>
#include <stdint.h>

enum family_id {
	FAMILY_INTEL_X86, FAMILY_AMD64, FAMILY_PERF, FAMILY_INTEL_RAPL, FAMILY_AMD64_RAPL,
	FAMILY_INTEL_SNBEP_UNC, FAMILY_INTEL_NHM_UNC, FAMILY_PERF_RAW, FAMILY_ARM_PMUV3, FAMILY_INTEL_NETBURST,
	FAMILY_KERNEL_FORMAT, FAMILY_COUNT
};

struct family {
	const char *name;
	enum family_id id;
	/* Its PMUs' event names are numbers (perf_raw's rNNNN): one event,
	 * whose code the name gives. */
	bool names_are_numbers;
	/* The encoder places the config the build measured from libpfm's
	 * encodings (event.config_base, umask.config_bits), not libpfm's
	 * codes: the compiler measures it for this family's PMUs. */
	bool measured_config;
	/* Where the encoder only ORs the final unit masks' codes, masked by
	 * UMASK_FIELD and shifted left by UMASK_SHIFT, into config, and reads
	 * nothing else of them: an encoding with unit masks is then the
	 * event's encoding without any plus their codes, which the express
	 * lane uses (runtime/encode/bare.h).  0 where the encoder does more. */
	uint64_t umask_field;
	int umask_shift;
};

/* The family NAME, or NULL when pmudb does not know it (the compiler
 * refuses such a name in the tables). */
const struct family *family_by_name(const char *name);
/* Every family's name, ", "-separated, for messages. */
const char *family_names(void);

#endif
