/*
 * twins.c - finds PMUs with one libpfm event table, and copies the rules
 * derived for one onto another (see twins.h).
 *
 * Identity is decided on everything ingested from libpfm's API that the
 * encoder reads or the catalog stores, not on names: a PMU's own name,
 * description and libpfm index differ between twins and do not count.
 */
#include "compiler/twins.h"

#include "compiler/model_fields.h"

#include <stdlib.h>

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same_umask(const struct umask *a, const struct umask *b)
{
	return model_fields_same(&umask_field_list, a, b, FO_LIBPFM) && a->libpfm_index == b->libpfm_index;
}

static bool same_modifier(const struct modifier *a, const struct modifier *b)
{
	return model_fields_same(&modifier_field_list, a, b, FO_LIBPFM);
}

static bool same_event(const struct event *a, const struct event *b)
{
	if (!model_fields_same(&event_field_list, a, b, FO_LIBPFM) || a->dtype != b->dtype
	    || a->umasks.count != b->umasks.count || a->modifiers.count != b->modifiers.count)
		return false;
	for (size_t i = 0; i < a->umasks.count; i++)
		if (!same_umask(&a->umasks.items[i], &b->umasks.items[i]))
			return false;
	for (size_t i = 0; i < a->modifiers.count; i++)
		if (!same_modifier(&a->modifiers.items[i], &b->modifiers.items[i]))
			return false;
	return true;
}

static bool same_table(const struct pmu *a, const struct pmu *b)
{
	if (a->source || b->source || !same_str(a->family, b->family) || a->kind != b->kind
	    || a->max_encoding != b->max_encoding || a->events.count != b->events.count || !a->events.count)
		return false;
	for (size_t i = 0; i < a->events.count; i++)
		if (!same_event(&a->events.items[i], &b->events.items[i]))
			return false;
	return true;
}

const struct pmu *twins_find(const struct model *m, const struct pmu *p)
{
	for (const struct pmu *q = m->pmus.items; q < p; q++)
		if (q->derived && same_table(q, p))
			return q;
	return NULL;
}

/* ---- copying derived rules -------------------------------------------- */

static void copy_ints(struct int_vec *to, const struct int_vec *from)
{
	to->count = 0;
	for (size_t i = 0; i < from->count; i++)
		*(int *)vec_push(to) = from->items[i];
}

#define COPY_VEC(to, from) \
	do { \
		(to)->count = 0; \
		for (size_t k_ = 0; k_ < (from)->count; k_++) \
			*vec_push(to) = (from)->items[k_]; \
	} while (0)

static void copy_umask_rules(struct umask *t, const struct umask *f)
{
	model_fields_copy(&umask_field_list, t, f, FO_DERIVED);
	copy_ints(&t->added, &f->added);
	COPY_VEC(&t->implied, &f->implied);
	COPY_VEC(&t->unlocks, &f->unlocks);
}

static void copy_modifier_rules(struct modifier *t, const struct modifier *f)
{
	model_fields_copy(&modifier_field_list, t, f, FO_DERIVED);
	COPY_VEC(&t->presence, &f->presence);
	COPY_VEC(&t->nonzero, &f->nonzero);
	COPY_VEC(&t->landings, &f->landings);
}

static void copy_event_rules(struct event *t, const struct event *f)
{
	model_fields_copy(&event_field_list, t, f, FO_DERIVED);
	copy_ints(&t->hidden, &f->hidden);
	copy_ints(&t->hidden_errors, &f->hidden_errors);
	copy_ints(&t->bare_added, &f->bare_added);
	COPY_VEC(&t->group_rules, &f->group_rules);
	t->pair_rule_misses = f->pair_rule_misses;
	t->config_misses = f->config_misses;
	copy_ints(&t->no_modifiers, &f->no_modifiers);
	copy_ints(&t->no_modifiers_errors, &f->no_modifiers_errors);
	t->pair_defaults.count = 0;
	for (size_t i = 0; i < f->pair_defaults.count; i++) {
		struct pair_defaults *pd = vec_push(&t->pair_defaults);
		pd->umask_a = f->pair_defaults.items[i].umask_a;
		pd->umask_b = f->pair_defaults.items[i].umask_b;
		copy_ints(&pd->added, &f->pair_defaults.items[i].added);
	}
	for (size_t i = 0; i < t->umasks.count; i++)
		copy_umask_rules(&t->umasks.items[i], &f->umasks.items[i]);
	for (size_t i = 0; i < t->modifiers.count; i++)
		copy_modifier_rules(&t->modifiers.items[i], &f->modifiers.items[i]);
}

void twins_copy_rules(struct pmu *to, const struct pmu *from)
{
	for (size_t i = 0; i < to->events.count; i++)
		copy_event_rules(&to->events.items[i], &from->events.items[i]);
	to->config_cleared = from->config_cleared;
}
