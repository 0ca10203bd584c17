/*
 * exhaustive.h - the tests' own answers to "do these events fit", by
 * trying everything: every assignment of events to counters, every split
 * into groups.  Written from the kernel's rules as the tests read them,
 * without the library's scheduler (runtime/group/schedule.c), which the
 * tests hold against these.
 */
#ifndef PMUDB_TESTS_EXHAUSTIVE_H
#define PMUDB_TESTS_EXHAUSTIVE_H

#include <stdbool.h>
#include <stdint.h>

/* At most this many counters (general + fixed) and events. */
#define EX_MAX_COUNTERS 16
#define EX_MAX_EVENTS 14

struct ex_event {
	uint64_t general;	/* bit n: general counter n */
	uint32_t fixed;		/* bit n: fixed counter n */
	bool alone;		/* no other event on a general counter beside it */
	bool none;		/* needs no counter */
};

/* Whether some assignment puts each event on a counter of its own: every
 * one is tried.  NGENERAL and NFIXED: the PMU's counters. */
bool ex_could_fit(const struct ex_event *e, int n, int ngeneral, int nfixed);

/* Whether Linux's scheduler places them (arch/x86/events/core.c,
 * perf_assign_events): by weight (the number of counters an event may
 * use, fewest first, then in order), each on its first free fixed
 * counter, else its first free general one; none moved once placed.  An
 * event alone takes the general counters: beside it the others fixed. */
bool ex_kernel_fits(const struct ex_event *e, int n);

/* The fewest groups EX_KERNEL_FITS accepts each of, by trying every split
 * into 1, 2, ... groups; -1 when an event has no counter. */
int ex_fewest_groups(const struct ex_event *e, int n);

#endif
