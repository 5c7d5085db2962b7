/*
 * The compass-gait walker of examples/compass_gait.c (docs/math.md, Part 2) as C data, for
 * that example and the benchmarks (bench/bench_outcome.c): legs of length l = 1 with a point
 * mass m = 1 at the middle of each, q = (x, y, theta1, theta2) (hip position and leg angles
 * from the downward vertical) at theta = (-phi, phi), phi = 78°. M = sum_i J_i^T J_i over the
 * two leg masses; contact i is foot i (normal (0, 1), tangent (1, 0)).
 */
#ifndef NSM_EXAMPLE_COMPASS_GAIT_H
#define NSM_EXAMPLE_COMPASS_GAIT_H

#include <math.h>
#include <string.h>

/* Fills M (4×4), Jn (2×4) and Jt (2×4). */
static inline void compass_gait_problem(double *M, double *Jn, double *Jt)
{
    const double pi = 3.14159265358979323846, l = 1.0, phi = 78.0 * pi / 180.0;
    const double th[2] = {-phi, phi};
    memset(M, 0, 16 * sizeof *M);
    memset(Jn, 0, 8 * sizeof *Jn);
    memset(Jt, 0, 8 * sizeof *Jt);
    for (int i = 0; i < 2; i++) {
        /* leg mass at hip + (l/2)(sin th, -cos th): velocity rows */
        double Jm[2][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}};
        Jm[0][2 + i] = 0.5 * l * cos(th[i]);
        Jm[1][2 + i] = 0.5 * l * sin(th[i]);
        for (int a = 0; a < 4; a++) {
            for (int b = 0; b < 4; b++) {
                M[a * 4 + b] += Jm[0][a] * Jm[0][b] + Jm[1][a] * Jm[1][b];
            }
        }
        /* foot at hip + l (sin th, -cos th) */
        Jn[i * 4 + 1] = 1.0;
        Jn[i * 4 + 2 + i] = l * sin(th[i]);
        Jt[i * 4 + 0] = 1.0;
        Jt[i * 4 + 2 + i] = l * cos(th[i]);
    }
}

#endif
