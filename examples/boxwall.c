/*
 * boxwall — a square box (w = 1, m = 1, I = 1/6) tilted by 10° touches the floor and a wall
 * on its right, both with mu = 1, and hits the wall with v- = (1, 0, 0) (math.md, Part 2).
 * q = (x, y, theta); contact 0 is the floor at the lowest corner (normal (0, 1)), contact 1 the
 * wall at the rightmost corner (normal (-1, 0)). The wall impulse lifts the floor corner
 * (W_{n,floor; n,wall} > 0), so the floor never penetrates and the outcome set is one point.
 * Output and driver: impact_demo.h.
 */
#include "impact_demo.h"

int main(int argc, char **argv)
{
    const double pi = 3.14159265358979323846;
    double th = 10.0 * pi / 180.0, c = cos(th), s = sin(th);
    double fx = -0.5 * c + 0.5 * s, fy = -0.5 * s - 0.5 * c; /* floor corner */
    double wx = 0.5 * c + 0.5 * s, wy = 0.5 * s - 0.5 * c;   /* wall corner */
    demo_problem P = {"boxwall",
                      "Box against floor and wall (mu = 1, 10 deg): post-impact contact velocities",
                      "floor tangential velocity J_{t,floor} v_+",
                      "wall tangential velocity J_{t,wall} v_+",
                      3, 2, {1, 0, 0, 0, 1, 0, 0, 0, 1.0 / 6.0},
                      {0, 1, fx, -1, 0, wy}, {1, 0, -fy, 0, 1, wx}, {1.0, 1.0}, {1.0, 0.0, 0.0},
                      0, 2};
    return demo_run(&P, argc > 1 ? argv[1] : ".");
}
