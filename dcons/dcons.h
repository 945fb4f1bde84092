/*
 * dcons.h — the D consumer: what the language engine (dcore/) hands its
 * results to.  Aggregations (dagg.h), value and printf formatting
 * (dfmt.h), output writers (dout.h) and speculation buffers (dspec.h)
 * live in dcons/, one floor below the language: nothing here
 * knows D's syntax, types or bytecode, and no file in dcons/ includes a
 * dcore/ header.  Values arrive already encoded (dfmt.h, "Value
 * encoding"); addresses are turned into text only while printing, through
 * the struct d_symbolizer below, which the embedder installs.
 */
#ifndef PMCTRACE_DCONS_H
#define PMCTRACE_DCONS_H

#include <stddef.h>
#include <stdint.h>

/* Resolve addresses for stack(), ustack(), func(), sym(), %a ...  Each
 * writes DTrace's frame text ("vmlinux`schedule+0x2c", "libc.so.6`read+0x10")
 * into buf and returns its length, or -1 when nothing is known (the engine
 * then prints the bare address). mod-only variants write just the module. */
struct d_symbolizer {
	void *ds_ctx;
	int (*ds_kernel)(void *ctx, uint64_t addr, int flags, char *buf, size_t len);
	int (*ds_user)(void *ctx, int32_t pid, uint64_t addr, int flags, char *buf, size_t len);
};
#define D_SYM_FULL	0	/* module`function+0xoff */
#define D_SYM_FUNC	1	/* module`function */
#define D_SYM_MOD	2	/* module */

#endif
