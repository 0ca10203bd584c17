/*
 * parse.h - an event string read the way libpfm reads it (parse.c): the
 * event found, the attributes parsed, the stages run.  The string is cut
 * up by the caller (runtime/api/encode.c), which knows where "::" and the
 * event's name end.
 */
#ifndef PMUDB_PARSE_H
#define PMUDB_PARSE_H

#include <stddef.h>

#include "runtime/encode/request.h"

/* S, LEN bytes long, as a string to cut into tokens: in BUF when it fits,
 * else on the heap (*HEAP then to be freed, else NULL); followed by
 * SCAN_PAD zeros for scan.h.  NULL when out of memory. */
char *parse_working_copy(const char *s, size_t len, char *buf, size_t size, char **heap);

/* Finds the event named NAME (LEN bytes, NUL-terminated): in PMU PNAME
 * (PLEN bytes), else in SCOPE (or every PMU).  0 with rq->pmu, rq->ev and
 * rq->event_index set, and *ATTRS the unit masks an alias of that name
 * stands for (or NULL); else the error, with its message. */
int parse_find_event(struct request *rq, const char *pname, size_t plen, const char *name, size_t len,
		     const struct pmudb_scope *scope, const char **attrs);

/* The string's attributes parsed (the alias's, ALIAS_ATTRS, and the
 * user's, USER_ATTRS, which is cut up in place), after the event found,
 * then the stages. */
int parse_run(struct request *rq, const char *alias_attrs, char *user_attrs);

#endif
