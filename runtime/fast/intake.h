/*
 * intake.h - an event string read where it lies, once, for the express
 * lane and the stages alike: its length, where its delimiters stand,
 * where the PMU's name and the event's name end.
 *
 * It reads the caller's bytes, and none past the NUL: sixteen at a time,
 * the last sixteen ending at the NUL.  The stages work in a copy of the
 * string (they cut it into NUL-terminated tokens), and a read of a copy
 * just made, over two of its stores, waits for them to reach the cache: a
 * scan of each fresh copy cost more than the rest of the scanning.
 */
#ifndef PMUDB_INTAKE_H
#define PMUDB_INTAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The longest string read so, its NUL included: longer ones the stages
 * scan in their copy (scan.h). */
#define INTAKE_LONGEST 128

struct intake {
	size_t len;		/* with the NUL */
	bool marked;		/* 16 to INTAKE_LONGEST bytes: what follows is set */
	uint64_t marks[2];	/* where ':', '.', '=' and the NUL stand, a bit a byte */
	/* a byte below '-' other than the NUL: a blank or ',' perhaps,
	 * which libpfm refuses (the stages look closer) */
	bool low;
	bool has_pmu;		/* it names a PMU: "::" stands at PMU_END */
	size_t pmu_end;
	size_t name_end;	/* where the event's name ends: ':', '.' or the NUL */
};

/* Reads S (marked when its length fits). */
void intake_read(const char *s, struct intake *in);

/* The first delimiter of IN at or after FROM, or INTAKE_LONGEST. */
static inline size_t intake_next(const struct intake *in, size_t from)
{
	if (from < 64) {
		uint64_t w = in->marks[0] >> from;
		if (w)
			return from + (size_t)__builtin_ctzll(w);
		from = 64;
	}
	uint64_t w = from < INTAKE_LONGEST ? in->marks[1] >> (from - 64) : 0;
	return w ? from + (size_t)__builtin_ctzll(w) : INTAKE_LONGEST;
}

#endif
