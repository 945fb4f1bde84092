/*
 * dfmt_impl.h — internals shared by dfmt.c, dfmt_conv.c, dfmt_val.c and the
 * aggregation printer (dagg_print.c).  Not part of the public contract.
 *
 * A parsed format is a list of pieces: literal text followed by at most one
 * conversion.  Each conversion knows which argument it consumes (an index
 * into the args[] array handed to dfmt_format) or that it consumes the next
 * aggregation value (%@).
 */
#ifndef PMCTRACE_DFMT_IMPL_H
#define PMCTRACE_DFMT_IMPL_H

#include "dcons/dfmt.h"

/* Conversion flags (fp_flags). */
#define DFMT_F_ALT	0x001	/* # */
#define DFMT_F_ZPAD	0x002	/* 0 */
#define DFMT_F_LEFT	0x004	/* - */
#define DFMT_F_SPOS	0x008	/* + */
#define DFMT_F_SPACE	0x010	/* ' ' */
#define DFMT_F_GROUP	0x020	/* ' */
#define DFMT_F_DYNW	0x040	/* * width */
#define DFMT_F_DYNP	0x080	/* .* precision */
#define DFMT_F_AGG	0x100	/* @ */
#define DFMT_F_SIGNED	0x200	/* %d of a signed value */

struct dfmt_piece;

/* One aggregation value as a %@ conversion sees it.  Scalars arrive
 * computed and normalized; histograms print themselves (DTrace ignores the
 * conversion's width and flags for them). */
struct dfmt_aggval {
	int64_t av_val;
	int av_unsigned;
	int (*av_print)(FILE *fp, const void *ctx);	/* NULL for scalars */
	const void *av_ctx;
};

/* A printf conversion: ORDER of the dictionary in dfmt_conv.c. */
struct dfmt_conv {
	const char *fc_name;	/* "d", "llx", "@"-less name */
	const char *fc_cfmt;	/* C conversion appended to flags ("lld") */
	const char *fc_proto;	/* expected type, for messages */
	int (*fc_check)(struct dfmt_piece *fp, const struct d_vdesc *vd);
	int (*fc_print)(FILE *out, const struct dfmt_ctx *cx, const char *cfmt,
	    const struct dfmt_piece *fp, const struct d_vdesc *vd,
	    const void *val);
};

struct dfmt_piece {
	const char *fp_prefix;		/* literal text before the conversion */
	size_t fp_preflen;
	const struct dfmt_conv *fp_conv; /* NULL: trailing text only */
	uint32_t fp_flags;		/* DFMT_F_* */
	int fp_width, fp_prec;
	int fp_arg;			/* value index into args[], -1 for %@ */
	int fp_warg, fp_parg;		/* '*' width / precision indices */
	struct d_vdesc fp_vd;		/* the checked argument */
	char fp_name[8];		/* conversion name as written */
};

struct dfmt {
	char *f_text;			/* owned copy of the format */
	struct dfmt_piece *f_pieces;
	int f_npieces;
	int f_cap;			/* pieces allocated: grows by doubling */
	int f_nargs;			/* value arguments consumed */
	int f_naggs;			/* %@ conversions */
	int f_flags;
};

typedef int (*dfmt_print_f)(FILE *, const struct dfmt_ctx *, const char *,
    const struct dfmt_piece *, const struct d_vdesc *, const void *);

const struct dfmt_conv *dfmt_conv_lookup(const char *name);
dfmt_print_f dfmt_conv_printer(const struct dfmt_conv *c,
    const struct d_vdesc *vd);
int dfmt_conv_is_pct(const struct dfmt_conv *c);

/* printf() engine, with the %@ values of one printa() row. */
int dfmt_format(FILE *fp, const struct dfmt_ctx *cx, const dfmt_t *f,
    const void *const *args, int nargs, const struct dfmt_aggval *aggs,
    int naggs);

/* Integer value of an INT/UINT/PTR encoding, extended from dv_isize. */
int64_t dfmt_ival(const struct d_vdesc *vd, const void *val);
/* A printa() default-layout key column (DTrace's dt_print_datum). */
int dfmt_key(FILE *fp, const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val);
/* DTrace's dt_print_bytes: a string if it looks like one, else a dump. */
int dfmt_bytes(FILE *fp, const struct dfmt_ctx *cx, const void *buf,
    size_t n, int width, int quiet, int forceraw);
/* Stack frames with a C format for each frame's text ("%s"). */
int dfmt_stack_fmt(FILE *fp, const struct dfmt_ctx *cx,
    const struct d_vdesc *vd, const void *val, int indent, const char *cfmt);
/* Write result check: fprintf's negative return → -EIO. */
#define DFMT_CHK(x)	do { if ((x) < 0) return -EIO; } while (0)

#endif
