/*
 * perf_defaults.h - the privilege levels libpfm's perf_events layer
 * settles, and what its modifiers show in fstr: shared by the layer
 * (perf_layer.c) and the fstr form, whose perf digits hold what the layer
 * settles when no perf modifier is given (fstr_form.c).
 */
#ifndef PMUDB_PERF_DEFAULTS_H
#define PMUDB_PERF_DEFAULTS_H

#include <stdbool.h>
#include <string.h>

#include "runtime/encode/request.h"

/* The levels counted, from those the modifiers gave (PLM; without any,
 * the default user and kernel), for a PMU that can filter SUPPORTED: the
 * levels it cannot filter are never excluded. */
static inline unsigned perf_settled_plm(unsigned plm, bool given, unsigned supported)
{
	return (given ? plm : PLM_DEFAULT) | (~supported & PLM_ALL);
}

/* The same for guest (PLM3) and host (PLM0), which mg and mh give: host
 * without them. */
static inline unsigned perf_settled_vmx_plm(unsigned vmx_plm, bool given, unsigned supported)
{
	return (given ? vmx_plm : PLM0) | (~supported & PLM_ALL);
}

/* The value each kind of perf modifier shows, from the settled levels,
 * precise_ip and exclusive, but the period's and frequency's (which show
 * the sample period itself): a table filled at once, as the form's
 * digits read several kinds. */
static inline void perf_shows(unsigned plm, unsigned vmx_plm, unsigned precise, bool exclusive,
			      uint8_t shows[P_NONE + 1])
{
	memset(shows, 0, P_NONE + 1);
	shows[P_K] = (plm & PLM0) != 0;
	shows[P_U] = (plm & PLM3) != 0;
	shows[P_H] = (plm & PLMH) != 0;
	shows[P_PRECISE] = shows[P_HW_SMPL] = (uint8_t)precise;
	shows[P_MG] = (vmx_plm & PLM3) != 0;
	shows[P_MH] = (vmx_plm & PLM0) != 0;
	shows[P_EXCL] = exclusive;
}

/* What they show when no perf modifier is given, for a PMU that can
 * filter SUPPORTED. */
static inline void perf_default_shows(unsigned supported, uint8_t shows[P_NONE + 1])
{
	perf_shows(perf_settled_plm(0, false, supported), perf_settled_vmx_plm(0, false, supported), 0, false, shows);
}

#endif
