/* An impact problem read from an nsm JSON problem file (problem_file.h). */
#include "problem_file.h"
#include <stdio.h>
#include <stdlib.h>
#include <cjson/cJSON.h>

/* The numbers of a JSON array of rows (or of one flat row) into out, row-major: *rows and
   *cols receive its shape; 1 on a shape error or beyond cap entries. */
static int read_rows(const cJSON *a, double *out, size_t cap, size_t *rows, size_t *cols)
{
    size_t k = 0;
    *rows = 0;
    *cols = 0;
    if (!cJSON_IsArray(a)) {
        return 1;
    }
    const cJSON *r;
    cJSON_ArrayForEach(r, a) {
        if (cJSON_IsNumber(r)) { /* a flat vector: one row */
            if (k >= cap) {
                return 1;
            }
            out[k++] = r->valuedouble;
            *rows = 1;
            *cols = k;
            continue;
        }
        size_t c = 0;
        const cJSON *x;
        cJSON_ArrayForEach(x, r) {
            if (!cJSON_IsNumber(x) || k >= cap) {
                return 1;
            }
            out[k++] = x->valuedouble;
            c++;
        }
        if (*rows > 0 && c != *cols) {
            return 1;
        }
        *cols = c;
        (*rows)++;
    }
    return 0;
}

int pf_load(const char *path, pf_problem *p)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return 1;
    }
    static char text[1u << 22];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    cJSON *j = cJSON_Parse(text);
    if (j == NULL) {
        return 1;
    }
    size_t rm, cm, rn, cn, rt, ct, ru, cu, rv, cv;
    int bad = read_rows(cJSON_GetObjectItem(j, "M"), p->M, PF_MAXN * PF_MAXN, &rm, &cm) ||
              read_rows(cJSON_GetObjectItem(j, "Jn"), p->Jn, PF_MAXM * PF_MAXN, &rn, &cn) ||
              read_rows(cJSON_GetObjectItem(j, "Jt"), p->Jt, 2 * PF_MAXM * PF_MAXN, &rt, &ct) ||
              read_rows(cJSON_GetObjectItem(j, "mu"), p->mu, PF_MAXM, &ru, &cu) ||
              read_rows(cJSON_GetObjectItem(j, "v"), p->v, PF_MAXN, &rv, &cv);
    const cJSON *td = cJSON_GetObjectItem(j, "tangent_dim");
    p->n = rm;
    p->m = rn;
    p->d = cJSON_IsNumber(td) ? (size_t)td->valueint : 1u;
    bad = bad || p->n == 0 || p->m == 0 || (p->d != 1 && p->d != 2) || cm != p->n ||
          cn != p->n || ct != p->n || rt != p->d * p->m || ru != 1 || cu != p->m || rv != 1 ||
          cv != p->n;
    cJSON_Delete(j);
    return bad;
}
