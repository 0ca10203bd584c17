/*
 * libpfm_shared_spy.c - for the bench, which measures libpfm as programs
 * link it (its shared library, not the static archive the compiler
 * renames calls in): this program's fopen() answers libpfm's reads of
 * sysfs PMU types through the compiler's spy (compiler/sysfs_spy.c), so
 * that libpfm encodes uncore PMUs here as it does at build time, and
 * hands every other path to libc's.  A test program's own definition,
 * never linked into pmudb or its compiler.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "compiler/sysfs_spy.h"

#define SYSFS_DEVICES "/sys/bus/event_source/devices/"

FILE *fopen(const char *path, const char *mode)
{
	if (!strncmp(path, SYSFS_DEVICES, strlen(SYSFS_DEVICES)))
		return sysfs_spy_fopen(path, mode);
	FILE *(*real)(const char *, const char *) = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
	return real ? real(path, mode) : NULL;
}
