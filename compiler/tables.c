/*
 * tables.c - finds the YAML tables, loads them all, and hands each section
 * to its loader: one section at a time across every file, in the order of
 * tables.h.
 */
#include "compiler/tables.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiler/sections.h"

static const struct {
	const char *key;
	int (*apply)(struct ydoc *d, yaml_node_t *list, struct model *m);
	enum tables_phase phase;
} sections[] = {
	{ "families", families_apply, TABLES_BEFORE_DERIVE },
	{ "vendor_pmus", vendor_pmus_apply, TABLES_BEFORE_DERIVE },
	{ "cpuid", cpuid_map_load, TABLES_BEFORE_DERIVE },
	{ "uncore_units", uncore_units_apply, TABLES_AFTER_DERIVE },
	{ "uncore_pmus", uncore_pmus_apply, TABLES_AFTER_DERIVE },
	{ "overrides", overrides_apply, TABLES_AFTER_DERIVE },
	{ "differences", differences_apply, TABLES_AFTER_DERIVE },
	{ "counters", counters_apply, TABLES_AFTER_DERIVE },
	{ "fixed_rules", fixed_rules_apply, TABLES_AFTER_DERIVE },
};
#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

struct file_list { char **items; size_t count, cap; };

static int yaml_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return e->d_name[0] != '.' && n > 5 && !strcmp(e->d_name + n - 5, ".yaml");
}

/* PATH itself, or the *.yaml files of directory PATH in name order. */
static int list_files(const char *path, struct file_list *out, char **error)
{
	struct stat sb;
	bool found = !stat(path, &sb);
	if (found && !S_ISDIR(sb.st_mode) && !S_ISREG(sb.st_mode)) {
		*error = xprintf("%s: not a regular file (a table is a YAML file)", path);
		return -1;
	}
	if (!found || !S_ISDIR(sb.st_mode)) {
		*(char **)vec_push(out) = xstrdup(path);
		return 0;	/* read, or its absence named, by the loader */
	}
	struct dirent **names = NULL;
	int n = scandir(path, &names, yaml_file, alphasort);
	if (n < 0) {
		*error = xprintf("%s: cannot read the tables directory", path);
		return -1;
	}
	int r = 0;
	for (int i = 0; i < n; i++) {
		char *file = xprintf("%s/%s", path, names[i]->d_name);
		if (!r && !stat(file, &sb) && !S_ISREG(sb.st_mode)) {
			*error = xprintf("%s: %s", file, S_ISDIR(sb.st_mode) ? "a directory, not a table file"
								       : "not a regular file (a table is a YAML file)");
			r = -1;
		}
		*(char **)vec_push(out) = file;
		free(names[i]);
	}
	free(names);
	if (!r && !n) {
		*error = xprintf("%s: no *.yaml table in this directory", path);
		r = -1;
	}
	return r;
}

/* Loads FILE and checks its top level: a mapping of known sections. */
static int load_file(struct ydoc *d, const char *file)
{
	static const char *keys[NSECTIONS + 1];
	for (size_t i = 0; i < NSECTIONS; i++)
		keys[i] = sections[i].key;
	if (ydoc_load(d, file))
		return -1;
	yaml_node_t *root = ydoc_root(d);
	if (!root)
		return 0;	/* an empty file changes nothing */
	if (ydoc_expect_mapping(d, root, "a table file", keys))
		return -1;
	for (size_t i = 0; i < NSECTIONS; i++) {
		yaml_node_t *n = ydoc_get(d, root, sections[i].key);
		char what[40];
		snprintf(what, sizeof(what), "'%s'", sections[i].key);
		if (n && ydoc_expect_sequence(d, n, what))
			return -1;
	}
	return 0;
}

struct tables {
	size_t count;
	struct ydoc *docs;
};

void tables_free(struct tables *t)
{
	for (size_t i = 0; t && i < t->count; i++)
		ydoc_free(&t->docs[i]);
	if (t)
		free(t->docs);
	free(t);
}

struct tables *tables_load(char *const *paths, int count, char **error)
{
	struct file_list files = {0};
	int r = 0;
	for (int i = 0; !r && i < count; i++)
		r = list_files(paths[i], &files, error);
	struct tables *t = calloc(1, sizeof(*t));
	if (t)
		t->docs = calloc(files.count + 1, sizeof(*t->docs));
	if (!t || !t->docs) {
		*error = xstrdup("pmudb-build: out of memory");
		r = -1;
	}
	for (size_t i = 0; !r && i < files.count; i++) {
		t->count++;
		if (load_file(&t->docs[i], files.items[i])) {
			*error = t->docs[i].error;
			t->docs[i].error = NULL;
			r = -1;
		}
	}
	/* without it every PMU would be listed as having no family */
	bool families = false;
	for (size_t i = 0; !r && i < t->count; i++)
		families |= ydoc_root(&t->docs[i]) && ydoc_get(&t->docs[i], ydoc_root(&t->docs[i]), "families");
	if (!r && !families) {
		*error = xprintf("%s%s: no table has a 'families' section (every PMU needs its encoding family:"
				 " tables/families.yaml has them)", paths[0], count > 1 ? " ..." : "");
		r = -1;
	}
	for (size_t i = 0; i < files.count; i++)
		free(files.items[i]);
	free(files.items);
	if (r) {
		tables_free(t);
		return NULL;
	}
	return t;
}

int tables_apply(struct tables *t, struct model *m, enum tables_phase phase, char **error)
{
	int r = 0;
	for (size_t s = 0; !r && s < NSECTIONS; s++)
		for (size_t i = 0; !r && sections[s].phase == phase && i < t->count; i++) {
			yaml_node_t *root = ydoc_root(&t->docs[i]);
			yaml_node_t *list = root ? ydoc_get(&t->docs[i], root, sections[s].key) : NULL;
			if (list && (r = sections[s].apply(&t->docs[i], list, m))) {
				*error = t->docs[i].error;
				t->docs[i].error = NULL;
			}
		}
	return r;
}

static void mark_with_like(struct model *m, struct pmu *p)
{
	p->derive_first = true;
	struct pmu *like = p->like ? model_find_pmu(m, p->like) : NULL;
	if (like)
		like->derive_first = true;
}

void tables_mark_derive_first(struct tables *t, struct model *m)
{
	for (size_t i = 0; i < m->pmus.count; i++)
		if (m->pmus.items[i].source)
			mark_with_like(m, &m->pmus.items[i]);
	for (size_t i = 0; i < t->count; i++) {
		struct ydoc *d = &t->docs[i];
		yaml_node_t *root = ydoc_root(d), *list = root ? ydoc_get(d, root, "overrides") : NULL;
		for (yaml_node_item_t *it = list ? list->data.sequence.items.start : NULL;
		     it && it < list->data.sequence.items.top; it++) {
			yaml_node_t *pmu = ydoc_get(d, ydoc_node(d, *it), "pmu");
			if (!pmu || pmu->type != YAML_SCALAR_NODE)
				continue;	/* refused when the overrides are applied */
			struct pmu_list found = {0};
			model_match_pmus(m, (const char *)pmu->data.scalar.value, &found);
			/* a code is checked against the widest its family's PMUs
			 * have, which reads what derive measured of them */
			bool family = ydoc_get(d, ydoc_node(d, *it), "code") != NULL;
			for (size_t k = 0; k < found.count; k++) {
				mark_with_like(m, found.items[k]);
				for (size_t q = 0; family && q < m->pmus.count; q++)
					if (m->pmus.items[q].family && found.items[k]->family
					    && !strcmp(m->pmus.items[q].family, found.items[k]->family))
						m->pmus.items[q].derive_first = true;
			}
			free(found.items);
		}
	}
}

const char *tables_path(const struct tables *t, size_t i)
{
	return i < t->count ? t->docs[i].path : NULL;
}
