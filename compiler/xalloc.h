/*
 * xalloc.h - the compiler's string helpers (model.c), apart from the model
 * so that files using the runtime's structures can have them.
 */
#ifndef PMUDB_XALLOC_H
#define PMUDB_XALLOC_H

char *xstrdup(const char *s);	/* NULL stays NULL; aborts on no memory */
char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* S with each control character made '?', in place; returns S (NULL stays
 * NULL).  An error quotes a file's bytes (a YAML key, the text near a JSON
 * syntax error), which may hold a line break: the error stays one line. */
char *one_line(char *s);

#endif
