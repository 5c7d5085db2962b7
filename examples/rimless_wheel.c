/*
 * rimless_wheel — a rimless wheel with 8 spokes of length 1 (hub mass m = 1, I = 0.1 about the
 * hub; an illustrative choice) rolling forward over its rear spoke lands its front spoke, so
 * two spokes touch the ground (the RSS paper's figure 3b), mu = 1. q = (x, y, theta); the
 * spokes on the ground are at ±alpha from the vertical, alpha = pi/8, contact points
 * r = (±sin alpha, -cos alpha) from the hub. v- rotates about the rear foot with omega = -1:
 * v- = (cos alpha, -sin alpha, -1). Output and driver: impact_demo.h.
 */
#include "impact_demo.h"

int main(int argc, char **argv)
{
    const double pi = 3.14159265358979323846, al = pi / 8.0;
    double sa = sin(al), ca = cos(al);
    demo_problem P = {"rimless_wheel",
                      "Rimless wheel, two spokes on the ground (mu = 1): post-impact foot velocities",
                      "rear foot normal velocity J_{n,rear} v_+",
                      "front foot normal velocity J_{n,front} v_+",
                      3, 2, {1, 0, 0, 0, 1, 0, 0, 0, 0.1},
                      /* contact 0: rear foot r = (-sa, -ca); contact 1: front foot r = (sa, -ca) */
                      {0, 1, -sa, 0, 1, sa}, {1, 0, ca, 1, 0, ca}, {1.0, 1.0},
                      {ca, -sa, -1.0}, 1, 3};
    return demo_run(&P, argc > 1 ? argv[1] : ".");
}
