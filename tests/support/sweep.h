/*
 * Argument sweeps: the per-argument error claims that every public function documents,
 * checked one argument at a time from one valid call.
 *
 *   - NSM_ERR_NULL when a required pointer is NULL (each in turn);
 *   - NSM_ERR_ALIAS when an output (or the workspace) overlaps any other array: both the same
 *     start, and a one-element overlap (the output starting on the other array's last element);
 *   - NSM_ERR_NOT_FINITE when a checked input holds a NaN or an infinity (first and last entry);
 *   - with SWEEP_UNWRITTEN, no buffer but SW_SCRATCH ones changed by any of these error
 *     returns ("nothing written", "only work is written on error").
 *
 * The sweep copies each argument but the SW_OUT ones (filled with a byte pattern instead)
 * into its own buffer with room for the overlapping layouts
 * (an undetected overlap stays inside the copies: ASan and Valgrind would report otherwise),
 * and first checks that the valid call returns NSM_OK.
 */
#ifndef NSM_TEST_SWEEP_H
#define NSM_TEST_SWEEP_H

#include <stddef.h>
#include "nsmech/base.h"

enum {
    SW_IN = 1u,       /* input array: the other side of the overlap checks */
    SW_OUT = 2u,      /* output or workspace: must not overlap any other array */
    SW_FINITE = 4u,   /* array of doubles checked for NaN and infinities */
    SW_NULLABLE = 8u, /* NULL allowed in the valid call's configuration: no NULL check */
    SW_NOALIAS = 16u, /* not part of the overlap checks (e.g. a struct of options) */
    SW_SCRATCH = 32u  /* may be written on error ("only work is written on error") */
};

#define SWEEP_UNWRITTEN 1u

typedef struct {
    const char *name;
    const void *p;  /* the valid argument (copied) */
    size_t bytes;   /* its extent in bytes (a multiple of sizeof(double) for SW_FINITE) */
    unsigned flags;
} sweep_arg;

/** Calls the function under test with the arguments a[0..k-1] (the other parameters fixed). */
typedef nsm_status (*sweep_call)(void *const *a, void *ctx);

/** Runs the sweeps over k arguments (k <= 16); returns the number of failed checks (each also
    a CUnit failure naming the function, the argument and the status returned). */
int sweep_args(const char *fn, sweep_call call, void *ctx, const sweep_arg *args, size_t k,
               unsigned opts);

/** Fills a structure argument of the call (a result structure: its pointer fields from the
    other arguments a[], its scalars) in place, before each call. */
typedef void (*sweep_fill)(void *const *a, void *ctx);

/** sweep_args with fill run before every call, after the arguments are laid out (so a
    structure placed over another argument is written there, as a caller would) and before
    the "nothing written" reference copy is taken. */
int sweep_args_fill(const char *fn, sweep_call call, sweep_fill fill, void *ctx,
                    const sweep_arg *args, size_t k, unsigned opts);

#endif
