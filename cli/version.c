/*
 * version.c - pmudb --version: the program's version, and what its
 * catalog was built from (the catalog's meta: libpfm's version string and
 * the fingerprint of its enumeration, which tells libpfm 4.13.0 from its
 * current source where the version string cannot, and the fingerprints
 * of the tables and the vendor lists).
 */
#include <stdio.h>

#include "cli/cli.h"

static const char *or_unknown(const char *s)
{
	return s ? s : "?";
}

int print_version(struct cli *c)
{
	printf("pmudb %s\n", PMUDB_VERSION);
	struct pmudb_error err;
	pmudb_t *db = pmudb_open(c->db_path, &err);
	if (!db) {
		fprintf(stderr, "pmudb: %s\n", err.message);
		return EXIT_USAGE;
	}
	printf("catalog: %s, schema %s\n", c->db_path ? c->db_path : "built in", or_unknown(pmudb_meta(db, "schema_version")));
	printf("  libpfm %s, enumeration fingerprint %s (%s PMUs, %s events, %s unit masks)\n", or_unknown(pmudb_meta(db, "libpfm_version")),
	       or_unknown(pmudb_meta(db, "libpfm_fingerprint")), or_unknown(pmudb_meta(db, "libpfm_pmus")),
	       or_unknown(pmudb_meta(db, "libpfm_events")), or_unknown(pmudb_meta(db, "libpfm_umasks")));
	printf("  tables fingerprint %s\n", or_unknown(pmudb_meta(db, "tables_fingerprint")));
	const char *tree = pmudb_meta(db, "vendor_tree");
	if (tree)
		printf("  vendor lists %s (%s layout), fingerprint %s\n", tree, or_unknown(pmudb_meta(db, "vendor_layout")),
		       or_unknown(pmudb_meta(db, "vendor_fingerprint")));
	else
		printf("  vendor lists: none\n");
	pmudb_close(db);
	return EXIT_GOOD;
}
