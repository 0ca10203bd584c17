/*
 * request.c - helpers every stage of an encoding uses: building libpfm's
 * fstr, failing with a message, finding a modifier.
 */
#include "request.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

void fstr_append(struct request *rq, const char *s, size_t n)
{
	size_t room = (size_t)(FSTR_MAX - 1 - rq->fstr_len);
	if (n > room)
		n = room;
	memcpy(rq->fstr + rq->fstr_len, s, n);
	rq->fstr_len += (int)n;
	rq->fstr[rq->fstr_len] = '\0';
}

void fstr_add_umask(struct request *rq, const struct umask *u)
{
	size_t n = (size_t)u->name_len;
	if (rq->fstr_len + 1 + (int)n < FSTR_MAX) {
		/* the common case: it fits, one copy */
		char *f = rq->fstr + rq->fstr_len;
		f[0] = ':';
		memcpy(f + 1, u->name, n);
		f[n + 1] = '\0';
		rq->fstr_len += (int)n + 1;
		return;
	}
	fstr_append(rq, ":", 1);
	fstr_append(rq, u->name, n);
}

/* V in decimal, ending at END (at most 20 bytes before it, no NUL);
 * returns where it starts.  Two digits a division: a period of twenty
 * digits, printed twice (as period and freq), cost more in a digit loop
 * than the rest of its string. */
static char *decimal_before(char *end, uint64_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
				    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
				    "8081828384858687888990919293949596979899";
	char *p = end;
	while (v >= 10) {
		const char *pair = pairs + 2 * (v % 100);
		v /= 100;
		*--p = pair[1];
		*--p = pair[0];
	}
	if (v || p == end)
		*--p = (char)('0' + v);
	return p;
}

size_t fstr_decimal(char *buf, uint64_t v)
{
	char digits[24], *d = decimal_before(digits + sizeof(digits), v);
	size_t n = (size_t)(digits + sizeof(digits) - d);
	memcpy(buf, d, n);
	return n;
}

void fstr_add_modifier(struct request *rq, const struct modifier *m, uint64_t value)
{
	int key = m->fstr_key_len;
	if (value < 10 && key < FSTR_KEY_COPY - 1 && rq->fstr_len + FSTR_KEY_COPY < FSTR_MAX) {
		/* the common case, a short key and one digit: one fixed-size
		 * copy of the key and its zero padding (a byte loop here was a
		 * tenth of a warm AMD encoding) */
		char *f = rq->fstr + rq->fstr_len;
		memcpy(f, m->fstr_key, FSTR_KEY_COPY);
		f[key] = (char)('0' + value);
		rq->fstr_len += key + 1;
		return;
	}
	char digits[24], *d = decimal_before(digits + sizeof(digits), value);
	fstr_append(rq, m->fstr_key, (size_t)key);
	fstr_append(rq, d, (size_t)(digits + sizeof(digits) - d));
}

int fail_with(struct request *rq, int code, const char *fmt, ...)
{
	if (rq->quiet)
		return rq->err->code = code;
	va_list ap;
	va_start(ap, fmt);
	set_error_after(rq->err, code, pmudb_strerror(code), fmt, ap);
	va_end(ap);
	return code;
}

int find_modifier(const struct event *ev, const char *name)
{
	return name_index_find(&ev->modifiers->by_name, name);
}
