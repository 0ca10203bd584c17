/*
 * vendor_newest.h - several sources with one µarch: the newest list is
 * encoded, the others are kept as its history (vendor_newest.c).
 */
#ifndef PMUDB_COMPILER_VENDOR_NEWEST_H
#define PMUDB_COMPILER_VENDOR_NEWEST_H

#include <stdbool.h>

#include "compiler/model.h"

/* Takes the µarchs FROM read from source SOURCE (an index into
 * M->sources) into M: a new µarch as it is, one M has (by name, or by a
 * CPU both list) as the newer of the two lists, the other kept in its
 * history with what changed.  FROM's warnings and notes become M's notes;
 * FROM is left empty.  Returns 0. */
int vendor_newest_take(struct model *m, struct model *from, int source, char **error);

/* Whether list A is newer than list B, as they state it: the higher
 * version where both state one in numbers, else the later date where both
 * state one, else the one that states a date; else A (the source given
 * later). */
bool vendor_list_newer(const struct vendor_list *a, const struct vendor_list *b);

#endif
