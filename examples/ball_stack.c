/*
 * ball_stack — three discs (R = 1, m = 1, I = 1/2): two on the floor touching each other, the
 * third resting on both and moving down at speed 1 (math.md, Part 2), mu = sqrt(3) everywhere.
 * q = (x, y, theta) of the left, right and top disc (n = 9). Contacts: 0 top-left, 1 top-right,
 * 2 left-right, 3 left-floor, 4 right-floor. For a disc-disc contact with unit normal nrm from
 * disc B to disc A: gap rate nrm·(v_A - v_B); tangent t = (-nrm_y, nrm_x), tangential rate
 * t·(v_A - v_B) - R (omega_A + omega_B). Output and driver: impact_demo.h.
 */
#include "impact_demo.h"

static void disc_pair(demo_problem *P, size_t c, int a, int b, double nx, double ny, double R)
{
    double tx = -ny, ty = nx;
    P->Jn[c * 9 + 3 * a] = nx;
    P->Jn[c * 9 + 3 * a + 1] = ny;
    P->Jn[c * 9 + 3 * b] = -nx;
    P->Jn[c * 9 + 3 * b + 1] = -ny;
    P->Jt[c * 9 + 3 * a] = tx;
    P->Jt[c * 9 + 3 * a + 1] = ty;
    P->Jt[c * 9 + 3 * a + 2] = -R;
    P->Jt[c * 9 + 3 * b] = -tx;
    P->Jt[c * 9 + 3 * b + 1] = -ty;
    P->Jt[c * 9 + 3 * b + 2] = -R;
}

static void floor_contact(demo_problem *P, size_t c, int a, double R)
{
    P->Jn[c * 9 + 3 * a + 1] = 1.0;
    P->Jt[c * 9 + 3 * a] = 1.0;
    P->Jt[c * 9 + 3 * a + 2] = R;
}

int main(int argc, char **argv)
{
    const double R = 1.0, s3 = sqrt(3.0);
    demo_problem P = {"ball_stack",
                      "Ball stack, top disc dropped at 1 m/s (mu = sqrt 3)",
                      "left disc floor slip velocity J_{t,3} v_+",
                      "right disc floor slip velocity J_{t,4} v_+",
                      9, 5, {0}, {0}, {0}, {s3, s3, s3, s3, s3},
                      {0, 0, 0, 0, 0, 0, 0, -1.0, 0}, 6, 8};
    for (int d = 0; d < 3; d++) {
        P.M[(3 * d) * 9 + 3 * d] = 1.0;
        P.M[(3 * d + 1) * 9 + 3 * d + 1] = 1.0;
        P.M[(3 * d + 2) * 9 + 3 * d + 2] = 0.5 * R * R;
    }
    /* discs: 0 left at (-1, 1), 1 right at (1, 1), 2 top at (0, 1 + sqrt 3) */
    disc_pair(&P, 0, 2, 0, 0.5, 0.5 * s3, R);
    disc_pair(&P, 1, 2, 1, -0.5, 0.5 * s3, R);
    disc_pair(&P, 2, 1, 0, 1.0, 0.0, R);
    floor_contact(&P, 3, 0, R);
    floor_contact(&P, 4, 1, R);
    return demo_run(&P, argc > 1 ? argv[1] : ".");
}
