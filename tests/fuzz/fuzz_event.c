/*
 * fuzz_event.c - event strings, the input users type most: the bytes as one
 * string, encoded by pmudb_encode() from the built-in catalog in every
 * kind of scope (none: every PMU; an Intel and an AMD CPU's PMUs from the
 * CPUID map; one PMU), and looked up by pmudb_find_event().
 *
 * Besides crashes and overruns, it checks what every caller relies on: the
 * return is 0 or a known code, equal to err.code; a refusal is one line
 * (whatever the input holds); an encoding names its PMU and has a
 * terminated fstr.  And the built-in
 * catalog is one the build wrote: PMUDB_ERR_CATALOG from it is a finding
 * (the compiler wrote what the runtime refuses).
 */
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "pmudb.h"

static pmudb_t *db;
static struct pmudb_scope scopes[3];
static int nscopes;

static void init(void)
{
	struct pmudb_error err;
	db = pmudb_open(NULL, &err);
	if (!db)
		fuzz_fail("the built-in catalog: %s", err.message);
	static const char *const cpus[] = { "GenuineIntel/6/0x55/4", "AuthenticAMD/0x19/0x61" };
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		struct pmudb_cpu cpu;
		if (pmudb_cpu_parse(cpus[i], &cpu, &err) || pmudb_scope_cpu(db, &cpu, &scopes[nscopes], NULL, &err))
			fuzz_fail("scope of %s: %s", cpus[i], err.message);
		nscopes++;
	}
	if (pmudb_scope_pmu(db, "perf", &scopes[nscopes], &err))
		fuzz_fail("scope of perf: %s", err.message);
	nscopes++;
}

static void check_refusal(int r, const struct pmudb_error *err, const char *s, const char *what)
{
	if (!strcmp(pmudb_error_name(r), "PMUDB_ERR_UNKNOWN") || r != err->code)
		fuzz_fail("%s '%s': returned %d, err.code %d", what, s, r, err->code);
	if (r == PMUDB_ERR_CATALOG)
		fuzz_fail("%s '%s': the built-in catalog refused: %s", what, s, err->message);
	if (!memchr(err->message, '\0', sizeof(err->message)))
		fuzz_fail("%s '%s': unterminated message", what, s);
	if (strpbrk(err->message, "\r\n"))
		fuzz_fail("%s '%s': a message of more than one line: %s", what, s, err->message);
}

static void encode(const char *s, const struct pmudb_scope *scope)
{
	struct pmudb_encoding e;
	struct pmudb_error err;
	int r = pmudb_encode(db, s, scope, &e, &err);
	if (r) {
		check_refusal(r, &err, s, "encode");
		return;
	}
	if (!memchr(e.fstr, '\0', sizeof(e.fstr)) || !memchr(e.pmu, '\0', sizeof(e.pmu)) || !e.pmu[0])
		fuzz_fail("encode '%s': an encoding without a PMU or a terminated fstr", s);
	int pmu, ev;
	r = pmudb_find_event(db, s, scope, &pmu, &ev, &err);
	if (r)
		check_refusal(r, &err, s, "find");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!db)
		init();
	char *s = fuzz_string(data, size);
	encode(s, NULL);
	for (int i = 0; i < nscopes; i++)
		encode(s, &scopes[i]);
	int pmu, ev;
	struct pmudb_error err;
	int r = pmudb_find_event(db, s, NULL, &pmu, &ev, &err);
	if (r)
		check_refusal(r, &err, s, "find");
	else if (pmu < 0 || pmu >= pmudb_pmu_count(db))
		fuzz_fail("find '%s': PMU %d of %d", s, pmu, pmudb_pmu_count(db));
	free(s);
	return 0;
}
