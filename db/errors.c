/*
 * errors.c - error codes, their names and texts, and filling an error.
 */
#include "errors.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const error_names[] = {
	"PFM_SUCCESS", "PFM_ERR_NOTSUPP", "PFM_ERR_INVAL", "PFM_ERR_NOINIT", "PFM_ERR_NOTFOUND",
	"PFM_ERR_FEATCOMB", "PFM_ERR_UMASK", "PFM_ERR_NOMEM", "PFM_ERR_ATTR", "PFM_ERR_ATTR_VAL",
	"PFM_ERR_ATTR_SET", "PFM_ERR_TOOMANY", "PFM_ERR_TOOSMALL",
};

/* libpfm's own words, so that messages read the same as its pfm_strerror(). */
static const char *const error_texts[] = {
	"success", "not supported", "invalid parameters", "pfmlib not initialized", "event not found",
	"invalid combination of model specific features", "invalid or missing unit mask", "out of memory",
	"invalid event attribute", "invalid event attribute value", "attribute value already set",
	"too many parameters", "parameter is too small",
};

_Static_assert(sizeof(error_names) / sizeof(error_names[0]) == 1 - LIBPFM_LAST_ERROR, "one name per code");
_Static_assert(sizeof(error_texts) / sizeof(error_texts[0]) == 1 - LIBPFM_LAST_ERROR, "one text per code");

/* Compared, never negated: -INT_MIN does not exist. */
static bool is_libpfm_code(int code)
{
	return code <= 0 && code >= LIBPFM_LAST_ERROR;
}

const char *pmudb_error_name(int code)
{
	if (code == PMUDB_ERR_CATALOG)
		return "PMUDB_ERR_CATALOG";
	if (code == PMUDB_ERR_NOCPU)
		return "PMUDB_ERR_NOCPU";
	return is_libpfm_code(code) ? error_names[-code] : "PMUDB_ERR_UNKNOWN";
}

const char *pmudb_strerror(int code)
{
	if (code == PMUDB_ERR_CATALOG)
		return "catalog error";
	if (code == PMUDB_ERR_NOCPU)
		return "no event table for this CPU";
	return is_libpfm_code(code) ? error_texts[-code] : "unknown error code";
}

int set_error_v(struct pmudb_error *err, int code, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	for (unsigned char *p = (unsigned char *)err->message; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = '?';
	return code;
}

int set_error(struct pmudb_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_error_v(err, code, fmt, ap);
	va_end(ap);
	return code;
}
