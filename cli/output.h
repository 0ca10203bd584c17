/*
 * output.h - a line of output built in memory and written at once: the
 * commands print many small pieces (a JSON object per event), and stdio's
 * per-call cost is most of the time of a batch.
 */
#ifndef PMUDB_CLI_OUTPUT_H
#define PMUDB_CLI_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct out {
	FILE *f;
	size_t len;
	char buf[8192];
};

void out_start(struct out *o, FILE *f);
/* N bytes of S; what does not fit in the buffer goes through out_put_slow. */
void out_put_slow(struct out *o, const char *s, size_t n);
/* Inline: a batch line is some thirty pieces, most a few bytes long, and
 * a call and a loop for each was a quarter of `encode --stdin`'s time. */
static inline void out_put(struct out *o, const char *s, size_t n)
{
	if (n <= sizeof(o->buf) - o->len) {
		memcpy(o->buf + o->len, s, n);
		o->len += n;
	} else {
		out_put_slow(o, s, n);
	}
}
/* A string literal, its length known when compiling. */
#define out_lit(o, s) out_put((o), "" s, sizeof(s) - 1)
void out_str(struct out *o, const char *s);
static inline void out_char(struct out *o, char c)
{
	out_put(o, &c, 1);
}
void out_uint(struct out *o, uint64_t v);
void out_int(struct out *o, int64_t v);
void out_hex(struct out *o, uint64_t v);	/* 0x... */

/*
 * A part of known greatest length written through a cursor: out_room
 * gives room for N bytes (flushing first if need be), the put_ functions
 * write at P and return where they stopped, and out_wrote counts what was
 * written up to END.  A JSON line's thirty numbers and names, each checked
 * against the buffer's room and counted on its own, were a third of
 * printing it.
 */
char *out_room(struct out *o, size_t n);
static inline void out_wrote(struct out *o, char *end)
{
	o->len = (size_t)(end - o->buf);
}
/* A string literal, its length known when compiling. */
#define put_lit(p, s) (memcpy((p), "" s, sizeof(s) - 1), (p) + sizeof(s) - 1)
char *put_uint(char *p, uint64_t v);	/* at most 20 bytes */
char *put_int(char *p, int64_t v);	/* at most 20 */
char *put_hex(char *p, uint64_t v);	/* 0x..., at most 18 */
/* put_uint, inline for one digit (the flags of a JSON line). */
static inline char *put_digits(char *p, uint64_t v)
{
	if (v >= 10)
		return put_uint(p, v);
	*p = (char)('0' + v);
	return p + 1;
}
/* S as a JSON string: quoted, with '"', '\' and control characters
 * escaped, valid UTF-8 kept as it is and each byte that is not part of a
 * valid UTF-8 sequence replaced by U+FFFD. */
void out_json_string(struct out *o, const char *s);
/* The same for the LEN bytes at S, NULs among them (as \u0000); S[LEN]
 * must be readable and NUL (a UTF-8 sequence is read no further). */
void out_json_bytes(struct out *o, const char *s, size_t len);
/* Writes what is buffered to the FILE. */
void out_flush(struct out *o);

#endif
