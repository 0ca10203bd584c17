/*
 * vendor_newest.c - which list of a µarch is encoded when several sources
 * have one (vendor_newest.h).  The newest wins, by what the lists state
 * (Intel's version numbers, perfmon's and ARM-software/data's dates); the
 * one it supersedes stays in the catalog as history: its source, version
 * and date, and what the newer list added, removed and changed.  A part
 * the newer list lacks (perfmon's core lists have no uncore entries or
 * metrics here) stays the older list's, and the history says so.  The
 * CPUs of both lists are the µarch's: a mapfile row only the older one
 * has still detects it.
 */
#include "compiler/vendor_newest.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- which is newer ------------------------------------------------------ */

/* -1, 0, 1 comparing versions "1.20" and "1.3" part by part as numbers;
 * 2 where either is not a version in numbers. */
static int compare_versions(const char *a, const char *b)
{
	if (!a || !b)
		return 2;
	while (*a && *b) {
		if (!isdigit((unsigned char)*a) || !isdigit((unsigned char)*b))
			return 2;
		char *ea, *eb;
		unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
		if (x != y)
			return x < y ? -1 : 1;
		if ((*ea && *ea != '.') || (*eb && *eb != '.'))
			return 2;
		a = *ea ? ea + 1 : ea;
		b = *eb ? eb + 1 : eb;
	}
	return *a ? 1 : *b ? -1 : 0;
}

bool vendor_list_newer(const struct vendor_list *a, const struct vendor_list *b)
{
	int c = compare_versions(a->version, b->version);
	if (c == 1 || c == -1)
		return c > 0;
	if (a->date && b->date && strcmp(a->date, b->date))
		return strcmp(a->date, b->date) > 0;
	if (!a->date != !b->date)
		return a->date != NULL;
	return true;
}

/* ---- what changed -------------------------------------------------------- */

/* An entry of a list by its key ("cpu_atom/NAME" for a hybrid's core
 * types, lower case) and what encodes it. */
struct keyed {
	char *key, *name, *fields;
};

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct keyed *)a)->key, ((const struct keyed *)b)->key);
}

static char *fields_of(const struct vendor_event *v)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	if (!f)
		abort();
	if (v->terms.count) {
		for (size_t i = 0; i < v->terms.count; i++)
			fprintf(f, "%s%s=0x%llx", i ? "," : "", v->terms.items[i].name,
				(unsigned long long)v->terms.items[i].value);
	} else {
		fprintf(f, "event=0x%llx", (unsigned long long)v->code);
		if (v->umask || v->umask_ext)
			fprintf(f, ",umask=0x%llx", (unsigned long long)(v->umask | v->umask_ext << 8));
		if (v->cmask)
			fprintf(f, ",cmask=%llu", (unsigned long long)v->cmask);
		if (v->inv)
			fputs(",inv=1", f);
		if (v->edge)
			fputs(",edge=1", f);
		if (v->any)
			fputs(",any=1", f);
		if (v->msr_value)
			fprintf(f, ",msr=0x%llx:0x%llx", (unsigned long long)v->msr_index,
				(unsigned long long)v->msr_value);
	}
	fclose(f);
	return s;
}

/* Every event of U (and uncore entry, with UNCORE), sorted by key (*N of
 * them). */
static struct keyed *keyed_entries(const struct vendor_uarch *u, bool uncore, size_t *n)
{
	*n = u->events.count + (uncore ? u->uncore.count : 0);
	struct keyed *k = calloc(*n ? *n : 1, sizeof(*k));
	if (!k)
		abort();
	for (size_t i = 0; i < *n; i++) {
		const struct vendor_event *v = i < u->events.count ? &u->events.items[i]
								  : &u->uncore.items[i - u->events.count];
		k[i].name = v->unit && i < u->events.count ? xprintf("%s/%s", v->unit, v->name) : xstrdup(v->name);
		k[i].key = xstrdup(k[i].name);
		for (char *p = k[i].key; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		k[i].fields = fields_of(v);
	}
	qsort(k, *n, sizeof(*k), by_key);
	return k;
}

static void free_keyed(struct keyed *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(k[i].key);
		free(k[i].name);
		free(k[i].fields);
	}
	free(k);
}

static void add_change(struct vendor_list *l, const char *event, const char *change, const char *was, const char *now)
{
	struct list_change *c = vec_push(&l->changes);
	c->event = xstrdup(event);
	c->change = change;
	c->was = was ? xstrdup(was) : NULL;
	c->now = now ? xstrdup(now) : NULL;
}

/* Into OLD->changes: what NEW's entries change of OLD's (a name listed
 * twice is compared once, at its first listing).  Uncore entries are
 * compared where both list some: a list without any keeps the older
 * one's (supersede). */
static void diff_lists(const struct vendor_uarch *old, const struct vendor_uarch *new, struct vendor_list *into)
{
	size_t no, nn;
	bool uncore = old->uncore.count && new->uncore.count;
	struct keyed *o = keyed_entries(old, uncore, &no), *n = keyed_entries(new, uncore, &nn);
	size_t i = 0, j = 0;
	while (i < no || j < nn) {
		int c = i == no ? 1 : j == nn ? -1 : strcmp(o[i].key, n[j].key);
		if (c < 0)
			add_change(into, o[i].name, "removed", o[i].fields, NULL);
		else if (c > 0)
			add_change(into, n[j].name, "added", NULL, n[j].fields);
		else if (strcmp(o[i].fields, n[j].fields))
			add_change(into, n[j].name, "changed", o[i].fields, n[j].fields);
		const char *ok = c <= 0 ? o[i].key : NULL, *nk = c >= 0 ? n[j].key : NULL;
		if (ok)
			while (++i < no && !strcmp(o[i].key, ok))
				;
		if (nk)
			while (++j < nn && !strcmp(n[j].key, nk))
				;
	}
	free_keyed(o, no);
	free_keyed(n, nn);
}

/* ---- taking a source in -------------------------------------------------- */

#define WARNINGS_SHOWN 5

static bool shares_cpu(const struct vendor_uarch *a, const struct vendor_uarch *b)
{
	for (size_t i = 0; i < a->cpus.count; i++)
		for (size_t k = 0; k < b->cpus.count; k++)
			if (!strcasecmp(a->cpus.items[i].id, b->cpus.items[k].id))
				return true;
	return false;
}

static struct vendor_uarch *same_uarch(struct model *m, const struct vendor_uarch *n)
{
	for (size_t i = 0; i < m->uarchs.count; i++)
		if (!strcmp(m->uarchs.items[i].arch, n->arch) && !strcasecmp(m->uarchs.items[i].name, n->name))
			return &m->uarchs.items[i];
	for (size_t i = 0; !n->system && i < m->uarchs.count; i++)
		if (!strcmp(m->uarchs.items[i].arch, n->arch) && shares_cpu(&m->uarchs.items[i], n))
			return &m->uarchs.items[i];
	return NULL;
}

/* WIN supersedes LOSE: LOSE's list goes to WIN's history with what WIN
 * changed, and the parts WIN lacks and the CPUs it does not list move
 * over.  LOSE is left with nothing WIN took. */
static void supersede(struct vendor_uarch *win, struct vendor_uarch *lose)
{
	struct vendor_list old = lose->list;
	memset(&lose->list, 0, sizeof(lose->list));
	diff_lists(lose, win, &old);
	bool uncore = !win->uncore.count && lose->uncore.count, metrics = !win->metrics.count && lose->metrics.count;
	if (uncore) {
		free(win->uncore.items);
		win->uncore.items = lose->uncore.items;
		win->uncore.count = lose->uncore.count;
		win->uncore.cap = lose->uncore.cap;
		memset(&lose->uncore, 0, sizeof(lose->uncore));
	}
	if (metrics) {
		free(win->metrics.items);
		win->metrics.items = lose->metrics.items;
		win->metrics.count = lose->metrics.count;
		win->metrics.cap = lose->metrics.cap;
		memset(&lose->metrics, 0, sizeof(lose->metrics));
	}
	/* counter counts (counter.json) are the hardware's, not the list's
	 * version: a newer list without them keeps the older one's, which
	 * name their file */
	if (!win->counts.count && lose->counts.count) {
		free(win->counts.items);
		win->counts = lose->counts;
		memset(&lose->counts, 0, sizeof(lose->counts));
	}
	old.kept = uncore && metrics ? xstrdup("uncore, metrics") : uncore ? xstrdup("uncore")
		   : metrics ? xstrdup("metrics") : NULL;
	for (size_t i = 0; i < lose->cpus.count; i++) {
		bool listed = false;
		for (size_t k = 0; k < win->cpus.count && !listed; k++)
			listed = !strcasecmp(win->cpus.items[k].id, lose->cpus.items[i].id);
		if (!listed) {
			*(struct vendor_cpu *)vec_push(&win->cpus) = lose->cpus.items[i];
			memset(&lose->cpus.items[i], 0, sizeof(lose->cpus.items[i]));
		}
	}
	for (size_t i = 0; i < lose->older.count; i++)
		*(struct vendor_list *)vec_push(&win->older) = lose->older.items[i];
	lose->older.count = 0;
	*(struct vendor_list *)vec_push(&win->older) = old;
	win->system |= lose->system;
}

int vendor_newest_take(struct model *m, struct model *from, int source, char **error)
{
	(void)error;
	for (size_t i = 0; i < from->notes.count; i++)
		model_note(m, "%s", from->notes.items[i]);
	for (size_t i = 0; i < from->uarchs.count; i++) {
		struct vendor_uarch *n = &from->uarchs.items[i];
		n->list.source = source;
		n->list.events = (int)n->events.count;
		n->list.uncore = (int)n->uncore.count;
		n->list.metrics = (int)n->metrics.count;
		for (size_t k = 0; k < n->cpus.count; k++)
			n->cpus.items[k].source = source;
		/* a list with a quirk has it many times (cascadelakex names 1,012
		 * events OFFCORE_RESPONSE:request=...): the first few, then
		 * how many */
		for (size_t k = 0; k < n->warnings.count && k < WARNINGS_SHOWN; k++)
			model_note(m, "%s (left out)", n->warnings.items[k]);
		if (n->warnings.count > WARNINGS_SHOWN)
			model_note(m, "%s/%s: %zu more entries left out, as above", n->arch, n->name,
				   n->warnings.count - WARNINGS_SHOWN);
		free_strings(n->warnings.items, n->warnings.count);
		memset(&n->warnings, 0, sizeof(n->warnings));
		struct vendor_uarch *o = same_uarch(m, n);
		if (!o) {
			*(struct vendor_uarch *)vec_push(&m->uarchs) = *n;
		} else if (vendor_list_newer(&n->list, &o->list)) {
			supersede(n, o);
			/* the name stays the one the tables know it by */
			char *name = n->name;
			n->name = o->name;
			o->name = name;
			vendor_uarch_free(o);
			*o = *n;
		} else {
			supersede(o, n);
			vendor_uarch_free(n);
		}
		memset(n, 0, sizeof(*n));
	}
	from->uarchs.count = 0;
	return 0;
}
