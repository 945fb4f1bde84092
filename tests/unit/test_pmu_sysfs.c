/*
 * test_pmu_sysfs.c — kernel PMU events from sysfs: terms placed by their
 * format bit layout, on a fixture tree built here, and the msr PMU live.
 *
 * The layout rules are the kernel's ABI (Documentation/ABI/testing/
 * sysfs-bus-event_source-devices-format and -events): a format file names
 * a config field and bit ranges, "config:0-7,32-35" filling the low bits of
 * the value into 0-7 and the next ones into 32-35.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmu/pmu_impl.h"
#include "tests/unit/cu.h"

static char root[64];

static void
put(const char *rel, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void
make_tree(void)
{
	char path[256];
	snprintf(root, sizeof(root), "/tmp/pmu_sysfs_XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(root));
	static const char *const dirs[] = { "fake", "fake/format", "fake/events" };
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		CU_ASSERT_EQUAL_FATAL(mkdir(path, 0755), 0);
	}
	put("fake/type", "42\n");
	put("fake/format/event", "config:0-7,32-35\n");
	put("fake/format/umask", "config:8-15\n");
	put("fake/format/edge", "config:18\n");
	put("fake/format/ldlat", "config1:0-15\n");
	put("fake/events/ev1", "event=0x1c1,umask=0x01\n");
	put("fake/events/lat", "event=0xcd,umask=0x1,ldlat=0x3\n");
	put("fake/events/bare", "event=0x2e,edge\n");
	put("fake/events/bad", "event=0x1,nosuchterm=3\n");
	put("fake/events/big", "umask=0x1ff\n");
	put("fake/events/ev1.scale", "1e-9\n");
}

static void
remove_tree(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void
expect(const char *name, uint64_t config, uint64_t config1)
{
	struct perf_event_attr a;
	char canon[128];
	int core = -1;
	int rc = pmu_sysfs_resolve(root, name, &a, canon, sizeof(canon), &core);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(a.type, 42);
	CU_ASSERT_EQUAL(a.config, config);
	CU_ASSERT_EQUAL(a.config1, config1);
	CU_ASSERT_EQUAL(core, 0);
}

static void
test_terms_by_format(void)
{
	struct perf_event_attr a;
	char canon[128];
	int core;
	make_tree();
	/* event 0x1c1: low byte to 0-7, the next bits to 32-35; umask 0x01 to 8-15 */
	expect("fake/ev1/", 0x1000001c1ULL, 0);
	expect("fake.ev1", 0x1000001c1ULL, 0);
	CU_ASSERT_EQUAL(pmu_sysfs_resolve(root, "fake.ev1", &a, canon, sizeof(canon), &core), 0);
	CU_ASSERT_STRING_EQUAL(canon, "fake/ev1/");
	expect("fake.lat", 0x01cd, 0x3);			/* ldlat in config1 */
	expect("fake.bare", 0x2e | 1ULL << 18, 0);		/* a bare term is 1 */
	expect("fake/event=0x3c,umask=0x2/", 0x023c, 0);	/* terms spelled out */
	expect("fake/config=0x1234,config1=7/", 0x1234, 7);	/* whole fields */
	remove_tree();
}

static void
test_bad_entries(void)
{
	struct perf_event_attr a;
	char canon[128];
	int core;
	make_tree();
	CU_ASSERT_EQUAL(pmu_sysfs_resolve(root, "fake.bad", &a, canon, sizeof(canon), &core), -EINVAL);
	CU_ASSERT_EQUAL(pmu_sysfs_resolve(root, "fake.big", &a, canon, sizeof(canon), &core), -EINVAL);
	CU_ASSERT_EQUAL(pmu_sysfs_resolve(root, "fake.nosuch", &a, canon, sizeof(canon), &core), -EINVAL);
	CU_ASSERT_EQUAL(pmu_sysfs_resolve(root, "fake/event=zz/", &a, canon, sizeof(canon), &core), -EINVAL);
	CU_ASSERT_EQUAL(pmu_sysfs_resolve(root, "nopmu.ev1", &a, canon, sizeof(canon), &core), -ENOENT);
	CU_ASSERT_EQUAL(pmu_sysfs_resolve(root, "fake/ev1", &a, canon, sizeof(canon), &core), -ENOENT);
	CU_ASSERT_EQUAL(pmu_sysfs_resolve(root, "/ev1/", &a, canon, sizeof(canon), &core), -ENOENT);
	CU_ASSERT_EQUAL(pmu_sysfs_resolve(root, "fake.", &a, canon, sizeof(canon), &core), -ENOENT);
	CU_ASSERT_EQUAL(pmu_sysfs_resolve(root, "../fake.ev1", &a, canon, sizeof(canon), &core), -ENOENT);
	CU_ASSERT_EQUAL(pmu_sysfs_resolve(root, "cycles", &a, canon, sizeof(canon), &core), -ENOENT);
	remove_tree();
}

static int
collect(void *arg, const char *name)
{
	char *buf = arg;
	strcat(buf, name);
	strcat(buf, " ");
	return 0;
}

static void
test_names(void)
{
	char buf[512] = "";
	make_tree();
	CU_ASSERT_EQUAL(pmu_sysfs_names(root, collect, buf), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "fake.ev1 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "fake.lat "));
	CU_ASSERT_PTR_NULL(strstr(buf, "scale"));
	remove_tree();
}

/*
 * The msr PMU (arch/x86/events/msr.c: PERF_MSR_TSC = 0, exposed as
 * events/tsc "event=0x00") opens even in a VM without a core PMU, and
 * costs no core counter.
 */
static void
test_msr_live(void)
{
	char type[32];
	if (pmu_read_line(PMU_SYSFS_ROOT "/msr/type", type, sizeof(type)) != 0 ||
	    access(PMU_SYSFS_ROOT "/msr/events/tsc", F_OK) != 0) {
		fprintf(stderr, "no msr PMU here: live part not run\n");
		return;
	}
	int e;
	struct pmu_ctx *p = pmu_open(NULL, NULL, &e);
	struct pmu_counter c[2];
	struct pmu_plan pl;
	char err[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "msr.tsc", &c[0], err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c[0].attr.type, (uint32_t)atoi(type));
	CU_ASSERT_EQUAL(c[0].attr.config, 0);
	CU_ASSERT_EQUAL(c[0].is_hardware, 0);
	CU_ASSERT_STRING_EQUAL(c[0].source, "sysfs");
	CU_ASSERT_EQUAL(pmu_try_open(&c[0].attr), 0);
	CU_ASSERT_EQUAL_FATAL(pmu_resolve(p, "cpu-clock", &c[1], err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu_plan(p, c, 2, 0, &pl, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu_resolve(p, "msr.tscc", &c[0], err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean msr.tsc"));
	pmu_close(p);
}

static void
mkpmu(const char *name, const char *type)
{
	char rel[128], path[256];
	snprintf(path, sizeof(path), "%s/%s", root, name);
	CU_ASSERT_EQUAL_FATAL(mkdir(path, 0755), 0);
	snprintf(rel, sizeof(rel), "%s/type", name);
	put(rel, type);
}

/* Which kernel PMUs are the core ones, on fixture trees of each kind. */
static void
test_core_pmus(void)
{
	uint32_t t[4];
	make_tree();
	CU_ASSERT_EQUAL(pmu_sysfs_core_types(root, t, 4), 0);	/* a VM: none */
	mkpmu("armv8_pmuv3_0", "8\n");
	CU_ASSERT_EQUAL(pmu_sysfs_core_types(root, t, 4), 1);
	CU_ASSERT_EQUAL(t[0], 8);
	mkpmu("cpu_core", "4\n");
	mkpmu("cpu_atom", "10\n");
	CU_ASSERT_EQUAL_FATAL(pmu_sysfs_core_types(root, t, 4), 2);
	CU_ASSERT_EQUAL(t[0], 4);
	CU_ASSERT_EQUAL(t[1], 10);
	CU_ASSERT_EQUAL(pmu_sysfs_core_types(root, t, 1), 1);	/* max respected */
	remove_tree();
}

/*
 * perf on an i7-1260P recorded cpu_atom/cycles/ as config 0xa_00000000 and
 * cpu_core/cycles/ as 0x4_00000000 (KDAB perfparser's cpp-inlining.perf.data;
 * likewise tests/fixtures/perfdata/quipper/perf.data.hybrid_topology on a
 * Raptor Lake): the PMU type in bits 32-63.
 */
static void
test_attr_for_pmu(void)
{
	struct perf_event_attr in, out;
	memset(&in, 0, sizeof(in));
	in.type = PERF_TYPE_HARDWARE;
	in.config = PERF_COUNT_HW_CPU_CYCLES;
	pmu_attr_for_pmu(&in, 10, &out);
	CU_ASSERT_EQUAL(out.type, PERF_TYPE_HARDWARE);
	CU_ASSERT_EQUAL(out.config, 0xa00000000ULL);
	pmu_attr_for_pmu(&in, 4, &out);
	CU_ASSERT_EQUAL(out.config, 0x400000000ULL);
	in.type = PERF_TYPE_RAW;
	in.config = 0xc5;
	pmu_attr_for_pmu(&in, 10, &out);
	CU_ASSERT_EQUAL(out.type, 10);
	CU_ASSERT_EQUAL(out.config, 0xc5);
	in.type = PERF_TYPE_SOFTWARE;
	in.config = PERF_COUNT_SW_CPU_CLOCK;
	pmu_attr_for_pmu(&in, 10, &out);
	CU_ASSERT_EQUAL(memcmp(&in, &out, sizeof(in)), 0);

	int e;
	uint32_t t[4];
	struct pmu_ctx *p = pmu_open(NULL, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	char kbuf[64];
	int n = pmu_core_pmus(p, t, 4);
	CU_ASSERT_EQUAL(n > 0, pmu_kernel_core_pmu(kbuf, sizeof(kbuf)) != NULL);
	CU_ASSERT_EQUAL(pmu_core_pmus(p, t, 0), -EINVAL);
	pmu_close(p);
}

static const struct cu_test tests[] = {
	{ "terms_by_format", test_terms_by_format },
	{ "bad_entries", test_bad_entries },
	{ "names", test_names },
	{ "msr_live", test_msr_live },
	{ "core_pmus", test_core_pmus },
	{ "attr_for_pmu", test_attr_for_pmu },
	{ NULL, NULL }
};

CU_MAIN("pmu_sysfs", tests)
