/* fdcheck — finite-difference references for the nsm-model tests (tests/models/run.py).
 *
 *   fdcheck MODEL.xml STATE.json CONTACTS.json
 *
 * CONTACTS.json is the output of `nsm-model contacts` (each contact's bodies, world point and
 * frame). Independently of nsm-model's mj_jac rows, this program uses positions only
 * (mj_kinematics, mj_integratePos) and prints one JSON object:
 *   "rows":   3k x nv, rows (t1, t2, n) of each contact by central differences of
 *             n^T (p2 - p1) etc., p1, p2 the contact point fixed in each body's frame,
 *             qpos moved by +-EPS along each velocity direction (mj_integratePos);
 *   "adot_v": 3k, the same projections' second difference along qvel (step H), i.e.
 *             d/dt (A qdot) at constant qvel = Adot qdot;
 *   "fg":     nv, gravity force -dV/dq by central differences of the potential
 *             V = -sum_b m_b g . x_b (x_b: body b's centre of mass);
 *   "vMdotv": qdot^T Mdot qdot, M (mj_fullM) differenced along qvel (step H).
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <math.h>
#include <mujoco/mujoco.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EPS 1e-6
#define H 1e-3
#define MAXC 256

typedef struct {
    int body[2];
    double frame[9];
    double loc[2][3];
} contact;

static void fail(const char *msg, const char *what)
{
    fprintf(stderr, "fdcheck: %s%s%s\n", msg, what ? ": " : "", what ? what : "");
    exit(1);
}

static cJSON *load_json(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail("cannot open", path);
    static char buf[1 << 22];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    cJSON *j = cJSON_Parse(buf);
    if (!j)
        fail("malformed JSON", path);
    return j;
}

static void get_vec(const cJSON *o, const char *name, double *out, int n)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n)
        fail("bad or missing vector", name);
    int i = 0;
    for (const cJSON *e = a->child; e; e = e->next)
        out[i++] = e->valuedouble;
}

/* World positions of the two body-fixed points of contact c at d's kinematics. */
static void points(const mjData *d, const contact *c, double p[2][3])
{
    for (int b = 0; b < 2; b++) {
        const double *x = d->xpos + 3 * c->body[b], *R = d->xmat + 9 * c->body[b];
        for (int a = 0; a < 3; a++)
            p[b][a] = x[a] + R[3 * a] * c->loc[b][0] + R[3 * a + 1] * c->loc[b][1] +
                      R[3 * a + 2] * c->loc[b][2];
    }
}

/* (t1, t2, n) projections of p2 - p1 for every contact at qpos q. */
static void gaps(const mjModel *m, mjData *d, const double *q, const contact *cs, int k,
                 double *out)
{
    static const int axis[3] = {1, 2, 0};
    mju_copy(d->qpos, q, m->nq);
    mj_kinematics(m, d);
    for (int c = 0; c < k; c++) {
        double p[2][3];
        points(d, &cs[c], p);
        for (int r = 0; r < 3; r++) {
            const double *e = cs[c].frame + 3 * axis[r];
            out[3 * c + r] = e[0] * (p[1][0] - p[0][0]) + e[1] * (p[1][1] - p[0][1]) +
                             e[2] * (p[1][2] - p[0][2]);
        }
    }
}

static double potential(const mjModel *m, mjData *d, const double *q)
{
    mju_copy(d->qpos, q, m->nq);
    mj_kinematics(m, d);
    double V = 0;
    for (int b = 1; b < m->nbody; b++)
        for (int a = 0; a < 3; a++)
            V -= m->body_mass[b] * m->opt.gravity[a] * d->xipos[3 * b + a];
    return V;
}

static double vMv(const mjModel *m, mjData *d, const double *q, const double *v, double *M)
{
    int nv = m->nv;
    mju_copy(d->qpos, q, m->nq);
    mj_fwdPosition(m, d);
    mj_fullM(m, M, d->qM);
    double s = 0;
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j++)
            s += v[i] * M[(size_t)i * nv + j] * v[j];
    return s;
}

static void put_vec(const double *x, int n)
{
    putchar('[');
    for (int i = 0; i < n; i++)
        printf("%s%.17g", i ? ", " : "", x[i]);
    putchar(']');
}

int main(int argc, char **argv)
{
    if (argc != 4)
        fail("usage: fdcheck MODEL.xml STATE.json CONTACTS.json", NULL);
    char err[1000] = "";
    mjModel *m = mj_loadXML(argv[1], NULL, err, sizeof err);
    if (!m)
        fail(err, argv[1]);
    mjData *d = mj_makeData(m);
    int nq = m->nq, nv = m->nv;
    cJSON *st = load_json(argv[2]), *cj = load_json(argv[3]);
    double *q0 = calloc((size_t)nq, sizeof(double)), *v0 = calloc((size_t)nv, sizeof(double));
    double *q = calloc((size_t)nq, sizeof(double)), *e = calloc((size_t)nv, sizeof(double));
    get_vec(st, "qpos", q0, nq);
    get_vec(st, "qvel", v0, nv);
    mj_normalizeQuat(m, q0);

    static contact cs[MAXC];
    int k = 0;
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(cj, "contacts");
    mju_copy(d->qpos, q0, nq);
    mj_kinematics(m, d);
    for (const cJSON *c = arr ? arr->child : NULL; c && k < MAXC; c = c->next, k++) {
        double pos[3];
        cs[k].body[0] = cJSON_GetObjectItemCaseSensitive(c, "body1_id")->valueint;
        cs[k].body[1] = cJSON_GetObjectItemCaseSensitive(c, "body2_id")->valueint;
        get_vec(c, "pos", pos, 3);
        get_vec(c, "frame", cs[k].frame, 9);
        for (int b = 0; b < 2; b++) {
            const double *x = d->xpos + 3 * cs[k].body[b], *R = d->xmat + 9 * cs[k].body[b];
            double r[3] = {pos[0] - x[0], pos[1] - x[1], pos[2] - x[2]};
            for (int a = 0; a < 3; a++)
                cs[k].loc[b][a] = R[a] * r[0] + R[3 + a] * r[1] + R[6 + a] * r[2];
        }
    }
    double *gp = calloc((size_t)(3 * k + 1), sizeof(double));
    double *gm = calloc((size_t)(3 * k + 1), sizeof(double));
    double *g0 = calloc((size_t)(3 * k + 1), sizeof(double));
    double *rows = calloc((size_t)(3 * k + 1) * nv, sizeof(double));
    double *fg = calloc((size_t)nv, sizeof(double));
    for (int j = 0; j < nv; j++) {
        memset(e, 0, (size_t)nv * sizeof(double));
        e[j] = 1;
        mju_copy(q, q0, nq);
        mj_integratePos(m, q, e, EPS);
        gaps(m, d, q, cs, k, gp);
        double Vp = potential(m, d, q);
        mju_copy(q, q0, nq);
        mj_integratePos(m, q, e, -EPS);
        gaps(m, d, q, cs, k, gm);
        double Vm = potential(m, d, q);
        for (int i = 0; i < 3 * k; i++)
            rows[(size_t)i * nv + j] = (gp[i] - gm[i]) / (2 * EPS);
        fg[j] = -(Vp - Vm) / (2 * EPS);
    }
    gaps(m, d, q0, cs, k, g0);
    mju_copy(q, q0, nq);
    mj_integratePos(m, q, v0, H);
    gaps(m, d, q, cs, k, gp);
    mju_copy(q, q0, nq);
    mj_integratePos(m, q, v0, -H);
    gaps(m, d, q, cs, k, gm);
    for (int i = 0; i < 3 * k; i++)
        g0[i] = (gp[i] - 2 * g0[i] + gm[i]) / (H * H);

    double *M = calloc((size_t)nv * nv, sizeof(double));
    mju_copy(q, q0, nq);
    mj_integratePos(m, q, v0, H);
    double ep = vMv(m, d, q, v0, M);
    mju_copy(q, q0, nq);
    mj_integratePos(m, q, v0, -H);
    double em = vMv(m, d, q, v0, M);
    free(M);

    printf("{\"k\": %d, \"vMdotv\": %.17g, \"rows\": [", k, (ep - em) / (2 * H));
    for (int i = 0; i < 3 * k; i++) {
        if (i)
            printf(",\n  ");
        put_vec(rows + (size_t)i * nv, nv);
    }
    printf("],\n \"adot_v\": ");
    put_vec(g0, 3 * k);
    printf(",\n \"fg\": ");
    put_vec(fg, nv);
    printf("}\n");
    cJSON_Delete(st);
    cJSON_Delete(cj);
    free(q0), free(v0), free(q), free(e), free(gp), free(gm), free(g0), free(rows), free(fg);
    mj_deleteData(d);
    mj_deleteModel(m);
    return 0;
}
