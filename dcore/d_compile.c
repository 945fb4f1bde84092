/*
 * d_compile.c — cooked AST → bytecode (d_opcodes.h), one clause at a time.
 *
 * Registers are allocated as a stack: compiling an expression leaves its
 * value in a fresh register at the top (cg_expr returns it) and everything
 * above it is free again.  Values are canonical for their D type: integers
 * sign/zero-extended when they are stored or cast; strings, structs and
 * arrays are addresses.  Actions, aggregations and dynamic variables are
 * described by "sites" in the handle's pools so that instructions stay
 * 32 bits and the VM does no type dispatch of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "dcore/d_impl.h"

/* ORDER d_op */
static const char *const d_opnames[OP_NOPS] = {
	"nop", "mov", "ldk", "ldi", "add", "sub", "mul", "sdiv", "udiv", "srem",
	"urem", "and", "or", "xor", "shl", "sra", "srl", "neg", "not", "lnot",
	"eq", "ne", "slt", "sle", "ult", "ule", "scmp", "sext", "zext", "jmp",
	"jz", "jnz", "ldg", "stg", "gaddr", "ldl", "stl", "laddr", "ld", "st",
	"ldbf", "stbf", "copy", "strcpy", "chkidx", "dvld", "dvst", "dvaddr",
	"bvar", "args", "call", "act", "agg", "prolog", "scratch", "ret", "extra",
};

#define ABC	D_OPM_ABC
#define ABX	D_OPM_ABX
#define SBX	D_OPM_ASBX
#define EXT	D_OPM_EXTRA
#define FLT	D_OPM_FAULT
/* ORDER d_op */
const uint8_t d_opmodes[OP_NOPS] = {
	ABC, ABC, ABX, SBX, ABC, ABC, ABC, ABC | FLT, ABC | FLT, ABC | FLT,
	ABC | FLT, ABC, ABC, ABC, ABC, ABC, ABC, ABC, ABC, ABC,
	ABC, ABC, ABC, ABC, ABC, ABC, ABC | FLT, ABC, ABC, SBX,
	SBX, SBX, ABX, ABX, ABX, ABX, ABX, ABX, ABC | FLT, ABC | FLT,
	ABC | EXT | FLT, ABC | EXT | FLT, ABC | EXT | FLT, ABC | EXT | FLT, ABX | FLT, ABX, ABX | FLT, ABX | FLT,
	ABX | FLT, ABC | FLT, ABC | FLT, ABX | FLT, ABX | FLT, ABC, ABC | EXT | FLT, ABC, ABC,
};
#undef ABC
#undef ABX
#undef SBX
#undef EXT
#undef FLT

struct d_cg {
	struct d_hdl *cg_dh;
	uint32_t *cg_code;
	uint32_t cg_n, cg_cap;
	int cg_free;		/* first free register */
	int cg_max;
	uint32_t cg_actpc[1024];
	int cg_nact;
	int cg_records;
	bool cg_spec, cg_comm, cg_drec;	/* speculate(), commit(), data seen */
	uint32_t cg_kbase, cg_actbase, cg_dvbase, cg_aggbase;	/* pool slices */
};

/* A clause's operand for pool entry idx (pools are shared, slices are not). */
static uint32_t
slice_index(struct d_cg *cg, uint32_t idx, uint32_t base)
{
	if (idx - base > D_MAXBX)
		d_error(cg->cg_dh, D_ID_OFLOW, 0, "clause too large: too many constants or actions");
	return idx - base;
}

/* ---- emission ---------------------------------------------------------------- */

static uint32_t
emit(struct d_cg *cg, uint32_t ins)
{
	if (cg->cg_n == cg->cg_cap) {
		uint32_t cap = cg->cg_cap ? cg->cg_cap * 2 : 64;
		uint32_t *nc = d_alloc(cg->cg_dh, cap * sizeof(*nc));
		if (cg->cg_n)
			memcpy(nc, cg->cg_code, cg->cg_n * sizeof(*nc));
		cg->cg_code = nc;
		cg->cg_cap = cap;
	}
	cg->cg_code[cg->cg_n] = ins;
	return cg->cg_n++;
}

static uint32_t
emit_abc(struct d_cg *cg, int op, int a, int b, int c)
{
	return emit(cg, D_ABC(op, a, b, c));
}

static uint32_t
emit_abx(struct d_cg *cg, int op, int a, uint32_t bx)
{
	if (bx > D_MAXBX)
		d_error(cg->cg_dh, D_ID_OFLOW, 0, "program too large: operand overflow");
	return emit(cg, D_ABX(op, a, bx));
}

static int
reg_alloc(struct d_cg *cg, int line)
{
	if (cg->cg_free >= D_NREGS - 1)
		d_error(cg->cg_dh, D_ID_OFLOW, line, "expression too complex: out of registers");
	int r = cg->cg_free++;
	if (cg->cg_free > cg->cg_max)
		cg->cg_max = cg->cg_free;
	return r;
}

/* Pool growth shared by constants and sites (malloc'd, freed by d_close;
 * not the arena, whose old copies would stay behind). */
static void *
pool_grow(struct d_hdl *dh, void *p, uint32_t n, uint32_t *cap, size_t elem)
{
	if (n < *cap)
		return p;
	uint32_t nc = *cap ? *cap * 2 : 32;
	void *np = realloc(p, (size_t)nc * elem);
	if (!np)
		d_error(dh, D_UNKNOWN, 0, "out of memory");
	*cap = nc;
	return np;
}

static uint32_t
konst(struct d_cg *cg, uint64_t v)
{
	struct d_hdl *dh = cg->cg_dh;
	for (uint32_t i = cg->cg_kbase; i < dh->dh_nk; i++)
		if (dh->dh_k[i] == v)
			return i - cg->cg_kbase;
	dh->dh_k = pool_grow(dh, dh->dh_k, dh->dh_nk, &dh->dh_kcap, sizeof(uint64_t));
	dh->dh_k[dh->dh_nk] = v;
	return slice_index(cg, dh->dh_nk++, cg->cg_kbase);
}

static void
load_int(struct d_cg *cg, int r, uint64_t v)
{
	int64_t s = (int64_t)v;
	if (s >= -D_SBX_BIAS && s <= D_MAXBX - D_SBX_BIAS)
		emit_abx(cg, OP_LDI, r, (uint32_t)(s + D_SBX_BIAS));
	else
		emit_abx(cg, OP_LDK, r, konst(cg, v));
}

static uint32_t
emit_jump(struct d_cg *cg, int op, int a)
{
	return emit(cg, D_ABX(op, a, D_SBX_BIAS));
}

/* Point the jump at pc 'to'. */
static void
patch(struct d_cg *cg, uint32_t at, uint32_t to)
{
	int32_t off = (int32_t)to - (int32_t)(at + 1);
	if (off < -D_SBX_BIAS || off > D_MAXBX - D_SBX_BIAS)
		d_error(cg->cg_dh, D_ID_OFLOW, 0, "clause too large: jump out of range");
	uint32_t i = cg->cg_code[at];
	cg->cg_code[at] = D_ABX(D_OP(i), D_A(i), (uint32_t)(off + D_SBX_BIAS));
}

/* Make r canonical for integer type t. */
static void
canon(struct d_cg *cg, int r, const struct d_type *t)
{
	if (d_type_is_int(t) && t->dt_size < 8 && !t->dt_vk)
		emit_abc(cg, t->dt_signed ? OP_SEXT : OP_ZEXT, r, r, (int)t->dt_size);
}

static bool
byref(const struct d_type *t)
{
	return t->dt_kind == DK_STRING || t->dt_kind == DK_STRUCT ||
	    t->dt_kind == DK_UNION || t->dt_kind == DK_ARRAY;
}

static uint32_t
storage_size(struct d_hdl *dh, const struct d_type *t)
{
	return t->dt_kind == DK_STRING ? (uint32_t)dh->dh_opt[O_STRSIZE] : t->dt_size;
}

/* ---- sites ------------------------------------------------------------------------- */

static uint32_t
dvsite(struct d_cg *cg, struct d_node *n)
{
	struct d_hdl *dh = cg->cg_dh;
	struct d_var *v = n->dn_var;
	dh->dh_dvs = pool_grow(dh, dh->dh_dvs, dh->dh_ndvs, &dh->dh_dvcap, sizeof(struct d_dvsite));
	struct d_dvsite *s = &dh->dh_dvs[dh->dh_ndvs];
	memset(s, 0, sizeof(*s));
	s->ds_var = v->dv_id;
	s->ds_tls = v->dv_kind == DV_TLS;
	s->ds_nkeys = n->dn_nargs;
	int i = 0;
	for (struct d_node *k = n->dn_args; k; k = k->dn_next, i++)
		s->ds_kstr[i] = d_type_is_string(k->dn_type) || (k->dn_type->dt_kind == DK_PTR && k->dn_type->dt_ref->dt_char && d_type_is_string(v->dv_keys[i]));
	s->ds_vsize = storage_size(dh, v->dv_type);
	s->ds_vkind = byref(v->dv_type) ? D_DVK_REF : D_DVK_INT;
	s->ds_vstr = v->dv_type->dt_kind == DK_STRING;
	if (s->ds_vsize == 0)
		s->ds_vsize = 8;
	return slice_index(cg, dh->dh_ndvs++, cg->cg_dvbase);
}

static struct d_actsite *
actsite(struct d_cg *cg, int func, uint32_t *idx)
{
	struct d_hdl *dh = cg->cg_dh;
	dh->dh_acts = pool_grow(dh, dh->dh_acts, dh->dh_nacts, &dh->dh_actcap, sizeof(struct d_actsite));
	struct d_actsite *a = &dh->dh_acts[dh->dh_nacts];
	memset(a, 0, sizeof(*a));
	a->as_func = func;
	*idx = slice_index(cg, dh->dh_nacts++, cg->cg_actbase);
	return a;
}

/* Descriptor of a value; stack()/ustack() take their frame counts. */
static void
vdesc_of(struct d_cg *cg, struct d_node *n, struct d_vdesc *vd)
{
	struct d_hdl *dh = cg->cg_dh;
	d_type_vdesc(dh, n->dn_type, vd);
	if (n->dn_kind == DN_CALL && (n->dn_subr == F_STACK || n->dn_subr == F_USTACK || n->dn_subr == F_JSTACK)) {
		bool user = n->dn_subr != F_STACK;
		uint32_t nf = (uint32_t)dh->dh_opt[user ? O_USTACKFRAMES : O_STACKFRAMES];
		if (n->dn_args)
			nf = (uint32_t)n->dn_args->dn_ival;
		vd->dv_kind = user ? D_VK_USTACK : D_VK_KSTACK;
		vd->dv_nframes = nf;
		vd->dv_size = 8 * (nf + (user ? 1 : 0));
		if (user && n->dn_args && n->dn_args->dn_next)
			vd->dv_strsize = (uint32_t)n->dn_args->dn_next->dn_ival;
	}
}

/* ---- expressions ------------------------------------------------------------------- */

static int cg_expr(struct d_cg *cg, struct d_node *n);
static int cg_addr(struct d_cg *cg, struct d_node *n);
static int cg_as_string(struct d_cg *cg, struct d_node *n);

/* Keys of a dynamic variable into consecutive registers after r. */
static void
cg_keys(struct d_cg *cg, struct d_node *n, int base)
{
	int i = 0;
	for (struct d_node *k = n->dn_args; k; k = k->dn_next, i++) {
		int r = cg_expr(cg, k);
		if (r != base + 1 + i)
			emit_abc(cg, OP_MOV, base + 1 + i, r, 0);
		cg->cg_free = base + 2 + i;
	}
}

static int
cg_var_load(struct d_cg *cg, struct d_node *n)
{
	struct d_var *v = n->dn_var;
	struct d_type *t = n->dn_type;
	int r = reg_alloc(cg, n->dn_line);
	switch (v->dv_kind) {
	case DV_GLOBAL:
		emit_abx(cg, byref(t) ? OP_GADDR : OP_LDG, r, v->dv_off / 8);
		break;
	case DV_LOCAL:
		emit_abx(cg, byref(t) ? OP_LADDR : OP_LDL, r, v->dv_off / 8);
		break;
	default: {
		uint32_t s = dvsite(cg, n);
		for (int i = 0; i < n->dn_nargs; i++)
			reg_alloc(cg, n->dn_line);
		cg_keys(cg, n, r);
		emit_abx(cg, OP_DVLD, r, s);
		cg->cg_free = r + 1;
		break;
	}
	}
	return r;
}

/* Load a value of type t from the address in register r (in place). */
static void
cg_load(struct d_cg *cg, int r, struct d_type *t, struct d_node *n)
{
	if (byref(t))
		return;
	if (n && n->dn_bits) {
		emit_abc(cg, OP_LDBF, r, r, 0);
		emit(cg, (uint32_t)n->dn_bitoff | ((uint32_t)n->dn_bits << 8) |
		    ((uint32_t)(t->dt_signed ? 1 : 0) << 16) | (((uint32_t)n->dn_bits + 7) / 8 << 24));
		return;
	}
	uint32_t sz = t->dt_size ? t->dt_size : 8;
	emit_abc(cg, OP_LD, r, r, (int)(sz | (d_type_is_int(t) && t->dt_signed ? D_LD_SIGNED : 0)));
}

static void
add_const(struct d_cg *cg, int r, uint64_t c, int line)
{
	if (c == 0)
		return;
	int t = reg_alloc(cg, line);
	load_int(cg, t, c);
	emit_abc(cg, OP_ADD, r, r, t);
	cg->cg_free = t;
}

static void
mul_const(struct d_cg *cg, int r, uint64_t c, int line)
{
	if (c == 1)
		return;
	int t = reg_alloc(cg, line);
	load_int(cg, t, c);
	emit_abc(cg, OP_MUL, r, r, t);
	cg->cg_free = t;
}

/* Address of element l[ix] (arrays are bounds-checked). */
static int
cg_index_addr(struct d_cg *cg, struct d_node *n)
{
	struct d_node *l = n->dn_l;
	int r = (l->dn_type->dt_kind == DK_ARRAY && l->dn_lvalue) ? cg_addr(cg, l) : cg_expr(cg, l);
	int ix = cg_expr(cg, n->dn_r);
	if (l->dn_type->dt_kind == DK_ARRAY)
		emit_abx(cg, OP_CHKIDX, ix, konst(cg, l->dn_type->dt_nelems));
	uint32_t es = n->dn_type->dt_kind == DK_STRING ? storage_size(cg->cg_dh, n->dn_type) : n->dn_type->dt_size;
	mul_const(cg, ix, es, n->dn_line);
	emit_abc(cg, OP_ADD, r, r, ix);
	cg->cg_free = r + 1;
	return r;
}

/* s[i]: a subroutine reads the char, since a string may live in memory a
 * D load may not touch (constants, probe names). */
static int
cg_strchar(struct d_cg *cg, struct d_node *n)
{
	int r = cg_expr(cg, n->dn_l);
	cg->cg_free = r + 1;
	int ix = cg_expr(cg, n->dn_r);
	if (ix != r + 1)
		emit_abc(cg, OP_MOV, r + 1, ix, 0);
	emit_abc(cg, OP_CALL, r, D_SUBR_STRCHAR, 2);
	cg->cg_free = r + 1;
	return r;
}

/* The address of an lvalue (creating a dynamic variable if needed). */
static int
cg_addr(struct d_cg *cg, struct d_node *n)
{
	switch (n->dn_kind) {
	case DN_VAR: {
		struct d_var *v = n->dn_var;
		int r = reg_alloc(cg, n->dn_line);
		if (v->dv_kind == DV_GLOBAL) {
			emit_abx(cg, OP_GADDR, r, v->dv_off / 8);
		} else if (v->dv_kind == DV_LOCAL) {
			emit_abx(cg, OP_LADDR, r, v->dv_off / 8);
		} else {
			uint32_t s = dvsite(cg, n);
			for (int i = 0; i < n->dn_nargs; i++)
				reg_alloc(cg, n->dn_line);
			cg_keys(cg, n, r);
			emit_abx(cg, OP_DVADDR, r, s);
			cg->cg_free = r + 1;
		}
		return r;
	}
	case DN_OP1:	/* '*' */
		return cg_expr(cg, n->dn_l);
	case DN_MEMBER: {
		int r;
		if (n->dn_op == T_ARROW)
			r = cg_expr(cg, n->dn_l);
		else if (n->dn_l->dn_lvalue)
			r = cg_addr(cg, n->dn_l);
		else
			r = cg_expr(cg, n->dn_l);
		add_const(cg, r, n->dn_member->dm_off, n->dn_line);
		return r;
	}
	case DN_INDEX:
		return cg_index_addr(cg, n);
	default:
		d_error(cg->cg_dh, D_OP_LVAL, n->dn_line, "expression is not an lvalue");
	}
}

/* Store register val into lvalue n (val keeps the value). */
static void
cg_store(struct d_cg *cg, struct d_node *n, int val)
{
	struct d_type *t = n->dn_type;
	struct d_hdl *dh = cg->cg_dh;
	if (n->dn_kind == DN_VAR) {
		struct d_var *v = n->dn_var;
		if (!byref(t) && v->dv_kind == DV_GLOBAL) {
			canon(cg, val, t);
			emit_abx(cg, OP_STG, val, v->dv_off / 8);
			return;
		}
		if (!byref(t) && v->dv_kind == DV_LOCAL) {
			canon(cg, val, t);
			emit_abx(cg, OP_STL, val, v->dv_off / 8);
			return;
		}
		if (v->dv_kind == DV_TLS || v->dv_kind == DV_ASSOC) {
			canon(cg, val, t);
			int base = reg_alloc(cg, n->dn_line);
			emit_abc(cg, OP_MOV, base, val, 0);
			uint32_t s = dvsite(cg, n);
			for (int i = 0; i < n->dn_nargs; i++)
				reg_alloc(cg, n->dn_line);
			cg_keys(cg, n, base);
			emit_abx(cg, OP_DVST, base, s);
			cg->cg_free = base;
			return;
		}
	}
	int save = cg->cg_free;
	int a = cg_addr(cg, n);
	if (t->dt_kind == DK_STRING || (t->dt_kind == DK_ARRAY && t->dt_ref->dt_char)) {
		emit_abc(cg, OP_STRCPY, a, val, 0);
		emit(cg, storage_size(dh, t));
	} else if (byref(t)) {
		emit_abc(cg, OP_COPY, a, val, 0);
		emit(cg, t->dt_size);
	} else if (n->dn_bits) {
		emit_abc(cg, OP_STBF, a, val, 0);
		emit(cg, (uint32_t)n->dn_bitoff | ((uint32_t)n->dn_bits << 8) | (((uint32_t)n->dn_bits + 7) / 8 << 24));
		canon(cg, val, t);
	} else {
		canon(cg, val, t);
		emit_abc(cg, OP_ST, a, val, (int)(t->dt_size ? t->dt_size : 8));
	}
	cg->cg_free = save;
}

static int
binop_of(struct d_node *n, const struct d_type *t)
{
	bool s = t->dt_signed;
	switch (n->dn_op) {
	case '+': case T_ADDEQ: case T_INC: return OP_ADD;
	case '-': case T_SUBEQ: case T_DEC: return OP_SUB;
	case '*': case T_MULEQ: return OP_MUL;
	case '/': case T_DIVEQ: return s ? OP_SDIV : OP_UDIV;
	case '%': case T_MODEQ: return s ? OP_SREM : OP_UREM;
	case '&': case T_ANDEQ: return OP_AND;
	case '|': case T_OREQ: return OP_OR;
	case '^': case T_XOREQ: return OP_XOR;
	case T_SHL: case T_SHLEQ: return OP_SHL;
	case T_SHR: case T_SHREQ: return s ? OP_SRA : OP_SRL;
	default: return OP_NOP;
	}
}

/* a && b, a || b, a ^^ b → 0/1 */
static int
cg_logical(struct d_cg *cg, struct d_node *n)
{
	int r = cg_expr(cg, n->dn_l);
	if (d_type_is_string(n->dn_l->dn_type)) {
		/* a string is true when non-NULL */
	}
	emit_abc(cg, OP_LNOT, r, r, 0);
	emit_abc(cg, OP_LNOT, r, r, 0);
	if (n->dn_op == T_LXOR) {
		int r2 = cg_expr(cg, n->dn_r);
		emit_abc(cg, OP_LNOT, r2, r2, 0);
		emit_abc(cg, OP_LNOT, r2, r2, 0);
		emit_abc(cg, OP_XOR, r, r, r2);
		cg->cg_free = r + 1;
		return r;
	}
	uint32_t j = emit_jump(cg, n->dn_op == T_LAND ? OP_JZ : OP_JNZ, r);
	int r2 = cg_expr(cg, n->dn_r);
	emit_abc(cg, OP_LNOT, r, r2, 0);
	emit_abc(cg, OP_LNOT, r, r, 0);
	cg->cg_free = r + 1;
	patch(cg, j, cg->cg_n);
	return r;
}

static int
cg_compare(struct d_cg *cg, struct d_node *n)
{
	bool str = n->dn_dynamic == 2;
	int a = str ? cg_as_string(cg, n->dn_l) : cg_expr(cg, n->dn_l);
	int b = str ? cg_as_string(cg, n->dn_r) : cg_expr(cg, n->dn_r);
	bool sign = true;
	if (str) {
		emit_abc(cg, OP_SCMP, a, a, b);
		load_int(cg, b, 0);
	} else {
		sign = n->dn_ctype && d_type_is_int(n->dn_ctype) ? n->dn_ctype->dt_signed : false;
	}
	switch (n->dn_op) {
	case T_EQ: emit_abc(cg, OP_EQ, a, a, b); break;
	case T_NE: emit_abc(cg, OP_NE, a, a, b); break;
	case '<': emit_abc(cg, sign ? OP_SLT : OP_ULT, a, a, b); break;
	case T_LE: emit_abc(cg, sign ? OP_SLE : OP_ULE, a, a, b); break;
	case '>': emit_abc(cg, sign ? OP_SLT : OP_ULT, a, b, a); break;
	case T_GE: emit_abc(cg, sign ? OP_SLE : OP_ULE, a, b, a); break;
	default: break;
	}
	cg->cg_free = a + 1;
	return a;
}

static int
cg_op2(struct d_cg *cg, struct d_node *n)
{
	int op = n->dn_op;
	if (op == T_LAND || op == T_LOR || op == T_LXOR)
		return cg_logical(cg, n);
	if (op == T_EQ || op == T_NE || op == '<' || op == '>' || op == T_LE || op == T_GE)
		return cg_compare(cg, n);
	int a = cg_expr(cg, n->dn_l);
	int b = cg_expr(cg, n->dn_r);
	if (n->dn_dynamic == 4) {	/* pointer ± integer: scale the integer */
		bool lp = d_type_is_ptrlike(n->dn_l->dn_type);
		struct d_type *pt = lp ? n->dn_l->dn_type : n->dn_r->dn_type;
		mul_const(cg, lp ? b : a, pt->dt_ref->dt_size, n->dn_line);
	}
	emit_abc(cg, binop_of(n, n->dn_type), a, a, b);
	if (n->dn_dynamic == 3) {	/* pointer - pointer: in elements */
		load_int(cg, b, n->dn_l->dn_type->dt_ref->dt_size ? n->dn_l->dn_type->dt_ref->dt_size : 1);
		emit_abc(cg, OP_SDIV, a, a, b);
	}
	cg->cg_free = a + 1;
	return a;
}

static int
cg_op1(struct d_cg *cg, struct d_node *n)
{
	int r;
	switch (n->dn_op) {
	case '-':
		r = cg_expr(cg, n->dn_l);
		emit_abc(cg, OP_NEG, r, r, 0);
		return r;
	case '+':
		return cg_expr(cg, n->dn_l);
	case '~':
		r = cg_expr(cg, n->dn_l);
		emit_abc(cg, OP_NOT, r, r, 0);
		return r;
	case '!':
		r = cg_expr(cg, n->dn_l);
		emit_abc(cg, OP_LNOT, r, r, 0);
		return r;
	case '*':
		r = cg_expr(cg, n->dn_l);
		cg_load(cg, r, n->dn_type, NULL);
		return r;
	case '&':
		return cg_addr(cg, n->dn_l);
	case T_INC:
	case T_DEC: {	/* ++x: store x+1, value is the new x */
		struct d_node *l = n->dn_l;
		r = cg_expr(cg, l);
		int one = reg_alloc(cg, n->dn_line);
		load_int(cg, one, l->dn_type->dt_kind == DK_PTR ? l->dn_type->dt_ref->dt_size : 1);
		emit_abc(cg, n->dn_op == T_INC ? OP_ADD : OP_SUB, r, r, one);
		cg->cg_free = r + 1;
		cg_store(cg, l, r);
		return r;
	}
	default:
		d_error(cg->cg_dh, D_UNKNOWN, n->dn_line, "internal error: unary operator");
	}
}

static int
cg_post(struct d_cg *cg, struct d_node *n)
{
	struct d_node *l = n->dn_l;
	int r = cg_expr(cg, l);
	int nv = reg_alloc(cg, n->dn_line);
	load_int(cg, nv, l->dn_type->dt_kind == DK_PTR ? l->dn_type->dt_ref->dt_size : 1);
	emit_abc(cg, n->dn_op == T_INC ? OP_ADD : OP_SUB, nv, r, nv);
	cg_store(cg, l, nv);
	cg->cg_free = r + 1;
	return r;
}

static int
cg_assign(struct d_cg *cg, struct d_node *n)
{
	struct d_node *l = n->dn_l;
	int r;
	if (n->dn_op == '=') {
		struct d_type *rt = n->dn_r->dn_type;
		/* char[] text into a string: a checked copy (the array may sit
		 * behind any pointer) */
		if (d_type_is_string(l->dn_type) && rt->dt_kind == DK_ARRAY)
			r = cg_as_string(cg, n->dn_r);
		else
			r = cg_expr(cg, n->dn_r);
	} else {
		r = cg_expr(cg, l);
		int b = cg_expr(cg, n->dn_r);
		if (l->dn_type->dt_kind == DK_PTR)
			mul_const(cg, b, l->dn_type->dt_ref->dt_size, n->dn_line);
		emit_abc(cg, binop_of(n, d_type_is_int(l->dn_type) ? l->dn_type : cg->cg_dh->dh_t_ulong), r, r, b);
		cg->cg_free = r + 1;
	}
	cg_store(cg, l, r);
	return r;
}

static int
cg_op3(struct d_cg *cg, struct d_node *n)
{
	int r = cg_expr(cg, n->dn_x);
	uint32_t jf = emit_jump(cg, OP_JZ, r);
	cg->cg_free = r;
	int a = cg_expr(cg, n->dn_l);
	if (a != r)
		emit_abc(cg, OP_MOV, r, a, 0);
	uint32_t je = emit_jump(cg, OP_JMP, 0);
	patch(cg, jf, cg->cg_n);
	cg->cg_free = r;
	int b = cg_expr(cg, n->dn_r);
	if (b != r)
		emit_abc(cg, OP_MOV, r, b, 0);
	patch(cg, je, cg->cg_n);
	cg->cg_free = r + 1;
	return r;
}

static int cg_args(struct d_cg *cg, struct d_node *a, int line);

/* Subroutine: arguments in R[base..], result in R[base]. */
static int
cg_call(struct d_cg *cg, struct d_node *n)
{
	int base = cg_args(cg, n->dn_args, n->dn_line);
	if (n->dn_nargs == 0)
		reg_alloc(cg, n->dn_line);
	emit_abc(cg, OP_CALL, base, n->dn_subr, n->dn_nargs);
	cg->cg_free = base + 1;
	return base;
}

/* A char * operand used as a string: copied (and checked) as text. */
static int
cg_as_string(struct d_cg *cg, struct d_node *n)
{
	int r = cg_expr(cg, n);
	if (!d_type_is_string(n->dn_type))
		emit_abc(cg, OP_CALL, r, D_SUBR_STRINGOF, 1);
	return r;
}

static int
cg_expr(struct d_cg *cg, struct d_node *n)
{
	int r;
	switch (n->dn_kind) {
	case DN_INT:
		r = reg_alloc(cg, n->dn_line);
		load_int(cg, r, n->dn_ival);
		return r;
	case DN_STR: {
		r = reg_alloc(cg, n->dn_line);
		char *s = d_strndup(cg->cg_dh, n->dn_str, n->dn_slen);
		emit_abx(cg, OP_LDK, r, konst(cg, (uint64_t)(uintptr_t)s));
		return r;
	}
	case DN_VAR:
		return cg_var_load(cg, n);
	case DN_BUILTIN:
		r = reg_alloc(cg, n->dn_line);
		emit_abx(cg, OP_BVAR, r, (uint32_t)n->dn_bvar);
		return r;
	case DN_ARGS:
		r = reg_alloc(cg, n->dn_line);
		emit_abx(cg, OP_BVAR, r, (uint32_t)(BV_ARG0 + (int)n->dn_ival));
		canon(cg, r, n->dn_type);
		return r;
	case DN_OP1:
		return cg_op1(cg, n);
	case DN_POST:
		return cg_post(cg, n);
	case DN_OP2:
		return cg_op2(cg, n);
	case DN_OP3:
		return cg_op3(cg, n);
	case DN_ASSIGN:
		return cg_assign(cg, n);
	case DN_CALL:
		return cg_call(cg, n);
	case DN_MEMBER:
	case DN_INDEX:
		if (n->dn_kind == DN_INDEX && d_type_is_string(n->dn_l->dn_type))
			return cg_strchar(cg, n);
		r = n->dn_kind == DN_INDEX ? cg_index_addr(cg, n) : cg_addr(cg, n);
		cg_load(cg, r, n->dn_type, n);
		return r;
	case DN_CAST:
		r = cg_expr(cg, n->dn_l);
		if (n->dn_l->dn_type->dt_kind == DK_STRING) {
			/* a string seen as a pointer: its address */
		}
		canon(cg, r, n->dn_type);
		return r;
	case DN_STRINGOF:
		r = cg_expr(cg, n->dn_l);
		emit_abc(cg, OP_CALL, r, D_SUBR_STRINGOF, 1);
		return r;
	case DN_COMMA:
		r = cg_expr(cg, n->dn_l);
		cg->cg_free = r;
		return cg_expr(cg, n->dn_r);
	case DN_XLATE:	/* a translated argument used whole: its raw pointer */
		return cg_expr(cg, n->dn_l);
	default:
		d_error(cg->cg_dh, D_UNKNOWN, n->dn_line, "internal error: cannot compile node kind %d", n->dn_kind);
	}
}

/* ---- actions ------------------------------------------------------------------ */

static void
mark_action(struct d_cg *cg)
{
	if (cg->cg_nact < (int)(sizeof(cg->cg_actpc) / sizeof(cg->cg_actpc[0])))
		cg->cg_actpc[cg->cg_nact] = cg->cg_n;
	cg->cg_nact++;
}

/* Arguments (from the k-th) into consecutive registers; returns the base. */
static int
cg_args(struct d_cg *cg, struct d_node *a, int line)
{
	int base = cg->cg_free;
	int i = 0;
	for (; a; a = a->dn_next, i++) {
		int want = base + i;
		while (cg->cg_free <= want)
			reg_alloc(cg, line);
		cg->cg_free = want;
		int r = cg_expr(cg, a);
		if (r != want)
			emit_abc(cg, OP_MOV, want, r, 0);
		cg->cg_free = want + 1;
	}
	return base;
}

static void check_spec_order(struct d_cg *cg, int f, int line);

static dagg_t *
agg_handle(struct d_cg *cg, struct d_agginfo *ai, struct d_node *keys)
{
	struct d_hdl *dh = cg->cg_dh;
	if (ai->ai_agg)
		return ai->ai_agg;
	struct d_vdesc kvd[D_MAX_KEYS];
	int i = 0;
	for (struct d_node *k = keys; k; k = k->dn_next, i++)
		vdesc_of(cg, k, &kvd[i]);
	int err = 0;
	ai->ai_agg = dagg_create(dh->dh_aggset, ai->ai_name, ai->ai_func, &ai->ai_params, kvd, ai->ai_nkeys, &err);
	if (!ai->ai_agg)
		d_error(dh, D_UNKNOWN, ai->ai_line, "failed to create aggregation @%s: %s", ai->ai_name, strerror(-err));
	return ai->ai_agg;
}

static void
cg_aggregate(struct d_cg *cg, struct d_node *n)
{
	struct d_hdl *dh = cg->cg_dh;
	struct d_node *ag = n->dn_l, *call = n->dn_r;
	struct d_agginfo *ai = ag->dn_agg;
	check_spec_order(cg, F_COUNT, n->dn_line);
	dh->dh_aggsites = pool_grow(dh, dh->dh_aggsites, dh->dh_naggsites, &dh->dh_aggsitecap, sizeof(struct d_aggsite));
	struct d_aggsite *s = &dh->dh_aggsites[dh->dh_naggsites];
	uint32_t idx = slice_index(cg, dh->dh_naggsites++, cg->cg_aggbase);
	memset(s, 0, sizeof(*s));
	s->ag_agg = agg_handle(cg, ai, ag->dn_args);
	s->ag_nkeys = ag->dn_nargs;
	int i = 0;
	for (struct d_node *k = ag->dn_args; k; k = k->dn_next, i++) {
		vdesc_of(cg, k, &s->ag_kvd[i]);
		s->ag_ksize += (uint32_t)dfmt_vsize(&s->ag_kvd[i]);
	}
	/* value and weight: quantize(v, incr), lquantize(v,b,l,s,incr), llquantize(v,f,l,h,n,incr) */
	struct d_node *val = call->dn_args, *incr = NULL;
	int nparams = call->dn_subr == F_LQUANTIZE ? 4 : call->dn_subr == F_LLQUANTIZE ? 5 : 1;
	if (val) {
		struct d_node *a = val;
		for (int k = 1; a && k < nparams + 1; k++)
			a = a->dn_next;
		if (call->dn_subr == F_QUANTIZE || call->dn_subr == F_LQUANTIZE || call->dn_subr == F_LLQUANTIZE) {
			incr = val;
			for (int k = 0; k < nparams && incr; k++)
				incr = incr->dn_next;
		}
	}
	int save = cg->cg_free;
	int base = cg->cg_free;
	struct d_node *list[D_MAX_KEYS + 2];
	int nl = 0;
	for (struct d_node *k = ag->dn_args; k; k = k->dn_next)
		list[nl++] = k;
	s->ag_hasval = val != NULL;
	s->ag_hasincr = incr != NULL;
	for (int j = 0; j < nl; j++) {
		int want = base + j;
		while (cg->cg_free <= want)
			reg_alloc(cg, n->dn_line);
		cg->cg_free = want;
		int r = cg_expr(cg, list[j]);
		if (r != want)
			emit_abc(cg, OP_MOV, want, r, 0);
		cg->cg_free = want + 1;
	}
	struct d_node *tail[2] = { val, incr };
	for (int j = 0; j < 2; j++) {
		int want = base + nl + j;
		while (cg->cg_free <= want)
			reg_alloc(cg, n->dn_line);
		cg->cg_free = want;
		if (tail[j]) {
			int r = cg_expr(cg, tail[j]);
			if (r != want)
				emit_abc(cg, OP_MOV, want, r, 0);
		} else {
			load_int(cg, want, j == 1 ? 1 : 0);
		}
		cg->cg_free = want + 1;
	}
	emit_abx(cg, OP_AGG, base, idx);
	cg->cg_free = save;
}

static void
fmt_check(struct d_cg *cg, struct d_actsite *as, const char *fname, const char *fmt,
    int flags, const struct d_vdesc *vd, int nvd, int line)
{
	char err[512];
	const char *tag = NULL;
	int e = 0;
	as->as_fmt = dfmt_parse(fname, fmt, flags, vd, nvd, err, sizeof(err), &tag, &e);
	if (!as->as_fmt)
		d_error(cg->cg_dh, tag ? d_errtag_byname(tag) : D_PRINTF_ARG_TYPE, line, "%s", err);
}

/* printa() of several aggregations joins them by key: their keys must
 * agree in number and type. */
static void
printa_keys_match(struct d_hdl *dh, int line, const struct d_agginfo *a,
    const struct d_agginfo *b)
{
	char ta[256], tb[256];

	if (a->ai_nkeys != b->ai_nkeys)
		d_error(dh, D_PRINTA_AGGKEY, line, "printa( ): @%s and @%s do not have matching key signatures: @%s has %d key%s, @%s has %d key%s",
		    a->ai_name, b->ai_name, a->ai_name, a->ai_nkeys, a->ai_nkeys == 1 ? "" : "s",
		    b->ai_name, b->ai_nkeys, b->ai_nkeys == 1 ? "" : "s");
	for (int i = 0; i < a->ai_nkeys; i++) {
		const struct d_type *x = a->ai_keys[i], *y = b->ai_keys[i];
		if (d_type_compat(x, y) || (d_type_is_string(x) && d_type_is_string(y)))
			continue;
		d_error(dh, D_PRINTA_AGGPROTO, line, "printa( ): @%s[ ] key #%d is incompatible with @%s:\n%9s key #%d: %s\n%9s key #%d: %s",
		    b->ai_name, i + 1, a->ai_name, a->ai_name, i + 1, d_type_name(dh, x, ta, sizeof(ta)),
		    b->ai_name, i + 1, d_type_name(dh, y, tb, sizeof(tb)));
	}
}

static bool
is_data_action(int f)
{
	switch (f) {
	case F_SPECULATE: case F_COMMIT: case F_DISCARD: case F_EXIT:
	case F_SETOPT: case F_TRUNC: case F_CLEAR: case F_NORMALIZE:
	case F_DENORMALIZE: case F_SYSTEM: case F_RAISE: case F_STOP:
	case F_CHILL: case F_BREAKPOINT: case F_PANIC: case F_FREOPEN:
	case F_FTRUNCATE:
		return false;
	default:
		return true;
	}
}

static bool
is_destructive(int f)
{
	return f == F_SYSTEM || f == F_RAISE || f == F_STOP || f == F_CHILL ||
	    f == F_BREAKPOINT || f == F_PANIC || f == F_COPYINTO || f == F_FREOPEN;
}

/* DTrace's ordering rules for speculate()/commit() within one clause. */
static void
check_spec_order(struct d_cg *cg, int f, int line)
{
	struct d_hdl *dh = cg->cg_dh;
	if (f == F_SPECULATE) {
		if (cg->cg_spec)
			d_error(dh, D_SPEC_SPEC, line, "speculate( ) may not follow speculate( )");
		if (cg->cg_comm)
			d_error(dh, D_SPEC_COMM, line, "speculate( ) may not follow commit( )");
		if (cg->cg_drec)
			d_error(dh, D_SPEC_DREC, line, "speculate( ) may not follow data-recording action(s)");
		cg->cg_spec = true;
		return;
	}
	if (f == F_COMMIT || f == F_DISCARD) {
		if (f == F_COMMIT && cg->cg_comm)
			d_error(dh, D_COMM_COMM, line, "commit( ) may not follow commit( )");
		if (cg->cg_drec)
			d_error(dh, D_COMM_DREC, line, "%s( ) may not follow data-recording action(s)",
			    f == F_COMMIT ? "commit" : "discard");
		if (f == F_COMMIT)
			cg->cg_comm = true;
		return;
	}
	if (f == F_EXIT && cg->cg_spec)
		d_error(dh, D_EXIT_SPEC, line, "exit( ) may not follow speculate( )");
	if (is_destructive(f) && cg->cg_spec)
		d_error(dh, D_ACT_SPEC, line, "destructive actions may not follow speculate( )");
	if (f == F_COUNT) {	/* any aggregation */
		if (cg->cg_spec)
			d_error(dh, D_AGG_SPEC, line, "aggregating actions may not follow speculate( )");
		if (cg->cg_comm)
			d_error(dh, D_AGG_COMM, line, "aggregating actions may not follow commit( )");
		return;
	}
	if (is_data_action(f)) {
		if (cg->cg_comm)
			d_error(dh, D_DREC_COMM, line, "data-recording actions may not follow commit( )");
		cg->cg_drec = true;
	}
}

/* print(): a struct's members in order, nested structs opened with
 * fm_isstruct and their members one level deeper; offsets are from the
 * start of the printed value.  Returns the count (fills m when non-NULL). */
static int
print_members(struct d_hdl *dh, const struct d_type *t, uint32_t base, int depth,
    struct dfmt_member *m, int n)
{
	char tn[128];
	for (struct d_member *dm = t->dt_members; dm; dm = dm->dm_next) {
		const struct d_type *mt = dm->dm_type;
		bool sou = mt->dt_kind == DK_STRUCT || mt->dt_kind == DK_UNION;
		if (m) {
			struct dfmt_member *fm = &m[n];
			fm->fm_name = dm->dm_name ? dm->dm_name : "";
			fm->fm_tname = d_strdup(dh, d_type_name(dh, mt, tn, sizeof(tn)));
			d_type_vdesc(dh, mt, &fm->fm_vd);
			fm->fm_off = base + dm->dm_off;
			fm->fm_depth = (uint16_t)depth;
			fm->fm_isstruct = sou;
		}
		n++;
		if (sou)
			n = print_members(dh, mt, base + dm->dm_off, depth + 1, m, n);
	}
	return n;
}

/* printa(): the aggregations, whose keys must agree, and the format
 * checked against the first one's keys. */
static void
cg_printa(struct d_cg *cg, struct d_actsite *as, struct d_node *n)
{
	struct d_hdl *dh = cg->cg_dh;
	struct d_node *a = n->dn_args;
	struct d_node *fmt = a->dn_kind == DN_STR ? a : NULL;
	struct d_node *ag = fmt ? a->dn_next : a;
	int na = 0;
	struct d_agginfo *first = ag->dn_agg;
	for (; ag; ag = ag->dn_next) {
		struct d_agginfo *ai = ag->dn_agg;
		printa_keys_match(dh, n->dn_line, first, ai);
		as->as_aggs[na++] = agg_handle(cg, ai, NULL);
	}
	as->as_naggs = na;
	if (fmt) {
		struct d_vdesc kvd[D_MAX_KEYS];
		for (int i = 0; i < first->ai_nkeys; i++)
			d_type_vdesc(dh, first->ai_keys[i], &kvd[i]);
		fmt_check(cg, as, "printa", fmt->dn_str, DFMT_PRINTA, kvd, first->ai_nkeys, n->dn_line);
	}
}

/* print(): the value, its type's name, and a struct's members flattened. */
static void
cg_print(struct d_cg *cg, struct d_actsite *as, struct d_node *a)
{
	struct d_hdl *dh = cg->cg_dh;
	vdesc_of(cg, a, &as->as_vd[0]);
	as->as_nargs = 1;
	char tn[128];
	as->as_str = d_strdup(dh, d_type_name(dh, a->dn_type, tn, sizeof(tn)));
	struct d_type *t = a->dn_type;
	if (t->dt_kind == DK_STRUCT || t->dt_kind == DK_UNION) {
		int nm = print_members(dh, t, 0, 1, NULL, 0);
		as->as_members = d_alloc(dh, (size_t)(nm ? nm : 1) * sizeof(struct dfmt_member));
		as->as_nmembers = print_members(dh, t, 0, 1, as->as_members, 0);
	}
}

static void
cg_action(struct d_cg *cg, struct d_node *n)
{
	uint32_t idx;
	struct d_actsite *as = actsite(cg, n->dn_subr, &idx);
	struct d_node *a = n->dn_args;
	struct d_node *vals = a;
	int save = cg->cg_free;
	cg->cg_records = 1;
	check_spec_order(cg, n->dn_subr, n->dn_line);

	switch (n->dn_subr) {
	case F_PRINTF:
	case F_SYSTEM:
	case F_FREOPEN: {
		vals = a->dn_next;
		int i = 0;
		for (struct d_node *v = vals; v; v = v->dn_next, i++)
			vdesc_of(cg, v, &as->as_vd[i]);
		as->as_nargs = i;
		if (n->dn_subr != F_FREOPEN || a->dn_str[0])
			fmt_check(cg, as, n->dn_subr == F_PRINTF ? "printf" : n->dn_subr == F_SYSTEM ? "system" : "freopen",
			    a->dn_str, DFMT_EXACT, as->as_vd, i, n->dn_line);
		as->as_str = a->dn_str;
		break;
	}
	case F_PRINTA:
		cg_printa(cg, as, n);
		vals = NULL;
		break;
	case F_TRUNC:
	case F_CLEAR:
	case F_NORMALIZE:
	case F_DENORMALIZE:
		as->as_aggs[0] = agg_handle(cg, a->dn_agg, NULL);
		as->as_naggs = 1;
		vals = a->dn_next;
		as->as_nargs = vals ? 1 : 0;
		break;
	case F_SETOPT:
		as->as_str = a->dn_str;
		as->as_vd[0].dv_tname = a->dn_next ? a->dn_next->dn_str : NULL;
		vals = NULL;
		break;
	case F_TRACEMEM:
		as->as_nargs = 2;
		as->as_vd[0].dv_size = (uint32_t)a->dn_next->dn_ival;
		vals = a;
		break;
	case F_PRINT:
		cg_print(cg, as, a);
		break;
	default: {
		int i = 0;
		for (struct d_node *v = vals; v; v = v->dn_next, i++)
			vdesc_of(cg, v, &as->as_vd[i]);
		as->as_nargs = i;
		break;
	}
	}
	int base = cg_args(cg, vals, n->dn_line);
	emit_abx(cg, OP_ACT, base, idx);
	cg->cg_free = save;
}

/* stack(); ustack(); as statements print the frames. */
static void
cg_stack_stmt(struct d_cg *cg, struct d_node *n)
{
	uint32_t idx;
	struct d_actsite *as = actsite(cg, F_STACK, &idx);
	check_spec_order(cg, F_STACK, n->dn_line);
	vdesc_of(cg, n, &as->as_vd[0]);
	as->as_nargs = 1;
	cg->cg_records = 1;
	int r = reg_alloc(cg, n->dn_line);
	load_int(cg, r, 0);
	emit_abx(cg, OP_ACT, r, idx);
	cg->cg_free = r;
}

static void cg_stmts(struct d_cg *cg, struct d_node *s);

static void
cg_stmt(struct d_cg *cg, struct d_node *s)
{
	int save = cg->cg_free;
	switch (s->dn_kind) {
	case DN_EXPR: {
		struct d_node *e = s->dn_l;
		mark_action(cg);
		if (e->dn_kind == DN_CALL && e->dn_action == 1)
			cg_action(cg, e);
		else if (e->dn_kind == DN_ASSIGN && e->dn_action == 2)
			cg_aggregate(cg, e);
		else if (e->dn_kind == DN_CALL && (e->dn_subr == F_STACK || e->dn_subr == F_USTACK || e->dn_subr == F_JSTACK))
			cg_stack_stmt(cg, e);
		else
			cg_expr(cg, e);
		break;
	}
	case DN_IF: {
		int r = cg_expr(cg, s->dn_x);
		uint32_t jf = emit_jump(cg, OP_JZ, r);
		cg->cg_free = save;
		if (s->dn_l)
			cg_stmt(cg, s->dn_l);
		if (s->dn_r) {
			uint32_t je = emit_jump(cg, OP_JMP, 0);
			patch(cg, jf, cg->cg_n);
			cg_stmt(cg, s->dn_r);
			patch(cg, je, cg->cg_n);
		} else {
			patch(cg, jf, cg->cg_n);
		}
		break;
	}
	case DN_BLOCK:
		cg_stmts(cg, s->dn_l);
		break;
	default:
		break;
	}
	cg->cg_free = save;
}

static void
cg_stmts(struct d_cg *cg, struct d_node *s)
{
	for (; s; s = s->dn_next)
		cg_stmt(cg, s);
}

struct d_clause *
d_compile_clause(struct d_hdl *dh, struct d_pclause *pc)
{
	struct d_cg cg;
	memset(&cg, 0, sizeof(cg));
	cg.cg_dh = dh;
	cg.cg_kbase = dh->dh_nk;
	cg.cg_actbase = dh->dh_nacts;
	cg.cg_dvbase = dh->dh_ndvs;
	cg.cg_aggbase = dh->dh_naggsites;
	struct d_clause *cl = d_alloc(dh, sizeof(*cl));
	cl->cl_kbase = cg.cg_kbase;
	cl->cl_actbase = cg.cg_actbase;
	cl->cl_dvbase = cg.cg_dvbase;
	cl->cl_aggbase = cg.cg_aggbase;
	if (pc->pc_pred) {
		int r = cg_expr(&cg, pc->pc_pred);
		emit_abx(&cg, OP_JZ, r, D_SBX_BIAS);	/* patched to the RET below */
		cl->cl_hasPred = 1;
		cg.cg_free = 0;
	}
	uint32_t predjump = cg.cg_n ? cg.cg_n - 1 : 0;
	cl->cl_predend = cg.cg_n;
	uint32_t prolog = emit(&cg, D_ABC(OP_PROLOG, 0, 0, 0));
	cg_stmts(&cg, pc->pc_body);
	if (!pc->pc_body)
		cg.cg_records = 1;	/* an empty clause traces the probe */
	cg.cg_code[prolog] = D_ABC(OP_PROLOG, cg.cg_records, 0, 0);
	uint32_t ret = emit(&cg, D_ABC(OP_RET, 0, 0, 0));
	if (pc->pc_pred)
		patch(&cg, predjump, ret);
	cl->cl_code = cg.cg_code;
	cl->cl_ncode = cg.cg_n;
	cl->cl_records = cg.cg_records;
	cl->cl_nregs = cg.cg_max;
	int na = cg.cg_nact < 1024 ? cg.cg_nact : 1024;
	cl->cl_actpc = d_alloc(dh, (size_t)(na + 1) * sizeof(uint32_t));
	memcpy(cl->cl_actpc, cg.cg_actpc, (size_t)na * sizeof(uint32_t));
	cl->cl_nact = na;
	return cl;
}

/* A listing for -x disasm and the unit tests. */
void
d_disasm(struct d_hdl *dh, const struct d_clause *cl, FILE *fp)
{
	(void)dh;
	for (uint32_t pc = 0; pc < cl->cl_ncode; pc++) {
		uint32_t i = cl->cl_code[pc];
		int op = D_OP(i);
		if (op >= OP_NOPS) {
			fprintf(fp, "%04u  .word 0x%08x\n", pc, i);
			continue;
		}
		uint8_t m = d_opmodes[op];
		if (m & D_OPM_ASBX)
			fprintf(fp, "%04u  %-7s r%d, %d%s\n", pc, d_opnames[op], D_A(i),
			    op == OP_LDI ? D_SBX(i) : (int)(pc + 1 + (uint32_t)D_SBX(i)), op == OP_LDI ? "" : " (target)");
		else if (m & D_OPM_ABX)
			fprintf(fp, "%04u  %-7s r%d, %d\n", pc, d_opnames[op], D_A(i), D_BX(i));
		else
			fprintf(fp, "%04u  %-7s r%d, r%d, r%d\n", pc, d_opnames[op], D_A(i), D_B(i), D_C(i));
		if ((m & D_OPM_EXTRA) && pc + 1 < cl->cl_ncode) {
			pc++;
			fprintf(fp, "%04u  .word %u\n", pc, cl->cl_code[pc]);
		}
	}
}
