/*
 * json_shape.c - reads docs/json.md's shape blocks and checks a command's
 * JSON against them (see json_shape.h).  Parsing is jansson's; this file
 * owns only the walk of the documented types.
 */
#include <ctype.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/json_shape.h"
#include "tests/testlib.h"

#define MAX_KINDS 128
#define MAX_KEYS 32
#define MAX_TOPS 32

struct key {
	char *name, *type;
	bool always;
};

struct kind {
	char *name;
	struct key keys[MAX_KEYS];
	int nkeys;
	bool met, used;
};

struct top {
	char *name, *framing;	/* "array", "object" or "lines" */
	char *type;		/* what is inside the framing's <> */
};

struct json_shapes {
	struct kind kinds[MAX_KINDS];
	int nkinds;
	struct top tops[MAX_TOPS];
	int ntops;
};

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *format(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

static struct kind *find_kind(struct json_shapes *s, const char *name, size_t n)
{
	for (int i = 0; i < s->nkinds; i++)
		if (strlen(s->kinds[i].name) == n && !strncmp(s->kinds[i].name, name, n))
			return &s->kinds[i];
	return NULL;
}

/* The end of the alternative of TYPE that starts at P: the next '|' outside
 * <>, or the end. */
static const char *alternative_end(const char *p, const char *end)
{
	int depth = 0;
	for (; p < end; p++) {
		if (*p == '<')
			depth++;
		else if (*p == '>')
			depth--;
		else if (*p == '|' && !depth)
			return p;
	}
	return end;
}

static bool starts(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(end - p) >= n && !strncmp(p, word, n);
}

/* Whether TYPE (P to END) is well formed, each kind it names described;
 * marks those kinds used.  Else a why. */
static char *type_problem(struct json_shapes *s, const char *p, const char *end)
{
	while (p < end) {
		const char *a = alternative_end(p, end);
		if (starts(p, a, "array<") && a[-1] == '>') {
			char *why = type_problem(s, p + 6, a - 1);
			if (why)
				return why;
		} else if (starts(p, a, "object<") && a[-1] == '>') {
			for (const char *q = p + 7; q < a - 1;) {
				const char *k = alternative_end(q, a - 1);
				struct kind *kind = find_kind(s, q, (size_t)(k - q));
				if (!kind)
					return format("object kind '%.*s' is not described", (int)(k - q), q);
				kind->used = true;
				q = k < a - 1 ? k + 1 : k;
			}
		} else {
			static const char *const plain[] = { "string", "hex", "number", "bool", "null" };
			bool known = false;
			for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
				known |= (size_t)(a - p) == strlen(plain[i]) && !strncmp(p, plain[i], (size_t)(a - p));
			/* a kind's bare name: an object of that kind */
			struct kind *kind = known ? NULL : find_kind(s, p, (size_t)(a - p));
			if (kind)
				kind->used = true;
			else if (!known)
				return format("unknown type or undescribed object kind '%.*s'", (int)(a - p), p);
		}
		p = a < end ? a + 1 : a;
	}
	return NULL;
}

/* The next whitespace-separated word of *P, NUL-ended in place. */
static char *word(char **p)
{
	while (**p && isspace((unsigned char)**p))
		(*p)++;
	if (!**p)
		return NULL;
	char *w = *p;
	while (**p && !isspace((unsigned char)**p))
		(*p)++;
	if (**p)
		*(*p)++ = '\0';
	return w;
}

struct json_shapes *json_shapes_load(const char *path, char **error)
{
	*error = NULL;
	char *text = test_read_file(path, NULL);
	if (!text) {
		*error = format("%s: cannot read", path);
		return NULL;
	}
	struct json_shapes *s = calloc(1, sizeof(*s));
	struct kind *kind = NULL;
	bool in_block = false;
	int line = 0;
	for (char *l = text, *next; l && *l && !*error; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		line++;
		if (!strncmp(l, "```", 3)) {
			in_block = !strcmp(l, "```shape") ? true : false;
			kind = NULL;
			continue;
		}
		if (!in_block)
			continue;
		bool indented = l[0] == ' ';
		char *p = l, *first = word(&p);
		if (!first)
			continue;
		if (!indented && !strcmp(first, "top")) {
			char *name = word(&p), *framing = word(&p);
			char *open = framing ? strchr(framing, '<') : NULL;
			if (!name || !open || framing[strlen(framing) - 1] != '>' || s->ntops == MAX_TOPS) {
				*error = format("%s:%d: expected 'top NAME array<K>|object<K>|lines<K>'", path, line);
				break;
			}
			struct top *t = &s->tops[s->ntops++];
			t->name = strdup(name);
			t->framing = strndup(framing, (size_t)(open - framing));
			t->type = strndup(open + 1, strlen(open + 1) - 1);
			if (strcmp(t->framing, "array") && strcmp(t->framing, "object") && strcmp(t->framing, "lines"))
				*error = format("%s:%d: unknown framing '%s'", path, line, t->framing);
		} else if (!indented && !strcmp(first, "object")) {
			char *name = word(&p);
			if (!name || s->nkinds == MAX_KINDS || find_kind(s, name, strlen(name))) {
				*error = format("%s:%d: expected 'object KIND' of a new kind", path, line);
				break;
			}
			kind = &s->kinds[s->nkinds++];
			kind->name = strdup(name);
		} else if (indented && kind) {
			char *type = word(&p), *presence = word(&p);
			if (!type || !presence || (strcmp(presence, "always") && strcmp(presence, "optional")) ||
			    kind->nkeys == MAX_KEYS) {
				*error = format("%s:%d: expected 'KEY TYPE always|optional [comment]'", path, line);
				break;
			}
			for (int i = 0; i < kind->nkeys; i++)
				if (!strcmp(kind->keys[i].name, first))
					*error = format("%s:%d: key '%s' twice", path, line, first);
			struct key *k = &kind->keys[kind->nkeys++];
			k->name = strdup(first);
			k->type = strdup(type);
			k->always = !strcmp(presence, "always");
		} else {
			*error = format("%s:%d: a line of a shape block that is no top, object or key", path, line);
		}
	}
	free(text);
	for (int i = 0; !*error && i < s->ntops; i++) {
		char *why = type_problem(s, s->tops[i].type, s->tops[i].type + strlen(s->tops[i].type));
		if (why)
			*error = format("%s: top %s: %s", path, s->tops[i].name, why);
		free(why);
	}
	for (int i = 0; !*error && i < s->nkinds; i++)
		for (int k = 0; !*error && k < s->kinds[i].nkeys; k++) {
			const char *t = s->kinds[i].keys[k].type;
			char *why = type_problem(s, t, t + strlen(t));
			if (why)
				*error = format("%s: %s.%s: %s", path, s->kinds[i].name, s->kinds[i].keys[k].name, why);
			free(why);
		}
	for (int i = 0; !*error && i < s->nkinds; i++)
		if (!s->kinds[i].used)
			*error = format("%s: object %s is described and nothing has it", path, s->kinds[i].name);
	if (!*error && !s->ntops)
		*error = format("%s: no shape block", path);
	if (*error) {
		json_shapes_free(s);
		return NULL;
	}
	return s;
}

void json_shapes_free(struct json_shapes *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->ntops; i++) {
		free(s->tops[i].name);
		free(s->tops[i].framing);
		free(s->tops[i].type);
	}
	for (int i = 0; i < s->nkinds; i++) {
		free(s->kinds[i].name);
		for (int k = 0; k < s->kinds[i].nkeys; k++) {
			free(s->kinds[i].keys[k].name);
			free(s->kinds[i].keys[k].type);
		}
	}
	free(s);
}

static bool is_hex(json_t *v)
{
	const char *t = json_string_value(v);
	if (!t || strncmp(t, "0x", 2) || !t[2])
		return false;
	for (t += 2; *t; t++)
		if (!isdigit((unsigned char)*t) && !(*t >= 'a' && *t <= 'f'))
			return false;
	return true;
}

static char *check_value(struct json_shapes *s, const char *type, const char *end, json_t *v, const char *where);

/* V against object kind NAME (N bytes). */
static char *check_object(struct json_shapes *s, const char *name, size_t n, json_t *v, const char *where)
{
	struct kind *kind = find_kind(s, name, n);
	if (!kind)
		return format("%s: object kind '%.*s' is not described", where, (int)n, name);
	int last = -1;
	const char *key;
	json_t *value;
	json_object_foreach(v, key, value) {
		int i = 0;
		while (i < kind->nkeys && strcmp(kind->keys[i].name, key))
			i++;
		if (i == kind->nkeys)
			return format("%s: key '%s' is not in %s's documented shape", where, key, kind->name);
		if (i < last)
			return format("%s: key '%s' comes after '%s', not before it as documented", where, key,
				      kind->keys[last].name);
		last = i;
		char *inner = format("%s.%s", where, key);
		const char *t = kind->keys[i].type;
		char *why = check_value(s, t, t + strlen(t), value, inner);
		free(inner);
		if (why)
			return why;
	}
	for (int i = 0; i < kind->nkeys; i++)
		if (kind->keys[i].always && !json_object_get(v, kind->keys[i].name))
			return format("%s: key '%s' (always, in %s) is missing", where, kind->keys[i].name, kind->name);
	kind->met = true;
	return NULL;
}

/* V against TYPE (to END); WHERE names V in a why. */
static char *check_value(struct json_shapes *s, const char *type, const char *end, json_t *v, const char *where)
{
	char *best = NULL;	/* the why of the alternative of V's own JSON type */
	for (const char *p = type; p < end;) {
		const char *a = alternative_end(p, end);
		char *why = NULL;
		bool ok = false, own = false;
		if (starts(p, a, "array<")) {
			own = json_is_array(v);
			if (own) {
				size_t i;
				json_t *e;
				json_array_foreach(v, i, e) {
					char *inner = format("%s[%zu]", where, i);
					why = check_value(s, p + 6, a - 1, e, inner);
					free(inner);
					if (why)
						break;
				}
				ok = !why;
			}
		} else if (starts(p, a, "object<")) {
			own = json_is_object(v);
			for (const char *q = p + 7; own && !ok && q < a - 1;) {
				const char *k = alternative_end(q, a - 1);
				free(why);
				why = check_object(s, q, (size_t)(k - q), v, where);
				ok = !why;
				q = k < a - 1 ? k + 1 : k;
			}
		} else if (starts(p, a, "string") && a - p == 6) {
			ok = own = json_is_string(v);
		} else if (starts(p, a, "hex") && a - p == 3) {
			own = json_is_string(v);
			ok = is_hex(v);
			if (own && !ok)
				why = format("%s: \"%s\" is not a hex string (0x, lowercase digits)", where, json_string_value(v));
		} else if (starts(p, a, "number") && a - p == 6) {
			ok = own = json_is_number(v);
		} else if (starts(p, a, "bool") && a - p == 4) {
			ok = own = json_is_boolean(v);
		} else if (starts(p, a, "null") && a - p == 4) {
			ok = own = json_is_null(v);
		} else if (json_is_object(v)) {	/* a kind's bare name */
			own = true;
			why = check_object(s, p, (size_t)(a - p), v, where);
			ok = !why;
		}
		if (ok) {
			free(why);
			free(best);
			return NULL;
		}
		if (own && why && !best)
			best = why;
		else
			free(why);
		p = a < end ? a + 1 : a;
	}
	if (best)
		return best;
	char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	char *why = format("%s: %.60s is not %.*s", where, text ? text : "?", (int)(end - type), type);
	free(text);
	return why;
}

static json_t *parse(const char *text, size_t n, char **why, const char *where)
{
	json_error_t jerr;
	json_t *v = json_loadb(text, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
	if (!v)
		*why = format("%s: not JSON (%s, line %d column %d)", where, jerr.text, jerr.line, jerr.column);
	return v;
}

char *json_shapes_check(struct json_shapes *s, const char *top, const char *output)
{
	struct top *t = NULL;
	for (int i = 0; i < s->ntops; i++)
		if (!strcmp(s->tops[i].name, top))
			t = &s->tops[i];
	if (!t)
		return format("no top '%s' is documented", top);
	const char *type = t->type, *end = t->type + strlen(t->type);
	char *why = NULL;
	size_t n = strlen(output);
	if (!n || output[n - 1] != '\n')
		return format("%s: the output does not end with a newline", top);
	if (!strcmp(t->framing, "lines")) {
		int line = 0;
		for (const char *p = output; *p && !why;) {
			const char *nl = strchr(p, '\n');
			char *where = format("%s line %d", top, ++line);
			json_t *v = parse(p, (size_t)(nl - p), &why, where);
			if (v && !json_is_object(v))
				why = format("%s: not an object", where);
			if (!why)
				why = check_value(s, type, end, v, where);
			json_decref(v);
			free(where);
			p = nl + 1;
		}
		return why;
	}
	json_t *v = parse(output, n, &why, top);
	if (v) {
		char *whole = format("%s<%s>", t->framing, t->type);
		why = check_value(s, whole, whole + strlen(whole), v, top);
		free(whole);
	}
	json_decref(v);
	return why;
}

char *json_shapes_unmet(const struct json_shapes *s, const char *const *excused)
{
	char *list = NULL;
	for (int i = 0; i < s->nkinds; i++) {
		if (s->kinds[i].met)
			continue;
		bool excuse = false;
		for (const char *const *e = excused; e && *e; e++)
			excuse |= !strcmp(*e, s->kinds[i].name);
		if (excuse)
			continue;
		char *more = format("%s%s%s", list ? list : "", list ? ", " : "", s->kinds[i].name);
		free(list);
		list = more;
	}
	return list;
}
