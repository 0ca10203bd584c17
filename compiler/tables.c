/*
 * tables.c - finds the YAML tables and hands each section to its loader.
 */
#include "tables.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static const char *const top_keys[] = { "families", "cpuid", "overrides", NULL };

int tables_apply_file(struct model *m, const char *path, char **error)
{
	struct ydoc d;
	int r = ydoc_load(&d, path);
	if (!r) {
		yaml_node_t *root = ydoc_root(&d);
		if (!root) {
			r = 0;	/* an empty file changes nothing */
		} else {
			r = ydoc_expect_mapping(&d, root, "a table file", top_keys);
			yaml_node_t *n;
			if (!r && (n = ydoc_get(&d, root, "families")))
				r = ydoc_expect_sequence(&d, n, "'families'") || families_apply(&d, n, m);
			if (!r && (n = ydoc_get(&d, root, "cpuid")))
				r = ydoc_expect_sequence(&d, n, "'cpuid'") || cpuid_map_load(&d, n, m);
			if (!r && (n = ydoc_get(&d, root, "overrides")))
				r = ydoc_expect_sequence(&d, n, "'overrides'") || overrides_apply(&d, n, m);
		}
	}
	if (r) {
		*error = d.error;
		d.error = NULL;
	}
	ydoc_free(&d);
	return r ? -1 : 0;
}

static int yaml_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return e->d_name[0] != '.' && n > 5 && !strcmp(e->d_name + n - 5, ".yaml");
}

int tables_apply_dir(struct model *m, const char *dir, char **error)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, yaml_file, alphasort);
	if (n < 0) {
		*error = xprintf("%s: cannot read the tables directory", dir);
		return -1;
	}
	int r = 0;
	for (int i = 0; i < n; i++) {
		if (!r) {
			char *path = xprintf("%s/%s", dir, names[i]->d_name);
			r = tables_apply_file(m, path, error);
			free(path);
		}
		free(names[i]);
	}
	free(names);
	return r;
}

int tables_match_pmus(struct ydoc *d, yaml_node_t *node, struct model *m, const char *pattern,
		      struct pmu_list *out)
{
	for (size_t i = 0; i < m->pmus.count; i++)
		if (!fnmatch(pattern, m->pmus.items[i].name, FNM_CASEFOLD))
			*(struct pmu **)vec_push(out) = &m->pmus.items[i];
	if (!out->count)
		return ydoc_fail(d, node, "unknown PMU '%s': libpfm %s has no such PMU", pattern, m->libpfm_version);
	return 0;
}
