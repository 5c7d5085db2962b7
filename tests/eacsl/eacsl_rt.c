/*
 * make eacsl: the E-ACSL runtime (Frama-C's e_acsl_rtl.c, segment memory model) with nsmech's
 * own assertion handler, linked into each test program built against the instrumented library
 * (scripts/eacsl.sh, docs/proofs.md).
 *
 * The handler never aborts: it prints each violation as E-ACSL's default handler does and at
 * exit prints one line
 *     NSM-EACSL <program> <checks> <violations> <untracked> <non-finite> <rounding>
 * that scripts/eacsl.sh sums. <checks> counts the verdicts given: every check that held and
 * every violation. Not verdicts, counted apart:
 *  - untracked: only the library is instrumented, so E-ACSL tracks the heap (its malloc
 *    replaces libc's) but not the test programs' stack and static arrays nor other libraries'
 *    memory. A failed memory predicate (\valid, \valid_read, \separated, \initialized, and
 *    the RTE checks E-ACSL adds before a clause reads memory) is a violation only when every
 *    pointer E-ACSL recorded for it lies in a tracked heap block; otherwise it is untracked
 *    (memory safety is the asan and valgrind stages' job);
 *  - non-finite: a clause that converts a NaN or an infinity to a rational (the real model
 *    of the contracts has neither);
 *  - rounding: the exact failure of a clause listed below, which the header states holds
 *    only up to the rounding of the IEEE computation.
 */
#define E_ACSL_EXTERNAL_ASSERT 1
#include "e_acsl_rtl.c"

#include <math.h>
#include <stdatomic.h>

static atomic_ulong nsm_eacsl_checks, nsm_eacsl_violations, nsm_eacsl_unchecked,
    nsm_eacsl_nonfinite_count, nsm_eacsl_rounding_count;

/* Clauses whose header states they hold in the real model and, for the IEEE results, only up
   to the rounding of the computation (an exact equality of rounded values): a failure of
   their exact check is counted apart, not as a violation (docs/proofs.md). */
static const char *const nsm_eacsl_rounding[][2] = {
    { "nsm_cone_project", "valid_args/nearest" }, /* (x - p).p == 0 exactly: setvalued.h */
};

static int nsm_eacsl_is_rounding(const eacsl_assert_data_t *data)
{
    for (size_t i = 0; i < sizeof nsm_eacsl_rounding / sizeof nsm_eacsl_rounding[0]; i++)
        if (data->fct && data->name && strcmp(data->fct, nsm_eacsl_rounding[i][0]) == 0 &&
            strcmp(data->name, nsm_eacsl_rounding[i][1]) == 0)
            return 1;
    return 0;
}
static _Thread_local int nsm_eacsl_nonfinite; /* set by nsm_eacsl_mpq_set_d below */

static int nsm_eacsl_is_memory_pred(const char *txt)
{
    return txt && (strstr(txt, "\\valid") || strstr(txt, "\\separated") ||
                   strstr(txt, "\\initialized") || strstr(txt, "\\base_addr") ||
                   strstr(txt, "\\block_length") || strstr(txt, "\\offset"));
}

/* 1 if every pointer value recorded for the failed check lies in a tracked heap block. */
static int nsm_eacsl_all_tracked(eacsl_assert_data_t *data)
{
    int seen = 0;
    for (eacsl_assert_data_value_t *v = data->values; v; v = v->next) {
        uintptr_t p;
        if (v->type == E_ACSL_PTR) p = v->content.value_ptr;
        else if (v->type == E_ACSL_ARRAY) p = v->content.value_array;
        else continue;
        seen = 1;
        if (!p || !IS_ON_HEAP(p) || !heap_allocated(p, 1, p)) return 0;
    }
    return seen;
}

void eacsl_runtime_assert(int predicate, eacsl_assert_data_t *data)
{
    if (nsm_eacsl_nonfinite) {
        nsm_eacsl_nonfinite = 0;
        atomic_fetch_add(&nsm_eacsl_nonfinite_count, 1);
        return;
    }
    if (predicate && eacsl_runtime_sound_verdict) {
        atomic_fetch_add(&nsm_eacsl_checks, 1);
        return;
    }
    if (nsm_eacsl_is_memory_pred(data->pred_txt) && !nsm_eacsl_all_tracked(data)) {
        atomic_fetch_add(&nsm_eacsl_unchecked, 1);
        return;
    }
    if (nsm_eacsl_is_rounding(data)) {
        atomic_fetch_add(&nsm_eacsl_rounding_count, 1);
        return;
    }
    atomic_fetch_add(&nsm_eacsl_checks, 1);
    atomic_fetch_add(&nsm_eacsl_violations, 1);
    STDERR("%s: In function '%s'\n%s:%d: Error: %s failed%s:\n\t%s%s%s.\n", data->file,
           data->fct, data->file, data->line, data->kind,
           eacsl_runtime_sound_verdict ? "" : " (no sound verdict)",
           data->name ? data->name : "", data->name ? ":\n\t\t" : "", data->pred_txt);
    eacsl_print_values(data);
}

/* The real model has no NaN and no infinity: a clause whose evaluation converts a non-finite
   double to a rational (GMP raises SIGFPE on that) is not checkable. The instrumented library
   calls this function instead of __gmpq_set_d (scripts/eacsl.sh renames the symbol); it
   stores 0 and marks the next verdict as unchecked. */
void nsm_eacsl_mpq_set_d(eacsl_mpq_t q, double d);
void nsm_eacsl_mpq_set_d(eacsl_mpq_t q, double d)
{
    if (isfinite(d)) {
        __gmpq_set_d(q, d);
    } else {
        nsm_eacsl_nonfinite = 1;
        __gmpq_set_ui(q, 0, 1);
    }
}

extern const char *__progname;

static void nsm_eacsl_report(void)
{
    fprintf(stderr, "NSM-EACSL %s %lu %lu %lu %lu %lu\n", __progname,
            (unsigned long)nsm_eacsl_checks, (unsigned long)nsm_eacsl_violations,
            (unsigned long)nsm_eacsl_unchecked, (unsigned long)nsm_eacsl_nonfinite_count,
            (unsigned long)nsm_eacsl_rounding_count);
}

__attribute__((constructor)) static void nsm_eacsl_init(void)
{
    eacsl_memory_init(NULL, NULL, sizeof(void *));
    atexit(nsm_eacsl_report);
}
