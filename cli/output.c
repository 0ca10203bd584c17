/*
 * output.c - see output.h.
 */
#include "output.h"

#include <stdbool.h>
#include <string.h>

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

void out_uint(struct out *o, uint64_t v)
{
	char d[24], *p = d + sizeof(d);
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	out_put(o, p, (size_t)(d + sizeof(d) - p));
}

void out_int(struct out *o, int64_t v)
{
	if (v < 0) {
		out_char(o, '-');
		out_uint(o, -(uint64_t)v);
	} else {
		out_uint(o, (uint64_t)v);
	}
}

void out_hex(struct out *o, uint64_t v)
{
	char d[24], *p = d + sizeof(d);
	do
		*--p = "0123456789abcdef"[v & 0xf];
	while (v >>= 4);
	*--p = 'x';
	*--p = '0';
	out_put(o, p, (size_t)(d + sizeof(d) - p));
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

/* The length of the run at S (N bytes) that is copied as it is: word by
 * word, as most of a batch's strings are plain ASCII. */
static size_t plain_run(const unsigned char *s, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t x;
		memcpy(&x, s + i, 8);
		if (needs_care(x))
			break;
	}
	while (i < n && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\')
		i++;
	return i;
}

void out_json_string(struct out *o, const char *str)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + strlen(str);
	out_char(o, '"');
	while (s < end) {
		size_t run = plain_run(s, (size_t)(end - s));
		out_put(o, (const char *)s, run);
		s += run;
		if (s == end)
			break;
		if (*s == '"' || *s == '\\') {
			char esc[2] = { '\\', (char)*s++ };
			out_put(o, esc, 2);
		} else if (*s < 0x20) {
			char esc[7] = "\\u00";
			esc[4] = "0123456789abcdef"[*s >> 4];
			esc[5] = "0123456789abcdef"[*s & 0xf];
			out_put(o, esc, 6);
			s++;
		} else {
			int n = utf8_length(s);
			if (n) {
				out_put(o, (const char *)s, (size_t)n);
				s += n;
			} else {
				out_put(o, "\xef\xbf\xbd", 3);	/* U+FFFD for a byte that is not UTF-8 */
				s++;
			}
		}
	}
	out_char(o, '"');
}
