/*
 * sysfs_spy.c - learns which kernel PMU names libpfm looks up in sysfs.
 *
 * libpfm finds the perf_event_attr.type of uncore (and some core) PMUs by
 * reading /sys/bus/event_source/devices/NAME/type, and its public API does
 * not say which NAME.  The compiler links a copy of libpfm's static archive
 * whose calls to fopen() call sysfs_spy_fopen() instead (mk/build.mk makes
 * it with objcopy --redefine-sym): libpfm's calls alone, never another
 * caller's.  Such a read is answered with a made-up type number that
 * stands for NAME, so that
 *   - the compiler learns NAME from the type libpfm puts in the attr, and
 *   - every PMU encodes the same way whatever the build host has in sysfs,
 *     which keeps the catalog independent of the machine that builds it.
 * Every other path goes to the real fopen.  While told the PMU is absent,
 * such a read fails as on a machine without it.
 */
#include "compiler/sysfs_spy.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYSFS_PREFIX "/sys/bus/event_source/devices/"
#define SYSFS_SUFFIX "/type"
#define MAX_NAMES 4096

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *names[MAX_NAMES];
static int name_count;
static bool absent;

void sysfs_spy_absent(bool a)
{
	pthread_mutex_lock(&lock);
	absent = a;
	pthread_mutex_unlock(&lock);
}

static int type_for_name(const char *name, size_t len)
{
	int found = -1;
	pthread_mutex_lock(&lock);
	for (int i = 0; i < name_count && found < 0; i++)
		if (strlen(names[i]) == len && !memcmp(names[i], name, len))
			found = i;
	if (found < 0 && name_count < MAX_NAMES) {
		names[name_count] = strndup(name, len);
		if (names[name_count])
			found = name_count++;
	}
	pthread_mutex_unlock(&lock);
	return found < 0 ? -1 : SYSFS_SPY_TYPE_BASE + found;
}

const char *sysfs_spy_name(int type)
{
	int i = type - SYSFS_SPY_TYPE_BASE;
	const char *name = NULL;
	pthread_mutex_lock(&lock);
	if (i >= 0 && i < name_count)
		name = names[i];
	pthread_mutex_unlock(&lock);
	return name;
}

FILE *sysfs_spy_fopen(const char *path, const char *mode)
{
	size_t plen = strlen(SYSFS_PREFIX), slen = strlen(SYSFS_SUFFIX);
	size_t len = strlen(path);

	if (len > plen + slen && !strncmp(path, SYSFS_PREFIX, plen)
	    && !strcmp(path + len - slen, SYSFS_SUFFIX)) {
		pthread_mutex_lock(&lock);
		bool none = absent;
		pthread_mutex_unlock(&lock);
		if (none) {
			errno = ENOENT;
			return NULL;
		}
		int type = type_for_name(path + plen, len - plen - slen);
		if (type >= 0) {
			/* In memory: a temporary file costs system calls per probe. */
			FILE *f = fmemopen(NULL, 32, "w+");
			if (f) {
				fprintf(f, "%d\n", type);
				rewind(f);
			}
			return f;
		}
	}
	return fopen(path, mode);
}
