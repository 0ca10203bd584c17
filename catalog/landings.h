/*
 * landings.h - the fields a modifier's value can land in (modifier_landing
 * names them): one list for the catalog's reader (unpack.c names them) and
 * the compiler (derive.c reads a probe's value of each).
 */
#ifndef PMUDB_CATALOG_LANDINGS_H
#define PMUDB_CATALOG_LANDINGS_H

/*
 * Where a modifier's value can land, the names modifier_landing uses:
 * X(ID, name, where), where is ATTR for a struct perf_event_attr member of
 * that name, OPEN for what perf_event_open() takes beside it (cpu, its
 * flags), RAW for a raw code word of a PMU libpfm encodes only raw.  The
 * compiler's derive.c reads a probe's value of each from this list too.
 */
#define LANDING_FIELDS(X) \
	X(TYPE, type, ATTR) X(CONFIG, config, ATTR) X(CONFIG1, config1, ATTR) X(CONFIG2, config2, ATTR) \
	X(SAMPLE_PERIOD, sample_period, ATTR) X(FREQ, freq, ATTR) X(EXCLUDE_USER, exclude_user, ATTR) \
	X(EXCLUDE_KERNEL, exclude_kernel, ATTR) X(EXCLUDE_HV, exclude_hv, ATTR) X(EXCLUDE_IDLE, exclude_idle, ATTR) \
	X(EXCLUDE_HOST, exclude_host, ATTR) X(EXCLUDE_GUEST, exclude_guest, ATTR) X(PRECISE_IP, precise_ip, ATTR) \
	X(EXCLUSIVE, exclusive, ATTR) X(PINNED, pinned, ATTR) X(CPU, cpu, OPEN) X(FLAGS, flags, OPEN) \
	X(CODE0, code0, RAW) X(CODE1, code1, RAW) X(CODE2, code2, RAW) X(CODE3, code3, RAW)
#define LANDING_FIELD_ID(id, name, where) F_##id,
enum landing_field { LANDING_FIELDS(LANDING_FIELD_ID) F_COUNT };
/* Each landing field's name, by id. */
extern const char *const landing_field_names[F_COUNT];
int field_by_name(const char *name);	/* enum landing_field, or -1 */

#endif
