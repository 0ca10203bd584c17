/*
 * packed.c - the primitives of the packed form (packed.h): the zstd frame
 * around a blob, varints and strings, for reading and for writing.
 */
#include "catalog/packed.h"

#include <endian.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

uint32_t read_u32_le(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return le32toh(v);
}

bool packed_size_ok(uint64_t content, size_t n)
{
	return content <= PACKED_MAX_SIZE && (content <= PACKED_RATIO_FLOOR || content / PACKED_MAX_RATIO <= n);
}

unsigned char *packed_open(ZSTD_DCtx *dctx, const void *frame, size_t n, const char *magic, size_t *size)
{
	unsigned long long content = frame ? ZSTD_getFrameContentSize(frame, n) : ZSTD_CONTENTSIZE_ERROR;
	if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN || content < PACKED_HEADER
	    || !packed_size_ok(content, n))
		return NULL;
	unsigned char *data = malloc((size_t)content + PACKED_READ_PAD);
	if (!data)
		return NULL;
	memset(data + content, 0, PACKED_READ_PAD);
	size_t got = dctx ? ZSTD_decompressDCtx(dctx, data, (size_t)content, frame, n)
			  : ZSTD_decompress(data, (size_t)content, frame, n);
	if (ZSTD_isError(got) || got != content || memcmp(data, magic, PACKED_HEADER)) {
		free(data);
		return NULL;
	}
	*size = got;
	return data;
}

/* ---- reading ------------------------------------------------------------ */

void reader_init(struct packed_reader *r, const void *data, size_t n)
{
	r->p = data;
	r->end = r->p + n;
	r->ok = data != NULL;
	r->pool = NULL;
	r->pool_size = 0;
}

static uint64_t failed(struct packed_reader *r)
{
	r->ok = false;
	r->p = r->end;
	return 0;
}

uint64_t read_varint_long(struct packed_reader *r)
{
	uint64_t v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (r->p == r->end)
			return failed(r);
		unsigned char b = *r->p++;
		if (shift == 63 && b > 1)
			return failed(r);	/* more than 64 bits */
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	return failed(r);
}

int64_t read_svarint(struct packed_reader *r)
{
	uint64_t v = read_varint(r);
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

uint64_t read_count(struct packed_reader *r, uint64_t max)
{
	uint64_t v = read_varint(r);
	return v <= max ? v : failed(r);
}

uint64_t read_length(struct packed_reader *r, uint64_t max)
{
	uint64_t v = read_varint(r);
	return v <= max && v <= (uint64_t)(r->end - r->p) ? v : failed(r);
}

const char *read_string(struct packed_reader *r)
{
	uint64_t n = read_varint(r);
	if (!r->ok || n == 0)
		return NULL;
	if (r->pool) {
		/* the pool ends with a NUL: every offset in it starts a string */
		if (n - 1 >= r->pool_size) {
			failed(r);
			return NULL;
		}
		return r->pool + (n - 1);
	}
	size_t len = (size_t)(n - 1);
	if ((size_t)(r->end - r->p) <= len || r->p[len] != '\0' || memchr(r->p, '\0', len)) {
		failed(r);
		return NULL;
	}
	const char *s = (const char *)r->p;
	r->p += len + 1;
	return s;
}

/* ---- writing ------------------------------------------------------------ */

void write_bytes(struct packed_writer *w, const void *data, size_t n)
{
	/* nothing to write may come as NULL (an empty writer's data), which
	 * memcpy must not be given even for 0 bytes */
	if (w->failed || !n)
		return;
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		while (cap < w->len + n)
			cap *= 2;
		unsigned char *d = realloc(w->data, cap);
		if (!d) {
			w->failed = true;
			return;
		}
		w->data = d;
		w->cap = cap;
	}
	memcpy(w->data + w->len, data, n);
	w->len += n;
}

void write_varint(struct packed_writer *w, uint64_t v)
{
	unsigned char buf[10];
	size_t n = 0;
	do {
		buf[n] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			buf[n] |= 0x80;
		n++;
	} while (v);
	write_bytes(w, buf, n);
}

void write_svarint(struct packed_writer *w, int64_t v)
{
	write_varint(w, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* S's offset in POOL, added if new; UINT32_MAX when out of memory. */
static uint32_t pool_add(struct string_pool *pool, const char *s)
{
	size_t n = strlen(s) + 1;
	if (2 * (pool->count + 1) > pool->nslots) {
		size_t nslots = pool->nslots ? 2 * pool->nslots : 1024;
		uint32_t *slots = calloc(nslots, sizeof(*slots));
		if (!slots)
			return UINT32_MAX;
		for (size_t i = 0; i < pool->nslots; i++) {
			if (!pool->slots[i])
				continue;
			const char *old = (const char *)pool->bytes.data + pool->slots[i] - 1;
			size_t h = hash_bytes(old, strlen(old)) & (nslots - 1);
			while (slots[h])
				h = (h + 1) & (nslots - 1);
			slots[h] = pool->slots[i];
		}
		free(pool->slots);
		pool->slots = slots;
		pool->nslots = nslots;
	}
	size_t h = hash_bytes(s, n - 1) & (pool->nslots - 1);
	for (; pool->slots[h]; h = (h + 1) & (pool->nslots - 1))
		if (!strcmp((const char *)pool->bytes.data + pool->slots[h] - 1, s))
			return pool->slots[h] - 1;
	uint32_t offset = (uint32_t)pool->bytes.len;
	write_bytes(&pool->bytes, s, n);
	if (pool->bytes.failed)
		return UINT32_MAX;
	pool->slots[h] = offset + 1;
	pool->count++;
	return offset;
}

void write_string(struct packed_writer *w, struct string_pool *pool, const char *s)
{
	if (!s) {
		write_varint(w, 0);
		return;
	}
	if (pool) {
		uint32_t offset = pool_add(pool, s);
		if (offset == UINT32_MAX)
			w->failed = true;
		write_varint(w, (uint64_t)offset + 1);
		return;
	}
	size_t n = strlen(s);
	write_varint(w, (uint64_t)n + 1);
	write_bytes(w, s, n + 1);
}

void pool_free(struct string_pool *pool)
{
	free(pool->bytes.data);
	free(pool->slots);
	memset(pool, 0, sizeof(*pool));
}

void write_u32_at(struct packed_writer *w, size_t at, uint32_t v)
{
	if (w->failed || at + 4 > w->len)
		return;
	v = htole32(v);
	memcpy(w->data + at, &v, 4);
}

unsigned char *packed_close(const struct packed_writer *w, size_t *size)
{
	if (w->failed)
		return NULL;
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(w->len);
	unsigned char *out = malloc(cap);
	size_t n = 0;
	if (cc && out && !ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 19))
	    && !ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1))
	    && !ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 1)))
		n = ZSTD_compress2(cc, out, cap, w->data, w->len);
	ZSTD_freeCCtx(cc);
	if (!out || !n || ZSTD_isError(n)) {
		free(out);
		return NULL;
	}
	*size = n;
	return out;
}
