/* nsm-model — export an nsm JSON problem from a MuJoCo model at a given state.
 *
 *   nsm-model impact   MODEL.xml STATE.json   M, Jn, Jt (tangent_dim 2), mu, v
 *   nsm-model dynamics MODEL.xml STATE.json   M, C, A, Adot, f, fg, qdot
 *   nsm-model contacts MODEL.xml STATE.json   the selected contacts (diagnostics, tests)
 *
 * A tool outside the library: it links MuJoCo (Debian libmujoco-dev) and cJSON; libnsmech
 * does not. Conventions and the STATE format: docs/models.md.
 *
 * Exit status: 0 success, 1 bad input (file, field, model), 2 bad usage, 3 computation failed
 * (a non-finite result). Every error is one line on standard error starting "nsm-model:".
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <cjson/cJSON.h>
#include <math.h>
#include <mujoco/mujoco.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIM 1024 /* nsm's limit on every dimension (docs/cli.md) */
#define ADOT_H 1e-6  /* time step of the central difference of A along qvel (s) */
#define DEFAULT_MU 0.8

static const char *usage_text =
    "usage: nsm-model {impact|dynamics|contacts} MODEL.xml STATE.json\n"
    "  impact    nsm impact problem: M, Jn, Jt (tangent_dim 2), mu, v\n"
    "  dynamics  nsm dynamics problem: M, C, A, Adot, f, fg, qdot\n"
    "  contacts  the selected contacts: bodies, geoms, pos, frame, dist\n"
    "MODEL is MJCF or URDF (mj_loadXML); STATE is JSON: qpos (nq), qvel (nv), optional mu,\n"
    "contacts, policy, comment (docs/models.md). The problem is written on standard output.\n";

static const char *state_path = "STATE";

static void die(int status, const char *fmt, ...)
{
    va_list ap;
    fputs("nsm-model: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(status);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        die(3, "out of memory");
    return p;
}

/* MuJoCo's fatal errors end the program with our message, not MuJoCo's abort. */
static void on_mj_error(const char *msg)
{
    die(1, "MuJoCo error: %s", msg);
}

static void on_mj_warning(const char *msg)
{
    fprintf(stderr, "nsm-model: MuJoCo warning: %s\n", msg);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die(1, "%s: cannot open", path);
    size_t cap = 1 << 16, len = 0;
    char *buf = xcalloc(cap, 1);
    for (;;) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (len < cap - 1) {
            if (ferror(f))
                die(1, "%s: read error", path);
            break;
        }
        if (cap > ((size_t)64 << 20))
            die(1, "%s: larger than 64 MiB", path);
        cap *= 2;
        char *nb = realloc(buf, cap);
        if (!nb)
            die(3, "out of memory");
        buf = nb;
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* ---- STATE.json ------------------------------------------------------------------------ */

typedef struct {
    int kind;  /* 0: geoms, 1: bodies */
    int id[2]; /* geom or body ids */
    char *name[2];
} selector;

typedef struct {
    double *qpos, *qvel;
    double mu;
    int nsel; /* -1: every contact */
    selector *sel;
    char *policy; /* copied into an impact problem, or NULL */
} state;

static void no_duplicates(const cJSON *obj, const char *where)
{
    for (const cJSON *a = obj->child; a; a = a->next)
        for (const cJSON *b = a->next; b; b = b->next)
            if (a->string && b->string && strcmp(a->string, b->string) == 0)
                die(1, "%s: duplicate field '%s'%s%s", state_path, a->string,
                    where ? " in " : "", where ? where : "");
}

static void read_vector(const cJSON *root, const char *field, int n, double *out)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, field);
    if (!a)
        die(1, "%s: missing field '%s' (%d numbers)", state_path, field, n);
    if (!cJSON_IsArray(a))
        die(1, "%s: field '%s': expected an array of %d numbers", state_path, field, n);
    int len = cJSON_GetArraySize(a);
    if (len != n)
        die(1, "%s: field '%s': expected %d numbers, got %d", state_path, field, n, len);
    int i = 0;
    for (const cJSON *e = a->child; e; e = e->next, i++) {
        if (!cJSON_IsNumber(e))
            die(1, "%s: field '%s': entry %d is not a number", state_path, field, i);
        if (!isfinite(e->valuedouble))
            die(1, "%s: field '%s': entry %d is not finite", state_path, field, i);
        out[i] = e->valuedouble;
    }
}

static int lookup(const mjModel *m, int type, const cJSON *item, const char *what, int idx)
{
    if (!cJSON_IsString(item))
        die(1, "%s: field 'contacts': entry %d: '%s' must be a name (string)", state_path, idx,
            item->string);
    int id = mj_name2id(m, type, item->valuestring);
    if (id < 0)
        die(1, "%s: field 'contacts': entry %d: no %s named '%s' in the model", state_path, idx,
            what, item->valuestring);
    return id;
}

static void read_state(const mjModel *m, const char *path, state *s)
{
    state_path = path;
    char *text = read_text(path);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        long off = end ? (long)(end - text) : -1;
        die(1, "%s: malformed JSON (near byte %ld)", path, off);
    }
    if (!cJSON_IsObject(root))
        die(1, "%s: expected a JSON object", path);
    no_duplicates(root, NULL);
    static const char *known[] = {"qpos", "qvel", "mu", "contacts", "policy", "comment"};
    for (const cJSON *e = root->child; e; e = e->next) {
        int ok = 0;
        for (size_t i = 0; i < sizeof known / sizeof *known; i++)
            ok |= strcmp(e->string, known[i]) == 0;
        if (!ok)
            die(1, "%s: unknown field '%s' (qpos, qvel, mu, contacts, policy, comment)", path,
                e->string);
    }
    s->qpos = xcalloc((size_t)m->nq, sizeof(double));
    s->qvel = xcalloc((size_t)m->nv, sizeof(double));
    read_vector(root, "qpos", m->nq, s->qpos);
    read_vector(root, "qvel", m->nv, s->qvel);

    s->mu = DEFAULT_MU;
    const cJSON *mu = cJSON_GetObjectItemCaseSensitive(root, "mu");
    if (mu) {
        if (!cJSON_IsNumber(mu) || !isfinite(mu->valuedouble) || mu->valuedouble < 0)
            die(1, "%s: field 'mu': expected a finite number >= 0", path);
        s->mu = mu->valuedouble;
    }

    s->policy = NULL;
    const cJSON *pol = cJSON_GetObjectItemCaseSensitive(root, "policy");
    if (pol) {
        if (!cJSON_IsString(pol))
            die(1, "%s: field 'policy': expected a string (an nsm impact policy)", path);
        s->policy = strdup(pol->valuestring);
    }
    const cJSON *com = cJSON_GetObjectItemCaseSensitive(root, "comment");
    if (com && !cJSON_IsString(com))
        die(1, "%s: field 'comment': expected a string", path);

    s->nsel = -1;
    s->sel = NULL;
    const cJSON *cs = cJSON_GetObjectItemCaseSensitive(root, "contacts");
    if (cs) {
        if (!cJSON_IsArray(cs))
            die(1, "%s: field 'contacts': expected an array of {geom1, geom2} or {body1, body2}",
                path);
        s->nsel = cJSON_GetArraySize(cs);
        s->sel = xcalloc((size_t)s->nsel, sizeof(selector));
        int i = 0;
        for (const cJSON *c = cs->child; c; c = c->next, i++) {
            if (!cJSON_IsObject(c))
                die(1, "%s: field 'contacts': entry %d is not an object", path, i);
            no_duplicates(c, "an entry of 'contacts'");
            const cJSON *g1 = cJSON_GetObjectItemCaseSensitive(c, "geom1");
            const cJSON *g2 = cJSON_GetObjectItemCaseSensitive(c, "geom2");
            const cJSON *b1 = cJSON_GetObjectItemCaseSensitive(c, "body1");
            const cJSON *b2 = cJSON_GetObjectItemCaseSensitive(c, "body2");
            int n = cJSON_GetArraySize(c);
            selector *sl = &s->sel[i];
            if (g1 && g2 && n == 2) {
                sl->kind = 0;
                sl->id[0] = lookup(m, mjOBJ_GEOM, g1, "geom", i);
                sl->id[1] = lookup(m, mjOBJ_GEOM, g2, "geom", i);
                sl->name[0] = strdup(g1->valuestring);
                sl->name[1] = strdup(g2->valuestring);
            } else if (b1 && b2 && n == 2) {
                sl->kind = 1;
                sl->id[0] = lookup(m, mjOBJ_BODY, b1, "body", i);
                sl->id[1] = lookup(m, mjOBJ_BODY, b2, "body", i);
                sl->name[0] = strdup(b1->valuestring);
                sl->name[1] = strdup(b2->valuestring);
            } else {
                die(1, "%s: field 'contacts': entry %d must have exactly the fields geom1 and "
                       "geom2, or body1 and body2",
                    path, i);
            }
        }
    }
    cJSON_Delete(root);
    free(text);
}

static void free_state(state *s)
{
    free(s->qpos);
    free(s->qvel);
    free(s->policy);
    for (int i = 0; i < s->nsel; i++) {
        free(s->sel[i].name[0]);
        free(s->sel[i].name[1]);
    }
    free(s->sel);
}

/* ---- contacts ------------------------------------------------------------------------- */

typedef struct {
    int mj;         /* index in mjData.contact */
    int geom[2];    /* MuJoCo's geom1, geom2: the normal points from geom1 to geom2 */
    int body[2];
    double pos[3];  /* world contact point (MuJoCo: midpoint between the surfaces) */
    double frame[9]; /* rows: normal, tangent 1, tangent 2 (world) */
    double dist;    /* signed distance, negative: penetration */
    double loc[2][3]; /* pos in the frame of body[0], body[1] (fixed in each body) */
} contact;

static int matches(const mjModel *m, const selector *sl, const mjContact *c)
{
    int a, b;
    if (sl->kind == 0) {
        a = c->geom1;
        b = c->geom2;
    } else {
        a = m->geom_bodyid[c->geom1];
        b = m->geom_bodyid[c->geom2];
    }
    return (a == sl->id[0] && b == sl->id[1]) || (a == sl->id[1] && b == sl->id[0]);
}

static const char *geom_name(const mjModel *m, int g)
{
    const char *s = mj_id2name(m, mjOBJ_GEOM, g);
    return s ? s : "(unnamed)";
}

static const char *body_name(const mjModel *m, int b)
{
    const char *s = mj_id2name(m, mjOBJ_BODY, b);
    return s ? s : "(unnamed)";
}

/* The contacts kept, in the order of the selectors (MuJoCo's order within one selector). */
static contact *select_contacts(const mjModel *m, const mjData *d, const state *s, int *k_out)
{
    int ncon = d->ncon;
    contact *cs = xcalloc((size_t)(ncon ? ncon : 1), sizeof(contact));
    int *taken = xcalloc((size_t)(ncon ? ncon : 1), sizeof(int));
    int k = 0;
    int nsel = s->nsel < 0 ? 1 : s->nsel;
    for (int j = 0; j < nsel; j++) {
        int found = 0;
        for (int i = 0; i < ncon; i++) {
            const mjContact *c = &d->contact[i];
            if (s->nsel >= 0 && !matches(m, &s->sel[j], c))
                continue;
            found++;
            if (taken[i])
                continue;
            taken[i] = 1;
            contact *o = &cs[k++];
            o->mj = i;
            o->geom[0] = c->geom1;
            o->geom[1] = c->geom2;
            for (int b = 0; b < 2; b++)
                o->body[b] = m->geom_bodyid[o->geom[b]];
            memcpy(o->pos, c->pos, sizeof o->pos);
            memcpy(o->frame, c->frame, sizeof o->frame);
            o->dist = c->dist;
            for (int b = 0; b < 2; b++) {
                const double *xp = d->xpos + 3 * o->body[b], *R = d->xmat + 9 * o->body[b];
                double r[3] = {o->pos[0] - xp[0], o->pos[1] - xp[1], o->pos[2] - xp[2]};
                for (int a = 0; a < 3; a++) /* R^T r */
                    o->loc[b][a] = R[a] * r[0] + R[3 + a] * r[1] + R[6 + a] * r[2];
            }
        }
        if (s->nsel >= 0 && !found) {
            fprintf(stderr, "nsm-model: MuJoCo reports %d contact(s) at this state:", ncon);
            for (int i = 0; i < ncon; i++)
                fprintf(stderr, "%s %s/%s", i ? "," : "", geom_name(m, d->contact[i].geom1),
                        geom_name(m, d->contact[i].geom2));
            fputc('\n', stderr);
            die(1, "%s: field 'contacts': entry %d: no contact between %s '%s' and '%s' at this "
                   "state",
                state_path, j, s->sel[j].kind ? "bodies" : "geoms", s->sel[j].name[0],
                s->sel[j].name[1]);
        }
    }
    free(taken);
    *k_out = k;
    return cs;
}

/* Jacobian (3 x nv) of the velocity of the point of body[1] at p1 relative to the point of
 * body[0] at p0: J(p1, body[1]) - J(p0, body[0]). Needs d at kinematics + comPos. */
static void relative_jac(const mjModel *m, const mjData *d, const contact *c, const double p0[3],
                         const double p1[3], double *J, double *tmp)
{
    int nv = m->nv;
    mj_jac(m, d, J, NULL, p1, c->body[1]);
    mj_jac(m, d, tmp, NULL, p0, c->body[0]);
    for (int i = 0; i < 3 * nv; i++)
        J[i] -= tmp[i];
}

/* Rows of contact c in the layout of nsm's Lambda (t1, t2, n): out[0] = t1^T J, out[1] =
 * t2^T J, out[2] = n^T J, each of length nv. */
static void frame_rows(const mjModel *m, const double frame[9], const double *J, double *out)
{
    int nv = m->nv;
    static const int axis[3] = {1, 2, 0}; /* t1, t2, n */
    for (int r = 0; r < 3; r++) {
        const double *e = frame + 3 * axis[r];
        for (int j = 0; j < nv; j++)
            out[r * nv + j] = e[0] * J[j] + e[1] * J[nv + j] + e[2] * J[2 * nv + j];
    }
}

/* The current world positions of c's two body-fixed points. */
static void body_points(const mjData *d, const contact *c, double p[2][3])
{
    for (int b = 0; b < 2; b++) {
        const double *xp = d->xpos + 3 * c->body[b], *R = d->xmat + 9 * c->body[b];
        for (int a = 0; a < 3; a++)
            p[b][a] = xp[a] + R[3 * a] * c->loc[b][0] + R[3 * a + 1] * c->loc[b][1] +
                      R[3 * a + 2] * c->loc[b][2];
    }
}

/* Rows of the contacts (3 per contact, t1, t2, n) at d's current kinematics, the contact
 * frames kept fixed in the world. out: 3k x nv. */
static void contact_rows(const mjModel *m, const mjData *d, const contact *cs, int k, double *out)
{
    int nv = m->nv;
    double *J = xcalloc((size_t)(3 * nv), sizeof(double));
    double *tmp = xcalloc((size_t)(3 * nv), sizeof(double));
    for (int c = 0; c < k; c++) {
        double p[2][3];
        body_points(d, &cs[c], p);
        relative_jac(m, d, &cs[c], p[0], p[1], J, tmp);
        frame_rows(m, cs[c].frame, J, out + (size_t)3 * c * nv);
    }
    free(J);
    free(tmp);
}

/* Equality-constraint rows of mjData.efc (dense or sparse Jacobian); returns their number and
 * stores them in *out (allocated). */
static int equality_rows(const mjModel *m, const mjData *d, double **out)
{
    int nv = m->nv, neq = 0;
    for (int i = 0; i < d->nefc; i++)
        neq += d->efc_type[i] == mjCNSTR_EQUALITY;
    double *A = xcalloc((size_t)(neq ? neq : 1) * (size_t)nv, sizeof(double));
    int r = 0;
    for (int i = 0; i < d->nefc; i++) {
        if (d->efc_type[i] != mjCNSTR_EQUALITY)
            continue;
        if (mj_isSparse(m)) {
            int adr = d->efc_J_rowadr[i];
            for (int j = 0; j < d->efc_J_rownnz[i]; j++)
                A[(size_t)r * nv + d->efc_J_colind[adr + j]] = d->efc_J[adr + j];
        } else {
            memcpy(A + (size_t)r * nv, d->efc_J + (size_t)i * nv, (size_t)nv * sizeof(double));
        }
        r++;
    }
    *out = A;
    return neq;
}

/* All constraint rows of the dynamics problem at qpos: 3 per contact, then equalities. */
static void constraint_rows(const mjModel *m, mjData *d, const double *qpos, const contact *cs,
                            int k, int neq, double *A)
{
    mju_copy(d->qpos, qpos, m->nq);
    mj_fwdPosition(m, d); /* kinematics, comPos, inertia, collision, efc rows */
    contact_rows(m, d, cs, k, A);
    double *E;
    int ne = equality_rows(m, d, &E);
    if (ne != neq)
        die(3, "the number of equality-constraint rows changes along qvel (%d, then %d): Adot "
               "cannot be differenced",
            neq, ne);
    memcpy(A + (size_t)3 * k * m->nv, E, (size_t)ne * m->nv * sizeof(double));
    free(E);
}

/* ---- output --------------------------------------------------------------------------- */

static void check_finite(const char *field, const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            die(3, "field '%s': non-finite entry %zu in the exported problem", field, i);
}

static void put_num(double x)
{
    printf("%.17g", x == 0 ? 0.0 : x); /* -0 printed as 0 */
}

static void put_vector(const char *name, const double *x, int n, int last)
{
    check_finite(name, x, (size_t)n);
    printf("  \"%s\": [", name);
    for (int i = 0; i < n; i++) {
        if (i)
            fputs(", ", stdout);
        put_num(x[i]);
    }
    printf("]%s\n", last ? "" : ",");
}

static void put_matrix(const char *name, const double *x, int rows, int cols, int last)
{
    check_finite(name, x, (size_t)rows * cols);
    printf("  \"%s\": [", name);
    for (int r = 0; r < rows; r++) {
        fputs(r ? ",\n    [" : "[", stdout);
        for (int j = 0; j < cols; j++) {
            if (j)
                fputs(", ", stdout);
            put_num(x[(size_t)r * cols + j]);
        }
        fputc(']', stdout);
    }
    printf("]%s\n", last ? "" : ",");
}

static void put_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            printf("\\%c", ch);
        else if (ch < 0x20)
            printf("\\u%04x", ch);
        else
            putchar(ch);
    }
    putchar('"');
}

/* ---- commands ------------------------------------------------------------------------- */

static void full_inertia(const mjModel *m, const mjData *d, double *M)
{
    mj_fullM(m, M, d->qM);
}

static int cmd_impact(const mjModel *m, mjData *d, const state *s, const contact *cs, int k)
{
    int nv = m->nv;
    double *E;
    int neq = equality_rows(m, d, &E);
    free(E);
    if (neq)
        die(1, "impact: the model has %d equality-constraint rows at this state; nsm impact has "
               "no bilateral constraints (use dynamics)",
            neq);
    double *M = xcalloc((size_t)nv * nv, sizeof(double));
    full_inertia(m, d, M);
    double *R = xcalloc((size_t)3 * k * nv, sizeof(double));
    contact_rows(m, d, cs, k, R);
    double *Jn = xcalloc((size_t)k * nv, sizeof(double));
    double *Jt = xcalloc((size_t)2 * k * nv, sizeof(double));
    double *mu = xcalloc((size_t)k, sizeof(double));
    for (int c = 0; c < k; c++) {
        memcpy(Jt + (size_t)2 * c * nv, R + (size_t)3 * c * nv, (size_t)2 * nv * sizeof(double));
        memcpy(Jn + (size_t)c * nv, R + (size_t)(3 * c + 2) * nv, (size_t)nv * sizeof(double));
        mu[c] = s->mu;
    }
    puts("{");
    put_matrix("M", M, nv, nv, 0);
    put_matrix("Jn", Jn, k, nv, 0);
    put_matrix("Jt", Jt, 2 * k, nv, 0);
    printf("  \"tangent_dim\": 2,\n");
    put_vector("mu", mu, k, 0);
    if (s->policy) {
        printf("  \"policy\": ");
        put_json_string(s->policy);
        printf(",\n");
    }
    put_vector("v", s->qvel, nv, 1);
    puts("}");
    free(M);
    free(R);
    free(Jn);
    free(Jt);
    free(mu);
    return 0;
}

/* Bias force qfrc_bias = C(q, v) v - fg(q) (MuJoCo's RNE without acceleration) at velocity v,
 * at d's current positions. */
static void bias_at(const mjModel *m, mjData *d, const double *v, double *out)
{
    mju_copy(d->qvel, v, m->nv);
    mj_comVel(m, d);
    mj_rne(m, d, 0, out);
}

static int cmd_dynamics(const mjModel *m, mjData *d, const state *s, const contact *cs, int k)
{
    int nv = m->nv, nq = m->nq;
    double *M = xcalloc((size_t)nv * nv, sizeof(double));
    full_inertia(m, d, M);

    /* Applied force at the state (passive springs and dampers, actuators at d->ctrl = 0,
     * qfrc_applied), from the mj_forward already run. */
    double *f = xcalloc((size_t)nv, sizeof(double));
    for (int i = 0; i < nv; i++)
        f[i] = d->qfrc_passive[i] + d->qfrc_actuator[i] + d->qfrc_applied[i];

    /* fg = -bias(q, 0); C by polarization of the quadratic c(v) = bias(q, v) - bias(q, 0):
     * column j = (bias(q, v + e_j) - bias(q, v - e_j)) / 4, so that C v = c(v) exactly. */
    double *fg = xcalloc((size_t)nv, sizeof(double));
    double *C = xcalloc((size_t)nv * nv, sizeof(double));
    double *u = xcalloc((size_t)nv, sizeof(double));
    double *bp = xcalloc((size_t)nv, sizeof(double));
    double *bm = xcalloc((size_t)nv, sizeof(double));
    bias_at(m, d, u, fg);
    for (int i = 0; i < nv; i++)
        fg[i] = -fg[i];
    for (int j = 0; j < nv; j++) {
        mju_copy(u, s->qvel, nv);
        u[j] += 1.0;
        bias_at(m, d, u, bp);
        u[j] -= 2.0;
        bias_at(m, d, u, bm);
        for (int i = 0; i < nv; i++)
            C[(size_t)i * nv + j] = (bp[i] - bm[i]) / 4.0;
    }
    mju_copy(d->qvel, s->qvel, nv);

    /* A at the state, Adot by a central difference along qvel over ADOT_H. */
    double *E;
    int neq = equality_rows(m, d, &E);
    free(E);
    int rows = 3 * k + neq;
    double *A = xcalloc((size_t)rows * nv, sizeof(double));
    double *Ap = xcalloc((size_t)rows * nv, sizeof(double));
    double *Am = xcalloc((size_t)rows * nv, sizeof(double));
    double *q = xcalloc((size_t)nq, sizeof(double));
    constraint_rows(m, d, s->qpos, cs, k, neq, A);
    mju_copy(q, s->qpos, nq);
    mj_integratePos(m, q, s->qvel, ADOT_H);
    constraint_rows(m, d, q, cs, k, neq, Ap);
    mju_copy(q, s->qpos, nq);
    mj_integratePos(m, q, s->qvel, -ADOT_H);
    constraint_rows(m, d, q, cs, k, neq, Am);
    for (size_t i = 0; i < (size_t)rows * nv; i++)
        Ap[i] = (Ap[i] - Am[i]) / (2 * ADOT_H);

    puts("{");
    put_matrix("M", M, nv, nv, 0);
    put_matrix("C", C, nv, nv, 0);
    if (rows) {
        put_matrix("A", A, rows, nv, 0);
        put_matrix("Adot", Ap, rows, nv, 0);
    } else {
        printf("  \"A\": [],\n  \"Adot\": [],\n");
    }
    put_vector("f", f, nv, 0);
    put_vector("fg", fg, nv, 0);
    put_vector("qdot", s->qvel, nv, 1);
    puts("}");
    free(M);
    free(f);
    free(fg);
    free(C);
    free(u);
    free(bp);
    free(bm);
    free(A);
    free(Ap);
    free(Am);
    free(q);
    return 0;
}

static int cmd_contacts(const mjModel *m, const contact *cs, int k)
{
    printf("{\n  \"nq\": %d,\n  \"nv\": %d,\n  \"contacts\": [", m->nq, m->nv);
    for (int c = 0; c < k; c++) {
        const contact *o = &cs[c];
        printf("%s\n    {\"geom1\": ", c ? "," : "");
        put_json_string(geom_name(m, o->geom[0]));
        printf(", \"geom2\": ");
        put_json_string(geom_name(m, o->geom[1]));
        printf(", \"body1\": ");
        put_json_string(body_name(m, o->body[0]));
        printf(", \"body2\": ");
        put_json_string(body_name(m, o->body[1]));
        printf(", \"body1_id\": %d, \"body2_id\": %d, \"dist\": ", o->body[0], o->body[1]);
        put_num(o->dist);
        printf(",\n     \"pos\": [");
        for (int a = 0; a < 3; a++) {
            printf(a ? ", " : "");
            put_num(o->pos[a]);
        }
        printf("], \"frame\": [");
        for (int a = 0; a < 9; a++) {
            printf(a ? ", " : "");
            put_num(o->frame[a]);
        }
        printf("]}");
    }
    printf("%s]\n}\n", k ? "\n  " : "");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (argc != 4) {
        fprintf(stderr, "nsm-model: expected 3 arguments, got %d\n%s", argc - 1, usage_text);
        return 2;
    }
    const char *cmd = argv[1];
    int mode = strcmp(cmd, "impact") == 0 ? 0 : strcmp(cmd, "dynamics") == 0 ? 1
             : strcmp(cmd, "contacts") == 0 ? 2 : -1;
    if (mode < 0) {
        fprintf(stderr, "nsm-model: unknown command '%s'\n%s", cmd, usage_text);
        return 2;
    }
    mju_user_error = on_mj_error;
    mju_user_warning = on_mj_warning;

    FILE *probe = fopen(argv[2], "rb");
    if (!probe)
        die(1, "%s: cannot open the model", argv[2]);
    fclose(probe);
    char err[1000] = "";
    mjModel *m = mj_loadXML(argv[2], NULL, err, (int)sizeof err);
    if (!m) {
        for (char *c = err; *c; c++) /* MuJoCo's message may span lines: one line here */
            if (*c == '\n' || *c == '\r')
                *c = ' ';
        die(1, "%s: MuJoCo cannot load the model: %s", argv[2], err[0] ? err : "unknown error");
    }
    if (m->nv < 1 || m->nv > MAX_DIM)
        die(1, "%s: the model has nv = %d degrees of freedom (nsm: 1 ... %d)", argv[2], m->nv,
            MAX_DIM);

    state s;
    read_state(m, argv[3], &s);

    mjData *d = mj_makeData(m);
    if (!d)
        die(3, "MuJoCo could not allocate mjData");
    mju_copy(d->qpos, s.qpos, m->nq);
    mj_normalizeQuat(m, d->qpos);
    mju_copy(s.qpos, d->qpos, m->nq);
    mju_copy(d->qvel, s.qvel, m->nv);
    mj_forward(m, d);

    int k;
    contact *cs = select_contacts(m, d, &s, &k);
    if (mode == 0 && k == 0)
        die(1, "%s: no contact at this state (MuJoCo reports %d): nsm impact needs k >= 1",
            argv[3], d->ncon);
    if (3 * k > MAX_DIM)
        die(1, "%s: %d contacts selected: too many for nsm (3k <= %d)", argv[3], k, MAX_DIM);

    int rc = mode == 0 ? cmd_impact(m, d, &s, cs, k)
           : mode == 1 ? cmd_dynamics(m, d, &s, cs, k)
                       : cmd_contacts(m, cs, k);
    if (fflush(stdout) != 0 || ferror(stdout))
        die(3, "cannot write the problem on standard output");
    free(cs);
    free_state(&s);
    mj_deleteData(d);
    mj_deleteModel(m);
    return rc;
}
