/*
 * make eva: libm as Eva sees it, in place of specs/shadow/nsm_math_spec.h (the real-model
 * contracts WP uses; Eva runs with -no-annot). sqrt is Eva's builtin Frama_C_sqrt; fabs is
 * defined here (the sign of a zero result aside, which no alarm depends on).
 */
#ifndef NSM_EVA_MATH_H
#define NSM_EVA_MATH_H
double sqrt(double x);
static inline double fabs(double x)
{
    return x < 0.0 ? -x : x;
}
#endif
