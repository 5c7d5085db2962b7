/*
 * rimless_wheel — a rimless wheel with 8 spokes of length 1 (hub mass m = 1, I = 0.1 about the
 * hub; an illustrative choice) with two spokes on the ground (the RSS paper's figure 3b),
 * mu = 1. q = (x, y, theta); the spokes on the ground are at ±alpha from the vertical,
 * alpha = pi/8, contact points r = (±sin alpha, -cos alpha) from the hub. Contact 0 is the rear
 * foot, contact 1 the front foot. Two initial conditions:
 *   rimless_wheel       rolling forward over the rear spoke (omega = -1 about the rear foot):
 *                       v- = (cos alpha, -sin alpha, -1). The rear foot does not penetrate
 *                       (u_n = 0); the front foot lands and sticks, and the impulse that stops
 *                       it (normal and friction together) lifts the rear foot, which therefore
 *                       never penetrates: one contact acts, and the outcome is unique.
 *   rimless_wheel_drop  the hub falling straight down at 1 m/s, not rotating: v- = (0, -1, 0).
 *                       Both feet penetrate; whichever acts first tips the wheel onto the
 *                       other, so either foot can leave the ground at up to 0.195 m/s.
 * Output and driver: impact_demo.h.
 */
#include "impact_demo.h"

static demo_problem wheel(const char *name, const char *title, double vx, double vy, double om)
{
    const double pi = 3.14159265358979323846, al = pi / 8.0;
    double sa = sin(al), ca = cos(al);
    demo_problem P = {name, title, "rear foot normal velocity J_{n,rear} v_+",
                      "front foot normal velocity J_{n,front} v_+",
                      3, 2, {1, 0, 0, 0, 1, 0, 0, 0, 0.1},
                      {0, 1, -sa, 0, 1, sa}, {1, 0, ca, 1, 0, ca}, {1.0, 1.0},
                      {vx, vy, om}, 1, 3};
    return P;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    const double al = 3.14159265358979323846 / 8.0;
    demo_problem roll = wheel("rimless_wheel",
                              "Rimless wheel rolling onto its front spoke (mu = 1)", cos(al),
                              -sin(al), -1.0);
    demo_problem drop = wheel("rimless_wheel_drop",
                              "Rimless wheel falling onto two spokes at 1 m/s (mu = 1)", 0.0,
                              -1.0, 0.0);
    return demo_run(&roll, dir) | demo_run(&drop, dir);
}
