/*
 * test_dcons_fmt.c — printf formats (parse, check, print), trace(),
 * tracemem(), stacks, print(), the probe header and flowindent prefixes,
 * against the layouts of DTrace's consumer.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cu.h"
#include "dcons/dfmt.h"

#include "memout.h"

static const struct dfmt_ctx noctx = { NULL, 0, 0, 14, 0 };
static const struct dfmt_ctx quietctx = { NULL, 1, 0, 14, 0 };

static struct d_vdesc
vint(int isize, int sgn)
{
	struct d_vdesc v = { sgn ? D_VK_INT : D_VK_UINT, (uint8_t)isize, 0, 8,
		0, 0, NULL };
	return v;
}

static const struct d_vdesc vstr = { D_VK_STRING, 0, 0, 256, 0, 0, NULL };
static const struct d_vdesc vptr = { D_VK_PTR, 8, 0, 8, 0, 0, NULL };

/* Parse fmt against n descriptors and print args into a string. */
static const char *
fmt1(const char *fmt, const struct d_vdesc *vd, int n, const void *const *args)
{
	const char *tag = NULL;
	char err[512];
	int e;
	dfmt_t *f = dfmt_parse("printf", fmt, DFMT_EXACT, vd, n, err,
	    sizeof(err), &tag, &e);
	FILE *fp;

	if (f == NULL) {
		printf("\nparse error: %s\n", err);
		return "<error>";
	}
	fp = mem_open();
	CU_ASSERT_EQUAL(dfmt_printf(fp, &noctx, f, args, n), 0);
	dfmt_free(f);
	return mem_close(fp);
}

static void
test_integers(void)
{
	struct d_vdesc v[13];
	const void *args[13];
	int64_t m42 = -42, p42 = 42;

	for (int i = 0; i < 13; i++) {
		v[i] = vint(4, 1);
		args[i] = i % 2 ? &p42 : &m42;
	}
	CU_ASSERT_STRING_EQUAL(fmt1("%d %i %u %o %x %X", v, 6, args),
	    "-42 42 4294967254 52 ffffffd6 2A");
	CU_ASSERT_STRING_EQUAL(fmt1("[%5d][%-5d][%05d][%+d][% d][%#x][%#o]", v,
	    7, args), "[  -42][42   ][-0042][+42][-42][0x2a][037777777726]");
	v[0] = vint(8, 0);
	{
		int64_t big = -1;
		const void *a1[1] = { &big };
		CU_ASSERT_STRING_EQUAL(fmt1("%d %u", (struct d_vdesc[]){ v[0],
		    v[0] }, 2, (const void *[]){ &big, &big }),
		    "18446744073709551615 18446744073709551615");
		v[1] = vint(8, 1);
		CU_ASSERT_STRING_EQUAL(fmt1("%d|%lld|%llx", (struct d_vdesc[]){
		    v[1], v[1], v[1] }, 3, (const void *[]){ &big, &big, &big }),
		    "-1|-1|ffffffffffffffff");
		CU_ASSERT_STRING_EQUAL(fmt1("%i", &v[0], 1, a1), "-1");
	}
	{
		/* 1- and 2-byte types */
		struct d_vdesc c = vint(1, 1), s = vint(2, 0);
		int64_t cv = -1, sv = 65535;
		CU_ASSERT_STRING_EQUAL(fmt1("%d %x %hu %hx", (struct d_vdesc[]){
		    c, c, s, s }, 4, (const void *[]){ &cv, &cv, &sv, &sv }),
		    "-1 ff 65535 ffff");
	}
}

static void
test_strings_chars(void)
{
	struct d_vdesc c = vint(4, 1);
	int64_t ch = 'A', nl = '\n';
	const char *s = "hello";
	const char *esc = "a\nb\t\"\\\001";

	CU_ASSERT_STRING_EQUAL(fmt1("%c%c", (struct d_vdesc[]){ c, c }, 2,
	    (const void *[]){ &ch, &ch }), "AA");
	CU_ASSERT_STRING_EQUAL(fmt1("[%10s][%-10s][%.3s]", (struct d_vdesc[]){
	    vstr, vstr, vstr }, 3, (const void *[]){ s, s, s }),
	    "[     hello][hello     ][hel]");
	CU_ASSERT_STRING_EQUAL(fmt1("%S", &vstr, 1, (const void *[]){ esc }),
	    "a\\nb\\t\\\"\\\\\\001");
	CU_ASSERT_STRING_EQUAL(fmt1("%C", &c, 1, (const void *[]){ &nl }),
	    "\\n");
	CU_ASSERT_STRING_EQUAL(fmt1("100%% done", NULL, 0, NULL), "100% done");
	CU_ASSERT_STRING_EQUAL(fmt1("plain text\n", NULL, 0, NULL),
	    "plain text\n");
}

static void
test_dynamic_width(void)
{
	struct d_vdesc v[3] = { vint(4, 1), vint(4, 1), vint(4, 1) };
	int64_t w = 6, nw = -6, p = 2, x = 7;
	struct d_vdesc sv[3] = { vint(4, 1), vint(4, 1), vstr };

	CU_ASSERT_STRING_EQUAL(fmt1("[%*d]", v, 2, (const void *[]){ &w, &x }),
	    "[     7]");
	CU_ASSERT_STRING_EQUAL(fmt1("[%*d]", v, 2, (const void *[]){ &nw, &x }),
	    "[7     ]");
	CU_ASSERT_STRING_EQUAL(fmt1("[%*.*s]", sv, 3, (const void *[]){ &w, &p,
	    "abcdef" }), "[    ab]");
	CU_ASSERT_STRING_EQUAL(fmt1("[%?d]", v, 1, (const void *[]){ &x }),
	    "[               7]");
}

static int
fake_ksym(void *ctx, uint64_t addr, int flags, char *buf, size_t len)
{
	(void)ctx;
	if (addr < 0x1000 || addr >= 0x2000)
		return -1;
	if (flags == D_SYM_MOD)
		return snprintf(buf, len, "vmlinux");
	if (flags == D_SYM_FUNC)
		return snprintf(buf, len, "vmlinux`foo");
	return snprintf(buf, len, "vmlinux`foo+0x%llx",
	    (unsigned long long)(addr - 0x1000));
}

static int
fake_usym(void *ctx, int32_t pid, uint64_t addr, int flags, char *buf,
    size_t len)
{
	(void)ctx;
	if (pid != 77 || addr < 0x400000)
		return -1;
	if (flags == D_SYM_MOD)
		return snprintf(buf, len, "a.out");
	if (flags == D_SYM_FUNC)
		return snprintf(buf, len, "a.out`main");
	return snprintf(buf, len, "a.out`main+0x%llx",
	    (unsigned long long)(addr - 0x400000));
}

static const struct d_symbolizer fsym = { NULL, fake_ksym, fake_usym };

static void
test_addresses(void)
{
	struct dfmt_ctx cx = { &fsym, 0, 0, 14, 77 };
	struct d_vdesc ks = { D_VK_KSYM, 0, 0, 8, 0, 0, NULL };
	struct d_vdesc us = { D_VK_UADDR, 0, 0, 16, 0, 0, NULL };
	struct d_vdesc um = { D_VK_UMOD, 0, 0, 16, 0, 0, NULL };
	uint64_t a = 0x1010, b = 0x9000, u[2] = { 77, 0x400020 };
	uint64_t p = 0x1234;
	dfmt_t *f;
	FILE *fp;

	f = dfmt_parse("printf", "%a|%a|%-14a|%A|%A|%p", 0, (struct d_vdesc[]){
	    vptr, vptr, ks, us, um, vptr }, 6, NULL, 0, NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fp = mem_open();
	dfmt_printf(fp, &cx, f, (const void *[]){ &a, &b, &a, u, u, &p }, 6);
	/* %a of a sym() value is the function, of a pointer the address */
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "vmlinux`foo+0x10|0x9000|"
	    "vmlinux`foo   |a.out`main+0x20|a.out|1234");
	dfmt_free(f);
	/* %A of a plain integer uses $target */
	f = dfmt_parse("printf", "%A", 0, &vptr, 1, NULL, 0, NULL, NULL);
	fp = mem_open();
	u[0] = 0x400008;
	dfmt_printf(fp, &cx, f, (const void *[]){ &u[0] }, 1);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "a.out`main+0x8");
	dfmt_free(f);
}

static void
test_stack_conversion(void)
{
	struct dfmt_ctx cx = { &fsym, 0, 0, 14, 0 };
	struct d_vdesc ks = { D_VK_KSTACK, 0, 0, 0, 4, 0, NULL };
	uint64_t st[4] = { 0x1004, 0x5, 0, 0 };
	dfmt_t *f;
	FILE *fp;

	f = dfmt_parse("printf", "<%k>|<%-4k>", 0, (struct d_vdesc[]){ ks, ks },
	    2, NULL, 0, NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fp = mem_open();
	dfmt_printf(fp, &cx, f, (const void *[]){ st, st }, 2);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "<\nvmlinux`foo+0x4\n0x5\n>|<\n"
	    "    vmlinux`foo+0x4\n    0x5\n>");
	dfmt_free(f);
}

static void
test_time_float(void)
{
	struct d_vdesc t = vint(8, 0);
	struct d_vdesc d = { D_VK_FLOAT, 8, 0, 8, 0, 0, NULL };
	uint64_t ts = 3600ULL * 1000000000ULL + 5;
	double pi = 3.25;

	setenv("TZ", "UTC", 1);
	tzset();
	CU_ASSERT_STRING_EQUAL(fmt1("%Y", &t, 1, (const void *[]){ &ts }),
	    "1970 Jan  1 01:00:00");
	CU_ASSERT_STRING_EQUAL(fmt1("%T", &t, 1, (const void *[]){ &ts }),
	    "Thu, 01 Jan 1970 01:00:00 UTC");
	CU_ASSERT_STRING_EQUAL(fmt1("%f %e %g %5.1f", (struct d_vdesc[]){ d, d,
	    d, d }, 4, (const void *[]){ &pi, &pi, &pi, &pi }),
	    "3.250000 3.250000e+00 3.25   3.2");
}

static void
expect_err(const char *fname, const char *fmt, int flags,
    const struct d_vdesc *vd, int n, const char *wtag, const char *wmsg)
{
	const char *tag = "unset";
	char err[512] = "";
	int e = 0;
	dfmt_t *f = dfmt_parse(fname, fmt, flags, vd, n, err, sizeof(err), &tag,
	    &e);

	CU_ASSERT_PTR_NULL(f);
	CU_ASSERT_EQUAL(e, -EINVAL);
	if (wtag == NULL) {
		CU_ASSERT_PTR_NULL(tag);
	} else {
		CU_ASSERT_STRING_EQUAL(tag ? tag : "(null)", wtag);
	}
	if (wmsg) {
		CU_ASSERT_STRING_EQUAL(err, wmsg);
	}
	dfmt_free(f);
}

static void
test_errors(void)
{
	struct d_vdesc i4 = vint(4, 1);
	struct d_vdesc sv = vstr;

	sv.dv_tname = "string";
	expect_err("printf", "%d", 0, &sv, 1, "D_PRINTF_ARG_TYPE",
	    "printf( ) argument #2 is incompatible with conversion #1 "
	    "prototype:\n\tconversion: %d\n\t prototype: char, short, int, "
	    "long, or long long\n\t  argument: string");
	expect_err("printf", "%s %d", 0, &sv, 1, "D_PRINTF_ARG_PROTO",
	    "printf( ) prototype mismatch: conversion #2 (%d) is missing a "
	    "corresponding value argument");
	expect_err("printf", "%d\n", DFMT_EXACT, (struct d_vdesc[]){ i4, i4 }, 2,
	    "D_PRINTF_ARG_EXTRA", "printf( ) prototype mismatch: only 1 "
	    "arguments required by this format string");
	expect_err("printf", "%@d", 0, NULL, 0, "D_PRINTF_AGG_CONV",
	    "%@ conversion requires an aggregation and is not for use with "
	    "printf( )");
	expect_err("printf", "", 0, NULL, 0, "D_PRINTF_FMT_EMPTY",
	    "printf( ) format string is empty");
	expect_err("printf", "%*d", 0, &i4, 1, "D_PRINTF_ARG_PROTO", NULL);
	expect_err("printf", "%*d", 0, NULL, 0, "D_PRINTF_DYN_PROTO",
	    "printf( ) prototype mismatch: conversion #1 (%d) is missing a "
	    "corresponding \"*\" argument");
	expect_err("printf", "%*d", 0, (struct d_vdesc[]){ sv, i4 }, 2,
	    "D_PRINTF_DYN_TYPE", NULL);
	expect_err("printf", "%z", 0, &i4, 1, "D_SYNTAX",
	    "format conversion #1 is undefined: %z");
	expect_err("printf", "abc %", 0, NULL, 0, "D_SYNTAX",
	    "format conversion #1 name expected before end of format string");
	expect_err("printf", "%1$d", 0, &i4, 1, "D_SYNTAX", "format conversion "
	    "#1 uses unsupported positional format (%n$)");
	expect_err("printf", "%c", 0, (struct d_vdesc[]){ vint(8, 1) }, 1,
	    "D_PRINTF_ARG_TYPE", NULL);
	expect_err("printf", "%f", 0, &i4, 1, "D_PRINTF_ARG_TYPE", NULL);
	expect_err("printf", "%k", 0, &i4, 1, "D_PRINTF_ARG_TYPE", NULL);
	expect_err("printa", "%s %@s", DFMT_PRINTA, &sv, 1, "D_PRINTF_ARG_TYPE",
	    "printa( ) aggregating action is incompatible with conversion #2 "
	    "prototype:\n\tconversion: %s\n\t prototype: char [] or string "
	    "(or use stringof)\n\t  argument: int64_t");
	/* printa formats need not use every key */
	{
		dfmt_t *f = dfmt_parse("printa", "%@d\n", DFMT_PRINTA, &i4, 1,
		    NULL, 0, NULL, NULL);
		CU_ASSERT_PTR_NOT_NULL(f);
		CU_ASSERT_EQUAL(dfmt_nargs(f), 0);
		CU_ASSERT_EQUAL(dfmt_naggs(f), 1);
		dfmt_free(f);
	}
}

static void
test_trace(void)
{
	struct d_vdesc sizes[4] = { vint(1, 1), vint(2, 1), vint(4, 1),
		vint(8, 1) };
	int64_t m2 = -2;
	char s[256] = "hello";
	FILE *fp = mem_open();

	for (int i = 0; i < 4; i++)
		dfmt_trace(fp, &noctx, &sizes[i], &m2);
	dfmt_trace(fp, &noctx, &vstr, s);
	/* the Linux dtrace(1): signed as the type is, as wide as its
	 * largest value */
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "  -2    -2         -2"
	    "                  -2  hello                            ");
	fp = mem_open();
	for (int i = 0; i < 4; i++)
		dfmt_trace(fp, &quietctx, &sizes[i], &m2);
	dfmt_trace(fp, &quietctx, &vstr, s);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "-2-2-2-2hello");
	/* unsigned types print unsigned: uint8_t 254, uint64_t 2^64 - 2 */
	{
		struct d_vdesc u1 = vint(1, 0), u8 = vint(8, 0);

		fp = mem_open();
		dfmt_trace(fp, &noctx, &u1, &m2);
		dfmt_trace(fp, &noctx, &u8, &m2);
		CU_ASSERT_STRING_EQUAL(mem_close(fp),
		    " 254 18446744073709551614");
	}
}

/* Bytes that do not look like a string are dumped; an empty D string is
 * an empty column. */
static void
test_trace_bytes(void)
{
	struct d_vdesc e = { D_VK_STRING, 0, 0, 4, 0, 0, NULL };
	struct d_vdesc raw = { D_VK_RAW, 0, 0, 5, 0, 0, NULL };
	const unsigned char bytes[5] = { 'A', 'B', 'C', 0, 1 };
	char hdr[200];
	FILE *fp;

	snprintf(hdr, sizeof(hdr), "\n%11s%s  0123456789abcdef\n", "",
	    "  0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f");
	fp = mem_open();
	dfmt_trace(fp, &quietctx, &e, "");
	dfmt_trace(fp, &noctx, &e, "");
	fputc('|', fp);
	CU_ASSERT_STRING_EQUAL(mem_close(fp),
	    "                                   |");
	fp = mem_open();
	dfmt_tracemem(fp, &quietctx, "\0\0\0\0", 4);
	{
		char exp[400];
		snprintf(exp, sizeof(exp), "%s%5s%5x: 00 00 00 00%36s  ....\n",
		    hdr, "", 0, "");
		CU_ASSERT_STRING_EQUAL(mem_close(fp), exp);
	}
	fp = mem_open();
	dfmt_trace(fp, &noctx, &raw, bytes);
	dfmt_tracemem(fp, &noctx, "AB", 2);
	{
		char exp[800];
		snprintf(exp, sizeof(exp), "%s%5s%5x: 41 42 43 00 01%33s  ABC..\n"
		    "%s%5s%5x: 41 42%42s  AB\n", hdr, "", 0, "", hdr, "", 0, "");
		CU_ASSERT_STRING_EQUAL(mem_close(fp), exp);
	}
}

static void
test_stacks_and_syms(void)
{
	struct dfmt_ctx cx = { &fsym, 0, 0, 14, 0 };
	struct d_vdesc ks = { D_VK_KSTACK, 0, 0, 0, 3, 0, NULL };
	struct d_vdesc us = { D_VK_USTACK, 0, 0, 0, 3, 0, NULL };
	struct d_vdesc ksym = { D_VK_KSYM, 0, 0, 8, 0, 0, NULL };
	struct d_vdesc umod = { D_VK_UMOD, 0, 0, 16, 0, 0, NULL };
	uint64_t kst[3] = { 0x1001, 0x1000, 0xdead };
	uint64_t ust[4] = { 77, 0x400010, 0x10, 0 };
	uint64_t sa = 0x1500, um[2] = { 77, 0x400000 };
	FILE *fp = mem_open();

	dfmt_trace(fp, &cx, &ks, kst);
	dfmt_trace(fp, &cx, &us, ust);
	dfmt_stack(fp, &noctx, &ks, kst, 2);
	dfmt_trace(fp, &cx, &ksym, &sa);
	dfmt_trace(fp, &cx, &umod, um);
	CU_ASSERT_STRING_EQUAL(mem_close(fp),
	    "\n"
	    "              vmlinux`foo+0x1\n"
	    "              vmlinux`foo+0x0\n"
	    "              0xdead\n"
	    "\n"
	    "              a.out`main+0x10\n"
	    "              0x10\n"
	    "\n"
	    "  0x1001\n"
	    "  0x1000\n"
	    "  0xdead\n"
	    "  vmlinux`foo                                       "
	    "  a.out                                             ");
}

struct s_inner {
	int32_t x;
	char c;
};

struct s_outer {
	int32_t a;
	struct s_inner in;
	char name[8];
	void *p;
	uint16_t arr[3];
};

static void
test_print(void)
{
	struct dfmt_member m[] = {
		{ "a", "int", { D_VK_INT, 4, 0, 4, 0, 0, NULL },
		    offsetof(struct s_outer, a), 1, 0 },
		{ "in", "struct inner", { D_VK_RAW, 0, 0, 8, 0, 0, NULL },
		    offsetof(struct s_outer, in), 1, 1 },
		{ "x", "int", { D_VK_INT, 4, 0, 4, 0, 0, NULL },
		    offsetof(struct s_outer, in.x), 2, 0 },
		{ "c", "char", { D_VK_INT, 1, D_VF_CHAR, 1, 0, 0, NULL },
		    offsetof(struct s_outer, in.c), 2, 0 },
		{ "name", "char [8]", { D_VK_RAW, 0, D_VF_CHARARR, 8, 0, 0,
		    NULL }, offsetof(struct s_outer, name), 1, 0 },
		{ "p", "void *", { D_VK_PTR, 8, 0, 8, 0, 0, NULL },
		    offsetof(struct s_outer, p), 1, 0 },
		{ "arr", "uint16_t [3]", { D_VK_RAW, 2, 0, 6, 0, 0, NULL },
		    offsetof(struct s_outer, arr), 1, 0 },
	};
	struct s_outer v;
	struct d_vdesc i4 = vint(4, 1);
	int64_t n = 42;
	FILE *fp;

	memset(&v, 0, sizeof(v));
	v.a = 5;
	v.in.x = 255;
	v.in.c = 'z';
	strcpy(v.name, "abc");
	v.p = (void *)(uintptr_t)0x1000;
	v.arr[0] = 0x14;
	v.arr[1] = 0x2e;
	fp = mem_open();
	CU_ASSERT_EQUAL(dfmt_print(fp, &noctx, "struct outer", NULL, m, 7, &v),
	    0);
	CU_ASSERT_STRING_EQUAL(mem_close(fp),
	    "struct outer {\n"
	    "    int a = 0x5\n"
	    "    struct inner in = {\n"
	    "        int x = 0xff\n"
	    "        char c = 'z'\n"
	    "    }\n"
	    "    char [8] name = [ \"abc\" ]\n"
	    "    void *p = 0x1000\n"
	    "    uint16_t [3] arr = [ 0x14, 0x2e, 0 ]\n"
	    "}");
	fp = mem_open();
	dfmt_print(fp, &noctx, "int", &i4, NULL, 0, &n);
	dfmt_print(fp, &noctx, "string", &vstr, NULL, 0, "foo");
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "int 0x2a\nstring \"foo\"\n");
}

static void
test_header_prefix(void)
{
	FILE *fp = mem_open();

	dfmt_header(fp);
	dfmt_probe_prefix(fp, 0, 1, "", "BEGIN");
	dfmt_probe_end(fp, &noctx);
	dfmt_probe_prefix(fp, 1, 75312, "do_sys_open", "entry");
	dfmt_probe_end(fp, &quietctx);
	/* "%3d %6d %32s " with FUNCTION:NAME right-aligned */
	CU_ASSERT_STRING_EQUAL(mem_close(fp),
	    "CPU     ID                    FUNCTION:NAME\n"
	    "  0      1                           :BEGIN \n"
	    "  1  75312                do_sys_open:entry ");
}

static void
test_flowindent(void)
{
	struct dfmt_flow fl = { 0 };
	FILE *fp = mem_open();

	dfmt_flow_header(fp);
	dfmt_flow_prefix(fp, &fl, 0, "fbt", "f", "entry");
	fputc('\n', fp);
	dfmt_flow_prefix(fp, &fl, 0, "fbt", "g", "entry");
	fputc('\n', fp);
	dfmt_flow_prefix(fp, &fl, 0, "profile", "", "tick-1s");
	fputc('\n', fp);
	dfmt_flow_prefix(fp, &fl, 0, "fbt", "g", "return");
	fputc('\n', fp);
	dfmt_flow_prefix(fp, &fl, 0, "syscall", "read", "return");
	fputc('\n', fp);
	dfmt_flow_prefix(fp, &fl, 1, "x", "carpentry", "carpentry");
	{
		/* "%3d %-41s " around the indented names */
		static const char *const names[] = { " -> f", "   -> g",
			"    | :tick-1s", "   <- g", " <= read",
			"| carpentry:carpentry" };
		char exp[1024], *o = exp;

		o += sprintf(o, "%3s %-41s\n", "CPU", "FUNCTION");
		for (int i = 0; i < 6; i++)
			o += sprintf(o, "%3d %-41s %s", i == 5, names[i],
			    i < 5 ? "\n" : "");
		CU_ASSERT_STRING_EQUAL(mem_close(fp), exp);
	}
}

static void
test_vsize(void)
{
	struct d_vdesc us = { D_VK_USTACK, 0, 0, 0, 5, 0, NULL };
	struct d_vdesc um = { D_VK_UMOD, 0, 0, 0, 0, 0, NULL };

	CU_ASSERT_EQUAL(dfmt_vsize(&us), 48);
	CU_ASSERT_EQUAL(dfmt_vsize(&um), 16);
	CU_ASSERT_EQUAL(dfmt_vsize(&vstr), 256);
	CU_ASSERT_EQUAL(dfmt_trace(NULL, &noctx, &vstr, ""), -EINVAL);
}

/* A 1 MB format of text and %% (~350k pieces): the piece array grew by
 * one, copying it each time (over a minute under ASan); now by doubling. */
static void
test_huge_format(void)
{
	size_t n = 350000;
	char *fmt = malloc(n * 3 + 1), err[256];
	for (size_t i = 0; i < n; i++)
		memcpy(fmt + 3 * i, "a%%", 3);
	fmt[3 * n] = '\0';
	const char *tag = NULL;
	int e = 0;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	dfmt_t *f = dfmt_parse("printf", fmt, DFMT_EXACT, NULL, 0, err, sizeof(err), &tag, &e);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	CU_ASSERT_PTR_NOT_NULL(f);
	if (secs >= 5)
		fprintf(stderr, "\na 1 MB format took %.1f s to parse\n", secs);
	CU_ASSERT(secs < 5);
	dfmt_free(f);
	free(fmt);
}

static const struct cu_test tests[] = {
	{ "a 1 MB format parses in linear time", test_huge_format },
	{ "integer conversions", test_integers },
	{ "strings and chars", test_strings_chars },
	{ "dynamic width and precision", test_dynamic_width },
	{ "addresses", test_addresses },
	{ "stack conversion", test_stack_conversion },
	{ "time and float", test_time_float },
	{ "format errors", test_errors },
	{ "trace", test_trace },
	{ "trace bytes", test_trace_bytes },
	{ "stacks and syms", test_stacks_and_syms },
	{ "print", test_print },
	{ "header and prefix", test_header_prefix },
	{ "flowindent", test_flowindent },
	{ "value sizes", test_vsize },
	{ NULL, NULL }
};

CU_MAIN("dcons_fmt", tests)
