/*
 * errors.c - error codes, their names and texts, and filling an error.
 */
#include "catalog/errors.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

static const char *const error_names[] = {
	"PFM_SUCCESS", "PFM_ERR_NOTSUPP", "PFM_ERR_INVAL", "PFM_ERR_NOINIT", "PFM_ERR_NOTFOUND",
	"PFM_ERR_FEATCOMB", "PFM_ERR_UMASK", "PFM_ERR_NOMEM", "PFM_ERR_ATTR", "PFM_ERR_ATTR_VAL",
	"PFM_ERR_ATTR_SET", "PFM_ERR_TOOMANY", "PFM_ERR_TOOSMALL",
};

/* libpfm's own words, so that messages read the same as its pfm_strerror(). */
static const char *const error_texts[] = {
	"success", "not supported", "invalid parameters", "pfmlib not initialized", "event not found",
	"invalid combination of model specific features", "invalid or missing unit mask", "out of memory",
	"invalid event attribute", "invalid event attribute value", "attribute value already set",
	"too many parameters", "parameter is too small",
};

_Static_assert(sizeof(error_names) / sizeof(error_names[0]) == 1 - LIBPFM_LAST_ERROR, "one name per code");
_Static_assert(sizeof(error_texts) / sizeof(error_texts[0]) == 1 - LIBPFM_LAST_ERROR, "one text per code");

/* Compared, never negated: -INT_MIN does not exist. */
static bool is_libpfm_code(int code)
{
	return code <= 0 && code >= LIBPFM_LAST_ERROR;
}

const char *pmudb_error_name(int code)
{
	if (code == PMUDB_ERR_CATALOG)
		return "PMUDB_ERR_CATALOG";
	if (code == PMUDB_ERR_NOCPU)
		return "PMUDB_ERR_NOCPU";
	return is_libpfm_code(code) ? error_names[-code] : "PMUDB_ERR_UNKNOWN";
}

const char *pmudb_strerror(int code)
{
	if (code == PMUDB_ERR_CATALOG)
		return "catalog error";
	if (code == PMUDB_ERR_NOCPU)
		return "no event table for this CPU";
	return is_libpfm_code(code) ? error_texts[-code] : "unknown error code";
}

/* ---- the message ----------------------------------------------------------
 *
 * A batch meets many refusals, and glibc's vsnprintf costs more than the
 * rest of a refused encoding (a profile of 33,477 Intel core strings, half
 * of them refused: 1,400 of the 2,300 instructions a refusal cost were
 * vsnprintf's).  The conversions the library uses are formatted here;
 * anything else (a flag, a width, a NULL string) goes to vsnprintf, so the
 * text is always vsnprintf's. */

struct message {
	char *p, *end;		/* END: the last byte, kept for the NUL */
};

static void put(struct message *m, const char *s, size_t n)
{
	size_t room = (size_t)(m->end - m->p);
	if (n > room)
		n = room;
	memcpy(m->p, s, n);
	m->p += n;
}

/* An argument's text: only arguments can hold a control character (a
 * damaged catalog's name, a caller's token), never the library's formats,
 * so only their bytes are made one line, as they are copied. */
static void put_text(struct message *m, const char *s, size_t n)
{
	char *at = m->p;
	put(m, s, n);
	text_one_line(at, (size_t)(m->p - at));
}

static void put_unsigned(struct message *m, unsigned long long v, unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char d[24], *p = d + sizeof(d);
	do
		*--p = digits[v % base];
	while (v /= base);
	put(m, p, (size_t)(d + sizeof(d) - p));
}

static void put_signed(struct message *m, long long v)
{
	if (v < 0)
		put(m, "-", 1);
	put_unsigned(m, v < 0 ? -(unsigned long long)v : (unsigned long long)v, 10, false);
}

/* Formats one conversion (after its '%') from AP; returns the byte after
 * it, or NULL for one left to vsnprintf. */
static const char *convert(struct message *m, const char *f, va_list *ap)
{
	int precision = -1, longs = 0;
	bool size = false;
	if (*f == '.') {
		precision = 0;
		for (f++; *f >= '0' && *f <= '9'; f++)
			precision = precision * 10 + (*f - '0');
	}
	for (; *f == 'l' && longs < 2; f++)
		longs++;
	if (*f == 'z')
		size = true, f++;
	if (precision >= 0 && *f != 's')
		return NULL;
	switch (*f) {
	case '%': put(m, "%", 1); break;
	case 's': {
		const char *s = va_arg(*ap, const char *);
		if (!s || longs || size)
			return NULL;
		put_text(m, s, precision >= 0 ? strnlen(s, (size_t)precision) : strlen(s));
		break;
	}
	case 'c': {
		/* a NUL ends the message there */
		char c = (char)va_arg(*ap, int);
		if (c)
			put_text(m, &c, 1);
		else
			m->end = m->p;
		break;
	}
	case 'd':
		put_signed(m, size ? (long long)va_arg(*ap, ssize_t) : longs == 2 ? va_arg(*ap, long long)
			   : longs ? va_arg(*ap, long) : va_arg(*ap, int));
		break;
	case 'u':
	case 'x':
	case 'X':
		put_unsigned(m, size ? va_arg(*ap, size_t) : longs == 2 ? va_arg(*ap, unsigned long long)
			     : longs ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned),
			     *f == 'u' ? 10 : 16, *f == 'X');
		break;
	default: return NULL;
	}
	return f + 1;
}

/* FMT into BUF (SIZE > 0 bytes) as vsnprintf would, cut the same way,
 * made one line (see set_error); returns the length of the line. */
static size_t format(char *buf, size_t size, const char *fmt, va_list ap)
{
	va_list mine;
	va_copy(mine, ap);
	struct message m = { buf, buf + size - 1 };
	const char *f = fmt;
	while (f && *f) {
		const char *pct = strchr(f, '%');
		size_t n = pct ? (size_t)(pct - f) : strlen(f);
		put(&m, f, n);
		f = pct ? convert(&m, pct + 1, &mine) : NULL;
		if (pct && !f) {
			va_end(mine);
			int r = vsnprintf(buf, size, fmt, ap);
			size_t len = r < 0 ? 0 : (size_t)r < size ? (size_t)r : size - 1;
			/* a NUL a %c wrote ends the message, as it did */
			len = strnlen(buf, len);
			text_one_line(buf, len);
			return len;
		}
	}
	va_end(mine);
	*m.p = '\0';
	return (size_t)(m.p - buf);
}

/* Eight bytes at a time: a word with no byte below 0x20 and none 0x7f is
 * skipped whole. */
static bool has_control(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t del = x ^ 0x7f7f7f7f7f7f7f7full;
	return (((x - 0x20 * ones) & ~x) | ((del - ones) & ~del)) & highs;
}

/* The word of S at I, its control bytes made '?'. */
static void clean_word(char *s, size_t i)
{
	uint64_t x;
	memcpy(&x, s + i, 8);
	if (!has_control(x))
		return;
	for (size_t k = i; k < i + 8; k++)
		if ((unsigned char)s[k] < 0x20 || s[k] == 0x7f)
			s[k] = '?';
}

/* A text of eight bytes or more ends with a word that overlaps the one
 * before it: no byte loop. */
void text_one_line(char *s, size_t n)
{
	if (n < 8) {
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
				s[i] = '?';
		return;
	}
	size_t i = 0;
	for (; i + 8 <= n; i += 8)
		clean_word(s, i);
	if (i < n)
		clean_word(s, n - 8);
}

int set_error_v(struct pmudb_error *err, int code, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	format(err->message, sizeof(err->message), fmt, ap);
	return code;
}

int set_error_after(struct pmudb_error *err, int code, const char *lead, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	size_t n = strlen(lead), size = sizeof(err->message);
	/* the library's own words: no control character to look for */
	memcpy(err->message, lead, n);
	memcpy(err->message + n, ": ", 2);
	format(err->message + n + 2, size - n - 2, fmt, ap);
	return code;
}

int set_error(struct pmudb_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_error_v(err, code, fmt, ap);
	va_end(ap);
	return code;
}
