/*
 * sources.c - the vendor lists a catalog was built from (pmudb.h,
 * pmudb_vendor_lists): per µarch the list encoded, with its source,
 * version and date, and the older lists it superseded with what changed.
 * The vendor_list and list_change tables are read through SQL; a catalog
 * built without vendor lists has neither.  The catalog is untrusted: a
 * row with a NULL where none may be, a count below zero or a change of
 * another kind is refused, naming the row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"

static const char *text_at(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

/* Whether the catalog has the vendor lists' tables. */
static bool has_lists(pmudb_t *db)
{
	return catalog_has_table(db, "vendor_list");
}

/* The lists' rows are copied out before any callback: it may use the
 * handle. */
struct list_row {
	struct pmudb_vendor_list l;
	char *text[7];
};

static void free_rows(struct list_row *rows, int n)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 7; k++)
			free(rows[i].text[k]);
	free(rows);
}

int pmudb_vendor_lists(pmudb_t *db, const char *uarch, pmudb_vendor_list_fn found, void *ctx,
		       struct pmudb_error *err)
{
	if (!db || !found)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog or callback", pmudb_strerror(PMUDB_ERR_INVAL));
	pthread_mutex_lock(&db->lock);
	if (!has_lists(db)) {
		pthread_mutex_unlock(&db->lock);
		return 0;
	}
	sqlite3_stmt *st = NULL;
	/* a µarch's encoded list first (superseded_by NULL), then its older
	 * ones; µarchs in the order they were read */
	if (sqlite3_prepare_v2(catalog_sql(db),
			       "SELECT id, uarch, source, layout, file, version, date, events, uncore, metrics,"
			       " superseded_by, kept FROM vendor_list WHERE ?1 IS NULL OR uarch = ?1"
			       " OR substr(uarch, length(uarch) - length(?1)) = '/' || ?1"
			       " ORDER BY coalesce(superseded_by, id), superseded_by IS NOT NULL, id", -1, &st, NULL)
	    != SQLITE_OK) {
		int r = set_error(err, PMUDB_ERR_CATALOG, "%s: cannot read its vendor lists: %s", db->what,
				  catalog_sql_error(db));
		pthread_mutex_unlock(&db->lock);
		return r;
	}
	if (uarch)
		sqlite3_bind_text(st, 1, uarch, -1, SQLITE_STATIC);
	struct list_row *rows = NULL;
	int n = 0, r = 0, rc;
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct list_row *more = realloc(rows, (size_t)(n + 1) * sizeof(*rows));
		if (!more) {
			r = set_error(err, PMUDB_ERR_NOMEM, "%s", pmudb_strerror(PMUDB_ERR_NOMEM));
			break;
		}
		rows = more;
		struct list_row *x = &rows[n];
		memset(x, 0, sizeof(*x));
		int64_t id = sqlite3_column_int64(st, 0), counts[3], newer = sqlite3_column_int64(st, 10);
		for (int k = 0; k < 3; k++)
			counts[k] = sqlite3_column_int64(st, 7 + k);
		static const int cols[7] = { 1, 2, 3, 4, 5, 6, 11 };
		for (int k = 0; k < 7; k++)
			x->text[k] = text_at(st, cols[k]) ? strdup(text_at(st, cols[k])) : NULL;
		n++;
		bool bad = !x->text[0] || !x->text[1] || !x->text[2] || id <= 0 || id > INT32_MAX || newer < 0
			   || newer > INT32_MAX;
		for (int k = 0; k < 3; k++)
			bad |= counts[k] < 0 || counts[k] > INT32_MAX;
		if (bad) {
			r = set_error(err, PMUDB_ERR_CATALOG, "%s: vendor list row %lld is damaged", db->what, (long long)id);
			break;
		}
		x->l = (struct pmudb_vendor_list){
			.id = (int)id, .uarch = x->text[0], .source = x->text[1], .layout = x->text[2],
			.file = x->text[3], .version = x->text[4], .date = x->text[5], .events = (int)counts[0],
			.uncore = (int)counts[1], .metrics = (int)counts[2], .superseded_by = (int)newer, .kept = x->text[6],
		};
	}
	if (!r && rc != SQLITE_DONE)
		r = set_error(err, PMUDB_ERR_CATALOG, "%s: cannot read its vendor lists: %s", db->what,
			      catalog_sql_error(db));
	sqlite3_finalize(st);
	pthread_mutex_unlock(&db->lock);
	for (int i = 0; !r && i < n; i++)
		if (found(ctx, &rows[i].l))
			break;
	free_rows(rows, n);
	return r ? r : n;
}

int pmudb_list_changes(pmudb_t *db, int list_id, pmudb_list_change_fn found, void *ctx, struct pmudb_error *err)
{
	if (!db || !found)
		return set_error(err, PMUDB_ERR_INVAL, "%s: no catalog or callback", pmudb_strerror(PMUDB_ERR_INVAL));
	pthread_mutex_lock(&db->lock);
	if (!has_lists(db)) {
		pthread_mutex_unlock(&db->lock);
		return set_error(err, PMUDB_ERR_NOTFOUND, "%s: built without vendor lists: no list %d", db->what, list_id);
	}
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(catalog_sql(db),
			       "SELECT event, change, was, now FROM list_change WHERE list_id = ?1"
			       " ORDER BY event COLLATE NOCASE, rowid", -1, &st, NULL) != SQLITE_OK) {
		int r = set_error(err, PMUDB_ERR_CATALOG, "%s: cannot read its list changes: %s", db->what,
				  catalog_sql_error(db));
		pthread_mutex_unlock(&db->lock);
		return r;
	}
	sqlite3_bind_int(st, 1, list_id);
	struct change_row { struct pmudb_list_change c; char *text[4]; } *rows = NULL;
	int n = 0, r = 0, rc;
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct change_row *more = realloc(rows, (size_t)(n + 1) * sizeof(*rows));
		if (!more) {
			r = set_error(err, PMUDB_ERR_NOMEM, "%s", pmudb_strerror(PMUDB_ERR_NOMEM));
			break;
		}
		rows = more;
		struct change_row *x = &rows[n++];
		for (int k = 0; k < 4; k++)
			x->text[k] = text_at(st, k) ? strdup(text_at(st, k)) : NULL;
		const char *kind = x->text[1];
		static const char *const kinds[] = { "added", "removed", "changed" };
		const char *known = NULL;
		for (int k = 0; kind && k < 3; k++)
			if (!strcmp(kind, kinds[k]))
				known = kinds[k];
		if (!x->text[0] || !known || (!x->text[2] && !x->text[3])) {
			r = set_error(err, PMUDB_ERR_CATALOG, "%s: a change of vendor list %d is damaged", db->what, list_id);
			break;
		}
		x->c = (struct pmudb_list_change){ .event = x->text[0], .change = known, .was = x->text[2],
						   .now = x->text[3] };
	}
	if (!r && rc != SQLITE_DONE)
		r = set_error(err, PMUDB_ERR_CATALOG, "%s: cannot read its list changes: %s", db->what,
			      catalog_sql_error(db));
	sqlite3_finalize(st);
	pthread_mutex_unlock(&db->lock);
	for (int i = 0; !r && i < n; i++)
		if (found(ctx, &rows[i].c))
			break;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 4; k++)
			free(rows[i].text[k]);
	free(rows);
	return r ? r : n;
}
