/*
 * request.h - one encoding in progress, shared by the stages: parse and
 * resolve (encode.c), unit-mask rules (rules.c), the family encoders
 * (family_encoders.c) and the perf_events layer (perf_layer.c); and the
 * helpers they all use (request.c).
 */
#ifndef PMUDB_REQUEST_H
#define PMUDB_REQUEST_H

#include <stdbool.h>
#include <stdint.h>

#include "catalog/model.h"
#include "runtime/encode/chunks.h"
#include "catalog/errors.h"

#define FSTR_MAX 256		/* libpfm's PFMLIB_EVT_MAX_NAME_LEN */


/* libpfm's PFMLIB_MAX_ATTRS: the attributes of one string, equivs
 * expanded, a raw unit mask included.  libpfm answers PFM_ERR_TOOMANY to
 * a modifier past it, before it reads the modifier's value (and overruns
 * its array on a unit mask or a raw one past it: pmudb refuses that too). */
#define MAX_ATTRS 64
/* The unit mask of a raw one's attribute (given_attr). */
#define RAW_UMASK_ATTR (-2)

struct request {
	struct pmudb *db;
	const struct pmu *pmu;
	const struct event *ev;		/* after following an equiv */
	int event_index;		/* ev's position in pmu's table */
	const char *token;		/* the token being worked on, for errors */
	struct pmudb_error *err;
	bool quiet;			/* the caller wants the code, not the message */
	bool making_bare;		/* encoding the event alone, to keep (encode.c) */
	/* encoding it with no unit mask at all: no defaults added, none
	 * missed (the template the express lane adds unit masks to) */
	bool without_umasks;

	/* unit masks asked for (equivs expanded), in the order given */
	int nasked;
	uint16_t asked[MAX_UMASKS];
	/* the unit masks as written (an equiv is one), for pair exceptions */
	int ntyped;
	uint16_t typed[2];
	int expanding;			/* depth inside equivs' expansions */
	int in_catalog;			/* depth inside the catalog's attributes (equivs) */
	bool named_umask;		/* a unit mask given by name by the caller */
	bool has_raw;			/* a raw unit mask (":0xff") was given */
	uint64_t raw_umask;
	/* the final unit masks: asked plus defaults, in position order */
	int nfinal;
	uint16_t final[MAX_UMASKS];

	/* modifiers, by position in ev->modifiers; value[m] is meaningful
	 * only where given (bit m) */
	uint64_t given;
	uint64_t value[MAX_MODIFIERS];
	/* unit masks that reached the encoder twice (U:U:U leaves U:U) */
	int nrepeated;
	uint16_t repeated[MAX_ATTRS];
	/* every attribute as parsed, equivs expanded; after libpfm's
	 * duplicate pass (apply_attributes in encode.c) what that pass left,
	 * an earlier value of a modifier that escaped it included
	 * (m=1:m=1:m=0 leaves m=1 then m=0), which libpfm's encoders check
	 * and take in turn */
	int nattrs;
	bool repeats;			/* some attribute is given twice */
	uint64_t umasks_seen[MAX_UMASKS / 64];	/* bit u: unit mask u among them */
	struct given_attr {
		/* one of them is -1; a raw unit mask is RAW_UMASK_ATTR, its
		 * number the value (libpfm counts it among the attributes and
		 * checks its width as it reads them) */
		int16_t umask, modifier;
		uint64_t value;
	} attrs[MAX_ATTRS];

	struct pmudb_encoding *out;
	uint64_t codes[4];		/* raw words, for PMUs with no perf encoding */
	uint64_t raw_code;		/* the number an event name gave (family_event_number) */
	/* "PMU::EVENT:UMASK...:mod=value...", built here and copied to
	 * out->fstr once encoded: the names are copied in (request.c) whole
	 * chunks, whose bytes past a name are not for out->fstr to keep */
	char text[sizeof(((struct pmudb_encoding *)0)->fstr) + CHUNKS_SHORT];
	/* "EVENT:UMASK...:mod=value...", in text after "PMU::", cut at
	 * libpfm's limit */
	char *fstr;
	int fstr_len;
	bool no_fstr;			/* libpfm gives none (a unit mask that takes no modifiers) */
	int form_at;			/* where fstr_form_pmu wrote the form, or -1 */
};

/* OUT's registers and perf_events fields as nothing encoded (cpu -1):
 * field by field, where memset's 48 bytes became a "rep stos", whose
 * start-up cost more than the stores. */
static inline void encoding_clear(struct pmudb_encoding *out)
{
	out->config = out->config1 = out->config2 = 0;
	out->exclude_user = out->exclude_kernel = out->exclude_hv = out->exclude_host = out->exclude_guest = false;
	out->precise_ip = 0;
	out->sample_period = 0;
	out->freq = out->exclusive = out->pinned = false;
	out->cpu = -1;
}

static inline bool is_given(const struct request *rq, int m)
{
	return rq->given >> m & 1;
}

/* The modifiers the unit masks asked for imply (a mask). */
static inline uint64_t asked_implies(const struct request *rq)
{
	uint64_t mask = 0;
	for (int i = 0; rq->ev->implies && i < rq->nasked; i++)
		mask |= rq->ev->umasks[rq->asked[i]].implies;
	return mask;
}

/* For the positions M of the set bits of MASK, lowest first:
 * for (each_bit(m, mask)) ... (modifier masks: bit m is position m). */
#define each_bit(m, mask) uint64_t bits_ = (mask); bits_ && ((m) = __builtin_ctzll(bits_), 1); bits_ &= bits_ - 1

/* Appends to rq->fstr, cut at libpfm's limit: N bytes of S; the name of
 * the event, ":NAME" of a unit mask; ":NAME=VALUE" of a modifier. */
void fstr_append(struct request *rq, const char *s, size_t n);
void fstr_add_event(struct request *rq, const struct event *ev);
void fstr_add_umask(struct request *rq, const struct umask *u);
void fstr_add_modifier(struct request *rq, const struct modifier *m, uint64_t value);
/* V in decimal into BUF (20 bytes at most, no NUL); returns the length. */
size_t fstr_decimal(char *buf, uint64_t v);

/* Fails the request with CODE and a message: libpfm's text for CODE, ": ",
 * then FMT's (one formatting call, as a batch meets many refusals). */
#define request_fail(rq, code, fmt, ...) fail_with((rq), (code), fmt, ##__VA_ARGS__)
int fail_with(struct request *rq, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

int find_modifier(const struct event *ev, const char *name);	/* position or -1 */

#endif
