/*
 * test_dcore_vm.c — the VM on synthetic firings: predicates, variables,
 * thread-locals, aggregations, strings, faults and the ERROR probe,
 * dynamic-variable limits, exit().
 */
#include "tests/unit/cu.h"
#include "tests/unit/dcore_harness.h"
#include "dcore/d_impl.h"

static void
test_predicates_and_order(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t,
	    "test:::fire /pid == 42/ { printf(\"a%d \", arg0); }\n"
	    "test:::fire /arg1 > 5 && arg2 != 0/ { printf(\"b%d \", arg0); }\n"
	    "test:::fire { printf(\"c \"); }\n"), 0);
	th_go(&t);
	th_fire(&t, 10, 42, 42, 1, 0, 0);
	th_fire(&t, 10, 7, 7, 2, 9, 1);
	th_fire(&t, 12, 42, 42, 3, 9, 1);	/* other probe: nothing */
	d_stop(t.dh);
	CU_ASSERT_STRING_EQUAL(th_out(&t), "a1 c b2 c \n");
	th_close(&t);
}

static void
test_thread_locals(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t,
	    "test:::fire /arg0 == 1/ { self->ts = arg1; }\n"
	    "test:::fire /arg0 == 2 && self->ts/ { printf(\"%d:%d \", tid, arg1 - self->ts); self->ts = 0; }\n"), 0);
	th_go(&t);
	th_fire(&t, 10, 1, 100, 1, 1000, 0);
	th_fire(&t, 10, 1, 200, 1, 5000, 0);
	th_fire(&t, 10, 1, 100, 2, 1500, 0);
	th_fire(&t, 10, 1, 100, 2, 1700, 0);	/* freed: predicate false */
	th_fire(&t, 10, 1, 200, 2, 5600, 0);
	d_stop(t.dh);
	CU_ASSERT_STRING_EQUAL(th_out(&t), "100:500 200:600 \n");
	CU_ASSERT_EQUAL(t.dh->dh_dv.dt_count, 0);
	th_close(&t);
}

static void
test_assoc_and_clause_locals(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t,
	    "test:::fire { n[arg0, \"k\"]++; this->x = arg0 * 2; }\n"
	    "test:::fire { printf(\"%d/%d \", n[arg0, \"k\"], this->x); }\n"
	    "test:::other { printf(\"[%d %d]\", n[1, \"k\"], n[9, \"k\"]); }\n"), 0);
	th_go(&t);
	th_fire(&t, 10, 1, 1, 1, 0, 0);
	th_fire(&t, 10, 1, 1, 1, 0, 0);
	th_fire(&t, 10, 1, 1, 3, 0, 0);
	th_fire(&t, 12, 1, 1, 0, 0, 0);
	d_stop(t.dh);
	CU_ASSERT_STRING_EQUAL(th_out(&t), "1/2 2/2 1/6 [2 0]\n");
	th_close(&t);
}

static void
test_aggregations(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t,
	    "test:::fire { @c[arg0 % 2] = count(); @s = sum(arg1); @m = max(arg1); }\n"
	    "END { printa(\"%d %@d\\n\", @c); printa(\"sum %@d\\n\", @s); }\n"), 0);
	th_go(&t);
	for (int i = 0; i < 5; i++)
		th_fire(&t, 10, 1, 1, (uint64_t)i, (uint64_t)i * 10, 0);
	d_stop(t.dh);
	const char *o = th_out(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(o, "1 2\n0 3\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(o, "sum 100\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(o, "40"));	/* @m printed at exit */
	th_close(&t);
}

static void
test_strings(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_STRING_EQUAL(th_run(&t,
	    "BEGIN { s = strjoin(\"foo\", \"bar\");\n"
	    "  printf(\"%s %d %s %s %s\\n\", s, strlen(s), substr(s, 2), substr(s, -2), substr(s, 1, 2));\n"
	    "  printf(\"%d %d %d\\n\", index(s, \"o\"), rindex(s, \"o\"), index(s, \"o\", 2));\n"
	    "  printf(\"%s|%s|%s\\n\", strchr(s, 'b'), strrchr(s, 'o'), strstr(s, \"ob\"));\n"
	    "  printf(\"%s %s %s %s\\n\", basename(\"/usr/lib/\"), dirname(\"/usr/lib\"), dirname(\"x\"), basename(\"/\"));\n"
	    "  printf(\"%s %s %s\\n\", tolower(\"MiX\"), toupper(\"MiX\"), lltostr(-42));\n"
	    "  printf(\"%d %d %d\\n\", s == \"foobar\", s < \"g\", \"a\" >= \"b\");\n"
	    "  printf(\"%d %d\\n\", strtoll(\"123\"), strtoll(\"ff\", 16)); }"),
	    "foobar 6 obar ar oo\n1 2 2\nbar|obar|obar\nlib /usr . /\nmix MIX -42\n1 1 0\n123 255\n\n");
	th_close(&t);
}

static void
test_strsize_truncates(void)
{
	struct th t;
	th_open(&t);
	d_setopt(t.dh, "strsize", "8");
	CU_ASSERT_STRING_EQUAL(th_run(&t,
	    "BEGIN { x = strjoin(\"abcdef\", \"ghijk\"); printf(\"%s %d\\n\", x, strlen(x)); }"),
	    "abcdefg 7\n\n");
	th_close(&t);
}

static void
test_faults(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t,
	    "test:::fire { printf(\"before \"); x = 10 / arg0; printf(\"after \"); }\n"
	    "test:::fire { printf(\"next \"); }\n"
	    "ERROR { printf(\"ERR(%d,%d,%d) \", arg1, arg2, arg4); }\n"), 0);
	th_go(&t);
	th_fire(&t, 10, 1, 1, 0, 0, 0);
	th_fire(&t, 10, 1, 1, 5, 0, 0);
	d_stop(t.dh);
	/* the faulting clause's output is discarded; later clauses still run */
	CU_ASSERT_STRING_EQUAL(th_out(&t), "ERR(2,2,4) next before after next \n");
	CU_ASSERT_PTR_NOT_NULL(strstr(th_err(&t),
	    "pmctrace: error on enabled probe ID 2 (ID 10: test:::fire): divide-by-zero in action #2 at DIF offset"));
	th_close(&t);

	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t,
	    "BEGIN { p = (int *)0x1000; x = *p; }\n"
	    "BEGIN { a = (int *)alloca(8); a[3] = 1; }\n"
	    "int arr[4]; BEGIN { arr[4] = 1; }\n"), 0);
	th_go(&t);
	d_stop(t.dh);
	const char *e = th_err(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(e, "invalid address (0x1000) in action #2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e, "(ID 1: dtrace:::BEGIN): invalid address"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e, "index out of range in action #1"));
	th_close(&t);
}

static void
test_dynvar_drops(void)
{
	struct th t;
	th_open(&t);
	d_setopt(t.dh, "dynvarsize", "4k");
	CU_ASSERT_EQUAL(th_compile(&t, "test:::fire { a[arg0] = arg0; }"), 0);
	th_go(&t);
	for (int i = 1; i <= 1000; i++)
		th_fire(&t, 10, 1, 1, (uint64_t)i, 0, 0);
	CU_ASSERT_TRUE(t.dh->dh_dv.dt_drops > 0);
	CU_ASSERT_TRUE(t.dh->dh_dv.dt_bytes <= 4096);
	d_stop(t.dh);
	CU_ASSERT_PTR_NOT_NULL(strstr(th_err(&t), "dynamic variable drops"));
	th_close(&t);
}

static void
test_exit_and_nonquiet(void)
{
	struct th t;
	th_open(&t);
	d_setopt(t.dh, "quiet", "0");
	CU_ASSERT_EQUAL(th_compile(&t, "BEGIN { printf(\"hello\\n\"); exit(3); } END { trace(1); }"), 0);
	CU_ASSERT_EQUAL(th_go(&t), D_STATUS_EXIT);
	CU_ASSERT_EQUAL(th_fire(&t, 10, 1, 1, 0, 0, 0), D_STATUS_EXIT);
	d_stop(t.dh);
	CU_ASSERT_EQUAL(d_exit_code(t.dh), 3);
	const char *o = th_out(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(o, "CPU     ID                    FUNCTION:NAME\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(o, ":BEGIN hello\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(o, ":END"));
	th_close(&t);
}

static void
test_structs_and_pointers(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_STRING_EQUAL(th_run(&t,
	    "struct pt { int x; int y; char name[8]; };\n"
	    "struct pt g; self struct pt sp;\n"
	    "BEGIN { g.x = 1; g.y = 2; g.name = \"abc\"; p = &g; p->y += 5;\n"
	    "  self->sp = g; self->sp.x = 9;\n"
	    "  printf(\"%d %d %s %d %d\\n\", g.x, g.y, g.name, self->sp.x, self->sp.y);\n"
	    "  q = (int *)alloca(4 * sizeof(int)); q[0] = 1; q[3] = 4; r = q + 3;\n"
	    "  printf(\"%d %d %d\\n\", *r, r - q, q[1]); }"),
	    "1 7 abc 9 7\n4 3 0\n\n");
	th_close(&t);
}

static void
test_builtins(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t,
	    "test:mod:fn:str { printf(\"%s:%s:%s:%s %d %d %d %s %d %d %s\\n\", probeprov, probemod,\n"
	    "  probefunc, probename, id, pid, tid, execname, cpu, timestamp > 0, args[0]); }\n"), 0);
	th_go(&t);
	struct d_firing f;
	memset(&f, 0, sizeof(f));
	f.df_probe = 11;
	f.df_cpu = 1;
	f.df_pid = 5;
	f.df_tid = 6;
	f.df_timestamp = 99;
	f.df_execname = "proc";
	f.df_args[0] = (uint64_t)(uintptr_t)"argtext";
	f.df_nargs = 1;
	d_fire(t.dh, &f);
	d_stop(t.dh);
	CU_ASSERT_STRING_EQUAL(th_out(&t), "test:mod:fn:str 11 5 6 proc 1 1 argtext\n\n");
	th_close(&t);
}

static void
test_speculation(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t,
	    "test:::fire /arg0 == 1/ { self->spec = speculation(); }\n"
	    "test:::fire /arg0 == 2/ { speculate(self->spec); printf(\"spec%d \", arg1); }\n"
	    "test:::fire /arg0 == 3/ { commit(self->spec); self->spec = 0; }\n"
	    "test:::fire /arg0 == 4/ { printf(\"plain \"); }\n"), 0);
	th_go(&t);
	th_fire(&t, 10, 1, 1, 1, 0, 0);
	th_fire(&t, 10, 1, 1, 2, 7, 0);
	th_fire(&t, 10, 1, 1, 4, 0, 0);
	th_fire(&t, 10, 1, 1, 3, 0, 0);
	d_stop(t.dh);
	CU_ASSERT_STRING_EQUAL(th_out(&t), "plain spec7 \n");
	th_close(&t);
}

static void
test_provider_types(void)
{
	struct th t;
	struct { int a; char comm[8]; long b; } raw = { 7, "bash", 99 };
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t,
	    "test:::typed { printf(\"%d %s %d %d\\n\", args->a, args->comm, args[0]->b,\n"
	    "  args->comm == \"bash\"); @[args->comm] = count(); x = args->comm; }\n"
	    "test:::typed { args->a = 1; }\n"), 0);
	th_go(&t);
	struct d_firing f;
	memset(&f, 0, sizeof(f));
	f.df_probe = 13;
	f.df_args[0] = (uint64_t)(uintptr_t)&raw;
	f.df_nargs = 1;
	f.df_mem = &raw;
	f.df_memlen = sizeof(raw);
	f.df_argstruct = &raw;
	d_fire(t.dh, &f);
	d_stop(t.dh);
	CU_ASSERT_STRING_EQUAL(th_out(&t), "7 bash 99 1\n\n  bash                                                              1\n");
	/* provider memory is read-only: the store faults */
	CU_ASSERT_PTR_NOT_NULL(strstr(th_err(&t), "invalid address"));
	CU_ASSERT_EQUAL(raw.a, 7);
	th_close(&t);
}

static void
test_translated_args(void)
{
	struct th t;
	struct { int a; char comm[8]; long b; } raw = { 321, "zsh", 0 };
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t,
	    "test:::xlated { printf(\"%d %s\\n\", args[0]->pr_pid, args[0]->pr_fname); }"), 0);
	th_go(&t);
	struct d_firing f;
	memset(&f, 0, sizeof(f));
	f.df_probe = 14;
	f.df_args[0] = (uint64_t)(uintptr_t)&raw;
	f.df_nargs = 1;
	f.df_mem = &raw;
	f.df_memlen = sizeof(raw);
	d_fire(t.dh, &f);
	d_stop(t.dh);
	CU_ASSERT_STRING_EQUAL(th_out(&t), "321 zsh\n\n");
	th_close(&t);
}

static void
test_errno_and_stack_snapshot(void)
{
	struct th t;
	char snap[64] = "from-snapshot";
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t,
	    "test:::fire { printf(\"%d %s %d\\n\", errno, copyinstr(arg0), *(char *)copyin(arg0 + 5, 1)); }"), 0);
	CU_ASSERT_EQUAL(d_uses_stacks(t.dh) & 4, 4);
	th_go(&t);
	struct d_firing f;
	memset(&f, 0, sizeof(f));
	f.df_probe = 10;
	f.df_pid = 999999999;		/* no such process: only the snapshot can answer */
	f.df_args[0] = 0x7ffe0010;
	f.df_nargs = 1;
	f.df_errno = 2;
	f.df_ustackmem = snap;
	f.df_ustackbase = 0x7ffe0010;
	f.df_ustacklen = sizeof(snap);
	d_fire(t.dh, &f);
	d_stop(t.dh);
	CU_ASSERT_STRING_EQUAL(th_out(&t), "2 from-snapshot 115\n\n");
	th_close(&t);
}

static const struct cu_test tests[] = {
	{ "errno and copyin from the user-stack snapshot", test_errno_and_stack_snapshot },
	{ "args[] translated by the provider's translator", test_translated_args },
	{ "provider declarations, args->field, read-only memory", test_provider_types },
	{ "predicates and clause order", test_predicates_and_order },
	{ "self-> variables are per thread and freed by 0", test_thread_locals },
	{ "associative arrays and this-> variables", test_assoc_and_clause_locals },
	{ "aggregations, printa, exit-time printing", test_aggregations },
	{ "string subroutines and comparisons", test_strings },
	{ "strings are bounded by strsize", test_strsize_truncates },
	{ "faults abort the clause and fire ERROR", test_faults },
	{ "dynvarsize bounds dynamic variables", test_dynvar_drops },
	{ "exit() and the non-quiet probe line", test_exit_and_nonquiet },
	{ "structs, pointers, alloca", test_structs_and_pointers },
	{ "builtin variables from the firing", test_builtins },
	{ "speculation, commit", test_speculation },
	{ NULL, NULL }
};

CU_MAIN("dcore_vm", tests)
