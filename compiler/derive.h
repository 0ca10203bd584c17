/*
 * derive.h - derive the rules libpfm's API does not expose, from its encoder.
 */
#ifndef PMUDB_COMPILER_DERIVE_H
#define PMUDB_COMPILER_DERIVE_H

#include "compiler/model.h"
#include "compiler/probe.h"

/* Fills the derived fields of P and its events.  libpfm must be initialised
 * with LIBPFM_ENCODE_INACTIVE=1 so that PMUs absent from this host encode. */
/* Where the kernel gives a PMU no fixed type, none (see derive.c). */
void derive_kernel_types(struct model *m);
void derive_pmu(struct pmu *p);

/* P's table is TWIN's (twins.h), whose rules are derived: takes them, and
 * asks libpfm only for P's own perf type and privilege levels, checking
 * on the way that each event's base string encodes on P as on TWIN (the
 * kernel PMU name aside).  False, with P untouched, when one does not:
 * then P needs derive_pmu(). */
bool derive_pmu_twin(struct pmu *p, const struct pmu *twin);

/* Shared by derive.c and derive_twin.c. */
char *derive_event_string(const struct pmu *p, const struct event *ev, int umask);	/* umask -1: bare */
void derive_note_perf_type(struct pmu *p, struct event *ev, const struct probe *q);
unsigned derive_supported_plm(const char *base);

#endif
