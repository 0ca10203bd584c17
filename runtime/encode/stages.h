/*
 * stages.h - the stages of an encoding, run on a request its string was
 * read into (stages.c).
 */
#ifndef PMUDB_STAGES_H
#define PMUDB_STAGES_H

#include "runtime/encode/request.h"

/* Makes RQ, whose db, out, err and quiet are set, a request with nothing
 * found or given yet, and its out as nothing encoded. */
void request_start(struct request *rq);

/* The stages on RQ, its event found (pmu, ev, event_index) and its
 * attributes collected and applied (attributes.h): 0 with rq->out the
 * encoding, or the refusal. */
int stages_encode(struct request *rq);

/* EV's record, what the stages may read of it, asked for at once when a
 * thread's encodings move to it from another event. */
void stages_fetch(const struct event *ev);

/* RQ's event encoded alone through RQ's PMU, kept (bare.h) if it keeps
 * none yet: what it keeps, or NULL when out of memory. */
const struct bare_encoding *stages_bare(struct request *rq);

#endif
