/*
 * Allocation counter for the benchmarks and the real-time check (glibc): interposes malloc/calloc/realloc/free,
 * forwarding to glibc's __libc_* entry points, and counts the calls made while `counting` is
 * set (from any thread). Include it in one translation unit of a program only: it defines the
 * allocator's external functions.
 */
#ifndef NSM_BENCH_ALLOC_COUNT_H
#define NSM_BENCH_ALLOC_COUNT_H

#include <stddef.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t nmemb, size_t size);
void *__libc_realloc(void *ptr, size_t size);
void __libc_free(void *ptr);
void *malloc(size_t size);
void *calloc(size_t nmemb, size_t size);
void *realloc(void *ptr, size_t size);
void free(void *ptr);

static volatile int counting = 0;
static volatile unsigned long alloc_calls = 0;

void *malloc(size_t size)
{
    if (counting) {
        alloc_calls++;
    }
    return __libc_malloc(size);
}

void *calloc(size_t nmemb, size_t size)
{
    if (counting) {
        alloc_calls++;
    }
    return __libc_calloc(nmemb, size);
}

void *realloc(void *ptr, size_t size)
{
    if (counting) {
        alloc_calls++;
    }
    return __libc_realloc(ptr, size);
}

void free(void *ptr)
{
    __libc_free(ptr);
}

#endif
