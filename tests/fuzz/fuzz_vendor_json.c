/*
 * fuzz_vendor_json.c - the vendors' event lists (the second source of the
 * catalog, compiler/vendor_tree.c and its readers): a one-µarch tree made from the bytes
 * in a temporary directory, read by vendor_tree_read() as pmu-build
 * --pmu-events reads perf's tree or Intel's perfmon repository.
 *
 * The bytes: a first line naming the layout ("x86" or "arm64": perf's
 * tree; "perfmon": Intel's; "arm-data": ARM-software/data), then up to
 * three parts, each ended by a line "%%": the mapfile.csv (arm-data: a
 * core's list, pmu/c.json), the µarch's events JSON (arm-data: a common
 * list, not read), and (arm64) the architecture-standard events JSON.  A part left out is a small good one;
 * the seeds' mapfiles name the folder the events go in (u, or v/c on arm64;
 * u/events/u_core.json in perfmon).
 *
 * Checked besides crashes and overruns: a refusal is one line naming a file
 * of the tree; an event read has a name that can be typed.
 */
#include <ctype.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/model.h"
#include "compiler/vendor_tree.h"
#include "tests/fuzz/fuzz.h"

static const char x86_map[] = "Family-model,Version,Filename,EventType\nGenuineIntel-6-55,v1,u,core\n";
static const char arm_map[] = "Family-model,Version,Filename,EventType\n0x00000000410fd490,v1,v/c,core\n";
static const char perfmon_map[] = "Family-model,Version,Filename,EventType,Core Type,Native Model ID,Core Role Name\n"
				  "GenuineIntel-6-55,V1.00,/u/events/u_core.json,core,,,\n";
static const char arm_data_core[] = "{\"_type\": \"Events\", \"timestamp\": \"Mon Mar 18 17:07:47 2024\","
				    " \"cpuid\": \"0x41d84\", \"pmu_architecture\": \"pmuv3\", \"events\":"
				    " [{\"code\": 17, \"name\": \"CPU_CYCLES\", \"description\": \"Cycle\"}]}\n";
static const char events[] = "[{\"EventName\": \"INST_RETIRED.ANY_P\", \"EventCode\": \"0xc0\", \"UMask\": \"0x1\"}]\n";
static const char arm_std[] = "[{\"EventName\": \"CPU_CYCLES\", \"EventCode\": \"0x11\", \"BriefDescription\": \"Cycle\"},"
			      " {\"EventName\": \"INST_RETIRED\", \"EventCode\": \"0x08\"}]\n";

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	if (ftw->level)
		remove(path);
	return 0;
}

/* The next part of [*P, END): up to a line "%%", or all that is left. */
static int part(const char **p, const char *end, const char **start, size_t *len)
{
	if (*p >= end)
		return 0;
	*start = *p;
	for (const char *s = *p; s < end; s++)
		if ((s == *p || s[-1] == '\n') && end - s >= 2 && s[0] == '%' && s[1] == '%'
		    && (end - s == 2 || s[2] == '\n')) {
			*len = (size_t)(s - *p);
			*p = s + 2 + (end - s > 2);
			return 1;
		}
	*len = (size_t)(end - *p);
	*p = end;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char tree[4200];
	snprintf(tree, sizeof(tree), "%s/tree", fuzz_tempdir());
	nftw(tree, remove_one, 16, FTW_DEPTH | FTW_PHYS);

	const char *p = (const char *)data, *end = p + size;
	const char *nl = memchr(p, '\n', size);
	size_t first = nl ? (size_t)(nl - p) : size;
	const char *layout = first == 5 && !memcmp(p, "arm64", 5)     ? "arm64"
			     : first == 7 && !memcmp(p, "perfmon", 7)  ? "perfmon"
			     : first == 8 && !memcmp(p, "arm-data", 8) ? "arm-data" : "x86";
	p = nl ? nl + 1 : end;
	bool arm_data = !strcmp(layout, "arm-data");
	const char *parts[3] = { arm_data ? arm_data_core
				 : strcmp(layout, "x86") ? strcmp(layout, "arm64") ? perfmon_map : arm_map : x86_map,
				 events, arm_std };
	size_t lens[3] = { strlen(parts[0]), strlen(parts[1]), strlen(parts[2]) };
	for (int i = 0; i < 3 && part(&p, end, &parts[i], &lens[i]); i++)
		;
	if (arm_data) {
		static const char cpus[] = "{\"_type\": \"CPUs\", \"cpus\": []}\n";
		fuzz_write(tree, "cpus.json", cpus, strlen(cpus));
		fuzz_write(tree, "pmu/c.json", parts[0], lens[0]);
		fuzz_write(tree, "pmu/common_armv9.json", parts[1], lens[1]);
	} else if (!strcmp(layout, "perfmon")) {
		fuzz_write(tree, "mapfile.csv", parts[0], lens[0]);
		fuzz_write(tree, "u/events/u_core.json", parts[1], lens[1]);
	} else if (!strcmp(layout, "arm64")) {
		fuzz_write(tree, "arm64/mapfile.csv", parts[0], lens[0]);
		fuzz_write(tree, "arm64/v/c/events.json", parts[1], lens[1]);
		fuzz_write(tree, "arm64/std.json", parts[2], lens[2]);
	} else {
		fuzz_write(tree, "x86/mapfile.csv", parts[0], lens[0]);
		fuzz_write(tree, "x86/u/events.json", parts[1], lens[1]);
	}

	struct model m = {0};
	char *error = NULL;
	if (vendor_tree_read(&m, tree, NULL, &error)) {
		fuzz_note("refused: %s", error ? error : "(nothing)");
		if (!error || !*error || strchr(error, '\n') || strncmp(error, tree, strlen(tree)))
			fuzz_fail("a refusal that is not one line naming a file of the tree: '%s'", error ? error : "(none)");
	} else {
		fuzz_note("read %zu µarchs, the first with %zu events", m.uarchs.count,
			  m.uarchs.count ? m.uarchs.items[0].events.count : 0);
		for (size_t u = 0; u < m.uarchs.count; u++)
			for (size_t e = 0; e < m.uarchs.items[u].events.count; e++) {
				const char *name = m.uarchs.items[u].events.items[e].name;
				for (const char *c = name; *c; c++)
					if (*c == ':' || isspace((unsigned char)*c) || !isprint((unsigned char)*c))
						fuzz_fail("event '%s' read, which cannot be typed", name);
				if (!*name)
					fuzz_fail("an event without a name read");
			}
	}
	free(error);
	model_free(&m);
	return 0;
}
