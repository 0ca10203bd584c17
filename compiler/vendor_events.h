/*
 * vendor_events.h - catalog events from the entries of a vendor list (see
 * vendor_events.c): grouping EVENT.UMASK entries into events, and each
 * entry's fields as the family's encoder takes them.
 */
#ifndef PMUDB_COMPILER_VENDOR_EVENTS_H
#define PMUDB_COMPILER_VENDOR_EVENTS_H

#include "compiler/model.h"

#define MSR_OFFCORE_0 0x1a6
#define MSR_OFFCORE_1 0x1a7
#define MSR_LOAD_LATENCY 0x3f6
#define MSR_FRONTEND 0x3f7

/* The perf_event_attr config and config1 the vendor states for V on a PMU of
 * encoding family FAMILY (perf's sysfs format: event, umask, edge, any, inv,
 * cmask; offcore_rsp, ldlat, frontend in config1).  Returns -1 for a family
 * it does not know. */
int vendor_config(const char *family, const struct vendor_event *v, uint64_t *config, uint64_t *config1);

/* The entries of one event: EVENT.UMASK ones, and the one named EVENT alone. */
struct vendor_group {
	char *name;		/* EVENT */
	VEC(size_t) entries;	/* indexes into the µarch's events, EVENT.UMASK ones */
	long bare;		/* the entry named EVENT alone, or -1 */
	int depth;		/* how many of the entries' dotted parts EVENT holds: 1, or 2
				 * when a group too large for one event was split */
};

struct vendor_groups { struct vendor_group *items; size_t count, cap; };

/* Groups the entries of U of core type UNIT (NULL: those without one), in
 * the order of the list; an entry listed twice is noted and left out.  A
 * group with more entries than an event may hold unit masks is split by
 * their second dotted part (Westmere-EX's 295 OFFCORE_RESPONSE.X.Y become
 * OFFCORE_RESPONSE_X events); their names stay typable whole. */
void vendor_group_entries(struct model *m, const struct vendor_uarch *u, const char *unit, struct vendor_groups *gs);
void vendor_free_groups(struct vendor_groups *gs);

/* Appends to P the event of group G, with the modifiers (and their measured
 * rules) of an event of LIKE that fits it; returns its position. */
int vendor_make_event(struct model *m, struct pmu *p, const struct pmu *like, const struct vendor_uarch *u,
		      const struct vendor_group *g);

/* The unit-mask name of a vendor name: after the first '.', further dots as
 * '_' (OCR.DEMAND_DATA_RD.ANY_RESPONSE: DEMAND_DATA_RD_ANY_RESPONSE). */
char *vendor_umask_name(const char *vendor_name);
/* The same after the first DEPTH dotted parts (a split group's). */
char *vendor_umask_name_after(const char *vendor_name, int depth);

/* Intel: config bits 8-31 of V, shifted down as libpfm's unit-mask codes
 * hold them; and UM's code, hard-wired values and filter bits on EV. */
uint64_t vendor_intel_upper_bits(const struct vendor_event *v);
void vendor_intel_umask(struct event *ev, struct umask *um, const struct vendor_event *v);

/* Whether EV's last unit mask, just made from V, has the name of an
 * earlier one (A.B.C and A.B_C both give B_C): then no string could reach
 * it, and it is taken back with a note; where it sets what the first
 * sets (*SAME_FIELDS), V's name becomes another name of the first. */
bool vendor_umask_repeated(struct model *m, struct event *ev, const struct vendor_event *v, bool *same_fields);

/* Hard-wires EV's modifier NAME to VALUE for unit mask U; false when EV
 * has no such modifier. */
bool vendor_hardwire(struct event *ev, struct umask *u, const char *name, uint64_t value);

#endif
