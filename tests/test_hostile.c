/*
 * test_hostile.c - a catalog is input too: catalogs no build writes, made
 * from a good one with SQL, are refused with one line, never a crash or
 * an overrun, and a refusal is remembered, not retried and leaked.
 *
 * Each case edits the rows, then packs them twice: as the compiler does
 * (checking: it must refuse, naming the fault) and as a careless or
 * hostile writer would (not checking), which the runtime must then refuse
 * when it reads the damaged part.  The cases are those issues 9 and 44
 * found.  Under the sanitizers every 5th case is made (the plain pass
 * makes all).
 */
#include <limits.h>
#include <endian.h>
#include <unistd.h>
#include <malloc.h>
#include <setjmp.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zstd.h>

#include "catalog/pack.h"
#include "pmudb.h"
#include "tests/testlib.h"

static char *tmp, *good;
static int cases;

static int setup(void **state)
{
	(void)state;
	tmp = test_tempdir();
	good = test_build_path("pmudb.db");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	test_rmtree(tmp);
	free(tmp);
	free(good);
	return 0;
}

/* The event id of PMU's EVENT, as SQL. */
#define EVENT_ID(pmu, event) \
	"(SELECT e.id FROM event e JOIN pmu p ON p.event_table_id = e.table_id" \
	" WHERE p.name = '" pmu "' AND e.name = '" event "')"
#define SKL_INST_RETIRED EVENT_ID("skl", "INST_RETIRED")

static void exec_sql(const char *path, const char *sql)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
	sqlite3_close(db);
}

/* A copy of the good catalog with SQL applied. */
static char *edited(const char *name, const char *sql)
{
	char *path = malloc(strlen(tmp) + strlen(name) + 8);
	sprintf(path, "%s/%s.db", tmp, name);
	assert_int_equal(test_copy_file(good, path), 0);
	exec_sql(path, sql);
	return path;
}

/* Runs UPDATE on PATH with column DECL ("COLUMN TYPE", declared with NOT
 * NULL) of TABLE let to hold NULL, then declares it NOT NULL again: the
 * NULLs stay, as in a file not written by SQLite's rules, under the
 * schema a build writes. */
static void put_nulls(const char *path, const char *table, const char *decl, const char *update)
{
	char sql[1024];
	snprintf(sql, sizeof(sql),
		 "PRAGMA writable_schema = ON;"
		 "UPDATE sqlite_schema SET sql = replace(sql, '%s NOT NULL', '%s') WHERE name = '%s';",
		 decl, decl, table);
	exec_sql(path, sql);
	exec_sql(path, update);
	snprintf(sql, sizeof(sql),
		 "PRAGMA writable_schema = ON;"
		 "UPDATE sqlite_schema SET sql = replace(sql, '%s', '%s NOT NULL') WHERE name = '%s';",
		 decl, decl, table);
	exec_sql(path, sql);
}

/* Packs PATH's rows again; returns the packer's refusal (malloc'd), or NULL. */
static char *repack(const char *path, bool check)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	char *error = NULL;
	assert_int_equal(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
	int r = pack_catalog(db, check, &error);
	assert_int_equal(sqlite3_exec(db, r ? "ROLLBACK" : "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	if (!r) {
		free(error);
		return NULL;
	}
	assert_non_null(error);
	return error;
}

/* Under the sanitizers every test_sample_step()th case is made and met
 * (a pack of every table costs 5 to 10 s there; the plain pass makes
 * them all): the path of a case left out, which runtime_refuses skips. */
static char *sampled_out;

/* The compiler refuses the rows at PATH with a message holding WHAT; the
 * rows packed without checking are written back for the runtime to meet. */
static void packer_refuses(const char *path, const char *what)
{
	static int cases_packed;
	free(sampled_out);
	sampled_out = NULL;
	if (cases_packed++ % test_sample_step()) {
		sampled_out = strdup(path);
		return;
	}
	char *error = repack(path, true);
	if (!error || !strstr(error, what))
		fail_msg("packing %s: expected a refusal with '%s', got '%s'", path, what, error ? error : "none");
	assert_null(strchr(error, '\n'));
	print_message("  compiler: %s\n", error);
	free(error);
	assert_null(repack(path, false));
}

static void assert_one_line(const struct pmudb_error *err, const char *path)
{
	assert_null(strchr(err->message, '\n'));
	if (path && !strstr(err->message, path))
		fail_msg("'%s' does not name %s", err->message, path);
}

/* Encoding S from the catalog at PATH is refused as a catalog error. */
static void runtime_refuses(const char *path, const char *s)
{
	if (sampled_out && !strcmp(sampled_out, path))
		return;	/* a case the sanitized pass leaves to the plain one */
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(path, &err);
	assert_non_null(db);
	struct pmudb_encoding e;
	int r = pmudb_encode(db, s, NULL, &e, &err);
	if (r != PMUDB_ERR_CATALOG)
		fail_msg("%s from %s: %d (%s), expected PMUDB_ERR_CATALOG", s, path, r, err.message);
	assert_one_line(&err, path);
	print_message("  runtime:  %s\n", err.message);
	/* and again: the refusal is remembered */
	assert_int_equal(pmudb_encode(db, s, NULL, &e, &err), PMUDB_ERR_CATALOG);
	/* the rest of the catalog still answers */
	assert_int_equal(pmudb_encode(db, "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS", NULL, &e, &err), 0);
	pmudb_close(db);
	cases++;
}

/* ---- the cases of issue 9 ------------------------------------------------ */

static void test_umask_equiv_naming_itself(void **state)
{
	(void)state;
	char *path = edited("equiv_self", "UPDATE umask SET equiv = name WHERE name = 'ANY_P' AND event_id = " SKL_INST_RETIRED);
	packer_refuses(path, "cycle");
	runtime_refuses(path, "skl::INST_RETIRED:ANY_P");
	free(path);
}

static void test_event_default_at_minus_one(void **state)
{
	(void)state;
	char *path = edited("event_default", "INSERT INTO event_default VALUES (" SKL_INST_RETIRED ", -1)");
	packer_refuses(path, "position");
	runtime_refuses(path, "skl::INST_RETIRED");
	free(path);
}

static void test_umask_default_at_minus_one(void **state)
{
	(void)state;
	char *path = edited("umask_default", "INSERT INTO umask_default VALUES (" SKL_INST_RETIRED ", 0, -1)");
	packer_refuses(path, "position");
	runtime_refuses(path, "skl::INST_RETIRED:ANY_P");
	free(path);
}

/* A row for a unit mask the event lacks cannot reach the packed form: the
 * compiler refuses it, and packed without checks the event is unharmed. */
static void test_umask_implied_for_umask_minus_one(void **state)
{
	(void)state;
	char *path = edited("umask_implied", "INSERT INTO umask_implied VALUES (" SKL_INST_RETIRED ", -1, 0, 1, 0)");
	packer_refuses(path, "which the event lacks");
	struct pmudb_error err;
	pmudb_t *a = pmudb_open(path, &err), *b = pmudb_open(NULL, &err);
	assert_non_null(a);
	struct pmudb_encoding ea, eb;
	assert_int_equal(pmudb_encode(a, "skl::INST_RETIRED:ANY_P", NULL, &ea, &err), 0);
	assert_int_equal(pmudb_encode(b, "skl::INST_RETIRED:ANY_P", NULL, &eb, &err), 0);
	assert_string_equal(ea.fstr, eb.fstr);
	pmudb_close(a);
	pmudb_close(b);
	free(path);
}

static void test_umask_implied_modifier_minus_three(void **state)
{
	(void)state;
	char *path = edited("implied_modifier", "INSERT INTO umask_implied VALUES (" SKL_INST_RETIRED ", 0, -3, 1, 0)");
	packer_refuses(path, "implies a modifier the event lacks");
	runtime_refuses(path, "skl::INST_RETIRED:ANY_P");
	free(path);
}

static void test_three_thousand_defaults(void **state)
{
	(void)state;
	char *path = edited("many_defaults",
			    "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2999)"
			    " INSERT OR IGNORE INTO event_default SELECT " SKL_INST_RETIRED ", i FROM n");
	packer_refuses(path, "position");
	runtime_refuses(path, "skl::INST_RETIRED");
	free(path);
}

static void test_more_modifiers_than_the_runtime_reads(void **state)
{
	(void)state;
	/* modifier 0 of the set copied to positions 100 to 200, whatever
	 * the columns (catalog/field_lists.h) */
	char *sql = malloc(64 * 1024), *at = sql;
	at += sprintf(at, "CREATE TEMP TABLE m0 AS SELECT * FROM modifier WHERE set_id = (SELECT modifier_set_id FROM event"
		      " WHERE id = " SKL_INST_RETIRED ") AND position = 0; UPDATE m0 SET position = 99;");
	for (int i = 100; i <= 200; i++)
		at += sprintf(at, "UPDATE m0 SET position = %d, name = 'x%d'; INSERT INTO modifier SELECT * FROM m0;", i, i);
	char *path = edited("many_modifiers", sql);
	free(sql);
	packer_refuses(path, "modifier set");
	runtime_refuses(path, "skl::INST_RETIRED:ANY_P");
	free(path);
}

static void test_bare_error_int_min(void **state)
{
	(void)state;
	char *path = edited("int_min", "UPDATE event SET bare_error = -2147483648 WHERE id = " SKL_INST_RETIRED);
	packer_refuses(path, "not libpfm's");
	runtime_refuses(path, "skl::INST_RETIRED");
	free(path);
	assert_string_equal(pmudb_strerror(INT_MIN), "unknown error code");
	assert_string_equal(pmudb_error_name(INT_MIN), "PMUDB_ERR_UNKNOWN");
	assert_string_equal(pmudb_strerror(INT_MAX), "unknown error code");
}

/* NetBurst encodes with registers measured for every event: an event
 * whose registers are said not to be measured is refused, not encoded as
 * if their bits were 0. */
static void test_netburst_event_without_registers(void **state)
{
	(void)state;
	char *path = edited("netburst_registers", "UPDATE event SET config_measured = 0 WHERE id = "
			    EVENT_ID("netburst", "TC_deliver_mode"));
	packer_refuses(path, "its config is not measured");
	runtime_refuses(path, "netburst::TC_deliver_mode:DB");
	free(path);
	path = edited("netburst_no_base", "UPDATE event SET config_measured = 0, config_base = 0 WHERE id = "
		      EVENT_ID("netburst", "TC_deliver_mode"));
	packer_refuses(path, "measured registers where its event has none");
	runtime_refuses(path, "netburst::TC_deliver_mode:DB");
	free(path);
}

/* DB (opened from PATH) refuses the scope of CPU ("vendor/family/model")
 * with one line of PMUDB_ERR_CATALOG, left in ERR. */
static void scope_refused(pmudb_t *db, const char *path, const char *cpu_string, struct pmudb_error *err)
{
	struct pmudb_cpu cpu;
	struct pmudb_scope scope;
	assert_int_equal(pmudb_cpu_parse(cpu_string, &cpu, err), 0);
	assert_int_equal(pmudb_scope_cpu(db, &cpu, &scope, NULL, err), PMUDB_ERR_CATALOG);
	assert_one_line(err, path);
}

/* NULL where our schema says NOT NULL: the packer refuses the rows, and the
 * runtime, which reads some columns itself, refuses what it reads. */
static void test_nulls_in_not_null_columns(void **state)
{
	(void)state;
	char *path = edited("null_is_integer", "SELECT 1");
	put_nulls(path, "modifier", "is_integer INTEGER",
		  "UPDATE modifier SET is_integer = NULL WHERE set_id = (SELECT modifier_set_id FROM event WHERE id = "
		  SKL_INST_RETIRED ")");
	packer_refuses(path, "NULL");
	free(path);

	path = edited("null_description", "SELECT 1");
	put_nulls(path, "pmu", "description TEXT", "UPDATE pmu SET description = NULL WHERE name = 'skl'");
	packer_refuses(path, "description, kind, family or family group is NULL");
	runtime_refuses(path, "skl::INST_RETIRED:ANY_P");
	free(path);

	path = edited("null_text", "SELECT 1");
	put_nulls(path, "text", "value TEXT",
		  "UPDATE text SET value = NULL WHERE id = (SELECT description_id FROM event WHERE id = "
		  SKL_INST_RETIRED ")");
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(path, &err);
	assert_non_null(db);
	int p = pmudb_find_pmu(db, "skl"), pmu, ev;
	assert_true(p >= 0);
	assert_int_equal(pmudb_find_event(db, "skl::INST_RETIRED", NULL, &pmu, &ev, &err), 0);
	struct pmudb_event_info info;
	assert_int_equal(pmudb_event_info(db, pmu, ev, &info), PMUDB_ERR_CATALOG);
	pmudb_close(db);
	free(path);

	path = edited("null_cpuid_pmu", "SELECT 1");
	put_nulls(path, "cpuid_map_pmu", "pmu_name TEXT", "UPDATE cpuid_map_pmu SET pmu_name = NULL");
	db = pmudb_open(path, &err);
	assert_non_null(db);
	scope_refused(db, path, "GenuineIntel/6/0x55", &err);
	pmudb_close(db);
	free(path);
	cases += 4;
}

/* Overwrites the root page of TABLE in the catalog PATH with a leaf page
 * header whose cells lie past the page's end: SQLite reads that as rows
 * missing or as an error. */
static void damage_root_page(const char *path, const char *table)
{
	sqlite3 *sql;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open(path, &sql), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(sql, "SELECT (SELECT rootpage FROM sqlite_master WHERE name = ?1),"
						 " (SELECT page_size FROM pragma_page_size)", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	long root = sqlite3_column_int(st, 0), page = sqlite3_column_int(st, 1);
	sqlite3_finalize(st);
	sqlite3_close(sql);
	assert_true(root > 1 && page >= 512);
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	static const unsigned char header[] = { 0x0d, 0x00, 0x00, 0x00, 0x50, 0x0f, 0xff };
	assert_int_equal(fseek(f, (root - 1) * page, SEEK_SET), 0);
	assert_int_equal(fwrite(header, 1, sizeof(header), f), sizeof(header));
	assert_int_equal(fclose(f), 0);
}

/* Counts the entries pmudb_cpuid_map gives. */
static int count_entry(void *ctx, const struct pmudb_cpuid_entry *e)
{
	(void)e;
	++*(int *)ctx;
	return 0;
}

/* PATH's CPUID map is damaged: a CPU it maps, and one it may not, get a
 * one-line PMUDB_ERR_CATALOG, never "no table for this CPU"; so does the
 * whole map. */
static void map_refused(const char *path)
{
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(path, &err);
	assert_non_null(db);
	scope_refused(db, path, "GenuineIntel/6/0x55", &err);
	scope_refused(db, path, "AuthenticAMD/26/0x2", &err);
	int n = 0;
	assert_int_equal(pmudb_cpuid_map(db, count_entry, &n, &err), PMUDB_ERR_CATALOG);
	assert_one_line(&err, path);
	pmudb_close(db);
}

/* A map short of entries read as "no table for this CPU": rows deleted
 * (with meta's count of them, too), and the root page of the map's table
 * damaged. */
static void test_damaged_cpuid_map(void **state)
{
	(void)state;
	char *path = edited("map_short", "DELETE FROM cpuid_map WHERE family = 6 OR family = 26");
	map_refused(path);
	free(path);

	path = edited("map_no_meta", "DELETE FROM cpuid_map WHERE family = 6 OR family = 26;"
		      " DELETE FROM meta WHERE key = 'cpuid_entries'");
	map_refused(path);
	free(path);

	path = edited("map_page", "SELECT 1");
	damage_root_page(path, "cpuid_map");
	map_refused(path);
	free(path);
	cases += 3;
}

/* The findings of an event, their table's root page damaged: an error,
 * not "no findings" (info then left its section out and exited 0). */
static int count_finding(void *ctx, const struct pmudb_finding *f)
{
	(void)f;
	++*(int *)ctx;
	return 0;
}

static void test_damaged_findings(void **state)
{
	(void)state;
	char *path = edited("findings_page", "SELECT 1");
	damage_root_page(path, "finding");
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(path, &err);
	assert_non_null(db);
	int pmu, ev, n = 0;
	assert_int_equal(pmudb_find_event(db, "skl::INST_RETIRED", NULL, &pmu, &ev, &err), 0);
	assert_int_equal(pmudb_event_findings(db, pmu, ev, count_finding, &n), PMUDB_ERR_CATALOG);
	pmudb_close(db);
	free(path);
	cases++;
}

/* A table that fails to load is not loaded again: 50,000 encodes of its
 * events cost no memory (issue 9 saw 3.1 GB). */
static void test_failed_load_is_remembered(void **state)
{
	(void)state;
	char *path = edited("cut_blob", "UPDATE event_table SET packed = substr(packed, 1, 100)"
			    " WHERE id = (SELECT event_table_id FROM pmu WHERE name = 'skl')");
	runtime_refuses(path, "skl::INST_RETIRED:ANY_P");
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(path, &err);
	struct pmudb_encoding e;
	assert_int_equal(pmudb_encode(db, "skl::INST_RETIRED:ANY_P", NULL, &e, &err), PMUDB_ERR_CATALOG);
	size_t before = mallinfo2().uordblks;
	for (int i = 0; i < 50000; i++)
		assert_int_equal(pmudb_encode(db, i % 2 ? "skl::INST_RETIRED:ANY_P" : "skl::BR_MISP_RETIRED", NULL, &e, &err),
				 PMUDB_ERR_CATALOG);
	size_t after = mallinfo2().uordblks;
	print_message("  50,000 refused encodes: heap %zu -> %zu bytes\n", before, after);
	assert_true(after <= before + 4096);
	pmudb_close(db);
	free(path);
}

static void test_damaged_blobs(void **state)
{
	(void)state;
	/* one byte changed inside a packed table: zstd's checksum */
	char *path = edited("flipped", "UPDATE event_table SET packed = substr(packed, 1, 40) ||"
			    " (CASE WHEN substr(packed, 41, 1) = x'00' THEN x'01' ELSE x'00' END) || substr(packed, 42)"
			    " WHERE id = (SELECT event_table_id FROM pmu WHERE name = 'skl')");
	runtime_refuses(path, "skl::INST_RETIRED:ANY_P");
	free(path);
	/* not zstd at all */
	path = edited("not_zstd", "UPDATE event_table SET packed = x'706d75646254340000000000'"
		      " WHERE id = (SELECT event_table_id FROM pmu WHERE name = 'skl')");
	runtime_refuses(path, "skl::INST_RETIRED:ANY_P");
	free(path);
	/* the aliases */
	path = edited("aliases", "UPDATE event_table SET packed_aliases = x'00'"
		      " WHERE id = (SELECT event_table_id FROM pmu WHERE name = 'skl')");
	runtime_refuses(path, "skl::NO_SUCH_NAME");
	free(path);
	/* the directory: refused at open */
	path = edited("directory", "UPDATE pmu_directory SET packed = x'0102'");
	struct pmudb_error err;
	assert_null(pmudb_open(path, &err));
	assert_int_equal(err.code, PMUDB_ERR_CATALOG);
	assert_one_line(&err, path);
	free(path);
	path = edited("no_directory", "DELETE FROM pmu_directory");
	assert_null(pmudb_open(path, &err));
	assert_one_line(&err, path);
	free(path);
	/* PMU rows the directory carries (packed.h) that the runtime cannot use */
	static const struct {
		const char *name, *sql, *refusal;
	} rows[] = {
		{ "row_plm", "UPDATE pmu SET supported_plm = 99 WHERE name = 'skl'", "privilege levels" },
		{ "row_type", "UPDATE pmu SET perf_type = -2 WHERE name = 'skl'", "perf type" },
		{ "row_table", "UPDATE pmu SET event_table_id = 99999 WHERE name = 'skl'", "event table" },
		{ "row_sysfs", "INSERT OR REPLACE INTO pmu_sysfs SELECT id, 0, '../cpu' FROM pmu WHERE name = 'skl'",
		  "sysfs" },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		path = edited(rows[i].name, rows[i].sql);
		packer_refuses(path, rows[i].refusal);
		runtime_refuses(path, "skl::INST_RETIRED");
		free(path);
	}
}

/* ---- the cases of issue 44: valid-looking, and built to hurt ---------------- */

/* A file cut short while a handle reads it: the tables read before stay,
 * the rest are refused with one line each, and the process lives (with
 * the file mapped it died of SIGBUS). */
static void test_truncated_while_in_use(void **state)
{
	(void)state;
	char *path = edited("live", "SELECT 1");
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(path, &err);
	assert_non_null(db);
	struct pmudb_encoding e;
	assert_int_equal(pmudb_encode(db, "skl::INST_RETIRED:ANY_P", NULL, &e, &err), 0);
	assert_int_equal(truncate(path, 0), 0);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(pmudb_encode(db, "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS", NULL, &e, &err),
				 PMUDB_ERR_CATALOG);
		assert_one_line(&err, path);
	}
	print_message("  runtime:  %s\n", err.message);
	assert_int_equal(pmudb_encode(db, "skl::INST_RETIRED:ANY_P", NULL, &e, &err), 0);
	pmudb_close(db);
	free(path);
	cases++;
}

/* The catalog at PATH is refused when opened, with one line naming it and
 * holding WHAT. */
static void open_refuses(const char *path, const char *what)
{
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(path, &err);
	if (db)
		fail_msg("%s opened", path);
	assert_int_equal(err.code, PMUDB_ERR_CATALOG);
	assert_one_line(&err, path);
	if (!strstr(err.message, what))
		fail_msg("'%s' does not say '%s'", err.message, what);
	print_message("  runtime:  %s\n", err.message);
	cases++;
}

/* SQL a catalog carries runs no code of its own: a view where a table
 * belongs (an endless one hung pmudb_open, a cross join hung info), a
 * trigger, an index or a table no build writes, a changed table. */
static void test_sql_in_the_catalog(void **state)
{
	(void)state;
	static const struct {
		const char *name, *sql, *refusal;
	} cases44[] = {
		{ "endless_view", "DROP TABLE pmu_directory; CREATE VIEW pmu_directory AS WITH RECURSIVE c(x) AS"
		  " (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS packed FROM c", "pmu_directory" },
		{ "cross_join", "ALTER TABLE finding RENAME TO f; CREATE VIEW finding AS SELECT a.* FROM f a, f b, f c",
		  "table f" },
		{ "trigger", "CREATE TRIGGER t AFTER INSERT ON meta BEGIN SELECT 1; END", "trigger t" },
		{ "index", "CREATE INDEX i ON finding(pmu)", "index i" },
		{ "table", "CREATE TABLE extra (x)", "table extra" },
		{ "changed", "ALTER TABLE meta ADD COLUMN x", "table meta" },
	};
	for (size_t i = 0; i < sizeof(cases44) / sizeof(cases44[0]); i++) {
		char *path = edited(cases44[i].name, cases44[i].sql);
		open_refuses(path, cases44[i].refusal);
		free(path);
	}
}

static int count_decoded(void *ctx, const struct pmudb_decoded *d)
{
	(void)d;
	return ++*(int *)ctx >= 8;
}

/* Unit-mask equivalences 3 deep with a fan-out of 20 stand for 8,000
 * unit masks (7 deep made decode exponential): refused, by the compiler
 * and the runtime. */
static void test_wide_equivalences(void **state)
{
	(void)state;
	char sql[4096], *at = sql;
	at += sprintf(at, "CREATE TEMP TABLE u AS SELECT * FROM umask WHERE name = 'ANY_P' AND event_id = %s;",
		      SKL_INST_RETIRED);
	const char *prev = "ANY_P";
	char names[3][8];
	for (int k = 0; k < 3; k++) {
		sprintf(names[k], "W%d", k);
		at += sprintf(at, "UPDATE u SET position = (SELECT max(position) + 1 FROM umask WHERE event_id = %s),"
			      " name = '%s', grp = NULL, equiv = '%s", SKL_INST_RETIRED, names[k], prev);
		for (int f = 1; f < 20; f++)
			at += sprintf(at, ":%s", prev);
		at += sprintf(at, "'; INSERT INTO umask SELECT * FROM u;");
		prev = names[k];
	}
	char *path = edited("wide_equivs", sql);
	packer_refuses(path, "stands for too many unit masks");
	runtime_refuses(path, "skl::INST_RETIRED:ANY_P");
	/* and decoding the PMU, which meets the event, ends */
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(path, &err);
	pmudb_decoder_t *dec = pmudb_decoder_open(db, pmudb_find_pmu(db, "skl"), &err);
	if (dec) {
		int n = 0;
		pmudb_decode(dec, 0x1c0, 0, 0, 8, count_decoded, &n, &err);
		pmudb_decoder_close(dec);
	}
	pmudb_close(db);
	free(path);
}

/* PMU's packed event table, unpacked, handed to CHANGE (which may write
 * up to CAP bytes and returns the new size), packed again and stored. */
static void rewrite_table(const char *path, const char *pmu, size_t cap, size_t (*change)(unsigned char *, size_t))
{
	sqlite3 *db;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	char sql[256];
	snprintf(sql, sizeof(sql), "SELECT packed FROM event_table WHERE id = (SELECT event_table_id FROM pmu WHERE name = '%s')",
		 pmu);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	const void *frame = sqlite3_column_blob(st, 0);
	size_t n = (size_t)sqlite3_column_bytes(st, 0);
	unsigned long long size = ZSTD_getFrameContentSize(frame, n);
	assert_true(size < cap);
	unsigned char *blob = calloc(1, cap);
	assert_int_equal(ZSTD_decompress(blob, size, frame, n), size);
	sqlite3_finalize(st);
	size = change(blob, size);
	size_t bound = ZSTD_compressBound(size);
	unsigned char *packed = malloc(bound);
	size_t m = ZSTD_compress(packed, bound, blob, size, 3);
	assert_false(ZSTD_isError(m));
	snprintf(sql, sizeof(sql), "UPDATE event_table SET packed = ?1 WHERE id = (SELECT event_table_id FROM pmu WHERE name = '%s')",
		 pmu);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_blob(st, 1, packed, (int)m, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(blob);
	free(packed);
}

#define PADDED (48u << 20)

/* Zeros after the string pool: still a valid table, 48 MB unpacked from
 * a few kilobytes stored. */
static size_t pad(unsigned char *blob, size_t size)
{
	(void)blob;
	return size + PADDED;
}

/* Every event's record offset set to the first's: 6 KB became 838 MB. */
static size_t overlap(unsigned char *blob, size_t size)
{
	uint32_t nevents, first;
	memcpy(&nevents, blob + 8, 4);
	memcpy(&first, blob + 8 + 12, 4);
	nevents = le32toh(nevents);
	for (uint32_t e = 1; e < nevents; e++)
		memcpy(blob + 8 + 12 + 4 * (size_t)e, &first, 4);
	return size;
}

/* Heap in use after loading (and failing to load) PMU's table. */
static size_t heap_after_loading(const char *path, const char *event)
{
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(path, &err);
	assert_non_null(db);
	size_t before = mallinfo2().uordblks;
	struct pmudb_encoding e;
	assert_int_equal(pmudb_encode(db, event, NULL, &e, &err), PMUDB_ERR_CATALOG);
	size_t after = mallinfo2().uordblks;
	pmudb_close(db);
	return after > before ? after - before : 0;
}

/* What a blob unpacks to is bounded by what it stores, and a record is
 * read once: a refused table leaves nothing large behind. */
static void test_blobs_that_unpack_to_too_much(void **state)
{
	(void)state;
	char *path = edited("padded", "SELECT 1");
	rewrite_table(path, "skl", PADDED + (4u << 20), pad);
	runtime_refuses(path, "skl::INST_RETIRED:ANY_P");
	size_t held = heap_after_loading(path, "skl::INST_RETIRED:ANY_P");
	print_message("  padded table refused: %zu bytes held\n", held);
	assert_true(held < (1u << 20));
	free(path);
	path = edited("overlap", "SELECT 1");
	rewrite_table(path, "skl", 4u << 20, overlap);
	runtime_refuses(path, "skl::INST_RETIRED:ANY_P");
	held = heap_after_loading(path, "skl::INST_RETIRED:ANY_P");
	print_message("  overlapping records refused: %zu bytes held\n", held);
	assert_true(held < (1u << 20));
	free(path);
}

/* A CPUID map entry of 153 PMUs, more than a scope holds: refused (the
 * runtime cut the scope to 128 silently, so that names then missed PMUs;
 * the compiler refuses such an entry where it is written). */
static void test_cpuid_entry_past_the_scope(void **state)
{
	(void)state;
	char *path = edited("wide_map", "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99)"
			    " INSERT INTO cpuid_map_pmu SELECT (SELECT min(id) FROM cpuid_map WHERE vendor = 'GenuineIntel'"
			    " AND family = 6 AND 85 BETWEEN model_lo AND model_hi), 1000 + i, 'skl' FROM n");
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(path, &err);
	assert_non_null(db);
	scope_refused(db, path, "GenuineIntel/6/0x55/4", &err);
	assert_non_null(strstr(err.message, "more than 128 PMUs"));
	print_message("  runtime:  %s\n", err.message);
	pmudb_close(db);
	free(path);
	cases++;
}

/* ---- what callers hand the API -------------------------------------------- */

static void test_api_checks_its_arguments(void **state)
{
	(void)state;
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(NULL, &err);
	struct pmudb_encoding e;
	struct pmudb_scope scope = { .count = 1, .pmus = { 100000 } };
	assert_int_equal(pmudb_encode(db, "INST_RETIRED", &scope, &e, &err), PMUDB_ERR_INVAL);
	assert_one_line(&err, NULL);
	scope.count = 1000;
	assert_int_equal(pmudb_encode(db, "INST_RETIRED", &scope, &e, &err), PMUDB_ERR_INVAL);
	scope.count = -1;
	assert_int_equal(pmudb_encode(db, "INST_RETIRED", &scope, &e, &err), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_encode(NULL, "x", NULL, &e, &err), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_encode(db, NULL, NULL, &e, &err), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_encode(db, "x", NULL, NULL, &err), PMUDB_ERR_INVAL);
	struct pmudb_pmu_info pi;
	struct pmudb_event_info ei;
	struct pmudb_umask_info ui;
	struct pmudb_modifier_info mi;
	assert_int_equal(pmudb_pmu_info(db, -1, &pi), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_pmu_info(db, INT_MAX, &pi), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_pmu_info(NULL, 0, &pi), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_event_info(db, 0, -1, &ei), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_event_info(db, 0, INT_MAX, &ei), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_umask_info(db, 0, 0, INT_MAX, &ui), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_modifier_info(db, 0, 0, -5, &mi), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_pmu_count(NULL), 0);
	assert_int_equal(pmudb_find_pmu(db, NULL), -1);
	assert_true(pmudb_search(db, NULL, NULL, NULL) < 0);
	struct pmudb_cpu cpu;
	assert_int_equal(pmudb_cpu_parse(NULL, &cpu, &err), PMUDB_ERR_INVAL);
	assert_int_equal(pmudb_scope_cpu(db, NULL, &scope, NULL, &err), PMUDB_ERR_INVAL);
	pmudb_close(db);
	pmudb_close(NULL);
}

static void test_summary(void **state)
{
	(void)state;
	print_message("%d hostile catalogs refused with one line\n", cases);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_umask_equiv_naming_itself),
		cmocka_unit_test(test_event_default_at_minus_one),
		cmocka_unit_test(test_umask_default_at_minus_one),
		cmocka_unit_test(test_umask_implied_for_umask_minus_one),
		cmocka_unit_test(test_umask_implied_modifier_minus_three),
		cmocka_unit_test(test_three_thousand_defaults),
		cmocka_unit_test(test_more_modifiers_than_the_runtime_reads),
		cmocka_unit_test(test_bare_error_int_min),
		cmocka_unit_test(test_netburst_event_without_registers),
		cmocka_unit_test(test_nulls_in_not_null_columns),
		cmocka_unit_test(test_damaged_cpuid_map),
		cmocka_unit_test(test_damaged_findings),
		cmocka_unit_test(test_failed_load_is_remembered),
		cmocka_unit_test(test_damaged_blobs),
		cmocka_unit_test(test_truncated_while_in_use),
		cmocka_unit_test(test_sql_in_the_catalog),
		cmocka_unit_test(test_wide_equivalences),
		cmocka_unit_test(test_blobs_that_unpack_to_too_much),
		cmocka_unit_test(test_cpuid_entry_past_the_scope),
		cmocka_unit_test(test_api_checks_its_arguments),
		cmocka_unit_test(test_summary),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
