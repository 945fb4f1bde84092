/*
 * test_pmu_names.c — every layer of name resolution, its order, modifiers,
 * suggestions, and pmu_list.
 *
 * Expected generic configs are the kernel's ABI (include/uapi/linux/
 * perf_event.h): PERF_TYPE_HW_CACHE config = cache id | op << 8 |
 * result << 16, with L1D=0, LL=2, DTLB=3, BPU=5; READ=0, WRITE=1,
 * PREFETCH=2; ACCESS=0, MISS=1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu_impl.h"
#include "tests/unit/cu.h"

static struct pmu_ctx *
host(void)
{
	int e = 1;
	unsetenv("LIBPFM_FORCE_PMU");
	struct pmu_ctx *p = pmu_open(NULL, NULL, &e);
	CU_ASSERT_EQUAL(e, 0);
	return p;
}

static void
expect(struct pmu_ctx *p, const char *name, uint32_t type, uint64_t config,
    const char *canonical, const char *source)
{
	struct pmu_counter c;
	char err[512];
	int rc = pmu_resolve(p, name, &c, err, sizeof(err));
	if (rc)
		fprintf(stderr, "%s: %s\n", name, err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(c.attr.type, type);
	CU_ASSERT_EQUAL(c.attr.config, config);
	CU_ASSERT_STRING_EQUAL(c.name, name);
	if (canonical)
		CU_ASSERT_STRING_EQUAL(c.canonical, canonical);
	CU_ASSERT_STRING_EQUAL(c.source, source);
}

static void
test_generic_hardware(void)
{
	struct pmu_ctx *p = host();
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	expect(p, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", "generic");
	expect(p, "cpu-cycles", PERF_TYPE_HARDWARE, 0, "cycles", "generic");
	expect(p, "Instructions", PERF_TYPE_HARDWARE, 1, "instructions", "generic");
	expect(p, "branch-instructions", PERF_TYPE_HARDWARE, 4, "branches", "generic");
	expect(p, "branch-misses", PERF_TYPE_HARDWARE, 5, NULL, "generic");
	expect(p, "ref-cycles", PERF_TYPE_HARDWARE, 9, NULL, "generic");
	expect(p, "stalled-cycles-backend", PERF_TYPE_HARDWARE, 8, NULL, "generic");
	pmu_close(p);
}

static void
test_generic_cache(void)
{
	struct pmu_ctx *p = host();
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	expect(p, "L1-dcache-load-misses", PERF_TYPE_HW_CACHE, 0x10000, "L1-dcache-load-misses", "generic");
	expect(p, "L1-dcache-loads", PERF_TYPE_HW_CACHE, 0x0, NULL, "generic");
	expect(p, "LLC-store-misses", PERF_TYPE_HW_CACHE, 0x10102, NULL, "generic");
	expect(p, "dTLB-loads", PERF_TYPE_HW_CACHE, 0x3, NULL, "generic");
	expect(p, "l1-dcache-prefetches", PERF_TYPE_HW_CACHE, 0x200, "L1-dcache-prefetches", "generic");
	expect(p, "branch-load-misses", PERF_TYPE_HW_CACHE, 0x10005, NULL, "generic");
	struct pmu_counter c;
	char err[512];
	CU_ASSERT_EQUAL(pmu_resolve(p, "L1-dcache-load-mises", &c, err, sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean L1-dcache-load-misses"));
	pmu_close(p);
}

static void
test_generic_software(void)
{
	struct pmu_ctx *p = host();
	struct pmu_counter c;
	char err[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	expect(p, "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, NULL, "generic");
	expect(p, "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, NULL, "generic");
	expect(p, "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", "generic");
	expect(p, "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, NULL, "generic");
	expect(p, "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, NULL, "generic");
	expect(p, "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches", "generic");
	expect(p, "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, NULL, "generic");
	expect(p, "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, NULL, "generic");
	expect(p, "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, NULL, "generic");
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "cpu-clock", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.is_hardware, 0);
	CU_ASSERT_EQUAL(c.default_period, 1000000);	/* 1 ms in ns */
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "page-faults", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.default_period, 1);
	/* software counters open even where no PMU is exposed */
	CU_ASSERT_EQUAL(pmu_try_open(&c.attr), 0);
	pmu_close(p);
}

static void
test_modifiers(void)
{
	struct pmu_ctx *p = host();
	struct pmu_counter c;
	char err[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "cycles.u", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.attr.config, PERF_COUNT_HW_CPU_CYCLES);
	CU_ASSERT_EQUAL(c.attr.exclude_kernel, 1);
	CU_ASSERT_EQUAL(c.attr.exclude_user, 0);
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "r00c4:k", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.attr.config, 0xc4);
	CU_ASSERT_EQUAL(c.attr.exclude_user, 1);
	CU_ASSERT_EQUAL(c.attr.exclude_kernel, 0);
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "timer.u", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.attr.type, PERF_TYPE_SOFTWARE);
	CU_ASSERT_EQUAL(c.attr.exclude_kernel, 1);
	/* an unknown modifier is an error (libpfm4's perf:: table may claim the
	 * event and reject only the modifier), with the bare name suggested */
	CU_ASSERT_NOT_EQUAL(pmu_resolve(p, "cycles.q", &c, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean cycles"));
	pmu_close(p);
}

static void
test_bad_input(void)
{
	struct pmu_ctx *p = host();
	struct pmu_counter c;
	char err[512], longname[200];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(pmu_resolve(p, "", &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(pmu_resolve(p, NULL, &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(pmu_resolve(NULL, "cycles", &c, err, sizeof(err)), -EINVAL);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CU_ASSERT_EQUAL(pmu_resolve(p, longname, &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(pmu_resolve(p, "..::..", &c, err, sizeof(err)), -ENOENT);
	CU_ASSERT_EQUAL(pmu_resolve(p, "cpu/event=0x3c/", &c, err, sizeof(err)), -ENOENT);
	/* a tiny error buffer is truncated, not overrun */
	CU_ASSERT_EQUAL(pmu_resolve(p, "nosuchcounter", &c, err, 8), -ENOENT);
	CU_ASSERT_EQUAL(strlen(err), 7);
	CU_ASSERT_EQUAL(pmu_resolve(p, "nosuchcounter", &c, NULL, 0), -ENOENT);
	pmu_close(p);
}

static void
test_suggestions(void)
{
	struct pmu_ctx *p = host();
	struct pmu_counter c;
	char err[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(pmu_resolve(p, "brnchmispredictions", &c, err, sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown counter \"brnchmispredictions\"; did you mean branchmispredictions"));
	CU_ASSERT_EQUAL(pmu_resolve(p, "cpu-clok", &c, err, sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean cpu-clock"));
	CU_ASSERT_EQUAL(pmu_resolve(p, "InstructionsRetired", &c, err, sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "instructionretired"));
	CU_ASSERT_EQUAL(pmu_resolve(p, "zzzzqqqqxxxx", &c, err, sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NULL(strstr(err, "did you mean"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a friendly alias"));
	pmu_close(p);
}

struct list_seen {
	int timer, cycles, cpu_clock, l1d, hw_cycles, hw_cpu_clock, n;
};

static int
list_cb(void *arg, const char *name, int hw)
{
	struct list_seen *s = arg;
	s->n++;
	if (strcmp(name, "timer") == 0)
		s->timer = 1;
	if (strcmp(name, "cycles") == 0) {
		s->cycles = 1;
		s->hw_cycles = hw;
	}
	if (strcmp(name, "cpu-clock") == 0) {
		s->cpu_clock = 1;
		s->hw_cpu_clock = hw;
	}
	if (strcmp(name, "L1-dcache-load-misses") == 0)
		s->l1d = 1;
	return 0;
}

static int
list_stop(void *arg, const char *name, int hw)
{
	(void)name;
	(void)hw;
	return ++*(int *)arg == 3 ? 42 : 0;
}

static void
test_list(void)
{
	struct pmu_ctx *p = host();
	struct list_seen s;
	int calls = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memset(&s, 0, sizeof(s));
	CU_ASSERT_EQUAL(pmu_list(p, list_cb, &s), 0);
	CU_ASSERT_TRUE(s.timer && s.cycles && s.cpu_clock && s.l1d);
	CU_ASSERT_EQUAL(s.hw_cycles, 1);
	CU_ASSERT_EQUAL(s.hw_cpu_clock, 0);
	CU_ASSERT_TRUE(s.n > 60);
	CU_ASSERT_EQUAL(pmu_list(p, list_stop, &calls), 42);
	CU_ASSERT_EQUAL(calls, 3);
	pmu_close(p);
}

static void
test_describe(void)
{
	struct pmu_ctx *p = host();
	char buf[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	int n = pmu_describe(p, "cs", buf, sizeof(buf));
	CU_ASSERT_EQUAL((size_t)n, strlen(buf));
	CU_ASSERT_STRING_EQUAL(buf, "cs: software, context-switches (software 1:0x3)");
	CU_ASSERT_EQUAL(pmu_describe(p, "nosuch", buf, sizeof(buf)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "unknown counter"));
	CU_ASSERT_EQUAL(pmu_describe(p, "cs", NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(pmu_describe(p, "timer", buf, sizeof(buf)) > 0, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "timer: software, cpu-clock (software 1:0x0) from hwdb/aliases.txt:"));
	pmu_close(p);
}

/* --- forced models from here on (see pmu_pick_pfm_core) --- */

static struct pmu_ctx *
forced(const char *model)
{
	int e = 1;
	setenv("LIBPFM_FORCE_PMU", model, 1);
	struct pmu_ctx *p = pmu_open(NULL, NULL, &e);
	unsetenv("LIBPFM_FORCE_PMU");
	CU_ASSERT_EQUAL(e, 0);
	return p;
}

/* Aliases come first, case-insensitively, from the most specific scope. */
static void
test_alias_layer(void)
{
	struct pmu_ctx *p = forced("skl");
	struct pmu_counter c;
	char err[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	/* model scope (skl): libpfm4 event */
	expect(p, "BranchMispredictions", PERF_TYPE_RAW, 0xc5, "skl::BR_MISP_RETIRED:ALL_BRANCHES", "alias");
	/* vendor scope (intel): SDM architectural encoding */
	expect(p, "INSTRUCTIONRETIRED", PERF_TYPE_RAW, 0xc0, NULL, "alias");
	/* "*" scope: software */
	expect(p, "Timer", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", "alias");
	expect(p, "totalcycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", "alias");
	/* *fixed variants must sit on their fixed counter */
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "unhaltedcorecyclesfixed", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.attr.config, 0x3c);
	CU_ASSERT_EQUAL(c.fixed_capable, 2);
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "unhaltedcorecycles", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.fixed_capable, 1);
	CU_ASSERT_EQUAL(c.default_period, 2000003);
	CU_ASSERT_TRUE(pmu_describe(p, "unhaltedreferencecyclesfixed", err, sizeof(err)) > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "hardware, r0300 (raw 4:0x300), fixed counter only from hwdb/aliases.txt:"));
	/* the alias layer shadows nothing else: a libpfm4 name still resolves */
	expect(p, "skl.BR_MISP_RETIRED.ALL_BRANCHES", PERF_TYPE_RAW, 0xc5, NULL, "libpfm4");
	pmu_close(p);
}

/* r<hex> is the same counter on every host: the model libpfm4 detects (or
 * none, as in a VM without a PMU) must not change what it resolves to. */
static void
test_raw(void)
{
	static const char *models[] = { "skl", "amd64_fam19h_zen3", NULL };
	struct pmu_counter c;
	char err[512];
	for (const char **m = models; *m; m++) {
		struct pmu_ctx *p = forced(*m);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		expect(p, "r01c2", PERF_TYPE_RAW, 0x01c2, "r01c2", "raw");
		expect(p, "R1000000C1", PERF_TYPE_RAW, 0x1000000c1ULL, "r1000000c1", "raw");
		CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "r412e", &c, err, sizeof(err)), 0);
		CU_ASSERT_EQUAL(c.is_hardware, 1);
		CU_ASSERT_EQUAL(pmu_resolve(p, "r", &c, err, sizeof(err)), -ENOENT);
		CU_ASSERT_EQUAL(pmu_resolve(p, "r12345678901234567", &c, err, sizeof(err)), -ENOENT);
		CU_ASSERT_EQUAL(pmu_resolve(p, "rxyz", &c, err, sizeof(err)), -ENOENT);
		pmu_close(p);
	}
}

/* The host part: whatever libpfm4 finds here, a raw code stays raw (on a
 * host where libpfm4 finds no core PMU its perf_raw table took it). */
static void
test_raw_host(void)
{
	struct pmu_ctx *p = host();
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	expect(p, "r01c2", PERF_TYPE_RAW, 0x01c2, "r01c2", "raw");
	pmu_close(p);
}

/* Layer order: a generic name wins over libpfm4's perf:: table; a raw code
 * is tried only when libpfm4 does not know the name. */
static void
test_layer_order(void)
{
	struct pmu_ctx *p = forced("icl");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	expect(p, "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, NULL, "generic");
	expect(p, "icl.BR_MISP_RETIRED.ALL_BRANCHES", PERF_TYPE_RAW, 0xc5, NULL, "libpfm4");
	expect(p, "rc5", PERF_TYPE_RAW, 0xc5, NULL, "raw");
	pmu_close(p);
}

/* A PMU prefix that is not this model's is not taken for one. */
static void
test_foreign_pmu_prefix(void)
{
	struct pmu_ctx *p = forced("amd64_fam19h_zen3");
	struct pmu_counter c;
	char err[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_NOT_EQUAL(pmu_resolve(p, "skl.BR_MISP_RETIRED.ALL_BRANCHES", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu_resolve(p, "RETIRED_BRANCH_INSTRUCTION", &c, err, sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean RETIRED_BRANCH_INSTRUCTIONS"));
	pmu_close(p);
}

/* ORDER: host tests before forced ones. */
static const struct cu_test tests[] = {
	{ "generic_hardware", test_generic_hardware },
	{ "generic_cache", test_generic_cache },
	{ "generic_software", test_generic_software },
	{ "raw_host", test_raw_host },
	{ "modifiers", test_modifiers },
	{ "bad_input", test_bad_input },
	{ "suggestions", test_suggestions },
	{ "list", test_list },
	{ "describe", test_describe },
	{ "alias_layer", test_alias_layer },
	{ "raw", test_raw },
	{ "layer_order", test_layer_order },
	{ "foreign_pmu_prefix", test_foreign_pmu_prefix },
	{ NULL, NULL }
};

CU_MAIN("pmu_names", tests)
