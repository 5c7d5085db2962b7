/*
 * Deterministic pseudo-random entries for the benchmarks' data (xorshift), in [-1, 1].
 */
#ifndef NSM_BENCH_FILL_H
#define NSM_BENCH_FILL_H

#include <stddef.h>

static inline void bench_fill(size_t len, double *x, unsigned seed)
{
    unsigned long s = 2463534242ul + seed;
    for (size_t i = 0; i < len; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s &= 0xfffffffful;
        x[i] = (double)s / 2147483647.5 - 1.0;
    }
}

#endif
