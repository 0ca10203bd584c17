/*
 * cmd_diff.c - pmudb diff PMU_A PMU_B: what changed between two PMUs (a
 * µarch and its predecessor): events and unit masks only in one, those of
 * the same name whose encodings differ, and, among those only in one,
 * those whose encoding the other has under another name (a rename, or
 * libpfm's name against a vendor's).  Compared are the strings EVENT and
 * EVENT:UMASK as each PMU encodes them (config, config1, config2).  Two
 * vendor lists of one µarch (UARCH@VERSION) are diff_lists.c's.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/export.h"

struct item {
	char *name;		/* "EVENT" or "EVENT:UMASK" */
	bool encodes;
	uint64_t regs[3];
	/* what the registers are read by: perf's type and the kernel PMU
	 * (perf::DTLB-PREFETCHES, type 3, is no rename of a core event
	 * that has its config) */
	int type;
	char sysfs_pmu[64];
	bool matched;		/* by name, or (only in one) by encoding */
};

struct side {
	const char *pmu;
	int n, cap;
	struct item *items;
	bool nomem;
};

static int collect(void *ctx, int pmu, const struct pmudb_pmu_info *p, const struct export_item *it)
{
	struct side *s = ctx;
	(void)pmu, (void)p;
	if (!it)
		return 0;
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 1024;
		struct item *more = realloc(s->items, (size_t)cap * sizeof(*more));
		if (!more)
			return s->nomem = true, EXIT_USAGE;
		s->items = more, s->cap = cap;
	}
	struct item *x = &s->items[s->n];
	const char *name = strstr(it->string, "::") + 2;
	if (!(x->name = strdup(name)))
		return s->nomem = true, EXIT_USAGE;
	x->encodes = !it->status;
	x->regs[0] = it->enc.config, x->regs[1] = it->enc.config1, x->regs[2] = it->enc.config2;
	x->type = it->enc.type;
	snprintf(x->sysfs_pmu, sizeof(x->sysfs_pmu), "%s", it->enc.sysfs_pmu);
	x->matched = false;
	s->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcasecmp(((const struct item *)a)->name, ((const struct item *)b)->name);
}

static bool same_regs(const struct item *a, const struct item *b)
{
	return a->encodes && b->encodes && !memcmp(a->regs, b->regs, sizeof(a->regs)) && a->type == b->type
	       && !strcmp(a->sysfs_pmu, b->sysfs_pmu);
}

static void put_regs(struct out *o, const uint64_t r[3], bool json)
{
	static const char *const reg[] = { "config", "config1", "config2" };
	for (int w = 0; w < 3; w++) {
		if (!json && w && !r[w])
			continue;
		out_str(o, json ? (w ? ",\"" : "{\"") : (w ? "," : ""));
		if (json) {
			out_str(o, reg[w]);
			out_str(o, "\":\"");
		}
		out_hex(o, r[w]);
		if (json)
			out_char(o, '"');
	}
	if (json)
		out_char(o, '}');
}

struct report {
	struct out o;
	bool json;
	const struct side *a, *b;
	int only[2], differ, renamed, same, by_alias;
};

static void section(struct report *r, const char *json_key, const char *title, bool first)
{
	if (r->json) {
		out_str(&r->o, first ? "\"" : "],\"");
		out_str(&r->o, json_key);
		out_str(&r->o, "\":[");
	} else {
		out_str(&r->o, title);
		out_str(&r->o, ":\n");
	}
}

static void list_only(struct report *r, const struct side *s, int which)
{
	int k = 0;
	for (int i = 0; i < s->n; i++) {
		if (s->items[i].matched)
			continue;
		if (r->json) {
			out_str(&r->o, k++ ? "," : "");
			out_json_string(&r->o, s->items[i].name);
		} else {
			out_str(&r->o, "  ");
			out_str(&r->o, s->pmu);
			out_str(&r->o, "::");
			out_str(&r->o, s->items[i].name);
			out_char(&r->o, '\n');
		}
		r->only[which]++;
		if (r->o.len > sizeof(r->o.buf) / 2)
			out_flush(&r->o);
	}
}

/* Same name: matched; listed when the encodings differ. */
static void by_names(struct report *r, struct side *a, struct side *b, bool print)
{
	int i = 0, j = 0;
	while (i < a->n && j < b->n) {
		int c = strcasecmp(a->items[i].name, b->items[j].name);
		if (c) {
			c < 0 ? i++ : j++;
			continue;
		}
		struct item *x = &a->items[i++], *y = &b->items[j++];
		x->matched = y->matched = true;
		if (same_regs(x, y) || (!x->encodes && !y->encodes)) {
			r->same += print;
			continue;
		}
		if (!print)
			continue;
		r->differ++;
		if (r->json) {
			out_str(&r->o, r->differ > 1 ? ",{\"name\":" : "{\"name\":");
			out_json_string(&r->o, x->name);
			out_str(&r->o, ",\"a\":");
			x->encodes ? put_regs(&r->o, x->regs, true) : out_str(&r->o, "null");
			out_str(&r->o, ",\"b\":");
			y->encodes ? put_regs(&r->o, y->regs, true) : out_str(&r->o, "null");
			out_char(&r->o, '}');
		} else {
			out_str(&r->o, "  ");
			out_str(&r->o, x->name);
			out_str(&r->o, ": ");
			out_str(&r->o, a->pmu);
			out_char(&r->o, ' ');
			x->encodes ? put_regs(&r->o, x->regs, false) : out_str(&r->o, "(does not encode)");
			out_str(&r->o, ", ");
			out_str(&r->o, b->pmu);
			out_char(&r->o, ' ');
			y->encodes ? put_regs(&r->o, y->regs, false) : out_str(&r->o, "(does not encode)");
			out_char(&r->o, '\n');
		}
	}
}

/* A name only one PMU lists that the other still encodes, to the same
 * registers, through one of its aliases (emr answers to spr's libpfm
 * names where the encoding is the same): the same, not only in one.
 * Tried after the pairing by encoding, so a rename is still shown. */
static void by_aliases(struct report *r, pmudb_t *db, struct side *a, struct side *b)
{
	for (int k = 0; k < 2; k++) {
		struct side *s = k ? b : a, *other = k ? a : b;
		for (int i = 0; i < s->n; i++) {
			struct item *x = &s->items[i];
			char str[700];
			struct pmudb_encoding e;
			snprintf(str, sizeof(str), "%s::%s", other->pmu, x->name);
			if (x->matched || pmudb_encode(db, str, NULL, &e, NULL))
				continue;
			struct item y = { .name = x->name, .encodes = true, .regs = { e.config, e.config1, e.config2 },
					  .type = e.type };
			snprintf(y.sysfs_pmu, sizeof(y.sysfs_pmu), "%s", e.sysfs_pmu);
			if (same_regs(x, &y)) {
				x->matched = true;
				r->same++;
				r->by_alias++;
			}
		}
	}
}

/* Of those only in one, the pairs with the same encoding. */
static void by_encodings(struct report *r, struct side *a, struct side *b)
{
	int k = 0;
	for (int i = 0; i < a->n; i++) {
		struct item *x = &a->items[i];
		if (x->matched || !x->encodes)
			continue;
		for (int j = 0; j < b->n; j++) {
			struct item *y = &b->items[j];
			if (y->matched || !same_regs(x, y))
				continue;
			x->matched = y->matched = true;
			r->renamed++;
			if (r->json) {
				out_str(&r->o, k++ ? ",{\"a\":" : "{\"a\":");
				out_json_string(&r->o, x->name);
				out_str(&r->o, ",\"b\":");
				out_json_string(&r->o, y->name);
				out_str(&r->o, ",\"encoding\":");
				put_regs(&r->o, x->regs, true);
				out_char(&r->o, '}');
			} else {
				out_str(&r->o, "  ");
				out_str(&r->o, a->pmu), out_str(&r->o, "::"), out_str(&r->o, x->name);
				out_str(&r->o, " = ");
				out_str(&r->o, b->pmu), out_str(&r->o, "::"), out_str(&r->o, y->name);
				out_str(&r->o, "  (");
				put_regs(&r->o, x->regs, false);
				out_str(&r->o, ")\n");
			}
			break;
		}
		if (r->o.len > sizeof(r->o.buf) / 2)
			out_flush(&r->o);
	}
}

static void print_report(pmudb_t *db, struct side *a, struct side *b, bool json)
{
	struct report r = { .json = json, .a = a, .b = b };
	out_start(&r.o, stdout);
	if (json) {
		out_str(&r.o, "{\"a\":");
		out_json_string(&r.o, a->pmu);
		out_str(&r.o, ",\"b\":");
		out_json_string(&r.o, b->pmu);
		out_char(&r.o, ',');
	} else {
		out_str(&r.o, "# pmudb diff ");
		out_str(&r.o, a->pmu), out_char(&r.o, ' '), out_str(&r.o, b->pmu);
		out_str(&r.o, ": events (EVENT) and unit masks (EVENT:UMASK), as each PMU encodes them\n");
	}
	by_names(&r, a, b, false);	/* match by name first, print later */
	for (int i = 0; i < a->n; i++)
		a->items[i].matched = false;
	for (int i = 0; i < b->n; i++)
		b->items[i].matched = false;
	section(&r, "differ", "same name, different encoding", true);
	by_names(&r, a, b, true);
	section(&r, "renamed", "only in one by name, the same encoding in the other", false);
	by_encodings(&r, a, b);
	by_aliases(&r, db, a, b);
	section(&r, "only_a", "only in the first", false);
	list_only(&r, a, 0);
	section(&r, "only_b", "only in the second", false);
	list_only(&r, b, 1);
	if (json) {
		out_str(&r.o, "],\"same\":");
		out_uint(&r.o, (uint64_t)r.same);
		out_str(&r.o, ",\"same_by_alias\":");
		out_uint(&r.o, (uint64_t)r.by_alias);
		out_str(&r.o, "}\n");
	} else {
		char line[400];
		snprintf(line, sizeof(line),
			 "summary: %d the same (%d of them through the other's aliases), %d differ, %d under other names,"
			 " %d only in %s, %d only in %s\n", r.same, r.by_alias, r.differ, r.renamed, r.only[0], a->pmu,
			 r.only[1], b->pmu);
		out_str(&r.o, line);
	}
	out_flush(&r.o);
}

static void free_side(struct side *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->items[i].name);
	free(s->items);
}

int cmd_diff(struct cli *c, int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	bool json = false;
	int opt;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		if (opt == 'j')
			json = true;
		else if (opt == 'h') {
			puts("usage: pmudb diff [--json] PMU_A PMU_B\n"
			     "       pmudb diff [--json] UARCH@OLD UARCH@NEW\n"
			     "  events and unit masks only in one PMU, those of the same name encoded differently,\n"
			     "  and those whose encoding the other has under another name (e.g. spr emr,\n"
			     "  amd64_fam19h_zen4 amd64_fam1ah_zen5)\n"
			     "  UARCH@WHICH: two vendor lists of one µarch, each named by its version, date or\n"
			     "  layout (graniterapids@1.02 graniterapids@1.20): the entries one adds, removes or\n"
			     "  encodes otherwise (pmudb sources lists them)\n"
			     "  exit status: 0 compared, 1 an unknown PMU or list, 2 usage or catalog error");
			return EXIT_GOOD;
		} else
			return EXIT_USAGE;
	}
	if (argc - optind != 2) {
		fputs("pmudb diff: give two PMUs (see pmudb diff --help)\n", stderr);
		return EXIT_USAGE;
	}
	if (strchr(argv[optind], '@') && strchr(argv[optind + 1], '@'))
		return diff_lists(c, argv[optind], argv[optind + 1], json);
	int status = cli_open(c);
	struct side side[2] = { { .pmu = argv[optind] }, { .pmu = argv[optind + 1] } };
	for (int k = 0; k < 2 && status == EXIT_GOOD; k++) {
		int p = pmudb_find_pmu(c->db, side[k].pmu);
		if (p < 0) {
			fprintf(stderr, "pmudb: diff: unknown PMU '%s' (see pmudb pmus)\n", side[k].pmu);
			status = EXIT_REJECTED;
		} else if (export_walk(c, &p, 1, collect, &side[k])) {
			/* the walk has said what it could not read */
			if (side[k].nomem)
				fprintf(stderr, "pmudb: diff: %s: out of memory\n", side[k].pmu);
			status = EXIT_USAGE;
		}
		if (side[k].n)
			qsort(side[k].items, (size_t)side[k].n, sizeof(*side[k].items), by_name);
	}
	if (status == EXIT_GOOD)
		print_report(c->db, &side[0], &side[1], json);
	free_side(&side[0]);
	free_side(&side[1]);
	cli_close(c);
	return status;
}
