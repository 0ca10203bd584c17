/*
 * devices.c - what a vendor uncore PMU is on a machine (pmudb_pmu_uncore),
 * and the system PMUs this machine's devices have (pmudb_scope_add_devices).
 *
 * A system PMU (perf's sys/ lists: Arm CMN, i.MX DDR, HiSilicon CPA)
 * belongs to a device, not a CPU: perf takes its list where a kernel PMU
 * of its name has a sysfs `identifier` file that the list's Compat, an
 * extended regular expression, matches whole (tools/perf/util/pmu.c,
 * pmu_uncore_identifier_match).  The same is done here, with the C
 * library's regex, over the catalog's pmu table.  The catalog and
 * sysfs are both untrusted: names, patterns and identifier files are
 * bounded and checked where read.
 */
#include <dirent.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/limits.h"
#include "runtime/sysfs/sysfs.h"

/* The longest identifier file read; the kernel's are one short line. */
#define IDENTIFIER_MAX 256

static const char *text_at(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);
	return s ? (const char *)s : NULL;
}

int pmudb_pmu_uncore(pmudb_t *db, int pmu, struct pmudb_uncore_info *out, struct pmudb_error *err)
{
	struct pmudb_pmu_info info;
	if (!db || !out)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog or result", pmudb_strerror(PMUDB_ERR_INVAL));
	memset(out, 0, sizeof(*out));
	if (pmudb_pmu_info(db, pmu, &info))
		return set_error(err, PMUDB_ERR_NOTFOUND, "no PMU %d in this catalog", pmu);
	sqlite3_stmt *st;
	pthread_mutex_lock(&db->lock);	/* SQLite is used by one thread at a time */
	int r = PMUDB_ERR_NOTFOUND, rc;
	if (sqlite3_prepare_v2(catalog_sql(db),
			       "SELECT box_numbering, device_identifier FROM pmu WHERE name = ? AND box_numbering IS NOT NULL", -1, &st, NULL) != SQLITE_OK) {
		r = set_error(err, PMUDB_ERR_CATALOG, "%s: cannot read its uncore PMUs: %s", db->what,
			      catalog_sql_error(db));
		pthread_mutex_unlock(&db->lock);
		return r;
	}
	sqlite3_bind_text(st, 1, info.name, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *boxes = text_at(st, 0), *identifier = text_at(st, 1);
		if (!boxes || (strcmp(boxes, "discovery") && strcmp(boxes, "driver")))
			r = set_error(err, PMUDB_ERR_CATALOG, "%s: PMU %s: box numbering '%.40s' is neither discovery nor"
				      " driver", db->what, info.name, boxes ? boxes : "(null)");
		else if (identifier && (!*identifier || strlen(identifier) > MAX_DEVICE_IDENTIFIER))
			r = set_error(err, PMUDB_ERR_CATALOG, "%s: PMU %s: a device identifier empty or over %d bytes",
				      db->what, info.name, MAX_DEVICE_IDENTIFIER);
		else {
			out->discovery_boxes = !strcmp(boxes, "discovery");
			if (identifier)
				snprintf(out->device_identifier, sizeof(out->device_identifier), "%s", identifier);
			r = 0;
		}
	} else if (rc != SQLITE_DONE) {
		r = set_error(err, PMUDB_ERR_CATALOG, "%s: cannot read its uncore PMUs: %s", db->what,
			      catalog_sql_error(db));
	} else {
		set_error(err, PMUDB_ERR_NOTFOUND, "PMU %s is no uncore PMU of a vendor list", info.name);
	}
	sqlite3_finalize(st);
	pthread_mutex_unlock(&db->lock);
	return r;
}

/* Whether sysfs device DEVICE is an instance of kernel PMU KPMU, as perf
 * 6.12 matches them (tools/perf/util/pmu.c, perf_pmu__match): the
 * pattern (hisi_sccl*_ddrc*), or the name with a suffix of an optional
 * '_' and a number, decimal or (more than 2 digits) hex: arm_cmn_0,
 * imx8_ddr0, ali_drw_21000. */
static bool instance_of(const char *device, const char *kpmu)
{
	if (strpbrk(kpmu, "*?["))
		return !fnmatch(kpmu, device, 0);
	size_t n = strlen(kpmu);
	if (strncmp(device, kpmu, n))
		return false;
	const char *suffix = device + n;
	if (!*suffix)
		return true;
	suffix += *suffix == '_';
	size_t digits = strspn(suffix, "0123456789"), xdigits = strspn(suffix, "0123456789abcdefABCDEF");
	return xdigits && !suffix[xdigits] && (digits == xdigits || xdigits > 2);
}

/* DEVICE's identifier file into OUT, its line end cut; false when it has
 * none (most PMUs) or it is longer than a line. */
static bool read_identifier(const char *device, char *out, size_t n)
{
	char path[4096];
	if (snprintf(path, sizeof(path), "%s/%s/identifier", sysfs_devices_dir(), device) >= (int)sizeof(path))
		return false;
	int len = sysfs_read_small(path, out, n - 1);	/* a file of up to N - 2 bytes */
	if (len < 0)
		return false;	/* none, unreadable or too long */
	size_t got = (size_t)len;
	if (strlen(out) != got)
		return false;	/* a NUL inside */
	if (got && out[got - 1] == '\n')
		out[--got] = '\0';
	return got > 0 && !strchr(out, '\n');
}

/* Whether IDENTIFIER matches PATTERN whole; a pattern that does not
 * compile matches nothing. */
static bool identifier_matches(const char *pattern, const char *identifier)
{
	regex_t re;
	regmatch_t m[1];
	if (regcomp(&re, pattern, REG_EXTENDED))
		return false;
	bool whole = !regexec(&re, identifier, 1, m, 0) && m[0].rm_so == 0
		     && (size_t)m[0].rm_eo == strlen(identifier);
	regfree(&re);
	return whole;
}

/* One system PMU of the catalog. */
struct system_pmu {
	char name[64], kpmu[64], pattern[MAX_DEVICE_IDENTIFIER + 1];
};

/* The catalog's system PMUs, into a list the caller frees; their count,
 * or an error. */
static int read_system_pmus(struct pmudb *db, struct system_pmu **out, struct pmudb_error *err)
{
	sqlite3_stmt *st;
	*out = NULL;
	pthread_mutex_lock(&db->lock);
	int n = 0, rc;
	if (sqlite3_prepare_v2(catalog_sql(db),
			       "SELECT p.name, s.name, p.device_identifier FROM pmu p"
			       " JOIN pmu_sysfs s ON s.pmu_id = p.id AND s.position = 0"
			       " WHERE p.device_identifier IS NOT NULL ORDER BY p.id", -1, &st, NULL) != SQLITE_OK) {
		n = set_error(err, PMUDB_ERR_CATALOG, "%s: cannot read its system PMUs: %s", db->what,
			      catalog_sql_error(db));
		pthread_mutex_unlock(&db->lock);
		return n;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = text_at(st, 0), *kpmu = text_at(st, 1), *pattern = text_at(st, 2);
		if (!name || !kpmu || !pattern || strlen(name) >= 64 || strlen(kpmu) >= 64 || strchr(kpmu, '/')
		    || strlen(pattern) > MAX_DEVICE_IDENTIFIER || !*pattern) {
			n = set_error(err, PMUDB_ERR_CATALOG, "%s: a system PMU whose name, kernel PMU or device identifier"
				      " is missing or too long", db->what);
			break;
		}
		struct system_pmu *more = realloc(*out, (size_t)(n + 1) * sizeof(**out));
		if (!more) {
			n = set_error(err, PMUDB_ERR_NOMEM, "out of memory reading the system PMUs");
			break;
		}
		*out = more;
		snprintf(more[n].name, sizeof(more[n].name), "%s", name);
		snprintf(more[n].kpmu, sizeof(more[n].kpmu), "%s", kpmu);
		snprintf(more[n].pattern, sizeof(more[n].pattern), "%s", pattern);
		n++;
	}
	if (n >= 0 && rc != SQLITE_DONE)
		n = set_error(err, PMUDB_ERR_CATALOG, "%s: cannot read its system PMUs: %s", db->what,
			      catalog_sql_error(db));
	sqlite3_finalize(st);
	pthread_mutex_unlock(&db->lock);
	if (n < 0) {
		free(*out);
		*out = NULL;
	}
	return n;
}

int pmudb_scope_add_devices(pmudb_t *db, struct pmudb_scope *scope, struct pmudb_error *err)
{
	if (!db || !scope || scope->count < 0 || scope->count > PMUDB_SCOPE_MAX)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog or scope", pmudb_strerror(PMUDB_ERR_INVAL));
	struct system_pmu *sys;
	int n = read_system_pmus(db, &sys, err);
	if (n <= 0)
		return n;
	DIR *d = opendir(sysfs_devices_dir());
	int added = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		char identifier[IDENTIFIER_MAX];
		bool read = false;
		for (int i = 0; i < n; i++) {
			if (e->d_name[0] == '.' || !instance_of(e->d_name, sys[i].kpmu))
				continue;
			if (!read && !(read = read_identifier(e->d_name, identifier, sizeof(identifier))))
				break;	/* no identifier: no list of perf's is for it */
			if (!identifier_matches(sys[i].pattern, identifier))
				continue;
			int p = catalog_find_pmu(db, sys[i].name, err);
			if (p == PMUDB_ERR_CATALOG) {
				added = p;
				break;
			}
			bool have = p < 0;
			for (int k = 0; !have && k < scope->count; k++)
				have = scope->pmus[k] == p;
			if (!have && scope->count < PMUDB_SCOPE_MAX) {
				scope->pmus[scope->count++] = p;
				added++;
			}
		}
		if (added < 0)
			break;
	}
	if (d)
		closedir(d);
	free(sys);
	return added;
}
