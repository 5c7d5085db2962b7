/*
 * TRUSTED contracts for the libm functions nsmech calls (seen only by Frama-C).
 * They are not proved: they state what C99 Annex F guarantees for finite arguments, read in
 * the real model. Listed in docs/proofs.md.
 */
#ifndef NSM_MATH_SPEC_H
#define NSM_MATH_SPEC_H

/*@ requires nonneg: x >= 0;
    assigns \result \from x;
    ensures nonneg: \result >= 0;
    ensures root: \result * \result == x;
 */
double sqrt(double x);

/*@ assigns \result \from x;
    ensures nonneg: \result >= 0;
    ensures value: \result == (x >= 0 ? x : -x);
 */
double fabs(double x);

/*@ assigns \result \from x;
    ensures range: -1 <= \result <= 1;
 */
double cos(double x);

/*@ assigns \result \from x;
    ensures range: -1 <= \result <= 1;
 */
double sin(double x);

#endif
