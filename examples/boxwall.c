/*
 * boxwall — a square box (w = 1, m = 1, I = 1/6) tilted by 10° touches the floor and a wall
 * on its right, both with mu = 1 (math.md, Part 2). q = (x, y, theta); contact 0 is the floor
 * at the lowest corner (normal (0, 1)), contact 1 the wall at the rightmost corner (normal
 * (-1, 0)). Two initial conditions:
 *   boxwall        v- = (1, 0, 0), into the wall only. Only the wall contact penetrates, and the
 *                  wall impulse lifts the floor corner (W_{n,floor; n,wall} = +0.987 > 0), so
 *                  the floor never penetrates: one contact acts, and a single-contact impact
 *                  has one outcome. Every run gives the same v+.
 *   boxwall_corner v- = (1, -1, 0), down into the corner. Both contacts penetrate; which one
 *                  acts when decides whether the box leaves the corner sliding up the wall or
 *                  along the floor: the two sequential orders give the floor slip velocities
 *                  -0.176 and 0 m/s and the set spans the segment between them and beyond.
 * Output and driver: impact_demo.h.
 */
#include "impact_demo.h"

static demo_problem boxwall(const char *name, const char *title, double vx, double vy)
{
    const double pi = 3.14159265358979323846;
    double th = 10.0 * pi / 180.0, c = cos(th), s = sin(th);
    double fx = -0.5 * c + 0.5 * s, fy = -0.5 * s - 0.5 * c; /* floor corner */
    double wx = 0.5 * c + 0.5 * s, wy = 0.5 * s - 0.5 * c;   /* wall corner */
    demo_problem P = {name, title, "floor corner slip velocity J_{t,floor} v_+",
                      "wall corner slip velocity J_{t,wall} v_+",
                      3, 2, {1, 0, 0, 0, 1, 0, 0, 0, 1.0 / 6.0},
                      {0, 1, fx, -1, 0, wy}, {1, 0, -fy, 0, 1, wx}, {1.0, 1.0}, {vx, vy, 0.0},
                      0, 2};
    return P;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    demo_problem wall = boxwall("boxwall", "Box hitting the wall, v- = (1, 0, 0) m/s (mu = 1)",
                                1.0, 0.0);
    demo_problem corner = boxwall("boxwall_corner",
                                  "Box moving down into the corner, v- = (1, -1, 0) m/s (mu = 1)",
                                  1.0, -1.0);
    return demo_run(&wall, dir) | demo_run(&corner, dir);
}
