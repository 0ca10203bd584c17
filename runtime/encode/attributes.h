/*
 * attributes.h - the attributes a request collects from a string, as
 * libpfm's parser collects them: each unit mask and modifier in the order
 * given (what the rules and the perf layer read), the unit masks as
 * typed, and libpfm's pass over them where one repeats.  The stages'
 * parser (encode.c) and the express lane (express.c) both fill a request
 * through these.
 */
#ifndef PMUDB_ATTRIBUTES_H
#define PMUDB_ATTRIBUTES_H

#include "runtime/encode/request.h"

/* Unit mask U as the user wrote it (not from an equivalence's expansion):
 * the first two distinct, and a count that goes past two when there are
 * more, for the pairs' exceptions. */
void attributes_note_typed(struct request *rq, int u);

/* Unit mask UMASK (RAW_UMASK_ATTR: a raw one, VALUE its number) or
 * modifier MODIFIER at VALUE (the other -1), given next: 0, or
 * PMUDB_ERR_TOOMANY past libpfm's limit. */
int attributes_add(struct request *rq, int umask, int modifier, uint64_t value);

/* The refusal of an attribute past libpfm's limit (rq->token names it). */
int attributes_too_many(struct request *rq);

/* libpfm's pass over the attributes, where one repeats: 0, or
 * PMUDB_ERR_ATTR_SET for a modifier given twice at different values. */
int attributes_apply(struct request *rq);

#endif
