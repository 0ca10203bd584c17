/*
 * libpfm_cpu.c - see libpfm_cpu.h.
 */
#include "tests/libpfm_cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tests/testlib.h"

#define QEMU_X86 "/usr/bin/qemu-x86_64-static"

const char *libpfm_cpu_unavailable(void)
{
	struct utsname u;
	if (uname(&u) || strcmp(u.machine, "x86_64"))
		return "not an x86-64 host: libpfm here is not an x86 libpfm";
	if (access(QEMU_X86, X_OK))
		return QEMU_X86 " is missing (Debian's qemu-user-static)";
	char *helper = test_build_path("tests/libpfm_detect");
	int missing = access(helper, X_OK);
	free(helper);
	return missing ? "the helper tests/libpfm_detect is not built" : NULL;
}

int libpfm_cpu_pmus(const struct pmudb_cpu *cpu, struct libpfm_pmu *out, int max)
{
	char spec[160];
	snprintf(spec, sizeof(spec), "max,vendor=%s,family=%d,model=%d,stepping=%d", cpu->vendor, cpu->family,
		 cpu->model, cpu->stepping < 0 ? 0 : cpu->stepping);
	char *helper = test_build_path("tests/libpfm_detect");
	char *argv[] = { QEMU_X86, "-cpu", spec, helper, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	free(helper);
	int n = r.status ? -1 : 0;
	for (char *save = NULL, *line = n ? NULL : strtok_r(r.out, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[64], type[16];
		if (sscanf(line, "%63s %15s", name, type) != 2 || !strcmp(type, "os") || !strcmp(name, "ix86arch"))
			continue;
		snprintf(out[n].name, sizeof(out[n].name), "%s", name);
		out[n++].core = !strcmp(type, "core");
	}
	test_run_free(&r);
	return n;
}
