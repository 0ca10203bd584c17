/*
 * blobs.h - the packed blobs of packed.h, unpacked by catalog/unpack.c as
 * the runtime unpacks them, with what the runtime then uses unchecked
 * checked: for fuzz_packed (blobs given as bytes) and fuzz_image (blobs
 * found in an image).  A blob the reader refuses must say why; one it
 * accepts must hold what pmudb's limits promise, or fuzz_fail().
 */
#ifndef PMUDB_FUZZ_BLOBS_H
#define PMUDB_FUZZ_BLOBS_H

#include <stddef.h>

/* An event table: unpack_table, then unpack_event on every event. */
void fuzz_blob_table(const unsigned char *blob, size_t size);

/* An aliases blob of a table of NEVENTS events: unpack_aliases. */
void fuzz_blob_aliases(unsigned nevents, const unsigned char *blob, size_t size);

/* The PMU directory: unpack_directory, every slot and entry, with the PMU
 * row each carries. */
void fuzz_blob_directory(const unsigned char *dir, size_t size);

#endif
