/* nsm dynamics: projection-based constrained dynamics, actuation and control of one state. */
#include <stdlib.h>
#include <string.h>
#include "nsmech.h"
#include "cli.h"

/* Every array the command allocates, freed in one place. */
typedef struct dyn_buf {
    double *M, *C, *A, *Adot, *f, *fg, *qd, *B, *Mdot, *q, *qt;
    double *qdd, *fc, *P, *Mbar, *Q, *Apinv, *Lambda, *Pdot, *S, *Cbar, *Gamma, *R, *fctl, *u;
    double *work;
} dyn_buf;

static void dyn_free(dyn_buf *b)
{
    double **p = (double **)b;
    for (size_t i = 0; i < sizeof *b / sizeof(double *); i++) {
        free(p[i]);
    }
}

static double *zalloc(size_t count)
{
    return calloc(count > 0 ? count : 1, sizeof(double));
}

static const char *const dyn_fields[] = {
    "M", "C", "A", "Adot", "f", "fg", "qdot", "B", "Mdot", "mu", "rank_rtol",
    "rank_tol", "q", "q_target", "Kp", "Kd", "sigma", NULL
};

/* A library failure as a one-line message naming the field it concerns. */
static int lib_fail(cli_err *e, nsm_status s, const char *field, const char *what)
{
    if (s == NSM_ERR_NOT_SPD) {
        cli_fail(e, "field '%s': not symmetric positive definite (%s)", field, what);
        return CLI_EXIT_INPUT;
    }
    cli_fail(e, "field '%s': %s failed: %s", field, what, nsm_status_str(s));
    return s == NSM_ERR_SIZE || s == NSM_ERR_NOT_FINITE || s == NSM_ERR_ARG ? CLI_EXIT_INPUT
                                                                            : CLI_EXIT_COMPUTE;
}

static int read_inputs(const cJSON *pb, dyn_buf *b, size_t *n, size_t *m, size_t *k,
                       int *has_B, int *has_Mdot, int *has_ctl, cli_err *e)
{
    int pres;
    size_t rows = CLI_ANY, cols = CLI_ANY;
    if (cli_check_fields(pb, dyn_fields, e) != 0) {
        return -1;
    }
    b->M = cli_get_matrix(pb, "M", 1, &rows, &cols, &pres, e);
    if (b->M == NULL) {
        if (e->msg[0] == '\0') {
            cli_fail(e, "field 'M': must be a non-empty square matrix");
        }
        return -1;
    }
    if (rows != cols) {
        cli_fail(e, "field 'M': must be square, got %zu×%zu", rows, cols);
        return -1;
    }
    *n = rows;
    size_t nn = *n;
#define NEED_MAT(ptr, name, r, c)                                                        \
    do {                                                                                 \
        size_t r_ = (r), c_ = (c);                                                       \
        ptr = cli_get_matrix(pb, name, 1, &r_, &c_, &pres, e);                           \
        if (e->msg[0] != '\0') return -1;                                                \
    } while (0)
#define NEED_VEC(ptr, name, len)                                                         \
    do {                                                                                 \
        size_t l_ = (len);                                                               \
        ptr = cli_get_vector(pb, name, 1, &l_, &pres, e);                                \
        if (e->msg[0] != '\0') return -1;                                                \
    } while (0)
    NEED_MAT(b->C, "C", nn, nn);
    size_t mr = CLI_ANY, mc = nn;
    b->A = cli_get_matrix(pb, "A", 1, &mr, &mc, &pres, e);
    if (e->msg[0] != '\0') {
        return -1;
    }
    *m = mr;
    NEED_MAT(b->Adot, "Adot", *m, nn);
    NEED_VEC(b->f, "f", nn);
    NEED_VEC(b->fg, "fg", nn);
    NEED_VEC(b->qd, "qdot", nn);
    size_t br = nn, bc = CLI_ANY;
    b->B = cli_get_matrix(pb, "B", 0, &br, &bc, has_B, e);
    if (e->msg[0] != '\0') {
        return -1;
    }
    *k = *has_B ? bc : 0;
    size_t dr = nn, dc = nn;
    b->Mdot = cli_get_matrix(pb, "Mdot", 0, &dr, &dc, has_Mdot, e);
    if (e->msg[0] != '\0') {
        return -1;
    }
    /* Control inputs: all or none. */
    static const char *const ctl[] = {"q", "q_target", "Kp", "Kd", "sigma"};
    int nctl = 0;
    for (size_t i = 0; i < 5; i++) {
        nctl += cJSON_GetObjectItemCaseSensitive(pb, ctl[i]) != NULL;
    }
    *has_ctl = nctl > 0;
    if (nctl > 0 && nctl < 5) {
        for (size_t i = 0; i < 5; i++) {
            if (cJSON_GetObjectItemCaseSensitive(pb, ctl[i]) == NULL) {
                cli_fail(e, "field '%s': missing (the control law needs q, q_target, Kp, Kd, "
                            "sigma)", ctl[i]);
                return -1;
            }
        }
    }
    if (*has_ctl) {
        if (!*has_B) {
            cli_fail(e, "field 'B': missing (the control law needs the input matrix)");
            return -1;
        }
        NEED_VEC(b->q, "q", nn);
        NEED_VEC(b->qt, "q_target", nn);
    }
#undef NEED_MAT
#undef NEED_VEC
    return 0;
}

int cli_dynamics(const cJSON *pb, cJSON **out, cli_err *e)
{
    dyn_buf b;
    memset(&b, 0, sizeof b);
    size_t n = 0, m = 0, k = 0;
    int has_B = 0, has_Mdot = 0, has_ctl = 0;
    int rc = CLI_EXIT_INPUT;
    if (read_inputs(pb, &b, &n, &m, &k, &has_B, &has_Mdot, &has_ctl, e) != 0) {
        goto done;
    }

    nsm_proj_opts opts = NSM_PROJ_OPTS_DEFAULT;
    const cJSON *mu = cJSON_GetObjectItemCaseSensitive(pb, "mu");
    if (mu != NULL) {
        if (cJSON_IsString(mu) && strcmp(mu->valuestring, "optimal") == 0) {
            opts.mu_mode = NSM_MU_OPTIMAL;
        } else if (cJSON_IsNumber(mu)) {
            if (!(mu->valuedouble > 0.0) || mu->valuedouble > 1e300) {
                cli_fail(e, "field 'mu': must be a positive finite number or \"optimal\"");
                goto done;
            }
            opts.mu_mode = NSM_MU_GIVEN;
            opts.mu = mu->valuedouble;
        } else {
            cli_fail(e, "field 'mu': must be a positive number or \"optimal\"");
            goto done;
        }
    }
    /* rank_rtol, as in nsm_proj_opts; rank_tol is its deprecated alias (one or the other). */
    int has_rtol = cJSON_GetObjectItemCaseSensitive(pb, "rank_rtol") != NULL;
    if (has_rtol && cJSON_GetObjectItemCaseSensitive(pb, "rank_tol") != NULL) {
        cli_fail(e, "field 'rank_tol': deprecated alias of 'rank_rtol'; give only 'rank_rtol'");
        goto done;
    }
    const char *rtol_name = has_rtol ? "rank_rtol" : "rank_tol";
    double x;
    int got = cli_get_number(pb, rtol_name, &x, e);
    if (got < 0) {
        goto done;
    }
    if (got > 0) {
        if (!(x >= 0.0 && x < 1.0)) {
            cli_fail(e, "field '%s': must be in [0, 1)", rtol_name);
            goto done;
        }
        opts.rank_rtol = x;
    }
    nsm_proj_gains gains = {0.0, 0.0, 0.0, NSM_PROJ_VEL_ZTOL_DEFAULT, NSM_PROJ_XI_TOL_DEFAULT};
    if (has_ctl) {
        if (cli_get_number(pb, "Kp", &gains.kp, e) < 0 || cli_get_number(pb, "Kd", &gains.kd, e) < 0
            || cli_get_number(pb, "sigma", &gains.sigma, e) < 0) {
            goto done;
        }
        if (!(gains.kp > 0.0)) { cli_fail(e, "field 'Kp': must be > 0"); goto done; }
        if (!(gains.kd > 0.0)) { cli_fail(e, "field 'Kd': must be > 0"); goto done; }
        if (!(gains.sigma > 1.0 || gains.sigma == 0.0)) {
            cli_fail(e, "field 'sigma': must be > 1 (law (21)) or 0 (the law that converges)");
            goto done;
        }
    }

    size_t nn = n * n;
    b.qdd = zalloc(n); b.fc = zalloc(n); b.P = zalloc(nn); b.Mbar = zalloc(nn);
    b.Q = zalloc(nn); b.Apinv = zalloc(n * m); b.Lambda = zalloc(nn); b.Pdot = zalloc(nn);
    b.S = zalloc(nn); b.Cbar = zalloc(nn);
    b.Gamma = zalloc(k * n); b.R = zalloc(nn); b.fctl = zalloc(n); b.u = zalloc(k);
    size_t lw = nsm_proj_dynamics_work(n, m);
    size_t w2[] = {nsm_proj_projector_work(n, m), nsm_proj_rates_work(n),
                   nsm_proj_oblique_work(n), nsm_proj_cbar_work(n),
                   has_B ? nsm_proj_actuation_work(n, k) : 0, nsm_proj_control_work(n),
                   nsm_check_skew_work(n), nsm_check_pd_work(n)};
    for (size_t i = 0; i < sizeof w2 / sizeof w2[0]; i++) {
        lw = w2[i] > lw ? w2[i] : lw;
    }
    b.work = zalloc(lw);
    if (!b.qdd || !b.fc || !b.P || !b.Mbar || !b.Q || !b.Apinv || !b.Lambda || !b.Pdot || !b.S
        || !b.Cbar || !b.Gamma || !b.R || !b.fctl || !b.u || !b.work) {
        cli_fail(e, "out of memory");
        rc = CLI_EXIT_COMPUTE;
        goto done;
    }

    const nsm_proj_problem prob = {n, m, b.M, b.C, b.A, b.Adot, b.f, b.fg, b.qd};
    nsm_proj_dynamics_result dyn = {b.qdd, b.fc, b.P, b.Mbar, {0, 0.0}};
    nsm_status s = nsm_proj_dynamics(&prob, &opts, &dyn, b.work, lw);
    const nsm_proj_info info = dyn.info;
    if (s != NSM_OK) {
        rc = lib_fail(e, s, s == NSM_ERR_NOT_SPD ? "M" : "M, C, A, Adot", "dynamics");
        goto done;
    }
    /* Pieces for the residuals: Q, A⁺, Λ, Ṗ, S, C̄. */
    nsm_proj_projector_result pr = {0, b.P, b.Q, b.Apinv};
    s = nsm_proj_projector(n, m, b.A, opts.rank_rtol, &pr, b.work, lw);
    if (s == NSM_OK) {
        nsm_proj_rates_result rr = {b.Lambda, b.Pdot};
        s = nsm_proj_rates(n, m, b.Apinv, b.Adot, b.P, &rr, b.work, lw);
    }
    if (s == NSM_OK) {
        s = nsm_proj_oblique(n, b.M, b.Mbar, b.P, b.S, b.work, lw);
    }
    if (s == NSM_OK) {
        s = nsm_proj_cbar(&prob, b.P, b.Lambda, info.mu, b.Cbar, b.work, lw);
    }
    if (s != NSM_OK) {
        rc = lib_fail(e, s, "A", "projector pieces");
        goto done;
    }
    size_t rank_pb = 0;
    if (has_B) {
        const nsm_proj_actuation_input act = {n, k, info.rank, b.P, b.B, opts.rank_rtol};
        nsm_proj_actuation_result ar = {0, b.Gamma, b.R};
        s = nsm_proj_actuation(&act, &ar, b.work, lw);
        rank_pb = ar.rank_pb;
        if (s == NSM_ERR_RANK) {
            cli_fail(e, "field 'B': unsolvable actuation: rank(PB) = %zu but n - r = %zu",
                     rank_pb, n - info.rank);
            rc = CLI_EXIT_COMPUTE;
            goto done;
        }
        if (s != NSM_OK) {
            rc = lib_fail(e, s, "B", "actuation");
            goto done;
        }
    }
    nsm_unit_case eta_case = NSM_UNIT_DIRECTION;
    if (has_ctl) {
        const nsm_proj_control_input cin = {n, k, b.P, b.R, b.Gamma, b.fg, b.q, b.qt, b.qd, NULL};
        nsm_proj_control_result cr = {b.fctl, b.u, NSM_UNIT_DIRECTION};
        s = nsm_proj_control(&cin, &gains, &cr, b.work, lw);
        eta_case = cr.eta_case;
        if (s != NSM_OK) {
            rc = lib_fail(e, s, "Kp, Kd, sigma", "control law");
            goto done;
        }
    }

    cJSON *res = cJSON_CreateObject();
    cJSON_AddStringToObject(res, "status", "ok");
    cJSON_AddNumberToObject(res, "n", (double)n);
    cJSON_AddNumberToObject(res, "m", (double)m);
    cJSON_AddNumberToObject(res, "rank", (double)info.rank);
    cJSON_AddNumberToObject(res, "mu", info.mu);
    cJSON_AddItemToObject(res, "qddot", cli_vector_json(n, b.qdd));
    cJSON_AddItemToObject(res, "fc", cli_vector_json(n, b.fc));
    cJSON_AddItemToObject(res, "P", cli_matrix_json(n, n, b.P));
    cJSON_AddItemToObject(res, "Mbar", cli_matrix_json(n, n, b.Mbar));
    if (has_B) {
        cJSON_AddNumberToObject(res, "rank_PB", (double)rank_pb);
        cJSON_AddItemToObject(res, "R", cli_matrix_json(n, n, b.R));
        cJSON_AddItemToObject(res, "Gamma", cli_matrix_json(k, n, b.Gamma));
    }
    if (has_ctl) {
        cJSON_AddItemToObject(res, "f_control", cli_vector_json(n, b.fctl));
        cJSON_AddItemToObject(res, "u", cli_vector_json(k, b.u));
        cJSON_AddStringToObject(res, "eta",
                                eta_case == NSM_UNIT_DIRECTION ? "direction" : "fixed_unit");
    }
    cJSON *resid = cJSON_CreateObject();
    cJSON_AddItemToObject(res, "residuals", resid);
    cli_dyn_pieces pc = {b.P, b.Q, has_B ? b.R : NULL, b.S, b.Lambda, b.Pdot, b.M,
                         has_Mdot ? b.Mdot : NULL, b.Cbar, b.Mbar, info.mu};
    s = cli_residuals(n, &pc, b.work, lw, resid);
    if (s != NSM_OK) {
        cJSON_Delete(res);
        rc = lib_fail(e, s, "M", "residual checks");
        goto done;
    }
    *out = res;
    rc = CLI_EXIT_OK;
done:
    dyn_free(&b);
    return rc;
}
