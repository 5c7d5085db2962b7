/*
 * Tests of the nsm program: it is run as a separate process on the shipped example problems,
 * on seeded random problems (results compared with direct library calls), on the corpus of
 * bad files in tests/cli/bad/ (exit status, empty standard output, one-line message) and on
 * generated files (nesting depth, rank tolerance); a sample run is also watched on a
 * pseudo-terminal for its progress line.
 */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "entry_args.h"
#include "harness.h"
#include "prop.h"
#include "box_corner.h"
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

/* The JSON document in the file at path (the caller deletes it). */
static cJSON *load_json(const char *path)
{
    char *text = slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    return doc;
}

/* Writes doc to the file at path. */
static void save_json(const cJSON *doc, const char *path)
{
    char *text = cJSON_Print(doc);
    FILE *fp = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    fputs(text, fp);
    fclose(fp);
    free(text);
}

/* Writes the problem file src, with "samples" replaced by samples, to path. */
static void write_with_samples(const char *src, double samples, const char *path)
{
    cJSON *doc = load_json(src);
    cJSON_ReplaceItemInObject(doc, "samples", cJSON_CreateNumber(samples));
    save_json(doc, path);
    cJSON_Delete(doc);
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

/* Writes text to <tmpdir>/name and leaves that path in path (len bytes). */
static void write_text(const char *name, const char *text, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", tmpdir, name);
    FILE *fp = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    fputs(text, fp);
    fclose(fp);
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

/* Bad usage: exit 2, nothing on standard output, the line first then the usage text. */
static void check_bad_usage(const char *cmd, const char *file, const char *first_line)
{
    char *out, *err;
    int rc = run_nsm(cmd, file, &out, &err);
    size_t fl = strlen(first_line);
    int ok = rc == 2 && out != NULL && out[0] == '\0' && err != NULL
             && strncmp(err, first_line, fl) == 0
             && strncmp(err + fl, "\nusage: nsm dynamics", 20) == 0;
    if (!ok) {
        printf("\n  nsm %s %s: exit %d, stdout %zu bytes, stderr: %s", cmd, file, rc,
               out ? strlen(out) : 0, err ? err : "(none)");
    }
    CU_ASSERT(ok);
    free(out);
    free(err);
}

static void test_usage(void)
{
    char *out, *err;
    check_bad_usage("", "", "nsm: missing command");
    check_bad_usage("frobnicate", "x.json", "nsm: unknown command 'frobnicate'");
    check_bad_usage("foo", "", "nsm: unknown command 'foo'");
    check_bad_usage("--frobnicate", "", "nsm: unknown option '--frobnicate'");
    check_bad_usage("impact", "", "nsm: 'impact' needs a FILE argument");
    check_bad_usage("dynamics", "a.json b.json", "nsm: 'dynamics' takes one FILE argument");
    check_bad_usage("--version", "x", "nsm: '--version' takes no argument");
    char line[512];
    snprintf(line, sizeof line, "%s --version > /dev/null", nsm_bin());
    CU_ASSERT_EQUAL(system(line), 0);
    snprintf(line, sizeof line, "%s --help | grep -q 'nsm dynamics'", nsm_bin());
    CU_ASSERT_EQUAL(system(line), 0);
    CU_ASSERT_EQUAL(run_nsm("dynamics", "tests/cli/does-not-exist.json", &out, &err), 1);
    CU_ASSERT(out != NULL && out[0] == '\0' && err != NULL && strstr(err, "cannot open"));
    free(out); free(err);
}

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

/* Runs 'nsm cmd file' expecting exit code, empty standard output and one line containing text. */
static int expect_error(const char *cmd, const char *file, int code, const char *text)
{
    char *out, *err;
    int rc = run_nsm(cmd, file, &out, &err);
    int ok = rc == code && out != NULL && out[0] == '\0' && err != NULL && count_lines(err) == 1
             && strstr(err, text) != NULL;
    if (!ok) {
        printf("\n  nsm %s %s: exit %d (want %d), stdout %zu bytes, stderr: %s", cmd, file, rc,
               code, out ? strlen(out) : 0, err ? err : "(none)");
    }
    free(out);
    free(err);
    return ok;
}

/* Writes prefix, open 'count' times, middle, close 'count' times (if not NULL), suffix. */
static void write_nested(const char *path, const char *prefix, const char *open, size_t count,
                         const char *middle, const char *close, const char *suffix)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(prefix, f);
    for (size_t i = 0; i < count; i++) {
        fputs(open, f);
    }
    fputs(middle, f);
    for (size_t i = 0; close != NULL && i < count; i++) {
        fputs(close, f);
    }
    fputs(suffix, f);
    fclose(f);
}

/* Valid JSON deeper than cJSON's limit is reported as such, not as malformed; brackets inside
   strings do not count. The object is level 1: "M" may hold CJSON_NESTING_LIMIT - 1 arrays. */
static void test_json_depth(void)
{
    char path[128];
    char want[64];
    snprintf(path, sizeof path, "%s/deep.json", tmpdir);
    snprintf(want, sizeof want, "JSON nested deeper than %d levels", CJSON_NESTING_LIMIT);
    write_nested(path, "{\"M\": ", "[", CJSON_NESTING_LIMIT - 1, "", "]", "}");
    CU_ASSERT(expect_error("impact", path, 1, "field 'M': entry [0][0] is not a number"));
    write_nested(path, "{\"M\": ", "[", CJSON_NESTING_LIMIT, "", "]", "}");
    CU_ASSERT(expect_error("impact", path, 1, want));
    write_nested(path, "{\"M\": [{\"a\": ", "{\"a\": ", 2 * CJSON_NESTING_LIMIT, "1", "}", "}]}");
    CU_ASSERT(expect_error("dynamics", path, 1, want));
    /* 3000 brackets inside a string: a well-formed file, read field by field */
    write_nested(path, "{\"M\": [[1]], \"Jn\": [[1]], \"Jt\": [[0]], \"mu\": [0], \"v\": [-1], "
                 "\"policy\": \"", "[{", 1500, "", NULL, "\"}");
    CU_ASSERT(expect_error("impact", path, 1, "field 'policy': unknown policy"));
    /* the same string, then an escaped quote and a truncated document: malformed */
    write_nested(path, "{\"policy\": \"", "[{", 1500, "", NULL, "\\\" [[[");
    CU_ASSERT(expect_error("impact", path, 1, "malformed JSON near byte"));
}

/* rank_rtol sets the relative rank tolerance; rank_tol is its deprecated alias. */
static void test_rank_rtol(void)
{
    /* singular values of A: 1 and 1e-6; rank 2 by default (1e-10), 1 with 1e-3 */
    const double M[9] = {2, 0, 0, 0, 2, 0, 0, 0, 2}, Z[9] = {0}, A[6] = {1, 0, 0, 0, 1e-6, 0};
    const char *opt[] = {"", ", \"rank_rtol\": 1e-3", ", \"rank_tol\": 1e-3"};
    const double want[] = {2.0, 1.0, 1.0};
    char path[128];
    snprintf(path, sizeof path, "%s/rtol.json", tmpdir);
    for (size_t t = 0; t < 3; t++) {
        FILE *fp = fopen(path, "w");
        CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
        fputc('{', fp);
        put_matrix(fp, "M", 3, 3, M); fputs(", ", fp);
        put_matrix(fp, "C", 3, 3, Z); fputs(", ", fp);
        put_matrix(fp, "A", 2, 3, A); fputs(", ", fp);
        put_matrix(fp, "Adot", 2, 3, Z); fputs(", ", fp);
        put_vector(fp, "f", 3, Z); fputs(", ", fp);
        put_vector(fp, "fg", 3, Z); fputs(", ", fp);
        put_vector(fp, "qdot", 3, Z);
        fprintf(fp, "%s}\n", opt[t]);
        fclose(fp);
        char *out, *err;
        int rc = run_nsm("dynamics", path, &out, &err);
        cJSON *res = rc == 0 ? cJSON_Parse(out) : NULL;
        const cJSON *rk = cJSON_GetObjectItem(res, "rank");
        int ok = cJSON_IsNumber(rk) && rk->valuedouble == want[t] && err != NULL
                 && err[0] == '\0';
        if (!ok) {
            printf("\n  rank tolerance '%s': exit %d, stderr: %s", opt[t], rc, err ? err : "");
        }
        CU_ASSERT(ok);
        cJSON_Delete(res);
        free(out);
        free(err);
    }
}

/* ---- agreement with the library -------------------------------------------------------- */

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
    nsm_proj_problem prob = {n, m, M, C, m ? A : NULL, m ? Ad : NULL, f, fg, qd0};
    nsm_proj_dynamics_result dres = {qdd, fc, P, Mbar, {0, 0.0}};
    nsm_status s = nsm_proj_dynamics(&prob, &opts, &dres, work, lw);
    tm_matmul(n, 1, n, P, qd0, qd);
    prob.qd = qd;
    s = s == NSM_OK ? nsm_proj_dynamics(&prob, &opts, &dres, work, lw) : s;
    const nsm_proj_info info = dres.info;
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
    /* Control law (21) (docs/math.md (P19); [D] eq. 21) by hand: e = (0.5, 0.2, 0),
       η = q̇/‖q̇‖, only the in-plane part acts. */
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
                             ratios, 0, 1, NULL, NULL, NULL};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    size_t lw = nsm_impact_work(n, m);
    double *work = malloc(lw * sizeof *work);
    double vp[6], lam[9];
    nsm_impact_info info;
    nsm_status s = args_impact_solve(n, m, d, M, Jn, Jt, mu, v, &pol, &opts, vp, lam, &info,
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

/* The shipped example (40 samples); with NSM_PROP_CASES below 40 (make valgrind) a copy with
   that many samples, the rest of the problem unchanged. */
static void test_impact_sampled_example(void)
{
    char *out, *err;
    const char *file = "examples/problems/impact_ball_stack.json";
    size_t samples = prop_cases(40);
    char path[128];
    if (samples < 40) {
        snprintf(path, sizeof path, "%s/ball_stack_few.json", tmpdir);
        write_with_samples(file, (double)samples, path);
        file = path;
    } else {
        samples = 40;
    }
    int rc = run_nsm("impact", file, &out, &err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    /* standard error is not a terminal here: no progress line, nothing at all */
    CU_ASSERT(err != NULL && err[0] == '\0');
    cJSON *res = cJSON_Parse(out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    const cJSON *outs = cJSON_GetObjectItem(res, "outcomes");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(outs), (int)samples);
    double acc = cJSON_GetObjectItem(res, "accepted")->valuedouble;
    double rej = cJSON_GetObjectItem(res, "rejected")->valuedouble;
    CU_ASSERT_EQUAL(acc + rej, (double)samples);
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

/* Opens tmpdir/name (its path into path) and writes the fields of a planar impact with n
   coordinates and k contacts, leaving the object open for further fields. */
static FILE *open_impact(char *path, size_t len, const char *name, size_t n, size_t k,
                         const double *M, const double *Jn, const double *Jt, const double *mu,
                         const double *v)
{
    snprintf(path, len, "%s/%s", tmpdir, name);
    FILE *fp = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    fputc('{', fp);
    put_matrix(fp, "M", n, n, M); fputs(", ", fp);
    put_matrix(fp, "Jn", k, n, Jn); fputs(", ", fp);
    put_matrix(fp, "Jt", k, n, Jt); fputs(", ", fp);
    put_vector(fp, "mu", k, mu); fputs(", ", fp);
    put_vector(fp, "v", n, v);
    return fp;
}

/* Runs nsm impact on path: exit 0 and a JSON result whose "policy" is `policy` (the caller
   frees *out, *err and the result). */
static cJSON *impact_result(const char *path, const char *policy, char **out, char **err)
{
    int rc = run_nsm("impact", path, out, err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    cJSON *res = cJSON_Parse(*out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(res, "policy")->valuestring, policy);
    return res;
}

/* Solves the box-corner problem (M, Jn, Jt, mu, v) with pol in the library and checks that
   the CLI's run o printed the same v_plus (to 1e-15: the file holds the data in 17 digits);
   the library's v_plus in vp. */
static void check_corner_run(const cJSON *o, const nsm_impact_policy *pol, const double *M,
                             const double *Jn, const double *Jt, const double *mu,
                             const double *v, double *vp)
{
    static double work[4096];
    double L[4];
    nsm_impact_info info;
    CU_ASSERT_EQUAL_FATAL(args_impact_solve1(3, 2, M, Jn, Jt, mu, v, pol, NULL, vp, L, &info, work,
                                           nsm_impact_work(3, 2)),
                          NSM_OK);
    const cJSON *jv = cJSON_GetObjectItem(o, "v_plus");
    for (int k = 0; k < 3; k++) {
        CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(jv, k)->valuedouble, vp[k], 1e-15);
    }
}

/*
 * docs/cli.md, "bangbang": history i is the library's NSM_POLICY_BANGBANG run with seed
 * seed + i and the given hold, and with long dwells the histories reach both sequential
 * outcomes of the box moving down into the floor-wall corner (the extremes of v+_x that
 * sampled weights miss).
 */
static void test_impact_bangbang(void)
{
    double M[9], Jn[6], Jt[6], mu[2], v[3];
    box_corner_problem(M, Jn, Jt, mu, v);
    const size_t nh = 40;
    char path[128];
    FILE *fp = open_impact(path, sizeof path, "bangbang.json", 3, 2, M, Jn, Jt, mu, v);
    fprintf(fp, ", \"policy\": \"bangbang\", \"samples\": %zu, \"seed\": 5, \"hold\": 2000}", nh);
    fclose(fp);
    char *out, *err;
    cJSON *res = impact_result(path, "bangbang", &out, &err);
    const cJSON *outs = cJSON_GetObjectItem(res, "outcomes");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(outs), (int)nh);
    static double work[4096];
    size_t lw = nsm_impact_work(3, 2);
    double vp[3], L[4], xmin = INFINITY, xmax = -INFINITY;
    nsm_impact_info info;
    for (size_t i = 0; i < nh; i++) {
        const cJSON *o = cJSON_GetArrayItem(outs, (int)i);
        nsm_impact_policy pol = {NSM_POLICY_BANGBANG, NULL, NULL, 5 + i, 2000, NULL, NULL, NULL};
        check_corner_run(o, &pol, M, Jn, Jt, mu, v, vp);
        xmin = fmin(xmin, vp[0]);
        xmax = fmax(xmax, vp[0]);
    }
    double seqx[2];
    for (size_t first = 0; first < 2; first++) {
        size_t order[2] = {first, 1 - first};
        nsm_impact_policy pol = {NSM_POLICY_SEQUENTIAL, order, NULL, 0, 1, NULL, NULL, NULL};
        CU_ASSERT_EQUAL_FATAL(args_impact_solve1(3, 2, M, Jn, Jt, mu, v, &pol, NULL, vp, L, &info,
                                               work, lw),
                              NSM_OK);
        seqx[first] = vp[0];
    }
    CU_ASSERT(xmin <= fmin(seqx[0], seqx[1]) + 1e-12);
    CU_ASSERT(xmax >= fmax(seqx[0], seqx[1]) - 1e-12);
    cJSON_Delete(res);
    free(out);
    free(err);
}

/*
 * docs/cli.md, "schedule": the result is the library's NSM_POLICY_SCHEDULE run with the given
 * order, dwells and cycles (to 1e-15: the file holds the data in 17 digits); dwells that
 * outlast every phase give the sequential run of the same order; a missing, short or negative
 * dwell, cycles out of 1 .. NSM_SCHEDULE_MAX_CYCLES, or a dwell or cycles with another policy,
 * is an input error naming the field.
 */
static void test_impact_schedule(void)
{
    double M[9], Jn[6], Jt[6], mu[2], v[3];
    box_corner_problem(M, Jn, Jt, mu, v);
    static double work[4096];
    size_t lw = nsm_impact_work(3, 2);
    double vp[3], vs[3], L[4];
    nsm_impact_info info;
    size_t order[2] = {1, 0};
    const double dwells[3][2] = {{0.05, 0.05}, {0.3, 1e300}, {1e300, 1e300}};
    const size_t cycles[3] = {3, 1, 1}; /* 3: "cycles": 3 in the file */
    for (int t = 0; t < 3; t++) {
        char path[128];
        FILE *fp = open_impact(path, sizeof path, "schedule.json", 3, 2, M, Jn, Jt, mu, v);
        fprintf(fp, ", \"policy\": \"schedule\", \"order\": [1, 0], \"dwell\": [%.17g, %.17g]",
                dwells[t][0], dwells[t][1]);
        fprintf(fp, cycles[t] > 1 ? ", \"cycles\": %zu}" : "}", cycles[t]);
        fclose(fp);
        char *out, *err;
        cJSON *res = impact_result(path, "schedule", &out, &err);
        nsm_impact_policy pol = {NSM_POLICY_SCHEDULE, order, NULL, 0, cycles[t], NULL, NULL,
                                 dwells[t]};
        check_corner_run(res, &pol, M, Jn, Jt, mu, v, vp);
        cJSON_Delete(res);
        free(out);
        free(err);
    }
    /* to rest in every phase: the sequential run of the same order */
    nsm_impact_policy seq = {NSM_POLICY_SEQUENTIAL, order, NULL, 0, 1, NULL, NULL, NULL};
    CU_ASSERT_EQUAL_FATAL(args_impact_solve1(3, 2, M, Jn, Jt, mu, v, &seq, NULL, vs, L, &info, work,
                                           lw),
                          NSM_OK);
    CU_ASSERT(memcmp(vp, vs, sizeof vp) == 0);
    static const char *const bad[][2] = {
        {", \"policy\": \"schedule\", \"order\": [1, 0]}", "field 'dwell': missing"},
        {", \"policy\": \"schedule\", \"dwell\": [1]}", "field 'dwell'"},
        {", \"policy\": \"schedule\", \"dwell\": [-1, 1]}", "field 'dwell': entry [0]"},
        {", \"policy\": \"sequential\", \"dwell\": [1, 1]}", "field 'dwell': only meaningful"},
        {", \"policy\": \"schedule\", \"dwell\": [1, 1], \"cycles\": 0}", "field 'cycles'"},
        {", \"policy\": \"sequential\", \"cycles\": 2}", "field 'cycles': only meaningful"},
        {", \"policy\": \"schedule\", \"dwell\": [1, 1], \"hold\": 2}",
         "a schedule's repetitions are 'cycles'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[128];
        FILE *fp = open_impact(path, sizeof path, "schedule_bad.json", 3, 2, M, Jn, Jt, mu, v);
        fprintf(fp, "%s", bad[i][0]);
        fclose(fp);
        CU_ASSERT(expect_error("impact", path, 1, bad[i][1]));
    }
}

/*
 * docs/cli.md, "set": the outcomes are the runs of nsm_outcome_set (same order, same v_plus),
 * each with its source; each outcome's impulses satisfy the momentum balance
 * M (v+ - v-) = Jn^T Λn + Jt^T Λt; accepted + rejected = runs; each hull lists outcomes of its
 * projection and every accepted outcome lies inside it.
 */
static void test_impact_set(void)
{
    double M[9], Jn[6], Jt[6], mu[2], v[3];
    box_corner_problem(M, Jn, Jt, mu, v);
    enum { NH = 24 };
    char path[128];
    FILE *fp = open_impact(path, sizeof path, "set.json", 3, 2, M, Jn, Jt, mu, v);
    fprintf(fp, ", \"policy\": \"set\", \"samples\": %d, \"seed\": 3, \"steps\": 400, "
                "\"project\": [[1, 0, 0], [0, 1, 0], [%.17g, %.17g, %.17g], "
                "[%.17g, %.17g, %.17g]]}",
            NH, Jt[0], Jt[1], Jt[2], Jn[3], Jn[4], Jn[5]);
    fclose(fp);
    char *out, *err;
    cJSON *res = impact_result(path, "set", &out, &err);
    /* the runs of nsm_outcome_set_proj with the file's two projection planes: the base runs,
       then NSM_OUTCOME_PLANE_DIRS extremal runs in generalized velocities per plane */
    const double planes[12] = {1, 0, 0, 0, 1, 0, Jt[0], Jt[1], Jt[2], Jn[3], Jn[4], Jn[5]};
    enum { CAP = 2 * NH + 37 + 5 + (NH + 7) / 8 + 2 * NSM_OUTCOME_PLANE_DIRS };
    const size_t total = args_outcome_count(2, NH, 2);
    CU_ASSERT_EQUAL_FATAL(total, args_outcome_count(2, NH, 0) + 2 * NSM_OUTCOME_PLANE_DIRS);
    static double work[4096], vplus[CAP * 3];
    static nsm_status status[CAP];
    static nsm_policy_kind kind[CAP];
    size_t nruns = 0, acc = 0;
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = 400;
    CU_ASSERT_EQUAL_FATAL(args_outcome_set(3, 2, 1, M, Jn, Jt, mu, v, &opts, NH, 3, 400, 2,
                                               planes, CAP, vplus, status, kind, &nruns, &acc,
                                               work, nsm_outcome_work(3, 2)),
                          NSM_OK);
    CU_ASSERT_EQUAL_FATAL(nruns, total);
    const cJSON *outs = cJSON_GetObjectItem(res, "outcomes");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(outs), (int)total);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(res, "runs")->valuedouble, (double)total);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(res, "accepted")->valuedouble, (double)acc);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(res, "rejected")->valuedouble, (double)(total - acc));
    static const char *const names[] = {"sequential", "priority", "simultaneous", "extremal",
                                        "sampled", "extremal", "schedule", "moreau"};
    static const nsm_policy_kind kinds[] = {NSM_POLICY_SEQUENTIAL, NSM_POLICY_PRIORITY,
                                            NSM_POLICY_SIMULTANEOUS, NSM_POLICY_EXTREMAL,
                                            NSM_POLICY_BANGBANG, NSM_POLICY_EXTREMAL_V,
                                            NSM_POLICY_SCHEDULE, NSM_POLICY_MOREAU};
    double px[CAP], py[CAP];
    size_t np = 0;
    for (size_t r = 0; r < total; r++) {
        const cJSON *o = cJSON_GetArrayItem(outs, (int)r);
        const char *src = cJSON_GetObjectItem(o, "source")->valuestring;
        int known = 0;
        for (size_t q = 0; q < 8; q++) {
            known |= strcmp(src, names[q]) == 0 && kind[r] == kinds[q];
        }
        CU_ASSERT(known);
        int ok = strcmp(cJSON_GetObjectItem(o, "status")->valuestring, "ok") == 0;
        CU_ASSERT_EQUAL(ok, status[r] == NSM_OK);
        double vp[3], ln[2], lt[2];
        const cJSON *jv = cJSON_GetObjectItem(o, "v_plus");
        for (int k = 0; k < 3; k++) {
            vp[k] = cJSON_GetArrayItem(jv, k)->valuedouble;
            CU_ASSERT(!ok || fabs(vp[k] - vplus[3 * r + k]) <= 1e-15);
        }
        for (int c = 0; c < 2; c++) {
            ln[c] = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "impulse_n"), c)->valuedouble;
            lt[c] = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "impulse_t"), c)->valuedouble;
        }
        for (int i = 0; ok && i < 3; i++) {
            double lhs = 0.0, rhs = 0.0;
            for (int j = 0; j < 3; j++) {
                lhs += M[3 * i + j] * (vp[j] - v[j]);
            }
            for (int c = 0; c < 2; c++) {
                rhs += Jn[3 * c + i] * ln[c] + Jt[3 * c + i] * lt[c];
            }
            CU_ASSERT(fabs(lhs - rhs) <= 1e-9);
        }
        if (ok) {
            px[np] = vp[0];
            py[np] = vp[1];
            np++;
        }
    }
    /* hull 0 (v_x, v_y): vertices are accepted outcomes, counter-clockwise, all points inside */
    const cJSON *hulls = cJSON_GetObjectItem(res, "hull");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(hulls), 2);
    const cJSON *verts = cJSON_GetObjectItem(cJSON_GetArrayItem(hulls, 0), "vertices");
    int nv = cJSON_GetArraySize(verts);
    CU_ASSERT_FATAL(nv >= 3);
    for (int a = 0; a < nv; a++) {
        const cJSON *va = cJSON_GetArrayItem(verts, a), *vb = cJSON_GetArrayItem(verts, (a + 1) % nv);
        double ax = cJSON_GetArrayItem(va, 0)->valuedouble, ay = cJSON_GetArrayItem(va, 1)->valuedouble;
        double bx = cJSON_GetArrayItem(vb, 0)->valuedouble, by = cJSON_GetArrayItem(vb, 1)->valuedouble;
        int found = 0;
        for (size_t i = 0; i < np; i++) {
            found |= px[i] == ax && py[i] == ay;
            double cross = (bx - ax) * (py[i] - ay) - (by - ay) * (px[i] - ax);
            CU_ASSERT(cross >= -1e-12);
        }
        CU_ASSERT(found);
    }
    cJSON_Delete(res);
    free(out);
    free(err);
}

/* A JSON matrix field (rows of cols numbers) into x, row-major. */
static void json_matrix(const cJSON *pb, const char *name, size_t rows, size_t cols, double *x)
{
    const cJSON *a = cJSON_GetObjectItem(pb, name);
    CU_ASSERT_FATAL(cJSON_GetArraySize(a) == (int)rows);
    for (size_t i = 0; i < rows; i++) {
        const cJSON *row = cJSON_GetArrayItem(a, (int)i);
        for (size_t j = 0; j < cols; j++) {
            x[i * cols + j] = cJSON_GetArrayItem(row, (int)j)->valuedouble;
        }
    }
}

/*
 * docs/cli.md, "set" on spatial contacts (tangent_dim 2): the spinning block of
 * examples/problems/impact_spatial_spinning_block.json gives the runs of nsm_outcome_set_d,
 * and every accepted outcome balances momentum with its (t1, t2, n) impulses and does not
 * gain energy.
 */
static void test_impact_set_spatial(void)
{
    cJSON *pb = load_json("examples/problems/impact_spatial_spinning_block.json");
    enum { NH = 16, N = 6, K = 2 };
    cJSON_AddStringToObject(pb, "policy", "set");
    cJSON_AddNumberToObject(pb, "samples", NH);
    cJSON_AddNumberToObject(pb, "steps", 400);
    char path[128];
    snprintf(path, sizeof path, "%s/set_spatial.json", tmpdir);
    save_json(pb, path);
    double M[N * N], Jn[K * N], Jt[2 * K * N], mu[K], v[N];
    json_matrix(pb, "M", N, N, M);
    json_matrix(pb, "Jn", K, N, Jn);
    json_matrix(pb, "Jt", 2 * K, N, Jt);
    for (int c = 0; c < K; c++) {
        mu[c] = cJSON_GetArrayItem(cJSON_GetObjectItem(pb, "mu"), c)->valuedouble;
    }
    for (int i = 0; i < N; i++) {
        v[i] = cJSON_GetArrayItem(cJSON_GetObjectItem(pb, "v"), i)->valuedouble;
    }
    cJSON_Delete(pb);
    char *out, *err;
    cJSON *res = impact_result(path, "set", &out, &err);
    const size_t total = args_outcome_count(K, NH, 0);
    enum { CAP = 2 * NH + 37 + 5 + (NH + 7) / 8 }; /* nsm_outcome_count(2, NH) */
    static double work[4096], vplus[CAP * N];
    static nsm_status status[CAP];
    static nsm_policy_kind kind[CAP];
    size_t nruns = 0, acc = 0;
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = 400;
    CU_ASSERT_EQUAL_FATAL(args_outcome_set_d(N, K, 2, M, Jn, Jt, mu, v, &opts, NH, 0, 400,
                                            CAP, vplus, status, kind, &nruns, &acc, work,
                                            nsm_outcome_work(N, K)),
                          NSM_OK);
    const cJSON *outs = cJSON_GetObjectItem(res, "outcomes");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(outs), (int)total);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(res, "accepted")->valuedouble, (double)acc);
    CU_ASSERT(2 * acc >= total); /* the checks below are not vacuous */
    double e0 = 0.0;
    for (int i = 0; i < N; i++) {
        e0 += 0.5 * M[i * N + i] * v[i] * v[i]; /* M is diagonal */
    }
    for (size_t r = 0; r < total; r++) {
        const cJSON *o = cJSON_GetArrayItem(outs, (int)r);
        if (strcmp(cJSON_GetObjectItem(o, "status")->valuestring, "ok") != 0) {
            CU_ASSERT(status[r] != NSM_OK);
            continue;
        }
        double vp[N], ln[K], lt[2 * K], e1 = 0.0;
        for (int i = 0; i < N; i++) {
            vp[i] = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "v_plus"), i)->valuedouble;
            CU_ASSERT(fabs(vp[i] - vplus[r * N + i]) <= 1e-15);
            e1 += 0.5 * M[i * N + i] * vp[i] * vp[i];
        }
        for (int c = 0; c < K; c++) {
            ln[c] = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "impulse_n"), c)->valuedouble;
            lt[2 * c] = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "impulse_t"), 2 * c)->valuedouble;
            lt[2 * c + 1] =
                cJSON_GetArrayItem(cJSON_GetObjectItem(o, "impulse_t"), 2 * c + 1)->valuedouble;
        }
        for (int i = 0; i < N; i++) {
            double lhs = M[i * N + i] * (vp[i] - v[i]), rhs = 0.0;
            for (int c = 0; c < K; c++) {
                rhs += Jn[c * N + i] * ln[c] + Jt[(2 * c) * N + i] * lt[2 * c] +
                       Jt[(2 * c + 1) * N + i] * lt[2 * c + 1];
            }
            CU_ASSERT(fabs(lhs - rhs) <= 1e-9);
        }
        CU_ASSERT(e1 <= e0 * (1.0 + 1e-9));
    }
    cJSON_Delete(res);
    free(out);
    free(err);
}

/*
 * Exit status 3 of a single impact run with a non-ok status: the complete result on standard
 * output, whose status says why, and one line on standard error. A particle wedged between
 * two walls 0.1 rad from vertical with μ = 0.5 > tan 0.1 has no a priori bound (γ = 0).
 */
static void test_exit3_prints_result(void)
{
    double c = cos(0.1), sn = sin(0.1);
    const double M[4] = {1, 0, 0, 1}, Jn[4] = {c, sn, -c, sn}, Jt[4] = {-sn, c, sn, c};
    const double mu[2] = {0.5, 0.5}, v[2] = {0, -1};
    char path[128];
    FILE *fp = open_impact(path, sizeof path, "wedge.json", 2, 2, M, Jn, Jt, mu, v);
    fputs("}\n", fp);
    fclose(fp);
    char *out, *err;
    int rc = run_nsm("impact", path, &out, &err);
    CU_ASSERT_EQUAL(rc, 3);
    cJSON *res = out != NULL ? cJSON_Parse(out) : NULL;
    const cJSON *st = cJSON_GetObjectItem(res, "status");
    CU_ASSERT(cJSON_IsString(st) && strcmp(st->valuestring, "no_bound") == 0);
    CU_ASSERT(cJSON_GetObjectItem(res, "v_plus") != NULL);
    CU_ASSERT(err != NULL && count_lines(err) == 1
              && strstr(err, "(the result was printed with its status)") != NULL);
    cJSON_Delete(res);
    free(out);
    free(err);
}

/*
 * docs/cli.md: "steps" and "fw_iters" set the integrator's options; a bound not certified
 * within the budget is "not_certified" (exit 3), not "no_bound". A flat box landing on two
 * corners with mu = 100: gamma = 1 (parallel normals), which Frank–Wolfe does not certify
 * from a budget of 50 iterations (the default budget does: tests/test_impact.c); with mu = 1
 * and "steps": 40 the run takes at most 40 steps (the default 2000 takes over 600).
 */
static void test_impact_steps_fw_iters(void)
{
    const char *text[2] = {
        "{\"M\": [[1,0,0],[0,1,0],[0,0,0.4166666666666667]], \"Jn\": [[0,1,-1],[0,1,1]],"
        " \"Jt\": [[1,0,0.5],[1,0,0.5]], \"mu\": [100, 100], \"v\": [0,-1,0],"
        " \"policy\": \"simultaneous\", \"fw_iters\": 50}\n",
        "{\"M\": [[1,0,0],[0,1,0],[0,0,0.4166666666666667]], \"Jn\": [[0,1,-1],[0,1,1]],"
        " \"Jt\": [[1,0,0.5],[1,0,0.5]], \"mu\": [1, 1], \"v\": [0,-1,0],"
        " \"policy\": \"simultaneous\", \"steps\": 40}\n"};
    for (int k = 0; k < 2; k++) {
        char path[128], name[32];
        snprintf(name, sizeof name, "flatbox%d.json", k);
        write_text(name, text[k], path, sizeof path);
        char *out, *err;
        int rc = run_nsm("impact", path, &out, &err);
        cJSON *res = out != NULL ? cJSON_Parse(out) : NULL;
        const cJSON *st = cJSON_GetObjectItem(res, "status");
        if (k == 0) {
            CU_ASSERT_EQUAL(rc, 3);
            CU_ASSERT(cJSON_IsString(st) && strcmp(st->valuestring, "not_certified") == 0);
        } else {
            CU_ASSERT_EQUAL(rc, 0);
            CU_ASSERT(cJSON_IsString(st) && strcmp(st->valuestring, "ok") == 0);
            /* the box stops after s = 1 of the bound: fewer than 40 full steps */
            const cJSON *steps = cJSON_GetObjectItem(res, "steps");
            CU_ASSERT(cJSON_IsNumber(steps) && steps->valuedouble >= 1 &&
                      steps->valuedouble <= 40);
        }
        cJSON_Delete(res);
        free(out);
        free(err);
    }
    /* out of range: named */
    char path[128];
    write_text("flatbox_bad.json",
               "{\"M\": [[1]], \"Jn\": [[1]], \"Jt\": [[0]], \"mu\": [0], \"v\": [-1],"
               " \"policy\": \"simultaneous\", \"steps\": 0}\n",
               path, sizeof path);
    char *out, *err;
    int rc = run_nsm("impact", path, &out, &err);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT(err != NULL && strstr(err, "'steps'") != NULL);
    free(out);
    free(err);
    /* "slip_rest" (docs/cli.md) outside [0, 1]: named */
    write_text("flatbox_bad_rest.json",
               "{\"M\": [[1]], \"Jn\": [[1]], \"Jt\": [[0]], \"mu\": [0], \"v\": [-1],"
               " \"policy\": \"set\", \"slip_rest\": 2}\n",
               path, sizeof path);
    rc = run_nsm("impact", path, &out, &err);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT(err != NULL && strstr(err, "'slip_rest'") != NULL);
    free(out);
    free(err);
    /* "hull_tol" (docs/cli.md) outside [0, 1], or without "policy": "set": named */
    static const char *const bad_tol[2] = {"\"policy\": \"set\", \"hull_tol\": 1.5",
                                           "\"policy\": \"simultaneous\", \"hull_tol\": 0.1"};
    for (int i = 0; i < 2; i++) {
        char doc[256];
        snprintf(doc, sizeof doc,
                 "{\"M\": [[1]], \"Jn\": [[1]], \"Jt\": [[0]], \"mu\": [0], \"v\": [-1], %s}\n",
                 bad_tol[i]);
        write_text("flatbox_bad_tol.json", doc, path, sizeof path);
        rc = run_nsm("impact", path, &out, &err);
        CU_ASSERT_EQUAL(rc, 1);
        CU_ASSERT(err != NULL && strstr(err, "'hull_tol'") != NULL);
        free(out);
        free(err);
    }
}

/*
 * docs/cli.md, "set" with "hull_tol": the sampled families stop as nsm_outcome_next says, so
 * the outcomes are the rows of nsm_outcome_set with the same hull_tol (same count, same
 * v_plus), fewer than the runs with hull_tol 0.
 */
static void test_impact_set_rounds(void)
{
    double M[9], Jn[6], Jt[6], mu[2], v[3];
    box_corner_problem(M, Jn, Jt, mu, v);
    enum { NH = 256, CAP = 2 * NH + 37 + 5 + (NH + 7) / 8 };
    char path[128];
    FILE *fp = open_impact(path, sizeof path, "set_rounds.json", 3, 2, M, Jn, Jt, mu, v);
    fprintf(fp, ", \"policy\": \"set\", \"samples\": %d, \"seed\": 3, \"steps\": 400, "
                "\"hull_tol\": 0.5}",
            NH);
    fclose(fp);
    char *out, *err;
    cJSON *res = impact_result(path, "set", &out, &err);
    static double work[4096], vplus[CAP * 3];
    static nsm_status status[CAP];
    static nsm_policy_kind kind[CAP];
    size_t nruns = 0, acc = 0;
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = 400;
    CU_ASSERT_EQUAL_FATAL(args_outcome_set_tol(3, 2, M, Jn, Jt, mu, v, &opts, NH, 3, 400, 0.5,
                                               CAP, vplus, status, kind, &nruns, &acc, work,
                                               nsm_outcome_work(3, 2)),
                          NSM_OK);
    CU_ASSERT(nruns < (size_t)CAP);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(res, "runs")->valuedouble, (double)nruns);
    const cJSON *outs = cJSON_GetObjectItem(res, "outcomes");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(outs), (int)nruns);
    size_t same = 0;
    for (size_t r = 0; r < nruns; r++) {
        const cJSON *jv = cJSON_GetObjectItem(cJSON_GetArrayItem(outs, (int)r), "v_plus");
        double d = 0.0;
        for (int k = 0; k < 3; k++) {
            d = fmax(d, fabs(cJSON_GetArrayItem(jv, k)->valuedouble - vplus[3 * r + k]));
        }
        same += d <= 1e-15;
    }
    CU_ASSERT_EQUAL(same, nruns);
    cJSON_Delete(res);
    free(out);
    free(err);
}

/*
 * docs/cli.md: "policy": "priority" with "order" runs NSM_POLICY_PRIORITY. Two contacts
 * (tests/test_impact.c, held contact): priority (0, 1) holds contact 0 at rest while contact
 * 1 acts, v+ = (0.2518, 0.1309, -0.2812) (computed independently of nsmech).
 */
static void test_impact_priority(void)
{
    char path[128];
    write_text("priority.json",
               "{\"M\": [[1,0,0],[0,1,0],[0,0,0.42688]], \"Jn\": [[0,1,-0.80439],[0,1,0.46550]],"
               " \"Jt\": [[1,0,0.29652],[1,0,0.89553]], \"mu\": [0.22740, 1.46429],"
               " \"v\": [0.13430, -1, -0.40292], \"policy\": \"priority\", \"order\": [0, 1]}\n",
               path, sizeof path);
    char *out, *err;
    int rc = run_nsm("impact", path, &out, &err);
    CU_ASSERT_EQUAL(rc, 0);
    cJSON *res = out != NULL ? cJSON_Parse(out) : NULL;
    const cJSON *st = cJSON_GetObjectItem(res, "status");
    const cJSON *pol = cJSON_GetObjectItem(res, "policy");
    const cJSON *vp = cJSON_GetObjectItem(res, "v_plus");
    CU_ASSERT(cJSON_IsString(st) && strcmp(st->valuestring, "ok") == 0);
    CU_ASSERT(cJSON_IsString(pol) && strcmp(pol->valuestring, "priority") == 0);
    const double want[3] = {0.2518, 0.1309, -0.2812};
    CU_ASSERT_FATAL(cJSON_IsArray(vp) && cJSON_GetArraySize(vp) == 3);
    for (int i = 0; i < 3; i++) {
        CU_ASSERT(fabs(cJSON_GetArrayItem(vp, i)->valuedouble - want[i]) <= 1e-4);
    }
    cJSON_Delete(res);
    free(out);
    free(err);
}

/* Every example problem file (examples/problems/NAME.json) named in the documentation exists. */
static void test_doc_paths(void)
{
    static const char *const docs[] = {"README.md", "docs/cli.md", "docs/nsm.1",
                                       "docs/tutorial.md"};
    static const char key[] = "examples/problems/";
    int named = 0;
    for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++) {
        char *text = slurp(docs[d]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        for (const char *at = strstr(text, key); at != NULL; at = strstr(at + 1, key)) {
            size_t len = strlen(key);
            while (at[len] != '\0' && (strchr("._-", at[len]) != NULL
                                       || (at[len] >= 'a' && at[len] <= 'z')
                                       || (at[len] >= 'A' && at[len] <= 'Z')
                                       || (at[len] >= '0' && at[len] <= '9'))) {
                len++;
            }
            if (len < 5 || strncmp(at + len - 5, ".json", 5) != 0) {
                continue; /* the folder itself, or a pattern such as *.json */
            }
            char path[256];
            snprintf(path, sizeof path, "%.*s", (int)len, at);
            int ok = access(path, R_OK) == 0;
            if (!ok) {
                printf("\n  %s names %s, which does not exist", docs[d], path);
            }
            CU_ASSERT(ok);
            named++;
        }
        free(text);
    }
    CU_ASSERT(named >= 8);
}

/*
 * With standard error on a pseudo-terminal a sample run shows its progress line: rewritten in
 * place with carriage returns, ending with the full count and a newline; standard output
 * holds the same complete result.
 */
static void test_progress_on_terminal(void)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0 || ptsname(master) == NULL) {
        printf("\n  no pseudo-terminal available: progress line not checked");
        if (master >= 0) {
            close(master);
        }
        return;
    }
    /* The test keeps the slave open, so what nsm wrote stays readable after it exits. */
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    CU_ASSERT_FATAL(slave >= 0);
    char path[128], opath[128];
    snprintf(path, sizeof path, "%s/progress.json", tmpdir);
    snprintf(opath, sizeof opath, "%s/progress.out", tmpdir);
    write_with_samples("examples/problems/impact_ball_stack.json", 3.0, path);
    fflush(stdout);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        int out = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(slave, 2) < 0) {
            _exit(127);
        }
        close(master);
        execl(nsm_bin(), nsm_bin(), "impact", path, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char tty[4096];
    size_t len = 0;
    struct pollfd pfd = {master, POLLIN, 0};
    while (len + 1 < sizeof tty && poll(&pfd, 1, 2000) > 0) {
        ssize_t got = read(master, tty + len, sizeof tty - 1 - len);
        if (got <= 0) {
            break;
        }
        len += (size_t)got;
        tty[len] = '\0';
        const char *fin = strstr(tty, "3/3 samples (100%)");
        if (fin != NULL && strchr(fin, '\n') != NULL) {
            break;
        }
    }
    tty[len] = '\0';
    close(slave);
    close(master);
    /* The terminal may turn the final newline into CR LF. */
    static const char last[] = "\rnsm: 3/3 samples (100%)";
    const char *fin = strstr(tty, last);
    const char *after = fin != NULL ? fin + strlen(last) : "";
    int repeated = fin != NULL && strstr(after, last) != NULL;
    int ok = strstr(tty, "\rnsm: 0/3 samples") != NULL && fin != NULL && !repeated
             && (strcmp(after, "\n") == 0 || strcmp(after, "\r\n") == 0);
    if (!ok) {
        printf("\n  progress on a terminal: %zu bytes: %s", len, tty);
    }
    CU_ASSERT(ok);
    char *out = slurp(opath);
    cJSON *res = out != NULL ? cJSON_Parse(out) : NULL;
    const cJSON *acc = cJSON_GetObjectItem(res, "accepted");
    const cJSON *rej = cJSON_GetObjectItem(res, "rejected");
    CU_ASSERT(cJSON_IsNumber(acc) && cJSON_IsNumber(rej)
              && acc->valuedouble + rej->valuedouble == 3.0);
    cJSON_Delete(res);
    free(out);
}

static CU_TestInfo cli_tests[] = {
    {"bad files: exit status, no stdout, one-line message", test_bad_corpus},
    {"usage: unknown command, bad arguments, --help, --version, missing file", test_usage},
    {"nesting deeper than cJSON's limit, brackets in strings", test_json_depth},
    {"rank_rtol and its deprecated alias rank_tol", test_rank_rtol},
    {"dynamics example matches the closed form", test_dynamics_example},
    {"dynamics on random problems equals the library", test_dynamics_agrees},
    {"impact on random problems equals the library", test_impact_agrees},
    {"sampled ball-stack outcomes: counts, energy, bound", test_impact_sampled_example},
    {"bang-bang histories: the library's runs, reaching both sequential outcomes",
     test_impact_bangbang},
    {"impact: schedule policy: the library's run, to rest = sequential, dwell errors",
     test_impact_schedule},
    {"set: the library's runs with their sources, impulses in balance, hulls around them",
     test_impact_set},
    {"set with hull_tol: the library's rows in rounds", test_impact_set_rounds},
    {"set on spatial contacts: the library's runs, momentum balance, energy",
     test_impact_set_spatial},
    {"sample run on a terminal: progress line on standard error", test_progress_on_terminal},
    {"exit 3 of a single impact run: result printed, one line", test_exit3_prints_result},
    {"impact: steps and fw_iters fields; not_certified is its own status",
     test_impact_steps_fw_iters},
    {"impact: \"policy\": \"priority\" with an order holds the first contact",
     test_impact_priority},
    {"example problems named in the documentation exist", test_doc_paths},
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
