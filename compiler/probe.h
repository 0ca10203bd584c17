/*
 * probe.h - ask libpfm's encoder about one event string.
 *
 * The derive pass learns libpfm's rules by asking its encoder and reading
 * the answer: the error, the perf_event_attr, and the fully-qualified string
 * (fstr), whose tokens say which unit masks libpfm added by default and
 * which value every modifier ended up with.
 */
#ifndef PMUDB_COMPILER_PROBE_H
#define PMUDB_COMPILER_PROBE_H

#include <perfmon/pfmlib_perf_event.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler/model.h"

#define PROBE_MAX_TOKENS 64

struct probe_token {
	char name[96];
	bool has_value;
	uint64_t value;
};

struct probe {
	int error;			/* PFM_SUCCESS or PFM_ERR_* */
	bool raw_only;			/* libpfm has no perf encoding for this PMU:
					 * codes are the raw register values */
	struct perf_event_attr attr;	/* valid on success, unless raw_only */
	uint64_t codes[4];		/* valid when raw_only */
	int code_count;
	int cpu;			/* from the cpu= modifier, -1 if unset */
	int flags;			/* perf_event_open() flags */
	bool has_fstr;			/* libpfm gave an fstr (a unit mask that takes
					 * no modifiers leaves it out) */
	int token_count;		/* tokens of the fstr after EVENT */
	struct probe_token tokens[PROBE_MAX_TOKENS];
};

/* Encodes STR for the perf_events layer with privilege levels PLM; for PMUs
 * libpfm cannot encode for perf_events (PFM_ERR_NOTSUPP), the raw codes. */
void probe_encode(const char *str, int plm, struct probe *out);

/* Raw register codes of STR (no OS layer); returns PFM_ERR_* or 0. */
int probe_raw_codes(const char *str, int plm, uint64_t codes[4], int *count);

/* The token named NAME among a successful probe's modifiers, or NULL. */
const struct probe_token *probe_modifier(const struct probe *p, const char *name);

/* libpfm's encoding of an event of a PMU alone (UMASK -1) or with one unit
 * mask: every such string libpfm encodes for the perf_events layer. */
struct pmu_string {
	int event, umask;	/* positions in the PMU */
	uint64_t config, config1;
};
struct pmu_strings { struct pmu_string *items; size_t count, cap; };
void probe_pmu_strings(const struct pmu *p, struct pmu_strings *out);

#endif
