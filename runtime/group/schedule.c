/*
 * schedule.c - exact placement of events on counters (schedule.h).
 *
 * Events that need no counter are left out.  An event taken alone takes
 * the general counters for itself: beside it the others must sit on fixed
 * counters, and two such events never fit together.  The rest is a
 * bipartite matching of events to counters (augmenting paths, Kuhn's
 * algorithm), which is exact: the events fit if and only if the matching
 * places them all.  The events are placed fewest-choices first and each
 * tries its fixed counters before its general ones, as the kernel's
 * scheduler does (arch/x86/events/core.c, perf_assign_events), so the
 * assignment shown is the kernel's where the kernel finds one.
 */
#include "runtime/group/schedule.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS (SCHED_FIXED + 32)

struct matcher {
	const struct sched_event *ev;
	const int *order;
	int n;
	bool general_off;	/* the general counters are taken (an event alone) */
	int owner[SLOTS];	/* event on each counter, or -1 */
	bool seen[SLOTS];
};

static bool may_count_on(const struct matcher *m, int e, int slot)
{
	if (slot >= SCHED_FIXED)
		return m->ev[e].fixed >> (slot - SCHED_FIXED) & 1;
	return !m->general_off && (m->ev[e].general >> slot & 1);
}

/* Kuhn's step (augment): places E on a free counter (fixed ones first), else on one
 * whose event moves along an augmenting path. */
static bool augment(struct matcher *m, int e)
{
	for (int pass = 0; pass < 4; pass++) {
		/* free fixed, free general, then taken fixed, taken general */
		bool fixed = !(pass & 1), free_only = pass < 2;
		int lo = fixed ? SCHED_FIXED : 0, hi = fixed ? SLOTS : SCHED_FIXED;
		for (int s = lo; s < hi; s++) {
			if (m->seen[s] || !may_count_on(m, e, s) || (free_only && m->owner[s] >= 0))
				continue;
			m->seen[s] = true;
			if (m->owner[s] < 0 || augment(m, m->owner[s])) {
				m->owner[s] = e;
				return true;
			}
		}
	}
	return false;
}

static int weight_of(const struct sched_event *e)
{
	return __builtin_popcountll(e->general) + __builtin_popcount(e->fixed);
}

/* The events that need a counter, fewest choices first, then as given (a
 * stable insertion sort): the kernel's order.  Returns their number. */
static int order_by_weight(const struct sched_event *ev, int n, int *order)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if (!ev[i].no_counter)
			order[k++] = i;
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && weight_of(&ev[order[j]]) < weight_of(&ev[order[j - 1]]); j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	return k;
}

/* Linux's scheduler (arch/x86/events/core.c, perf_assign_events and
 * perf_sched_find_counter): the events by weight, each on its first free
 * fixed counter, else its first free general one, never moving one placed
 * (no constraint of an Intel core or an Arm PMU asks it to backtrack).
 * With GENERAL_OFF the general counters are another's. */
static bool in_linux_order(const struct sched_event *ev, int n, bool general_off, int *counter, bool *unplaced)
{
	int order[SCHED_MAX_EVENTS];
	int k = order_by_weight(ev, n, order);
	bool used[SLOTS] = { false }, all = true;
	for (int i = 0; i < n; i++)
		counter[i] = -1;
	for (int i = 0; i < k; i++) {
		const struct sched_event *e = &ev[order[i]];
		int at = -1;
		for (int s = 0; s < 32 && at < 0; s++)
			if ((e->fixed >> s & 1) && !used[SCHED_FIXED + s])
				at = SCHED_FIXED + s;
		for (int s = 0; s < 64 && at < 0 && !general_off; s++)
			if ((e->general >> s & 1) && !used[s])
				at = s;
		if (at < 0) {
			all = false;
			if (unplaced)
				unplaced[order[i]] = true;
			continue;
		}
		used[at] = true;
		counter[order[i]] = at;
	}
	return all;
}

/* Matches every event of EV that needs a counter; the ones left out are
 * marked in UNPLACED (may be NULL).  Returns whether all were placed. */
static bool match_counters(struct matcher *m, const struct sched_event *ev, int n, bool general_off, bool *unplaced)
{
	assert(n >= 0 && n <= SCHED_MAX_EVENTS);
	int order[SCHED_MAX_EVENTS];
	int k = order_by_weight(ev, n, order);
	*m = (struct matcher){ .ev = ev, .order = order, .n = n, .general_off = general_off };
	for (int s = 0; s < SLOTS; s++)
		m->owner[s] = -1;
	bool all = true;
	for (int i = 0; i < k; i++) {
		memset(m->seen, 0, sizeof(m->seen));
		if (!augment(m, order[i])) {
			all = false;
			if (unplaced)
				unplaced[order[i]] = true;
		}
	}
	return all;
}

/* The event taken alone, -1 for none, -2 for two or more. */
static int taken_alone_event(const struct sched_event *ev, int n)
{
	int found = -1;
	for (int i = 0; i < n; i++)
		if (ev[i].alone && !ev[i].no_counter)
			found = found == -1 ? i : -2;
	return found;
}

/* With the general counters given to event A alone: the others on fixed
 * counters, A on its first general one.  EXACT: by matching, else as
 * the kernel places them. */
static bool fits_beside_alone(const struct sched_event *ev, int n, int a, bool exact, int *counter)
{
	struct sched_event rest[SCHED_MAX_EVENTS];
	int scratch[SCHED_MAX_EVENTS];
	memcpy(rest, ev, (size_t)n * sizeof(*ev));
	rest[a].no_counter = true;
	struct matcher m;
	if (!ev[a].general)
		return false;
	if (exact ? !match_counters(&m, rest, n, true, NULL) : !in_linux_order(rest, n, true, counter ? counter : scratch, NULL))
		return false;
	if (counter)
		counter[a] = __builtin_ctzll(ev[a].general);
	return true;
}

bool sched_fits(const struct sched_event *ev, int n, int *counter)
{
	int scratch[SCHED_MAX_EVENTS];
	int a = taken_alone_event(ev, n);
	if (a == -2)
		return false;
	if (a >= 0)
		return fits_beside_alone(ev, n, a, false, counter);
	return in_linux_order(ev, n, false, counter ? counter : scratch, NULL);
}

bool sched_fits_exact(const struct sched_event *ev, int n)
{
	int a = taken_alone_event(ev, n);
	if (a == -2)
		return false;
	if (a >= 0)
		return fits_beside_alone(ev, n, a, true, NULL);
	struct matcher m;
	return match_counters(&m, ev, n, false, NULL);
}

int sched_competing(const struct sched_event *ev, int n, bool *competes)
{
	memset(competes, 0, (size_t)n * sizeof(*competes));
	int alone = 0;
	for (int i = 0; i < n; i++)
		alone += ev[i].alone && !ev[i].no_counter;
	if (alone) {
		/* the events alone, and those that would need a general
		 * counter beside them */
		for (int i = 0; i < n; i++)
			competes[i] = !ev[i].no_counter && (ev[i].alone || alone > 1 || !ev[i].fixed);
		return 0;
	}
	/* König: from an event the maximum matching leaves out, the events
	 * reachable by alternating paths have fewer counters (all matched,
	 * to events of the set) than members */
	bool unplaced[SCHED_MAX_EVENTS] = { false };
	struct matcher m;
	match_counters(&m, ev, n, false, unplaced);
	int start = -1;
	for (int i = 0; i < n && start < 0; i++)
		if (unplaced[i])
			start = i;
	if (start < 0)
		return 0;
	bool slot_in[SLOTS] = { false };
	int queue[SCHED_MAX_EVENTS], head = 0, tail = 0;
	queue[tail++] = start;
	competes[start] = true;
	while (head < tail) {
		int e = queue[head++];
		for (int s = 0; s < SLOTS; s++) {
			if (slot_in[s] || !may_count_on(&m, e, s))
				continue;
			slot_in[s] = true;
			int o = m.owner[s];
			if (o >= 0 && !competes[o]) {
				competes[o] = true;
				queue[tail++] = o;
			}
		}
	}
	int counters = 0;
	for (int s = 0; s < SLOTS; s++)
		counters += slot_in[s];
	return counters;
}

/* first-fit: each event into the first group it fits beside */
static int split_first_fit(const struct sched_event *ev, int n, int *part)
{
	struct sched_event *group = malloc((size_t)n * sizeof(*group));
	int parts = 0;
	if (!group)
		return -1;
	for (int i = 0; i < n; i++) {
		part[i] = -1;
		for (int p = 0; p < parts && part[i] < 0; p++) {
			int k = 0;
			for (int j = 0; j < i; j++)
				if (part[j] == p)
					group[k++] = ev[j];
			group[k++] = ev[i];
			if (sched_fits(group, k, NULL))
				part[i] = p;
		}
		if (part[i] < 0)
			part[i] = parts++;
	}
	free(group);
	return parts;
}

/* The exact search: FITS[s] for every subset s, then the fewest fitting
 * subsets that cover all (each step takes the lowest event left and a
 * fitting subset of the rest with it, largest subsets first). */
static int split_exact(const struct sched_event *ev, int n, int *part)
{
	uint32_t full = (1u << n) - 1;
	bool *fits = calloc((size_t)full + 1, sizeof(*fits));
	unsigned char *best = malloc((size_t)full + 1);
	uint32_t *pick = malloc(((size_t)full + 1) * sizeof(*pick));
	int r = -1;
	if (fits && best && pick) {
		struct sched_event group[SCHED_EXACT_MAX];
		for (uint32_t s = 1; s <= full; s++) {
			int k = 0;
			for (int i = 0; i < n; i++)
				if (s >> i & 1)
					group[k++] = ev[i];
			fits[s] = sched_fits(group, k, NULL);
		}
		best[0] = 0;
		for (uint32_t s = 1; s <= full; s++) {
			uint32_t low = s & -s, rest = s ^ low;
			best[s] = 255;
			/* the submasks of REST, largest first, each with LOW */
			for (uint32_t t = rest;; t = (t - 1) & rest) {
				uint32_t g = t | low;
				if (fits[g] && best[s ^ g] != 255 && best[s ^ g] + 1 < best[s]) {
					best[s] = (unsigned char)(best[s ^ g] + 1);
					pick[s] = g;
				}
				if (!t)
					break;
			}
		}
		if (best[full] != 255) {
			int p = 0;
			for (uint32_t s = full; s; s ^= pick[s], p++)
				for (int i = 0; i < n; i++)
					if (pick[s] >> i & 1)
						part[i] = p;
			r = best[full];
		}
	}
	free(fits);
	free(best);
	free(pick);
	return r;
}

int sched_split(const struct sched_event *ev, int n, int *part, bool *exact)
{
	assert(n >= 0 && n <= SCHED_MAX_EVENTS);
	*exact = true;
	bool none = false;
	for (int i = 0; i < n; i++) {
		part[i] = 0;
		if (!ev[i].no_counter && !ev[i].general && !ev[i].fixed) {
			part[i] = -1;
			none = true;
		}
	}
	if (none)
		return -1;
	if (sched_fits(ev, n, NULL))
		return n ? 1 : 0;
	if (n > SCHED_EXACT_MAX) {
		*exact = false;
		return split_first_fit(ev, n, part);
	}
	/* first-fit's split, in the order given, where it is a smallest */
	int fewest = split_exact(ev, n, part);
	int *ordered = malloc((size_t)n * sizeof(*ordered));
	if (fewest > 0 && ordered && split_first_fit(ev, n, ordered) == fewest)
		memcpy(part, ordered, (size_t)n * sizeof(*part));
	free(ordered);
	return fewest;
}
