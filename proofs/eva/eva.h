/*
 * make eva: inputs of the drivers. Eva runs with -no-annot (the library's real-model ACSL is not
 * assumed; only the C code is analysed), so Frama_C_double_interval, whose range is an ACSL
 * contract, is not available. Inputs come from nsm_eva_in[], a global array that -lib-entry
 * leaves unknown (any finite double), clamped into their range by comparisons on which Eva
 * reduces. Each input has its own slot: slot numbers are constants of the drivers.
 * Frama_C_interval_split (an Eva builtin, no ACSL needed) returns each integer of its range
 * as a separate state (kept apart by -eva-slevel), which selects cases and signs.
 */
#ifndef NSM_EVA_H
#define NSM_EVA_H

#define NSM_EVA_SLOTS 16
extern double nsm_eva_in[NSM_EVA_SLOTS];
extern int Frama_C_interval_split(int min, int max);
extern void Frama_C_show_each_reached(int);

/* Any double of [lo, hi] (slot k). */
static double in_range(int k, double lo, double hi)
{
    double x = nsm_eva_in[k];
    if (!(x >= lo)) {
        x = lo;
    }
    if (!(x <= hi)) {
        x = hi;
    }
    return x;
}

/* Any double x with x = 0 or lo <= |x| <= hi (0 < lo <= hi): zero and each sign analysed as
   separate states. */
static double in_mag(int k, double lo, double hi)
{
    int s = Frama_C_interval_split(-1, 1);
    if (s == 0) {
        return 0.0;
    }
    double x = in_range(k, lo, hi);
    return s > 0 ? x : -x;
}

#endif
