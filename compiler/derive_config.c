/*
 * derive_config.c - the config register of the families whose encoder
 * places what the build measured rather than libpfm's codes: NetBurst.
 *
 * libpfm's API gives a NetBurst event's code as its ESCR event select and
 * ESCR select, and a unit mask's code as a bit number.  Its perf encoding
 * is not made of those: the config holds the ESCR (bits 32-63) and the CCCR
 * (bits 0-31), the ESCR's event select is perf's own number for the event,
 * a bit number of 16 or more is a tag bit (with the tag enable), some unit
 * masks set nothing (replay_event's virtual masks), and the CCCR has its
 * enable and thread bits.  None of that is in the API, all of it is in the
 * encodings, so it is measured here, as derive.c measures the filter
 * registers: every encoding libpfm makes of an event alone or with one unit
 * mask shows its final unit masks (defaults included) and its config.  The
 * bits all of them have are the event's (config_base); the bits every
 * encoding containing unit mask U has beyond those are U's (config_bits).
 * Where every encoding has U (an event's only unit mask), its bits are in
 * the base, which is what every encoding gets anyway.  The pairs, which
 * derive.c encodes already, are checked against the result.
 */
#include "compiler/derive_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

/* The position of EV's unit mask NAME, or -1. */
static int umask_at(const struct event *ev, const char *name)
{
	for (size_t i = 0; i < ev->umasks.count; i++)
		if (!strcasecmp(ev->umasks.items[i].name, name))
			return (int)i;
	return -1;
}

/* for (each final unit mask U of encoding Q): the unit masks its fstr shows. */
#define for_each_final(ev, q, u) \
	for (int t_ = 0; t_ < (q)->token_count; t_++) \
		if (!(q)->tokens[t_].has_value && ((u) = umask_at((ev), (q)->tokens[t_].name)) >= 0)

struct seen {
	uint64_t base;
	bool any;
	uint64_t *bits;		/* by unit mask: AND of the encodings with it */
	bool *with;
};

static void note(const struct event *ev, const struct probe *q, struct seen *s)
{
	if (q->error || q->raw_only)
		return;
	s->base &= q->attr.config;
	s->any = true;
	int u;
	for_each_final(ev, q, u) {
		s->bits[u] &= q->attr.config;
		s->with[u] = true;
	}
}

void derive_config(struct event *ev, const struct probe *bare, const struct probe *singles)
{
	size_t n = ev->umasks.count;
	struct seen s = { ~0ULL, false, malloc((n + 1) * sizeof(uint64_t)), calloc(n + 1, sizeof(bool)) };
	if (!s.bits || !s.with) {
		fputs("pmudb-build: out of memory\n", stderr);
		abort();
	}
	for (size_t i = 0; i < n; i++)
		s.bits[i] = ~0ULL;
	note(ev, bare, &s);
	for (size_t i = 0; i < n; i++)
		note(ev, &singles[i], &s);
	/* an event nothing encodes has nothing to measure: it stays
	 * unmeasured, and the runtime refuses it as libpfm does */
	ev->config_measured = s.any;
	ev->config_base = s.any ? s.base : 0;
	for (size_t i = 0; i < n; i++)
		ev->umasks.items[i].config_bits = s.any && s.with[i] ? s.bits[i] & ~s.base : 0;
	free(s.bits);
	free(s.with);
}

bool config_pair_agrees(const struct event *ev, const struct probe *q)
{
	if (q->error || q->raw_only || !ev->config_measured)
		return true;
	uint64_t expected = ev->config_base;
	int u;
	for_each_final(ev, q, u)
		expected |= ev->umasks.items[u].config_bits;
	return q->attr.config == expected;
}
