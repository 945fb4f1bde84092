/*
 * dfmt_conv.c — the printf conversion dictionary: for each conversion its
 * C output format, the prototype text DTrace names in errors, a check
 * against an argument descriptor (compile time) and a print function
 * (firing time).  Adding a conversion adds a row.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dcons/dfmt_impl.h"

static int
is_int(const struct d_vdesc *vd)
{
	return vd->dv_kind == D_VK_INT || vd->dv_kind == D_VK_UINT;
}

static int
is_symaddr(const struct d_vdesc *vd)
{
	return vd->dv_kind == D_VK_KSYM || vd->dv_kind == D_VK_KMOD;
}

static int
is_usymaddr(const struct d_vdesc *vd)
{
	return vd->dv_kind == D_VK_USYM || vd->dv_kind == D_VK_UMOD ||
	    vd->dv_kind == D_VK_UADDR;
}

/* ---- checks: return 1 when the argument fits the conversion ------------ */

static int
ck_xint(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	(void)p;
	return is_int(vd);
}

/* %d and %i of a signed type print signed; of an unsigned type, unsigned. */
static int
ck_dint(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	if (vd->dv_kind == D_VK_INT)
		p->fp_flags |= DFMT_F_SIGNED;
	return is_int(vd);
}

static int
ck_csi(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	(void)p;
	return is_int(vd) && vd->dv_isize <= 4;
}

static int
ck_addr(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	(void)p;
	return is_int(vd) || vd->dv_kind == D_VK_PTR;
}

static int
ck_kaddr(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	return ck_addr(p, vd) || is_symaddr(vd);
}

static int
ck_uaddr(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	return ck_addr(p, vd) || is_usymaddr(vd);
}

static int
ck_stack(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	(void)p;
	return vd->dv_kind == D_VK_KSTACK || vd->dv_kind == D_VK_USTACK;
}

static int
ck_time(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	(void)p;
	return is_int(vd) && vd->dv_isize == 8;
}

static int
ck_str(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	(void)p;
	return vd->dv_kind == D_VK_STRING ||
	    (vd->dv_kind == D_VK_RAW && (vd->dv_flags & D_VF_CHARARR));
}

static int
ck_fp(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	(void)p;
	return vd->dv_kind == D_VK_FLOAT;
}

static int
ck_short(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	(void)p;
	return is_int(vd) && vd->dv_isize == 2;
}

static int
ck_int(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	(void)p;
	return is_int(vd) && vd->dv_isize == 4;
}

static int
ck_long(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	(void)p;
	return is_int(vd) && vd->dv_isize == 8;
}

static int
ck_none(struct dfmt_piece *p, const struct d_vdesc *vd)
{
	(void)p;
	(void)vd;
	return 1;
}

/* ---- printers ------------------------------------------------------------ */

static int
pr_sint(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	uint64_t v = (uint64_t)dfmt_ival(vd, val);
	unsigned sz = vd->dv_isize ? vd->dv_isize : 8;

	(void)cx;
	(void)p;
	/* as DTrace: the value read back at its type's size, as signed */
	if (sz < 8 && (v >> (sz * 8 - 1)) & 1)
		v |= ~0ULL << (sz * 8);
	else if (sz < 8)
		v &= (1ULL << (sz * 8)) - 1;
	return fprintf(out, cfmt, (long long)v);
}

/* Unsigned conversions see the value truncated to its type's size. */
static int
pr_uint(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	uint64_t v = (uint64_t)dfmt_ival(vd, val);
	unsigned sz = vd->dv_isize ? vd->dv_isize : 8;

	(void)cx;
	(void)p;
	if (sz < 8)
		v &= (1ULL << (sz * 8)) - 1;
	return fprintf(out, cfmt, (unsigned long long)v);
}

static int
pr_dint(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	if (p->fp_flags & DFMT_F_SIGNED)
		return pr_sint(out, cx, cfmt, p, vd, val);
	return pr_uint(out, cx, cfmt, p, vd, val);
}

static int
pr_char(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	(void)cx;
	(void)p;
	return fprintf(out, cfmt, (int)(unsigned char)dfmt_ival(vd, val));
}

static int
pr_fp(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	double d;

	(void)cx;
	(void)p;
	if (vd->dv_isize == 4) {
		float f;
		memcpy(&f, val, sizeof(f));
		d = f;
	} else {
		memcpy(&d, val, sizeof(d));
	}
	return fprintf(out, cfmt, d);
}

static int
pr_cstr(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	size_t n = vd->dv_size ? strnlen(val, vd->dv_size) : strlen(val);
	char *s = malloc(n + 1);
	int r;

	(void)cx;
	(void)p;
	if (s == NULL)
		return -ENOMEM;
	memcpy(s, val, n);
	s[n] = '\0';
	r = fprintf(out, cfmt, s);
	free(s);
	return r;
}

/* %S and %C: C escapes for what a terminal would not show as is. */
static size_t
esc_char(char *o, unsigned char c)
{
	static const char from[] = "\a\b\f\n\r\t\v\\\"";
	static const char to[] = "abfnrtv\\\"";
	const char *q = c ? strchr(from, c) : NULL;

	if (q != NULL) {
		o[0] = '\\';
		o[1] = to[q - from];
		return 2;
	}
	if (c >= ' ' && c <= '~') {
		o[0] = (char)c;
		return 1;
	}
	return (size_t)sprintf(o, "\\%03o", c);
}

static int
print_escaped(FILE *out, const char *cfmt, const char *s, size_t n)
{
	char *e = malloc(n * 4 + 1), *o = e;
	int r;

	if (e == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		o += esc_char(o, (unsigned char)s[i]);
	*o = '\0';
	r = fprintf(out, cfmt, e);
	free(e);
	return r;
}

static int
pr_estr(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	(void)cx;
	(void)p;
	return print_escaped(out, cfmt, val,
	    vd->dv_size ? strnlen(val, vd->dv_size) : strlen(val));
}

static int
pr_echr(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	char c = (char)dfmt_ival(vd, val);

	(void)cx;
	(void)p;
	return print_escaped(out, cfmt, &c, 1);
}

static int
pr_addr(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	char buf[512];
	uint64_t a = (uint64_t)dfmt_ival(vd, val);

	(void)p;
	/* %a prints module`function+0xoffset, like stack() frames. */
	if (cx->fc_sym && cx->fc_sym->ds_kernel &&
	    cx->fc_sym->ds_kernel(cx->fc_sym->ds_ctx, a, D_SYM_FULL, buf,
	    sizeof(buf)) >= 0)
		return fprintf(out, cfmt, buf);
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)a);
	return fprintf(out, cfmt, buf);
}

static int
pr_uaddr(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	uint64_t pc, pid = (uint64_t)cx->fc_target;
	char buf[512];

	(void)p;
	if (vd->dv_size == 16) {
		memcpy(&pid, val, 8);
		memcpy(&pc, (const char *)val + 8, 8);
	} else {
		pc = (uint64_t)dfmt_ival(vd, val);
	}
	if (cx->fc_sym && cx->fc_sym->ds_user &&
	    cx->fc_sym->ds_user(cx->fc_sym->ds_ctx, (int32_t)pid, pc,
	    D_SYM_FULL, buf, sizeof(buf)) >= 0)
		return fprintf(out, cfmt, buf);
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)pc);
	return fprintf(out, cfmt, buf);
}

/* mod()/umod()/sym()/usym() values printed through %a, %A or %s-like
 * conversions use their own text (DTrace swaps in pfprint_mod/umod). */
static int
pr_symtext(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	char buf[512];

	(void)p;
	dfmt_symtext(cx, vd, val, buf, sizeof(buf));
	return fprintf(out, cfmt, buf);
}

/* %k: the stack one frame per line.  A left-justified width is taken as
 * the indentation (DTrace's odd but useful rule), otherwise no indent. */
static int
pr_stack(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	int indent = 0;

	if (p->fp_flags & DFMT_F_LEFT)
		indent = p->fp_width < 0 ? -p->fp_width : p->fp_width;
	return dfmt_stack_fmt(out, cx, vd, val, indent, cfmt);
}

/* A time in ns since the epoch, as local time through strftime(tfmt). */
static int
pr_strftime(FILE *out, const char *cfmt, const struct d_vdesc *vd, const void *val,
    const char *tfmt)
{
	time_t sec = (time_t)((uint64_t)dfmt_ival(vd, val) / 1000000000ULL);
	struct tm tm;
	char buf[64];

	localtime_r(&sec, &tm);
	strftime(buf, sizeof(buf), tfmt, &tm);
	return fprintf(out, cfmt, buf);
}

/* %Y: "2026 Nov 21 23:59:00" (ctime's fields, year first). */
static int
pr_time(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	(void)cx;
	(void)p;
	return pr_strftime(out, cfmt, vd, val, "%Y %b %e %H:%M:%S");
}

/* %T: RFC 822 time. */
static int
pr_time822(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	(void)cx;
	(void)p;
	return pr_strftime(out, cfmt, vd, val, "%a, %d %b %G %T %Z");
}

static int
pr_pct(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
    const struct dfmt_piece *p, const struct d_vdesc *vd, const void *val)
{
	(void)cx;
	(void)cfmt;
	(void)p;
	(void)vd;
	(void)val;
	return fputc('%', out) == EOF ? -1 : 1;
}

static const char proto_xint[] = "char, short, int, long, or long long";
static const char proto_csi[] = "char, short, or int";
static const char proto_fp[] = "float, double, or long double";
static const char proto_addr[] = "pointer or integer";
static const char proto_uaddr[] =
    "pointer or integer (with -p/-c) or _usymaddr (without -p/-c)";
static const char proto_cstr[] = "char [] or string (or use stringof)";

/* The dictionary.  fc_cfmt is the C conversion our printer hands to
 * fprintf after the flags, width and precision. */
static const struct dfmt_conv dfmt_convs[] = {
	{ "a", "s", proto_addr, ck_kaddr, pr_addr },
	{ "A", "s", proto_uaddr, ck_uaddr, pr_uaddr },
	{ "c", "c", proto_csi, ck_csi, pr_char },
	{ "C", "s", proto_csi, ck_csi, pr_echr },
	{ "d", "lld", proto_xint, ck_dint, pr_dint },
	{ "e", "e", proto_fp, ck_fp, pr_fp },
	{ "E", "E", proto_fp, ck_fp, pr_fp },
	{ "f", "f", proto_fp, ck_fp, pr_fp },
	{ "g", "g", proto_fp, ck_fp, pr_fp },
	{ "G", "G", proto_fp, ck_fp, pr_fp },
	{ "hd", "lld", "short", ck_short, pr_sint },
	{ "hi", "lli", "short", ck_short, pr_sint },
	{ "ho", "llo", "unsigned short", ck_short, pr_uint },
	{ "hu", "llu", "unsigned short", ck_short, pr_uint },
	{ "hx", "llx", "short", ck_short, pr_uint },
	{ "hX", "llX", "short", ck_short, pr_uint },
	{ "i", "lli", proto_xint, ck_xint, pr_sint },
	{ "k", "s", "stack", ck_stack, pr_stack },
	{ "lc", "c", "int", ck_int, pr_char },
	{ "ld", "lld", "long", ck_long, pr_sint },
	{ "li", "lli", "long", ck_long, pr_sint },
	{ "lo", "llo", "unsigned long", ck_long, pr_uint },
	{ "lu", "llu", "unsigned long", ck_long, pr_uint },
	{ "lx", "llx", "long", ck_long, pr_uint },
	{ "lX", "llX", "long", ck_long, pr_uint },
	{ "lld", "lld", "long long", ck_long, pr_sint },
	{ "lli", "lli", "long long", ck_long, pr_sint },
	{ "llo", "llo", "unsigned long long", ck_long, pr_uint },
	{ "llu", "llu", "unsigned long long", ck_long, pr_uint },
	{ "llx", "llx", "long long", ck_long, pr_uint },
	{ "llX", "llX", "long long", ck_long, pr_uint },
	{ "Le", "e", "long double", ck_fp, pr_fp },
	{ "LE", "E", "long double", ck_fp, pr_fp },
	{ "Lf", "f", "long double", ck_fp, pr_fp },
	{ "Lg", "g", "long double", ck_fp, pr_fp },
	{ "LG", "G", "long double", ck_fp, pr_fp },
	{ "o", "llo", proto_xint, ck_xint, pr_uint },
	{ "p", "llx", proto_addr, ck_addr, pr_uint },
	{ "s", "s", proto_cstr, ck_str, pr_cstr },
	{ "S", "s", proto_cstr, ck_str, pr_estr },
	{ "T", "s", "int64_t", ck_time, pr_time822 },
	{ "u", "llu", proto_xint, ck_xint, pr_uint },
	{ "wc", "c", "int", ck_int, pr_char },
	{ "x", "llx", proto_xint, ck_xint, pr_uint },
	{ "X", "llX", proto_xint, ck_xint, pr_uint },
	{ "Y", "s", "int64_t", ck_time, pr_time },
	{ "%", "%", "void", ck_none, pr_pct },
	{ NULL, NULL, NULL, NULL, NULL }
};

const struct dfmt_conv *
dfmt_conv_lookup(const char *name)
{
	for (const struct dfmt_conv *c = dfmt_convs; c->fc_name; c++) {
		if (strcmp(c->fc_name, name) == 0)
			return c;
	}
	return NULL;
}

int
dfmt_conv_is_pct(const struct dfmt_conv *c)
{
	return c != NULL && c->fc_print == pr_pct;
}

/* The printer a value of this kind really uses: DTrace prints mod() and
 * umod() values as module names whatever the conversion; and %a/%A of a
 * func()/sym()/ufunc()/usym() value print the function, as they do for
 * the symbol-start addresses DTrace aggregates such keys on. */
dfmt_print_f
dfmt_conv_printer(const struct dfmt_conv *c, const struct d_vdesc *vd)
{
	if (vd->dv_kind == D_VK_KMOD || vd->dv_kind == D_VK_UMOD)
		return pr_symtext;
	if ((vd->dv_kind == D_VK_KSYM || vd->dv_kind == D_VK_USYM) &&
	    (c->fc_print == pr_addr || c->fc_print == pr_uaddr))
		return pr_symtext;
	return c->fc_print;
}
