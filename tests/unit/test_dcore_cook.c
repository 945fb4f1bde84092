/*
 * test_dcore_cook.c — the type checker: promotions, variables' types,
 * builtins, translators, and one tagged error per violation.
 */
#include <errno.h>

#include "tests/unit/cu.h"
#include "tests/unit/dcore_harness.h"
#include "dcore/d_impl.h"
#include "dcore/d_ident.h"

/* Compile text in a fresh handle; return the error tag or -1 if none. */
static int
tag_of(const char *text)
{
	struct th t;
	th_open(&t);
	int tag = th_compile(&t, text) == 0 ? -1 : t.dh->dh_errtag;
	th_close(&t);
	return tag;
}

static void
test_error_tags(void)
{
	static const struct { const char *text; int tag; } cases[] = {
		{ "BEGIN { x = \"a\" + 1; }", D_OP_ARITH },
		{ "BEGIN { x = \"a\" % 2; }", D_OP_INT },
		{ "BEGIN { trace(nosuch); }", D_IDENT_UNDEF },
		{ "BEGIN { x = 1; x = \"s\"; }", D_OP_INCOMPAT },
		{ "BEGIN { 1 = 2; }", D_OP_LVAL },
		{ "BEGIN { pid = 2; }", D_OP_WRITE },
		{ "BEGIN { x = *1; }", D_DEREF_NONPTR },
		{ "BEGIN { x = 1 / 0; }", D_DIV_ZERO },
		{ "struct a { int x; }; struct b { int y; };\n"
		  "translator struct b < struct a *p > { y = \"s\"; }; BEGIN { }", D_XLATE_INCOMPAT },
		{ "struct a { int x; }; struct b { int y; };\n"
		  "translator struct b < struct a *p > { y = p->nosuch; }; BEGIN { }", D_TYPE_MEMBER },
		{ "int pid; BEGIN { }", D_DECL_IDRED },
		{ "int a[int]; int a[string]; BEGIN { }", D_DECL_IDRED },
		{ "int a[int]; int a[int, int]; BEGIN { }", D_DECL_IDRED },
		{ "typedef int foo_t; int foo_t; BEGIN { }", D_DECL_IDRED },
		{ "int x; typedef int x; BEGIN { }", D_DECL_IDRED },
		{ "static int x; BEGIN { }", D_DECL_BADCLASS },
		{ "long char c; BEGIN { }", D_DECL_CHARATTR },
		{ "unsigned void *p; BEGIN { }", D_DECL_VOIDATTR },
		{ "short long x; BEGIN { }", D_DECL_COMBO },
		{ "unsigned string s; BEGIN { }", D_DECL_SIGNINT },
		{ "#pragma D depends_on provider nosuch\nBEGIN { }", D_PRAGMA_DEPEND },
		{ "#pragma D depends_on provider\nBEGIN { }", D_PRAGMA_MALFORM },
		{ "#pragma D depends_on bogus x\nBEGIN { }", D_PRAGMA_INVAL },
		{ "BEGIN { nosuch(); }", D_FUNC_UNDEF },
		{ "BEGIN { strlen(); }", D_PROTO_LEN },
		{ "BEGIN { strlen(1); }", D_PROTO_ARG },
		{ "BEGIN { @a = count(); @a = sum(1); }", D_AGG_REDEF },
		{ "BEGIN { @a = 1; }", D_AGG_FUNC },
		{ "BEGIN { x = count(); }", D_CG_EXPR },
		{ "BEGIN { @a = count(); trace(@a + 1); }", D_OP_INCOMPAT },
		{ "BEGIN { @a = count(); trace(&@a); }", D_ADDROF_VAR },
		{ "BEGIN { @a = count(); @b[@a] = count(); }", D_KEY_TYPE },
		{ "BEGIN { @a = count(); trace(@a); }", D_TRACE_DYN },
		{ "BEGIN { @a = count(); @a; }", D_AGG_NULL },
		{ "BEGIN { @a; }", D_IDENT_UNDEF },
		{ "BEGIN { @a = nosuch(); }", D_FUNC_UNDEF },
		{ "BEGIN { printa(@none); }", D_PRINTA_AGGBAD },
		{ "BEGIN { trunc(@none); }", D_TRUNC_AGGBAD },
		{ "BEGIN { printf(\"%d\\n\", \"s\"); }", D_PRINTF_ARG_TYPE },
		{ "BEGIN { printf(\"%d %d\\n\", 1); }", D_PRINTF_ARG_PROTO },
		{ "BEGIN { printf(\"%d\\n\", 1, 2); }", D_PRINTF_ARG_EXTRA },
		{ "BEGIN { x = \"fmt\"; printf(x); }", D_PRINTF_ARG_FMT },
		{ "BEGIN { x = sizeof(void); }", D_SIZEOF_TYPE },
		{ "BEGIN { x = offsetof(int, a); }", D_OFFSETOF_TYPE },
		{ "struct s { int a; }; BEGIN { x = offsetof(struct s, b); }", D_TYPE_MEMBER },
		{ "BEGIN { x = (string)1; }", D_CAST_INVAL },
		{ "BEGIN /\"x\" + 1/ { }", D_OP_ARITH },
		{ "struct s { int a; }; struct s v; BEGIN /v/ { }", D_PRED_SCALAR },
		{ "BEGIN { x = 1; y = x.a; }", D_OP_SOU },
		{ "BEGIN { x = 1; y = x->a; }", D_OP_PTR },
		{ "BEGIN { x = args[0]; }", D_ARGS_NONE },
		{ "test:::fire { x = args[5]; }", D_ARGS_IDX },
		{ "BEGIN { a[1] = 1; a[1, 2] = 2; }", D_PROTO_LEN },
		{ "BEGIN { a[1] = 1; a[\"s\"] = 2; }", D_PROTO_ARG },
		{ "BEGIN { x = &self->y; }", D_ADDROF_VAR },
		{ "BEGIN { x = &1; }", D_ADDROF_LVAL },
		{ "BEGIN { trace(trace(1)); }", D_OP_ACT },
		{ "BEGIN { x = 1 + exit(0); }", D_OP_ACT },
		{ "BEGIN { stack(0); }", D_STACK_SIZE },
		{ "BEGIN { @q = lquantize(1, 10, 5, 1); }", D_LQUANT_MISMATCH },
		{ "BEGIN { x = $1; }", D_MACRO_UNDEF },
		{ "BEGIN { x = `kmem; }", D_SYM_NOTYPES },
		{ "struct s { int a; }; translator struct s < int x > { b = x; }; BEGIN { }", D_XLATE_MEMB },
		{ "struct s { int a; }; BEGIN { x = xlate <struct s *> (1)->a; }", D_XLATE_NONE },
		{ "int x; int x[int]; BEGIN {}", D_DECL_IDRED },
		{ "BEGIN { x = 1 ? \"a\" : 2; }", D_OP_INCOMPAT },
		{ "BEGIN { @a[1] = count(); @a[1][2] = count(); }", D_AGG_MDIM },
		{ "BEGIN { print(exit(0)); }", D_OP_ACT },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int tag = tag_of(cases[i].text);
		if (tag != cases[i].tag)
			fprintf(stderr, "\n%s: got %s, want %s\n", cases[i].text,
			    tag < 0 ? "success" : d_errtag_name(tag), d_errtag_name(cases[i].tag));
		CU_ASSERT_EQUAL(tag, cases[i].tag);
	}
}

static void
test_promotions(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_STRING_EQUAL(th_run(&t,
	    "BEGIN { c = (char)200; u = (unsigned char)200; s = (short)-1;\n"
	    "  printf(\"%d %d %d %d\\n\", c, u, s, c + u);\n"
	    "  printf(\"%d %d\\n\", (uint32_t)-1 > 0, -1 < (uint64_t)1);\n"
	    "  printf(\"%d %d\\n\", -7 / 2, -7 % 2);\n"
	    "  printf(\"%u %d\\n\", (uint64_t)-7 / 2 > 1000, 1 << 40 > 0); }"),
	    "-56 200 -1 144\n1 0\n-3 -1\n1 1\n\n");
	th_close(&t);
}

static void
test_variable_types(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t, "BEGIN { x = 1; s = \"str\"; self->t = timestamp; a[\"k\", 2] = s; this->p = &s; }"), -1);
	th_close(&t);
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t, "BEGIN { x = 1; s = \"str\"; self->t = timestamp; a[\"k\", 2] = s; }"), 0);
	struct d_var *v = d_var_lookup(t.dh, 0, "x");
	CU_ASSERT_STRING_EQUAL(v->dv_type->dt_name, "int");
	v = d_var_lookup(t.dh, 0, "s");
	CU_ASSERT_EQUAL(v->dv_type->dt_kind, DK_STRING);
	v = d_var_lookup(t.dh, DV_TLS, "t");
	CU_ASSERT_STRING_EQUAL(v->dv_type->dt_name, "uint64_t");
	v = d_var_lookup(t.dh, 0, "a");
	CU_ASSERT_EQUAL(v->dv_kind, DV_ASSOC);
	CU_ASSERT_EQUAL(v->dv_nkeys, 2);
	CU_ASSERT_EQUAL(v->dv_keys[0]->dt_kind, DK_STRING);
	th_close(&t);
}

/* DTrace's types of integer constants: decimal int, long, long long;
 * octal and hex also the unsigned types; suffixes start further on.  A
 * variable takes the type of a folded cast (char stays char). */
static void
test_constant_types(void)
{
	static const struct { const char *expr; const char *type; } cases[] = {
		{ "2147483647", "int" }, { "2147483648", "long" }, { "0x7fffffff", "int" },
		{ "0xffffffff", "unsigned int" }, { "0x100000000", "long" },
		{ "0xffffffffffffffff", "unsigned long" }, { "1u", "unsigned int" },
		{ "4294967296u", "unsigned long" }, { "1l", "long" }, { "1ul", "unsigned long" },
		{ "1ll", "long long" }, { "0x8000000000000000ll", "unsigned long long" },
		{ "'a'", "int" }, { "(char)-1", "char" }, { "(unsigned short)70000", "unsigned short" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct th t;
		char text[128];
		th_open(&t);
		snprintf(text, sizeof(text), "BEGIN { x = %s; }", cases[i].expr);
		CU_ASSERT_EQUAL(th_compile(&t, text), 0);
		struct d_var *v = d_var_lookup(t.dh, 0, "x");
		CU_ASSERT_PTR_NOT_NULL(v);
		if (v && strcmp(v->dv_type->dt_name, cases[i].type) != 0) {
			fprintf(stderr, "%s: %s, want %s\n", cases[i].expr, v->dv_type->dt_name, cases[i].type);
			CU_FAIL("constant type");
		}
		th_close(&t);
	}
	/* a decimal constant beyond long long is an error, as in DTrace */
	CU_ASSERT_EQUAL(tag_of("BEGIN { x = 18446744073709551615; }"), D_INT_OFLOW);
	CU_ASSERT_EQUAL(tag_of("BEGIN { x = 18446744073709551615u; }"), -1);
	CU_ASSERT_EQUAL(tag_of("#pragma D depends_on provider test\nBEGIN { }"), -1);
	/* redeclarations DTrace accepts */
	CU_ASSERT_EQUAL(tag_of("int x; int x; int a[int]; int a[int]; self int pid; BEGIN { }"), -1);
	CU_ASSERT_EQUAL(tag_of("struct foo { int a; }; struct foo foo; static int f(int); BEGIN { }"), -1);
}

static void
test_translators(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_STRING_EQUAL(th_run(&t,
	    "struct in { int a; int b; };\n"
	    "struct out { int sum; string name; };\n"
	    "translator struct out < struct in *p > { sum = p->a + p->b; name = \"x\"; };\n"
	    "struct in g;\n"
	    "BEGIN { g.a = 2; g.b = 3; printf(\"%d %s\\n\", xlate <struct out *> (&g)->sum,\n"
	    "  xlate <struct out *> (&g)->name); }"),
	    "5 x\n\n");
	th_close(&t);
	th_open(&t);
	CU_ASSERT_STRING_EQUAL(th_run(&t,
	    "BEGIN { printf(\"%d %d %s %d\\n\", curpsinfo->pr_pid == pid, curlwpsinfo->pr_lwpid == tid,\n"
	    "  curpsinfo->pr_fname == execname ? \"same\" : \"diff\", curcpu->cpu_id); }"),
	    "1 1 same 0\n\n");
	th_close(&t);
}

static void
test_sizeof_stringof(void)
{
	struct th t;
	th_open(&t);
	d_setopt(t.dh, "strsize", "32");
	CU_ASSERT_STRING_EQUAL(th_run(&t,
	    "struct s { char c; long l; short h; };\n"
	    "BEGIN { printf(\"%d %d %d %d %d\\n\", sizeof(struct s), sizeof(string), sizeof(int *),\n"
	    "  offsetof(struct s, h), sizeof (char)); p = (char *)alloca(4); p[0] = 'h'; p[1] = 'i';\n"
	    "  printf(\"%s\\n\", stringof(p)); }"),
	    "18 32 8 16 1\nhi\n\n");
	th_close(&t);
}

/* Destructive actions compile but are refused when enabling without the
 * destructive option, which a pragma after them may give (DTrace: "could
 * not enable tracing: Destructive actions not allowed"). */
static void
test_destructive(void)
{
	static const char *const acts[] = {
		"freopen(\"/tmp/x\")", "system(\"ls\")", "raise(9)", "stop()", "chill(1)",
		"breakpoint()", "panic()",
	};
	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
		char text[256];
		struct th t;
		snprintf(text, sizeof(text), "BEGIN { %s; }", acts[i]);
		th_open(&t);
		CU_ASSERT_EQUAL(th_compile(&t, text), 0);
		CU_ASSERT_EQUAL(d_enable_check(t.dh), -EPERM);
		CU_ASSERT_STRING_EQUAL(d_errmsg(t.dh), "Destructive actions not allowed");
		CU_ASSERT_EQUAL(d_go(t.dh), -EPERM);
		th_close(&t);
		snprintf(text, sizeof(text), "BEGIN { %s; }\n#pragma D option destructive\n", acts[i]);
		th_open(&t);
		CU_ASSERT_EQUAL(th_compile(&t, text), 0);
		CU_ASSERT_EQUAL(d_enable_check(t.dh), 0);
		th_close(&t);
	}
}

static const struct cu_test tests[] = {
	{ "destructive actions need -w", test_destructive },
	{ "types of integer constants", test_constant_types },
	{ "one D_ tag per violation", test_error_tags },
	{ "integer promotions and conversions", test_promotions },
	{ "variables take the type of their first assignment", test_variable_types },
	{ "translators and xlate, curpsinfo", test_translators },
	{ "sizeof, offsetof, stringof", test_sizeof_stringof },
	{ NULL, NULL }
};

CU_MAIN("dcore_cook", tests)
