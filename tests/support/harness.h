/* CUnit harness shared by every test program: one main per tests/test_<module>.c. */
#ifndef NSM_TEST_HARNESS_H
#define NSM_TEST_HARNESS_H

#include <CUnit/CUnit.h>

/** Registers a program's suites; returns 0 on success. */
typedef int (*nsm_register_fn)(void);

/**
 * Runs the registered suites in CUnit's basic mode (verbose), prints CUnit's summary and the
 * line 'NSM-TESTS <name> <tests run> <tests failed>' read by scripts/run-tests.sh, and
 * returns the process exit code (0 only when every test passed and at least one ran).
 */
int nsm_test_main(const char *name, nsm_register_fn reg);

/** Adds a suite with the given tests (NULL-terminated name/function pairs via CU_TestInfo). */
int nsm_add_suite(const char *name, CU_TestInfo *tests);

#endif
