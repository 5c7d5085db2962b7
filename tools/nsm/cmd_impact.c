/* nsm impact: multiple frictional impacts — one resolution, sampled weight histories, or the
   outcome set (every run of nsm_outcome_set, replayed one by one with nsm_outcome_policy so
   that each outcome carries its impulses, for d = 1 and d = 2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nsmech.h"
#include "cli.h"

static const char *const imp_fields[] = {
    "M", "Jn", "Jt", "tangent_dim", "mu", "v", "policy", "order", "dwell", "samples", "seed", "hold",
    "cycles", "tol", "steps", "fw_iters", "slip_rest", "project", "hull_tol", NULL
};

/* The parsed problem. */
typedef struct imp_problem {
    size_t n, k, d;
    double *M, *Jn, *Jt, *mu, *v;
    int policy;            /* 0 simultaneous, 1 sequential, 2 sample, 3 priority, 4 bangbang,
                              5 set, 6 schedule */
    size_t *order;         /* k entries for sequential, priority and schedule */
    double *dwell;         /* k entries for schedule, in units of the impulse scale S */
    size_t samples;
    size_t hold;
    unsigned long long seed;
    double tol;
    int has_tol;
    size_t steps;          /* nsm_impact_opts.steps; 0: the default */
    size_t fw_iters;       /* nsm_impact_opts.fw_iters; 0: the default */
    double slip_rest;      /* nsm_impact_opts.slip_rest when has_slip_rest */
    int has_slip_rest;     /* else 0, and NSM_OUTCOME_SLIP_REST for "set" */
    double hull_tol;       /* "set": nsm_outcome_opts.hull_tol when has_hull_tol */
    int has_hull_tol;      /* else 0: every run */
    double *project;       /* "set": nproj·2 rows of n, rows 2i and 2i + 1 give projection i */
    size_t nproj;
} imp_problem;

static void imp_free(imp_problem *p)
{
    free(p->M); free(p->Jn); free(p->Jt); free(p->mu); free(p->v); free(p->order);
    free(p->dwell); free(p->project);
}

/* "dwell" (schedule only, required there): k entries >= 0, in units of the impulse scale S;
   0 skips a phase, a value beyond any impact's need (1e300) runs it to rest. */
static int read_dwell(const cJSON *pb, imp_problem *p, cli_err *e)
{
    int pres = 0;
    const cJSON *dw = cJSON_GetObjectItemCaseSensitive(pb, "dwell");
    if (p->policy != 6) {
        if (dw != NULL) {
            cli_fail(e, "field 'dwell': only meaningful with \"policy\": \"schedule\"");
            return -1;
        }
        return 0;
    }
    if (dw == NULL) {
        cli_fail(e, "field 'dwell': missing (the \"schedule\" policy needs one dwell per "
                    "contact, in units of the impulse scale S)");
        return -1;
    }
    size_t len = p->k;
    p->dwell = cli_get_vector(pb, "dwell", 1, &len, &pres, e);
    if (e->msg[0] != '\0') {
        return -1;
    }
    for (size_t i = 0; i < p->k; i++) {
        if (!(p->dwell[i] >= 0.0)) {
            cli_fail(e, "field 'dwell': entry [%zu] is negative (a dwell is an impulse >= 0)", i);
            return -1;
        }
    }
    return 0;
}

static int read_count(const cJSON *pb, const char *name, double lo, double hi, double *x,
                      cli_err *e)
{
    int got = cli_get_number(pb, name, x, e);
    if (got <= 0) {
        return got;
    }
    /* range first: converting a double outside the integer type's range is undefined */
    if (!(*x >= lo && *x <= hi) || *x != floor(*x)) {
        cli_fail(e, "field '%s': must be a whole number in [%.0f, %.0f]", name, lo, hi);
        return -1;
    }
    return 1;
}

/* "project" ("set" only): 2·nproj rows of n entries; rows 2i and 2i + 1 are the axes of the
   i-th 2-D projection whose hull is printed. */
static int imp_read_project(const cJSON *pb, imp_problem *p, cli_err *e)
{
    const cJSON *pj = cJSON_GetObjectItemCaseSensitive(pb, "project");
    if (pj == NULL) {
        return 0;
    }
    if (p->policy != 5) {
        cli_fail(e, "field 'project': only meaningful with \"policy\": \"set\"");
        return -1;
    }
    int pres;
    size_t r = CLI_ANY, c = p->n;
    p->project = cli_get_matrix(pb, "project", 1, &r, &c, &pres, e);
    if (p->project == NULL || e->msg[0] != '\0') {
        if (e->msg[0] == '\0') {
            cli_fail(e, "field 'project': must be a matrix of rows of %zu entries", p->n);
        }
        return -1;
    }
    if (r == 0 || r % 2 != 0) {
        cli_fail(e, "field 'project': needs an even number of rows (rows 2i and 2i+1 are the "
                    "axes of projection i), got %zu", r);
        return -1;
    }
    p->nproj = r / 2;
    return 0;
}

static int imp_read(const cJSON *pb, imp_problem *p, cli_err *e)
{
    int pres;
    if (cli_check_fields(pb, imp_fields, e) != 0) {
        return -1;
    }
    size_t r = CLI_ANY, c = CLI_ANY;
    p->M = cli_get_matrix(pb, "M", 1, &r, &c, &pres, e);
    if (p->M == NULL) {
        if (e->msg[0] == '\0') {
            cli_fail(e, "field 'M': must be a non-empty square matrix");
        }
        return -1;
    }
    if (r != c) {
        cli_fail(e, "field 'M': must be square, got %zu×%zu", r, c);
        return -1;
    }
    p->n = r;
    double d = 1.0;
    if (read_count(pb, "tangent_dim", 1, 2, &d, e) < 0) {
        return -1;
    }
    p->d = (size_t)d;
    size_t kr = CLI_ANY, kc = p->n;
    p->Jn = cli_get_matrix(pb, "Jn", 1, &kr, &kc, &pres, e);
    if (e->msg[0] != '\0') {
        return -1;
    }
    if (kr == 0) {
        cli_fail(e, "field 'Jn': needs at least one contact row");
        return -1;
    }
    p->k = kr;
    size_t tr = p->k * p->d, tc = p->n;
    p->Jt = cli_get_matrix(pb, "Jt", 1, &tr, &tc, &pres, e);
    if (e->msg[0] != '\0') {
        return -1;
    }
    size_t mk = p->k;
    p->mu = cli_get_vector(pb, "mu", 1, &mk, &pres, e);
    if (e->msg[0] != '\0') {
        return -1;
    }
    for (size_t i = 0; i < p->k; i++) {
        if (p->mu[i] < 0.0) {
            cli_fail(e, "field 'mu': entry [%zu] is negative (friction must be >= 0)", i);
            return -1;
        }
    }
    size_t vn = p->n;
    p->v = cli_get_vector(pb, "v", 1, &vn, &pres, e);
    if (e->msg[0] != '\0') {
        return -1;
    }
    const cJSON *pol = cJSON_GetObjectItemCaseSensitive(pb, "policy");
    p->policy = 0;
    if (pol != NULL) {
        if (!cJSON_IsString(pol)) {
            cli_fail(e, "field 'policy': must be \"simultaneous\", \"sequential\", \"priority\", "
                        "\"sample\", \"bangbang\", \"schedule\", \"moreau\" or \"set\"");
            return -1;
        }
        if (strcmp(pol->valuestring, "simultaneous") == 0) {
            p->policy = 0;
        } else if (strcmp(pol->valuestring, "sequential") == 0) {
            p->policy = 1;
        } else if (strcmp(pol->valuestring, "sample") == 0) {
            p->policy = 2;
        } else if (strcmp(pol->valuestring, "priority") == 0) {
            p->policy = 3;
        } else if (strcmp(pol->valuestring, "bangbang") == 0) {
            p->policy = 4;
        } else if (strcmp(pol->valuestring, "set") == 0) {
            p->policy = 5;
        } else if (strcmp(pol->valuestring, "schedule") == 0) {
            p->policy = 6;
        } else if (strcmp(pol->valuestring, "moreau") == 0) {
            p->policy = 7;
        } else {
            char q[96];
            cli_fail(e, "field 'policy': unknown policy \"%s\" (simultaneous, sequential, "
                        "priority, sample, bangbang, schedule, moreau, set)",
                     cli_quote(pol->valuestring, q, sizeof q));
            return -1;
        }
    }
    const cJSON *ord = cJSON_GetObjectItemCaseSensitive(pb, "order");
    int ordered = p->policy == 1 || p->policy == 3 || p->policy == 6;
    if (ord != NULL && !ordered) {
        cli_fail(e, "field 'order': only meaningful with \"policy\": \"sequential\", "
                    "\"priority\" or \"schedule\"");
        return -1;
    }
    if (read_dwell(pb, p, e) != 0) {
        return -1;
    }
    if (ordered) {
        p->order = calloc(p->k, sizeof *p->order);
        if (p->order == NULL) {
            cli_fail(e, "out of memory");
            return -1;
        }
        if (ord == NULL) {
            for (size_t i = 0; i < p->k; i++) {
                p->order[i] = i;
            }
        } else {
            size_t len = CLI_ANY;
            double *o = cli_get_vector(pb, "order", 1, &len, &pres, e);
            if (e->msg[0] != '\0') {
                return -1;
            }
            if (len == 0 || len > p->k) {
                free(o);
                cli_fail(e, "field 'order': expected 1 to %zu contact indices, got %zu", p->k, len);
                return -1;
            }
            unsigned char *seen = calloc(p->k, 1);
            for (size_t i = 0; i < len; i++) {
                if (!(o[i] >= 0 && o[i] < (double)p->k) || o[i] != floor(o[i])
                    || seen[(size_t)o[i]]) {
                    cli_fail(e, "field 'order': entry [%zu] is not a new contact index in 0..%zu",
                             i, p->k - 1);
                    free(o);
                    free(seen);
                    return -1;
                }
                seen[(size_t)o[i]] = 1;
                p->order[i] = (size_t)o[i];
            }
            /* Contacts not listed follow in index order. */
            size_t at = len;
            for (size_t i = 0; i < p->k; i++) {
                if (!seen[i]) {
                    p->order[at++] = i;
                }
            }
            free(o);
            free(seen);
        }
    }
    double x = 0.0;
    int got = read_count(pb, "samples", 1, 1e6, &x, e);
    if (got < 0) {
        return -1;
    }
    int histories = p->policy == 2 || p->policy == 4 || p->policy == 5;
    if (p->policy == 5 && got == 0) {
        x = 2048.0; /* the set's default run budget */
    } else if (histories && got == 0) {
        cli_fail(e, "field 'samples': missing (the \"%s\" policy needs a history count)",
                 p->policy == 2 ? "sample" : "bangbang");
        return -1;
    }
    if (got > 0 && !histories) {
        cli_fail(e, "field 'samples': only meaningful with \"policy\": \"sample\", "
                    "\"bangbang\" or \"set\"");
        return -1;
    }
    p->samples = (size_t)x;
    x = 0.0;
    got = read_count(pb, "seed", 0, 2147483646.0, &x, e);
    if (got < 0) {
        return -1;
    }
    p->seed = (unsigned long long)x;
    x = 0.0;
    got = read_count(pb, "hold", 1, 1e6, &x, e);
    if (got < 0) {
        return -1;
    }
    if (got > 0 && !histories) {
        cli_fail(e, "field 'hold': only meaningful with \"policy\": \"sample\", "
                    "\"bangbang\" or \"set\"%s",
                 p->policy == 6 ? " (a schedule's repetitions are 'cycles')" : "");
        return -1;
    }
    p->hold = (size_t)x; /* 0: the default (1 step; the step count for "set") */
    x = 0.0;
    got = read_count(pb, "cycles", 1, (double)NSM_SCHEDULE_MAX_CYCLES, &x, e);
    if (got < 0) {
        return -1;
    }
    if (got > 0 && p->policy != 6) {
        cli_fail(e, "field 'cycles': only meaningful with \"policy\": \"schedule\"");
        return -1;
    }
    if (got > 0) {
        p->hold = (size_t)x; /* the schedule's cycles travel in the policy's hold */
    }
    got = cli_get_number(pb, "tol", &p->tol, e);
    if (got < 0) {
        return -1;
    }
    p->has_tol = got;
    if (got && !(p->tol > 0.0)) {
        cli_fail(e, "field 'tol': must be > 0");
        return -1;
    }
    x = 0.0;
    if (read_count(pb, "steps", 1, 1e6, &x, e) < 0) {
        return -1;
    }
    p->steps = (size_t)x;
    x = 0.0;
    if (read_count(pb, "fw_iters", 1, 1e6, &x, e) < 0) {
        return -1;
    }
    p->fw_iters = (size_t)x;
    got = cli_get_number(pb, "slip_rest", &p->slip_rest, e);
    if (got < 0) {
        return -1;
    }
    p->has_slip_rest = got;
    if (got && !(p->slip_rest >= 0.0 && p->slip_rest <= 1.0)) {
        cli_fail(e, "field 'slip_rest': must be in [0, 1]");
        return -1;
    }
    got = cli_get_number(pb, "hull_tol", &p->hull_tol, e);
    if (got < 0) {
        return -1;
    }
    p->has_hull_tol = got;
    if (got && p->policy != 5) {
        cli_fail(e, "field 'hull_tol': only meaningful with \"policy\": \"set\"");
        return -1;
    }
    if (got && !(p->hull_tol >= 0.0 && p->hull_tol <= 1.0)) {
        cli_fail(e, "field 'hull_tol': must be in [0, 1]");
        return -1;
    }
    return imp_read_project(pb, p, e);
}

/* Machine-readable name of an integrator status in the result. */
static const char *status_name(nsm_status s)
{
    switch (s) {
    case NSM_OK: return "ok";
    case NSM_ERR_BOUND: return "bound_exceeded";
    case NSM_ERR_NO_CONVERGENCE: return "no_convergence";
    case NSM_ERR_NO_BOUND: return "no_bound";
    case NSM_ERR_NOT_CERTIFIED: return "not_certified";
    default: return "error";
    }
}

/* Statuses after which the integrator's outputs are written (a complete, reportable run). */
static int reportable(nsm_status s)
{
    return s == NSM_OK || s == NSM_ERR_BOUND || s == NSM_ERR_NO_CONVERGENCE
           || s == NSM_ERR_NO_BOUND || s == NSM_ERR_NOT_CERTIFIED;
}

/* The input field behind an argument fault named by nsm_impact_arg_fault ("options" for the
   integrator options without a field of their own and when the library names none, "policy"
   for the policy's other fields). The CLI checks its fields before calling the library, so
   this is a second line: it names the field should a library check be stricter. */
static const char *fault_field(const char *fault)
{
    static const char *const map[][2] = {
        {"d", "tangent_dim"}, {"m", "Jn"},     {"mu", "mu"},
        {"pol.order", "order"}, {"pol.hold", "hold"}, {"opts.vtol", "tol"},
        {"pol.dwell", "dwell"},
        {"opts.steps", "steps"}, {"opts.fw_iters", "fw_iters"},
        {"opts.slip_rest", "slip_rest"},
    };
    if (fault == NULL) {
        return "options";
    }
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        if (strcmp(fault, map[i][0]) == 0) {
            return map[i][1];
        }
    }
    return strncmp(fault, "opts.", 5) == 0 ? "options" : "policy";
}

/* A run that did not get to integrate: the message names the field, from the library's
   answer for argument errors (nsm_impact_arg_fault). */
static int input_fail(cli_err *e, nsm_status s, const imp_problem *p,
                      const nsm_impact_policy *pol, const nsm_impact_opts *opts)
{
    switch (s) {
    case NSM_ERR_NOT_SPD:
        cli_fail(e, "field 'M': not symmetric positive definite");
        return CLI_EXIT_INPUT;
    case NSM_ERR_ARG:
    case NSM_ERR_NULL: {
        const char *fault = nsm_impact_arg_fault(p->k, p->d, p->mu, pol, opts);
        /* a schedule's cycles travel in the policy's hold */
        const char *field = fault != NULL && strcmp(fault, "pol.hold") == 0 && p->policy == 6
                                ? "cycles"
                                : fault_field(fault);
        cli_fail(e, "field '%s': out of domain (library: %s)", field,
                 fault != NULL ? fault : nsm_status_str(s));
        return CLI_EXIT_INPUT;
    }
    case NSM_ERR_OVERFLOW:
        cli_fail(e, "impact: %s (the energy, the Delassus matrix J M^-1 J^T or the result "
                 "exceeds the double range: rescale the units)", nsm_status_str(s));
        return CLI_EXIT_COMPUTE;
    default:
        cli_fail(e, "impact: %s", nsm_status_str(s));
        return s == NSM_ERR_SIZE || s == NSM_ERR_NOT_FINITE ? CLI_EXIT_INPUT : CLI_EXIT_COMPUTE;
    }
}

static void add_run(cJSON *obj, const imp_problem *p, const double *vp, const double *lam,
                    const nsm_impact_info *info)
{
    cJSON_AddItemToObject(obj, "v_plus", cli_vector_json(p->n, vp));
    /* lam holds (t[, t2], n) per contact; impulse_t lists k·d entries, contact by contact */
    size_t b = p->d + 1;
    cJSON *in = cJSON_CreateArray(), *it = cJSON_CreateArray();
    for (size_t c = 0; c < p->k; c++) {
        cJSON_AddItemToArray(in, cJSON_CreateNumber(lam[b * c + p->d]));
        for (size_t j = 0; j < p->d; j++) {
            cJSON_AddItemToArray(it, cJSON_CreateNumber(lam[b * c + j]));
        }
    }
    cJSON_AddItemToObject(obj, "impulse_n", in);
    cJSON_AddItemToObject(obj, "impulse_t", it);
    cJSON_AddNumberToObject(obj, "s", info->s);
    cJSON_AddNumberToObject(obj, "s_bound", info->bound);
    cJSON_AddStringToObject(obj, "bound_kind", !info->has_bound ? "none"
                                               : p->k == 1 && p->d == 1 ? "lemma2"
                                                             : "gamma");
    cJSON_AddNumberToObject(obj, "energy_minus", info->energy_minus);
    cJSON_AddNumberToObject(obj, "energy_plus", info->energy_plus);
    cJSON_AddNumberToObject(obj, "steps", (double)info->steps);
}

/* The hull of the accepted outcomes' projection i (rows 2i, 2i + 1 of "project"); NULL when
   out of memory. */
static cJSON *set_hull(const imp_problem *p, size_t i, size_t nout, const double *vps,
                       const unsigned char *ok)
{
    double *x = calloc(nout + 1, sizeof *x), *y = calloc(nout + 1, sizeof *y);
    size_t *idx = calloc(nout + 1, sizeof *idx), *hull = calloc(nout + 1, sizeof *hull);
    if (x == NULL || y == NULL || idx == NULL || hull == NULL) {
        free(x);
        free(y);
        free(idx);
        free(hull);
        return NULL;
    }
    cJSON *h = cJSON_CreateObject();
    cJSON *verts = cJSON_CreateArray();
    cJSON *rows = cJSON_CreateArray();
    cJSON_AddItemToArray(rows, cJSON_CreateNumber((double)(2 * i)));
    cJSON_AddItemToArray(rows, cJSON_CreateNumber((double)(2 * i + 1)));
    cJSON_AddItemToObject(h, "rows", rows);
    cJSON_AddItemToObject(h, "vertices", verts);
    size_t np = 0, nh = 0;
    const double *ax = p->project + 2 * i * p->n, *ay = ax + p->n;
    for (size_t r = 0; r < nout; r++) {
        if (!ok[r]) {
            continue;
        }
        double a = 0.0, b = 0.0;
        for (size_t j = 0; j < p->n; j++) {
            a += ax[j] * vps[r * p->n + j];
            b += ay[j] * vps[r * p->n + j];
        }
        x[np] = a;
        y[np] = b;
        np++;
    }
    if (np > 0 && nsm_hull2d(np, x, y, idx, hull, &nh) == NSM_OK) {
        for (size_t k = 0; k < nh; k++) {
            double pt[2] = {x[hull[k]], y[hull[k]]};
            cJSON_AddItemToArray(verts, cli_vector_json(2, pt));
        }
    }
    free(x);
    free(y);
    free(idx);
    free(hull);
    return h;
}

/* Name of the source of a run of the set, from its policy kind. */
static const char *source_name(nsm_policy_kind k)
{
    switch (k) {
    case NSM_POLICY_SEQUENTIAL: return "sequential";
    case NSM_POLICY_PRIORITY: return "priority";
    case NSM_POLICY_SIMULTANEOUS: return "simultaneous";
    case NSM_POLICY_EXTREMAL:
    case NSM_POLICY_EXTREMAL_V: return "extremal";
    case NSM_POLICY_SCHEDULE: return "schedule";
    case NSM_POLICY_MOREAU: return "moreau";
    default: return "sampled";
    }
}

/* One run of the integrator on the problem: v_plus into vp, the impulses into lam, *info. */
static nsm_status solve_run(const imp_problem *p, const nsm_impact_policy *pol,
                            const nsm_impact_opts *opts, double *vp, double *lam,
                            nsm_impact_info *info, double *work, size_t lw)
{
    const nsm_contact_problem prob = {p->n, p->k, p->d, p->M, p->Jn, p->Jt, p->mu, p->v};
    nsm_impact_result out;
    memset(&out, 0, sizeof out);
    out.v_plus = vp;
    out.Lambda = lam;
    nsm_status s = nsm_impact_solve(&prob, pol, opts, &out, work, lw);
    *info = out.info;
    return s;
}

/* "policy": "set": the runs of the outcome set with `samples` bang-bang histories, then the
   extremal fan in each "project" plane (nsm_outcome_set's runs, one by one, each sampled
   family stopped as nsm_outcome_next says). */
static int run_set(const imp_problem *p, size_t samples, const nsm_impact_opts *opts,
                   double *work, size_t lw, double *vp, double *lam, cJSON **out, cli_err *e)
{
    if (p->k > NSM_OUTCOME_MAX_M) {
        cli_fail(e, "field 'Jn': the \"set\" policy takes at most %u contacts, got %zu",
                 NSM_OUTCOME_MAX_M, p->k);
        return CLI_EXIT_INPUT;
    }
    nsm_outcome_opts oo = NSM_OUTCOME_OPTS_DEFAULT;
    oo.impact = *opts;
    oo.impact.slip_rest = p->has_slip_rest ? p->slip_rest : NSM_OUTCOME_SLIP_REST;
    oo.nsamples = samples;
    oo.seed = (unsigned long)p->seed;
    oo.hold = p->hold > 0 ? p->hold : opts->steps;
    oo.hull_tol = p->has_hull_tol ? p->hull_tol : 0.0;
    size_t base = nsm_outcome_count(p->k, &oo);
    oo.nplanes = p->nproj;
    oo.planes = p->project;
    size_t total = nsm_outcome_count(p->k, &oo);
    if (total == 0) {
        cli_fail(e, "field 'project': at most %u projections, got %zu", NSM_OUTCOME_MAX_PLANES,
                 p->nproj);
        return CLI_EXIT_INPUT;
    }
    if (oo.hull_tol > 0.0 && total > 1000000u) {
        cli_fail(e, "field 'hull_tol': rounds take sets of at most 10^6 runs, this one has %zu "
                    "(fewer 'samples')", total);
        return CLI_EXIT_INPUT;
    }
    nsm_policy_store store;
    double *vps = calloc(total * p->n, sizeof *vps);
    double *vdir = calloc(p->n, sizeof *vdir);
    unsigned char *ok = calloc(total, 1);
    nsm_status *sts = calloc(total, sizeof *sts);
    cJSON *res = cJSON_CreateObject(), *outs = cJSON_CreateArray();
    int rc = CLI_EXIT_COMPUTE;
    if (vps == NULL || vdir == NULL || ok == NULL || sts == NULL) {
        cli_fail(e, "out of memory");
        goto done;
    }
    cJSON_AddStringToObject(res, "status", "ok");
    cJSON_AddStringToObject(res, "policy", "set");
    cJSON_AddItemToObject(res, "outcomes", outs);
    size_t accepted = 0;
    size_t rows = 0;
    const nsm_contact_problem prob = {p->n, p->k, p->d, p->M, p->Jn, p->Jt, p->mu, p->v};
    cli_progress prog;
    cli_progress_begin(&prog, "runs", total);
    size_t r = 0;
    while (r < total) {
        nsm_impact_policy pol;
        nsm_status s = r < base ? nsm_outcome_policy(p->k, &oo, r, &store, &pol)
                                : nsm_outcome_plane_policy(p->n, p->nproj, p->project,
                                                           &oo.impact, r - base, vdir, &pol);
        if (s != NSM_OK) {
            cli_progress_end(&prog, r);
            cli_fail(e, "impact: the set's run %zu: %s", r, nsm_status_str(s));
            goto done;
        }
        nsm_impact_info info;
        s = solve_run(p, &pol, &oo.impact, vp, lam, &info, work, lw);
        if (!reportable(s)) {
            cli_progress_end(&prog, r);
            rc = input_fail(e, s, p, &pol, &oo.impact);
            goto done;
        }
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "source", source_name(pol.kind));
        cJSON_AddStringToObject(o, "status", status_name(s));
        add_run(o, p, vp, lam, &info);
        cJSON_AddItemToArray(outs, o);
        memcpy(vps + rows * p->n, vp, p->n * sizeof *vp);
        ok[rows] = s == NSM_OK;
        sts[rows] = s;
        accepted += s == NSM_OK;
        rows++;
        size_t next = r + 1;
        s = oo.hull_tol > 0.0 ? nsm_outcome_next(&prob, &oo, r, rows, vps, sts, &next) : NSM_OK;
        if (s != NSM_OK) {
            cli_progress_end(&prog, r);
            cli_fail(e, "impact: the set's run after %zu: %s", r, nsm_status_str(s));
            goto done;
        }
        r = next;
        cli_progress_step(&prog, r);
    }
    cli_progress_end(&prog, total);
    cJSON_AddNumberToObject(res, "runs", (double)rows);
    cJSON_AddNumberToObject(res, "accepted", (double)accepted);
    cJSON_AddNumberToObject(res, "rejected", (double)(rows - accepted));
    cJSON *hulls = cJSON_CreateArray();
    cJSON_AddItemToObject(res, "hull", hulls);
    for (size_t i = 0; i < p->nproj; i++) {
        cJSON *h = set_hull(p, i, rows, vps, ok);
        if (h == NULL) {
            cli_fail(e, "out of memory");
            goto done;
        }
        cJSON_AddItemToArray(hulls, h);
    }
    *out = res;
    res = NULL;
    rc = CLI_EXIT_OK;
done:
    cJSON_Delete(res);
    free(vps);
    free(vdir);
    free(ok);
    free(sts);
    return rc;
}

static int cli_impact_run(const imp_problem *p, const cli_budget *budget, cJSON **out,
                          cli_err *e)
{
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    if (p->has_tol) {
        opts.vtol = p->tol;
    }
    opts.steps = p->steps > 0 ? p->steps : opts.steps;
    opts.fw_iters = p->fw_iters > 0 ? p->fw_iters : opts.fw_iters;
    opts.slip_rest = p->has_slip_rest ? p->slip_rest : opts.slip_rest;
    size_t samples = p->samples;
    if (budget != NULL) {
        if (budget->max_samples > 0 && samples > budget->max_samples) {
            samples = budget->max_samples;
        }
        if (budget->impact_steps > 0 && opts.steps > budget->impact_steps) {
            opts.steps = budget->impact_steps;
        }
        if (budget->impact_fw_iters > 0 && opts.fw_iters > budget->impact_fw_iters) {
            opts.fw_iters = budget->impact_fw_iters;
        }
        opts.fallback_steps = budget->impact_fallback_steps > 0 ? budget->impact_fallback_steps
                                                                : opts.fallback_steps;
    }
    size_t lw = nsm_impact_work(p->n, p->k);
    if (lw == 0) {
        cli_fail(e, "field 'Jn': %zu contacts on %zu coordinates exceed the limits", p->k, p->n);
        return CLI_EXIT_INPUT;
    }
    double *work = calloc(lw, sizeof *work);
    double *vp = calloc(p->n, sizeof *vp);
    double *lam = calloc((p->d + 1) * p->k, sizeof *lam);
    double *ratios = calloc(p->k, sizeof *ratios);
    int rc = CLI_EXIT_COMPUTE;
    cJSON *res = NULL;
    if (work == NULL || vp == NULL || lam == NULL || ratios == NULL) {
        cli_fail(e, "out of memory");
        goto done;
    }
    for (size_t c = 0; c < p->k; c++) {
        ratios[c] = 1.0;
    }
    nsm_impact_policy pol;
    memset(&pol, 0, sizeof pol);
    pol.kind = p->policy == 1   ? NSM_POLICY_SEQUENTIAL
               : p->policy == 2 ? NSM_POLICY_SAMPLED
               : p->policy == 3 ? NSM_POLICY_PRIORITY
               : p->policy == 4 ? NSM_POLICY_BANGBANG
               : p->policy == 6 ? NSM_POLICY_SCHEDULE
               : p->policy == 7 ? NSM_POLICY_MOREAU
                                : NSM_POLICY_SIMULTANEOUS;
    pol.order = p->order;
    pol.ratios = ratios;
    pol.dwell = p->dwell;
    pol.hold = p->hold > 0 ? p->hold : 1;
    nsm_impact_info info;
    if (p->policy == 5) {
        rc = run_set(p, samples, &opts, work, lw, vp, lam, &res, e);
        if (rc == CLI_EXIT_OK) {
            *out = res;
            res = NULL;
        }
        goto done;
    }
    if (p->policy != 2 && p->policy != 4) {
        nsm_status s = solve_run(p, &pol, &opts, vp, lam, &info, work, lw);
        if (!reportable(s)) {
            rc = input_fail(e, s, p, &pol, &opts);
            goto done;
        }
        res = cJSON_CreateObject();
        cJSON_AddStringToObject(res, "status", status_name(s));
        cJSON_AddStringToObject(res, "policy", p->policy == 1   ? "sequential"
                                               : p->policy == 3 ? "priority"
                                               : p->policy == 6 ? "schedule"
                                               : p->policy == 7 ? "moreau"
                                                                : "simultaneous");
        add_run(res, p, vp, lam, &info);
        if (s != NSM_OK) {
            cli_fail(e, "impact: %s (the result was printed with its status)",
                     nsm_status_str(s));
            rc = CLI_EXIT_COMPUTE;
            *out = res;
            res = NULL;
            goto done;
        }
        *out = res;
        res = NULL;
        rc = CLI_EXIT_OK;
        goto done;
    }
    /* Sampled or bang-bang weight histories: seeds seed, seed + 1, ... */
    res = cJSON_CreateObject();
    cJSON_AddStringToObject(res, "status", "ok");
    cJSON_AddStringToObject(res, "policy", p->policy == 2 ? "sample" : "bangbang");
    cJSON *outs = cJSON_CreateArray();
    cJSON_AddItemToObject(res, "outcomes", outs);
    size_t accepted = 0;
    cli_progress prog;
    cli_progress_begin(&prog, "samples", samples);
    for (size_t i = 0; i < samples; i++) {
        pol.seed = (unsigned long)(p->seed + i) % NSM_PRNG_MOD;
        nsm_status s = solve_run(p, &pol, &opts, vp, lam, &info, work, lw);
        if (!reportable(s)) {
            cli_progress_end(&prog, i);
            rc = input_fail(e, s, p, &pol, &opts);
            goto done;
        }
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "seed", (double)pol.seed);
        cJSON_AddStringToObject(o, "status", status_name(s));
        add_run(o, p, vp, lam, &info);
        cJSON_AddItemToArray(outs, o);
        accepted += s == NSM_OK;
        cli_progress_step(&prog, i + 1);
    }
    cli_progress_end(&prog, samples);
    cJSON_AddNumberToObject(res, "accepted", (double)accepted);
    cJSON_AddNumberToObject(res, "rejected", (double)(samples - accepted));
    *out = res;
    res = NULL;
    rc = CLI_EXIT_OK;
done:
    cJSON_Delete(res);
    free(work);
    free(vp);
    free(lam);
    free(ratios);
    return rc;
}

int cli_impact(const cJSON *pb, const cli_budget *budget, cJSON **out, cli_err *e)
{
    imp_problem p;
    memset(&p, 0, sizeof p);
    int rc = CLI_EXIT_INPUT;
    if (imp_read(pb, &p, e) != 0) {
        goto done;
    }
    rc = cli_impact_run(&p, budget, out, e);
done:
    imp_free(&p);
    return rc;
}
