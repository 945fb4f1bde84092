/*
 * pid_impl.h — what the pid and usdt providers share (both are uprobes in
 * a target process): finding a -c command's program before it is exec'd,
 * adding one uprobe event, and reading sampled user registers.  Private
 * to providers/pid/.
 */
#ifndef PMCTRACE_PID_IMPL_H
#define PMCTRACE_PID_IMPL_H

#include "providers/tracefs.h"

#define PID_PATH 256

/* 0 when pid is pmctrace's own -c child still waiting to exec: path gets
 * the command's program (resolved through $PATH), self the basename of
 * the image the child runs now (ours).  -1 otherwise. */
int pid_target_program(int32_t pid, int via_shell, char *path, size_t len, char *self,
    size_t selflen);

/* prov_remove_leftovers' part: the pid provider's trace events. */
void pid_remove_leftovers(int32_t owner);

/* -c: the modules (file basenames) of pid's mappings that the ELF program
 * at path will load (its DT_NEEDED closure, by DT_SONAME, and its
 * interpreter), in mods[0..n); n, or -1 if path is no ELF file. */
int pid_needed_modules(int32_t pid, const char *path, char (*mods)[64], int max);

struct pid_uprobe_req {
	const char *path;	/* must live until the session starts */
	uint64_t offset;	/* file offset of the instruction */
	uint64_t refctr;	/* file offset of a USDT semaphore, or 0 */
	int ret;		/* a return probe */
	uint64_t regs;		/* sample_regs_user */
	uint32_t stack_bytes;	/* user stack snapshot (needs PROV_REG_SP in regs), or 0 */
	int32_t task;		/* 0: every CPU; else only this thread (and its children) */
};
/* One uprobe PMU event on every CPU (or for q->task), owned by ops with
 * cookie; 0 or -1 (error set). */
int pid_add_uprobe_event(struct prov_registry *r, struct smp_session *s,
    const struct prov_ops *ops, const struct pid_uprobe_req *q, uint64_t cookie);

/* The value of perf register reg in a sample taken with regs_user mask. */
uint64_t pid_sample_reg(const struct smp_record *rec, uint64_t mask, int reg);

#endif
