/*
 * family_encoders.h - one encoder per libpfm encoding family
 * (family_encoders.c lists them).
 */
#ifndef PMUDB_FAMILY_ENCODERS_H
#define PMUDB_FAMILY_ENCODERS_H

#include <stdbool.h>
#include <stdint.h>

struct request;

struct family {
	const char *name;
	/* Sets config/config1/config2 (or codes) and the PMU part of fstr;
	 * NULL for a family pmudb knows but cannot encode yet. */
	int (*encode)(struct request *rq);
	/* For PMUs whose event names are numbers (perf_raw's rNNNN): 0 and
	 * *code set when NAME is one, else -1.  NULL for named events. */
	int (*match_name)(const char *name, uint64_t *code);
	/* The encoder places the config the build measured from libpfm's
	 * encodings (event.config_base, umask.config_bits), not libpfm's
	 * codes: the compiler measures it for this family's PMUs. */
	bool measured_config;
	/* Where the encoder only ORs the final unit masks' codes, masked by
	 * UMASK_FIELD and shifted left by UMASK_SHIFT, into config, and reads
	 * nothing else of them: an encoding with unit masks is then the
	 * event's encoding without any plus their codes, which the express
	 * lane uses (bare.h).  0 where the encoder does more. */
	uint64_t umask_field;
	int umask_shift;
};

/* Encoders in files of their own. */
int encode_netburst(struct request *rq);	/* family_netburst.c */

/* The family NAME, or NULL when pmudb does not know it (the compiler
 * refuses such a name in the tables). */
const struct family *family_by_name(const char *name);
/* Every family's name, ", "-separated, for messages. */
const char *family_names(void);

#endif
