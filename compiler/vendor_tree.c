/*
 * vendor_tree.c - the vendors' event lists into the model (vendor_tree.h):
 * each --pmu-events directory is recognised by what is in it and read by
 * the reader of its layout (vendor_kernel.c, vendor_perfmon.c,
 * vendor_armdata.c) into a model of its own, which vendor_newest.c takes
 * in: the newest list of each µarch is encoded.
 */
#include "compiler/vendor_tree.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/vendor_newest.h"
#include "compiler/vendor_read.h"

/* ---- which layout a directory is in -------------------------------------- */

/* The folder perf's tree starts at, under DIR: DIR itself, its arch/ (the
 * pmu-events folder), or tools/perf/pmu-events/arch (a kernel's source). */
static char *kernel_root(const char *dir)
{
	static const char *const under[] = { "", "/arch", "/pmu-events/arch", "/tools/perf/pmu-events/arch" };
	for (size_t i = 0; i < sizeof(under) / sizeof(under[0]); i++) {
		/* the arch folders: each is read through its mapfile, and one
		 * that is missing or unreadable is an error, not a tree unseen */
		char *x86 = xprintf("%s%s/x86", dir, under[i]);
		char *arm = xprintf("%s%s/arm64", dir, under[i]);
		bool found = vendor_is_folder(x86) || vendor_is_folder(arm);
		free(x86);
		free(arm);
		if (found)
			return xprintf("%s%s", dir, under[i]);
	}
	return NULL;
}

/* DIR's layout, by what is in it, and the folder its reader starts from. */
static const char *layout_of(const char *dir, char **root)
{
	char *mapfile = xprintf("%s/mapfile.csv", dir);
	char *cpus = xprintf("%s/cpus.json", dir), *pmu = xprintf("%s/pmu", dir);
	const char *layout = NULL;
	*root = NULL;
	if (vendor_file_exists(mapfile)) {
		layout = "perfmon";
		*root = xstrdup(dir);
	} else if (vendor_file_exists(cpus) && vendor_is_folder(pmu)) {
		layout = "arm-data";
		*root = xstrdup(dir);
	} else if ((*root = kernel_root(dir))) {
		layout = "kernel";
	}
	free(mapfile);
	free(cpus);
	free(pmu);
	return layout;
}

static char *joined(const char *a, const char *sep, const char *b)
{
	return a ? xprintf("%s%s%s", a, sep, b) : xstrdup(b);
}

int vendor_tree_read(struct model *m, const char *dir, const char *origin, char **error)
{
	char *root = NULL;
	const char *layout = layout_of(dir, &root);
	if (!layout) {
		vendor_fail(error, "%s:0:0: not a vendor tree: no perf pmu-events tree (x86/ or arm64/ with a mapfile.csv,"
			    " here or under arch/ or tools/perf/pmu-events/arch/), no perfmon mapfile.csv, no"
			    " ARM-software/data cpus.json and pmu/", dir);
		return -1;
	}
	struct model scratch = {0};
	int r = !strcmp(layout, "perfmon")    ? vendor_perfmon_read(&scratch, root, error)
		: !strcmp(layout, "arm-data") ? vendor_armdata_read(&scratch, root, error)
					      : vendor_kernel_read(&scratch, root, error);
	if (!r) {
		/* where it was, as --version prints it: not relative to a build */
		char *absolute = realpath(dir, NULL);
		struct vendor_source *s = vec_push(&m->sources);
		s->dir = xstrdup(absolute ? absolute : dir);
		s->origin = xstrdup(origin ? origin : s->dir);
		s->layout = layout;
		free(absolute);
		char *tree = joined(m->vendor_tree, "; ", s->origin);
		char *layouts = joined(m->vendor_layout, " + ", layout);
		free(m->vendor_tree);
		free(m->vendor_layout);
		m->vendor_tree = tree;
		m->vendor_layout = layouts;
		r = vendor_newest_take(m, &scratch, (int)m->sources.count - 1, error);
	}
	model_free(&scratch);
	free(root);
	return r;
}
