/*
 * errors.h - filling a struct pmudb_error.
 */
#ifndef PMUDB_ERRORS_H
#define PMUDB_ERRORS_H

#include "pmudb.h"

/* libpfm's error codes run from 0 to this. */
#define LIBPFM_LAST_ERROR PMUDB_ERR_TOOSMALL

#include <stdarg.h>

/* Fills ERR (when not NULL) with CODE and a printf-style message, made one
 * line: a control character in it (a newline from a damaged catalog's text
 * or SQLite's quote of it) becomes '?'.  Returns CODE. */
int set_error(struct pmudb_error *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int set_error_v(struct pmudb_error *err, int code, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
/* The same message as set_error(ERR, CODE, "%s: " FMT, LEAD, ...), LEAD
 * being one of the library's texts (pmudb_strerror's), shorter than 100
 * bytes: copied as it is, not formatted. */
int set_error_after(struct pmudb_error *err, int code, const char *lead, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
/* The N bytes at S made one line, in place: each control character
 * becomes '?', as in set_error's messages.  The compiler's errors, which
 * quote the bytes of table and vendor files, go through it too. */
void text_one_line(char *s, size_t n);

#endif
