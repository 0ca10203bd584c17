/*
 * pages.h - the memory arenas take their chunks from.  A process's first
 * megabyte of chunks comes from malloc; after that, chunks are carved
 * from 2 MB regions the kernel is asked to back with one huge page each.
 *
 * Why: unpacking events touches fresh memory, and each 4 KB page of it
 * costs the process a fault on first touch.  A batch that unpacks every
 * core event (some 12 MB) took 3,000 such faults, a quarter of its CPU
 * time on a virtual machine, where a fault costs some 12 us; the same
 * memory in huge pages takes six.  A short process never reaches the
 * first region, so it pays nothing for memory it would not touch.
 *
 * A region is unmapped when the last chunk carved from it is freed.  Under
 * AddressSanitizer every chunk comes from malloc, which it watches.
 */
#ifndef PMUDB_PAGES_H
#define PMUDB_PAGES_H

#include <stdbool.h>
#include <stddef.h>

/* N bytes, not zeroed, aligned for any type, or NULL; *FROM_REGION says where they came from,
 * for pages_free. */
void *pages_alloc(size_t n, bool *from_region);
void pages_free(void *p, bool from_region);

/* N zeroed bytes, for a structure a short process touches little of (a
 * handle, mostly caches): fresh pages the kernel zeroes as each is first
 * touched, where calloc would clear them all; calloc's under
 * AddressSanitizer, and scanned by LeakSanitizer either way.  NULL when
 * out of memory.  Freed with pages_zeroed_free and the same N. */
void *pages_zeroed(size_t n);
void pages_zeroed_free(void *p, size_t n);

#endif
