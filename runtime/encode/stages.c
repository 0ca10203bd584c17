/*
 * stages.c - the stages an encoding runs once its string is read into a
 * request (encode.c's parser, or the express lane's): the unit-mask rules
 * and defaults, the PMU's family encoder, the requirements between
 * modifiers and the perf_events layer; or, for a request that gives
 * neither unit masks nor PMU modifiers, the event's bare encoding and the
 * perf_events layer alone.
 */
#include "runtime/encode/stages.h"

#include <assert.h>
#include <pthread.h>
#include <string.h>

#include "runtime/encode/bare.h"
#include "catalog/catalog.h"
#include "runtime/encode/family_encoders.h"
#include "runtime/encode/perf_layer.h"
#include "runtime/encode/rules.h"

void request_start(struct request *rq)
{
	struct pmudb_encoding *out = rq->out;
	rq->pmu = NULL;
	rq->ev = NULL;
	rq->event_index = -1;
	rq->token = NULL;
	rq->nasked = rq->nfinal = rq->fstr_len = rq->ntyped = rq->expanding = 0;
	rq->named_umask = rq->has_raw = false;
	rq->in_catalog = 0;
	rq->raw_umask = 0;
	rq->text[0] = '\0';
	rq->fstr = rq->text;
	rq->no_fstr = rq->making_bare = rq->without_umasks = false;
	rq->form_at = -1;
	rq->given = 0;
	rq->nattrs = rq->nrepeated = 0;
	rq->repeats = false;
	memset(rq->umasks_seen, 0, sizeof(rq->umasks_seen));
	memset(rq->codes, 0, sizeof(rq->codes));
	/* the strings are written up to their NUL, the rest zeroed: the
	 * whole of it was a tenth of a warm encoding's instructions */
	out->pmu[0] = out->fstr[0] = out->sysfs_pmu[0] = '\0';
	out->type = 0;
	encoding_clear(out);
}

/*
 * The event's record (catalog_model.h's record_lines) asked for at once
 * when a thread's encodings move to another event: otherwise each line
 * is a miss when first read, many waiting for the line before them (the
 * unit-mask index, then the unit mask).  A warm pass after other work
 * meets every event cold: of the bench's AMD core strings, the first of
 * each event's cost twice what the later ones did, the second and third
 * a third more.  Thirty-two lines, 2 KB, cover most events' records.
 */
#define FETCHED_LINES_MAX 32

void stages_fetch(const struct event *ev)
{
	static _Thread_local const struct event *last;
	if (ev == last)
		return;
	last = ev;
	int lines = ev->record_lines < FETCHED_LINES_MAX ? ev->record_lines : FETCHED_LINES_MAX;
	/* the first line is read already */
	for (int i = 1; i < lines; i++)
		__builtin_prefetch((const char *)ev + 64 * i);
}

_Static_assert(FSTR_NAME_ROOM == FSTR_MAX + 3, "catalog.c cuts the PMU's name for start_fstr");

/* The length of RQ's whole fstr in its text, "PMU::" with it. */
static size_t whole_len(const struct request *rq)
{
	return (size_t)(rq->fstr - rq->text + rq->fstr_len);
}

/* The text starts "PMU::"; what the stages add follows (rq->fstr). */
static void start_fstr(struct request *rq)
{
	char *f = rq->text;
	size_t n = rq->pmu->fstr_name_len;
	/* a catalog's name (packed.h's PACKED_READ_PAD) */
	if (n < CHUNKS_SHORT)
		chunks_copy_short(f, rq->pmu->name);
	else
		memcpy(f, rq->pmu->name, n);
	memcpy(f + n, "::", 3);
	rq->fstr = f + n + 2;
	rq->fstr_len = 0;
}

/* The stages of the PMU's part: unit-mask rules and defaults, the family
 * encoder and its part of fstr. */
static int pmu_stages(struct request *rq)
{
	const struct family *family = rq->pmu->family;
	if (!family)
		return request_fail(rq, PMUDB_ERR_NOTSUPP, "pmudb has no encoder for the %s family of PMU %s",
			    rq->pmu->family_name, rq->pmu->name);
	/* perf_raw's fstr has no event name: libpfm's perf encoder for it
	 * never writes one */
	if (!family->names_are_numbers)
		fstr_add_event(rq, rq->ev);
	int r = check_rules(rq);
	if (!r)
		r = add_umask_defaults(rq);
	if (!r)
		r = check_hidden_modifiers(rq);
	if (!r)
		r = family_encode(rq);
	/* bits libpfm's perf encoding clears, whatever a code put there */
	rq->out->config &= ~rq->pmu->config_cleared;
	return r;
}

/*
 * The event encoded alone through one PMU (bare.h): its registers and its
 * fstr from "PMU::" on.  The registers and the PMU's part of fstr follow
 * from the unit masks and the PMU's modifiers only (the perf layer's
 * modifiers are its own), so an encoding that gives neither starts from
 * these and runs the perf layer alone (here, for the strings the express
 * lane declines: an event named without its PMU, say).
 */

/* Whether RQ gives neither unit masks nor PMU modifiers, for an event
 * that is one (not a number a PMU reads from its name, perf_raw's). */
static bool takes_bare(const struct request *rq)
{
	const struct family *family = rq->pmu->family;
	return !rq->making_bare && !rq->nasked && !rq->has_raw && !(rq->given & ~rq->ev->modifiers->from_perf)
	       && !(rq->given & rq->ev->hidden) && !rq->ev->equiv && family && !family->names_are_numbers;
}

/* RQ's event encoded alone through RQ's PMU into OUT, its fstr's part
 * after "PMU::" *FSTR_LEN bytes long and the form at *FORM_AT; WITHOUT:
 * with no unit mask at all (request.h).  False where it does not encode
 * so: an error, no fstr, or raw words. */
static bool encode_alone(const struct request *rq, bool without, struct pmudb_encoding *out, int *fstr_len,
			 int *form_at)
{
	struct pmudb_error err;
	struct request b;
	b.db = rq->db;
	b.out = out;
	b.err = &err;
	b.quiet = true;
	request_start(&b);
	b.making_bare = true;
	b.without_umasks = without;
	b.pmu = rq->pmu;
	b.ev = rq->ev;
	start_fstr(&b);
	bool encodes = !pmu_stages(&b) && !b.no_fstr && !(b.codes[0] | b.codes[1] | b.codes[2] | b.codes[3]);
	if (encodes)
		memcpy(out->fstr, b.text, whole_len(&b) + 1);
	*fstr_len = b.fstr_len;
	*form_at = b.form_at;
	return encodes;
}

/* Encodes RQ's event alone through RQ's PMU and keeps it (bare.h), when
 * it keeps none yet; what it keeps then, or NULL when out of memory.  An
 * event that is another's name, or a number a PMU reads, is kept as not
 * encoding alone: its bare encoding only names it.  Where the express
 * lane may add unit masks to it, the event encoded with none is kept
 * beside it: the bare encoding itself when it adds no default. */
const struct bare_encoding *stages_bare(struct request *rq)
{
	struct pmudb_encoding out, none;
	const struct family *family = rq->pmu->family;
	const struct event *ev = rq->ev;
	bool named = !ev->equiv && family && !family->names_are_numbers;
	int fstr_len = 0, form_at = -1, none_len = 0, none_at = -1;
	bool encodes = named && encode_alone(rq, false, &out, &fstr_len, &form_at);
	bool bare_adds = ev->nbare || ev->bare_error;
	bool with_none = named && family->umask_field && ev->numasks
			 && (bare_adds ? encode_alone(rq, true, &none, &none_len, &none_at) : encodes);
	struct pmudb *db = rq->db;
	struct pmu *p = (struct pmu *)rq->pmu;	/* its bare encodings are its only mutable part */
	struct arena *arena = &p->table->arena;
	pthread_mutex_lock(&db->lock);
	const struct bare_encoding *kept = bare_read(p, rq->event_index);
	if (!kept) {
		struct bare_encoding *k = bare_make(arena, p, rq->event_index, ev, encodes ? &out : NULL, fstr_len,
						    form_at);
		struct bare_encoding *t = k;
		if (k && with_none && bare_adds)
			t = bare_make(arena, p, rq->event_index, ev, &none, none_len, none_at);
		/* out of memory: the stages serve it as before */
		if (k && with_none && t)
			bare_take_umasks(k, t);
		if (k && !bare_publish(p, k, arena))
			kept = k;
	}
	pthread_mutex_unlock(&db->lock);
	return kept;
}

/* RQ's event alone through RQ's PMU, made if need be; NULL when it does
 * not encode alone. */
static const struct bare_encoding *bare_of(struct request *rq)
{
	const struct bare_encoding *b = bare_read(rq->pmu, rq->event_index);
	if (!b)
		b = stages_bare(rq);
	return b && b->encodes ? b : NULL;
}

/* The PMU's part as the bare encoding B has it, fstr's "PMU::" with it. */
static void take_bare(struct request *rq, const struct bare_encoding *b)
{
	struct pmudb_encoding *out = rq->out;
	out->config = b->config;
	out->config1 = b->config1;
	out->config2 = b->config2;
	bare_copy_fstr(rq->text, b);
	rq->fstr = rq->text + (b->whole_len - b->fstr_len);
	rq->fstr_len = b->fstr_len;
	rq->form_at = b->form_at;
}

int stages_encode(struct request *rq)
{
	/* the parser or the lane found the event before the stages run */
	assert(rq->pmu && rq->ev && rq->event_index >= 0 && rq->event_index < rq->pmu->table->nevents);
	int r = 0;
	const struct bare_encoding *b = takes_bare(rq) ? bare_of(rq) : NULL;
	if (b) {
		take_bare(rq, b);
	} else {
		start_fstr(rq);
		r = pmu_stages(rq);
	}
	if (!r)
		r = check_requirements(rq);
	if (!r)
		r = apply_perf_layer(rq);
	if (!r) {
		perf_type_resolve(rq->pmu, rq->ev, rq->out);
		size_t n = rq->pmu->out_name_len;
		chunks_copy_64(rq->out->pmu, rq->pmu->name, n);
		rq->out->pmu[n] = '\0';
		if (rq->no_fstr)
			rq->out->fstr[0] = '\0';	/* libpfm gives none */
		else
			chunks_copy(rq->out->fstr, rq->text, whole_len(rq) + 1);
	}
	return r;
}
