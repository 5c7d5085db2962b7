/*
 * The ball stack of examples/problems/impact_ball_stack.json, as C data for the tests and the
 * benchmark: three discs (radius 1, mass 1, I = 1/2), two on a floor touching each other, the
 * third resting on both and hit downwards at 1 m/s; 5 contacts (disc-disc 0-2, 1-2, 0-1 and
 * the floor under discs 0 and 1), mu = sqrt(3) everywhere. Coordinates (x, y, theta) per disc.
 */
#ifndef NSM_TEST_BALL_STACK_H
#define NSM_TEST_BALL_STACK_H

#define BALL_STACK_N 9
#define BALL_STACK_M 5

/* Fills M (9×9, diagonal), Jn (5×9), Jt (5×9), mu (5) and v_minus (9). */
static inline void ball_stack_problem(double *M, double *Jn, double *Jt, double *mu, double *vm)
{
    const double s3 = 0.866025403784439;
    const double md[BALL_STACK_N] = {1, 1, 0.5, 1, 1, 0.5, 1, 1, 0.5};
    const double jn[BALL_STACK_M * BALL_STACK_N] = {
        -0.5, -s3, 0, 0, 0, 0, 0.5, s3, 0,
        0, 0, 0, 0.5, -s3, 0, -0.5, s3, 0,
        -1, 0, 0, 1, 0, 0, 0, 0, 0,
        0, 1, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 1, 0, 0, 0, 0};
    const double jt[BALL_STACK_M * BALL_STACK_N] = {
        s3, -0.5, -1, 0, 0, 0, -s3, 0.5, -1,
        0, 0, 0, s3, 0.5, -1, -s3, -0.5, -1,
        0, -1, -1, 0, 1, -1, 0, 0, 0,
        1, 0, 1, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 1, 0, 1, 0, 0, 0};
    for (int i = 0; i < BALL_STACK_N * BALL_STACK_N; i++) {
        M[i] = 0.0;
    }
    for (int i = 0; i < BALL_STACK_N; i++) {
        M[i * BALL_STACK_N + i] = md[i];
        vm[i] = i == 7 ? -1.0 : 0.0;
    }
    for (int i = 0; i < BALL_STACK_M * BALL_STACK_N; i++) {
        Jn[i] = jn[i];
        Jt[i] = jt[i];
    }
    for (int c = 0; c < BALL_STACK_M; c++) {
        mu[c] = 1.7320508075688772;
    }
}

#endif
