/*
 * floors.h - the differential harness's floors, per PMU: how many strings
 * of each PMU's corpus must agree with libpfm, and how many may disagree
 * (tests/harness_floor.txt, written by `harness --write-floor`).
 *
 * A PMU the file lists may not disagree on more strings than it says, and
 * may not agree on fewer, less what its corpus lost (another libpfm's
 * table may have fewer events); a PMU the file does not list (one a newer
 * libpfm brings) may not disagree at all.  So no PMU's agreement falls
 * and a PMU that newly disagrees fails by name, whichever libpfm the
 * floors were measured with.
 */
#ifndef PMUDB_TESTS_FLOORS_H
#define PMUDB_TESTS_FLOORS_H

#include <stdbool.h>
#include <stdio.h>

struct pmu_tally {
	char name[64];		/* the PMU, or "malformed" */
	long tried, agree, intended, disagree;
	char first[320];	/* its first disagreeing string */
};

struct floor_line {
	char name[64];
	long tried, agree, disagree;
};

struct floors {
	char fingerprint[64];	/* of the libpfm they were measured with, or "" */
	int count;
	struct floor_line *lines;
};

/* Reads FILE: "# libpfm VERSION enumeration FINGERPRINT", then lines
 * "PMU TRIED AGREE DISAGREE" (# comments).  0, or -1 with a message. */
int floors_load(const char *file, struct floors *f);
void floors_free(struct floors *f);

/* Checks T against F; with SAMPLED (every Nth string only), the
 * disagreements only.  Writes a FAIL line naming the PMU to OUT and
 * returns false when T falls below its floor. */
bool floors_check(const struct floors *f, const struct pmu_tally *t, bool sampled, const char *file, FILE *out);

/* Writes TALLIES as a floor file, headed by the libpfm they come from. */
int floors_write(const char *file, const char *libpfm_version, const char *fingerprint,
		 const struct pmu_tally *tallies, int count);

#endif
