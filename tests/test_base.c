/* Tests of the base module: status names and argument validation. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "prop.h"
#include "nsmech.h"

static void test_status_names(void)
{
    CU_ASSERT_STRING_EQUAL(nsm_status_str(NSM_OK), "ok");
    for (int s = 1; s < NSM_STATUS_COUNT; s++) {
        const char *a = nsm_status_str((nsm_status)s);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT(strcmp(a, "unknown status") != 0);
        for (int t = 0; t < s; t++) {
            CU_ASSERT(strcmp(a, nsm_status_str((nsm_status)t)) != 0);
        }
    }
    CU_ASSERT_STRING_EQUAL(nsm_status_str(NSM_STATUS_COUNT), "unknown status");
    CU_ASSERT_STRING_EQUAL(nsm_status_str((nsm_status)-1), "unknown status");
}

static void test_all_finite(void)
{
    double x[4] = {1.0, -0.0, 1e308, -1e-310};
    CU_ASSERT_EQUAL(nsm_all_finite(4, x), 1);
    CU_ASSERT_EQUAL(nsm_all_finite(0, NULL), 1);
    x[2] = NAN;
    CU_ASSERT_EQUAL(nsm_all_finite(4, x), 0);
    CU_ASSERT_EQUAL(nsm_all_finite(2, x), 1);
    x[2] = INFINITY;
    CU_ASSERT_EQUAL(nsm_all_finite(4, x), 0);
    x[2] = -INFINITY;
    CU_ASSERT_EQUAL(nsm_all_finite(4, x), 0);
}

static void test_check_input(void)
{
    double x[3] = {1.0, 2.0, 3.0};
    CU_ASSERT_EQUAL(nsm_check_input(3, x), NSM_OK);
    CU_ASSERT_EQUAL(nsm_check_input(0, NULL), NSM_OK);
    CU_ASSERT_EQUAL(nsm_check_input(3, NULL), NSM_ERR_NULL);
    x[1] = NAN;
    CU_ASSERT_EQUAL(nsm_check_input(3, x), NSM_ERR_NOT_FINITE);
}

static void test_dims(void)
{
    CU_ASSERT_EQUAL(nsm_dim_ok(0), 0);
    CU_ASSERT_EQUAL(nsm_dim_ok(1), 1);
    CU_ASSERT_EQUAL(nsm_dim_ok(NSM_MAX_DIM), 1);
    CU_ASSERT_EQUAL(nsm_dim_ok(NSM_MAX_DIM + 1), 0);
    CU_ASSERT_EQUAL(nsm_dim0_ok(0), 1);
    CU_ASSERT_EQUAL(nsm_dim0_ok(NSM_MAX_DIM + 1), 0);
}

static void test_symmetric(void)
{
    double A[9] = {2, 1, 0, 1, 3, -1, 0, -1, 4};
    CU_ASSERT_EQUAL(nsm_is_symmetric(3, A, 0.0), 1);
    A[5] = -1.0 + 1e-9;
    CU_ASSERT_EQUAL(nsm_is_symmetric(3, A, 0.0), 0);
    CU_ASSERT_EQUAL(nsm_is_symmetric(3, A, 1e-8), 1);
    A[5] = NAN;
    CU_ASSERT_EQUAL(nsm_is_symmetric(3, A, 1.0), 0);
    /* the difference taken in either order: upper entry below the lower one */
    double B[4] = {1, 2, 2.5, 1};
    CU_ASSERT_EQUAL(nsm_is_symmetric(2, B, 0.1), 0);  /* 0.5 > 0.1·max(1, 2.5) */
    CU_ASSERT_EQUAL(nsm_is_symmetric(2, B, 0.25), 1); /* 0.5 <= 0.25·2.5 */
    B[1] = 3.0;
    CU_ASSERT_EQUAL(nsm_is_symmetric(2, B, 0.1), 0);  /* 0.5 > 0.1·max(1, 3) */
    CU_ASSERT_EQUAL(nsm_is_symmetric(2, B, 0.2), 1);  /* 0.5 <= 0.2·3 */
}

static void test_overlap(void)
{
    double buf[10] = {0};
    CU_ASSERT_EQUAL(nsm_overlap(buf, 5, buf + 5, 5), 0);
    CU_ASSERT_EQUAL(nsm_overlap(buf, 6, buf + 5, 5), 1);
    CU_ASSERT_EQUAL(nsm_overlap(buf + 5, 5, buf, 6), 1);
    CU_ASSERT_EQUAL(nsm_overlap(buf, 10, buf + 3, 1), 1);
    CU_ASSERT_EQUAL(nsm_overlap(buf, 0, buf, 10), 0);
}

/* nsm_overlap_bytes: half-open byte ranges, either order, zero lengths never overlap; a
   structure against the doubles it sits on */
static void test_overlap_bytes(void)
{
    double buf[10];
    uintptr_t a = (uintptr_t)buf;
    CU_ASSERT_EQUAL(nsm_overlap_bytes(a, 40, a + 40, 40), 0);
    CU_ASSERT_EQUAL(nsm_overlap_bytes(a, 41, a + 40, 40), 1);
    CU_ASSERT_EQUAL(nsm_overlap_bytes(a + 40, 40, a, 41), 1);
    CU_ASSERT_EQUAL(nsm_overlap_bytes(a + 40, 40, a, 40), 0);
    CU_ASSERT_EQUAL(nsm_overlap_bytes(a, 80, a + 3, 1), 1);
    CU_ASSERT_EQUAL(nsm_overlap_bytes(a, 0, a, 80), 0);
    CU_ASSERT_EQUAL(nsm_overlap_bytes(a, 80, a, 0), 0);
    struct pair {
        double x, y;
    } *p = (struct pair *)(void *)(buf + 4);
    CU_ASSERT_EQUAL(nsm_overlap_bytes((uintptr_t)p, sizeof *p, a, 4 * sizeof(double)), 0);
    CU_ASSERT_EQUAL(nsm_overlap_bytes((uintptr_t)p, sizeof *p, a, 5 * sizeof(double)), 1);
}

/* nsm_spans_overlap (base.h: "1 if one of the nw spans w shares a byte with another of them or
   with one of the nr spans r, else 0; read spans may share bytes with each other") against a
   byte map: random spans in a 64-byte arena, each write span marks its bytes, and a byte
   marked twice, or a marked byte inside a read span, is an overlap. */
static int prop_spans(nsm_rng *rng, void *ctx, char *msg, size_t msglen)
{
    (void)ctx;
    unsigned char arena[64];
    nsm_span w[NSM_MAX_SPANS], r[NSM_MAX_SPANS];
    size_t nw = nsm_rng_index(rng, 0, 6);
    size_t nr = nsm_rng_index(rng, 0, 6);
    unsigned char owner[64] = {0};
    int expect = 0;
    for (size_t i = 0; i < nw + nr; i++) {
        size_t at = nsm_rng_index(rng, 0, 63);
        size_t len = nsm_rng_index(rng, 0, 64 - at) / (1 + nsm_rng_index(rng, 0, 3));
        nsm_span s = {(uintptr_t)(arena + at), len};
        if (i < nw) {
            w[i] = s;
        } else {
            r[i - nw] = s;
        }
    }
    for (size_t i = 0; i < nw; i++) { /* bytes written by two spans */
        size_t at = (size_t)(w[i].addr - (uintptr_t)arena);
        for (size_t k = at; k < at + w[i].len; k++) {
            expect |= owner[k] != 0;
            owner[k] = 1;
        }
    }
    for (size_t j = 0; j < nr; j++) { /* a written byte that is read */
        size_t at = (size_t)(r[j].addr - (uintptr_t)arena);
        for (size_t k = at; k < at + r[j].len; k++) {
            expect |= owner[k] != 0;
        }
    }
    int got = nsm_spans_overlap(nw, w, nr, r);
    if (got != expect) {
        snprintf(msg, msglen, "nw=%zu nr=%zu: got %d, byte map says %d", nw, nr, got, expect);
        return 1;
    }
    return 0;
}

static void test_spans_overlap(void)
{
    prop_run("spans overlap equals the byte map", prop_spans, NULL, 2000);
    /* reads may share bytes; an empty span meets nothing, even at the same address */
    double buf[4];
    nsm_span rd[2] = {{(uintptr_t)buf, 32}, {(uintptr_t)buf, 32}};
    nsm_span wr[2] = {{(uintptr_t)buf, 0}, {(uintptr_t)(buf + 2), 0}};
    CU_ASSERT_EQUAL(nsm_spans_overlap(2, wr, 2, rd), 0);
    CU_ASSERT_EQUAL(nsm_spans_overlap(0, NULL, 2, rd), 0);
    CU_ASSERT_EQUAL(nsm_spans_overlap(1, rd, 1, rd + 1), 1);
}

static CU_TestInfo base_tests[] = {
    {"status names are distinct and total", test_status_names},
    {"all_finite detects NaN and infinities", test_all_finite},
    {"check_input statuses", test_check_input},
    {"dimension limits", test_dims},
    {"symmetry test with tolerance", test_symmetric},
    {"overlap of double ranges", test_overlap},
    {"overlap of byte ranges", test_overlap_bytes},
    {"overlap of span tables against a byte map", test_spans_overlap},
    CU_TEST_INFO_NULL,
};

static int reg(void) { return nsm_add_suite("base", base_tests); }

int main(void) { return nsm_test_main("test_base", reg); }
