/*
 * json_shape.h - the JSON shapes docs/json.md documents, read from its
 * ```shape blocks, and the check of a command's output against them.
 *
 * A shape names each object kind's keys in the order written, each with a
 * type (string, hex, number, bool, null, array<T>, object<KIND>, A|B) and
 * `always` or `optional`; a `top` line gives a command's framing (array<K>,
 * object<K>, lines<K>).  An output conforms when it parses, every object
 * in it has only documented keys, in the documented order, its `always`
 * keys, and values of their types.
 */
#ifndef PMUDB_TESTS_JSON_SHAPE_H
#define PMUDB_TESTS_JSON_SHAPE_H

struct json_shapes;

/* Reads the shape blocks of the Markdown file PATH.  NULL with a malloc'd
 * one-line *ERROR when it cannot be read or a block does not parse (an
 * unknown type, a kind used and not described, or described and unused). */
struct json_shapes *json_shapes_load(const char *path, char **error);
void json_shapes_free(struct json_shapes *s);

/* Checks OUTPUT, a command's standard output, against the top TOP
 * ("search").  NULL when it conforms, else a malloc'd one-line why.  Each
 * object kind met is remembered. */
char *json_shapes_check(struct json_shapes *s, const char *top, const char *output);

/* The object kinds no check has met, but for those named in EXCUSED (a
 * NULL-ended list): a malloc'd comma-separated list, or NULL when none. */
char *json_shapes_unmet(const struct json_shapes *s, const char *const *excused);

#endif
