/*
 * request.c - helpers every stage of an encoding uses: building libpfm's
 * fstr, failing with a message, finding a modifier.
 */
#include "runtime/encode/request.h"

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

/* rq->fstr ends at most FSTR_MAX - 1 bytes after it starts, which is at
 * most sizeof(out->fstr) - FSTR_NAME_ROOM + 2 bytes into rq->text (the
 * PMU's name is cut so: catalog.c): a whole chunk from anywhere before
 * its end stays inside text. */
_Static_assert(sizeof(((struct pmudb_encoding *)0)->fstr) - FSTR_NAME_ROOM + 2 + FSTR_MAX + CHUNKS_SHORT
		       <= sizeof(((struct request *)0)->text),
	       "a name's whole chunk fits in the request's text");

/* N bytes of NAME, a catalog's name (packed.h's PACKED_READ_PAD), at F,
 * LEN bytes into rq->fstr; N is under CHUNKS_SHORT and fits. */
static void add_short_name(struct request *rq, char *f, const char *name, int n)
{
	chunks_copy_short(f, name);
	f[n] = '\0';
	rq->fstr_len = (int)(f - rq->fstr) + n;
}

void fstr_add_event(struct request *rq, const struct event *ev)
{
	int n = ev->name_len;
	if (n < CHUNKS_SHORT && rq->fstr_len + n < FSTR_MAX)
		add_short_name(rq, rq->fstr + rq->fstr_len, ev->name, n);
	else
		fstr_append(rq, ev->name, (size_t)n);
}

void fstr_add_umask(struct request *rq, const struct umask *u)
{
	int n = u->name_len;
	if (n < CHUNKS_SHORT && rq->fstr_len + 1 + n < FSTR_MAX) {
		char *f = rq->fstr + rq->fstr_len;
		f[0] = ':';
		add_short_name(rq, f + 1, u->name, n);
		return;
	}
	fstr_append(rq, ":", 1);
	fstr_append(rq, u->name, (size_t)n);
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
