/*
 * attributes.c - see attributes.h.
 */
#include "runtime/encode/attributes.h"

#include <string.h>

/* The unit masks as the user wrote them: the first two distinct, and a
 * count that goes past two when there are more. */
void attributes_note_typed(struct request *rq, int u)
{
	for (int i = 0; i < rq->ntyped && i < 2; i++)
		if (rq->typed[i] == u)
			return;
	if (rq->ntyped < 2)
		rq->typed[rq->ntyped] = (uint16_t)u;
	rq->ntyped++;
}

_Static_assert(MAX_UMASKS % 64 == 0 && MAX_MODIFIERS <= 64 && MAX_ATTRS <= MAX_UMASKS,
	       "a bit for each unit mask and modifier; the attributes fit the list of unit masks asked");

int attributes_too_many(struct request *rq)
{
	return request_fail(rq, PMUDB_ERR_TOOMANY, "too many attributes at '%s' (libpfm takes %d)", rq->token, MAX_ATTRS);
}

/* Notes an attribute as parsed and, while none repeats, applies it as
 * libpfm's pass would (attributes_apply): most strings repeat none, and
 * the pass then had nothing to do but cost a walk over them all. */
int attributes_add(struct request *rq, int umask, int modifier, uint64_t value)
{
	if (rq->nattrs == MAX_ATTRS)
		return attributes_too_many(rq);
	struct given_attr *a = &rq->attrs[rq->nattrs++];
	a->umask = (int16_t)umask;
	a->modifier = (int16_t)modifier;
	a->value = value;
	if (umask == RAW_UMASK_ATTR)
		return 0;
	if (modifier >= 0) {
		uint64_t bit = 1ULL << modifier;
		rq->repeats |= (rq->given & bit) != 0;
		rq->given |= bit;
		rq->value[modifier] = value;
	} else {
		uint64_t *word = &rq->umasks_seen[umask / 64], bit = 1ULL << (umask % 64);
		rq->repeats |= (*word & bit) != 0;
		*word |= bit;
		rq->asked[rq->nasked++] = (uint16_t)umask;
	}
	return 0;
}

/*
 * libpfm's pass over the parsed attributes, as libpfm does it: each is
 * compared with those after it; an equal one is removed and the one that
 * moves into its place is not compared (so of U:U:U two stay, and of
 * m=0:m=0:m the m=1 escapes), and a modifier with another value is
 * PFM_ERR_ATTR_SET.  Then what stays applies in order: a repeated unit
 * mask counts once; a modifier's last value is its value (the earlier one
 * stays in rq->attrs for the checks and the perf layer).
 */
int attributes_apply(struct request *rq)
{
	struct given_attr *a = rq->attrs;
	/* what attributes_add applied stands unless something repeats */
	if (!rq->repeats)
		return 0;
	rq->given = 0;
	rq->nasked = 0;
	for (int i = 0; i < rq->nattrs; i++)
		for (int j = i + 1; j < rq->nattrs; j++) {
			if (a[i].umask != a[j].umask || a[i].modifier != a[j].modifier)
				continue;
			if (a[i].value != a[j].value)
				return request_fail(rq, PMUDB_ERR_ATTR_SET, "'%s' is given twice with different values",
					    rq->ev->modifiers->items[a[i].modifier].name);
			memmove(&a[j], &a[j + 1], (size_t)(rq->nattrs - j - 1) * sizeof(*a));
			rq->nattrs--;
		}
	for (int i = 0; i < rq->nattrs; i++) {
		int m = a[i].modifier;
		if (m >= 0) {
			rq->value[m] = a[i].value;
			rq->given |= 1ULL << m;
			continue;
		}
		if (a[i].umask == RAW_UMASK_ATTR)
			continue;
		bool seen = false;
		for (int k = 0; k < rq->nasked && !seen; k++)
			seen = rq->asked[k] == a[i].umask;
		if (!seen)
			rq->asked[rq->nasked++] = (uint16_t)a[i].umask;
		else
			rq->repeated[rq->nrepeated++] = (uint16_t)a[i].umask;
	}
	return 0;
}

