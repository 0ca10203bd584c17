/*
 * metric_expr.h - the vendors' metric expressions (MetricExpr), read and
 * computed as perf reads and computes them (tools/perf/util/expr.l and
 * expr.y of linux-source-6.12): the compiler checks each one of the tree,
 * the runtime computes a metric from counts.  Both sides use this file, so
 * it lives in the catalog layer.
 *
 * The grammar, lowest binding first:
 *   if_expr := expr 'if' expr 'else' if_expr | expr
 *   expr    := expr OP expr  (OP by level: '|'; '^'; '&'; '<' '>'; '+' '-';
 *                             '*' '/' '%'; all left-associative)
 *            | '-' expr | '(' if_expr ')' | NUMBER | NaN | #LITERAL | ID
 *            | min(expr, expr) | max(expr, expr) | d_ratio(expr, expr)
 *            | source_count(ID) | has_event(ID) | strcmp_cpuid_str(ID)
 * Tokens are matched longest first, as flex matches them: "1e9" is a
 * number, "0x10" an identifier; in an identifier "\," stands for ','.
 * Characters no token takes are skipped, as perf's scanner skips them.
 */
#ifndef PMUDB_CATALOG_METRIC_EXPR_H
#define PMUDB_CATALOG_METRIC_EXPR_H

#include <stdbool.h>
#include <stddef.h>

enum metric_node_kind {
	METRIC_NUMBER,		/* value */
	METRIC_ID,		/* name: an event, or another metric */
	METRIC_LITERAL,		/* name: "#smt_on", "#num_cpus_online" ... */
	METRIC_BINARY,		/* op, a, b */
	METRIC_NEGATE,		/* a */
	METRIC_SELECT,		/* a if b else c */
	METRIC_CALL,		/* op: 'm' min, 'M' max, 'd' d_ratio; a, b */
	METRIC_QUERY,		/* op: 's' source_count, 'h' has_event, 'c' strcmp_cpuid_str; name */
};

struct metric_node {
	enum metric_node_kind kind;
	char op;
	double value;
	int name;		/* offset into metric_expr.names, or -1 */
	int a, b, c;		/* operand nodes, or -1 */
};

/* A parsed expression: its nodes, ROOT the whole. */
struct metric_expr {
	struct metric_node *nodes;
	int count, cap, root;
	char *names;		/* NUL-terminated names, one after another */
	size_t names_len, names_cap;
};

/* The deepest nesting and the most nodes read: more is refused, so that
 * parsing and computing (both recursive) stay bounded.  The vendors'
 * longest expressions have a few hundred nodes. */
#define METRIC_EXPR_DEPTH 200
#define METRIC_EXPR_NODES 4096

/* Parses TEXT into *OUT; 0, or -1 with WHY (what and where) filled. */
int metric_expr_parse(const char *text, struct metric_expr *out, char *why, size_t whylen);
void metric_expr_free(struct metric_expr *e);

static inline const char *metric_expr_name(const struct metric_expr *e, const struct metric_node *n)
{
	return e->names + n->name;
}

/* What an identifier, a literal or a query is worth: 0 with *VALUE set,
 * or non-zero (unknown: the evaluation stops with that code). */
typedef int (*metric_value_fn)(void *ctx, const struct metric_node *node, const char *name, double *value);

/* Computes E as perf does: a division by zero is NaN, d_ratio's 0, '%' by
 * zero an error (-1, as perf aborts), 'if' takes the else branch when its
 * condition is 0; '|', '&', '^' are logical.  0, or the callback's code,
 * or -1. */
int metric_expr_eval(const struct metric_expr *e, metric_value_fn fn, void *ctx, double *out);

#endif
