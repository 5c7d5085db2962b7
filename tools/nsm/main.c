/* nsm — run nsmech on a JSON problem file and print the result as JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

#ifndef NSM_VERSION
#define NSM_VERSION "0.1.0"
#endif

static const char usage[] =
    "usage: nsm dynamics FILE.json   constrained dynamics, actuation and control (projection)\n"
    "       nsm impact FILE.json     multiple frictional impacts (outcome, bound, samples)\n"
    "       nsm --help | --version\n"
    "FILE may be '-' for standard input. The result is one JSON object on standard output.\n"
    "Exit status 0: success. 1: bad input, nothing on standard output and one line naming the\n"
    "field and the problem on standard error. 2: bad usage, one line then this text on standard\n"
    "error. 3: a computation that failed on valid input (e.g. unsolvable actuation), one line\n"
    "on standard error; standard output stays empty, except for a single impact run that\n"
    "ended with a non-ok status: its complete result, whose \"status\" says why, is printed.\n"
    "The problem file schema is in docs/cli.md and nsm(1).\n";

/* Bad usage: one line saying what is wrong, then the usage text, on standard error. */
static int bad_usage(const char *msg)
{
    fprintf(stderr, "nsm: %s\n", msg);
    fputs(usage, stderr);
    return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        return bad_usage("missing command");
    }
    const char *cmd = argv[1];
    char msg[160], q[96];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "--version") == 0) {
        if (argc != 2) {
            snprintf(msg, sizeof msg, "'%s' takes no argument", cmd);
            return bad_usage(msg);
        }
        if (strcmp(cmd, "--version") == 0) {
            printf("nsm %s\n", NSM_VERSION);
        } else {
            fputs(usage, stdout);
        }
        return CLI_EXIT_OK;
    }
    if (strcmp(cmd, "dynamics") != 0 && strcmp(cmd, "impact") != 0) {
        snprintf(msg, sizeof msg, "unknown %s '%s'", cmd[0] == '-' ? "option" : "command",
                 cli_quote(cmd, q, sizeof q));
        return bad_usage(msg);
    }
    if (argc != 3) {
        snprintf(msg, sizeof msg, "'%s' %s", cmd,
                 argc < 3 ? "needs a FILE argument" : "takes one FILE argument");
        return bad_usage(msg);
    }
    cli_err e;
    e.msg[0] = '\0';
    size_t len = 0;
    char *text = cli_read_all(argv[2], &len, &e);
    if (text == NULL) {
        fprintf(stderr, "nsm: %s\n", e.msg);
        return CLI_EXIT_INPUT;
    }
    char *s = NULL;
    int rc = cli_run(cmd, text, len, argv[2], NULL, &s, &e);
    free(text);
    if (s == NULL) {
        fprintf(stderr, "nsm: %s\n", e.msg);
        return rc;
    }
    int wr = puts(s);
    free(s);
    if (wr == EOF || fflush(stdout) != 0) {
        fprintf(stderr, "nsm: cannot write the result on standard output\n");
        return CLI_EXIT_COMPUTE;
    }
    if (rc != CLI_EXIT_OK) {
        fprintf(stderr, "nsm: %s\n", e.msg);
    }
    return rc;
}
