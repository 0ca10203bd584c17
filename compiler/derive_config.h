/*
 * derive_config.h - the config register of families whose encoder places
 * what the build measured, not libpfm's codes (derive_config.c).
 */
#ifndef PMUDB_COMPILER_DERIVE_CONFIG_H
#define PMUDB_COMPILER_DERIVE_CONFIG_H

#include "compiler/probe.h"

/* Sets EV's config_base and each unit mask's config_bits from BARE (EV
 * alone) and SINGLES (EV with each unit mask alone, by position). */
void derive_config(struct event *ev, const struct probe *bare, const struct probe *singles);

/* Does Q, an encoding of EV (a pair of unit masks), have the config its
 * final unit masks' measured bits give?  (Where not, pmudb would differ
 * from libpfm.)  True when EV's config is not measured. */
bool config_pair_agrees(const struct event *ev, const struct probe *q);

#endif
