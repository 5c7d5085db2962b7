/* Residuals of the projection identities for nsm dynamics, through the check module. */
#include "nsmech.h"
#include "cli.h"

int cli_residuals(size_t n, const cli_dyn_pieces *pc, double *work, size_t lwork, cJSON *resid)
{
    double r;
    nsm_status s;
#define ADD(key, call)                                 \
    do {                                               \
        s = (call);                                    \
        if (s != NSM_OK) return (int)s;                \
        cJSON_AddNumberToObject(resid, key, r);        \
    } while (0)
    ADD("P2-P", nsm_check_idempotent(n, pc->P, &r));
    ADD("P-PT", nsm_check_symmetry(n, pc->P, &r));
    if (pc->R != NULL) {
        ADD("PR-P", nsm_check_pr(n, pc->P, pc->R, &r));
        ADD("R2-R", nsm_check_idempotent(n, pc->R, &r));
    }
    ADD("S2-S", nsm_check_idempotent(n, pc->S, &r));
    ADD("QS-S", nsm_check_qs(n, pc->Q, pc->S, &r));
    ADD("SQ-Q", nsm_check_sq(n, pc->S, pc->Q, &r));
    ADD("PLambda", nsm_check_plambda(n, pc->P, pc->Lambda, &r));
    if (pc->Mdot != NULL) {
        const nsm_check_skew_input sk = {pc->P, pc->Pdot, pc->M, pc->Mdot, pc->Cbar, pc->mu};
        ADD("skew", nsm_check_skew(n, &sk, &r, work, lwork));
    }
#undef ADD
    int pd = 0;
    s = nsm_check_pd(n, pc->Mbar, &pd, work, lwork);
    if (s != NSM_OK) {
        return (int)s;
    }
    cJSON_AddBoolToObject(resid, "Mbar_positive_definite", pd);
    return NSM_OK;
}
