/*
 * kernel_formats.h - the format attributes of the kernel's uncore drivers,
 * read from the kernel source at build time (--kernel-source DIR): what
 * sysfs shows under /sys/bus/event_source/devices/PMU/format/, and so what
 * perf's terms mean (event=, umask=, thresh=, filter_tid= ...).
 *
 * A driver declares each attribute once, DEFINE_UNCORE_FORMAT_ATTR(symbol,
 * name, "config:0-7,32-35"), and lists a PMU's in an array of
 * &format_attr_SYMBOL.attr ending in NULL; tables/uncore.yaml says which
 * array (or which symbols) a kernel PMU of a µarch has.
 */
#ifndef PMUDB_COMPILER_KERNEL_FORMATS_H
#define PMUDB_COMPILER_KERNEL_FORMATS_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/model.h"

/* One bit range of a format: config word 0 (config), 1 (config1) or 2
 * (config2), bits lo..hi. */
struct kernel_range {
	int word, lo, hi;
};

#define KERNEL_FORMAT_RANGES 4

/* One format attribute, as the kernel declares it. */
struct kernel_format {
	char *name;		/* sysfs' name: "umask" */
	char *spec;		/* "config:8-15,32-55" */
	char *at;		/* FILE:LINE of its declaration, within the source */
	int nranges;
	struct kernel_range ranges[KERNEL_FORMAT_RANGES];
	int width;		/* the bits of all ranges together */
};

struct kernel_formats { struct kernel_format *items; size_t count, cap; };

/* The kernel source under a root, its files read once each. */
struct kernel_source;

struct kernel_source *kernel_source_open(const char *root);
void kernel_source_free(struct kernel_source *k);

/* Appends to OUT the formats of array ARRAY of FILE (relative to the
 * root), in the array's order; 0, or -1 with *ERROR naming the file. */
int kernel_formats_of_array(struct kernel_source *k, const char *file, const char *array, struct kernel_formats *out,
			    char **error);
/* The same for the attribute SYMBOL of FILE. */
int kernel_format_of_symbol(struct kernel_source *k, const char *file, const char *symbol, struct kernel_formats *out,
			    char **error);
void kernel_formats_free(struct kernel_formats *f);

/* Places VALUE into WORDS (config, config1, config2) as F says; false when
 * it does not fit F's width. */
bool kernel_format_place(const struct kernel_format *f, uint64_t value, uint64_t words[3]);

#endif
