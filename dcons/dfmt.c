/*
 * dfmt.c — printf()/printa() formats: parsing and checking at compile time,
 * printing at firing time; and the value printers DTrace's consumer uses
 * for trace(), tracemem(), stack()/ustack(), sym()/mod() and aggregation
 * keys (dt_print_bytes, dt_print_stack, dt_print_datum in libdtrace).
 *
 * Invariant: every conversion of a parsed format has a checked descriptor
 * (fp_vd) and an argument index, so printing never guesses a type.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dcons/dfmt_impl.h"

/* ---- parsing --------------------------------------------------------------- */

struct pstate {
	const char *fname;
	char *err;
	size_t errlen;
	const char **tagp;
};

static dfmt_t *
perr(struct pstate *ps, dfmt_t *f, const char *tag, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (ps->err && ps->errlen)
		vsnprintf(ps->err, ps->errlen, fmt, ap);
	va_end(ap);
	if (ps->tagp)
		*ps->tagp = tag;
	dfmt_free(f);
	return NULL;
}

static struct dfmt_piece *
piece_new(dfmt_t *f)
{
	struct dfmt_piece *np;

	/* by doubling: a 1 MB format has ~500k pieces, and growing by one
	 * copied the array each time (minutes under ASan) */
	if (f->f_npieces == f->f_cap) {
		int cap = f->f_cap ? f->f_cap * 2 : 8;
		np = realloc(f->f_pieces, (size_t)cap * sizeof(*np));
		if (np == NULL)
			return NULL;
		f->f_pieces = np;
		f->f_cap = cap;
	}
	np = &f->f_pieces[f->f_npieces++];
	memset(np, 0, sizeof(*np));
	np->fp_arg = np->fp_warg = np->fp_parg = -1;
	return np;
}

/* A run of digits at p: a leading 0 is the zero-pad flag, else the width
 * (the precision after '.').  Returns the last character used. */
static const char *
conv_digits(struct dfmt_piece *pc, const char *p, int dot, int *digits)
{
	int v = 0;

	if (!dot && !*digits && *p == '0') {
		pc->fp_flags |= DFMT_F_ZPAD;
		pc->fp_flags &= ~DFMT_F_LEFT;
		return p;
	}
	for (; isdigit((unsigned char)*p) && v < 100000; p++)
		v = v * 10 + (*p - '0');
	*(dot ? &pc->fp_prec : &pc->fp_width) = v;
	++*digits;
	return p - 1;
}

/* A one-character flag: applied, and 1; anything else 0. */
static int
conv_flag(struct dfmt_piece *pc, char c)
{
	switch (c) {
	case '#': pc->fp_flags |= DFMT_F_ALT; return 1;
	case '+': pc->fp_flags |= DFMT_F_SPOS; return 1;
	case ' ': pc->fp_flags |= DFMT_F_SPACE; return 1;
	case '\'': pc->fp_flags |= DFMT_F_GROUP; return 1;
	case '@': pc->fp_flags |= DFMT_F_AGG; return 1;
	case '?': pc->fp_width = 16; return 1;
	case '-':
		pc->fp_flags |= DFMT_F_LEFT;
		pc->fp_flags &= ~DFMT_F_ZPAD;
		return 1;
	default:
		return 0;
	}
}

/*
 * conversion = '%' { flag | digits | '.' | '*' | '?' | '@' } [h|l|ll|L|w] name
 * Returns a pointer to the conversion's last character, or NULL with the
 * error filled in (DTrace reports these as D_SYNTAX).
 */
static const char *
parse_conv(struct pstate *ps, struct dfmt_piece *pc, const char *p, int n)
{
	int digits = 0, dot = 0, namelen = 0;
	char c;

	for (;;) {
		c = *++p;
		if (isdigit((unsigned char)c)) {
			p = conv_digits(pc, p, dot, &digits);
			continue;
		}
		if (conv_flag(pc, c))
			continue;
		switch (c) {
		case '*': {
			uint32_t fl = dot ? DFMT_F_DYNP : DFMT_F_DYNW;

			if (pc->fp_flags & fl) {
				perr(ps, NULL, "D_SYNTAX", "format conversion #%d has "
				    "more than one '*' specified for the output "
				    "%s", n, dot ? "precision" : "width");
				return NULL;
			}
			pc->fp_flags |= fl;
			continue;
		}
		case '.':
			if (dot++) {
				perr(ps, NULL, "D_SYNTAX", "format conversion #%d has "
				    "more than one '.' specified", n);
				return NULL;
			}
			digits = 0;
			continue;
		case '$':
			perr(ps, NULL, "D_SYNTAX", "format conversion #%d uses "
			    "unsupported positional format (%%n$)", n);
			return NULL;
		case '%':
			if (p[-1] == '%') {
				pc->fp_name[namelen++] = c;
				break;
			}
			perr(ps, NULL, "D_SYNTAX", "format conversion #%d cannot be "
			    "combined with other format flags: %%%%", n);
			return NULL;
		case '\0':
			perr(ps, NULL, "D_SYNTAX", "format conversion #%d name "
			    "expected before end of format string", n);
			return NULL;
		case 'h': case 'l': case 'L': case 'w':
			if (namelen < (int)sizeof(pc->fp_name) - 2)
				pc->fp_name[namelen++] = c;
			continue;
		default:
			pc->fp_name[namelen++] = c;
			break;
		}
		break;
	}
	pc->fp_name[namelen] = '\0';
	pc->fp_conv = dfmt_conv_lookup(pc->fp_name);
	if (pc->fp_conv == NULL) {
		perr(ps, NULL, "D_SYNTAX", "format conversion #%d is undefined: %%%s",
		    n, pc->fp_name);
		return NULL;
	}
	return p;
}

static dfmt_t *
parse_text(struct pstate *ps, const char *text, int *errp)
{
	dfmt_t *f = calloc(1, sizeof(*f));
	struct dfmt_piece *pc;
	const char *p, *q;
	int n = 0;

	if (f == NULL || (f->f_text = strdup(text)) == NULL) {
		dfmt_free(f);
		*errp = -ENOMEM;
		return NULL;
	}
	for (q = f->f_text; (p = strchr(q, '%')) != NULL; q = *p ? p + 1 : p) {
		if ((pc = piece_new(f)) == NULL) {
			*errp = -ENOMEM;
			return perr(ps, f, NULL, "out of memory");
		}
		pc->fp_prefix = q;
		pc->fp_preflen = (size_t)(p - q);
		if ((p = parse_conv(ps, pc, p, ++n)) == NULL) {
			*errp = -EINVAL;
			dfmt_free(f);
			return NULL;
		}
	}
	if (*q != '\0' || f->f_text[0] == '\0') {
		if ((pc = piece_new(f)) == NULL) {
			*errp = -ENOMEM;
			return perr(ps, f, NULL, "out of memory");
		}
		pc->fp_prefix = q;
		pc->fp_preflen = strlen(q);
	}
	return f;
}

static const char *
vd_tname(const struct d_vdesc *vd, char *buf, size_t len)
{
	static const char *const kn[] = {
		[D_VK_PTR] = "void *", [D_VK_STRING] = "string",
		[D_VK_KSTACK] = "stack", [D_VK_USTACK] = "stack",
		[D_VK_KSYM] = "_symaddr", [D_VK_KMOD] = "_symaddr",
		[D_VK_USYM] = "_usymaddr", [D_VK_UMOD] = "_usymaddr",
		[D_VK_UADDR] = "_usymaddr", [D_VK_RAW] = "struct",
		[D_VK_FLOAT] = "double",
	};
	static const char *const in[] = { "char", "char", "short", "int",
		"int", "long", "long", "long", "long" };

	if (vd->dv_tname)
		return vd->dv_tname;
	if (vd->dv_kind == D_VK_INT || vd->dv_kind == D_VK_UINT) {
		snprintf(buf, len, "%s%s", vd->dv_kind == D_VK_UINT ?
		    "unsigned " : "", in[vd->dv_isize <= 8 ? vd->dv_isize : 8]);
		return buf;
	}
	if (vd->dv_kind < D_VK_NKINDS && kn[vd->dv_kind])
		return kn[vd->dv_kind];
	return "void";
}

/* Dynamic width/precision arguments come first, width before precision. */
static dfmt_t *
check_dyn(struct pstate *ps, dfmt_t *f, struct dfmt_piece *pc, int n,
    const struct d_vdesc *args, int nargs, int *j, int foff)
{
	static const uint32_t fl[2] = { DFMT_F_DYNW, DFMT_F_DYNP };
	static const char *const nm[2] = { "*", ".*" };
	char tb[32];

	for (int k = 0; k < 2; k++) {
		if (!(pc->fp_flags & fl[k]))
			continue;
		if (*j >= nargs)
			return perr(ps, f, "D_PRINTF_DYN_PROTO", "%s( ) prototype "
			    "mismatch: conversion #%d (%%%s) is missing a "
			    "corresponding \"%s\" argument", ps->fname, n,
			    pc->fp_name, nm[k]);
		if (args[*j].dv_kind != D_VK_INT &&
		    args[*j].dv_kind != D_VK_UINT)
			return perr(ps, f, "D_PRINTF_DYN_TYPE", "%s( ) argument "
			    "#%d is incompatible with conversion #%d prototype:"
			    "\n\tconversion: %% %s %s\n\t prototype: int\n\t  "
			    "argument: %s", ps->fname, *j + foff + 1, n, nm[k],
			    pc->fp_name, vd_tname(&args[*j], tb, sizeof(tb)));
		*(k == 0 ? &pc->fp_warg : &pc->fp_parg) = (*j)++;
	}
	return f;
}

/* Check one conversion; *j is the next unconsumed argument. */
static dfmt_t *
check_piece(struct pstate *ps, dfmt_t *f, struct dfmt_piece *pc, int n,
    const struct d_vdesc *args, int nargs, int *j, int flags)
{
	int foff = 1;	/* the format is argument #1, for printa( ) too */
	char vname[32], tb[32];

	if (dfmt_conv_is_pct(pc->fp_conv))
		return f;
	if (check_dyn(ps, f, pc, n, args, nargs, j, foff) == NULL)
		return NULL;
	if (pc->fp_flags & DFMT_F_AGG) {
		if (!(flags & DFMT_PRINTA))
			return perr(ps, f, "D_PRINTF_AGG_CONV", "%%@ conversion "
			    "requires an aggregation and is not for use with "
			    "%s( )", ps->fname);
		pc->fp_vd.dv_kind = (flags & DFMT_AGGCOUNT) ? D_VK_UINT :
		    D_VK_INT;
		pc->fp_vd.dv_isize = 8;
		pc->fp_vd.dv_size = 8;
		pc->fp_vd.dv_tname = (flags & DFMT_AGGCOUNT) ? "uint64_t" :
		    "int64_t";
		snprintf(vname, sizeof(vname), "aggregating action");
		f->f_naggs++;
	} else if (*j >= nargs) {
		return perr(ps, f, "D_PRINTF_ARG_PROTO", "%s( ) prototype "
		    "mismatch: conversion #%d (%%%s) is missing a "
		    "corresponding value argument", ps->fname, n, pc->fp_name);
	} else {
		snprintf(vname, sizeof(vname), "argument #%d", *j + foff + 1);
		pc->fp_vd = args[*j];
		pc->fp_arg = (*j)++;
	}
	if (!(flags & DFMT_NOARGS) &&
	    !pc->fp_conv->fc_check(pc, &pc->fp_vd))
		return perr(ps, f, "D_PRINTF_ARG_TYPE", "%s( ) %s is "
		    "incompatible with conversion #%d prototype:\n\tconversion: "
		    "%%%s\n\t prototype: %s\n\t  argument: %s", ps->fname, vname,
		    n, pc->fp_name, pc->fp_conv->fc_proto,
		    vd_tname(&pc->fp_vd, tb, sizeof(tb)));
	return f;
}

dfmt_t *
dfmt_parse(const char *fname, const char *fmt, int flags,
    const struct d_vdesc *args, int nargs, char *err, size_t errlen,
    const char **tagp, int *errp)
{
	struct pstate ps = { fname ? fname : "printf", err, errlen, tagp };
	int dummy, j = 0, n = 0;
	dfmt_t *f;

	if (errp == NULL)
		errp = &dummy;
	if (tagp)
		*tagp = NULL;
	if (fmt == NULL || (nargs > 0 && args == NULL)) {
		*errp = -EINVAL;
		return perr(&ps, NULL, NULL, "%s( ) format is missing", ps.fname);
	}
	if (fmt[0] == '\0') {
		*errp = -EINVAL;
		return perr(&ps, NULL, "D_PRINTF_FMT_EMPTY",
		    "%s( ) format string is empty", ps.fname);
	}
	if ((f = parse_text(&ps, fmt, errp)) == NULL)
		return NULL;
	f->f_flags = flags;
	for (int i = 0; i < f->f_npieces; i++) {
		if (f->f_pieces[i].fp_conv == NULL)
			continue;
		if (check_piece(&ps, f, &f->f_pieces[i], ++n, args, nargs, &j,
		    flags) == NULL) {
			*errp = -EINVAL;
			return NULL;
		}
	}
	f->f_nargs = j;
	if ((flags & DFMT_EXACT) && j < nargs) {
		*errp = -EINVAL;
		return perr(&ps, f, "D_PRINTF_ARG_EXTRA", "%s( ) prototype "
		    "mismatch: only %d arguments required by this format string",
		    ps.fname, j);
	}
	*errp = 0;
	return f;
}

void
dfmt_free(dfmt_t *f)
{
	if (f == NULL)
		return;
	free(f->f_pieces);
	free(f->f_text);
	free(f);
}

int
dfmt_nargs(const dfmt_t *f)
{
	return f ? f->f_nargs : 0;
}

int
dfmt_naggs(const dfmt_t *f)
{
	return f ? f->f_naggs : 0;
}

/* ---- printing a format ----------------------------------------------------- */

/* "%" flags width .prec conversion, as DTrace rebuilds it per conversion. */
static void
build_cfmt(char *buf, size_t len, const struct dfmt_piece *pc, int width,
    int prec, int nowidth)
{
	const char *conv = pc->fp_conv->fc_cfmt;
	char *o = buf;

	*o++ = '%';
	if (pc->fp_flags & DFMT_F_ALT)
		*o++ = '#';
	if (pc->fp_flags & DFMT_F_ZPAD)
		*o++ = '0';
	if (width < 0 || (pc->fp_flags & DFMT_F_LEFT))
		*o++ = '-';
	if (pc->fp_flags & DFMT_F_SPOS)
		*o++ = '+';
	if (pc->fp_flags & DFMT_F_GROUP)
		*o++ = '\'';
	if (pc->fp_flags & DFMT_F_SPACE)
		*o++ = ' ';
	*o = '\0';
	if (width != 0 && !nowidth)
		o += sprintf(o, "%d", width < 0 ? -width : width);
	if (prec > 0)
		o += sprintf(o, ".%d", prec);
	/* %d of an unsigned value is %u, as DTrace rewrites it */
	if (strcmp(pc->fp_name, "d") == 0 && !(pc->fp_flags & DFMT_F_SIGNED))
		conv = "llu";
	snprintf(o, len - (size_t)(o - buf), "%s", conv);
}

/* A '*' argument is an integer in the usual 8-byte encoding. */
static int
dyn_int(const void *const *args, int nargs, int idx, int def)
{
	int64_t v;

	if (idx < 0 || idx >= nargs || args[idx] == NULL)
		return def;
	memcpy(&v, args[idx], sizeof(v));
	if (v > 100000 || v < -100000)
		v = v < 0 ? -100000 : 100000;
	return (int)v;
}

/* The value's real signedness decides what %@d prints. */
static int
print_agg(FILE *out, const struct dfmt_ctx *cx, struct dfmt_piece *p,
    int width, int prec, const struct dfmt_aggval *av)
{
	int64_t v = av->av_val;
	char cfmt[64];

	if (av->av_print)
		return av->av_print(out, av->av_ctx);
	p->fp_vd.dv_kind = av->av_unsigned ? D_VK_UINT : D_VK_INT;
	p->fp_vd.dv_isize = 8;
	if (av->av_unsigned)
		p->fp_flags &= ~DFMT_F_SIGNED;
	else
		p->fp_flags |= DFMT_F_SIGNED;
	build_cfmt(cfmt, sizeof(cfmt), p, width, prec, 0);
	return dfmt_conv_printer(p->fp_conv, &p->fp_vd)(out, cx, cfmt, p,
	    &p->fp_vd, &v);
}

static int
print_piece(FILE *out, const struct dfmt_ctx *cx, const struct dfmt_piece *pc,
    const void *const *args, int nargs, const struct dfmt_aggval *aggs,
    int naggs, int *cur)
{
	struct dfmt_piece p = *pc;
	char cfmt[64];
	int width = dyn_int(args, nargs, pc->fp_warg, pc->fp_width);
	int prec = dyn_int(args, nargs, pc->fp_parg, pc->fp_prec);
	dfmt_print_f pr;

	p.fp_width = width;
	if (width < 0)
		p.fp_flags |= DFMT_F_LEFT;
	if (pc->fp_flags & DFMT_F_AGG) {
		int r;

		if (naggs <= 0)
			return -EINVAL;
		r = print_agg(out, cx, &p, width, prec, &aggs[*cur]);
		if (*cur < naggs - 1)
			(*cur)++;
		return r;
	}
	pr = dfmt_conv_printer(pc->fp_conv, &pc->fp_vd);
	build_cfmt(cfmt, sizeof(cfmt), &p, width, prec,
	    pc->fp_conv->fc_name[0] == 'k' && (p.fp_flags & DFMT_F_LEFT));
	if (dfmt_conv_is_pct(pc->fp_conv))
		return pr(out, cx, cfmt, &p, &pc->fp_vd, NULL);
	if (pc->fp_arg < 0 || pc->fp_arg >= nargs || args[pc->fp_arg] == NULL)
		return -EINVAL;
	return pr(out, cx, cfmt, &p, &pc->fp_vd, args[pc->fp_arg]);
}

int
dfmt_format(FILE *fp, const struct dfmt_ctx *cx, const dfmt_t *f,
    const void *const *args, int nargs, const struct dfmt_aggval *aggs,
    int naggs)
{
	int cur = 0, r;

	if (fp == NULL || cx == NULL || f == NULL)
		return -EINVAL;
	for (int i = 0; i < f->f_npieces; i++) {
		const struct dfmt_piece *pc = &f->f_pieces[i];

		if (pc->fp_preflen &&
		    fwrite(pc->fp_prefix, 1, pc->fp_preflen, fp) !=
		    pc->fp_preflen)
			return -EIO;
		if (pc->fp_conv == NULL)
			continue;
		r = print_piece(fp, cx, pc, args, nargs, aggs, naggs, &cur);
		if (r < 0)
			return r == -1 ? -EIO : r;
	}
	return 0;
}

int
dfmt_printf(FILE *fp, const struct dfmt_ctx *cx, const dfmt_t *f,
    const void *const *args, int nargs)
{
	if (f != NULL && nargs < f->f_nargs)
		return -EINVAL;
	return dfmt_format(fp, cx, f, args, nargs, NULL, 0);
}

/* ---- value printers shared with trace() and printa() ------------------------ */

static int
is_printable(unsigned char c)
{
	return isprint(c) || isspace(c) || c == '\b' || c == '\a';
}

static int
print_dump(FILE *fp, const unsigned char *c, size_t n)
{
	const int margin = 5;

	DFMT_CHK(fprintf(fp, "\n%*s      ", margin, ""));
	for (int i = 0; i < 16; i++)
		DFMT_CHK(fprintf(fp, "  %c", "0123456789abcdef"[i]));
	DFMT_CHK(fprintf(fp, "  0123456789abcdef\n"));
	for (size_t i = 0; i < n; i += 16) {
		size_t j;

		DFMT_CHK(fprintf(fp, "%*s%5zx:", margin, "", i));
		for (j = i; j < i + 16 && j < n; j++)
			DFMT_CHK(fprintf(fp, " %02x", c[j]));
		for (; j % 16; j++)
			DFMT_CHK(fprintf(fp, "   "));
		DFMT_CHK(fprintf(fp, "  "));
		for (j = i; j < i + 16 && j < n; j++)
			DFMT_CHK(fputc(c[j] < ' ' || c[j] > '~' ? '.' : c[j],
			    fp));
		DFMT_CHK(fputc('\n', fp));
	}
	return 0;
}

/* A string is printable characters, then NULs to the end (or no NUL at
 * all); anything else is dumped.  An empty string is dumped too. */
int
dfmt_bytes(FILE *fp, const struct dfmt_ctx *cx, const void *buf, size_t n,
    int width, int quiet, int forceraw)
{
	const unsigned char *c = buf;
	size_t i, j;

	if (n == 0)
		return 0;
	if (forceraw || (cx && cx->fc_rawbytes))
		return print_dump(fp, c, n);
	for (i = 0; i < n && is_printable(c[i]); i++)
		continue;
	if (i == n) {
		DFMT_CHK(fprintf(fp, "  %-*.*s", width < 0 ? -width : width,
		    (int)n, (const char *)c));
		return 0;
	}
	if (c[i] != '\0' || i == 0)
		return print_dump(fp, c, n);
	for (j = i + 1; j < n && c[j] == '\0'; j++)
		continue;
	if (j != n)
		return print_dump(fp, c, n);
	if (quiet)
		DFMT_CHK(fprintf(fp, "%s", (const char *)c));
	else
		DFMT_CHK(fprintf(fp, " %s%*s", width < 0 ? " " : "", width,
		    (const char *)c));
	return 0;
}

static int
print_sym(FILE *fp, const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val)
{
	char buf[512];

	dfmt_symtext(cx, vd, val, buf, sizeof(buf));
	DFMT_CHK(fprintf(fp, "  %-50s", buf));
	return 0;
}

/* Strings are printed as their strsize bytes, zero-filled after the
 * terminator (what DTrace records hold), through the same printable test
 * as raw bytes; but an empty D string is an empty column, not a dump. */
static int
print_string(FILE *fp, const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val, int width, int quiet)
{
	size_t n = vd->dv_size ? vd->dv_size : strlen(val) + 1;
	char *s;
	int r;

	if (*(const char *)val == '\0' && !(cx && cx->fc_rawbytes)) {
		if (quiet)
			return 0;
		DFMT_CHK(fprintf(fp, "  %-*s", width < 0 ? -width : width, ""));
		return 0;
	}
	if ((s = calloc(1, n + 1)) == NULL)
		return -ENOMEM;
	memcpy(s, val, strnlen(val, n));
	r = dfmt_bytes(fp, cx, s, n, width, quiet, 0);
	free(s);
	return r;
}

static int
is_scalar(const struct d_vdesc *vd)
{
	return vd->dv_kind == D_VK_INT || vd->dv_kind == D_VK_UINT ||
	    vd->dv_kind == D_VK_PTR || vd->dv_kind == D_VK_FLOAT;
}

/* trace()'s column width: the digits of the type's largest value, as the
 * Linux DTrace prints it (255, 65535, 4294967295, and 19 or 20 digits for
 * 64-bit signed or unsigned values). */
static int
size_width(unsigned isize, int is_signed)
{
	switch (isize) {
	case 1: return 3;
	case 2: return 5;
	case 4: return 10;
	default: return is_signed ? 19 : 20;
	}
}

int
dfmt_trace(FILE *fp, const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val)
{
	int quiet = cx ? cx->fc_quiet : 0;

	if (fp == NULL || vd == NULL || val == NULL)
		return -EINVAL;
	if (is_scalar(vd)) {
		long long v = dfmt_ival(vd, val);
		int sgn = vd->dv_kind == D_VK_INT;
		int w = size_width(vd->dv_isize, sgn);

		/* signedness follows the type: uint64_t prints as unsigned */
		if (quiet)
			w = 0;
		if (!quiet)
			DFMT_CHK(fputc(' ', fp));
		if (sgn)
			DFMT_CHK(fprintf(fp, "%*lld", w, v));
		else
			DFMT_CHK(fprintf(fp, "%*llu", w, (unsigned long long)v));
		return 0;
	}
	switch (vd->dv_kind) {
	case D_VK_STRING:
		return print_string(fp, cx, vd, val, -33, quiet);
	case D_VK_KSTACK:
	case D_VK_USTACK:
		return dfmt_stack(fp, cx, vd, val, -1);
	case D_VK_RAW:
		return dfmt_bytes(fp, cx, val, vd->dv_size, -33, quiet, 0);
	default:
		return print_sym(fp, cx, vd, val);
	}
}

/* A printa() key column: dt_print_datum's table of widths, where 1- and
 * 2-byte keys print unsigned and 4- and 8-byte keys signed. */
int
dfmt_key(FILE *fp, const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val)
{
	if (is_scalar(vd)) {
		uint64_t v = (uint64_t)dfmt_ival(vd, val);

		switch (vd->dv_isize) {
		case 1:
			DFMT_CHK(fprintf(fp, " %3d", (int)(uint8_t)v));
			break;
		case 2:
			DFMT_CHK(fprintf(fp, " %5d", (int)(uint16_t)v));
			break;
		case 4:
			DFMT_CHK(fprintf(fp, " %8d", (int)(int32_t)v));
			break;
		default:
			DFMT_CHK(fprintf(fp, " %16lld", (long long)v));
			break;
		}
		return 0;
	}
	switch (vd->dv_kind) {
	case D_VK_STRING:
		return print_string(fp, cx, vd, val, -50, 0);
	case D_VK_KSTACK:
	case D_VK_USTACK:
		return dfmt_stack(fp, cx, vd, val, -1);
	case D_VK_RAW:
		return dfmt_bytes(fp, cx, val, vd->dv_size, -50, 0, 0);
	default:
		return print_sym(fp, cx, vd, val);
	}
}

int
dfmt_tracemem(FILE *fp, const struct dfmt_ctx *cx, const void *buf,
    size_t size)
{
	if (fp == NULL || (buf == NULL && size))
		return -EINVAL;
	return dfmt_bytes(fp, cx, buf, size, -33, cx ? cx->fc_quiet : 0, 1);
}

/* ---- probe header and flow indentation ------------------------------------ */

/* With _DTRACE_TESTING set in the environment, DTrace leaves the CPU and ID
 * columns out of its default output, so the output of a test does not
 * depend on where it ran or on probe numbering. */
static int
testing_layout(void)
{
	static int cached = -1;

	if (cached < 0)
		cached = getenv("_DTRACE_TESTING") != NULL;
	return cached;
}

int
dfmt_header(FILE *fp)
{
	if (testing_layout())
		DFMT_CHK(fprintf(fp, "%32s\n", "FUNCTION:NAME"));
	else
		DFMT_CHK(fprintf(fp, "%3s %6s %32s\n", "CPU", "ID",
		    "FUNCTION:NAME"));
	return 0;
}

int
dfmt_probe_prefix(FILE *fp, uint32_t cpu, uint32_t id, const char *func,
    const char *name)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s:%s", func ? func : "", name ? name : "");
	if (testing_layout())
		DFMT_CHK(fprintf(fp, "%32s ", buf));
	else
		DFMT_CHK(fprintf(fp, "%3u %6u %32s ", cpu, id, buf));
	return 0;
}

int
dfmt_probe_end(FILE *fp, const struct dfmt_ctx *cx)
{
	if (cx && cx->fc_quiet)
		return 0;
	DFMT_CHK(fputc('\n', fp));
	return 0;
}

int
dfmt_flow_header(FILE *fp)
{
	DFMT_CHK(fprintf(fp, "%3s %-41s\n", "CPU", "FUNCTION"));
	return 0;
}

/* "entry" or "...-entry" (not "carpentry"). */
static int
name_is(const char *name, const char *what)
{
	size_t n = strlen(name), w = strlen(what);

	if (n < w || strcmp(name + n - w, what) != 0)
		return 0;
	return n == w || name[n - w - 1] == '-';
}

int
dfmt_flow_prefix(FILE *fp, struct dfmt_flow *fl, uint32_t cpu,
    const char *prov, const char *func, const char *name)
{
	int sys = prov && strcmp(prov, "syscall") == 0;
	int ent = name_is(name ? name : "", "entry");
	int ret = !ent && name_is(name ? name : "", "return");
	char buf[600];

	if (fl == NULL)
		return -EINVAL;
	if (ret && fl->fl_indent > 0)
		fl->fl_indent -= 2;
	if (ent || ret)
		snprintf(buf, sizeof(buf), "%*s%s%s", fl->fl_indent, "",
		    ent ? (sys ? " => " : " -> ") : (sys ? " <= " : " <- "),
		    func ? func : "");
	else
		snprintf(buf, sizeof(buf), "%*s| %s:%s", fl->fl_indent, "",
		    func ? func : "", name ? name : "");
	if (ent)
		fl->fl_indent += 2;
	DFMT_CHK(fprintf(fp, "%3u %-41s ", cpu, buf));
	return 0;
}

/* ---- print(): values by type, the way dtrace_print lays them out ----------- */

static int
print_hexval(FILE *fp, const struct d_vdesc *vd, const void *val)
{
	uint64_t v = (uint64_t)dfmt_ival(vd, val);
	unsigned sz = vd->dv_isize ? vd->dv_isize : 8;
	unsigned char c = (unsigned char)v;

	if ((vd->dv_flags & D_VF_CHAR) && sz == 1) {
		if (isprint(c))
			DFMT_CHK(fprintf(fp, "'%c'", c));
		else if (c == 0)
			DFMT_CHK(fprintf(fp, "'\\0'"));
		else
			DFMT_CHK(fprintf(fp, "'\\%03o'", c));
		return 0;
	}
	if (sz < 8)
		v &= (1ULL << (sz * 8)) - 1;
	DFMT_CHK(fprintf(fp, "%#llx", (unsigned long long)v));
	return 0;
}

/* An array of integers of dv_isize bytes (bytes when 0): "[ 0x1, 0 ]". */
static int
print_array(FILE *fp, const struct d_vdesc *vd, const unsigned char *b)
{
	unsigned es = vd->dv_isize == 2 || vd->dv_isize == 4 ||
	    vd->dv_isize == 8 ? vd->dv_isize : 1;
	struct d_vdesc ed = { D_VK_UINT, (uint8_t)es, 0, es, 0, 0, NULL };

	DFMT_CHK(fputs("[ ", fp));
	for (uint32_t i = 0; i + es <= vd->dv_size; i += es) {
		if (print_hexval(fp, &ed, b + i) < 0)
			return -EIO;
		if (i + 2 * es <= vd->dv_size)
			DFMT_CHK(fputs(", ", fp));
	}
	DFMT_CHK(fputs(" ]", fp));
	return 0;
}

static int
print_value(FILE *fp, const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val, int top)
{
	const unsigned char *b = val;
	double d;

	switch (vd->dv_kind) {
	case D_VK_INT:
	case D_VK_UINT:
	case D_VK_PTR:
		return print_hexval(fp, vd, val);
	case D_VK_FLOAT:
		if (vd->dv_isize == 4) {
			float f;
			memcpy(&f, val, 4);
			d = f;
		} else {
			memcpy(&d, val, 8);
		}
		DFMT_CHK(fprintf(fp, "%+.7e", d));
		return 0;
	case D_VK_STRING:
		DFMT_CHK(fprintf(fp, top ? "\"%.*s\"" : "[ \"%.*s\" ]",
		    (int)(vd->dv_size ? strnlen(val, vd->dv_size) :
		    strlen(val)), (const char *)val));
		return 0;
	case D_VK_RAW:
		if (vd->dv_flags & D_VF_CHARARR) {
			DFMT_CHK(fprintf(fp, top ? "\"%.*s\"" : "[ \"%.*s\" ]",
			    (int)strnlen(val, vd->dv_size), (const char *)val));
			return 0;
		}
		return print_array(fp, vd, b);
	default:
		return print_sym(fp, cx, vd, val);
	}
}

static int
close_braces(FILE *fp, int from, int to)
{
	for (int d = from; d > to; d--)
		DFMT_CHK(fprintf(fp, "%*s}%s", (d - 1) * 4, "",
		    d == to + 1 ? "" : "\n"));
	return 0;
}

static int
print_member(FILE *fp, const struct dfmt_ctx *cx, const struct dfmt_member *m,
    const unsigned char *base, int *depth)
{
	const char *t = m->fm_tname ? m->fm_tname : "";
	size_t tl = strlen(t);

	if (m->fm_depth < *depth) {
		DFMT_CHK(close_braces(fp, *depth, m->fm_depth));
		DFMT_CHK(fputc('\n', fp));
	}
	*depth = m->fm_depth;
	DFMT_CHK(fprintf(fp, "%*s%s%s%s =", m->fm_depth * 4, "", t,
	    tl && (t[tl - 1] == '*' || t[tl - 1] == ' ') ? "" : " ",
	    m->fm_name ? m->fm_name : ""));
	DFMT_CHK(fputc(' ', fp));
	if (m->fm_isstruct)
		DFMT_CHK(fputc('{', fp));
	else if (print_value(fp, cx, &m->fm_vd, base + m->fm_off, 0) < 0)
		return -EIO;
	DFMT_CHK(fputc('\n', fp));
	return 0;
}

int
dfmt_print(FILE *fp, const struct dfmt_ctx *cx, const char *tname,
    const struct d_vdesc *vd, const struct dfmt_member *m, int nmembers,
    const void *val)
{
	int depth = 0;

	if (fp == NULL || val == NULL || (nmembers > 0 && m == NULL) ||
	    (nmembers == 0 && vd == NULL))
		return -EINVAL;
	DFMT_CHK(fprintf(fp, "%s ", tname ? tname : ""));
	if (nmembers == 0) {
		if (print_value(fp, cx, vd, val, 1) < 0)
			return -EIO;
		DFMT_CHK(fputc('\n', fp));
		return 0;
	}
	DFMT_CHK(fputs("{\n", fp));
	depth = 1;
	for (int i = 0; i < nmembers; i++) {
		if (print_member(fp, cx, &m[i], val, &depth) < 0)
			return -EIO;
	}
	return close_braces(fp, depth, 0);
}
