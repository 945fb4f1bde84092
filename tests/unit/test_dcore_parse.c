/*
 * test_dcore_parse.c — the D parser: program structure, declarations,
 * precedence, and DTrace's syntax error messages.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/unit/cu.h"
#include "tests/unit/dcore_harness.h"
#include "dcore/d_impl.h"
#include "dcore/d_ident.h"

static const char *
compile_err(struct th *t, const char *text)
{
	return th_compile(t, text) == 0 ? "" : d_errmsg(t->dh);
}

static void
test_syntax_errors(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_STRING_EQUAL(compile_err(&t, "BEGIN\n{\n  x = 1;\n}\n}\n"),
	    "failed to compile script t.d: line 5: syntax error near \"}\"");
	CU_ASSERT_STRING_EQUAL(compile_err(&t, "BEGIN { x = ; }"),
	    "failed to compile script t.d: line 1: syntax error near \";\"");
	CU_ASSERT_STRING_EQUAL(compile_err(&t, "BEGIN { x = 1"),
	    "failed to compile script t.d: line 1: syntax error near end of input");
	th_close(&t);

	th_open(&t);
	CU_ASSERT_EQUAL(d_compile(t.dh, "BEGIN { printf( }", NULL), -1);
	CU_ASSERT_STRING_EQUAL(d_errmsg(t.dh), "invalid probe specifier BEGIN { printf( }: syntax error near \"}\"");
	d_setopt(t.dh, "errtags", NULL);
	CU_ASSERT_EQUAL(d_compile(t.dh, "BEGIN\n{ x = \"a\" + 1; }", "x.d"), -1);
	CU_ASSERT_STRING_EQUAL(d_errmsg(t.dh),
	    "failed to compile script x.d: [D_OP_ARITH] line 2: operator + requires operands of arithmetic type");
	th_close(&t);
}

static void
test_structure(void)
{
	struct th t;
	th_open(&t);
	/* several descriptions, globs, empty fields, a predicate, an empty body */
	CU_ASSERT_EQUAL(th_compile(&t, "test:::fire, test::fn:*\n/arg0 > 1/\n{ }\n::: other {}\nBEGIN"), 0);
	th_close(&t);
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t, "BEGIN { if (1) { x = 1 } else if (2) x = 2; else { x = 3; } }"), 0);
	CU_ASSERT_EQUAL(th_compile(&t, "BEGIN { ;;; }"), 0);
	CU_ASSERT_EQUAL(th_compile(&t, "BEGIN /1/ { }"), 0);
	th_close(&t);
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t, ""), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_EMPTY);
	CU_ASSERT_EQUAL(th_compile(&t, "nosuch:::probe { }"), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_PDESC_ZERO);
	CU_ASSERT_EQUAL(th_compile(&t, "test:::bad { }"), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_PDESC_INVAL);
	CU_ASSERT_EQUAL(th_compile(&t, "a:b:c:d:e { }"), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_PDESC_INVAL);
	d_setopt(t.dh, "zdefs", NULL);
	CU_ASSERT_EQUAL(th_compile(&t, "nosuch:::probe { }"), 0);
	th_close(&t);
}

static void
describe_cb(void *arg, const char *desc, int n)
{
	char *buf = arg;
	char one[128];
	snprintf(one, sizeof(one), "%s=%d;", desc, n);
	strcat(buf, one);
}

static void
test_describe(void)
{
	struct th t;
	char buf[512] = "";
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t, "BEGIN, test::: { } END { }"), 0);
	d_describe(t.dh, describe_cb, buf);
	CU_ASSERT_STRING_EQUAL(buf, "BEGIN=1;test:::=5;END=1;");
	CU_ASSERT_TRUE(d_probe_enabled(t.dh, 10));
	CU_ASSERT_FALSE(d_probe_enabled(t.dh, 3));
	th_close(&t);
}

static void
test_declarations(void)
{
	struct th t;
	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t,
	    "typedef unsigned long long my_t;\n"
	    "struct s { int a; char b[3]; struct s *next; long c : 3; };\n"
	    "union u { int i; char c; };\n"
	    "enum e { A, B = 10, C };\n"
	    "int g; string names[int]; self int tv; this long lv;\n"
	    "int (*fp)[4]; int *arr[4];\n"
	    "inline int K = B * 2;\n"
	    "BEGIN { }\n"), 0);
	struct d_type *s = d_type_tag(t.dh, DK_STRUCT, "s", false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->dt_size, 17);	/* no trailing padding; c:3 is one byte at 16 */
	CU_ASSERT_EQUAL(d_type_member(s, "next")->dm_off, 8);
	CU_ASSERT_EQUAL(d_type_member(s, "c")->dm_bits, 3);
	struct d_var *v = d_var_lookup(t.dh, 0, "names");
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_EQUAL(v->dv_kind, DV_ASSOC);
	CU_ASSERT_EQUAL(v->dv_nkeys, 1);
	v = d_var_lookup(t.dh, 0, "fp");
	CU_ASSERT_EQUAL(v->dv_type->dt_kind, DK_PTR);
	CU_ASSERT_EQUAL(v->dv_type->dt_ref->dt_kind, DK_ARRAY);
	v = d_var_lookup(t.dh, 0, "arr");
	CU_ASSERT_EQUAL(v->dv_type->dt_kind, DK_ARRAY);
	CU_ASSERT_EQUAL(v->dv_type->dt_ref->dt_kind, DK_PTR);
	CU_ASSERT_EQUAL(d_var_lookup(t.dh, 0, "K")->dv_inline->dn_ival, 20);
	CU_ASSERT_EQUAL(d_var_lookup(t.dh, DV_TLS, "tv")->dv_kind, DV_TLS);
	CU_ASSERT_PTR_NOT_NULL(d_type_lookup(t.dh, "my_t"));
	th_close(&t);

	th_open(&t);
	CU_ASSERT_EQUAL(th_compile(&t, "struct s { int a; }; struct s { int b; }; BEGIN{}"), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_DECL_TYPERED);
	CU_ASSERT_EQUAL(th_compile(&t, "struct t { int a : 40; }; BEGIN{}"), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_DECL_BFSIZE);
	CU_ASSERT_EQUAL(th_compile(&t, "int arr2[0]; BEGIN{}"), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_DECL_ARRSUB);
	CU_ASSERT_EQUAL(th_compile(&t, "void v; BEGIN{}"), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_DECL_VOIDOBJ);
	CU_ASSERT_EQUAL(th_compile(&t, "signed float f; BEGIN{}"), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_DECL_SIGNINT);
	CU_ASSERT_EQUAL(th_compile(&t, "this int x[int]; BEGIN{}"), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_DECL_LOCASSC);
	CU_ASSERT_EQUAL(th_compile(&t, "struct fwd f; BEGIN{}"), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_DECL_INCOMPLETE);
	CU_ASSERT_EQUAL(th_compile(&t, "enum big { Z = 0x100000000 }; BEGIN{}"), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_DECL_ENOFLOW);
	th_close(&t);
}

static void
test_precedence(void)
{
	struct th t;
	th_open(&t);
	/* folded at compile time: C precedence and associativity */
	CU_ASSERT_STRING_EQUAL(th_run(&t,
	    "BEGIN { printf(\"%d %d %d %d %d %d %d\\n\", 1 + 2 * 3, (1 + 2) * 3, 10 - 4 - 3,\n"
	    "  1 << 2 + 1, 7 & 3 == 3, 1 || 0 && 0, 2 ^^ 0); }"),
	    "7 9 3 8 1 1 1\n\n");
	th_close(&t);
	th_open(&t);
	CU_ASSERT_STRING_EQUAL(th_run(&t,
	    "BEGIN { x = 5; y = x > 3 ? x < 10 ? 1 : 2 : 3; z = -x * -2; w = !x; v = ~0;\n"
	    "  printf(\"%d %d %d %d\\n\", y, z, w, v); }"),
	    "1 10 0 -1\n\n");
	th_close(&t);
}

/* text of n copies of a, then mid, then n copies of b */
static char *
repeat3(const char *head, const char *a, int n, const char *mid, const char *b, const char *tail)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(strlen(head) + (la + lb) * (size_t)n + strlen(mid) + strlen(tail) + 1), *p = s;
	p = stpcpy(p, head);
	for (int i = 0; i < n; i++)
		p = stpcpy(p, a);
	p = stpcpy(p, mid);
	for (int i = 0; i < n; i++)
		p = stpcpy(p, b);
	strcpy(p, tail);
	return s;
}

/* Each of these overflowed the stack (SIGSEGV): every recursion of the
 * parser is bounded, with an error instead. */
static void
test_nesting_limits(void)
{
	static const struct {
		const char *head, *a, *mid, *b, *tail, *want;
		int n;
	} cases[] = {
		{ "int ", "(", "p", ")", ";", "line 1: declarator is too complex", 20000 },
		{ "struct s0 { ", "struct { ", "int x; ", "} a; ", "};",
		  "line 1: struct or union definition is too deeply nested", 40000 },
		{ "BEGIN { x = ", "(int)", "1", "", "; }", "line 1: expression is too deeply nested", 300000 },
		{ "BEGIN { x = ", "1 ? ", "1", " : 2", "; }", "line 1: expression is too deeply nested", 300000 },
		{ "BEGIN { ", "x = ", "1", "", "; }", "line 1: expression is too deeply nested", 300000 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct th t;
		char want[128];
		char *text = repeat3(cases[i].head, cases[i].a, cases[i].n, cases[i].mid, cases[i].b,
		    cases[i].tail);
		th_open(&t);
		snprintf(want, sizeof(want), "failed to compile script t.d: %s", cases[i].want);
		CU_ASSERT_STRING_EQUAL(compile_err(&t, text), want);
		th_close(&t);
		free(text);
	}
	/* the limits leave room for real programs */
	struct th t;
	char *text = repeat3("BEGIN { x = ", "(int)(", 200, "1", ")", "; }");
	th_open(&t);
	CU_ASSERT_STRING_EQUAL(compile_err(&t, text), "");
	th_close(&t);
	free(text);
}

/* Declaring an enumerator looked every earlier one up in a list: 50,000
 * took 7 to 50 s.  Now a hash: well under a second, even under ASan. */
static void
test_enum_linear(void)
{
	struct th t;
	char *text = malloc(50000 * 10 + 64), *p = text;
	p += sprintf(p, "enum e { ");
	for (int i = 0; i < 50000; i++)
		p += sprintf(p, "E%d, ", i);
	strcpy(p, "ELAST }; BEGIN { }");
	struct timespec a, b;
	th_open(&t);
	clock_gettime(CLOCK_MONOTONIC, &a);
	CU_ASSERT_STRING_EQUAL(compile_err(&t, text), "");
	clock_gettime(CLOCK_MONOTONIC, &b);
	double secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	if (secs >= 5)
		fprintf(stderr, "\n50,000 enumerators took %.1f s\n", secs);
	CU_ASSERT(secs < 5);
	struct d_var *v = d_var_lookup(t.dh, 0, "E49999");
	CU_ASSERT_PTR_NOT_NULL(v);
	if (v)
		CU_ASSERT_EQUAL(v->dv_ival, 49999);
	th_close(&t);
	free(text);
}

static const struct cu_test tests[] = {
	{ "nesting limits instead of stack overflows", test_nesting_limits },
	{ "an enum of 50,000 enumerators compiles in linear time", test_enum_linear },
	{ "syntax errors name the line and the token", test_syntax_errors },
	{ "clauses, descriptions, predicates, statements", test_structure },
	{ "d_describe counts matches per description", test_describe },
	{ "declarations build types and variables", test_declarations },
	{ "operator precedence and associativity", test_precedence },
	{ NULL, NULL }
};

CU_MAIN("dcore_parse", tests)
