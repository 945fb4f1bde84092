/*
 * test_providers_vclock.c — vtimestamp's per-thread CPU clock: time
 * accrues only between a thread's switch in and out, per CPU, across
 * migrations, for threads first met mid-run, and for many threads.
 */
#include "providers/vclock.h"
#include "tests/unit/cu.h"

static void
test_accrues_on_cpu_only(void)
{
	struct vclock *vc = vclock_open();
	CU_ASSERT_PTR_NOT_NULL_FATAL(vc);
	vclock_switch(vc, 0, 42, 1000, 1);
	CU_ASSERT_EQUAL(vclock_at(vc, 0, 42, 1500), 500);
	vclock_switch(vc, 0, 42, 2000, 0);
	/* asleep: the clock stands still */
	CU_ASSERT_EQUAL(vclock_at(vc, 1, 42, 9000), 1000);
	vclock_switch(vc, 1, 42, 10000, 1);	/* woken on another CPU */
	CU_ASSERT_EQUAL(vclock_at(vc, 1, 42, 10250), 1250);
	vclock_switch(vc, 1, 42, 11000, 0);
	CU_ASSERT_EQUAL(vclock_at(vc, 0, 42, 20000), 2000);
	vclock_close(vc);
}

static void
test_other_threads_do_not_mix(void)
{
	struct vclock *vc = vclock_open();
	CU_ASSERT_PTR_NOT_NULL_FATAL(vc);
	vclock_switch(vc, 0, 7, 100, 1);
	vclock_switch(vc, 0, 7, 400, 0);
	vclock_switch(vc, 0, 8, 400, 1);
	/* 8 is on CPU 0 now; a firing of 7 there (sched:::on-cpu names the
	 * arriving thread before its switch-in record) reads 7's total */
	CU_ASSERT_EQUAL(vclock_at(vc, 0, 7, 450), 300);
	CU_ASSERT_EQUAL(vclock_at(vc, 0, 8, 450), 50);
	/* a switch out for a thread that was not seen coming in adds nothing */
	vclock_switch(vc, 1, 9, 500, 0);
	CU_ASSERT_EQUAL(vclock_at(vc, 1, 9, 600), 0);
	vclock_close(vc);
}

static void
test_running_before_tracing(void)
{
	struct vclock *vc = vclock_open();
	CU_ASSERT_PTR_NOT_NULL_FATAL(vc);
	/* no switch-in ever seen: counted from its first firing */
	CU_ASSERT_EQUAL(vclock_at(vc, 3, 5, 1000), 0);
	CU_ASSERT_EQUAL(vclock_at(vc, 3, 5, 1700), 700);
	vclock_switch(vc, 3, 5, 2000, 0);
	CU_ASSERT_EQUAL(vclock_at(vc, 0, 5, 5000), 1000);
	/* idle and out-of-range CPUs read zero without harm */
	CU_ASSERT_EQUAL(vclock_at(vc, 0, 0, 5000), 0);
	CU_ASSERT_EQUAL(vclock_at(vc, 1u << 20, 5, 5000), 0);
	vclock_switch(vc, 1u << 20, 5, 5000, 1);
	vclock_close(vc);
}

static void
test_many_threads(void)
{
	struct vclock *vc = vclock_open();
	CU_ASSERT_PTR_NOT_NULL_FATAL(vc);
	for (int32_t tid = 1; tid <= 100000; tid++) {
		uint64_t t0 = (uint64_t)tid * 10;
		vclock_switch(vc, 0, tid, t0, 1);
		vclock_switch(vc, 0, tid, t0 + (uint64_t)(tid % 7) + 1, 0);
	}
	int bad = 0;
	for (int32_t tid = 1; tid <= 100000; tid++)
		bad += vclock_at(vc, 1, tid, 1ull << 40) != (uint64_t)(tid % 7) + 1;
	CU_ASSERT_EQUAL(bad, 0);
	vclock_close(vc);
}

static const struct cu_test tests[] = {
	{ "accrues_on_cpu_only", test_accrues_on_cpu_only },
	{ "other_threads_do_not_mix", test_other_threads_do_not_mix },
	{ "running_before_tracing", test_running_before_tracing },
	{ "many_threads", test_many_threads },
	{ NULL, NULL },
};

CU_MAIN("vclock", tests)
