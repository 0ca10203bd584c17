/*
 * attr_value.h - an attribute's value as libpfm reads it: the two readers
 * both the stages (encode.c) and the express lane (express.c) use.
 */
#ifndef PMUDB_ATTR_VALUE_H
#define PMUDB_ATTR_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One character C as libpfm reads a value of one: an integer's digit, or
 * (not INTEGER) a boolean, "y", "t", "1", "n", "f" or "0" in either case.
 * A table, not tolower's call and six comparisons, and no branch on the
 * kind: strings of both kinds follow each other.  False for anything
 * else. */
static inline bool attr_char(unsigned char c, bool integer, uint64_t *out)
{
	/* 1 + the value: a digit's in the low half, a boolean's in the high */
#define DIGIT(d) [(d) + '0'] = (d) + 1
	static const unsigned char value[256] = { DIGIT(2), DIGIT(3), DIGIT(4), DIGIT(5), DIGIT(6), DIGIT(7),
						  DIGIT(8), DIGIT(9), ['0'] = 1 | 1 << 4, ['1'] = 2 | 2 << 4,
						  ['y'] = 2 << 4, ['Y'] = 2 << 4, ['t'] = 2 << 4, ['T'] = 2 << 4,
						  ['n'] = 1 << 4, ['N'] = 1 << 4, ['f'] = 1 << 4, ['F'] = 1 << 4 };
#undef DIGIT
	unsigned v = value[c] >> (integer ? 0 : 4) & 15;
	*out = v - 1;
	return v != 0;
}

/* The N bytes at S as libpfm reads a boolean: 0, or -1 for anything but
 * one of attr_char's. */
static inline int attr_bool(const char *s, size_t n, uint64_t *out)
{
	return n == 1 && attr_char((unsigned char)s[0], false, out) ? 0 : -1;
}

/* The N bytes at S, "0" or up to 20 decimal digits not starting with 0
 * that fit in 64 bits, as strtoull(S, &end, 0) reads them whole: most
 * values are (the largest period, 2^64 - 1, is twenty), and strtoull's
 * locale and base handling cost more than the digits.  False for anything
 * else, which strtoull reads (an overflow included: it gives ULLONG_MAX,
 * as libpfm). */
static inline bool attr_decimal(const char *s, size_t n, uint64_t *value)
{
	uint64_t v = 0;
	if (!n || n > 20 || (s[0] == '0' && n > 1))
		return false;
	/* nineteen digits cannot overflow; the twentieth is checked */
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned char)(s[i] - '0');
		if (d > 9 || (i == 19 && (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v))))
			return false;
		if (i < 19)
			v = v * 10 + d;
	}
	*value = v;
	return true;
}

/* attr_decimal's reading of N bytes (1 to 8), the first in W's low bits
 * (W's bytes past them anything), without a loop: each byte checked to be
 * a digit and the eight combined in three multiplications, where a loop
 * of as many digits as a value has mispredicted its end at most values. */
static inline bool attr_decimal_word(uint64_t w, size_t n, uint64_t *value)
{
	const uint64_t zeros = 0x3030303030303030ull;
	/* the digits in the high bytes, '0's before them */
	size_t pad = 8 * (8 - n);
	w = pad ? w << pad | (zeros >> (64 - pad)) : w;
	/* every byte '0' to '9': its high half 3, and still 3 with 6 added */
	if (((w & 0xf0f0f0f0f0f0f0f0ull) | ((w + 0x0606060606060606ull) & 0xf0f0f0f0f0f0f0f0ull) >> 4)
	    != 0x3333333333333333ull)
		return false;
	/* "0" alone, not a leading zero (strtoull would read octal) */
	if (n > 1 && (w >> pad & 0xff) == '0')
		return false;
	w -= zeros;
	/* pairs, fours, then eight, the first digit the most significant */
	w = (w * 10 + (w >> 8)) & 0x00ff00ff00ff00ffull;
	w = (w * 100 + (w >> 16)) & 0x0000ffff0000ffffull;
	*value = (w * 10000 + (w >> 32)) & 0xffffffffull;
	return true;
}

#endif
