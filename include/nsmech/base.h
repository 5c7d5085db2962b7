/*
 * nsmech/base.h — status codes, dimension limits and argument validation.
 *
 * Conventions used by every nsmech module:
 *  - matrices are dense, row-major arrays of double; the leading dimension equals the number
 *    of columns (element (i, j) of an m×n matrix A is A[i*n + j]);
 *  - every public function that computes returns an nsm_status and writes its results through
 *    pointers; work-size queries and counts return size_t, nsm_status_str and
 *    nsm_impact_arg_fault a static string;
 *  - no function allocates memory: callers pass workspaces sized by a *_work() query;
 *  - dimensions are size_t and limited to NSM_MAX_DIM, so that every index i*n + j and every
 *    workspace size fits comfortably in size_t (the proofs rely on this bound).
 */
#ifndef NSMECH_BASE_H
#define NSMECH_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __FRAMAC__
#include "nsm_logic.acsl.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Largest dimension (rows, columns, contacts, ...) any nsmech function accepts. */
#define NSM_MAX_DIM 1024u

/** Result of every public nsmech function. NSM_OK is 0; every other value is an error. */
typedef enum nsm_status {
    NSM_OK = 0,              /**< success */
    NSM_ERR_NULL,            /**< a required pointer argument is NULL */
    NSM_ERR_SIZE,            /**< a dimension is zero where it may not be, or exceeds NSM_MAX_DIM */
    NSM_ERR_ARG,             /**< an argument value is out of its domain (tolerance, gain, mu, ...) */
    NSM_ERR_NOT_FINITE,      /**< an input contains NaN or an infinity */
    NSM_ERR_NOT_SPD,         /**< a matrix that must be symmetric positive definite is not */
    NSM_ERR_RANK,            /**< a rank or solvability condition fails */
    NSM_ERR_BOUND,           /**< a computed a-priori bound was exceeded */
    NSM_ERR_NO_CONVERGENCE,  /**< an iteration did not converge within its cap */
    NSM_ERR_WORKSPACE,       /**< the workspace is smaller than the *_work() query says */
    NSM_ERR_ALIAS,           /**< outputs overlap inputs or each other where that is forbidden */
    NSM_ERR_NO_BOUND,        /**< no a-priori bound: gamma is 0 to the wedge tolerance (the
                                  contacts may wedge) */
    NSM_ERR_NOT_CERTIFIED,   /**< no a-priori bound certified within the iteration budget:
                                  gamma > 0 was neither shown nor found to be 0 */
    NSM_ERR_OVERFLOW,        /**< finite inputs gave an overflow or a non-finite intermediate result */
    NSM_STATUS_COUNT         /**< number of status codes (not a status) */
} nsm_status;

/*
 * Which argument failed validation. A function whose result struct has a field
 *     const char *bad_arg;
 * stores there, when it rejects its arguments (NSM_ERR_NULL, NSM_ERR_SIZE, NSM_ERR_ARG,
 * NSM_ERR_NOT_FINITE, NSM_ERR_NOT_SPD, NSM_ERR_ALIAS, NSM_ERR_WORKSPACE), a string literal
 * naming the offending parameter as spelled in the prototype ("M", "mu", "lwork") or an
 * options field ("opts->steps", "pol->order"); NULL on success and for statuses not caused by
 * one argument. Its header says when the struct itself cannot be written (e.g. it is NULL).
 */

/*@ assigns \result \from s;
    ensures non_null: \result != \null;
 */
const char *nsm_status_str(nsm_status s);

/**
 * 1 if every x[i], 0 <= i < len, is finite (neither NaN nor an infinity), else 0.
 * len = 0 gives 1. x may be NULL only when len = 0.
 * (Under the real model of the proofs, doubles are reals and every value is finite; the
 * IEEE meaning of this function is established by the tests.)
 */
/*@ requires valid_x: len == 0 || \valid_read(x + (0 .. len - 1));
    assigns \nothing;
    ensures boolean: \result == 0 || \result == 1;
 */
int nsm_all_finite(size_t len, const double *x);

/**
 * 1 if 1 <= n <= NSM_MAX_DIM, else 0.
 */
/*@ assigns \nothing;
    ensures \result == 1 <==> (1 <= n <= NSM_MAX_DIM);
    ensures \result == 0 || \result == 1;
 */
int nsm_dim_ok(size_t n);

/**
 * 1 if n <= NSM_MAX_DIM (zero allowed, e.g. no constraints), else 0.
 */
/*@ assigns \nothing;
    ensures \result == 1 <==> n <= NSM_MAX_DIM;
    ensures \result == 0 || \result == 1;
 */
int nsm_dim0_ok(size_t n);

/**
 * Validate a dense input block: NSM_ERR_NULL if x is NULL while len > 0, NSM_ERR_NOT_FINITE if
 * any entry is NaN/Inf, else NSM_OK.
 */
/*@ requires valid_x: x == \null || \valid_read(x + (0 .. len - 1));
    assigns \nothing;
    behavior null_block:
      assumes len > 0 && x == \null;
      ensures \result == NSM_ERR_NULL;
    behavior empty:
      assumes len == 0;
      ensures \result == NSM_OK;
    behavior present:
      assumes len > 0 && x != \null;
      ensures \result == NSM_OK || \result == NSM_ERR_NOT_FINITE;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_check_input(size_t len, const double *x);

/**
 * 1 if the n×n matrix A is symmetric to within tol·max(1, max|A_ij|) entrywise, else 0.
 */
/*@ requires dim: n <= NSM_MAX_DIM;
    requires valid_A: n == 0 || \valid_read(A + (0 .. n*n - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
int nsm_is_symmetric(size_t n, const double *A, double tol);

/**
 * 1 if the byte ranges [a, a + na) and [b, b + nb) (counted in doubles) overlap, else 0.
 * Used to reject aliasing where an output may not share storage with an input.
 * na and nb are at most NSM_MAX_DIM² (any matrix nsmech accepts).
 */
/*@ requires sizes: na <= NSM_MAX_DIM * NSM_MAX_DIM && nb <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires valid_a: na == 0 || \valid_read(a + (0 .. na - 1));
    requires valid_b: nb == 0 || \valid_read(b + (0 .. nb - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures disjoint: (na == 0 || nb == 0) ==> \result == 0;
 */
int nsm_overlap(const double *a, size_t na, const double *b, size_t nb);

/**
 * 1 if the byte ranges [a, a + na) and [b, b + nb) overlap, else 0, for storage of different
 * types (a structure against an array of doubles, indices against coordinates). The
 * addresses are integers: the caller converts each typed pointer, (uintptr_t)p.
 * na and nb (bytes) are at most 16·NSM_MAX_DIM².
 */
/*@ requires sizes: na <= 16 * NSM_MAX_DIM * NSM_MAX_DIM && nb <= 16 * NSM_MAX_DIM * NSM_MAX_DIM;
    assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures disjoint: (na == 0 || nb == 0) ==> \result == 0;
 */
int nsm_overlap_bytes(uintptr_t a, size_t na, uintptr_t b, size_t nb);

/** Most spans of either table nsm_spans_overlap accepts. */
#define NSM_MAX_SPANS 32u

/** The bytes [addr, addr + len) of one argument; len 0 for an argument that is absent. */
typedef struct nsm_span {
    uintptr_t addr; /**< the argument's address, (uintptr_t)p */
    size_t len;     /**< its length in bytes */
} nsm_span;

/*@ // Two spans share a byte (empty spans share none), read over the integers.
    predicate nsm_spans_meet(nsm_span a, nsm_span b) =
        a.len > 0 && b.len > 0 && a.addr < b.addr + b.len && b.addr < a.addr + a.len;
 */

/**
 * 1 if one of the nw spans w (what a function writes) shares a byte with another of them or
 * with one of the nr spans r (what it only reads), else 0; read spans may share bytes with
 * each other. The table form of pairwise nsm_overlap_bytes checks: an entry point lists its
 * arguments once and the aliasing rule is one call.
 */
/*@ requires counts: nw <= NSM_MAX_SPANS && nr <= NSM_MAX_SPANS;
    requires valid_w: nw == 0 || \valid_read(w + (0 .. nw - 1));
    requires valid_r: nr == 0 || \valid_read(r + (0 .. nr - 1));
    assigns \nothing;
    ensures bool: \result == 0 || \result == 1;
    ensures meaning: \result == 1 <==>
        ((\exists integer i, j; 0 <= i < j < nw && nsm_spans_meet(w[i], w[j])) ||
         (\exists integer i, j; 0 <= i < nw && 0 <= j < nr && nsm_spans_meet(w[i], r[j])));
 */
int nsm_spans_overlap(size_t nw, const nsm_span *w, size_t nr, const nsm_span *r);

#ifdef __cplusplus
}
#endif

#endif /* NSMECH_BASE_H */
