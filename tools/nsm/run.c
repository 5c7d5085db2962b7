/* nsm after reading its file: text → parsed problem → command → printed result, in memory. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cli_run(const char *cmd, const char *text, size_t len, const char *path,
            const cli_budget *budget, char **result, cli_err *e)
{
    *result = NULL;
    if (memchr(text, '\0', len) != NULL) {
        cli_fail(e, "%s: contains a NUL byte, not JSON text", path);
        return CLI_EXIT_INPUT;
    }
    cJSON *problem = cli_parse(text, path, e);
    if (problem == NULL) {
        return CLI_EXIT_INPUT;
    }
    cJSON *out = NULL;
    int rc = strcmp(cmd, "dynamics") == 0 ? cli_dynamics(problem, &out, e)
                                          : cli_impact(problem, budget, &out, e);
    cJSON_Delete(problem);
    if (out == NULL) {
        if (e->msg[0] == '\0') {
            cli_fail(e, "failed");
        }
        return rc != CLI_EXIT_OK ? rc : CLI_EXIT_COMPUTE;
    }
    /* A complete result is printed even when the computation ended with a non-ok status
       (e.g. an impact whose bound was exceeded): its "status" field says so, and the exit
       status is then 3 with a one-line message. */
    char *s = cJSON_Print(out);
    cJSON_Delete(out);
    if (s == NULL) {
        cli_fail(e, "out of memory while printing the result");
        return CLI_EXIT_COMPUTE;
    }
    if (rc != CLI_EXIT_OK && e->msg[0] == '\0') {
        cli_fail(e, "failed");
    }
    *result = s;
    return rc;
}
