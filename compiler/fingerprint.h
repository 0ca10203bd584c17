/*
 * fingerprint.h - what a catalog was built from, as short hashes written to
 * its meta table: libpfm's enumeration (its version string does not tell
 * 4.13.0 from the current source, which still installs libpfm.so.4.13.0),
 * the YAML tables and the vendor lists.
 *
 * 64-bit FNV-1a, printed as 16 hex digits: enough to tell inputs apart,
 * not a defence against anyone forging one.
 */
#ifndef PMUDB_COMPILER_FINGERPRINT_H
#define PMUDB_COMPILER_FINGERPRINT_H

#include "compiler/model.h"

/* Everything ingested from libpfm's API: PMUs, events, unit masks and
 * modifiers with their codes, flags and descriptions (the libpfm PMUs of
 * M, before any table changes them).  Malloc'd hex. */
char *fingerprint_libpfm(const struct model *m);

/* The bytes of each file of PATHS (COUNT of them), with its base name.
 * NULL when one cannot be read. */
char *fingerprint_files(const char *const *paths, size_t count);

/* The vendor lists as read: every µarch, its events' fields and the CPUs
 * its mapfile rows name.  NULL when there is no vendor tree. */
char *fingerprint_vendor(const struct model *m);

#endif
