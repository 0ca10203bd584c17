/*
 * model_fields.h - the fields of the model's events, unit masks and
 * modifiers (catalog/field_lists.h) as rows: what emit.c writes and keys, what
 * twins compare and copy, without naming each field.
 */
#ifndef PMUDB_COMPILER_MODEL_FIELDS_H
#define PMUDB_COMPILER_MODEL_FIELDS_H

#include "catalog/fields.h"
#include "compiler/model.h"

/* ITEM's fields (an event, unit mask or modifier, as L says) into ROW. */
void model_fields_row(const struct field_list *l, const void *item, union field_value *row);
/* Whether A and B agree on every field of L of ORIGIN. */
bool model_fields_same(const struct field_list *l, const void *a, const void *b, enum field_origin origin);
/* Copies every field of L of ORIGIN from FROM to TO (strings shared). */
void model_fields_copy(const struct field_list *l, void *to, const void *from, enum field_origin origin);

#endif
