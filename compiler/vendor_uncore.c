/*
 * vendor_uncore.c - the uncore PMUs of the vendors' lists (vendor_uncore.h).
 *
 * For each kernel PMU of a µarch that tables/uncore.yaml gives formats, one
 * catalog PMU, named in libpfm's style after the µarch's core PMU
 * (gnr_unc_cha, amd64_fam19h_zen4_l3), whose kernel PMU is the one perf
 * names for the entries' Unit (type -1 until sysfs has it).  Its entries
 * are grouped into events as the core lists' are (EVENT.UMASK: event EVENT,
 * unit mask UMASK; vendor_events.c), and each entry's terms (vendor_read.c
 * writes them as jevents.py does) are placed by the PMU's formats:
 *   - event, umask and any field no modifier stands for: into the code
 *     (config) and the filters (config1, config2), as the format says;
 *   - a field that is a modifier of the PMU (edge, inv, thresh, ch_mask,
 *     a filter): the unit mask's implied value, which lands where the
 *     modifier does; edge, inv and the thresholds are hard-wired (another
 *     value is refused, as for the core lists' flags), the others may be
 *     given otherwise (another port, another filter);
 *   - config=, config1=, config2=: as they are.
 * The modifiers are the PMU's formats but event and umask, each one field
 * wide, ranged by its width; then the perf modifiers of a libpfm uncore
 * PMU ('like').  An entry a format cannot hold (a term the kernel PMU has
 * no format for, a value wider than its field) is left out with a note:
 * perf refuses it too.  The catalog PMUs encode with family kernel_format
 * (runtime/encode/family_encoders.c).
 */
#include "compiler/vendor_uncore.h"

#include <assert.h>
#include <ctype.h>
#include <perfmon/pfmlib.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/kernel_formats.h"
#include "compiler/vendor_events.h"
#include "catalog/limits.h"
#include "pmudb.h"

/* The kernel source, read once for every entry of the tables. */
static struct kernel_source *kernel;

void vendor_uncore_spec_free(struct uncore_spec *s)
{
	free_strings(s->uarchs.items, s->uarchs.count);
	free_strings(s->attrs.items, s->attrs.count);
	free(s->pmu);
	free(s->file);
	free(s->array);
	free(s->like);
	free(s->wide_umask);
	free(s->boxes);
	free(s->name);
	free(s->sysfs);
	free(s->at);
}

char *vendor_uncore_pmu_of(const struct model *m, const char *unit)
{
	for (size_t i = 0; i < m->uncore_units.count; i++)
		if (!strcmp(m->uncore_units.items[i].unit, unit))
			return xstrdup(m->uncore_units.items[i].pmu);
	char *name = xprintf("uncore_%s", unit);
	for (char *p = name; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return name;
}

/* V's kernel PMU, found once: every uncore_pmus entry asks of every entry. */
static const char *kernel_pmu_of(const struct model *m, struct vendor_event *v)
{
	if (!v->kernel_pmu)
		v->kernel_pmu = vendor_uncore_pmu_of(m, v->unit);
	return v->kernel_pmu;
}

/* ---- the PMU ------------------------------------------------------------- */

/* The catalog name of kernel PMU KPMU on µarch U: after the µarch's core
 * PMU (a hybrid's, up to its core type: adl_glc is adl), or NULL. */
static char *pmu_name(const struct model *m, size_t uarch, const char *kpmu)
{
	const char *core = NULL;
	for (size_t i = 0; i < m->vendor_maps.count && !core; i++)
		if (m->vendor_maps.items[i].uarch == (int)uarch)
			core = m->vendor_maps.items[i].pmu;
	if (!core)
		return NULL;
	size_t len = m->uarchs.items[uarch].units.count ? strcspn(core, "_") : strlen(core);
	if (!strncmp(kpmu, "uncore_", 7))
		return xprintf("%.*s_unc_%s", (int)len, core, kpmu + 7);
	if (!strncmp(kpmu, "amd_", 4))
		return xprintf("%.*s_%s", (int)len, core, kpmu + 4);
	return xprintf("%.*s_%s", (int)len, core, kpmu);
}

static const char *const word_names[3] = { "config", "config1", "config2" };

/* A format is a modifier when it is not the event's own and is one field. */
static bool is_modifier_format(const struct kernel_format *f)
{
	return strcmp(f->name, "event") && strcmp(f->name, "umask") && f->nranges == 1;
}

/* The modifiers every event of the PMU has: its formats', then LIKE's perf
 * modifiers, on a template event. */
static void template_modifiers(struct event *tmpl, const struct kernel_formats *fs, const struct pmu *like)
{
	for (size_t i = 0; i < fs->count; i++) {
		const struct kernel_format *f = &fs->items[i];
		if (!is_modifier_format(f) || event_modifier(tmpl, f->name) >= 0)
			continue;
		struct modifier *mod = vec_push(&tmpl->modifiers);
		mod->name = xstrdup(f->name);
		mod->description = xprintf("kernel format %s (%s)", f->spec, f->at);
		mod->is_integer = f->width > 1;
		mod->libpfm_index = -1;
		mod->probed = true;
		mod->max = f->width >= 64 ? ~0ULL : (1ULL << f->width) - 1;
		mod->requires = -1;
		mod->shown_from = -1;
		struct landing *l = vec_push(&mod->landings);
		snprintf(l->field, sizeof(l->field), "%s", word_names[f->ranges[0].word]);
		l->mask = mod->max << f->ranges[0].lo;
	}
	const struct event *from = NULL;
	for (size_t i = 0; i < like->events.count && !from; i++)
		if (like->events.items[i].modifiers.count)
			from = &like->events.items[i];
	struct pmu_names keep = {0};
	for (size_t i = 0; from && i < from->modifiers.count; i++)
		if (from->modifiers.items[i].from_perf && event_modifier(tmpl, from->modifiers.items[i].name) < 0)
			*(char **)vec_push(&keep) = from->modifiers.items[i].name;
	if (keep.count)
		event_copy_modifiers(tmpl, from, keep.items, keep.count);
	free(keep.items);
}

static const struct kernel_format *format_named(const struct kernel_formats *fs, const char *name)
{
	for (size_t i = 0; i < fs->count; i++)
		if (!strcmp(fs->items[i].name, name))
			return &fs->items[i];
	return NULL;
}

/* A field whose vendor value is the entry's whole meaning: another value is
 * refused, as the core lists' CounterMask, Invert and EdgeDetect are. */
static bool hardwired_field(const char *name)
{
	return !strcmp(name, "edge") || !strcmp(name, "inv") || !strcmp(name, "thresh") || !strcmp(name, "threshold")
	       || !strcmp(name, "cmask");
}

/* What an entry encodes as: the words its fields make, and the modifier
 * values it implies. */
struct placed {
	uint64_t words[3];
	size_t nimplied;
	struct { int modifier; uint64_t value; bool hardwired; } implied[16];
};

/* Adds VALUE to modifier MOD's implied value (ORed, as perf ORs a term
 * given twice: PortMask, and ch_mask in the Filter); false when full. */
static bool imply(struct placed *out, int mod, uint64_t value, bool hardwired)
{
	for (size_t i = 0; i < out->nimplied; i++)
		if (out->implied[i].modifier == mod) {
			out->implied[i].value |= value;
			return true;
		}
	if (out->nimplied == sizeof(out->implied) / sizeof(out->implied[0]))
		return false;
	out->implied[out->nimplied].modifier = mod;
	out->implied[out->nimplied].value = value;
	out->implied[out->nimplied++].hardwired = hardwired;
	return true;
}

/* The bits of WORDS that format F covers, as F's value; cleared from WORDS. */
static uint64_t take_field(const struct kernel_format *f, uint64_t words[3])
{
	uint64_t value = 0;
	int at = 0;
	for (int i = 0; i < f->nranges; i++) {
		const struct kernel_range *r = &f->ranges[i];
		int bits = r->hi - r->lo + 1;
		uint64_t mask = bits == 64 ? ~0ULL : ((1ULL << bits) - 1) << r->lo;
		if (at < 64)
			value |= ((words[r->word] & mask) >> r->lo) << at;
		words[r->word] &= ~mask;
		at += bits;
	}
	return value;
}

/*
 * A UMask wider than the PMU's umask, in the layout WIDE the vendor writes
 * it (Sapphire Rapids' IIO: port and function masks above bit 8, where the
 * raw layout config:8-15,32-55 puts them on the IIO's ch_mask and fc_mask):
 * each of the PMU's fields takes its bits, a modifier's ORed into its
 * implied value; false when a bit lands in no field of the PMU.
 */
static bool place_wide_umask(const struct kernel_formats *fs, const struct kernel_format *wide, const struct event *ev,
			     uint64_t value, bool bare, struct placed *out)
{
	uint64_t scratch[3] = {0};
	if (!kernel_format_place(wide, value, scratch))
		return false;
	for (size_t i = 0; i < fs->count; i++) {
		const struct kernel_format *f = &fs->items[i];
		if (!strcmp(f->name, "event"))
			continue;
		uint64_t part = take_field(f, scratch);
		int mod = is_modifier_format(f) && !bare ? event_modifier(ev, f->name) : -1;
		if (!part)
			continue;
		if (mod >= 0) {
			if (!imply(out, mod, part, hardwired_field(f->name)))
				return false;
		} else if (!kernel_format_place(f, part, out->words)) {
			return false;
		}
	}
	return !scratch[0] && !scratch[1] && !scratch[2];
}

/* Places V's terms on EV (whose modifiers are the PMU's); false, with a
 * note, when a format cannot hold one. */
static bool place_entry(struct model *m, const struct kernel_formats *fs, const struct kernel_format *wide,
			const struct event *ev, const struct vendor_event *v, const char *kpmu, bool bare, struct placed *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < v->terms.count; i++) {
		const struct vendor_term *t = &v->terms.items[i];
		int word = !strcmp(t->name, "config") ? 0 : !strcmp(t->name, "config1") ? 1
			   : !strcmp(t->name, "config2") ? 2 : -1;
		if (word >= 0) {
			out->words[word] |= t->value;
			continue;
		}
		const struct kernel_format *f = format_named(fs, t->name);
		if (!f) {
			model_note(m, "%s:%d:%d: %s: the kernel's %s has no format '%s' (perf refuses it too): left out",
				   v->file, v->line, v->column, v->name, kpmu, t->name);
			return false;
		}
		bool fits = f->width >= 64 || !(t->value >> f->width);
		int mod = is_modifier_format(f) && !bare ? event_modifier(ev, f->name) : -1;
		bool placed = fits && mod >= 0 ? imply(out, mod, t->value, hardwired_field(f->name))
			      : fits ? kernel_format_place(f, t->value, out->words)
			      : wide && !strcmp(t->name, "umask") && place_wide_umask(fs, wide, ev, t->value, bare, out);
		if (!placed) {
			model_note(m, "%s:%d:%d: %s: %s=0x%llx is wider than the kernel's %s format %s: left out", v->file,
				   v->line, v->column, v->name, t->name, (unsigned long long)t->value, kpmu, f->spec);
			return false;
		}
	}
	return true;
}

/* The whole encoding of a placed entry: its words, and each implied value
 * where its modifier's format puts it (for the reconciliation). */
static void whole_encoding(const struct kernel_formats *fs, const struct event *ev, const struct placed *pl,
			   uint64_t out[3])
{
	memcpy(out, pl->words, sizeof(pl->words));
	for (size_t k = 0; k < pl->nimplied; k++) {
		const struct kernel_format *f = format_named(fs, ev->modifiers.items[pl->implied[k].modifier].name);
		assert(f);	/* the modifier was made from that format */
		kernel_format_place(f, pl->implied[k].value, out);
	}
}

static void copy_counters(uint64_t *counters, uint64_t *fixed, bool *free_running, const struct vendor_event *v)
{
	*counters = v->counters;
	*fixed = v->fixed_counters;
	*free_running = v->free_running;
}

/* The event of group G (indexes into ENTRIES), or none when no entry of
 * it can be placed. */
static void make_event(struct model *m, struct pmu *p, const struct event *tmpl, const struct kernel_formats *fs,
		       const struct kernel_format *wide, const char *kpmu, struct vendor_event **entries,
		       const struct vendor_group *g)
{
	struct event ev = {0};
	ev.name = xstrdup(g->name);
	ev.libpfm_index = -1;
	ev.perf_type = FIELD_PTYPE_NONE;
	ev.dtype = PFM_DTYPE_UINT64;
	ev.bare_needs = -1;
	event_copy_modifiers(&ev, tmpl, NULL, 0);
	const struct vendor_event *first = entries[g->bare >= 0 ? (size_t)g->bare : g->entries.items[0]];
	ev.source = xstrdup(first->file);
	struct placed pl;
	bool made = false;
	if (g->bare >= 0 && !g->entries.count) {
		/* the entry alone is the encoding; its fields are the code */
		const struct vendor_event *v = entries[g->bare];
		if (place_entry(m, fs, wide, &ev, v, kpmu, true, &pl)) {
			ev.code = pl.words[0];
			ev.filter_config1 = pl.words[1];
			ev.filter_config2 = pl.words[2];
			ev.description = xstrdup(v->description);
			copy_counters(&ev.counters, &ev.fixed_counters, &ev.free_running, v);
			whole_encoding(fs, &ev, &pl, entries[g->bare]->encoding);
			entries[g->bare]->taken = made = true;
		}
	} else {
		if (g->bare >= 0)
			model_note(m, "%s:%d:%d: %s is listed alone and with unit masks: the one alone is left out",
				   first->file, first->line, first->column, first->name);
		for (size_t i = 0; i < g->entries.count; i++) {
			struct vendor_event *v = entries[g->entries.items[i]];
			if (!place_entry(m, fs, wide, &ev, v, kpmu, false, &pl))
				continue;
			struct umask *um = vec_push(&ev.umasks);
			um->name = vendor_umask_name_after(v->name, g->depth);
			um->description = xstrdup(v->description);
			um->source = xstrdup(v->file);
			um->libpfm_index = -1;
			um->code = pl.words[0];
			um->filter_config1 = pl.words[1];
			um->filter_config2 = pl.words[2];
			copy_counters(&um->counters, &um->fixed_counters, &um->free_running, v);
			for (size_t k = 0; k < pl.nimplied; k++) {
				struct implied_value *iv = vec_push(&um->implied);
				iv->modifier = pl.implied[k].modifier;
				iv->value = pl.implied[k].value;
				iv->hardwired = pl.implied[k].hardwired;
			}
			bool same;
			if (vendor_umask_repeated(m, &ev, v, &same)) {
				if (same) {
					/* its name still encodes: as the first's */
					whole_encoding(fs, &ev, &pl, v->encoding);
					v->taken = true;
				}
				continue;
			}
			if (strchr(strchr(v->name, '.') + 1, '.')) {
				/* UNC_CHA_TOR_INSERTS.IA_MISS.DRD: typable whole too */
				struct event_alias *a = vec_push(&ev.aliases);
				a->name = xstrdup(v->name);
				a->attrs = xstrdup(um->name);
			}
			whole_encoding(fs, &ev, &pl, v->encoding);
			v->taken = made = true;
		}
		if (ev.umasks.count == 1 && g->bare < 0)
			ev.description = xstrdup(ev.umasks.items[0].description);
		else
			ev.description = xprintf("%.200s.* of the vendor's list: each unit mask says what it counts", g->name);
		ev.group_count = 1;
		/* each entry is a whole encoding: one unit mask at a time */
		struct group_rule *r = vec_push(&ev.group_rules);
		r->error = PFM_ERR_FEATCOMB;
		r->lifted_by = -1;
		ev.bare_error = PFM_ERR_UMASK;
	}
	if (made) {
		*(struct event *)vec_push(&p->events) = ev;
	} else {
		struct pmu scratch = {0};
		*(struct event *)vec_push(&scratch.events) = ev;
		model_free_pmu(&scratch);
	}
}

bool vendor_uncore_lists_core_of(const struct model *m, const struct cpuid_entry *e, size_t uarch)
{
	for (size_t i = 0; i < m->vendor_maps.count; i++)
		for (size_t k = 0; m->vendor_maps.items[i].uarch == (int)uarch && k < e->pmus.count; k++)
			if (!strcmp(e->pmus.items[k], m->vendor_maps.items[i].pmu))
				return true;
	return false;
}

/* The CPUs of µarch UARCH get PMU NAME in their scope: the mapfile's
 * entries for it, and the tables' entries that name its core PMU over
 * CPUs of the same rows (Zen 1 and Zen 2 share family 0x17: each entry
 * gets its own µarch's boxes). */
static void add_to_scope(struct model *m, size_t uarch, const char *name)
{
	for (size_t i = 0; i < m->cpuid.count; i++) {
		struct cpuid_entry *e = &m->cpuid.items[i];
		bool mine = e->from_vendor && e->uarch == (int)uarch;
		bool lists_core = !e->from_vendor && vendor_uncore_lists_core_of(m, e, uarch);
		for (size_t k = 0; !mine && lists_core && k < m->cpuid.count; k++) {
			const struct cpuid_entry *v = &m->cpuid.items[k];
			mine = v->from_vendor && v->uarch == (int)uarch && !strcmp(v->vendor, e->vendor)
			       && v->family == e->family && v->model_lo <= e->model_hi && e->model_lo <= v->model_hi
			       && v->stepping_lo <= e->stepping_hi && e->stepping_lo <= v->stepping_hi;
		}
		bool have = false;
		for (size_t k = 0; mine && k < e->pmus.count; k++)
			have |= !strcmp(e->pmus.items[k], name);
		if (!mine || have)
			continue;
		if (e->pmus.count >= PMUDB_SCOPE_MAX) {
			model_note(m, "%s:%d: cpuid: %s would be PMU %d of the entry, past the %d a scope holds: left out",
				   e->file, e->line, name, PMUDB_SCOPE_MAX + 1, PMUDB_SCOPE_MAX);
			continue;
		}
		*(char **)vec_push(&e->pmus) = xstrdup(name);
	}
}

static int make_pmu(struct model *m, const struct uncore_spec *s, size_t uarch, const struct kernel_formats *fs,
		    const struct kernel_format *wide, const struct pmu *like)
{
	struct vendor_uarch *u = &m->uarchs.items[uarch];
	/* the entries of this kernel PMU, Unit-less copies for the grouping */
	struct vendor_uarch view = { .name = u->name, .arch = u->arch };
	VEC(struct vendor_event *) entries = {0};
	const char *compat = NULL;	/* a system PMU's device pattern: the first entry's */
	for (size_t i = 0; i < u->uncore.count; i++) {
		const char *kpmu = kernel_pmu_of(m, &u->uncore.items[i]);
		const struct vendor_event *v = &u->uncore.items[i];
		if (!compat && !strcmp(kpmu, s->pmu) && !v->untypable)
			compat = v->compat;
		if (!strcmp(kpmu, s->pmu) && v->untypable)
			model_note(m, "%s:%d:%d: event name '%s' cannot be typed (letters, digits, '_', '-' and '.',"
				   " not at an end): left out", v->file, v->line, v->column, v->name);
		else if (!strcmp(kpmu, s->pmu) && (!v->compat) != (!compat))
			model_note(m, "%s:%d:%d: %s: %s Compat where the first entry of %s %s: left out", v->file,
				   v->line, v->column, v->name, v->compat ? "a" : "no", s->pmu,
				   compat ? "has one" : "has none");
		else if (!strcmp(kpmu, s->pmu) && v->compat && strcmp(v->compat, compat))
			model_note(m, "%s:%d:%d: %s: Compat '%s', where the first entry of %s has '%s' (another"
				   " device): left out", v->file, v->line, v->column, v->name, v->compat, s->pmu, compat);
		else if (!strcmp(kpmu, s->pmu)) {
			struct vendor_event *copy = vec_push(&view.events);
			*copy = u->uncore.items[i];
			copy->unit = NULL;
			*(struct vendor_event **)vec_push(&entries) = &u->uncore.items[i];
		}
	}
	char *name = !entries.count ? NULL : s->name ? xstrdup(s->name) : pmu_name(m, uarch, s->pmu);
	if (entries.count && !name)
		model_note(m, "%s: µarch %s has no core PMU in vendor_pmus (nor the entry a 'name'): its %s left out",
			   s->at, u->name, s->pmu);
	/* where libpfm has a PMU of the name, it is made all the same, for
	 * the entries' encodings, which the reconciliation compares with
	 * libpfm's box; then left out */
	bool libpfm_box = name && model_find_pmu(m, name);
	if (libpfm_box)
		model_note(m, "%s: %s is a PMU already (libpfm's): µarch %s's %s is not added beside it but reconciled"
			   " with it", s->at, name, u->name, s->pmu);
	if (!name) {
		free(view.events.items);
		free(entries.items);
		return 0;
	}
	struct pmu p = {0};
	p.name = name;
	p.description = xprintf("%s %s: uncore boxes of the vendor's list, as the kernel's %s formats encode them.  %s",
				u->name, s->pmu, s->file, s->boxes
				? "Its boxes are numbered as the hardware's discovery tables list them"
				  " (arch/x86/events/intel/uncore_discovery.c), not by their place on the die"
				: "Its boxes, where it has several, are numbered in the driver's order");
	p.libpfm_id = -1;
	p.kind = PMU_UNCORE;
	p.derived = true;
	p.family = xstrdup("kernel_format");
	p.harness_group = xstrdup("vendor_uncore");
	p.perf_type = -1;
	*(char **)vec_push(&p.sysfs_names) = xstrdup(s->sysfs ? s->sysfs : s->pmu);
	p.source = xprintf("pmu-events:%s/%s@%s", u->arch, u->name, s->pmu);
	p.like = xstrdup(like->name);
	p.uarch = (int)uarch;
	p.supported_plm = like->supported_plm;
	p.config_cleared = like->config_cleared;
	p.num_counters = like->num_counters;
	p.num_fixed_counters = like->num_fixed_counters;
	p.max_encoding = 3;
	p.box_numbering = xstrdup(s->boxes ? s->boxes : "driver");
	regex_t re;
	if (compat && strlen(compat) <= MAX_DEVICE_IDENTIFIER && !regcomp(&re, compat, REG_EXTENDED | REG_NOSUB)) {
		regfree(&re);
		p.device_identifier = xstrdup(compat);
	} else if (compat) {
		model_note(m, "%s: µarch %s's %s: Compat '%.300s' is no extended regular expression of up to %d bytes:"
			   " %s matches no device (its events are still reachable as %s::EVENT)", s->at, u->name, s->pmu,
			   compat, MAX_DEVICE_IDENTIFIER, p.name, p.name);
	}
	struct event tmpl = {0};
	template_modifiers(&tmpl, fs, like);
	struct vendor_groups gs = {0};
	vendor_group_entries(m, &view, NULL, &gs);
	for (size_t i = 0; i < gs.count; i++)
		make_event(m, &p, &tmpl, fs, wide, s->pmu, entries.items, &gs.items[i]);
	vendor_free_groups(&gs);
	struct pmu scratch = {0};
	*(struct event *)vec_push(&scratch.events) = tmpl;
	model_free_pmu(&scratch);
	for (size_t i = 0; libpfm_box && i < entries.count; i++) {
		entries.items[i]->on_libpfm_box = entries.items[i]->taken;
		entries.items[i]->taken = false;
	}
	free(view.events.items);
	free(entries.items);
	if (libpfm_box || !p.events.count) {
		if (!libpfm_box)
			model_note(m, "%s: no entry of µarch %s's %s could be encoded: %s left out", s->at, u->name,
				   s->pmu, p.name);
		model_free_pmu(&p);
		return 0;
	}
	add_to_scope(m, uarch, p.name);
	*(struct pmu *)vec_push(&m->pmus) = p;
	return 0;
}

int vendor_uncore_make(struct model *m, const struct uncore_spec *s, char **error)
{
	const struct pmu *like = model_find_pmu(m, s->like ? s->like : "skx_unc_ubo");
	if (!like || like->source || like->kind != PMU_UNCORE) {
		*error = xprintf("'like' must name an uncore PMU of libpfm %s, whose perf modifiers it takes: %s is not one",
				 m->libpfm_version, s->like ? s->like : "skx_unc_ubo (the default)");
		return -1;
	}
	if (!kernel)
		kernel = kernel_source_open(m->kernel_source);
	struct kernel_formats fs = {0}, wide = {0};
	int r = s->wide_umask ? kernel_format_of_symbol(kernel, s->file, s->wide_umask, &wide, error) : 0;
	if (!r && s->array)
		r = kernel_formats_of_array(kernel, s->file, s->array, &fs, error);
	for (size_t i = 0; !r && i < s->attrs.count; i++)
		r = kernel_format_of_symbol(kernel, s->file, s->attrs.items[i], &fs, error);
	/* each PMU made is pushed onto m->pmus, which may move: LIKE is
	 * found again by its place */
	size_t like_at = (size_t)(like - m->pmus.items);
	for (size_t i = 0; !r && i < s->uarchs.count; i++)
		for (size_t k = 0; !r && k < m->uarchs.count; k++)
			if (!strcasecmp(m->uarchs.items[k].name, s->uarchs.items[i]))
				r = make_pmu(m, s, k, &fs, wide.count ? &wide.items[0] : NULL, &m->pmus.items[like_at]);
	kernel_formats_free(&fs);
	kernel_formats_free(&wide);
	return r;
}

void vendor_uncore_finish(struct model *m)
{
	kernel_source_free(kernel);
	kernel = NULL;
	for (size_t i = 0; m->vendor_tree && i < m->uarchs.count; i++) {
		struct vendor_uarch *u = &m->uarchs.items[i];
		/* one note per kernel PMU of the µarch with entries left out */
		struct left { const char *pmu, *file; size_t n; };
		VEC(struct left) left = {0};
		for (size_t k = 0; k < u->uncore.count; k++) {
			if (u->uncore.items[k].taken || u->uncore.items[k].on_libpfm_box)
				continue;
			const char *kpmu = kernel_pmu_of(m, &u->uncore.items[k]);
			struct left *l = NULL;
			for (size_t j = 0; j < left.count && !l; j++)
				if (!strcmp(left.items[j].pmu, kpmu))
					l = &left.items[j];
			if (!l) {
				l = vec_push(&left);
				l->pmu = kpmu;
				l->file = u->uncore.items[k].file;
			}
			l->n++;
		}
		for (size_t j = 0; j < left.count; j++) {
			model_note(m, "vendor tree: µarch %s: %zu entries of %s are not encoded (%s)%s", u->name,
				   left.items[j].n, left.items[j].pmu, left.items[j].file,
				   m->kernel_source ? "" : ": no --kernel-source");
		}
		free(left.items);
	}
}
