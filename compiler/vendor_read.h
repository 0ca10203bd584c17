/*
 * vendor_read.h - what the readers of the vendor layouts share
 * (vendor_read.c): a vendor's file read whole with positions for its
 * messages, its JSON events read into a µarch, and the mapfiles' rows.
 * The layouts are siblings, each in its own file: vendor_kernel.c (perf's
 * pmu-events tree), vendor_perfmon.c (Intel's perfmon repository),
 * vendor_armdata.c (ARM-software/data).  Each fills a model's µarchs with
 * their list's version and date; vendor_newest.c decides which list of a
 * µarch is encoded.
 */
#ifndef PMUDB_COMPILER_VENDOR_READ_H
#define PMUDB_COMPILER_VENDOR_READ_H

#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "compiler/model.h"

/* One JSON file being read, for error positions. */
struct vendor_file {
	const char *path;	/* as given, for messages */
	const char *rel;	/* relative to the tree, stored in the catalog */
	char *text;
	size_t len;
	/* just past where the last event read was named, and its line and
	 * column: the next event is named after it (a name listed twice is
	 * found where it is listed again), and lines are counted on from
	 * there, not from the top for every event */
	size_t from;
	int from_line, from_column;
};

/* Sets *ERROR (unless set already) to the message, on one line; -1. */
int vendor_fail(char **error, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same, "PATH:LINE:COLUMN: " before it, at the first "NEEDLE". */
int vendor_fail_at(char **error, const struct vendor_file *s, const char *needle, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Line and column of the first "NEEDLE" (quoted) from the last event
 * read on, else in the whole file, else 1:1; where it is, or NULL. */
const char *vendor_locate(const struct vendor_file *s, const char *needle, int *line, int *column);
/* Reads on past AT (where vendor_locate found an entry's name, at LINE:
 * COLUMN; NULL: nothing): the next entry is looked for after it, past its
 * opening quote, as the same name may come again. */
void vendor_read_past(struct vendor_file *s, const char *at, int line, int column);

/* PATH opened when it is a regular file no longer than any vendor's list. */
FILE *vendor_open_file(const char *path, size_t *size, char **error);
int vendor_file_read(struct vendor_file *s, char **error);
json_t *vendor_file_parse(const struct vendor_file *s, char **error);
const char *vendor_string_field(json_t *e, const char *key);

/* Names are typed by users between ':' separators: nothing else may be in them. */
bool vendor_name_typable(const char *name);
void vendor_note_unit(struct vendor_uarch *u, const char *unit);

/* Every event of the JSON file PATH (REL within the tree) into U; UNIT the
 * core type a perfmon file gives all its events; STD arm64's standard
 * events.  A perfmon file's Header dates U's list where nothing has.  An entry that cannot be read is left out, with a warning in
 * U->warnings; a file that cannot be read or parsed fails. */
int vendor_read_events_file(const char *path, const char *rel, struct vendor_uarch *u, const char *unit, json_t *std,
			    char **error);
/* The *.json files of folder REL of the tree, in name order. */
int vendor_read_events_dir(const char *root, const char *rel, struct vendor_uarch *u, json_t *std, char **error);
int vendor_json_file(const struct dirent *e);

/* The µarch ARCH/NAME of M, added when new. */
struct vendor_uarch *vendor_uarch_named(struct model *m, const char *arch, const char *name);

/* One CSV row, split in place at ','; blank lines, comments and the header
 * give 0 fields. */
int vendor_split_row(char *line, char **fields, int max);
bool vendor_file_exists(const char *path);
bool vendor_is_folder(const char *path);
int vendor_sub_folder(const struct dirent *e);
/* A mapfile's folder: µarch names, '/' between them, never ".." or a
 * path from the root. */
bool vendor_folder_name(const char *folder);
/* "V1.20", "v1.02" as "1.20", "1.02"; NULL for none. */
char *vendor_version(const char *text);

/* The layouts. */
int vendor_kernel_read(struct model *m, const char *root, char **error);
int vendor_perfmon_read(struct model *m, const char *root, char **error);
int vendor_armdata_read(struct model *m, const char *root, char **error);

#endif
