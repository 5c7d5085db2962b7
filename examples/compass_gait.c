/*
 * compass_gait — a compass-gait walker with both feet on the ground (math.md, Part 2): legs of
 * length l = 1 with a point mass m = 1 at the middle of each, q = (x, y, theta1, theta2) (hip
 * position and leg angles from the downward vertical), configuration (-l sin phi, l cos phi,
 * -phi, phi) with phi = 78°, mu = 5. M = sum_i J_i^T J_i over the two leg masses. Contact i is
 * foot i (normal (0, 1), tangent (1, 0)). Two initial conditions:
 *   compass_gait       heel strike: the walker rotates about foot 2 with both legs at
 *                      dphi = 1/4, v- = (-l cos phi dphi, -l sin phi dphi, dphi, dphi). Only
 *                      foot 1 penetrates (foot 2 has u_n = 0); foot 1 sticks and its impulse
 *                      lifts foot 2 (W_{n,2; n,1} = +9.57 > 0), so one contact acts and the
 *                      outcome is unique.
 *   compass_gait_drop  the walker dropped onto both feet: the hip moving straight down at
 *                      1 m/s, legs not rotating, v- = (0, -1, 0, 0). Both feet penetrate.
 *                      Every sequential and priority order and the simultaneous run bring the
 *                      walker to rest (|v+| < 3e-4 m/s); histories that switch between the
 *                      feet instead lift either foot, at up to 0.26 m/s.
 * Output and driver: impact_demo.h; the walker's data: compass_gait.h.
 */
#include "impact_demo.h"
#include "compass_gait.h"

static demo_problem gait(const char *name, const char *title, const double *vm)
{
    demo_problem P = {name, title, "foot 1 normal velocity J_{n,1} v_+",
                      "foot 2 normal velocity J_{n,2} v_+",
                      4, 2, {0}, {0}, {0}, {5.0, 5.0}, {vm[0], vm[1], vm[2], vm[3]}, 1, 3};
    compass_gait_problem(P.M, P.Jn, P.Jt);
    return P;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    const double pi = 3.14159265358979323846, l = 1.0, phi = 78.0 * pi / 180.0, dphi = 0.25;
    const double strike[4] = {-l * cos(phi) * dphi, -l * sin(phi) * dphi, dphi, dphi};
    const double drop[4] = {0.0, -1.0, 0.0, 0.0};
    demo_problem heel = gait("compass_gait", "Compass gait heel strike (mu = 5)", strike);
    demo_problem both = gait("compass_gait_drop",
                             "Compass gait dropped onto both feet at 1 m/s (mu = 5)", drop);
    return demo_run(&heel, dir) | demo_run(&both, dir);
}
