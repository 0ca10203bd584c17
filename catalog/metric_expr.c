/*
 * metric_expr.c - reading and computing perf's metric expressions
 * (metric_expr.h).  The scanner takes the longest token at each place, the
 * earlier kind on a tie (literal, number, identifier), as flex does with
 * expr.l's rules; the parser climbs expr.y's precedence levels.
 */
#include "catalog/metric_expr.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum token_kind { T_END, T_NUMBER, T_LITERAL, T_ID, T_KEYWORD, T_CHAR };

struct token {
	enum token_kind kind;
	const char *at;
	size_t len;
	char ch;		/* T_CHAR: the character; T_KEYWORD: see keywords[] */
};

struct parser {
	const char *text, *p;
	struct token tok;
	struct metric_expr *e;
	char *why;
	size_t whylen;
	int depth;
	bool failed;
};

static const struct { const char *word; char code; } keywords[] = {
	{ "d_ratio", 'd' }, { "max", 'M' }, { "min", 'm' }, { "if", 'i' }, { "else", 'e' },
	{ "source_count", 's' }, { "has_event", 'h' }, { "strcmp_cpuid_str", 'c' }, { "NaN", 'n' },
};

static void fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct parser *ps, const char *fmt, ...)
{
	if (ps->failed)
		return;
	ps->failed = true;
	char what[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(ps->why, ps->whylen, "%s at column %d", what, (int)(ps->tok.at - ps->text) + 1);
}

/* ---- scanning ------------------------------------------------------------ */

static bool sym_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':' || c == '@' || c == '?';
}

static size_t match_symbol(const char *p)
{
	size_t n = 0;
	for (;;) {
		if (p[n] == '\\' && (p[n + 1] == '-' || p[n + 1] == ',' || p[n + 1] == '='))
			n += 2;
		else if (sym_char(p[n]))
			n++;
		else
			return n;
	}
}

static size_t match_literal(const char *p)
{
	if (*p != '#')
		return 0;
	size_t n = 1;
	while (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '.' || p[n] == '-')
		n++;
	return n > 1 ? n : 0;
}

/* ([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)? */
static size_t match_number(const char *p)
{
	size_t digits = strspn(p, "0123456789"), n = digits;
	if (p[n] == '.') {
		size_t frac = strspn(p + n + 1, "0123456789");
		if (!digits && !frac)
			return 0;
		n += 1 + frac;
	} else if (!digits) {
		return 0;
	}
	if (p[n] == 'e') {
		size_t at = n + 1 + (p[n + 1] == '-');
		size_t exp = strspn(p + at, "0123456789");
		if (exp)
			n = at + exp;
	}
	return n;
}

static void next(struct parser *ps)
{
	const char *p = ps->p;
	for (;;) {
		size_t lit = match_literal(p), num = match_number(p), sym = match_symbol(p);
		size_t best = lit > num ? lit : num;
		best = sym > best ? sym : best;
		if (!*p) {
			ps->tok = (struct token){ T_END, p, 0, 0 };
			return;
		}
		if (best) {
			enum token_kind kind = lit == best ? T_LITERAL : num == best ? T_NUMBER : T_ID;
			ps->tok = (struct token){ kind, p, best, 0 };
			for (size_t k = 0; kind == T_ID && k < sizeof(keywords) / sizeof(keywords[0]); k++)
				if (strlen(keywords[k].word) == best && !strncmp(p, keywords[k].word, best)) {
					ps->tok.kind = T_KEYWORD;
					ps->tok.ch = keywords[k].code;
				}
			ps->p = p + best;
			return;
		}
		if (strchr("|^&<>-+*/%(),", *p)) {
			ps->tok = (struct token){ T_CHAR, p, 1, *p };
			ps->p = p + 1;
			return;
		}
		p++;	/* as expr.l's last rule: any other character is skipped */
	}
}

static bool is_char(const struct parser *ps, char c)
{
	return ps->tok.kind == T_CHAR && ps->tok.ch == c;
}

static bool is_keyword(const struct parser *ps, char code)
{
	return ps->tok.kind == T_KEYWORD && ps->tok.ch == code;
}

/* ---- the tree ------------------------------------------------------------ */

static int add_node(struct parser *ps, struct metric_node n)
{
	struct metric_expr *e = ps->e;
	if (e->count == METRIC_EXPR_NODES) {
		fail(ps, "more than %d terms", METRIC_EXPR_NODES);
		return -1;
	}
	if (e->count == e->cap) {
		int cap = e->cap ? e->cap * 2 : 16;
		struct metric_node *more = realloc(e->nodes, (size_t)cap * sizeof(*more));
		if (!more) {
			fail(ps, "out of memory");
			return -1;
		}
		e->nodes = more;
		e->cap = cap;
	}
	e->nodes[e->count] = n;
	return e->count++;
}

/* The token's text as a name, "\," read as ','. */
static int add_name(struct parser *ps, const char *at, size_t len)
{
	struct metric_expr *e = ps->e;
	if (e->names_len + len + 1 > e->names_cap) {
		size_t cap = (e->names_len + len + 1) * 2;
		char *more = realloc(e->names, cap);
		if (!more) {
			fail(ps, "out of memory");
			return -1;
		}
		e->names = more;
		e->names_cap = cap;
	}
	int offset = (int)e->names_len;
	char *out = e->names + e->names_len;
	for (size_t i = 0; i < len; i++) {
		if (at[i] == '\\' && i + 1 < len)
			i++;
		*out++ = at[i];
	}
	*out++ = '\0';
	e->names_len = (size_t)(out - e->names);
	return offset;
}

static int node(struct parser *ps, enum metric_node_kind kind, char op, int a, int b, int c)
{
	return add_node(ps, (struct metric_node){ kind, op, 0, -1, a, b, c });
}

/* ---- parsing ------------------------------------------------------------- */

static int parse_if(struct parser *ps);
static int parse_binary(struct parser *ps, int level);

static bool expect(struct parser *ps, char c)
{
	if (!is_char(ps, c)) {
		fail(ps, "expected '%c'", c);
		return false;
	}
	next(ps);
	return true;
}

/* An identifier argument of source_count, has_event, strcmp_cpuid_str. */
static int parse_query(struct parser *ps, char code)
{
	next(ps);
	if (!expect(ps, '('))
		return -1;
	if (ps->tok.kind != T_ID) {
		fail(ps, "expected an event name");
		return -1;
	}
	int name = add_name(ps, ps->tok.at, ps->tok.len);
	next(ps);
	if (name < 0 || !expect(ps, ')'))
		return -1;
	int n = node(ps, METRIC_QUERY, code, -1, -1, -1);
	if (n >= 0)
		ps->e->nodes[n].name = name;
	return n;
}

static int parse_call(struct parser *ps, char code)
{
	next(ps);
	if (!expect(ps, '('))
		return -1;
	int a = parse_binary(ps, 1);
	if (a < 0 || !expect(ps, ','))
		return -1;
	int b = parse_binary(ps, 1);
	if (b < 0 || !expect(ps, ')'))
		return -1;
	return node(ps, METRIC_CALL, code, a, b, -1);
}

static int parse_primary(struct parser *ps)
{
	if (++ps->depth > METRIC_EXPR_DEPTH) {
		fail(ps, "nested deeper than %d", METRIC_EXPR_DEPTH);
		return -1;
	}
	int n = -1;
	const struct token t = ps->tok;
	if (t.kind == T_NUMBER || is_keyword(ps, 'n')) {
		char text[64];
		errno = 0;
		double v = NAN;
		if (t.kind == T_NUMBER) {
			snprintf(text, sizeof(text), "%.*s", (int)(t.len < 63 ? t.len : 63), t.at);
			v = strtod(text, NULL);
		}
		if (errno)
			fail(ps, "number out of range");
		else
			n = add_node(ps, (struct metric_node){ METRIC_NUMBER, 0, v, -1, -1, -1, -1 });
		next(ps);
	} else if (t.kind == T_ID || t.kind == T_LITERAL) {
		int name = add_name(ps, t.at, t.len);
		n = name < 0 ? -1 : node(ps, t.kind == T_ID ? METRIC_ID : METRIC_LITERAL, 0, -1, -1, -1);
		if (n >= 0)
			ps->e->nodes[n].name = name;
		next(ps);
	} else if (is_char(ps, '-')) {
		next(ps);
		int a = parse_primary(ps);
		n = a < 0 ? -1 : node(ps, METRIC_NEGATE, '-', a, -1, -1);
	} else if (is_char(ps, '(')) {
		next(ps);
		int a = parse_if(ps);
		n = a >= 0 && expect(ps, ')') ? a : -1;
	} else if (is_keyword(ps, 'm') || is_keyword(ps, 'M') || is_keyword(ps, 'd')) {
		n = parse_call(ps, t.ch);
	} else if (is_keyword(ps, 's') || is_keyword(ps, 'h') || is_keyword(ps, 'c')) {
		n = parse_query(ps, t.ch);
	} else {
		fail(ps, t.kind == T_END ? "unexpected end" : "unexpected '%.*s'", (int)(t.len ? t.len : 1), t.at);
	}
	ps->depth--;
	return n;
}

/* The level of a binary operator (expr.y's %left lines), or 0. */
static int level_of(const struct parser *ps)
{
	if (ps->tok.kind != T_CHAR)
		return 0;
	switch (ps->tok.ch) {
	case '|': return 1;
	case '^': return 2;
	case '&': return 3;
	case '<': case '>': return 4;
	case '+': case '-': return 5;
	case '*': case '/': case '%': return 6;
	default: return 0;
	}
}

static int parse_binary(struct parser *ps, int level)
{
	int lhs = parse_primary(ps);
	while (lhs >= 0 && level_of(ps) >= level) {
		int l = level_of(ps);
		char op = ps->tok.ch;
		next(ps);
		int rhs = parse_binary(ps, l + 1);
		lhs = rhs < 0 ? -1 : node(ps, METRIC_BINARY, op, lhs, rhs, -1);
	}
	return lhs;
}

static int parse_if(struct parser *ps)
{
	if (++ps->depth > METRIC_EXPR_DEPTH) {
		fail(ps, "nested deeper than %d", METRIC_EXPR_DEPTH);
		return -1;
	}
	int n = parse_binary(ps, 1);
	if (n >= 0 && is_keyword(ps, 'i')) {
		next(ps);
		int cond = parse_binary(ps, 1);
		if (cond >= 0 && !is_keyword(ps, 'e'))
			fail(ps, "expected 'else'");
		else if (cond >= 0)
			next(ps);
		int other = cond >= 0 && !ps->failed ? parse_if(ps) : -1;
		n = other < 0 ? -1 : node(ps, METRIC_SELECT, '?', n, cond, other);
	}
	ps->depth--;
	return n;
}

int metric_expr_parse(const char *text, struct metric_expr *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof(*out));
	struct parser ps = { .text = text, .p = text, .e = out, .why = why, .whylen = whylen };
	next(&ps);
	int root = parse_if(&ps);
	if (root >= 0 && ps.tok.kind != T_END)
		fail(&ps, "unexpected '%.*s' after the expression", (int)ps.tok.len, ps.tok.at);
	if (root < 0 || ps.failed) {
		if (!ps.failed)
			fail(&ps, "cannot read");
		metric_expr_free(out);
		return -1;
	}
	out->root = root;
	return 0;
}

void metric_expr_free(struct metric_expr *e)
{
	free(e->nodes);
	free(e->names);
	memset(e, 0, sizeof(*e));
}

/* ---- computing ----------------------------------------------------------- */

static int eval(const struct metric_expr *e, int at, metric_value_fn fn, void *ctx, double *out)
{
	/* the parser made every operand before its user: indexes go down */
	const struct metric_node *n = &e->nodes[at];
	double a = 0, b = 0, c = 0;
	int r = 0;
	if (n->a >= 0 && !(r = eval(e, n->a, fn, ctx, &a)) && n->b >= 0)
		r = eval(e, n->b, fn, ctx, &b);
	if (!r && n->c >= 0)
		r = eval(e, n->c, fn, ctx, &c);
	if (r)
		return r;
	switch (n->kind) {
	case METRIC_NUMBER:
		*out = n->value;
		return 0;
	case METRIC_ID:
	case METRIC_LITERAL:
	case METRIC_QUERY:
		return fn(ctx, n, metric_expr_name(e, n), out);
	case METRIC_NEGATE:
		*out = -a;
		return 0;
	case METRIC_SELECT:
		*out = fpclassify(b) == FP_ZERO ? c : a;
		return 0;
	case METRIC_CALL:
		*out = n->op == 'm' ? (a < b ? a : b) : n->op == 'M' ? (a > b ? a : b)
		       : fpclassify(b) == FP_ZERO ? 0.0 : a / b;
		return 0;
	case METRIC_BINARY:
		switch (n->op) {
		case '|': *out = fpclassify(a) == FP_ZERO && fpclassify(b) == FP_ZERO ? 0 : 1; return 0;
		case '&': *out = fpclassify(a) != FP_ZERO && fpclassify(b) != FP_ZERO ? 1 : 0; return 0;
		case '^': *out = (fpclassify(a) == FP_ZERO) != (fpclassify(b) == FP_ZERO) ? 1 : 0; return 0;
		case '<': *out = a < b; return 0;
		case '>': *out = a > b; return 0;
		case '+': *out = a + b; return 0;
		case '-': *out = a - b; return 0;
		case '*': *out = a * b; return 0;
		case '/': *out = fpclassify(b) == FP_ZERO ? NAN : a / b; return 0;
		case '%':
			if (fpclassify(b) == FP_ZERO || !(fabs(a) < 9e18) || !(fabs(b) < 9e18) || (long long)b == 0)
				return -1;
			*out = (double)((long long)a % (long long)b);
			return 0;
		}
	}
	return -1;
}

int metric_expr_eval(const struct metric_expr *e, metric_value_fn fn, void *ctx, double *out)
{
	if (!e || e->root < 0 || e->root >= e->count)
		return -1;
	return eval(e, e->root, fn, ctx, out);
}
