/*
 * pages.c - see pages.h.
 */
#include "catalog/pages.h"

#include <pthread.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define REGION ((size_t)2 << 20)	/* one huge page on x86-64 and arm64 (4 KB pages) */
#define CARVE_ALIGN 64
#define SMALL_FIRST ((size_t)1 << 20)	/* what a process takes from malloc before regions */

/* Under AddressSanitizer every chunk is malloc's, which it watches (gcc
 * says so with a macro, clang with __has_feature). */
#if defined(__SANITIZE_ADDRESS__)
#define REGIONS false
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REGIONS false
#endif
#endif
#ifndef REGIONS
#define REGIONS true
#endif

/* A program run under LeakSanitizer, this library built without it, has
 * the regions scanned for pointers as malloc's memory is; else what only
 * a region points to would be reported lost.  Weak: absent otherwise. */
extern void __lsan_register_root_region(const void *p, size_t size) __attribute__((weak));
extern void __lsan_unregister_root_region(const void *p, size_t size) __attribute__((weak));

/* At the start of each region: how many of its pieces are live, the
 * region's own reference while pieces are still carved from it counted
 * as one. */
struct region_head {
	size_t live;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static size_t taken_small;	/* bytes given from malloc so far */
static unsigned char *current;	/* the region pieces are carved from, or NULL */
static size_t carved;		/* bytes of it given out, its head included */

/* Drops one reference to the region holding P; unmaps it at the last. */
static void release(unsigned char *region)
{
	struct region_head *h = (struct region_head *)region;
	if (--h->live)
		return;
	if (__lsan_unregister_root_region)
		__lsan_unregister_root_region(region, REGION);
	munmap(region, REGION);
}

/* A region aligned to its size (the kernel backs only aligned 2 MB with a
 * huge page), or NULL. */
static unsigned char *map_region(void)
{
	unsigned char *p = mmap(NULL, 2 * REGION, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	unsigned char *r = (unsigned char *)(((uintptr_t)p + REGION - 1) & ~(uintptr_t)(REGION - 1));
	if (r > p)
		munmap(p, (size_t)(r - p));
	munmap(r + REGION, (size_t)(p + REGION - r));
	/* advice only: where huge pages are off, the region is faulted a
	 * page at a time, as malloc's memory would be */
	madvise(r, REGION, MADV_HUGEPAGE);
	if (__lsan_register_root_region)
		__lsan_register_root_region(r, REGION);
	return r;
}

/* N bytes from a region, or NULL. */
static void *carve(size_t n)
{
	n = (n + CARVE_ALIGN - 1) & ~(size_t)(CARVE_ALIGN - 1);
	if (!current || REGION - carved < n) {
		unsigned char *r = map_region();
		if (!r)
			return NULL;
		if (current)
			release(current);
		current = r;
		((struct region_head *)r)->live = 1;
		carved = CARVE_ALIGN;
	}
	void *p = current + carved;
	carved += n;
	((struct region_head *)current)->live++;
	return p;
}

void *pages_alloc(size_t n, bool *from_region)
{
	*from_region = false;
	if (REGIONS && n <= REGION / 8) {
		pthread_mutex_lock(&lock);
		void *p = taken_small >= SMALL_FIRST ? carve(n) : NULL;
		if (!p)
			taken_small += n;
		pthread_mutex_unlock(&lock);
		if (p) {
			*from_region = true;
			return p;
		}
	}
	return malloc(n);
}

void pages_free(void *p, bool from_region)
{
	if (!from_region) {
		free(p);
		return;
	}
	pthread_mutex_lock(&lock);
	release((unsigned char *)((uintptr_t)p & ~(uintptr_t)(REGION - 1)));
	pthread_mutex_unlock(&lock);
}

void *pages_zeroed(size_t n)
{
	if (!REGIONS)
		return calloc(1, n);
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (__lsan_register_root_region)
		__lsan_register_root_region(p, n);
	return p;
}

void pages_zeroed_free(void *p, size_t n)
{
	if (!REGIONS) {
		free(p);
		return;
	}
	if (!p)
		return;
	if (__lsan_unregister_root_region)
		__lsan_unregister_root_region(p, n);
	munmap(p, n);
}
