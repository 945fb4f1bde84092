/*
 * test_pmu_encode.c — counter names encode to the vendors' published
 * event codes, on CPU models simulated with LIBPFM_FORCE_PMU.
 *
 * Every expected value below comes from a vendor table, cited beside it,
 * never from this program's output.  Encodings:
 *   Intel: IA32_PERFEVTSELx = EventSelect[7:0] | UMask[15:8] | ... |
 *          CMASK[31:24] (Intel SDM Vol. 3B, "Architectural Performance
 *          Monitoring", figure of the IA32_PERFEVTSELx layout);
 *   AMD:   PERF_CTL = EventSelect[7:0] | UnitMask[15:8] | ... |
 *          EventSelect[11:8] at bits 35:32 (AMD PPR, Core::X86::Msr::PERF_CTL).
 * perf's PERF_TYPE_RAW config carries those bits as they are.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu_impl.h"
#include "tests/unit/cu.h"

static struct pmu_ctx *
open_forced(const char *model)
{
	int err = 0;
	setenv("LIBPFM_FORCE_PMU", model, 1);
	struct pmu_ctx *p = pmu_open(NULL, NULL, &err);
	CU_ASSERT_EQUAL(err, 0);
	return p;
}

static void
close_forced(struct pmu_ctx *p)
{
	pmu_close(p);
	unsetenv("LIBPFM_FORCE_PMU");
}

/* Resolve name and check it is a raw hardware event with this config. */
static void
expect_raw(struct pmu_ctx *p, const char *name, uint64_t config)
{
	struct pmu_counter c;
	char err[512];
	int rc = pmu_resolve(p, name, &c, err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "%s: %s\n", name, err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(c.attr.type, PERF_TYPE_RAW);
	if (c.attr.config != config)
		fprintf(stderr, "%s: config %#llx, want %#llx\n", name,
		    (unsigned long long)c.attr.config, (unsigned long long)config);
	CU_ASSERT_EQUAL(c.attr.config, config);
	CU_ASSERT_EQUAL(c.attr.size, sizeof(c.attr));
	CU_ASSERT_TRUE(c.is_hardware);
}

static void
test_skylake(void)
{
	struct pmu_ctx *p = open_forced("skl");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	/* intel/perfmon SKL/events/skylake_core.json (V57): */
	expect_raw(p, "BR_MISP_RETIRED.ALL_BRANCHES", 0x00c5);	/* EventCode 0xC5 UMask 0x00 */
	expect_raw(p, "skl.MEM_LOAD_RETIRED.L3_MISS", 0x20d1);	/* EventCode 0xD1 UMask 0x20 */
	expect_raw(p, "UOPS_ISSUED.ANY", 0x010e);		/* EventCode 0x0E UMask 0x01 */
	expect_raw(p, "longest_lat_cache.miss", 0x412e);	/* EventCode 0x2E UMask 0x41 */
	expect_raw(p, "BR_INST_RETIRED.ALL_BRANCHES", 0x00c4);	/* EventCode 0xC4 UMask 0x00 */
	/* friendly names on Skylake */
	expect_raw(p, "branchmispredictions", 0x00c5);	/* perfmon BR_MISP_RETIRED.ALL_BRANCHES */
	expect_raw(p, "TotalIssues", 0x010e);		/* perfmon UOPS_ISSUED.ANY */
	expect_raw(p, "llcmisses", 0x412e);		/* SDM architectural LLC Misses 2EH/41H */
	expect_raw(p, "llcreference", 0x4f2e);		/* SDM architectural LLC Reference 2EH/4FH */
	expect_raw(p, "unhaltedreferencecycles", 0x013c);	/* SDM architectural 3CH/01H */
	expect_raw(p, "branchinstructionretired", 0x00c4);	/* SDM architectural C4H/00H */
	close_forced(p);
}

/* Modifiers: c=2 is CMASK (bits 31:24), .u excludes the kernel. */
static void
test_skylake_modifiers(void)
{
	struct pmu_ctx *p = open_forced("skl");
	struct pmu_counter c;
	char err[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	/* perfmon SKL INST_RETIRED.ANY_P: EventCode 0xC0 UMask 0x00; CMASK=2 -> 0x02 << 24 */
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "INST_RETIRED.ANY_P.c=2.u", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.attr.config, 0x020000c0);
	CU_ASSERT_EQUAL(c.attr.exclude_kernel, 1);
	CU_ASSERT_EQUAL(c.attr.exclude_user, 0);
	CU_ASSERT_EQUAL(c.fixed_capable, 0);	/* a CMASK makes it a different event */
	CU_ASSERT_STRING_EQUAL(c.canonical, "skl::INST_RETIRED:ANY_P:c=2:k=0");
	/* perfmon SKL UOPS_ISSUED.ANY 0x0E/0x01; SDM: E (edge) is bit 18, CMASK 31:24 */
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "UOPS_ISSUED.ANY.e.c=1", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.attr.config, 0x0104010e);
	/* the ':' spelling libpfm4 itself uses works as well */
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "skl::INST_RETIRED:ANY_P:k", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.attr.config, 0x00c0);
	CU_ASSERT_EQUAL(c.attr.exclude_user, 1);
	CU_ASSERT_EQUAL(c.fixed_capable, 1);	/* 0x00c0 may use fixed counter 0 */
	close_forced(p);
}

/* Skylake's libpfm4 table spells INST_RETIRED.ANY as ANY_P: suggest it. */
static void
test_skylake_bad_umask(void)
{
	struct pmu_ctx *p = open_forced("skl");
	struct pmu_counter c;
	char err[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(pmu_resolve(p, "INST_RETIRED.ANY_Q", &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "libpfm4 (skl) knows the event but not \"skl::INST_RETIRED:ANY_Q\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "INST_RETIRED.ANY_P"));
	/* perfmon's fixed-counter name, which libpfm4 4.13's skl table lacks
	 * (hwdb/aliases.txt): fixed counter 0 only */
	CU_ASSERT_EQUAL(pmu_resolve(p, "INST_RETIRED.ANY", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.attr.config, 0x00c0);
	CU_ASSERT_EQUAL(c.fixed_capable, 2);
	close_forced(p);
}

static void
test_icelake(void)
{
	struct pmu_ctx *p = open_forced("icl");
	struct pmu_counter c;
	char err[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	/* intel/perfmon ICL/events/icelake_core.json: */
	expect_raw(p, "icl.MEM_LOAD_RETIRED.L3_MISS", 0x20d1);	/* EventCode 0xD1 UMask 0x20 */
	expect_raw(p, "BR_MISP_RETIRED.ALL_BRANCHES", 0x00c5);	/* EventCode 0xC5 UMask 0x00 */
	expect_raw(p, "UOPS_ISSUED.ANY", 0x010e);		/* EventCode 0x0E UMask 0x01 */
	/* INST_RETIRED.ANY: EventCode 0x00 UMask 0x01, "Fixed counter 0" */
	expect_raw(p, "INST_RETIRED.ANY", 0x0100);
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "INST_RETIRED.ANY", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.fixed_capable, 2);
	expect_raw(p, "totalissues", 0x010e);
	close_forced(p);
}

static void
test_sapphire_rapids(void)
{
	struct pmu_ctx *p = open_forced("spr");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	/* intel/perfmon SPR/events/sapphirerapids_core.json: */
	expect_raw(p, "UOPS_ISSUED.ANY", 0x01ae);		/* EventCode 0xAE UMask 0x01 */
	expect_raw(p, "spr.MEM_LOAD_RETIRED.L3_MISS", 0x20d1);	/* EventCode 0xD1 UMask 0x20 */
	expect_raw(p, "LONGEST_LAT_CACHE.MISS", 0x412e);	/* EventCode 0x2E UMask 0x41 */
	expect_raw(p, "BR_MISP_RETIRED.ALL_BRANCHES", 0x00c5);	/* EventCode 0xC5 UMask 0x00 */
	expect_raw(p, "totalissues", 0x01ae);		/* UOPS_ISSUED.ANY again, via hwdb */
	expect_raw(p, "instructionretiredfixed", 0x00c0);	/* SDM fixed counter 0 */
	close_forced(p);
}

/*
 * Load-latency sampling on Skylake-X: intel/perfmon SKX skylakex_core.json
 * MEM_TRANS_RETIRED.LOAD_LATENCY_GT_64: EventCode 0xCD, UMask 0x01, MSRIndex
 * 0x3F6 (the latency threshold, carried in config1), MSRValue 0x40.  The
 * same attr was recorded by perf on a Xeon 8173M (SKX 6/85):
 * tests/fixtures/perfdata/quipper/perf.data.weight_struct, `perf evlist
 * -v`: type 4, config 0x1cd, config1 0x40, precise_ip 2.
 */
static void
test_skylake_x_load_latency(void)
{
	struct pmu_ctx *p = open_forced("skx");
	struct pmu_counter c;
	char err[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "MEM_TRANS_RETIRED.LOAD_LATENCY.ldlat=64.precise=2",
	    &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.attr.type, PERF_TYPE_RAW);
	CU_ASSERT_EQUAL(c.attr.config, 0x01cd);
	CU_ASSERT_EQUAL(c.attr.config1, 0x40);
	CU_ASSERT_EQUAL(c.attr.precise_ip, 2);
	/* skx shares Skylake's hwdb budget */
	CU_ASSERT_STRING_EQUAL(p->pc_budget.pb_name, "Intel Skylake");
	close_forced(p);
}

static void
test_zen3(void)
{
	struct pmu_ctx *p = open_forced("amd64_fam19h_zen3");
	struct pmu_counter c;
	char err[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	/* AMD PPR for Family 19h Model 01h, core PMC events: */
	expect_raw(p, "RETIRED_INSTRUCTIONS", 0x0c0);		/* PMCx0C0 Retired Instructions */
	expect_raw(p, "RETIRED_BRANCH_INSTRUCTIONS", 0x0c2);	/* PMCx0C2 */
	expect_raw(p, "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", 0x0c3);	/* PMCx0C3 */
	expect_raw(p, "CYCLES_NOT_IN_HALT", 0x076);		/* PMCx076 Cycles not in Halt */
	expect_raw(p, "branchmispredictsretired", 0x0c3);
	expect_raw(p, "UnhaltedCoreCycles", 0x076);
	/* no reference cycles and no fixed counters on the Zen core PMU */
	CU_ASSERT_EQUAL(pmu_resolve(p, "unhaltedreferencecycles", &c, err, sizeof(err)), -EOPNOTSUPP);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "AMD Zen 3"));
	CU_ASSERT_EQUAL(pmu_resolve(p, "instructionretiredfixed", &c, err, sizeof(err)), -EOPNOTSUPP);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no fixed-function counters"));
	close_forced(p);
}

static void
test_zen4(void)
{
	struct pmu_ctx *p = open_forced("amd64_fam19h_zen4");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	/* AMD PPR for Family 19h Model 11h: */
	expect_raw(p, "RETIRED_OPS", 0x0c1);			/* PMCx0C1 Retired Ops */
	expect_raw(p, "totalissues", 0x0c1);
	/* PMCx1C1 Retired Microcoded Instructions: EventSelect[11:8]=1 -> bit 32 */
	expect_raw(p, "RETIRED_UCODE_INSTRUCTIONS", 0x1000000c1ULL);
	expect_raw(p, "instructionretired", 0x0c0);		/* PMCx0C0 */
	/* PMCx0C4 Retired Taken Branch Instructions; perf recorded the same
	 * raw rc4 on an AMD 25/17: quipper/perf.data.branch_stack_spec */
	expect_raw(p, "RETIRED_TAKEN_BRANCH_INSTRUCTIONS", 0x0c4);
	close_forced(p);
}

/*
 * A model hwdb does not list (Goldmont) still plans, with libpfm4's counter
 * figures, and still has the vendor's architectural aliases and fixed
 * counters 0-2 (SDM Vol. 3B: architectural on every Intel core).
 */
static void
test_model_without_hwdb_entry(void)
{
	struct pmu_ctx *p = open_forced("glm");
	struct pmu_counter c;
	char err[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NULL(p->pc_budget.pb_hw);
	CU_ASSERT_TRUE(p->pc_budget.pb_known);
	CU_ASSERT_PTR_NOT_NULL(strstr(p->pc_budget.pb_gp_src, "libpfm4 pfm_get_pmu_info(glm)"));
	CU_ASSERT_STRING_EQUAL(p->pc_budget.pb_vendor, "intel");
	expect_raw(p, "llcmisses", 0x412e);	/* SDM architectural LLC Misses 2EH/41H */
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "instructionretired", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.fixed_capable, 1);
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "ref-cycles", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.fixed_capable, 2);
	close_forced(p);
}

/* A forced model libpfm4 does not know must not silently become the host. */
static void
test_unknown_forced_model(void)
{
	int err = 0;
	setenv("LIBPFM_FORCE_PMU", "no_such_cpu", 1);
	struct pmu_ctx *p = pmu_open(NULL, NULL, &err);
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_EQUAL(err, -EINVAL);
	pmu_close(p);
	unsetenv("LIBPFM_FORCE_PMU");
}

/*
 * hwdb consistency: under every model libpfm4 can simulate, each friendly
 * alias in scope resolves, or is explicitly "none" for that model.
 */
static void
test_hwdb_aliases_resolve_everywhere(void)
{
	int models = 0;
	for (int i = 0; i < hwdb_nbudgets; i++) {
		const char *m = strstr(hwdb_budgets[i].hb_match, "pfm=");
		char model[64];
		if (!m)
			continue;
		snprintf(model, sizeof(model), "%.*s", (int)strcspn(m + 4, " "), m + 4);
		int err = 0;
		setenv("LIBPFM_FORCE_PMU", model, 1);
		struct pmu_ctx *p = pmu_open(NULL, NULL, &err);
		unsetenv("LIBPFM_FORCE_PMU");
		if (!p)
			continue;
		models++;
		CU_ASSERT_PTR_EQUAL(p->pc_budget.pb_hw, &hwdb_budgets[i]);
		for (int a = 0; a < hwdb_naliases; a++) {
			struct pmu_counter c;
			char msg[512];
			int rc = pmu_resolve(p, hwdb_aliases[a].ha_name, &c, msg, sizeof(msg));
			if (rc != 0 && rc != -EOPNOTSUPP)
				fprintf(stderr, "%s on %s: %s\n", hwdb_aliases[a].ha_name, model, msg);
			CU_ASSERT_TRUE(rc == 0 || (rc == -EOPNOTSUPP && strstr(msg, "has no event")));
		}
		pmu_close(p);
	}
	CU_ASSERT_TRUE(models >= 8);	/* SNB..SPR and Zen 1-4 at least */
}

static const struct cu_test tests[] = {
	{ "skylake", test_skylake },
	{ "skylake_modifiers", test_skylake_modifiers },
	{ "skylake_bad_umask", test_skylake_bad_umask },
	{ "icelake", test_icelake },
	{ "sapphire_rapids", test_sapphire_rapids },
	{ "skylake_x_load_latency", test_skylake_x_load_latency },
	{ "zen3", test_zen3 },
	{ "zen4", test_zen4 },
	{ "model_without_hwdb_entry", test_model_without_hwdb_entry },
	{ "unknown_forced_model", test_unknown_forced_model },
	{ "hwdb_aliases_resolve_everywhere", test_hwdb_aliases_resolve_everywhere },
	{ NULL, NULL }
};

CU_MAIN("pmu_encode", tests)
