/*
 * d_cook_op.c — the type checker's operators: unary, binary and ternary
 * operators with C's usual arithmetic conversions and DTrace's pointer
 * and string rules, integer constant folding, and assignment (=, op=,
 * ++/--) including the first assignment that gives a variable its type.
 * Invariants as in d_cook.c.
 */
#include <string.h>

#include "dcore/d_impl.h"
#include "dcore/d_ident.h"
#include "dcore/d_cook_impl.h"

static uint64_t
fold2(struct d_hdl *dh, struct d_node *n, uint64_t a, uint64_t b, bool sign)
{
	switch (n->dn_op) {
	case '+': return a + b;
	case '-': return a - b;
	case '*': return a * b;
	case '/':
	case '%':
		if (b == 0)
			d_error(dh, D_DIV_ZERO, n->dn_line, "expression contains division by zero");
		if (sign) {
			if ((int64_t)b == -1)
				return n->dn_op == '/' ? (uint64_t)0 - a : 0;
			return n->dn_op == '/' ? (uint64_t)((int64_t)a / (int64_t)b) : (uint64_t)((int64_t)a % (int64_t)b);
		}
		return n->dn_op == '/' ? a / b : a % b;
	case '&': return a & b;
	case '|': return a | b;
	case '^': return a ^ b;
	case T_SHL: return b >= 64 ? 0 : a << b;
	case T_SHR: return b >= 64 ? (sign && (int64_t)a < 0 ? ~0ULL : 0) : sign ? (uint64_t)((int64_t)a >> b) : a >> b;
	case T_EQ: return a == b;
	case T_NE: return a != b;
	case '<': return sign ? (int64_t)a < (int64_t)b : a < b;
	case '>': return sign ? (int64_t)a > (int64_t)b : a > b;
	case T_LE: return sign ? (int64_t)a <= (int64_t)b : a <= b;
	case T_GE: return sign ? (int64_t)a >= (int64_t)b : a >= b;
	case T_LAND: return a && b;
	case T_LOR: return a || b;
	case T_LXOR: return !a != !b;
	default: return 0;
	}
}

static bool
is_cmp(int op)
{
	return op == T_EQ || op == T_NE || op == '<' || op == '>' || op == T_LE || op == T_GE;
}

/* Comparisons: strings by content, arithmetic operands after the usual
 * conversions, pointers and integers as unsigned longs. */
static struct d_node *
cook_cmp(struct d_hdl *dh, struct d_node *n, const char *on)
{
	struct d_node *l = n->dn_l, *r = n->dn_r;
	struct d_type *lt = l->dn_type, *rt = r->dn_type;
	n->dn_type = dh->dh_t_int;
	if (stringish(lt) && stringish(rt) && (d_type_is_string(lt) || d_type_is_string(rt))) {
		n->dn_dynamic = 2;	/* string comparison */
		if (l->dn_kind == DN_STR && r->dn_kind == DN_STR) {
			int c = strcmp(l->dn_str, r->dn_str);
			n->dn_l = mkint(dh, l, (uint64_t)(int64_t)c, dh->dh_t_int);
			n->dn_r = mkint(dh, r, 0, dh->dh_t_int);
			return mkint(dh, n, fold2(dh, n, (uint64_t)(int64_t)c, 0, true), dh->dh_t_int);
		}
		return n;
	}
	if (d_type_is_arith(lt) && d_type_is_arith(rt)) {
		struct d_type *t = arith_result(dh, lt, rt);
		n->dn_ctype = t;
		if (l->dn_kind == DN_INT && r->dn_kind == DN_INT)
			return mkint(dh, n, fold2(dh, n, l->dn_ival, r->dn_ival, t->dt_signed), dh->dh_t_int);
		return n;
	}
	if ((d_type_is_ptrlike(lt) || d_type_is_int(lt)) && (d_type_is_ptrlike(rt) || d_type_is_int(rt))) {
		if (d_type_is_ptrlike(lt) && d_type_is_ptrlike(rt) && !d_type_compat(d_type_ptr(dh, lt->dt_ref), d_type_ptr(dh, rt->dt_ref)))
			d_error(dh, D_OP_INCOMPAT, n->dn_line, "operator %s requires operands of compatible types: \"%s\" %s \"%s\"",
			    on, tname(dh, lt), on, tname(dh, rt));
		n->dn_ctype = dh->dh_t_ulong;
		return n;
	}
	if (d_type_is_string(lt) && d_type_is_int(rt) && r->dn_kind == DN_INT && r->dn_ival == 0) {
		n->dn_ctype = dh->dh_t_ulong;	/* s == NULL */
		return n;
	}
	d_error(dh, D_OP_INCOMPAT, n->dn_line, "operator %s requires operands of compatible types: \"%s\" %s \"%s\"",
	    on, tname(dh, lt), on, tname(dh, rt));
}

/* Pointer +/- integer (scaled by the element size) and pointer - pointer. */
static struct d_node *
cook_ptrarith(struct d_hdl *dh, struct d_node *n, const char *on)
{
	int op = n->dn_op;
	struct d_node *l = n->dn_l, *r = n->dn_r;
	struct d_type *lt = l->dn_type, *rt = r->dn_type;
	if (d_type_is_ptrlike(lt) && d_type_is_ptrlike(rt)) {
		if (op == '+' || !d_type_compat(d_type_ptr(dh, lt->dt_ref), d_type_ptr(dh, rt->dt_ref)))
			d_error(dh, D_OP_INCOMPAT, n->dn_line, "operator %s requires operands of compatible types: \"%s\" %s \"%s\"",
			    on, tname(dh, lt), on, tname(dh, rt));
		n->dn_type = dh->dh_t_long;
		n->dn_dynamic = 3;	/* pointer difference */
		return n;
	}
	struct d_type *pt = d_type_is_ptrlike(lt) ? lt : rt;
	struct d_node *in = d_type_is_ptrlike(lt) ? r : l;
	if (!d_type_is_int(in->dn_type) || (op == '-' && d_type_is_ptrlike(rt)))
		d_error(dh, D_OP_ARITH, n->dn_line, "operator %s requires operands of arithmetic type", on);
	if (pt->dt_ref->dt_kind == DK_VOID || pt->dt_ref->dt_kind == DK_FUNC)
		d_error(dh, D_OP_INCOMPAT, n->dn_line, "operands have incompatible types: \"%s\" %s \"%s\"",
		    tname(dh, lt), on, tname(dh, rt));
	n->dn_type = pt->dt_kind == DK_ARRAY ? d_type_ptr(dh, pt->dt_ref) : pt;
	n->dn_dynamic = 4;	/* scaled pointer arithmetic */
	return n;
}

struct d_node *
cook_op2(struct d_hdl *dh, struct d_node *n)
{
	struct d_node *l = n->dn_l = cook(dh, n->dn_l);
	struct d_node *r = n->dn_r = cook(dh, n->dn_r);
	default_type(dh, l);
	default_type(dh, r);
	struct d_type *lt = l->dn_type, *rt = r->dn_type;
	int op = n->dn_op;
	const char *on = opname(op);
	if (l->dn_action || r->dn_action)
		d_error(dh, D_OP_ACT, n->dn_line, "operator %s cannot be applied to an action", on);
	if (lt->dt_kind == DK_AGG || rt->dt_kind == DK_AGG)
		d_error(dh, D_OP_INCOMPAT, n->dn_line, "operands have incompatible types: \"%s\" %s \"%s\"",
		    tname(dh, lt), on, tname(dh, rt));

	if (op == T_LAND || op == T_LOR || op == T_LXOR) {
		if (!d_type_is_scalar(lt) && !d_type_is_string(lt))
			d_error(dh, D_OP_SCALAR, l->dn_line, "operator %s requires operands of scalar type", on);
		if (!d_type_is_scalar(rt) && !d_type_is_string(rt))
			d_error(dh, D_OP_SCALAR, r->dn_line, "operator %s requires operands of scalar type", on);
		n->dn_type = dh->dh_t_int;
		if (l->dn_kind == DN_INT && r->dn_kind == DN_INT)
			return mkint(dh, n, fold2(dh, n, l->dn_ival, r->dn_ival, true), dh->dh_t_int);
		return n;
	}
	if (is_cmp(op))
		return cook_cmp(dh, n, on);
	/* pointer arithmetic */
	if ((op == '+' || op == '-') && (d_type_is_ptrlike(lt) || d_type_is_ptrlike(rt)))
		return cook_ptrarith(dh, n, on);
	bool intonly = op == '%' || op == '&' || op == '|' || op == '^' || op == T_SHL || op == T_SHR;
	if (intonly) {
		if (!d_type_is_int(lt) || !d_type_is_int(rt))
			d_error(dh, D_OP_INT, n->dn_line, "operator %s requires operands of integral type", on);
	} else if (!d_type_is_arith(lt) || !d_type_is_arith(rt)) {
		d_error(dh, D_OP_ARITH, n->dn_line, "operator %s requires operands of arithmetic type", on);
	}
	if (lt->dt_kind == DK_FLOAT || rt->dt_kind == DK_FLOAT)
		d_error(dh, D_OP_ARITH, n->dn_line, "operator %s: floating-point arithmetic is not supported in D", on);
	struct d_type *t = (op == T_SHL || op == T_SHR) ? promote(dh, lt) : arith_result(dh, lt, rt);
	n->dn_type = t;
	if (l->dn_kind == DN_INT && r->dn_kind == DN_INT)
		return mkint(dh, n, fold2(dh, n, l->dn_ival, r->dn_ival, t->dt_signed), t);
	if ((op == '/' || op == '%') && r->dn_kind == DN_INT && r->dn_ival == 0)
		d_error(dh, D_DIV_ZERO, n->dn_line, "expression contains division by zero");
	return n;
}

struct d_node *
cook_op1(struct d_hdl *dh, struct d_node *n)
{
	int op = n->dn_op;
	struct d_node *l;
	if ((op == T_INC || op == T_DEC) && n->dn_l->dn_kind == DN_IDENT) {
		l = n->dn_l = cook_ident(dh, n->dn_l, true);
	} else {
		l = n->dn_l = cook(dh, n->dn_l);
	}
	if (op == T_INC || op == T_DEC)
		default_type_int(dh, l, dh->dh_t_long);
	default_type(dh, l);
	struct d_type *t = l->dn_type;
	const char *on = opname(op);
	if (l->dn_action)
		d_error(dh, D_OP_ACT, n->dn_line, "operator %s cannot be applied to an action", on);
	switch (op) {
	case '-': case '+': case '~':
		if (op == '~' ? !d_type_is_int(t) : !d_type_is_arith(t))
			d_error(dh, op == '~' ? D_OP_INT : D_OP_ARITH, n->dn_line,
			    "operator %s requires an operand of %s type", on, op == '~' ? "integral" : "arithmetic");
		n->dn_type = promote(dh, t);
		if (l->dn_kind == DN_INT) {
			uint64_t v = op == '-' ? (uint64_t)0 - l->dn_ival : op == '~' ? ~l->dn_ival : l->dn_ival;
			return mkint(dh, n, d_canon(v, n->dn_type), n->dn_type);
		}
		return n;
	case '!':
		if (!d_type_is_scalar(t) && !d_type_is_string(t))
			d_error(dh, D_OP_SCALAR, n->dn_line, "operator ! requires an operand of scalar type");
		n->dn_type = dh->dh_t_int;
		if (l->dn_kind == DN_INT)
			return mkint(dh, n, !l->dn_ival, dh->dh_t_int);
		return n;
	case '*':
		if (!d_type_is_ptrlike(t))
			d_error(dh, D_DEREF_NONPTR, n->dn_line, "cannot dereference non-pointer type");
		if (t->dt_ref->dt_kind == DK_VOID)
			d_error(dh, D_DEREF_VOID, n->dn_line, "cannot dereference pointer to void");
		if (t->dt_ref->dt_kind == DK_FUNC)
			d_error(dh, D_DEREF_FUNC, n->dn_line, "cannot dereference function pointer");
		n->dn_type = t->dt_ref;
		n->dn_lvalue = n->dn_writable = 1;
		if (n->dn_type->dt_kind == DK_STRUCT || n->dn_type->dt_kind == DK_UNION || n->dn_type->dt_kind == DK_ARRAY)
			n->dn_dynamic = 1;
		return n;
	case '&':
		if (l->dn_kind == DN_AGG || (l->dn_kind == DN_VAR && l->dn_var->dv_kind != DV_GLOBAL && l->dn_var->dv_kind != DV_LOCAL))
			d_error(dh, D_ADDROF_VAR, n->dn_line, "cannot take address of dynamic variable");
		if (l->dn_kind == DN_VAR && (d_type_is_scalar(t) || d_type_is_string(t)))
			d_error(dh, D_ADDROF_VAR, n->dn_line, "cannot take address of variable %s", l->dn_var->dv_name);
		if (!l->dn_lvalue)
			d_error(dh, D_ADDROF_LVAL, n->dn_line, "unacceptable operand for unary & operator");
		if (l->dn_bits)
			d_error(dh, D_ADDROF_BITFIELD, n->dn_line, "cannot take address of bit-field");
		n->dn_type = d_type_ptr(dh, t);
		return n;
	case T_INC: case T_DEC:
		need_lvalue(dh, l, on);
		if (!d_type_is_int(t) && t->dt_kind != DK_PTR)
			d_error(dh, D_OP_SCALAR, n->dn_line, "operator %s requires operand of scalar type", on);
		n->dn_type = t;
		return n;
	default:
		d_error(dh, D_UNKNOWN, n->dn_line, "unknown operator");
	}
}

/* Can a value of type src be assigned to a location of type dst? */
static void
check_assign(struct d_hdl *dh, struct d_node *n, struct d_type *dst, struct d_node *src)
{
	struct d_type *st = src->dn_type;
	if (st->dt_kind == DK_VOID)
		d_error(dh, D_OP_VFPTR, n->dn_line, "operator = cannot be applied to void");
	if (d_type_is_string(dst) && (d_type_is_string(st) || (src->dn_kind == DN_INT && src->dn_ival == 0)))
		return;
	if (d_type_is_string(dst) && st->dt_kind == DK_ARRAY && st->dt_ref->dt_char)
		return;		/* char[] text stored as a string */
	if (dst->dt_kind == DK_ARRAY && dst->dt_ref->dt_char && d_type_is_string(st))
		return;
	if (d_type_compat(dst, st))
		return;
	if (dst->dt_kind == DK_PTR && src->dn_kind == DN_INT && src->dn_ival == 0)
		return;
	if (dst->dt_kind == DK_PTR && d_type_is_int(st))
		return;
	d_error(dh, D_OP_INCOMPAT, n->dn_line, "operands have incompatible types: \"%s\" %s \"%s\"",
	    tname(dh, dst), opname(n->dn_op), tname(dh, st));
}


struct d_node *
cook_assign(struct d_hdl *dh, struct d_node *n)
{
	if (n->dn_l->dn_kind == DN_AGG)
		return cook_aggassign(dh, n);
	struct d_node *r = n->dn_r = cook(dh, n->dn_r);
	default_type(dh, r);
	if (r->dn_action)
		d_error(dh, D_OP_ACT, n->dn_line, "action may not be used in an expression");
	if (r->dn_type->dt_kind == DK_AGG)
		d_error(dh, D_OP_INCOMPAT, n->dn_line, "operator %s cannot be applied to an aggregation", opname(n->dn_op));
	struct d_node *l = n->dn_l;
	if (l->dn_kind == DN_IDENT)
		l = cook_ident(dh, l, true);
	else
		l = cook(dh, l);
	n->dn_l = l;
	if (n->dn_op != '=')
		default_type_int(dh, l, dh->dh_t_int);
	if (l->dn_kind == DN_VAR && !l->dn_type && n->dn_op == '=') {
		struct d_var *v = l->dn_var;
		struct d_type *t = r->dn_type;
		if (t->dt_kind == DK_VOID)
			d_error(dh, D_OP_VFPTR, n->dn_line, "cannot assign a void expression to %s", v->dv_name);
		if (t->dt_kind == DK_FUNC)
			d_error(dh, D_OP_ARRFUN, n->dn_line, "cannot assign a function to %s", v->dv_name);
		if (t->dt_kind == DK_ARRAY && t->dt_ref->dt_char)
			t = dh->dh_t_string;	/* char[] text becomes a string */
		v->dv_type = t;
		if (v->dv_kind == DV_GLOBAL || v->dv_kind == DV_LOCAL)
			d_var_place(dh, v);
		l->dn_type = t;
	}
	default_type(dh, l);
	need_lvalue(dh, l, opname(n->dn_op));
	if (l->dn_type->dt_kind == DK_ARRAY && !(l->dn_type->dt_ref->dt_char && d_type_is_string(r->dn_type)))
		d_error(dh, D_OP_ARRFUN, n->dn_line, "operator %s may not be applied to operand of type \"%s\"",
		    opname(n->dn_op), tname(dh, l->dn_type));
	if (n->dn_op == '=' && l->dn_kind == DN_VAR && r->dn_kind == DN_INT && r->dn_ival == 0 &&
	    (l->dn_var->dv_kind == DV_TLS || l->dn_var->dv_kind == DV_ASSOC)) {
		/* storing 0 frees a dynamic variable of any type */
	} else if (n->dn_op == '=') {
		check_assign(dh, n, l->dn_type, r);
	} else {
		bool intonly = n->dn_op != T_ADDEQ && n->dn_op != T_SUBEQ && n->dn_op != T_MULEQ && n->dn_op != T_DIVEQ;
		bool ptr = l->dn_type->dt_kind == DK_PTR && (n->dn_op == T_ADDEQ || n->dn_op == T_SUBEQ);
		const char *on = opname(n->dn_op);
		if (!ptr && d_type_is_ptrlike(r->dn_type) && (n->dn_op == T_ADDEQ || n->dn_op == T_SUBEQ))
			d_error(dh, D_OP_VFPTR, n->dn_line, "operator %s requires left-hand scalar operand of known size", on);
		if (d_type_is_arith(l->dn_type) && !d_type_is_arith(r->dn_type) && !d_type_is_ptrlike(r->dn_type))
			d_error(dh, D_OP_INCOMPAT, n->dn_line, "operands have incompatible types: \"%s\" %s \"%s\"",
			    tname(dh, l->dn_type), on, tname(dh, r->dn_type));
		if (!ptr && ((intonly && (!d_type_is_int(l->dn_type) || !d_type_is_int(r->dn_type))) ||
		    !d_type_is_arith(l->dn_type) || !d_type_is_arith(r->dn_type)))
			d_error(dh, intonly ? D_OP_INT : D_OP_ARITH, n->dn_line,
			    "operator %s requires operands of %s type", opname(n->dn_op), intonly ? "integral" : "arithmetic");
		if (ptr && !d_type_is_int(r->dn_type))
			d_error(dh, D_OP_ARITH, n->dn_line, "operator %s requires operands of arithmetic type", opname(n->dn_op));
		if ((n->dn_op == T_DIVEQ || n->dn_op == T_MODEQ) && r->dn_kind == DN_INT && r->dn_ival == 0)
			d_error(dh, D_DIV_ZERO, n->dn_line, "expression contains division by zero");
	}
	n->dn_type = l->dn_type;
	return n;
}

struct d_node *
cook_op3(struct d_hdl *dh, struct d_node *n)
{
	struct d_node *x = n->dn_x = cook(dh, n->dn_x);
	struct d_node *l = n->dn_l = cook(dh, n->dn_l);
	struct d_node *r = n->dn_r = cook(dh, n->dn_r);
	default_type(dh, x);
	default_type(dh, l);
	default_type(dh, r);
	if (!d_type_is_scalar(x->dn_type) && !d_type_is_string(x->dn_type))
		d_error(dh, D_OP_SCALAR, n->dn_line, "operator ?: requires scalar type for first operand");
	struct d_type *lt = l->dn_type, *rt = r->dn_type;
	if (d_type_is_arith(lt) && d_type_is_arith(rt))
		n->dn_type = arith_result(dh, lt, rt);
	else if (d_type_is_string(lt) && d_type_is_string(rt))
		n->dn_type = lt;
	else if (d_type_compat(lt, rt) && lt->dt_kind != DK_VOID)
		n->dn_type = lt;
	else if (lt->dt_kind == DK_PTR && r->dn_kind == DN_INT && r->dn_ival == 0)
		n->dn_type = lt;
	else if (rt->dt_kind == DK_PTR && l->dn_kind == DN_INT && l->dn_ival == 0)
		n->dn_type = rt;
	else
		d_error(dh, D_OP_INCOMPAT, n->dn_line, "operator ?: operands must have compatible types");
	if (l->dn_action || r->dn_action)
		d_error(dh, D_OP_ACT, n->dn_line, "?: operands cannot be actions");
	if (x->dn_kind == DN_INT && l->dn_kind == DN_INT && r->dn_kind == DN_INT)
		return mkint(dh, n, x->dn_ival ? l->dn_ival : r->dn_ival, n->dn_type);
	if (d_type_is_string(n->dn_type) || n->dn_type->dt_kind == DK_STRUCT)
		n->dn_dynamic = 1;
	return n;
}
