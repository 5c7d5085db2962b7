/*
 * The few libm functions nsmech uses. Under Frama-C the trusted contracts of
 * specs/shadow/nsm_math_spec.h replace <math.h>, whose 'assigns errno' clauses would break the
 * frame conditions of every caller. Include it as "../nsm_math.h" from a module source file.
 */
#ifndef NSM_MATH_H
#define NSM_MATH_H
#ifdef __FRAMAC__
#include "nsm_math_spec.h"
#else
#include <math.h>
#endif
#endif
