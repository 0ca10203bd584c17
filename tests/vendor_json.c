/*
 * vendor_json.c - what a vendor's JSON entry says, computed by the tests
 * themselves from its fields (see vendor_json.h).
 */
#include "tests/vendor_json.h"

#include <dirent.h>
#include <stdbool.h>
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

/*
 * perf's own replacements of some event names (jevents.py, real_event's
 * table 'fixed': 'inst_retired.any': 'event=0xc0,period=2000003', ...),
 * read from the jevents.py beside the tree the tests were given
 * ($PMUDB_PMU_EVENTS/../jevents.py); where there is none (a fixture
 * tree), the six names of linux 6.12's table as written there.
 */
#define MAX_FORMS 32
static struct perf_form {
	char name[64];
	uint64_t config;
} forms[MAX_FORMS];
static int nforms = -1;

static uint64_t term(const char *text, const char *key)
{
	const char *at = strstr(text, key);
	return at ? strtoull(at + strlen(key), NULL, 0) : 0;
}

static void add_form(const char *name, const char *terms)
{
	if (nforms >= MAX_FORMS)
		return;
	snprintf(forms[nforms].name, sizeof(forms[nforms].name), "%s", name);
	forms[nforms].config = term(terms, "event=") | term(terms, "umask=") << 8 | term(terms, "any=") << 21;
	nforms++;
}

static void load_forms(void)
{
	nforms = 0;
	const char *tree = getenv("PMUDB_PMU_EVENTS");
	char path[4096];
	snprintf(path, sizeof(path), "%s/../jevents.py", tree ? tree : "/nonexistent");
	FILE *f = fopen(path, "r");
	char line[512];
	bool in_table = false;
	while (f && fgets(line, sizeof(line), f)) {
		if (strstr(line, "fixed = {")) {
			in_table = true;
			continue;
		}
		if (!in_table)
			continue;
		if (strchr(line, '}'))
			break;
		char name[64], terms[256];
		if (sscanf(line, " '%63[^']': '%255[^']'", name, terms) == 2)
			add_form(name, terms);
	}
	if (f)
		fclose(f);
	if (nforms == 0) {
		add_form("inst_retired.any", "event=0xc0");
		add_form("inst_retired.any_p", "event=0xc0");
		add_form("cpu_clk_unhalted.ref", "event=0x0,umask=0x03");
		add_form("cpu_clk_unhalted.thread", "event=0x3c");
		add_form("cpu_clk_unhalted.core", "event=0x3c");
		add_form("cpu_clk_unhalted.thread_any", "event=0x3c,any=1");
	}
}

bool vendor_perf_form(const char *name, uint64_t *config)
{
	if (nforms < 0)
		load_forms();
	for (int i = 0; name && i < nforms; i++)
		if (!strcasecmp(forms[i].name, name)) {
			*config = forms[i].config;
			return true;
		}
	return false;
}

void vendor_expected_config(const char *family, json_t *e, uint64_t *config, uint64_t *config1)
{
	uint64_t code = vendor_field(e, "EventCode"), umask = vendor_field(e, "UMask"), msr = vendor_field(e, "MSRIndex");
	uint64_t flags = vendor_field(e, "EdgeDetect") << 18 | vendor_field(e, "AnyThread") << 21 | vendor_field(e, "Invert") << 23
			 | vendor_field(e, "CounterMask") << 24;
	*config1 = 0;
	if (vendor_perf_form(json_string_value(json_object_get(e, "EventName")), config))
		return;
	if (!strcmp(family, "intel_x86")) {
		/* UMaskExt (perfmon's): the kernel's umask is config:8-15,40-47 */
		*config = (code & 0xff) | umask << 8 | vendor_field(e, "UMaskExt") << 40 | flags;
		if (msr == 0x1a6 || msr == 0x1a7 || msr == 0x3f6 || msr == 0x3f7)
			*config1 = vendor_field(e, "MSRValue");
	} else if (!strcmp(family, "amd64")) {
		*config = (code & 0xff) | ((code >> 8) & 0xf) << 32 | umask << 8 | flags;
	} else {
		*config = code;		/* Arm PMUv3: the event number */
	}
}

void vendor_counters(json_t *e, const char *key, uint64_t *general, uint64_t *fixed)
{
	const char *s = json_string_value(json_object_get(e, key));
	*general = *fixed = 0;
	if (!s)
		return;
	if (!strncasecmp(s, "Fixed counter", 13)) {
		*fixed = 1ULL << atoi(s + 13);
		return;
	}
	for (const char *p = s; *p;) {
		char *end;
		long n = strtol(p, &end, 10);
		if (end == p)
			break;
		if (n >= 0 && n < 64)
			*general |= 1ULL << n;
		p = *end == ',' ? end + 1 : end;
		while (*p == ' ')
			p++;
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

