/*
 * family_check.c - every PMU needs an encoding family (the runtime picks its
 * encoder by it), and libpfm's API does not say which: tables/families.yaml
 * does.  A newer libpfm brings PMUs no entry names; the build lists them
 * all at once, one line each (the 60 boxes spr_unc_cha0..59 as one), with
 * the file to edit and, as a hint, a PMU that already has a family and
 * the same modifiers.  A family group holds PMUs of one kind (core or
 * uncore): a PMU a broad glob put among PMUs of the other kind (an L3
 * PMU caught by "amd64_*") is listed too.
 */
#include "compiler/family_check.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The length of NAME without its trailing digits, and the number they
 * make (-1 when none). */
static size_t stem(const char *name, long *number)
{
	size_t n = strlen(name), s = n;
	while (s > 0 && isdigit((unsigned char)name[s - 1]))
		s--;
	*number = s < n && n - s < 9 ? strtol(name + s, NULL, 10) : -1;
	return *number < 0 ? n : s;
}

/* The modifier names of P's first event that has any, ','-joined. */
static char *modifier_names(const struct pmu *p)
{
	for (size_t e = 0; e < p->events.count; e++) {
		const struct event *ev = &p->events.items[e];
		if (!ev->modifiers.count)
			continue;
		char *s = xstrdup("");
		for (size_t i = 0; i < ev->modifiers.count; i++) {
			char *t = xprintf("%s,%s", s, ev->modifiers.items[i].name);
			free(s);
			s = t;
		}
		return s;
	}
	return NULL;
}

/* A PMU with a family, of P's kind, whose modifiers are P's; or NULL. */
static const struct pmu *alike(const struct model *m, const struct pmu *p)
{
	char *mine = modifier_names(p);
	const struct pmu *found = NULL;
	for (size_t i = 0; mine && !found && i < m->pmus.count; i++) {
		const struct pmu *q = &m->pmus.items[i];
		if (!q->family || q->kind != p->kind)
			continue;
		char *theirs = modifier_names(q);
		if (theirs && !strcmp(mine, theirs))
			found = q;
		free(theirs);
	}
	free(mine);
	return found;
}

static const char *kind_name(enum pmu_kind k)
{
	return k == PMU_CORE ? "core" : k == PMU_UNCORE ? "uncore" : k == PMU_OS ? "OS" : "unknown kind";
}

/* One line for the PMUs from FIRST to LAST (numbered boxes of one kind). */
static void report(const struct model *m, const struct pmu *first, const struct pmu *last, size_t count, FILE *out)
{
	const char *file = m->families_file ? m->families_file : "tables/families.yaml";
	const struct pmu *like = alike(m, first);
	long lo, hi;
	size_t s = stem(first->name, &lo);
	stem(last->name, &hi);
	if (count > 1)
		fprintf(out, "pmudb-build: PMUs %.*s%ld-%ld (%zu, \"%s\" ...)", (int)s, first->name, lo, hi, count,
			first->description);
	else
		fprintf(out, "pmudb-build: PMU %s (\"%s\")", first->name, first->description);
	fprintf(out, ", %s, of libpfm %s, %s no encoding family: add %s to the 'families' section of %s", kind_name(first->kind),
		m->libpfm_version, count > 1 ? "have" : "has", count > 1 ? "them" : "it", file);
	if (like)
		fprintf(out, " (%s modifiers are %s's: family %s, group %s)", count > 1 ? "their" : "its", like->name,
			like->family, like->harness_group);
	fputc('\n', out);
}

/* How many PMUs of P's group are of KIND. */
static size_t group_kind_count(const struct model *m, const struct pmu *p, enum pmu_kind kind)
{
	size_t n = 0;
	for (size_t i = 0; i < m->pmus.count; i++) {
		const struct pmu *q = &m->pmus.items[i];
		n += q->harness_group && !strcmp(q->harness_group, p->harness_group) && q->kind == kind;
	}
	return n;
}

/* PMUs of another kind than most of their group's; writes a line for each. */
static size_t misgrouped(const struct model *m, FILE *out)
{
	size_t bad = 0;
	for (size_t i = 0; i < m->pmus.count; i++) {
		const struct pmu *p = &m->pmus.items[i];
		if (!p->harness_group)
			continue;
		size_t mine = group_kind_count(m, p, p->kind);
		for (size_t j = 0; j < m->pmus.count; j++) {
			const struct pmu *q = &m->pmus.items[j];
			if (q->kind == p->kind || !q->harness_group || strcmp(q->harness_group, p->harness_group)
			    || group_kind_count(m, q, q->kind) < mine)
				continue;
			fprintf(out, "pmudb-build: PMU %s of libpfm %s is %s, yet its 'families' entry puts it in group %s"
				" with %s PMUs (%s ...): give it an entry of its own, before that one, in the 'families'"
				" section of %s\n", p->name, m->libpfm_version, kind_name(p->kind), p->harness_group,
				kind_name(q->kind), q->name, m->families_file ? m->families_file : "tables/families.yaml");
			bad++;
			break;
		}
	}
	return bad;
}

int families_check(struct model *m, FILE *out, char **error)
{
	size_t missing = 0;
	for (size_t i = 0; i < m->pmus.count;) {
		const struct pmu *p = &m->pmus.items[i];
		if (p->family) {
			i++;
			continue;
		}
		/* the run of boxes p0, p1, ... right after it */
		long n, next;
		size_t s = stem(p->name, &n), j = i + 1;
		while (n >= 0 && j < m->pmus.count && !m->pmus.items[j].family
		       && stem(m->pmus.items[j].name, &next) == s && !strncmp(m->pmus.items[j].name, p->name, s)
		       && next == n + (long)(j - i))
			j++;
		report(m, p, &m->pmus.items[j - 1], j - i, out);
		missing += j - i;
		i = j;
	}
	size_t bad = missing ? 0 : misgrouped(m, out);
	if (bad) {
		*error = xprintf("%zu PMU%s of libpfm %s %s in a family group of another kind (listed above)", bad,
				 bad == 1 ? "" : "s", m->libpfm_version, bad == 1 ? "is" : "are");
		return -1;
	}
	if (!missing)
		return 0;
	*error = xprintf("%s: %zu PMU%s of libpfm %s %s no encoding family (each listed above): add %s to the"
			 " 'families' section of %s", m->families_at ? m->families_at : "tables/families.yaml:1:1",
			 missing, missing == 1 ? "" : "s", m->libpfm_version,
			 missing == 1 ? "has" : "have", missing == 1 ? "it" : "them",
			 m->families_file ? m->families_file : "tables/families.yaml");
	return -1;
}
