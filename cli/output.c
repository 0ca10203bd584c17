/*
 * output.c - see output.h.
 */
#include "cli/output.h"

#include <stdbool.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

void out_start(struct out *o, FILE *f)
{
	o->f = f;
	o->len = 0;
}

void out_flush(struct out *o)
{
	if (o->len)
		fwrite(o->buf, 1, o->len, o->f);
	o->len = 0;
}

void out_put_slow(struct out *o, const char *s, size_t n)
{
	while (n) {
		if (o->len == sizeof(o->buf))
			out_flush(o);
		size_t k = sizeof(o->buf) - o->len < n ? sizeof(o->buf) - o->len : n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
	}
}

void out_str(struct out *o, const char *s)
{
	out_put(o, s, strlen(s));
}

/* Numbers are written in place, where a copy of each cost a memcpy call:
 * the room first, flushed if need be. */
char *out_room(struct out *o, size_t n)
{
	if (sizeof(o->buf) - o->len < n)
		out_flush(o);
	return o->buf + o->len;
}

char *put_uint(char *p, uint64_t v)
{
	int n = 1;
	for (uint64_t x = v; x >= 10; x /= 10)
		n++;
	char *end = p + n;
	p = end;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

char *put_int(char *p, int64_t v)
{
	if (v >= 0)
		return put_uint(p, (uint64_t)v);
	*p = '-';
	return put_uint(p + 1, -(uint64_t)v);
}

char *put_hex(char *p, uint64_t v)
{
	int n = 2 + (v ? (67 - __builtin_clzll(v)) / 4 : 1);	/* "0x" and the digits */
	char *end = p + n;
	p[0] = '0';
	p[1] = 'x';
	p = end;
	do
		*--p = "0123456789abcdef"[v & 0xf];
	while (v >>= 4);
	return end;
}

void out_uint(struct out *o, uint64_t v)
{
	out_wrote(o, put_uint(out_room(o, 20), v));
}

void out_int(struct out *o, int64_t v)
{
	out_wrote(o, put_int(out_room(o, 20), v));
}

void out_hex(struct out *o, uint64_t v)
{
	out_wrote(o, put_hex(out_room(o, 18), v));
}

/* Copies the bytes at S[I..N) to D while they need no escaping in a JSON
 * string (printable ASCII but '"' and '\\'); returns where it stopped. */
static size_t copy_plain_bytes(char *d, const unsigned char *s, size_t i, size_t n)
{
	for (; i < n && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\'; i++)
		d[i] = (char)s[i];
	return i;
}

/* The length of the valid UTF-8 sequence at S (1 to 4), or 0. */
static int utf8_length(const unsigned char *s)
{
	int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (n == 3 && s[0] == 0xed && s[1] >= 0xa0)
	    || (n == 4 && s[0] == 0xf0 && s[1] < 0x90) || (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

#ifndef __SSE2__
/* Whether any of the 8 bytes of X needs more than a copy in a JSON
 * string: below 0x20, from 0x80 up, '"' or '\\'.  Exact: a borrow
 * crosses into the next byte only from a byte that is below 0x20. */
static bool needs_care(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t quote = x ^ ('"' * ones), backslash = x ^ ('\\' * ones);
	return ((x | ((x - 0x20 * ones) & ~x) | ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash))
		& highs) != 0;
}
#endif

/* Copies the N bytes at S to D while they need no escaping; the count
 * copied, N when all are plain.  D has room for N bytes and sixteen more.
 * Most of a batch's strings are plain ASCII: where SSE2 is there (every
 * x86-64) sixteen bytes are checked and stored at once, else eight are
 * checked at once (a byte loop was a tenth of `encode --stdin`). */
static size_t copy_plain(char *d, const unsigned char *s, size_t n)
{
	size_t i = 0;
#ifdef __SSE2__
	const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
	for (;;) {
		__m128i x;
		bool last = i + 16 >= n;
		if (!last) {
			x = _mm_loadu_si128((const __m128i *)(s + i));
		} else if (n >= 16) {
			i = n - 16;	/* the last sixteen: those before I were plain */
			x = _mm_loadu_si128((const __m128i *)(s + i));
		} else {
			/* shorter than a word (a PMU's name): a byte loop costs
			 * less than padding a copy of it */
			return copy_plain_bytes(d, s, i, n);
		}
		/* signed: bytes from 0x80 up are below 0x20 too */
		__m128i care = _mm_or_si128(_mm_cmplt_epi8(x, space),
					    _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)));
		int mask = _mm_movemask_epi8(care);
		/* stored whole: the plain bytes before a care byte are kept,
		 * those from it on are written over after */
		_mm_storeu_si128((__m128i *)(d + i), x);
		if (mask)
			return i + (size_t)__builtin_ctz((unsigned)mask);
		if (last)
			return n;
		i += 16;
	}
#else
	for (; i + 8 <= n; i += 8) {
		uint64_t x;
		memcpy(&x, s + i, 8);
		if (needs_care(x))
			break;
		memcpy(d + i, &x, 8);
	}
	return copy_plain_bytes(d, s, i, n);
#endif
}

/* Writes the byte, or UTF-8 sequence, at S that copy_plain stopped at,
 * escaped; returns the bytes it took. */
static size_t put_escaped(struct out *o, const unsigned char *s)
{
	if (*s == '"' || *s == '\\') {
		char esc[2] = { '\\', (char)*s };
		out_put(o, esc, 2);
		return 1;
	}
	if (*s < 0x20) {
		char esc[7] = "\\u00";
		esc[4] = "0123456789abcdef"[*s >> 4];
		esc[5] = "0123456789abcdef"[*s & 0xf];
		out_put(o, esc, 6);
		return 1;
	}
	int n = utf8_length(s);
	if (n) {
		out_put(o, (const char *)s, (size_t)n);
		return (size_t)n;
	}
	out_put(o, "\xef\xbf\xbd", 3);	/* U+FFFD for a byte that is not UTF-8 */
	return 1;
}

void out_json_string(struct out *o, const char *str)
{
	out_json_bytes(o, str, strlen(str));
}

void out_json_bytes(struct out *o, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;
	out_char(o, '"');
	while (s < end) {
		/* copy_plain's room: the rest, or what the buffer holds */
		if (sizeof(o->buf) - o->len < 64)
			out_flush(o);
		size_t room = sizeof(o->buf) - o->len - 16, n = (size_t)(end - s);
		size_t take = n < room ? n : room;
		size_t run = copy_plain(o->buf + o->len, s, take);
		o->len += run;
		s += run;
		if (run == take)
			continue;
		s += put_escaped(o, s);
	}
	out_char(o, '"');
}
