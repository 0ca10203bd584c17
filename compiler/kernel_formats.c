/*
 * kernel_formats.c - reads the uncore drivers' format attributes from the
 * kernel source (kernel_formats.h).  The C forms the drivers write them in
 * are read, and nothing else of C:
 *   DEFINE_UNCORE_FORMAT_ATTR(umask_ext4, umask, "config:8-15,32-55");
 *   PMU_FORMAT_ATTR(axi_id, "config1:0-15");      (the symbol is the name)
 *   static struct attribute *spr_uncore_raw_formats_attr[] = {
 *           &format_attr_event.attr, &format_attr_umask_ext4.attr, ..., NULL, };
 * and, as array items, the drivers of drivers/perf that declare an
 * attribute in place with a macro of their own:
 *   HISI_PMU_FORMAT_ATTR(event, "config:0-4"),       (NAME, "SPEC")
 *   CMN_FORMAT_ATTR(eventid, CMN_CONFIG_EVENTID),    (NAME, FIELD): config
 *   _CMN_FORMAT_ATTR(wp_val, 1, CMN_CONFIG1_WP_VAL), (NAME, WORD, FIELD)
 * where FIELD is a #define of the same file, GENMASK_ULL(HI, LO) or
 * BIT_ULL(N) (or GENMASK, BIT), the bits that arm-cmn.c's show function
 * prints as "config:16-26".  Anything else where one is expected is
 * refused, naming the file and line.
 */
#include "compiler/kernel_formats.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A driver source is far smaller; a larger file is no driver. */
#define KERNEL_FILE_MAX (16u << 20)

struct source_file {
	char *rel, *text;
};

struct kernel_source {
	char *root;
	VEC(struct source_file) files;
};

struct kernel_source *kernel_source_open(const char *root)
{
	struct kernel_source *k = calloc(1, sizeof(*k));
	if (!k)
		abort();
	k->root = xstrdup(root);
	return k;
}

void kernel_source_free(struct kernel_source *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->files.count; i++) {
		free(k->files.items[i].rel);
		free(k->files.items[i].text);
	}
	free(k->files.items);
	free(k->root);
	free(k);
}

static const char *file_text(struct kernel_source *k, const char *rel, char **error)
{
	for (size_t i = 0; i < k->files.count; i++)
		if (!strcmp(k->files.items[i].rel, rel))
			return k->files.items[i].text;
	if (strstr(rel, "..") || rel[0] == '/') {
		*error = xprintf("%s: a kernel source file is named relative to --kernel-source, without '..'", rel);
		return NULL;
	}
	char *path = xprintf("%s/%s", k->root, rel);
	struct stat sb;
	FILE *f = NULL;
	char *text = NULL;
	if (stat(path, &sb) || !S_ISREG(sb.st_mode) || sb.st_size > KERNEL_FILE_MAX) {
		*error = xprintf("%s:0:0: %s", path, stat(path, &sb) ? strerror(errno)
						     : !S_ISREG(sb.st_mode) ? "not a regular file" : "larger than a driver");
	} else if (!(f = fopen(path, "r"))) {
		*error = xprintf("%s:0:0: %s", path, strerror(errno));
	} else {
		text = malloc((size_t)sb.st_size + 1);
		if (!text)
			abort();
		size_t n = fread(text, 1, (size_t)sb.st_size, f);
		if (ferror(f) || n != (size_t)sb.st_size) {
			*error = xprintf("%s:0:0: cannot read the file", path);
			free(text);
			text = NULL;
		} else {
			text[n] = '\0';
			if (strlen(text) != n) {
				*error = xprintf("%s:0:0: a NUL byte: not C source", path);
				free(text);
				text = NULL;
			}
		}
		fclose(f);
	}
	free(path);
	if (!text)
		return NULL;
	struct source_file *sf = vec_push(&k->files);
	sf->rel = xstrdup(rel);
	sf->text = text;
	return text;
}

static int line_of(const char *text, const char *at)
{
	int line = 1;
	for (const char *p = text; p < at; p++)
		line += *p == '\n';
	return line;
}

/* Past blanks and comments. */
static const char *skip_blanks(const char *p)
{
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		const char *end = !strncmp(p, "/*", 2) ? strstr(p + 2, "*/") : NULL;
		if (!end)
			return p;
		p = end + 2;
	}
}

/* An identifier at P, into OUT (up to N - 1 bytes); its end, or NULL. */
static const char *identifier(const char *p, char *out, size_t n)
{
	size_t len = 0;
	while (isalnum((unsigned char)p[len]) || p[len] == '_')
		len++;
	if (!len || len >= n)
		return NULL;
	memcpy(out, p, len);
	out[len] = '\0';
	return p + len;
}

/* "config1:0-7,32" into F's ranges; false when it is not such a spec. */
static bool parse_spec(const char *spec, struct kernel_format *f)
{
	int word = -1, used = 0;
	if (!strncmp(spec, "config:", 7))
		word = 0, used = 7;
	else if (!strncmp(spec, "config1:", 8))
		word = 1, used = 8;
	else if (!strncmp(spec, "config2:", 8))
		word = 2, used = 8;
	if (word < 0)
		return false;
	f->nranges = 0;
	f->width = 0;
	for (const char *p = spec + used; *p;) {
		int lo, hi, n = 0;
		if (sscanf(p, "%d-%d%n", &lo, &hi, &n) == 2) {
		} else if (sscanf(p, "%d%n", &lo, &n) == 1) {
			hi = lo;
		} else {
			return false;
		}
		if (lo < 0 || hi > 63 || lo > hi || f->nranges == KERNEL_FORMAT_RANGES)
			return false;
		f->ranges[f->nranges++] = (struct kernel_range){ word, lo, hi };
		f->width += hi - lo + 1;
		p += n;
		if (*p == ',')
			p++;
		else if (*p)
			return false;
	}
	return f->nranges > 0;
}

/* Adds format NAME of SPEC, declared at AT of FILE, to OUT; -1 with
 * *ERROR when SPEC is not one. */
static int add_format(struct kernel_source *k, const char *file, const char *text, const char *at, const char *name,
		      const char *spec, struct kernel_formats *out, char **error)
{
	struct kernel_format f = {0};
	if (!parse_spec(spec, &f)) {
		*error = xprintf("%s/%s:%d: format '%s' is not config[12]:BITS[,BITS] (up to %d ranges)", k->root, file,
				 line_of(text, at), spec, KERNEL_FORMAT_RANGES);
		return -1;
	}
	f.name = xstrdup(name);
	f.spec = xstrdup(spec);
	f.at = xprintf("%s:%d", file, line_of(text, at));
	*(struct kernel_format *)vec_push(out) = f;
	return 0;
}

int kernel_format_of_symbol(struct kernel_source *k, const char *file, const char *symbol, struct kernel_formats *out,
			    char **error)
{
	const char *text = file_text(k, file, error);
	if (!text)
		return -1;
	/* DEFINE_UNCORE_FORMAT_ATTR(symbol, name, "spec"), or the generic
	 * PMU_FORMAT_ATTR(name, "spec") whose symbol is its name */
	static const char *const macros[] = { "DEFINE_UNCORE_FORMAT_ATTR(", "PMU_FORMAT_ATTR(" };
	for (size_t m = 0; m < 2; m++) {
		size_t mlen = strlen(macros[m]);
		for (const char *p = strstr(text, macros[m]); p; p = strstr(p + 1, macros[m])) {
			char sym[128], name[128], spec[256];
			if (m == 1 && p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
				continue;	/* HISI_PMU_FORMAT_ATTR, not this one */
			const char *q = identifier(skip_blanks(p + mlen), sym, sizeof(sym));
			if (!q || strcmp(sym, symbol))
				continue;
			q = skip_blanks(q);
			if (m == 0)
				q = *q == ',' ? identifier(skip_blanks(q + 1), name, sizeof(name)) : NULL;
			else
				snprintf(name, sizeof(name), "%s", sym);
			q = q ? skip_blanks(q) : NULL;
			q = q && *q == ',' ? skip_blanks(q + 1) : NULL;
			const char *close = q && *q == '"' ? strchr(q + 1, '"') : NULL;
			if (!close || (size_t)(close - q - 1) >= sizeof(spec)) {
				*error = xprintf("%s/%s:%d: %s%s, ...) is not (%s\"spec\")", k->root, file,
						 line_of(text, p), macros[m], symbol, m == 0 ? "symbol, name, " : "name, ");
				return -1;
			}
			memcpy(spec, q + 1, (size_t)(close - q - 1));
			spec[close - q - 1] = '\0';
			return add_format(k, file, text, p, name, spec, out, error);
		}
	}
	*error = xprintf("%s/%s:0:0: no DEFINE_UNCORE_FORMAT_ATTR(%s, ...) nor PMU_FORMAT_ATTR(%s, ...)", k->root, file,
			 symbol, symbol);
	return -1;
}

/* The bits of FIELD, a #define of TEXT as GENMASK_ULL(HI, LO) or
 * BIT_ULL(N), as "LO-HI" (or "N"); false when it is not one. */
static bool field_bits(const char *text, const char *field, char *out, size_t n)
{
	for (const char *p = strstr(text, "#define"); p; p = strstr(p + 1, "#define")) {
		char name[128], mac[32];
		const char *q = identifier(skip_blanks(p + 7), name, sizeof(name));
		if (!q || strcmp(name, field))
			continue;
		q = identifier(skip_blanks(q), mac, sizeof(mac));
		q = q ? skip_blanks(q) : NULL;
		if (!q || *q != '(')
			return false;
		int hi, lo, used = 0;
		if ((!strcmp(mac, "GENMASK_ULL") || !strcmp(mac, "GENMASK"))
		    && sscanf(q, "( %d , %d )%n", &hi, &lo, &used) == 2 && used && lo >= 0 && lo <= hi && hi < 64)
			return (size_t)snprintf(out, n, "%d-%d", lo, hi) < n;
		if ((!strcmp(mac, "BIT_ULL") || !strcmp(mac, "BIT")) && sscanf(q, "( %d )%n", &lo, &used) == 1 && used
		    && lo >= 0 && lo < 64)
			return (size_t)snprintf(out, n, "%d", lo) < n;
		return false;
	}
	return false;
}

/*
 * An array item declared in place, at P (its macro's name, ending in
 * FORMAT_ATTR): (NAME, "SPEC"), (NAME, FIELD) or (NAME, WORD, FIELD).
 * Its end, or NULL with *ERROR.
 */
static const char *format_in_place(struct kernel_source *k, const char *file, const char *text, const char *p,
				   const char *array, struct kernel_formats *out, char **error)
{
	char mac[64], name[128], field[128], spec[256], bits[32];
	const char *q = identifier(p, mac, sizeof(mac));
	size_t mlen = q ? strlen(mac) : 0;
	q = q && mlen >= 11 && !strcmp(mac + mlen - 11, "FORMAT_ATTR") ? skip_blanks(q) : NULL;
	q = q && *q == '(' ? identifier(skip_blanks(q + 1), name, sizeof(name)) : NULL;
	q = q ? skip_blanks(q) : NULL;
	q = q && *q == ',' ? skip_blanks(q + 1) : NULL;
	int word = 0, used = 0;
	const char *close = NULL;
	if (q && *q == '"') {
		close = strchr(q + 1, '"');
		if (close && (size_t)(close - q - 1) < sizeof(spec)) {
			memcpy(spec, q + 1, (size_t)(close - q - 1));
			spec[close - q - 1] = '\0';
			q = skip_blanks(close + 1);
		} else {
			q = NULL;
		}
	} else if (q) {
		if (isdigit((unsigned char)*q) && sscanf(q, "%d ,%n", &word, &used) == 1 && used && word >= 0 && word <= 2)
			q = skip_blanks(q + used);
		q = identifier(q, field, sizeof(field));
		if (q && field_bits(text, field, bits, sizeof(bits)))
			snprintf(spec, sizeof(spec), "config%s:%s", word == 1 ? "1" : word == 2 ? "2" : "", bits);
		else
			q = NULL;
		q = q ? skip_blanks(q) : NULL;
	}
	if (!q || *q != ')') {
		*error = xprintf("%s/%s:%d: %s: expected &format_attr_NAME.attr, NULL, or ..._FORMAT_ATTR(NAME, \"SPEC\")"
				 " or (NAME, [WORD,] FIELD) with FIELD a #define of GENMASK_ULL or BIT_ULL", k->root,
				 file, line_of(text, p), array);
		return NULL;
	}
	return add_format(k, file, text, p, name, spec, out, error) ? NULL : q + 1;
}

int kernel_formats_of_array(struct kernel_source *k, const char *file, const char *array, struct kernel_formats *out,
			    char **error)
{
	const char *text = file_text(k, file, error);
	if (!text)
		return -1;
	char *head = xprintf("*%s[]", array);
	const char *p = strstr(text, head);
	free(head);
	const char *eq = p ? skip_blanks(p + strlen(array) + 3) : NULL;
	const char *open = eq && *eq == '=' ? skip_blanks(eq + 1) : NULL;
	if (!open || *open != '{') {
		*error = xprintf("%s/%s:0:0: no array 'struct attribute *%s[] = {'", k->root, file, array);
		return -1;
	}
	static const char item[] = "&format_attr_";
	for (const char *q = skip_blanks(open + 1);; q = skip_blanks(q)) {
		char sym[128];
		if (!strncmp(q, "NULL", 4))
			return 0;
		if (isupper((unsigned char)*q) || *q == '_') {
			q = format_in_place(k, file, text, q, array, out, error);
			if (!q)
				return -1;
			q = skip_blanks(q);
			if (*q == ',')
				q++;
			continue;
		}
		const char *end = !strncmp(q, item, sizeof(item) - 1) ? identifier(q + sizeof(item) - 1, sym, sizeof(sym))
								       : NULL;
		if (!end || strncmp(end, ".attr", 5)) {
			*error = xprintf("%s/%s:%d: %s: expected &format_attr_NAME.attr or NULL", k->root, file,
					 line_of(text, q), array);
			return -1;
		}
		if (kernel_format_of_symbol(k, file, sym, out, error))
			return -1;
		q = skip_blanks(end + 5);
		if (*q == ',')
			q++;
	}
}

void kernel_formats_free(struct kernel_formats *f)
{
	for (size_t i = 0; i < f->count; i++) {
		free(f->items[i].name);
		free(f->items[i].spec);
		free(f->items[i].at);
	}
	free(f->items);
	memset(f, 0, sizeof(*f));
}

bool kernel_format_place(const struct kernel_format *f, uint64_t value, uint64_t words[3])
{
	if (f->width < 64 && value >> f->width)
		return false;
	for (int i = 0; i < f->nranges; i++) {
		const struct kernel_range *r = &f->ranges[i];
		int bits = r->hi - r->lo + 1;
		uint64_t part = bits == 64 ? value : value & ((1ULL << bits) - 1);
		words[r->word] |= part << r->lo;
		value = bits == 64 ? 0 : value >> bits;
	}
	return true;
}
