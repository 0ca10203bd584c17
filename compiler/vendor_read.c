/*
 * vendor_read.c - what the readers of the vendor layouts share
 * (vendor_read.h): a vendor's file read whole, with positions for its
 * messages; a JSON event of a list read into a µarch (its fields checked, a
 * wrong one reported at the line of the event's name and the entry left
 * out); uncore entries kept as perf's terms for vendor_uncore.c; metrics
 * handed to vendor_metrics.c; the mapfiles' rows.  The JSON is parsed by
 * jansson, which reports a syntax error's line and column.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "compiler/number.h"
#include "catalog/errors.h"
#include "compiler/vendor_metrics.h"
#include "compiler/vendor_read.h"

int vendor_fail(char **error, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vendor_fail(char **error, const char *fmt, ...)
{
	if (*error)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(error, fmt, ap) < 0)
		*error = NULL;
	va_end(ap);
	/* jansson's "near" text quotes the file's bytes, a newline among them */
	if (*error)
		text_one_line(*error, strlen(*error));
	return -1;
}

/* Line and column of the first "NEEDLE" (quoted) from the last event
 * read on, else in the whole file, else 1:1; where it is, or NULL. */
const char *vendor_locate(const struct vendor_file *s, const char *needle, int *line, int *column)
{
	*line = *column = 1;
	char *quoted = xprintf("\"%s\"", needle ? needle : "");
	const char *found = needle ? strstr(s->text + s->from, quoted) : NULL;
	const char *p = s->text + s->from;
	if (found) {
		*line = s->from_line;
		*column = s->from_column;
	} else if (needle) {
		found = strstr(s->text, quoted);
		p = s->text;
	}
	free(quoted);
	for (; found && p < found; p++) {
		if (*p == '\n') {
			(*line)++;
			*column = 1;
		} else {
			(*column)++;
		}
	}
	return found;
}

void vendor_read_past(struct vendor_file *s, const char *at, int line, int column)
{
	if (!at)
		return;
	s->from = (size_t)(at - s->text) + 1;
	s->from_line = line;
	s->from_column = column + 1;
}

int vendor_fail_at(char **error, const struct vendor_file *s, const char *needle, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int vendor_fail_at(char **error, const struct vendor_file *s, const char *needle, const char *fmt, ...)
{
	int line, column;
	vendor_locate(s, needle, &line, &column);
	va_list ap;
	va_start(ap, fmt);
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	vendor_fail(error, "%s:%d:%d: %s", s->path, line, column, msg ? msg : "error");
	free(msg);
	return -1;
}

/* A vendor's file is at most this long (the largest of linux-source-6.12's
 * tree is 0.8 MB): a longer one, or /dev/zero, is refused, not read until
 * memory runs out. */
#define VENDOR_FILE_MAX ((size_t)64 << 20)

/* PATH opened for reading when it is a regular file of at most
 * VENDOR_FILE_MAX bytes (its size in *SIZE); NULL with the build's error
 * otherwise. */
FILE *vendor_open_file(const char *path, size_t *size, char **error)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		vendor_fail(error, "%s:0:0: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	struct stat sb;
	const char *why = fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode) ? "not a regular file"
			  : (uint64_t)sb.st_size > VENDOR_FILE_MAX ? "longer than 64 MB, which no vendor's list is" : NULL;
	if (!why) {
		if (size)
			*size = (size_t)sb.st_size;
		return f;
	}
	fclose(f);
	vendor_fail(error, "%s:0:0: %s", path, why);
	return NULL;
}

int vendor_file_read(struct vendor_file *s, char **error)
{
	size_t size = 0;
	FILE *f = vendor_open_file(s->path, &size, error);
	if (!f)
		return -1;
	size_t cap = size + 2;	/* room to see it has grown */
	if (!(s->text = malloc(cap))) {
		fclose(f);
		return vendor_fail(error, "%s:0:0: out of memory", s->path);
	}
	s->len = fread(s->text, 1, cap - 1, f);
	int bad = ferror(f);
	fclose(f);
	if (bad || s->len == cap - 1) {
		free(s->text);
		s->text = NULL;
		return vendor_fail(error, "%s:0:0: %s", s->path, bad ? "cannot read the file" : "it grew while it was read");
	}
	s->text[s->len] = '\0';
	return 0;
}

/* Parses the file's text; a syntax error stops the build at its position. */
json_t *vendor_file_parse(const struct vendor_file *s, char **error)
{
	json_error_t jerr;
	json_t *root = json_loadb(s->text, s->len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		vendor_fail(error, "%s:%d:%d: JSON syntax error: %s", s->path, jerr.line > 0 ? jerr.line : 1,
		     jerr.column > 0 ? jerr.column : 1, jerr.text);
	return root;
}

/* ---- one event ----------------------------------------------------------- */

const char *vendor_string_field(json_t *e, const char *key)
{
	json_t *v = json_object_get(e, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/*
 * A number as the vendor lists write them: a string, decimal or 0x hex,
 * where a list ("0x2A,0x2B") gives its first; or a JSON integer.  Absent
 * is 0.
 */
static int number_field(const struct vendor_file *s, json_t *e, const char *name, const char *key, uint64_t *out,
			char **error)
{
	*out = 0;
	json_t *v = json_object_get(e, key);
	if (!v)
		return 0;
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	const char *given = json_is_string(v) ? json_string_value(v) : NULL;
	if (!given)
		return vendor_fail_at(error, s, name, "event '%s': %s must be a string or an integer", name, key);
	/* spaces around a number are the vendor's slip, not another value
	 * (goldmont's MSRValue "0x36000032b7 ") */
	char text[128];
	given += strspn(given, " \t");
	size_t len = strlen(given);
	while (len && (given[len - 1] == ' ' || given[len - 1] == '\t'))
		len--;
	if (len >= sizeof(text))
		return vendor_fail_at(error, s, name, "event '%s': %s is too long for a number", name, key);
	memcpy(text, given, len);
	text[len] = '\0';
	if ((!strcasecmp(text, "null") || !strcasecmp(text, "na") || !strcasecmp(text, "tbd")))
		return 0;	/* Intel's placeholders for "none" */
	char *end;
	if (!number_read(text, out, &end) || (*end && *end != ','))
		return vendor_fail_at(error, s, name, "event '%s': %s '%s' is not a number (decimal or 0x hex)", name, key, text);
	return 0;
}

/*
 * A list of counters as the vendor lists write them ("0,1,2,3", "0-3",
 * "Fixed counter 1", "FIXED" for the fixed counter of an uncore box),
 * into *GENERAL and *FIXED, bit n for counter n; absent, "NA" or empty is
 * none (unknown).
 */
static int counters_field(const struct vendor_file *s, json_t *e, const char *name, const char *key, uint64_t *general,
			  uint64_t *fixed, char **error)
{
	*general = 0;
	if (fixed)
		*fixed = 0;
	json_t *v = json_object_get(e, key);
	const char *text = json_is_string(v) ? json_string_value(v) : NULL;
	if (!v || (text && (!*text || !strcasecmp(text, "na"))))
		return 0;
	if (!text)
		return vendor_fail_at(error, s, name, "event '%s': %s must be a string", name, key);
	for (const char *p = text; *p;) {
		p += strspn(p, " ");
		unsigned lo, hi;
		int n = 0;
		if (fixed && !strncasecmp(p, "fixed counter ", 14) && sscanf(p + 14, "%u%n", &lo, &n) == 1 && lo < 64) {
			*fixed |= 1ULL << lo;
			p += 14 + n;
		} else if (fixed && !strncasecmp(p, "fixed", 5) && (!p[5] || p[5] == ',')) {
			*fixed |= 1;
			p += 5;
		} else if (sscanf(p, "%u-%u%n", &lo, &hi, &n) == 2 && lo <= hi && hi < 64) {
			*general |= (hi == 63 ? ~0ULL : (1ULL << (hi + 1)) - 1) & ~((1ULL << lo) - 1);
			p += n;
		} else if (sscanf(p, "%u%n", &lo, &n) == 1 && lo < 64) {
			*general |= 1ULL << lo;
			p += n;
		} else {
			return vendor_fail_at(error, s, name, "event '%s': %s '%s' is not a list of counters", name, key, text);
		}
		p += strspn(p, " ");
		if (*p && *p++ != ',')
			return vendor_fail_at(error, s, name, "event '%s': %s '%s' is not a list of counters", name, key, text);
	}
	return 0;
}

/* What the list says of where the event may be counted. */
static int read_counters(const struct vendor_file *s, json_t *e, const char *name, struct vendor_event *v, char **error)
{
	/* perfmon writes a fixed counter's event's CounterHTOff as its
	 * Counter ("Fixed counter 1"): the same counter, SMT off or on */
	uint64_t taken_alone = 0, fixed_ht_off = 0;
	const char *type = vendor_string_field(e, "CounterType");
	v->free_running = type && !strcasecmp(type, "FREERUN");
	return counters_field(s, e, name, "Counter", &v->counters, &v->fixed_counters, error)
	       || counters_field(s, e, name, "CounterHTOff", &v->counters_ht_off, &fixed_ht_off, error)
	       || counters_field(s, e, name, "PEBScounters", &v->pebs_counters, NULL, error)
	       || number_field(s, e, name, "TakenAlone", &taken_alone, error)
	       || ((v->taken_alone = taken_alone != 0), 0);
}

/* Names are typed by users between ':' separators: nothing else may be in them. */
bool vendor_name_typable(const char *name)
{
	if (!*name || strlen(name) > 200)
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' && *p != '-')
			return false;
	return *name != '.' && name[strlen(name) - 1] != '.' && !strstr(name, "..");
}

static bool is_core_unit(const char *unit)
{
	return !unit || !strcmp(unit, "cpu_core") || !strcmp(unit, "cpu_atom") || !strcmp(unit, "cpu_lowpower");
}

void vendor_note_unit(struct vendor_uarch *u, const char *unit)
{
	for (size_t i = 0; unit && i < u->units.count; i++)
		if (!strcmp(u->units.items[i], unit))
			return;
	if (unit)
		*(char **)vec_push(&u->units) = xstrdup(unit);
}

/*
 * Intel's lists give the fixed counters' events as pseudo-encodings:
 * INST_RETIRED.ANY event 0x00 unit mask 0x01, CPU_CLK_UNHALTED.THREAD
 * and .CORE 0x00/0x02 ("Fixed counter N").  Linux 6.12 has no fixed
 * constraint for 0x0200 and one for 0x0100 on Ice Lake and later big
 * cores only, so elsewhere such an encoding lands on a general counter
 * with event select 0 (docs/fixed-counters.md).  perf replaces these
 * names by the architectural events that count the same on any counter,
 * by name, whatever the list says (tools/perf/pmu-events/jevents.py:
 * 250-264, real_event): so does pmudb, and an encoding of a vendor name
 * is what perf opens for it.  REF_TSC keeps 0x0300, which the kernel
 * places on fixed counter 2 everywhere.
 */
static void perf_fixed_form(const char *name, struct vendor_event *v)
{
	static const struct {
		const char *name;
		uint64_t code, umask, any;
	} forms[] = {
		{ "inst_retired.any", 0xc0, 0, 0 },	     { "inst_retired.any_p", 0xc0, 0, 0 },
		{ "cpu_clk_unhalted.ref", 0x00, 0x03, 0 },    { "cpu_clk_unhalted.thread", 0x3c, 0, 0 },
		{ "cpu_clk_unhalted.core", 0x3c, 0, 0 },      { "cpu_clk_unhalted.thread_any", 0x3c, 0, 1 },
	};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		if (strcasecmp(name, forms[i].name))
			continue;
		if (v->code == forms[i].code && v->umask == forms[i].umask && v->any == forms[i].any && !v->cmask
		    && !v->inv && !v->edge)
			return;
		v->perf_form = true;
		v->listed_code = v->code;
		v->listed_umask = v->umask;
		v->code = forms[i].code;
		v->umask = forms[i].umask;
		v->any = forms[i].any;
		v->cmask = v->inv = v->edge = 0;
		return;
	}
}

/* The fields that make an encoding, read into V. */
static int read_fields(const struct vendor_file *s, json_t *e, const char *name, struct vendor_event *v, char **error)
{
	uint64_t extsel = 0, deprecated = 0, pebs = 0, precise = 0;
	int r = number_field(s, e, name, "EventCode", &v->code, error)
		|| number_field(s, e, name, "ExtSel", &extsel, error)
		|| number_field(s, e, name, "UMaskExt", &v->umask_ext, error)
		|| number_field(s, e, name, "Precise", &precise, error)
		|| number_field(s, e, name, "UMask", &v->umask, error)
		|| number_field(s, e, name, "CounterMask", &v->cmask, error)
		|| number_field(s, e, name, "Invert", &v->inv, error)
		|| number_field(s, e, name, "EdgeDetect", &v->edge, error)
		|| number_field(s, e, name, "AnyThread", &v->any, error)
		|| number_field(s, e, name, "MSRIndex", &v->msr_index, error)
		|| number_field(s, e, name, "MSRValue", &v->msr_value, error)
		|| number_field(s, e, name, "PEBS", &pebs, error)
		|| number_field(s, e, name, "Deprecated", &deprecated, error);
	if (r)
		return -1;
	v->code |= extsel << 8;
	if (precise > pebs)
		pebs = precise;	/* perfmon's newer name for it */
	v->pebs = (int)(pebs > 2 ? 2 : pebs);
	v->deprecated = deprecated != 0;
	if (v->cmask > 0xff || v->inv > 1 || v->edge > 1 || v->any > 1 || v->umask > 0xff || v->umask_ext > 0xff
	    || v->code > 0xffff)
		return vendor_fail_at(error, s, name, "event '%s': a field is out of range (EventCode 0x%llx, UMask 0x%llx,"
			       " CounterMask %llu, Invert/EdgeDetect/AnyThread %llu/%llu/%llu)", name,
			       (unsigned long long)v->code, (unsigned long long)v->umask, (unsigned long long)v->cmask,
			       (unsigned long long)v->inv, (unsigned long long)v->edge, (unsigned long long)v->any);
	return 0;
}

static const char *description_of(json_t *e)
{
	const char *d = vendor_string_field(e, "BriefDescription");
	return d ? d : vendor_string_field(e, "PublicDescription");
}

/* ---- an uncore entry ----------------------------------------------------- */

static void add_term(struct vendor_event *v, const char *name, size_t len, uint64_t value)
{
	struct vendor_term *t = vec_push(&v->terms);
	t->name = strndup(name, len);
	if (!t->name)
		abort();
	t->value = value;
}

/*
 * The fields of an uncore entry as perf's terms, in the order jevents.py
 * writes them (tools/perf/pmu-events/jevents.py of Linux 6.12, JsonEvent:
 * 'config' from ConfigCode, else 'eventid' from EventidCode, else 'event'
 * from EventCode and ExtSel; then each field of its event_fields list that
 * is not 0; then the Filter's own terms as written).  SampleAfterValue is
 * a period, not an encoding, and is left out.
 */
static int read_terms(const struct vendor_file *s, json_t *e, const char *name, struct vendor_event *v, char **error)
{
	static const struct {
		const char *key, *term;
	} fields[] = {
		{ "AnyThread", "any" },	    { "PortMask", "ch_mask" },	{ "CounterMask", "cmask" },
		{ "EdgeDetect", "edge" },   { "FCMask", "fc_mask" },	{ "Invert", "inv" },
		{ "UMask", "umask" },	    { "NodeType", "type" },	{ "RdWrMask", "rdwrmask" },
		{ "EnAllCores", "enallcores" }, { "EnAllSlices", "enallslices" }, { "SliceId", "sliceid" },
		{ "ThreadMask", "threadmask" },
	};
	uint64_t value = 0, extsel = 0;
	if (json_object_get(e, "ConfigCode")) {
		if (number_field(s, e, name, "ConfigCode", &value, error))
			return -1;
		add_term(v, "config", 6, value);
	} else if (json_object_get(e, "EventidCode")) {
		if (number_field(s, e, name, "EventidCode", &value, error))
			return -1;
		add_term(v, "eventid", 7, value);
	} else {
		if (number_field(s, e, name, "EventCode", &value, error) || number_field(s, e, name, "ExtSel", &extsel, error))
			return -1;
		if (extsel > 0xff)
			return vendor_fail_at(error, s, name, "event '%s': ExtSel %llu is out of range", name,
				       (unsigned long long)extsel);
		add_term(v, "event", 5, value | extsel << 8);
	}
	v->code = v->terms.items[0].value;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (number_field(s, e, name, fields[i].key, &value, error))
			return -1;
		if (value)
			add_term(v, fields[i].term, strlen(fields[i].term), value);
	}
	json_t *filter = json_object_get(e, "Filter");
	if (filter && !json_is_string(filter))
		return vendor_fail_at(error, s, name, "event '%s': Filter must be a string", name);
	/* "filter_opc=0x191,filter_tid=0x3e", "config1=0x40040e33" */
	for (const char *p = filter ? json_string_value(filter) : ""; *p;) {
		size_t len = strcspn(p, "=,");
		char *end = NULL;
		if (!len || p[len] != '=' || !number_read(p + len + 1, &value, &end) || (*end && *end != ','))
			return vendor_fail_at(error, s, name, "event '%s': Filter '%s' is not a list of term=number", name,
				       json_string_value(filter));
		add_term(v, p, len, value);
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* Adds the uncore entry E of unit UNIT to U (vendor_uncore.c makes its PMU). */
static int read_uncore(struct vendor_file *s, struct vendor_uarch *u, json_t *e, const char *name, const char *unit,
		       char **error)
{
	struct vendor_event v = {0};
	uint64_t deprecated = 0;
	/* a quirk of one entry (UNC_H_SNOOPS_SENT. of cascadelakex) leaves
	 * that entry out, with a note where its PMU is made */
	v.untypable = !vendor_name_typable(name);
	if (!v.untypable
	    && (read_terms(s, e, name, &v, error) || number_field(s, e, name, "Deprecated", &deprecated, error)
		|| read_counters(s, e, name, &v, error))) {
		vendor_event_free(&v);
		return -1;
	}
	v.deprecated = deprecated != 0;
	const char *desc = description_of(e);
	v.name = xstrdup(name);
	v.description = xstrdup(desc ? desc : "");
	v.file = xstrdup(s->rel);
	v.unit = xstrdup(unit);
	const char *compat = vendor_string_field(e, "Compat");
	v.compat = u->system && compat ? xstrdup(compat) : NULL;
	const char *at = vendor_locate(s, name, &v.line, &v.column);
	vendor_read_past(s, at, v.line, v.column);
	*(struct vendor_event *)vec_push(&u->uncore) = v;
	return 0;
}

/* A counter.json entry: how many counters the Unit has.  A count past 64
 * is no counter mask's: refused. */
static int read_counts(struct vendor_file *s, struct vendor_uarch *u, json_t *e, char **error)
{
	const char *unit = vendor_string_field(e, "Unit");
	uint64_t generic = 0, fixed = 0;
	if (!unit)
		return vendor_fail_at(error, s, NULL, "a counter entry has no Unit");
	if (number_field(s, e, unit, "CountersNumGeneric", &generic, error)
	    || number_field(s, e, unit, "CountersNumFixed", &fixed, error))
		return -1;
	if (generic > 64 || fixed > 32)
		return vendor_fail_at(error, s, unit, "Unit '%s' states %llu general and %llu fixed counters: at most 64 and 32",
				      unit, (unsigned long long)generic, (unsigned long long)fixed);
	struct vendor_counts *c = vec_push(&u->counts);
	c->unit = xstrdup(unit);
	c->generic = (int)generic;
	c->fixed = (int)fixed;
	c->file = xstrdup(s->rel);
	int column;
	const char *at = vendor_locate(s, unit, &c->line, &column);
	vendor_read_past(s, at, c->line, column);
	return 0;
}

/*
 * Adds the event E of a list to U.  UNIT is the core type a perfmon file
 * gives all its events (NULL: the event's own "Unit").  STD holds arm64's
 * standard events by lower-case name.
 */
static int read_event(struct vendor_file *s, struct vendor_uarch *u, json_t *e, const char *unit, json_t *std,
		      char **error)
{
	if (!json_is_object(e))
		return vendor_fail_at(error, s, NULL, "an entry of the list is not a JSON object");
	if (json_object_get(e, "CountersNumGeneric") || json_object_get(e, "CountersNumFixed"))
		return read_counts(s, u, e, error);
	const char *name = vendor_string_field(e, "EventName");
	const char *arch_std = vendor_string_field(e, "ArchStdEvent");
	json_t *base = NULL;
	/* a name that is not a string is no metric (they have none): the
	 * event would be lost without a word */
	json_t *named = json_object_get(e, "EventName");
	if (named && !json_is_string(named))
		return vendor_fail_at(error, s, NULL, "an entry's EventName is not a string");
	named = json_object_get(e, "ArchStdEvent");
	if (named && !json_is_string(named))
		return vendor_fail_at(error, s, NULL, "an entry's ArchStdEvent is not a string");
	if (!name && arch_std) {
		char *lower = xstrdup(arch_std);
		for (char *p = lower; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		base = std ? json_object_get(std, lower) : NULL;
		free(lower);
		if (!base)
			return vendor_fail_at(error, s, arch_std, "ArchStdEvent '%s' is not an architecture-standard event of the tree",
				       arch_std);
		name = vendor_string_field(base, "EventName");
	}
	const char *metric = vendor_string_field(e, "MetricName");
	if (!metric && base)
		metric = vendor_string_field(base, "MetricName");
	/* a metric; an entry that is an event and a metric too (skylakex's
	 * LLC_MISSES.PCIE_READ) is both, as jevents.py takes it */
	if (metric) {
		int line, column;
		const char *at = vendor_locate(s, vendor_string_field(e, "MetricName") ? metric : arch_std, &line, &column);
		if (!name)
			vendor_read_past(s, at, line, column);
		int r = vendor_metric_read(u, e, base, s->rel, line, column, error);
		if (r || !name)
			return r;
	}
	if (!name)
		return 0;	/* neither event nor metric */
	if (!unit)
		unit = vendor_string_field(e, "Unit");
	if (!is_core_unit(unit))
		return read_uncore(s, u, e, name, unit, error);
	if (json_object_get(e, "ConfigCode") || json_object_get(e, "EventidCode"))
		return 0;	/* a core PMU's perf-only encoding: none in the lists pmudb reads */
	if (!vendor_name_typable(name))
		return vendor_fail_at(error, s, name, "event name '%s' cannot be typed (letters, digits, '_', '-' and '.' only)",
			       name);
	/* no EventCode is event 0: Intel's fixed-counter pseudo-encodings
	 * (INST_RETIRED.ANY is event 0, unit mask 1), as perf reads it */
	json_t *code_from = base ? base : e;
	struct vendor_event v = {0};
	if (read_fields(s, code_from, name, &v, error) || read_counters(s, code_from, name, &v, error))
		return -1;
	perf_fixed_form(name, &v);
	if (base && read_fields(s, e, name, &(struct vendor_event){0}, error))
		return -1;	/* an override of a standard event's fields is checked, not used */
	/* the short description first, the entry's own over the standard
	 * event's, as perf shows them */
	const char *desc = vendor_string_field(e, "BriefDescription");
	if (!desc && base)
		desc = vendor_string_field(base, "BriefDescription");
	if (!desc)
		desc = description_of(e);
	if (!desc && base)
		desc = description_of(base);
	v.name = xstrdup(name);
	v.description = xstrdup(desc ? desc : "");
	v.file = xstrdup(s->rel);
	const char *at = vendor_locate(s, arch_std && !vendor_string_field(e, "EventName") ? arch_std : name, &v.line, &v.column);
	vendor_read_past(s, at, v.line, v.column);
	v.unit = xstrdup(unit);
	vendor_note_unit(u, unit);
	*(struct vendor_event *)vec_push(&u->events) = v;
	return 0;
}

/* A perfmon file's Header "DatePublished" ("06/05/2026", month first) as
 * 2026-06-05: the date the list states; NULL where it states none. */
static char *header_date(json_t *root)
{
	const char *date = vendor_string_field(json_object_get(root, "Header"), "DatePublished");
	unsigned month, day, year;
	char rest;
	if (date && sscanf(date, "%u/%u/%u%c", &month, &day, &year, &rest) == 3 && month >= 1 && month <= 12 && day >= 1
	    && day <= 31 && year >= 1990 && year <= 9999)
		return xprintf("%04u-%02u-%02u", year, month, day);
	return NULL;
}

/* Reads every event of the JSON file PATH (REL within the tree) into U.
 * A perfmon file is an object whose "Events" is the list. */
int vendor_read_events_file(const char *path, const char *rel, struct vendor_uarch *u, const char *unit, json_t *std,
			    char **error)
{
	struct vendor_file s = { path, rel, NULL, 0, 0, 1, 1 };
	int r = vendor_file_read(&s, error);
	json_t *root = r ? NULL : vendor_file_parse(&s, error);
	/* an object without "Events" lists no events (perf's metricgroups.json) */
	json_t *list = json_is_object(root) ? json_object_get(root, "Events") : root;
	if (!u->list.date)
		u->list.date = header_date(root);
	if (root && list && !json_is_array(list))
		r = vendor_fail_at(error, &s, NULL, "expected a JSON list of events (or an object with a list \"Events\")");
	else if (!root)
		r = -1;
	size_t i;
	json_t *e;
	/* an entry that cannot be read is left out with a warning: real
	 * lists carry quirks (a stray space, a key misspelt), and one entry
	 * must not cost the rest of the list */
	if (!r)
		json_array_foreach(list, i, e)
			if (read_event(&s, u, e, unit, std, error)) {
				*(char **)vec_push(&u->warnings) = *error ? *error : xstrdup("an entry cannot be read");
				*error = NULL;
			}
	json_decref(root);
	free(s.text);
	return r;
}

/* ---- files and folders --------------------------------------------------- */

int vendor_json_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return e->d_name[0] != '.' && n > 5 && !strcmp(e->d_name + n - 5, ".json");
}

/* Reads the *.json files of folder REL of the tree, in name order. */
int vendor_read_events_dir(const char *root, const char *rel, struct vendor_uarch *u, json_t *std, char **error)
{
	char *dir = xprintf("%s/%s", root, rel);
	struct dirent **names = NULL;
	int n = scandir(dir, &names, vendor_json_file, alphasort);
	int r = n < 0 ? vendor_fail(error, "%s:0:0: cannot read the µarch folder: %s", dir, strerror(errno)) : 0;
	for (int i = 0; i < n; i++) {
		if (!r) {
			char *path = xprintf("%s/%s", dir, names[i]->d_name);
			char *file_rel = xprintf("%s/%s", rel, names[i]->d_name);
			r = vendor_read_events_file(path, file_rel, u, NULL, std, error);
			free(path);
			free(file_rel);
		}
		free(names[i]);
	}
	free(names);
	free(dir);
	return r;
}
struct vendor_uarch *vendor_uarch_named(struct model *m, const char *arch, const char *name)
{
	for (size_t i = 0; i < m->uarchs.count; i++)
		if (!strcmp(m->uarchs.items[i].name, name) && !strcmp(m->uarchs.items[i].arch, arch))
			return &m->uarchs.items[i];
	struct vendor_uarch *u = vec_push(&m->uarchs);
	u->name = xstrdup(name);
	u->arch = xstrdup(arch);
	return u;
}

/* ---- mapfiles ------------------------------------------------------------ */

/* One CSV row, split in place at ','; blank lines, comments and the header
 * give 0 fields. */
int vendor_split_row(char *line, char **fields, int max)
{
	line[strcspn(line, "\r\n")] = '\0';
	if (!line[0] || line[0] == '#' || !strncasecmp(line, "Family-model", 12))
		return 0;
	int n = 0;
	char *s = line;
	while (s && n < max)
		fields[n++] = strsep(&s, ",");
	return n;
}

bool vendor_file_exists(const char *path)
{
	struct stat sb;
	return !stat(path, &sb) && S_ISREG(sb.st_mode);
}

/* A mapfile's folder: µarch names, '/' between them (arm/cortex-a76-n1),
 * never ".." or a path from the root: the tree's own folders only. */
bool vendor_folder_name(const char *folder)
{
	char *copy = xstrdup(folder), *save = NULL;
	bool ok = *folder && *folder != '/' && folder[strlen(folder) - 1] != '/' && !strstr(folder, "//");
	for (char *part = strtok_r(copy, "/", &save); ok && part; part = strtok_r(NULL, "/", &save))
		ok = vendor_name_typable(part);
	free(copy);
	return ok;
}

bool vendor_is_folder(const char *path)
{
	struct stat sb;
	return !lstat(path, &sb) && S_ISDIR(sb.st_mode);
}

int vendor_sub_folder(const struct dirent *e)
{
	return e->d_name[0] != '.';
}


char *vendor_version(const char *text)
{
	if (!text)
		return NULL;
	text += strspn(text, " ");
	if (*text == 'v' || *text == 'V')
		text++;
	size_t len = strcspn(text, " ");
	return len ? strndup(text, len) : NULL;
}
