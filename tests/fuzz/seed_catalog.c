/*
 * seed_catalog.c - makes the small catalog the catalog fuzz targets start
 * from, out of the one `make` built (4.7 MB: too big to mutate well).
 *
 *   seed_catalog FROM TO [EVENTS [PACKED_SEEDS [BLOB_SEEDS]]]
 *
 * TO gets FROM's rows for a few PMUs of every kind: skl (Intel core),
 * amd64_fam19h_zen4 (AMD core), skx_unc_cha0 and skx_unc_cha1 (server
 * uncore, sharing one event table), perf and perf_raw (the OS's), and
 * amd64_fam1ah_zen5 (made from a vendor list); at most EVENTS events per
 * event table (default 8: those named by other events' equivalences and
 * rows of every rule table first), positions renumbered.  Every row that
 * refers to something gone is deleted, the rows are packed again as the
 * compiler packs them (checked: a seed the runtime refuses would make
 * every finding of fuzz_catalog_rows a false one), and the file is
 * vacuumed with 1 kB pages.  With PACKED_SEEDS, seeds for fuzz_packed are
 * written there: each table's blob unpacked, its aliases and the
 * directory, with the mode byte fuzz_packed reads first; with BLOB_SEEDS,
 * the same blobs for fuzz_catalog_blobs, with its mode byte and the
 * table's id.
 *
 * Generated under build/ by the Makefile, never committed: it follows the
 * catalog's schema and the packed format as they change.
 */
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/pack.h"
#include "catalog/packed.h"

static sqlite3 *db;

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "seed_catalog: %s: %s\n", what, detail ? detail : sqlite3_errmsg(db));
	exit(1);
}

static void exec(const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		die(sql, msg);
}

/* The PMUs kept, their tables, and what refers to what is gone deleted. */
static const char keep_pmus[] =
	"CREATE TEMP TABLE keep_pmu AS SELECT id, name, event_table_id FROM pmu WHERE name IN"
	" ('skl', 'amd64_fam19h_zen4', 'skx_unc_cha0', 'skx_unc_cha1', 'perf', 'perf_raw', 'amd64_fam1ah_zen5');"
	"DELETE FROM pmu WHERE id NOT IN (SELECT id FROM keep_pmu);"
	"DELETE FROM pmu_sysfs WHERE pmu_id NOT IN (SELECT id FROM keep_pmu);"
	"DELETE FROM event_table WHERE id NOT IN (SELECT event_table_id FROM keep_pmu);"
	"UPDATE event_table SET pmu_count = (SELECT count(*) FROM keep_pmu k WHERE k.event_table_id = event_table.id);"
	"DELETE FROM event WHERE table_id NOT IN (SELECT id FROM event_table);"
	"DELETE FROM finding WHERE pmu NOT IN (SELECT name FROM keep_pmu);"
	"DELETE FROM reconcile_summary WHERE pmu NOT IN (SELECT name FROM keep_pmu);"
	"DELETE FROM override_log WHERE substr(target, 1, instr(target, '::') - 1) NOT IN (SELECT name FROM keep_pmu);"
	"DELETE FROM cpuid_map_pmu WHERE pmu_name NOT IN (SELECT name FROM keep_pmu);"
	"DELETE FROM cpuid_map WHERE id NOT IN (SELECT map_id FROM cpuid_map_pmu);"

	"UPDATE cpuid_map_pmu SET position = (SELECT count(*) FROM cpuid_map_pmu c"
	" WHERE c.map_id = cpuid_map_pmu.map_id AND c.position < cpuid_map_pmu.position);";

/* Events kept: per table, those other events stand for, then those with
 * rows in the rule tables, then the first ones; at most ?1 per table. */
static const char keep_events[] =
	"CREATE TEMP TABLE wanted AS SELECT id, table_id, position,"
	" (id IN (SELECT e.id FROM event e JOIN event o ON o.table_id = e.table_id"
	"         AND o.equiv IS NOT NULL AND e.name = substr(o.equiv || ':', 1, instr(o.equiv || ':', ':') - 1)))"
	" + (equiv IS NOT NULL)"
	" + (id IN (SELECT event_id FROM umask_implied)) + (id IN (SELECT event_id FROM pair_default))"
	" + (id IN (SELECT event_id FROM group_rule)) + (id IN (SELECT event_id FROM event_hidden_modifier))"
	" + (id IN (SELECT event_id FROM umask_unlock)) + (id IN (SELECT event_id FROM event_alias))"
	" + (id IN (SELECT event_id FROM umask WHERE equiv IS NOT NULL))"
	" + (id IN (SELECT event_id FROM event_default)) + (id IN (SELECT event_id FROM umask_default))"
	" + (name IN ('INST_RETIRED', 'RETIRED_INSTRUCTIONS', 'UNC_C_CLOCKTICKS', 'UNC_C_TOR_INSERTS',"
	"             'PERF_COUNT_HW_CPU_CYCLES', 'OFFCORE_RESPONSE_0', 'RETIRED_SSE_AVX_FLOPS')) * 4 AS score"
	" FROM event;"
	"CREATE TEMP TABLE kept AS SELECT id FROM (SELECT id, row_number() OVER"
	" (PARTITION BY table_id ORDER BY score DESC, position) AS n FROM wanted) WHERE n <= ?1;"
	"DELETE FROM event WHERE id NOT IN (SELECT id FROM kept);";

/* Rows of what is gone, and positions made 0, 1, 2 ... again. */
static const char cascade[] =
	"DELETE FROM event_hidden_modifier WHERE event_id NOT IN (SELECT id FROM event);"
	"DELETE FROM umask_unlock WHERE event_id NOT IN (SELECT id FROM event);"
	"DELETE FROM event_alias WHERE event_id NOT IN (SELECT id FROM event) OR table_id NOT IN (SELECT id FROM event_table);"
	"DELETE FROM umask WHERE event_id NOT IN (SELECT id FROM event);"
	"DELETE FROM event_default WHERE event_id NOT IN (SELECT id FROM event);"
	"DELETE FROM umask_default WHERE event_id NOT IN (SELECT id FROM event);"
	"DELETE FROM pair_default WHERE event_id NOT IN (SELECT id FROM event);"
	"DELETE FROM group_rule WHERE event_id NOT IN (SELECT id FROM event);"
	"DELETE FROM umask_implied WHERE event_id NOT IN (SELECT id FROM event);"
	"CREATE TEMP TABLE new_position AS SELECT id, (SELECT count(*) FROM event o WHERE o.table_id = e.table_id"
	" AND o.position < e.position) AS position FROM event e;"
	"UPDATE event SET position = (SELECT n.position FROM new_position n WHERE n.id = event.id);"
	"DELETE FROM modifier_set WHERE id NOT IN (SELECT modifier_set_id FROM event WHERE modifier_set_id IS NOT NULL);"
	"DELETE FROM modifier WHERE set_id NOT IN (SELECT id FROM modifier_set);"
	"DELETE FROM modifier_landing WHERE set_id NOT IN (SELECT id FROM modifier_set);"
	"DELETE FROM modifier_presence WHERE set_id NOT IN (SELECT id FROM modifier_set);"
	"DELETE FROM text WHERE id NOT IN (SELECT description_id FROM event UNION SELECT description_id FROM umask"
	" UNION SELECT description_id FROM modifier);"
	/* smaller, for mutating the file: descriptions cut, a few aliases
	 * (with and without unit masks) and findings */
	"UPDATE text SET value = substr(value, 1, 32);"
	"DELETE FROM event_alias WHERE (table_id, name) NOT IN (SELECT table_id, name FROM (SELECT table_id, name,"
	" row_number() OVER (PARTITION BY table_id, attrs IS NULL ORDER BY name) AS n FROM event_alias) WHERE n <= 6);"
	"DELETE FROM finding WHERE id NOT IN (SELECT min(id) FROM finding GROUP BY pmu, match, explained);";

/* The counter rows of the PMUs kept: in catalogs built with vendor lists. */
static const char keep_counters[] =
	"DELETE FROM counter_count WHERE pmu NOT IN (SELECT name FROM keep_pmu);"
	"DELETE FROM counter_rule WHERE pmu NOT IN (SELECT name FROM keep_pmu);";

static bool has_table(const char *name)
{
	sqlite3_stmt *st = NULL;
	bool has = sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_schema WHERE name = ?", -1, &st, NULL) == SQLITE_OK
		   && sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return has;
}

static void keep(int events)
{
	exec(keep_pmus);
	if (has_table("counter_rule"))
		exec(keep_counters);
	sqlite3_stmt *st = NULL;
	const char *tail = keep_events;
	while (*tail) {
		if (sqlite3_prepare_v2(db, tail, -1, &st, &tail) != SQLITE_OK)
			die("keeping events", NULL);
		if (!st)
			break;
		sqlite3_bind_int(st, 1, events);
		if (sqlite3_step(st) != SQLITE_DONE)
			die("keeping events", NULL);
		sqlite3_finalize(st);
	}
	exec(cascade);
}

/* A file of DIR: the mode byte, then the bytes. */
static void write_seed(const char *dir, const char *name, unsigned char mode, const void *data, size_t size)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fputc(mode, f) == EOF || fwrite(data, 1, size, f) != size || fclose(f))
		die(path, "cannot write");
}

/* fuzz_catalog_blobs's seed of a blob: its mode (0 table, 1 aliases, 2
 * directory), the table's place among the tables in id order, the blob. */
static void blob_seed(const char *dir, const char *name, unsigned char mode, int place, const void *data, size_t size)
{
	if (!dir)
		return;
	unsigned char *bytes = malloc(size + 1);
	bytes[0] = (unsigned char)place;
	memcpy(bytes + 1, data, size);
	write_seed(dir, name, mode, bytes, size + 1);
	free(bytes);
}

/* fuzz_packed's seeds (and fuzz_catalog_blobs's in BLOBS, unless NULL):
 * every blob of the seed catalog, unpacked. */
static void packed_seeds(const char *dir, const char *blobs)
{
	mkdir(dir, 0755);
	if (blobs)
		mkdir(blobs, 0755);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT id, packed, packed_aliases, (SELECT count(*) FROM event e WHERE e.table_id = t.id)"
			       " FROM event_table t UNION ALL SELECT 0, packed, NULL, 0 FROM pmu_directory ORDER BY 1 DESC",
			       -1, &st, NULL) != SQLITE_OK)
		die("reading the blobs", NULL);
	/* in id order, the directory (0) last: a table's place counts down */
	int place = -1;
	sqlite3_stmt *count;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM event_table", -1, &count, NULL) != SQLITE_OK
	    || sqlite3_step(count) != SQLITE_ROW)
		die("counting the tables", NULL);
	place = sqlite3_column_int(count, 0);
	sqlite3_finalize(count);
	while (sqlite3_step(st) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(st, 0);
		place -= id != 0;
		for (int c = 1; c <= 2; c++) {
			if (sqlite3_column_type(st, c) != SQLITE_BLOB)
				continue;
			const char *magic = !id ? PACKED_DIRECTORY_MAGIC : c == 1 ? PACKED_TABLE_MAGIC : PACKED_ALIASES_MAGIC;
			size_t size = 0;
			unsigned char *blob = packed_open(NULL, sqlite3_column_blob(st, c), (size_t)sqlite3_column_bytes(st, c),
							  magic, &size);
			if (!blob)
				die("a blob of the seed catalog", "cannot unpack");
			char name[64];
			if (!id) {
				write_seed(dir, "directory", 2, blob, size);
				blob_seed(blobs, "directory", 2, 0, blob, size);
			} else if (c == 1) {
				snprintf(name, sizeof(name), "table%lld", id);
				write_seed(dir, name, 0, blob, size);
				blob_seed(blobs, name, 0, place, blob, size);
			} else if (size > PACKED_HEADER + 1) {
				snprintf(name, sizeof(name), "aliases%lld", id);
				blob_seed(blobs, name, 1, place, blob, size);
				/* the aliases' mode byte, then how many events their table has */
				unsigned char *with_count = malloc(size + 1);
				with_count[0] = (unsigned char)sqlite3_column_int(st, 3);
				memcpy(with_count + 1, blob, size);
				snprintf(name, sizeof(name), "aliases%lld", id);
				write_seed(dir, name, 1, with_count, size + 1);
				free(with_count);
			}
			free(blob);
		}
	}
	sqlite3_finalize(st);
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 6) {
		fputs("usage: seed_catalog FROM TO [EVENTS [PACKED_SEEDS [BLOB_SEEDS]]]\n", stderr);
		return 2;
	}
	int events = argc > 3 ? atoi(argv[3]) : 8;
	sqlite3 *from;
	if (sqlite3_open_v2(argv[1], &from, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		die(argv[1], sqlite3_errmsg(from));
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[2]);
	unlink(tmp);
	if (sqlite3_open(tmp, &db) != SQLITE_OK)
		die(tmp, NULL);
	sqlite3_backup *b = sqlite3_backup_init(db, "main", from, "main");
	if (!b || sqlite3_backup_step(b, -1) != SQLITE_DONE || sqlite3_backup_finish(b) != SQLITE_OK)
		die("copying the catalog", NULL);
	sqlite3_close(from);
	exec("BEGIN");
	keep(events);
	char *error = NULL;
	if (pack_catalog(db, true, &error))
		die("packing the seed", error);
	exec("COMMIT");
	exec("PRAGMA page_size = 1024; VACUUM");
	if (argc > 4)
		packed_seeds(argv[4], argc > 5 ? argv[5] : NULL);
	sqlite3_close(db);
	if (rename(tmp, argv[2]))
		die(argv[2], "cannot rename");
	struct stat sb;
	stat(argv[2], &sb);
	printf("seed_catalog: %s: %lld bytes\n", argv[2], (long long)sb.st_size);
	return 0;
}
