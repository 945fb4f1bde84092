/*
 * dfmt_val.c — value encodings (dfmt.h) turned into numbers and text: the
 * size of an encoding, the integer inside one, symbol and stack text.
 * The lowest file of the formatter: both the printf engine (dfmt.c) and
 * the conversion dictionary (dfmt_conv.c) print values through it, and it
 * calls neither.
 */
#include <errno.h>
#include <string.h>

#include "dcons/dfmt_impl.h"

size_t
dfmt_vsize(const struct d_vdesc *vd)
{
	if (vd->dv_size)
		return vd->dv_size;
	switch (vd->dv_kind) {
	case D_VK_USYM:
	case D_VK_UMOD:
	case D_VK_UADDR:
		return 16;
	case D_VK_KSTACK:
		return 8 * (size_t)vd->dv_nframes;
	case D_VK_USTACK:
		return 8 * (size_t)(vd->dv_nframes + 1);
	default:
		return 8;
	}
}

int64_t
dfmt_ival(const struct d_vdesc *vd, const void *val)
{
	uint64_t v = 0;
	size_t n = vd->dv_size && vd->dv_size < 8 ? vd->dv_size : 8;
	unsigned bits = (vd->dv_isize ? vd->dv_isize : 8) * 8;

	memcpy(&v, val, n);
	if (bits >= 64)
		return (int64_t)v;
	v &= (1ULL << bits) - 1;
	if (vd->dv_kind == D_VK_INT && (v >> (bits - 1)) & 1)
		v |= ~0ULL << bits;
	return (int64_t)v;
}

static int
sym_text(const struct dfmt_ctx *cx, int user, int32_t pid, uint64_t pc,
    int flags, char *buf, size_t len)
{
	const struct d_symbolizer *s = cx ? cx->fc_sym : NULL;
	int r = -1;

	if (s && !user && s->ds_kernel)
		r = s->ds_kernel(s->ds_ctx, pc, flags, buf, len);
	else if (s && user && s->ds_user)
		r = s->ds_user(s->ds_ctx, pid, pc, flags, buf, len);
	if (r < 0)
		r = snprintf(buf, len, "0x%llx", (unsigned long long)pc);
	return r;
}

int
dfmt_symtext(const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val, char *buf, size_t len)
{
	uint64_t w[2] = { 0, 0 };

	memcpy(w, val, vd->dv_kind >= D_VK_USYM && vd->dv_kind <= D_VK_UADDR ?
	    16 : 8);
	switch (vd->dv_kind) {
	case D_VK_KSYM:
		return sym_text(cx, 0, 0, w[0], D_SYM_FUNC, buf, len);
	case D_VK_KMOD:
		return sym_text(cx, 0, 0, w[0], D_SYM_MOD, buf, len);
	case D_VK_USYM:
		return sym_text(cx, 1, (int32_t)w[0], w[1], D_SYM_FUNC, buf, len);
	case D_VK_UMOD:
		return sym_text(cx, 1, (int32_t)w[0], w[1], D_SYM_MOD, buf, len);
	case D_VK_UADDR:
		return sym_text(cx, 1, (int32_t)w[0], w[1], D_SYM_FULL, buf, len);
	default:
		return snprintf(buf, len, "0x%llx", (unsigned long long)w[0]);
	}
}

int
dfmt_stack_fmt(FILE *fp, const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val, int indent, const char *cfmt)
{
	const unsigned char *b = val;
	int user = vd->dv_kind == D_VK_USTACK;
	uint64_t pid = 0, pc;
	char text[512];

	if (user && vd->dv_nframes == 0)
		return 0;
	if (user) {
		memcpy(&pid, b, 8);
		b += 8;
	}
	DFMT_CHK(fputc('\n', fp));
	for (uint32_t i = 0; i < vd->dv_nframes; i++) {
		memcpy(&pc, b + 8 * i, 8);
		if (pc == 0)
			break;
		sym_text(cx, user, (int32_t)pid, pc, D_SYM_FULL, text,
		    sizeof(text));
		DFMT_CHK(fprintf(fp, "%*s", indent, ""));
		DFMT_CHK(fprintf(fp, cfmt, text));
		DFMT_CHK(fputc('\n', fp));
	}
	return 0;
}

int
dfmt_stack(FILE *fp, const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val, int indent)
{
	if (fp == NULL || vd == NULL || val == NULL)
		return -EINVAL;
	if (indent < 0)
		indent = cx ? (int)cx->fc_stackindent : 14;
	return dfmt_stack_fmt(fp, cx, vd, val, indent, "%s");
}
