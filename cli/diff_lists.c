/*
 * diff_lists.c - pmudb diff UARCH@OLD UARCH@NEW: what changed between two
 * vendor lists of one µarch (GNR 1.02 of perf's tree and 1.20 of Intel's
 * perfmon repository): the entries one adds, removes or encodes otherwise.
 * A list is named by its version, date or layout (graniterapids@1.02,
 * graniterapids@kernel).  The catalog keeps what the encoded list changed
 * of each list it superseded (pmudb sources), so one of the two must be
 * the encoded list; given the other way round, the changes are reversed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

struct pick {
	const char *uarch, *which;	/* as asked */
	struct pmudb_vendor_list l;
	char uarch_found[256], source[512], layout[16], version[64], date[16];	/* version, date: "-" when unstated */
	bool has_version, has_date;
	int matches;
};

static bool names_list(const struct pmudb_vendor_list *l, const char *which)
{
	const char *v = l->version;
	const char *w = which[0] == 'v' || which[0] == 'V' ? which + 1 : which;
	return (v && !strcmp(v, w)) || (l->date && !strcmp(l->date, which)) || !strcmp(l->layout, which);
}

static int pick_one(void *ctx, const struct pmudb_vendor_list *l)
{
	struct pick *p = ctx;
	if (!names_list(l, p->which))
		return 0;
	if (p->matches++)
		return 0;
	p->l = *l;
	snprintf(p->uarch_found, sizeof(p->uarch_found), "%s", l->uarch);
	snprintf(p->source, sizeof(p->source), "%s", l->source);
	snprintf(p->layout, sizeof(p->layout), "%s", l->layout);
	snprintf(p->version, sizeof(p->version), "%s", l->version ? l->version : "-");
	snprintf(p->date, sizeof(p->date), "%s", l->date ? l->date : "-");
	p->has_version = l->version != NULL;
	p->has_date = l->date != NULL;
	return 0;
}

struct report {
	bool json, reversed;
	int shown, counts[3];
};

static int print_change(void *ctx, const struct pmudb_list_change *ch)
{
	struct report *r = ctx;
	const char *change = ch->change, *was = ch->was, *now = ch->now;
	if (r->reversed) {
		change = !strcmp(change, "added") ? "removed" : !strcmp(change, "removed") ? "added" : change;
		was = ch->now;
		now = ch->was;
	}
	r->counts[!strcmp(change, "added") ? 0 : !strcmp(change, "removed") ? 1 : 2]++;
	if (r->json) {
		printf("%s\n    {\"event\": ", r->shown ? "," : "");
		json_quoted(stdout, ch->event);
		printf(", \"change\": \"%s\", \"was\": ", change);
		was ? json_quoted(stdout, was) : (void)fputs("null", stdout);
		fputs(", \"now\": ", stdout);
		now ? json_quoted(stdout, now) : (void)fputs("null", stdout);
		putchar('}');
	} else {
		printf("  %-8s %-50s %s%s%s\n", change, ch->event, was ? was : "", was && now ? " -> " : "", now ? now : "");
	}
	r->shown++;
	return 0;
}

static void json_side(const char *key, const struct pick *p)
{
	printf("  \"%s\": {\"layout\": ", key);
	json_quoted(stdout, p->layout);
	fputs(", \"version\": ", stdout);
	p->has_version ? json_quoted(stdout, p->version) : (void)fputs("null", stdout);
	fputs(", \"date\": ", stdout);
	p->has_date ? json_quoted(stdout, p->date) : (void)fputs("null", stdout);
	fputs(", \"source\": ", stdout);
	json_quoted(stdout, p->source);
	fputs("},\n", stdout);
}

int diff_lists(struct cli *c, const char *a, const char *b, bool json)
{
	struct pick p[2] = { 0 };
	const char *asked[2] = { a, b };
	char *uarch[2] = { strdup(a), strdup(b) };
	int status = uarch[0] && uarch[1] ? cli_open(c) : EXIT_USAGE;
	for (int k = 0; k < 2 && status == EXIT_GOOD; k++) {
		char *at = strrchr(uarch[k], '@');
		*at = '\0';
		p[k].uarch = uarch[k];
		p[k].which = at + 1;
		struct pmudb_error err = {0};
		int n = pmudb_vendor_lists(c->db, p[k].uarch, pick_one, &p[k], &err);
		if (n < 0) {
			fprintf(stderr, "pmudb: diff: %s\n", err.message);
			status = EXIT_USAGE;
		} else if (!n) {
			fprintf(stderr, "pmudb: diff: no vendor list of µarch '%s' in this catalog (see pmudb sources)\n",
				p[k].uarch);
			status = EXIT_REJECTED;
		} else if (p[k].matches != 1) {
			fprintf(stderr, "pmudb: diff: '%s': %s of µarch %s's lists %s '%s' (see pmudb sources %s)\n", asked[k],
				p[k].matches ? "several" : "none", p[k].uarch, p[k].matches ? "are" : "is", p[k].which,
				p[k].uarch);
			status = EXIT_REJECTED;
		}
	}
	if (status == EXIT_GOOD && strcmp(p[0].uarch_found, p[1].uarch_found)) {
		fprintf(stderr, "pmudb: diff: '%s' and '%s' are lists of two µarchs (%s, %s): compare PMUs instead\n", a, b,
			p[0].uarch_found, p[1].uarch_found);
		status = EXIT_USAGE;
	}
	const struct pmudb_vendor_list *older = NULL;
	bool reversed = false;
	if (status == EXIT_GOOD) {
		if (p[0].l.superseded_by && p[0].l.superseded_by == p[1].l.id)
			older = &p[0].l;
		else if (p[1].l.superseded_by && p[1].l.superseded_by == p[0].l.id)
			older = &p[1].l, reversed = true;
		if (!older) {
			fprintf(stderr, "pmudb: diff: the catalog keeps what the encoded list of %s changed of each list it"
				" superseded: '%s' and '%s' are %s\n", p[0].uarch_found, a, b,
				p[0].l.id == p[1].l.id ? "the same list" : "both superseded");
			status = EXIT_USAGE;
		}
	}
	if (status == EXIT_GOOD) {
		struct report r = { .json = json, .reversed = reversed };
		if (json) {
			fputs("{\n  \"uarch\": ", stdout);
			json_quoted(stdout, p[0].uarch_found);
			fputs(",\n", stdout);
			json_side("from", &p[0]);
			json_side("to", &p[1]);
			fputs("  \"changes\": [", stdout);
		} else {
			printf("%s: %s %s (%s) -> %s %s (%s)\n", p[0].uarch_found, p[0].layout, p[0].version, p[0].date,
			       p[1].layout, p[1].version, p[1].date);
		}
		struct pmudb_error err = {0};
		int n = pmudb_list_changes(c->db, older->id, print_change, &r, &err);
		if (n < 0) {
			fprintf(stderr, "pmudb: diff: %s\n", err.message);
			status = EXIT_USAGE;
		}
		if (json)
			printf("%s]\n}\n", r.shown ? "\n  " : "");
		else
			printf("%d added, %d removed, %d changed\n", r.counts[0], r.counts[1], r.counts[2]);
	}
	free(uarch[0]);
	free(uarch[1]);
	cli_close(c);
	return status;
}
