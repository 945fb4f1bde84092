/*
 * d_cook_call.c — the type checker's calls: subroutines (argument counts
 * and types, result types), actions (printf/printa formats checked
 * against their arguments, stack(), trunc()...) and aggregating functions
 * with their parameters, which must agree across every use of an
 * aggregation.  Invariants as in d_cook.c.
 */
#include <string.h>

#include "dcore/d_impl.h"
#include "dcore/d_ident.h"
#include "dcore/d_cook_impl.h"

/* ---- calls --------------------------------------------------------------- */

static struct d_type *
pseudo_type(struct d_hdl *dh, const char *name, int vk)
{
	struct d_type *t = d_type_lookup(dh, name);
	if (t)
		return t;
	t = d_alloc(dh, sizeof(*t));
	t->dt_kind = DK_INT;
	t->dt_size = 8;
	t->dt_align = 8;
	t->dt_complete = 1;
	t->dt_name = d_strdup(dh, name);
	t->dt_vk = (uint8_t)vk;	/* a pseudo type: d_type_vdesc encodes it */
	d_type_define(dh, name, t);
	return t;
}

static void
arg_need(struct d_hdl *dh, struct d_node *call, struct d_node *a, int i, bool want_str)
{
	struct d_type *t = a->dn_type;
	bool ok = want_str ? stringish(t) : (d_type_is_int(t) || t->dt_kind == DK_PTR);
	if (!ok)
		d_error(dh, D_PROTO_ARG, a->dn_line, "%s( ) argument #%d is incompatible with prototype:\n\tprototype: %s\n\t argument: %s",
		    call->dn_name, i, want_str ? "char *" : "int", tname(dh, t));
}

/* Aggregation argument of printa/trunc/clear/normalize. */
static struct d_agginfo *
agg_arg(struct d_hdl *dh, struct d_node *call, struct d_node *a, int tag_arg, int tag_bad)
{
	if (a->dn_kind != DN_AGG || a->dn_args)
		d_error(dh, tag_arg, a->dn_line, "%s( ) argument #%d is incompatible with prototype:\n\tprototype: aggregation\n\t argument: %s",
		    call->dn_name, 1, a->dn_kind == DN_AGG ? "aggregation with key" : "scalar");
	struct d_agginfo *ai = d_agg_lookup(dh, a->dn_name, false);
	if (!ai || ai->ai_func < 0)
		d_error(dh, tag_bad, a->dn_line, "undefined aggregation: @%s", a->dn_name);
	a->dn_agg = ai;
	return ai;
}

static void cook_args(struct d_hdl *dh, struct d_node *n, int from);

/* printf(), system(), freopen(): a constant format, then its values. */
static void
cook_fmt_args(struct d_hdl *dh, struct d_node *n, const struct d_fdef *f)
{
	cook_args(dh, n, 0);
	if (n->dn_args->dn_kind != DN_STR) {
		/* a string that is not a constant is the wrong kind of
		 * format; anything else is the wrong type */
		bool str = d_type_is_string(n->dn_args->dn_type);
		d_error(dh, str ? D_PRINTF_ARG_FMT : D_PROTO_ARG, n->dn_line,
		    "%s( ) argument #1 is incompatible with prototype:\n\tprototype: %s\n\t argument: %s",
		    f->name, str ? "string constant" : "string", tname(dh, n->dn_args->dn_type));
	}
}

/* printa([format,] @a, ...): the format must be a constant string, then
 * one aggregation or more. */
static void
cook_printa_args(struct d_hdl *dh, struct d_node *n)
{
	struct d_node *a = n->dn_args;
	struct d_node *fmt = NULL;
	if (a->dn_kind != DN_AGG) {
		fmt = cook(dh, a);
		if (fmt->dn_kind != DN_STR)
			d_error(dh, D_PRINTA_AGGARG, n->dn_line, "printa( ) argument #1 is incompatible with prototype:\n\tprototype: aggregation\n\t argument: %s",
			    fmt->dn_type ? tname(dh, fmt->dn_type) : "void");
		fmt->dn_next = a->dn_next;
		n->dn_args = fmt;
		a = fmt->dn_next;
	}
	if (!a)
		d_error(dh, D_PRINTA_PROTO, n->dn_line, "printa( ) prototype mismatch: too few arguments");
	for (; a; a = a->dn_next)
		agg_arg(dh, n, a, D_PRINTA_AGGARG, D_PRINTA_AGGBAD);
}

static void
cook_call_action(struct d_hdl *dh, struct d_node *n, const struct d_fdef *f)
{
	struct d_node *a = n->dn_args;
	switch (f->id) {
	case F_PRINTF:
	case F_SYSTEM:
	case F_FREOPEN:
		cook_fmt_args(dh, n, f);
		break;
	case F_PRINTA:
		cook_printa_args(dh, n);
		break;
	case F_TRUNC:
		agg_arg(dh, n, a, D_TRUNC_AGGARG, D_TRUNC_AGGBAD);
		cook_args(dh, n, 1);
		if (a->dn_next && !d_type_is_int(a->dn_next->dn_type))
			d_error(dh, D_TRUNC_SCALAR, n->dn_line, "trunc( ) argument #2 must be of scalar type");
		break;
	case F_CLEAR:
	case F_DENORMALIZE:
		agg_arg(dh, n, a, D_CLEAR_AGGARG, D_CLEAR_AGGBAD);
		break;
	case F_NORMALIZE:
		agg_arg(dh, n, a, D_NORMALIZE_AGGARG, D_NORMALIZE_AGGBAD);
		cook_args(dh, n, 1);
		if (!d_type_is_int(a->dn_next->dn_type))
			d_error(dh, D_PROTO_ARG, n->dn_line, "normalize( ) argument #2 is incompatible with prototype:\n\tprototype: uint64_t\n\t argument: %s",
			    tname(dh, a->dn_next->dn_type));
		break;
	case F_TRACE:
		cook_args(dh, n, 0);
		if (a = n->dn_args, a->dn_type->dt_kind == DK_VOID)
			d_error(dh, D_TRACE_VOID, n->dn_line, "trace( ) may not be applied to a void expression");
		if (a->dn_kind == DN_AGG)
			d_error(dh, D_TRACE_DYN, n->dn_line, "trace( ) may not be applied to an aggregation");
		break;
	case F_PRINT:
		cook_args(dh, n, 0);
		if (n->dn_args->dn_type->dt_kind == DK_VOID)
			d_error(dh, D_PRINT_VOID, n->dn_line, "print( ) may not be applied to a void expression");
		break;
	case F_SETOPT:
		cook_args(dh, n, 0);
		for (a = n->dn_args; a; a = a->dn_next)
			if (a->dn_kind != DN_STR)
				d_error(dh, D_PROTO_ARG, a->dn_line, "setopt( ) arguments must be string constants");
		break;
	case F_TRACEMEM:
		cook_args(dh, n, 0);
		a = n->dn_args;
		if (!d_type_is_ptrlike(a->dn_type) && !d_type_is_int(a->dn_type))
			d_error(dh, D_TRACEMEM_ADDR, n->dn_line, "tracemem( ) argument #1 is incompatible with prototype");
		if (!d_type_is_int(a->dn_next->dn_type) || a->dn_next->dn_kind != DN_INT)
			d_error(dh, D_TRACEMEM_SIZE, n->dn_line, "tracemem( ) argument #2 must be a non-zero positive integral constant expression");
		break;
	default:
		cook_args(dh, n, 0);
		for (a = n->dn_args; a; a = a->dn_next)
			if (!d_type_is_int(a->dn_type))
				d_error(dh, D_PROTO_ARG, a->dn_line, "%s( ) argument #1 is incompatible with prototype:\n\tprototype: int\n\t argument: %s",
				    f->name, tname(dh, a->dn_type));
		break;
	}
	/* refused when enabling, as DTrace does: -w may come from a pragma
	 * further down the program */
	if (f->id == F_SYSTEM || f->id == F_RAISE || f->id == F_STOP || f->id == F_BREAKPOINT ||
	    f->id == F_PANIC || f->id == F_CHILL || f->id == F_COPYINTO || f->id == F_FREOPEN)
		dh->dh_destructive = true;
	n->dn_type = dh->dh_t_void;
	n->dn_action = 1;
}

/* Cook arguments from index 'from' in place. */
static void
cook_args(struct d_hdl *dh, struct d_node *n, int from)
{
	struct d_node **pp = &n->dn_args;
	int i = 0;
	for (struct d_node *a = n->dn_args; a; i++) {
		struct d_node *next = a->dn_next;
		struct d_node *c = a;
		if (i >= from) {
			c = cook(dh, a);
			default_type(dh, c);
			if (c->dn_action)
				d_error(dh, D_OP_ACT, c->dn_line, "action may not be used as an argument");
			c->dn_next = next;
		}
		*pp = c;
		pp = &c->dn_next;
		a = next;
	}
}

static void
cook_subr_args(struct d_hdl *dh, struct d_node *n, int id)
{
	cook_args(dh, n, 0);
	struct d_node *a = n->dn_args;
	int i = 1;
	switch (id) {
	case F_STRLEN: case F_BASENAME: case F_DIRNAME: case F_CLEANPATH:
	case F_TOUPPER: case F_TOLOWER:
		arg_need(dh, n, a, 1, true);
		break;
	case F_STRJOIN: case F_STRSTR:
		arg_need(dh, n, a, 1, true);
		arg_need(dh, n, a->dn_next, 2, true);
		break;
	case F_STRTOK:
		if (!(a->dn_kind == DN_INT && a->dn_ival == 0))
			arg_need(dh, n, a, 1, true);
		arg_need(dh, n, a->dn_next, 2, true);
		break;
	case F_INDEX: case F_RINDEX:
		arg_need(dh, n, a, 1, true);
		arg_need(dh, n, a->dn_next, 2, true);
		if (a->dn_next->dn_next)
			arg_need(dh, n, a->dn_next->dn_next, 3, false);
		break;
	case F_SUBSTR:
		arg_need(dh, n, a, 1, true);
		for (a = a->dn_next, i = 2; a; a = a->dn_next, i++)
			arg_need(dh, n, a, i, false);
		break;
	case F_STRCHR: case F_STRRCHR:
		arg_need(dh, n, a, 1, true);
		arg_need(dh, n, a->dn_next, 2, false);
		break;
	case F_STRTOLL:
		arg_need(dh, n, a, 1, true);
		if (a->dn_next)
			arg_need(dh, n, a->dn_next, 2, false);
		break;
	case F_INET_NTOA: case F_INET_NTOA6:
		if (a->dn_type->dt_kind != DK_PTR)
			d_error(dh, D_PROTO_ARG, a->dn_line, "%s( ) argument #1 is incompatible with prototype:\n\tprototype: ipaddr_t *\n\t argument: %s",
			    n->dn_name, tname(dh, a->dn_type));
		break;
	case F_INET_NTOP:
		arg_need(dh, n, a, 1, false);
		if (a->dn_next->dn_type->dt_kind != DK_PTR)
			d_error(dh, D_PROTO_ARG, a->dn_line, "inet_ntop( ) argument #2 is incompatible with prototype:\n\tprototype: void *\n\t argument: %s",
			    tname(dh, a->dn_next->dn_type));
		break;
	case F_BCOPY:
		for (; a; a = a->dn_next, i++)
			if (!d_type_is_ptrlike(a->dn_type) && !d_type_is_int(a->dn_type))
				d_error(dh, D_PROTO_ARG, a->dn_line, "bcopy( ) argument #%d is incompatible with prototype", i);
		break;
	default:
		for (; a; a = a->dn_next, i++)
			arg_need(dh, n, a, i, false);
		break;
	}
	if (id == F_USTACK || id == F_JSTACK || id == F_STACK) {
		for (a = n->dn_args, i = 1; a; a = a->dn_next, i++)
			if (a->dn_kind != DN_INT || (int64_t)a->dn_ival <= 0)
				d_error(dh, id == F_STACK ? D_STACK_SIZE : i == 1 ? D_USTACK_FRAMES : D_USTACK_STRSIZE,
				    a->dn_line, "%s( ) argument #%d must be a non-zero positive integral constant expression", n->dn_name, i);
	}
}

struct d_node *
cook_call(struct d_hdl *dh, struct d_node *n)
{
	const struct d_fdef *f = d_fdef(n->dn_name);
	if (!f) {
		struct d_var *v = d_var_lookup(dh, 0, n->dn_name);
		if (v || d_bvar_lookup(n->dn_name) >= 0)
			d_error(dh, D_FUNC_IDKIND, n->dn_line, "%s is not a function", n->dn_name);
		d_error(dh, D_FUNC_UNDEF, n->dn_line, "failed to resolve %s: Unknown function name", n->dn_name);
	}
	if (n->dn_nargs < f->minargs || n->dn_nargs > f->maxargs) {
		/* the Linux DTrace checks every call, actions included,
		 * against one prototype table: D_PROTO_LEN for all */
		int tag = D_PROTO_LEN;
		if (f->minargs == f->maxargs)
			d_error(dh, tag, n->dn_line, "%s( ) prototype mismatch: %d arg%s passed, %d expected",
			    f->name, n->dn_nargs, n->dn_nargs == 1 ? "" : "s", f->minargs);
		d_error(dh, tag, n->dn_line, "%s( ) prototype mismatch: %d arg%s passed, %s %d expected",
		    f->name, n->dn_nargs, n->dn_nargs == 1 ? "" : "s",
		    n->dn_nargs < f->minargs ? "at least" : "at most",
		    n->dn_nargs < f->minargs ? f->minargs : f->maxargs);
	}
	n->dn_subr = f->id;
	/* DTrace compiles an aggregating function called as a subroutine
	 * and then finds it cannot generate code for it */
	if (f->kind == FK_AGG)
		d_error(dh, D_CG_EXPR, n->dn_line, "%s( ) may only be used as an aggregating function: @name = %s( )", f->name, f->name);
	if (f->kind == FK_ACT) {
		cook_call_action(dh, n, f);
		return n;
	}
	cook_subr_args(dh, n, f->id);
	if (f->id == F_COPYIN || f->id == F_COPYINSTR || f->id == F_COPYINTO)
		dh->dh_uses_copyin = true;
	if (!f->rtype) {
		n->dn_type = dh->dh_t_void;
	} else if (f->rtype[0] == '_') {
		int vk = f->id == F_SYM || f->id == F_FUNC ? D_VK_KSYM : f->id == F_MOD ? D_VK_KMOD :
		    f->id == F_USYM || f->id == F_UFUNC ? D_VK_USYM : f->id == F_UMOD ? D_VK_UMOD :
		    f->id == F_UADDR ? D_VK_UADDR : f->id == F_STACK ? D_VK_KSTACK : D_VK_USTACK;
		n->dn_type = pseudo_type(dh, f->rtype, vk);
		n->dn_dynamic = (f->id == F_STACK || f->id == F_USTACK || f->id == F_JSTACK) ? 5 : 0;
	} else {
		n->dn_type = d_type_parse_simple(dh, f->rtype);
	}
	if (d_type_is_string(n->dn_type))
		n->dn_dynamic = 1;
	return n;
}

/* ---- aggregations ----------------------------------------------------------- */

static int
agg_func_of(int f)
{
	switch (f) {
	case F_COUNT: return DAGG_COUNT;
	case F_SUM: return DAGG_SUM;
	case F_AVG: return DAGG_AVG;
	case F_MIN: return DAGG_MIN;
	case F_MAX: return DAGG_MAX;
	case F_STDDEV: return DAGG_STDDEV;
	case F_QUANTIZE: return DAGG_QUANTIZE;
	case F_LQUANTIZE: return DAGG_LQUANTIZE;
	default: return DAGG_LLQUANTIZE;
	}
}

static int64_t
agg_const(struct d_hdl *dh, struct d_node *a, int tag, const char *what)
{
	if (a->dn_kind != DN_INT)
		d_error(dh, tag, a->dn_line, "%s", what);
	return (int64_t)a->dn_ival;
}

static void
agg_params(struct d_hdl *dh, struct d_node *call, int fn, struct dagg_params *p)
{
	struct d_node *a = call->dn_args;
	memset(p, 0, sizeof(*p));
	if (fn == DAGG_LQUANTIZE) {
		p->ap_lq_base = agg_const(dh, a->dn_next, D_LQUANT_BASETYPE, "lquantize( ) argument #2 must be a constant");
		p->ap_lq_limit = agg_const(dh, a->dn_next->dn_next, D_LQUANT_LIMTYPE, "lquantize( ) argument #3 must be a constant");
		p->ap_lq_step = 1;
		struct d_node *s = a->dn_next->dn_next->dn_next;
		if (s)
			p->ap_lq_step = agg_const(dh, s, D_LQUANT_STEPTYPE, "lquantize( ) argument #4 must be a constant");
	} else if (fn == DAGG_LLQUANTIZE) {
		struct d_node *f = a->dn_next, *lo = f->dn_next, *hi = lo->dn_next, *ns = hi->dn_next;
		int64_t fv = agg_const(dh, f, D_LLQUANT_FACTORTYPE, "llquantize( ) argument #1 must be an integer constant");
		if (fv < 2 || fv > UINT16_MAX)
			d_error(dh, D_LLQUANT_FACTORVAL, f->dn_line, "llquantize( ) argument #1 must be an unsigned 16-bit quantity greater than or equal to 2");
		int64_t lv = agg_const(dh, lo, D_LLQUANT_LMAGTYPE, "llquantize( ) argument #2 must be an integer constant");
		if (lv < 0 || lv > UINT16_MAX)
			d_error(dh, D_LLQUANT_LMAGVAL, lo->dn_line, "llquantize( ) argument #2 must be an unsigned 16-bit quantity");
		int64_t hv = agg_const(dh, hi, D_LLQUANT_HMAGTYPE, "llquantize( ) argument #3 must be an integer constant");
		if (hv < 0 || hv > UINT16_MAX)
			d_error(dh, D_LLQUANT_HMAGVAL, hi->dn_line, "llquantize( ) argument #3 must be an unsigned 16-bit quantity");
		int64_t sv = agg_const(dh, ns, D_LLQUANT_STEPTYPE, "llquantize( ) argument #4 must be an integer constant");
		if (sv <= 0)
			d_error(dh, D_LLQUANT_STEPTYPE, ns->dn_line, "llquantize( ) argument #4 must be a non-zero positive integer constant");
		if (sv > UINT16_MAX)
			d_error(dh, D_LLQUANT_STEPVAL, ns->dn_line, "llquantize( ) argument #4 must be an unsigned 16-bit quantity");
		p->ap_llq_factor = (uint16_t)fv;
		p->ap_llq_low = (uint16_t)lv;
		p->ap_llq_high = (uint16_t)hv;
		p->ap_llq_nsteps = (uint16_t)sv;
	} else {
		return;
	}
	char err[256];
	const char *tag = NULL;
	if (dagg_check_params(fn, p, err, sizeof(err), &tag) != 0)
		d_error(dh, tag ? d_errtag_byname(tag) : D_UNKNOWN, call->dn_line, "%s", err);
}

/* A second lquantize()/llquantize() of an aggregation must repeat the
 * first one's parameters; the tag names the one that differs. */
static void
agg_params_match(struct d_hdl *dh, int line, int fn, const struct dagg_params *o,
    const struct dagg_params *p)
{
	static const char pfx[] = "doesn't match previous declaration: expected";

	if (fn == DAGG_LQUANTIZE) {
		if (o->ap_lq_base != p->ap_lq_base)
			d_error(dh, D_LQUANT_MATCHBASE, line, "lquantize( ) base (argument #1) %s %d, found %d",
			    pfx, (int)o->ap_lq_base, (int)p->ap_lq_base);
		if (o->ap_lq_limit != p->ap_lq_limit)
			d_error(dh, D_LQUANT_MATCHLIM, line, "lquantize( ) limit (argument #2) %s %d, found %d",
			    pfx, (int)o->ap_lq_limit, (int)p->ap_lq_limit);
		if (o->ap_lq_step != p->ap_lq_step)
			d_error(dh, D_LQUANT_MATCHSTEP, line, "lquantize( ) step (argument #3) %s %d, found %d",
			    pfx, (int)o->ap_lq_step, (int)p->ap_lq_step);
	} else if (fn == DAGG_LLQUANTIZE) {
		if (o->ap_llq_factor != p->ap_llq_factor)
			d_error(dh, D_LLQUANT_MATCHFACTOR, line, "llquantize() factor (argument #1) %s %d, found %d",
			    pfx, o->ap_llq_factor, p->ap_llq_factor);
		if (o->ap_llq_low != p->ap_llq_low)
			d_error(dh, D_LLQUANT_MATCHLMAG, line, "llquantize() lmag (argument #2) %s %d, found %d",
			    pfx, o->ap_llq_low, p->ap_llq_low);
		if (o->ap_llq_high != p->ap_llq_high)
			d_error(dh, D_LLQUANT_MATCHHMAG, line, "llquantize() hmag (argument #3) %s %d, found %d",
			    pfx, o->ap_llq_high, p->ap_llq_high);
		if (o->ap_llq_nsteps != p->ap_llq_nsteps)
			d_error(dh, D_LLQUANT_MATCHSTEPS, line, "llquantize() steps (argument #4) %s %d, found %d",
			    pfx, o->ap_llq_nsteps, p->ap_llq_nsteps);
	}
}

/* An aggregation named in an expression (trace(@a), @a + 1): DTrace gives
 * it a type of its own that no operator, key or conversion accepts, so each
 * use fails with the check of the context; an unknown one is undefined.
 * An indexed one (@a[1]) is a value nobody computes. */
struct d_node *
cook_aggref(struct d_hdl *dh, struct d_node *n)
{
	struct d_agginfo *ai = d_agg_lookup(dh, n->dn_name, false);

	if (n->dn_args)
		d_error(dh, D_AGG_NULL, n->dn_line, "expression has null effect: @%s", n->dn_name);
	if (!ai || ai->ai_func < 0)
		d_error(dh, D_IDENT_UNDEF, n->dn_line, "failed to resolve @%s: Unknown variable name", n->dn_name);
	n->dn_agg = ai;
	n->dn_type = dh->dh_t_agg;
	return n;
}

/* @a[keys] = f(args): the key and value types are fixed by the first use. */
struct d_node *
cook_aggassign(struct d_hdl *dh, struct d_node *n)
{
	struct d_node *ag = n->dn_l, *call = n->dn_r;
	if (n->dn_op != '=')
		d_error(dh, D_AGG_FUNC, n->dn_line, "@%s must be assigned the result of an aggregating function", ag->dn_name);
	if (call->dn_kind == DN_CALL && !d_fdef(call->dn_name))
		d_error(dh, D_FUNC_UNDEF, call->dn_line, "failed to resolve %s: Unknown function name", call->dn_name);
	if (call->dn_kind != DN_CALL || !d_fdef(call->dn_name) || d_fdef(call->dn_name)->kind != FK_AGG)
		d_error(dh, D_AGG_FUNC, n->dn_line, "@%s must be assigned the result of an aggregating function", ag->dn_name);
	const struct d_fdef *f = d_fdef(call->dn_name);
	if (call->dn_nargs < f->minargs || call->dn_nargs > f->maxargs) {
		if (f->minargs == f->maxargs)
			d_error(dh, D_PROTO_LEN, call->dn_line, "%s( ) prototype mismatch: %d arg%s passed, %d expected",
			    f->name, call->dn_nargs, call->dn_nargs == 1 ? "" : "s", f->minargs);
		d_error(dh, D_PROTO_LEN, call->dn_line, "%s( ) prototype mismatch: %d arg%s passed, %s %d expected",
		    f->name, call->dn_nargs, call->dn_nargs == 1 ? "" : "s",
		    call->dn_nargs < f->minargs ? "at least" : "at most",
		    call->dn_nargs < f->minargs ? f->minargs : f->maxargs);
	}
	cook_keys(dh, ag);
	cook_args(dh, call, 0);
	if (call->dn_args && !d_type_is_int(call->dn_args->dn_type) && call->dn_args->dn_type->dt_kind != DK_PTR)
		d_error(dh, D_AGG_SCALAR, call->dn_line, "%s( ) requires argument of scalar type", f->name);
	/* the optional last argument of the quantizations is a weight */
	if ((f->id == F_QUANTIZE || f->id == F_LQUANTIZE || f->id == F_LLQUANTIZE) &&
	    call->dn_nargs == f->maxargs) {
		struct d_node *w = call->dn_args;
		while (w->dn_next)
			w = w->dn_next;
		if (!d_type_is_int(w->dn_type) && w->dn_type->dt_kind != DK_PTR)
			d_error(dh, D_PROTO_ARG, call->dn_line, "%s( ) increment value (argument #%d) must be of scalar type",
			    f->name, f->maxargs);
	}
	call->dn_subr = f->id;
	int fn = agg_func_of(f->id);
	struct dagg_params p;
	agg_params(dh, call, fn, &p);
	struct d_agginfo *ai = d_agg_lookup(dh, ag->dn_name, true);
	if (ai->ai_func >= 0) {
		if (ai->ai_func == fn)
			agg_params_match(dh, n->dn_line, fn, &ai->ai_params, &p);
		if (ai->ai_func != fn || memcmp(&ai->ai_params, &p, sizeof(p)) != 0)
			d_error(dh, D_AGG_REDEF, n->dn_line, "@%s: aggregation redefined\n\t current: %s( )\n\tprevious: %s( )",
			    ag->dn_name, f->name, d_func_name(ai->ai_func + F_COUNT));
		if (ai->ai_nkeys != ag->dn_nargs)
			d_error(dh, D_PROTO_LEN, n->dn_line, "@%s[ ] prototype mismatch: %d arg%s passed, %d expected",
			    ag->dn_name, ag->dn_nargs, ag->dn_nargs == 1 ? "" : "s", ai->ai_nkeys);
		int i = 0;
		for (struct d_node *k = ag->dn_args; k; k = k->dn_next, i++)
			if (!d_type_compat(ai->ai_keys[i], k->dn_type) && !(stringish(ai->ai_keys[i]) && stringish(k->dn_type)))
				d_error(dh, D_PROTO_ARG, k->dn_line, "@%s[ ] key #%d is incompatible with prototype:\n\tprototype: %s\n\t      key: %s",
				    ag->dn_name, i + 1, tname(dh, ai->ai_keys[i]), tname(dh, k->dn_type));
	} else {
		ai->ai_func = fn;
		ai->ai_params = p;
		ai->ai_nkeys = ag->dn_nargs;
		ai->ai_line = n->dn_line;
		int i = 0;
		for (struct d_node *k = ag->dn_args; k; k = k->dn_next, i++) {
			if (i >= D_MAX_KEYS)
				d_error(dh, D_KEY_TYPE, k->dn_line, "too many keys");
			ai->ai_keys[i] = k->dn_type;
		}
	}
	ag->dn_agg = ai;
	n->dn_type = dh->dh_t_void;
	n->dn_action = 2;	/* an aggregating action */
	return n;
}
