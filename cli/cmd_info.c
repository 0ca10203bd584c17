/*
 * cmd_info.c - pmudb info EVENT: an event with its unit masks and modifiers.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"

static void print_modifier(const struct pmudb_modifier_info *m)
{
	printf("  %-12s %-4s ", m->name, m->is_integer ? "int" : "bool");
	if (m->range_known)
		printf("%llu..%llu", (unsigned long long)m->min, (unsigned long long)m->max);
	else
		printf("%-9s", "?");
	printf("  %s%s\n", m->description, m->from_perf ? " (perf_events)" : "");
}

static int count_findings(void *ctx, const struct pmudb_finding *f)
{
	(void)f;
	++*(int *)ctx;
	return 0;
}

static int print_finding(void *ctx, const struct pmudb_finding *f)
{
	(void)ctx;
	if (!strcmp(f->match, "differ"))
		printf("  %s: libpfm 0x%llx/0x%llx, the vendor's %s 0x%llx/0x%llx (%s): %s%s%s\n", f->libpfm_name,
		       (unsigned long long)f->libpfm_config, (unsigned long long)f->libpfm_config1, f->vendor_name,
		       (unsigned long long)f->vendor_config, (unsigned long long)f->vendor_config1, f->vendor_file,
		       f->explained ? f->explained : "unexplained", f->why ? ": " : "", f->why ? f->why : "");
	else
		printf("  %s: only in the vendor's list (%s), 0x%llx/0x%llx%s\n", f->vendor_name, f->vendor_file,
		       (unsigned long long)f->vendor_config, (unsigned long long)f->vendor_config1,
		       f->added ? ", added" : ", not added");
	return 0;
}

static int print_list(void *ctx, const struct pmudb_vendor_list *l)
{
	(void)ctx;
	char stated[128];
	snprintf(stated, sizeof(stated), "%s%s%s%s%s", l->version ? "version " : "", l->version ? l->version : "",
		 l->version && l->date ? " of " : l->date ? "of " : "", l->date ? l->date : "",
		 !l->version && !l->date ? "no version or date stated" : "");
	printf("  %s: %s, %s (%s layout)%s%s%s\n", l->superseded_by ? "supersedes" : "list", stated, l->source, l->layout,
	       l->kept ? "; its " : "", l->kept ? l->kept : "", l->kept ? " still encoded" : "");
	return 0;
}

/* The vendor list a PMU made from SOURCE ("pmu-events:x86/graniterapids@cpu_core")
 * is from: its source, version and date, and the lists it superseded. */
static void print_provenance(struct cli *c, const char *source)
{
	const char *uarch = source && !strncmp(source, "pmu-events:", 11) ? source + 11 : NULL;
	char name[256];
	if (!uarch || strlen(uarch) >= sizeof(name))
		return;
	snprintf(name, sizeof(name), "%s", uarch);
	name[strcspn(name, "@")] = '\0';
	pmudb_vendor_lists(c->db, name, print_list, NULL, NULL);
}

/* Where STRING (PMU::EVENT[:UMASK]) may be counted, into *W; false where
 * it does not encode alone. */
static bool where_counted(struct cli *c, const char *string, struct pmudb_counters *w)
{
	struct pmudb_encoding enc[8];
	struct pmudb_counter_count count;
	return pmudb_encode_each(c->db, string, NULL, enc, 8, NULL) >= 1 && !pmudb_counters(c->db, &enc[0], false, &count, w, NULL);
}

/* The same in words, into BUF: "" where it does not encode alone; with
 * ALWAYS, also where no list restricts it. */
static void counters_of(struct cli *c, const char *string, bool always, char buf[1200])
{
	struct pmudb_counters w;
	char g[200], f[100];
	buf[0] = '\0';
	if (!where_counted(c, string, &w) || (!always && !w.stated))
		return;
	cli_counter_list(w.general, g, sizeof(g));
	cli_counter_list(w.fixed, f, sizeof(f));
	if (w.no_counter)
		snprintf(buf, 1200, "%s", w.source);
	else
		snprintf(buf, 1200, "general %s%s%s%s%s (%s%s%s)", g, w.fixed ? ", fixed " : "", w.fixed ? f : "",
			 w.taken_alone ? ", taken alone" : "", w.pebs ? ", precise on some" : "", w.stated ? w.event : "",
			 w.stated ? ": " : "", w.source);
}

/* --json: one object (docs/commands.md), else text. */
static bool json;

/* Where ENC may be counted, as a JSON value (null where it does not
 * encode). */
static void counters_json(struct cli *c, const char *string)
{
	struct pmudb_counters w;
	if (!where_counted(c, string, &w)) {
		fputs("null", stdout);
		return;
	}
	putchar('{');
	cli_counters_json(&w);
	putchar('}');
}

static int event_json(struct cli *c, int pmu, int event)
{
	struct pmudb_pmu_info p;
	struct pmudb_event_info ev;
	if (pmudb_pmu_info(c->db, pmu, &p) || pmudb_event_info(c->db, pmu, event, &ev)) {
		cli_damaged(c, "event %d of PMU %d", event, pmu);
		return EXIT_USAGE;
	}
	char string[400];
	snprintf(string, sizeof(string), "%s::%s", p.name, ev.name);
	fputs("{\"pmu\":", stdout);
	json_quoted(stdout, p.name);
	cli_json_field("event", ev.name);
	printf(",\"code\":\"0x%llx\",\"precise\":%s", (unsigned long long)ev.code, ev.is_precise ? "true" : "false");
	cli_json_field("description", ev.description);
	cli_json_field("equiv", ev.equiv);
	cli_json_field("source", ev.source);
	cli_json_field("pmu_source", p.source);
	cli_json_field("why", ev.why);
	fputs(",\"counters\":", stdout);
	counters_json(c, string);
	fputs(",\"umasks\":[", stdout);
	for (int u = 0; u < ev.umask_count; u++) {
		struct pmudb_umask_info um;
		if (pmudb_umask_info(c->db, pmu, event, u, &um)) {
			puts("],\"modifiers\":[]}");	/* what was opened is closed: the JSON stays whole */
			cli_damaged(c, "unit mask %d of %s::%s", u, p.name, ev.name);
			return EXIT_USAGE;
		}
		printf("%s{\"name\":", u ? "," : "");
		json_quoted(stdout, um.name);
		printf(",\"code\":\"0x%llx\",\"default\":%s", (unsigned long long)um.code, um.is_default ? "true" : "false");
		cli_json_field("description", um.description);
		cli_json_field("source", um.source);
		cli_json_field("why", um.why);
		snprintf(string, sizeof(string), "%s::%s:%s", p.name, ev.name, um.name);
		fputs(",\"counters\":", stdout);
		counters_json(c, string);
		putchar('}');
	}
	fputs("],\"modifiers\":[", stdout);
	for (int m = 0; m < ev.modifier_count; m++) {
		struct pmudb_modifier_info mi;
		if (pmudb_modifier_info(c->db, pmu, event, m, &mi)) {
			puts("]}");
			cli_damaged(c, "modifier %d of %s::%s", m, p.name, ev.name);
			return EXIT_USAGE;
		}
		printf("%s{\"name\":", m ? "," : "");
		json_quoted(stdout, mi.name);
		printf(",\"type\":\"%s\",\"perf\":%s", mi.is_integer ? "int" : "bool", mi.from_perf ? "true" : "false");
		if (mi.range_known)
			printf(",\"min\":\"0x%llx\",\"max\":\"0x%llx\"", (unsigned long long)mi.min, (unsigned long long)mi.max);
		else
			fputs(",\"min\":null,\"max\":null", stdout);
		cli_json_field("description", mi.description);
		putchar('}');
	}
	puts("]}");
	return EXIT_GOOD;
}

/* Prints the event; EXIT_USAGE (the error printed) when the catalog
 * cannot give it. */
static int print_event(struct cli *c, int pmu, int event)
{
	if (json)
		return event_json(c, pmu, event);
	struct pmudb_pmu_info p;
	struct pmudb_event_info ev;
	if (pmudb_pmu_info(c->db, pmu, &p) || pmudb_event_info(c->db, pmu, event, &ev)) {
		cli_damaged(c, "event %d of PMU %d", event, pmu);
		return EXIT_USAGE;
	}
	printf("%s::%s\n  code 0x%llx%s\n  %s\n", p.name, ev.name, (unsigned long long)ev.code,
	       ev.is_precise ? ", precise sampling" : "", ev.description);
	if (ev.source) {
		printf("  from the vendor list %s (PMU %s, on the rules of %s)\n", ev.source, p.source, p.like ? p.like : "-");
		print_provenance(c, p.source);
	}
	/* how the kernel numbers its boxes, and a system PMU's device */
	struct pmudb_uncore_info u;
	bool uncore = !pmudb_pmu_uncore(c->db, pmu, &u, NULL);
	const char *boxes = !uncore ? ""
			    : u.discovery_boxes ? "Its boxes are numbered as the hardware's discovery tables list them"
						  " (arch/x86/events/intel/uncore_discovery.c), not by their place on the die"
			    : "Its boxes, where it has several, are numbered in the driver's order";
	if (uncore && u.device_identifier[0])
		printf("  a device's PMU, not a CPU's: perf takes it where the sysfs identifier of a device of its kernel\n"
		       "  PMU matches %s whole (the vendor's Compat); pmudb detect looks for one\n", u.device_identifier);
	if (p.source && p.sysfs_pmu && !strcmp(p.kind, "uncore") && strpbrk(p.sysfs_pmu, "*?["))
		/* the kernel names each device with its numbers inside
		 * (hisi_sccl1_ddrc0): perf matches them by the pattern */
		printf("  counts on the kernel PMUs named %s: perf's %s/.../ opens it on every one the machine has.\n"
		       "  %s\n", p.sysfs_pmu, p.sysfs_pmu, boxes);
	else if (p.source && p.sysfs_pmu && !strcmp(p.kind, "uncore"))
		printf("  counts on kernel PMU %s: perf's %s/.../ opens it on every box the machine has (%s, or\n"
		       "  %s_0, %s_1, ...).  %s\n", p.sysfs_pmu, p.sysfs_pmu, p.sysfs_pmu, p.sysfs_pmu, p.sysfs_pmu, boxes);
	if (ev.equiv)
		printf("  another name for %s\n", ev.equiv);
	if (ev.why)
		printf("  overridden: %s\n", ev.why);
	/* where it may be counted (pmudb group), and the PMU's counters */
	char string[400], where[1200];
	struct pmudb_counter_count count;
	snprintf(string, sizeof(string), "%s::%s", p.name, ev.name);
	counters_of(c, string, true, where);
	if (where[0])
		printf("  counters: %s\n", where);
	if (!pmudb_pmu_counters(c->db, p.name, &count, NULL) && count.known)
		printf("  %s has %d general and %d fixed counters (%s)\n", p.name, count.generic, count.fixed, count.source);
	/* another name encodes as the event it stands for: that event's unit
	 * masks, with their overrides, are the ones that count (tmt::OCR is
	 * OFFCORE_RESPONSE_0, whose unit masks tables/overrides.yaml corrects) */
	const char *of = "";
	char target[300];
	int stands_for = -1, target_pmu = -1;
	if (ev.equiv && snprintf(target, sizeof(target), "%s::%.*s", p.name, (int)strcspn(ev.equiv, ":."), ev.equiv)
				< (int)sizeof(target)
	    && !pmudb_find_event(c->db, target, NULL, &target_pmu, &stands_for, NULL) && target_pmu == pmu
	    && stands_for != event && !pmudb_event_info(c->db, pmu, stands_for, &ev)) {
		event = stands_for;
		of = strstr(target, "::") + 2;
	}
	if (ev.umask_count)
		printf(*of ? "unit masks (%s's, which it stands for):\n" : "unit masks:\n", of);
	for (int u = 0; u < ev.umask_count; u++) {
		struct pmudb_umask_info um;
		if (pmudb_umask_info(c->db, pmu, event, u, &um))
			continue;
		printf("  %-28s 0x%-8llx %s%s\n", um.name, (unsigned long long)um.code, um.is_default ? "[default] " : "",
		       um.description);
		/* a unit mask whose encoding a list restricts */
		snprintf(string, sizeof(string), "%s::%s:%s", p.name, ev.name, um.name);
		counters_of(c, string, false, where);
		if (where[0])
			printf("  %-28s counters: %s\n", "", where);
		if (um.why)	/* an override of tables/ changed it: why */
			printf("  %-28s overridden: %s\n", "", um.why);
	}
	if (ev.modifier_count)
		printf("modifiers:\n");
	for (int m = 0; m < ev.modifier_count; m++) {
		struct pmudb_modifier_info mi;
		if (!pmudb_modifier_info(c->db, pmu, event, m, &mi))
			print_modifier(&mi);
	}
	int n = 0, found = pmudb_event_findings(c->db, pmu, event, count_findings, &n);
	if (found > 0) {
		printf("against the vendor's list:\n");
		pmudb_event_findings(c->db, pmu, event, print_finding, NULL);
	}
	if (found == PMUDB_ERR_CATALOG) {
		cli_damaged(c, "the findings of %s::%s", p.name, ev.name);
		return EXIT_USAGE;
	}
	return EXIT_GOOD;
}

/* Whether the attributes EVENT gives are the event's, with values it
 * takes: an unknown one is refused as encode refuses it.  A combination
 * the event does not take (a unit mask missing, two that exclude each
 * other) is what info is for, and is shown. */
static bool attributes_known(struct cli *c, const char *event, struct pmudb_error *err)
{
	struct pmudb_encoding enc;
	int r = pmudb_encode(c->db, event, cli_scope_for(c, event), &enc, err);
	return r != PMUDB_ERR_ATTR && r != PMUDB_ERR_ATTR_VAL && r != PMUDB_ERR_ATTR_SET && r != PMUDB_ERR_TOOMANY;
}

/* ---- a metric ----------------------------------------------------------- */

struct metric_print {
	struct cli *c;
	const char *name, *pmu;
	int found;
	bool any;
};

/* Counts the metrics of exactly the name asked (not a group of it). */
struct exact {
	const char *name;
	int n;
};

static int count_exact(void *ctx, const struct pmudb_metric *m)
{
	struct exact *x = ctx;
	x->n += !strcasecmp(m->name, x->name);
	return 0;
}

/* One name the metric's expression uses: an event with its encoding and
 * perf's string, another metric, or a value given at run time. */
static int print_term(void *ctx, const char *name, char kind)
{
	struct metric_print *mp = ctx;
	struct pmudb_error err;
	struct exact is_metric = { name, 0 };
	if (kind == 'i' && pmudb_metrics(mp->c->db, cli_scope(mp->c), name, count_exact, &is_metric, &err) > 0
	    && is_metric.n) {
		printf("    %-44s a metric (pmudb info %s)\n", name, name);
		return 0;
	}
	if (kind != 'i') {
		printf("    %-44s %s\n", name, kind == 'l' ? "a value of the machine, given at run time"
							 : "a question about the counts, answered at run time");
		return 0;
	}
	/* perf's pmu@EVENT@ (cpu_core@...@) is EVENT on the metric's own
	 * PMU, the core type's; an event of another PMU (uncore) where the
	 * scope has it */
	char event[600], own[700];
	const char *at = strchr(name, '@');
	snprintf(event, sizeof(event), "%s", at && !strchr(at, '=') ? at + 1 : name);
	event[strcspn(event, "@")] = '\0';
	snprintf(own, sizeof(own), "%s::%s", mp->pmu ? mp->pmu : "", event);
	struct pmudb_encoding enc;
	char perf[512];
	bool encoded = (mp->pmu && !pmudb_encode(mp->c->db, own, NULL, &enc, &err))
		       || !pmudb_encode(mp->c->db, event, cli_scope_for(mp->c, event), &enc, &err);
	if (encoded && !pmudb_perf_syntax(mp->c->db, &enc, perf, sizeof(perf), &err))
		printf("    %-44s %s  %s\n", name, enc.fstr, perf);
	else
		printf("    %-44s (%s)\n", name, err.message);
	return 0;
}

/* Whether metric M uses NAME: it is then a parent of NAME. */
struct parents {
	const char *name;
	bool uses, any;
};

static int uses_name(void *ctx, const char *name, char kind)
{
	struct parents *p = ctx;
	p->uses |= kind == 'i' && !strcasecmp(name, p->name);
	return 0;
}

static int print_parent(void *ctx, const struct pmudb_metric *m)
{
	struct parents *p = ctx;
	p->uses = false;
	if (pmudb_metric_terms(m->expr, uses_name, p, NULL) || !p->uses)
		return 0;
	printf("%s %s", p->any ? "," : "  used by", m->name);
	p->any = true;
	return 0;
}

static int print_metric(void *ctx, const struct pmudb_metric *m)
{
	struct metric_print *mp = ctx;
	if (strcasecmp(m->name, mp->name))
		return 0;	/* a group of that name */
	if (json) {
		fputs(mp->found++ ? ",{\"metric\":" : "{\"metrics\":[{\"metric\":", stdout);
		json_quoted(stdout, m->name);
		cli_json_field("uarch", m->uarch);
		cli_json_field("pmu", m->pmu);
		cli_json_field("description", m->description);
		cli_json_field("expr", m->expr);
		cli_json_field("scale_unit", m->scale_unit);
		cli_json_field("threshold", m->threshold);
		cli_json_field("groups", m->groups);
		cli_json_field("constraint", m->constraint);
		cli_json_field("missing", m->missing);
		cli_json_field("source", m->source);
		putchar('}');
		return 0;
	}
	if (mp->found++)
		putchar('\n');
	printf("%s (metric of %s, PMU %s)\n  %s\n  from the vendor list %s\n", m->name, m->uarch, m->pmu ? m->pmu : "-",
	       m->description, m->source);
	printf("  expression  %s\n", m->expr);
	if (m->scale_unit)
		printf("  scale unit  %s\n", m->scale_unit);
	if (m->threshold)
		printf("  threshold   %s\n", m->threshold);
	if (m->groups)
		printf("  groups      %s\n", m->groups);
	if (m->constraint)
		printf("  constraint  %s\n", m->constraint);
	if (m->missing)
		printf("  lacks       %s\n", m->missing);
	puts("  uses:");
	mp->pmu = m->pmu;
	struct pmudb_error err;
	if (pmudb_metric_terms(m->expr, print_term, mp, &err))
		printf("    (%s)\n", err.message);
	struct parents p = { m->name, false, false };
	pmudb_metrics(mp->c->db, cli_scope(mp->c), NULL, print_parent, &p, &err);
	if (p.any)
		putchar('\n');
	return 0;
}

/* The metric NAME of the selected PMUs, printed; whether there was one. */
static bool print_metrics_named(struct cli *c, const char *name)
{
	struct metric_print mp = { c, name, NULL, 0, false };
	struct pmudb_error err;
	if (!cli_scope(c)->count || pmudb_metrics(c->db, cli_scope(c), name, print_metric, &mp, &err) <= 0)
		return false;
	if (json && mp.found)
		puts("]}");
	return mp.found > 0;
}

int cmd_info(struct cli *c, int argc, char **argv)
{
	json = argc >= 2 && !strcmp(argv[1], "--json");
	if (json) {
		argv[1] = argv[0];
		argv++, argc--;
	}
	bool dashes = cli_take_dashes(&argc, &argv);
	if (argc != 2 || (!dashes && argv[1][0] == '-')) {
		bool help = argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
		fputs("usage: pmudb info [--json] EVENT|METRIC   (pmu::EVENT, or EVENT with --pmu or --cpu)\n",
		      help ? stdout : stderr);
		return help ? EXIT_GOOD : EXIT_USAGE;
	}
	int status = cli_open(c);
	if (status == EXIT_GOOD) {
		int pmu = -1, event = -1;	/* set by pmudb_find_event when it returns 0 */
		struct pmudb_error err;
		if (pmudb_find_event(c->db, argv[1], cli_scope_for(c, argv[1]), &pmu, &event, &err)) {
			if (!cli_names_pmu(argv[1]) && err.code == PMUDB_ERR_NOTFOUND && print_metrics_named(c, argv[1])) {
				cli_close(c);
				return EXIT_GOOD;	/* a metric of the name */
			}
			if (!cli_names_pmu(argv[1]) && cli_scope_damaged(c, "info")) {
				cli_close(c);
				return EXIT_USAGE;
			}
			cli_add_suggestion(c, argv[1], &err);
			fprintf(stderr, "pmudb: info: %s: %s\n", argv[1], err.message);
			status = err.code == PMUDB_ERR_CATALOG ? EXIT_USAGE : EXIT_REJECTED;
		} else if (!attributes_known(c, argv[1], &err)) {
			cli_add_suggestion(c, argv[1], &err);
			fprintf(stderr, "pmudb: info: %s: %s\n", argv[1], err.message);
			status = EXIT_REJECTED;
		} else {
			status = print_event(c, pmu, event);
		}
	}
	cli_close(c);
	return status;
}
