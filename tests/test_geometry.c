/* Tests of the plane geometry of outcome-set pictures: the convex hull nsm_hull2d. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "prop.h"
#include "nsmech.h"

/* Brute force: p is an extreme point iff it lies in no triangle / segment of other points. */
static int in_triangle(const double *x, const double *y, size_t a, size_t b, size_t c, size_t p)
{
    double d1 = (x[b] - x[a]) * (y[p] - y[a]) - (y[b] - y[a]) * (x[p] - x[a]);
    double d2 = (x[c] - x[b]) * (y[p] - y[b]) - (y[c] - y[b]) * (x[p] - x[b]);
    double d3 = (x[a] - x[c]) * (y[p] - y[c]) - (y[a] - y[c]) * (x[p] - x[c]);
    return (d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0);
}

static int prop_hull(nsm_rng *rng, void *ctx, char *msg, size_t msglen)
{
    (void)ctx;
    size_t n = nsm_rng_index(rng, 1, 25);
    double x[25], y[25];
    size_t idx[25], hull[26], nh = 0;
    for (size_t i = 0; i < n; i++) {
        x[i] = nsm_rng_normal(rng);
        y[i] = nsm_rng_normal(rng);
    }
    if (nsm_hull2d(n, x, y, idx, hull, &nh) != NSM_OK) {
        snprintf(msg, msglen, "status");
        return 1;
    }
    size_t extreme = 0;
    for (size_t p = 0; p < n; p++) {
        int inside = 0;
        for (size_t a = 0; a < n && !inside; a++) {
            for (size_t b = a + 1; b < n && !inside; b++) {
                for (size_t c = b + 1; c < n && !inside; c++) {
                    if (a != p && b != p && c != p && in_triangle(x, y, a, b, c, p)) {
                        inside = 1;
                    }
                }
            }
        }
        extreme += !inside;
    }
    if (n >= 3 && nh != extreme) {
        snprintf(msg, msglen, "n=%zu hull has %zu vertices, brute force %zu", n, nh, extreme);
        return 1;
    }
    /* counter-clockwise, strictly convex, contains every point */
    for (size_t i = 0; n >= 3 && i < nh; i++) {
        size_t a = hull[i], b = hull[(i + 1) % nh];
        for (size_t p = 0; p < n; p++) {
            double cr = (x[b] - x[a]) * (y[p] - y[a]) - (y[b] - y[a]) * (x[p] - x[a]);
            if (cr < -1e-12) {
                snprintf(msg, msglen, "point %zu outside edge %zu", p, i);
                return 1;
            }
        }
    }
    return 0;
}

/* CLAIM: geometry.h nsm_hull2d: counter-clockwise, collinear points dropped */
static void test_hull(void)
{
    prop_run("hull2d equals brute-force extreme points", prop_hull, NULL, 500);
    double x[4] = {0, 1, 1, 0}, y[4] = {0, 0, 1, 1};
    size_t idx[4], hull[5], nh;
    CU_ASSERT_EQUAL(nsm_hull2d(4, x, y, idx, hull, &nh), NSM_OK);
    CU_ASSERT_EQUAL(nh, 4);
    CU_ASSERT_EQUAL(hull[0], 0);
    CU_ASSERT_EQUAL(hull[1], 1);
    CU_ASSERT_EQUAL(hull[2], 2);
    CU_ASSERT_EQUAL(hull[3], 3);
    CU_ASSERT_EQUAL(nsm_hull2d(1, x, y, idx, hull, &nh), NSM_OK);
    CU_ASSERT_EQUAL(nh, 1);
    CU_ASSERT_EQUAL(nsm_hull2d(0, x, y, idx, hull, &nh), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_hull2d(4, NULL, y, idx, hull, &nh), NSM_ERR_NULL);
    x[2] = NAN;
    CU_ASSERT_EQUAL(nsm_hull2d(4, x, y, idx, hull, &nh), NSM_ERR_NOT_FINITE);

    /* repeated points count once (header: n identical points give nh = 1) */
    double px[3] = {0.5, 0.5, 0.5}, py[3] = {-2, -2, -2};
    CU_ASSERT_EQUAL(nsm_hull2d(3, px, py, idx, hull, &nh), NSM_OK);
    CU_ASSERT_EQUAL(nh, 1);
    double sx[8] = {0, 1, 1, 0, 0, 1, 1, 0}, sy[8] = {0, 0, 1, 1, 0, 0, 1, 1};
    size_t sidx[8], shull[9];
    CU_ASSERT_EQUAL(nsm_hull2d(8, sx, sy, sidx, shull, &nh), NSM_OK);
    CU_ASSERT_EQUAL(nh, 4);
    double area = 0.0;
    for (size_t i = 0; i < nh && nh == 4; i++) {
        size_t a = shull[i], b = shull[(i + 1) % nh];
        area += sx[a] * sy[b] - sx[b] * sy[a];
    }
    CU_ASSERT_DOUBLE_EQUAL(0.5 * area, 1.0, 1e-15);
    /* forbidden overlaps are rejected (header: NSM_ERR_ALIAS), nothing written */
    x[2] = 1.0;
    nh = 77;
    CU_ASSERT_EQUAL(nsm_hull2d(4, x, y, hull, hull, &nh), NSM_ERR_ALIAS);
    size_t both[9]; /* idx (4) and hull (5) side by side: adjacent, not overlapping */
    CU_ASSERT_EQUAL(nsm_hull2d(4, x, y, both, both + 4, &nh), NSM_OK);
    CU_ASSERT_EQUAL(nsm_hull2d(4, x, y, both, both + 3, &nh), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_hull2d(4, x, y, idx, idx, &nh), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_hull2d(4, x, y, idx, hull, &hull[2]), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_hull2d(4, x, y, (size_t *)(void *)y, hull, &nh), NSM_ERR_ALIAS);
}

/* Fuzz findings (tests/fuzz/fuzz_api.c, header comment; minimised inputs in
   tests/fuzz/corpus/fuzz_api/finding_P<i>_*). */

/* P3 (finding_P3_hull_overflow): coordinates near 1e200, cross products overflowed;
   nsm_hull2d returned NSM_OK with hull 2 3 0 3 (point 3 twice, point 1 missing). All four
   points are vertices: counter-clockwise 2, 0, 3, 1. Also the corners of the largest square
   of doubles around an interior point (differences of DBL_MAX and -DBL_MAX overflow too). */
static void check_ccw_n(size_t nh, const size_t *hull, const size_t *want, size_t nw)
{
    CU_ASSERT_EQUAL_FATAL(nh, nw);
    size_t at = 0;
    while (at < nw && hull[0] != want[at]) {
        at++;
    }
    CU_ASSERT_FATAL(at < nw);
    for (size_t i = 0; i < nw; i++) {
        CU_ASSERT_EQUAL(hull[i], want[(at + i) % nw]);
    }
}

static void check_ccw(size_t nh, const size_t *hull, const size_t *want)
{
    check_ccw_n(nh, hull, want, 4);
}

/* CLAIM: geometry.h nsm_hull2d: orientation exact for all finite coordinates */
static void test_hull_overflow(void)
{
    const double x[4] = {2e200, -1e200, -1e200, 1e160};
    const double y[4] = {1.0, 3.0, -2e200, 2e200};
    size_t idx[6], hull[7], nh = 0;
    CU_ASSERT_EQUAL_FATAL(nsm_hull2d(4, x, y, idx, hull, &nh), NSM_OK);
    static const size_t want[4] = {2, 0, 3, 1};
    check_ccw(nh, hull, want);
    const double X[5] = {DBL_MAX, 0.0, -DBL_MAX, -DBL_MAX, DBL_MAX};
    const double Y[5] = {DBL_MAX, 0.0, DBL_MAX, -DBL_MAX, -DBL_MAX};
    CU_ASSERT_EQUAL_FATAL(nsm_hull2d(5, X, Y, idx, hull, &nh), NSM_OK);
    static const size_t corners[4] = {0, 2, 3, 4};
    check_ccw(nh, hull, corners);
    /* finding_P3_hull_mixed_scale (from the first fix, which scaled every coordinate once any
       exceeded 2^500): one point at y = 1e300 and the others of order 1, whose products the
       scaling flushed to zero, dropping the vertex (1, 0) */
    const double xm[6] = {-4, -4.3159867568266379e-81, -3.875, 1, 0, 1};
    const double ym[6] = {1e300, 0, 0, 0, 0.5, 1};
    CU_ASSERT_EQUAL_FATAL(nsm_hull2d(6, xm, ym, idx, hull, &nh), NSM_OK);
    static const size_t mixed[4] = {0, 2, 3, 5};
    check_ccw(nh, hull, mixed);
}

/* The orientation test is exact (header of nsm_hull2d). Two fuzz inputs that the rounded
   test got wrong by an order-1 vertex: a point at y = 5.6e78 made the differences from it
   lose the points of order 1, and the lower chain dropped the vertex (-3.75, -4); a subnormal
   x offset made a product flush to zero, and the upper chain dropped the vertex (0, -3.5)
   (finding_P3_hull_subnormal). */
/* CLAIM: geometry.h nsm_hull2d: orientation exact (1e78 next to 1, subnormals) */
static void test_hull_exact(void)
{
    size_t idx[8], hull[9], nh = 0;
    const double xa[8] = {-3.75, -3.75, -3.625, -4, -3.75, 0.5, 2, -1.5625};
    const double ya[8] = {0, 4.25, 0, 5.6231533335871677e+78, -4, -4, -4, -4};
    CU_ASSERT_EQUAL_FATAL(nsm_hull2d(8, xa, ya, idx, hull, &nh), NSM_OK);
    static const size_t wa[3] = {4, 6, 3};
    check_ccw_n(nh, hull, wa, 3);
    const double xb[7] = {0, 0, -3.875, 4.9406564584124654e-324, -3.6875, -2.9375, -3.8125};
    const double yb[7] = {-3.875, -3.5, -4, -4, -4, -4, -4};
    CU_ASSERT_EQUAL_FATAL(nsm_hull2d(7, xb, yb, idx, hull, &nh), NSM_OK);
    static const size_t wb[3] = {2, 3, 1};
    check_ccw_n(nh, hull, wb, 3);
}

/* Exact orientation by integers: coordinates k·2^ex (x) and k·2^ey (y) with |k| < 2^53 are
   doubles, and the sign of (b - a) × (c - a) is that of the same determinant of the k, which
   fits in 128 bits. */
__extension__ typedef __int128 i128;

static int sign_i128(const int64_t *kx, const int64_t *ky)
{
    i128 d = (i128)(kx[1] - kx[0]) * (ky[2] - ky[0]) - (i128)(ky[1] - ky[0]) * (kx[2] - kx[0]);
    return d > 0 ? 1 : (d < 0 ? -1 : 0);
}

/* Three nearly collinear points (a line through two random points of 52-bit integers, the
   third on it moved by at most 2 units), with the axes at scales 2^ex and 2^ey far apart:
   the hull of the three has 3 vertices in counter-clockwise order exactly when the integer
   determinant is non-zero (positive: a, b, c; negative: a, c, b), else 2 (its ends). */
static int prop_orient_exact(nsm_rng *rng, void *ctx, char *msg, size_t msglen)
{
    (void)ctx;
    const int64_t lim = (int64_t)1 << 51;
    int64_t kx[3], ky[3];
    for (int i = 0; i < 2; i++) {
        kx[i] = (int64_t)(nsm_rng_u64(rng) % (uint64_t)(2 * lim)) - lim;
        ky[i] = (int64_t)(nsm_rng_u64(rng) % (uint64_t)(2 * lim)) - lim;
    }
    /* c = a + t (b - a) rounded to integers, t in (1/8, 7/8) (x stays between a and b) */
    double t = 0.125 + 0.75 * nsm_rng_uniform(rng);
    kx[2] = kx[0] + (int64_t)(t * (double)(kx[1] - kx[0]));
    ky[2] = ky[0] + (int64_t)(t * (double)(ky[1] - ky[0])) + (int64_t)nsm_rng_index(rng, 0, 4) - 2;
    int ex = (int)nsm_rng_index(rng, 0, 1800) - 1000; /* 2^ex and 2^ey keep k·2^e in range */
    int ey = (int)nsm_rng_index(rng, 0, 1800) - 1000;
    double x[3], y[3];
    for (int i = 0; i < 3; i++) {
        x[i] = ldexp((double)kx[i], ex);
        y[i] = ldexp((double)ky[i], ey);
        if ((int64_t)ldexp(x[i], -ex) != kx[i] || (int64_t)ldexp(y[i], -ey) != ky[i]) {
            return 0; /* a subnormal lost bits: the integers are not the coordinates */
        }
    }
    size_t idx[3], hull[4], nh = 0;
    if (nsm_hull2d(3, x, y, idx, hull, &nh) != NSM_OK) {
        snprintf(msg, msglen, "nsm_hull2d failed");
        return 1;
    }
    int sg = sign_i128(kx, ky);
    size_t want = sg == 0 ? 2 : 3;
    if (nh != want) {
        snprintf(msg, msglen, "integer sign %d, hull of %zu points (scales 2^%d, 2^%d)", sg, nh,
                 ex, ey);
        return 1;
    }
    if (sg != 0) {
        /* counter-clockwise: the cyclic order of a, b, c is (0, 1, 2) for a left turn */
        size_t at = hull[0];
        size_t next = hull[1];
        int ccw012 = next == (at + 1) % 3;
        if (ccw012 != (sg > 0)) {
            snprintf(msg, msglen, "integer sign %d but hull order %zu %zu %zu", sg, hull[0],
                     hull[1], hull[2]);
            return 1;
        }
    }
    return 0;
}

/* CLAIM: geometry.h nsm_hull2d: the orientation test is exact */
static void test_hull_orient_property(void)
{
    prop_run("hull of 3 nearly collinear points equals the integer orientation",
             prop_orient_exact, NULL, 20000);
}

/*
 * Independent exact orientation for any finite doubles, written apart from the library's
 * (which adds six products of coordinates into 32-bit limbs): every coordinate is the integer
 * v·2^1074 (below 2^2098) in 16-bit limbs, the differences b - a and c - a are formed
 * exactly, and the two products (b - a)_x (c - a)_y and (b - a)_y (c - a)_x are multiplied
 * out and compared.
 */
#define BIG_LIMBS 266 /* 16-bit limbs: a product of two differences is below 2^4198 */

typedef struct {
    int neg;                 /* sign (magnitude 0 has neg 0) */
    uint32_t d[BIG_LIMBS];   /* magnitude, 16 bits per entry, least significant first */
} big_int;

static void big_from_double(double v, big_int *r)
{
    memset(r, 0, sizeof *r);
    if (v == 0.0) {
        return;
    }
    r->neg = v < 0.0;
    int e = 0;
    double f = frexp(fabs(v), &e); /* |v| = f 2^e, f in [1/2, 1) */
    uint64_t m = (uint64_t)ldexp(f, 53);
    int sh = e + 1074 - 53; /* |v| 2^1074 = m 2^sh */
    if (sh < 0) {
        m >>= -sh; /* a subnormal: the bits shifted out are zero */
        sh = 0;
    }
    for (int b = 0; b < 64; b++) {
        if ((m >> b) & 1u) {
            r->d[(sh + b) / 16] |= 1u << ((sh + b) % 16);
        }
    }
}

static int big_cmp_mag(const big_int *a, const big_int *b)
{
    for (size_t i = BIG_LIMBS; i > 0; i--) {
        if (a->d[i - 1] != b->d[i - 1]) {
            return a->d[i - 1] > b->d[i - 1] ? 1 : -1;
        }
    }
    return 0;
}

/* r = a - b (signed) */
static void big_sub(const big_int *a, const big_int *b, big_int *r)
{
    big_int out;
    memset(&out, 0, sizeof out);
    if (a->neg != b->neg) { /* magnitudes add, a's sign */
        uint32_t c = 0;
        for (size_t i = 0; i < BIG_LIMBS; i++) {
            uint32_t s = a->d[i] + b->d[i] + c;
            out.d[i] = s & 0xffffu;
            c = s >> 16;
        }
        out.neg = a->neg;
    } else { /* larger magnitude minus smaller */
        int c = big_cmp_mag(a, b);
        const big_int *hi = c >= 0 ? a : b, *lo = c >= 0 ? b : a;
        int64_t borrow = 0;
        for (size_t i = 0; i < BIG_LIMBS; i++) {
            int64_t s = (int64_t)hi->d[i] - lo->d[i] - borrow;
            borrow = s < 0;
            out.d[i] = (uint32_t)(s + (borrow ? 65536 : 0));
        }
        out.neg = c == 0 ? 0 : (c > 0 ? a->neg : !a->neg);
    }
    *r = out;
}

static void big_mul(const big_int *a, const big_int *b, big_int *r)
{
    big_int out;
    memset(&out, 0, sizeof out);
    uint64_t acc[BIG_LIMBS] = {0};
    for (size_t i = 0; i < BIG_LIMBS; i++) {
        for (size_t j = 0; a->d[i] != 0 && i + j < BIG_LIMBS; j++) {
            acc[i + j] += (uint64_t)a->d[i] * b->d[j];
        }
        /* keep acc entries small: carry the finished limb i */
        if (i + 1 < BIG_LIMBS) {
            acc[i + 1] += acc[i] >> 16;
            acc[i] &= 0xffffu;
        }
    }
    int nz = 0;
    for (size_t i = 0; i < BIG_LIMBS; i++) {
        out.d[i] = (uint32_t)acc[i];
        nz |= out.d[i] != 0;
    }
    out.neg = nz && (a->neg != b->neg);
    *r = out;
}

/* sign of (b - a) × (c - a) for points i, j, k */
static int orient_big(const double *x, const double *y, size_t i, size_t j, size_t k)
{
    big_int ax, ay, bx, by, cx, cy, ux, uy, vx, vy, p, q, d;
    big_from_double(x[i], &ax);
    big_from_double(y[i], &ay);
    big_from_double(x[j], &bx);
    big_from_double(y[j], &by);
    big_from_double(x[k], &cx);
    big_from_double(y[k], &cy);
    big_sub(&bx, &ax, &ux);
    big_sub(&by, &ay, &uy);
    big_sub(&cx, &ax, &vx);
    big_sub(&cy, &ay, &vy);
    big_mul(&ux, &vy, &p);
    big_mul(&uy, &vx, &q);
    big_sub(&p, &q, &d);
    int nz = 0;
    for (size_t t = 0; t < BIG_LIMBS; t++) {
        nz |= d.d[t] != 0;
    }
    return nz ? (d.neg ? -1 : 1) : 0;
}

/* A coordinate for the adversarial hulls: order-1 grid values, any bit pattern, subnormals,
   magnitudes near DBL_MAX, or a neighbour (a few ulps away, the same, or between two) of a
   coordinate already drawn. */
static double adversarial_coord(nsm_rng *rng, const double *prev, size_t np)
{
    size_t kind = nsm_rng_index(rng, 0, 9);
    if (np > 0 && kind >= 6) {
        double base = prev[nsm_rng_index(rng, 0, np - 1)];
        if (kind == 6) {
            return base;
        }
        double v = base;
        size_t steps = nsm_rng_index(rng, 1, 3);
        for (size_t s = 0; s < steps; s++) {
            v = nextafter(v, kind == 7 ? INFINITY : -INFINITY);
        }
        return isfinite(v) ? v : base;
    }
    switch (kind) {
    case 0:
        return ((double)nsm_rng_index(rng, 0, 159) - 64.0) / 16.0;
    case 1:
        return ((double)nsm_rng_index(rng, 0, 4) - 2.0) * 4.9406564584124654e-324;
    case 2:
        return (nsm_rng_uniform(rng) < 0.5 ? -1.0 : 1.0) * DBL_MAX *
               (1.0 - 0x1p-52 * (double)nsm_rng_index(rng, 0, 3));
    default: {
        uint64_t b = nsm_rng_u64(rng);
        double v;
        memcpy(&v, &b, sizeof v);
        return isfinite(v) ? v : 0.0;
    }
    }
}

/* Up to 8 points whose coordinates mix every scale of the doubles: the hull, read through the
   big-integer orientation, has every point on the left of or on every edge and strict left
   turns at its vertices (so it is the hull with collinear points dropped); two vertices when
   every point lies on their segment, one when all points coincide. */
static int prop_hull_adversarial(nsm_rng *rng, void *ctx, char *msg, size_t msglen)
{
    (void)ctx;
    size_t n = nsm_rng_index(rng, 1, 8);
    double x[8], y[8];
    for (size_t i = 0; i < n; i++) {
        x[i] = adversarial_coord(rng, x, i);
        y[i] = adversarial_coord(rng, y, i);
    }
    size_t idx[8], hull[9], nh = 0;
    if (nsm_hull2d(n, x, y, idx, hull, &nh) != NSM_OK || nh < 1 || nh > n) {
        snprintf(msg, msglen, "status or nh (%zu of %zu)", nh, n);
        return 1;
    }
    for (size_t e = 0; e < nh; e++) {
        size_t a = hull[e], b = hull[(e + 1) % nh];
        for (size_t p = 0; p < n; p++) {
            int o = nh == 1 ? (x[p] == x[a] && y[p] == y[a] ? 0 : -1) : orient_big(x, y, a, b, p);
            if (o < 0) {
                snprintf(msg, msglen, "n %zu: point %zu outside edge %zu -> %zu (%a, %a)", n, p,
                         a, b, x[p], y[p]);
                return 1;
            }
        }
        if (nh >= 3 && orient_big(x, y, hull[(e + nh - 1) % nh], a, b) <= 0) {
            snprintf(msg, msglen, "n %zu: no strict left turn at vertex %zu", n, a);
            return 1;
        }
    }
    if (nh == 2) { /* every point on the segment between the two */
        size_t a = hull[0], b = hull[1];
        for (size_t p = 0; p < n; p++) {
            if (!(x[p] >= fmin(x[a], x[b]) && x[p] <= fmax(x[a], x[b]) &&
                  y[p] >= fmin(y[a], y[b]) && y[p] <= fmax(y[a], y[b]))) {
                snprintf(msg, msglen, "n %zu: point %zu beyond the segment %zu %zu", n, p, a, b);
                return 1;
            }
        }
    }
    return 0;
}

/* CLAIM: geometry.h nsm_hull2d: the hull of the points as given, any scale */
static void test_hull_adversarial(void)
{
    prop_run("hull of points at every scale against big-integer orientation",
             prop_hull_adversarial, NULL, 20000);
}

static CU_TestInfo geometry_tests[] = {
    {"hull2d: property against brute force", test_hull},
    {"hull2d: coordinates near 1e200 and DBL_MAX (fuzz finding P3)", test_hull_overflow},
    {"hull2d: exact orientation at mixed and subnormal scales (fuzz finding P3)",
     test_hull_exact},
    {"hull2d: 3 nearly collinear points against the integer orientation",
     test_hull_orient_property},
    {"hull2d: points at every scale against a big-integer orientation (CI fuzz finding)",
     test_hull_adversarial},
    CU_TEST_INFO_NULL,
};

static int reg(void) { return nsm_add_suite("geometry", geometry_tests); }

int main(void) { return nsm_test_main("test_geometry", reg); }
