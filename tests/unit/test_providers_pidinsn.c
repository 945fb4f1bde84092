/*
 * test_providers_pidinsn.c — the pid provider's instruction-safety table:
 * EVEX instructions (with and without legacy prefixes), the VEX opcode bytes
 * the kernel emulates as branches, system calls and undecodable bytes are
 * refused; their neighbours (legacy jcc/call/ret, other VEX instructions,
 * RIP-relative forms) are not.  Offsets must start an instruction, a
 * function's ret instructions are found only when all of it decodes, and
 * an entry probe moves past a refused first instruction only when that one
 * keeps the argument registers.
 */
#include <string.h>

#include "providers/pid/pid_insn.h"
#include "tests/unit/cu.h"

struct insn_case {
	const char *what;
	uint8_t bytes[15];
	size_t len;
	enum pid_insn_rule want;
	size_t ilen;
};

static const struct insn_case cases[] = {
	/* __strchr_evex's first instruction: vpbroadcastb %esi,%ymm17 */
	{ "evex vpbroadcastb", { 0x62, 0xe2, 0x7d, 0x28, 0x7a, 0xce }, 6, PI_EVEX, 6 },
	/* vmovdqu64 %ymm17,(%rdi) */
	{ "evex store", { 0x62, 0xe1, 0xfe, 0x28, 0x7f, 0x0f }, 6, PI_EVEX, 6 },
	/* vpaddb %ymm17,%ymm17,%ymm18: executes right, EVEX all the same */
	{ "evex reg-only", { 0x62, 0xa1, 0x75, 0x20, 0xfc, 0xd1 }, 6, PI_EVEX, 6 },
	/* fs: vpxord %zmm0,%zmm0,%zmm0 — EVEX behind a legacy prefix */
	{ "evex after prefix", { 0x64, 0x62, 0xf1, 0x7d, 0x48, 0xef, 0xc0 }, 7, PI_EVEX, 7 },
	/* vpcmpeqb (%rdi),%ymm0,%ymm1: VEX 0x74, taken for je */
	{ "vex vpcmpeqb", { 0xc5, 0xfd, 0x74, 0x0f }, 4, PI_VEX_EMULATED, 4 },
	/* vzeroupper: VEX 0x77, taken for ja */
	{ "vex vzeroupper", { 0xc5, 0xf8, 0x77 }, 3, PI_VEX_EMULATED, 3 },
	/* vpor %ymm1,%ymm1,%ymm3: VEX 0xeb, taken for jmp rel8 */
	{ "vex vpor", { 0xc5, 0xf5, 0xeb, 0xd9 }, 4, PI_VEX_EMULATED, 4 },
	/* vpsubsb %xmm2,%xmm1,%xmm0: VEX 0xe8, taken for call */
	{ "vex vpsubsb", { 0xc5, 0xf1, 0xe8, 0xc2 }, 4, PI_VEX_EMULATED, 4 },
	/* vpshufd $0x1b,%ymm1,%ymm2 (3-byte VEX form): 0x70, taken for jo */
	{ "vex3 vpshufd", { 0xc4, 0xe1, 0x7d, 0x70, 0xd1, 0x1b }, 6, PI_VEX_EMULATED, 6 },
	/* vpaddb %ymm1,%ymm1,%ymm3: VEX 0xfc single-steps right */
	{ "vex vpaddb", { 0xc5, 0xf5, 0xfc, 0xd9 }, 4, PI_OK, 4 },
	/* vpaddb 0x10(%rip),%ymm1,%ymm3: RIP-relative VEX, fixed up right */
	{ "vex riprel", { 0xc5, 0xf5, 0xfc, 0x1d, 0x10, 0x00, 0x00, 0x00 }, 8, PI_OK, 8 },
	/* vpaddd %ymm2,%ymm1,%ymm0 in the 3-byte VEX form */
	{ "vex3 vpaddd", { 0xc4, 0xe1, 0x75, 0xfe, 0xc2 }, 5, PI_OK, 5 },
	/* legacy je rel8, call rel32, ret, push %rbp, mov 0x10(%rip),%rax */
	{ "je", { 0x74, 0x05 }, 2, PI_OK, 2 },
	{ "call", { 0xe8, 0x00, 0x00, 0x00, 0x00 }, 5, PI_OK, 5 },
	{ "ret", { 0xc3 }, 1, PI_OK, 1 },
	{ "push", { 0x55 }, 1, PI_OK, 1 },
	{ "mov riprel", { 0x48, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00 }, 7, PI_OK, 7 },
	{ "endbr64", { 0xf3, 0x0f, 0x1e, 0xfa }, 4, PI_OK, 4 },
	{ "syscall", { 0x0f, 0x05 }, 2, PI_SYSCALL, 2 },
	{ "sysenter", { 0x0f, 0x34 }, 2, PI_SYSCALL, 2 },
	{ "int 0x80", { 0xcd, 0x80 }, 2, PI_SYSCALL, 2 },
	/* 0x06 (push %es) does not exist in 64-bit mode */
	{ "invalid", { 0x06 }, 1, PI_UNDECODABLE, 0 },
	/* mov $imm32,%eax cut short */
	{ "truncated", { 0xb8, 0x01, 0x02 }, 3, PI_UNDECODABLE, 0 },
	{ "empty", { 0 }, 0, PI_UNDECODABLE, 0 },
};

static void
test_rules(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t ilen = 99;
		enum pid_insn_rule got = pid_insn_check(cases[i].bytes, cases[i].len, &ilen);
		if (got != cases[i].want || ilen != cases[i].ilen)
			printf("\n%s: rule %d length %zu, want %d %zu\n", cases[i].what, got, ilen,
			    cases[i].want, cases[i].ilen);
		CU_ASSERT_EQUAL(got, cases[i].want);
		CU_ASSERT_EQUAL(ilen, cases[i].ilen);
	}
}

static void
test_table_is_complete(void)
{
	/* every rule has its three texts: the docs and the notices use them */
	for (int k = 1; k < PI_NRULES; k++) {
		CU_ASSERT_PTR_NOT_NULL(pid_insn_rules[k].what);
		CU_ASSERT(pid_insn_rules[k].what && strlen(pid_insn_rules[k].what) > 10);
		CU_ASSERT(pid_insn_rules[k].why && strlen(pid_insn_rules[k].why) > 10);
		CU_ASSERT(pid_insn_rules[k].observed && strlen(pid_insn_rules[k].observed) > 10);
	}
}

/* push %rbp; mov %rsp,%rbp; vpcmpeqb (%rdi),%ymm0,%ymm1; syscall; pop %rbp; ret */
static const uint8_t func[] = { 0x55, 0x48, 0x89, 0xe5, 0xc5, 0xfd, 0x74, 0x0f, 0x0f, 0x05, 0x5d, 0xc3 };

static void
test_offsets(void)
{
	CU_ASSERT_EQUAL(pid_insn_at(func, sizeof(func), 0), PI_OK);
	CU_ASSERT_EQUAL(pid_insn_at(func, sizeof(func), 1), PI_OK);
	CU_ASSERT_EQUAL(pid_insn_at(func, sizeof(func), 2), PI_NOT_START);
	CU_ASSERT_EQUAL(pid_insn_at(func, sizeof(func), 4), PI_VEX_EMULATED);
	CU_ASSERT_EQUAL(pid_insn_at(func, sizeof(func), 6), PI_NOT_START);
	CU_ASSERT_EQUAL(pid_insn_at(func, sizeof(func), 8), PI_SYSCALL);
	CU_ASSERT_EQUAL(pid_insn_at(func, sizeof(func), 10), PI_OK);
	CU_ASSERT_EQUAL(pid_insn_at(func, sizeof(func), 11), PI_OK);
	CU_ASSERT_EQUAL(pid_insn_at(func, sizeof(func), 12), PI_NOT_START);	/* past the end */
	/* an undecodable byte before the offset: where instructions start is unknown */
	static const uint8_t bad[] = { 0x90, 0x06, 0x90, 0xc3 };
	CU_ASSERT_EQUAL(pid_insn_at(bad, sizeof(bad), 3), PI_UNDECODABLE);
	CU_ASSERT_EQUAL(pid_insn_at(bad, sizeof(bad), 0), PI_OK);
}

struct rets {
	uint64_t off[8];
	int n;
	int stop_at;
};

static int
collect(void *arg, uint64_t off)
{
	struct rets *r = arg;
	r->off[r->n++] = off;
	return r->n == r->stop_at;
}

static void
test_rets(void)
{
	/* test %edi,%edi; je +1; ret; xor %eax,%eax; ret */
	static const uint8_t two[] = { 0x85, 0xff, 0x74, 0x01, 0xc3, 0x31, 0xc0, 0xc3 };
	struct rets r = { .n = 0 };
	CU_ASSERT_EQUAL(pid_insn_rets(two, sizeof(two), collect, &r), PI_OK);
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT_EQUAL(r.off[0], 4);
	CU_ASSERT_EQUAL(r.off[1], 7);
	CU_ASSERT_EQUAL(pid_insn_rets(two, sizeof(two), NULL, NULL), PI_OK);
	/* a c3 byte inside an instruction is no ret: mov $0xc3c3c3c3,%eax; jmp *%r11 */
	static const uint8_t none[] = { 0xb8, 0xc3, 0xc3, 0xc3, 0xc3, 0x41, 0xff, 0xe3 };
	r.n = 0;
	CU_ASSERT_EQUAL(pid_insn_rets(none, sizeof(none), collect, &r), PI_NO_RET);
	CU_ASSERT_EQUAL(r.n, 0);
	/* a ret before an undecodable byte is not reported either */
	static const uint8_t cut[] = { 0xc3, 0x06, 0xc3 };
	r.n = 0;
	CU_ASSERT_EQUAL(pid_insn_rets(cut, sizeof(cut), collect, &r), PI_UNDECODABLE);
	CU_ASSERT_EQUAL(r.n, 0);
	/* the callback stops the walk */
	r.n = 0;
	r.stop_at = 1;
	CU_ASSERT_EQUAL(pid_insn_rets(two, sizeof(two), collect, &r), -1);
	CU_ASSERT_EQUAL(r.n, 1);
}

static void
test_entry_moves(void)
{
	uint64_t off = 99;
	/* vpbroadcastb %esi,%ymm17; mov %edi,%eax: __strchr_evex's start */
	static const uint8_t strchr_evex[] = { 0x62, 0xe2, 0x7d, 0x28, 0x7a, 0xce, 0x89, 0xf8, 0xc3 };
	CU_ASSERT_EQUAL(pid_insn_entry(strchr_evex, sizeof(strchr_evex), &off), PI_OK);
	CU_ASSERT_EQUAL(off, 6);
	/* a safe first instruction stays where it is */
	CU_ASSERT_EQUAL(pid_insn_entry(func, sizeof(func), &off), PI_OK);
	CU_ASSERT_EQUAL(off, 0);
	/* vpcmpeqb (%rdi),%ymm0,%ymm1 (VEX 0x74), then vpaddb: past the first */
	static const uint8_t cmpeq[] = { 0xc5, 0xfd, 0x74, 0x0f, 0xc5, 0xf5, 0xfc, 0xd9, 0xc3 };
	CU_ASSERT_EQUAL(pid_insn_entry(cmpeq, sizeof(cmpeq), &off), PI_OK);
	CU_ASSERT_EQUAL(off, 4);
	/* vmovq %xmm0,%rdi (VEX 0x7e) writes an argument register: not passed */
	static const uint8_t writes_rdi[] = { 0xc4, 0xe1, 0xf9, 0x7e, 0xc7, 0x90, 0xc3 };
	CU_ASSERT_EQUAL(pid_insn_entry(writes_rdi, sizeof(writes_rdi), &off), PI_VEX_EMULATED);
	CU_ASSERT_EQUAL(off, 0);
	/* EVEX then ret: nothing safe before the function leaves */
	static const uint8_t only_ret[] = { 0x62, 0xe2, 0x7d, 0x28, 0x7a, 0xce, 0xc3 };
	CU_ASSERT_EQUAL(pid_insn_entry(only_ret, sizeof(only_ret), &off), PI_EVEX);
	CU_ASSERT_EQUAL(off, 0);
	/* undecodable first bytes stay refused */
	static const uint8_t bad[] = { 0x06, 0x90 };
	CU_ASSERT_EQUAL(pid_insn_entry(bad, sizeof(bad), &off), PI_UNDECODABLE);
}

static const struct cu_test tests[] = {
	{ "entry_moves", test_entry_moves },
	{ "rules", test_rules },
	{ "table_is_complete", test_table_is_complete },
	{ "offsets", test_offsets },
	{ "rets", test_rets },
	{ NULL, NULL },
};

CU_MAIN("pidinsn", tests)
