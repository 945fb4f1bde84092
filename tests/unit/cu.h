/*
 * cu.h — the shared main() of every CUnit test program.
 *
 * A test file lists its tests in a NULL-terminated table and ends with
 * CU_MAIN("suite", table).  The program prints CUnit's report and a last
 * line "unit: P passed, F failed" that tests/run_all.sh adds up.
 */
#ifndef PMCTRACE_TESTS_CU_H
#define PMCTRACE_TESTS_CU_H

#include <CUnit/Basic.h>
#include <stdio.h>

struct cu_test {
	const char *name;
	void (*fn)(void);
};

static inline int
cu_run(const char *suite_name, const struct cu_test *tests)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	CU_pSuite suite = CU_add_suite(suite_name, NULL, NULL);
	for (const struct cu_test *t = tests; t->name; t++)
		CU_add_test(suite, t->name, t->fn);
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_tests_failed();
	unsigned run = CU_get_number_of_tests_run();
	printf("\nunit: %u passed, %u failed\n", run - failed, failed);
	CU_cleanup_registry();
	return failed ? 1 : 0;
}

#define CU_MAIN(name, table) \
	int main(void) { return cu_run(name, table); }

#endif
