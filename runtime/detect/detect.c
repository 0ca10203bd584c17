/*
 * detect.c - which CPU this is, and which PMUs the catalog's CPUID map
 * gives it.
 *
 * The map is data (tables/cpuid.yaml, compiled into the catalog), so a CPU
 * libpfm's C code does not know yet is one YAML entry away.  A CPU with no
 * entry gets an honest "no event table", never the nearest table silently.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* Family and model as the CPU manuals (and /proc/cpuinfo) compute them. */
static int cpu_from_cpuid(struct pmudb_cpu *cpu)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return -1;
	memcpy(cpu->vendor, &b, 4);
	memcpy(cpu->vendor + 4, &d, 4);
	memcpy(cpu->vendor + 8, &c, 4);
	cpu->vendor[12] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return -1;
	int family = (int)((a >> 8) & 0xf), model = (int)((a >> 4) & 0xf);
	if (family == 0xf)
		family += (int)((a >> 20) & 0xff);
	if (family == 0x6 || family >= 0xf)
		model += (int)((a >> 16) & 0xf) << 4;
	cpu->family = family;
	cpu->model = model;
	cpu->stepping = (int)(a & 0xf);
	return 0;
}
#else
static int cpu_from_cpuid(struct pmudb_cpu *cpu)
{
	(void)cpu;
	return -1;
}
#endif

/* An Arm CPU from its MIDR: implementer as vendor ("0x41"), architecture 8
 * as family, part number as model, revision as stepping (the variant is
 * left out, as perf's mapfile match leaves it). */
static void cpu_from_midr(uint64_t midr, struct pmudb_cpu *cpu)
{
	snprintf(cpu->vendor, sizeof(cpu->vendor), "0x%02x", (unsigned)((midr >> 24) & 0xff));
	cpu->family = 8;
	cpu->model = (int)((midr >> 4) & 0xfff);
	cpu->stepping = (int)(midr & 0xf);
}

/* Linux on arm64 exports the MIDR of each CPU. */
static int cpu_from_sysfs_midr(struct pmudb_cpu *cpu)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");
	unsigned long long midr;
	int ok = f && fscanf(f, "%llx", &midr) == 1;
	if (f)
		fclose(f);
	if (ok)
		cpu_from_midr(midr, cpu);
	return ok ? 0 : -1;
}

int pmudb_cpu_host(struct pmudb_cpu *cpu, struct pmudb_error *err)
{
	if (!cpu)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no CPU to fill", pmudb_strerror(PMUDB_ERR_INVAL));
	memset(cpu, 0, sizeof(*cpu));
	if (!cpu_from_cpuid(cpu) || !cpu_from_sysfs_midr(cpu))
		return 0;
	return pmudb_cpu_from_cpuinfo("/proc/cpuinfo", cpu, err);
}

/* "key<blanks>: value" -> value, when the line's key is KEY. */
static const char *cpuinfo_value(const char *line, const char *key)
{
	size_t n = strlen(key);
	if (strncmp(line, key, n))
		return NULL;
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	return *line == ':' ? line + 1 + strspn(line + 1, " \t") : NULL;
}

/* A number as the kernel prints it in cpuinfo: decimal, or 0x hex (never
 * octal: "model : 010" is ten). */
static int parse_number(const char *s, int *out)
{
	char *end = NULL;
	errno = 0;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	long v = strtol(s, &end, hex ? 16 : 10);
	if (end == s || errno || v < 0 || v > 0xffff || !isxdigit((unsigned char)*s))
		return -1;
	while (*end && isspace((unsigned char)*end))
		end++;
	if (*end)
		return -1;
	*out = (int)v;
	return 0;
}

enum { VENDOR = 1, FAMILY = 2, MODEL = 4, STEPPING = 8, ARM_IMPL = 16, ARM_ARCH = 32, ARM_PART = 64, ARM_REV = 128 };

/* One line of the first processor block; returns the field it held (0 for
 * none), -1 for a number that is not one. */
static int cpuinfo_line(const char *line, struct pmudb_cpu *cpu, int *arm_impl)
{
	static const struct { const char *key; int field; } numbers[] = {
		{ "cpu family", FAMILY }, { "model", MODEL }, { "stepping", STEPPING },
		{ "CPU implementer", ARM_IMPL }, { "CPU architecture", ARM_ARCH }, { "CPU part", ARM_PART },
		{ "CPU revision", ARM_REV },
	};
	const char *v;
	if ((v = cpuinfo_value(line, "vendor_id"))) {
		snprintf(cpu->vendor, sizeof(cpu->vendor), "%s", v);
		return VENDOR;
	}
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
		if (!(v = cpuinfo_value(line, numbers[i].key)))
			continue;
		/* Linux prints "unknown" for a CPU without a stepping */
		if (numbers[i].field == STEPPING && !strcmp(v, "unknown"))
			return 0;
		int n;
		if (parse_number(v, &n))
			return -1;
		switch (numbers[i].field) {
		case FAMILY: cpu->family = n; break;
		case MODEL: cpu->model = n; break;
		case STEPPING: cpu->stepping = n; break;
		case ARM_IMPL: *arm_impl = n; break;
		case ARM_ARCH: break;	/* AArch64 prints 8 */
		case ARM_PART: cpu->model = n; break;
		case ARM_REV: cpu->stepping = n; break;
		}
		return numbers[i].field;
	}
	return 0;
}

/* Lines read at most for the first processor block of a cpuinfo file. */
#define MAX_CPUINFO_LINES 10000

int pmudb_cpu_from_cpuinfo(const char *path, struct pmudb_cpu *cpu, struct pmudb_error *err)
{
	if (!path || !cpu)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no cpuinfo file or CPU", pmudb_strerror(PMUDB_ERR_INVAL));
	memset(cpu, 0, sizeof(*cpu));
	FILE *f = fopen(path, "r");
	if (!f)
		return set_error(err, PMUDB_ERR_INVAL, "%s: cannot read: %s", path, strerror(errno));
	char line[1024];
	int found = 0, lineno = 0, bad = 0, arm_impl = 0;
	/* the first processor block only: it ends at the first blank line.
	 * The file is untrusted: a NUL where a line starts (/dev/zero) is no
	 * text, and past MAX_CPUINFO_LINES (a real block has some 30) it is
	 * no cpuinfo; either way the read ends, in bounded time */
	while (!bad && fgets(line, sizeof(line), f)) {
		lineno++;
		if (!line[0] || lineno > MAX_CPUINFO_LINES) {
			fclose(f);
			return set_error(err, PMUDB_ERR_INVAL, "%s:%d: %s: not a cpuinfo file", path, lineno,
					 line[0] ? "no processor block ends within its first lines" : "a NUL byte");
		}
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] && found)
			break;
		int field = cpuinfo_line(line, cpu, &arm_impl);
		if (field < 0)
			bad = lineno;
		else
			found |= field;
	}
	fclose(f);
	if (bad)
		return set_error(err, PMUDB_ERR_INVAL, "%s:%d: not a number where cpuinfo has one", path, bad);
	if ((found & (ARM_IMPL | ARM_PART)) == (ARM_IMPL | ARM_PART) && !(found & VENDOR)) {
		uint64_t midr = (uint64_t)arm_impl << 24 | (uint64_t)cpu->model << 4 | (uint64_t)(cpu->stepping & 0xf);
		cpu_from_midr(midr, cpu);
		if (!(found & ARM_REV))
			cpu->stepping = -1;
		return 0;
	}
	if ((found & (VENDOR | FAMILY | MODEL)) != (VENDOR | FAMILY | MODEL))
		return set_error(err, PMUDB_ERR_INVAL,
				 "%s: no vendor_id, cpu family and model lines (nor an Arm CPU implementer and part): not a"
				 " cpuinfo file", path);
	if (!(found & STEPPING))
		cpu->stepping = -1;	/* any */
	return 0;
}

int pmudb_cpu_parse(const char *spec, struct pmudb_cpu *cpu, struct pmudb_error *err)
{
	if (!spec || !cpu)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no CPU to parse or fill", pmudb_strerror(PMUDB_ERR_INVAL));
	memset(cpu, 0, sizeof(*cpu));
	char copy[128];
	if (strlen(spec) >= sizeof(copy))
		return set_error(err, PMUDB_ERR_INVAL, "--cpu '%.40s...': too long", spec);
	strcpy(copy, spec);
	/* perf's form (its mapfile's and $PERF_CPUID's): VENDOR-FAMILY-MODEL
	 * [-STEPPING], the family decimal, model and stepping hex without 0x
	 * (GenuineIntel-6-AD) */
	bool perf_form = !strchr(copy, '/') && strchr(copy, '-');
	char *parts[5] = {0}, *s = copy;
	int n = 0;
	while (s && n < 5)
		parts[n++] = strsep(&s, perf_form ? "-" : "/");
	int *fields[] = { &cpu->family, &cpu->model, &cpu->stepping };
	bool ok = (n == 3 || n == 4) && !s && parts[0][0] && strlen(parts[0]) < sizeof(cpu->vendor);
	for (int i = 1; ok && i < n; i++) {
		if (perf_form) {
			char *end = parts[i];
			unsigned long v = 0;
			errno = 0;
			if (isxdigit((unsigned char)*parts[i]))
				v = strtoul(parts[i], &end, i == 1 ? 10 : 16);
			ok = end != parts[i] && !*end && !errno && v <= INT_MAX;
			*fields[i - 1] = (int)v;
		} else {
			ok = !parse_number(parts[i], fields[i - 1]);
		}
	}
	if (!ok)
		return set_error(err, PMUDB_ERR_INVAL,
				 "--cpu '%s': expected VENDOR/FAMILY/MODEL[/STEPPING] (AuthenticAMD/0x19/0x61) or perf's "
				 "VENDOR-FAMILY-MODEL[-STEPPING] (GenuineIntel-6-AD)", spec);
	snprintf(cpu->vendor, sizeof(cpu->vendor), "%s", parts[0]);
	if (n == 3)
		cpu->stepping = -1;	/* any */
	return 0;
}

/* Column COL as text, "" when NULL (a NOT NULL column of ours, in a file
 * that need not be ours). */
static const char *text_at(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);
	return s ? (const char *)s : "";
}

/* The map's vendors ("AuthenticAMD, GenuineIntel, 0x41") into OUT when
 * none is VENDOR (a misspelt vendor, for the error), else "". */
static void other_vendors(struct pmudb *db, const char *vendor, char *out, size_t outlen)
{
	sqlite3_stmt *st;
	out[0] = '\0';
	if (sqlite3_prepare_v2(catalog_sql(db),
			       "SELECT (SELECT count(*) FROM cpuid_map WHERE vendor = ?1 COLLATE NOCASE),"
			       " (SELECT group_concat(vendor, ', ') FROM (SELECT DISTINCT vendor FROM cpuid_map ORDER BY 1))",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, vendor, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 0)
		snprintf(out, outlen, "%s", text_at(st, 1));
	sqlite3_finalize(st);
}

/* The entries of CPU's vendor and family nearest its model, for the error. */
static void nearest_entries(struct pmudb *db, const struct pmudb_cpu *cpu, char *out, size_t outlen)
{
	sqlite3_stmt *st;
	out[0] = '\0';
	if (sqlite3_prepare_v2(catalog_sql(db),
			       "SELECT m.model_lo, m.model_hi, (SELECT group_concat(pmu_name, ',') FROM"
			       " (SELECT pmu_name FROM cpuid_map_pmu WHERE map_id = m.id ORDER BY position LIMIT 1)) AS first"
			       " FROM cpuid_map m WHERE m.vendor = ?1 COLLATE NOCASE AND m.family = ?2"
			       /* entries that differ by stepping only are named once */
			       " GROUP BY m.model_lo, m.model_hi, first"
			       " ORDER BY min(abs(m.model_lo - ?3), abs(m.model_hi - ?3)), min(m.id) LIMIT 3",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, cpu->vendor, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, cpu->family);
	sqlite3_bind_int(st, 3, cpu->model);
	while (sqlite3_step(st) == SQLITE_ROW) {
		size_t len = strlen(out);
		int lo = sqlite3_column_int(st, 0), hi = sqlite3_column_int(st, 1);
		if (lo == hi)
			snprintf(out + len, outlen - len, "%s0x%x (%s)", len ? ", " : "", (unsigned)lo, text_at(st, 2));
		else
			snprintf(out + len, outlen - len, "%s0x%x-0x%x (%s)", len ? ", " : "", (unsigned)lo, (unsigned)hi,
				 text_at(st, 2));
	}
	sqlite3_finalize(st);
}

/*
 * The catalog's core PMUs no map entry names, for the error when the map
 * has nothing for a CPU's family: the map only says which CPU has which
 * table, so a table may well be there for a CPU it does not know (libpfm's
 * architected ix86arch is on every Intel CPU).
 */
static void unmapped_core_pmus(struct pmudb *db, char *out, size_t outlen)
{
	sqlite3_stmt *st;
	out[0] = '\0';
	if (sqlite3_prepare_v2(catalog_sql(db),
			       "SELECT name FROM pmu WHERE kind = 'core' AND name NOT IN (SELECT pmu_name FROM cpuid_map_pmu)"
			       " ORDER BY id LIMIT 8", -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		size_t len = strlen(out);
		snprintf(out + len, outlen - len, "%s%s", len ? ", " : "", text_at(st, 0));
	}
	sqlite3_finalize(st);
}

/* The CPUID map cannot be read: SQLite's words for why. */
static int map_unreadable(struct pmudb *db, struct pmudb_error *err)
{
	return set_error(err, PMUDB_ERR_CATALOG, "%s: cannot read the CPUID map: %s", db->what, catalog_sql_error(db));
}

/*
 * Whether the map holds the entries the build wrote (meta's
 * cpuid_entries), each with its PMUs: SQLite reads past some damaged
 * pages as rows that are not there, and a map short of entries would
 * answer "no table for this CPU" where the catalog is damaged.  Asked
 * where no entry matched (or the whole map is read), not on every match:
 * the counts cost a short process 150 us.  READ: the entries a read
 * found, or -1 to count them here.  Called with the lock.
 */
static int map_complete(struct pmudb *db, int read, struct pmudb_error *err)
{
	sqlite3_stmt *st;
	int r = 0;
	if (sqlite3_prepare_v2(catalog_sql(db),
			       "SELECT (SELECT count(*) FROM cpuid_map), (SELECT count(DISTINCT map_id) FROM cpuid_map_pmu),"
			       " (SELECT value FROM meta WHERE key = 'cpuid_entries')", -1, &st, NULL) != SQLITE_OK)
		return map_unreadable(db, err);
	if (sqlite3_step(st) != SQLITE_ROW) {
		r = map_unreadable(db, err);
	} else if (sqlite3_column_type(st, 2) == SQLITE_NULL) {
		/* every build writes it */
		r = set_error(err, PMUDB_ERR_CATALOG, "%s: the CPUID map is damaged: meta has no cpuid_entries", db->what);
	} else {
		long long want = sqlite3_column_int64(st, 2), rows = sqlite3_column_int64(st, 0),
			  with_pmus = sqlite3_column_int64(st, 1);
		char also[32] = "";
		if (read >= 0 && read != rows)
			snprintf(also, sizeof(also), ", %d read", read);
		if (rows != want || with_pmus != want || (read >= 0 && read != want))
			r = set_error(err, PMUDB_ERR_CATALOG, "%s: the CPUID map is damaged: the build wrote %lld entries,"
				      " %lld are there (%lld with PMUs)%s", db->what, want, rows, with_pmus, also);
	}
	sqlite3_finalize(st);
	return r;
}

/* The PMU names of the first map entry CPU matches, into NAMES (up to
 * PMUDB_SCOPE_MAX); their count, or an error. */
static int matching_entry(struct pmudb *db, const struct pmudb_cpu *cpu, char names[][64],
			  struct pmudb_cpu_match *match, struct pmudb_error *err)
{
	sqlite3_stmt *st;
	int n = 0;
	if (sqlite3_prepare_v2(catalog_sql(db),
			       "SELECT m.id, m.why, m.source, p.pmu_name FROM cpuid_map m JOIN cpuid_map_pmu p ON p.map_id = m.id"
			       " WHERE m.vendor = ?1 COLLATE NOCASE AND m.family = ?2 AND ?3 BETWEEN m.model_lo AND m.model_hi"
			       " AND (?4 < 0 OR ?4 BETWEEN m.stepping_lo AND m.stepping_hi)"
			       " AND m.id = (SELECT min(id) FROM cpuid_map x WHERE x.vendor = ?1 COLLATE NOCASE"
			       "   AND x.family = ?2 AND ?3 BETWEEN x.model_lo AND x.model_hi"
			       "   AND (?4 < 0 OR ?4 BETWEEN x.stepping_lo AND x.stepping_hi))"
			       " ORDER BY p.position", -1, &st, NULL) != SQLITE_OK)
		return map_unreadable(db, err);
	sqlite3_bind_text(st, 1, cpu->vendor, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, cpu->family);
	sqlite3_bind_int(st, 3, cpu->model);
	sqlite3_bind_int(st, 4, cpu->stepping);
	int r = 0, rc;
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (match && n == 0) {
			snprintf(match->why, sizeof(match->why), "%s", text_at(st, 1));
			snprintf(match->source, sizeof(match->source), "%s", text_at(st, 2));
		}
		const char *name = text_at(st, 3);
		if (!*name || strlen(name) >= 64)
			r = set_error(err, PMUDB_ERR_CATALOG, "%s: the CPUID map has an entry with a PMU name that is"
				      " empty or too long", db->what);
		else if (n == PMUDB_SCOPE_MAX)
			r = set_error(err, PMUDB_ERR_CATALOG, "%s: the CPUID map has an entry of more than %d PMUs, more"
				      " than a scope holds", db->what, PMUDB_SCOPE_MAX);
		else
			strcpy(names[n++], name);
	}
	/* a damaged map is not one without an entry for the CPU */
	if (!r && rc != SQLITE_DONE)
		r = map_unreadable(db, err);
	sqlite3_finalize(st);
	return r ? r : n;
}

int pmudb_scope_cpu(pmudb_t *db, const struct pmudb_cpu *cpu, struct pmudb_scope *scope,
		    struct pmudb_cpu_match *match, struct pmudb_error *err)
{
	if (!db || !cpu || !scope)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog, CPU or scope", pmudb_strerror(PMUDB_ERR_INVAL));
	/* a CPU the caller filled by hand: its vendor is read up to its NUL */
	if (!memchr(cpu->vendor, '\0', sizeof(cpu->vendor)))
		return set_error(err, PMUDB_ERR_INVAL, "%s: the CPU's vendor does not end within its %zu bytes",
				 pmudb_strerror(PMUDB_ERR_INVAL), sizeof(cpu->vendor));
	char names[PMUDB_SCOPE_MAX][64];
	scope->count = 0;
	pthread_mutex_lock(&db->lock);	/* SQLite is used by one thread at a time */
	int n = matching_entry(db, cpu, names, match, err);
	if (n == 0)
		n = map_complete(db, -1, err);
	char nearest[400] = "", unmapped[300] = "", vendors[200] = "";
	if (n == 0)
		other_vendors(db, cpu->vendor, vendors, sizeof(vendors));
	if (n == 0)
		nearest_entries(db, cpu, nearest, sizeof(nearest));
	if (n == 0 && !nearest[0])
		unmapped_core_pmus(db, unmapped, sizeof(unmapped));
	pthread_mutex_unlock(&db->lock);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		int p = catalog_find_pmu(db, names[i], err);
		if (p == PMUDB_ERR_CATALOG)
			return p;
		if (p < 0)
			return set_error(err, PMUDB_ERR_CATALOG, "%s: the CPUID map names PMU %s, which is not in it",
					 db->what, names[i]);
		scope->pmus[scope->count++] = p;
	}
	if (n > 0)
		return 0;
	char stepping[32] = "";
	if (cpu->stepping >= 0)
		snprintf(stepping, sizeof(stepping), "/%d", cpu->stepping);
	if (vendors[0])
		return set_error(err, PMUDB_ERR_NOCPU, "no event table for %s %d/0x%X%s in this catalog's CPUID map: '%s' is"
				 " none of its vendors, which are %s", cpu->vendor, cpu->family, (unsigned)cpu->model, stepping,
				 cpu->vendor, vendors);
	if (nearest[0])
		return set_error(err, PMUDB_ERR_NOCPU, "no event table for %s %d/0x%X%s in this catalog's CPUID map;"
				 " nearest entries of that family: %s", cpu->vendor, cpu->family, (unsigned)cpu->model,
				 stepping, nearest);
	return set_error(err, PMUDB_ERR_NOCPU, "no event table for %s %d/0x%X%s in this catalog's CPUID map, which has"
			 " no entry for that family; %s%s", cpu->vendor, cpu->family, (unsigned)cpu->model, stepping,
			 unmapped[0] ? "core PMUs no entry names (--pmu takes one): " : "it names every core PMU of the catalog",
			 unmapped);
}

/* ---- the whole map, for exporting it (pmudb_cpuid_map) ------------------ */

/* Reads every entry into a list first: the callback may use the handle,
 * whose lock is held while SQLite is read. */
static int read_entries(struct pmudb *db, struct pmudb_cpuid_entry **out, int *count, struct pmudb_error *err)
{
	sqlite3_stmt *st;
	*out = NULL;
	*count = 0;
	if (sqlite3_prepare_v2(catalog_sql(db),
			       "SELECT m.id, m.vendor, m.family, m.model_lo, m.model_hi, m.stepping_lo, m.stepping_hi,"
			       " m.why, p.pmu_name FROM cpuid_map m JOIN cpuid_map_pmu p ON p.map_id = m.id"
			       " ORDER BY m.id, p.position", -1, &st, NULL) != SQLITE_OK)
		return map_unreadable(db, err);
	int r = 0, cap = 0, rc;
	int64_t last = -1;
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_int64(st, 0) != last) {
			if (*count == cap) {
				cap = cap ? cap * 2 : 64;
				struct pmudb_cpuid_entry *more = realloc(*out, (size_t)cap * sizeof(**out));
				if (!more) {
					r = set_error(err, PMUDB_ERR_NOMEM, "%s", pmudb_strerror(PMUDB_ERR_NOMEM));
					break;
				}
				*out = more;
			}
			struct pmudb_cpuid_entry *e = &(*out)[(*count)++];
			memset(e, 0, sizeof(*e));
			last = sqlite3_column_int64(st, 0);
			snprintf(e->vendor, sizeof(e->vendor), "%s", text_at(st, 1));
			e->family = sqlite3_column_int(st, 2);
			e->model_lo = sqlite3_column_int(st, 3);
			e->model_hi = sqlite3_column_int(st, 4);
			e->stepping_lo = sqlite3_column_int(st, 5);
			e->stepping_hi = sqlite3_column_int(st, 6);
			snprintf(e->why, sizeof(e->why), "%s", text_at(st, 7));
		}
		struct pmudb_cpuid_entry *e = &(*out)[*count - 1];
		const char *name = text_at(st, 8);
		if (!*name || strlen(name) >= sizeof(e->pmus[0]))
			r = set_error(err, PMUDB_ERR_CATALOG, "%s: the CPUID map has a PMU name that is empty or too long",
				      db->what);
		else if (e->npmus < PMUDB_ENTRY_PMUS)
			snprintf(e->pmus[e->npmus++], sizeof(e->pmus[0]), "%s", name);
	}
	if (!r && rc != SQLITE_DONE)
		r = map_unreadable(db, err);
	sqlite3_finalize(st);
	return r ? r : map_complete(db, *count, err);
}

int pmudb_cpuid_map(pmudb_t *db, pmudb_cpuid_fn found, void *ctx, struct pmudb_error *err)
{
	if (!db || !found)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog or callback", pmudb_strerror(PMUDB_ERR_INVAL));
	struct pmudb_cpuid_entry *entries;
	int n;
	pthread_mutex_lock(&db->lock);
	int r = read_entries(db, &entries, &n, err);
	pthread_mutex_unlock(&db->lock);
	for (int i = 0; !r && i < n; i++)
		if (found(ctx, &entries[i]))
			break;
	free(entries);
	return r ? r : n;
}
