/*
 * installed.c - finding the catalog file `make install` puts in
 * PREFIX/share/pmudb/pmudb.db, for programs that want the installed
 * catalog (which can be rebuilt and replaced without relinking them)
 * rather than the one built into the library.
 *
 * The prefix is found at run time, so that an installed tree can be moved
 * (or staged with DESTDIR): the library's own file (libpmudb.so, or the
 * program it is linked into) is LIBDIR/x or BINDIR/x, so PREFIX is two
 * levels up.  Where that has no catalog, the prefix the library was built
 * for (make PREFIX=..., default /usr/local) is used.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "catalog/errors.h"

#ifndef PMUDB_PREFIX
#define PMUDB_PREFIX "/usr/local"
#endif
#define CATALOG_IN_PREFIX "/share/pmudb/pmudb.db"

/* The file this code was loaded from: the shared library, or the program. */
static int own_file(char *buf, size_t size)
{
	Dl_info info;
	if (dladdr((void *)own_file, &info) && info.dli_fname && info.dli_fname[0] == '/') {
		snprintf(buf, size, "%s", info.dli_fname);
		return 0;
	}
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	if (n <= 0 || (size_t)n >= size - 1)
		return -1;
	buf[n] = '\0';
	return 0;
}

int pmudb_installed_catalog(char *buf, size_t size)
{
	if (!buf || size < 2)
		return PMUDB_ERR_INVAL;
	char self[PATH_MAX];
	if (!own_file(self, sizeof(self))) {
		/* PREFIX/lib/libpmudb.so.0 or PREFIX/bin/pmudb: two levels up */
		for (int up = 0; up < 2; up++) {
			char *slash = strrchr(self, '/');
			if (!slash)
				break;
			*slash = '\0';
		}
		if (strlen(self) + sizeof(CATALOG_IN_PREFIX) <= size) {
			snprintf(buf, size, "%s%s", self, CATALOG_IN_PREFIX);
			if (!access(buf, R_OK))
				return 0;
		}
	}
	if (strlen(PMUDB_PREFIX) + sizeof(CATALOG_IN_PREFIX) > size)
		return PMUDB_ERR_TOOSMALL;
	snprintf(buf, size, "%s%s", PMUDB_PREFIX, CATALOG_IN_PREFIX);
	return 0;
}

pmudb_t *pmudb_open_installed(struct pmudb_error *err)
{
	char path[PATH_MAX];
	int r = pmudb_installed_catalog(path, sizeof(path));
	if (r) {
		set_error(err, r, "%s: the installed catalog's path is too long", pmudb_strerror(r));
		return NULL;
	}
	return pmudb_open(path, err);
}
