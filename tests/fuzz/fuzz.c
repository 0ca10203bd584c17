/*
 * fuzz.c - helpers for the fuzz targets (fuzz.h).
 */
#include "tests/fuzz/fuzz.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		fuzz_fail("out of memory");
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static void write_all(int fd, const void *data, size_t size, const char *what)
{
	const char *p = data;
	while (size) {
		ssize_t n = write(fd, p, size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fuzz_fail("cannot write %s: %s", what, strerror(errno));
		p += n;
		size -= (size_t)n;
	}
}

const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char *path;
	if (!path) {
		path = malloc(strlen(fuzz_tempdir()) + 8);
		sprintf(path, "%s/input", fuzz_tempdir());
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		fuzz_fail("cannot write %s: %s", path, strerror(errno));
	write_all(fd, data, size, path);
	close(fd);
	return path;
}

static char *tempdir;

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void remove_tempdir(void)
{
	if (tempdir)
		nftw(tempdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_tempdir(void)
{
	if (tempdir)
		return tempdir;
	const char *base = getenv("TMPDIR");
	char tmpl[4096];
	snprintf(tmpl, sizeof(tmpl), "%s/pmudb-fuzz-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmpl))
		fuzz_fail("mkdtemp %s: %s", tmpl, strerror(errno));
	tempdir = strdup(tmpl);
	atexit(remove_tempdir);
	return tempdir;
}

void fuzz_write(const char *dir, const char *name, const void *data, size_t size)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (char *slash = strchr(path + strlen(dir), '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0700);
		*slash = '/';
	}
	FILE *f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		fuzz_fail("cannot write %s: %s", path, strerror(errno));
}

const char *fuzz_seed_catalog(void)
{
	const char *s = getenv("PMUDB_FUZZ_SEED");
	return s && *s ? s : "build/fuzz/seed.db";
}

void fuzz_note(const char *fmt, ...)
{
	static int verbose = -1;
	if (verbose < 0)
		verbose = getenv("PMUDB_FUZZ_VERBOSE") != NULL;
	if (!verbose)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("pmudb fuzz finding: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}
