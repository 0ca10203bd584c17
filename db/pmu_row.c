/*
 * pmu_row.c - see pmu_row.h.
 */
#include "pmu_row.h"

#include <limits.h>
#include <string.h>
#include <strings.h>

/* A kernel PMU name goes into a sysfs path. */
static int sysfs_name_ok(const char *s)
{
	return !s || (*s && !strchr(s, '/') && strcmp(s, "..") && strcmp(s, ".") && strlen(s) < 64);
}

const char *pmu_row_fault(sqlite3_stmt *st, const char *name, int64_t ntables)
{
	const char *row_name = (const char *)sqlite3_column_text(st, PMU_ROW_NAME);
	int64_t counters = sqlite3_column_int64(st, PMU_ROW_COUNTERS);
	int64_t fixed = sqlite3_column_int64(st, PMU_ROW_FIXED_COUNTERS);
	int64_t plm = sqlite3_column_int64(st, PMU_ROW_PLM), type = sqlite3_column_int64(st, PMU_ROW_PERF_TYPE);
	int64_t table = sqlite3_column_int64(st, PMU_ROW_TABLE);
	if (!row_name || strcasecmp(row_name, name))
		return "its name is not the directory's";
	for (int c = PMU_ROW_DESCRIPTION; c <= PMU_ROW_GROUP; c++)
		if (!sqlite3_column_text(st, c))
			return "its description, kind, family or family group is NULL";
	if (counters < 0 || counters > INT_MAX || fixed < 0 || fixed > INT_MAX)
		return "a count of counters out of range";
	if (plm < 0 || plm > 0x1f)
		return "its privilege levels are out of range";
	if (type < -1 || type > INT32_MAX)
		return "its perf type is out of range";
	if (!sysfs_name_ok((const char *)sqlite3_column_text(st, PMU_ROW_SYSFS)))
		return "its kernel PMU name cannot be a sysfs name";
	if (table < 1 || table > ntables)
		return "its event table is out of range";
	return NULL;
}
