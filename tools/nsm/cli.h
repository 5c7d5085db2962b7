/*
 * The nsm command-line program: shared declarations. The program (not the library) may
 * allocate. Every error is reported as one line on standard error (a usage error is followed
 * by the usage text). Results are printed only once they are complete: standard output stays
 * empty on error, except for a single impact run that ended with a non-ok status, whose
 * complete result is printed before the error line (docs/cli.md, "Exit status and output").
 */
#ifndef NSM_CLI_H
#define NSM_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

/** "Any size" for the matrix and vector readers. */
#define CLI_ANY SIZE_MAX

/** Exit codes of the program. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_INPUT = 1, CLI_EXIT_USAGE = 2, CLI_EXIT_COMPUTE = 3 };

/** Error text of the current command: one line, no trailing newline. */
typedef struct cli_err { char msg[512]; } cli_err;

void cli_fail(cli_err *e, const char *fmt, ...);

/**
 * Reads a whole file ("-" = standard input) into a buffer (caller frees) of *len bytes plus a
 * terminating NUL (the text itself may hold NUL bytes: cli_run rejects them).
 */
char *cli_read_all(const char *path, size_t *len, cli_err *e);

/**
 * Parses JSON text into an object. On error names the byte offset (malformed text) or the
 * nesting limit (valid text nested deeper than cJSON's CJSON_NESTING_LIMIT); rejects a key
 * given twice in any object of the document.
 */
cJSON *cli_parse(const char *text, const char *path, cli_err *e);

/**
 * Copies s into buf (size len >= 12) for quoting in a one-line message: control characters
 * (C0, DEL and, in UTF-8, C1) become \xNN, other text (UTF-8 such as "μ") is kept; a long text
 * is cut between characters and ends in "...". Returns buf.
 */
const char *cli_quote(const char *s, char *buf, size_t len);

/**
 * A matrix field as an array of rows. *rows, *cols are the expected sizes or CLI_ANY (then set
 * from the data). An empty array [] is a 0-row matrix (cols then stays as expected). Returns a
 * malloc'd row-major array (NULL with *rows = 0 for an empty matrix) or sets e and returns
 * NULL with e->msg non-empty. Missing optional fields: NULL, e untouched, *present = 0.
 */
double *cli_get_matrix(const cJSON *obj, const char *name, int required, size_t *rows,
                       size_t *cols, int *present, cli_err *e);

/** A vector field (array of numbers); *len expected size or CLI_ANY. */
double *cli_get_vector(const cJSON *obj, const char *name, int required, size_t *len,
                       int *present, cli_err *e);

/** A number field; returns 1 when present (value in *x), 0 when absent, -1 on error. */
int cli_get_number(const cJSON *obj, const char *name, double *x, cli_err *e);

/** Rejects fields of obj not in the NULL-terminated list known (a typo is an error). */
int cli_check_fields(const cJSON *obj, const char *const *known, cli_err *e);

cJSON *cli_matrix_json(size_t rows, size_t cols, const double *x);
cJSON *cli_vector_json(size_t n, const double *x);

/** The matrices of one dynamics state that the residual checks read (R, Mdot may be NULL). */
typedef struct cli_dyn_pieces {
    const double *P, *Q, *R, *S, *Lambda, *Pdot, *M, *Mdot, *Cbar, *Mbar;
    double mu;
} cli_dyn_pieces;

/** Adds the identity residuals (max-abs entries, module check) to the object resid. */
int cli_residuals(size_t n, const cli_dyn_pieces *pc, double *work, size_t lwork, cJSON *resid);

/**
 * Progress of a long loop on standard error, shown only when standard error is a terminal:
 * one line rewritten in place (carriage return), at most about ten updates per second, ended
 * with a newline by cli_progress_end. Nothing is written when standard error is not a
 * terminal.
 */
typedef struct cli_progress {
    int on;             /* standard error is a terminal and the line is open */
    size_t total;
    size_t shown;       /* the count on the line */
    double last;        /* time of the last update, seconds */
    const char *what;   /* what is counted, e.g. "samples" */
} cli_progress;

void cli_progress_begin(cli_progress *p, const char *what, size_t total);
/** done of total items are finished. */
void cli_progress_step(cli_progress *p, size_t done);
/** Writes the final count done (unless already on the line) and ends the line. */
void cli_progress_end(cli_progress *p, size_t done);

/**
 * Limits on the work of one run, for the fuzz harness (tests/fuzz/fuzz_cli.c); the program
 * passes NULL (no limits: the library's defaults and the file's sample count). A zero field
 * leaves that quantity alone.
 */
typedef struct cli_budget {
    size_t max_samples;           /* "samples" above this run this many samples */
    size_t impact_steps;          /* cap on nsm_impact_opts.steps (file or default) */
    size_t impact_fw_iters;       /* cap on nsm_impact_opts.fw_iters (file or default) */
    size_t impact_fallback_steps; /* nsm_impact_opts.fallback_steps */
} cli_budget;

/** Commands: return an exit code; on success *out is the result object. */
int cli_dynamics(const cJSON *problem, cJSON **out, cli_err *e);
int cli_impact(const cJSON *problem, const cli_budget *budget, cJSON **out, cli_err *e);

/**
 * The program after reading its file, in memory: cmd ("dynamics" or "impact") on the text of
 * len bytes (text[len] must be NUL; a NUL byte inside is an input error), path naming it in
 * messages. Returns the exit code; *result receives the printed JSON result (caller frees) when
 * there is one to print (always on CLI_EXIT_OK, and for a single impact run with a non-ok
 * status), else NULL. e->msg holds the one-line message whenever the exit code is not 0.
 * budget: NULL for the program (see cli_budget).
 */
int cli_run(const char *cmd, const char *text, size_t len, const char *path,
            const cli_budget *budget, char **result, cli_err *e);

#endif
