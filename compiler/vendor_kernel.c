/*
 * vendor_kernel.c - perf's pmu-events tree (tools/perf/pmu-events/arch of
 * any Linux kernel): ROOT/ARCH/mapfile.csv (x86, arm64) with a folder of
 * JSON files per µarch; arm64 files name architecture-standard events
 * ("ArchStdEvent") defined in ROOT/arm64/ (its top-level JSON files), and
 * perf's sys/ folders (system PMUs: Arm CMN, i.MX DDR ...) are read as
 * µarchs of their own, with no CPU.  A list's version is its mapfile row's
 * ("v1.02"); the tree states no date.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiler/vendor_read.h"


/* arm64's architecture-standard events and metrics: every DIR/ARCH/ *.json,
 * by lower-case name, as perf's jevents.py reads them. */
static int read_std_events(const char *archdir, json_t *std, char **error)
{
	struct dirent **names = NULL;
	int n = scandir(archdir, &names, vendor_json_file, alphasort);
	int r = 0;
	for (int i = 0; i < n; i++) {
		char *path = xprintf("%s/%s", archdir, names[i]->d_name);
		struct vendor_file s = { path, path, NULL, 0, 0, 1, 1 };
		json_t *root = !r && !vendor_file_read(&s, error) ? vendor_file_parse(&s, error) : NULL;
		if (!r && !root)
			r = -1;
		size_t k;
		json_t *e;
		json_array_foreach(root, k, e) {
			/* metrics too: a core's metrics file names them (sbsa.json) */
			const char *name = vendor_string_field(e, "EventName");
			if (!name)
				name = vendor_string_field(e, "MetricName");
			if (!name)
				continue;
			char *lower = xstrdup(name);
			for (char *p = lower; *p; p++)
				*p = (char)tolower((unsigned char)*p);
			json_object_set(std, lower, e);
			free(lower);
		}
		json_decref(root);
		free(s.text);
		free(path);
		free(names[i]);
	}
	free(names);
	return r;
}


/*
 * The system PMUs' lists: every folder sys/ of the arch, one or two
 * levels down (arm64/freescale/imx8mm/sys, arm64/arm/cmn/sys), is read as
 * the µarch "FOLDER/sys".  perf matches them by the device's identifier
 * (Compat), not by a CPU: the µarch has none, and its entries (each with
 * a Unit) are uncore entries, whose PMUs tables/uncore.yaml makes.
 */
static int read_sys_folders(struct model *m, const char *root, const char *arch, const char *rel, int depth,
			    json_t *std, char **error)
{
	char *dir = xprintf("%s/%s", root, rel);
	struct dirent **names = NULL;
	int n = scandir(dir, &names, vendor_sub_folder, alphasort);
	int r = 0;
	for (int i = 0; i < n; i++) {
		char *sub = xprintf("%s/%s", rel, names[i]->d_name);
		char *path = xprintf("%s/%s", root, sub);
		if (!r && vendor_is_folder(path) && !strcmp(names[i]->d_name, "sys") && depth > 0) {
			const char *name = sub + strlen(arch) + 1;
			if (!vendor_folder_name(name)) {
				r = vendor_fail(error, "%s:0:0: folder '%s' is not a µarch name", path, name);
			} else {
				struct vendor_uarch *u = vendor_uarch_named(m, arch, name);
				u->system = true;
				if (!u->list.file)
					u->list.file = xstrdup(sub);
				if (!u->uncore.count && !u->events.count)
					r = vendor_read_events_dir(root, sub, u, std, error);
			}
		} else if (!r && vendor_is_folder(path) && depth < 2) {
			r = read_sys_folders(m, root, arch, sub, depth + 1, std, error);
		}
		free(path);
		free(sub);
		free(names[i]);
	}
	free(names);
	free(dir);
	return r;
}

/* perf's layout: ROOT/ARCH/mapfile.csv, rows "ID,VERSION,FOLDER,TYPE". */
static int read_kernel_arch(struct model *m, const char *root, const char *arch, char **error)
{
	char *archdir = xprintf("%s/%s", root, arch);
	char *mapfile = xprintf("%s/mapfile.csv", archdir);
	FILE *f = vendor_open_file(mapfile, NULL, error);
	json_t *std = json_object();
	int r = f ? read_std_events(archdir, std, error) : -1;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;
	while (!r && f && getline(&line, &cap, f) >= 0) {
		lineno++;
		char *fields[8];
		int n = vendor_split_row(line, fields, 8);
		if (!n)
			continue;
		if (n < 4)
			r = vendor_fail(error, "%s:%d:1: expected ID,VERSION,FOLDER,TYPE", mapfile, lineno);
		if (r || strcmp(fields[3], "core"))
			continue;	/* uncore and system rows: not core events */
		if (!vendor_folder_name(fields[2]))
			r = vendor_fail(error, "%s:%d:1: folder '%s' is not a µarch name", mapfile, lineno, fields[2]);
		if (r)
			break;
		struct vendor_uarch *u = vendor_uarch_named(m, arch, fields[2]);
		struct vendor_cpu *c = vec_push(&u->cpus);
		c->id = xstrdup(fields[0]);
		c->file = xprintf("%s/mapfile.csv", arch);
		c->line = lineno;
		if (u->cpus.count == 1) {
			/* the version is the mapfile's; perf's tree states no date */
			u->list.version = vendor_version(fields[1]);
			u->list.file = xprintf("%s/mapfile.csv", arch);
			char *rel = xprintf("%s/%s", arch, fields[2]);
			r = vendor_read_events_dir(root, rel, u, std, error);
			free(rel);
		}
	}
	if (!r && f && ferror(f))
		r = vendor_fail(error, "%s:%d:0: cannot read: %s", mapfile, lineno + 1, strerror(errno));
	if (!r && f)
		r = read_sys_folders(m, root, arch, arch, 0, std, error);
	free(line);
	if (f)
		fclose(f);
	json_decref(std);
	free(mapfile);
	free(archdir);
	return r;
}


int vendor_kernel_read(struct model *m, const char *root, char **error)
{
	static const char *const arches[] = { "x86", "arm64" };
	int r = 0;
	for (size_t i = 0; !r && i < sizeof(arches) / sizeof(arches[0]); i++) {
		/* an arch folder reads through its mapfile: one that is
		 * missing or unreadable is an error, not an arch left out */
		char *archdir = xprintf("%s/%s", root, arches[i]);
		if (vendor_is_folder(archdir))
			r = read_kernel_arch(m, root, arches[i], error);
		free(archdir);
	}
	return r;
}
