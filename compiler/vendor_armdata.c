/*
 * vendor_armdata.c - Arm's own event lists (github.com/ARM-software/data):
 * ROOT/pmu/CORE.json, {"_type": "Events", "timestamp": ..., "cpuid":
 * "0x41d84", "pmu_architecture": "pmuv3", "events": [{"code", "name",
 * "description", "architectural"}, ...]} beside ROOT/cpus.json.  Each file
 * is the µarch "arm/CORE" of the MIDR its cpuid names (implementer, part);
 * perf's tree names the same cores' folders so (arm/neoverse-n1), and a
 * core perf lists under another folder is found by its MIDR
 * (vendor_newest.c).  The list states a date (its timestamp), no version.
 * The common_armv*.json files list what every core of an architecture
 * may have; the cores' files list what each has, and are what is read.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/vendor_read.h"

/* "Mon Mar 18 17:07:47 2024" as 2024-03-18, or NULL. */
static char *timestamp_date(const char *text)
{
	struct tm tm = {0};
	const char *end = text ? strptime(text, "%a %b %d %H:%M:%S %Y", &tm) : NULL;
	if (!end || *end)
		return NULL;
	return xprintf("%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

static int core_file(const struct dirent *e)
{
	return vendor_json_file(e) && strncmp(e->d_name, "common_", 7) && strcmp(e->d_name, "pmu-schema.json");
}

/* One event of the list into U; a warning in U where it cannot be. */
static void read_event(struct vendor_file *s, struct vendor_uarch *u, json_t *e)
{
	const char *name = vendor_string_field(e, "name");
	json_t *code = json_object_get(e, "code");
	char *why = NULL;
	if (!name)
		why = xprintf("%s:%d:%d: an event without a \"name\"", s->path, s->from_line, s->from_column);
	else if (!vendor_name_typable(name))
		vendor_fail_at(&why, s, name, "event name '%s' cannot be typed (letters, digits, '_', '-' and '.' only)", name);
	else if (!json_is_integer(code) || json_integer_value(code) < 0 || json_integer_value(code) > 0xffff)
		vendor_fail_at(&why, s, name, "event '%s': \"code\" must be an event number, 0 to 0xffff", name);
	if (why) {
		*(char **)vec_push(&u->warnings) = why;
		return;
	}
	struct vendor_event v = {0};
	const char *desc = vendor_string_field(e, "description");
	v.name = xstrdup(name);
	v.description = xstrdup(desc ? desc : "");
	v.file = xstrdup(s->rel);
	v.code = (uint64_t)json_integer_value(code);
	const char *at = vendor_locate(s, name, &v.line, &v.column);
	vendor_read_past(s, at, v.line, v.column);
	*(struct vendor_event *)vec_push(&u->events) = v;
}

/* The list of PATH (REL within the tree): a core's µarch, or nothing (with
 * a note) for a file that is no pmuv3 core's list. */
static int read_list(struct model *m, const char *path, const char *rel, const char *stem, char **error)
{
	struct vendor_file s = { path, rel, NULL, 0, 0, 1, 1 };
	json_t *root = !vendor_file_read(&s, error) ? vendor_file_parse(&s, error) : NULL;
	int r = root ? 0 : -1;
	const char *type = vendor_string_field(root, "_type"), *cpuid = vendor_string_field(root, "cpuid");
	const char *pmu = vendor_string_field(root, "pmu_architecture");
	json_t *events = json_object_get(root, "events");
	unsigned long long id = 0;
	char *end = NULL;
	if (cpuid)
		id = strtoull(cpuid, &end, 16);
	if (!r && (!type || strcmp(type, "Events") || !json_is_array(events))) {
		model_note(m, "%s: not a list of events (\"_type\": \"Events\" with \"events\"): not read", path);
	} else if (!r && (!cpuid || strncmp(cpuid, "0x", 2) || *end || id > 0xfffff)) {
		model_note(m, "%s: \"cpuid\" is not IMPLEMENTER and PART in hex (0x41d84): not read", path);
	} else if (!r && (!pmu || strcmp(pmu, "pmuv3"))) {
		/* 32-bit cores (ARM11, Cortex-A8): no arm64 PMU counts them */
		model_note(m, "%s: pmu_architecture '%s', not PMUv3: not read", path, pmu ? pmu : "(none)");
	} else if (!r) {
		unsigned implementer = (unsigned)(id >> 12), part = (unsigned)(id & 0xfff);
		char *name = implementer == 0x41 ? xprintf("arm/%s", stem) : xprintf("implementer-%02x/%s", implementer, stem);
		for (char *p = name; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		if (!vendor_folder_name(name)) {
			model_note(m, "%s: '%s' is not a µarch name: not read", path, name);
		} else {
			struct vendor_uarch *u = vendor_uarch_named(m, "arm64", name);
			/* the MIDR as perf's arm64 mapfile writes it: variant
			 * and revision 0, architecture 0xf */
			struct vendor_cpu *c = vec_push(&u->cpus);
			c->id = xprintf("0x00000000%02x0f%03x0", implementer, part);
			c->file = xstrdup(rel);
			c->line = 1;
			u->list.file = xstrdup(rel);
			u->list.date = timestamp_date(vendor_string_field(root, "timestamp"));
			size_t i;
			json_t *e;
			json_array_foreach(events, i, e)
				read_event(&s, u, e);
		}
		free(name);
	}
	json_decref(root);
	free(s.text);
	return r;
}

int vendor_armdata_read(struct model *m, const char *root, char **error)
{
	char *dir = xprintf("%s/pmu", root);
	struct dirent **names = NULL;
	int n = scandir(dir, &names, core_file, alphasort);
	int r = n < 0 ? vendor_fail(error, "%s:0:0: cannot read the folder: %s", dir, strerror(errno)) : 0;
	for (int i = 0; i < n; i++) {
		if (!r) {
			char *path = xprintf("%s/%s", dir, names[i]->d_name);
			char *rel = xprintf("pmu/%s", names[i]->d_name);
			char *stem = xstrdup(names[i]->d_name);
			stem[strlen(stem) - 5] = '\0';
			r = read_list(m, path, rel, stem, error);
			free(stem);
			free(rel);
			free(path);
		}
		free(names[i]);
	}
	free(names);
	free(dir);
	return r;
}
