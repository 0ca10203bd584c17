/*
 * vendor_json.c - what a vendor's JSON entry says, computed by the tests
 * themselves from its fields (see vendor_json.h).
 */
#include "tests/vendor_json.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>


/* A field as the vendors write numbers: "0x2A,0x2B" is its first. */
uint64_t vendor_field(json_t *e, const char *key)
{
	json_t *v = json_object_get(e, key);
	if (json_is_integer(v))
		return (uint64_t)json_integer_value(v);
	const char *s = json_string_value(v);
	return s ? strtoull(s, NULL, 0) : 0;
}

void vendor_expected_config(const char *family, json_t *e, uint64_t *config, uint64_t *config1)
{
	uint64_t code = vendor_field(e, "EventCode"), umask = vendor_field(e, "UMask"), msr = vendor_field(e, "MSRIndex");
	uint64_t flags = vendor_field(e, "EdgeDetect") << 18 | vendor_field(e, "AnyThread") << 21 | vendor_field(e, "Invert") << 23
			 | vendor_field(e, "CounterMask") << 24;
	*config1 = 0;
	if (!strcmp(family, "intel_x86")) {
		*config = (code & 0xff) | umask << 8 | flags;
		if (msr == 0x1a6 || msr == 0x1a7 || msr == 0x3f6 || msr == 0x3f7)
			*config1 = vendor_field(e, "MSRValue");
	} else if (!strcmp(family, "amd64")) {
		*config = (code & 0xff) | ((code >> 8) & 0xf) << 32 | umask << 8 | flags;
	} else {
		*config = code;		/* Arm PMUv3: the event number */
	}
}

json_t *vendor_load_json(const char *path)
{
	json_error_t jerr;
	json_t *j = json_load_file(path, 0, &jerr);
	if (!j)
		fail_msg("%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
	json_t *events = json_is_object(j) ? json_object_get(j, "Events") : NULL;	/* perfmon's layout */
	if (!events)
		return j;
	json_incref(events);
	json_decref(j);
	return events;
}

static int json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	return n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

/* Every JSON list of folder DIR, as one array. */
json_t *vendor_load_dir(const char *dir)
{
	json_t *all = json_array();
	struct dirent **names;
	int n = scandir(dir, &names, json_name, alphasort);
	for (int i = 0; i < n; i++) {
		char path[1024];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		json_t *j = vendor_load_json(path);
		if (json_is_array(j))
			json_array_extend(all, j);
		json_decref(j);
		free(names[i]);
	}
	free(names);
	return all;
}

/* arm64's standard events, by name, as perf resolves "ArchStdEvent". */
json_t *vendor_std_event(json_t *std, const char *name)
{
	size_t i;
	json_t *e;
	json_array_foreach(std, i, e) {
		const char *n = json_string_value(json_object_get(e, "EventName"));
		if (n && !strcasecmp(n, name))
			return e;
	}
	return NULL;
}

