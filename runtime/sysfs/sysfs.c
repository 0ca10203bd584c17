/*
 * sysfs.c - where this machine's kernel PMUs are listed, and reading what
 * they say there (see sysfs.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/sysfs/sysfs.h"

const char *sysfs_devices_dir(void)
{
	const char *d = getenv("PMUDB_SYSFS_DEVICES");
	return d && *d ? d : SYSFS_DEFAULT_DEVICES;
}

bool sysfs_pmu_name_valid(const char *name)
{
	size_t n = name ? strnlen(name, 256) : 0;
	return n > 0 && n < 256 && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

int sysfs_read_small(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = 0;
	for (;;) {
		ssize_t n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == cap - 1) {	/* full: anything more means too long */
			char extra;
			ssize_t more = read(fd, &extra, 1);
			close(fd);
			buf[len] = '\0';
			return more > 0 ? -EFBIG : (int)len;
		}
	}
	close(fd);
	buf[len] = '\0';
	return (int)len;
}

bool sysfs_parse_uint(const char *s, long limit, long *v, const char **end)
{
	long x = 0;
	const char *p = s;
	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		x = x * 10 + (*p - '0');
		if (x > limit)
			return false;
	}
	*v = x;
	*end = p;
	return true;
}

bool sysfs_only_space(const char *p)
{
	for (; *p; p++)
		if (*p != '\n' && *p != ' ' && *p != '\t')
			return false;
	return true;
}

/* The type in kernel PMU NAME's type file: >= 0, -1 when there is none,
 * -2 when it is refused. */
static int type_file(const char *name, struct sysfs_file *file)
{
	file->read_error = 0;
	file->text[0] = '\0';
	if (snprintf(file->path, sizeof(file->path), "%s/%s/type", sysfs_devices_dir(), name)
	    >= (int)sizeof(file->path))
		return -1;
	int n = sysfs_read_small(file->path, file->text, sizeof(file->text));
	if (n == -ENOENT || n == -ENOTDIR)
		return -1;
	if (n < 0) {
		file->read_error = -n;
		return -2;
	}
	long v;
	const char *end;
	if (!sysfs_parse_uint(file->text, INT_MAX, &v, &end) || !sysfs_only_space(end))
		return -2;
	return (int)v;
}

int sysfs_pmu_type(const char *name, struct sysfs_file *file)
{
	if (!sysfs_pmu_name_valid(name))
		return -1;
	int type = type_file(name, file);
	if (type == -1) {
		char first[260];
		snprintf(first, sizeof(first), "%s_0", name);
		type = type_file(first, file);
	}
	return type;
}
