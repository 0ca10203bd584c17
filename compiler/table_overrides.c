/*
 * table_overrides.c - applies the 'overrides' section: corrections to libpfm's
 * tables, each with the source that justifies it.
 *
 *   overrides:
 *     - action: change            # add | change | retire | alias
 *       pmu: skx_unc_cha*         # a PMU name or glob
 *       event: UNC_C_TOR_INSERTS
 *       umask: IRQ                # optional: act on a unit mask
 *       description: ...          # add/change: new text
 *       code: 0x31                # add/change: new code
 *       default: true             # add/change of a unit mask
 *       alias: NEW_NAME           # alias: another name for the target
 *       why: Intel SDM vol. 3B table 19-2 (2024)
 *
 * An override naming something that does not exist (or, for add, something
 * that already exists) stops the build: a silent no-op would hide a typo or
 * a libpfm update that made the override stale.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sections.h"

static const char *const override_keys[] = {
	"action", "pmu", "event", "umask", "description", "code", "default", "alias", "why", NULL
};

struct override {
	yaml_node_t *node;
	char *action, *pmu, *event, *umask, *description, *alias, *why;
	bool has_code, has_default, is_default;
	uint64_t code;
};

static void override_free(struct override *o)
{
	free(o->action);
	free(o->pmu);
	free(o->event);
	free(o->umask);
	free(o->description);
	free(o->alias);
	free(o->why);
}

/* Keys an action may carry beyond action, pmu, event, umask and why. */
static int check_keys_for_action(struct ydoc *d, struct override *o)
{
	struct { const char *key; bool present; bool add, change, retire, alias; } rules[] = {
		{ "description", o->description != NULL, true, true, false, false },
		{ "code", o->has_code, true, true, false, false },
		{ "default", o->has_default, true, true, false, false },
		{ "alias", o->alias != NULL, false, false, false, true },
	};
	bool add = !strcmp(o->action, "add"), change = !strcmp(o->action, "change");
	bool retire = !strcmp(o->action, "retire"), alias = !strcmp(o->action, "alias");
	if (!add && !change && !retire && !alias)
		return ydoc_fail(d, ydoc_get(d, o->node, "action"),
				 "unknown action '%s' (expected add, change, retire or alias)", o->action);
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		bool allowed = (add && rules[i].add) || (change && rules[i].change)
			       || (retire && rules[i].retire) || (alias && rules[i].alias);
		if (rules[i].present && !allowed)
			return ydoc_fail(d, ydoc_get(d, o->node, rules[i].key),
					 "key '%s' does not apply to action '%s'", rules[i].key, o->action);
	}
	if (rules[3].present == false && alias)
		return ydoc_fail(d, o->node, "missing key 'alias' for action 'alias'");
	if (change && !o->description && !o->has_code && !o->has_default)
		return ydoc_fail(d, o->node, "action 'change' needs description, code or default");
	if (add && !o->has_code)
		return ydoc_fail(d, o->node, "missing key 'code' for action 'add'");
	if (o->has_default && !o->umask)
		return ydoc_fail(d, ydoc_get(d, o->node, "default"), "key 'default' applies to unit masks only");
	return 0;
}

static int read_override(struct ydoc *d, yaml_node_t *node, struct override *o)
{
	memset(o, 0, sizeof(*o));
	o->node = node;
	yaml_node_t *n;
	if (ydoc_expect_mapping(d, node, "an override", override_keys)
	    || ydoc_field_string(d, node, "action", true, &o->action)
	    || ydoc_field_string(d, node, "pmu", true, &o->pmu)
	    || ydoc_field_string(d, node, "event", true, &o->event)
	    || ydoc_field_string(d, node, "umask", false, &o->umask)
	    || ydoc_field_string(d, node, "description", false, &o->description)
	    || ydoc_field_string(d, node, "alias", false, &o->alias)
	    || ydoc_field_string(d, node, "why", true, &o->why))
		return -1;
	if ((n = ydoc_get(d, node, "code"))) {
		o->has_code = true;
		if (ydoc_u64(d, n, "code", &o->code))
			return -1;
	}
	if ((n = ydoc_get(d, node, "default"))) {
		o->has_default = true;
		if (ydoc_bool(d, n, "default", &o->is_default))
			return -1;
	}
	return check_keys_for_action(d, o);
}

static int apply_to_umask(struct ydoc *d, struct override *o, struct pmu *p, struct event *ev)
{
	struct umask *u = event_find_umask(ev, o->umask);
	yaml_node_t *at = ydoc_get(d, o->node, "umask");
	bool add = !strcmp(o->action, "add");
	if (add != !u)
		return ydoc_fail(d, at, add ? "unit mask '%s' already exists in %s::%s" : "unknown unit mask '%s' in %s::%s",
				 o->umask, p->name, ev->name);
	if (!strcmp(o->action, "alias")) {
		if (event_find_umask(ev, o->alias))
			return ydoc_fail(d, ydoc_get(d, o->node, "alias"), "unit mask '%s' already exists in %s::%s",
					 o->alias, p->name, ev->name);
		char *target = u->name;
		u = vec_push(&ev->umasks);
		u->name = xstrdup(o->alias);
		u->description = xprintf("Alias of %s", target);
		u->equiv = xstrdup(target);
		u->libpfm_index = -1;
	} else if (add) {
		u = vec_push(&ev->umasks);
		u->name = xstrdup(o->umask);
		u->description = xstrdup(o->description ? o->description : "");
		u->libpfm_index = -1;
	} else if (!strcmp(o->action, "retire")) {
		u->retired = true;
	}
	if (o->description && !add) {
		free(u->description);
		u->description = xstrdup(o->description);
	}
	if (o->has_code)
		u->code = o->code;
	if (o->has_default)
		u->is_default = o->is_default;
	free(u->why);
	u->why = xstrdup(o->why);
	return 0;
}

static int apply_to_event(struct ydoc *d, struct override *o, struct pmu *p)
{
	struct event *ev = pmu_find_event(p, o->event);
	yaml_node_t *at = ydoc_get(d, o->node, "event");
	bool add = !strcmp(o->action, "add") && !o->umask;
	if (add != !ev)
		return ydoc_fail(d, at, add ? "event '%s' already exists in %s" : "unknown event '%s' in %s", o->event, p->name);
	if (o->umask)
		return apply_to_umask(d, o, p, ev);
	if (!strcmp(o->action, "alias")) {
		if (pmu_find_event(p, o->alias))
			return ydoc_fail(d, ydoc_get(d, o->node, "alias"), "event '%s' already exists in %s", o->alias, p->name);
		((struct event_alias *)vec_push(&ev->aliases))->name = xstrdup(o->alias);
	} else if (add) {
		ev = vec_push(&p->events);
		ev->name = xstrdup(o->event);
		ev->description = xstrdup(o->description ? o->description : "");
		ev->libpfm_index = -1;
		ev->perf_type = -2;
		/* The modifiers belong to the PMU: take those of its first event.
		 * derive.c fills in their ranges as for the first event. */
		const struct event *first = &p->events.items[0];
		for (size_t i = 0; p->events.count > 1 && i < first->modifiers.count; i++) {
			struct modifier *m = vec_push(&ev->modifiers);
			m->name = xstrdup(first->modifiers.items[i].name);
			m->description = xstrdup(first->modifiers.items[i].description);
			m->is_integer = first->modifiers.items[i].is_integer;
			m->is_perf = first->modifiers.items[i].is_perf;
			m->libpfm_index = first->modifiers.items[i].libpfm_index;
			m->default_value = first->modifiers.items[i].default_value;
			m->requires = -1;
		}
	} else if (!strcmp(o->action, "retire")) {
		ev->retired = true;
	}
	if (o->description && !add) {
		free(ev->description);
		ev->description = xstrdup(o->description);
	}
	if (o->has_code)
		ev->code = o->code;
	free(ev->why);
	ev->why = xstrdup(o->why);
	return 0;
}

static int apply_one(struct ydoc *d, yaml_node_t *node, struct model *m)
{
	struct override o;
	struct pmu_list pmus = {0};
	int r = read_override(d, node, &o)
		|| section_match_pmus(d, ydoc_get(d, node, "pmu"), m, o.pmu, &pmus);
	for (size_t i = 0; !r && i < pmus.count; i++)
		r = apply_to_event(d, &o, pmus.items[i]);
	if (!r) {
		struct override_record *rec = vec_push(&m->overrides);
		rec->file = xstrdup(d->path);
		rec->line = (int)node->start_mark.line + 1;
		rec->action = xstrdup(o.action);
		rec->target = o.umask ? xprintf("%s::%s:%s", o.pmu, o.event, o.umask) : xprintf("%s::%s", o.pmu, o.event);
		rec->why = xstrdup(o.why);
	}
	free(pmus.items);
	override_free(&o);
	return r;
}

int overrides_apply(struct ydoc *d, yaml_node_t *list, struct model *m)
{
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++)
		if (apply_one(d, ydoc_node(d, *it), m))
			return -1;
	return 0;
}
