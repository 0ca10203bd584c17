/*
 * xalloc.h - the compiler's allocating string helpers (model.c), apart from
 * the model so that files using the runtime's structures can have them.
 */
#ifndef PMUDB_XALLOC_H
#define PMUDB_XALLOC_H

char *xstrdup(const char *s);	/* NULL stays NULL; aborts on no memory */
char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
