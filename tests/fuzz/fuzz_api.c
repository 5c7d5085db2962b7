/*
 * libFuzzer harness: the public C API (the headers under include/nsmech/) on structured inputs.
 *
 * Input layout: byte 0 picks the function; the rest is read as a stream by the decoders
 * below (an exhausted stream reads as zero bytes, so every input decodes):
 *   dimension  one byte: 0xff = NSM_MAX_DIM + 1, 0xfe = SIZE_MAX, else byte % (max + 1) with
 *              a small max (at most 6): 0 and mismatched sizes come up often;
 *   value      one byte: < 0xa0 a small number (byte - 64)/16; 0xa0..0xaf one of NaN, ±Inf,
 *              ±1e300, ±1e-300, the denormals 4.9e-324 and 2.2e-310, -0, ±1e200, DBL_MAX,
 *              1e150, 1e-150, 0.5; >= 0xb0 the next 8 bytes as a raw double;
 *   pointers   a NULL mask (bit i: argument slot i is NULL);
 *   aliasing   one byte >= 0xc0 places an output (a matrix, a vector, or a struct such as
 *              info, res or rank) inside another argument (input, output or work) at an
 *              offset read from the stream;
 *   workspace  the *_work() query, one less than it (short), or a little more;
 *   options    decoded values, in or out of their documented domains (rtol, mu, steps, ...);
 *   shape      a flag byte makes square matrices symmetric and diagonally dominant (SPD), so
 *              that valid problems are frequent.
 * Buffers have exactly the size the call may touch (ASan catches any access beyond), and
 * sizes above NSM_MAX_DIM are passed with one-entry buffers (they must be rejected first).
 * Budgets: dimensions at most 6 (contacts at most 4), integrator steps at most 16, Frank-Wolfe
 * iterations at most 32 and fallback steps at most 64 when in domain, Routh spatial steps at
 * most 64: one input runs in well under a millisecond on average.
 *
 * Assertions (abort() on a violation, reported by libFuzzer as a crash), from the headers:
 *  A1 the status is one the function documents (its "Errors" list or status clause);
 *  A2 inputs (const) are never modified, on any status;
 *  A3 on an error the header says writes nothing (or nothing but work), every output is
 *     bitwise unchanged (compared with a copy); impact's BOUND, NO_CONVERGENCE, NO_BOUND and
 *     NOT_CERTIFIED, documented to write the outputs and info, are exempt;
 *  A4 an output placed where the header says overlap is rejected (an input, another output,
 *     the work the query asks for, info) gives an argument error (NSM_ERR_ALIAS or one found
 *     before it: NULL, SIZE, ARG, WORKSPACE, NOT_FINITE, NOT_SPD), never a computed status;
 *     documented in-place uses are allowed;
 *  A5 on NSM_OK, the promises of the header: ranks within min(m, n); singular values finite,
 *     non-negative, descending, U/V finite (svd: NOT_FINITE when s_1 exceeds DBL_MAX); A⁺ and
 *     the bases finite (pinv, range_null); P and Q finite and symmetric (projector, P + Q = I);
 *     info->mu > 0 and P, M̄ symmetric (dynamics); Unit: the case is DIRECTION or BALL, BALL
 *     gives u = 0, DIRECTION a finite unit vector; cone membership equal to a long double
 *     evaluation away from ties, projections inside the cone and fixed points kept; hull
 *     indices in range and distinct; Routh: p_n >= 0, p_t in the cone, trivial answer when
 *     not penetrating, at most NSM_ROUTH_MAX_PHASES phases (cone up to rounding, as for
 *     impact below); bound >= 0 and, against nsm_routh_planar, p_n <= bound; impact: steps <=
 *     step_cap, every J_n,c v_plus >= -check_tol, impulses in their cones (up to rounding:
 *     1e-9 relative, and DBL_TRUE_MIN per unit of s for a subnormal mu), the trivial answer
 *     when nothing penetrates; on NSM_OK every real output of Routh and of impact (v_plus,
 *     Lambda, info) is finite (NSM_ERR_OVERFLOW otherwise); every input point lies on the
 *     left of or on every hull edge (the library's orientation test is exact; the harness
 *     evaluates in long double, to 1e-9 of the local scale).
 *
 * Findings, each fixed in src/ with its minimised input kept in tests/fuzz/corpus/fuzz_api/
 * (finding_<id>_*) and a regression test in make test:
 *  P1 nsm_routh_spatial returned NSM_OK with non-finite impulses when the bound or an impulse
 *     overflowed: now NSM_ERR_OVERFLOW (tests/test_routh_spatial.c);
 *  P2 nsm_unit divided by the unscaled norm big·sqrt(ss) (‖v‖₂ above DBL_MAX gave u = 0, a
 *     subnormal ‖v‖₂ a u that was not a unit vector); it now divides v/big by sqrt(ss)
 *     (tests/test_setvalued.c);
 *  P3 nsm_hull2d with coordinates >= 1e153: the orientation tests overflowed and gave a wrong
 *     hull (an index twice); an orientation test that overflows is now evaluated again on
 *     coordinates scaled by 2^-600 (tests/test_geometry.c). A first fix scaled every test as
 *     soon as one coordinate exceeded 2^500 and lost vertices of order 1 to underflow
 *     (finding_P3_hull_mixed_scale, found by the hull containment assertion);
 *  P4 nsm_cone_project returned NSM_OK with NaN or infinite outputs when the closed form
 *     overflowed; now NSM_ERR_OVERFLOW with nothing written;
 *  P5 nsm_impact_solve[_d] returned NSM_OK with a non-finite v_plus (mu = 1e305): now
 *     NSM_ERR_OVERFLOW, also for the former known cases v_minus ~ 1e200 and an ill-scaled M
 *     (tests/test_impact.c);
 *  P6 nsm_routh_planar returned NSM_OK with p_n = inf when -u_n/W_nn overflowed, and
 *     nsm_routh_bound an infinite bound: now NSM_ERR_OVERFLOW (tests/test_contact.c); and
 *     nsm_routh_bound returned 0 for a penetrating contact when u0 ~ 1e-234 underflowed its
 *     quadratic form (finding_P6_routh_bound_underflow, found by the check p_n <= bound):
 *     Lemma 2 is now evaluated on scaled data;
 *  P7 nsm_cone_contains decided membership on the unscaled norm, rounded to a subnormal; it
 *     now compares the scaled norm with (mu·ln + tol)/max|lt_i|;
 *  P8 nsm_hull2d dropped a vertex of four points a few ulps apart at 1e-236 next to points at
 *     1e281 (a CI run's fuzzing; finding_P8_hull_underflow rebuilt from the same failure found
 *     by a stress loop): the exact stage scaled each axis by one power of two and its products
 *     underflowed. It now adds the six products of coordinates in integers, exact for all
 *     finite coordinates (tests/test_geometry.c, big-integer orientation property);
 *  P9 nsm_routh_spatial stuck a contact at rest whose |W_tt^-1 W_tn| (~3e-265) exceeded a tiny
 *     mu (6e-299, or subnormal): both squares underflowed to 0, and |p_t| left the cone by
 *     a factor 1e34 (a 20-minute run on the tree that fixed P8). The rule at rest now
 *     compares |q| with mu through max |q_i| (nothing squared that can underflow), and the
 *     re-slip direction is found on W_tn and mu divided by max |W_tn,i|. A first fix divided
 *     before the rule and lost W_tn ~ 1.7e289 the same way (finding_P9_routh_spatial_huge_*,
 *     found by the next run); tests/test_routh_spatial.c, scales 1 to 1e-300;
 *  P10 nsm_cone_project scaled lt by mu*pn/|lt|, which was subnormal (~1.3e-319 for
 *     mu = 2e-270, ln = 1.8e184, |lt| = 2.7e233) and left |pt| 1.8e-5 above mu*pn (a CI run's
 *     fuzzing, finding_P10_cone_project_subnormal_scale). The unit direction lt/|lt| is now
 *     formed first, then scaled by mu*pn (tests/test_setvalued.c);
 *  P11 nsm_impact_solve returned a contact's impulse 1.0009 times outside its cone (mu_1 =
 *     4.79e-246, held at normal rest while slipping; a 15-minute local run): each update of a
 *     held weight moved the tangential slot by s·dx, and the sums drifted from s·x. The slots
 *     are now set from x (tests/test_impact_spatial.c);
 *  T1 nsm_impact_solve_d took 23 s (libFuzzer timeout, a CI run's fuzzing;
 *     finding_T1_impact_spatial_stalled_turn): n = 1, four spatial contacts at scales 1e242
 *     and 1e245, whose slips' turn bound shrank to segments that moved no velocity beyond
 *     rounding, 20 000 of them (the exact-short budget), each with projected Gauss–Seidel
 *     cycling for 400 sweeps. Such a segment now ends the exact following of slips, and the
 *     sweeps stop after 64 without a new smallest change: 7 ms (tests/test_impact_spatial.c).
 *     Its bound was itself unsound: |g_t|² overflowed and Frank–Wolfe's vertex lost contact 0's
 *     friction, whose cone holds J^T Λ = 0; tangential norms are now scaled beyond 2^±450
 *     (tnorm) and the input gives NSM_ERR_NO_BOUND;
 *  T2 nsm_impact_solve_d took 17 s (a 15-minute local run after T1's fix;
 *     finding_T2_impact_spatial_short_budget): n = 5, four spatial contacts, steps = 13, a
 *     Zeno accumulation of stick/slip events that used the 20 000 exact short segments of a
 *     spatial run whatever its steps. They are now also at most NSM_IMPACT_EXACT_SHORT_PER_STEP
 *     (25) per step of h: 463 steps, 0.46 ms at -O2 (tests/test_impact_spatial.c);
 *  T3 nsm_impact_solve took 4.8 s under the sanitizers (libFuzzer timeout, a CI run's fuzzing;
 *     finding_T3_impact_arc_underflow): n = 5, four spatial contacts, sequential, steps = 5,
 *     M ~ 1e200. A slip arc's test for a slip heading into rest squared g_t ~ 1e-203 to 0 and
 *     never fired; a slow slip on a stiff block ran each arc to its substep cap. The test now
 *     measures the angle on x_t and g_t scaled to a largest entry of 1: 18 ms
 *     (tests/test_impact_spatial.c, the arc at scales 1, 1e-200 and 1e200);
 *  K3, K4 nsm_impact_solve (then with positional arguments) did not check info for overlap
 *     (K3: info over v_plus returned NSM_OK with a wrong v_plus; K4: info over Jn overwrote
 *     an input): now NSM_ERR_ALIAS when info overlaps any other argument
 *     (tests/test_impact.c). info now lives in the
 *     result struct nsm_impact_result, which slot I holds: any overlap of the struct with an
 *     argument is NSM_ERR_ALIAS.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nsmech.h"

/* ---- decoding -------------------------------------------------------------------------- */

typedef struct rd {
    const uint8_t *p;
    size_t n;
} rd;

static unsigned u8(rd *r)
{
    if (r->n == 0) {
        return 0;
    }
    r->n--;
    return *r->p++;
}

static double val(rd *r)
{
    static const double special[16] = {
        NAN, INFINITY, -INFINITY, 1e300, -1e300, 1e-300, -1e-300, 4.9e-324,
        2.2e-310, -0.0, 1e200, -1e200, DBL_MAX, 1e150, 1e-150, 0.5
    };
    unsigned c = u8(r);
    if (c < 0xa0) {
        return ((double)c - 64.0) / 16.0;
    }
    if (c < 0xb0) {
        return special[c - 0xa0];
    }
    uint64_t b = 0;
    for (int i = 0; i < 8; i++) {
        b = b << 8 | u8(r);
    }
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

#define HUGE_DIM ((size_t)NSM_MAX_DIM + 1)

static size_t dim(rd *r, size_t max)
{
    unsigned c = u8(r);
    if (c == 0xff) {
        return HUGE_DIM;
    }
    if (c == 0xfe) {
        return SIZE_MAX;
    }
    return c % (max + 1);
}

/* Size used for allocation: an out-of-range dimension gets one entry. */
static size_t al(size_t d)
{
    return d > NSM_MAX_DIM ? 1 : d;
}

/* what the current test set up, printed with a failed assertion */
static char desc[160];

/* NSM_FUZZ_DEBUG=1 in the environment: print the decoded problem (reproducing a finding) */
static int debug;

static void dump(const char *name, size_t len, const double *x)
{
    if (!debug) {
        return;
    }
    fprintf(stderr, "  %s =", name);
    for (size_t i = 0; x != NULL && i < len && i < 64; i++) {
        fprintf(stderr, " %.17g", x[i]);
    }
    fprintf(stderr, "%s\n", x == NULL ? " NULL" : "");
}

/* ---- argument slots -------------------------------------------------------------------- */

enum { IN = 0, OUT = 1, WK = 2 };
#define MAXS 16

typedef struct slot {
    size_t len;     /* doubles the call may touch */
    int kind;
    double *mem;    /* own allocation (NULL when carved) */
    size_t cap;
    double *p;      /* the pointer passed */
    int carved;     /* placed inside slot host at offset off */
    int host;
    size_t off;
    double *snap;
    int hosts_out;  /* an output is carved inside */
    int hosts_wk;   /* the work is carved inside */
    int null;
} slot;

typedef struct frame {
    slot s[MAXS];
    int ns;
    unsigned char nonull[MAXS];   /* slots that may not be NULL in this test */
    unsigned char noalias[MAXS];  /* outputs that may not be carved (overlap is a precondition) */
    unsigned char forbid[MAXS][MAXS]; /* [out][host]: carving is a contract violation: skip */
    unsigned char det[MAXS][MAXS];    /* overlap the header says is rejected (NSM_ERR_ALIAS) */
    size_t need;                      /* the work the query asks for (overlap counts there) */
    int alias_out, alias_host;    /* the carving done, -1 if none */
} frame;

static int add(frame *F, size_t len, int kind)
{
    int i = F->ns++;
    memset(&F->s[i], 0, sizeof F->s[i]);
    F->s[i].len = len;
    F->s[i].kind = kind;
    F->s[i].host = -1;
    return i;
}

/* The header says any two of these may not overlap. */
static void det_group(frame *F, const int *ids, int k)
{
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++) {
            F->det[ids[i]][ids[j]] = 1;
        }
    }
}

static void det_all(frame *F)
{
    for (int i = 0; i < F->ns; i++) {
        for (int j = 0; j < F->ns; j++) {
            F->det[i][j] = 1;
        }
    }
}

/*
 * Slot k is never placed inside another argument nor hosts one: an integer output (rank)
 * whose overlap with a double array the header neither forbids nor promises to detect (and
 * which C's effective-type rules make the caller's fault).
 */
static void keep_apart(frame *F, int k)
{
    F->noalias[k] = 1;
    for (int i = 0; i < MAXS; i++) {
        F->forbid[i][k] = 1;
    }
}

static size_t words(size_t bytes)
{
    return (bytes + sizeof(double) - 1) / sizeof(double);
}

/*
 * NULL mask, aliasing, allocation and filling. Inputs are filled from the stream; if spd is
 * set, the n×n slots listed in sq[] are made symmetric and diagonally dominant.
 */
static void setup(frame *F, rd *r)
{
    unsigned nm = u8(r);
    unsigned nullmask = (nm & 0xe0) == 0xe0 ? (nm & 0x1f) | (u8(r) << 5) : 0;
    F->alias_out = F->alias_host = -1;
    unsigned a = u8(r);
    if (a >= 0xc0) {
        int o = (int)(u8(r) % (unsigned)F->ns), h = (int)(u8(r) % (unsigned)F->ns);
        if (o != h && F->s[o].kind == OUT && !F->noalias[o] && !F->forbid[o][h]
            && F->s[o].len > 0) {
            F->alias_out = o;
            F->alias_host = h;
            F->s[o].carved = 1;
            F->s[o].host = h;
            F->s[o].off = F->s[h].len > 0 ? u8(r) % F->s[h].len : 0;
        }
    }
    /* the work carved inside an output (the reverse direction) */
    if (F->alias_out < 0 && a >= 0x80 && a < 0x90) {
        int w = -1;
        for (int i = 0; i < F->ns; i++) {
            if (F->s[i].kind == WK) {
                w = i;
            }
        }
        int h = (int)(u8(r) % (unsigned)F->ns);
        if (w >= 0 && h != w && F->s[h].kind == OUT && !F->s[h].carved && F->s[w].len > 0) {
            F->alias_out = w;
            F->alias_host = h;
            F->s[w].carved = 1;
            F->s[w].host = h;
            F->s[w].off = F->s[h].len > 0 ? u8(r) % F->s[h].len : 0;
        }
    }
    for (int i = 0; i < F->ns; i++) {
        slot *s = &F->s[i];
        if (s->carved) {
            continue;
        }
        s->cap = s->len;
        for (int j = 0; j < F->ns; j++) {
            if (F->s[j].carved && F->s[j].host == i) {
                size_t end = F->s[j].off + F->s[j].len;
                s->cap = end > s->cap ? end : s->cap;
                if (F->s[j].kind == WK) {
                    s->hosts_wk = 1;
                } else {
                    s->hosts_out = 1;
                }
            }
        }
        s->mem = malloc((s->cap > 0 ? s->cap : 1) * sizeof(double));
        for (size_t k = 0; k < s->cap; k++) {
            s->mem[k] = s->kind == IN ? val(r) : -7.25;
        }
        s->p = s->mem;
    }
    for (int i = 0; i < F->ns; i++) {
        slot *s = &F->s[i];
        if (s->carved) {
            s->p = F->s[s->host].mem + s->off;
        }
    }
    for (int i = 0; i < F->ns && i < 13; i++) {
        if ((nullmask >> i & 1) && !F->nonull[i]) {
            F->s[i].p = NULL;
            F->s[i].null = 1;
        }
    }
    snprintf(desc, sizeof desc, "nulls 0x%x, slot %d inside slot %d at %zu", nullmask,
             F->alias_out, F->alias_host,
             F->alias_out >= 0 ? F->s[F->alias_out].off : (size_t)0);
}

/* Makes the n×n matrix A symmetric (upper triangle mirrored) and diagonally dominant, so SPD. */
static void spd_in_place(double *A, size_t n)
{
    for (size_t r = 0; r < n; r++) {
        double sum = 0.0;
        for (size_t c = 0; c < r; c++) {
            A[r * n + c] = A[c * n + r];
        }
        for (size_t c = 0; c < n; c++) {
            sum += c != r ? fabs(A[r * n + c]) : 0.0;
        }
        A[r * n + r] = sum + fabs(A[r * n + r]) + 1.0;
    }
}

/* Makes the n×n input at slot i SPD (spd_in_place) when it holds a whole matrix. */
static void make_spd(frame *F, int i, size_t n)
{
    double *A = F->s[i].mem;
    if (A == NULL || F->s[i].carved || n > NSM_MAX_DIM || F->s[i].len < n * n) {
        return;
    }
    spd_in_place(A, n);
}

static void snapshot(frame *F)
{
    for (int i = 0; i < F->ns; i++) {
        slot *s = &F->s[i];
        s->snap = NULL;
        if (s->mem != NULL && s->kind != WK && !s->hosts_wk) {
            s->snap = malloc((s->cap > 0 ? s->cap : 1) * sizeof(double));
            memcpy(s->snap, s->mem, s->cap * sizeof(double));
        }
    }
}

static int unchanged(const slot *s)
{
    return s->snap == NULL || memcmp(s->snap, s->mem, s->cap * sizeof(double)) == 0;
}

static void release(frame *F)
{
    for (int i = 0; i < F->ns; i++) {
        free(F->s[i].mem);
        free(F->s[i].snap);
    }
}

/* ---- assertions ------------------------------------------------------------------------ */

static const char *cur_fn = "?";

#define CHECK(c)                                                                              \
    do {                                                                                      \
        if (!(c)) {                                                                           \
            fprintf(stderr, "fuzz_api: %s: assertion failed: %s (line %d) [%s]\n", cur_fn, #c, \
                    __LINE__, desc);                                                          \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

#define BIT(s) (1u << (s))

static void check_status(nsm_status s, unsigned allowed)
{
    if (debug) {
        fprintf(stderr, "%s -> %s\n", cur_fn, nsm_status_str(s));
    }
    CHECK((unsigned)s < NSM_STATUS_COUNT);
    if (!(allowed >> s & 1u)) {
        fprintf(stderr, "fuzz_api: %s: undocumented status %d (%s)\n", cur_fn, (int)s,
                nsm_status_str(s));
        abort();
    }
}

/*
 * A2, A3, A4. wrote_on_error: the status is one after which the header lets outputs be
 * written. inplace_ok: the carving done is a documented in-place use.
 */
static void check_common(frame *F, nsm_status s, int wrote_on_error, int inplace_ok)
{
    for (int i = 0; i < F->ns; i++) {
        const slot *sl = &F->s[i];
        if (sl->kind == IN && !sl->hosts_out) {
            CHECK(unchanged(sl)); /* A2 */
        }
        if (s != NSM_OK && !wrote_on_error) {
            CHECK(unchanged(sl)); /* A3 */
        }
    }
    if (F->alias_out >= 0 && !inplace_ok && F->det[F->alias_out][F->alias_host]) {
        const slot *o = &F->s[F->alias_out];
        const slot *h = &F->s[F->alias_host];
        /* an overlap counts only when both are passed and the output lies inside the part of
           the host the call may use (for the work: the part the query asks for) */
        size_t hl = h->kind == WK && F->need < h->len ? F->need : h->len;
        size_t ol = o->kind == WK && F->need < o->len ? F->need : o->len;
        if (!o->null && !h->null && hl > 0 && ol > 0 && o->off < hl) {
            /* A4: rejected by the argument checks, before any computation */
            CHECK(s == NSM_ERR_NULL || s == NSM_ERR_SIZE || s == NSM_ERR_ARG ||
                  s == NSM_ERR_WORKSPACE || s == NSM_ERR_ALIAS || s == NSM_ERR_NOT_FINITE ||
                  s == NSM_ERR_NOT_SPD);
        }
    }
}

static int finite_all(size_t len, const double *x)
{
    for (size_t i = 0; i < len; i++) {
        if (!isfinite(x[i])) {
            return 0;
        }
    }
    return 1;
}

/* symmetric bitwise, NaN equal to NaN */
static int sym_bits(size_t n, const double *A)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < i; j++) {
            if (memcmp(&A[i * n + j], &A[j * n + i], sizeof(double)) != 0) {
                return 0;
            }
        }
    }
    return 1;
}

static size_t mn(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* workspace choice: the query, one less (short), or a few more */
static size_t pick_lwork(rd *r, size_t q)
{
    unsigned c = u8(r) & 7;
    if (c == 0 && q > 0) {
        return q - 1;
    }
    if (c == 1) {
        return q + 3;
    }
    return q;
}

static double pick_rtol(rd *r)
{
    unsigned c = u8(r);
    if (c < 0x80) {
        return NSM_RANK_RTOL_DEFAULT;
    }
    if (c < 0xc0) {
        return (double)(c - 0x80) / 64.0; /* [0, 1) */
    }
    return val(r); /* anything, out of domain included */
}

/* ---- linalg ---------------------------------------------------------------------------- */

static void f_svd(rd *r)
{
    cur_fn = "nsm_svd";
    size_t m = dim(r, 6), n = dim(r, 6), am = al(m), an = al(n), p = mn(am, an);
    int wantU = u8(r) & 1, wantV = u8(r) & 1;
    size_t lw = pick_lwork(r, nsm_svd_work(m, n));
    frame F;
    memset(&F, 0, sizeof F);
    int A = add(&F, am * an, IN), S = add(&F, p, OUT), U = add(&F, wantU ? am * p : 0, OUT),
        V = add(&F, wantV ? an * p : 0, OUT), W = add(&F, lw, WK);
    const int g[] = {A, S, U, V, W}; /* "outputs and work must not overlap A or each other" */
    det_group(&F, g, 5);
    F.need = nsm_svd_work(m, n);
    setup(&F, r);
    snapshot(&F);
    double *Up = wantU ? F.s[U].p : NULL, *Vp = wantV ? F.s[V].p : NULL;
    nsm_status s = nsm_svd(m, n, F.s[A].p, F.s[S].p, Up, Vp, F.s[W].p, lw);
    check_status(s, BIT(NSM_OK) | BIT(NSM_ERR_NULL) | BIT(NSM_ERR_SIZE) |
                        BIT(NSM_ERR_WORKSPACE) | BIT(NSM_ERR_ALIAS) | BIT(NSM_ERR_NOT_FINITE) |
                        BIT(NSM_ERR_NO_CONVERGENCE));
    if (m <= NSM_MAX_DIM && n <= NSM_MAX_DIM && p > 0 && F.s[A].p && F.s[S].p && F.s[W].p
        && lw < nsm_svd_work(m, n)) {
        CHECK(s == NSM_ERR_WORKSPACE);
    }
    check_common(&F, s, 0, 0);
    if (s == NSM_OK && m <= NSM_MAX_DIM && n <= NSM_MAX_DIM && p > 0) {
        const double *sv = F.s[S].p;
        CHECK(finite_all(p, sv));
        for (size_t i = 0; i < p; i++) {
            CHECK(sv[i] >= 0.0);
            CHECK(i == 0 || sv[i] <= sv[i - 1]);
        }
        if (Up != NULL) {
            CHECK(finite_all(am * p, Up));
        }
        if (Vp != NULL) {
            CHECK(finite_all(an * p, Vp));
        }
    }
    release(&F);
}

static void f_pinv(rd *r)
{
    cur_fn = "nsm_pinv";
    size_t m = dim(r, 6), n = dim(r, 6), am = al(m), an = al(n);
    double rtol = pick_rtol(r);
    size_t lw = pick_lwork(r, nsm_pinv_work(m, n));
    frame F;
    memset(&F, 0, sizeof F);
    int A = add(&F, am * an, IN), K = add(&F, words(sizeof(size_t)), OUT),
        X = add(&F, an * am, OUT), W = add(&F, lw, WK);
    keep_apart(&F, K);
    const int g[] = {A, X, W}; /* "X may not overlap A"; work: linalg.h validation order */
    det_group(&F, g, 3);
    F.need = nsm_pinv_work(m, n);
    setup(&F, r);
    snapshot(&F);
    size_t *rank = (size_t *)(void *)F.s[K].p;
    nsm_status s = nsm_pinv(m, n, F.s[A].p, rtol, rank, F.s[X].p, F.s[W].p, lw);
    check_status(s, BIT(NSM_OK) | BIT(NSM_ERR_NULL) | BIT(NSM_ERR_SIZE) | BIT(NSM_ERR_ARG) |
                        BIT(NSM_ERR_WORKSPACE) | BIT(NSM_ERR_ALIAS) | BIT(NSM_ERR_NOT_FINITE) |
                        BIT(NSM_ERR_NO_CONVERGENCE));
    if (m <= NSM_MAX_DIM && n <= NSM_MAX_DIM && rank != NULL && !(rtol >= 0 && rtol < 1)) {
        CHECK(s == NSM_ERR_ARG || s == NSM_ERR_NULL);
    }
    check_common(&F, s, 0, 0);
    if (s == NSM_OK && m <= NSM_MAX_DIM && n <= NSM_MAX_DIM) {
        CHECK(*rank <= mn(m, n));
        if (F.s[X].p != NULL) {
            CHECK(finite_all(m * n, F.s[X].p));
        }
    }
    release(&F);
}

static void f_range_null(rd *r)
{
    cur_fn = "nsm_range_null";
    size_t m = dim(r, 6), n = dim(r, 6), am = al(m), an = al(n);
    double rtol = pick_rtol(r);
    int want_sv = u8(r) & 1;
    size_t lw = pick_lwork(r, nsm_range_null_work(m, n));
    frame F;
    memset(&F, 0, sizeof F);
    int A = add(&F, am * an, IN), K = add(&F, words(sizeof(size_t)), OUT),
        SV = add(&F, want_sv ? mn(am, an) : 0, OUT), B = add(&F, an * an, OUT),
        W = add(&F, lw, WK);
    keep_apart(&F, K);
    const int g[] = {A, SV, B, W};
    det_group(&F, g, 4);
    F.need = nsm_range_null_work(m, n);
    setup(&F, r);
    snapshot(&F);
    size_t *rank = (size_t *)(void *)F.s[K].p;
    double *svp = want_sv ? F.s[SV].p : NULL;
    nsm_status s = nsm_range_null(m, n, F.s[A].p, rtol, rank, svp, F.s[B].p, F.s[W].p, lw);
    check_status(s, BIT(NSM_OK) | BIT(NSM_ERR_NULL) | BIT(NSM_ERR_SIZE) | BIT(NSM_ERR_ARG) |
                        BIT(NSM_ERR_WORKSPACE) | BIT(NSM_ERR_ALIAS) | BIT(NSM_ERR_NOT_FINITE) |
                        BIT(NSM_ERR_NO_CONVERGENCE));
    check_common(&F, s, 0, 0);
    if (s == NSM_OK && m <= NSM_MAX_DIM && n <= NSM_MAX_DIM) {
        CHECK(*rank <= mn(m, n));
        CHECK(m > 0 || *rank == 0);
        CHECK(finite_all(n * n, F.s[B].p));
        if (svp != NULL) {
            CHECK(finite_all(mn(m, n), svp));
        }
    }
    release(&F);
}

/* ---- projection ------------------------------------------------------------------------ */

static void f_projector(rd *r)
{
    cur_fn = "nsm_proj_projector";
    size_t n = dim(r, 6), m = dim(r, 6), an = al(n), am = al(m);
    double rtol = pick_rtol(r);
    size_t lw = pick_lwork(r, nsm_proj_projector_work(n, m));
    frame F;
    memset(&F, 0, sizeof F);
    int A = add(&F, am * an, IN), K = add(&F, words(sizeof(nsm_proj_projector_result)), OUT),
        P = add(&F, an * an, OUT), Q = add(&F, an * an, OUT), X = add(&F, an * am, OUT),
        W = add(&F, lw, WK);
    /* "outputs overlap each other, A or work; or *res overlaps an array of the call" */
    const int g[] = {A, K, P, Q, X, W};
    det_group(&F, g, 6);
    F.need = nsm_proj_projector_work(n, m);
    setup(&F, r);
    nsm_proj_projector_result *res = (nsm_proj_projector_result *)(void *)F.s[K].p;
    if (res != NULL) {
        res->rank = 0;
        res->P = F.s[P].p;
        res->Q = F.s[Q].p;
        res->Apinv = F.s[X].p;
    }
    snapshot(&F);
    nsm_status s = nsm_proj_projector(n, m, F.s[A].p, rtol, res, F.s[W].p, lw);
    check_status(s, BIT(NSM_OK) | BIT(NSM_ERR_NULL) | BIT(NSM_ERR_SIZE) | BIT(NSM_ERR_ARG) |
                        BIT(NSM_ERR_WORKSPACE) | BIT(NSM_ERR_ALIAS) | BIT(NSM_ERR_NOT_FINITE) |
                        BIT(NSM_ERR_NO_CONVERGENCE) | BIT(NSM_ERR_RANK));
    check_common(&F, s, 0, 0);
    if (s == NSM_OK) {
        CHECK(res->rank <= n && res->rank <= m);
        CHECK(finite_all(n * n, F.s[P].p));
        CHECK(finite_all(n * n, F.s[Q].p));
        CHECK(sym_bits(n, F.s[P].p));
        CHECK(sym_bits(n, F.s[Q].p));
    }
    release(&F);
}

static void f_dynamics(rd *r)
{
    cur_fn = "nsm_proj_dynamics";
    size_t n = dim(r, 6), m = dim(r, 6), an = al(n), am = al(m);
    unsigned flags = u8(r);
    nsm_proj_opts opts = NSM_PROJ_OPTS_DEFAULT;
    if (flags & 2) {
        opts.rank_rtol = pick_rtol(r);
        opts.mu_mode = (u8(r) & 3) == 0 ? NSM_MU_GIVEN : NSM_MU_OPTIMAL;
        unsigned mm = u8(r);
        if (mm == 0xff) {
            opts.mu_mode = (nsm_mu_mode)7;
        }
        opts.mu = val(r);
        opts.check_spd = (int)(u8(r) & 1);
        opts.sym_rtol = (u8(r) & 3) == 0 ? val(r) : 1e-12;
    }
    int use_opts = !(flags & 4);
    int want_fc = !(flags & 8), want_P = !(flags & 16), want_Mbar = !(flags & 32);
    size_t lw = pick_lwork(r, nsm_proj_dynamics_work(n, m));
    frame F;
    memset(&F, 0, sizeof F);
    int M = add(&F, an * an, IN), C = add(&F, an * an, IN), A = add(&F, am * an, IN),
        Ad = add(&F, am * an, IN), f = add(&F, an, IN), fg = add(&F, an, IN),
        qd = add(&F, an, IN), qdd = add(&F, an, OUT), fc = add(&F, want_fc ? an : 0, OUT),
        I = add(&F, words(sizeof(nsm_proj_dynamics_result)), OUT),
        P = add(&F, want_P ? an * an : 0, OUT),
        Mb = add(&F, want_Mbar ? an * an : 0, OUT), W = add(&F, lw, WK);
    /* "an output, res->info included, overlaps an input, another output or work; or *res
       overlaps an array of the call" */
    det_all(&F);
    F.need = nsm_proj_dynamics_work(n, m);
    setup(&F, r);
    if (flags & 1) {
        make_spd(&F, M, n);
    }
    double *fcp = want_fc ? F.s[fc].p : NULL, *Pp = want_P ? F.s[P].p : NULL,
           *Mbp = want_Mbar ? F.s[Mb].p : NULL;
    nsm_proj_dynamics_result *res = (nsm_proj_dynamics_result *)(void *)F.s[I].p;
    if (res != NULL) {
        res->qdd = F.s[qdd].p;
        res->fc = fcp;
        res->P = Pp;
        res->Mbar = Mbp;
        res->info.rank = 0;
        res->info.mu = 0.0;
    }
    snapshot(&F);
    const nsm_proj_problem prob = {n, m, F.s[M].p, F.s[C].p, F.s[A].p, F.s[Ad].p, F.s[f].p,
                                   F.s[fg].p, F.s[qd].p};
    nsm_status s = nsm_proj_dynamics(&prob, use_opts ? &opts : NULL, res, F.s[W].p, lw);
    check_status(s, BIT(NSM_OK) | BIT(NSM_ERR_NULL) | BIT(NSM_ERR_SIZE) | BIT(NSM_ERR_ARG) |
                        BIT(NSM_ERR_WORKSPACE) | BIT(NSM_ERR_ALIAS) | BIT(NSM_ERR_NOT_FINITE) |
                        BIT(NSM_ERR_NOT_SPD) | BIT(NSM_ERR_NO_CONVERGENCE) |
                        BIT(NSM_ERR_RANK));
    check_common(&F, s, 0, 0);
    if (s == NSM_OK) {
        CHECK(res->info.rank <= n && res->info.rank <= m);
        CHECK(res->info.mu > 0.0);
        if (Pp != NULL) {
            CHECK(sym_bits(n, Pp));
        }
        if (Mbp != NULL) {
            CHECK(sym_bits(n, Mbp));
        }
    }
    release(&F);
}

/* ---- set-valued ------------------------------------------------------------------------ */

static void f_unit(rd *r)
{
    cur_fn = "nsm_unit";
    size_t n = dim(r, 6), an = al(n);
    double ztol = (u8(r) & 3) == 0 ? val(r) : 1e-12;
    int inplace = (u8(r) & 7) == 0;
    frame F;
    memset(&F, 0, sizeof F);
    int V = add(&F, an, IN), Wh = add(&F, 1, OUT), U = add(&F, an, OUT);
    F.noalias[Wh] = 1; /* which must be separated from u (precondition) */
    F.forbid[U][Wh] = 1;
    F.det[U][V] = 1; /* "u may equal v (in-place) but not partly overlap" */
    setup(&F, r);
    snapshot(&F);
    double *up = F.s[U].p;
    int in_place = 0;
    if (inplace && F.alias_out < 0 && F.s[V].p != NULL && up != NULL) {
        up = F.s[V].p; /* documented: u may equal v */
        in_place = 1;
    }
    double v0[6] = {0};
    if (F.s[V].p != NULL && n <= 6) {
        memcpy(v0, F.s[V].p, n * sizeof *v0);
    }
    nsm_unit_case *which = (nsm_unit_case *)(void *)F.s[Wh].p;
    if (debug) {
        fprintf(stderr, "nsm_unit n %zu ztol %.17g in_place %d [%s]\n", n, ztol, in_place, desc);
        dump("v", an, F.s[V].p);
    }
    nsm_status s = nsm_unit(n, F.s[V].p, ztol, which, up);
    if (debug) {
        fprintf(stderr, "  -> %s which %d\n", nsm_status_str(s), which ? (int)*which : -1);
        dump("u", an, up);
    }
    check_status(s, BIT(NSM_OK) | BIT(NSM_ERR_NULL) | BIT(NSM_ERR_SIZE) | BIT(NSM_ERR_ARG) |
                        BIT(NSM_ERR_NOT_FINITE) | BIT(NSM_ERR_ALIAS));
    if (in_place) {
        F.s[V].hosts_out = 1; /* v is also the output */
    }
    /* exact in-place (u == v, same length) is documented; partial overlap is not */
    int same = F.alias_out == U && F.alias_host == V && F.s[U].off == 0;
    check_common(&F, s, 0, same);
    if (s == NSM_OK) {
        CHECK(*which == NSM_UNIT_DIRECTION || *which == NSM_UNIT_BALL);
        if (*which == NSM_UNIT_BALL) {
            for (size_t i = 0; i < n; i++) {
                CHECK(up[i] == 0.0);
            }
        } else {
            CHECK(finite_all(n, up));
            long double q = 0.0L;
            for (size_t i = 0; i < n; i++) {
                q += (long double)up[i] * up[i];
            }
            CHECK(fabsl(sqrtl(q) - 1.0L) <= 1e-12L);
        }
    }
    release(&F);
}

/* ‖lt‖² and (mu·ln + tol)² etc. in long double: no overflow for double inputs */
static int cone_ref(size_t d, double mu, double tol, double ln, const double *lt, int *clear)
{
    long double t2 = 0.0L;
    for (size_t i = 0; i < d; i++) {
        t2 += (long double)lt[i] * lt[i];
    }
    long double rhs = (long double)mu * ln + tol;
    *clear = 1;
    if (ln < -tol) {
        return 0;
    }
    if (rhs < 0) {
        return 0;
    }
    long double r2 = rhs * rhs;
    long double scale = t2 > r2 ? t2 : r2;
    if (fabsl(t2 - r2) <= 1e-12L * scale || ln == -tol) {
        *clear = 0;
    }
    return t2 <= r2;
}

static void f_cone_contains(rd *r)
{
    cur_fn = "nsm_cone_contains";
    unsigned dc = u8(r);
    size_t d = dc % 4; /* 0..3: 1 and 2 valid */
    double mu = val(r), ln = val(r), tol = (u8(r) & 1) ? val(r) : 0.0;
    frame F;
    memset(&F, 0, sizeof F);
    int LT = add(&F, d == 1 || d == 2 ? d : 1, IN), IS = add(&F, 1, OUT);
    F.noalias[IS] = 1; /* inside must be separated from lt (precondition) */
    setup(&F, r);
    snapshot(&F);
    int *inside = (int *)(void *)F.s[IS].p;
    if (debug) {
        fprintf(stderr, "nsm_cone_contains d %zu mu %.17g ln %.17g tol %.17g [%s]\n", d, mu, ln,
                tol, desc);
        dump("lt", d == 1 || d == 2 ? d : 1, F.s[LT].p);
    }
    nsm_status s = nsm_cone_contains(d, mu, ln, F.s[LT].p, tol, inside);
    check_status(s, BIT(NSM_OK) | BIT(NSM_ERR_NULL) | BIT(NSM_ERR_SIZE) | BIT(NSM_ERR_ARG) |
                        BIT(NSM_ERR_NOT_FINITE));
    check_common(&F, s, 0, 0);
    if (s == NSM_OK) {
        CHECK(*inside == 0 || *inside == 1);
        int clear;
        int ref = cone_ref(d, mu, tol, ln, F.s[LT].p, &clear);
        if (clear) {
            CHECK(*inside == ref);
        }
    }
    release(&F);
}

static void f_cone_project(rd *r)
{
    cur_fn = "nsm_cone_project";
    size_t d = u8(r) % 4;
    double mu = val(r), ln = val(r);
    int inplace = (u8(r) & 3) == 0;
    size_t ad = d == 1 || d == 2 ? d : 1;
    frame F;
    memset(&F, 0, sizeof F);
    int LT = add(&F, ad, IN), PN = add(&F, 1, OUT), PT = add(&F, ad, OUT);
    F.noalias[PN] = 1; /* pn separated from lt and pt (precondition) */
    F.forbid[PT][PN] = 1;
    F.det[PT][LT] = 1; /* "pt may be lt itself (in place) but may not partly overlap it" */
    setup(&F, r);
    snapshot(&F);
    double lt0[2] = {0, 0};
    if (F.s[LT].p != NULL) {
        memcpy(lt0, F.s[LT].p, ad * sizeof(double));
    }
    double *ptp = F.s[PT].p;
    int in_place = 0;
    if (inplace && F.alias_out < 0 && ptp != NULL && F.s[LT].p != NULL) {
        ptp = F.s[LT].p;
        in_place = 1;
    }
    if (debug) {
        fprintf(stderr, "nsm_cone_project d %zu mu %.17g ln %.17g in_place %d [%s]\n", d, mu, ln,
                in_place, desc);
        dump("lt", ad, F.s[LT].p);
    }
    nsm_status s = nsm_cone_project(d, mu, ln, F.s[LT].p, F.s[PN].p, ptp);
    if (debug) {
        fprintf(stderr, "  -> %s\n", nsm_status_str(s));
        dump("pn", 1, F.s[PN].p);
        dump("pt", ad, ptp);
    }
    check_status(s, BIT(NSM_OK) | BIT(NSM_ERR_NULL) | BIT(NSM_ERR_SIZE) | BIT(NSM_ERR_ARG) |
                        BIT(NSM_ERR_NOT_FINITE) | BIT(NSM_ERR_ALIAS) | BIT(NSM_ERR_OVERFLOW));
    if (in_place) {
        F.s[LT].hosts_out = 1;
    }
    int same = F.alias_out == PT && F.alias_host == LT && F.s[PT].off == 0;
    check_common(&F, s, 0, same);
    if (s == NSM_OK) {
        double pn = *F.s[PN].p;
        CHECK(finite_all(1, &pn) && finite_all(d, ptp));
        /* in_cone with tolerance 0, evaluated in long double with a rounding margin */
        CHECK(pn >= 0.0);
        long double t2 = 0.0L;
        for (size_t i = 0; i < d; i++) {
            t2 += (long double)ptp[i] * ptp[i];
        }
        long double lim = (long double)mu * pn;
        CHECK(sqrtl(t2) <= lim * (1.0L + 1e-12L) + 1e-300L);
        int clear;
        if (cone_ref(d, mu, 0.0, ln, lt0, &clear) && clear) {
            CHECK(pn == ln);
            for (size_t i = 0; i < d; i++) {
                CHECK(ptp[i] == lt0[i]);
            }
        }
    }
    release(&F);
}

/* ---- contact --------------------------------------------------------------------------- */

static void f_hull(rd *r)
{
    cur_fn = "nsm_hull2d";
    unsigned c = u8(r);
    size_t npts = c == 0xff ? (size_t)NSM_MAX_DIM * NSM_MAX_DIM + 1 : c % 12;
    size_t ap = npts > 12 ? 1 : npts;
    frame F;
    memset(&F, 0, sizeof F);
    int X = add(&F, ap, IN), Y = add(&F, ap, IN), ID = add(&F, ap, OUT),
        H = add(&F, npts > 12 ? 1 : ap + 1, OUT), NH = add(&F, 1, OUT);
    const int g[] = {X, Y, ID, H, NH}; /* "any two of x, y, idx, hull, nh overlap" */
    det_group(&F, g, 5);
    setup(&F, r);
    snapshot(&F);
    size_t *idx = (size_t *)(void *)F.s[ID].p, *hull = (size_t *)(void *)F.s[H].p,
           *nh = (size_t *)(void *)F.s[NH].p;
    if (debug) {
        fprintf(stderr, "nsm_hull2d npts %zu [%s]\n", npts, desc);
        dump("x", ap, F.s[X].p);
        dump("y", ap, F.s[Y].p);
    }
    nsm_status s = nsm_hull2d(npts, F.s[X].p, F.s[Y].p, idx, hull, nh);
    if (debug && s == NSM_OK) {
        fprintf(stderr, "  -> nh %zu:", *nh);
        for (size_t i = 0; i < *nh; i++) {
            fprintf(stderr, " %zu", hull[i]);
        }
        fprintf(stderr, "\n");
    }
    check_status(s, BIT(NSM_OK) | BIT(NSM_ERR_NULL) | BIT(NSM_ERR_SIZE) | BIT(NSM_ERR_ALIAS) |
                        BIT(NSM_ERR_NOT_FINITE));
    check_common(&F, s, 0, 0);
    if (s == NSM_OK) {
        CHECK(*nh >= 1 && *nh <= npts);
        for (size_t i = 0; i < *nh; i++) {
            CHECK(hull[i] < npts);
            for (size_t j = 0; j < i; j++) {
                CHECK(hull[i] != hull[j]);
            }
        }
        /* every point on the left of (or on) every edge, in long double (whose range holds
           the products of any two double differences), up to the rounding of the double
           harness's own long double evaluation: 1e-9 of the local scale (edge length times
           the edge length plus the point's offset). The library's orientation test is exact
           (header), so no tolerance at the scale of the largest coordinate: the inputs of
           finding_P3_hull_subnormal (an order-1 vertex dropped next to a subnormal offset
           by the rounded test) and of test_hull_exact fail any such check. With 2 hull points (collinear input) the two edges say every point is on
           their line; with 1, every point is that point. */
        for (size_t e = 0; e < *nh; e++) {
            size_t a = hull[e], b = hull[(e + 1) % *nh];
            long double xa = F.s[X].p[a], ya = F.s[Y].p[a];
            long double dx = (long double)F.s[X].p[b] - xa, dy = (long double)F.s[Y].p[b] - ya;
            for (size_t i = 0; i < npts; i++) {
                long double px = (long double)F.s[X].p[i] - xa;
                long double py = (long double)F.s[Y].p[i] - ya;
                long double c = dx * py - dy * px;
                long double ed = fabsl(dx) + fabsl(dy);
                CHECK(c >= -1e-9L * ed * (ed + fabsl(px) + fabsl(py)));
            }
        }
    }
    release(&F);
}

static void fill_W(rd *r, double *W, size_t k, int spd)
{
    for (size_t i = 0; i < k * k; i++) {
        W[i] = val(r);
    }
    if (spd) {
        spd_in_place(W, k);
    }
}

static void f_routh(rd *r)
{
    unsigned which = u8(r) % 3;
    unsigned flags = u8(r);
    double W[9], u0[3];
    size_t k = which == 2 ? 3 : 2;
    fill_W(r, W, k, flags & 1);
    for (size_t i = 0; i < k; i++) {
        u0[i] = val(r);
    }
    double mu = (flags & 2) ? val(r) : (double)(u8(r) % 8) / 4.0;
    double ztol = (flags & 4) ? val(r) : 1e-12;
    /* heap copies sized exactly, NULL on request */
    double *Wp = malloc(k * k * sizeof *Wp), *up = malloc(k * sizeof *up);
    memcpy(Wp, W, k * k * sizeof *Wp);
    memcpy(up, u0, k * sizeof *up);
    if (flags & 0x40) {
        free(Wp);
        Wp = NULL;
    }
    if ((flags & 0xc0) == 0x80) {
        free(up);
        up = NULL;
    }
    int null_res = (flags & 0x38) == 0x38;
    if (debug) {
        fprintf(stderr, "routh kind %u mu %.17g ztol %.17g null_res %d\n", which, mu, ztol,
                null_res);
        dump("W", k * k, Wp);
        dump("u0", k, up);
    }
    if (which == 0) {
        cur_fn = "nsm_routh_planar";
        nsm_routh_result res, before;
        memset(&res, 0x5a, sizeof res);
        before = res;
        nsm_status s = nsm_routh_planar(Wp, up, mu, ztol, null_res ? NULL : &res);
        if (debug) {
            fprintf(stderr, "  -> %s: p_t %.17g p_n %.17g u_t %.17g u_n %.17g nphases %zu "
                    "painleve %d\n", nsm_status_str(s), res.p_t, res.p_n, res.u_t, res.u_n,
                    res.nphases, res.painleve);
        }
        check_status(s, BIT(NSM_OK) | BIT(NSM_ERR_NULL) | BIT(NSM_ERR_ARG) |
                            BIT(NSM_ERR_NOT_FINITE) | BIT(NSM_ERR_NOT_SPD) |
                            BIT(NSM_ERR_NO_CONVERGENCE) | BIT(NSM_ERR_OVERFLOW));
        double outs[4] = {res.p_t, res.p_n, res.u_t, res.u_n};
        if (s != NSM_OK) {
            CHECK(memcmp(&res, &before, sizeof res) == 0);
        } else {
            CHECK(finite_all(4, outs));
            CHECK(res.nphases <= NSM_ROUTH_MAX_PHASES);
            CHECK(res.p_n >= 0.0);
            CHECK(fabs(res.p_t) <= mu * res.p_n * (1 + 1e-12) + 1e-300);
            if (u0[1] >= 0) {
                CHECK(res.nphases == 0 && res.p_n == 0 && res.p_t == 0);
            }
        }
    } else if (which == 1) {
        cur_fn = "nsm_routh_bound";
        double b = -3.5;
        nsm_status s = nsm_routh_bound(Wp, up, mu, null_res ? NULL : &b);
        check_status(s, BIT(NSM_OK) | BIT(NSM_ERR_NULL) | BIT(NSM_ERR_ARG) |
                            BIT(NSM_ERR_NOT_FINITE) | BIT(NSM_ERR_NOT_SPD) |
                            BIT(NSM_ERR_OVERFLOW));
        if (s != NSM_OK) {
            CHECK(b == -3.5);
        } else {
            CHECK(b >= 0.0 && isfinite(b));
            /* the bound holds for the impact it bounds ([I] Lemma 2, (I5)): a zero bound for a
               penetrating contact, or one below Routh's p_n, fails here */
            nsm_routh_result pr;
            if (nsm_routh_planar(Wp, up, mu, 0.0, &pr) == NSM_OK) {
                CHECK(pr.p_n <= b * (1 + 1e-9) + 1e-300);
            }
        }
    } else {
        cur_fn = "nsm_routh_spatial";
        unsigned sc = u8(r);
        size_t steps = sc == 0xff ? 0 : sc == 0xfe ? 1000001 : 1 + sc % 64;
        nsm_routh_spatial_result res, before;
        memset(&res, 0x5a, sizeof res);
        before = res;
        nsm_status s = nsm_routh_spatial(Wp, up, mu, ztol, steps, null_res ? NULL : &res);
        if (debug) {
            fprintf(stderr, "  steps %zu -> %s: p_t %.17g %.17g p_n %.17g u_t %.17g %.17g "
                    "u_n %.17g nphases %zu bound %.17g steps %zu painleve %d\n", steps,
                    nsm_status_str(s), res.p_t[0], res.p_t[1], res.p_n, res.u_t[0], res.u_t[1],
                    res.u_n, res.nphases, res.bound, res.steps, res.painleve);
        }
        check_status(s, BIT(NSM_OK) | BIT(NSM_ERR_NULL) | BIT(NSM_ERR_ARG) |
                            BIT(NSM_ERR_NOT_FINITE) | BIT(NSM_ERR_NOT_SPD) |
                            BIT(NSM_ERR_NO_CONVERGENCE) | BIT(NSM_ERR_OVERFLOW));
        double outs[7] = {res.p_t[0], res.p_t[1], res.p_n,  res.u_t[0],
                          res.u_t[1], res.u_n,    res.bound};
        if (s != NSM_OK) {
            CHECK(memcmp(&res, &before, sizeof res) == 0);
        } else {
            CHECK(finite_all(7, outs));
            CHECK(res.nphases <= NSM_ROUTH_MAX_PHASES);
            CHECK(res.p_n >= 0.0);
            long double t = (long double)res.p_t[0] * res.p_t[0] +
                            (long double)res.p_t[1] * res.p_t[1];
            /* up to rounding; a subnormal mu puts the rates mu·Unit(u_t) on the subnormal
               grid: up to DBL_TRUE_MIN per unit of p_n in each direction */
            CHECK(sqrtl(t) <= (long double)mu * res.p_n * (1 + 1e-12L) + 1e-300L +
                                  4.0L * DBL_TRUE_MIN * res.p_n);
            if (u0[2] >= 0) {
                CHECK(res.nphases == 0 && res.p_n == 0 && res.p_t[0] == 0 && res.p_t[1] == 0);
            }
        }
    }
    if (Wp != NULL) {
        CHECK(memcmp(Wp, W, k * k * sizeof *Wp) == 0);
    }
    if (up != NULL) {
        CHECK(memcmp(up, u0, k * sizeof *up) == 0);
    }
    free(Wp);
    free(up);
}

static void f_impact(rd *r)
{
    unsigned flags = u8(r);
    int use_d = (flags & 2) != 0;
    size_t d = use_d && (flags & 1) ? 2 : 1; /* without use_d: planar (as the former planar
                                                  entry point, so that the corpus keeps its
                                                  meaning) */
    if (use_d && (u8(r) & 15) == 0) {
        d = u8(r) % 4; /* 0 and 3: out of domain */
    }
    cur_fn = "nsm_impact_solve";
    size_t n = dim(r, 6), m = dim(r, 4), an = al(n), am = m > NSM_MAX_DIM ? 1 : m;
    size_t ad = d == 1 || d == 2 ? d : 1;
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = 1 + u8(r) % 16;
    opts.fw_iters = 1 + u8(r) % 32;
    opts.fallback_steps = 1 + u8(r) % 64;
    if (flags & 4) { /* options anywhere, out of domain included */
        unsigned o = u8(r);
        if (o & 1) {
            opts.ztol = val(r);
        }
        if (o & 2) {
            opts.ntol = val(r);
        }
        if (o & 4) {
            opts.vtol = val(r);
        }
        if (o & 8) {
            opts.steps = (o & 0x80) ? 0 : 1000001;
        }
        if (o & 16) {
            opts.fw_iters = (o & 0x80) ? 0 : 1000001;
        }
        if (o & 32) {
            opts.fallback_steps = (o & 0x80) ? 0 : 100000001;
        }
    }
    size_t lw = pick_lwork(r, nsm_impact_work(n, m));
    frame F;
    memset(&F, 0, sizeof F);
    int M = add(&F, an * an, IN), Jn = add(&F, am * an, IN), Jt = add(&F, ad * am * an, IN),
        MU = add(&F, am, IN), VM = add(&F, an, IN), VP = add(&F, an, OUT),
        L = add(&F, (ad + 1) * am, OUT), I = add(&F, words(sizeof(nsm_impact_result)), OUT),
        W = add(&F, lw, WK);
    det_all(&F); /* "outputs overlap inputs, each other or work" */
    F.need = nsm_impact_work(n, m);
    setup(&F, r);
    if (flags & 8) {
        make_spd(&F, M, n);
    }
    if ((flags & 16) && F.s[MU].mem != NULL) {
        for (size_t c = 0; c < am; c++) {
            F.s[MU].mem[c] = fabs(F.s[MU].mem[c]);
        }
    }
    /* policy */
    nsm_impact_policy pol;
    memset(&pol, 0, sizeof pol);
    unsigned pk = u8(r);
    pol.kind = (nsm_policy_kind)(pk % 4);
    if (pk == 0xff) {
        pol.kind = (nsm_policy_kind)5;
    } else if (pk == 0xfe) {
        pol.kind = NSM_POLICY_EXTREMAL_V;
    } else if ((pk & 0x84) == 0x84) {
        pol.kind = NSM_POLICY_SCHEDULE;
    }
    size_t *order = malloc((am > 0 ? am : 1) * sizeof *order);
    double *ratios = malloc((am > 0 ? am : 1) * sizeof *ratios);
    for (size_t c = 0; c < am; c++) {
        order[c] = c;
    }
    for (size_t c = am; c > 1; c--) { /* a permutation, or with (pk & 8) a broken one */
        size_t j = u8(r) % c, t = order[c - 1];
        order[c - 1] = order[j];
        order[j] = t;
    }
    if ((pk & 8) && am > 0) {
        order[0] = u8(r) % (am + 1);
    }
    for (size_t c = 0; c < am; c++) {
        ratios[c] = (pk & 16) ? val(r) : 1.0 + (double)(u8(r) % 4);
    }
    pol.order = (pk & 32) ? NULL : order;
    pol.ratios = (pk & 64) ? NULL : ratios;
    /* extremal in v: a direction of an entries (any values, NaN included), or NULL */
    double *vdir = malloc((an > 0 ? an : 1) * sizeof *vdir);
    if (pol.kind == NSM_POLICY_EXTREMAL_V) {
        for (size_t i = 0; i < an; i++) {
            vdir[i] = val(r);
        }
        pol.vdir = (u8(r) & 1) ? NULL : vdir;
    }
    /* schedule: dwells of any value (negative, NaN and INFINITY included), or NULL */
    double *dwell = malloc((am > 0 ? am : 1) * sizeof *dwell);
    if (pol.kind == NSM_POLICY_SCHEDULE) {
        for (size_t c = 0; c < am; c++) {
            dwell[c] = (u8(r) & 1) ? val(r) : (u8(r) & 1) ? INFINITY : 0.1 * (double)(u8(r) % 16);
        }
        pol.dwell = (u8(r) & 1) ? NULL : dwell;
    }
    pol.seed = u8(r) | (unsigned long)u8(r) << 8;
    pol.hold = u8(r) % 4;
    if (pol.kind == NSM_POLICY_SCHEDULE && (u8(r) & 7) == 0) {
        pol.hold = NSM_SCHEDULE_MAX_CYCLES + 1u; /* a schedule's cycles out of range */
    }
    unsigned nulls2 = u8(r);
    const nsm_impact_policy *polp = (nulls2 & 0xf0) == 0xf0 && (nulls2 & 1) ? NULL : &pol;
    /* opts = NULL (the defaults) only for one planar contact: the default fallback of 10^6
       steps on a wedged multi-contact problem, and the default 2 000 steps of a spatial slip on
       a stiff block (up to NSM_IMPACT_MIN_STEP_RATIO segments per step: 1.9 million, 4 s under
       the sanitizers, for mu ~ 2e5), take seconds, beyond the harness's budget */
    const nsm_impact_opts *optp =
        (nulls2 & 0xf0) == 0xf0 && (nulls2 & 2) && m == 1 && d == 1 ? NULL : &opts;
    /* the result struct lives in slot I (anywhere, as info did): its array pointers first */
    nsm_impact_result *res = (nsm_impact_result *)(void *)F.s[I].p;
    if (res != NULL) {
        res->v_plus = F.s[VP].p;
        res->Lambda = F.s[L].p;
    }
    const nsm_contact_problem prob = {n, m, d, F.s[M].p, F.s[Jn].p, F.s[Jt].p, F.s[MU].p,
                                      F.s[VM].p};
    snapshot(&F);
    const nsm_impact_info *info = res != NULL ? &res->info : NULL;
    if (debug) {
        fprintf(stderr, "%s n %zu m %zu d %zu lwork %zu (query %zu) [%s]\n", cur_fn, n, m, d, lw,
                nsm_impact_work(n, m), desc);
        fprintf(stderr, "  opts steps %zu ztol %g ntol %g vtol %g fw %zu fallback %zu%s\n",
                opts.steps, opts.ztol, opts.ntol, opts.vtol, opts.fw_iters, opts.fallback_steps,
                optp == NULL ? " (NULL)" : "");
        fprintf(stderr, "  policy kind %d seed %lu hold %zu%s\n", (int)pol.kind, pol.seed,
                pol.hold, polp == NULL ? " (NULL)" : "");
        dump("M", an * an, F.s[M].p);
        dump("Jn", am * an, F.s[Jn].p);
        dump("Jt", ad * am * an, F.s[Jt].p);
        dump("mu", am, F.s[MU].p);
        dump("v_minus", an, F.s[VM].p);
        dump("ratios", am, pol.ratios);
    }
    nsm_status s = nsm_impact_solve(&prob, polp, optp, res, F.s[W].p, lw);
    check_status(s, BIT(NSM_OK) | BIT(NSM_ERR_NULL) | BIT(NSM_ERR_SIZE) | BIT(NSM_ERR_ARG) |
                        BIT(NSM_ERR_NOT_FINITE) | BIT(NSM_ERR_NOT_SPD) | BIT(NSM_ERR_ALIAS) |
                        BIT(NSM_ERR_WORKSPACE) | BIT(NSM_ERR_BOUND) |
                        BIT(NSM_ERR_NO_CONVERGENCE) | BIT(NSM_ERR_NO_BOUND) |
                        BIT(NSM_ERR_NOT_CERTIFIED) | BIT(NSM_ERR_OVERFLOW));
    /* the options in effect: opts = NULL means the defaults */
    const nsm_impact_opts dflt = NSM_IMPACT_OPTS_DEFAULT;
    const nsm_impact_opts eff = optp != NULL ? opts : dflt;
    if (debug) {
        fprintf(stderr, "  -> %s\n", nsm_status_str(s));
        if (s == NSM_OK) {
            dump("v_plus", an, F.s[VP].p);
            dump("Lambda", (ad + 1) * am, F.s[L].p);
            fprintf(stderr, "  info s %g bound %g steps %zu cap %zu check_tol %g\n", info->s,
                    info->bound, info->steps, info->step_cap, info->check_tol);
        }
    }
    /* A2 always */
    for (int i = 0; i < F.ns; i++) {
        if (F.s[i].kind == IN && !F.s[i].hosts_out) {
            CHECK(unchanged(&F.s[i]));
        }
    }
    {
        /* BOUND, NO_CONVERGENCE, NO_BOUND, NOT_CERTIFIED and OVERFLOW (a non-finite result)
           may write the outputs and info */
        int wrote = s == NSM_ERR_BOUND || s == NSM_ERR_NO_CONVERGENCE ||
                    s == NSM_ERR_NO_BOUND || s == NSM_ERR_NOT_CERTIFIED || s == NSM_ERR_OVERFLOW;
        check_common(&F, s, wrote, 0);
        if (s == NSM_OK) {
            double ii[7] = {info->s,            info->bound,       info->gamma_lb, info->fw_gap,
                            info->energy_minus, info->energy_plus, info->check_tol};
            CHECK(finite_all(n, F.s[VP].p) && finite_all((d + 1) * m, F.s[L].p) &&
                  finite_all(7, ii));
            CHECK(info->steps <= info->step_cap);
            const double *vp = F.s[VP].p, *vm = F.s[VM].p, *J = F.s[Jn].p, *lam = F.s[L].p;
            int pen = 0;
            for (size_t c = 0; c < m; c++) {
                long double u = 0, um = 0, absu = 0;
                for (size_t i = 0; i < n; i++) {
                    u += (long double)J[c * n + i] * vp[i];
                    um += (long double)J[c * n + i] * vm[i];
                    absu += fabsl((long double)J[c * n + i] * vp[i]);
                }
                CHECK(u >= -(long double)info->check_tol - 1e-12L * absu);
                pen |= um < -(long double)eff.ntol * (1 + 1e-12L);
                /* the impulses of contact c in its cone */
                double lnc = lam[(d + 1) * c + d];
                long double t2 = 0;
                for (size_t j = 0; j < d; j++) {
                    t2 += (long double)lam[(d + 1) * c + j] * lam[(d + 1) * c + j];
                }
                CHECK(lnc >= 0.0);
                /* up to rounding: relative 1e-9, and with a subnormal mu the rates
                   mu·Unit(u_t) fall on the subnormal grid (spacing DBL_TRUE_MIN), an error
                   of up to DBL_TRUE_MIN per unit of the integration variable s in each
                   direction */
                CHECK(sqrtl(t2) <= (long double)F.s[MU].p[c] * lnc * (1 + 1e-9L) + 1e-300L +
                                       2.0L * (long double)d * DBL_TRUE_MIN * info->s);
            }
            if (!pen) {
                int trivial_ok = 1;
                for (size_t c = 0; c < m; c++) {
                    long double um = 0;
                    for (size_t i = 0; i < n; i++) {
                        um += (long double)J[c * n + i] * vm[i];
                    }
                    /* clearly not penetrating */
                    trivial_ok &= um >= -(long double)eff.ntol * (1 - 1e-12L);
                }
                if (trivial_ok) {
                    CHECK(memcmp(vp, vm, n * sizeof *vp) == 0);
                    CHECK(info->s == 0.0);
                    for (size_t i = 0; i < (d + 1) * m; i++) {
                        CHECK(lam[i] == 0.0);
                    }
                }
            }
        }
    }
    free(order);
    free(ratios);
    free(vdir);
    free(dwell);
    release(&F);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int once;
    if (!once) {
        once = 1;
        debug = getenv("NSM_FUZZ_DEBUG") != NULL;
    }
    if (size == 0) {
        return 0;
    }
    rd r = {data + 1, size - 1};
    switch (data[0] % 11) {
    case 0: f_svd(&r); break;
    case 1: f_pinv(&r); break;
    case 2: f_range_null(&r); break;
    case 3: f_projector(&r); break;
    case 4: f_dynamics(&r); break;
    case 5: f_unit(&r); break;
    case 6: f_cone_contains(&r); break;
    case 7: f_cone_project(&r); break;
    case 8: f_hull(&r); break;
    case 9: f_routh(&r); break;
    default: f_impact(&r); break;
    }
    return 0;
}
