/*
 * cmd_encode.c - pmudb encode: event strings to perf_event_attr fields.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "cli/cli.h"

enum format { TEXT, JSON, PERF };

/* What follows the strings of a line is at most this long (465 bytes:
 * ten flags of twenty digits, a type, three configs and the names): its
 * numbers and names go through one cursor (output.h). */
#define JSON_TAIL_MAX 512

/* The names are literals: their lengths are known when compiling, and
 * each copy is a few moves (a call to copy each was a sixth of printing a
 * batch's line). */
#define json_field(o, name) out_lit((o), ",\"" name "\":")
#define put_flag(p, name, v) put_digits(put_lit((p), ",\"" name "\":"), (v))

/* E's fields, each after a ',' (the object's braces are the caller's). */
static void print_json_fields(struct out *o, const struct pmudb_encoding *e)
{
	json_field(o, "pmu");
	out_json_string(o, e->pmu);
	json_field(o, "fstr");
	out_json_string(o, e->fstr);
	char *p = out_room(o, JSON_TAIL_MAX);
	p = put_int(put_lit(p, ",\"type\":"), e->type);
	p = put_hex(put_lit(p, ",\"config\":\""), e->config);
	p = put_hex(put_lit(p, "\",\"config1\":\""), e->config1);
	p = put_hex(put_lit(p, "\",\"config2\":\""), e->config2);
	p = put_lit(p, "\"");
	p = put_flag(p, "exclude_user", e->exclude_user);
	p = put_flag(p, "exclude_kernel", e->exclude_kernel);
	p = put_flag(p, "exclude_hv", e->exclude_hv);
	p = put_flag(p, "exclude_host", e->exclude_host);
	p = put_flag(p, "exclude_guest", e->exclude_guest);
	p = put_flag(p, "precise_ip", e->precise_ip);
	p = put_flag(p, "sample_period", e->sample_period);
	p = put_flag(p, "freq", e->freq);
	p = put_flag(p, "exclusive", e->exclusive);
	p = put_flag(p, "pinned", e->pinned);
	out_wrote(o, p);
	if (e->sysfs_pmu[0]) {
		json_field(o, "sysfs_pmu");
		out_json_string(o, e->sysfs_pmu);
	}
}

/* The first of the N encodings of EVENT, and on a hybrid the other core
 * types' in "others" (one object each, the same fields). */
static void print_json(struct out *o, const char *event, const struct pmudb_encoding *e, int n)
{
	out_lit(o, "{\"event\":");
	out_json_string(o, event);
	print_json_fields(o, &e[0]);
	if (n > 1) {
		out_lit(o, ",\"others\":[");
		for (int i = 1; i < n; i++) {
			if (i > 1)
				out_lit(o, ",");
			out_lit(o, "{\"core_type\":");
			out_json_string(o, e[i].sysfs_pmu);
			print_json_fields(o, &e[i]);
			out_lit(o, "}");
		}
		out_lit(o, "]");
	}
	out_lit(o, "}\n");
}

/* EVENT is LEN bytes long (a batch line may hold NULs: shown as \u0000,
 * so that the object names the line it answers). */
static void print_json_error(struct out *o, const char *event, size_t len, const struct pmudb_error *err)
{
	out_lit(o, "{\"event\":");
	out_json_bytes(o, event, len);
	json_field(o, "error");
	out_json_string(o, err->message);
	/* the code's name is the library's own ASCII: nothing to escape */
	out_lit(o, ",\"error_code\":\"");
	out_str(o, pmudb_error_name(err->code));
	out_lit(o, "\"}\n");
}

/* A hybrid CPU's core types, at most (Intel's have two). */
#define MAX_ANSWERS 4

/* Encodes EVENT on each core type that has it (one answer on a CPU of one
 * core type): their number, or the error, ERR saying why (with the
 * host's missing CPU named, not "not found", for an unprefixed name). */
static int encode_each(struct cli *c, const char *event, struct pmudb_encoding enc[MAX_ANSWERS],
		       struct pmudb_error *err)
{
	const struct pmudb_scope *scope = cli_scope_for(c, event);
	int n = pmudb_encode_each(c->db, event, scope, enc, MAX_ANSWERS, err);
	if (n > 0)
		return n;
	n = cli_why_not_found(c, event, n, err);
	cli_add_suggestion(c, event, err);
	return n;
}

/* --box N: encoding E on box N of its kernel PMU (uncore_cha_3 for
 * uncore_cha), its type from sysfs, -1 where this machine lacks the box;
 * or false, ERR saying why (a core PMU, a PMU that is one box already). */
static bool on_box(struct cli *c, struct pmudb_encoding *e, long box, struct pmudb_error *err)
{
	int p = pmudb_find_pmu(c->db, e->pmu);
	struct pmudb_pmu_info info;
	size_t len = strlen(e->sysfs_pmu);
	const char *digits;
	if (p < 0 || pmudb_pmu_info(c->db, p, &info) || strcmp(info.kind, "uncore") || !len) {
		snprintf(err->message, sizeof(err->message), "--box %ld: PMU %s is not an uncore PMU: it counts on no box",
			 box, e->pmu);
		return false;
	}
	for (digits = e->sysfs_pmu + len; digits > e->sysfs_pmu && digits[-1] >= '0' && digits[-1] <= '9'; digits--)
		;
	if (*digits && digits > e->sysfs_pmu && digits[-1] == '_') {
		snprintf(err->message, sizeof(err->message), "--box %ld: PMU %s is one box already (kernel PMU %s)", box,
			 e->pmu, e->sysfs_pmu);
		return false;
	}
	if (strpbrk(e->sysfs_pmu, "*?[")) {
		snprintf(err->message, sizeof(err->message), "--box %ld: the kernel names %s's devices with their numbers"
			 " inside (%s): name the one meant in perf's syntax instead", box, e->pmu, e->sysfs_pmu);
		return false;
	}
	char name[sizeof(e->sysfs_pmu)];
	if (snprintf(name, sizeof(name), "%s_%ld", e->sysfs_pmu, box) >= (int)sizeof(name)) {
		snprintf(err->message, sizeof(err->message), "--box %ld: kernel PMU name %s_%ld is too long", box,
			 e->sysfs_pmu, box);
		return false;
	}
	memcpy(e->sysfs_pmu, name, sizeof(name));
	/* the box's type where sysfs has it (pmudb_to_perf_attr reads it) */
	struct perf_event_attr attr;
	struct pmudb_error ignored;
	bool here = false;
	cli_kernel_boxes(name, NULL, &here);
	e->type = here && !pmudb_to_perf_attr(e, &attr, sizeof(attr), &ignored) ? (int)attr.type : -1;
	return true;
}

static void print_text(const struct pmudb_encoding *e, bool hybrid)
{
	printf("%s\n", e->fstr);
	if (hybrid)
		printf("  core type       %s\n", e->sysfs_pmu);
	if (e->type >= 0)
		printf("  type            %d\n", e->type);
	else
		printf("  type            unresolved (kernel PMU %s is not in this machine's sysfs)\n", e->sysfs_pmu);
	if (e->sysfs_pmu[0])
		printf("  kernel PMU      %s\n", e->sysfs_pmu);
	printf("  config          0x%llx\n  config1         0x%llx\n  config2         0x%llx\n",
	       (unsigned long long)e->config, (unsigned long long)e->config1, (unsigned long long)e->config2);
	printf("  exclude_user    %d\n  exclude_kernel  %d\n  exclude_hv      %d\n", e->exclude_user, e->exclude_kernel,
	       e->exclude_hv);
	printf("  exclude_host    %d\n  exclude_guest   %d\n  precise_ip      %u\n", e->exclude_host, e->exclude_guest,
	       e->precise_ip);
	if (e->sample_period)
		printf("  %-15s %llu\n", e->freq ? "sample_freq" : "sample_period", (unsigned long long)e->sample_period);
	if (e->exclusive || e->pinned)
		printf("  exclusive       %d\n  pinned          %d\n", e->exclusive, e->pinned);
}

/* ---- --explain ------------------------------------------------------------ */

struct explain {
	const char *umasks;	/* the fstr's attributes, from the ':' after the event */
	int shown;
};

/* A finding about the event whose unit mask (if it names one) is among the
 * encoding's: what reconciling with the vendor's list found, and why. */
static int explain_finding(void *ctx, const struct pmudb_finding *f)
{
	struct explain *x = ctx;
	if (strcmp(f->match, "differ") || !f->libpfm_name)
		return 0;
	const char *um = strchr(f->libpfm_name, ':');
	if (um) {
		size_t n = strlen(um);
		const char *at = strstr(x->umasks, um);
		if (!at || (at[n] && at[n] != ':'))
			return 0;
	}
	printf("  note            the vendor's %s is 0x%llx (%s): %s%s%s\n", f->vendor_name,
	       (unsigned long long)f->vendor_config, f->vendor_file, f->explained ? f->explained : "unexplained",
	       f->why ? ": " : "", f->why ? f->why : "");
	x->shown++;
	return 0;
}

/*
 * What an encoding means where it is counted: the reconciliation's notes
 * on its event and unit mask, and for an Intel core encoding with event
 * select 0 and unit mask 1 or 2 (the fixed counters' pseudo-encodings of
 * the vendors' lists) what Linux does with it (docs/fixed-counters.md).
 */
static void print_explain(struct cli *c, const struct pmudb_encoding *e)
{
	const char *sep = strstr(e->fstr, "::");
	const char *end = sep ? strchr(sep + 2, ':') : NULL;
	char name[600];
	int pmu, event;
	struct pmudb_error err;
	struct explain x = { end ? end : "", 0 };
	if (sep && end && (size_t)(end - e->fstr) < sizeof(name)) {
		memcpy(name, e->fstr, (size_t)(end - e->fstr));
		name[end - e->fstr] = '\0';
		if (!pmudb_find_event(c->db, name, NULL, &pmu, &event, &err))
			pmudb_event_findings(c->db, pmu, event, explain_finding, &x);
	}
	struct pmudb_pmu_info pi;
	int p = pmudb_find_pmu(c->db, e->pmu);
	unsigned umask = (unsigned)(e->config >> 8) & 0xff;
	if (p >= 0 && !pmudb_pmu_info(c->db, p, &pi) && pi.family && !strcmp(pi.family, "intel_x86")
	    && !strcmp(pi.kind, "core") && (e->config & 0xff) == 0 && (umask == 1 || umask == 2)) {
		printf("  linux           0x%x00 is a fixed counter's pseudo-encoding: Linux 6.12 %s a general counter "
		       "with event select 0, which does not count the fixed counter's event (docs/fixed-counters.md)\n",
		       umask,
		       umask == 1 ? "gives it fixed counter 0 on Ice Lake and later big cores only (icl, glc, lnc "
				    "constraint tables); on other CPUs it goes to"
				  : "gives it no fixed counter on any CPU: it goes to");
		x.shown++;
	}
	if (!x.shown)
		printf("  note            nothing to add: no difference from the vendor's list, no pseudo-encoding\n");
}

/* What `perf stat -e` takes (pmudb_perf_syntax): on a hybrid, the core
 * types' events joined by ',' as perf's list of events.  One line whatever
 * happens: where perf has no syntax for it, a line "# pmudb: EVENT: why"
 * (the message on standard error too), so that each output line answers
 * an input. */
static int print_perf(struct cli *c, const struct pmudb_encoding *e, int n, const char *event)
{
	char text[MAX_ANSWERS * 1024];
	size_t used = 0;
	struct pmudb_error err;
	for (int i = 0; i < n; i++) {
		if (i)
			text[used++] = ',';
		/* perf labels the counts with the name as the user wrote it */
		if (pmudb_perf_syntax_named(c->db, &e[i], event, text + used, sizeof(text) - used, &err)) {
			printf("# pmudb: %s: %s\n", event, err.message);
			fflush(stdout);
			fprintf(stderr, "pmudb: %s: %s; use --format text\n", event, err.message);
			return -1;
		}
		used += strlen(text + used);
	}
	puts(text);
	/* perf's event syntax has no CPU term: say where it went */
	if (e[0].cpu >= 0)
		fprintf(stderr, "pmudb: %s: cpu=%d has no place in perf's event syntax: give perf -C %d\n", event,
			e[0].cpu, e[0].cpu);
	return 0;
}

/* One line of the batch (N bytes, its LF gone) as its JSON object; the
 * exit status it asks for. */
static int encode_line(struct cli *c, struct out *o, char *line, size_t n)
{
	if (n > 0 && line[n - 1] == '\r')
		line[--n] = '\0';
	struct pmudb_encoding enc[MAX_ANSWERS];
	struct pmudb_error err;
	if (memchr(line, '\0', n)) {
		err.code = PMUDB_ERR_INVAL;
		snprintf(err.message, sizeof(err.message), "invalid parameters: the line holds a NUL byte");
		print_json_error(o, line, n, &err);
		return EXIT_REJECTED;
	}
	int r = encode_each(c, line, enc, &err);
	if (r < 0) {
		print_json_error(o, line, n, &err);
		return r == PMUDB_ERR_CATALOG ? EXIT_USAGE : EXIT_REJECTED;
	}
	print_json(o, line, enc, r);
	return EXIT_GOOD;
}

/* The worse of two exit statuses (a catalog error over a rejection). */
static int worse(int a, int b)
{
	return a > b ? a : b;
}

/*
 * Reads lines of any length, ending in LF or CRLF; a line may hold any
 * bytes.  One JSON object a line out, written out before each read that
 * may wait: a program that writes a line and waits for its answer gets
 * it, and a stream read a buffer at a time is written a buffer at a time.
 * (getline's buffer cannot say when it is empty, hence read(2).)
 */
static int encode_stdin(struct cli *c)
{
	static char stdout_buffer[1 << 16];
	setvbuf(stdout, stdout_buffer, _IOFBF, sizeof(stdout_buffer));
	struct out o;
	out_start(&o, stdout);
	/* HAVE bytes wait in BUF, the first SCANNED of them known to hold no
	 * LF: each byte is searched once, however long its line */
	size_t cap = 1 << 16, have = 0, scanned = 0;
	char *buf = malloc(cap + 1);
	int status = buf ? EXIT_GOOD : EXIT_USAGE;
	bool eof = !buf;
	while (!eof) {
		if (have == cap) {	/* a line longer than the buffer */
			char *bigger = cap < SIZE_MAX / 4 ? realloc(buf, 2 * cap + 1) : NULL;
			if (!bigger) {
				fputs("pmudb: encode --stdin: out of memory for a line\n", stderr);
				status = EXIT_USAGE;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
		out_flush(&o);
		if (fflush(stdout))
			break;	/* cmd_encode's caller reports it */
		ssize_t got = read(STDIN_FILENO, buf + have, cap - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			fprintf(stderr, "pmudb: encode --stdin: standard input: %s\n", strerror(errno));
			status = EXIT_USAGE;
			break;
		}
		eof = got == 0;
		have += (size_t)got;
		char *start = buf, *end = buf + have, *from = buf + scanned, *nl;
		while ((nl = memchr(from, '\n', (size_t)(end - from)))) {
			*nl = '\0';
			status = worse(status, encode_line(c, &o, start, (size_t)(nl - start)));
			if (o.len > sizeof(o.buf) / 2)
				out_flush(&o);
			start = from = nl + 1;
		}
		if (eof && start < end) {	/* a last line without its LF */
			*end = '\0';
			status = worse(status, encode_line(c, &o, start, (size_t)(end - start)));
			start = end;
		}
		have = scanned = (size_t)(end - start);
		memmove(buf, start, have);
	}
	out_flush(&o);
	free(buf);
	return status;
}

int cmd_encode(struct cli *c, int argc, char **argv)
{
	static const struct option options[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "stdin", no_argument, NULL, 's' },
		{ "explain", no_argument, NULL, 'x' },
		{ "box", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum format format = TEXT;
	bool from_stdin = false, format_given = false, explain = false;
	long box = -1;
	char *end;
	int opt;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'f':
			format_given = true;
			if (!strcmp(optarg, "text"))
				format = TEXT;
			else if (!strcmp(optarg, "json"))
				format = JSON;
			else if (!strcmp(optarg, "perf"))
				format = PERF;
			else {
				fprintf(stderr, "pmudb encode: unknown format '%s' (text, json or perf)\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 's': from_stdin = true; break;
		case 'x': explain = true; break;
		case 'b':
			errno = 0;
			box = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || box < 0 || box > 65535 || optarg[0] == '+' || optarg[0] == ' ') {
				fprintf(stderr, "pmudb encode: --box %s: a box number, 0 to 65535\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			puts("usage: pmudb encode [--format text|json|perf] [--explain] EVENT...\n"
			     "       --explain: after each encoding (text), the differences from the vendor's\n"
			     "                  list and what Linux does with a fixed counter's pseudo-encoding\n"
			     "       --box N:   an uncore event on box N of its kernel PMU only (uncore_cha_3,\n"
			     "                  amd_umc_0), where perf's uncore_cha/.../ takes every box\n"
			     "       pmudb encode --stdin   (one event per line in, LF or CRLF; one JSON object per\n"
			     "                              line out, strings UTF-8 with invalid bytes as U+FFFD)");
			return EXIT_GOOD;
		default: return EXIT_USAGE;
		}
	}
	if (!from_stdin && optind >= argc) {
		fputs("pmudb encode: no event given (or use --stdin)\n", stderr);
		return EXIT_USAGE;
	}
	if (explain && (from_stdin || format != TEXT)) {
		fputs("pmudb encode: --explain goes with the text format\n", stderr);
		return EXIT_USAGE;
	}
	if (from_stdin && box >= 0) {
		fputs("pmudb encode: --box goes with events given as arguments, not --stdin\n", stderr);
		return EXIT_USAGE;
	}
	if (from_stdin && (optind < argc || format_given)) {
		fprintf(stderr, "pmudb encode: --stdin reads the events and writes JSON: %s\n",
			optind < argc ? "no event arguments beside it" : "no --format beside it");
		return EXIT_USAGE;
	}
	int status = cli_open(c);
	if (status != EXIT_GOOD) {
		cli_close(c);
		return status;
	}
	if (from_stdin) {
		status = encode_stdin(c);
	} else {
		struct out o;
		out_start(&o, stdout);
		for (int i = optind; i < argc; i++) {
			struct pmudb_encoding enc[MAX_ANSWERS];
			struct pmudb_error err;
			int r = encode_each(c, argv[i], enc, &err);
			for (int k = 0; r > 0 && box >= 0 && k < r; k++)
				if (!on_box(c, &enc[k], box, &err)) {
					err.code = PMUDB_ERR_INVAL;
					r = PMUDB_ERR_INVAL;
				}
			if (r < 0) {
				if (format == JSON)
					print_json_error(&o, argv[i], strlen(argv[i]), &err);
				out_flush(&o);
				if (format == PERF)
					printf("# pmudb: %s: %s\n", argv[i], err.message);
				fflush(stdout);
				fprintf(stderr, "pmudb: %s: %s\n", argv[i], err.message);
				status = worse(status, r == PMUDB_ERR_CATALOG ? EXIT_USAGE : EXIT_REJECTED);
				continue;
			}
			if (format == JSON)
				print_json(&o, argv[i], enc, r);
			else if (format == PERF && print_perf(c, enc, r, argv[i]))
				status = worse(status, EXIT_REJECTED);
			else if (format == TEXT)
				for (int k = 0; k < r; k++) {
					print_text(&enc[k], r > 1);
					if (explain)
						print_explain(c, &enc[k]);
				}
		}
		out_flush(&o);
	}
	cli_close(c);
	return status;
}
