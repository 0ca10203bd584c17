/*
 * perf_syntax.c - an encoding written as perf's event syntax, what
 * `perf stat -e` and `perf record -e` take (pmudb_perf_syntax).
 *
 * perf names a generic hardware event (type 0) and a generic cache event
 * (type 3) by its own symbols, not by a PMU: `cycles:u`,
 * `L1-dcache-load-misses`.  The numbers are the kernel's ABI
 * (enum perf_hw_id, perf_hw_cache_id, _op_id, _result_id in
 * <linux/perf_event.h>); the names are perf's (tools/perf/util/parse-events.c
 * event_symbols_hw, tools/perf/util/evsel.c evsel__hw_cache*, which also says
 * which cache operations perf accepts).  Every other event is
 * PMU/config=.../ with the PMU perf knows it by: the kernel PMU the
 * encoding names, `software` for type 1, and for raw (type 4) core events
 * `cpu` on x86 and, on Arm, the kernel's PMUv3 PMU (see arm_core_pmu).
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "runtime/perf/encoding_check.h"
#include "runtime/sysfs/sysfs.h"

#define TYPE_HARDWARE 0
#define TYPE_SOFTWARE 1
#define TYPE_HW_CACHE 3
#define TYPE_RAW 4

/* perf's first name for each generic hardware event, by config. */
static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branch-instructions",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
};

/* perf's cache names by id, the operations it accepts for each (bit per
 * op: read, write, prefetch), and the op names, singular and plural. */
static const struct { const char *name; unsigned ops; } cache_names[] = {
	{ "L1-dcache", 7 }, { "L1-icache", 5 }, { "LLC", 7 }, { "dTLB", 7 },
	{ "iTLB", 1 }, { "branch", 1 }, { "node", 7 },
};
static const char *const cache_op[][2] = { { "load", "loads" }, { "store", "stores" }, { "prefetch", "prefetches" } };

/* Appends to BUF (SIZE bytes) at *LEN; false once it no longer fits. */
static bool put(char *buf, size_t size, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static bool put(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	if (*len >= size)
		return false;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - *len) {
		*len = size;
		return false;
	}
	*len += (size_t)n;
	return true;
}

/* "L1-dcache-load-misses" for a type-3 config, or NULL where perf has no
 * name (an id, op or result it does not know, or an op it refuses). */
static const char *cache_name(uint64_t config, char *buf, size_t size)
{
	uint64_t id = config & 0xff, op = config >> 8 & 0xff, result = config >> 16 & 0xff;
	if (config >> 24 || id >= sizeof(cache_names) / sizeof(cache_names[0]) || op > 2 || result > 1
	    || !(cache_names[id].ops >> op & 1))
		return NULL;
	if (result)
		snprintf(buf, size, "%s-%s-misses", cache_names[id].name, cache_op[op][0]);
	else
		snprintf(buf, size, "%s-%s", cache_names[id].name, cache_op[op][1]);
	return buf;
}

/*
 * The kernel registers an Arm core PMU under a name of its own: on ACPI
 * machines (every Arm server) "armv8_pmuv3_0" (drivers/perf/arm_pmu_acpi.c
 * adds "_N" to the driver's base name), on device-tree machines the core's
 * ("armv8_cortex_a72").  This machine's name when it has such a PMU, else
 * the servers' one.
 */
static void arm_core_pmu(char *name, size_t size)
{
	snprintf(name, size, "armv8_pmuv3_0");
	DIR *d = opendir(sysfs_devices_dir());
	if (!d)
		return;
	struct dirent *de;
	char best[256] = "";
	while ((de = readdir(d)))
		if ((!strncmp(de->d_name, "armv8_", 6) || !strncmp(de->d_name, "armv9_", 6))
		    && (!best[0] || strcmp(de->d_name, best) < 0))
			snprintf(best, sizeof(best), "%s", de->d_name);
	closedir(d);
	if (best[0])
		snprintf(name, size, "%s", best);
}

/* The PMU perf knows a raw or kernel-PMU encoding by, or NULL. */
static const char *pmu_name(pmudb_t *db, const struct pmudb_encoding *e, char *buf, size_t size)
{
	if (e->sysfs_pmu[0])
		return e->sysfs_pmu;
	if (e->type == TYPE_SOFTWARE)
		return "software";
	if (e->type != TYPE_RAW)
		return NULL;
	int p = pmudb_find_pmu(db, e->pmu);
	struct pmudb_pmu_info info;
	if (p >= 0 && !pmudb_pmu_info(db, p, &info) && info.family && !strcmp(info.family, "arm_pmuv3")) {
		arm_core_pmu(buf, size);
		return buf;
	}
	return "cpu";
}

/*
 * An uncore encoding's words as the terms of its kernel PMU's format
 * (pmudb_perf_format: this machine's sysfs, else pmudb's table), what perf
 * and people write: "event=0x35,umask=0x21".  Per word, event and umask
 * first, then the other fields in the format's order, each taking only
 * bits no earlier field took; a word with a bit no field takes is written
 * whole (config=, config1=), and so is every word of a PMU whose format is
 * not known.  The terms read back (pmudb_perf_parse) to the same words.
 */
static bool put_words(pmudb_t *db, const struct pmudb_encoding *e, const char *pmu, char *buf, size_t size,
		      size_t *len)
{
	const uint64_t words[3] = { e->config, e->config1, e->config2 };
	static const char *const whole[3] = { "config", "config1", "config2" };
	struct pmudb_perf_format *fmt = malloc(sizeof(*fmt));
	struct pmudb_error err;
	int p = pmudb_find_pmu(db, e->pmu);
	struct pmudb_pmu_info info;
	bool uncore = p >= 0 && !pmudb_pmu_info(db, p, &info) && info.kind && !strcmp(info.kind, "uncore");
	bool known = fmt && uncore && e->sysfs_pmu[0] && !pmudb_perf_format(pmu, NULL, fmt, &err);
	bool ok = true, first = true;
	for (int w = 0; ok && w < 3; w++) {
		/* config1 and config2 only when set; config always, 0 as
		 * config=0x0, for perf takes no PMU syntax without a term */
		if (!words[w] && w)
			continue;
		/* the terms of this word, tried before any is written */
		struct { int term; uint64_t value; } take[PMUDB_FORMAT_MAX];
		int ntake = 0;
		uint64_t left = words[w], claimed = 0;
		for (int pass = 0; known && pass < 3; pass++)
			for (int t = 0; t < fmt->count; t++) {
				const struct pmudb_format_term *ft = &fmt->terms[t];
				bool mine = pass == 0 ? !strcmp(ft->name, "event")
					    : pass == 1 ? !strcmp(ft->name, "umask")
					    : strcmp(ft->name, "event") && strcmp(ft->name, "umask");
				if (!mine || ft->field != w || (ft->mask & claimed) || !(ft->mask & left))
					continue;
				claimed |= ft->mask;
				take[ntake].term = t;
				take[ntake++].value = pmudb_format_get(ft->mask, left);
				left &= ~ft->mask;
			}
		if (left || !ntake) {
			ok = put(buf, size, len, "%s%s=0x%llx", first ? "" : ",", whole[w], (unsigned long long)words[w]);
			first = false;
			continue;
		}
		for (int k = 0; ok && k < ntake; k++) {
			ok = put(buf, size, len, "%s%s=0x%llx", first ? "" : ",", fmt->terms[take[k].term].name,
				 (unsigned long long)take[k].value);
			first = false;
		}
	}
	free(fmt);
	return ok;
}

/* Whether perf would read E's guest and host bits back from modifiers:
 * not when both are excluded (perf's G and H each count one of them). */
static bool guest_host_expressible(const struct pmudb_encoding *e)
{
	return !(e->exclude_guest && e->exclude_host);
}

/* perf's modifiers: u or k when only one is counted, p per precise level,
 * e exclusive, D pinned; guest and host as perf reads them
 * (tools/perf/util/parse-events.c get_event_modifier): with no modifier,
 * or only u and p, perf excludes the guest; with k, e or D it counts it
 * unless H says the host only.  So G for the guest only, GH for both, and
 * H where k, e or D would otherwise let the guest in. */
static void modifiers(const struct pmudb_encoding *e, bool guest_host, char mods[16])
{
	size_t n = 0;
	if (e->exclude_user != e->exclude_kernel)
		mods[n++] = e->exclude_user ? 'k' : 'u';
	for (unsigned i = 0; i < e->precise_ip && i < 3; i++)
		mods[n++] = 'p';
	if (e->exclusive)
		mods[n++] = 'e';
	if (e->pinned)
		mods[n++] = 'D';
	mods[n] = '\0';
	if (guest_host && !e->exclude_guest)
		mods[n++] = 'G';
	if (guest_host && !e->exclude_host && (!e->exclude_guest || strspn(mods, "up") < strlen(mods)))
		mods[n++] = 'H';
	mods[n] = '\0';
}

/* Whether the PMU that made E filters guest and host (its events take
 * libpfm's mg and mh): an uncore PMU's encodings leave both bits clear,
 * which says nothing, and perf's default for them is as good. */
static bool filters_guest_host(pmudb_t *db, const struct pmudb_encoding *e)
{
	int p = pmudb_find_pmu(db, e->pmu);
	struct pmudb_pmu_info info;
	if (p < 0 || pmudb_pmu_info(db, p, &info))
		return true;
	for (int ev = 0; ev < info.event_count && ev < 8; ev++) {
		struct pmudb_event_info ei = {0};
		if (pmudb_event_info(db, p, ev, &ei) || !ei.modifier_count)
			continue;
		for (int m = 0; m < ei.modifier_count; m++) {
			struct pmudb_modifier_info mi = {0};
			if (!pmudb_modifier_info(db, p, ev, m, &mi) && !strcmp(mi.name, "mh"))
				return true;
		}
		return false;
	}
	return true;
}

/* ",name=NAME" (or the first term: no comma) as perf's lexer reads a name:
 * bare where it holds only letters, digits and _ . : -, else in single
 * quotes; nothing for a name perf could not read back (a '/', ',' or
 * quote in it). */
static bool put_name(char *buf, size_t size, size_t *len, const char *name, bool first)
{
	if (!name || !*name || strpbrk(name, "/,'\"\\") || strlen(name) > 200)
		return true;
	bool bare = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-") == strlen(name);
	return put(buf, size, len, bare ? "%sname=%s" : "%sname='%s'", first ? "" : ",", name);
}

static bool put_sampling(char *buf, size_t size, size_t *len, const struct pmudb_encoding *e, bool first)
{
	if (!e->sample_period)
		return true;
	return put(buf, size, len, "%s%s=%llu", first ? "" : ",", e->freq ? "freq" : "period",
		   (unsigned long long)e->sample_period);
}

/* cycles:u, cycles/period=1000/u, cycles/name=X/u */
static int generic(const char *name, const char *label, const struct pmudb_encoding *e, const char *mods, char *buf,
		   size_t size, size_t *len)
{
	bool ok = put(buf, size, len, "%s", name);
	if (e->sample_period || label)
		ok = ok && put(buf, size, len, "/") && put_sampling(buf, size, len, e, true)
		     && put_name(buf, size, len, label, !e->sample_period) && put(buf, size, len, "/");
	else if (*mods)
		ok = ok && put(buf, size, len, ":");
	return ok && put(buf, size, len, "%s", mods) ? 0 : -1;
}

int pmudb_perf_generic(const char *name, size_t len, int *type, uint64_t *config)
{
	if (!name || !type || !config)
		return PMUDB_ERR_INVAL;
	for (size_t i = 0; i < sizeof(hw_names) / sizeof(hw_names[0]); i++)
		if (strlen(hw_names[i]) == len && !strncmp(name, hw_names[i], len)) {
			*type = TYPE_HARDWARE;
			*config = i;
			return 0;
		}
	char buf[64];
	for (uint64_t id = 0; id < sizeof(cache_names) / sizeof(cache_names[0]); id++)
		for (uint64_t op = 0; op < 3; op++)
			for (uint64_t result = 0; result < 2; result++) {
				uint64_t c = id | op << 8 | result << 16;
				if (cache_name(c, buf, sizeof(buf)) && strlen(buf) == len && !strncmp(name, buf, len)) {
					*type = TYPE_HW_CACHE;
					*config = c;
					return 0;
				}
			}
	return PMUDB_ERR_NOTFOUND;
}

int pmudb_perf_syntax(pmudb_t *db, const struct pmudb_encoding *e, char *buf, size_t size, struct pmudb_error *err)
{
	return pmudb_perf_syntax_named(db, e, NULL, buf, size, err);
}

int pmudb_perf_syntax_named(pmudb_t *db, const struct pmudb_encoding *e, const char *label, char *buf, size_t size,
			    struct pmudb_error *err)
{
	if (!db || !e || !buf || !size)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog, encoding or buffer", pmudb_strerror(PMUDB_ERR_INVAL));
	if (!encoding_names_end(e))
		return set_error(err, PMUDB_ERR_INVAL, "%s: the encoding's PMU names do not end in their arrays",
				 pmudb_strerror(PMUDB_ERR_INVAL));
	size_t len = 0;
	char name[256];
	int r;
	buf[0] = '\0';
	bool guest_host = filters_guest_host(db, e);
	if (guest_host && !guest_host_expressible(e))
		return set_error(err, PMUDB_ERR_NOTSUPP, "%s: perf's modifiers cannot exclude both guest and host",
				 pmudb_strerror(PMUDB_ERR_NOTSUPP));
	char mods[16];
	modifiers(e, guest_host, mods);
	if (e->type == TYPE_HARDWARE && !e->sysfs_pmu[0]) {
		if (e->config >= sizeof(hw_names) / sizeof(hw_names[0]) || e->config1 || e->config2)
			return set_error(err, PMUDB_ERR_NOTSUPP, "%s: perf has no name for generic hardware event %llu",
					 pmudb_strerror(PMUDB_ERR_NOTSUPP), (unsigned long long)e->config);
		r = generic(hw_names[e->config], label, e, mods, buf, size, &len);
	} else if (e->type == TYPE_HW_CACHE && !e->sysfs_pmu[0]) {
		if (!cache_name(e->config, name, sizeof(name)) || e->config1 || e->config2)
			return set_error(err, PMUDB_ERR_NOTSUPP, "%s: perf has no name for generic cache event 0x%llx",
					 pmudb_strerror(PMUDB_ERR_NOTSUPP), (unsigned long long)e->config);
		r = generic(name, label, e, mods, buf, size, &len);
	} else {
		const char *pmu = pmu_name(db, e, name, sizeof(name));
		if (!pmu)
			return set_error(err, PMUDB_ERR_NOTSUPP, "%s: perf has no PMU name for perf_event_attr.type %d",
					 pmudb_strerror(PMUDB_ERR_NOTSUPP), e->type);
		bool ok = put(buf, size, &len, "%s/", pmu) && put_words(db, e, pmu, buf, size, &len);
		ok = ok && put_sampling(buf, size, &len, e, false) && put_name(buf, size, &len, label, false)
		     && put(buf, size, &len, "/");
		r = ok && put(buf, size, &len, "%s", mods) ? 0 : -1;
	}
	if (r)
		return set_error(err, PMUDB_ERR_TOOSMALL, "%s: perf's syntax takes more than %zu bytes",
				 pmudb_strerror(PMUDB_ERR_TOOSMALL), size);
	return 0;
}
