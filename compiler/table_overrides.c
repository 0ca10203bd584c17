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
 *       code: 0x31                # add/change: new code, as libpfm's tables write
 *                                 # it (an Intel unit mask: its config bits 8-31
 *                                 # shifted down, so 0x10008 is umask 8 with c=1)
 *       select: 0xa4              # add/change of a unit mask: the event select it
 *                                 # uses instead of the event's
 *       hardwire: {c: 1}          # add/change of a unit mask: modifier values it
 *                                 # forces; another value given is refused
 *       config1: 0x7              # add/change of a unit mask (intel_x86, amd64):
 *                                 # the config1 value it states (a frontend or
 *                                 # offcore MSR value)
 *       default: true             # add/change of a unit mask
 *       alias: NEW_NAME           # alias: another name for the target
 *       libpfm_only: true         # only a PMU libpfm itself has (a newer
 *                                 # libpfm's table): left out, noted, where
 *                                 # it has none (4.13.0, or the vendor tree's)
 *       why: Intel SDM vol. 3B table 19-2 (2024)
 *
 * Overrides are applied after the derive pass (see tables.h): the rules
 * measured from libpfm's encoder are libpfm's, and an override changes the
 * table on top of them, so a changed code encodes as written.  An override
 * naming something that does not exist (or, for add, something that
 * already exists) stops the build: a silent no-op would hide a typo or a
 * libpfm update that made the override stale.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/limits.h"
#include "catalog/families.h"
#include "compiler/sections.h"

static const char *const override_keys[] = {
	"action", "pmu", "event", "umask", "description", "code", "select", "hardwire", "config1", "default", "alias",
	"why", "libpfm_only", NULL
};

struct override {
	yaml_node_t *node;
	char *action, *pmu, *event, *umask, *description, *alias, *why;
	bool has_code, has_default, is_default, has_select, has_config1;
	bool libpfm_only;	/* for a newer libpfm's own PMU: skipped where it has none */
	uint64_t code, select, config1;
	yaml_node_t *hardwire;	/* a mapping modifier -> value, or NULL */
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
		{ "select", o->has_select, true, true, false, false },
		{ "hardwire", o->hardwire != NULL, true, true, false, false },
		{ "config1", o->has_config1, true, true, false, false },
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
	if (change && !o->description && !o->has_code && !o->has_default && !o->has_select && !o->hardwire
	    && !o->has_config1)
		return ydoc_fail(d, o->node, "action 'change' needs description, code, select, hardwire, config1 or default");
	if (add && !o->has_code)
		return ydoc_fail(d, o->node, "missing key 'code' for action 'add'");
	const char *umask_only[] = { "default", "select", "hardwire", "config1" };
	for (size_t i = 0; i < 4; i++)
		if (!o->umask && ydoc_get(d, o->node, umask_only[i]))
			return ydoc_fail(d, ydoc_get(d, o->node, umask_only[i]), "key '%s' applies to unit masks only",
					 umask_only[i]);
	if (o->hardwire && o->hardwire->type != YAML_MAPPING_NODE)
		return ydoc_fail(d, o->hardwire, "wrong type: 'hardwire' must be a mapping of modifiers to values");
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
	if ((n = ydoc_get(d, node, "select"))) {
		o->has_select = true;
		if (ydoc_u64(d, n, "select", &o->select))
			return -1;
		if (o->select > 0xff)
			return ydoc_fail(d, n, "'select' is out of range: an event select is 0..0xff");
	}
	o->hardwire = ydoc_get(d, node, "hardwire");
	if ((n = ydoc_get(d, node, "libpfm_only")) && ydoc_bool(d, n, "libpfm_only", &o->libpfm_only))
		return -1;
	if ((n = ydoc_get(d, node, "config1"))) {
		o->has_config1 = true;
		if (ydoc_u64(d, n, "config1", &o->config1))
			return -1;
	}
	return check_keys_for_action(d, o);
}

/*
 * An Intel core unit mask's code carries config bits 8-31 (the count mask,
 * inv, edge), where a hard-wired modifier lands too: the encoder ORs the
 * two, so a value that differs from what the code already gives would
 * encode as neither (code 0x108001 with c: 2 gives c=18).  The tables'
 * hard-wired values restate their codes; this keeps them saying the same.
 */
static int check_against_code(struct ydoc *d, yaml_node_t *at, const struct pmu *p, const struct event *ev,
			      const struct umask *u, const struct modifier *mod, uint64_t value)
{
	if (strcmp(p->family, "intel_x86") || ev->umasks_in_config1)
		return 0;
	uint64_t bits = u->sets_event_select ? u->code & ~0xffULL : u->code << 8;
	for (size_t i = 0; i < mod->landings.count; i++) {
		const struct landing *l = &mod->landings.items[i];
		if (strcmp(l->field, "config") || !l->mask || !(bits & l->mask))
			continue;
		int shift = __builtin_ctzll(l->mask);
		uint64_t given = (bits & l->mask) >> shift;
		if (((value << shift) & l->mask) != (bits & l->mask))
			return ydoc_fail(d, at, "'%s' is hard-wired to %llu, but the unit mask's code 0x%llx gives it %llu:"
					 " the encoding would be neither", mod->name, (unsigned long long)value,
					 (unsigned long long)u->code, (unsigned long long)given);
	}
	return 0;
}

/* The values a unit mask forces: each replaces what it forced before. */
static int apply_hardwire(struct ydoc *d, struct override *o, const struct pmu *p, struct event *ev, struct umask *u)
{
	for (yaml_node_pair_t *pair = o->hardwire->data.mapping.pairs.start; pair < o->hardwire->data.mapping.pairs.top;
	     pair++) {
		yaml_node_t *k = ydoc_node(d, pair->key), *v = ydoc_node(d, pair->value);
		uint64_t value;
		const char *name = k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
		int m = event_modifier(ev, name);
		if (m < 0)
			return ydoc_fail(d, k, "%s has no modifier '%s' to hard-wire", ev->name, name);
		for (yaml_node_pair_t *before = o->hardwire->data.mapping.pairs.start; before < pair; before++) {
			yaml_node_t *bk = ydoc_node(d, before->key);
			if (bk->type == YAML_SCALAR_NODE && !strcmp((const char *)bk->data.scalar.value, name))
				return ydoc_fail(d, k, "duplicate key '%s' in 'hardwire'", name);
		}
		if (ydoc_u64(d, v, name, &value))
			return -1;
		/* what libpfm takes for it (derived): a value past it would be
		 * cut to its field's width in the encoding */
		const struct modifier *mod = &ev->modifiers.items[m];
		uint64_t hi = mod->is_integer ? mod->max : 1, lo = mod->is_integer ? mod->min : 0;
		if ((mod->probed || !mod->is_integer) && (value < lo || value > hi))
			return ydoc_fail(d, v, "'%s' is out of range: %llu is not within %llu..%llu", name,
					 (unsigned long long)value, (unsigned long long)lo, (unsigned long long)hi);
		if (check_against_code(d, v, p, ev, u, mod, value))
			return -1;
		struct implied_value *iv = NULL;
		for (size_t i = 0; i < u->implied.count && !iv; i++)
			if (u->implied.items[i].modifier == m)
				iv = &u->implied.items[i];
		if (!iv)
			iv = vec_push(&u->implied);
		iv->modifier = m;
		iv->value = value;
		iv->hardwired = true;
	}
	return 0;
}

/*
 * A unit mask's stated config1 makes the event's filter bits stated ones
 * (event.filters_given): the others' measured bits, which libpfm's core
 * encoders never apply, are cleared so that they state nothing.
 */
static int state_config1(struct ydoc *d, struct override *o, const struct pmu *p, struct event *ev, struct umask *u)
{
	if (strcmp(p->family, "intel_x86") && strcmp(p->family, "amd64"))
		return ydoc_fail(d, ydoc_get(d, o->node, "config1"), "'config1' is for intel_x86 and amd64 PMUs; %s is %s",
				 p->name, p->family);
	if (ev->umasks_in_config1)
		return ydoc_fail(d, ydoc_get(d, o->node, "config1"),
				 "%s puts unit-mask codes in config1: change the unit mask's 'code' instead", ev->name);
	for (size_t i = 0; !ev->filters_given && i < ev->umasks.count; i++)
		ev->umasks.items[i].filter_config1 = ev->umasks.items[i].filter_config2 = 0;
	ev->filters_given = true;
	u->filter_config1 = o->config1;
	return 0;
}

/* A name the tables give a new unit mask, or a new event or alias, must be
 * one a user can type and that means it: no separator of the event-string
 * grammar (a dot is allowed in an event alias, a vendor's dotted name), and
 * for a unit mask not a modifier's name, which it would shadow. */
static int check_new_name(struct ydoc *d, yaml_node_t *at, const char *name, const struct event *ev, bool umask)
{
	const char *bad = strpbrk(name, umask ? ":.=, \t" : ":=, \t");
	if (bad)
		return ydoc_fail(d, at, "'%s' cannot be typed: '%c' separates %s", name, *bad,
				 *bad == ':' || *bad == '.' ? "the parts of an event string" : "events or values");
	if (umask && event_modifier(ev, name) >= 0)
		return ydoc_fail(d, at, "'%s' is a modifier of %s: a unit mask of that name would shadow it", name, ev->name);
	return 0;
}

/* The runtime reads at most MAX_UMASKS unit masks an event. */
static int check_room(struct ydoc *d, yaml_node_t *at, const struct pmu *p, const struct event *ev)
{
	if (ev->umasks.count < MAX_UMASKS)
		return 0;
	return ydoc_fail(d, at, "%s::%s would have %zu unit masks; pmudb reads at most %d", p->name, ev->name,
			 ev->umasks.count + 1, MAX_UMASKS);
}

static int apply_to_umask(struct ydoc *d, struct override *o, struct pmu *p, struct event *ev)
{
	struct umask *u = event_find_umask(ev, o->umask);
	yaml_node_t *at = ydoc_get(d, o->node, "umask");
	bool add = !strcmp(o->action, "add");
	if (add != !u)
		return ydoc_fail(d, at, add ? "unit mask '%s' already exists in %s::%s" : "unknown unit mask '%s' in %s::%s",
				 o->umask, p->name, ev->name);
	if (add && (check_new_name(d, at, o->umask, ev, true) || check_room(d, at, p, ev)))
		return -1;
	if (!strcmp(o->action, "alias")) {
		yaml_node_t *alias_at = ydoc_get(d, o->node, "alias");
		if (event_find_umask(ev, o->alias))
			return ydoc_fail(d, alias_at, "unit mask '%s' already exists in %s::%s", o->alias, p->name, ev->name);
		if (check_new_name(d, alias_at, o->alias, ev, true) || check_room(d, alias_at, p, ev))
			return -1;
		char *target = u->name;
		u = vec_push(&ev->umasks);
		u->name = xstrdup(o->alias);
		u->description = xprintf("Alias of %s", target);
		u->equiv = xstrdup(target);
		u->libpfm_index = -1;
		u->group = -1;	/* it stands for its target */
	} else if (add) {
		/* nothing was learnt about it: it combines freely */
		u = vec_push(&ev->umasks);
		u->name = xstrdup(o->umask);
		u->description = xstrdup(o->description ? o->description : "");
		u->libpfm_index = -1;
		u->group = ev->group_count++;
	} else if (!strcmp(o->action, "retire")) {
		u->retired = true;
	}
	if (o->description && !add) {
		free(u->description);
		u->description = xstrdup(o->description);
	}
	if (u->equiv && (o->has_code || o->has_select)) {
		/* an alias given a code of its own is a unit mask of its own,
		 * combining freely as an added one */
		free(u->equiv);
		u->equiv = NULL;
		u->group = ev->group_count++;
	}
	if (o->has_code)
		u->code = u->sets_event_select ? (u->code & 0xff) | o->code << 8 : o->code;
	if (o->has_select) {
		u->code = o->select | (u->sets_event_select ? u->code >> 8 : u->code) << 8;
		u->sets_event_select = true;
	}
	if (o->hardwire && apply_hardwire(d, o, p, ev, u))
		return -1;
	if (o->has_config1 && state_config1(d, o, p, ev, u))
		return -1;
	if (o->has_default)
		u->is_default = o->is_default;
	free(u->why);
	u->why = xstrdup(o->why);
	return 0;
}

/*
 * A PMU whose encoder places the registers the build measured from libpfm
 * (NetBurst) reads no code: a code, event select or config1 given, or an
 * event or unit mask added, would encode as nothing the override says.
 */
static int check_measured_family(struct ydoc *d, const struct override *o, const struct pmu *p)
{
	const struct family *f = family_by_name(p->family ? p->family : "");
	if (!f || !f->measured_config)
		return 0;
	const char *key = o->has_code ? "code" : o->has_select ? "select" : o->has_config1 ? "config1" : NULL;
	if (!key && strcmp(o->action, "add"))
		return 0;
	return ydoc_fail(d, key ? ydoc_get(d, o->node, key) : ydoc_get(d, o->node, "action"),
			 "%s encodes with the registers measured from libpfm's encodings (family %s): an override can"
			 " retire, alias, describe or hard-wire there, not %s", p->name, p->family,
			 key ? "change a code" : "add");
}

/*
 * The widest code libpfm's own tables have in P's family, for events or
 * unit masks, written as an override writes it (an event-select unit
 * mask's code without its select), in whole bytes: a code past it lands
 * in bits the family's encoder gives to something else (an Intel unit
 * mask's bit 24 is intx's config bit 32), or past the register.
 */
static uint64_t widest_libpfm_code(const struct model *m, const struct pmu *p, const struct event *of, bool umasks)
{
	uint64_t seen = 0;
	for (size_t i = 0; i < m->pmus.count; i++) {
		const struct pmu *q = &m->pmus.items[i];
		if (q->source || !q->family || strcmp(q->family, p->family))
			continue;
		for (size_t e = 0; e < q->events.count; e++) {
			const struct event *ev = &q->events.items[e];
			if (!umasks && !ev->source)
				seen |= ev->code;
			/* an offcore event's unit masks are its MSR's bits */
			bool alike = umasks && of && ev->umasks_in_config1 == of->umasks_in_config1;
			for (size_t k = 0; alike && k < ev->umasks.count; k++) {
				const struct umask *u = &ev->umasks.items[k];
				if (!u->source)
					seen |= u->sets_event_select ? u->code >> 8 : u->code;
			}
		}
	}
	/* whole bytes up to the highest bit: a field may hold values that
	 * libpfm's tables happen not to use (an Intel event code's count mask
	 * past 0x1, a unit mask's past 0x1f) */
	int bytes = seen ? (71 - __builtin_clzll(seen)) / 8 : 1;
	return bytes >= 8 ? UINT64_MAX : (1ULL << (8 * bytes)) - 1;
}

/* EV: the event O names, or NULL when O adds it. */
static int check_code_width(struct ydoc *d, const struct override *o, const struct model *m, const struct pmu *p,
			    const struct event *ev)
{
	if (!o->has_code)
		return 0;
	uint64_t widest = widest_libpfm_code(m, p, ev, o->umask != NULL);
	if (!(o->code & ~widest))
		return 0;
	return ydoc_fail(d, ydoc_get(d, o->node, "code"), "'code' is out of range: libpfm's %s %s codes fit in 0..0x%llx",
			 p->family, !o->umask ? "event" : ev && ev->umasks_in_config1 ? "offcore unit-mask" : "unit-mask", (unsigned long long)widest);
}

static int apply_to_event(struct ydoc *d, struct override *o, const struct model *m, struct pmu *p)
{
	if (check_measured_family(d, o, p))
		return -1;
	struct event *ev = pmu_find_event(p, o->event);
	yaml_node_t *at = ydoc_get(d, o->node, "event");
	bool add = !strcmp(o->action, "add") && !o->umask;
	if (add != !ev)
		return ydoc_fail(d, at, add ? "event '%s' already exists in %s" : "unknown event '%s' in %s", o->event, p->name);
	if (check_code_width(d, o, m, p, ev))
		return -1;
	if (o->umask)
		return apply_to_umask(d, o, p, ev);
	if (!strcmp(o->action, "alias")) {
		yaml_node_t *alias_at = ydoc_get(d, o->node, "alias");
		if (pmu_find_event(p, o->alias))
			return ydoc_fail(d, alias_at, "event '%s' already exists in %s", o->alias, p->name);
		if (pmu_find_alias(p, o->alias))
			return ydoc_fail(d, alias_at, "'%s' is already an alias in %s", o->alias, p->name);
		if (check_new_name(d, alias_at, o->alias, ev, false))
			return -1;
		((struct event_alias *)vec_push(&ev->aliases))->name = xstrdup(o->alias);
	} else if (add) {
		if (check_new_name(d, at, o->event, NULL, false))
			return -1;
		ev = vec_push(&p->events);
		ev->bare_needs = -1;
		ev->name = xstrdup(o->event);
		ev->description = xstrdup(o->description ? o->description : "");
		ev->libpfm_index = -1;
		ev->perf_type = FIELD_PTYPE_NONE;
		/* The modifiers belong to the PMU: those of its first event,
		 * with the rules measured on it. */
		if (p->events.count > 1)
			event_copy_modifiers(ev, &p->events.items[0], NULL, 0);
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
		|| section_match_libpfm_pmus(d, ydoc_get(d, node, "pmu"), m, o.pmu, o.libpfm_only, &pmus);
	for (size_t i = 0; !r && i < pmus.count; i++)
		r = apply_to_event(d, &o, m, pmus.items[i]);
	if (!r && pmus.count) {
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
