/*
 * name_encodings.c - fills a new catalog's name_encoding table (the
 * `encoding` view): for each live event, unit mask and alias of each PMU,
 * what the runtime answers for its bare string.
 *
 * The answers are the runtime's because they must equal `pmudb encode`
 * whatever the family's rules: this file asks the public API (pmudb.h) as
 * any program would, on the catalog emit.c wrote, before it is installed.
 * So the runtime reads every new catalog once, and a catalog it would
 * refuse is never installed.  The runtime reads sysfs for the kernel PMUs
 * an encoding names (their type, Arm's PMUv3 name); it is pointed at a
 * directory that cannot exist, so that a catalog is the same whichever
 * machine built it: those types stay NULL, and perf's syntax names the
 * PMUs as on a machine that has none of them.
 */
#include "compiler/name_encodings.h"

#include <assert.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/xalloc.h"
#include "pmudb.h"

/* "/dev/null/..." is no directory on any machine. */
#define NO_SYSFS "/dev/null/no-sysfs"

/* One bare string of one PMU and the runtime's answer. */
struct answer {
	sqlite3_int64 pmu_id, event_id;
	int umask_position;		/* -1: the event alone */
	char *alias;			/* "" but for an alias */
	char *string;
	int error;
	struct pmudb_encoding enc;
	char *perf;			/* NULL where perf has no syntax */
	size_t prefix;			/* of perf, the length of "PMU/" (0: no '/') */
};

struct answer_list { struct answer *items; size_t count, cap; };

/* What a PMU's encodings share (a row of name_encoding_pmu): their type,
 * kernel PMU and perf's PMU, or VARIES where type or perf's PMU differ. */
struct name_encoding_pmu {
	bool seen;
	bool varies;
	int type;
	const char *kernel_pmu, *perf_pmu;	/* into an item's encoding */
	size_t perf_pmu_len;
};

/* Each kind of bare string, ordered by entry of an event table (the rows of
 * name_encoding), then by PMU.  An event or unit mask whose name an earlier
 * one of its table or event has (libpfm's hswep_unc_ha lists
 * UNC_H_SBO0_CREDIT_OCCUPANCY twice) has no string of its own: the runtime
 * answers the first. */
static const char *const list_sql =
	"WITH live AS (SELECT id, table_id, name, row_number() OVER (PARTITION BY table_id, name ORDER BY position) AS nth "
	"              FROM event WHERE retired = 0) "
	"SELECT p.id, e.id, -1, '', p.name || '::' || e.name "
	"  FROM pmu p JOIN live e ON e.table_id = p.event_table_id WHERE e.nth = 1 "
	"UNION ALL "
	"SELECT p.id, e.id, u.position, '', p.name || '::' || e.name || ':' || u.name "
	"  FROM pmu p JOIN live e ON e.table_id = p.event_table_id JOIN umask u ON u.event_id = e.id "
	"  WHERE e.nth = 1 AND u.retired = 0 AND NOT EXISTS (SELECT 1 FROM umask d WHERE d.event_id = u.event_id "
	"        AND d.retired = 0 AND d.name = u.name AND d.position < u.position) "
	"UNION ALL "
	"SELECT p.id, a.event_id, -1, a.name, p.name || '::' || a.name "
	"  FROM pmu p JOIN event_alias a ON a.table_id = p.event_table_id "
	"ORDER BY 2, 3, 4, 1";

static int list_strings(sqlite3 *db, struct answer_list *l, char **error)
{
	sqlite3_stmt *q = NULL;
	int rc = sqlite3_prepare_v2(db, list_sql, -1, &q, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct answer *b = vec_push(l);
		b->pmu_id = sqlite3_column_int64(q, 0);
		b->event_id = sqlite3_column_int64(q, 1);
		b->umask_position = sqlite3_column_int(q, 2);
		b->alias = xstrdup((const char *)sqlite3_column_text(q, 3));
		b->string = xstrdup((const char *)sqlite3_column_text(q, 4));
		rc = SQLITE_OK;
	}
	if (rc != SQLITE_DONE)
		*error = xprintf("catalog: listing the bare strings: %s", sqlite3_errmsg(db));
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The runtime's answers.  A refusal libpfm could give (its codes, 0 to
 * -12) is an answer; any other is the catalog's fault. */
static int encode_all(const char *path, struct answer_list *l, char **error)
{
	struct pmudb_error err;
	pmudb_t *rt = pmudb_open(path, &err);
	if (!rt) {
		*error = xprintf("%s: the runtime refuses the new catalog: %s", path, err.message);
		return -1;
	}
	int r = 0;
	char perf[1024];
	for (size_t i = 0; !r && i < l->count; i++) {
		struct answer *b = &l->items[i];
		b->error = pmudb_encode(rt, b->string, NULL, &b->enc, &err);
		if (b->error < PMUDB_ERR_TOOSMALL || b->error > 0) {
			*error = xprintf("%s: the runtime refuses %s: %s", path, b->string, err.message);
			r = -1;
		} else if (!b->error && !pmudb_perf_syntax(rt, &b->enc, perf, sizeof(perf), NULL)) {
			b->perf = xstrdup(perf);
			const char *slash = strchr(perf, '/');
			b->prefix = slash ? (size_t)(slash - perf) + 1 : 0;
		}
	}
	pmudb_close(rt);
	return r;
}

/* Each PMU's shared facts, from its answers. */
static int share_by_pmu(const struct answer_list *l, struct name_encoding_pmu *pmus, size_t npmus, char **error)
{
	for (size_t i = 0; i < l->count; i++) {
		const struct answer *b = &l->items[i];
		assert(b->pmu_id > 0 && (size_t)b->pmu_id < npmus);
		struct name_encoding_pmu *p = &pmus[b->pmu_id];
		if (b->error)
			continue;
		if (!p->seen) {
			*p = (struct name_encoding_pmu){ .seen = true, .type = b->enc.type, .kernel_pmu = b->enc.sysfs_pmu,
						.perf_pmu = b->perf, .perf_pmu_len = b->prefix };
			continue;
		}
		if (strcmp(p->kernel_pmu, b->enc.sysfs_pmu)) {
			*error = xprintf("catalog: %s names kernel PMU '%s' where its PMU's other events name '%s': "
					 "the encoding view cannot hold it", b->string, b->enc.sysfs_pmu, p->kernel_pmu);
			return -1;
		}
		if (b->perf && !p->perf_pmu) {
			p->perf_pmu = b->perf;
			p->perf_pmu_len = b->prefix;
		}
		p->varies |= p->type != b->enc.type
			     || (b->perf && (!b->prefix || p->perf_pmu_len != b->prefix
					     || memcmp(p->perf_pmu, b->perf, b->prefix)));
	}
	return 0;
}

/* The row of name_encoding for B, which every PMU sharing its table gives. */
struct row {
	int error;
	bool has_type;
	int type;
	uint64_t config, config1, config2;
	const char *perf;		/* NULL: none */
};

static struct row row_of(const struct answer *b, const struct name_encoding_pmu *p)
{
	struct row r = { .error = b->error };
	if (b->error)
		return r;
	r.has_type = p->varies && b->enc.type >= 0;
	r.type = b->enc.type;
	r.config = b->enc.config;
	r.config1 = b->enc.config1;
	r.config2 = b->enc.config2;
	r.perf = b->perf ? b->perf + (p->varies ? 0 : b->prefix) : NULL;
	return r;
}

static bool same_row(const struct row *a, const struct row *b)
{
	return a->error == b->error && a->has_type == b->has_type && (!a->has_type || a->type == b->type)
	       && a->config == b->config && a->config1 == b->config1 && a->config2 == b->config2
	       && !a->perf == !b->perf && (!a->perf || !strcmp(a->perf, b->perf));
}

static bool same_entry(const struct answer *a, const struct answer *b)
{
	return a->event_id == b->event_id && a->umask_position == b->umask_position && !strcmp(a->alias, b->alias);
}

static void bind_text_or_null(sqlite3_stmt *st, int col, const char *text)
{
	if (text && text[0])
		sqlite3_bind_text(st, col, text, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

static int insert_entries(sqlite3 *db, sqlite3_stmt *ins, const struct answer_list *l,
			  const struct name_encoding_pmu *pmus, char **error)
{
	int rc = SQLITE_OK;
	for (size_t i = 0, first = 0; rc == SQLITE_OK && i < l->count; i++) {
		const struct answer *b = &l->items[i];
		struct row r = row_of(b, &pmus[b->pmu_id]);
		if (i > first && same_entry(&l->items[first], b)) {
			struct row f = row_of(&l->items[first], &pmus[l->items[first].pmu_id]);
			if (!same_row(&f, &r)) {
				*error = xprintf("catalog: %s and %s share an event table but encode differently: "
						 "the encoding view cannot hold them", l->items[first].string, b->string);
				return -1;
			}
			continue;
		}
		first = i;
		sqlite3_reset(ins);
		sqlite3_clear_bindings(ins);
		sqlite3_bind_int64(ins, 1, b->event_id);
		sqlite3_bind_int(ins, 2, b->umask_position);
		sqlite3_bind_text(ins, 3, b->alias, -1, SQLITE_STATIC);
		sqlite3_bind_int(ins, 4, r.error);
		if (!r.error) {
			if (r.has_type)
				sqlite3_bind_int(ins, 5, r.type);
			sqlite3_bind_int64(ins, 6, (sqlite3_int64)r.config);
			sqlite3_bind_int64(ins, 7, (sqlite3_int64)r.config1);
			sqlite3_bind_int64(ins, 8, (sqlite3_int64)r.config2);
			bind_text_or_null(ins, 9, r.perf);
		}
		rc = sqlite3_step(ins) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	}
	if (rc != SQLITE_OK)
		*error = xprintf("catalog: writing name_encoding: %s", sqlite3_errmsg(db));
	return rc == SQLITE_OK ? 0 : -1;
}

static int insert_pmus(sqlite3 *db, sqlite3_stmt *ins, const struct name_encoding_pmu *pmus, size_t npmus, char **error)
{
	int rc = SQLITE_OK;
	for (size_t i = 1; rc == SQLITE_OK && i < npmus; i++) {
		const struct name_encoding_pmu *p = &pmus[i];
		sqlite3_reset(ins);
		sqlite3_clear_bindings(ins);
		sqlite3_bind_int64(ins, 1, (sqlite3_int64)i);
		if (p->seen && !p->varies && p->type >= 0)
			sqlite3_bind_int(ins, 2, p->type);
		if (p->seen)
			bind_text_or_null(ins, 3, p->kernel_pmu);
		if (p->seen && !p->varies && p->perf_pmu_len)
			sqlite3_bind_text(ins, 4, p->perf_pmu, (int)p->perf_pmu_len - 1, SQLITE_STATIC);
		rc = sqlite3_step(ins) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	}
	if (rc != SQLITE_OK)
		*error = xprintf("catalog: writing name_encoding_pmu: %s", sqlite3_errmsg(db));
	return rc == SQLITE_OK ? 0 : -1;
}

static int insert_all(sqlite3 *db, const struct answer_list *l, const struct name_encoding_pmu *pmus, size_t npmus,
		      char **error)
{
	sqlite3_stmt *ins = NULL, *ins_pmu = NULL;
	/* no journal, as emit.c writes it: the file is a temporary one, and
	 * "NAME-journal" would pass the file system's limit of a 255-byte
	 * --out name's */
	int r = sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN", NULL, NULL, NULL) != SQLITE_OK
		|| sqlite3_prepare_v2(db, "INSERT INTO name_encoding VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &ins,
				      NULL) != SQLITE_OK
		|| sqlite3_prepare_v2(db, "INSERT INTO name_encoding_pmu SELECT ?, ?, ?, ? WHERE EXISTS "
				      "(SELECT 1 FROM pmu WHERE id = ?1)", -1, &ins_pmu, NULL) != SQLITE_OK;
	if (r)
		*error = xprintf("catalog: name encodings: %s", sqlite3_errmsg(db));
	r = r || insert_entries(db, ins, l, pmus, error) || insert_pmus(db, ins_pmu, pmus, npmus, error);
	sqlite3_finalize(ins);
	sqlite3_finalize(ins_pmu);
	if (!r && sqlite3_exec(db, "COMMIT; VACUUM", NULL, NULL, NULL) != SQLITE_OK) {
		*error = xprintf("catalog: name encodings: %s", sqlite3_errmsg(db));
		r = -1;
	}
	return r ? -1 : 0;
}

/* One past the highest PMU id. */
static size_t pmu_ids(sqlite3 *db)
{
	sqlite3_stmt *q = NULL;
	size_t n = 1;
	if (sqlite3_prepare_v2(db, "SELECT max(id) FROM pmu", -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW
	    && sqlite3_column_int64(q, 0) > 0)
		n = (size_t)sqlite3_column_int64(q, 0) + 1;
	sqlite3_finalize(q);
	return n;
}

int name_encodings_fill(const char *path, long *rows, char **error)
{
	struct answer_list l = {0};
	struct name_encoding_pmu *pmus = NULL;
	size_t npmus = 0;
	sqlite3 *db = NULL;
	/* the runtime's view of sysfs, for this process: it does no more */
	int r = setenv("PMUDB_SYSFS_DEVICES", NO_SYSFS, 1);
	if (r)
		*error = xprintf("catalog: cannot set PMUDB_SYSFS_DEVICES");
	if (!r && sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		*error = xprintf("%s: %s", path, sqlite3_errmsg(db));
		r = -1;
	}
	if (!r) {
		npmus = pmu_ids(db);
		pmus = calloc(npmus, sizeof(*pmus));
		if (!pmus)
			abort();
	}
	r = r || list_strings(db, &l, error) || encode_all(path, &l, error) || share_by_pmu(&l, pmus, npmus, error)
	    || insert_all(db, &l, pmus, npmus, error);
	sqlite3_close(db);
	*rows = (long)l.count;
	for (size_t i = 0; i < l.count; i++) {
		free(l.items[i].alias);
		free(l.items[i].string);
		free(l.items[i].perf);
	}
	free(l.items);
	free(pmus);
	return r;
}
