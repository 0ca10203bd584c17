/*
 * number.h - how the tables and the vendors' JSON write a number: decimal,
 * or hexadecimal after 0x.  strtoull's base 0 also reads a leading 0 as
 * octal (a model 010 was 8, and 08 was refused as no number), a leading
 * blank and a '+'; the messages promise neither.
 */
#ifndef PMUDB_NUMBER_H
#define PMUDB_NUMBER_H

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* Reads the number at S into *OUT, *END after it; false when S does not
 * start with one, or it does not fit in 64 bits. */
static inline bool number_read(const char *s, uint64_t *out, char **end)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	*end = (char *)s;
	if (hex ? !isxdigit((unsigned char)*digits) : !isdigit((unsigned char)*digits))
		return false;
	errno = 0;
	*out = strtoull(digits, end, hex ? 16 : 10);
	return errno == 0;
}

#endif
