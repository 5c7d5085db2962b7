/*
 * block_drop — a block (width b = 2, height a = 1, m = 1, I = (a² + b²)/12) dropped flat from
 * 0.01 lands on both bottom corners at once, mu = 1, v- = (0, -0.443, 0) (math.md, Part 2).
 * q = (x, y, theta); contact 0 is the left corner r = (-1, -1/2), contact 1 the right corner
 * r = (1, -1/2), both with normal (0, 1). Sequential orders tip the block one way or the other;
 * the simultaneous resolution is symmetric. Output and driver: impact_demo.h.
 */
#include "impact_demo.h"

int main(int argc, char **argv)
{
    const double a = 1.0, b = 2.0;
    demo_problem P = {"block_drop",
                      "Block dropped flat on two corners (mu = 1): post-impact normal velocities",
                      "left corner normal velocity J_{n,left} v_+",
                      "right corner normal velocity J_{n,right} v_+",
                      3, 2, {1, 0, 0, 0, 1, 0, 0, 0, (a * a + b * b) / 12.0},
                      {0, 1, -0.5 * b, 0, 1, 0.5 * b}, {1, 0, 0.5 * a, 1, 0, 0.5 * a},
                      {1.0, 1.0}, {0.0, -0.443, 0.0},
                      1, 3};
    return demo_run(&P, argc > 1 ? argv[1] : ".");
}
