/*
 * intake.c - see intake.h.
 */
#include "runtime/fast/intake.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The delimiters among the sixteen bytes at S, a bit a byte; *LOW gets the
 * bytes below '-' but the NUL. */
static inline uint64_t chunk_marks(const char *s, unsigned *low)
{
#ifdef __SSE2__
	__m128i x = _mm_loadu_si128((const __m128i *)s), nul = _mm_cmpeq_epi8(x, _mm_setzero_si128());
	__m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(':')), _mm_cmpeq_epi8(x, _mm_set1_epi8('.'))),
				 _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('=')), nul));
	*low |= (unsigned)_mm_movemask_epi8(_mm_andnot_si128(nul, _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(',')), x)));
	return (unsigned)_mm_movemask_epi8(m);
#else
	uint64_t m = 0;
	for (int i = 0; i < 16; i++) {
		unsigned char c = (unsigned char)s[i];
		m |= (uint64_t)(c == ':' || c == '.' || c == '=' || !c) << i;
		*low |= c && c <= ',';
	}
	return m;
#endif
}

/* The delimiters of the sixteen bytes at AT, or where sixteen bytes end
 * at the NUL when the string ends sooner: a chunk read again is marked
 * again, the same. */
static inline void mark_chunk(const char *s, struct intake *in, size_t at, unsigned *low)
{
	size_t last = in->len - 16;
	at = at < last ? at : last;
	uint64_t m = chunk_marks(s + at, low);
	in->marks[at >> 6] |= m << (at & 63);
	if ((at & 63) > 48)
		in->marks[1] |= m >> (64 - (at & 63));
}

/* Four chunks, or eight past 64 bytes: a loop as long as the string
 * mispredicted its end at most strings. */
static void mark(const char *s, struct intake *in)
{
	unsigned low = 0;
	in->marks[0] = in->marks[1] = 0;
	for (size_t at = 0; at < 64; at += 16)
		mark_chunk(s, in, at, &low);
	if (in->len > 64)
		for (size_t at = 64; at < 128; at += 16)
			mark_chunk(s, in, at, &low);
	in->low = low != 0;
}

/* The first ':', '.' or NUL at or after FROM (an '=' ends no name). */
static size_t name_end(const char *s, const struct intake *in, size_t from)
{
	size_t at = intake_next(in, from);
	while (s[at] == '=')
		at = intake_next(in, at + 1);
	return at;
}

void intake_read(const char *s, struct intake *in)
{
	in->len = strlen(s) + 1;
	in->marked = in->len >= 16 && in->len <= INTAKE_LONGEST;
	if (!in->marked)
		return;
	mark(s, in);
	/* as libpfm: the PMU's name ends at the first "::", which is mostly
	 * where the first name ends */
	size_t first = name_end(s, in, 0);
	const char *sep = !s[first] ? NULL : s[first] == ':' && s[first + 1] == ':' ? s + first : strstr(s + first, "::");
	in->has_pmu = sep != NULL;
	in->pmu_end = sep ? (size_t)(sep - s) : 0;
	in->name_end = name_end(s, in, sep ? in->pmu_end + 2 : 0);
}
