/*
 * compass_gait — heel strike of a compass-gait walker (math.md, Part 2): legs of length l = 1
 * with a point mass m = 1 at the middle of each, q = (x, y, theta1, theta2) (hip position and
 * leg angles from the downward vertical), configuration (-l sin phi, l cos phi, -phi, phi) with
 * phi = 78°, so both feet touch the ground; v- = (-l cos phi dphi, -l sin phi dphi, dphi, dphi),
 * dphi = 1/4, mu = 5. M = sum_i J_i^T J_i over the two leg masses. Contact i is foot i (normal
 * (0, 1), tangent (1, 0)). Output and driver: impact_demo.h.
 */
#include "impact_demo.h"

int main(int argc, char **argv)
{
    const double pi = 3.14159265358979323846, l = 1.0, phi = 78.0 * pi / 180.0, dphi = 0.25;
    double th[2] = {-phi, phi};
    demo_problem P = {"compass_gait",
                      "Compass gait heel strike (mu = 5): post-impact foot velocities",
                      "foot 1 normal velocity J_{n,1} v_+", "foot 2 normal velocity J_{n,2} v_+",
                      4, 2, {0}, {0}, {0}, {5.0, 5.0},
                      {-l * cos(phi) * dphi, -l * sin(phi) * dphi, dphi, dphi}, 1, 3};
    for (int i = 0; i < 2; i++) {
        /* leg mass at hip + (l/2)(sin th, -cos th): velocity rows */
        double Jm[2][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}};
        Jm[0][2 + i] = 0.5 * l * cos(th[i]);
        Jm[1][2 + i] = 0.5 * l * sin(th[i]);
        for (int a = 0; a < 4; a++) {
            for (int b = 0; b < 4; b++) {
                P.M[a * 4 + b] += Jm[0][a] * Jm[0][b] + Jm[1][a] * Jm[1][b];
            }
        }
        /* foot at hip + l (sin th, -cos th) */
        P.Jn[i * 4 + 1] = 1.0;
        P.Jn[i * 4 + 2 + i] = l * sin(th[i]);
        P.Jt[i * 4 + 0] = 1.0;
        P.Jt[i * 4 + 2 + i] = l * cos(th[i]);
    }
    return demo_run(&P, argc > 1 ? argv[1] : ".");
}
