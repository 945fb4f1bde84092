/*
 * d_opcodes.h — the D bytecode: instruction layout, opcodes, limits.
 *
 * A clause compiles to one array of 32-bit instructions over a file of
 * 64-bit registers R[0..D_NREGS-1] (values: integers, already truncated
 * and extended to their D type; strings, structs and arrays travel as
 * addresses).  Constants live in the handle's pool K[].
 *
 *   31        24 23        16 15         8 7          0
 *  +------------+------------+------------+------------+
 *  |     C      |     B      |     A      |     op     |   iABC
 *  +------------+------------+------------+------------+
 *  |          Bx (16)        |     A      |     op     |   iABx
 *  +-------------------------+------------+------------+
 *  sBx = Bx - D_SBX_BIAS (jumps are relative to the next instruction)
 *  An instruction marked "+X" is followed by one raw 32-bit word.
 *
 * Notes:
 *  - Faulting instructions are marked [F]; a fault ends the clause: its
 *    buffered output is discarded and dtrace:::ERROR fires.
 *  - Comparisons produce 0 or 1.  OP_SCMP produces <0, 0, >0 like strcmp.
 *  - Dynamic variables (self->x, a[k]) go through "sites" (struct
 *    d_dvsite in d_impl.h): R[A] is the value, R[A+1..A+n] the keys.
 *    Reading an absent variable gives 0 (for by-reference values the
 *    address of a zero buffer); storing 0 frees it.
 *  - Actions and aggregations also go through sites; their arguments are
 *    R[A], R[A+1], ... in order.
 */
#ifndef PMCTRACE_D_OPCODES_H
#define PMCTRACE_D_OPCODES_H

#include <stdint.h>

#define D_NREGS		250
#define D_MAX_KEYS	12	/* tuple elements of a key */
#define D_MAX_ACTARGS	32	/* arguments of one action */
#define D_MAX_DESCS	256	/* probe descriptions of one clause */
#define D_SBX_BIAS	32767
#define D_MAXBX		65535

/* ORDER d_op: d_opnames[] in d_compile.c */
enum d_op {
	OP_NOP = 0,	/*			nothing			*/
	OP_MOV,		/* A B		R[A] := R[B]			*/
	OP_LDK,		/* A Bx		R[A] := K[Bx]			*/
	OP_LDI,		/* A sBx	R[A] := sBx			*/
	OP_ADD,		/* A B C	R[A] := R[B] + R[C]		*/
	OP_SUB,		/* A B C	R[A] := R[B] - R[C]		*/
	OP_MUL,		/* A B C	R[A] := R[B] * R[C]		*/
	OP_SDIV,	/* A B C	R[A] := R[B] / R[C] signed [F]	*/
	OP_UDIV,	/* A B C	R[A] := R[B] / R[C] unsigned [F]	*/
	OP_SREM,	/* A B C	R[A] := R[B] % R[C] signed [F]	*/
	OP_UREM,	/* A B C	R[A] := R[B] % R[C] unsigned [F]	*/
	OP_AND,		/* A B C	R[A] := R[B] & R[C]		*/
	OP_OR,		/* A B C	R[A] := R[B] | R[C]		*/
	OP_XOR,		/* A B C	R[A] := R[B] ^ R[C]		*/
	OP_SHL,		/* A B C	R[A] := R[B] << R[C]		*/
	OP_SRA,		/* A B C	R[A] := R[B] >> R[C] arithmetic	*/
	OP_SRL,		/* A B C	R[A] := R[B] >> R[C] logical	*/
	OP_NEG,		/* A B		R[A] := -R[B]			*/
	OP_NOT,		/* A B		R[A] := ~R[B]			*/
	OP_LNOT,	/* A B		R[A] := !R[B]			*/
	OP_EQ,		/* A B C	R[A] := R[B] == R[C]		*/
	OP_NE,		/* A B C	R[A] := R[B] != R[C]		*/
	OP_SLT,		/* A B C	R[A] := R[B] < R[C] signed	*/
	OP_SLE,		/* A B C	R[A] := R[B] <= R[C] signed	*/
	OP_ULT,		/* A B C	R[A] := R[B] < R[C] unsigned	*/
	OP_ULE,		/* A B C	R[A] := R[B] <= R[C] unsigned	*/
	OP_SCMP,	/* A B C	R[A] := strcmp(R[B], R[C]) [F]	*/
	OP_SEXT,	/* A B C	R[A] := sign-extend low C bytes of R[B] */
	OP_ZEXT,	/* A B C	R[A] := zero-extend low C bytes of R[B] */
	OP_JMP,		/* sBx		pc += sBx			*/
	OP_JZ,		/* A sBx	if R[A] == 0 then pc += sBx	*/
	OP_JNZ,		/* A sBx	if R[A] != 0 then pc += sBx	*/
	OP_LDG,		/* A Bx		R[A] := global int at 8*Bx	*/
	OP_STG,		/* A Bx		global int at 8*Bx := R[A]	*/
	OP_GADDR,	/* A Bx		R[A] := &global storage + 8*Bx	*/
	OP_LDL,		/* A Bx		R[A] := this-> int at 8*Bx	*/
	OP_STL,		/* A Bx		this-> int at 8*Bx := R[A]	*/
	OP_LADDR,	/* A Bx		R[A] := &this-> storage + 8*Bx	*/
	OP_LD,		/* A B C	R[A] := *(C: size|signed<<4)R[B] [F] */
	OP_ST,		/* A B C	*(size C)R[A] := R[B] [F]	*/
	OP_LDBF,	/* A B +X	R[A] := bit-field of R[B]; X = off|bits<<8|signed<<16 */
	OP_STBF,	/* A B +X	bit-field of R[A] := R[B]	*/
	OP_COPY,	/* A B +X	memcpy(R[A], R[B], X) [F]	*/
	OP_STRCPY,	/* A B +X	copy string R[B] to R[A], at most X-1 chars [F] */
	OP_CHKIDX,	/* A Bx		fault unless R[A] < K[Bx] (unsigned) [F] */
	OP_DVLD,	/* A Bx		R[A] := dynvar site Bx [keys R[A+1..]] */
	OP_DVST,	/* A Bx		dynvar site Bx := R[A] (0 frees) [F] */
	OP_DVADDR,	/* A Bx		R[A] := &dynvar site Bx (created) [F] */
	OP_BVAR,	/* A Bx		R[A] := builtin variable Bx [F]	*/
	OP_ARGS,	/* A B		R[A] := args[R[B]] [F]		*/
	OP_CALL,	/* A B C	R[A] := subr B(R[A..A+C-1]) [F]	*/
	OP_ACT,		/* A Bx		action site Bx (R[A...]) [F]	*/
	OP_AGG,		/* A Bx		aggregation site Bx (R[A...]) [F] */
	OP_PROLOG,	/*		start of the actions: probe line	*/
	OP_SCRATCH,	/* A +X		R[A] := X zeroed scratch bytes [F]	*/
	OP_RET,		/*		end of the clause		*/
	OP_EXTRA,	/* (never executed: an operand word)		*/
	OP_NOPS
};

#define D_OP(i)		((int)((i) & 0xff))
#define D_A(i)		((int)(((i) >> 8) & 0xff))
#define D_B(i)		((int)(((i) >> 16) & 0xff))
#define D_C(i)		((int)(((i) >> 24) & 0xff))
#define D_BX(i)		((int)(((i) >> 16) & 0xffff))
#define D_SBX(i)	(D_BX(i) - D_SBX_BIAS)

#define D_ABC(op, a, b, c) \
	((uint32_t)(op) | ((uint32_t)(a) << 8) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 24))
#define D_ABX(op, a, bx) \
	((uint32_t)(op) | ((uint32_t)(a) << 8) | ((uint32_t)(bx) << 16))

/* OP_LD/OP_ST size operand: bytes | D_LD_SIGNED */
#define D_LD_SIGNED	0x10

/* Operand modes (d_opmodes[] in d_compile.c, ORDER d_op): how an
 * instruction is laid out and whether it may fault. */
#define D_OPM_ABC	0x01	/* A B C */
#define D_OPM_ABX	0x02	/* A Bx */
#define D_OPM_ASBX	0x04	/* A sBx (jumps: relative to the next pc) */
#define D_OPM_EXTRA	0x08	/* followed by one raw operand word */
#define D_OPM_FAULT	0x10	/* may end the clause with a fault */
extern const uint8_t d_opmodes[OP_NOPS];

#endif
