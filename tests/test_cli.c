/*
 * Tests of the nsm program: it is run as a separate process on the shipped example problems,
 * on seeded random problems (results compared with direct library calls) and on the corpus of
 * bad files in tests/cli/bad/ (exit status, empty standard output, one-line message).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "harness.h"
#include "prop.h"
#include "nsmech.h"

static const char *nsm_bin(void)
{
    const char *b = getenv("NSM_BIN");
    return b != NULL ? b : "build/nsm";
}

static char tmpdir[64];

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)len + 1);
    size_t got = fread(s, 1, (size_t)len, f);
    s[got] = '\0';
    fclose(f);
    return s;
}

/* Runs 'nsm cmd file'; returns the exit status, stdout and stderr in malloc'd strings. */
static int run_nsm(const char *cmd, const char *file, char **out, char **err)
{
    char line[1024];
    snprintf(line, sizeof line, "%s %s %s > %s/out 2> %s/err < /dev/null", nsm_bin(), cmd, file,
             tmpdir, tmpdir);
    int st = system(line);
    snprintf(line, sizeof line, "%s/out", tmpdir);
    *out = slurp(line);
    snprintf(line, sizeof line, "%s/err", tmpdir);
    *err = slurp(line);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) {
        n += *s == '\n';
    }
    return n;
}

/* ---- bad files ------------------------------------------------------------------------- */

static void test_bad_corpus(void)
{
    FILE *idx = fopen("tests/cli/bad/cases.txt", "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(idx);
    char line[1024];
    int ncases = 0;
    while (fgets(line, sizeof line, idx) != NULL) {
        if (line[0] == '#' || line[0] == '\n') {
            continue;
        }
        line[strcspn(line, "\n")] = '\0';
        char *name = strtok(line, "|");
        char *cmd = strtok(NULL, "|");
        char *code = strtok(NULL, "|");
        char *expect = strtok(NULL, "");
        CU_ASSERT_PTR_NOT_NULL_FATAL(expect);
        char file[512];
        snprintf(file, sizeof file, "tests/cli/bad/%s.json", name);
        char *out, *err;
        int rc = run_nsm(cmd, file, &out, &err);
        int ok = rc == atoi(code) && out != NULL && out[0] == '\0' && err != NULL
                 && count_lines(err) == 1 && strstr(err, expect) != NULL;
        if (!ok) {
            printf("\n  bad file %s: exit %d (want %s), stdout %zu bytes, stderr: %s", name, rc,
                   code, out ? strlen(out) : 0, err ? err : "(none)");
        }
        CU_ASSERT(ok);
        free(out);
        free(err);
        ncases++;
    }
    fclose(idx);
    CU_ASSERT(ncases >= 30);
}

static void test_usage(void)
{
    char *out, *err;
    CU_ASSERT_EQUAL(run_nsm("", "", &out, &err), 2);
    CU_ASSERT(out != NULL && out[0] == '\0');
    free(out); free(err);
    CU_ASSERT_EQUAL(run_nsm("frobnicate", "x.json", &out, &err), 2);
    free(out); free(err);
    char line[512];
    snprintf(line, sizeof line, "%s --version > /dev/null", nsm_bin());
    CU_ASSERT_EQUAL(system(line), 0);
    snprintf(line, sizeof line, "%s --help | grep -q 'nsm dynamics'", nsm_bin());
    CU_ASSERT_EQUAL(system(line), 0);
    CU_ASSERT_EQUAL(run_nsm("dynamics", "tests/cli/does-not-exist.json", &out, &err), 1);
    CU_ASSERT(out != NULL && out[0] == '\0' && err != NULL && strstr(err, "cannot open"));
    free(out); free(err);
}

/* ---- agreement with the library -------------------------------------------------------- */

static void put_matrix(FILE *f, const char *name, size_t r, size_t c, const double *x)
{
    fprintf(f, "\"%s\": [", name);
    for (size_t i = 0; i < r; i++) {
        fprintf(f, "%s[", i ? ", " : "");
        for (size_t j = 0; j < c; j++) {
            fprintf(f, "%s%.17g", j ? ", " : "", x[i * c + j]);
        }
        fputc(']', f);
    }
    fputs("]", f);
}

static void put_vector(FILE *f, const char *name, size_t n, const double *x)
{
    fprintf(f, "\"%s\": [", name);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s%.17g", i ? ", " : "", x[i]);
    }
    fputs("]", f);
}

/* max |x - a| over a JSON array of numbers (n entries), or +inf when the shape differs. */
static double json_vec_diff(const cJSON *a, size_t n, const double *x)
{
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) != n) {
        return INFINITY;
    }
    double d = 0.0;
    for (size_t i = 0; i < n; i++) {
        const cJSON *v = cJSON_GetArrayItem(a, (int)i);
        if (!cJSON_IsNumber(v)) {
            return INFINITY;
        }
        double e = fabs(v->valuedouble - x[i]);
        d = e > d ? e : d;
    }
    return d;
}

/* The same for a JSON array of rows (rows×cols, row-major x). */
static double json_mat_diff(const cJSON *a, size_t rows, size_t cols, const double *x)
{
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) != rows) {
        return INFINITY;
    }
    double d = 0.0;
    for (size_t i = 0; i < rows; i++) {
        double e = json_vec_diff(cJSON_GetArrayItem(a, (int)i), cols, x + i * cols);
        d = e > d ? e : d;
    }
    return d;
}

static int prop_dynamics_agrees(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t n = nsm_rng_index(rng, 2, 7);
    size_t m = nsm_rng_index(rng, 0, n);
    size_t r = m ? nsm_rng_index(rng, 1, m) : 0;
    double M[49], C[49], A[49], Ad[49], f[7], fg[7], qd0[7], qd[7];
    prop_spd(rng, n, 100.0, 0.5, M);
    prop_vector(rng, n * n, C);
    prop_rank(rng, m, n, r, 10.0, A);
    prop_vector(rng, m * n, Ad);
    prop_vector(rng, n, f);
    prop_vector(rng, n, fg);
    prop_vector(rng, n, qd0);
    /* Library call first (also gives P for an admissible velocity). */
    nsm_proj_opts opts = NSM_PROJ_OPTS_DEFAULT;
    size_t lw = nsm_proj_dynamics_work(n, m);
    double *work = malloc(lw * sizeof *work);
    double qdd[7], fc[7], P[49], Mbar[49];
    nsm_proj_info info;
    nsm_status s = nsm_proj_dynamics(n, m, M, C, m ? A : NULL, m ? Ad : NULL, f, fg, qd0, &opts,
                                     qdd, fc, &info, P, Mbar, work, lw);
    tm_matmul(n, 1, n, P, qd0, qd);
    s = s == NSM_OK ? nsm_proj_dynamics(n, m, M, C, m ? A : NULL, m ? Ad : NULL, f, fg, qd, &opts,
                                        qdd, fc, &info, P, Mbar, work, lw)
                    : s;
    free(work);
    if (s != NSM_OK) {
        snprintf(msg, len, "library call failed: %s", nsm_status_str(s));
        return 1;
    }
    char path[128];
    snprintf(path, sizeof path, "%s/dyn.json", tmpdir);
    FILE *fp = fopen(path, "w");
    fputc('{', fp);
    put_matrix(fp, "M", n, n, M); fputs(", ", fp);
    put_matrix(fp, "C", n, n, C); fputs(", ", fp);
    put_matrix(fp, "A", m, n, A); fputs(", ", fp);
    put_matrix(fp, "Adot", m, n, Ad); fputs(", ", fp);
    put_vector(fp, "f", n, f); fputs(", ", fp);
    put_vector(fp, "fg", n, fg); fputs(", ", fp);
    put_vector(fp, "qdot", n, qd);
    fputs("}\n", fp);
    fclose(fp);
    char *out, *err;
    int rc = run_nsm("dynamics", path, &out, &err);
    cJSON *res = rc == 0 ? cJSON_Parse(out) : NULL;
    int bad = 0;
    if (res == NULL) {
        snprintf(msg, len, "nsm exit %d: %s", rc, err ? err : "");
        bad = 1;
    } else {
        const cJSON *rk = cJSON_GetObjectItem(res, "rank");
        const cJSON *mu = cJSON_GetObjectItem(res, "mu");
        double dq = json_vec_diff(cJSON_GetObjectItem(res, "qddot"), n, qdd);
        double df = json_vec_diff(cJSON_GetObjectItem(res, "fc"), n, fc);
        double dp = json_mat_diff(cJSON_GetObjectItem(res, "P"), n, n, P);
        double dm = json_mat_diff(cJSON_GetObjectItem(res, "Mbar"), n, n, Mbar);
        /* Same inputs bit for bit (17 digits) and the same code; BLAS kernels may sum in
           another order for buffers of another alignment, so allow a few ulps. */
        double tq = 1e-12 * (1.0 + tm_maxabs(n, qdd)), tf = 1e-12 * (1.0 + tm_maxabs(n, fc));
        double tm = 1e-12 * (1.0 + tm_maxabs(n * n, Mbar));
        if (!cJSON_IsNumber(rk) || (size_t)rk->valuedouble != info.rank || !cJSON_IsNumber(mu)
            || fabs(mu->valuedouble - info.mu) > 1e-12 * info.mu || !(dq <= tq) || !(df <= tf)
            || !(dp <= 1e-12) || !(dm <= tm)) {
            snprintf(msg, len, "n=%zu m=%zu: differs from the library: qdd %g fc %g P %g Mbar %g",
                     n, m, dq, df, dp, dm);
            bad = 1;
        }
    }
    cJSON_Delete(res);
    free(out);
    free(err);
    return bad;
}

static void test_dynamics_agrees(void)
{
    prop_run("nsm dynamics = library", prop_dynamics_agrees, NULL, 60);
}

static void test_dynamics_example(void)
{
    char *out, *err;
    int rc = run_nsm("dynamics", "examples/problems/dynamics_redundant_plane.json", &out, &err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    cJSON *res = cJSON_Parse(out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    /* Closed form: point mass 2 kg on the plane z = 0 (two redundant rows), gravity -19.62 N:
       rank 1, μ* = 2 (the in-plane mass), no in-plane acceleration, reaction +19.62 N. */
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(res, "rank")->valuedouble, 1.0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(res, "mu")->valuedouble, 2.0, 1e-12);
    double qdd[3] = {0, 0, 0}, fc[3] = {0, 0, 19.62};
    CU_ASSERT(json_vec_diff(cJSON_GetObjectItem(res, "qddot"), 3, qdd) < 1e-12);
    CU_ASSERT(json_vec_diff(cJSON_GetObjectItem(res, "fc"), 3, fc) < 1e-12);
    /* Control law (21) by hand: e = (0.5, 0.2, 0), η = q̇/‖q̇‖, only the in-plane part acts. */
    double e[2] = {0.5, 0.2}, qd[2] = {0.3, -0.1};
    double ne = sqrt(0.29), nq = sqrt(0.1);
    double fctl[3];
    for (int i = 0; i < 2; i++) {
        fctl[i] = -(4.0 * (e[i] + 1.5 * ne * qd[i] / nq) + 2.0 * qd[i]);
    }
    fctl[2] = 0.0;
    CU_ASSERT(json_vec_diff(cJSON_GetObjectItem(res, "f_control"), 3, fctl) < 1e-12);
    const cJSON *resid = cJSON_GetObjectItem(res, "residuals");
    const char *keys[] = {"P2-P", "P-PT", "PR-P", "R2-R", "S2-S", "QS-S", "SQ-Q", "PLambda",
                          "skew"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const cJSON *v = cJSON_GetObjectItem(resid, keys[i]);
        CU_ASSERT(cJSON_IsNumber(v) && v->valuedouble < 1e-12);
    }
    cJSON_Delete(res);
    free(out);
    free(err);
}

static int prop_impact_agrees(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t n = nsm_rng_index(rng, 2, 6);
    size_t m = nsm_rng_index(rng, 1, 3);
    size_t d = nsm_rng_index(rng, 1, 2); /* tangent dimension: planar or spatial contacts */
    double M[36], Jn[18], Jt[36], mu[3], v[6];
    prop_spd(rng, n, 20.0, 0.5, M);
    prop_vector(rng, m * n, Jn);
    prop_vector(rng, d * m * n, Jt);
    for (size_t c = 0; c < m; c++) {
        mu[c] = nsm_rng_range(rng, 0.0, 1.5);
    }
    prop_vector(rng, n, v);
    int sequential = (int)nsm_rng_index(rng, 0, 1);
    size_t order[3] = {0, 1, 2};
    double ratios[3] = {1.0, 1.0, 1.0};
    nsm_impact_policy pol = {sequential ? NSM_POLICY_SEQUENTIAL : NSM_POLICY_SIMULTANEOUS, order,
                             ratios, 0, 1};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    size_t lw = nsm_impact_work(n, m);
    double *work = malloc(lw * sizeof *work);
    double vp[6], lam[9];
    nsm_impact_info info;
    nsm_status s = nsm_impact_solve_d(n, m, d, M, Jn, Jt, mu, v, &pol, &opts, vp, lam, &info,
                                      work, lw);
    free(work);
    char path[128];
    snprintf(path, sizeof path, "%s/imp.json", tmpdir);
    FILE *fp = fopen(path, "w");
    fputc('{', fp);
    put_matrix(fp, "M", n, n, M); fputs(", ", fp);
    put_matrix(fp, "Jn", m, n, Jn); fputs(", ", fp);
    put_matrix(fp, "Jt", d * m, n, Jt); fputs(", ", fp);
    fprintf(fp, "\"tangent_dim\": %zu, ", d);
    put_vector(fp, "mu", m, mu); fputs(", ", fp);
    put_vector(fp, "v", n, v);
    fprintf(fp, ", \"policy\": \"%s\"}\n", sequential ? "sequential" : "simultaneous");
    fclose(fp);
    char *out, *err;
    int rc = run_nsm("impact", path, &out, &err);
    cJSON *res = out != NULL ? cJSON_Parse(out) : NULL;
    int bad = 0;
    int want_rc = s == NSM_OK ? 0 : 3;
    if (rc != want_rc || res == NULL) {
        snprintf(msg, len, "library %s, nsm exit %d: %s", nsm_status_str(s), rc, err ? err : "");
        bad = 1;
    } else {
        double ln[3], lt[6];
        for (size_t c = 0; c < m; c++) {
            for (size_t j = 0; j < d; j++) {
                lt[d * c + j] = lam[(d + 1) * c + j];
            }
            ln[c] = lam[(d + 1) * c + d];
        }
        double tv = 1e-9 * (1.0 + tm_maxabs(n, v));
        double dv = json_vec_diff(cJSON_GetObjectItem(res, "v_plus"), n, vp);
        double dn = json_vec_diff(cJSON_GetObjectItem(res, "impulse_n"), m, ln);
        double dt = json_vec_diff(cJSON_GetObjectItem(res, "impulse_t"), d * m, lt);
        const cJSON *sb = cJSON_GetObjectItem(res, "s_bound");
        if (!(dv <= tv) || !(dn <= tv) || !(dt <= tv) || !cJSON_IsNumber(sb)
            || fabs(sb->valuedouble - info.bound) > 1e-9 * (1.0 + info.bound)) {
            snprintf(msg, len, "n=%zu m=%zu d=%zu: differs from the library: v+ %g Ln %g Lt %g",
                     n, m, d, dv, dn, dt);
            bad = 1;
        }
    }
    cJSON_Delete(res);
    free(out);
    free(err);
    return bad;
}

static void test_impact_agrees(void)
{
    prop_run("nsm impact = library", prop_impact_agrees, NULL, 60);
}

static void test_impact_sampled_example(void)
{
    char *out, *err;
    int rc = run_nsm("impact", "examples/problems/impact_ball_stack.json", &out, &err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    cJSON *res = cJSON_Parse(out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    const cJSON *outs = cJSON_GetObjectItem(res, "outcomes");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(outs), 40);
    double acc = cJSON_GetObjectItem(res, "accepted")->valuedouble;
    double rej = cJSON_GetObjectItem(res, "rejected")->valuedouble;
    CU_ASSERT_EQUAL(acc + rej, 40.0);
    const cJSON *o;
    cJSON_ArrayForEach(o, outs) {
        if (strcmp(cJSON_GetObjectItem(o, "status")->valuestring, "ok") != 0) {
            continue;
        }
        /* Energy never increases; s within its bound; every normal impulse >= 0. */
        CU_ASSERT(cJSON_GetObjectItem(o, "energy_plus")->valuedouble
                  <= cJSON_GetObjectItem(o, "energy_minus")->valuedouble * (1 + 1e-12));
        CU_ASSERT(cJSON_GetObjectItem(o, "s")->valuedouble
                  <= cJSON_GetObjectItem(o, "s_bound")->valuedouble);
        const cJSON *ln;
        cJSON_ArrayForEach(ln, cJSON_GetObjectItem(o, "impulse_n")) {
            CU_ASSERT(ln->valuedouble >= 0.0);
        }
    }
    cJSON_Delete(res);
    free(out);
    free(err);
}

static CU_TestInfo cli_tests[] = {
    {"bad files: exit status, no stdout, one-line message", test_bad_corpus},
    {"usage, --help, --version, missing file", test_usage},
    {"dynamics example matches the closed form", test_dynamics_example},
    {"dynamics on random problems equals the library", test_dynamics_agrees},
    {"impact on random problems equals the library", test_impact_agrees},
    {"sampled ball-stack outcomes: counts, energy, bound", test_impact_sampled_example},
    CU_TEST_INFO_NULL,
};

static int reg(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/nsm-cli-test-XXXXXX");
    if (mkdtemp(tmpdir) == NULL) {
        return -1;
    }
    return nsm_add_suite("cli", cli_tests);
}

int main(void)
{
    int rc = nsm_test_main("test_cli", reg);
    char line[128];
    snprintf(line, sizeof line, "rm -rf %s", tmpdir);
    if (system(line) != 0) {
        fprintf(stderr, "test_cli: could not remove %s\n", tmpdir);
    }
    return rc;
}
