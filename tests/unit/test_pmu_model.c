/*
 * test_pmu_model.c — planning for a named machine (-x pmumodel): models
 * hwdb and libpfm4 know, their budgets with and without SMT, the hybrid's
 * two core types, counter constraints, and the register placement that
 * -x pmcplan prints.  Figures are hwdb/budgets.txt's: Skylake 4 GP per
 * thread with SMT (8 without) + 3 fixed, Ice Lake 8 + 4, Alder/Raptor Lake
 * P 8 + 4 and E 6 + 3, Zen 4 6 + 0, Neoverse N1 6 + the cycle counter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu_impl.h"
#include "tests/unit/cu.h"

static struct pmu_ctx *
model(const char *name, int smt)
{
	struct pmu_target t = { name, smt };
	int err = 1;
	struct pmu_ctx *p = pmu_open_target(&t, NULL, NULL, &err);
	CU_ASSERT_EQUAL(err, 0);
	return p;
}

/* Resolve names[0..n) into c; fatal when one does not resolve. */
static void
resolve_all(struct pmu_ctx *p, const char *const *names, int n, struct pmu_counter *c)
{
	char err[512];
	for (int i = 0; i < n; i++) {
		int rc = pmu_resolve(p, names[i], &c[i], err, sizeof(err));
		if (rc)
			fprintf(stderr, "%s: %s\n", names[i], err);
		CU_ASSERT_EQUAL_FATAL(rc, 0);
	}
}

static void
test_unknown_model(void)
{
	struct pmu_target t = { "no_such_cpu", -1 };
	int err = 0;
	CU_ASSERT_PTR_NULL(pmu_open_target(&t, NULL, NULL, &err));
	CU_ASSERT_EQUAL(err, -EINVAL);
	t.model = "skl x";
	CU_ASSERT_PTR_NULL(pmu_open_target(&t, NULL, NULL, &err));
	CU_ASSERT_EQUAL(err, -EINVAL);
}

/* Skylake: 8 programmable counters split 4+4 between hyper-threads. */
static void
test_skl_smt(void)
{
	static const char *const names[] = {
		"BR_MISP_RETIRED.ALL_BRANCHES", "INST_RETIRED.ANY", "cycles",
		"UOPS_ISSUED.ANY", "r412e", "r4f2e", "branchinstructions",
	};
	struct pmu_counter c[7];
	struct pmu_plan pl;
	char err[512];
	struct pmu_ctx *p = model("skl", -1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_TRUE(pmu_simulated(p));
	CU_ASSERT_EQUAL(p->pc_budget.pb_gp, 4);
	CU_ASSERT_EQUAL(p->pc_budget.pb_fixed, 3);
	CU_ASSERT_EQUAL(p->pc_budget.pb_watchdog, 0);	/* nothing of the host's */
	resolve_all(p, names, 7, c);
	CU_ASSERT_EQUAL(c[1].fixed_capable, 2);
	/* two fixed, four general-purpose: fits; a fifth GP one does not */
	CU_ASSERT_EQUAL(pmu_plan(p, c, 6, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu_plan(p, c, 7, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "Intel Skylake counts 4 general-purpose + 3 fixed "
	    "per CPU with SMT on; remove 1"));
	pmu_close(p);
	p = model("skl", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->pc_budget.pb_gp, 8);
	resolve_all(p, names, 7, c);
	CU_ASSERT_EQUAL(pmu_plan(p, c, 7, 0, &pl, err, sizeof(err)), 0);
	pmu_close(p);
}

/* Ice Lake: 8 general-purpose whatever SMT, 4 fixed, PMC0-3-only loads. */
static void
test_icl(void)
{
	static const char *const names[] = {
		"INST_RETIRED.ANY", "cycles", "ref-cycles", "TOPDOWN.SLOTS",
		"MEM_LOAD_RETIRED.L1_MISS", "MEM_LOAD_RETIRED.L2_MISS", "MEM_LOAD_RETIRED.L3_MISS",
		"BR_MISP_RETIRED.ALL_BRANCHES", "UOPS_ISSUED.ANY", "r00c4", "r412e", "r4f2e",
		"MEM_LOAD_RETIRED.L1_HIT", "MEM_LOAD_RETIRED.L2_HIT",
	};
	struct pmu_counter c[14];
	char where[14][24];
	int gp, fx;
	for (int smt = 0; smt <= 1; smt++) {
		struct pmu_ctx *p = model("icl", smt);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_EQUAL(p->pc_budget.pb_gp, 8);
		CU_ASSERT_EQUAL(p->pc_budget.pb_fixed, 4);
		resolve_all(p, names, 14, c);
		CU_ASSERT_EQUAL(c[6].gp_mask, 0xf);
		/* 4 fixed + 8 GP, three of them loads on PMC0-3 */
		CU_ASSERT_TRUE(pmu_plan_places(&p->pc_budget, c, 12, where, &gp, &fx));
		CU_ASSERT_EQUAL(gp, 8);
		CU_ASSERT_EQUAL(fx, 4);
		CU_ASSERT_STRING_EQUAL(where[0], "fixed 0");
		CU_ASSERT_STRING_EQUAL(where[3], "fixed 3");
		for (int i = 4; i < 7; i++)
			CU_ASSERT_TRUE(strcmp(where[i], "general-purpose 3") <= 0);
		pmu_close(p);
	}
}

/* Five loads compete for PMC0-3 although eight counters exist. */
static void
test_icl_constraint_conflict(void)
{
	static const char *const names[] = {
		"MEM_LOAD_RETIRED.L1_MISS", "MEM_LOAD_RETIRED.L2_MISS", "MEM_LOAD_RETIRED.L3_MISS",
		"MEM_LOAD_RETIRED.L1_HIT", "MEM_LOAD_RETIRED.L2_HIT",
	};
	struct pmu_counter c[5];
	struct pmu_plan pl;
	char err[512];
	struct pmu_ctx *p = model("icl", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	resolve_all(p, names, 5, c);
	CU_ASSERT_EQUAL(pmu_plan(p, c, 4, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu_plan(p, c, 5, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "MEM_LOAD_RETIRED.L2_HIT can only be counted on "
	    "general-purpose counters 0-3 of Intel Icelake (hwdb/constraints.txt:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "which MEM_LOAD_RETIRED.L1_MISS, MEM_LOAD_RETIRED.L2_MISS, "
	    "MEM_LOAD_RETIRED.L3_MISS, MEM_LOAD_RETIRED.L1_HIT hold"));
	CU_ASSERT_EQUAL(pmu_plan(p, c, 5, PMU_PLAN_MULTIPLEX, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pl.ngroups, 2);
	pmu_close(p);
}

/* A counter-1-only event (Skylake INST_RETIRED.PREC_DIST) moves others. */
static void
test_counter_one_only(void)
{
	static const char *const names[] = { "r00c4", "r00c5", "INST_RETIRED.PREC_DIST", "r01c0" };
	struct pmu_counter c[4];
	char where[4][24], err[512];
	int gp, fx;
	struct pmu_plan pl;
	struct pmu_ctx *p = model("skl", 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	resolve_all(p, names, 4, c);
	CU_ASSERT_EQUAL(c[2].gp_mask, 0x2);
	CU_ASSERT_TRUE(pmu_plan_places(&p->pc_budget, c, 3, where, &gp, &fx));
	CU_ASSERT_STRING_EQUAL(where[2], "general-purpose 1");
	CU_ASSERT_STRING_EQUAL(where[0], "general-purpose 0");
	CU_ASSERT_STRING_EQUAL(where[1], "general-purpose 2");
	CU_ASSERT_EQUAL(pmu_plan(p, c, 4, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "r01c0 can only be counted on general-purpose counter 1 "
	    "of Intel Skylake"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "which INST_RETIRED.PREC_DIST holds"));
	pmu_close(p);
}

/* A hybrid plans every counter on both core types; the E-core's 6 GP
 * decide. */
static void
test_hybrid(void)
{
	static const char *const names[] = {
		"instructions", "cycles", "r00c4", "r00c5", "r412e", "r4f2e", "r01ae", "r003c",
		"r01c2",
	};
	struct pmu_counter c[9];
	struct pmu_plan pl;
	char err[512];
	struct pmu_ctx *p = model("rpl", -1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->pc_nbudgets, 2);
	CU_ASSERT_STRING_EQUAL(p->pc_budget.pb_hw->hb_id, "adl_p");
	CU_ASSERT_STRING_EQUAL(p->pc_budget2.pb_hw->hb_id, "adl_e");
	resolve_all(p, names, 9, c);
	/* r003c falls back to a GP counter (fixed 1 already counts cycles):
	 * 6 GP fit both core types, a 7th only the P-core's 8 */
	CU_ASSERT_EQUAL(pmu_plan(p, c, 8, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu_plan(p, c, 9, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "E-core (Gracemont) counts 6 general-purpose + 3 fixed"));
	CU_ASSERT_EQUAL(pmu_plan(p, c, 9, PMU_PLAN_MULTIPLEX, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pl.ngroups, 2);
	pmu_close(p);
}

/* Zen 4: libpfm4's table, six counters, no fixed ones. */
static void
test_zen4(void)
{
	static const char *const names[] = {
		"RETIRED_INSTRUCTIONS", "cycles", "instructionretired", "branchmispredictions",
		"RETIRED_OPS", "r76", "RETIRED_BRANCH_INSTRUCTIONS",
	};
	struct pmu_counter c[7];
	struct pmu_plan pl;
	char err[512];
	struct pmu_ctx *p = model("zen4", -1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->pc_pfm_pmu, "amd64_fam19h_zen4");
	resolve_all(p, names, 7, c);
	CU_ASSERT_EQUAL(pmu_plan(p, c, 6, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu_plan(p, c, 7, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "7 hardware counters requested"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "AMD Zen 4 counts 6 general-purpose + 0 fixed per CPU"));
	pmu_close(p);
}

/* Neoverse N1: hwdb only (no libpfm4 Arm table on x86): friendly, perf and
 * raw names; cycles on the cycle counter. */
static void
test_neoverse_n1(void)
{
	static const char *const names[] = {
		"cycles", "instructionretired", "branchmispredictions", "r1b", "r36", "r37", "r08",
		"r21",
	};
	struct pmu_counter c[8];
	char where[8][24], err[512];
	int gp, fx;
	struct pmu_plan pl;
	struct pmu_ctx *p = model("neoverse_n1", -1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	resolve_all(p, names, 8, c);
	CU_ASSERT_TRUE(pmu_plan_places(&p->pc_budget, c, 7, where, &gp, &fx));
	CU_ASSERT_STRING_EQUAL(where[0], "fixed 0");
	CU_ASSERT_EQUAL(gp, 6);
	CU_ASSERT_EQUAL(pmu_plan(p, c, 8, 0, &pl, err, sizeof(err)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "Arm Neoverse N1 counts 6 general-purpose + 1 fixed"));
	CU_ASSERT_EQUAL(pmu_resolve(p, "BR_MISP_RETIRED.ALL_BRANCHES", &c[0], err, sizeof(err)),
	    -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "this libpfm4 has no event table for Arm Neoverse N1"));
	pmu_close(p);
}

/* The -x pmcplan report: sets by label, registers, all sets together. */
static void
test_plan_report(void)
{
	static const char *const names[] = { "BR_MISP_RETIRED.ALL_BRANCHES", "INST_RETIRED.ANY" };
	struct pmu_counter a[2], b[1];
	struct pmu_plan pl;
	char err[512], *buf = NULL;
	size_t len = 0;
	struct pmu_ctx *p = model("skl", -1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	resolve_all(p, names, 2, a);
	resolve_all(p, names, 1, b);
	CU_ASSERT_EQUAL(pmu_plan_as(p, "set A", a, 1, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu_plan_as(p, "set A", a, 2, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu_plan_as(p, "set B", b, 1, 0, &pl, err, sizeof(err)), 0);
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(pmu_plan_report(p, f), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "pmc plan for skl (Intel Skylake)\n"
	    "  Intel Skylake: 4 general-purpose (SMT on) + 3 fixed counters per logical CPU\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  set 1: set A, 2 counters\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "    INST_RETIRED.ANY              r00c0                              fixed 0\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "    uses 1 of 4 general-purpose and 1 of 3 fixed: fits\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  all 2 sets at once:\n"
	    "    2 general-purpose of 4 and 1 fixed of 3: fit, no multiplexing\n"));
	free(buf);
	pmu_close(p);
}

static int
collect(void *arg, const char *name)
{
	char *buf = arg;
	size_t l = strlen(buf);
	snprintf(buf + l, 1024 - l, "%s%s", l ? " " : "", name);
	return 0;
}

/* A perf.data header names the recording machine; its counters get that
 * machine's names.  PMU_MAPPINGS bytes as perf writes them. */
static void
test_recorded_names(void)
{
	static const unsigned char maps[] = {
		2, 0, 0, 0,
		4, 0, 0, 0, 12, 0, 0, 0, 'c', 'p', 'u', '_', 'c', 'o', 'r', 'e', 0, 0, 0, 0,
		7, 0, 0, 0, 12, 0, 0, 0, 'c', 'p', 'u', '_', 'a', 't', 'o', 'm', 0, 0, 0, 0,
	};
	struct pmu_recording rec;
	struct perf_event_attr a;
	char model[64], names[1024] = "";
	int err;
	memset(&rec, 0, sizeof(rec));
	rec.cpuid = "GenuineIntel,6,186,3";	/* Raptor Lake-P */
	rec.pmu_mappings = maps;
	rec.pmu_mappings_len = sizeof(maps);
	CU_ASSERT_EQUAL(pmu_recording_model(&rec, model, sizeof(model)), 0);
	CU_ASSERT_STRING_EQUAL(model, "adl");
	struct pmu_ctx *p = pmu_open_recording(&rec, NULL, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.config = 7ULL << 32 | PERF_COUNT_HW_CPU_CYCLES;	/* cpu_atom/cycles/ */
	CU_ASSERT_TRUE(pmu_generic_aliases(p, &a, collect, names) >= 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(names, "cpu_atom.totalcycles"));
	CU_ASSERT_PTR_NOT_NULL(strstr(names, "cpu_atom.unhaltedcorecycles"));
	CU_ASSERT_PTR_NOT_NULL(strstr(names, "cpu_atom.cpu_clk_unhalted.thread"));
	pmu_close(p);

	/* Zen 4, a raw event: libpfm4's name for it there */
	memset(&rec, 0, sizeof(rec));
	rec.cpuid = "AuthenticAMD,25,17,0";
	p = pmu_open_recording(&rec, NULL, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->pc_budget.pb_name, "AMD Zen 4");
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_RAW;
	a.config = 0xc4;
	names[0] = '\0';
	CU_ASSERT_TRUE(pmu_generic_aliases(p, &a, collect, names) >= 1);
	CU_ASSERT_STRING_EQUAL(names, "RETIRED_TAKEN_BRANCH_INSTRUCTIONS");
	pmu_close(p);

	/* an Arm MIDR; and a CPU no model describes */
	rec.cpuid = "0x00000000410fd0c1";
	CU_ASSERT_EQUAL(pmu_recording_model(&rec, model, sizeof(model)), 0);
	CU_ASSERT_STRING_EQUAL(model, "neoverse_n1");
	rec.cpuid = "GenuineIntel,6,1,1";
	CU_ASSERT_EQUAL(pmu_recording_model(&rec, model, sizeof(model)), -ENOENT);
	/* truncated mappings are ignored, not read past */
	rec.cpuid = "GenuineIntel,6,186,3";
	rec.pmu_mappings = maps;
	rec.pmu_mappings_len = 20;
	p = pmu_open_recording(&rec, NULL, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->pc_ntypes, 0);
	pmu_close(p);
}

static const struct cu_test tests[] = {
	{ "unknown_model", test_unknown_model },
	{ "skl_smt", test_skl_smt },
	{ "icl", test_icl },
	{ "icl_constraint_conflict", test_icl_constraint_conflict },
	{ "counter_one_only", test_counter_one_only },
	{ "hybrid", test_hybrid },
	{ "zen4", test_zen4 },
	{ "neoverse_n1", test_neoverse_n1 },
	{ "plan_report", test_plan_report },
	{ "recorded_names", test_recorded_names },
	{ NULL, NULL }
};

CU_MAIN("pmu_model", tests)
