/*
 * libpfm_shared_spy.c - for the bench, which measures libpfm as programs
 * link it (its shared library, not the static archive the compiler
 * renames calls in): libpfm's own reads of sysfs PMU types are answered
 * by the compiler's spy (compiler/sysfs_spy.c), so that libpfm encodes
 * uncore PMUs here as it does at build time.  The bench must define
 * fopen() to see them; it tells libpfm's calls by their caller's object,
 * and hands every other call, pmudb's among them, to libc's fopen.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "compiler/sysfs_spy.h"

#define SYSFS_DEVICES "/sys/bus/event_source/devices/"

/* Whether ADDRESS is code of libpfm's shared library. */
static int in_libpfm(void *address)
{
	Dl_info info;
	const char *base;
	return dladdr(address, &info) && info.dli_fname && (base = strrchr(info.dli_fname, '/'))
	       && !strncmp(base + 1, "libpfm.so", 9);
}

FILE *fopen(const char *path, const char *mode)
{
	if (!strncmp(path, SYSFS_DEVICES, strlen(SYSFS_DEVICES)) && in_libpfm(__builtin_return_address(0)))
		return sysfs_spy_fopen(path, mode);
	FILE *(*real)(const char *, const char *) = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
	return real ? real(path, mode) : NULL;
}
