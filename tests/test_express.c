/*
 * test_express.c - the express lane (runtime/fast/express.c) against the stages it
 * stands in for: every answer the lane gives must be the stages' answer,
 * byte for byte, code for code, message for message.
 *
 * The strings are built for every PMU of the catalog, libpfm's and the
 * vendors' (which the harness, going by libpfm's enumeration, does not
 * reach): each event alone; with every modifier of its set bare, at 0, at
 * 1, at the end of its range and past it, in upper case; with a PMU
 * modifier and perf modifiers together; with periods and frequencies of
 * one to twenty digits; with the refusals the perf layer makes; with each
 * unit mask, alone, in lower case, twice, given a value, beside modifiers,
 * and in pairs.  Each is encoded with the lane allowed (after a first
 * string has given the event its bare encoding) and with it barred, with
 * and without a message; the two must agree whenever the lane answers,
 * and the lane must answer a good share of them.  Under the sanitizers a
 * sample of the events is taken (testlib.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "runtime/encode/bare.h"
#include "runtime/fast/express.h"
#include "runtime/fast/intake.h"
#include "pmudb.h"
#include "tests/testlib.h"

static pmudb_t *db;

static int setup(void **state)
{
	(void)state;
	struct pmudb_error err;
	db = pmudb_open(NULL, &err);
	return !db;
}

static int teardown(void **state)
{
	(void)state;
	pmudb_close(db);
	return 0;
}

struct tally {
	long tried, answered;
	long events, with_umasks;	/* events whose unit masks the lane may add */
};

static void same_encoding(const char *s, const struct pmudb_encoding *a, const struct pmudb_encoding *b)
{
	if (strcmp(a->pmu, b->pmu) || strcmp(a->fstr, b->fstr) || a->type != b->type
	    || strcmp(a->sysfs_pmu, b->sysfs_pmu) || a->config != b->config || a->config1 != b->config1
	    || a->config2 != b->config2 || a->exclude_user != b->exclude_user || a->exclude_kernel != b->exclude_kernel
	    || a->exclude_hv != b->exclude_hv || a->exclude_host != b->exclude_host
	    || a->exclude_guest != b->exclude_guest || a->precise_ip != b->precise_ip
	    || a->sample_period != b->sample_period || a->freq != b->freq || a->exclusive != b->exclusive
	    || a->pinned != b->pinned || a->cpu != b->cpu)
		fail_msg("%s: the lane gives %s config 0x%llx, the stages %s config 0x%llx", s, a->fstr,
			 (unsigned long long)a->config, b->fstr, (unsigned long long)b->config);
}

/* S through the lane, when it answers, and through the stages: the same,
 * for a caller that wants a message and for one that does not. */
static void compare(const char *s, struct tally *t)
{
	for (int quiet = 0; quiet < 2; quiet++) {
		struct pmudb_encoding lane, stages;
		struct pmudb_error lane_err, err;
		struct intake in;
		const struct bare_encoding *found;
		intake_read(s, &in);
		int r = express_encode(db, s, &in, &lane, &lane_err, quiet, &found);
		t->tried++;
		if (r == EXPRESS_DECLINED)
			continue;
		t->answered++;
		express_allow(db, false);
		int want = pmudb_encode(db, s, NULL, &stages, quiet ? NULL : &err);
		express_allow(db, true);
		if (r != want)
			fail_msg("%s: the lane answers %d, the stages %d", s, r, want);
		if (!quiet && r && strcmp(lane_err.message, err.message))
			fail_msg("%s: the lane says \"%s\", the stages \"%s\"", s, lane_err.message, err.message);
		if (!r)
			same_encoding(s, &lane, &stages);
	}
}

/* The values to try for modifier MI. */
static int values_of(const struct pmudb_modifier_info *mi, char values[][24])
{
	int n = 0;
	snprintf(values[n++], 24, "0");
	snprintf(values[n++], 24, "1");
	if (mi->is_integer) {
		uint64_t top = mi->range_known ? mi->max : 255;
		snprintf(values[n++], 24, "%llu", (unsigned long long)top);
		if (top < UINT64_MAX)
			snprintf(values[n++], 24, "%llu", (unsigned long long)top + 1);
		snprintf(values[n++], 24, "12");
		snprintf(values[n++], 24, "18446744073709551615");
	} else {
		snprintf(values[n++], 24, "y");
		snprintf(values[n++], 24, "F");
		snprintf(values[n++], 24, "2");
	}
	return n;
}

/* A copy of S with its ASCII letters upper case. */
static void upper(char *dst, size_t size, const char *s)
{
	size_t i = 0;
	for (; s[i] && i + 1 < size; i++)
		dst[i] = (char)(s[i] >= 'a' && s[i] <= 'z' ? s[i] - 'a' + 'A' : s[i]);
	dst[i] = '\0';
}

static void strings_of_event(const char *pmu, int p, int e, const struct pmudb_event_info *ei, struct tally *t)
{
	char base[320], s[1024], name[64], caps[1024];
	snprintf(base, sizeof(base), "%s::%s", pmu, ei->name);
	/* the first names the event and makes its bare encoding */
	struct pmudb_encoding enc;
	pmudb_encode(db, base, NULL, &enc, NULL);
	struct intake in;
	struct pmudb_error err;
	const struct bare_encoding *found;
	intake_read(base, &in);
	express_encode(db, base, &in, &enc, &err, true, &found);
	t->events++;
	t->with_umasks += found && found->with_umasks;
	compare(base, t);
	upper(caps, sizeof(caps), base);
	compare(caps, t);
	static const char *const perf[] = { ":u", ":k=0", ":u=1:k=1", ":h", ":mg:mh=0", ":precise=1", ":precise=4",
					    ":period=1000", ":freq=99", ":period=18446744073709551615:u",
					    ":cpu=3:pinned", ":excl=1", ":period=0", ":period=5:freq=5",
					    ":cpu=2147483647", ":U=1.K", ":hw_smpl=1", ":u:u", ":u=2", ":period=" };
	for (size_t i = 0; i < sizeof(perf) / sizeof(perf[0]); i++) {
		snprintf(s, sizeof(s), "%s%s", base, perf[i]);
		compare(s, t);
	}
	/* unit masks: alone, in lower case, twice, with a value, with perf
	 * and PMU modifiers, and in pairs (the first eight's) */
	for (int u = 0; u < ei->umask_count; u++) {
		struct pmudb_umask_info ui, vi;
		if (pmudb_umask_info(db, p, e, u, &ui))
			continue;
		static const char *const after[] = { "", ":u", ":k=0:period=12345", ":c=1", ":i=1:u", ":e", ".u" };
		for (size_t i = 0; i < sizeof(after) / sizeof(after[0]); i++) {
			snprintf(s, sizeof(s), "%s:%s%s", base, ui.name, after[i]);
			compare(s, t);
		}
		snprintf(caps, sizeof(caps), "%s:%s", base, ui.name);
		for (char *c = caps + strlen(base); *c; c++)
			*c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
		compare(caps, t);
		snprintf(s, sizeof(s), "%s:%s:%s", base, ui.name, ui.name);
		compare(s, t);
		snprintf(s, sizeof(s), "%s:%s=1", base, ui.name);
		compare(s, t);
		for (int v = u + 1; v < ei->umask_count && u < 8 && v < 8; v++) {
			if (pmudb_umask_info(db, p, e, v, &vi))
				continue;
			snprintf(s, sizeof(s), "%s:%s:%s", base, ui.name, vi.name);
			compare(s, t);
			snprintf(s, sizeof(s), "%s:%s:u:%s", base, vi.name, ui.name);
			compare(s, t);
		}
	}
	for (int m = 0; m < ei->modifier_count; m++) {
		struct pmudb_modifier_info mi;
		if (pmudb_modifier_info(db, p, e, m, &mi))
			continue;
		snprintf(name, sizeof(name), "%s", mi.name);
		snprintf(s, sizeof(s), "%s:%s", base, name);
		compare(s, t);
		char values[8][24];
		int n = values_of(&mi, values);
		for (int v = 0; v < n; v++) {
			snprintf(s, sizeof(s), "%s:%s=%s", base, name, values[v]);
			compare(s, t);
			if (mi.from_perf)
				continue;
			snprintf(s, sizeof(s), "%s:%s=%s:u:period=77", base, name, values[v]);
			compare(s, t);
			upper(caps, sizeof(caps), s);
			compare(caps, t);
		}
		/* two PMU modifiers, both orders */
		for (int o = 0; o < ei->modifier_count; o++) {
			struct pmudb_modifier_info oi;
			if (o == m || mi.from_perf || pmudb_modifier_info(db, p, e, o, &oi) || oi.from_perf)
				continue;
			snprintf(s, sizeof(s), "%s:%s=1:%s=1", base, name, oi.name);
			compare(s, t);
		}
	}
}

static void test_the_lane_gives_the_stages_answers(void **state)
{
	(void)state;
	int step = test_sample_step();
	struct tally t = { 0, 0, 0, 0 };
	long nth = 0;
	for (int p = 0; p < pmudb_pmu_count(db); p++) {
		struct pmudb_pmu_info pi;
		assert_int_equal(pmudb_pmu_info(db, p, &pi), 0);
		for (int e = 0; e < pi.event_count; e++) {
			struct pmudb_event_info ei;
			if (nth++ % step || pmudb_event_info(db, p, e, &ei))
				continue;
			strings_of_event(pi.name, p, e, &ei, &t);
		}
	}
	printf("the lane answered %ld of %ld strings (with and without a message), each as the stages\n", t.answered,
	       t.tried);
	/* a good share of these strings are the lane's (not all: many events
	 * need a unit mask, and a refusal's message is the stages'): were it
	 * to decline them all, this test would test nothing */
	assert_true(t.answered > t.tried / 5);
	/* and unit masks are added by the lane to some events' encodings
	 * without any (every AMD core event's, say) */
	printf("the lane adds the unit masks of %ld of %ld events\n", t.with_umasks, t.events);
	assert_true(t.with_umasks > 0);
}

/* A string the lane takes, through the lane and then with it barred. */
static void test_the_lane_answers_its_shapes(void **state)
{
	(void)state;
	static const char *const taken[] = { "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:u",
					     "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:c=255:i=1:period=123456",
					     "skl::INST_RETIRED:u", "amd64_fam1ah_zen5::bp_l2_btb_correct:k=0" };
	for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++) {
		struct pmudb_encoding a, b;
		struct intake in;
		const struct bare_encoding *found;
		pmudb_encode(db, taken[i], NULL, &a, NULL);
		intake_read(taken[i], &in);
		struct pmudb_error err;
		assert_int_equal(express_encode(db, taken[i], &in, &a, &err, false, &found), 0);
		express_allow(db, false);
		assert_int_equal(express_encode(db, taken[i], &in, &b, &err, false, &found), EXPRESS_DECLINED);
		assert_int_equal(pmudb_encode(db, taken[i], NULL, &b, NULL), 0);
		express_allow(db, true);
		same_encoding(taken[i], &a, &b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_lane_answers_its_shapes),
		cmocka_unit_test(test_the_lane_gives_the_stages_answers),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
