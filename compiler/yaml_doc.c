/*
 * yaml_doc.c - see yaml_doc.h.
 */
#include "compiler/yaml_doc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/number.h"
#include "compiler/model.h"
#include "catalog/errors.h"

static int fail_at(struct ydoc *d, yaml_mark_t mark, const char *fmt, va_list ap)
{
	if (d->error)
		return -1;
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	d->error = xprintf("%s:%zu:%zu: %s", d->path, mark.line + 1, mark.column + 1, msg ? msg : "error");
	/* a YAML key folded across line breaks is quoted whole */
	text_one_line(d->error, strlen(d->error));
	free(msg);
	return -1;
}

int ydoc_fail(struct ydoc *d, const yaml_node_t *node, const char *fmt, ...)
{
	yaml_mark_t mark = {0};
	if (node)
		mark = node->start_mark;
	va_list ap;
	va_start(ap, fmt);
	int r = fail_at(d, mark, fmt, ap);
	va_end(ap);
	return r;
}

static int fail_mark(struct ydoc *d, yaml_mark_t mark, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = fail_at(d, mark, fmt, ap);
	va_end(ap);
	return r;
}

/* A node named twice: a YAML alias (*name).  The tables use none, and to
 * a reader each use of one is a copy of its anchor's content, so a small
 * file could stand for a huge one: refused, at the collection that holds
 * the alias.  SEEN counts each node's mentions. */
static int mention(struct ydoc *d, unsigned char *seen, size_t n, int id, const yaml_node_t *holder)
{
	if (id < 1 || (size_t)id > n || !seen[id]++)
		return 0;
	return fail_mark(d, holder->start_mark, "a YAML alias in this %s: the tables use none (write the content out)",
			 holder->type == YAML_SEQUENCE_NODE ? "list" : "mapping");
}

static int refuse_aliases(struct ydoc *d)
{
	size_t n = (size_t)(d->doc.nodes.top - d->doc.nodes.start);
	unsigned char *seen = calloc(n + 1, 1);
	if (!seen)
		return fail_mark(d, (yaml_mark_t){0}, "out of memory");
	int r = 0;
	for (yaml_node_t *node = d->doc.nodes.start; !r && node < d->doc.nodes.top; node++) {
		if (node->type == YAML_SEQUENCE_NODE)
			for (yaml_node_item_t *it = node->data.sequence.items.start; !r && it < node->data.sequence.items.top; it++)
				r = mention(d, seen, n, *it, node);
		else if (node->type == YAML_MAPPING_NODE)
			for (yaml_node_pair_t *p = node->data.mapping.pairs.start; !r && p < node->data.mapping.pairs.top; p++)
				r = mention(d, seen, n, p->key, node) || mention(d, seen, n, p->value, node);
	}
	free(seen);
	return r;
}

int ydoc_load(struct ydoc *d, const char *path)
{
	memset(d, 0, sizeof(*d));
	d->path = xstrdup(path);
	FILE *f = fopen(path, "rb");
	if (!f) {
		d->error = xprintf("%s:0:0: cannot open: %s", path, strerror(errno));
		return -1;
	}
	yaml_parser_t parser;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	int ok = yaml_parser_load(&parser, &d->doc);
	if (!ok) {
		yaml_mark_t mark = parser.problem_mark;
		fail_mark(d, mark, "YAML syntax error: %s%s%s", parser.problem ? parser.problem : "unknown",
			  parser.context ? " " : "", parser.context ? parser.context : "");
	} else {
		d->loaded = true;
		/* a second document after '---' would be silently unread */
		yaml_document_t next;
		if (refuse_aliases(d)) {
			ok = 0;
		} else if (!yaml_parser_load(&parser, &next)) {
			ok = 0;
			fail_mark(d, parser.problem_mark, "YAML syntax error: %s", parser.problem ? parser.problem : "unknown");
		} else {
			yaml_node_t *root = yaml_document_get_root_node(&next);
			if (root) {
				ok = 0;
				fail_mark(d, root->start_mark, "a second YAML document: a table file holds one (remove the"
					  " '---' or move this to a file of its own)");
			}
			yaml_document_delete(&next);
		}
	}
	yaml_parser_delete(&parser);
	fclose(f);
	return ok ? 0 : -1;
}

void ydoc_free(struct ydoc *d)
{
	if (d->loaded)
		yaml_document_delete(&d->doc);
	free(d->path);
	free(d->error);
	memset(d, 0, sizeof(*d));
}

yaml_node_t *ydoc_root(struct ydoc *d)
{
	return yaml_document_get_root_node(&d->doc);
}

yaml_node_t *ydoc_node(struct ydoc *d, int index)
{
	return yaml_document_get_node(&d->doc, index);
}

static const char *kind_name(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE: return "a scalar";
	case YAML_SEQUENCE_NODE: return "a list";
	case YAML_MAPPING_NODE: return "a mapping";
	default: return "nothing";
	}
}

static const char *scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

int ydoc_expect_mapping(struct ydoc *d, yaml_node_t *node, const char *what, const char *const *allowed)
{
	if (!node || node->type != YAML_MAPPING_NODE)
		return ydoc_fail(d, node, "wrong type: %s must be a mapping, not %s", what,
				 node ? kind_name(node) : "nothing");
	for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
		yaml_node_t *k = ydoc_node(d, p->key);
		if (k->type != YAML_SCALAR_NODE)
			return ydoc_fail(d, k, "wrong type: keys of %s must be scalars", what);
		bool known = false;
		for (const char *const *a = allowed; *a && !known; a++)
			known = !strcmp(*a, scalar(k));
		if (!known) {
			char list[512] = "";
			for (const char *const *a = allowed; *a; a++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", a == allowed ? "" : ", ", *a);
			return ydoc_fail(d, k, "unknown key '%s' in %s (expected one of: %s)", scalar(k), what, list);
		}
		for (yaml_node_pair_t *q = node->data.mapping.pairs.start; q < p; q++)
			if (!strcmp(scalar(ydoc_node(d, q->key)), scalar(k)))
				return ydoc_fail(d, k, "duplicate key '%s' in %s", scalar(k), what);
	}
	return 0;
}

int ydoc_expect_sequence(struct ydoc *d, yaml_node_t *node, const char *what)
{
	if (!node || node->type != YAML_SEQUENCE_NODE)
		return ydoc_fail(d, node, "wrong type: %s must be a list, not %s", what,
				 node ? kind_name(node) : "nothing");
	return 0;
}

yaml_node_t *ydoc_get(struct ydoc *d, yaml_node_t *mapping, const char *key)
{
	for (yaml_node_pair_t *p = mapping->data.mapping.pairs.start; p < mapping->data.mapping.pairs.top; p++) {
		yaml_node_t *k = ydoc_node(d, p->key);
		if (k->type == YAML_SCALAR_NODE && !strcmp(scalar(k), key))
			return ydoc_node(d, p->value);
	}
	return NULL;
}

yaml_node_t *ydoc_require(struct ydoc *d, yaml_node_t *mapping, const char *key, const char *what)
{
	yaml_node_t *v = ydoc_get(d, mapping, key);
	if (!v)
		ydoc_fail(d, mapping, "missing key '%s' in %s", key, what);
	return v;
}

int ydoc_string(struct ydoc *d, yaml_node_t *node, const char *key, char **out)
{
	if (node->type != YAML_SCALAR_NODE || !*scalar(node))
		return ydoc_fail(d, node, "wrong type: '%s' must be a non-empty string, not %s", key,
				 node->type == YAML_SCALAR_NODE ? "empty" : kind_name(node));
	*out = xstrdup(scalar(node));
	return 0;
}

int ydoc_u64(struct ydoc *d, yaml_node_t *node, const char *key, uint64_t *out)
{
	if (node->type != YAML_SCALAR_NODE)
		return ydoc_fail(d, node, "wrong type: '%s' must be an integer, not %s", key, kind_name(node));
	const char *s = scalar(node);
	char *end;
	if (!number_read(s, out, &end) || *end)
		return ydoc_fail(d, node, "wrong type: '%s' must be an integer (decimal or 0x hex), not '%s'", key, s);
	return 0;
}

int ydoc_int(struct ydoc *d, yaml_node_t *node, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
	uint64_t v;
	if (ydoc_u64(d, node, key, &v))
		return -1;
	if (v > (uint64_t)INT64_MAX || (int64_t)v < lo || (int64_t)v > hi)
		return ydoc_fail(d, node, "'%s' is out of range: %s is not within %lld..%lld (0x%llx..0x%llx)", key,
				 scalar(node), (long long)lo, (long long)hi, (long long)lo, (long long)hi);
	*out = (int64_t)v;
	return 0;
}

int ydoc_bool(struct ydoc *d, yaml_node_t *node, const char *key, bool *out)
{
	const char *s = node->type == YAML_SCALAR_NODE ? scalar(node) : "";
	if (!strcasecmp(s, "true") || !strcasecmp(s, "yes"))
		*out = true;
	else if (!strcasecmp(s, "false") || !strcasecmp(s, "no"))
		*out = false;
	else
		return ydoc_fail(d, node, "wrong type: '%s' must be true or false", key);
	return 0;
}

int ydoc_range(struct ydoc *d, yaml_node_t *node, const char *key, int64_t min, int64_t max,
	       int64_t *lo, int64_t *hi)
{
	if (node->type == YAML_SCALAR_NODE) {
		if (ydoc_int(d, node, key, min, max, lo))
			return -1;
		*hi = *lo;
		return 0;
	}
	yaml_node_item_t *items = node->data.sequence.items.start;
	if (node->type != YAML_SEQUENCE_NODE || node->data.sequence.items.top - items != 2)
		return ydoc_fail(d, node, "wrong type: '%s' must be an integer or a range [low, high]", key);
	if (ydoc_int(d, ydoc_node(d, items[0]), key, min, max, lo)
	    || ydoc_int(d, ydoc_node(d, items[1]), key, min, max, hi))
		return -1;
	if (*lo > *hi)
		return ydoc_fail(d, node, "'%s' range is empty: %lld > %lld", key, (long long)*lo, (long long)*hi);
	return 0;
}

int ydoc_field_string(struct ydoc *d, yaml_node_t *mapping, const char *key, bool required, char **out)
{
	*out = NULL;
	yaml_node_t *n = ydoc_get(d, mapping, key);
	if (!n)
		return required ? ydoc_fail(d, mapping, "missing key '%s'", key) : 0;
	return ydoc_string(d, n, key, out);
}
