#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "sweep.h"

#define SWEEP_MAXARGS 16

typedef struct {
    size_t k;
    const sweep_arg *args;
    unsigned char *buf[SWEEP_MAXARGS]; /* working copies, 2·(largest extent) + 64 each */
    unsigned char *ref[SWEEP_MAXARGS]; /* contents before a call */
    size_t cap[SWEEP_MAXARGS];
} sweep_state;

static void reset(sweep_state *s)
{
    for (size_t i = 0; i < s->k; i++) {
        memset(s->buf[i], 0xA5, s->cap[i]);
        /* outputs start as the 0xA5 pattern (their callers' arrays may be uninitialised) */
        if (!(s->args[i].flags & SW_OUT) && s->args[i].p != NULL && s->args[i].bytes > 0) {
            memcpy(s->buf[i], s->args[i].p, s->args[i].bytes);
        }
        memcpy(s->ref[i], s->buf[i], s->cap[i]);
    }
}

static void pointers(const sweep_state *s, void **a)
{
    for (size_t i = 0; i < s->k; i++) {
        a[i] = s->args[i].p != NULL ? s->buf[i] : NULL;
    }
}

static int unchanged(const sweep_state *s)
{
    for (size_t i = 0; i < s->k; i++) {
        if (!(s->args[i].flags & SW_SCRATCH) && memcmp(s->buf[i], s->ref[i], s->cap[i]) != 0) {
            return 0;
        }
    }
    return 1;
}

static int expect(const char *fn, const char *what, const char *arg, nsm_status got,
                  nsm_status want, int untouched, unsigned opts)
{
    int ok = got == want && (!(opts & SWEEP_UNWRITTEN) || untouched);
    if (!ok) {
        printf("\n  %s, %s %s: status %s (%d), expected %s%s", fn, what, arg,
               nsm_status_str(got), (int)got, nsm_status_str(want),
               untouched ? "" : "; a buffer was written");
    }
    CU_ASSERT(ok);
    return !ok;
}

/* The fill of the structure arguments, then the reference copy of every buffer. */
static void prepare(sweep_state *s, sweep_fill fill, void *const *a, void *ctx)
{
    if (fill == NULL) {
        return;
    }
    fill(a, ctx);
    for (size_t i = 0; i < s->k; i++) {
        memcpy(s->ref[i], s->buf[i], s->cap[i]);
    }
}

int sweep_args(const char *fn, sweep_call call, void *ctx, const sweep_arg *args, size_t k,
               unsigned opts)
{
    return sweep_args_fill(fn, call, NULL, ctx, args, k, opts);
}

int sweep_args_fill(const char *fn, sweep_call call, sweep_fill fill, void *ctx,
                    const sweep_arg *args, size_t k, unsigned opts)
{
    CU_ASSERT_FATAL(k <= SWEEP_MAXARGS);
    sweep_state s;
    memset(&s, 0, sizeof s);
    s.k = k;
    s.args = args;
    size_t maxb = 0;
    for (size_t i = 0; i < k; i++) {
        maxb = args[i].bytes > maxb ? args[i].bytes : maxb;
    }
    for (size_t i = 0; i < k; i++) {
        s.cap[i] = 2u * maxb + 64u;
        s.buf[i] = malloc(s.cap[i]);
        s.ref[i] = malloc(s.cap[i]);
        CU_ASSERT_FATAL(s.buf[i] != NULL && s.ref[i] != NULL);
    }
    void *a[SWEEP_MAXARGS];
    int failed = 0;

    reset(&s);
    pointers(&s, a);
    prepare(&s, fill, a, ctx);
    nsm_status st0 = call(a, ctx);
    failed += expect(fn, "valid call", "", st0, NSM_OK, 1, 0);

    for (size_t i = 0; i < k; i++) {
        if ((args[i].flags & SW_NULLABLE) || args[i].p == NULL) {
            continue;
        }
        reset(&s);
        pointers(&s, a);
        a[i] = NULL;
        prepare(&s, fill, a, ctx);
        failed += expect(fn, "NULL", args[i].name, call(a, ctx), NSM_ERR_NULL, unchanged(&s),
                         opts);
    }

    for (size_t i = 0; i < k; i++) {
        if (!(args[i].flags & SW_OUT) || (args[i].flags & SW_NOALIAS) || args[i].p == NULL) {
            continue;
        }
        for (size_t j = 0; j < k; j++) {
            if (j == i || (args[j].flags & SW_NOALIAS) || args[j].p == NULL ||
                args[j].bytes == 0) {
                continue;
            }
            char what[96];
            /* i starts where j starts, then (j an array of doubles) on j's last double */
            size_t offs[2] = {0u, 0u};
            if (args[j].bytes % sizeof(double) == 0u) {
                offs[1] = args[j].bytes - sizeof(double);
            }
            for (int t = 0; t < 2; t++) {
                if (t == 1 && offs[1] == 0u) {
                    break;
                }
                reset(&s);
                pointers(&s, a);
                a[i] = s.buf[j] + offs[t];
                snprintf(what, sizeof what, "%s over %s%s", args[i].name, args[j].name,
                         t ? " (last element)" : "");
                prepare(&s, fill, a, ctx);
                failed += expect(fn, "overlap", what, call(a, ctx), NSM_ERR_ALIAS,
                                 unchanged(&s), opts);
            }
        }
    }

    for (size_t i = 0; i < k; i++) {
        if (!(args[i].flags & SW_FINITE) || args[i].p == NULL) {
            continue;
        }
        size_t len = args[i].bytes / sizeof(double);
        size_t pos[2] = {0u, len - 1u};
        const double bad[2] = {NAN, -INFINITY};
        for (int t = 0; t < 2; t++) {
            reset(&s);
            double v = bad[t];
            memcpy(s.buf[i] + pos[t] * sizeof(double), &v, sizeof v);
            memcpy(s.ref[i], s.buf[i], s.cap[i]);
            pointers(&s, a);
            prepare(&s, fill, a, ctx);
            failed += expect(fn, t ? "-Inf (last entry) in" : "NaN (first entry) in",
                             args[i].name, call(a, ctx), NSM_ERR_NOT_FINITE, unchanged(&s), opts);
        }
    }

    for (size_t i = 0; i < k; i++) {
        free(s.buf[i]);
        free(s.ref[i]);
    }
    return failed;
}
