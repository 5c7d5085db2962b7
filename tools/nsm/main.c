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
    "Bad input: nothing on standard output, one line naming the field and the problem on\n"
    "standard error, exit status 1 (2 for bad usage). A computation that fails on valid input\n"
    "exits with 3: with no output (e.g. unsolvable actuation) or, for an impact run that ended\n"
    "without an accepted outcome, with the complete result whose \"status\" says why.\n"
    "The problem file schema is in docs/cli.md and nsm(1).\n";

int main(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return CLI_EXIT_OK;
    }
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("nsm %s\n", NSM_VERSION);
        return CLI_EXIT_OK;
    }
    if (argc != 3 || (strcmp(argv[1], "dynamics") != 0 && strcmp(argv[1], "impact") != 0)) {
        fputs(usage, stderr);
        return CLI_EXIT_USAGE;
    }
    cli_err e;
    e.msg[0] = '\0';
    char *text = cli_read_all(argv[2], &e);
    if (text == NULL) {
        fprintf(stderr, "nsm: %s\n", e.msg);
        return CLI_EXIT_INPUT;
    }
    cJSON *problem = cli_parse(text, argv[2], &e);
    free(text);
    if (problem == NULL) {
        fprintf(stderr, "nsm: %s\n", e.msg);
        return CLI_EXIT_INPUT;
    }
    cJSON *out = NULL;
    int rc = strcmp(argv[1], "dynamics") == 0 ? cli_dynamics(problem, &out, &e)
                                              : cli_impact(problem, &out, &e);
    cJSON_Delete(problem);
    if (out == NULL) {
        fprintf(stderr, "nsm: %s\n", e.msg[0] != '\0' ? e.msg : "failed");
        return rc != CLI_EXIT_OK ? rc : CLI_EXIT_COMPUTE;
    }
    /* A complete result is printed even when the computation ended with a non-ok status
       (e.g. an impact whose bound was exceeded): its "status" field says so, and the exit
       status is then 3 with a one-line message. */
    char *s = cJSON_Print(out);
    cJSON_Delete(out);
    if (s == NULL) {
        fprintf(stderr, "nsm: out of memory while printing the result\n");
        return CLI_EXIT_COMPUTE;
    }
    puts(s);
    free(s);
    if (fflush(stdout) != 0) {
        return CLI_EXIT_COMPUTE;
    }
    if (rc != CLI_EXIT_OK) {
        fprintf(stderr, "nsm: %s\n", e.msg[0] != '\0' ? e.msg : "failed");
    }
    return rc;
}
