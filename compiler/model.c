/*
 * model.c - allocation and lookup helpers for the in-memory catalog.
 *
 * The compiler is a short-lived batch program: running out of memory is not
 * something it can recover from, so the allocators here abort with a message
 * instead of making every caller check.
 */
#include "compiler/model.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void *xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (!q) {
		fputs("pmudb-build: out of memory\n", stderr);
		abort();
	}
	return q;
}

void vec_grow_(void **items, size_t *cap, size_t item_size)
{
	*cap = *cap ? *cap * 2 : 8;
	*items = xrealloc(*items, *cap * item_size);
}

char *xstrdup(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

char *xprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fputs("pmudb-build: out of memory\n", stderr);
		abort();
	}
	return s;
}

void model_free_metric(struct vendor_metric *v)
{
	char *fields[] = { v->name, v->description, v->expr, v->groups, v->threshold, v->scale_unit,
			   v->constraint, v->default_group, v->unit, v->file, v->missing };
	for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++)
		free(fields[k]);
}

void model_free_umask(struct umask *u)
{
	free(u->name);
	free(u->description);
	free(u->equiv);
	free(u->why);
	free(u->source);
	free(u->added.items);
	free(u->implied.items);
	free(u->unlocks.items);
}

static void free_event(struct event *e)
{
	for (size_t i = 0; i < e->umasks.count; i++)
		model_free_umask(&e->umasks.items[i]);
	for (size_t i = 0; i < e->modifiers.count; i++) {
		free(e->modifiers.items[i].name);
		free(e->modifiers.items[i].description);
		free(e->modifiers.items[i].landings.items);
		free(e->modifiers.items[i].presence.items);
		free(e->modifiers.items[i].nonzero.items);
	}
	for (size_t i = 0; i < e->aliases.count; i++) {
		free(e->aliases.items[i].name);
		free(e->aliases.items[i].attrs);
	}
	free(e->umasks.items);
	free(e->modifiers.items);
	free(e->aliases.items);
	free(e->bare_added.items);
	free(e->hidden.items);
	free(e->hidden_errors.items);
	free(e->no_modifiers.items);
	free(e->no_modifiers_errors.items);
	free(e->group_rules.items);
	for (size_t i = 0; i < e->pair_defaults.count; i++)
		free(e->pair_defaults.items[i].added.items);
	free(e->pair_defaults.items);
	free(e->name);
	free(e->description);
	free(e->equiv);
	free(e->why);
	free(e->source);
}

void free_strings(char **items, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(items[i]);
	free(items);
}

void model_free_pmu(struct pmu *p)
{
	for (size_t j = 0; j < p->events.count; j++)
		free_event(&p->events.items[j]);
	free(p->events.items);
	free_strings(p->sysfs_names.items, p->sysfs_names.count);
	free(p->name);
	free(p->description);
	free(p->family);
	free(p->harness_group);
	free(p->source);
	free(p->like);
	free(p->box_numbering);
	free(p->device_identifier);
	free(p->unit);
	free_strings(p->modifier_names.items, p->modifier_names.count);
}

void vendor_event_free(struct vendor_event *e)
{
	free(e->name);
	free(e->description);
	free(e->file);
	free(e->unit);
	free(e->kernel_pmu);
	free(e->compat);
	for (size_t i = 0; i < e->terms.count; i++)
		free(e->terms.items[i].name);
	free(e->terms.items);
}

void vendor_list_free(struct vendor_list *l)
{
	free(l->file);
	free(l->version);
	free(l->date);
	free(l->kept);
	for (size_t i = 0; i < l->changes.count; i++) {
		free(l->changes.items[i].event);
		free(l->changes.items[i].was);
		free(l->changes.items[i].now);
	}
	free(l->changes.items);
}

void vendor_uarch_free(struct vendor_uarch *u)
{
	for (size_t j = 0; j < u->events.count; j++)
		vendor_event_free(&u->events.items[j]);
	for (size_t j = 0; j < u->uncore.count; j++)
		vendor_event_free(&u->uncore.items[j]);
	free(u->uncore.items);
	for (size_t j = 0; j < u->cpus.count; j++) {
		free(u->cpus.items[j].id);
		free(u->cpus.items[j].file);
	}
	free(u->events.items);
	free(u->cpus.items);
	free_strings(u->units.items, u->units.count);
	for (size_t j = 0; j < u->metrics.count; j++)
		model_free_metric(&u->metrics.items[j]);
	free(u->metrics.items);
	free(u->name);
	free(u->arch);
	vendor_list_free(&u->list);
	for (size_t j = 0; j < u->older.count; j++)
		vendor_list_free(&u->older.items[j]);
	free(u->older.items);
	free_strings(u->warnings.items, u->warnings.count);
	for (size_t j = 0; j < u->counts.count; j++) {
		free(u->counts.items[j].unit);
		free(u->counts.items[j].file);
	}
	free(u->counts.items);
}

void model_free(struct model *m)
{
	free(m->families_at);
	for (size_t i = 0; i < m->pmus.count; i++)
		model_free_pmu(&m->pmus.items[i]);
	for (size_t i = 0; i < m->uarchs.count; i++)
		vendor_uarch_free(&m->uarchs.items[i]);
	free(m->uarchs.items);
	free(m->kernel_source);
	for (size_t i = 0; i < m->uncore_units.count; i++) {
		free(m->uncore_units.items[i].unit);
		free(m->uncore_units.items[i].pmu);
	}
	free(m->uncore_units.items);
	for (size_t i = 0; i < m->vendor_maps.count; i++) {
		free(m->vendor_maps.items[i].pmu);
		free_strings(m->vendor_maps.items[i].cpus.items, m->vendor_maps.items[i].cpus.count);
	}
	free(m->vendor_maps.items);
	for (size_t i = 0; i < m->findings.count; i++) {
		struct finding *f = &m->findings.items[i];
		free(f->pmu);
		free(f->uarch);
		free(f->libpfm_name);
		free(f->vendor_name);
		free(f->vendor_file);
		free(f->explained);
		free(f->why);
	}
	free(m->findings.items);
	for (size_t i = 0; i < m->differences.count; i++) {
		struct known_difference *q = &m->differences.items[i];
		free(q->pmu);
		free(q->event);
		free(q->umask);
		free(q->kind);
		free(q->why);
		free(q->file);
	}
	free(m->differences.items);
	for (size_t i = 0; i < m->counters_table.count; i++) {
		struct counters_entry *c = &m->counters_table.items[i];
		free(c->pmu_pattern);
		free(c->why);
		free(c->file);
	}
	free(m->counters_table.items);
	for (size_t i = 0; i < m->fixed_rules.count; i++) {
		struct fixed_rule *r = &m->fixed_rules.items[i];
		free_strings(r->pmus.items, r->pmus.count);
		char *fields[] = { r->family, r->name, r->why, r->file };
		for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++)
			free(fields[k]);
	}
	free(m->fixed_rules.items);
	for (size_t i = 0; i < m->counter_counts.count; i++) {
		free(m->counter_counts.items[i].pmu);
		free(m->counter_counts.items[i].source);
	}
	free(m->counter_counts.items);
	for (size_t i = 0; i < m->counter_rules.count; i++) {
		free(m->counter_rules.items[i].pmu);
		free(m->counter_rules.items[i].event);
		free(m->counter_rules.items[i].source);
	}
	free(m->counter_rules.items);
	free_strings(m->notes.items, m->notes.count);
	free(m->vendor_tree);
	free(m->vendor_layout);
	for (size_t i = 0; i < m->sources.count; i++) {
		free(m->sources.items[i].dir);
		free(m->sources.items[i].origin);
	}
	free(m->sources.items);
	for (size_t i = 0; i < m->cpuid.count; i++) {
		struct cpuid_entry *c = &m->cpuid.items[i];
		free_strings(c->pmus.items, c->pmus.count);
		free(c->vendor);
		free(c->why);
		free(c->file);
	}
	for (size_t i = 0; i < m->overrides.count; i++) {
		struct override_record *o = &m->overrides.items[i];
		free(o->file);
		free(o->action);
		free(o->target);
		free(o->why);
	}
	free(m->pmus.items);
	free(m->cpuid.items);
	free(m->overrides.items);
	free(m->libpfm_version);
	free(m->families_file);
	free(m->libpfm_fingerprint);
	free(m->tables_fingerprint);
	free(m->vendor_fingerprint);
	memset(m, 0, sizeof(*m));
}

void model_note(struct model *m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fputs("pmudb-build: out of memory\n", stderr);
		abort();
	}
	*(char **)vec_push(&m->notes) = s;
}

/* Names are case-insensitive, as in libpfm. */
struct pmu *model_find_pmu(struct model *m, const char *name)
{
	for (size_t i = 0; i < m->pmus.count; i++)
		if (!strcasecmp(m->pmus.items[i].name, name))
			return &m->pmus.items[i];
	return NULL;
}

void model_match_pmus(struct model *m, const char *pattern, struct pmu_list *out)
{
	for (size_t i = 0; i < m->pmus.count; i++)
		if (!fnmatch(pattern, m->pmus.items[i].name, FNM_CASEFOLD))
			*(struct pmu **)vec_push(out) = &m->pmus.items[i];
}

static bool kept(char *const *keep, size_t nkeep, const char *name)
{
	for (size_t i = 0; i < nkeep; i++)
		if (!strcasecmp(keep[i], name))
			return true;
	return !nkeep;
}

int event_modifier(const struct event *ev, const char *name)
{
	for (size_t i = 0; i < ev->modifiers.count; i++)
		if (!strcmp(ev->modifiers.items[i].name, name))
			return (int)i;
	return -1;
}

void event_copy_modifiers(struct event *to, const struct event *from, char *const *keep, size_t nkeep)
{
	size_t first = to->modifiers.count;
	for (size_t i = 0; from && i < from->modifiers.count; i++) {
		const struct modifier *f = &from->modifiers.items[i];
		if (!kept(keep, nkeep, f->name))
			continue;
		struct modifier *t = vec_push(&to->modifiers);
		*t = *f;
		t->name = xstrdup(f->name);
		t->description = xstrdup(f->description);
		memset(&t->landings, 0, sizeof(t->landings));
		memset(&t->presence, 0, sizeof(t->presence));
		memset(&t->nonzero, 0, sizeof(t->nonzero));
		for (size_t j = 0; j < f->landings.count; j++)
			*(struct landing *)vec_push(&t->landings) = f->landings.items[j];
		for (size_t j = 0; j < f->presence.count; j++)
			*(struct landing *)vec_push(&t->presence) = f->presence.items[j];
		for (size_t j = 0; j < f->nonzero.count; j++)
			*(struct landing *)vec_push(&t->nonzero) = f->nonzero.items[j];
	}
	/* the positions of a needed modifier and of the one shown, in TO's list */
	for (size_t i = first; from && i < to->modifiers.count; i++) {
		struct modifier *t = &to->modifiers.items[i];
		int f = event_modifier(from, t->name);
		const struct modifier *fm = f < 0 ? NULL : &from->modifiers.items[f];
		t->requires = !fm || fm->requires < 0 ? -1 : event_modifier(to, from->modifiers.items[fm->requires].name);
		t->shown_from = !fm || fm->shown_from < 0 ? -1
				: event_modifier(to, from->modifiers.items[fm->shown_from].name);
	}
}

struct event *pmu_find_alias(struct pmu *p, const char *name)
{
	for (size_t i = 0; i < p->events.count; i++)
		for (size_t k = 0; k < p->events.items[i].aliases.count; k++)
			if (!strcasecmp(p->events.items[i].aliases.items[k].name, name))
				return &p->events.items[i];
	return NULL;
}

struct event *pmu_find_event(struct pmu *p, const char *name)
{
	for (size_t i = 0; i < p->events.count; i++)
		if (!strcasecmp(p->events.items[i].name, name))
			return &p->events.items[i];
	return NULL;
}

struct umask *event_find_umask(struct event *e, const char *name)
{
	for (size_t i = 0; i < e->umasks.count; i++)
		if (!strcasecmp(e->umasks.items[i].name, name))
			return &e->umasks.items[i];
	return NULL;
}
