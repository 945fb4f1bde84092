/*
 * test_pmu_plan.c — fitting counters into register budgets from hwdb.
 *
 * Budgets come from the hwdb entries themselves (pmu_budget_from_hwdb), so
 * the figures checked here are the ones hwdb/budgets.txt cites: Icelake 8
 * GP + 4 fixed, Skylake 4 GP per thread with SMT (8 without) + 3 fixed,
 * Zen 3 6 GP and no fixed counters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu_impl.h"
#include "tests/unit/cu.h"

static struct pmu_budget
budget(const char *id, int smt, int watchdog)
{
	struct pmu_budget b;
	const struct hwdb_budget *hb = pmu_hwdb_find(id);
	CU_ASSERT_PTR_NOT_NULL(hb);
	memset(&b, 0, sizeof(b));
	if (hb)
		pmu_budget_from_hwdb(hb, smt, &b);
	b.pb_watchdog = watchdog;
	return b;
}

/* A hardware counter: raw config (PERF_TYPE_RAW) or a generic one. */
static struct pmu_counter
hw(const char *name, uint32_t type, uint64_t config, int fixed_capable)
{
	struct pmu_counter c;
	memset(&c, 0, sizeof(c));
	snprintf(c.name, sizeof(c.name), "%s", name);
	c.attr.type = type;
	c.attr.config = config;
	c.is_hardware = 1;
	c.fixed_capable = fixed_capable;
	return c;
}

static struct pmu_counter
sw(const char *name)
{
	struct pmu_counter c = hw(name, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0);
	c.is_hardware = 0;
	return c;
}

/* n general-purpose-only events (no fixed counter counts 0x..2e). */
static void
gp_events(struct pmu_counter *c, int n)
{
	for (int i = 0; i < n; i++) {
		char name[32];
		snprintf(name, sizeof(name), "ev%d", i);
		c[i] = hw(name, PERF_TYPE_RAW, 0x2e | (uint64_t)(i + 1) << 8, 0);
	}
}

static void
test_budgets_from_hwdb(void)
{
	struct pmu_budget b = budget("icl", 1, 0);
	CU_ASSERT_EQUAL(b.pb_gp, 8);
	CU_ASSERT_EQUAL(b.pb_fixed, 4);
	CU_ASSERT_EQUAL(b.pb_fixed_cfg[3][0], 0x0400);	/* TOPDOWN.SLOTS */
	CU_ASSERT_STRING_EQUAL(b.pb_fixed_generic[1], "cycles");
	CU_ASSERT_PTR_NOT_NULL(strstr(b.pb_gp_src, "hwdb/budgets.txt:"));
	b = budget("skl", 1, 0);
	CU_ASSERT_EQUAL(b.pb_gp, 4);			/* 8 split between two threads */
	b = budget("skl", 0, 0);
	CU_ASSERT_EQUAL(b.pb_gp, 8);
	b = budget("zen3", 1, 0);
	CU_ASSERT_EQUAL(b.pb_gp, 6);
	CU_ASSERT_EQUAL(b.pb_fixed, 0);
	b = budget("adl_e", 0, 0);
	CU_ASSERT_EQUAL(b.pb_gp, 6);
	CU_ASSERT_EQUAL(b.pb_fixed, 3);
	b = budget("n1", 0, 0);
	CU_ASSERT_EQUAL(b.pb_gp, 6);
	CU_ASSERT_EQUAL(b.pb_fixed_cfg[0][0], 0x11);	/* CPU_CYCLES on PMCCNTR */
}

static void
test_fits(void)
{
	struct pmu_budget b = budget("icl", 1, 0);
	struct pmu_counter c[8];
	struct pmu_plan pl;
	char err[512];
	gp_events(c, 8);
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 8, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pl.ngroups, 1);
	CU_ASSERT_EQUAL(pl.groups[0].first, 0);
	CU_ASSERT_EQUAL(pl.groups[0].count, 8);
	CU_ASSERT_EQUAL(pl.multiplexed, 0);
}

static void
test_does_not_fit(void)
{
	struct pmu_budget b = budget("icl", 1, 0);
	struct pmu_counter c[9];
	struct pmu_plan pl;
	char err[512];
	gp_events(c, 9);
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 9, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_EQUAL(pl.ngroups, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "9 hardware counters requested (ev0, ev1,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "Intel Icelake counts 8 general-purpose + 4 fixed per CPU"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "remove 1 or use -x pmcmultiplex"));
}

/* 8 GP events plus instructions, cycles, ref-cycles and slots: all fit. */
static void
test_fixed_events_are_free(void)
{
	struct pmu_budget b = budget("icl", 1, 0);
	struct pmu_counter c[12];
	struct pmu_plan pl;
	char err[512];
	gp_events(c, 8);
	c[8] = hw("instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1);
	c[9] = hw("cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1);
	c[10] = hw("ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, 2);
	c[11] = hw("r0400", PERF_TYPE_RAW, 0x0400, 2);
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 12, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pl.ngroups, 1);
	CU_ASSERT_EQUAL(pl.groups[0].count, 12);
}

/* A second instructions counter finds fixed counter 0 taken: it needs a GP one. */
static void
test_fixed_taken_falls_back_to_gp(void)
{
	struct pmu_budget b = budget("icl", 1, 0);
	struct pmu_counter c[10];
	struct pmu_plan pl;
	char err[512];
	gp_events(c, 8);
	c[8] = hw("instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1);
	c[9] = hw("instructionretired", PERF_TYPE_RAW, 0x00c0, 1);
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 10, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "10 hardware counters requested"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "remove 1"));
	/* with only 7 GP events the second one fits on a GP counter */
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c + 1, 9, 0, &pl, err, sizeof(err)), 0);
}

/* Two events that exist only on fixed counter 2 cannot be counted at once. */
static void
test_fixed_only_conflict(void)
{
	struct pmu_budget b = budget("skl", 1, 0);
	struct pmu_counter c[2];
	struct pmu_plan pl;
	char err[512];
	c[0] = hw("ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, 2);
	c[1] = hw("unhaltedreferencecyclesfixed", PERF_TYPE_RAW, 0x0300, 2);
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 2, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unhaltedreferencecyclesfixed can only be counted on fixed counter 2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "which ref-cycles holds"));
	/* multiplexing puts them in turns */
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 2, PMU_PLAN_MULTIPLEX, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pl.ngroups, 2);
	CU_ASSERT_EQUAL(pl.multiplexed, 1);
}

/* Intel: the watchdog's cycles event holds fixed counter 1. */
static void
test_nmi_watchdog_intel(void)
{
	struct pmu_budget b = budget("icl", 1, 1);
	struct pmu_counter c[9];
	struct pmu_plan pl;
	char err[512];
	gp_events(c, 8);
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 8, 0, &pl, err, sizeof(err)), 0);
	c[8] = hw("cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1);
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 9, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "1 fixed taken by the NMI watchdog"));
	/* without the watchdog the same nine fit */
	b.pb_watchdog = 0;
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 9, 0, &pl, err, sizeof(err)), 0);
}

/* AMD has no fixed counters: the watchdog costs a general-purpose one. */
static void
test_nmi_watchdog_amd(void)
{
	struct pmu_budget b = budget("zen3", 1, 1);
	struct pmu_counter c[6];
	struct pmu_plan pl;
	char err[512];
	gp_events(c, 6);
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 5, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 6, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "AMD Zen 3 counts 6 general-purpose + 0 fixed per CPU"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "1 general-purpose taken by the NMI watchdog"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "remove 1"));
}

/* Too many for Skylake with SMT: only with -x pmcmultiplex, in turns of 4. */
static void
test_multiplex_opt_in(void)
{
	struct pmu_budget b = budget("skl", 1, 0);
	struct pmu_counter c[10];
	struct pmu_plan pl;
	char err[512];
	gp_events(c, 10);
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 10, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "Intel Skylake counts 4 general-purpose + 3 fixed per CPU with SMT on"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "remove 6"));
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 10, PMU_PLAN_MULTIPLEX, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pl.multiplexed, 1);
	CU_ASSERT_EQUAL(pl.ngroups, 3);
	CU_ASSERT_EQUAL(pl.groups[0].first, 0);
	CU_ASSERT_EQUAL(pl.groups[0].count, 4);
	CU_ASSERT_EQUAL(pl.groups[1].first, 4);
	CU_ASSERT_EQUAL(pl.groups[1].count, 4);
	CU_ASSERT_EQUAL(pl.groups[2].first, 8);
	CU_ASSERT_EQUAL(pl.groups[2].count, 2);
	/* multiplexing is not used when everything fits */
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 4, PMU_PLAN_MULTIPLEX, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pl.multiplexed, 0);
	CU_ASSERT_EQUAL(pl.ngroups, 1);
}

/* A fixed-only event whose counter the watchdog holds never fits. */
static void
test_multiplex_cannot_help(void)
{
	struct pmu_budget b = budget("icl", 1, 1);
	struct pmu_counter c[1];
	struct pmu_plan pl;
	char err[512];
	c[0] = hw("unhaltedcorecyclesfixed", PERF_TYPE_RAW, 0x003c, 2);
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 1, PMU_PLAN_MULTIPLEX, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "which the NMI watchdog"));
}

static void
test_software_is_free(void)
{
	struct pmu_budget b = budget("skl", 1, 1);
	struct pmu_counter c[24];
	struct pmu_plan pl;
	char err[512];
	gp_events(c, 4);
	for (int i = 4; i < 24; i++)
		c[i] = sw("cpu-clock");
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 24, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pl.ngroups, 1);
	CU_ASSERT_EQUAL(pl.groups[0].count, 24);
}

/* A long list of names is cut with one ", ..." and the message stays whole. */
static void
test_long_name_list(void)
{
	struct pmu_budget b = budget("zen3", 1, 0);
	struct pmu_counter c[30];
	struct pmu_plan pl;
	char err[512];
	for (int i = 0; i < 30; i++) {
		c[i] = hw("x", PERF_TYPE_RAW, 0xc0 + (uint64_t)i, 0);
		snprintf(c[i].name, sizeof(c[i].name), "a_rather_long_counter_name_%02d", i);
	}
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 30, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_EQUAL(strncmp(err, "30 hardware counters requested (a_rather_long_counter_name_00, ", 63), 0);
	const char *dots = strstr(err, ", ...");
	CU_ASSERT_PTR_NOT_NULL(dots);
	CU_ASSERT_PTR_NULL(dots ? strstr(dots + 1, ", ...") : NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "remove 24 or use -x pmcmultiplex"));
	/* multiplexed: five groups of six */
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, c, 30, PMU_PLAN_MULTIPLEX, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pl.ngroups, 5);
}

static void
test_bad_arguments(void)
{
	struct pmu_budget b = budget("skl", 1, 0);
	struct pmu_plan pl;
	char err[64];
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, NULL, 3, 0, &pl, err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, NULL, -1, 0, &pl, err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(pmu_plan_budget(&b, NULL, 0, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pl.ngroups, 0);
	CU_ASSERT_EQUAL(pmu_plan(NULL, NULL, 0, 0, &pl, err, sizeof(err)), -EINVAL);
}

/*
 * The real context on this machine: a hardware counter either plans (a PMU
 * is there) or fails with the no-PMU statement; software always plans.
 */
static void
test_plan_on_this_machine(void)
{
	int e;
	struct pmu_ctx *p = pmu_open(NULL, NULL, &e);
	struct pmu_counter c[2];
	struct pmu_plan pl;
	char err[1024];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "task-clock", &c[0], err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu_plan(p, c, 1, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "cycles", &c[1], err, sizeof(err)), 0);
	int rc = pmu_plan(p, c, 2, 0, &pl, err, sizeof(err));
	if (pmu_hw_available(p)) {
		CU_ASSERT_EQUAL(rc, 0);
	} else {
		CU_ASSERT_EQUAL(rc, -ENODEV);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "cycles needs a hardware PMU"));
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "software counters work: cpu-clock, task-clock, page-faults, context-switches"));
	}
	pmu_close(p);
}

/* Simulated models plan against their hwdb budget even without a PMU. */
static void
test_plan_forced_model(void)
{
	int e;
	struct pmu_counter c[7];
	struct pmu_plan pl;
	char err[1024];
	setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen3", 1);
	struct pmu_ctx *p = pmu_open(NULL, NULL, &e);
	unsetenv("LIBPFM_FORCE_PMU");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->pc_budget.pb_name, "AMD Zen 3");
	static const char *const names[] = {
		"RETIRED_INSTRUCTIONS", "RETIRED_OPS", "RETIRED_BRANCH_INSTRUCTIONS",
		"RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", "CYCLES_NOT_IN_HALT",
		"RETIRED_TAKEN_BRANCH_INSTRUCTIONS", "RETIRED_NEAR_RETURNS",
	};
	for (int i = 0; i < 7; i++)
		CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, names[i], &c[i], err, sizeof(err)), 0);
	int wd = p->pc_budget.pb_watchdog;
	CU_ASSERT_EQUAL(pmu_plan(p, c, 6 - wd, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu_plan(p, c, 7 - wd, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "AMD Zen 3 counts 6 general-purpose + 0 fixed per CPU"));
	CU_ASSERT_EQUAL(pmu_plan(p, c, 7, PMU_PLAN_MULTIPLEX, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pl.ngroups, 2);
	pmu_close(p);
}

/* ORDER: the host test runs before any forced one (see pmu_pick_pfm_core). */
static const struct cu_test tests[] = {
	{ "plan_on_this_machine", test_plan_on_this_machine },
	{ "budgets_from_hwdb", test_budgets_from_hwdb },
	{ "fits", test_fits },
	{ "does_not_fit", test_does_not_fit },
	{ "fixed_events_are_free", test_fixed_events_are_free },
	{ "fixed_taken_falls_back_to_gp", test_fixed_taken_falls_back_to_gp },
	{ "fixed_only_conflict", test_fixed_only_conflict },
	{ "nmi_watchdog_intel", test_nmi_watchdog_intel },
	{ "nmi_watchdog_amd", test_nmi_watchdog_amd },
	{ "multiplex_opt_in", test_multiplex_opt_in },
	{ "multiplex_cannot_help", test_multiplex_cannot_help },
	{ "software_is_free", test_software_is_free },
	{ "long_name_list", test_long_name_list },
	{ "bad_arguments", test_bad_arguments },
	{ "plan_forced_model", test_plan_forced_model },
	{ NULL, NULL }
};

CU_MAIN("pmu_plan", tests)
