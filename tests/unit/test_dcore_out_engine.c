/*
 * test_dcore_out_engine.c — the outputs through the D engine: a compiled
 * program aggregates stacks from firings, and at d_stop -x oformat picks
 * folded stacks, an SVG (text actions moved to stderr so the file holds
 * only the picture) or JSON Lines (printa and printf as records).
 */
#include "cu.h"
#include "dcore_harness.h"
#include "test_dcons_out_common.h"

static int
fire_stacks(struct th *t, const uint64_t *k, uint32_t nk, const uint64_t *u,
    uint32_t nu)
{
	struct d_firing f;

	memset(&f, 0, sizeof(f));
	f.df_probe = 10;
	f.df_cpu = 0;
	f.df_pid = 42;
	f.df_tid = 42;
	f.df_timestamp = t->now += 1000;
	f.df_execname = "app";
	f.df_nargs = 3;
	f.df_kstack = k;
	f.df_nkstack = nk;
	f.df_ustack = u;
	f.df_nustack = nu;
	return d_fire(t->dh, &f);
}

static void
run_fixture(struct th *t, const char *fmt, const char *prog)
{
	const uint64_t k[] = { KPC(3, 0x10), KPC(1, 0x30) };
	const uint64_t k2[] = { KPC(3, 0x18), KPC(1, 0x30) };
	const uint64_t u[] = { UPC(2, 0x4), UPC(1, 0x8) };

	th_open(t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->dh);
	d_set_symbolizer(t->dh, &fake_sym);
	CU_ASSERT_EQUAL_FATAL(d_setopt(t->dh, "oformat", fmt), 0);
	CU_ASSERT_EQUAL_FATAL(th_compile(t, prog), 0);
	CU_ASSERT_EQUAL_FATAL(th_go(t), 0);
	for (int i = 0; i < 3; i++)
		fire_stacks(t, k, 2, u, 2);
	fire_stacks(t, k2, 2, u, 2);	/* another offset in k3: same frame */
	fire_stacks(t, NULL, 0, u, 2);
	CU_ASSERT_EQUAL(d_stop(t->dh), 0);
}

static void
test_engine_folded(void)
{
	struct th t;

	run_fixture(&t, "folded",
	    "test:::fire { @[execname, stack(), ustack()] = count(); }");
	CU_ASSERT_STRING_EQUAL(th_out(&t),
	    "app;app`u1;app`u2 1\n"
	    "app;app`u1;app`u2;vmlinux`k1;vmlinux`k3 4\n");
	th_close(&t);
}

static void
test_engine_svg(void)
{
	struct th t;

	run_fixture(&t, "svg", "BEGIN { printf(\"started\\n\"); }"
	    "test:::fire { @[stack(), ustack()] = count(); }");
	CU_ASSERT(strncmp(th_out(&t), "<?xml", 5) == 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(th_out(&t),
	    "<title>vmlinux`k3 (4 fire, 80.00%)</title>"));
	CU_ASSERT_PTR_NULL(strstr(th_out(&t), "started"));
	CU_ASSERT_PTR_NOT_NULL(strstr(th_err(&t), "started\n"));
	th_close(&t);
}

static void
test_engine_json(void)
{
	struct th t;

	run_fixture(&t, "json", "BEGIN { printf(\"hi %d\\n\", 7); }"
	    "test:::fire { @n[execname] = count(); @s[ustack()] = count(); }"
	    "END { printa(@n); }");
	const char *out = th_out(&t);
	/* BEGIN's timestamp is the clock's: compare around it */
	static const char pfx[] = "{\"record\":\"probe\",\"cpu\":0,\"id\":1,"
	    "\"timestamp\":";

	CU_ASSERT(strncmp(out, pfx, sizeof(pfx) - 1) == 0);
	out = strstr(out, ",\"probe\":");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_STRING_EQUAL(out,
	    ",\"probe\":\"dtrace:::BEGIN\",\"output\":\"hi 7\\n\"}\n"
	    "{\"record\":\"aggregation\",\"name\":\"@n\",\"function\":\"count\","
	    "\"keys\":[\"app\"],\"value\":5}\n"
	    "{\"record\":\"aggregation\",\"name\":\"@s\",\"function\":\"count\","
	    "\"keys\":[[\"app`u2+0x4\",\"app`u1+0x8\"]],\"value\":5}\n");
	th_close(&t);
}

static void
test_engine_bad_oformat(void)
{
	struct th t;

	th_open(&t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t.dh);
	CU_ASSERT(d_setopt(t.dh, "oformat", "png") < 0);
	CU_ASSERT_EQUAL(d_setopt(t.dh, "oformat", "text"), 0);
	CU_ASSERT_EQUAL(d_setopt(t.dh, "flamereverse", NULL), 0);
	CU_ASSERT_EQUAL(d_setopt(t.dh, "flametitle", "x"), 0);
	th_close(&t);
}

static const struct cu_test tests[] = {
	{ "engine_folded", test_engine_folded },
	{ "engine_svg", test_engine_svg },
	{ "engine_json", test_engine_json },
	{ "engine_bad_oformat", test_engine_bad_oformat },
	{ NULL, NULL },
};

CU_MAIN("dcore_out_engine", tests)
