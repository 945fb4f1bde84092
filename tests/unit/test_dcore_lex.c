/*
 * test_dcore_lex.c — the D lexer: contexts, literals, macros, control lines.
 */
#include <setjmp.h>

#include "tests/unit/cu.h"
#include "tests/unit/dcore_harness.h"
#include "dcore/d_impl.h"

/* Lex text in ctx; store up to n token codes; return count or -1 on error. */
static int
lex_all(struct th *t, const char *text, int ctx, int *toks, struct d_token *vals, int n)
{
	jmp_buf jb;
	struct d_lex lx;
	t->dh->dh_jmp = &jb;
	if (setjmp(jb)) {
		t->dh->dh_jmp = NULL;
		return -1;
	}
	d_lex_init(&lx, t->dh, text, "t.d");
	lx.lx_ctx = ctx;
	int i;
	for (i = 0; i < n; i++) {
		d_lex_next(&lx);
		toks[i] = lx.lx_tok.t_tok;
		if (vals)
			vals[i] = lx.lx_tok;
		if (lx.lx_tok.t_tok == T_EOF)
			break;
	}
	t->dh->dh_jmp = NULL;
	return i;
}

static void
test_outer_pspec(void)
{
	struct th t;
	int tk[16];
	struct d_token v[16];
	th_open(&t);
	int n = lex_all(&t, "syscall::read*:entry, profile-997\n/", D_LX_OUTER, tk, v, 16);
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_EQUAL(tk[0], T_PSPEC);
	CU_ASSERT_STRING_EQUAL(v[0].t_sval, "syscall::read*:entry");
	CU_ASSERT_EQUAL(tk[1], ',');
	CU_ASSERT_EQUAL(tk[2], T_PSPEC);
	CU_ASSERT_STRING_EQUAL(v[2].t_sval, "profile-997");
	CU_ASSERT_EQUAL(tk[3], '/');
	/* keywords and type names start declarations, not probe specifiers */
	n = lex_all(&t, "int uint64_t BEGIN", D_LX_OUTER, tk, v, 16);
	CU_ASSERT_EQUAL(tk[0], T_INT_K);
	CU_ASSERT_EQUAL(tk[1], T_TYPENAME);
	CU_ASSERT_EQUAL(tk[2], T_PSPEC);
	th_close(&t);
}

static void
test_pred_slash(void)
{
	struct th t;
	int tk[16];
	th_open(&t);
	/* a / b / closes at the second slash (followed by '{') */
	int n = lex_all(&t, "a / b / {", D_LX_PRED, tk, NULL, 16);
	CU_ASSERT_EQUAL(n, 5);
	CU_ASSERT_EQUAL(tk[1], '/');
	CU_ASSERT_EQUAL(tk[3], T_EPRED);
	/* inside parentheses a slash is always division */
	n = lex_all(&t, "(a / {", D_LX_PRED, tk, NULL, 16);
	CU_ASSERT_EQUAL(tk[2], '/');
	/* in a body '/' is division */
	n = lex_all(&t, "a / {", D_LX_BODY, tk, NULL, 16);
	CU_ASSERT_EQUAL(tk[1], '/');
	th_close(&t);
}

static void
test_literals(void)
{
	struct th t;
	int tk[16];
	struct d_token v[16];
	th_open(&t);
	int n = lex_all(&t, "0x1F 017 42ul 'a' '\\n' \"a\\tb\\x41\\101\"", D_LX_BODY, tk, v, 16);
	CU_ASSERT_EQUAL(n, 6);
	CU_ASSERT_EQUAL(v[0].t_ival, 31);
	CU_ASSERT_EQUAL(v[1].t_ival, 15);
	CU_ASSERT_EQUAL(v[2].t_ival, 42);
	CU_ASSERT_EQUAL(v[2].t_isuns, 1);
	CU_ASSERT_EQUAL(v[2].t_islong, 1);
	CU_ASSERT_EQUAL(tk[3], T_CHAR);
	CU_ASSERT_EQUAL(v[3].t_ival, 'a');
	CU_ASSERT_EQUAL(v[4].t_ival, '\n');
	CU_ASSERT_EQUAL(tk[5], T_STRING);
	CU_ASSERT_STRING_EQUAL(v[5].t_sval, "a\tbAA");
	/* errors */
	CU_ASSERT_EQUAL(lex_all(&t, "\"abc\ndef\"", D_LX_BODY, tk, v, 16), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_STR_NL);
	CU_ASSERT_EQUAL(lex_all(&t, "09", D_LX_BODY, tk, v, 16), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_INT_DIGIT);
	CU_ASSERT_EQUAL(lex_all(&t, "''", D_LX_BODY, tk, v, 16), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_CHR_NULL);
	CU_ASSERT_EQUAL(lex_all(&t, "0xffffffffffffffffff", D_LX_BODY, tk, v, 16), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_INT_OFLOW);
	th_close(&t);
}

static void
test_operators_comments(void)
{
	struct th t;
	int tk[32];
	th_open(&t);
	int n = lex_all(&t, "a->b /* c */ <<= ^^ // x\n ++ @cnt @", D_LX_BODY, tk, NULL, 32);
	CU_ASSERT_EQUAL(n, 8);
	CU_ASSERT_EQUAL(tk[1], T_ARROW);
	CU_ASSERT_EQUAL(tk[3], T_SHLEQ);
	CU_ASSERT_EQUAL(tk[4], T_LXOR);
	CU_ASSERT_EQUAL(tk[5], T_INC);
	CU_ASSERT_EQUAL(tk[6], T_AGG);
	CU_ASSERT_EQUAL(tk[7], T_AGG);
	CU_ASSERT_EQUAL(lex_all(&t, "/* open", D_LX_BODY, tk, NULL, 32), -1);
	th_close(&t);
}

static void
test_macros(void)
{
	struct th t;
	int tk[16];
	struct d_token v[16];
	char *argv[] = { "t.d", "42", "foo", "hello world" };
	th_open(&t);
	d_set_macro_args(t.dh, 4, argv);
	d_set_target(t.dh, 77);
	int n = lex_all(&t, "$1 $2 $$3 $target", D_LX_BODY, tk, v, 16);
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_EQUAL(tk[0], T_INT);
	CU_ASSERT_EQUAL(v[0].t_ival, 42);
	CU_ASSERT_EQUAL(tk[1], T_IDENT);
	CU_ASSERT_STRING_EQUAL(v[1].t_sval, "foo");
	CU_ASSERT_EQUAL(tk[2], T_STRING);
	CU_ASSERT_STRING_EQUAL(v[2].t_sval, "hello world");
	CU_ASSERT_EQUAL(v[3].t_ival, 77);
	n = lex_all(&t, "pid$target:::entry", D_LX_OUTER, tk, v, 16);
	CU_ASSERT_STRING_EQUAL(v[0].t_sval, "pid77:::entry");
	CU_ASSERT_EQUAL(lex_all(&t, "$9", D_LX_BODY, tk, v, 16), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_MACRO_UNDEF);
	d_setopt(t.dh, "defaultargs", NULL);
	n = lex_all(&t, "$9", D_LX_BODY, tk, v, 16);
	CU_ASSERT_EQUAL(v[0].t_ival, 0);
	th_close(&t);
}

static void
test_control_lines(void)
{
	struct th t;
	int tk[16];
	struct d_token v[16];
	th_open(&t);
	int n = lex_all(&t, "#!/usr/sbin/dtrace -s\n#pragma D option quiet\n# 40 \"x.d\"\nfoo", D_LX_BODY, tk, v, 16);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(v[0].t_line, 40);
	n = lex_all(&t, "#pragma D option strsize=512\nx", D_LX_BODY, tk, v, 16);
	int64_t val = 0;
	d_getopt(t.dh, "strsize", &val);
	CU_ASSERT_EQUAL(val, 512);
	CU_ASSERT_EQUAL(lex_all(&t, "#pragma D option nosuch\n", D_LX_BODY, tk, v, 16), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_PRAGMA_OPTSET);
	CU_ASSERT_EQUAL(lex_all(&t, "#foo\n", D_LX_BODY, tk, v, 16), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_PRAGCTL_INVAL);
	CU_ASSERT_EQUAL(lex_all(&t, "#pragma error \"stop here\"\n", D_LX_BODY, tk, v, 16), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_PRAGERR);
	th_close(&t);
}

/* Run d_lex_prescan over text; 0 or -1 on error. */
static int
prescan(struct th *t, const char *text)
{
	jmp_buf jb;
	struct d_lex lx;
	t->dh->dh_jmp = &jb;
	if (setjmp(jb)) {
		t->dh->dh_jmp = NULL;
		return -1;
	}
	d_lex_init(&lx, t->dh, text, "t.d");
	d_lex_prescan(&lx);
	t->dh->dh_jmp = NULL;
	return 0;
}

static void
test_prescan(void)
{
	struct th t;
	int64_t val = 0;
	th_open(&t);
	/* options anywhere; comments are skipped, and so are literals, which
	 * may hold comment openers: an opener inside a string opens nothing */
	CU_ASSERT_EQUAL(prescan(&t, "BEGIN { x = \"/*\\\"\"; c = '\"'; }\n"
	    "  #pragma D option strsize=77 aggsortrev\n"
	    "/*\n#pragma D option bufsize=1k\n*/ // #pragma D option strsize=10\n"
	    "#pragma error not now\n#pragma D nosuch\n#bogus\n"), 0);
	d_getopt(t.dh, "strsize", &val);
	CU_ASSERT_EQUAL(val, 77);
	d_getopt(t.dh, "aggsortrev", &val);
	CU_ASSERT_NOT_EQUAL(val, 0);
	d_getopt(t.dh, "bufsize", &val);
	CU_ASSERT_NOT_EQUAL(val, 1024);
	CU_ASSERT_EQUAL(prescan(&t, "#pragma D option nosuch\n"), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_PRAGMA_OPTSET);
	/* a bad option is reported with its line (after #line markers), before
	 * the clauses ahead of it are compiled */
	CU_ASSERT_EQUAL(th_compile(&t, "BEGIN { x = y + \"s\"; }\n# 30 \"x.d\"\n\n#pragma D option nosuch\n"), -1);
	CU_ASSERT_EQUAL(t.dh->dh_errtag, D_PRAGMA_OPTSET);
	CU_ASSERT_PTR_NOT_NULL(strstr(d_errmsg(t.dh), "line 31: failed to set option 'nosuch'"));
	th_close(&t);
}

static void
test_late_pragma_compiles(void)
{
	struct th t;
	th_open(&t);
	/* the option after the clause still applies to it */
	CU_ASSERT_EQUAL(th_compile(&t, "BEGIN { printf(\"%s|\", strjoin(\"abc\", \"defgh\")); trace(1); }\n"
	    "#pragma D option strsize=6\n#pragma D option quiet\n"), 0);
	th_go(&t);
	d_stop(t.dh);
	CU_ASSERT_STRING_EQUAL(th_out(&t), "abcde|1\n");
	th_close(&t);
}

static const struct cu_test tests[] = {
	{ "outer context: probe specifiers vs declarations", test_outer_pspec },
	{ "predicate-closing slash", test_pred_slash },
	{ "integer, char and string literals", test_literals },
	{ "operators, aggregations, comments", test_operators_comments },
	{ "macro arguments", test_macros },
	{ "control lines: #!, #pragma, line markers", test_control_lines },
	{ "prescan applies #pragma D option only", test_prescan },
	{ "a pragma after a clause applies to it", test_late_pragma_compiles },
	{ NULL, NULL }
};

CU_MAIN("dcore_lex", tests)
