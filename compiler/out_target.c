/*
 * out_target.c - the file a build replaces.  The catalog is written beside
 * it and renamed over it (main.c), and a rename replaces whatever the name
 * was: as root, --out /dev/null made the device a 2.7 MB file, --out
 * naming a table replaced the table, a symlink was replaced rather than
 * its file.  So the target is checked before any work, and a missing or
 * read-only directory is found before the build rather than after it.
 */
#include "compiler/out_target.h"

#include <errno.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/xalloc.h"

/* Whether the file at PATH is INPUT, or a table in the directory INPUT. */
static bool is_input(const char *path, const struct stat *sb, const char *input)
{
	struct stat in;
	if (stat(input, &in))
		return false;
	if (in.st_dev == sb->st_dev && in.st_ino == sb->st_ino)
		return true;
	if (!S_ISDIR(in.st_mode))
		return false;
	/* a table of the directory: the catalog would be read as one */
	char *copy = xstrdup(path);
	struct stat dir;
	bool inside = !stat(dirname(copy), &dir) && dir.st_dev == in.st_dev && dir.st_ino == in.st_ino;
	free(copy);
	size_t n = strlen(path);
	return inside && n > 5 && !strcmp(path + n - 5, ".yaml");
}

char *out_target(const char *out, char *const *inputs, int count, char **error)
{
	struct stat sb;
	char *target = NULL;
	if (!lstat(out, &sb) && S_ISLNK(sb.st_mode)) {
		target = realpath(out, NULL);
		if (!target) {
			*error = xprintf("pmudb-build: --out %s: a symbolic link to nothing (%s)", out, strerror(errno));
			return NULL;
		}
	} else {
		target = xstrdup(out);
	}
	bool exists = !stat(target, &sb);
	if (exists && !S_ISREG(sb.st_mode)) {
		*error = xprintf("pmudb-build: --out %s: %s; the catalog replaces a regular file or makes one", out,
				 S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file (a device, FIFO or socket)");
		free(target);
		return NULL;
	}
	for (int i = 0; exists && i < count; i++)
		if (is_input(target, &sb, inputs[i])) {
			*error = xprintf("pmudb-build: --out %s: it is an input of the build (%s)", out, inputs[i]);
			free(target);
			return NULL;
		}
	char *copy = xstrdup(target);
	const char *dir = dirname(copy);
	struct stat ds;
	const char *why = stat(dir, &ds) ? strerror(errno) : !S_ISDIR(ds.st_mode) ? "not a directory"
			  : access(dir, W_OK | X_OK) ? strerror(errno) : NULL;
	if (why) {
		*error = xprintf("pmudb-build: --out %s: cannot write in %s: %s", out, dir, why);
		free(target);
		target = NULL;
	}
	free(copy);
	return target;
}

void out_keep_mode(const char *temp, const char *target)
{
	struct stat sb;
	if (!stat(target, &sb))
		chmod(temp, sb.st_mode & 07777);
}
