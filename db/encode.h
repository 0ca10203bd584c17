/*
 * encode.h - one encoding in progress, shared by the stages in encode.c
 * (parse and resolve), rules.c (unit-mask rules), the family encoders
 * (family_*.c) and perf_layer.c.
 */
#ifndef PMUDB_ENCODE_H
#define PMUDB_ENCODE_H

#include <stdbool.h>
#include <stdint.h>

#include "catalog.h"

#define FSTR_MAX 256		/* libpfm's PFMLIB_EVT_MAX_NAME_LEN */

/* libpfm's privilege levels. */
#define PLM0 0x1
#define PLM1 0x2
#define PLM2 0x4
#define PLM3 0x8
#define PLMH 0x10
#define PLM_ALL (PLM0 | PLM1 | PLM2 | PLM3 | PLMH)
#define PLM_DEFAULT (PLM0 | PLM3)

struct request {
	struct pmudb *db;
	const struct pmu *pmu;
	const struct event *ev;		/* after following an equiv */
	const char *token;		/* the token being worked on, for errors */
	struct pmudb_error *err;

	/* unit masks asked for (equivs expanded), in the order given */
	int nasked;
	uint16_t asked[MAX_UMASKS];
	/* the unit masks as written (an equiv is one), for pair exceptions */
	int ntyped;
	uint16_t typed[2];
	int expanding;			/* inside an equiv's expansion */
	/* the final unit masks: asked plus defaults, in position order */
	int nfinal;
	uint16_t final[MAX_UMASKS];

	/* modifiers, by position in ev->modifiers */
	bool given[MAX_MODIFIERS];
	uint64_t value[MAX_MODIFIERS];
	int conflict;			/* a modifier given twice differently, or -1 */

	struct pmudb_encoding *out;
	uint64_t codes[4];		/* raw words, for PMUs with no perf encoding */
	uint64_t raw_code;		/* the number a match_name event name gave */
	char fstr[FSTR_MAX];		/* "EVENT:UMASK...:mod=value..." */
	int fstr_len;
};

/* Append PREFIX NAME, or ":NAME=VALUE", to rq->fstr, cut at libpfm's limit. */
void fstr_add(struct request *rq, const char *prefix, const char *name);
void fstr_add_value(struct request *rq, const char *name, uint64_t value);

/* Fails the request with CODE; the message names the current token. */
int fail(struct request *rq, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Unit-mask rules (rules.c), in libpfm's order of checks: the asked
 * combination, modifier values, then defaults and implied values. */
int check_umask_combination(struct request *rq);
int check_modifier_values(struct request *rq);
int add_umask_defaults(struct request *rq);
int check_hidden_modifiers(struct request *rq);
/* After encoding: a modifier that needs another one non-zero (e=1, c). */
int check_requirements(struct request *rq);

/* Sets the bits modifier M sets whenever it is given. */
void apply_presence(struct request *rq, const struct modifier *m);
/* Puts VALUE into the fields modifier M lands in. */
void apply_landings(struct request *rq, const struct modifier *m, uint64_t value);

/* The value of modifier M: given, implied by a unit mask, or its default. */
uint64_t modifier_value(const struct request *rq, int m);
int find_modifier(const struct event *ev, const char *name);	/* position or -1 */

/* Appends ":name=value" for every PMU modifier, as libpfm's encoders do:
 * the value read back from the registers. */
void fstr_pmu_modifiers(struct request *rq);

/* The perf_events layer (perf_layer.c): privilege levels, period, precise ... */
int apply_perf_layer(struct request *rq);

/* One encoder per libpfm encoding family (family_encoders.c lists them). */
struct family {
	const char *name;
	/* Sets config/config1/config2 (or codes) and the PMU part of fstr. */
	int (*encode)(struct request *rq);
	/* For PMUs whose event names are numbers (perf_raw's rNNNN): 0 and
	 * *code set when NAME is one, else -1.  NULL for named events. */
	int (*match_name)(const char *name, uint64_t *code);
};
const struct family *family_by_name(const char *name);

#endif
