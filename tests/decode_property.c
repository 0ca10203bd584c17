/*
 * decode_property.c - the property of pmudb_decode, over the harness
 * corpus's encoding shapes (CORPUS_BASE of corpus.c: every event, unit
 * mask, pair and modifier libpfm's enumeration gives; not the parser's
 * shapes, which name no new encodings, nor every unit mask with every
 * modifier, which would double the time CI has): for every
 * string of a core PMU that encodes, decoding its config, config1 and
 * config2 in that PMU gives at least one string, and every string it gives
 * encodes back to exactly those registers.  The string itself is a
 * witness that one exists, so finding none is a failure too.
 *
 * usage: decode_property [--sample N] [--pmu NAME]
 *   --sample N: every Nth string (the sanitizer pass); default all.
 * Ends with "N passed, N failed"; exit status 1 on any failure.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <perfmon/pfmlib.h>

#include "tests/corpus.h"
#include "pmudb.h"

struct state {
	pmudb_t *db;
	pmudb_decoder_t **decoders;	/* by PMU index, built on first use */
	bool *core;			/* by PMU index: a core PMU with named events */
	long sample, counter, passed, failed, strings_back;
	const struct pmudb_encoding *want;
	const char *event;
	bool bad;
};

static int check_back(void *ctx, const struct pmudb_decoded *d)
{
	struct state *s = ctx;
	struct pmudb_encoding e;
	struct pmudb_error err;
	s->strings_back++;
	if (!d->exact) {
		s->bad = true;
		fprintf(stderr, "FAIL %s: no exact string; nearest %s\n", s->event, d->event);
		return 1;
	}
	if (pmudb_encode(s->db, d->event, NULL, &e, &err) || e.config != s->want->config
	    || e.config1 != s->want->config1 || e.config2 != s->want->config2 || e.type != s->want->type) {
		s->bad = true;
		fprintf(stderr, "FAIL %s (0x%llx,0x%llx,0x%llx): decoded to %s, which %s\n", s->event,
			(unsigned long long)s->want->config, (unsigned long long)s->want->config1,
			(unsigned long long)s->want->config2, d->event, err.code ? err.message : "encodes otherwise");
		return 1;
	}
	return 0;
}

static pmudb_decoder_t *decoder_of(struct state *s, int p)
{
	if (!s->decoders[p] && s->core[p])
		s->decoders[p] = pmudb_decoder_open(s->db, p, NULL);
	return s->decoders[p];
}

static void on_string(void *ctx, const char *group, const char *event)
{
	struct state *s = ctx;
	(void)group;
	struct pmudb_encoding enc;
	if (pmudb_encode(s->db, event, NULL, &enc, NULL))
		return;
	int p = pmudb_find_pmu(s->db, enc.pmu);
	if (p < 0 || !s->core[p] || s->counter++ % s->sample)
		return;
	pmudb_decoder_t *dec = decoder_of(s, p);
	s->want = &enc;
	s->event = event;
	s->bad = false;
	struct pmudb_error err;
	int n = dec ? pmudb_decode(dec, enc.config, enc.config1, enc.config2, 4, check_back, s, &err) : -1;
	if (n <= 0 && !s->bad) {
		fprintf(stderr, "FAIL %s: %s\n", event, n < 0 ? (dec ? err.message : "no decoder") : "nothing decoded");
		s->bad = true;
	}
	if (s->bad)
		s->failed++;
	else
		s->passed++;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "sample", required_argument, NULL, 's' }, { "pmu", required_argument, NULL, 'p' }, { NULL, 0, NULL, 0 },
	};
	struct state s = { .sample = 1 };
	const char *only = NULL;
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (opt == 's')
			s.sample = atol(optarg) > 0 ? atol(optarg) : 1;
		else if (opt == 'p')
			only = optarg;
		else
			return 2;
	}
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	struct pmudb_error err;
	if (pfm_initialize() != PFM_SUCCESS || !(s.db = pmudb_open(NULL, &err))) {
		fprintf(stderr, "decode_property: cannot start (libpfm or the catalog)\n");
		return 2;
	}
	int n = pmudb_pmu_count(s.db);
	s.decoders = calloc((size_t)n, sizeof(*s.decoders));
	s.core = calloc((size_t)n, sizeof(*s.core));
	for (int p = 0; p < n; p++) {
		struct pmudb_pmu_info info;
		s.core[p] = !pmudb_pmu_info(s.db, p, &info) && !strcmp(info.kind, "core");
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	corpus_generate(s.db, only, CORPUS_BASE, on_string, &s);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("decode_property: %ld core-PMU strings decoded (every %ld), %ld strings back, %.1f s\n",
	       s.passed + s.failed, s.sample, s.strings_back, secs);
	printf("%ld passed, %ld failed\n", s.passed, s.failed);
	for (int p = 0; p < n; p++)
		pmudb_decoder_close(s.decoders[p]);
	free(s.decoders);
	free(s.core);
	pmudb_close(s.db);
	return s.failed ? 1 : 0;
}
