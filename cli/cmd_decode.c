/*
 * cmd_decode.c - pmudb decode: from a raw encoding ("0x1c2", perf's
 * "r01c2", perf's "cpu/event=0xc2,umask=0x1,cmask=1,inv/" or
 * "config,config1,config2") back to the event strings that encode to
 * exactly it (pmudb_decode), or the nearest one with the bits it leaves
 * over named by the PMU's format fields.
 *
 * Which PMUs: the kernel PMU perf's syntax names (uncore_cha_0: the
 * catalog PMUs of that kernel name, those of the selected CPU first);
 * else, and for cpu, cpu_core, cpu_atom and armv8_*, the core PMUs of
 * --pmu, --cpu, --cpuinfo or this host.
 */
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

struct answers {
	struct out *o;
	bool json;
	int count;			/* strings printed for this input */
	int exact;			/* exact strings among them */
	int refused;			/* exact ones that do not take the modifiers */
	pmudb_t *db;
	/* perf's modifiers of the input as libpfm's (":u:precise=2"),
	 * appended to every string, and the registers the strings must give */
	char suffix[64];
	uint64_t config[3];
	const char *kernel_pmu;		/* for naming left-over bits */
	const char *family;
	/* the nearest string over every PMU, kept until all are decoded */
	char nearest[512];
	uint64_t nearest_left[3];
	int nearest_bits;		/* -1: none */
	char nearest_pmu[64], nearest_family[32];
	int type;			/* perf_event_attr.type the strings must give, or -1 */
	/* Arm's architected events decoded on every Arm core of the catalog:
	 * each name once, from the first core that has it */
	bool once_each;
	char seen[64][128];
	int nseen;
};

/* Whether D's string is one once_each has printed already (and notes it). */
static bool printed_before(struct answers *a, const char *event)
{
	const char *name = strstr(event, "::");
	name = name ? name + 2 : event;
	for (int i = 0; i < a->nseen; i++)
		if (!strcmp(a->seen[i], name))
			return true;
	if (a->nseen < 64)
		snprintf(a->seen[a->nseen++], sizeof(a->seen[0]), "%s", name);
	return false;
}

/* Keeps the nearest of all PMUs' nearest strings. */
static int keep_nearest(void *ctx, const struct pmudb_decoded *d)
{
	struct answers *a = ctx;
	int bits = __builtin_popcountll(d->left[0]) + __builtin_popcountll(d->left[1]) + __builtin_popcountll(d->left[2]);
	if (a->nearest_bits < 0 || bits < a->nearest_bits) {
		a->nearest_bits = bits;
		snprintf(a->nearest, sizeof(a->nearest), "%s", d->event);
		memcpy(a->nearest_left, d->left, sizeof(a->nearest_left));
		snprintf(a->nearest_pmu, sizeof(a->nearest_pmu), "%s", a->kernel_pmu);
		snprintf(a->nearest_family, sizeof(a->nearest_family), "%s", a->family ? a->family : "");
	}
	return 0;
}

static int print_answer(void *ctx, const struct pmudb_decoded *d);

/*
 * perf's modifiers MODS as libpfm writes them, into SUFFIX (SIZE bytes):
 * u and k as :u and :k, each p as a precise level, G and H as :mg and :mh
 * (guest, host only), D as :pinned=1, e as :excl=1.  False for one libpfm
 * has no spelling for, which *BAD is then: P (the highest level the
 * machine has), I, S, W, and h (the hypervisor; an AMD PMU's own h is the
 * host).
 */
static bool libpfm_modifiers(const char *mods, char *suffix, size_t size, char *bad)
{
	static const struct {
		char perf;
		const char *libpfm;
	} spelled[] = { { 'u', ":u" }, { 'k', ":k" }, { 'G', ":mg" }, { 'H', ":mh" },
			{ 'D', ":pinned=1" }, { 'e', ":excl=1" } };
	size_t n = 0;
	int precise = 0;
	suffix[0] = '\0';
	for (const char *m = mods; *m; m++)
		if (*m == 'p')
			precise++;
		else if (!strchr("ukGHDe", *m))
			return *bad = *m, false;
	/* each once, in one order, whatever perf's order or repeats */
	for (size_t i = 0; i < sizeof(spelled) / sizeof(spelled[0]); i++)
		if (strchr(mods, spelled[i].perf))
			n += (size_t)snprintf(suffix + n, size - n, "%s", spelled[i].libpfm);
	if (precise)
		snprintf(suffix + n, size - n, ":precise=%d", precise);
	return true;
}

/* Exact strings are printed as they come, with the input's modifiers if
 * the event takes them (and then still exact); a nearest one is kept. */
static int take_answer(void *ctx, const struct pmudb_decoded *d)
{
	struct answers *a = ctx;
	if (!d->exact)
		return keep_nearest(ctx, d);
	if (a->once_each && printed_before(a, d->event))
		return 0;
	if (!a->suffix[0] && a->type < 0)
		return print_answer(ctx, d);
	char event[600];
	struct pmudb_encoding enc;
	snprintf(event, sizeof(event), "%s%s", d->event, a->suffix);
	if (pmudb_encode(a->db, event, NULL, &enc, NULL) || enc.config != a->config[0] || enc.config1 != a->config[1]
	    || enc.config2 != a->config[2])
		return a->refused++, 0;
	/* perf's generic and software events share configs: the type tells */
	if (a->type >= 0 && enc.type != a->type)
		return 0;
	struct pmudb_decoded with = *d;
	with.event = event;
	return print_answer(ctx, &with);
}

/* The kernel's Arm core PMUs: armv8_pmuv3_0 (ACPI), armv8_cortex_a72 ... */
static bool is_arm_name(const char *pmu)
{
	return !fnmatch("armv[89]_*", pmu, 0);
}

static bool is_core_name(const char *pmu)
{
	return !*pmu || !strcmp(pmu, "cpu") || !fnmatch("cpu_*", pmu, 0) || is_arm_name(pmu);
}

/* The PMUs to decode in, into SCOPE (TYPE: a generic or software event's
 * perf type, or -1): their count, or -1 (printed) when the catalog cannot
 * give one. */
static int choose_pmus(struct cli *c, const struct pmudb_raw_event *raw, int type, struct pmudb_scope *scope)
{
	const struct pmudb_scope *sel = cli_scope(c);
	scope->count = 0;
	bool core = is_core_name(raw->pmu), arm = is_arm_name(raw->pmu), generic = type >= 0;
	/* perf's generic names and software events: the catalog's perf PMU */
	if (generic) {
		for (int p = 0; p < pmudb_pmu_count(c->db) && scope->count < PMUDB_SCOPE_MAX; p++) {
			struct pmudb_pmu_info info;
			if (!pmudb_pmu_info(c->db, p, &info) && !strcmp(info.kind, "os") && !strcmp(info.family, "perf"))
				scope->pmus[scope->count++] = p;
		}
		return scope->count;
	}
	for (int pass = 0; pass < 2 && !scope->count; pass++) {
		/* pass 0: the selected PMUs; pass 1 (kernel PMUs, and Arm's core
		 * PMU on a machine that is none): the catalog */
		int n = pass ? pmudb_pmu_count(c->db) : sel->count;
		if (pass && core && !arm)
			break;
		for (int i = 0; i < n && scope->count < PMUDB_SCOPE_MAX; i++) {
			int p = pass ? i : sel->pmus[i];
			struct pmudb_pmu_info info;
			if (pmudb_pmu_info(c->db, p, &info)) {
				cli_damaged(c, "PMU %d", p);
				return -1;
			}
			bool take = arm	   ? !strcmp(info.family, "arm_pmuv3")
				    : core ? !strcmp(info.kind, "core") || c->pmu
					   : info.sysfs_pmu && !strcmp(info.sysfs_pmu, raw->pmu);
			/* a hybrid's cpu_core / cpu_atom: that core PMU only */
			if (core && !fnmatch("cpu_*", raw->pmu, 0) && info.sysfs_pmu && strcmp(info.sysfs_pmu, raw->pmu))
				take = false;
			if (take)
				scope->pmus[scope->count++] = p;
		}
	}
	return scope->count;
}

/* "umask=0x40, inv=1" for the bits LEFT over, by the kernel PMU's format. */
static void name_left(const struct answers *a, const uint64_t left[3], char *buf, size_t size)
{
	struct pmudb_perf_format fmt;
	size_t n = 0;
	uint64_t rest[3] = { left[0], left[1], left[2] };
	buf[0] = '\0';
	if (a->kernel_pmu && !pmudb_perf_format(a->kernel_pmu, a->family, &fmt, NULL))
		for (int t = 0; t < fmt.count && n < size; t++) {
			const struct pmudb_format_term *f = &fmt.terms[t];
			if (!(rest[f->field] & f->mask))
				continue;
			n += (size_t)snprintf(buf + n, size - n, "%s%s=0x%llx", n ? ", " : "", f->name,
					      (unsigned long long)pmudb_format_get(f->mask, rest[f->field] & f->mask));
			rest[f->field] &= ~f->mask;
		}
	static const char *const reg[] = { "config", "config1", "config2" };
	for (int w = 0; w < 3 && n < size; w++)
		if (rest[w])
			n += (size_t)snprintf(buf + n, size - n, "%s%s bits 0x%llx", n ? ", " : "", reg[w],
					      (unsigned long long)rest[w]);
}

static int print_answer(void *ctx, const struct pmudb_decoded *d)
{
	struct answers *a = ctx;
	struct out *o = a->o;
	char named[512];
	if (!d->exact)
		name_left(a, d->left, named, sizeof(named));
	if (a->json) {
		out_str(o, a->count++ ? "," : "");
		out_str(o, "{\"event\":");
		out_json_string(o, d->event);
		out_str(o, d->exact ? ",\"exact\":true" : ",\"exact\":false");
		a->exact += d->exact;
		if (!d->exact) {
			static const char *const reg[] = { "config", "config1", "config2" };
			out_str(o, ",\"left\":{");
			for (int w = 0; w < 3; w++) {
				out_str(o, w ? ",\"" : "\"");
				out_str(o, reg[w]);
				out_str(o, "\":\"");
				out_hex(o, d->left[w]);
				out_char(o, '"');
			}
			out_str(o, "},\"left_fields\":");
			out_json_string(o, named);
		}
		out_char(o, '}');
	} else if (d->exact) {
		out_str(o, "  ");
		out_str(o, d->event);
		out_char(o, '\n');
		a->count++;
		a->exact++;
	} else {
		out_str(o, "  nearest: ");
		out_str(o, d->event);
		out_str(o, "  (left over: ");
		out_str(o, named);
		out_str(o, ")\n");
		a->count++;
	}
	return 0;
}

static void print_registers(struct out *o, const struct pmudb_raw_event *raw, bool json)
{
	static const char *const reg[] = { "config", "config1", "config2" };
	uint64_t v[3] = { raw->config, raw->config1, raw->config2 };
	for (int w = 0; w < 3; w++) {
		if (!json && w && !v[w])
			continue;
		out_str(o, json ? ",\"" : w ? " " : "");
		out_str(o, reg[w]);
		out_str(o, json ? "\":\"" : " ");
		out_hex(o, v[w]);
		if (json)
			out_char(o, '"');
	}
}

/* One input: parsed, decoded in each PMU; the status for it. */
static int decode_one(struct cli *c, const char *input, bool json, int max, struct out *o)
{
	struct pmudb_raw_event raw;
	struct pmudb_error err;
	const struct pmudb_scope *sel = cli_scope(c);
	const char *family = NULL;
	struct pmudb_pmu_info info;
	for (int i = 0; i < sel->count && !family; i++) {
		if (pmudb_pmu_info(c->db, sel->pmus[i], &info)) {
			out_flush(o);
			cli_damaged(c, "PMU %d", sel->pmus[i]);
			return EXIT_USAGE;
		}
		if (!strcmp(info.kind, "core"))
			family = info.family;
	}
	/* perf's generic names ("cycles:u", "L1-dcache-load-misses/name=x/")
	 * read as the software PMU's syntax with their config */
	int type = -1;
	uint64_t generic_config;
	char rewritten[1200];
	size_t name_len = strcspn(input, ":/");
	const char *text = input;
	if (strlen(input) < 1024 && !pmudb_perf_generic(input, name_len, &type, &generic_config)) {
		const char *rest = input + name_len;
		snprintf(rewritten, sizeof(rewritten), "software/config=0x%llx%s%s", (unsigned long long)generic_config,
			 *rest == '/' ? "," : "/", *rest == '/' || *rest == ':' ? rest + 1 : rest);
		text = rewritten;
	}
	if (pmudb_perf_parse(text, family, &raw, &err)) {
		out_flush(o);
		fprintf(stderr, "pmudb: decode: %s: %s\n", input, err.message);
		return EXIT_REJECTED;
	}
	if (type < 0 && !strcmp(raw.pmu, "software"))
		type = 1;	/* PERF_TYPE_SOFTWARE */
	struct pmudb_scope scope;
	int chosen = choose_pmus(c, &raw, type, &scope);
	if (chosen < 0)
		return EXIT_USAGE;
	if (!chosen) {
		out_flush(o);
		if (is_core_name(raw.pmu) && cli_scope_damaged(c, "decode"))
			return EXIT_USAGE;
		if (!c->has_scope && is_core_name(raw.pmu))
			fprintf(stderr, "pmudb: decode: %s: %s (name the PMU with --pmu or --cpu)\n", input,
				c->scope_error.message);
		else
			fprintf(stderr, "pmudb: decode: %s: no PMU of the catalog %s\n", input,
				*raw.pmu && !is_core_name(raw.pmu) ? "has that kernel name" : "is a core PMU of the selected CPU");
		return EXIT_REJECTED;
	}
	struct answers a = { .o = o, .json = json, .nearest_bits = -1, .db = c->db, .type = type,
			     .once_each = is_arm_name(raw.pmu) && scope.count > 1,
			     .config = { raw.config, raw.config1, raw.config2 } };
	char bad;
	if (!libpfm_modifiers(raw.modifiers, a.suffix, sizeof(a.suffix), &bad)) {
		out_flush(o);
		fprintf(stderr, "pmudb: decode: %s: perf's modifier '%c' has no libpfm spelling\n", input, bad);
		return EXIT_REJECTED;
	}
	if (json) {
		out_str(o, "{\"input\":");
		out_json_string(o, input);
		print_registers(o, &raw, true);
		out_str(o, ",\"answers\":[");
	} else {
		out_str(o, input);
		out_str(o, ": ");
		print_registers(o, &raw, false);
		out_char(o, '\n');
	}
	for (int i = 0; i < scope.count; i++) {
		if (pmudb_pmu_info(c->db, scope.pmus[i], &info)) {
			if (json)
				out_str(o, "]}\n");	/* what was opened is closed: the JSON stays whole */
			out_flush(o);
			cli_damaged(c, "PMU %d", scope.pmus[i]);
			return EXIT_USAGE;
		}
		a.kernel_pmu = *raw.pmu ? raw.pmu
			     : info.sysfs_pmu ? info.sysfs_pmu : !strcmp(info.family, "arm_pmuv3") ? "armv8_pmuv3_0" : "cpu";
		a.family = info.family;
		pmudb_decoder_t *dec = pmudb_decoder_open(c->db, scope.pmus[i], &err);
		if (!dec && err.code == PMUDB_ERR_NOTSUPP)
			continue;	/* no named events (perf_raw, NetBurst) */
		int n = dec ? pmudb_decode(dec, raw.config, raw.config1, raw.config2, max, take_answer, &a, &err) : -1;
		pmudb_decoder_close(dec);
		if (n < 0) {
			if (json)
				out_str(o, "]}\n");
			out_flush(o);
			fprintf(stderr, "pmudb: decode: %s: %s\n", input, err.message);
			return EXIT_USAGE;
		}
	}
	int exact = a.exact;
	if (!exact && a.nearest_bits > 0) {
		struct pmudb_decoded d = { a.nearest, false, { a.nearest_left[0], a.nearest_left[1], a.nearest_left[2] } };
		a.kernel_pmu = a.nearest_pmu;
		a.family = a.nearest_family;
		print_answer(&a, &d);
	}
	if (json)
		out_str(o, "]}\n");
	else if (!a.count && a.refused) {
		out_str(o, "  no event string that encodes to it takes ");
		out_str(o, a.suffix);
		out_char(o, '\n');
	} else if (!a.count)
		out_str(o, "  no event string of these PMUs comes near it\n");
	return exact ? EXIT_GOOD : EXIT_REJECTED;
}

static const char help[] =
	"usage: pmudb decode [--json] [--max N] ENCODING...\n"
	"  ENCODING: 0x1c2 | config,config1[,config2] | r01c2 (perf raw) |\n"
	"            PMU/term=value,.../ as perf writes it (cpu/event=0xc2,umask=0x1,cmask=1,inv/,\n"
	"            uncore_cha_0/event=0x35,umask=0x21,config1=0x40/)\n"
	"  Prints the event strings that encode to exactly it, shortest first (at most N, default 10),\n"
	"  or the nearest one with the bits it leaves over.  perf's modifiers after the '/' are kept\n"
	"  in libpfm's spelling (u k, p as :precise=N, G :mg, H :mh, D :pinned=1, e :excl=1).\n"
	"  PMUs: the kernel PMU named, else the core PMUs of --pmu, --cpu, --cpuinfo or this host.\n"
	"  exit status: 0 every encoding decoded exactly, 1 one had no exact string (or was malformed),\n"
	"  2 usage or catalog error\n";

int cmd_decode(struct cli *c, int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "max", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false;
	int max = 10, opt;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		char *end;
		switch (opt) {
		case 'j': json = true; break;
		case 'm':
			max = (int)strtol(optarg, &end, 10);
			if (*end || max < 1 || max > 10000) {
				fprintf(stderr, "pmudb decode: --max %s: a number from 1 to 10000\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h': fputs(help, stdout); return EXIT_GOOD;
		default: return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fputs("pmudb decode: no encoding given (see pmudb decode --help)\n", stderr);
		return EXIT_USAGE;
	}
	int status = cli_open(c);
	struct out o;
	out_start(&o, stdout);
	for (int i = optind; status != EXIT_USAGE && i < argc; i++) {
		int s = decode_one(c, argv[i], json, max, &o);
		if (s > status)
			status = s;
		out_flush(&o);
	}
	cli_close(c);
	return status;
}
