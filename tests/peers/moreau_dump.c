/*
 * Writes the 20 Moreau comparison problems of tests/support/moreau_problems.c as a JSON array
 * on stdout, each in the fields of examples/problems/impact_*.json (M, Jn, Jt, mu, v,
 * tangent_dim 1) plus "name" and "oracle": the solutions of the enumeration oracle
 * (tests/support/moreau_oracle.c), {"P": [...], "v_plus": [...]} each, P in the library's
 * (t, n) ordering. tests/peers/moreau_siconos.py --check compares Siconos with them
 * (make test-peers).
 */
#include <stdio.h>
#include "moreau_oracle.h"
#include "moreau_problems.h"

static void vec(const double *x, size_t len)
{
    printf("[");
    for (size_t i = 0; i < len; i++) {
        printf("%s%.17g", i ? ", " : "", x[i]);
    }
    printf("]");
}

static void mat(const char *key, const double *A, size_t rows, size_t cols)
{
    printf("  \"%s\": [", key);
    for (size_t r = 0; r < rows; r++) {
        printf("%s", r ? ", " : "");
        vec(A + r * cols, cols);
    }
    printf("],\n");
}

int main(void)
{
    static moreau_problem probs[MOREAU_NPROBLEMS];
    size_t np = moreau_problems(probs);
    printf("[\n");
    for (size_t k = 0; k < np; k++) {
        const moreau_problem *P = &probs[k];
        moreau_result R;
        if (moreau_problem_solve(P, &R) != 0) {
            fprintf(stderr, "moreau_dump: the oracle failed on %s\n", P->name);
            return 1;
        }
        printf("{ \"name\": \"%s\", \"tangent_dim\": 1,\n", P->name);
        mat("M", P->M, P->n, P->n);
        mat("Jn", P->Jn, P->m, P->n);
        mat("Jt", P->Jt, P->m, P->n);
        printf("  \"mu\": ");
        vec(P->mu, P->m);
        printf(",\n  \"v\": ");
        vec(P->vm, P->n);
        printf(",\n  \"oracle\": [");
        for (size_t j = 0; j < R.nsol; j++) {
            printf("%s{\"P\": ", j ? ", " : "");
            vec(R.P[j], 2 * P->m);
            printf(", \"v_plus\": ");
            vec(R.v[j], P->n);
            printf("}");
        }
        printf("]}%s\n", k + 1 < np ? "," : "");
    }
    printf("]\n");
    return 0;
}
