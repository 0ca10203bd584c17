/*
 * packed.h - the packed form of the catalog: what the encoder needs, one
 * blob per event table and one directory of the PMUs, written from the
 * catalog's rows (catalog/pack.c, which the compiler runs) and read by the
 * runtime (catalog/unpack.c) without a query per row.
 *
 * The rows stay the catalog's public face (docs/schema.md); the blobs are
 * their projection for the encoder, so that a one-event process reads one
 * directory and one blob instead of thousands of rows.  A blob is untrusted
 * input like the rest of the file: every length, count, position and
 * reference in it is checked as it is read.
 *
 * Each blob is one zstd frame (with its content size and checksum, so that
 * zstd refuses a damaged one) holding an 8-byte magic that names its kind
 * and format version, then (u32 little-endian):
 *
 *   directory ("pmudbD5"): u32 npmus, u32 nslots, u32 slot[nslots], then
 *       per PMU u32 name_offset, u32 pmu_id (its row in table pmu), then
 *       per PMU its name, NUL-terminated, and the stream of what the
 *       encoder needs of its row: str description, kind, family,
 *       family_group, source, like_pmu, the first pmu_sysfs name (inline
 *       strings), num_counters, num_fixed_counters, supported_plm,
 *       svarint perf_type, event_table_id, config_cleared; the blob ends
 *       with a NUL.  Slots hash the lower-cased names (name_hash()) with
 *       linear probing; a slot holds a PMU index + 1, or 0.  A PMU named
 *       costs no query: a one-event process runs none but the table's.
 *   event table ("pmudbT6"): u32 nevents, u32 nsets, u32 pool_offset,
 *       u32 event_offset[nevents], u32 set_offset[nsets], then the records
 *       those offsets point at, as catalog/pack.c lists them (their fields
 *       as catalog/field_lists.h declares them), then
 *       the string pool up to the end: every string of the records once,
 *       each NUL-terminated (the pool ends with a NUL).
 *   aliases ("pmudbA3"): a stream of the table's aliases (catalog/pack.c).
 *
 * The offsets let the runtime decode one event, not the table.
 * In the streams, integers are LEB128 varints (signed ones zigzagged).  A
 * string is varint 0 for NULL, else in a table varint (its offset in the
 * pool + 1), elsewhere varint (length + 1), the bytes and a NUL.
 */
#ifndef PMUDB_PACKED_H
#define PMUDB_PACKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PACKED_HEADER 8		/* the magic */
#define PACKED_DIRECTORY_MAGIC "pmudbD5"	/* 8 bytes with the NUL */
#define PACKED_TABLE_MAGIC "pmudbT6"
#define PACKED_ALIASES_MAGIC "pmudbA3"
#define PACKED_MAX_SIZE (64u << 20)	/* of a blob, unpacked */
/* A blob unpacks to at most PACKED_MAX_RATIO times its stored size, or
 * PACKED_RATIO_FLOOR bytes: what a catalog makes its reader hold grows
 * with the catalog (good blobs unpack to under 20 times their size). */
#define PACKED_MAX_RATIO 64
#define PACKED_RATIO_FLOOR (64u << 10)
/* The bytes past its end an unpacked blob can be read, zeros: a name in
 * it, shorter than that, is copied whole in fixed-size chunks (chunks.h).
 * The built-in image (builtin.S) ends with as many. */
#define PACKED_READ_PAD 64

/* Limits of what a packed table may hold; a blob past them is refused. */
#define PACKED_MAX_EVENTS 65535
#define PACKED_MAX_PMUS 65535

/* Whether N stored bytes may unpack to CONTENT (PACKED_MAX_SIZE and
 * PACKED_MAX_RATIO): the reader's test, and the writer's before it stores. */
bool packed_size_ok(uint64_t content, size_t n);

/* The unpacked bytes of FRAME (N bytes), malloc'd with PACKED_READ_PAD
 * zeros after them, with *SIZE set; NULL when it is not a zstd frame of
 * known size that packed_size_ok allows, fails its checksum or does not
 * start with MAGIC.  DCTX: zstd's state, kept by
 * the caller across calls (a short process then sets it up once), or NULL. */
struct ZSTD_DCtx_s;
unsigned char *packed_open(struct ZSTD_DCtx_s *dctx, const void *frame, size_t n, const char *magic, size_t *size);

/* Reading a stream: every read checks what is left and fails once past
 * the end; after a failure every read returns 0 and ok stays false. */
struct packed_reader {
	const unsigned char *p, *end;
	bool ok;
	const char *pool;	/* strings are offsets into it, or inline when NULL */
	size_t pool_size;
};

void reader_init(struct packed_reader *r, const void *data, size_t n);
uint64_t read_varint_long(struct packed_reader *r);
/* Most varints are one byte: that case inline (unpacking a table's
 * events reads some forty each, through a call). */
static inline uint64_t read_varint(struct packed_reader *r)
{
	if (r->p != r->end && *r->p < 0x80)
		return *r->p++;
	return read_varint_long(r);
}
int64_t read_svarint(struct packed_reader *r);
/* A varint that must be at most MAX (else the read fails). */
uint64_t read_count(struct packed_reader *r, uint64_t max);
/* A count of items that each take at least one byte of what is left: at
 * most MAX and at most the bytes left (so a forged count cannot make the
 * reader allocate more than the blob could fill). */
uint64_t read_length(struct packed_reader *r, uint64_t max);
/* A string in place (the blob must outlive it), or NULL: from the pool,
 * or inline, where one with a NUL inside or without its closing NUL fails
 * the read. */
const char *read_string(struct packed_reader *r);

/* Writing a stream (the compiler's side). */
struct packed_writer {
	unsigned char *data;
	size_t len, cap;
	bool failed;		/* out of memory */
};

/* The strings of one blob, each kept once. */
struct string_pool {
	struct packed_writer bytes;
	uint32_t *slots;	/* offset + 1 by hash, or 0 */
	size_t nslots, count;
};

void write_varint(struct packed_writer *w, uint64_t v);
void write_svarint(struct packed_writer *w, int64_t v);
/* S (or NULL) into POOL, with its reference written to W; inline when
 * POOL is NULL. */
void write_string(struct packed_writer *w, struct string_pool *pool, const char *s);
void pool_free(struct string_pool *pool);
void write_bytes(struct packed_writer *w, const void *data, size_t n);
void write_u32_at(struct packed_writer *w, size_t at, uint32_t v);
/* W's bytes (which start with the magic) as one zstd frame, malloc'd,
 * with *SIZE set; NULL when out of memory. */
unsigned char *packed_close(const struct packed_writer *w, size_t *size);

uint32_t read_u32_le(const unsigned char *p);

#endif
