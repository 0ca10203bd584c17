/*
 * xalloc.h - the compiler's allocating helpers (model.c): strings and
 * growable arrays, apart from the model so that files using the runtime's
 * structures can have them.
 */
#ifndef PMUDB_XALLOC_H
#define PMUDB_XALLOC_H

#include <stddef.h>
#include <string.h>

/* A growable array of T: items, count, capacity.  See vec_push(). */
#define VEC(T) struct { T *items; size_t count, cap; }

/* Makes room for one more item and returns a pointer to it, zeroed. */
#define vec_push(v) \
	((v)->count == (v)->cap ? vec_grow_((void **)&(v)->items, &(v)->cap, sizeof(*(v)->items)) : (void)0, \
	 memset(&(v)->items[(v)->count], 0, sizeof(*(v)->items)), &(v)->items[(v)->count++])

void vec_grow_(void **items, size_t *cap, size_t item_size);

char *xstrdup(const char *s);	/* NULL stays NULL; aborts on no memory */
char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
