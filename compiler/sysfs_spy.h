/*
 * sysfs_spy.h - which sysfs PMU name stands behind a perf type libpfm used.
 * See sysfs_spy.c for how and why.
 */
#ifndef PMUDB_COMPILER_SYSFS_SPY_H
#define PMUDB_COMPILER_SYSFS_SPY_H

#include <stdbool.h>
#include <stdio.h>

/* Types at or above this were made up by the spy; no kernel hands them out. */
#define SYSFS_SPY_TYPE_BASE 0x7f000000

/* The sysfs PMU name that the made-up TYPE stands for, or NULL. */
const char *sysfs_spy_name(int type);

/* While ABSENT, every such read finds no PMU (ENOENT), as on a machine
 * without it: to see what libpfm does then. */
void sysfs_spy_absent(bool absent);

/* What libpfm's fopen() calls are renamed to in the copy of its archive
 * the compiler links: PATH's PMU type file answered by the spy, any other
 * path opened as fopen() opens it. */
FILE *sysfs_spy_fopen(const char *path, const char *mode);

#endif
