/*
 * vendor_perfmon.c - Intel's perfmon repository (github.com/intel/perfmon):
 * ROOT/mapfile.csv, rows "Family-model,Version,Filename,EventType,Core
 * Type,Native Model ID,Core Role Name", one JSON file per µarch and core
 * type, {"Header": {..., "DatePublished", "Version"}, "Events": [...]}.
 * Core lists only: its uncore files and metrics are not read yet (where
 * perf's tree has the µarch, those stay its).
 */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/vendor_read.h"

/*
 * Intel's perfmon layout: ROOT/mapfile.csv, rows "Family-model,Version,
 * Filename,EventType,Core Type,Native Model ID,Core Role Name".  The µarch
 * is the file's name without "_core.json", lower-cased (graniterapids,
 * westmereep-dp: the name perf's tree gives its folder).  A hybrid's core
 * files ("hybridcore" rows) are one µarch, named before the first '_'
 * (alderlake), their events of unit cpu_core, cpu_atom or cpu_lowpower by
 * the row's core role, as Intel's create_perf_json.py makes perf's tree.
 */
int vendor_perfmon_read(struct model *m, const char *root, char **error)
{
	char *mapfile = xprintf("%s/mapfile.csv", root);
	FILE *f = vendor_open_file(mapfile, NULL, error);
	int r = f ? 0 : -1;
	VEC(char *) files = {0};
	char line[1024];
	int lineno = 0;
	while (!r && fgets(line, sizeof(line), f)) {
		lineno++;
		char *fields[8];
		int n = vendor_split_row(line, fields, 8);
		if (!n)
			continue;
		if (n < 4) {
			r = vendor_fail(error, "%s:%d:1: expected Family-model,Version,Filename,EventType,...", mapfile, lineno);
			break;
		}
		if (strcmp(fields[3], "core") && strcmp(fields[3], "hybridcore"))
			continue;
		const char *file = fields[2] + strspn(fields[2], "/");
		const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
		bool hybrid = !strcmp(fields[3], "hybridcore");
		char *name = xstrdup(base);
		for (char *p = name; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		if (hybrid)
			name[strcspn(name, "_.")] = '\0';
		else if (strstr(name, "_core.json"))
			*strstr(name, "_core.json") = '\0';
		else
			name[strcspn(name, ".")] = '\0';
		const char *role = n >= 7 ? fields[6] : "";
		const char *unit = !hybrid ? NULL
				 : !strcasecmp(role, "Core") || !strcasecmp(role, "P-core") ? "cpu_core"
				 : !strcasecmp(role, "Atom") || !strcasecmp(role, "E-core") ? "cpu_atom"
				 : !strcasecmp(role, "LowPower_Atom") ? "cpu_lowpower" : NULL;
		if (hybrid && !unit)
			r = vendor_fail(error, "%s:%d:1: hybrid row with core role '%s' (expected Core, Atom or LowPower_Atom)",
				 mapfile, lineno, role);
		struct vendor_uarch *u = r ? NULL : vendor_uarch_named(m, "x86", name);
		bool seen = false;
		for (size_t i = 0; u && i < u->cpus.count; i++)
			seen |= !strcmp(u->cpus.items[i].id, fields[0]);
		if (u && !seen) {
			struct vendor_cpu *c = vec_push(&u->cpus);
			c->id = xstrdup(fields[0]);
			c->file = xstrdup("mapfile.csv");
			c->line = lineno;
		}
		/* several rows (models) share a file; a file is read once per µarch */
		char *key = xprintf("%s|%s", name, file);
		bool read = false;
		for (size_t i = 0; i < files.count && !read; i++)
			read = !strcmp(files.items[i], key);
		if (u && !read) {
			*(char **)vec_push(&files) = key;
			key = NULL;
			char *path = xprintf("%s/%s", root, file);
			r = vendor_read_events_file(path, file, u, unit, NULL, error);
			/* the first file read states the list's version (the
			 * mapfile's) and date (its Header's, vendor_read.c) */
			if (!r && !u->list.file) {
				u->list.file = xstrdup(file);
				u->list.version = vendor_version(fields[1]);
			}
			free(path);
			if (!r)
				vendor_note_unit(u, unit);
		}
		free(key);
		free(name);
	}
	if (f)
		fclose(f);
	for (size_t i = 0; i < files.count; i++)
		free(files.items[i]);
	free(files.items);
	free(mapfile);
	return r;
}
