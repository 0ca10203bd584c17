/*
 * exhaustive.c - the tests' exhaustive answers (exhaustive.h).
 */
#include "tests/exhaustive.h"

#include <stdlib.h>
#include <string.h>

/* Tries every counter for event I, then the next: true when all are
 * placed.  USED: the counters taken (general n is bit n, fixed n bit
 * NGENERAL + n). */
static bool try_from(const struct ex_event *e, int n, int i, uint32_t used, int ngeneral, int nfixed, bool general_ok)
{
	if (i == n)
		return true;
	if (e[i].none)
		return try_from(e, n, i + 1, used, ngeneral, nfixed, general_ok);
	for (int c = 0; c < ngeneral + nfixed; c++) {
		bool may = c < ngeneral ? general_ok && (e[i].general >> c & 1) : (e[i].fixed >> (c - ngeneral) & 1);
		if (may && !(used >> c & 1) && try_from(e, n, i + 1, used | 1u << c, ngeneral, nfixed, general_ok))
			return true;
	}
	return false;
}

/* The event taken alone (-1: none, -2: two or more), and REST: the
 * events with it needing no counter. */
static int taken_alone(const struct ex_event *e, int n, struct ex_event *rest)
{
	int alone = -1;
	for (int i = 0; i < n; i++)
		if (e[i].alone && !e[i].none)
			alone = alone == -1 ? i : -2;
	memcpy(rest, e, (size_t)n * sizeof(*e));
	if (alone >= 0)
		rest[alone].none = true;
	return alone;
}

bool ex_could_fit(const struct ex_event *e, int n, int ngeneral, int nfixed)
{
	struct ex_event rest[EX_MAX_EVENTS];
	int alone = taken_alone(e, n, rest);
	if (alone >= 0)
		return (e[alone].general & ((1ULL << ngeneral) - 1)) && try_from(rest, n, 0, 0, ngeneral, nfixed, false);
	return alone == -1 && try_from(e, n, 0, 0, ngeneral, nfixed, true);
}

static int weight(const struct ex_event *e)
{
	return __builtin_popcountll(e->general) + __builtin_popcount(e->fixed);
}

static bool kernel_places(const struct ex_event *e, int n, bool general_ok)
{
	uint64_t used_general = 0;
	uint32_t used_fixed = 0;
	/* weight by weight, and in order within one */
	for (int w = 0; w <= 96; w++)
		for (int i = 0; i < n; i++) {
			if (e[i].none || weight(&e[i]) != w)
				continue;
			uint32_t f = e[i].fixed & ~used_fixed;
			uint64_t g = general_ok ? e[i].general & ~used_general : 0;
			if (f)
				used_fixed |= f & -f;
			else if (g)
				used_general |= g & -g;
			else
				return false;
		}
	return true;
}

bool ex_kernel_fits(const struct ex_event *e, int n)
{
	struct ex_event rest[EX_MAX_EVENTS];
	int alone = taken_alone(e, n, rest);
	if (alone >= 0)
		return e[alone].general && kernel_places(rest, n, false);
	return alone == -1 && kernel_places(e, n, true);
}

/* Every split into at most K groups, as restricted growth strings: event
 * I joins a group already opened or opens the next. */
static bool split_from(const struct ex_event *e, int n, int i, int *group, int opened, int k, signed char *fits)
{
	if (i == n) {
		for (int g = 0; g < opened; g++) {
			uint32_t mask = 0;
			for (int j = 0; j < n; j++)
				if (group[j] == g)
					mask |= 1u << j;
			if (fits[mask] < 0) {
				struct ex_event members[EX_MAX_EVENTS];
				int m = 0;
				for (int j = 0; j < n; j++)
					if (mask >> j & 1)
						members[m++] = e[j];
				fits[mask] = ex_kernel_fits(members, m);
			}
			if (!fits[mask])
				return false;
		}
		return true;
	}
	for (int g = 0; g < opened + 1 && g < k; g++) {
		group[i] = g;
		if (split_from(e, n, i + 1, group, g == opened ? opened + 1 : opened, k, fits))
			return true;
	}
	return false;
}

int ex_fewest_groups(const struct ex_event *e, int n)
{
	for (int i = 0; i < n; i++)
		if (!e[i].none && !e[i].general && !e[i].fixed)
			return -1;
	if (n == 0)
		return 0;
	signed char *fits = malloc((size_t)1 << n);
	if (!fits)
		return -2;
	memset(fits, -1, (size_t)1 << n);
	int group[EX_MAX_EVENTS], found = -1;
	for (int k = 1; k <= n && found < 0; k++)
		if (split_from(e, n, 0, group, 0, k, fits))
			found = k;
	free(fits);
	return found;
}
