/*
 * pmu_row.h - a PMU's row as the runtime reads it (catalog.c), and what
 * makes one unreadable.  Shared with the compiler's packer
 * (compiler/pack.c), which must not write a directory naming a PMU whose
 * row the runtime would refuse.
 */
#ifndef PMUDB_PMU_ROW_H
#define PMUDB_PMU_ROW_H

#include <sqlite3.h>
#include <stdint.h>

/* The row of PMU ?1, in the columns below. */
#define PMU_ROW_SQL \
	"SELECT p.name, description, kind, family, family_group, source, like_pmu, s.name, num_counters," \
	" num_fixed_counters, supported_plm, perf_type, event_table_id, config_cleared FROM pmu p" \
	" LEFT JOIN pmu_sysfs s ON s.pmu_id = p.id AND s.position = 0 WHERE p.id = ?1"

enum pmu_row_column {
	PMU_ROW_NAME, PMU_ROW_DESCRIPTION, PMU_ROW_KIND, PMU_ROW_FAMILY, PMU_ROW_GROUP, PMU_ROW_SOURCE, PMU_ROW_LIKE,
	PMU_ROW_SYSFS, PMU_ROW_COUNTERS, PMU_ROW_FIXED_COUNTERS, PMU_ROW_PLM, PMU_ROW_PERF_TYPE, PMU_ROW_TABLE,
	PMU_ROW_CONFIG_CLEARED,
};

/* What is wrong with the row ST is on (PMU_ROW_SQL, stepped), for a PMU the
 * directory names NAME in a catalog whose event tables have ids 1 to
 * NTABLES; NULL when the runtime can read it. */
const char *pmu_row_fault(sqlite3_stmt *st, const char *name, int64_t ntables);

#endif
