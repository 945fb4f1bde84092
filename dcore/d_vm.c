/*
 * d_vm.c — the bytecode interpreter: one dispatch loop runs one clause.
 *
 * d_vm_exec() fetches, dispatches and executes instructions (d_opcodes.h)
 * over a local register file until OP_RET or a fault.  Short cases live in
 * the loop; anything longer (builtin variables beyond the hot ones, key
 * encoding, subroutines, actions) is an out-of-line helper.  Instructions
 * that may fault use VM_FAULT, which records the pc and returns the fault
 * code; the caller (d_core.c) discards the clause's output and fires ERROR.
 * With GNU C the dispatch is a computed-goto table (one indirect jump per
 * case, which branch predictors like better); -DD_VM_SWITCH forces the
 * portable switch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dcore/d_impl.h"

static const char *const d_fault_names[DF_NFAULTS] = {
	"no fault", "invalid address", "invalid alignment", "illegal operation",
	"divide-by-zero", "out of scratch space", "invalid kernel access",
	"invalid user access", "tuple stack overflow", "bad stack",
	"index out of range", "string too long",
};

const char *
d_fault_name(int fault)
{
	return fault > 0 && fault < DF_NFAULTS ? d_fault_names[fault] : "unknown fault";
}

char *
d_vm_scratch(struct d_vm *vm, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	if (vm->vm_scratch_used + n > vm->vm_scratch_size)
		return NULL;
	char *p = vm->vm_scratch + vm->vm_scratch_used;
	vm->vm_scratch_used += n;
	return p;
}

static bool
in_range(uintptr_t a, size_t n, const void *base, size_t size)
{
	uintptr_t b = (uintptr_t)base;
	return base && a >= b && a + n >= a && a + n <= b + size;
}

/* May the program read or write [a, a+n)?  Only D memory is addressable. */
bool
d_vm_addr_ok(struct d_vm *vm, uintptr_t a, size_t n)
{
	struct d_hdl *dh = vm->vm_dh;
	return in_range(a, n, vm->vm_scratch, vm->vm_scratch_used) ||
	    in_range(a, n, dh->dh_gdata, dh->dh_gsize) ||
	    in_range(a, n, vm->vm_local, dh->dh_lsize) ||
	    in_range(a, n, dh->dh_zero, dh->dh_zero_size) ||
	    d_dv_contains(&dh->dh_dv, a, n);
}

/* Readable: D memory, or the firing's read-only provider memory. */
bool
d_vm_addr_rd(struct d_vm *vm, uintptr_t a, size_t n)
{
	return d_vm_addr_ok(vm, a, n) || in_range(a, n, vm->vm_f->df_mem, vm->vm_f->df_memlen);
}

/* ---- builtin variables ------------------------------------------------------ */

/* The raw per-process record the curpsinfo/curlwpsinfo translators read
 * (declared in D by d_builtin_decls: struct __pmct_proc). */
struct d_rawproc {
	int32_t rp_pid, rp_ppid, rp_uid, rp_gid;
	char rp_fname[16];
	char rp_psargs[80];
	int32_t rp_tid, rp_cpu;
};

static void *
d_vm_rawproc(struct d_vm *vm, int *fault)
{
	if (vm->vm_rawproc)
		return vm->vm_rawproc;
	const struct d_firing *f = vm->vm_f;
	struct d_rawproc *rp = (struct d_rawproc *)d_vm_scratch(vm, sizeof(*rp));
	if (!rp) {
		*fault = DF_NOSCRATCH;
		return NULL;
	}
	memset(rp, 0, sizeof(*rp));
	struct d_procinfo pi;
	memset(&pi, 0, sizeof(pi));
	pi.pi_pid = f->df_pid;
	int (*get)(void *, int32_t, struct d_procinfo *) = f->df_procinfo ? f->df_procinfo : d_proc_read;
	if (get(f->df_procinfo_ctx, f->df_pid, &pi) == 0) {
		rp->rp_ppid = pi.pi_ppid;
		rp->rp_uid = pi.pi_uid;
		rp->rp_gid = pi.pi_gid;
		memcpy(rp->rp_fname, pi.pi_fname, sizeof(rp->rp_fname));
		memcpy(rp->rp_psargs, pi.pi_psargs, sizeof(rp->rp_psargs));
	}
	/* gone before we looked: the parent its fork record named */
	if (!rp->rp_ppid)
		rp->rp_ppid = f->df_ppid;
	rp->rp_fname[15] = rp->rp_psargs[79] = '\0';
	if (!rp->rp_fname[0] && f->df_execname)
		snprintf(rp->rp_fname, sizeof(rp->rp_fname), "%s", f->df_execname);
	rp->rp_pid = f->df_pid;
	rp->rp_tid = f->df_tid;
	rp->rp_cpu = (int32_t)f->df_cpu;
	vm->vm_rawproc = rp;
	return rp;
}

static const char *
d_vm_proclink(struct d_vm *vm, const char *what, int *fault)
{
	char path[64];
	size_t sz = (size_t)vm->vm_dh->dh_opt[O_STRSIZE];
	char *buf = d_vm_scratch(vm, sz);
	if (!buf) {
		*fault = DF_NOSCRATCH;
		return "";
	}
	snprintf(path, sizeof(path), "/proc/%d/%s", vm->vm_f->df_pid, what);
	ssize_t n = readlink(path, buf, sz - 1);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

uint64_t
d_bvar_value(struct d_vm *vm, int bv, int *fault)
{
	const struct d_firing *f = vm->vm_f;
	const struct d_probe *p = vm->vm_probe;
	struct d_rawproc *rp;
	switch (bv) {
	case BV_CPU: case BV_CURCPU: return f->df_cpu;
	case BV_PID: return (uint64_t)(int64_t)f->df_pid;
	case BV_TID: return (uint64_t)(int64_t)f->df_tid;
	case BV_PPID: case BV_UID: case BV_GID:
		rp = d_vm_rawproc(vm, fault);
		if (!rp)
			return 0;
		return (uint64_t)(int64_t)(bv == BV_PPID ? rp->rp_ppid : bv == BV_UID ? rp->rp_uid : rp->rp_gid);
	case BV_EXECNAME: return (uint64_t)(uintptr_t)(f->df_execname ? f->df_execname : "");
	case BV_TIMESTAMP: return f->df_timestamp;
	case BV_VTIMESTAMP: return f->df_vtimestamp;
	case BV_WALLTIMESTAMP: return f->df_walltimestamp;
	case BV_EPID: return vm->vm_ecb ? vm->vm_ecb->ec_epid : 0;
	case BV_ID: return p->pr_id;
	case BV_PROBEPROV: return (uint64_t)(uintptr_t)p->pr_prov;
	case BV_PROBEMOD: return (uint64_t)(uintptr_t)p->pr_mod;
	case BV_PROBEFUNC: return (uint64_t)(uintptr_t)p->pr_func;
	case BV_PROBENAME: return (uint64_t)(uintptr_t)p->pr_name;
	case BV_STACKDEPTH: return f->df_nkstack;
	case BV_USTACKDEPTH: return f->df_nustack;
	case BV_CALLER: return f->df_nkstack > 1 ? f->df_kstack[1] : 0;
	case BV_UCALLER: return f->df_nustack > 1 ? f->df_ustack[1] : 0;
	case BV_ERRNO: return (uint64_t)f->df_errno;
	case BV_IPL: return 0;
	case BV_CURPSINFO: case BV_CURLWPSINFO:
		return (uint64_t)(uintptr_t)d_vm_rawproc(vm, fault);
	case BV_ROOTDIR: return (uint64_t)(uintptr_t)d_vm_proclink(vm, "root", fault);
	case BV_CWD: return (uint64_t)(uintptr_t)d_vm_proclink(vm, "cwd", fault);
	case BV_ZONENAME: return (uint64_t)(uintptr_t)"global";
	case BV_ARGSTRUCT: return (uint64_t)(uintptr_t)f->df_argstruct;
	default:
		if (bv >= BV_ARG0 && bv < BV_ARG0 + D_MAX_ARGS)
			return bv - BV_ARG0 < f->df_nargs ? f->df_args[bv - BV_ARG0] : 0;
		*fault = DF_ILLOP;
		return 0;
	}
}

/* ---- keys ------------------------------------------------------------------- */

/* Dynamic-variable key: (tid) for self->, else the tuple with strings
 * NUL-terminated (so ("ab","c") and ("a","bc") differ). */
static uint32_t
d_vm_dvkey(struct d_vm *vm, const struct d_dvsite *s, const uint64_t *keys, uint8_t *buf)
{
	uint32_t n = 0;
	if (s->ds_tls) {	/* self->x, self->x[k...]: the thread first */
		uint64_t t = (uint64_t)(int64_t)vm->vm_f->df_tid;
		memcpy(buf, &t, 8);
		n = 8;
	}
	size_t max = (size_t)vm->vm_dh->dh_opt[O_STRSIZE];
	for (int i = 0; i < s->ds_nkeys; i++) {
		if (s->ds_kstr[i]) {
			const char *str = (const char *)(uintptr_t)keys[i];
			size_t l = str ? strnlen(str, max - 1) : 0;
			memcpy(buf + n, str ? str : "", l);
			buf[n + l] = '\0';
			n += (uint32_t)l + 1;
		} else {
			memcpy(buf + n, &keys[i], 8);
			n += 8;
		}
	}
	return n;
}

static uint64_t
d_canon_vd(uint64_t v, const struct d_vdesc *vd)
{
	if ((vd->dv_kind == D_VK_INT || vd->dv_kind == D_VK_UINT) && vd->dv_isize < 8 && vd->dv_isize) {
		unsigned bits = vd->dv_isize * 8u;
		uint64_t m = (1ULL << bits) - 1;
		v &= m;
		if (vd->dv_kind == D_VK_INT && ((v >> (bits - 1)) & 1))
			v |= ~m;
	}
	return v;
}

/* Encode one value as dfmt.h describes; returns bytes written. */
size_t
d_vm_encode(struct d_vm *vm, const struct d_vdesc *vd, uint64_t v, uint8_t *dst)
{
	const struct d_firing *f = vm->vm_f;
	uint64_t pid = (uint64_t)(int64_t)f->df_pid;
	switch (vd->dv_kind) {
	case D_VK_INT: case D_VK_UINT: case D_VK_PTR: case D_VK_KSYM: case D_VK_KMOD:
		v = d_canon_vd(v, vd);
		memcpy(dst, &v, 8);
		return 8;
	case D_VK_USYM: case D_VK_UMOD: case D_VK_UADDR:
		memcpy(dst, &pid, 8);
		memcpy(dst + 8, &v, 8);
		return 16;
	case D_VK_STRING: {
		const char *s = (const char *)(uintptr_t)v;
		size_t l = s ? strnlen(s, vd->dv_size - 1) : 0;
		memcpy(dst, s ? s : "", l);
		memset(dst + l, 0, vd->dv_size - l);
		return vd->dv_size;
	}
	case D_VK_KSTACK: case D_VK_USTACK: {
		bool user = vd->dv_kind == D_VK_USTACK;
		const uint64_t *pcs = user ? f->df_ustack : f->df_kstack;
		uint32_t n = user ? f->df_nustack : f->df_nkstack;
		uint8_t *p = dst;
		if (user) {
			memcpy(p, &pid, 8);
			p += 8;
		}
		if (n > vd->dv_nframes)
			n = vd->dv_nframes;
		if (n && pcs)
			memcpy(p, pcs, n * 8);
		else
			n = 0;
		memset(p + n * 8, 0, (vd->dv_nframes - n) * 8);
		return vd->dv_size;
	}
	default:	/* RAW: v is the address of the bytes */
		if (v)
			memcpy(dst, (const void *)(uintptr_t)v, vd->dv_size);
		else
			memset(dst, 0, vd->dv_size);
		return vd->dv_size;
	}
}

static int
d_vm_agg(struct d_vm *vm, const struct d_aggsite *s, const uint64_t *r)
{
	uint8_t *key = vm->vm_dh->dh_keybuf;
	size_t off = 0;
	for (int i = 0; i < s->ag_nkeys; i++) {
		if (s->ag_kvd[i].dv_kind == D_VK_RAW && r[i] &&
		    !d_vm_addr_rd(vm, (uintptr_t)r[i], s->ag_kvd[i].dv_size)) {
			vm->vm_faddr = r[i];
			return DF_BADADDR;
		}
		off += d_vm_encode(vm, &s->ag_kvd[i], r[i], key + off);
	}
	int64_t val = (int64_t)r[s->ag_nkeys];
	int64_t incr = (int64_t)r[s->ag_nkeys + 1];
	dagg_update(s->ag_agg, vm->vm_f->df_cpu, key, val, incr);
	return DF_NONE;
}

/* Dynamic variable load: value for integers, address for the rest. */
static uint64_t
d_vm_dvld(struct d_vm *vm, const struct d_dvsite *s, const uint64_t *keys)
{
	struct d_hdl *dh = vm->vm_dh;
	uint32_t kl = d_vm_dvkey(vm, s, keys, dh->dh_keybuf);
	void *p = d_dv_get(&dh->dh_dv, s->ds_var, dh->dh_keybuf, kl, s->ds_vsize, false);
	if (s->ds_vkind == D_DVK_INT) {
		uint64_t v = 0;
		if (p)
			memcpy(&v, p, 8);
		return v;
	}
	return (uint64_t)(uintptr_t)(p ? p : dh->dh_zero);
}

static int
d_vm_dvst(struct d_vm *vm, const struct d_dvsite *s, uint64_t v, const uint64_t *keys)
{
	struct d_hdl *dh = vm->vm_dh;
	uint32_t kl = d_vm_dvkey(vm, s, keys, dh->dh_keybuf);
	if (v == 0) {
		d_dv_del(&dh->dh_dv, s->ds_var, dh->dh_keybuf, kl);
		return DF_NONE;
	}
	if (s->ds_vkind == D_DVK_REF && !s->ds_vstr && !d_vm_addr_rd(vm, (uintptr_t)v, s->ds_vsize)) {
		vm->vm_faddr = v;
		return DF_BADADDR;
	}
	uint8_t *p = d_dv_get(&dh->dh_dv, s->ds_var, dh->dh_keybuf, kl, s->ds_vsize, true);
	if (!p)
		return DF_NONE;		/* dropped and counted */
	if (s->ds_vkind == D_DVK_INT) {
		memcpy(p, &v, 8);
	} else {
		const void *src = (const void *)(uintptr_t)v;
		if (src == p)
			return DF_NONE;
		if (s->ds_vstr) {
			size_t l = strnlen(src, s->ds_vsize - 1);
			memmove(p, src, l);
			memset(p + l, 0, s->ds_vsize - l);
		} else {
			memmove(p, src, s->ds_vsize);
		}
	}
	return DF_NONE;
}

static uint8_t *
d_vm_dvaddr(struct d_vm *vm, const struct d_dvsite *s, const uint64_t *keys)
{
	struct d_hdl *dh = vm->vm_dh;
	uint32_t kl = d_vm_dvkey(vm, s, keys, dh->dh_keybuf);
	return d_dv_get(&dh->dh_dv, s->ds_var, dh->dh_keybuf, kl, s->ds_vsize, true);
}

static uint64_t
d_vm_ldbf(uint64_t base, uint32_t x)
{
	unsigned off = x & 0xff, bits = (x >> 8) & 0xff, sign = (x >> 16) & 1, size = x >> 24;
	uint64_t unit = 0;
	memcpy(&unit, (const void *)(uintptr_t)base, size);
	uint64_t v = (unit >> off) & (bits >= 64 ? ~0ULL : (1ULL << bits) - 1);
	if (sign && bits < 64 && ((v >> (bits - 1)) & 1))
		v |= ~((1ULL << bits) - 1);
	return v;
}

static void
d_vm_stbf(uint64_t base, uint64_t v, uint32_t x)
{
	unsigned off = x & 0xff, bits = (x >> 8) & 0xff, size = x >> 24;
	uint64_t unit = 0, m = (bits >= 64 ? ~0ULL : (1ULL << bits) - 1) << off;
	memcpy(&unit, (const void *)(uintptr_t)base, size);
	unit = (unit & ~m) | ((v << off) & m);
	memcpy((void *)(uintptr_t)base, &unit, size);
}

static uint64_t
d_vm_load(uint64_t a, int c)
{
	const void *p = (const void *)(uintptr_t)a;
	switch (c) {
	case 1: { uint8_t v; memcpy(&v, p, 1); return v; }
	case 1 | D_LD_SIGNED: { int8_t v; memcpy(&v, p, 1); return (uint64_t)(int64_t)v; }
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	case 2 | D_LD_SIGNED: { int16_t v; memcpy(&v, p, 2); return (uint64_t)(int64_t)v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
	case 4 | D_LD_SIGNED: { int32_t v; memcpy(&v, p, 4); return (uint64_t)(int64_t)v; }
	default: { uint64_t v; memcpy(&v, p, 8); return v; }
	}
}

static int
d_vm_strcmp(struct d_vm *vm, uint64_t a, uint64_t b)
{
	const char *s = (const char *)(uintptr_t)a, *t = (const char *)(uintptr_t)b;
	if (!s || !t)
		return s == t ? 0 : s ? 1 : -1;
	size_t max = (size_t)vm->vm_dh->dh_opt[O_STRSIZE];
	return strncmp(s, t, max);
}

/* ---- the loop ---------------------------------------------------------------- */

#define RA	R[D_A(i)]
#define RB	R[D_B(i)]
#define RC	R[D_C(i)]
#define VM_FAULT(f, addr) \
	do { vm->vm_fpc = pc - 1; vm->vm_faddr = (addr); return (f); } while (0)
#define VM_CHECK(a, n) \
	do { if (!d_vm_addr_ok(vm, (uintptr_t)(a), (n))) VM_FAULT(DF_BADADDR, (a)); } while (0)
#define VM_CHECK_RD(a, n) \
	do { if (!d_vm_addr_rd(vm, (uintptr_t)(a), (n))) VM_FAULT(DF_BADADDR, (a)); } while (0)

#if defined(__GNUC__) && !defined(D_VM_SWITCH)
#define D_VM_JUMPTABLE 1
#endif

#ifdef D_VM_JUMPTABLE
#define vmdispatch(o)	goto *d_vm_jt[o];
#define vmcase(l)	L_##l:
#define vmbreak		i = code[pc++]; goto *d_vm_jt[D_OP(i)]
#else
#define vmdispatch(o)	switch (o)
#define vmcase(l)	case l:
#define vmbreak		break
#endif

int
d_vm_exec(struct d_vm *vm, const struct d_clause *cl)
{
	struct d_hdl *dh = vm->vm_dh;
	const uint32_t *code = cl->cl_code;
	/* this clause's slices of the pools (a pool may still be empty) */
	const uint64_t *K = dh->dh_k ? dh->dh_k + cl->cl_kbase : NULL;
	const struct d_actsite *ACTS = dh->dh_acts ? dh->dh_acts + cl->cl_actbase : NULL;
	const struct d_dvsite *DVS = dh->dh_dvs ? dh->dh_dvs + cl->cl_dvbase : NULL;
	const struct d_aggsite *AGGS = dh->dh_aggsites ? dh->dh_aggsites + cl->cl_aggbase : NULL;
	uint8_t *G = dh->dh_gdata, *L = vm->vm_local;
	const struct d_firing *f = vm->vm_f;
	uint64_t R[D_NREGS];
	uint32_t pc = 0;
	int fault = DF_NONE;

#ifdef D_VM_JUMPTABLE
	/* ORDER d_op */
	static const void *const d_vm_jt[OP_NOPS] = {
		&&L_OP_NOP, &&L_OP_MOV, &&L_OP_LDK, &&L_OP_LDI, &&L_OP_ADD, &&L_OP_SUB,
		&&L_OP_MUL, &&L_OP_SDIV, &&L_OP_UDIV, &&L_OP_SREM, &&L_OP_UREM,
		&&L_OP_AND, &&L_OP_OR, &&L_OP_XOR, &&L_OP_SHL, &&L_OP_SRA, &&L_OP_SRL,
		&&L_OP_NEG, &&L_OP_NOT, &&L_OP_LNOT, &&L_OP_EQ, &&L_OP_NE, &&L_OP_SLT,
		&&L_OP_SLE, &&L_OP_ULT, &&L_OP_ULE, &&L_OP_SCMP, &&L_OP_SEXT,
		&&L_OP_ZEXT, &&L_OP_JMP, &&L_OP_JZ, &&L_OP_JNZ, &&L_OP_LDG, &&L_OP_STG,
		&&L_OP_GADDR, &&L_OP_LDL, &&L_OP_STL, &&L_OP_LADDR, &&L_OP_LD,
		&&L_OP_ST, &&L_OP_LDBF, &&L_OP_STBF, &&L_OP_COPY, &&L_OP_STRCPY,
		&&L_OP_CHKIDX, &&L_OP_DVLD, &&L_OP_DVST, &&L_OP_DVADDR, &&L_OP_BVAR,
		&&L_OP_ARGS, &&L_OP_CALL, &&L_OP_ACT, &&L_OP_AGG, &&L_OP_PROLOG,
		&&L_OP_SCRATCH, &&L_OP_RET, &&L_OP_EXTRA,
	};
#endif
	for (;;) {
		uint32_t i = code[pc++];
		vmdispatch(D_OP(i)) {
		vmcase(OP_NOP) vmbreak;
		vmcase(OP_MOV) RA = RB; vmbreak;
		vmcase(OP_LDK) RA = K[D_BX(i)]; vmbreak;
		vmcase(OP_LDI) RA = (uint64_t)(int64_t)D_SBX(i); vmbreak;
		vmcase(OP_ADD) RA = RB + RC; vmbreak;
		vmcase(OP_SUB) RA = RB - RC; vmbreak;
		vmcase(OP_MUL) RA = RB * RC; vmbreak;
		vmcase(OP_SDIV)
			if (RC == 0)
				VM_FAULT(DF_DIVZERO, 0);
			RA = (int64_t)RC == -1 ? (uint64_t)0 - RB : (uint64_t)((int64_t)RB / (int64_t)RC);
			vmbreak;
		vmcase(OP_UDIV)
			if (RC == 0)
				VM_FAULT(DF_DIVZERO, 0);
			RA = RB / RC;
			vmbreak;
		vmcase(OP_SREM)
			if (RC == 0)
				VM_FAULT(DF_DIVZERO, 0);
			RA = (int64_t)RC == -1 ? 0 : (uint64_t)((int64_t)RB % (int64_t)RC);
			vmbreak;
		vmcase(OP_UREM)
			if (RC == 0)
				VM_FAULT(DF_DIVZERO, 0);
			RA = RB % RC;
			vmbreak;
		vmcase(OP_AND) RA = RB & RC; vmbreak;
		vmcase(OP_OR) RA = RB | RC; vmbreak;
		vmcase(OP_XOR) RA = RB ^ RC; vmbreak;
		vmcase(OP_SHL) RA = RC >= 64 ? 0 : RB << RC; vmbreak;
		vmcase(OP_SRA) RA = (uint64_t)((int64_t)RB >> (RC >= 64 ? 63 : RC)); vmbreak;
		vmcase(OP_SRL) RA = RC >= 64 ? 0 : RB >> RC; vmbreak;
		vmcase(OP_NEG) RA = (uint64_t)0 - RB; vmbreak;
		vmcase(OP_NOT) RA = ~RB; vmbreak;
		vmcase(OP_LNOT) RA = !RB; vmbreak;
		vmcase(OP_EQ) RA = RB == RC; vmbreak;
		vmcase(OP_NE) RA = RB != RC; vmbreak;
		vmcase(OP_SLT) RA = (int64_t)RB < (int64_t)RC; vmbreak;
		vmcase(OP_SLE) RA = (int64_t)RB <= (int64_t)RC; vmbreak;
		vmcase(OP_ULT) RA = RB < RC; vmbreak;
		vmcase(OP_ULE) RA = RB <= RC; vmbreak;
		vmcase(OP_SCMP) RA = (uint64_t)(int64_t)d_vm_strcmp(vm, RB, RC); vmbreak;
		vmcase(OP_SEXT) {
			unsigned sh = 64 - 8 * (unsigned)D_C(i);
			RA = (uint64_t)((int64_t)(RB << sh) >> sh);
			vmbreak;
		}
		vmcase(OP_ZEXT) {
			unsigned sh = 64 - 8 * (unsigned)D_C(i);
			RA = (RB << sh) >> sh;
			vmbreak;
		}
		vmcase(OP_JMP) pc += (uint32_t)D_SBX(i); vmbreak;
		vmcase(OP_JZ) if (RA == 0) pc += (uint32_t)D_SBX(i); vmbreak;
		vmcase(OP_JNZ) if (RA != 0) pc += (uint32_t)D_SBX(i); vmbreak;
		vmcase(OP_LDG) memcpy(&RA, G + 8 * (size_t)D_BX(i), 8); vmbreak;
		vmcase(OP_STG) memcpy(G + 8 * (size_t)D_BX(i), &RA, 8); vmbreak;
		vmcase(OP_GADDR) RA = (uint64_t)(uintptr_t)(G + 8 * (size_t)D_BX(i)); vmbreak;
		vmcase(OP_LDL) memcpy(&RA, L + 8 * (size_t)D_BX(i), 8); vmbreak;
		vmcase(OP_STL) memcpy(L + 8 * (size_t)D_BX(i), &RA, 8); vmbreak;
		vmcase(OP_LADDR) RA = (uint64_t)(uintptr_t)(L + 8 * (size_t)D_BX(i)); vmbreak;
		vmcase(OP_LD)
			VM_CHECK_RD(RB, (size_t)(D_C(i) & 0xf));
			RA = d_vm_load(RB, D_C(i));
			vmbreak;
		vmcase(OP_ST)
			VM_CHECK(RA, (size_t)D_C(i));
			memcpy((void *)(uintptr_t)RA, &RB, (size_t)D_C(i));
			vmbreak;
		vmcase(OP_LDBF) {
			uint32_t x = code[pc++];
			VM_CHECK_RD(RB, x >> 24);
			RA = d_vm_ldbf(RB, x);
			vmbreak;
		}
		vmcase(OP_STBF) {
			uint32_t x = code[pc++];
			VM_CHECK(RA, x >> 24);
			d_vm_stbf(RA, RB, x);
			vmbreak;
		}
		vmcase(OP_COPY) {
			uint32_t n = code[pc++];
			VM_CHECK(RA, n);
			if (RB)
				VM_CHECK_RD(RB, n);
			if (RB)
				memmove((void *)(uintptr_t)RA, (const void *)(uintptr_t)RB, n);
			else
				memset((void *)(uintptr_t)RA, 0, n);
			vmbreak;
		}
		vmcase(OP_STRCPY) {
			uint32_t n = code[pc++];
			VM_CHECK(RA, n);
			const char *s = (const char *)(uintptr_t)RB;
			size_t l = s ? strnlen(s, n - 1) : 0;
			if (s)
				memmove((void *)(uintptr_t)RA, s, l);
			memset((char *)(uintptr_t)RA + l, 0, n - l);
			vmbreak;
		}
		vmcase(OP_CHKIDX)
			if (RA >= K[D_BX(i)])
				VM_FAULT(DF_BADINDEX, RA);
			vmbreak;
		vmcase(OP_DVLD)
			RA = d_vm_dvld(vm, &DVS[D_BX(i)], &RA + 1);
			vmbreak;
		vmcase(OP_DVST)
			fault = d_vm_dvst(vm, &DVS[D_BX(i)], RA, &RA + 1);
			if (fault)
				VM_FAULT(fault, vm->vm_faddr);
			vmbreak;
		vmcase(OP_DVADDR) {
			uint8_t *p = d_vm_dvaddr(vm, &DVS[D_BX(i)], &RA + 1);
			if (!p)
				VM_FAULT(DF_NOSCRATCH, 0);
			RA = (uint64_t)(uintptr_t)p;
			vmbreak;
		}
		vmcase(OP_BVAR) {
			int bx = D_BX(i);
			if (bx < D_MAX_ARGS)
				RA = bx < f->df_nargs ? f->df_args[bx] : 0;
			else if (bx == BV_PID)
				RA = (uint64_t)(int64_t)f->df_pid;
			else if (bx == BV_TID)
				RA = (uint64_t)(int64_t)f->df_tid;
			else {
				RA = d_bvar_value(vm, bx, &fault);
				if (fault)
					VM_FAULT(fault, 0);
			}
			vmbreak;
		}
		vmcase(OP_ARGS) RA = RB < (uint64_t)f->df_nargs ? f->df_args[RB] : 0; vmbreak;
		vmcase(OP_CALL)
			fault = d_subr_call(vm, D_B(i), &RA, D_C(i), &RA);
			if (fault)
				VM_FAULT(fault, vm->vm_faddr);
			vmbreak;
		vmcase(OP_ACT)
			fault = d_act_exec(vm, &ACTS[D_BX(i)], &RA);
			if (fault)
				VM_FAULT(fault, vm->vm_faddr);
			vmbreak;
		vmcase(OP_AGG)
			fault = d_vm_agg(vm, &AGGS[D_BX(i)], &RA);
			if (fault)
				VM_FAULT(fault, vm->vm_faddr);
			vmbreak;
		vmcase(OP_PROLOG)
			if (D_A(i))
				d_vm_prolog(vm);
			vmbreak;
		vmcase(OP_SCRATCH) {
			uint32_t n = code[pc++];
			char *p = d_vm_scratch(vm, n);
			if (!p)
				VM_FAULT(DF_NOSCRATCH, 0);
			memset(p, 0, n);
			RA = (uint64_t)(uintptr_t)p;
			vmbreak;
		}
		vmcase(OP_RET) return DF_NONE;
		vmcase(OP_EXTRA) VM_FAULT(DF_ILLOP, 0);
#ifndef D_VM_JUMPTABLE
		default:
			VM_FAULT(DF_ILLOP, 0);
#endif
		}
	}
}
