/*
 * fuzz_dcons_fmt.c — libFuzzer target: printf/printa format parsing
 * (dfmt_parse) and, for formats that pass the checks, printing them
 * (dfmt_printf) with well-formed argument values.
 * Input layout: byte 0 = DFMT_* flags (low 4 bits), byte 1 = number of
 * arguments (mod 9), then one byte per argument choosing its type from
 * fz_kinds[], then the format text (up to the first NUL).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcons/dfmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_MAXARGS 8
#define FZ_STRSIZE 32
#define FZ_NFRAMES 4

/* Designated initializers: struct d_vdesc may grow fields. */
static const struct d_vdesc fz_kinds[] = {
	{ .dv_kind = D_VK_INT, .dv_isize = 4, .dv_size = 8, .dv_tname = "int" },
	{ .dv_kind = D_VK_INT, .dv_isize = 8, .dv_size = 8, .dv_tname = "int64_t" },
	{ .dv_kind = D_VK_UINT, .dv_isize = 8, .dv_size = 8, .dv_tname = "uint64_t" },
	{ .dv_kind = D_VK_UINT, .dv_isize = 2, .dv_size = 8, .dv_tname = "uint16_t" },
	{ .dv_kind = D_VK_INT, .dv_isize = 1, .dv_flags = D_VF_CHAR, .dv_size = 8, .dv_tname = "char" },
	{ .dv_kind = D_VK_PTR, .dv_isize = 8, .dv_size = 8, .dv_tname = "void *" },
	{ .dv_kind = D_VK_STRING, .dv_isize = 0, .dv_size = FZ_STRSIZE, .dv_tname = "string" },
	{ .dv_kind = D_VK_KSTACK, .dv_isize = 0, .dv_size = 8 * FZ_NFRAMES, .dv_nframes = FZ_NFRAMES },
	{ .dv_kind = D_VK_USTACK, .dv_isize = 0, .dv_size = 8 * (1 + FZ_NFRAMES), .dv_nframes = FZ_NFRAMES },
	{ .dv_kind = D_VK_KSYM, .dv_isize = 8, .dv_size = 8 },
	{ .dv_kind = D_VK_KMOD, .dv_isize = 8, .dv_size = 8 },
	{ .dv_kind = D_VK_USYM, .dv_isize = 8, .dv_size = 16 },
	{ .dv_kind = D_VK_UMOD, .dv_isize = 8, .dv_size = 16 },
	{ .dv_kind = D_VK_UADDR, .dv_isize = 8, .dv_size = 16 },
	{ .dv_kind = D_VK_RAW, .dv_isize = 1, .dv_flags = D_VF_CHARARR, .dv_size = 16, .dv_tname = "char [16]" },
	{ .dv_kind = D_VK_RAW, .dv_isize = 4, .dv_size = 16, .dv_tname = "int [4]" },
	{ .dv_kind = D_VK_FLOAT, .dv_isize = 8, .dv_size = 8, .dv_tname = "double" },
	{ .dv_kind = D_VK_FLOAT, .dv_isize = 4, .dv_size = 8, .dv_tname = "float" },
};
#define FZ_NKINDS (sizeof(fz_kinds) / sizeof(fz_kinds[0]))

/* One value buffer large enough for any kind above, filled so that every
 * kind reads something plausible: a NUL-terminated string, nonzero frames
 * ending in 0, a pid, a float. */
static void
fz_value(const struct d_vdesc *vd, unsigned char *buf, size_t len, int i)
{
	memset(buf, 0, len);
	if (vd->dv_kind == D_VK_STRING || (vd->dv_flags & D_VF_CHARARR)) {
		snprintf((char *)buf, vd->dv_size, "str%d %%s", i);
	} else if (vd->dv_kind == D_VK_FLOAT) {
		double d = -1.5 * i;
		float fl = (float)d;
		if (vd->dv_isize == 4)
			memcpy(buf, &fl, sizeof(fl));
		else
			memcpy(buf, &d, sizeof(d));
	} else {
		uint64_t v[1 + FZ_NFRAMES] = { 1234, 0xffffffff81000010ULL,
			0x401000, 0x7f0000001234ULL, 0 };
		if (vd->dv_kind == D_VK_INT || vd->dv_kind == D_VK_UINT)
			v[0] = (uint64_t)(-7 * i);
		memcpy(buf, v, sizeof(v) < len ? sizeof(v) : len);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	static unsigned char vals[FZ_MAXARGS][64];
	struct d_vdesc vd[FZ_MAXARGS];
	const void *args[FZ_MAXARGS];
	const struct dfmt_ctx cx = { .fc_quiet = 1, .fc_stackindent = 14, .fc_target = 1 };
	char err[512], *fmt;
	const char *tag = NULL;
	int e = 0, flags, nargs;

	if (size < 2)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	flags = data[0] & 0xf;
	nargs = data[1] % (FZ_MAXARGS + 1);
	data += 2;
	size -= 2;
	if (size < (size_t)nargs)
		return 0;
	for (int i = 0; i < nargs; i++) {
		vd[i] = fz_kinds[data[i] % FZ_NKINDS];
		fz_value(&vd[i], vals[i], sizeof(vals[i]), i);
		args[i] = vals[i];
	}
	data += nargs;
	size -= (size_t)nargs;
	if (!(fmt = malloc(size + 1)))
		return 0;
	memcpy(fmt, data, size);
	fmt[size] = '\0';
	dfmt_t *f = dfmt_parse(flags & DFMT_PRINTA ? "printa" : "printf", fmt, flags,
	    vd, nargs, err, sizeof(err), &tag, &e);
	if (f) {
		/* printf formats only: printa values come from aggregations. */
		if (!(flags & (DFMT_PRINTA | DFMT_NOARGS)) && devnull &&
		    dfmt_nargs(f) <= nargs)
			dfmt_printf(devnull, &cx, f, args, nargs);
		dfmt_free(f);
	} else {
		err[sizeof(err) - 1] = '\0';
		if (strlen(err) == 0 || !tag)
			abort();	/* the contract: a message and a tag */
	}
	free(fmt);
	return 0;
}
