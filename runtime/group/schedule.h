/*
 * schedule.h - placing a group of events on one PMU's counters, exactly:
 * whether they fit at once (a bipartite matching of events to counters,
 * the fixed counters tried first as the kernel does), which events compete
 * when they do not (a set with fewer counters than members, Hall's
 * condition), and the smallest split into groups that each fit.  Pure
 * arithmetic on counter masks: api/group.c finds the masks in the catalog.
 */
#ifndef PMUDB_RUNTIME_GROUP_SCHEDULE_H
#define PMUDB_RUNTIME_GROUP_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

/* Up to this many events of one PMU are split by an exact search over
 * their subsets (3^n steps); more are split first-fit, not proven
 * smallest. */
#define SCHED_EXACT_MAX 16
#define SCHED_MAX_EVENTS 256

/* Counter numbers in an assignment: general counter n is n, fixed counter
 * n is SCHED_FIXED + n, none is -1. */
#define SCHED_FIXED 64

struct sched_event {
	uint64_t general;	/* bit n: general counter n may count it */
	uint32_t fixed;		/* bit n: fixed counter n may */
	bool alone;		/* no other event may be on a general counter beside it */
	bool no_counter;	/* needs none (software, free-running) */
};

/* Whether Linux places EV[0..N) at once; when it does, COUNTER[i] is
 * where event i goes, as Linux places it (COUNTER may be NULL).  N at most
 * SCHED_MAX_EVENTS. */
bool sched_fits(const struct sched_event *ev, int n, int *counter);

/* Whether the counters could hold EV[0..N) at once, whatever the order
 * (a maximum matching): true where sched_fits is, and rarely where it is
 * not (the kernel's first choice for one event blocks another's only
 * counter). */
bool sched_fits_exact(const struct sched_event *ev, int n);

/* When the counters cannot hold them: marks in COMPETES a set of events
 * that have fewer counters among them than members (or the events taken
 * alone beside others), and returns how many counters that set has; 0
 * and none marked when they could (sched_fits_exact). */
int sched_competing(const struct sched_event *ev, int n, bool *competes);

/* The smallest split of EV[0..N) into groups that each fit (sched_fits): PART[i] is the
 * group of event i (0 ...), groups numbered by their first event.  Returns
 * the number of groups, or -1 when an event has no counter at all (PART[i]
 * is -1 for it).  *EXACT: the number is proven smallest (N at most
 * SCHED_EXACT_MAX); else it is first-fit's. */
int sched_split(const struct sched_event *ev, int n, int *part, bool *exact);

#endif
