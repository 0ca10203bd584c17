/*
 * fuzz.h - what the fuzz targets of tests/fuzz/ share: the entry point
 * libFuzzer calls (also called by replay.c, the gcc-built driver that
 * replays seeds and regressions under `make check`), the input as a C
 * string or a file, and the seed catalog.
 */
#ifndef PMUDB_FUZZ_H
#define PMUDB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Each target defines it; returns 0 (libFuzzer's contract).  A finding
 * is a crash, a sanitizer report or fuzz_fail(). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* DATA as a NUL-terminated string, malloc'd to its exact size so that
 * AddressSanitizer sees a read past its end; bytes after a NUL inside are
 * kept (the string just ends there). */
char *fuzz_string(const uint8_t *data, size_t size);

/* A path holding exactly DATA: one file per process in fuzz_tempdir(),
 * rewritten on each call.  (Not a memfd's /proc/self/fd/N: SQLite
 * resolves that link to a name it cannot open.) */
const char *fuzz_file(const uint8_t *data, size_t size);

/* A directory of this process's own under $TMPDIR, made on first use and
 * removed at exit. */
const char *fuzz_tempdir(void);
/* Writes DATA to DIR/NAME (NAME may hold '/': the folders are made). */
void fuzz_write(const char *dir, const char *name, const void *data, size_t size);

/* The seed catalog tests/fuzz/seed_catalog.c makes: $PMUDB_FUZZ_SEED, or
 * build/fuzz/seed.db. */
const char *fuzz_seed_catalog(void);

/* With $PMUDB_FUZZ_VERBOSE set, prints a line (what an input was refused
 * with, say: for choosing seeds); else nothing. */
void fuzz_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A finding that is not a crash (a broken promise): prints WHAT and aborts,
 * which libFuzzer and the replay both report. */
_Noreturn void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
