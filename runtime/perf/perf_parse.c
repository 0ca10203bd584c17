/*
 * perf_parse.c - reading what perf and people write for a raw event, into
 * the registers (pmudb_perf_parse): "0x1c2", "0x1c2,0x10001[,0x0]"
 * (config, config1, config2), perf's raw "r01c2", and perf's PMU syntax
 * "cpu/event=0xc2,umask=0x1,cmask=1,inv/u" or
 * "uncore_cha_0/event=0x35,umask=0x21,config1=0x40/", whose terms are the
 * PMU's format fields (pmudb_perf_format) or perf's own config, config1,
 * config2 (period, freq and name are perf's and change no register).
 *
 * The text is untrusted: every number is checked for range and for
 * fitting its field, every name for length, and the first fault is
 * refused in one line that names it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/errors.h"

#define BAD PMUDB_ERR_INVAL

static int parse_number(const char *s, size_t n, int base, uint64_t *v)
{
	char buf[64];
	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[0] == '-' || buf[0] == '+' || isspace((unsigned char)buf[0]))
		return -1;
	char *end;
	errno = 0;
	*v = strtoull(buf, &end, base);
	return errno || *end ? -1 : 0;
}

/* "config[,config1[,config2]]" */
static int parse_numbers(const char *text, struct pmudb_raw_event *out, struct pmudb_error *err)
{
	uint64_t *regs[] = { &out->config, &out->config1, &out->config2 };
	const char *p = text;
	for (int i = 0; i < 3; i++) {
		size_t n = strcspn(p, ",");
		if (parse_number(p, n, 0, regs[i]))
			return set_error(err, BAD, "%s: '%.*s' in '%.60s' is not a number (config[,config1[,config2]])",
					 pmudb_strerror(BAD), (int)(n > 40 ? 40 : n), p, text);
		p += n;
		if (!*p)
			return 0;
		p++;
	}
	return set_error(err, BAD, "%s: '%.60s': more than config, config1 and config2", pmudb_strerror(BAD), text);
}

/* One TERM[=VALUE] of the PMU syntax, with its format FMT. */
static int apply_term(const char *term, size_t n, const struct pmudb_perf_format *fmt, struct pmudb_raw_event *out,
		      struct pmudb_error *err)
{
	const char *eq = memchr(term, '=', n);
	size_t nlen = eq ? (size_t)(eq - term) : n;
	/* perf's terms whose value is a word, not a number: they set no
	 * register (name=MEM_LOAD_RETIRED.L3_MISS:u, name='a b') */
	static const char *const word_terms[] = { "name", "call-graph", "metric-id" };
	for (size_t i = 0; i < sizeof(word_terms) / sizeof(word_terms[0]); i++)
		if (nlen == strlen(word_terms[i]) && !strncmp(term, word_terms[i], nlen))
			return 0;
	uint64_t value = 1;
	if (eq && parse_number(eq + 1, n - nlen - 1, 0, &value))
		return set_error(err, BAD, "%s: '%.*s': the value is not a number", pmudb_strerror(BAD),
				 (int)(n > 60 ? 60 : n), term);
	static const char *const raw[] = { "config", "config1", "config2" };
	uint64_t *regs[] = { &out->config, &out->config1, &out->config2 };
	for (int i = 0; i < 3; i++)
		if (nlen == strlen(raw[i]) && !strncmp(term, raw[i], nlen)) {
			*regs[i] |= value;
			return 0;
		}
	/* perf's own terms that set no register */
	static const char *const perf_terms[] = { "period", "freq", "name", "call-graph", "stack-size",
						  "no-inherit", "inherit", "max-stack", "percore", "metric-id" };
	for (size_t i = 0; i < sizeof(perf_terms) / sizeof(perf_terms[0]); i++)
		if (nlen == strlen(perf_terms[i]) && !strncmp(term, perf_terms[i], nlen))
			return 0;
	for (int t = 0; t < fmt->count; t++) {
		const struct pmudb_format_term *f = &fmt->terms[t];
		if (nlen != strlen(f->name) || strncmp(term, f->name, nlen))
			continue;
		uint64_t bits = pmudb_format_put(f->mask, value);
		if (pmudb_format_get(f->mask, bits) != value)
			return set_error(err, BAD, "%s: '%.*s': 0x%llx does not fit %s (%d bits)", pmudb_strerror(BAD),
					 (int)(n > 60 ? 60 : n), term, (unsigned long long)value, f->name,
					 __builtin_popcountll(f->mask));
		*regs[f->field] |= bits;
		return 0;
	}
	return set_error(err, BAD, "%s: unknown term '%.*s' for PMU %s (its format: %s)", pmudb_strerror(BAD),
			 (int)(nlen > 40 ? 40 : nlen), term, out->pmu, fmt->source);
}

/* perf's modifiers after the PMU's terms: u k h H G I p... */
static int apply_modifiers(const char *mods, struct pmudb_raw_event *out, struct pmudb_error *err)
{
	if (strlen(mods) >= sizeof(out->modifiers))
		return set_error(err, BAD, "%s: modifiers '%.40s' are too long", pmudb_strerror(BAD), mods);
	for (const char *m = mods; *m; m++)
		if (!strchr("ukhHGIpPSDWe", *m))
			return set_error(err, BAD, "%s: '%c' in '%.40s' is not a perf modifier", pmudb_strerror(BAD), *m,
					 mods);
	snprintf(out->modifiers, sizeof(out->modifiers), "%s", mods);
	return 0;
}

static int parse_pmu_syntax(const char *text, const char *family, struct pmudb_raw_event *out,
			    struct pmudb_error *err)
{
	const char *slash = strchr(text, '/');
	size_t plen = (size_t)(slash - text);
	if (!plen || plen >= sizeof(out->pmu))
		return set_error(err, BAD, "%s: '%.60s': no PMU name before '/' (or too long)", pmudb_strerror(BAD), text);
	memcpy(out->pmu, text, plen);
	out->pmu[plen] = '\0';
	const char *terms = slash + 1, *close = strchr(terms, '/');
	if (!close)
		return set_error(err, BAD, "%s: '%.60s': the terms have no closing '/'", pmudb_strerror(BAD), text);
	static struct pmudb_perf_format none;	/* raw terms need no format */
	struct pmudb_perf_format fmt;
	int r = pmudb_perf_format(out->pmu, family, &fmt, err);
	if (r == PMUDB_ERR_NOTFOUND)
		fmt = none, snprintf(fmt.source, sizeof(fmt.source), "none known: use config=, config1=, config2=");
	else if (r)
		return r;
	for (const char *p = terms; p < close;) {
		size_t n = strcspn(p, ",/");
		if (!n)
			return set_error(err, BAD, "%s: '%.60s': an empty term", pmudb_strerror(BAD), text);
		if ((r = apply_term(p, n, &fmt, out, err)))
			return r;
		p += n + (p[n] == ',');
	}
	/* after the closing '/': ",config1=..." terms, then ':'-less or ':' modifiers */
	const char *rest = close + 1;
	while (*rest == ',') {
		size_t n = strcspn(rest + 1, ",:");
		if ((r = apply_term(rest + 1, n, &fmt, out, err)))
			return r;
		rest += 1 + n;
	}
	if (*rest == ':')
		rest++;
	return apply_modifiers(rest, out, err);
}

int pmudb_perf_parse(const char *text, const char *family, struct pmudb_raw_event *out, struct pmudb_error *err)
{
	if (!text || !out)
		return set_error(err, BAD, "%s: no text or result", pmudb_strerror(BAD));
	memset(out, 0, sizeof(*out));
	if (!*text || strlen(text) > 1024 || strpbrk(text, " \t\n"))
		return set_error(err, BAD, "%s: '%.60s': an empty, long or blank-holding event", pmudb_strerror(BAD),
				 text);
	if (strchr(text, '/'))
		return parse_pmu_syntax(text, family, out, err);
	if (text[0] == 'r' && isxdigit((unsigned char)text[1])) {
		size_t n = strcspn(text + 1, ":");
		if (parse_number(text + 1, n, 16, &out->config))
			return set_error(err, BAD, "%s: '%.60s': perf's raw event is r and hex digits", pmudb_strerror(BAD),
					 text);
		return text[1 + n] ? apply_modifiers(text + 2 + n, out, err) : 0;
	}
	return parse_numbers(text, out, err);
}
