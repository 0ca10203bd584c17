/*
 * field_lists.h - every field of an event, a unit mask and a modifier, declared
 * once.  From these lists come:
 *   - the compiler's model structs (compiler/model.h);
 *   - the catalog's SQL tables event, umask and modifier, with each
 *     column's meaning as its comment (fields.c writes the CREATE TABLE);
 *   - what the compiler writes of them (compiler/emit.c: binds, the key
 *     that finds identical tables, the twins' copies);
 *   - the packed form (fields.c: written by pack.c from the rows, read by
 *     unpack.c into the runtime's structs, catalog/model.h);
 *   - the runtime's members for fields the encoder reads that catalog/model.h
 *     does not place by hand (the *_PACKED_MEMBERS below).
 * A new field is one line here, the code that computes it (derive.c, a
 * vendor reader, an override) and the code that reads it.
 *
 * F(member, column, kind, use, origin, doc)
 *   member  the C member, in the compiler's model and the runtime's structs
 *   column  the SQL column
 *   kind    how its value is stored (enum field_kind, below)
 *   use     SQL: in the rows only (browsing reads it there);
 *           SPARSE: in the rows of the table's companion (umask_sparse ...),
 *           which has a row only where one of its fields is not 0: facts
 *           most rows lack (libpfm states no counters) cost those nothing;
 *           HOT: packed too, and catalog/model.h declares it by hand where
 *           the encoder's cache lines want it (a missing or misnamed one
 *           does not compile: fields.c's readers assign it);
 *           PACKED: packed too, and declared by *_PACKED_MEMBERS at the end
 *           of the runtime's struct (which grows by a cache line per 64
 *           bytes: an event's record is 256 bytes, a unit mask's 128; what
 *           only browsing reads stays SQL)
 *   origin  LIBPFM: libpfm's API states it (PMUs with one libpfm table are
 *           twins when these agree, compiler/twins.c);
 *           DERIVED: learned by asking libpfm's encoder (a twin copies it);
 *           SET: set by the tables, the vendors' lists or an override
 *   doc     what the column means, written into the schema
 *
 * The packed record of a row (catalog/packed.h): one varint of flags
 * (each FLAG's value and each PTYPE's presence, a bit each in list
 * order), then every other packed field in list order: strings as
 * packed.h says, U64 a varint, the signed kinds zigzagged, a PTYPE's only
 * when present.  Fields whose use is SQL are not packed.  The first field
 * of each list is its NAME (an event's head is its flags and its name).
 */
#ifndef PMUDB_CATALOG_FIELD_LISTS_H
#define PMUDB_CATALOG_FIELD_LISTS_H

#include <stdbool.h>
#include <stdint.h>

#define UMASK_FIELDS(F) \
	F(name, name, NAME, HOT, LIBPFM, "unit mask name") \
	F(description, description_id, DESC, SQL, LIBPFM, "its description (text)") \
	F(equiv, equiv, STR, HOT, LIBPFM, "NULL, or the unit masks it stands for (A:B): libpfm expands it before encoding") \
	F(code, code, U64, HOT, LIBPFM, "libpfm's attribute code, unshifted") \
	F(is_default, is_default, FLAG, HOT, LIBPFM, "libpfm marks it default") \
	F(is_precise, is_precise, FLAG, SQL, LIBPFM, "supports precise sampling") \
	F(speculative, speculative, I32, SQL, LIBPFM, "0 unknown, 1 counts speculative work, 2 does not") \
	F(group, grp, POS, HOT, DERIVED, "its group: unit masks of one group behave alike beside all others (derived); NULL for an equiv") \
	F(single_error, single_error, ERR, HOT, DERIVED, "libpfm's answer to PMU::EVENT:UMASK (derived)") \
	F(sets_event_select, sets_event_select, FLAG, HOT, DERIVED, \
	  "1 when, alone, it replaces the event select (config bits 0-7): libpfm's code-override unit masks (derived)") \
	F(filter_config1, filter_config1, U64, HOT, DERIVED, "config1 bits it sets beyond the event's own (derived, or a vendor's MSR value)") \
	F(filter_config2, filter_config2, U64, HOT, DERIVED, "config2 bits it sets beyond the event's own (derived)") \
	F(filter_layout, filter_layout, FLAG, HOT, DERIVED, \
	  "1 when, with it, libpfm puts the second filter in config1 bits 32-63 instead of config2 (derived)") \
	F(code_is_filter, code_is_filter, FLAG, HOT, DERIVED, \
	  "1 when its code goes to a filter register, not the unit-mask field (derived from pairs)") \
	F(takes_no_modifiers, takes_no_modifiers, FLAG, HOT, DERIVED, \
	  "1 when libpfm's encoding with it alone has no fstr and refuses the perf modifiers of event_no_modifier at a non-zero value (derived)") \
	F(config_bits, config_bits, U64, HOT, DERIVED, \
	  "with its event's config_base, the config bits it adds (measured; 0 where the event's config is not measured)") \
	F(repeat_error, repeat_error, ERR, HOT, DERIVED, \
	  "libpfm's answer to EVENT:UMASK:UMASK:UMASK, 0 on success: of three, two reach its encoder (derived)") \
	F(counters, counters, U64, SPARSE, SET, \
	  "the general counters it may be counted on, bit n for counter n (the vendor's Counter); 0: unknown") \
	F(counters_ht_off, counters_ht_off, U64, SPARSE, SET, "those with SMT off (CounterHTOff); 0: as counters") \
	F(pebs_counters, pebs_counters, U64, SPARSE, SET, "the counters it samples precisely on (PEBScounters); 0: unknown") \
	F(fixed_counters, fixed_counters, U64, SPARSE, SET, "the fixed counters that count it, bit n for fixed counter n") \
	F(taken_alone, taken_alone, FLAG, SPARSE, SET, "1: counted only with no other event (TakenAlone)") \
	F(free_running, free_running, FLAG, SPARSE, SET, "1: a free-running counter that counts it (CounterType FREERUN)") \
	F(retired, retired, FLAG, HOT, SET, "1 when an override retired it") \
	F(why, why, STR, SQL, SET, "the override that added or changed it") \
	F(source, source, STR, SQL, SET, "NULL for libpfm's; the vendor file it comes from")

#define EVENT_FIELDS(F) \
	F(name, name, NAME, HOT, LIBPFM, "event name") \
	F(description, description_id, DESC, SQL, LIBPFM, "its description (text)") \
	F(equiv, equiv, STR, HOT, LIBPFM, "NULL, or libpfm's equivalent: the event is another name for EVENT[:UMASK...]") \
	F(code, code, U64, HOT, LIBPFM, "libpfm's event code (raw, not the encoding)") \
	F(is_precise, is_precise, FLAG, HOT, LIBPFM, "supports precise sampling (Intel PEBS)") \
	F(supports_hw_sampling, supports_hw_sampling, FLAG, SQL, LIBPFM, "can be recorded by a hardware buffer") \
	F(speculative, speculative, I32, SQL, LIBPFM, "0 unknown, 1 counts speculative work, 2 does not") \
	F(perf_type, perf_type, PTYPE, HOT, DERIVED, \
	  "NULL: the PMU's; else this event's perf_event_attr.type (the perf PMU mixes hardware, software and cache types)") \
	F(bare_error, bare_error, ERR, HOT, DERIVED, "libpfm's answer to PMU::EVENT with no unit mask (derived)") \
	F(bare_needs, bare_needs_position, POS, HOT, DERIVED, \
	  "NULL, or the modifier that, given, lifts bare_error (the PCU's FREQ_BAND0_CYCLES needs ff=) (derived)") \
	F(umasks_in_config1, umasks_in_config1, FLAG, HOT, DERIVED, \
	  "1 when libpfm puts unit-mask codes in config1 (offcore response, precise front end) (derived)") \
	F(filters_given, filters_given, FLAG, HOT, SET, \
	  "1 when its unit masks' filter_config1/2 are stated values every encoder applies (a vendor's MSR value), not measured ones") \
	F(filter_config1, filter_config1, U64, HOT, DERIVED, "config1 bits every encoding of it has (derived; the server uncore's filters)") \
	F(filter_config2, filter_config2, U64, HOT, DERIVED, "config2 bits every encoding of it has (derived)") \
	F(filter_default, filter_default, U64, HOT, DERIVED, \
	  "of filter_config1, the bits present only while no unit mask sets that filter (derived)") \
	F(group_count, group_count, I32, SQL, DERIVED, "number of unit-mask groups (derived)") \
	F(defaults_keep_select, defaults_keep_select, FLAG, HOT, DERIVED, \
	  "1 when a default libpfm adds does not replace the event select as the same unit mask asked for does (derived)") \
	F(config_measured, config_measured, FLAG, HOT, DERIVED, \
	  "1 for a family whose encoder places measured registers (NetBurst): config_base and the unit masks' config_bits are set") \
	F(config_base, config_base, U64, HOT, DERIVED, "with config_measured, the config bits every encoding of it has (measured)") \
	F(last_umask_wins, last_umask_wins, FLAG, HOT, DERIVED, \
	  "1: of the unit masks asked, the last one's code replaces the others' (PCU occupancy select) (derived)") \
	F(raw_umask_max, raw_umask_max, U64, HOT, DERIVED, \
	  "the widest unit mask given as a number (:0xff) libpfm takes for it; 0: none (derived)") \
	F(raw_layout_bit0, raw_layout_bit0, FLAG, HOT, DERIVED, \
	  "1: with a raw unit mask, the second filter goes to config1 bits 32-63 when its bit 0 is set, else config2 (CBo) (derived)") \
	F(counters, counters, U64, SPARSE, SET, \
	  "the general counters it may be counted on, bit n for counter n (the vendor's Counter); 0: unknown") \
	F(counters_ht_off, counters_ht_off, U64, SPARSE, SET, "those with SMT off (CounterHTOff); 0: as counters") \
	F(pebs_counters, pebs_counters, U64, SPARSE, SET, "the counters it samples precisely on (PEBScounters); 0: unknown") \
	F(fixed_counters, fixed_counters, U64, SPARSE, SET, "the fixed counters that count it, bit n for fixed counter n") \
	F(taken_alone, taken_alone, FLAG, SPARSE, SET, "1: counted only with no other event (TakenAlone)") \
	F(free_running, free_running, FLAG, SPARSE, SET, "1: a free-running counter that counts it (CounterType FREERUN)") \
	F(retired, retired, FLAG, HOT, SET, "1 when an override retired it") \
	F(why, why, STR, SQL, SET, "the override that added or changed it") \
	F(source, source, STR, SQL, SET, "NULL for libpfm's; the vendor JSON file for a vendor event")

#define MODIFIER_FIELDS(F) \
	F(name, name, NAME, HOT, LIBPFM, "as written in event strings") \
	F(description, description_id, DESC, HOT, LIBPFM, "its description (text)") \
	F(is_integer, is_integer, FLAG, HOT, LIBPFM, "1: takes an integer; 0: a boolean") \
	F(from_perf, from_perf, FLAG, HOT, LIBPFM, "1: the perf_events layer's (u, k, precise ...); 0: the PMU's own") \
	F(libpfm_index, libpfm_index, I32, SQL, LIBPFM, "libpfm's attribute index") \
	F(default_value, default_value, U64, HOT, LIBPFM, "libpfm's stated default") \
	F(probed, probed, FLAG, HOT, DERIVED, "1 when its range and landings were measured") \
	F(min, min_value, U64, HOT, DERIVED, "smallest accepted value, found by encoding values (derived)") \
	F(max, max_value, U64, HOT, DERIVED, "largest accepted value (derived)") \
	F(range_error, range_error, ERR, HOT, DERIVED, "libpfm's error just past that range (0: PFM_ERR_ATTR_VAL) (derived)") \
	F(follows_plm, follows_plm, FLAG, SQL, DERIVED, \
	  "1 when its value comes from the privilege-level mask unless given (u, k) (derived)") \
	F(requires, requires_position, POS, HOT, DERIVED, \
	  "NULL, or the modifier that must be non-zero for this one to be 1 (e=1 needs c) (derived)") \
	F(refused_error, refused_error, ERR, HOT, DERIVED, "with requires_position, libpfm's error when that one is 0 (derived)") \
	F(has_shown, has_shown, FLAG, HOT, DERIVED, \
	  "1: libpfm's fstr shows shown_value whenever it is given, whatever its value (tf=1) (derived)") \
	F(shown, shown_value, U64, HOT, DERIVED, "with has_shown, the value its fstr shows (derived)") \
	F(inert_unless_implied, inert_unless_implied, FLAG, HOT, DERIVED, \
	  "1: sets its bits only beside a unit mask that implies it (fe_thres) (derived)") \
	F(shown_from, shown_from_position, POS, HOT, DERIVED, \
	  "NULL, or the modifier whose register bits its fstr shows as its value (skx CHA's rmem shows rem's) (derived)")

/* How a field's value is stored, in SQL, in the packed form and in C. */
enum field_kind {
	FK_NAME,	/* TEXT NOT NULL COLLATE NOCASE; char *, never NULL */
	FK_STR,		/* TEXT, NULL allowed; char * */
	FK_DESC,	/* a description: description_id, a row of table text; char * */
	FK_U64,		/* INTEGER NOT NULL; uint64_t */
	FK_I32,		/* INTEGER NOT NULL; int */
	FK_FLAG,	/* INTEGER NOT NULL, 0 or 1; bool */
	FK_ERR,		/* INTEGER NOT NULL, a libpfm error (0: success); int */
	FK_POS,		/* INTEGER, NULL for none; int, -1 for none */
	FK_PTYPE,	/* INTEGER, NULL for the PMU's; int, FIELD_PTYPE_NONE for the PMU's */
};
/* The C types of the kinds, in the compiler's model and the runtime. */
#define FIELD_TYPE_NAME char *
#define FIELD_TYPE_STR char *
#define FIELD_TYPE_DESC char *
#define FIELD_TYPE_U64 uint64_t
#define FIELD_TYPE_I32 int
#define FIELD_TYPE_FLAG bool
#define FIELD_TYPE_ERR int
#define FIELD_TYPE_POS int
#define FIELD_TYPE_PTYPE int
#define FIELD_RUNTIME_TYPE_NAME const char *
#define FIELD_RUNTIME_TYPE_STR const char *
#define FIELD_RUNTIME_TYPE_DESC const char *
#define FIELD_RUNTIME_TYPE_U64 uint64_t
#define FIELD_RUNTIME_TYPE_I32 int
#define FIELD_RUNTIME_TYPE_FLAG bool
#define FIELD_RUNTIME_TYPE_ERR int
#define FIELD_RUNTIME_TYPE_POS int
#define FIELD_RUNTIME_TYPE_PTYPE int
/* A PTYPE that is the PMU's. */
#define FIELD_PTYPE_NONE INT32_MIN

enum field_use { FU_SQL, FU_SPARSE, FU_HOT, FU_PACKED };
enum field_origin { FO_LIBPFM, FO_DERIVED, FO_SET };

/* The compiler's model declares every field. */
#define FIELD_MODEL_MEMBER(member, column, kind, use, origin, doc) FIELD_TYPE_##kind member;

/* The runtime declares the PACKED ones at the end of its structs. */
#define FIELD_RUNTIME_MEMBER(member, column, kind, use, origin, doc) FIELD_RUNTIME_MEMBER_##use(kind, member)
#define FIELD_RUNTIME_MEMBER_SQL(kind, member)
#define FIELD_RUNTIME_MEMBER_SPARSE(kind, member)
#define FIELD_RUNTIME_MEMBER_HOT(kind, member)
#define FIELD_RUNTIME_MEMBER_PACKED(kind, member) FIELD_RUNTIME_TYPE_##kind member;
#define UMASK_PACKED_MEMBERS UMASK_FIELDS(FIELD_RUNTIME_MEMBER)
#define EVENT_PACKED_MEMBERS EVENT_FIELDS(FIELD_RUNTIME_MEMBER)
#define MODIFIER_PACKED_MEMBERS MODIFIER_FIELDS(FIELD_RUNTIME_MEMBER)

#endif
