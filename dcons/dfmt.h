/*
 * dfmt.h — D output formatting: typed values, printf/printa formats,
 * trace(), tracemem(), print(), stack()/ustack() and the probe header.
 *
 * Values never carry the compiler's types: the compiler describes each
 * value with a struct d_vdesc and hands the bytes in the encoding below
 * (the same bytes an aggregation stores in its keys).  Formats are parsed
 * and checked once at compile time (dfmt_parse) and printed at firing time
 * (dfmt_printf) into a FILE*, exactly as DTrace's consumer prints them.
 * Symbols are resolved only while printing, through struct d_symbolizer.
 * Functions return 0 or -errno (-1 style write errors become -EIO);
 * constructors return NULL and set *errp.  Not thread-safe per object.
 *
 * Value encoding (ORDER: enum d_vkind):
 *   D_VK_INT/UINT   8 bytes, host-endian int64_t/uint64_t already
 *                   truncated/extended to the D type; dv_isize (1,2,4,8)
 *                   is the D type's size (it chooses print widths).
 *   D_VK_PTR        8 bytes address (pointers; %p).
 *   D_VK_STRING     dv_size bytes (the strsize), NUL-terminated inside and,
 *                   in aggregation keys, zero-filled after the NUL so that
 *                   equal strings have equal bytes.
 *   D_VK_KSTACK     dv_nframes uint64_t kernel PCs, innermost first, unused
 *                   slots 0 (a 0 ends the stack).  dv_size = 8 * nframes.
 *   D_VK_USTACK     uint64_t pid, then dv_nframes uint64_t user PCs as above.
 *                   dv_size = 8 * (1 + nframes); dv_strsize = ustack strsize.
 *   D_VK_KSYM/KMOD  8 bytes kernel address: sym()/func() and mod().
 *   D_VK_USYM/UMOD/UADDR  uint64_t pid then uint64_t user address:
 *                   usym()/ufunc(), umod(), uaddr().  dv_size = 16.
 *   D_VK_RAW        dv_size raw bytes (structs, arrays, tracemem data); for
 *                   print(), dv_isize 1/2/4/8 makes it an array of integers
 *                   of that size, D_VF_CHARARR a char array.
 *   D_VK_FLOAT      dv_isize 4 (float) or 8 (double), host encoding.
 */
#ifndef PMCTRACE_DFMT_H
#define PMCTRACE_DFMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "dcons/dcons.h"

enum d_vkind {
	D_VK_NONE = 0,
	D_VK_INT,	/* signed integer */
	D_VK_UINT,	/* unsigned integer */
	D_VK_PTR,	/* pointer (printed in hex by trace/print) */
	D_VK_STRING,	/* D string of at most dv_size bytes */
	D_VK_KSTACK,	/* stack() */
	D_VK_USTACK,	/* ustack() */
	D_VK_KSYM,	/* sym(), func() */
	D_VK_KMOD,	/* mod() */
	D_VK_USYM,	/* usym(), ufunc() */
	D_VK_UMOD,	/* umod() */
	D_VK_UADDR,	/* uaddr() */
	D_VK_RAW,	/* bytes: structs, unions, arrays */
	D_VK_FLOAT,	/* float (dv_isize 4) or double (8), host encoding */
	D_VK_NKINDS
};

/* Describes one value: a printf argument, a key element, a trace() arg. */
struct d_vdesc {
	uint8_t dv_kind;	/* enum d_vkind */
	uint8_t dv_isize;	/* INT/UINT/PTR: D type size 1,2,4,8 */
	uint16_t dv_flags;	/* D_VF_* */
	uint32_t dv_size;	/* bytes of the encoding (see above) */
	uint32_t dv_nframes;	/* KSTACK/USTACK */
	uint32_t dv_strsize;	/* USTACK: strsize argument, 0 = default */
	const char *dv_tname;	/* D type name for messages ("int"), may be NULL */
};
#define D_VF_CHARARR	0x0001	/* RAW that is a char array: %s accepts it */
#define D_VF_CHAR	0x0002	/* INT/UINT declared char: %c/%d both fine */

/* Encoded size of a value with this descriptor (8 for scalars). */
size_t dfmt_vsize(const struct d_vdesc *vd);

/* ---- printf / printa formats ------------------------------------------ */

typedef struct dfmt dfmt_t;

#define DFMT_PRINTA	0x1	/* a printa() format: %@ conversions allowed */
#define DFMT_NOARGS	0x2	/* check only the conversions, not arguments */
#define DFMT_AGGCOUNT	0x4	/* printa of count(): %@ values are uint64_t */
#define DFMT_EXACT	0x8	/* printf: extra arguments are an error */

/* Parse fmt and check it against the argument descriptors (for printa,
 * args are the key elements; each %@ takes the next aggregation instead).
 * On failure returns NULL, *errp = -EINVAL, and err holds DTrace's message
 * ("printf( ) argument #2 is incompatible with conversion #1 prototype:...",
 * no trailing newline) while *tagp names the D_ tag ("D_PRINTF_ARG_TYPE")
 * for the compiler; a malformed conversion is D_SYNTAX, as in DTrace
 * ("format conversion #1 is undefined: %z").
 * fname is "printf" or "printa" (used in messages); argument numbers in
 * messages count the format itself as argument #1 for printf. */
dfmt_t *dfmt_parse(const char *fname, const char *fmt, int flags,
    const struct d_vdesc *args, int nargs, char *err, size_t errlen,
    const char **tagp, int *errp);
void dfmt_free(dfmt_t *f);
/* Number of value arguments the format consumes (including '*' widths)
 * and the number of %@ conversions. */
int dfmt_nargs(const dfmt_t *f);
int dfmt_naggs(const dfmt_t *f);

/* Runtime context for printing: symbolizer, options. */
struct dfmt_ctx {
	const struct d_symbolizer *fc_sym;	/* may be NULL: raw addresses */
	int fc_quiet;				/* -q / quiet option */
	int fc_rawbytes;			/* rawbytes option */
	uint32_t fc_stackindent;		/* default 14 */
	int32_t fc_target;			/* $target: pid for %A of integers */
};

/* printf(): args[i] points at the encoding of argument i described by the
 * descriptors given to dfmt_parse. */
int dfmt_printf(FILE *fp, const struct dfmt_ctx *cx, const dfmt_t *f,
    const void *const *args, int nargs);

/* ---- trace(), tracemem(), print(), stacks ------------------------------- */

/* trace(v): quiet prints the bare value; otherwise DTrace's padded column
 * (" %16lld", "  %-33s", stacks on their own lines ...). */
int dfmt_trace(FILE *fp, const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val);
/* tracemem(addr, size[, dsize]): the hex+ASCII dump DTrace prints. */
int dfmt_tracemem(FILE *fp, const struct dfmt_ctx *cx, const void *buf,
    size_t size);
/* stack()/ustack() as a standalone action or key: one frame per line,
 * indented by cx->fc_stackindent (indent argument overrides when >= 0). */
int dfmt_stack(FILE *fp, const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val, int indent);
/* sym()/mod()/usym()/umod()/uaddr() text into buf (what "%a", printa keys
 * and trace() print before padding). Returns length. */
int dfmt_symtext(const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val, char *buf, size_t len);

/* Typed print() of a struct: the compiler lowers a struct type to a list of
 * members (name, descriptor, byte offset; depth for nested structs). */
struct dfmt_member {
	const char *fm_name;
	const char *fm_tname;	/* "int", "char [16]", "struct foo" */
	struct d_vdesc fm_vd;
	uint32_t fm_off;
	uint16_t fm_depth;	/* nesting level, 1 = direct member */
	uint16_t fm_isstruct;	/* opens a nested "{" ... "}" */
};
/* print(v) of a scalar (nmembers == 0, vd describes it) or a struct. */
int dfmt_print(FILE *fp, const struct dfmt_ctx *cx, const char *tname,
    const struct d_vdesc *vd, const struct dfmt_member *m, int nmembers,
    const void *val);

/* ---- the probe header ---------------------------------------------------- */

/* "CPU     ID                    FUNCTION:NAME\n", printed once before the
 * first non-quiet output. */
int dfmt_header(FILE *fp);
/* Per firing, non-quiet: "%3d %6d %32s " with FUNCTION:NAME. With
 * flowindent, DTrace's "-> func" / "<- func" indented layout. */
int dfmt_probe_prefix(FILE *fp, uint32_t cpu, uint32_t id, const char *func,
    const char *name);
/* End of a firing's output (non-quiet): "\n". */
int dfmt_probe_end(FILE *fp, const struct dfmt_ctx *cx);

/* flowindent: "CPU FUNCTION" heading, then per firing "%3d %-41s " with
 * "-> func" for *entry probes (indenting what follows), "<- func" for
 * *return probes (unindenting first), "| func:name" otherwise; syscall
 * probes use "=>"/"<=".  Printed even when quiet, as dtrace(1) does. */
struct dfmt_flow {
	int fl_indent;
};
int dfmt_flow_header(FILE *fp);
int dfmt_flow_prefix(FILE *fp, struct dfmt_flow *fl, uint32_t cpu,
    const char *prov, const char *func, const char *name);

#endif
