/*
 * pid_insn.h — the instruction-safety table of the pid provider: which x86-64
 * instructions a uprobe is never placed on, and why.  Every probe site is
 * decoded (Capstone) before a uprobe goes there; an entry probe whose first
 * instruction is listed, an offset probe on a listed instruction (or inside
 * one), and a return probe of a function whose code cannot be decoded to its
 * end or holds no ret are left out, never placed.
 *
 * Why a table of our own when the kernel checks instructions itself: the
 * kernel refuses what it knows it cannot single-step (ENOTSUPP), but it
 * ACCEPTS some instructions and then executes something else (arch/x86
 * uprobes classify VEX and EVEX instructions by their opcode byte alone, as
 * if it were a one-byte legacy opcode).  The target then computes garbage and
 * nothing says so.  Each entry of pid_insn_rules says what is refused, why,
 * and what was observed on this kernel (tests/e2e/pid_insn_safety.sh makes
 * the same observations again on the machine at hand).
 */
#ifndef PMCTRACE_PID_INSN_H
#define PMCTRACE_PID_INSN_H

#include <stddef.h>
#include <stdint.h>

enum pid_insn_rule {
	PI_OK = 0,		/* a uprobe may go here */
	PI_EVEX,		/* EVEX-encoded (AVX-512) */
	PI_VEX_EMULATED,	/* VEX whose opcode byte the kernel emulates as a branch/nop */
	PI_SYSCALL,		/* syscall, sysenter, int */
	PI_UNDECODABLE,		/* Capstone does not know it, or it runs past the function */
	PI_NOT_START,		/* an offset inside an instruction */
	PI_NO_RET,		/* return probe: the function has no ret instruction */
	PI_NRULES
};

struct pid_insn_why {
	const char *what;	/* the instructions, in a few words */
	const char *why;	/* why no uprobe goes there */
	const char *observed;	/* what the kernel did with one (or "not observed") */
};
/* Indexed by enum pid_insn_rule (PI_OK's entry is empty). */
extern const struct pid_insn_why pid_insn_rules[PI_NRULES];

/* The rule that forbids a uprobe on the instruction at code[0..len), or
 * PI_OK; its length in *ilen (0 when undecodable). */
enum pid_insn_rule pid_insn_check(const uint8_t *code, size_t len, size_t *ilen);

/* Where an entry probe of the function code[0..len) goes: PI_OK with *off
 * 0 when its first instruction may carry a uprobe; PI_OK with *off > 0 when
 * that one is EVEX or a VEX one the kernel emulates but it and the next few
 * up to a safe one write no argument register (rdi, rsi, rdx, rcx, r8, r9)
 * nor rsp and do not branch, so the probe there sees the arguments intact
 * (never on a ret); else the first instruction's rule. */
enum pid_insn_rule pid_insn_entry(const uint8_t *code, size_t len, uint64_t *off);

/* The instruction at offset off of a function whose code is code[0..len):
 * decoded from the start, so off must be where an instruction begins. */
enum pid_insn_rule pid_insn_at(const uint8_t *code, size_t len, uint64_t off);

/* Every ret instruction of a function (code[0..len)), in order: each one's
 * offset goes to cb (a non-zero return stops the walk); cb NULL: only check.
 * PI_UNDECODABLE when an instruction cannot be decoded (a ret past it may be
 * missed, so none is reported), PI_NO_RET when there is none, else PI_OK;
 * -1 if cb stopped it. */
int pid_insn_rets(const uint8_t *code, size_t len, int (*cb)(void *arg, uint64_t off), void *arg);

#endif
