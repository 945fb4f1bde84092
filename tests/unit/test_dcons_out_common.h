/*
 * test_dcons_out_common.h — shared fixtures of the dout unit tests: a fake
 * symbolizer with predictable frame text, key builders, memory streams.
 *
 * Fake symbols: kernel pc 0xffff0000000NNxxx is "vmlinux`kNN" (+0xxxx in the
 * full form); user pc 0x4NNxxx is "app`uNN", 0x7f00NNxxx is
 * "perf-42.map`jNN" (a JIT frame); 0xdead0000 is unknown (hex).
 */
#ifndef PMCTRACE_TEST_DCONS_OUT_COMMON_H
#define PMCTRACE_TEST_DCONS_OUT_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcons/dout_impl.h"

static inline int
fake_frame(const char *mod, const char *pfx, uint64_t fn, uint64_t off,
    int flags, char *buf, size_t len)
{
	if (flags == D_SYM_MOD)
		return snprintf(buf, len, "%s", mod);
	if (flags == D_SYM_FULL && off)
		return snprintf(buf, len, "%s`%s%llu+0x%llx", mod, pfx,
		    (unsigned long long)fn, (unsigned long long)off);
	return snprintf(buf, len, "%s`%s%llu", mod, pfx, (unsigned long long)fn);
}

static inline int
fake_kernel(void *ctx, uint64_t addr, int flags, char *buf, size_t len)
{
	(void)ctx;
	if ((addr >> 32) != 0xffff0000u)
		return -1;
	return fake_frame("vmlinux", "k", (addr >> 12) & 0xfffff, addr & 0xfff,
	    flags, buf, len);
}

static inline int
fake_user(void *ctx, int32_t pid, uint64_t addr, int flags, char *buf,
    size_t len)
{
	(void)ctx;
	(void)pid;
	if ((addr >> 20) == 0x4)
		return fake_frame("app", "u", (addr >> 12) & 0xff, addr & 0xfff,
		    flags, buf, len);
	if ((addr >> 20) == 0x7f000)
		return fake_frame("perf-42.map", "j", (addr >> 12) & 0xff,
		    addr & 0xfff, flags, buf, len);
	return -1;
}

static const struct d_symbolizer fake_sym = { NULL, fake_kernel, fake_user };
static const struct dfmt_ctx fake_cx = { &fake_sym, 0, 0, 14, 0 };

#define KPC(fn, off)	(0xffff000000000000ull | (uint64_t)(fn) << 12 | (off))
#define UPC(fn, off)	(0x400000ull | (uint64_t)(fn) << 12 | (off))
#define JPC(fn, off)	(0x7f00000000ull | (uint64_t)(fn) << 12 | (off))

#define NFR	4	/* frames per stack key in the tests */

#define TUNUSED __attribute__((unused))
static const struct d_vdesc vd_str16 TUNUSED = { D_VK_STRING, 0, 0, 16, 0, 0, NULL };
static const struct d_vdesc vd_kstack TUNUSED = { D_VK_KSTACK, 0, 0, 8 * NFR, NFR, 0, NULL };
static const struct d_vdesc vd_ustack TUNUSED = { D_VK_USTACK, 0, 0, 8 * (1 + NFR), NFR, 0, NULL };
static const struct d_vdesc vd_i64 TUNUSED = { D_VK_INT, 8, 0, 8, 0, 0, NULL };

/* Key (execname, stack(), ustack()): stacks innermost first, 0-ended. */
struct tkey {
	char k_exec[16];
	uint64_t k_kst[NFR];
	uint64_t k_pid;
	uint64_t k_ust[NFR];
};
static const struct d_vdesc tkey_vd[3] TUNUSED = {
	{ D_VK_STRING, 0, 0, 16, 0, 0, NULL },
	{ D_VK_KSTACK, 0, 0, 8 * NFR, NFR, 0, NULL },
	{ D_VK_USTACK, 0, 0, 8 * (1 + NFR), NFR, 0, NULL },
};

static inline struct tkey
tkey_make(const char *exec, const uint64_t *k, const uint64_t *u)
{
	struct tkey t;

	memset(&t, 0, sizeof(t));
	strncpy(t.k_exec, exec, sizeof(t.k_exec) - 1);
	for (int i = 0; i < NFR && k && k[i]; i++)
		t.k_kst[i] = k[i];
	t.k_pid = 42;
	for (int i = 0; i < NFR && u && u[i]; i++)
		t.k_ust[i] = u[i];
	return t;
}

static char *tmem_buf;
static size_t tmem_len;

static inline FILE *
tmem_open(void)
{
	free(tmem_buf);
	tmem_buf = NULL;
	tmem_len = 0;
	return open_memstream(&tmem_buf, &tmem_len);
}

static inline const char *
tmem_close(FILE *fp)
{
	fclose(fp);
	return tmem_buf;
}

/* Occurrences of needle in hay. */
static inline int
tcount(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

#endif
