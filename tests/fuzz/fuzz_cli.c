/*
 * libFuzzer harness: the JSON front end of the nsm program (tools/nsm), both commands.
 *
 * Each input is the text of a problem file. It goes through cli_run, the same path `nsm
 * dynamics FILE` and `nsm impact FILE` take after reading the file (NUL check, cJSON parse,
 * duplicate keys, field readers and validation, library calls, residual checks, printing of
 * the result), once per command: no process is spawned and nothing is written to disk.
 *
 * Budget, so that one input runs in milliseconds: the inputs are at most -max_len bytes
 * (4096, passed by the Makefile), which bounds every matrix of the problem, and cli_run gets
 * a cli_budget: "samples" above 2 run 2 samples, and the impact integrator runs with steps = 8,
 * fw_iters = 32, fallback_steps = 256 (all inside the documented domains; the program itself
 * uses the library defaults 2000, 5000 and 10^6 and every sample). Measured under the
 * sanitizers: about 40 ms for the 9-coordinate, 5-contact examples/problems/impact_ball_stack
 * (the slowest seed), under 1 ms for the others.
 *
 * Besides the sanitizers (ASan, UBSan, any report aborts), the harness asserts the program's
 * documented contract (docs/cli.md, "Exit status and output"), abort() on a violation:
 *  - the exit code is 0 (success), 1 (bad input) or 3 (computation failed); 2 is usage only;
 *  - 0: a result is printed and no message is set;
 *  - 1: nothing is printed, the message is set;
 *  - 3: the message is set; something is printed only by a single impact run (the result with
 *    its non-ok "status");
 *  - the message is one line: no control character (C0 or DEL) in it;
 *  - a printed result is a JSON object whose "status" is "ok" exactly when the exit code is 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

#define CHECK(c)                                                                              \
    do {                                                                                      \
        if (!(c)) {                                                                           \
            fprintf(stderr, "fuzz_cli: %s: assertion failed: %s (line %d)\n", cmd, #c,         \
                    __LINE__);                                                                \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

static void run_one(const char *cmd, const char *text, size_t len)
{
    static const cli_budget budget = {2, 8, 32, 256};
    cli_err e;
    e.msg[0] = '\0';
    char *result = NULL;
    int rc = cli_run(cmd, text, len, "fuzz.json", &budget, &result, &e);
    CHECK(rc == CLI_EXIT_OK || rc == CLI_EXIT_INPUT || rc == CLI_EXIT_COMPUTE);
    CHECK(memchr(e.msg, '\0', sizeof e.msg) != NULL);
    for (const unsigned char *p = (const unsigned char *)e.msg; *p != '\0'; p++) {
        CHECK(*p >= 0x20 && *p != 0x7f);
    }
    if (rc == CLI_EXIT_OK) {
        CHECK(result != NULL);
        CHECK(e.msg[0] == '\0');
    } else {
        CHECK(e.msg[0] != '\0');
    }
    if (rc == CLI_EXIT_INPUT) {
        CHECK(result == NULL);
    }
    if (result != NULL) {
        CHECK(rc == CLI_EXIT_OK || strcmp(cmd, "impact") == 0);
        cJSON *r = cJSON_Parse(result);
        CHECK(r != NULL && cJSON_IsObject(r));
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(r, "status");
        CHECK(cJSON_IsString(st));
        CHECK((strcmp(st->valuestring, "ok") == 0) == (rc == CLI_EXIT_OK));
        cJSON_Delete(r);
        free(result);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text == NULL) {
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    run_one("dynamics", text, size);
    run_one("impact", text, size);
    free(text);
    return 0;
}
