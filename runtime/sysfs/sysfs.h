/*
 * sysfs.h - where this machine's kernel PMUs are listed, and reading what
 * they say there.
 *
 * /sys/bus/event_source/devices, or the directory $PMUDB_SYSFS_DEVICES
 * names: a stand-in for tests, for a copy of another machine's tree, and
 * for the compiler, which encodes the catalog's bare strings as they would
 * encode on a machine with no kernel PMUs (compiler/name_encodings.c).
 * Every room that reads sysfs asks here, so one setting moves them all.
 *
 * Sysfs is untrusted text: names are one path component, files are read
 * with a size bound, numbers parsed strictly.
 */
#ifndef PMUDB_RUNTIME_SYSFS_H
#define PMUDB_RUNTIME_SYSFS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define SYSFS_DEFAULT_DEVICES "/sys/bus/event_source/devices"

/* The devices directory: never NULL, never empty. */
const char *sysfs_devices_dir(void);

/* Whether NAME is one path component: the catalog is data, and a name like
 * "../../x" must not walk out of the devices directory. */
bool sysfs_pmu_name_valid(const char *name);

/* Reads the whole of a small file into BUF (NUL-terminated).  Returns its
 * length, -ENOENT when it does not exist, -EFBIG when it does not fit, or
 * another -errno. */
int sysfs_read_small(const char *path, char *buf, size_t cap);

/* Strict decimal: digits only, no sign, at most LIMIT.  *END past them. */
bool sysfs_parse_uint(const char *s, long limit, long *v, const char **end);

/* Whether P holds only spaces, tabs and newlines (or nothing). */
bool sysfs_only_space(const char *p);

/* What sysfs_pmu_type read of a file it refuses. */
struct sysfs_file {
	char path[PATH_MAX];
	int read_error;		/* errno of the read (EFBIG: too long), or 0 */
	char text[64];		/* what it holds, when read */
};

/* The perf type of kernel PMU NAME: its type file, or box 0's for a kernel
 * PMU of numbered boxes (uncore_cha_0 ...), which perf's uncore_cha/.../
 * takes by prefix.  >= 0; -1 when this machine has neither (or NAME is no
 * sysfs name); -2 when the file is unreadable or not a perf type, as
 * *FILE says. */
int sysfs_pmu_type(const char *name, struct sysfs_file *file);

#endif
