#include <stdio.h>
#include <stdlib.h>
#include <CUnit/Basic.h>
#include "harness.h"

/* The shard of the program's tests to register, from NSM_TEST_SHARD="i/k" (0 <= i < k): the
   tests whose index, counted over the program's suites in registration order, is i modulo k.
   Unset: every test (k = 1). scripts/run-tests.sh runs a long program as k shards side by
   side; the shards' NSM-TESTS lines add up to the whole program's. */
static void test_shard(unsigned *i, unsigned *k)
{
    *i = 0;
    *k = 1;
    const char *e = getenv("NSM_TEST_SHARD");
    unsigned a = 0, b = 0;
    if (e != NULL && sscanf(e, "%u/%u", &a, &b) == 2 && b > 0 && a < b) {
        *i = a;
        *k = b;
    }
}

int nsm_add_suite(const char *name, CU_TestInfo *tests)
{
    static unsigned index = 0; /* tests seen so far, over every suite of the program */
    unsigned shard = 0, shards = 1;
    test_shard(&shard, &shards);
    CU_pSuite s = CU_add_suite(name, NULL, NULL);
    if (s == NULL) {
        return -1;
    }
    for (CU_TestInfo *t = tests; t->pName != NULL; t++, index++) {
        if (index % shards != shard) {
            continue;
        }
        if (CU_add_test(s, t->pName, t->pTestFunc) == NULL) {
            return -1;
        }
    }
    return 0;
}

int nsm_test_main(const char *name, nsm_register_fn reg)
{
    if (CU_initialize_registry() != CUE_SUCCESS) {
        fprintf(stderr, "%s: cannot initialise CUnit\n", name);
        return 2;
    }
    if (reg() != 0) {
        fprintf(stderr, "%s: cannot register tests: %s\n", name, CU_get_error_msg());
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned run = CU_get_number_of_tests_run();
    unsigned failed = CU_get_number_of_tests_failed();
    unsigned afailed = CU_get_number_of_failures();
    CU_cleanup_registry();
    printf("NSM-TESTS %s %u %u\n", name, run, failed);
    fflush(stdout);
    return (run > 0 && failed == 0 && afailed == 0) ? 0 : 1;
}
