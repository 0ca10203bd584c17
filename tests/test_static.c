/*
 * test_static.c - the static binaries of `make static` and `make dist`:
 * no dynamic dependency; every command in an empty root (a directory
 * holding only the binary, entered with chroot(8), else a user namespace)
 * answering as build/pmudb does; the arm64 binary under qemu-user
 * answering a few thousand harness strings byte for byte as the native
 * one, and detecting the CPU from /proc/cpuinfo and the MIDR in sysfs in
 * an empty root; the dist tarball.
 *
 * The arm64 tests print a SKIP line naming the missing package where the
 * cross toolchain or qemu is not installed (`make check` installs them as
 * root: `make deps-cross`).
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "pmudb.h"
#include "tests/testlib.h"

#define FIXTURES "tests/fixtures/cpuinfo/"
#define SKYLAKE FIXTURES "skylake_i7_6700.txt"
#define NEOVERSE_N2 FIXTURES "neoverse_n2.txt"
#define QEMU "/usr/bin/qemu-aarch64-static"
/* every Nth string of the harness corpus (1.2 million) for the arm64 comparison */
#define CORPUS_SAMPLE "300"

#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#define HOST_ARCH "x86_64"
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#define HOST_ARCH "aarch64"
#else
#error "pmudb's static builds are for x86-64 and arm64"
#endif

static char *native, *static_bin, *arm_bin, *harness, *tmp;

static int setup(void **state)
{
	(void)state;
	native = test_build_path("pmudb");
	static_bin = test_build_path("pmudb-static");
	arm_bin = test_build_path("arm64/pmudb-static");
	harness = test_build_path("tests/harness");
	tmp = test_tempdir();
	unsetenv("PMUDB_DB");
	unsetenv("PMUDB_CPUINFO");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	test_rmtree(tmp);
	free(tmp);
	free(native);
	free(static_bin);
	free(arm_bin);
	free(harness);
	return 0;
}

/* ---- helpers ------------------------------------------------------------- */

static void run_native(struct run_result *r, const char *const *args, const char *input)
{
	char *argv[32];
	int n = 0;
	argv[n++] = native;
	while (*args && n < 31)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	test_run(argv, input, r);
}

/* How an empty root is entered: chroot(8) as root, else unshare(1) -r. */
enum enter { ENTER_CHROOT, ENTER_UNSHARE };

/* Runs /pmudb in ROOT (under /qemu-aarch64 when ARM) with ARGS. */
static void run_in_root(struct run_result *r, enum enter how, const char *root, bool arm, const char *const *args,
			const char *input)
{
	char *argv[40];
	int n = 0;
	if (how == ENTER_CHROOT) {
		argv[n++] = "/usr/sbin/chroot";
	} else {
		argv[n++] = "/usr/bin/unshare";
		argv[n++] = "-r";
		argv[n++] = "--root";
	}
	argv[n++] = (char *)root;
	if (arm)
		argv[n++] = "/qemu-aarch64";
	argv[n++] = "/pmudb";
	while (*args && n < 39)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	test_run(argv, input, r);
}

/* A fresh directory under the test's temporary one, holding only the
 * binary BIN as /pmudb (and qemu as /qemu-aarch64 for the arm64 one). */
static char *make_root(const char *name, const char *bin, bool arm)
{
	char *root = NULL, *dst = NULL;
	if (asprintf(&root, "%s/%s", tmp, name) < 0 || mkdir(root, 0755))
		fail_msg("cannot make %s/%s", tmp, name);
	if (asprintf(&dst, "%s/pmudb", root) < 0 || test_copy_file(bin, dst) || chmod(dst, 0755))
		fail_msg("cannot copy %s into %s", bin, root);
	free(dst);
	if (arm) {
		if (asprintf(&dst, "%s/qemu-aarch64", root) < 0 || test_copy_file(QEMU, dst) || chmod(dst, 0755))
			fail_msg("cannot copy %s into %s", QEMU, root);
		free(dst);
	}
	return root;
}

/* Writes TEXT to ROOT/PATH, making the directories on the way. */
static void put_file(const char *root, const char *path, const char *text)
{
	char full[1024];
	snprintf(full, sizeof(full), "%s/%s", root, path);
	for (char *s = full + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(full, 0755);
		*s = '/';
	}
	FILE *f = fopen(full, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Which way into ROOT works here; false (WHY says why) if none. */
static bool find_entry(const char *root, bool arm, enum enter *how, char *why, size_t whylen)
{
	static const char *const version[] = { "--version", NULL };
	struct run_result r;
	run_in_root(&r, ENTER_CHROOT, root, arm, version, NULL);
	bool ok = r.status == 0 && !strncmp(r.out, "pmudb ", 6);
	char first[512];
	snprintf(first, sizeof(first), "chroot: status %d, %.400s", r.status, r.err);
	test_run_free(&r);
	if (ok) {
		*how = ENTER_CHROOT;
		return true;
	}
	run_in_root(&r, ENTER_UNSHARE, root, arm, version, NULL);
	ok = r.status == 0 && !strncmp(r.out, "pmudb ", 6);
	snprintf(why, whylen, "%s; unshare -r --root: status %d, %.400s", first, r.status, r.err);
	test_run_free(&r);
	*how = ENTER_UNSHARE;
	for (char *c = why; *c; c++)
		if (*c == '\n')
			*c = ' ';
	return ok;
}

/* The ELF file at PATH is for MACHINE and has no ELF interpreter and no
 * dynamic section: nothing is loaded beside it. */
static void assert_static_elf(const char *path, int machine)
{
	size_t size;
	char *data = test_read_file(path, &size);
	if (!data)
		fail_msg("%s: missing (make static)", path);
	const Elf64_Ehdr *h = (const Elf64_Ehdr *)data;
	assert_true(size >= sizeof(*h) && !memcmp(h->e_ident, ELFMAG, SELFMAG) && h->e_ident[EI_CLASS] == ELFCLASS64);
	assert_int_equal(h->e_machine, machine);
	assert_int_equal(h->e_type, ET_EXEC);
	assert_true(h->e_phoff + (size_t)h->e_phnum * sizeof(Elf64_Phdr) <= size);
	for (int i = 0; i < h->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(data + h->e_phoff + (size_t)i * sizeof(Elf64_Phdr));
		if (ph->p_type == PT_INTERP || ph->p_type == PT_DYNAMIC)
			fail_msg("%s: has a %s program header: not static", path, ph->p_type == PT_INTERP ? "PT_INTERP" : "PT_DYNAMIC");
	}
	free(data);
}

/* nm's symbols of PATH: the catalog's bounds, and none of glibc's functions
 * that load NSS modules at run time (which a static glibc cannot do). */
static void assert_symbols(const char *path)
{
	char *argv[] = { "/usr/bin/nm", (char *)path, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	assert_int_equal(r.status, 0);
	static const char *const nss[] = { " getpwnam", " getpwuid", " getgrnam", " getgrgid", " getaddrinfo",
					   " gethostbyname", " getservbyname", " __nss_" };
	for (size_t i = 0; i < sizeof(nss) / sizeof(nss[0]); i++)
		if (strstr(r.out, nss[i]))
			fail_msg("%s: has%s*, which loads NSS modules at run time", path, nss[i]);
	unsigned long long lo = 0, hi = 0;
	for (char *line = r.out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		unsigned long long addr;
		char name[64];
		if (sscanf(line, "%llx %*s %63s", &addr, name) != 2)
			continue;
		if (!strcmp(name, "pmudb_builtin_catalog"))
			lo = addr;
		else if (!strcmp(name, "pmudb_builtin_catalog_end"))
			hi = addr;
	}
	test_run_free(&r);
	char *db = test_build_path("pmudb.db");
	struct stat st;
	assert_int_equal(stat(db, &st), 0);
	free(db);
	/* the whole catalog is inside */
	assert_true(lo && hi > lo);
	assert_int_equal(hi - lo, (unsigned long long)st.st_size);
}

/* A missing package of the arm64 tests (what `make deps-cross` installs),
 * or NULL. */
static const char *arm64_missing(void)
{
	static const struct { const char *file, *package; } needs[] = {
		{ "/usr/bin/aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu" },
		{ "/usr/aarch64-linux-gnu/lib/libc.a", "libc6-dev-arm64-cross" },
		{ "/usr/lib/aarch64-linux-gnu/libsqlite3.a", "libsqlite3-dev:arm64" },
		{ QEMU, "qemu-user-static" },
	};
	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
		if (access(needs[i].file, F_OK))
			return needs[i].package;
	return NULL;
}

/* Skips the test (SKIP line naming the missing package) when the arm64
 * binary cannot be built or run here; fails when it could but was not. */
#define REQUIRE_ARM64()                                                                                           \
	do {                                                                                                      \
		const char *missing_ = arm64_missing();                                                          \
		if (HOST_MACHINE == EM_AARCH64) {                                                                 \
			printf("SKIP: %s: this host is arm64, build/pmudb-static is the arm64 binary\n", __func__); \
			skip();                                                                                   \
		}                                                                                                 \
		if (missing_) {                                                                                   \
			printf("SKIP: %s: arm64 binary not tested (package %s not installed)\n", __func__, missing_); \
			skip();                                                                                   \
		}                                                                                                 \
		if (access(arm_bin, F_OK))                                                                        \
			fail_msg("%s: missing, though the cross toolchain is here (make static ARCH=arm64)", arm_bin); \
	} while (0)

/* Compares the native answers A with those from the empty root B, line by
 * line: the same, except that where the native binary read an uncore PMU's
 * type from this host's sysfs, the empty root (no /sys) leaves it -1. */
static void assert_same_lines(const char *a, const char *b)
{
	char *x = strdup(a), *y = strdup(b), *sx = NULL, *sy = NULL;
	int line = 0;
	char *la = strtok_r(x, "\n", &sx), *lb = strtok_r(y, "\n", &sy);
	for (; la && lb; la = strtok_r(NULL, "\n", &sx), lb = strtok_r(NULL, "\n", &sy)) {
		line++;
		if (!strcmp(la, lb))
			continue;
		char name[128], path[256], expect[4096];
		const char *s = strstr(la, "\"sysfs_pmu\":\""), *t = strstr(la, "\"type\":");
		bool explained = false;
		if (s && t && sscanf(s + 13, "%127[^\"]", name) == 1) {
			snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", name);
			const char *comma = strchr(t, ',');
			if (!access(path, F_OK) && comma) {
				snprintf(expect, sizeof(expect), "%.*s\"type\":-1%s", (int)(t - la), la, comma);
				explained = !strcmp(expect, lb);
			}
		}
		if (!explained)
			fail_msg("line %d differs:\n  native:     %.300s\n  empty root: %.300s", line, la, lb);
	}
	if (la || lb)
		fail_msg("line %d: one output is longer: %.200s", line + 1, la ? la : lb);
	free(x);
	free(y);
}

/* Every Nth string of the harness corpus, one a line. */
static char *corpus_sample(void)
{
	char *argv[] = { harness, "--print", "--sample", CORPUS_SAMPLE, NULL };
	struct run_result r;
	test_run(argv, NULL, &r);
	if (r.status != 0)
		fail_msg("%s --print: status %d: %.300s", harness, r.status, r.err);
	free(r.err);
	assert_true(test_line_count(r.out) > 2000);
	return r.out;
}

/* ---- the tests ------------------------------------------------------------- */

static void test_no_dynamic_dependency(void **state)
{
	(void)state;
	assert_static_elf(static_bin, HOST_MACHINE);
	assert_symbols(static_bin);
}

static void test_arm64_no_dynamic_dependency(void **state)
{
	(void)state;
	REQUIRE_ARM64();
	assert_static_elf(arm_bin, EM_AARCH64);
	assert_symbols(arm_bin);
}

/* Every command in a root holding only the static binary (and a cpuinfo
 * file), as build/pmudb answers it here. */
static void test_every_command_in_an_empty_root(void **state)
{
	(void)state;
	char *root = make_root("root", static_bin, false);
	char *cpuinfo = NULL;
	assert_true(asprintf(&cpuinfo, "%s/cpuinfo.txt", root) > 0);
	assert_int_equal(test_copy_file(SKYLAKE, cpuinfo), 0);
	free(cpuinfo);
	enum enter how;
	char why[1024];
	if (!find_entry(root, false, &how, why, sizeof(why))) {
		printf("SKIP: %s: cannot enter an empty root here: %s\n", __func__, why);
		free(root);
		skip();
	}
	/* @ stands for the cpuinfo file: /cpuinfo.txt inside, the fixture outside */
	static const struct {
		const char *args[8];
		int status;
		const char *expect;	/* in stdout, or stderr when empty */
	} cases[] = {
		{ { "--version" }, 0, "pmudb " PMUDB_VERSION },
		{ { "--help" }, 0, "exit status" },
		{ { "encode", "skl::INST_RETIRED:ANY_P" }, 0, "config          0xc0\n" },
		{ { "encode", "--format", "json", "skl::INST_RETIRED:ANY_P:c=1" }, 0, "\"config\":\"0x10000c0\"" },
		{ { "encode", "--format", "perf", "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:u" }, 0, "cpu/config=0xc0,name=amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:u/u\n" },
		{ { "encode", "skl::INST_RETIRED:NO_SUCH_UMASK" }, 1, NULL },
		{ { "--cpuinfo", "@", "encode", "INST_RETIRED:ANY_P" }, 0, "skl::INST_RETIRED:ANY_P:" },
		{ { "pmus" }, 0, "amd64_fam19h_zen4" },
		{ { "list", "skl" }, 0, "skl::INST_RETIRED\n" },
		{ { "list", "no_such_pmu" }, 1, NULL },
		{ { "info", "amd64_fam19h_zen4::RETIRED_SSE_AVX_FLOPS" }, 0, "modifiers:" },
		{ { "search", "RETIRED_SSE_AVX" }, 0, "amd64_fam19h_zen4::RETIRED_SSE_AVX_FLOPS" },
		{ { "search", "no such text anywhere" }, 1, NULL },
		{ { "detect", "--cpuinfo", "@" }, 0, "pmus      skl" },
		{ { "--cpuinfo", "@", "detect", "--json" }, 0, "\"pmus\":[\"skl\"" },
		{ { "--cpu", "GenuineIntel/6/0x01", "detect" }, 1, NULL },
		{ { "--db", "/no/such/pmudb.db", "pmus" }, 2, NULL },
#if defined(__x86_64__)
		/* CPUID needs no /proc: the same answer as on this host */
		{ { "detect" }, -1, NULL },
#endif
	};
	/* detect lists the kernel PMUs this machine's sysfs has, which the
	 * empty root does not see: both runs are shown none */
	setenv("PMUDB_SYSFS_DEVICES", "/no/such/sysfs/devices", 1);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *inside[8] = { 0 }, *outside[8] = { 0 };
		char shown[256] = "";
		for (int a = 0; a < 7 && cases[i].args[a]; a++) {
			bool at = !strcmp(cases[i].args[a], "@");
			inside[a] = at ? "/cpuinfo.txt" : cases[i].args[a];
			outside[a] = at ? SKYLAKE : cases[i].args[a];
			snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown), " %s", inside[a]);
		}
		struct run_result in, out;
		run_in_root(&in, how, root, false, inside, NULL);
		run_native(&out, outside, NULL);
		if (cases[i].status >= 0 && in.status != cases[i].status)
			fail_msg("pmudb%s in the empty root: status %d, expected %d: %.300s", shown, in.status,
				 cases[i].status, in.err);
		if (in.status != out.status || strcmp(in.out, out.out) || strcmp(in.err, out.err))
			fail_msg("pmudb%s: the empty root answers otherwise than %s:\n  status %d / %d\n  stdout %.300s\n"
				 "  / %.300s\n  stderr %.300s / %.300s", shown, native, in.status, out.status, in.out,
				 out.out, in.err, out.err);
		if (cases[i].expect && !strstr(in.out, cases[i].expect))
			fail_msg("pmudb%s: no '%s' in: %.300s", shown, cases[i].expect, in.out);
		if (in.status)
			assert_int_equal(test_line_count(in.err), 1);	/* every error is one line */
		test_run_free(&in);
		test_run_free(&out);
	}
	unsetenv("PMUDB_SYSFS_DEVICES");

	/* --stdin: a sample of the corpus, bad lines included */
	char *input = corpus_sample();
	static const char *const stdin_args[] = { "--cpuinfo", "/cpuinfo.txt", "encode", "--stdin", NULL };
	static const char *const stdin_native[] = { "--cpuinfo", SKYLAKE, "encode", "--stdin", NULL };
	struct run_result in, out;
	run_in_root(&in, how, root, false, stdin_args, input);
	run_native(&out, stdin_native, input);
	assert_int_equal(in.status, 1);	/* the corpus has bad strings */
	assert_int_equal(out.status, 1);
	assert_int_equal(test_line_count(in.out), test_line_count(input));
	assert_same_lines(out.out, in.out);
	assert_string_equal(in.err, "");
	test_run_free(&in);
	test_run_free(&out);
	free(input);

	/* no /proc: the cpuinfo the user names is missing, in one line */
	static const char *const proc[] = { "--cpuinfo", "/proc/cpuinfo", "detect", NULL };
	run_in_root(&in, how, root, false, proc, NULL);
	assert_int_equal(in.status, 2);
	assert_string_equal(in.out, "");
	assert_int_equal(test_line_count(in.err), 1);
	assert_non_null(strstr(in.err, "/proc/cpuinfo: cannot read: No such file or directory"));
	test_run_free(&in);
	free(root);
}

/* The arm64 binary under qemu-user against the native one: a few thousand
 * strings of the harness corpus through encode --stdin, byte for byte. */
static void test_arm64_answers_as_native(void **state)
{
	(void)state;
	REQUIRE_ARM64();
	char *input = corpus_sample();
	/* the same CPU for names without pmu:: (qemu shows the guest this
	 * host's x86 /proc/cpuinfo) */
	char *argv_arm[] = { QEMU, arm_bin, "--cpuinfo", SKYLAKE, "encode", "--stdin", NULL };
	char *argv_native[] = { native, "--cpuinfo", SKYLAKE, "encode", "--stdin", NULL };
	struct run_result a, n;
	test_run(argv_arm, input, &a);
	test_run(argv_native, input, &n);
	assert_int_equal(n.status, 1);	/* the corpus has bad strings */
	assert_int_equal(a.status, n.status);
	assert_int_equal(test_line_count(n.out), test_line_count(input));
	if (strcmp(a.out, n.out)) {
		size_t i = 0;
		while (a.out[i] == n.out[i])
			i++;
		while (i && n.out[i - 1] != '\n')
			i--;
		fail_msg("arm64 and native answers differ from byte %zu:\n  arm64:  %.300s\n  native: %.300s", i, a.out + i,
			 n.out + i);
	}
	assert_string_equal(a.err, n.err);
	int errors = 0;
	for (const char *p = n.out; (p = strstr(p, "\"error_code\":")); p++)
		errors++;
	printf("arm64 under qemu: %d corpus strings, %d encoded and %d refused, byte for byte as native\n",
	       test_line_count(input), test_line_count(input) - errors, errors);
	test_run_free(&a);
	test_run_free(&n);
	free(input);

	/* and the other commands */
	static const char *const cmds[][4] = {
		{ "pmus" }, { "list", "arm_n2" }, { "info", "arm_n2::CPU_CYCLES" }, { "search", "CPU_CYCLES" },
		{ "--cpu", "0x41/8/0xd49", "detect" }, { "encode", "arm_n2::CPU_CYCLES:u" },
	};
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *av[8] = { QEMU, arm_bin }, *nv[8] = { native };
		for (int k = 0; k < 4 && cmds[i][k]; k++)
			av[2 + k] = nv[1 + k] = (char *)cmds[i][k];
		test_run(av, NULL, &a);
		test_run(nv, NULL, &n);
		assert_int_equal(n.status, 0);
		if (a.status != n.status || strcmp(a.out, n.out) || strcmp(a.err, n.err))
			fail_msg("pmudb %s %s: arm64 answers otherwise: status %d / %d, %.200s / %.200s", cmds[i][0],
				 cmds[i][1] ? cmds[i][1] : "", a.status, n.status, a.out, n.out);
		test_run_free(&a);
		test_run_free(&n);
	}
}

/* The arm64 binary in an empty root (with qemu-aarch64-static, itself a
 * static binary): the CPU from /proc/cpuinfo, the MIDR in sysfs first, and
 * neither there answered in one line. */
static void test_arm64_detection_in_an_empty_root(void **state)
{
	(void)state;
	REQUIRE_ARM64();
	char *root = make_root("arm64-root", arm_bin, true);
	enum enter how;
	char why[1024];
	if (!find_entry(root, true, &how, why, sizeof(why))) {
		printf("SKIP: %s: cannot enter an empty root here: %s\n", __func__, why);
		free(root);
		skip();
	}
	static const char *const detect[] = { "detect", "--json", NULL };
	static const char *const plain[] = { "detect", NULL };
	static const char *const encode[] = { "encode", "--format", "json", "CPU_CYCLES:u", NULL };
	struct run_result r;

	/* no /proc, no /sys */
	run_in_root(&r, how, root, true, plain, NULL);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_int_equal(test_line_count(r.err), 1);
	assert_non_null(strstr(r.err, "/proc/cpuinfo: cannot read: No such file or directory"));
	test_run_free(&r);
	/* names without pmu:: have no CPU to resolve in: one line, status 1 */
	run_in_root(&r, how, root, true, encode, NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(test_line_count(r.err), 1);
	test_run_free(&r);

	/* a Neoverse N2's /proc/cpuinfo */
	char *text = test_read_file(NEOVERSE_N2, NULL);
	assert_non_null(text);
	put_file(root, "proc/cpuinfo", text);
	free(text);
	run_in_root(&r, how, root, true, detect, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"vendor\":\"0x41\",\"family\":8,\"model\":3401,"));
	assert_non_null(strstr(r.out, "\"pmus\":[\"arm_n2\"]"));
	test_run_free(&r);
	run_in_root(&r, how, root, true, encode, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"pmu\":\"arm_n2\""));
	assert_non_null(strstr(r.out, "\"config\":\"0x11\""));
	test_run_free(&r);

	/* the MIDR in sysfs comes first: a Neoverse V1 */
	put_file(root, "sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "0x00000000410fd401\n");
	run_in_root(&r, how, root, true, detect, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"model\":3392,\"stepping\":1,"));
	assert_non_null(strstr(r.out, "\"pmus\":[\"arm_v1\"]"));
	test_run_free(&r);
	free(root);
}

/* make dist: the static binary, the catalog, the man pages and the README,
 * and the binary from it works with the catalog file beside it. */
static void test_dist_tarball(void **state)
{
	(void)state;
	char *tgz = test_build_path("pmudb-" PMUDB_VERSION "-" HOST_ARCH ".tar.gz");
	char *dir = NULL;
	assert_true(asprintf(&dir, "%s/dist", tmp) > 0);
	assert_int_equal(mkdir(dir, 0755), 0);
	char *tar[] = { "/usr/bin/tar", "-xzf", tgz, "-C", dir, NULL };
	struct run_result r;
	test_run(tar, NULL, &r);
	if (r.status)
		fail_msg("%s: cannot extract (make dist): %.300s", tgz, r.err);
	test_run_free(&r);
	static const struct { const char *in_tarball, *from; } files[] = {
		{ "pmudb", "@pmudb-static" }, { "pmudb.db", "@pmudb.db" }, { "README.md", "README.md" },
		{ "man/man1/pmudb.1", "docs/pmudb.1" }, { "man/man3/libpmudb.3", "docs/libpmudb.3" },
	};
	char path[1024];
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/pmudb-%s-%s/%s", dir, PMUDB_VERSION, HOST_ARCH, files[i].in_tarball);
		char *from = files[i].from[0] == '@' ? test_build_path(files[i].from + 1) : strdup(files[i].from);
		if (!test_files_equal(path, from))
			fail_msg("%s: not in %s, or not %s", files[i].in_tarball, tgz, from);
		free(from);
	}
	snprintf(path, sizeof(path), "%s/pmudb-%s-%s/pmudb", dir, PMUDB_VERSION, HOST_ARCH);
	char db[1024];
	snprintf(db, sizeof(db), "%s/pmudb-%s-%s/pmudb.db", dir, PMUDB_VERSION, HOST_ARCH);
	char *run[] = { path, "--db", db, "encode", "--format", "perf", "skl::INST_RETIRED:ANY_P:u", NULL };
	test_run(run, NULL, &r);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "cpu/config=0xc0,name=skl::INST_RETIRED:ANY_P:u/u\n");
	test_run_free(&r);
	free(dir);
	free(tgz);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_dynamic_dependency),
		cmocka_unit_test(test_arm64_no_dynamic_dependency),
		cmocka_unit_test(test_every_command_in_an_empty_root),
		cmocka_unit_test(test_arm64_answers_as_native),
		cmocka_unit_test(test_arm64_detection_in_an_empty_root),
		cmocka_unit_test(test_dist_tarball),
	};
	return cmocka_run_group_tests_name("static", tests, setup, teardown);
}
