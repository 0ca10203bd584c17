/*
 * request.c - helpers every stage of an encoding uses: building libpfm's
 * fstr, failing with a message, finding a modifier.
 */
#include "request.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Appends S, cut at libpfm's limit as its vsnprintf-based appends cut. */
static void fstr_put(struct request *rq, const char *s)
{
	while (*s && rq->fstr_len < FSTR_MAX - 1)
		rq->fstr[rq->fstr_len++] = *s++;
	rq->fstr[rq->fstr_len] = '\0';
}

void fstr_add(struct request *rq, const char *prefix, const char *name)
{
	fstr_put(rq, prefix);
	fstr_put(rq, name);
}

void fstr_add_value(struct request *rq, const char *name, uint64_t value)
{
	char digits[24], *d = digits + sizeof(digits) - 1;
	*d = '\0';
	do
		*--d = (char)('0' + value % 10);
	while (value /= 10);
	fstr_put(rq, ":");
	fstr_put(rq, name);
	fstr_put(rq, "=");
	fstr_put(rq, d);
}

int fail(struct request *rq, int code, const char *fmt, ...)
{
	struct pmudb_error *err = rq->err;
	err->code = code;
	int n = snprintf(err->message, sizeof(err->message), "%s: ", pmudb_strerror(code));
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message + n, sizeof(err->message) - (size_t)n, fmt, ap);
	va_end(ap);
	error_one_line(err->message);
	return code;
}

int find_modifier(const struct event *ev, const char *name)
{
	for (int i = 0; i < ev->modifiers->count; i++)
		if (!strcasecmp(ev->modifiers->items[i].name, name))
			return i;
	return -1;
}
