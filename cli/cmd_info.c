/*
 * cmd_info.c - pmudb info EVENT: an event with its unit masks and modifiers.
 */
#include <stdio.h>
#include <string.h>

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

/* Prints the event; EXIT_USAGE (the error printed) when the catalog
 * cannot give it. */
static int print_event(struct cli *c, int pmu, int event)
{
	struct pmudb_pmu_info p;
	struct pmudb_event_info ev;
	if (pmudb_pmu_info(c->db, pmu, &p) || pmudb_event_info(c->db, pmu, event, &ev)) {
		cli_damaged(c, "event %d of PMU %d", event, pmu);
		return EXIT_USAGE;
	}
	printf("%s::%s\n  code 0x%llx%s\n  %s\n", p.name, ev.name, (unsigned long long)ev.code,
	       ev.is_precise ? ", precise sampling" : "", ev.description);
	if (ev.source)
		printf("  from the vendor list %s (PMU %s, on the rules of %s)\n", ev.source, p.source, p.like ? p.like : "-");
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

int cmd_info(struct cli *c, int argc, char **argv)
{
	bool dashes = cli_take_dashes(&argc, &argv);
	if (argc != 2 || (!dashes && argv[1][0] == '-')) {
		bool help = argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
		fputs("usage: pmudb info EVENT   (pmu::EVENT, or EVENT with --pmu or --cpu)\n", help ? stdout : stderr);
		return help ? EXIT_GOOD : EXIT_USAGE;
	}
	int status = cli_open(c);
	if (status == EXIT_GOOD) {
		int pmu = -1, event = -1;	/* set by pmudb_find_event when it returns 0 */
		struct pmudb_error err;
		if (pmudb_find_event(c->db, argv[1], cli_scope_for(c, argv[1]), &pmu, &event, &err)) {
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
