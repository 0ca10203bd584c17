/*
 * unpack.h - reading the packed blobs (packed.h) into catalog.h's
 * structures, every field checked.  Shared by the runtime and by the
 * compiler, which refuses to write a blob this would refuse.
 */
#ifndef PMUDB_UNPACK_H
#define PMUDB_UNPACK_H

#include <stddef.h>

#include "catalog/model.h"

/* Indexes T->blob (T->size bytes): the offsets of its events and modifier
 * sets, and the events' names.  0, or -1 with *WHY saying what is wrong.
 * Everything goes into T's arena. */
int unpack_table(struct event_table *t, const char **why);

/* Decodes event E (below t->nevents) of an indexed table, with its
 * modifier set; 0 and *OUT set, or -1 with *WHY set.  What the runtime
 * lays out for its own use (the fstr form) is not made here. */
int unpack_event(struct event_table *t, int e, struct event **out, const char **why);

/* Reads the aliases blob of T (unpacked, SIZE bytes; it must outlive T's
 * use of it) into T->aliases and its index.  0, or -1 with *WHY set. */
int unpack_aliases(struct event_table *t, const unsigned char *blob, size_t size, const char **why);

/* Checks the directory's header and sizes; 0 or -1. */
int unpack_directory(const unsigned char *dir, size_t n, uint32_t *npmus, uint32_t *nslots, uint32_t *ntables);
/* Slot H (below nslots) of a checked directory: a PMU index + 1, or 0. */
uint32_t directory_slot(const unsigned char *dir, uint32_t h);
/* The name and pmu row id of entry INDEX (below npmus) of a checked
 * directory; 0 or -1. */
int unpack_directory_entry(const unsigned char *dir, size_t n, uint32_t nslots, uint32_t npmus, int index,
			   const char **name, int64_t *pmu_id);
/* Entry INDEX of a checked directory of NTABLES event tables read into P:
 * its name and row (strings in place: the directory must outlive P),
 * with the id of its event table in *TABLE_ID.  P's other fields are
 * zeroed.  0, or -1 with *WHY saying what is wrong. */
int unpack_directory_pmu(const unsigned char *dir, size_t n, uint32_t nslots, uint32_t npmus, uint32_t ntables,
			 int index, struct pmu *p, int64_t *table_id, const char **why);

#endif
