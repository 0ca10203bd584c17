/*
 * suggest.c - "did you mean": the names nearest one that was not found,
 * among the events (and EVENT.UMASK / EVENT:UMASK) of the PMUs a name
 * would be looked up in.
 *
 * Nearness is the edit distance between names (case ignored); only a name
 * within a quarter of the typed one's length (at least 2) is offered, so a
 * wild guess gets no suggestion rather than a misleading one.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

#define MAX_NAME 160
#define MAX_SUGGESTIONS 3

struct nearest {
	const char *typed;	/* what is compared: the typed event, no PMU nor modifiers */
	size_t typed_len;
	char sep;		/* ':' or '.', as the user joined event and unit mask */
	int limit;
	char names[MAX_SUGGESTIONS][MAX_NAME];
	int distances[MAX_SUGGESTIONS];
	int count;
	bool exact;		/* the typed name is there: its fault is elsewhere */
};

/* Edit distance between A and B (case ignored), or LIMIT + 1 once it must
 * exceed LIMIT. */
static int distance(const char *a, size_t na, const char *b, size_t nb, int limit)
{
	if (na >= MAX_NAME || nb >= MAX_NAME)
		return limit + 1;
	if ((na > nb ? na - nb : nb - na) > (size_t)limit)
		return limit + 1;
	int row[MAX_NAME + 1];
	for (size_t j = 0; j <= nb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= na; i++) {
		int diagonal = row[0], smallest = row[0] = (int)i;
		for (size_t j = 1; j <= nb; j++) {
			int above = row[j];
			int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			int best = diagonal + cost;
			if (above + 1 < best)
				best = above + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diagonal = above;
			if (best < smallest)
				smallest = best;
		}
		if (smallest > limit)
			return limit + 1;
	}
	return row[nb];
}

static void consider(struct nearest *n, const char *pmu, const char *name)
{
	int d = distance(n->typed, n->typed_len, name, strlen(name), n->limit);
	if (d > n->limit)
		return;
	n->exact |= d == 0;
	char full[MAX_NAME];
	if (snprintf(full, sizeof(full), "%s::%s", pmu, name) >= (int)sizeof(full))
		return;
	for (int i = 0; i < n->count; i++)
		if (!strcmp(n->names[i], full))
			return;
	int at = n->count;
	while (at > 0 && n->distances[at - 1] > d)
		at--;
	if (at >= MAX_SUGGESTIONS)
		return;
	int last = n->count < MAX_SUGGESTIONS ? n->count : MAX_SUGGESTIONS - 1;
	memmove(&n->names[at + 1], &n->names[at], (size_t)(last - at) * MAX_NAME);
	memmove(&n->distances[at + 1], &n->distances[at], (size_t)(last - at) * sizeof(int));
	strcpy(n->names[at], full);
	n->distances[at] = d;
	if (n->count < MAX_SUGGESTIONS)
		n->count++;
}

static void consider_pmu(struct cli *c, struct nearest *n, int pmu)
{
	struct pmudb_pmu_info pi;
	if (pmudb_pmu_info(c->db, pmu, &pi))
		return;
	for (int e = 0; e < pi.event_count; e++) {
		struct pmudb_event_info ei;
		if (pmudb_event_info(c->db, pmu, e, &ei))
			continue;
		consider(n, pi.name, ei.name);
		for (int u = 0; u < ei.umask_count; u++) {
			struct pmudb_umask_info ui;
			char joined[MAX_NAME];
			if (pmudb_umask_info(c->db, pmu, e, u, &ui) ||
			    snprintf(joined, sizeof(joined), "%s%c%s", ei.name, n->sep, ui.name) >= (int)sizeof(joined))
				continue;
			consider(n, pi.name, joined);
		}
	}
}

void cli_suggest(struct cli *c, const char *event, char *out, size_t size)
{
	out[0] = '\0';
	const char *name = strstr(event, "::");
	int only = -1;
	if (name) {
		char pmu[64];
		size_t len = (size_t)(name - event);
		if (len >= sizeof(pmu))
			return;
		memcpy(pmu, event, len);
		pmu[len] = '\0';
		if ((only = pmudb_find_pmu(c->db, pmu)) < 0)
			return;
		name += 2;
	} else {
		name = event;
	}
	struct nearest n = { .typed = name, .sep = '.' };
	/* the event as typed: its modifiers (after a ':') are not its name,
	 * unless the user writes libpfm's EVENT:UMASK */
	const char *colon = strchr(name, ':');
	n.sep = colon && !strchr(name, '.') ? ':' : '.';
	n.typed_len = n.sep == ':' ? strcspn(colon + 1, ":") + (size_t)(colon + 1 - name) : strcspn(name, ":");
	n.limit = (int)n.typed_len / 4 < 2 ? 2 : (int)n.typed_len / 4;
	if (only >= 0) {
		consider_pmu(c, &n, only);
	} else {
		const struct pmudb_scope *scope = cli_scope(c);
		for (int i = 0; i < scope->count; i++)
			consider_pmu(c, &n, scope->pmus[i]);
		/* the OS's PMUs, where unprefixed names are also looked up */
		int count = pmudb_pmu_count(c->db);
		for (int p = 0; p < count; p++) {
			struct pmudb_pmu_info pi;
			if (!pmudb_pmu_info(c->db, p, &pi) && !strcmp(pi.kind, "os"))
				consider_pmu(c, &n, p);
		}
	}
	size_t used = 0;
	if (n.exact)
		return;
	for (int i = 0; i < n.count && used < size; i++) {
		int w = snprintf(out + used, size - used, "%s%s", i ? ", " : "did you mean ", n.names[i]);
		if (w < 0 || (size_t)w >= size - used) {
			out[used] = '\0';
			break;
		}
		used += (size_t)w;
	}
}

void cli_add_suggestion(struct cli *c, const char *event, struct pmudb_error *err)
{
	/* a name not found, or a unit mask the event does not have */
	if (err->code != PMUDB_ERR_NOTFOUND && !(err->code == PMUDB_ERR_ATTR && strstr(err->message, "unknown attribute")))
		return;
	char hint[400];
	cli_suggest(c, event, hint, sizeof(hint));
	size_t len = strlen(err->message);
	if (hint[0] && len + 3 + strlen(hint) < sizeof(err->message))
		snprintf(err->message + len, sizeof(err->message) - len, "; %s?", hint);
}
