/*
 * floors.c - reading, checking and writing the harness's per-PMU floors
 * (see floors.h).
 */
#include "tests/floors.h"

#include <stdlib.h>
#include <string.h>

int floors_load(const char *file, struct floors *f)
{
	memset(f, 0, sizeof(*f));
	FILE *in = fopen(file, "r");
	if (!in) {
		fprintf(stderr, "harness: cannot read %s\n", file);
		return -1;
	}
	char line[512];
	int n = 0, r = 0;
	while (!r && fgets(line, sizeof(line), in)) {
		n++;
		char version[64];
		if (sscanf(line, "# libpfm %63s enumeration %63s", version, f->fingerprint) == 2 || line[0] == '#'
		    || line[0] == '\n')
			continue;
		struct floor_line l;
		if (sscanf(line, "%63s %ld %ld %ld", l.name, &l.tried, &l.agree, &l.disagree) != 4) {
			fprintf(stderr, "harness: %s:%d: expected 'PMU TRIED AGREE DISAGREE'\n", file, n);
			r = -1;
			break;
		}
		struct floor_line *more = realloc(f->lines, (size_t)(f->count + 1) * sizeof(*more));
		if (!more) {
			r = -1;
			break;
		}
		f->lines = more;
		f->lines[f->count++] = l;
	}
	fclose(in);
	if (r)
		floors_free(f);
	return r;
}

void floors_free(struct floors *f)
{
	free(f->lines);
	memset(f, 0, sizeof(*f));
}

static const struct floor_line *floor_of(const struct floors *f, const char *name)
{
	for (int i = 0; i < f->count; i++)
		if (!strcmp(f->lines[i].name, name))
			return &f->lines[i];
	return NULL;
}

bool floors_check(const struct floors *f, const struct pmu_tally *t, bool sampled, const char *file, FILE *out)
{
	const struct floor_line *l = floor_of(f, t->name);
	long allowed = l ? l->disagree : 0;
	if (t->disagree > allowed) {
		fprintf(out, "FAIL %s: %ld string%s disagree%s with libpfm, %s allows %ld%s (the first: %s)\n", t->name,
			t->disagree, t->disagree == 1 ? "" : "s", t->disagree == 1 ? "s" : "", file, allowed,
			l ? "" : " (a PMU it does not list)", t->first);
		return false;
	}
	if (!l || sampled)
		return true;
	/* a corpus that lost strings (another libpfm's table) lowers the
	 * floor by as many; a grown one keeps it */
	long lost = l->tried > t->tried ? l->tried - t->tried : 0;
	if (t->agree < l->agree - lost) {
		fprintf(out, "FAIL %s: %ld strings agree with libpfm, below its floor %ld in %s (of %ld strings; %ld now)\n",
			t->name, t->agree, l->agree - lost, file, l->tried, t->tried);
		return false;
	}
	return true;
}

int floors_write(const char *file, const char *libpfm_version, const char *fingerprint,
		 const struct pmu_tally *tallies, int count)
{
	FILE *out = fopen(file, "w");
	if (!out)
		return -1;
	fprintf(out, "# The differential harness's floors per PMU (tests/floors.h), written by harness --write-floor.\n"
		"# libpfm %s enumeration %s\n# PMU tried agree disagree\n", libpfm_version, fingerprint);
	for (int i = 0; i < count; i++)
		fprintf(out, "%s %ld %ld %ld\n", tallies[i].name, tallies[i].tried, tallies[i].agree, tallies[i].disagree);
	return fclose(out) ? -1 : 0;
}
