/*
 * yaml_doc.h - typed access to a YAML file loaded by libyaml, with every
 * error given as "FILE:LINE:COLUMN: what is wrong".
 *
 * The table loaders (families.c, cpuid_map.c, overrides.c) describe what
 * they expect through these calls; libyaml does all the parsing and keeps
 * the position of every node, which is what the messages point at.
 */
#ifndef PMUDB_COMPILER_YAML_DOC_H
#define PMUDB_COMPILER_YAML_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

struct ydoc {
	char *path;
	yaml_document_t doc;
	bool loaded;
	char *error;		/* the first error, "FILE:LINE:COLUMN: ..." */
};

/* Loads PATH.  Returns 0, or -1 with d->error set.  Free with ydoc_free(). */
int ydoc_load(struct ydoc *d, const char *path);
void ydoc_free(struct ydoc *d);

/* Records an error at NODE (the first one wins) and returns -1. */
int ydoc_fail(struct ydoc *d, const yaml_node_t *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

yaml_node_t *ydoc_root(struct ydoc *d);
yaml_node_t *ydoc_node(struct ydoc *d, int index);

/* Fails unless NODE is a mapping whose keys are all among ALLOWED (NULL-ended). */
int ydoc_expect_mapping(struct ydoc *d, yaml_node_t *node, const char *what, const char *const *allowed);
int ydoc_expect_sequence(struct ydoc *d, yaml_node_t *node, const char *what);

/* The value under KEY in MAPPING, or NULL.  ydoc_require() fails if absent. */
yaml_node_t *ydoc_get(struct ydoc *d, yaml_node_t *mapping, const char *key);
yaml_node_t *ydoc_require(struct ydoc *d, yaml_node_t *mapping, const char *key, const char *what);

/* Scalar conversions; each fails with the node's position on a wrong type. */
int ydoc_string(struct ydoc *d, yaml_node_t *node, const char *key, char **out);
int ydoc_int(struct ydoc *d, yaml_node_t *node, const char *key, int64_t lo, int64_t hi, int64_t *out);
int ydoc_u64(struct ydoc *d, yaml_node_t *node, const char *key, uint64_t *out);
int ydoc_bool(struct ydoc *d, yaml_node_t *node, const char *key, bool *out);

/* KEY of MAPPING as a string: 0 with *out set (NULL when absent and not
 * REQUIRED), or -1 when missing or of the wrong type. */
int ydoc_field_string(struct ydoc *d, yaml_node_t *mapping, const char *key, bool required, char **out);

/* An integer, or a two-item list [lo, hi] for a range; both within [min, max]. */
int ydoc_range(struct ydoc *d, yaml_node_t *node, const char *key, int64_t min, int64_t max,
	       int64_t *lo, int64_t *hi);

#endif
