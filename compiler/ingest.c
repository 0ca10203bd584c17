/*
 * ingest.c - copies every PMU, event, unit mask and modifier that libpfm's
 * public API enumerates into the model.
 *
 * Only what the API states is read here; what it leaves out is derived
 * afterwards by derive.c.  Attributes are read for the perf_events layer
 * (PFM_OS_PERF_EVENT_EXT), so the perf modifiers (u, k, precise, period ...)
 * come with each event, as users of pfm_get_os_event_encoding see them.
 */
#include "compiler/ingest.h"

#include <dlfcn.h>
#include <limits.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum pmu_kind kind_of(pfm_pmu_type_t t)
{
	switch (t) {
	case PFM_PMU_TYPE_CORE: return PMU_CORE;
	case PFM_PMU_TYPE_UNCORE: return PMU_UNCORE;
	case PFM_PMU_TYPE_OS_GENERIC: return PMU_OS;
	default: return PMU_UNKNOWN;
	}
}

static int ingest_attr(struct event *ev, int event_index, int attr_index, char *err, size_t errlen)
{
	pfm_event_attr_info_t ai;
	memset(&ai, 0, sizeof(ai));
	ai.size = sizeof(ai);
	int r = pfm_get_event_attr_info(event_index, attr_index, PFM_OS_PERF_EVENT_EXT, &ai);
	if (r != PFM_SUCCESS) {
		snprintf(err, errlen, "libpfm: attribute %d of %s: %s", attr_index, ev->name, pfm_strerror(r));
		return -1;
	}
	if (ai.type == PFM_ATTR_UMASK) {
		struct umask *u = vec_push(&ev->umasks);
		u->name = xstrdup(ai.name);
		u->description = xstrdup(ai.desc);
		u->equiv = xstrdup(ai.equiv);
		u->code = ai.code;
		u->libpfm_index = attr_index;
		u->is_default = ai.is_dfl;
		u->is_precise = ai.is_precise;
		u->speculative = ai.is_speculative;
	} else if (ai.type == PFM_ATTR_MOD_BOOL || ai.type == PFM_ATTR_MOD_INTEGER) {
		struct modifier *m = vec_push(&ev->modifiers);
		m->name = xstrdup(ai.name);
		m->description = xstrdup(ai.desc);
		m->is_integer = ai.type == PFM_ATTR_MOD_INTEGER;
		m->from_perf = ai.ctrl == PFM_ATTR_CTRL_PERF_EVENT;
		m->libpfm_index = attr_index;
		m->default_value = ai.dfl_val64;
		m->requires = -1;
		m->shown_from = -1;
	}
	/* PFM_ATTR_RAW_UMASK is never listed by the API (it is internal). */
	return 0;
}

static int ingest_event(struct pmu *p, int idx, char *err, size_t errlen)
{
	pfm_event_info_t ei;
	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	int r = pfm_get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &ei);
	if (r != PFM_SUCCESS) {
		snprintf(err, errlen, "libpfm: event %d of %s: %s", idx, p->name, pfm_strerror(r));
		return -1;
	}
	struct event *ev = vec_push(&p->events);
	ev->bare_needs = -1;
	ev->name = xstrdup(ei.name);
	ev->description = xstrdup(ei.desc);
	ev->equiv = xstrdup(ei.equiv);
	ev->code = ei.code;
	ev->libpfm_index = idx;
	ev->is_precise = ei.is_precise;
	ev->supports_hw_sampling = ei.support_hw_smpl;
	ev->speculative = ei.is_speculative;
	ev->dtype = ei.dtype;
	for (int a = 0; a < ei.nattrs; a++)
		if (ingest_attr(ev, idx, a, err, errlen))
			return -1;
	return 0;
}

/*
 * pfm_get_version() answers 4.0 for every 4.x release, so the version comes
 * from the file name of the shared library installed beside the archive the
 * compiler links (libpfm.so.4.13.0; mk/build.mk passes its real path as
 * LIBPFM_SHARED), or the API's answer when the name has none.
 */
static char *libpfm_version(void)
{
#ifdef LIBPFM_SHARED
	const char *so = strstr(LIBPFM_SHARED, ".so.");
	if (so && strchr(so + 4, '.'))
		return xstrdup(so + 4);
#endif
	unsigned v = (unsigned)pfm_get_version();
	return xprintf("%u.%u", PFM_MAJ_VERSION(v), PFM_MIN_VERSION(v));
}

int ingest_libpfm(struct model *m, char *err, size_t errlen)
{
	pfm_pmu_t id;
	m->libpfm_version = libpfm_version();

	pfm_for_all_pmus(id) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(id, &pi) != PFM_SUCCESS)
			continue;	/* not compiled into this libpfm */

		struct pmu *p = vec_push(&m->pmus);
		p->name = xstrdup(pi.name);
		p->description = xstrdup(pi.desc);
		p->libpfm_id = id;
		p->kind = kind_of(pi.type);
		p->num_counters = pi.num_cntrs;
		p->num_fixed_counters = pi.num_fixed_cntrs;
		p->max_encoding = pi.max_encoding;
		p->perf_type = -1;
		p->uarch = -1;
		for (int e = pi.first_event; e != -1; e = pfm_get_event_next(e))
			if (ingest_event(p, e, err, errlen))
				return -1;
	}
	return 0;
}
