/*
 * block_drop — a block (width b = 2, height a = 1, m = 1, I = (a² + b²)/12) dropped flat from
 * 0.01 lands on both bottom corners at once, v- = (0, -0.443, 0) (math.md, Part 2).
 * q = (x, y, theta); contact 0 is the left corner r = (-1, -1/2), contact 1 the right corner
 * r = (1, -1/2), both with normal (0, 1). Two friction coefficients:
 *   block_drop           mu = 1. Every run ends with the block at rest: once a corner stops,
 *                        its friction cone is wide enough to hold it while the other corner is
 *                        stopped, and zero velocity at both corners (four rows of rank 3) means
 *                        v+ = 0. The set is the single point v+ = 0.
 *   block_drop_slippery  mu = 0.2. A corner that acts alone tips the block and the other
 *                        corner's impulse then drives it sideways: the sequential orders leave
 *                        it sliding left or right at 0.008 m/s, the priority orders (the first
 *                        corner held at rest while the second acts) at 0.038 m/s, the
 *                        simultaneous run at rest; the set is the segment between the priority
 *                        outcomes (both corners end with zero normal velocity).
 * Output and driver: impact_demo.h.
 */
#include "impact_demo.h"

static demo_problem block(const char *name, const char *title, double mu)
{
    const double a = 1.0, b = 2.0;
    demo_problem P = {name, title, "slip velocity of the corners J_{t,left} v_+",
                      "left corner normal velocity J_{n,left} v_+",
                      3, 2, {1, 0, 0, 0, 1, 0, 0, 0, (a * a + b * b) / 12.0},
                      {0, 1, -0.5 * b, 0, 1, 0.5 * b}, {1, 0, 0.5 * a, 1, 0, 0.5 * a},
                      {mu, mu}, {0.0, -0.443, 0.0},
                      0, 1};
    return P;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    demo_problem rough = block("block_drop", "Block dropped flat on two corners (mu = 1)", 1.0);
    demo_problem slip = block("block_drop_slippery",
                              "Block dropped flat on two corners (mu = 0.2)", 0.2);
    return demo_run(&rough, dir) | demo_run(&slip, dir);
}
