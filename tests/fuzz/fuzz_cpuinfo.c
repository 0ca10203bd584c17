/*
 * fuzz_cpuinfo.c - what says which CPU a catalog is asked about: the bytes
 * as a /proc/cpuinfo file (pmudb_cpu_from_cpuinfo, which `--cpuinfo FILE`
 * and $PMUDB_CPUINFO feed another machine's file to) and as a
 * VENDOR/FAMILY/MODEL[/STEPPING] string (pmudb_cpu_parse, `--cpu`); a CPU
 * read is then looked up in the built-in catalog's CPUID map
 * (pmudb_scope_cpu) and the first PMU of its scope used.
 *
 * Checked besides crashes: a CPU read has a terminated vendor and numbers
 * in range; a refusal is one line and a known code; a scope has at most
 * PMUDB_SCOPE_MAX PMUs, each a PMU of the catalog.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "pmudb.h"

static pmudb_t *db;

static void check_refusal(int r, const struct pmudb_error *err, const char *what)
{
	if (!strcmp(pmudb_error_name(r), "PMUDB_ERR_UNKNOWN") || r != err->code || r == PMUDB_ERR_CATALOG)
		fuzz_fail("%s: returned %d (%s), err.code %d", what, r, err->message, err->code);
	if (!memchr(err->message, '\0', sizeof(err->message)) || strpbrk(err->message, "\r\n"))
		fuzz_fail("%s: a message not of one line: %s", what, err->message);
}

static void use_cpu(const struct pmudb_cpu *cpu, const char *what)
{
	if (!memchr(cpu->vendor, '\0', sizeof(cpu->vendor)) || cpu->family < 0 || cpu->model < 0 || cpu->stepping < -1)
		fuzz_fail("%s: a CPU out of range: family %d model %d stepping %d", what, cpu->family, cpu->model,
			  cpu->stepping);
	struct pmudb_scope scope;
	struct pmudb_cpu_match match;
	struct pmudb_error err;
	int r = pmudb_scope_cpu(db, cpu, &scope, &match, &err);
	if (r) {
		check_refusal(r, &err, what);
		return;
	}
	if (scope.count < 1 || scope.count > PMUDB_SCOPE_MAX)
		fuzz_fail("%s: a scope of %d PMUs", what, scope.count);
	for (int i = 0; i < scope.count; i++)
		if (scope.pmus[i] < 0 || scope.pmus[i] >= pmudb_pmu_count(db))
			fuzz_fail("%s: PMU %d in the scope, of %d", what, scope.pmus[i], pmudb_pmu_count(db));
	if (!memchr(match.why, '\0', sizeof(match.why)) || !memchr(match.source, '\0', sizeof(match.source)))
		fuzz_fail("%s: an unterminated match", what);
	struct pmudb_pmu_info info;
	if (pmudb_pmu_info(db, scope.pmus[0], &info))
		fuzz_fail("%s: PMU %d of the scope has no info", what, scope.pmus[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmudb_error err;
	if (!db && !(db = pmudb_open(NULL, &err)))
		fuzz_fail("the built-in catalog: %s", err.message);
	struct pmudb_cpu cpu;
	int r = pmudb_cpu_from_cpuinfo(fuzz_file(data, size), &cpu, &err);
	if (r)
		check_refusal(r, &err, "cpuinfo");
	else
		use_cpu(&cpu, "cpuinfo");
	char *s = fuzz_string(data, size);
	r = pmudb_cpu_parse(s, &cpu, &err);
	if (r)
		check_refusal(r, &err, "cpu spec");
	else
		use_cpu(&cpu, "cpu spec");
	free(s);
	return 0;
}
