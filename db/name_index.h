/*
 * name_index.h - case-insensitive lookup of names by hashing, for the PMUs
 * of a catalog and the events of a table.  Names that appear twice keep
 * the first position, as libpfm's lookups do.
 */
#ifndef PMUDB_NAME_INDEX_H
#define PMUDB_NAME_INDEX_H

#include <stdint.h>

/* Returns the name at position I of the indexed list. */
typedef const char *(*name_at_fn)(const void *list, int i);

struct name_index {
	uint32_t mask;		/* slot count - 1 */
	int32_t *slots;		/* position + 1, or 0 for empty */
};

/* Indexes the COUNT names of LIST; names NULL are left out.  0 or -1. */
int name_index_build(struct name_index *ix, const void *list, int count, name_at_fn name_at);
/* The position of NAME, or -1. */
int name_index_find(const struct name_index *ix, const void *list, name_at_fn name_at, const char *name);
void name_index_free(struct name_index *ix);

#endif
