/*
 * model_fields.c - the model's fields as rows (model_fields.h), by the
 * offsets of the members catalog/field_lists.h declares in compiler/model.h.
 */
#include "compiler/model_fields.h"

#include <assert.h>
#include <string.h>

#define MODEL_OFFSET(type, member, column, kind, use, origin, doc) offsetof(type, member),
#define UMASK_OFFSET(...) MODEL_OFFSET(struct umask, __VA_ARGS__)
#define EVENT_OFFSET(...) MODEL_OFFSET(struct event, __VA_ARGS__)
#define MODIFIER_OFFSET(...) MODEL_OFFSET(struct modifier, __VA_ARGS__)

static const size_t umask_offsets[] = { UMASK_FIELDS(UMASK_OFFSET) };
static const size_t event_offsets[] = { EVENT_FIELDS(EVENT_OFFSET) };
static const size_t modifier_offsets[] = { MODIFIER_FIELDS(MODIFIER_OFFSET) };

static const size_t *offsets_of(const struct field_list *l)
{
	if (l == &umask_field_list)
		return umask_offsets;
	if (l == &event_field_list)
		return event_offsets;
	assert(l == &modifier_field_list);
	return modifier_offsets;
}

/* The model's C type of kind K (FIELD_TYPE_* of field_lists.h): its size. */
static size_t model_size(enum field_kind k)
{
	switch (k) {
	case FK_NAME:
	case FK_STR:
	case FK_DESC: return sizeof(char *);
	case FK_U64: return sizeof(uint64_t);
	case FK_FLAG: return sizeof(bool);
	default: return sizeof(int);
	}
}

static union field_value value_at(enum field_kind k, const char *p)
{
	union field_value v = { 0 };
	switch (k) {
	case FK_NAME:
	case FK_STR:
	case FK_DESC: memcpy(&v.s, p, sizeof(v.s)); break;
	case FK_U64: memcpy(&v.u, p, sizeof(v.u)); break;
	case FK_FLAG: v.u = *(const bool *)p; break;
	default: {
		int n;
		memcpy(&n, p, sizeof(n));
		v.i = n;
	}
	}
	return v;
}

void model_fields_row(const struct field_list *l, const void *item, union field_value *row)
{
	const size_t *at = offsets_of(l);
	for (int i = 0; i < l->count; i++)
		row[i] = value_at(l->fields[i].kind, (const char *)item + at[i]);
}

bool model_fields_same(const struct field_list *l, const void *a, const void *b, enum field_origin origin)
{
	const size_t *at = offsets_of(l);
	for (int i = 0; i < l->count; i++) {
		const struct field *f = &l->fields[i];
		if (f->origin != origin)
			continue;
		union field_value x = value_at(f->kind, (const char *)a + at[i]), y = value_at(f->kind, (const char *)b + at[i]);
		bool same = f->kind == FK_NAME || f->kind == FK_STR || f->kind == FK_DESC
				    ? x.s == y.s || (x.s && y.s && !strcmp(x.s, y.s))
				    : x.u == y.u;
		if (!same)
			return false;
	}
	return true;
}

void model_fields_copy(const struct field_list *l, void *to, const void *from, enum field_origin origin)
{
	const size_t *at = offsets_of(l);
	for (int i = 0; i < l->count; i++) {
		const struct field *f = &l->fields[i];
		if (f->origin != origin)
			continue;
		/* a string copied would be freed twice */
		assert(f->kind != FK_NAME && f->kind != FK_STR && f->kind != FK_DESC);
		memcpy((char *)to + at[i], (const char *)from + at[i], model_size(f->kind));
	}
}
