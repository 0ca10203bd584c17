/*
 * fuzz_catalog_rows.c - catalogs with rows no build writes, made as a
 * careless or hostile writer would: the bytes are a program of SQL edits
 * (update a cell, delete a row, copy a row with a cell changed) on the rows
 * of the seed catalog, whose NOT NULL and CHECK constraints are dropped
 * first, since a file not written by us keeps none (and then declared
 * again in the file pmudb opens, which refuses a schema not its own:
 * the rows break them all the same).  Byte-level mutation
 * (fuzz_catalog_bytes) rarely gets a page past SQLite's and zstd's checks;
 * this reaches the readers of the rows and of their packed form.
 *
 * The edited rows are packed twice, as the compiler does (compiler/pack.c):
 *   - checked: pack_catalog may refuse them; when it accepts, the runtime
 *     must never answer PMUDB_ERR_CATALOG for what was packed (the
 *     directory, each PMU it names, each event table, event and alias
 *     list, each encode): what the runtime would refuse, the compiler must
 *     not write.  That is a finding like a crash.
 *   - unchecked, when the check refused: the file is opened and used, and
 *     must be refused with one line, never crash or overrun.
 * Each file is opened with pmudb_open and used every way (browse.c).
 *
 * The program, one edit after another until the bytes run out (16 at most):
 *   op, table, row (2 bytes, modulo the table's rows), column, value
 *   op % 3: 0 update the cell, 1 delete the row, 2 insert a copy of the
 *   row with the cell set; value: a kind byte and its bytes (read_value()).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/pack.h"
#include "tests/fuzz/browse.h"
#include "catalog/catalog.h"
#include "tests/fuzz/fuzz.h"

#define MAX_EDITS 16
#define MAX_COLUMNS 40

struct table {
	char name[40];
	int ncolumns;
	char columns[MAX_COLUMNS][40];
	char key[200];		/* its primary key's columns, "a, b" */
};

static struct table tables[48];
static int ntables;
static unsigned char *seed;	/* the seed catalog, constraints dropped */
static char *declared;		/* SQL that puts the seed's schema back */
static sqlite3_int64 seed_size;

/* ---- the seed, loaded once --------------------------------------------- */

static void exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fuzz_fail("%s: %s", sql, msg);
}

/* SQL without its CHECK (...) clauses and NOT NULLs. */
static char *unconstrained(const char *sql)
{
	char *out = malloc(strlen(sql) + 1), *o = out;
	for (const char *s = sql; *s;) {
		if (!strncmp(s, " NOT NULL", 9)) {
			s += 9;
		} else if (!strncmp(s, " CHECK (", 8)) {
			int depth = 0;
			for (s += 7; *s; s++)
				if (*s == '(')
					depth++;
				else if (*s == ')' && !--depth)
					break;
			if (*s)
				s++;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

static void relax_schema(sqlite3 *db)
{
	sqlite3_stmt *st, *up;
	sqlite3_str *back = sqlite3_str_new(NULL);
	sqlite3_str_appendall(back, "PRAGMA writable_schema = ON;");
	exec(db, "PRAGMA writable_schema = ON");
	if (sqlite3_prepare_v2(db, "SELECT name, sql FROM sqlite_schema WHERE type = 'table'", -1, &st, NULL)
	    || sqlite3_prepare_v2(db, "UPDATE sqlite_schema SET sql = ?2 WHERE name = ?1", -1, &up, NULL))
		fuzz_fail("seed catalog: %s", sqlite3_errmsg(db));
	while (sqlite3_step(st) == SQLITE_ROW) {
		sqlite3_str_appendf(back, "UPDATE sqlite_schema SET sql = %Q WHERE name = %Q;", sqlite3_column_text(st, 1),
				    sqlite3_column_text(st, 0));
		char *sql = unconstrained((const char *)sqlite3_column_text(st, 1));
		sqlite3_bind_text(up, 1, (const char *)sqlite3_column_text(st, 0), -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(up, 2, sql, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(up) != SQLITE_DONE)
			fuzz_fail("seed catalog: %s", sqlite3_errmsg(db));
		sqlite3_reset(up);
		free(sql);
	}
	sqlite3_finalize(st);
	sqlite3_finalize(up);
	exec(db, "PRAGMA writable_schema = OFF");
	sqlite3_str_appendall(back, "PRAGMA writable_schema = OFF;");
	declared = sqlite3_str_finish(back);
	if (!declared)
		fuzz_fail("out of memory");
}

static void read_tables(sqlite3 *db)
{
	sqlite3_stmt *st, *info;
	if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name <> 'pmu_directory'"
			       " AND name NOT LIKE 'sqlite%' ORDER BY name", -1, &st, NULL))
		fuzz_fail("seed catalog: %s", sqlite3_errmsg(db));
	while (sqlite3_step(st) == SQLITE_ROW && ntables < (int)(sizeof(tables) / sizeof(tables[0]))) {
		struct table *t = &tables[ntables];
		/* a slot a table without a key left is taken afresh */
		t->ncolumns = 0;
		t->key[0] = '\0';
		snprintf(t->name, sizeof(t->name), "%s", sqlite3_column_text(st, 0));
		if (sqlite3_prepare_v2(db, "SELECT name, pk FROM pragma_table_info(?1) ORDER BY pk, cid", -1, &info, NULL))
			fuzz_fail("seed catalog: %s", sqlite3_errmsg(db));
		sqlite3_bind_text(info, 1, t->name, -1, SQLITE_STATIC);
		while (sqlite3_step(info) == SQLITE_ROW) {
			if (t->ncolumns == MAX_COLUMNS)
				fuzz_fail("seed catalog: table %s has more than %d columns", t->name, MAX_COLUMNS);
			const char *column = (const char *)sqlite3_column_text(info, 0);
			snprintf(t->columns[t->ncolumns++], sizeof(t->columns[0]), "%s", column);
			if (sqlite3_column_int(info, 1))
				snprintf(t->key + strlen(t->key), sizeof(t->key) - strlen(t->key), "%s%s", *t->key ? ", " : "",
					 column);
		}
		sqlite3_finalize(info);
		if (*t->key)
			ntables++;
	}
	sqlite3_finalize(st);
}

static void load_seed(void)
{
	FILE *f = fopen(fuzz_seed_catalog(), "rb");
	if (!f)
		fuzz_fail("no seed catalog at %s (make it with `make fuzz`, or set PMUDB_FUZZ_SEED)", fuzz_seed_catalog());
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	unsigned char *bytes = sqlite3_malloc64((sqlite3_uint64)n);
	if (!bytes || fread(bytes, 1, (size_t)n, f) != (size_t)n)
		fuzz_fail("cannot read %s", fuzz_seed_catalog());
	fclose(f);
	sqlite3 *db;
	sqlite3_open(":memory:", &db);
	if (sqlite3_deserialize(db, "main", bytes, n, n, SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE))
		fuzz_fail("seed catalog: %s", sqlite3_errmsg(db));
	relax_schema(db);
	read_tables(db);
	/* a connection that deserializes this reads the relaxed schema anew */
	seed = sqlite3_serialize(db, "main", &seed_size, 0);
	if (!seed || ntables < 10)
		fuzz_fail("seed catalog %s: %d tables", fuzz_seed_catalog(), ntables);
	sqlite3_close(db);
}

/* ---- the program ----------------------------------------------------------- */

struct program {
	const uint8_t *p, *end;
};

static unsigned next(struct program *pr)
{
	return pr->p < pr->end ? *pr->p++ : 0;
}

static const char *const words[] = {
	"", "u", "k", "c", "i", "e", "t", "ANY_P", "INST_RETIRED", "INST_RETIRED:ANY_P", "ANY_P:ANY_P", "A:B",
	"x.y", "skl", "perf", "perf_raw", "int", "bool", "pmu", "config", "config1", "config2", "type",
	"exclude_user", "precise_ip", "code0", "intel_x86", "amd64", "intel_snbep_unc", "perf", "core", "uncore",
	"os", "unknown", "uncore_cha_0", "../cpu", "GenuineIntel", "AuthenticAMD", "ldlat", "period", "freq",
	"differ", "vendor_only", "corrected", "pmu-events:x86/amdzen5",
};

static const int64_t boundaries[] = {
	0, 1, -1, 2, 7, 8, 15, 16, 63, 64, 65, 127, 128, 255, 256, 257, 1000, 65535, 65536, 0x7fffffff,
	-0x7fffffff - 1, 0x80000000, 0xffffffff, 0x100000000, INT64_MAX, INT64_MIN, -2, -12, -13, -100,
};

/* The value of an edit: its SQL (?1, or an expression of the column) and
 * what ?1 is bound to. */
struct value {
	enum { NUL, INTEGER, REAL, TEXT, BLOB } type;
	int64_t integer;
	double real;
	const void *bytes;
	int n;
	const char *expr;	/* a format of the column's name: "?1", "%s + ?1" ... */
};

/* Kinds: 0 NULL, 1 a small integer, 2 any 64-bit integer, 3 a boundary,
 * 4 text of the input's bytes (NULs included), 5 a word of the catalog's,
 * 6 another row's value of the column, 7 the value plus a small integer,
 * 8 a blob, 9 a real, 10 the value with text of the input's bytes
 * appended (so that edits can make long strings). */
static void read_value(struct program *pr, struct value *v)
{
	unsigned kind = next(pr) % 11;
	memset(v, 0, sizeof(*v));
	v->expr = "?1";
	v->type = INTEGER;
	switch (kind) {
	case 0:
		v->type = NUL;
		break;
	case 1:
		v->integer = (int8_t)next(pr);
		break;
	case 2:
		for (int i = 0; i < 8; i++)
			v->integer = (int64_t)((uint64_t)v->integer | (uint64_t)next(pr) << (8 * i));
		break;
	case 3:
		v->integer = boundaries[next(pr) % (sizeof(boundaries) / sizeof(boundaries[0]))];
		break;
	case 4:
	case 8:
	case 10:
		v->type = kind == 8 ? BLOB : TEXT;
		if (kind == 10)
			v->expr = "%w || ?1";
		v->n = (int)(next(pr) % 64);
		if (v->n > pr->end - pr->p)
			v->n = (int)(pr->end - pr->p);
		v->bytes = pr->p;
		pr->p += v->n;
		break;
	case 5:
		v->type = TEXT;
		v->bytes = words[next(pr) % (sizeof(words) / sizeof(words[0]))];
		v->n = (int)strlen(v->bytes);
		break;
	case 6:
		v->expr = "(SELECT %w FROM %w LIMIT 1 OFFSET ?1)";
		v->integer = next(pr);
		break;
	case 7:
		v->expr = "%w + ?1";
		v->integer = (int8_t)next(pr);
		break;
	case 9:
		v->type = REAL;
		v->real = (int8_t)next(pr) * 0.5;
		break;
	}
}

static void bind_value(sqlite3_stmt *st, const struct value *v)
{
	switch (v->type) {
	case NUL: sqlite3_bind_null(st, 1); break;
	case INTEGER: sqlite3_bind_int64(st, 1, v->integer); break;
	case REAL: sqlite3_bind_double(st, 1, v->real); break;
	case TEXT: sqlite3_bind_text(st, 1, v->bytes, v->n, SQLITE_STATIC); break;
	case BLOB: sqlite3_bind_blob(st, 1, v->bytes, v->n, SQLITE_STATIC); break;
	}
}

static int count_rows(sqlite3 *db, const struct table *t)
{
	char *sql = sqlite3_mprintf("SELECT count(*) FROM %w", t->name);
	sqlite3_stmt *st;
	int n = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return n;
}

/* The value's SQL, for column COLUMN of T. */
static void append_value(sqlite3_str *sql, const struct value *v, const struct table *t, const char *column)
{
	sqlite3_str_appendf(sql, v->expr, column, t->name);
}

/* One edit; a statement SQLite refuses (a key taken, say) changes nothing. */
static void edit(sqlite3 *db, struct program *pr)
{
	unsigned op = next(pr) % 3;
	const struct table *t = &tables[next(pr) % (unsigned)ntables];
	unsigned row = next(pr);
	row |= next(pr) << 8;
	const char *column = t->columns[next(pr) % (unsigned)t->ncolumns];
	struct value v;
	read_value(pr, &v);
	int rows = count_rows(db, t);
	if (!rows)
		return;
	sqlite3_str *sql = sqlite3_str_new(db);
	if (op == 0) {
		sqlite3_str_appendf(sql, "UPDATE %w SET %w = ", t->name, column);
		append_value(sql, &v, t, column);
	} else if (op == 1) {
		sqlite3_str_appendf(sql, "DELETE FROM %w", t->name);
	} else {
		sqlite3_str_appendf(sql, "INSERT INTO %w SELECT ", t->name);
		for (int c = 0; c < t->ncolumns; c++) {
			sqlite3_str_appendall(sql, c ? ", " : "");
			if (strcmp(t->columns[c], column))
				sqlite3_str_appendf(sql, "%w", t->columns[c]);
			else
				append_value(sql, &v, t, column);
		}
		sqlite3_str_appendf(sql, " FROM %w", t->name);
	}
	sqlite3_str_appendf(sql, " WHERE (%s) IN (SELECT %s FROM %w LIMIT 1 OFFSET %u)", t->key, t->key, t->name,
			    row % (unsigned)rows);
	char *text = sqlite3_str_finish(sql);
	sqlite3_stmt *st = NULL;
	if (text && sqlite3_prepare_v2(db, text, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_bind_parameter_count(st))
			bind_value(st, &v);
		sqlite3_step(st);
	}
	sqlite3_finalize(st);
	sqlite3_free(text);
}

/* ---- the edited catalog, packed and used ------------------------------------ */

/* The catalog in DB, its constraints declared again, as a file
 * pmudb_open reads.  DB is not used after. */
static pmudb_t *open_copy(sqlite3 *db, struct pmudb_error *err)
{
	exec(db, declared);
	sqlite3_int64 size = 0;
	unsigned char *bytes = sqlite3_serialize(db, "main", &size, 0);
	if (!bytes)
		fuzz_fail("cannot serialize the edited catalog: %s", sqlite3_errmsg(db));
	pmudb_t *pdb = pmudb_open(fuzz_file(bytes, (size_t)size), err);
	sqlite3_free(bytes);
	return pdb;
}

/* What pack_catalog accepted, the runtime reads: the directory, each PMU
 * it names with its row (found by its name too), each event table, event
 * and alias list. */
static void check_packed(pmudb_t *db)
{
	struct pmudb_error err;
	for (int i = 0; i < db->npmus; i++) {
		struct pmu *p = catalog_pmu(db, i, &err);
		if (!p)
			fuzz_fail("the packer accepted what the runtime refuses: %s", err.message);
		if (catalog_find_pmu(db, p->name, &err) < 0)
			fuzz_fail("the packer accepted a directory where PMU %s is not found by its name", p->name);
		if (catalog_load_table(db, p, &err))
			fuzz_fail("the packer accepted what the runtime refuses: %s", err.message);
		for (int e = 0; e < p->table->nevents; e++)
			if (!catalog_event(db, p, e, &err))
				fuzz_fail("the packer accepted what the runtime refuses: %s", err.message);
		/* a name no table has: the aliases are read to look for it */
		if (catalog_find_event(db, p, "\x01", NULL, &err) == PMUDB_ERR_CATALOG)
			fuzz_fail("the packer accepted what the runtime refuses: %s", err.message);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!seed)
		load_seed();
	sqlite3 *db;
	unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)seed_size);
	if (sqlite3_open(":memory:", &db) != SQLITE_OK || !copy)
		fuzz_fail("out of memory");
	memcpy(copy, seed, (size_t)seed_size);
	if (sqlite3_deserialize(db, "main", copy, seed_size, seed_size,
				SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE))
		fuzz_fail("cannot load the seed: %s", sqlite3_errmsg(db));
	struct program pr = { data, data + size };
	for (int i = 0; i < MAX_EDITS && pr.p < pr.end; i++)
		edit(db, &pr);

	struct pmudb_error err;
	struct browse_result r;
	char *refusal = NULL;
	/* in a transaction, so that a refusal leaves the rows as they were
	 * (committed before the file is made: an in-memory database's image
	 * holds committed pages only) */
	exec(db, "BEGIN");
	if (!pack_catalog(db, true, &refusal)) {
		fuzz_note("packed");
		exec(db, "COMMIT");
		pmudb_t *pdb = open_copy(db, &err);
		if (!pdb)
			fuzz_fail("the packer accepted what the runtime refuses at open: %s", err.message);
		check_packed(pdb);
		browse(pdb, &r);
		if (r.encode_catalog)
			fuzz_fail("the packer accepted what the runtime refuses: %s", r.first_encode);
		pmudb_close(pdb);
	} else {
		fuzz_note("the packer refused: %s", refusal ? refusal : "(nothing)");
		if (!refusal || strchr(refusal, '\n'))
			fuzz_fail("the packer refused without one line: %s", refusal ? refusal : "(nothing)");
		exec(db, "ROLLBACK");
		free(refusal);
		refusal = NULL;
		/* as a careless writer packs: whatever the rows say */
		exec(db, "BEGIN");
		int packed = !pack_catalog(db, false, &refusal);
		exec(db, "COMMIT");
		pmudb_t *pdb = packed ? open_copy(db, &err) : NULL;
		if (pdb) {
			browse(pdb, &r);
			pmudb_close(pdb);
		} else if (packed && (err.code != PMUDB_ERR_CATALOG || strchr(err.message, '\n'))) {
			fuzz_fail("open refused with %d, not one line of PMUDB_ERR_CATALOG: %s", err.code, err.message);
		}
	}
	free(refusal);
	sqlite3_close(db);
	return 0;
}
