/*
 * twins.c - finds PMUs with one libpfm event table, and copies the rules
 * derived for one onto another (see twins.h).
 *
 * Identity is decided on everything ingested from libpfm's API that the
 * encoder reads or the catalog stores, not on names: a PMU's own name,
 * description and libpfm index differ between twins and do not count.
 */
#include "compiler/twins.h"

#include <stdlib.h>

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same_umask(const struct umask *a, const struct umask *b)
{
	return same_str(a->name, b->name) && same_str(a->description, b->description) && same_str(a->equiv, b->equiv)
	       && a->code == b->code && a->libpfm_index == b->libpfm_index && a->is_default == b->is_default
	       && a->is_precise == b->is_precise && a->speculative == b->speculative;
}

static bool same_modifier(const struct modifier *a, const struct modifier *b)
{
	return same_str(a->name, b->name) && same_str(a->description, b->description) && a->is_integer == b->is_integer
	       && a->is_perf == b->is_perf && a->libpfm_index == b->libpfm_index
	       && a->default_value == b->default_value;
}

static bool same_event(const struct event *a, const struct event *b)
{
	if (!same_str(a->name, b->name) || !same_str(a->description, b->description) || !same_str(a->equiv, b->equiv)
	    || a->code != b->code || a->is_precise != b->is_precise || a->supports_hw_sampling != b->supports_hw_sampling
	    || a->speculative != b->speculative || a->dtype != b->dtype || a->umasks.count != b->umasks.count
	    || a->modifiers.count != b->modifiers.count)
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
		if (same_table(q, p))
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
	t->group = f->group;
	t->single_error = f->single_error;
	t->repeat_error = f->repeat_error;
	t->sets_event_select = f->sets_event_select;
	t->filter_bits[0] = f->filter_bits[0];
	t->filter_bits[1] = f->filter_bits[1];
	t->filter_layout = f->filter_layout;
	t->code_is_filter = f->code_is_filter;
	t->takes_no_modifiers = f->takes_no_modifiers;
	t->config_bits = f->config_bits;
	copy_ints(&t->added, &f->added);
	COPY_VEC(&t->implied, &f->implied);
	COPY_VEC(&t->unlocks, &f->unlocks);
}

static void copy_modifier_rules(struct modifier *t, const struct modifier *f)
{
	t->probed = f->probed;
	t->min = f->min;
	t->max = f->max;
	t->range_error = f->range_error;
	COPY_VEC(&t->presence, &f->presence);
	COPY_VEC(&t->nonzero, &f->nonzero);
	t->has_shown = f->has_shown;
	t->shown = f->shown;
	t->follows_plm = f->follows_plm;
	t->requires = f->requires;
	t->refused_error = f->refused_error;
	t->inert_unless_implied = f->inert_unless_implied;
	t->shown_from = f->shown_from;
	COPY_VEC(&t->landings, &f->landings);
}

static void copy_event_rules(struct event *t, const struct event *f)
{
	t->perf_type = f->perf_type;
	t->bare_error = f->bare_error;
	t->bare_needs = f->bare_needs;
	t->last_umask_wins = f->last_umask_wins;
	t->raw_umask_max = f->raw_umask_max;
	t->raw_layout_bit0 = f->raw_layout_bit0;
	t->umasks_in_config1 = f->umasks_in_config1;
	copy_ints(&t->hidden, &f->hidden);
	copy_ints(&t->hidden_errors, &f->hidden_errors);
	t->filter_base[0] = f->filter_base[0];
	t->filter_base[1] = f->filter_base[1];
	t->filter_default = f->filter_default;
	copy_ints(&t->bare_added, &f->bare_added);
	t->group_count = f->group_count;
	COPY_VEC(&t->group_rules, &f->group_rules);
	t->pair_rule_misses = f->pair_rule_misses;
	t->defaults_keep_select = f->defaults_keep_select;
	t->config_measured = f->config_measured;
	t->config_base = f->config_base;
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
