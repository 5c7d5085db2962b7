/* A progress line on standard error for long runs, only when standard error is a terminal. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

/* Minimum time between two updates of the line, seconds (about ten updates per second). */
#define PROGRESS_PERIOD 0.1

static double now_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
        return 0.0;
    }
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void show(cli_progress *p, size_t done)
{
    /* rounded down: 100% only when everything is done */
    unsigned pct = done >= p->total ? 100u : (unsigned)(100.0 * (double)done / (double)p->total);
    fprintf(stderr, "\rnsm: %zu/%zu %s (%u%%)", done, p->total, p->what, pct);
    fflush(stderr);
    p->shown = done;
}

void cli_progress_begin(cli_progress *p, const char *what, size_t total)
{
    p->on = isatty(STDERR_FILENO) == 1;
    p->total = total;
    p->shown = 0;
    p->what = what;
    p->last = p->on ? now_seconds() : 0.0;
    if (p->on) {
        show(p, 0);
    }
}

void cli_progress_step(cli_progress *p, size_t done)
{
    if (!p->on) {
        return;
    }
    double t = now_seconds();
    if (t - p->last < PROGRESS_PERIOD) {
        return;
    }
    p->last = t;
    show(p, done);
}

void cli_progress_end(cli_progress *p, size_t done)
{
    if (!p->on) {
        return;
    }
    if (done != p->shown) {
        show(p, done);
    }
    fputc('\n', stderr);
    fflush(stderr);
    p->on = 0;
}
