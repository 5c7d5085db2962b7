/*
 * The box of examples/problems/impact_box_wall_sequential.json (a unit square, m = 1 kg,
 * I = 1/6 kg·m², tilted 10°, touching the floor with its lowest corner and a wall on its right
 * with its rightmost corner, mu = 1 at both contacts) moving down into the floor-wall corner,
 * v_minus = (1, -1, 0): an impact whose outcome set is not a single point (sequential orders
 * give v+_x = 0.411 and -0.038). As C data for the tests and the benchmarks.
 */
#ifndef NSM_TEST_BOX_CORNER_H
#define NSM_TEST_BOX_CORNER_H

#include <string.h>

/* Fills M (3×3), Jn (2×3), Jt (2×3), mu (2) and v_minus (3). */
static inline void box_corner_problem(double *M, double *Jn, double *Jt, double *mu, double *vm)
{
    static const double m0[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1.0 / 6.0};
    static const double n0[6] = {0, 1, -0.405579787672639, -1, 0, -0.405579787672639};
    static const double t0[6] = {1, 0, 0.579227965339569, 0, 1, 0.579227965339569};
    memcpy(M, m0, sizeof m0);
    memcpy(Jn, n0, sizeof n0);
    memcpy(Jt, t0, sizeof t0);
    mu[0] = mu[1] = 1.0;
    vm[0] = 1.0;
    vm[1] = -1.0;
    vm[2] = 0.0;
}

#endif
