/*
 * family_check.h - once the tables are in: every PMU has an encoding family.
 */
#ifndef PMUDB_COMPILER_FAMILY_CHECK_H
#define PMUDB_COMPILER_FAMILY_CHECK_H

#include <stdio.h>

#include "compiler/model.h"

/* 0 when every PMU has a family.  Otherwise writes one line per PMU
 * without one to OUT (all of them, numbered boxes of one kind on one
 * line), each naming the file to edit, and returns -1 with *error
 * malloc'd: one line counting them. */
int families_check(struct model *m, FILE *out, char **error);

#endif
