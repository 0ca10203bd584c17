/*
 * fingerprint.c - see fingerprint.h.  Each value is hashed with a
 * separator after it, so that "ab","c" and "a","bc" differ.
 */
#include "compiler/fingerprint.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static void add_bytes(uint64_t *h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		*h ^= p[i];
		*h *= FNV_PRIME;
	}
}

static void add_str(uint64_t *h, const char *s)
{
	if (s)
		add_bytes(h, s, strlen(s));
	add_bytes(h, s ? "\x1f" : "\x1e", 1);	/* NULL differs from "" */
}

static void add_int(uint64_t *h, uint64_t v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "%" PRIx64, v);
	add_str(h, buf);
}

static char *hex(uint64_t h)
{
	return xprintf("%016" PRIx64, h);
}

static void add_umask(uint64_t *h, const struct umask *u)
{
	add_str(h, u->name);
	add_str(h, u->description);
	add_str(h, u->equiv);
	add_int(h, u->code);
	add_int(h, (uint64_t)u->libpfm_index);
	add_int(h, (uint64_t)(u->is_default | u->is_precise << 1 | u->speculative << 2));
}

static void add_modifier(uint64_t *h, const struct modifier *m)
{
	add_str(h, m->name);
	add_str(h, m->description);
	add_int(h, (uint64_t)(m->is_integer | m->from_perf << 1));
	add_int(h, (uint64_t)m->libpfm_index);
	add_int(h, m->default_value);
}

static void add_event(uint64_t *h, const struct event *ev)
{
	add_str(h, ev->name);
	add_str(h, ev->description);
	add_str(h, ev->equiv);
	add_int(h, ev->code);
	add_int(h, (uint64_t)(ev->is_precise | ev->supports_hw_sampling << 1 | ev->speculative << 2 | ev->dtype << 4));
	for (size_t i = 0; i < ev->umasks.count; i++)
		add_umask(h, &ev->umasks.items[i]);
	add_str(h, "modifiers");
	for (size_t i = 0; i < ev->modifiers.count; i++)
		add_modifier(h, &ev->modifiers.items[i]);
}

char *fingerprint_libpfm(const struct model *m)
{
	uint64_t h = FNV_OFFSET;
	add_str(&h, m->libpfm_version);
	for (size_t i = 0; i < m->pmus.count; i++) {
		const struct pmu *p = &m->pmus.items[i];
		if (p->source)
			continue;
		add_str(&h, p->name);
		add_str(&h, p->description);
		add_int(&h, (uint64_t)p->libpfm_id);
		add_int(&h, (uint64_t)p->kind);
		add_int(&h, (uint64_t)p->num_counters);
		add_int(&h, (uint64_t)p->num_fixed_counters);
		add_int(&h, (uint64_t)p->max_encoding);
		for (size_t j = 0; j < p->events.count; j++)
			add_event(&h, &p->events.items[j]);
	}
	return hex(h);
}

char *fingerprint_files(const char *const *paths, size_t count)
{
	uint64_t h = FNV_OFFSET;
	char buf[65536];
	for (size_t i = 0; i < count; i++) {
		const char *base = strrchr(paths[i], '/');
		add_str(&h, base ? base + 1 : paths[i]);
		FILE *f = fopen(paths[i], "rb");
		if (!f)
			return NULL;
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			add_bytes(&h, buf, n);
		int bad = ferror(f);
		fclose(f);
		if (bad)
			return NULL;
		add_str(&h, "");
	}
	return hex(h);
}

static void add_vendor_event(uint64_t *h, const struct vendor_event *v)
{
	add_str(h, v->name);
	add_str(h, v->description);
	add_str(h, v->file);
	add_str(h, v->unit);
	uint64_t fields[] = { v->code, v->umask | v->umask_ext << 8, v->cmask, v->inv, v->edge, v->any, v->msr_index, v->msr_value,
			      (uint64_t)v->pebs, v->deprecated };
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		add_int(h, fields[i]);
	for (size_t i = 0; i < v->terms.count; i++) {
		add_str(h, v->terms.items[i].name);
		add_int(h, v->terms.items[i].value);
	}
}

char *fingerprint_vendor(const struct model *m)
{
	if (!m->vendor_tree)
		return NULL;
	uint64_t h = FNV_OFFSET;
	add_str(&h, m->vendor_layout);
	for (size_t i = 0; i < m->uarchs.count; i++) {
		const struct vendor_uarch *u = &m->uarchs.items[i];
		add_str(&h, u->name);
		add_str(&h, u->arch);
		for (size_t j = 0; j < u->events.count; j++)
			add_vendor_event(&h, &u->events.items[j]);
		for (size_t j = 0; j < u->uncore.count; j++)
			add_vendor_event(&h, &u->uncore.items[j]);
		for (size_t j = 0; j < u->cpus.count; j++)
			add_str(&h, u->cpus.items[j].id);
	}
	return hex(h);
}
