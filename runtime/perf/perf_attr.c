/*
 * perf_attr.c - from an encoding to the struct perf_event_attr that
 * perf_event_open(2) takes, and the kernel PMU facts needed to open it here:
 * its perf type and the CPUs an uncore PMU counts on, read from sysfs.
 *
 * Everything read from sysfs is treated as untrusted text: files are read
 * with a size bound, numbers parsed strictly, lists bounded, and nothing
 * malformed is guessed at.  Errors are returned, never printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "runtime/perf/encoding_check.h"
#include "runtime/sysfs/sysfs.h"
#include "pmudb.h"

/* A sysfs attribute is at most a page; a longer file is not sysfs's. */
#define SYSFS_MAX 4096

static int fail(struct pmudb_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct pmudb_error *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		err->code = code;
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return code;
}

/* Up to 40 bytes of untrusted TEXT, quotable in a one-line message:
 * newlines written \\n, other control and non-ASCII bytes '?'. */
static const char *quotable(const char *text, char buf[static 96])
{
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)text; *p && o < 40; p++) {
		if (*p == '\n') {
			buf[o++] = '\\';
			buf[o++] = 'n';
		} else {
			buf[o++] = *p >= 0x20 && *p < 0x7f ? (char)*p : '?';
		}
	}
	buf[o] = '\0';
	return buf;
}

const char *pmudb_sysfs_devices(void)
{
	return sysfs_devices_dir();
}

int pmudb_parse_cpulist(const char *text, int *cpus, int max, struct pmudb_error *err)
{
	if (!text || max < 0 || (max > 0 && !cpus))
		return fail(err, PMUDB_ERR_INVAL, "invalid parameters");
	const char *p = text;
	char q[96];
	long total = 0;
	/* each CPU once: the kernel never names one twice, and a list that
	 * does would have it counted twice (every CPU is visited once before
	 * a repeat is refused: linear in the list) */
	uint64_t seen[(PMUDB_CPU_LIMIT + 1) / 64] = { 0 };
	while (!sysfs_only_space(p)) {
		long lo, hi;
		const char *end;
		if (!sysfs_parse_uint(p, PMUDB_CPU_LIMIT, &lo, &end))
			return fail(err, PMUDB_ERR_INVAL, "CPU list \"%s\": at offset %ld: expected a CPU number from 0 to %d",
				    quotable(text, q), (long)(p - text), PMUDB_CPU_LIMIT);
		hi = lo;
		p = end;
		if (*p == '-' && !sysfs_parse_uint(p + 1, PMUDB_CPU_LIMIT, &hi, &end))
			return fail(err, PMUDB_ERR_INVAL, "CPU list \"%s\": at offset %ld: expected the end of a range",
				    quotable(text, q), (long)(p + 1 - text));
		else if (*p == '-')
			p = end;
		if (hi < lo)
			return fail(err, PMUDB_ERR_INVAL, "CPU list \"%s\": range %ld-%ld runs backwards", quotable(text, q), lo,
				    hi);
		/* past MAX the CPUs are only counted */
		for (long c = lo, at = total; c <= hi; c++, at++) {
			if (seen[c / 64] >> (c % 64) & 1)
				return fail(err, PMUDB_ERR_INVAL, "CPU list \"%s\": CPU %ld is named twice", quotable(text, q), c);
			seen[c / 64] |= 1ull << (c % 64);
			if (at < max)
				cpus[at] = (int)c;
		}
		total += hi - lo + 1;
		if (*p == ',' && sysfs_only_space(p + 1))
			return fail(err, PMUDB_ERR_INVAL, "CPU list \"%s\": at offset %ld: a ',' with no CPU after it",
				    quotable(text, q), (long)(p - text));
		if (*p == ',')
			p++;
		else if (!sysfs_only_space(p))
			return fail(err, PMUDB_ERR_INVAL, "CPU list \"%s\": at offset %ld: unexpected '%c'",
				    quotable(text, q), (long)(p - text), *p >= 0x20 && *p < 0x7f ? *p : '?');
		if (total > INT_MAX / 2)
			return fail(err, PMUDB_ERR_INVAL, "CPU list \"%s\": too many CPUs", quotable(text, q));
	}
	return (int)total;
}

static int resolve_type(const struct pmudb_encoding *enc, struct pmudb_error *err)
{
	int type = enc->type;
	if (enc->sysfs_pmu[0]) {
		if (!sysfs_pmu_name_valid(enc->sysfs_pmu))
			return fail(err, PMUDB_ERR_INVAL, "kernel PMU name \"%.64s\" is not a sysfs name", enc->sysfs_pmu);
		struct sysfs_file file;
		char q[96];
		int t = sysfs_pmu_type(enc->sysfs_pmu, &file);
		if (t == -2 && file.read_error)
			return fail(err, PMUDB_ERR_INVAL, "%s: %s", file.path, strerror(file.read_error));
		if (t == -2)
			return fail(err, PMUDB_ERR_INVAL, "%s: not a perf type: \"%s\"", file.path, quotable(file.text, q));
		if (t >= 0)
			type = t;
		else if (type < 0)
			return fail(err, PMUDB_ERR_NOTFOUND,
				    "no such PMU on this machine: the kernel has no PMU %s (%s/%s is missing)",
				    enc->sysfs_pmu, sysfs_devices_dir(), enc->sysfs_pmu);
	}
	if (type < 0)
		return fail(err, PMUDB_ERR_NOTFOUND, "the encoding has no perf type and names no kernel PMU");
	return type;
}

int pmudb_to_perf_attr(const struct pmudb_encoding *enc, struct perf_event_attr *attr, size_t attr_size,
		       struct pmudb_error *err)
{
	if (!enc || !attr)
		return fail(err, PMUDB_ERR_INVAL, "invalid parameters: no encoding or no attr");
	if (!encoding_names_end(enc))
		return fail(err, PMUDB_ERR_INVAL, "invalid parameters: the encoding's PMU names do not end in their arrays");
	if (attr_size < PERF_ATTR_SIZE_VER0 || attr_size > UINT32_MAX)
		return fail(err, PMUDB_ERR_INVAL, "attr size %zu: perf_event_attr is at least %d bytes", attr_size,
			    PERF_ATTR_SIZE_VER0);
	if (enc->config2 && attr_size < PERF_ATTR_SIZE_VER1)
		return fail(err, PMUDB_ERR_TOOSMALL, "attr size %zu has no config2 (needs %d bytes)", attr_size,
			    PERF_ATTR_SIZE_VER1);
	if (enc->precise_ip > 3)
		return fail(err, PMUDB_ERR_ATTR_VAL, "precise_ip %u: the largest is 3", enc->precise_ip);
	int type = resolve_type(enc, err);
	if (type < 0)
		return type;

	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.type = (uint32_t)type;
	a.config = enc->config;
	a.config1 = enc->config1;
	a.config2 = enc->config2;
	a.exclude_user = enc->exclude_user;
	a.exclude_kernel = enc->exclude_kernel;
	a.exclude_hv = enc->exclude_hv;
	a.exclude_host = enc->exclude_host;
	a.exclude_guest = enc->exclude_guest;
	a.precise_ip = enc->precise_ip;
	if (enc->freq) {
		a.freq = 1;
		a.sample_freq = enc->sample_period;
	} else {
		a.sample_period = enc->sample_period;
	}
	a.exclusive = enc->exclusive;
	a.pinned = enc->pinned;

	/* The caller's struct may be shorter or longer than ours: copy what
	 * both have, zero the rest, and give the kernel the caller's size
	 * (it accepts a longer attr whose unknown tail is zero). */
	uint32_t size = (uint32_t)attr_size;
	memset(attr, 0, attr_size);
	memcpy(attr, &a, attr_size < sizeof(a) ? attr_size : sizeof(a));
	memcpy((char *)attr + offsetof(struct perf_event_attr, size), &size, sizeof(size));
	return PMUDB_OK;
}

int pmudb_kernel_pmu_cpus(const char *name, int *cpus, int max, struct pmudb_error *err)
{
	if (!sysfs_pmu_name_valid(name))
		return fail(err, PMUDB_ERR_INVAL, "kernel PMU name \"%.64s\" is not a sysfs name", name ? name : "");
	char path[PATH_MAX], buf[SYSFS_MAX];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", sysfs_devices_dir(), name);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return fail(err, PMUDB_ERR_NOTFOUND, "no such PMU on this machine: the kernel has no PMU %s (%s is missing)",
			    name, path);
	snprintf(path, sizeof(path), "%s/%s/cpumask", sysfs_devices_dir(), name);
	int n = sysfs_read_small(path, buf, sizeof(buf));
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return fail(err, PMUDB_ERR_INVAL, "%s: %s", path, n == -EFBIG ? "longer than a page" : strerror(-n));
	if (strlen(buf) != (size_t)n)
		return fail(err, PMUDB_ERR_INVAL, "%s: holds a NUL byte", path);
	struct pmudb_error perr;
	int count = pmudb_parse_cpulist(buf, cpus, max, &perr);
	if (count < 0)
		return fail(err, count, "%s: %s", path, perr.message);
	if (count == 0)
		return fail(err, PMUDB_ERR_INVAL, "%s is empty: PMU %s counts on no CPU", path, name);
	return count;
}
