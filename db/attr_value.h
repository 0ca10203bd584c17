/*
 * attr_value.h - an attribute's value as libpfm reads it: the two readers
 * both the stages (encode.c) and the express lane (express.c) use.
 */
#ifndef PMUDB_ATTR_VALUE_H
#define PMUDB_ATTR_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The N bytes at S, "y", "t", "1", "n", "f" or "0" as libpfm reads a
 * boolean, either case: a table, not tolower's call and six comparisons.
 * 0, or -1 for anything else. */
static inline int attr_bool(const char *s, size_t n, uint64_t *out)
{
	/* 1 + the value */
	static const unsigned char value[256] = { ['y'] = 2, ['Y'] = 2, ['t'] = 2, ['T'] = 2, ['1'] = 2,
						  ['n'] = 1, ['N'] = 1, ['f'] = 1, ['F'] = 1, ['0'] = 1 };
	unsigned v = n == 1 ? value[(unsigned char)s[0]] : 0;
	if (!v)
		return -1;
	*out = v - 1;
	return 0;
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

#endif
