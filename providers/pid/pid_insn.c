/*
 * pid_insn.c — the instruction-safety table (pid_insn.h) and the decoding
 * behind it.  Capstone finds where instructions begin and end and what they
 * are; the encodings the kernel gets wrong are told from the raw bytes,
 * because the kernel's mistake is itself about raw bytes: arch/x86's uprobe
 * code looks at the opcode byte that follows a VEX or EVEX prefix as if it
 * were a one-byte legacy opcode, so that byte decides whether the kernel
 * refuses the instruction, single-steps it, or emulates it as a jump.
 */
#include <capstone/capstone.h>
#include <string.h>

#include "providers/pid/pid_insn.h"

#define PI_MAXLEN 15	/* the longest x86 instruction */

const struct pid_insn_why pid_insn_rules[PI_NRULES] = {
	[PI_OK] = { "", "", "" },
	[PI_EVEX] = {
		"EVEX-encoded (AVX-512) instructions",
		"the kernel's uprobes classify them by the opcode byte after the EVEX prefix as if it "
		"were a one-byte legacy opcode: 0x70-0x7f are emulated as conditional jumps (the "
		"instruction is never executed) and the rest are refused or single-stepped by accident "
		"of the legacy table",
		"vpbroadcastb %esi,%ymm17 (62 e2 7d 28 7a ce, __strchr_evex's first instruction) was "
		"skipped: ymm17 kept a stale byte, strchr returned garbage and sh could no longer find "
		"'/' in a path; vmovdqu64 %ymm17,(%rdi) (opcode 0x7f) stored nothing",
	},
	[PI_VEX_EMULATED] = {
		"VEX-encoded instructions with opcode byte 0x70-0x7f, 0x90, 0xe8, 0xe9 or 0xeb "
		"(vpcmpeqb, vmovdqu stores, vzeroupper, vpshufd, vmovd/vmovq stores, vpor, vpsubsb...)",
		"the kernel takes the opcode byte after the VEX prefix for a legacy jcc, nop, call or "
		"jmp and emulates that instead of executing the instruction (a call pushes a return "
		"address the program never pops)",
		"vpcmpeqb %ymm1,%ymm1,%ymm3 (74), vmovdqu %ymm1,(%rdi) (7f), vpor (eb) and vzeroupper "
		"(77) were skipped: their results never appeared; VEX instructions with other opcode "
		"bytes (vpaddb, a RIP-relative vpaddb, kxnorq) computed the right values",
	},
	[PI_SYSCALL] = {
		"system-call instructions (syscall, sysenter, int)",
		"the kernel single-steps them out of line; a clone, fork or vfork made from there "
		"leaves a task returning into the out-of-line slot",
		"an offset probe on the syscall of a hand-written fork() killed the traced process "
		"with SIGSEGV",
	},
	[PI_UNDECODABLE] = {
		"instructions the decoder (Capstone) does not know, and functions whose end is unknown "
		"(no symbol size) for return and offset probes",
		"what an instruction does must be known before a breakpoint replaces its first byte",
		"not observed (a precaution)",
	},
	[PI_NOT_START] = {
		"offsets inside an instruction",
		"a breakpoint there would corrupt the instruction",
		"not observed (a precaution)",
	},
	[PI_NO_RET] = {
		"return probes of functions without a ret instruction",
		"return probes are placed on ret instructions; a function without one never returns "
		"normally (_start, exit paths, longjmp, the dynamic linker's lazy-binding trampolines "
		"entered by a jump) or leaves only through tail calls",
		"the kernel's own return probes (uretprobes) replace the return address at function "
		"entry: on _dl_runtime_resolve_xsavec, entered by a jump with no return address on the "
		"stack, that killed sh with SIGSEGV",
	},
};

/* One decoder for the process: Capstone's handle and its instruction buffer
 * (opened on first use; reachable until exit). */
static csh pi_handle;
static cs_insn *pi_insn;
static int pi_state;	/* 0 not yet, 1 open, -1 failed */

static int
pi_open(void)
{
	if (!pi_state) {
		pi_state = -1;
		if (cs_open(CS_ARCH_X86, CS_MODE_64, &pi_handle) == CS_ERR_OK) {
			if ((pi_insn = cs_malloc(pi_handle)))
				pi_state = 1;
			else
				cs_close(&pi_handle);
		}
	}
	return pi_state;
}

/* The length of the instruction at code[0..len), 0 if undecodable; *id its
 * Capstone id. */
static size_t
pi_decode(const uint8_t *code, size_t len, unsigned *id)
{
	const uint8_t *p = code;
	size_t n = len;
	uint64_t addr = 0;
	if (pi_open() < 0 || !cs_disasm_iter(pi_handle, &p, &n, &addr, pi_insn))
		return 0;
	*id = pi_insn->id;
	return pi_insn->size;
}

/* The encoding rules, from the raw bytes of one decoded instruction. */
static enum pid_insn_rule
pi_rule(const uint8_t *code, size_t ilen, unsigned id)
{
	size_t i = 0;
	/* legacy prefixes; a VEX or EVEX prefix follows them, never a REX one */
	while (i < ilen && strchr("\x66\x67\xf0\xf2\xf3\x2e\x36\x3e\x26\x64\x65", code[i]) && code[i])
		i++;
	if (i < ilen && code[i] == 0x62)
		return PI_EVEX;	/* in 64-bit mode 0x62 is only EVEX */
	if (i < ilen && (code[i] == 0xc4 || code[i] == 0xc5)) {
		size_t op = i + (code[i] == 0xc5 ? 2 : 3);
		if (op < ilen) {
			uint8_t b = code[op];
			if ((b >= 0x70 && b <= 0x7f) || b == 0x90 || b == 0xe8 || b == 0xe9 || b == 0xeb)
				return PI_VEX_EMULATED;
		}
	}
	if (id == X86_INS_SYSCALL || id == X86_INS_SYSENTER || id == X86_INS_INT ||
	    id == X86_INS_INT1 || id == X86_INS_INT3 || id == X86_INS_INTO)
		return PI_SYSCALL;
	return PI_OK;
}

enum pid_insn_rule
pid_insn_check(const uint8_t *code, size_t len, size_t *ilen)
{
	unsigned id = 0;
	*ilen = pi_decode(code, len < PI_MAXLEN ? len : PI_MAXLEN, &id);
	if (!*ilen)
		return PI_UNDECODABLE;
	return pi_rule(code, *ilen, id);
}

enum pid_insn_rule
pid_insn_at(const uint8_t *code, size_t len, uint64_t off)
{
	uint64_t at = 0;
	while (at < off && at < len) {
		size_t ilen;
		if (pid_insn_check(code + at, len - at, &ilen) == PI_UNDECODABLE)
			return PI_UNDECODABLE;
		at += ilen;
	}
	if (at != off || off >= len)
		return PI_NOT_START;
	size_t ilen;
	return pid_insn_check(code + off, len - off, &ilen);
}

/* The detailed decoder (registers written, groups), for the few entry
 * instructions pid_insn_entry looks past. */
static csh pi_dhandle;
static cs_insn *pi_dinsn;
static int pi_dstate;

static int
pi_dopen(void)
{
	if (!pi_dstate) {
		pi_dstate = -1;
		if (cs_open(CS_ARCH_X86, CS_MODE_64, &pi_dhandle) == CS_ERR_OK) {
			if (cs_option(pi_dhandle, CS_OPT_DETAIL, CS_OPT_ON) == CS_ERR_OK &&
			    (pi_dinsn = cs_malloc(pi_dhandle)))
				pi_dstate = 1;
			else
				cs_close(&pi_dhandle);
		}
	}
	return pi_dstate;
}

/* Whether the instruction at code[0..len) (ilen bytes) can be run before an
 * entry probe without the probe seeing other arguments or another stack:
 * it writes none of rdi, rsi, rdx, rcx, r8, r9, rsp (in any width) and
 * does not change the flow of control. */
static int
pi_keeps_args(const uint8_t *code, size_t ilen)
{
	static const char *const argregs[] = {
		"rdi", "edi", "di", "dil", "rsi", "esi", "si", "sil", "rdx", "edx", "dx", "dl", "dh",
		"rcx", "ecx", "cx", "cl", "ch", "r8", "r8d", "r8w", "r8b", "r9", "r9d", "r9w", "r9b",
		"rsp", "esp", "sp", "spl",
	};
	const uint8_t *p = code;
	size_t n = ilen;
	uint64_t addr = 0;
	if (pi_dopen() < 0 || !cs_disasm_iter(pi_dhandle, &p, &n, &addr, pi_dinsn) ||
	    pi_dinsn->size != ilen)
		return 0;
	static const int flow[] = { CS_GRP_JUMP, CS_GRP_CALL, CS_GRP_RET, CS_GRP_INT, CS_GRP_IRET,
		CS_GRP_BRANCH_RELATIVE };
	for (size_t i = 0; i < sizeof(flow) / sizeof(flow[0]); i++)
		if (cs_insn_group(pi_dhandle, pi_dinsn, (unsigned)flow[i]))
			return 0;
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	if (cs_regs_access(pi_dhandle, pi_dinsn, rd, &nrd, wr, &nwr) != CS_ERR_OK)
		return 0;
	for (uint8_t i = 0; i < nwr; i++) {
		const char *name = cs_reg_name(pi_dhandle, wr[i]);
		for (size_t k = 0; name && k < sizeof(argregs) / sizeof(argregs[0]); k++)
			if (!strcmp(name, argregs[k]))
				return 0;
	}
	return 1;
}

enum pid_insn_rule
pid_insn_entry(const uint8_t *code, size_t len, uint64_t *off)
{
	size_t ilen;
	enum pid_insn_rule first = pid_insn_check(code, len, &ilen), rule = first;
	*off = 0;
	/* past at most a few never-probed instructions that keep the args */
	for (int i = 0; i < 4 && (rule == PI_EVEX || rule == PI_VEX_EMULATED); i++) {
		if (!pi_keeps_args(code + *off, ilen))
			break;
		*off += ilen;
		if (*off >= len)
			break;
		rule = pid_insn_check(code + *off, len - *off, &ilen);
		unsigned id = 0;
		/* an entry probe on the function's ret would be no entry */
		if (rule == PI_OK && pi_decode(code + *off, ilen, &id) == ilen && id != X86_INS_RET)
			return PI_OK;
	}
	*off = 0;
	return first;
}

int
pid_insn_rets(const uint8_t *code, size_t len, int (*cb)(void *arg, uint64_t off), void *arg)
{
	int nret = 0;
	/* first the whole function, so that no ret is reported from a function
	 * whose other rets could hide behind an instruction we cannot decode */
	for (int pass = 0; pass < 2; pass++) {
		for (uint64_t at = 0; at < len; ) {
			unsigned id = 0;
			size_t ilen = pi_decode(code + at, len - at < PI_MAXLEN ? len - at : PI_MAXLEN, &id);
			if (!ilen)
				return PI_UNDECODABLE;
			if (id == X86_INS_RET && !pass)
				nret++;
			else if (id == X86_INS_RET && cb(arg, at))
				return -1;
			at += ilen;
		}
		if (!nret)
			return PI_NO_RET;
		if (!cb)
			break;
	}
	return PI_OK;
}
