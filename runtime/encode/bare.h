/*
 * bare.h - an event encoded alone through one PMU, its bare encoding,
 * kept per PMU and event once the event is first named.  It is what the
 * event cache finds by "PMU::EVENT" (event_cache.h), what an encoding
 * that gives neither unit masks nor PMU modifiers starts from (encode.c),
 * and what the express lane starts from (express.c): so beside the
 * registers and the fstr it holds the name it is found by and what the
 * lane may change in it.
 */
#ifndef PMUDB_BARE_H
#define PMUDB_BARE_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "catalog/model.h"
#include "runtime/encode/chunks.h"

/* The cache lines an encoding reads of it, mostly: its fields and an
 * fstr of up to 128 bytes. */
#define BARE_LINES 5

/*
 * In the order an encoding reads it: the name, what the lane checks, the
 * registers; then the fstr, whose start is the name where it holds it
 * whole.  The lane reads nothing of the PMU or the event but what is
 * copied here, and their sets and forms, shared by many events: a warm
 * pass after other work meets each event's lines cold, each a miss.
 */
struct bare_encoding {
	alignas(64) const char *spelled;	/* "PMU::EVENT" as the catalog spells it */
	const char *folded;	/* the same, ASCII letters in lower case */
	int name_len;
	bool encodes;		/* the event alone encodes: what follows holds it */
	bool express;		/* the express lane takes its strings from it */
	bool names_another;	/* the event is another's name (an equivalence) */
	bool guest_host_values;	/* a vendor PMU's: mg=0, mh=0 are none given (perf_layer.h) */
	int out_name_len;	/* the PMU's, as pmudb_encoding.pmu holds it */
	const struct modifier_set *set;	/* the event's */
	const struct fstr_form *form;	/* the event's */
	/* the modifiers a live unit mask's name hides: a token without a
	 * value is that unit mask (libpfm looks unit masks up first) */
	uint64_t shadowed;
	/* the PMU modifiers the express lane places itself (bare.c), and
	 * those it shows as given, which land in no register */
	uint64_t placed, shown_only;
	unsigned plm;		/* the levels the PMU filters */
	int type;		/* perf_type_fixed(), INT32_MIN: sysfs decides */
	uint64_t config, config1, config2;
	int fstr_len, form_at;	/* after "PMU::", as a request's fstr_len and form_at */
	int whole_len;		/* of the fstr, "PMU::" and the rest */
	/* the event encoded with no unit mask (this one, where it adds no
	 * default), which the lane adds the unit masks of PLAIN_UMASKS to
	 * (bit u: unit mask u; an event of more than 64 has none), or NULL:
	 * the stages take unit masks */
	const struct bare_encoding *with_umasks;
	uint64_t plain_umasks;
	uint64_t ruled_umasks;	/* bit u: a rule names unit mask u's group */
	/* of that encoding: the unit masks' codes go into config shifted by
	 * UMASK_SHIFT, the bits of UMASK_BITS (the family's field, less what
	 * the perf encoding clears) */
	uint64_t umask_bits;
	int umask_shift;
	const struct pmu *pmu;
	const struct event *ev;
	int index;		/* the event's position in the PMU's table */
	/* the fstr, then the names (each with zeros to the end of its last
	 * chunk), spelled only where the fstr does not start with it */
	char fstr[];
};

/* B's lines asked for at once, not each when the one before has come:
 * after other work every event's are cold. */
static inline void bare_fetch(const struct bare_encoding *b)
{
	for (int line = 0; line < BARE_LINES; line++)
		__builtin_prefetch((const char *)b + 64 * line);
}

/* The bare encoding of event E of P, or NULL when none is made yet. */
static inline const struct bare_encoding *bare_read(const struct pmu *p, int e)
{
	_Atomic(const struct bare_encoding *) *bares = atomic_load_explicit(&p->bares, memory_order_acquire);
	return bares && e >= 0 && e < p->table->nevents ? atomic_load_explicit(&bares[e], memory_order_acquire) : NULL;
}

/*
 * Lays out the bare encoding of event E (EV) of P in ARENA: ALONE the
 * event encoded alone with its fstr's part after "PMU::" FSTR_LEN bytes
 * long and the form at FORM_AT (as a request's), or NULL when it does
 * not encode alone.  NULL when out of memory.
 */
struct bare_encoding *bare_make(struct arena *arena, const struct pmu *p, int e, const struct event *ev,
				const struct pmudb_encoding *alone, int fstr_len, int form_at);

/* Lets the lane add unit masks to T, B's event encoded with none (B
 * itself, or made beside it by bare_make), where it may (bare.c). */
void bare_take_umasks(struct bare_encoding *b, struct bare_encoding *t);

/* Makes B the bare encoding of P's event B->index (ARENA holds P's list
 * of them).  Called under the handle's lock, when it has none yet. */
int bare_publish(struct pmu *p, const struct bare_encoding *b, struct arena *arena);

/* B's fstr and its NUL into DST, no byte past them (chunks.h). */
static inline void bare_copy_fstr(char *dst, const struct bare_encoding *b)
{
	chunks_copy(dst, b->fstr, (size_t)b->whole_len + 1);
}

/* The N bytes at A are the first N of B, which is at least
 * CHUNK_SIZE long; AVAIL bytes can be read at A (N or more).  No byte
 * past either is read: a name's last chunk is read ending at its end. */
static inline bool bare_same_bytes(const char *a, const char *b, size_t n, size_t avail)
{
#ifdef __SSE2__
#define SAME16(x, y) _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(x)), \
						    _mm_loadu_si128((const __m128i *)(y))))
	if (n >= CHUNK_SIZE && n <= 4 * CHUNK_SIZE) {
		/* four chunks, the later ones clamped to end at N (one read
		 * twice is the same): no loop, whose length names vary */
		size_t last = n - CHUNK_SIZE, at1 = last < 16 ? last : 16, at2 = last < 32 ? last : 32;
		return (SAME16(a, b) & SAME16(a + at1, b + at1) & SAME16(a + at2, b + at2) & SAME16(a + last, b + last))
		       == 0xffff;
	}
	if (n > 4 * CHUNK_SIZE) {
		size_t i = 0;
		for (; i + CHUNK_SIZE <= n; i += CHUNK_SIZE)
			if (SAME16(a + i, b + i) != 0xffff)
				return false;
		return i == n || SAME16(a + n - CHUNK_SIZE, b + n - CHUNK_SIZE) == 0xffff;
	}
	if (avail >= CHUNK_SIZE) {
		unsigned want = (1u << n) - 1;
		return ((unsigned)SAME16(a, b) & want) == want;
	}
#undef SAME16
#else
	(void)avail;
#endif
	return !memcmp(a, b, n);
}

/* The N bytes at NAME (AVAIL of them readable) are B's "PMU::EVENT",
 * case aside (strcasecmp's C locale): mostly as B spells it, else with
 * letters folded. */
static inline bool bare_named(const struct bare_encoding *b, const char *name, size_t n, size_t avail)
{
	if ((size_t)b->name_len != n)
		return false;
	if (bare_same_bytes(name, b->spelled, n, avail))
		return true;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if ((unsigned char)((unsigned)(c - 'A') < 26u ? c + 'a' - 'A' : c) != (unsigned char)b->folded[i])
			return false;
	}
	return true;
}

#endif
