/*
 * derive.h - derive the rules libpfm's API does not expose, from its encoder.
 */
#ifndef PMUDB_COMPILER_DERIVE_H
#define PMUDB_COMPILER_DERIVE_H

#include "model.h"

/* Fills the derived fields of P and its events.  libpfm must be initialised
 * with LIBPFM_ENCODE_INACTIVE=1 so that PMUs absent from this host encode. */
void derive_pmu(struct pmu *p);

#endif
