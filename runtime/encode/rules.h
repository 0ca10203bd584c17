/*
 * rules.h - the unit-mask rules derived at build time, and where modifier
 * values land (rules.c).
 */
#ifndef PMUDB_RULES_H
#define PMUDB_RULES_H

#include "runtime/encode/request.h"

/* In libpfm's order of checks: what its encoders refuse while reading the
 * attributes (unit masks that exclude each other, modifier ranges) and
 * what they refuse once all are read (check_rules), then defaults and
 * implied values, then hidden modifiers. */
int check_rules(struct request *rq);
/* libpfm's refusal of V for MOD, which checks its range: 0 when within. */
static inline int range_refusal(const struct modifier *mod, uint64_t v)
{
	if (v >= mod->min && v <= mod->max)
		return 0;
	return mod->range_error ? mod->range_error : PMUDB_ERR_ATTR_VAL;
}
/* libpfm's refusal of unit masks X and Y (positions) of EV, or NULL. */
const struct group_rule *pair_rule(const struct event *ev, int x, int y);
int add_umask_defaults(struct request *rq);
int check_hidden_modifiers(struct request *rq);
/* After encoding: a modifier that needs another one non-zero (e=1, c). */
int check_requirements(struct request *rq);

/* Sets every PMU modifier that is given, and those implied by a unit mask
 * when IMPLIED (encoders that measured the registers have them already). */
int apply_pmu_modifiers(struct request *rq, bool implied);
/* Sets the bits modifier M sets whenever it is given. */
void apply_presence(struct request *rq, const struct modifier *m);
/* Puts VALUE into the fields modifier M lands in (and, when VALUE is not 0,
 * the bits M sets then). */
void apply_landings(struct request *rq, const struct modifier *m, uint64_t value);

/* The value modifier M ended up with in the registers (where it lands in
 * none: its value, given, implied or default). */
uint64_t register_value(struct request *rq, int m);
/* The value of modifier M: given, implied by a unit mask, or its default. */
uint64_t modifier_value(const struct request *rq, int m);
/* The modifiers the asked unit masks imply (a mask), their values into
 * VALUES (by position; the first unit mask asked wins). */
uint64_t implied_modifiers(const struct request *rq, uint64_t *values);

/* Appends ":name=value" for every PMU modifier, as libpfm's encoders do:
 * the value read back from the registers. */
void fstr_pmu_modifiers(struct request *rq);

#endif
