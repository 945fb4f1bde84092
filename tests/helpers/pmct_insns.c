/*
 * pmct_insns — functions whose first instruction is one of the kinds in the
 * pid provider's instruction-safety table (providers/pid/pid_insn.h), each
 * with a neighbour of a kind that is safe, for the tests that trace them.
 *
 * Each function f(out, c) writes 32 bytes computed from the byte c; main
 * calls each one N times (argv[1], default 3) with different bytes, checks
 * every result, and prints "NAME ok" or "NAME WRONG".  Functions whose
 * instructions this CPU lacks (AVX2, AVX-512BW/VL) are not called and print
 * "NAME skipped".  "sysfork" makes a child with a raw fork system call; the
 * child exits 7 and the parent prints what it saw.  The function names and
 * the offsets named in the comments are what the tests probe.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#define FN(name, body) __asm__(".text\n.globl " #name "\n.type " #name ",@function\n" #name ":\n" \
    body "\n.size " #name ", .-" #name "\n");

/* ymm1 = 32 times c: the input of the vex_* functions */
FN(vex_setup, "vmovd %esi,%xmm1\n vpbroadcastb %xmm1,%ymm1\n ret")
/* EVEX first instructions (the table's PI_EVEX) */
FN(evex_gpr, "vpbroadcastb %esi,%ymm17\n vmovdqu64 %ymm17,(%rdi)\n vzeroupper\n ret")
FN(evex_store, "vpbroadcastb %esi,%ymm17\n nop\n vmovdqu64 %ymm17,(%rdi)\n vzeroupper\n ret")	/* +6 */
/* VEX first instructions the kernel emulates (PI_VEX_EMULATED), and VEX ones it steps right */
FN(vex_cmpeq, "vpcmpeqb %ymm1,%ymm1,%ymm3\n vpand %ymm1,%ymm3,%ymm3\n vmovdqu %ymm3,(%rdi)\n vzeroupper\n ret")
FN(vex_por, "vpor %ymm1,%ymm1,%ymm3\n vmovdqu %ymm3,(%rdi)\n vzeroupper\n ret")
FN(vex_store, "vmovdqu %ymm1,(%rdi)\n vzeroupper\n ret")
FN(vex_paddb, "vpaddb %ymm1,%ymm1,%ymm3\n vpsubb %ymm1,%ymm3,%ymm3\n vmovdqu %ymm3,(%rdi)\n vzeroupper\n ret")
FN(vex_riprel, "vpaddb pmct_zero(%rip),%ymm1,%ymm3\n vmovdqu %ymm3,(%rdi)\n vzeroupper\n ret")
/* legacy first instructions: a RIP-relative load and SSE */
FN(leg_riprel, "movq pmct_zero(%rip),%rax\n movzbl %sil,%esi\n movabs $0x0101010101010101,%rdx\n"
    " imul %rdx,%rsi\n add %rsi,%rax\n mov %rax,(%rdi)\n mov %rax,8(%rdi)\n mov %rax,16(%rdi)\n mov %rax,24(%rdi)\n ret")
FN(leg_sse, "movd %esi,%xmm0\n punpcklbw %xmm0,%xmm0\n punpcklwd %xmm0,%xmm0\n pshufd $0,%xmm0,%xmm0\n"
    " movdqu %xmm0,(%rdi)\n movdqu %xmm0,16(%rdi)\n ret")
/* fork(2) by hand: its syscall is at +5 (PI_SYSCALL) */
FN(sysfork, "mov $57,%eax\n syscall\n ret")
__asm__(".section .rodata\n.balign 32\npmct_zero: .fill 32,1,0\n.text\n");

typedef void fn(uint8_t *out, int c);
extern fn evex_gpr, evex_store, vex_cmpeq, vex_por, vex_store, vex_paddb, vex_riprel, leg_riprel,
    leg_sse, vex_setup;
long sysfork(void);

enum { LEGACY, AVX2, AVX512 };
static const struct {
	const char *name;
	fn *f;
	int needs;
} funcs[] = {
	{ "evex_gpr", evex_gpr, AVX512 }, { "evex_store", evex_store, AVX512 },
	{ "vex_cmpeq", vex_cmpeq, AVX2 }, { "vex_por", vex_por, AVX2 }, { "vex_store", vex_store, AVX2 },
	{ "vex_paddb", vex_paddb, AVX2 }, { "vex_riprel", vex_riprel, AVX2 },
	{ "leg_riprel", leg_riprel, LEGACY }, { "leg_sse", leg_sse, LEGACY },
};

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	int has[3] = { 1, __builtin_cpu_supports("avx2"),
	    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") };
	for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++) {
		if (!has[funcs[i].needs]) {
			printf("%s skipped\n", funcs[i].name);
			continue;
		}
		int bad = 0;
		for (int k = 0; k < n; k++) {
			uint8_t out[32], c = (uint8_t)('a' + k % 26);
			memset(out, 0xee, sizeof(out));
			if (funcs[i].needs == AVX2)
				vex_setup(NULL, c);
			funcs[i].f(out, c);
			for (int b = 0; b < 32; b++)
				bad += out[b] != c;
		}
		printf("%s %s\n", funcs[i].name, bad ? "WRONG" : "ok");
	}
	fflush(stdout);
	long pid = sysfork();
	if (pid == 0)
		_exit(7);
	int st = 0;
	if (pid < 0 || waitpid((pid_t)pid, &st, 0) < 0)
		printf("sysfork failed\n");
	else
		printf("sysfork child %s %d\n", WIFEXITED(st) ? "exited" : "killed",
		    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	return 0;
}
