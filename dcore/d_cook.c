/*
 * d_cook.c — the type checker: gives every node a type and checks it.
 *
 * Invariants after cooking a node n:
 *   - n->dn_type is set (void for actions and void subroutines);
 *   - integer constant subtrees are folded into DN_INT (dn_const);
 *   - identifiers are resolved: DN_IDENT becomes DN_VAR (variables),
 *     DN_BUILTIN (cpu, pid...), DN_INT (enumerators, constant inlines) or
 *     the cooked body of an inline; args[N] becomes DN_ARGS; a[k] on an
 *     associative array becomes DN_VAR with dn_args = the keys;
 *   - dn_lvalue/dn_writable say whether n may be assigned.
 * Each violation raises one tagged error (d_error) carrying n's line, in
 * DTrace's words.  Variables get their type from their first assignment in
 * program order, so a read before any assignment is an error for globals.
 */
#include <string.h>

#include "dcore/d_impl.h"
#include "dcore/d_ident.h"
#include "dcore/d_cook_impl.h"


const char *
tname(struct d_hdl *dh, const struct d_type *t)
{
	static __thread char buf[4][128];
	static __thread int i;
	i = (i + 1) & 3;
	return d_type_name(dh, t, buf[i], sizeof(buf[i]));
}

struct d_type *
d_type_parse_simple(struct d_hdl *dh, const char *s)
{
	size_t n = strlen(s);
	if (n > 2 && strcmp(s + n - 2, " *") == 0) {
		char base[128];
		snprintf(base, sizeof(base), "%.*s", (int)(n - 2), s);
		struct d_type *b = d_type_parse_simple(dh, base);
		return b ? d_type_ptr(dh, b) : NULL;
	}
	struct d_type *t = d_type_lookup(dh, s);
	if (!t && strncmp(s, "struct ", 7) == 0)
		t = d_type_tag(dh, DK_STRUCT, s + 7, false);
	return t;
}

/* A probe argument type name ("uint64_t", "char *") as a D type. */
static struct d_type *
d_type_from_name(struct d_hdl *dh, const char *s)
{
	struct d_type *t = s ? d_type_parse_simple(dh, s) : NULL;
	return t ? t : dh->dh_t_int64;
}

/* ---- helpers ----------------------------------------------------------------- */

struct d_node *
mkint(struct d_hdl *dh, struct d_node *at, uint64_t v, struct d_type *t)
{
	struct d_node *n = d_node_new(dh, DN_INT, at->dn_line);
	n->dn_ival = v;
	n->dn_type = t;
	n->dn_const = 1;
	return n;
}

/* Canonical value of v as type t (truncate, then sign/zero extend). */
uint64_t
d_canon(uint64_t v, const struct d_type *t)
{
	if (!d_type_is_int(t) || t->dt_size >= 8)
		return v;
	unsigned bits = t->dt_size * 8;
	uint64_t m = (1ULL << bits) - 1;
	v &= m;
	if (t->dt_signed && (v >> (bits - 1)) & 1)
		v |= ~m;
	return v;
}

/* C's integer promotion. */
struct d_type *
promote(struct d_hdl *dh, struct d_type *t)
{
	if (t->dt_kind == DK_ENUM)
		return dh->dh_t_int;
	if (t->dt_kind == DK_INT && t->dt_size < 4)
		return dh->dh_t_int;
	return t;
}

/* The usual arithmetic conversions. */
struct d_type *
arith_result(struct d_hdl *dh, struct d_type *a, struct d_type *b)
{
	a = promote(dh, a);
	b = promote(dh, b);
	if (a->dt_size == b->dt_size) {
		if (a->dt_signed == b->dt_signed)
			return a->dt_name && b->dt_name && a->dt_size == 8 && !a->dt_signed ? a : a;
		return a->dt_signed ? b : a;
	}
	struct d_type *big = a->dt_size > b->dt_size ? a : b;
	return big;
}

static bool
is_charptr(const struct d_type *t)
{
	return t && (t->dt_kind == DK_PTR || t->dt_kind == DK_ARRAY) && t->dt_ref->dt_char;
}

/* strings compare with strings, char *, char[] by value */
bool
stringish(const struct d_type *t)
{
	return d_type_is_string(t) || is_charptr(t);
}

static void
need_int(struct d_hdl *dh, struct d_node *n, const char *op)
{
	if (!d_type_is_int(n->dn_type))
		d_error(dh, D_OP_INT, n->dn_line, "operator %s requires operand of integral type", op);
}

void
need_lvalue(struct d_hdl *dh, struct d_node *n, const char *op)
{
	if (!n->dn_lvalue)
		d_error(dh, D_OP_LVAL, n->dn_line, "operator %s requires modifiable lvalue as an operand", op);
	if (!n->dn_writable)
		d_error(dh, D_OP_WRITE, n->dn_line, "operator %s can only be applied to a writable variable", op);
}

const char *
opname(int op)
{
	switch (op) {
	case T_INC: return "++";
	case T_DEC: return "--";
	default: return d_lex_tokname(op);
	}
}

/* ---- identifiers ------------------------------------------------------------ */

struct d_node *d_node_clone(struct d_hdl *dh, const struct d_node *n);

struct d_node *
d_node_clone(struct d_hdl *dh, const struct d_node *n)
{
	if (!n)
		return NULL;
	struct d_node *c = d_node_alloc(dh, sizeof(*c));
	*c = *n;
	c->dn_l = d_node_clone(dh, n->dn_l);
	c->dn_r = d_node_clone(dh, n->dn_r);
	c->dn_x = d_node_clone(dh, n->dn_x);
	c->dn_args = d_node_clone(dh, n->dn_args);
	c->dn_next = d_node_clone(dh, n->dn_next);
	return c;
}

static struct d_node *
cook_builtin(struct d_hdl *dh, struct d_node *n, int bi)
{
	n->dn_kind = DN_BUILTIN;
	n->dn_bvar = d_bvars[bi].id;
	if (n->dn_bvar == BV_VTIMESTAMP)
		dh->dh_uses_vtimestamp = true;
	/* stackdepth and caller read the kernel stack, their u* twins the
	 * user stack: the providers must collect them */
	if (n->dn_bvar == BV_STACKDEPTH || n->dn_bvar == BV_CALLER)
		dh->dh_stack_bvars |= 1;
	if (n->dn_bvar == BV_USTACKDEPTH || n->dn_bvar == BV_UCALLER)
		dh->dh_stack_bvars |= 2;
	struct d_type *t = d_type_parse_simple(dh, d_bvars[bi].type);
	if (!t)
		d_error(dh, D_VAR_UNSUP, n->dn_line, "%s is not available", n->dn_name);
	n->dn_type = t;
	n->dn_lvalue = 1;	/* an lvalue, but not writable (D_OP_WRITE) */
	if (t->dt_kind == DK_STRING)
		n->dn_dynamic = 1;
	return n;
}

/* An inline is cooked where it is defined; each use gets a copy. */
static struct d_node *
cook_inline_use(struct d_hdl *dh, struct d_node *n, struct d_var *v)
{
	struct d_node *e = v->dv_inline;
	if (e->dn_kind == DN_INT)
		return mkint(dh, n, e->dn_ival, v->dv_type);
	struct d_node *c = d_node_clone(dh, e);
	c->dn_next = NULL;
	c->dn_line = n->dn_line;
	return c;
}

/* Bare `args` of a probe whose provider gives an argument struct. */
static struct d_node *
cook_argstruct(struct d_hdl *dh, struct d_node *n)
{
	struct d_probe *p = dh->dh_cc_nprobes ? dh->dh_cc_probes[0] : NULL;
	if (!p || !p->pr_argstruct)
		d_error(dh, D_ARGS_IDX, n->dn_line, "args[ ] requires an index");
	for (int k = 1; k < dh->dh_cc_nprobes; k++)
		if (dh->dh_cc_probes[k]->pr_argstruct != p->pr_argstruct)
			d_error(dh, D_ARGS_MULTI, n->dn_line, "args may not be referenced because probe description matches an unstable set of probes");
	n->dn_kind = DN_BUILTIN;
	n->dn_bvar = BV_ARGSTRUCT;
	n->dn_type = d_type_ptr(dh, p->pr_argstruct);
	return n;
}

struct d_node *
cook_ident(struct d_hdl *dh, struct d_node *n, bool create)
{
	struct d_var *v = d_var_lookup(dh, 0, n->dn_name);
	if (v) {
		switch (v->dv_kind) {
		case DV_ENUM:
			return mkint(dh, n, (uint64_t)v->dv_ival, v->dv_type);
		case DV_INLINE:
			/* inline int a = a + 1: not yet defined, as in DTrace
			 * (and expanding it would never end) */
			if (v->dv_defining)
				d_error(dh, D_IDENT_UNDEF, n->dn_line, "failed to resolve %s: Unknown variable name", n->dn_name);
			return cook_inline_use(dh, n, v);
		case DV_ASSOC:
			d_error(dh, D_ARR_BADREF, n->dn_line, "%s is an associative array and must be referenced with a tuple", n->dn_name);
		default:
			break;
		}
	} else {
		int bi = d_bvar_lookup(n->dn_name);
		if (bi >= 0)
			return cook_builtin(dh, n, bi);
		if (strcmp(n->dn_name, "args") == 0)
			return cook_argstruct(dh, n);
		if (strcmp(n->dn_name, "curthread") == 0)
			d_error(dh, D_VAR_UNSUP, n->dn_line, "curthread is not available: pmctrace runs in user space");
		if (d_fdef(n->dn_name))
			d_error(dh, D_IDENT_BADREF, n->dn_line, "%s( ) may not be referenced as a variable", n->dn_name);
		if (!create)
			d_error(dh, D_IDENT_UNDEF, n->dn_line, "failed to resolve %s: Unknown variable name", n->dn_name);
		v = d_var_create(dh, DV_GLOBAL, n->dn_name);
	}
	n->dn_kind = DN_VAR;
	n->dn_var = v;
	n->dn_type = v->dv_type;
	n->dn_lvalue = n->dn_writable = 1;
	return n;
}

/* self->x, this->x: created on first reference. */
static struct d_node *
cook_dvar(struct d_hdl *dh, struct d_node *n)
{
	struct d_var *v = d_var_lookup(dh, n->dn_op, n->dn_name);
	if (!v)
		v = d_var_create(dh, n->dn_op, n->dn_name);
	if (v->dv_nkeys > 0)
		d_error(dh, D_ARR_BADREF, n->dn_line, "self->%s is an associative array and must be referenced with a tuple", v->dv_name);
	n->dn_var = v;
	n->dn_type = v->dv_type;
	n->dn_lvalue = n->dn_writable = 1;
	return n;
}

/* A variable read before it has a type: DTrace types it int. */
void
default_type(struct d_hdl *dh, struct d_node *n)
{
	if (n->dn_kind == DN_VAR && !n->dn_type) {
		struct d_var *v = n->dn_var;
		if (v->dv_kind == DV_GLOBAL)
			d_error(dh, D_IDENT_UNDEF, n->dn_line, "failed to resolve %s: Unknown variable name", v->dv_name);
		if (v->dv_kind == DV_ASSOC)
			d_error(dh, D_IDENT_UNDEF, n->dn_line, "failed to resolve %s: Unknown variable name", v->dv_name);
		v->dv_type = dh->dh_t_int;
		if (v->dv_kind == DV_LOCAL)
			d_var_place(dh, v);
		n->dn_type = v->dv_type;
	}
}

/* x++, x += n on a variable never assigned: it gets type t (DTrace makes
 * x += n an int, and x++ 64 bits wide). */
void
default_type_int(struct d_hdl *dh, struct d_node *n, struct d_type *t)
{
	if (n->dn_kind == DN_VAR && !n->dn_type) {
		struct d_var *v = n->dn_var;
		v->dv_type = t;
		if (v->dv_kind == DV_GLOBAL || v->dv_kind == DV_LOCAL)
			d_var_place(dh, v);
		n->dn_type = v->dv_type;
	}
}

/* ---- cook by node kind ------------------------------------------------------- */

void
cook_keys(struct d_hdl *dh, struct d_node *n)
{
	struct d_node **pp = &n->dn_args;
	for (struct d_node *k = n->dn_args; k; k = k->dn_next) {
		struct d_node *next = k->dn_next;
		struct d_node *c = cook(dh, k);
		default_type(dh, c);
		c->dn_next = next;
		if (c->dn_type->dt_kind == DK_VOID)
			d_error(dh, D_KEY_TYPE, c->dn_line, "%s expression may not be used as a key", "void");
		if (c->dn_type->dt_kind == DK_FUNC || c->dn_type->dt_kind == DK_FLOAT || c->dn_type->dt_kind == DK_AGG)
			d_error(dh, D_KEY_TYPE, c->dn_line, "invalid key type: %s", tname(dh, c->dn_type));
		*pp = c;
		pp = &c->dn_next;
		k = c;
	}
}

static struct d_xlator *find_xlator(struct d_hdl *dh, struct d_type *out, struct d_type *in);

/* v[k1, k2...]: keys checked against (or fixing) the array's signature. */
static struct d_node *
cook_tuple_var(struct d_hdl *dh, struct d_node *n, struct d_var *v)
{
	cook_keys(dh, n);
	if (v->dv_nkeys >= 0) {
		if (n->dn_nargs != v->dv_nkeys)
			d_error(dh, D_PROTO_LEN, n->dn_line, "%s[ ] prototype mismatch: %d arg%s passed, %d expected",
			    v->dv_name, n->dn_nargs, n->dn_nargs == 1 ? "" : "s", v->dv_nkeys);
		int i = 0;
		for (struct d_node *k = n->dn_args; k; k = k->dn_next, i++)
			if (!d_type_compat(v->dv_keys[i], k->dn_type) &&
			    !(stringish(v->dv_keys[i]) && stringish(k->dn_type)))
				d_error(dh, D_PROTO_ARG, k->dn_line, "%s[ ] key #%d is incompatible with prototype:\n\tprototype: %s\n\t      key: %s",
				    v->dv_name, i + 1, tname(dh, v->dv_keys[i]), tname(dh, k->dn_type));
	} else {
		if (n->dn_nargs > D_MAX_KEYS)
			d_error(dh, D_ARR_BADREF, n->dn_line, "too many keys");
		v->dv_nkeys = n->dn_nargs;
		int i = 0;
		for (struct d_node *k = n->dn_args; k; k = k->dn_next, i++)
			v->dv_keys[i] = is_charptr(k->dn_type) && k->dn_kind == DN_STR ? dh->dh_t_string : k->dn_type;
	}
	n->dn_kind = DN_VAR;
	n->dn_var = v;
	n->dn_type = v->dv_type;
	n->dn_l = NULL;
	n->dn_lvalue = n->dn_writable = 1;
	return n;
}

/* args[i]: the probe's i-th argument, typed by its translated type when
 * one exists; every probe the clause matched must agree on it. */
static struct d_node *
cook_args_index(struct d_hdl *dh, struct d_node *n)
{
	if (n->dn_nargs != 1)
		d_error(dh, D_ARGS_IDX, n->dn_line, "args[ ] requires one index");
	struct d_node *ix = cook(dh, n->dn_args);
	if (ix->dn_kind != DN_INT)
		d_error(dh, D_ARGS_IDX, n->dn_line, "index of args[ ] must be an integer constant");
	int i = (int)ix->dn_ival;
	struct d_probe *p = dh->dh_cc_nprobes ? dh->dh_cc_probes[0] : NULL;
	if (!p || p->pr_nargs == 0)
		d_error(dh, D_ARGS_NONE, n->dn_line, "no args[ ] are available for this probe");
	if (i < 0 || i >= p->pr_nargs)
		d_error(dh, D_ARGS_IDX, n->dn_line, "index %d is out of range for %s:%s:%s:%s args[ ]",
		    i, p->pr_prov, p->pr_mod, p->pr_func, p->pr_name);
	struct d_type *t = p->pr_xargtypes[i] ? p->pr_xargtypes[i] : p->pr_argtypes[i];
	for (int k = 1; k < dh->dh_cc_nprobes; k++) {
		struct d_probe *q = dh->dh_cc_probes[k];
		struct d_type *u = i < q->pr_nargs ? (q->pr_xargtypes[i] ? q->pr_xargtypes[i] : q->pr_argtypes[i]) : NULL;
		if (!u || !d_type_compat(t, u) || t->dt_size != u->dt_size)
			d_error(dh, D_ARGS_MULTI, n->dn_line, "args[ ] may not be referenced because probe description matches an unstable set of probes");
	}
	n->dn_kind = DN_ARGS;
	n->dn_ival = (uint64_t)i;
	n->dn_type = t;
	n->dn_l = NULL;
	n->dn_args = NULL;
	if (t->dt_kind == DK_STRING)
		n->dn_dynamic = 1;
	struct d_type *nt = p->pr_argtypes[i];
	if (t != nt && t->dt_kind == DK_PTR && nt->dt_kind == DK_PTR &&
	    find_xlator(dh, t->dt_ref, nt)) {
		/* a translated argument: args[i]->m is the translator's m */
		n->dn_type = nt;
		struct d_node *x = d_node_new(dh, DN_XLATE, n->dn_line);
		x->dn_ctype = t;
		x->dn_type = t;
		x->dn_l = n;
		return x;
	}
	return n;
}

/* a[k1, k2]: an associative array, args[N], or memory indexing. */
static struct d_node *
cook_index(struct d_hdl *dh, struct d_node *n)
{
	struct d_node *l = n->dn_l;
	if (l->dn_kind == DN_IDENT && strcmp(l->dn_name, "args") == 0 && !d_var_lookup(dh, 0, "args"))
		return cook_args_index(dh, n);
	if (l->dn_kind == DN_IDENT) {
		struct d_var *v = d_var_lookup(dh, 0, l->dn_name);
		bool assoc = (!v && d_bvar_lookup(l->dn_name) < 0) || (v && v->dv_kind == DV_ASSOC);
		if (assoc) {
			if (!v)
				v = d_var_create(dh, DV_ASSOC, l->dn_name);
			return cook_tuple_var(dh, n, v);
		}
	}
	if (l->dn_kind == DN_VAR && l->dn_op == DV_TLS && !l->dn_type) {
		/* self->x[k...]: a thread-local associative array, unless self->x
		 * already holds a pointer or array to index */
		struct d_var *v = d_var_lookup(dh, DV_TLS, l->dn_name);
		if (!v || v->dv_nkeys != 0 || !v->dv_type) {
			if (!v)
				v = d_var_create(dh, DV_TLS, l->dn_name);
			if (v->dv_nkeys == 0)
				v->dv_nkeys = -1;
			return cook_tuple_var(dh, n, v);
		}
	}
	n->dn_l = l = cook(dh, l);
	default_type(dh, l);
	if (n->dn_nargs != 1 && l->dn_kind == DN_VAR)
		d_error(dh, D_ARR_BADREF, n->dn_line, "cannot access scalar %s as an associative array", l->dn_var->dv_name);
	if (n->dn_nargs != 1)
		d_error(dh, D_ARR_BADREF, n->dn_line, "tuple index requires an associative array");
	struct d_node *ix = cook(dh, n->dn_args);
	default_type(dh, ix);
	n->dn_r = ix;
	n->dn_args = NULL;
	if (d_type_is_string(l->dn_type)) {
		/* s[i] reads the string's i-th char, as in the Linux DTrace */
		need_int(dh, ix, "[ ]");
		n->dn_type = dh->dh_t_char;
		return n;
	}
	if (!d_type_is_ptrlike(l->dn_type)) {
		d_error(dh, D_OP_PTR, n->dn_line, "operator [ ] requires a pointer or array operand");
	}
	need_int(dh, ix, "[ ]");
	struct d_type *et = l->dn_type->dt_ref;
	if (et->dt_kind == DK_VOID)
		d_error(dh, D_DEREF_VOID, n->dn_line, "cannot dereference pointer to void");
	n->dn_type = et;
	n->dn_lvalue = n->dn_writable = 1;
	if (et->dt_kind == DK_ARRAY || et->dt_kind == DK_STRUCT || et->dt_kind == DK_UNION)
		n->dn_dynamic = 1;
	return n;
}

static struct d_node *cook_xlate_member(struct d_hdl *dh, struct d_node *n);

static struct d_node *
cook_member(struct d_hdl *dh, struct d_node *n)
{
	if (n->dn_l->dn_kind == DN_IDENT) {	/* an inline naming an xlate */
		struct d_var *v = d_var_lookup(dh, 0, n->dn_l->dn_name);
		if (v && v->dv_kind == DV_INLINE && v->dv_inline->dn_kind == DN_XLATE)
			n->dn_l = d_node_clone(dh, v->dv_inline);
	}
	if (n->dn_l->dn_kind == DN_INDEX && n->dn_l->dn_l->dn_kind == DN_IDENT &&
	    strcmp(n->dn_l->dn_l->dn_name, "args") == 0)
		n->dn_l = cook_index(dh, n->dn_l);	/* may be a translated argument */
	if (n->dn_l->dn_kind == DN_XLATE)
		return cook_xlate_member(dh, n);
	struct d_node *l = n->dn_l = cook(dh, n->dn_l);
	default_type(dh, l);
	struct d_type *t = l->dn_type;
	if (n->dn_op == T_ARROW) {
		if (t->dt_kind != DK_PTR)
			d_error(dh, D_OP_PTR, n->dn_line, "operator -> must be applied to a pointer");
		t = t->dt_ref;
	}
	if (t->dt_kind != DK_STRUCT && t->dt_kind != DK_UNION) {
		if (n->dn_op == T_ARROW)
			d_error(dh, D_OP_SOU, n->dn_line, "operator -> cannot be applied to pointer to type \"%s\"; must be applied to a struct or union pointer",
			    tname(dh, t));
		d_error(dh, D_OP_SOU, n->dn_line, "operator . cannot be applied to type \"%s\"; must be applied to a struct or union",
		    tname(dh, t));
	}
	if (!t->dt_complete)
		d_error(dh, D_OP_INCOMPLETE, n->dn_line, "operator %s cannot be applied to a forward declaration: no %s definition is available",
		    n->dn_op == T_ARROW ? "->" : ".", tname(dh, t));
	struct d_member *m = d_type_member(t, n->dn_name);
	if (!m)
		d_error(dh, D_TYPE_MEMBER, n->dn_line, "%s is not a member of %s", n->dn_name, tname(dh, t));
	n->dn_member = m;
	n->dn_type = m->dm_type;
	n->dn_bits = m->dm_bits;
	n->dn_bitoff = m->dm_bitoff;
	n->dn_lvalue = n->dn_op == T_ARROW || l->dn_lvalue;
	n->dn_writable = n->dn_op == T_ARROW || l->dn_writable;
	if (l->dn_kind == DN_VAR && l->dn_var->dv_kind != DV_GLOBAL && l->dn_var->dv_kind != DV_LOCAL && n->dn_op == '.')
		n->dn_writable = n->dn_lvalue = 1;
	if (m->dm_type->dt_kind == DK_ARRAY || m->dm_type->dt_kind == DK_STRUCT || m->dm_type->dt_kind == DK_UNION)
		n->dn_dynamic = 1;
	return n;
}

/* Find the translator from the input's type to out. */
static struct d_xlator *
find_xlator(struct d_hdl *dh, struct d_type *out, struct d_type *in)
{
	for (struct d_xlator *x = dh->dh_xlators; x; x = x->xl_next) {
		if (x->xl_out != out && !(x->xl_out->dt_name && out->dt_name && strcmp(x->xl_out->dt_name, out->dt_name) == 0))
			continue;
		if (d_type_compat(x->xl_in, in) || (d_type_is_int(x->xl_in) && d_type_is_int(in)))
			return x;
	}
	return NULL;
}

/* Replace the translator's input name by a copy of the input expression. */
static struct d_node *
xl_subst(struct d_hdl *dh, struct d_node *e, const char *arg, const struct d_node *in)
{
	if (!e)
		return NULL;
	if (e->dn_kind == DN_IDENT && strcmp(e->dn_name, arg) == 0) {
		struct d_node *c = d_node_clone(dh, in);
		c->dn_next = xl_subst(dh, e->dn_next, arg, in);
		c->dn_line = e->dn_line;
		return c;
	}
	e->dn_l = xl_subst(dh, e->dn_l, arg, in);
	e->dn_r = xl_subst(dh, e->dn_r, arg, in);
	e->dn_x = xl_subst(dh, e->dn_x, arg, in);
	e->dn_args = xl_subst(dh, e->dn_args, arg, in);
	e->dn_next = xl_subst(dh, e->dn_next, arg, in);
	return e;
}

/* xlate <T>(e).m or xlate <T *>(e)->m: the translator's member expression
 * with e substituted, cast to the member's type. */
static struct d_node *
cook_xlate_member(struct d_hdl *dh, struct d_node *n)
{
	struct d_node *x = n->dn_l;
	struct d_type *out = x->dn_ctype;
	if (n->dn_op == T_ARROW) {
		if (out->dt_kind != DK_PTR)
			d_error(dh, D_OP_PTR, n->dn_line, "operator -> must be applied to a pointer");
		out = out->dt_ref;
	} else if (out->dt_kind == DK_PTR) {
		d_error(dh, D_OP_SOU, n->dn_line, "operator . cannot be applied to a pointer");
	}
	struct d_node *in = d_node_clone(dh, x->dn_l);
	struct d_node *cin = cook(dh, d_node_clone(dh, x->dn_l));
	default_type(dh, cin);
	struct d_xlator *xl = find_xlator(dh, out, cin->dn_type);
	if (!xl)
		d_error(dh, D_XLATE_NONE, n->dn_line, "translator does not exist: %s -> %s",
		    tname(dh, cin->dn_type), tname(dh, out));
	struct d_member *m = d_type_member(out, n->dn_name);
	if (!m)
		d_error(dh, D_TYPE_MEMBER, n->dn_line, "%s is not a member of %s", n->dn_name, tname(dh, out));
	struct d_xlmemb *xm = xl->xl_members;
	while (xm && strcmp(xm->xm_name, n->dn_name) != 0)
		xm = xm->xm_next;
	if (!xm)
		d_error(dh, D_XLATE_NOCONV, n->dn_line, "translator member %s is not defined by the translator from %s to %s",
		    n->dn_name, tname(dh, xl->xl_in), tname(dh, out));
	/* The input is typed as the translator's input (a cast). */
	struct d_node *ci = d_node_new(dh, DN_CAST, n->dn_line);
	ci->dn_ctype = xl->xl_in;
	ci->dn_l = in;
	struct d_node *e = xl_subst(dh, d_node_clone(dh, xm->xm_expr), xl->xl_arg, ci);
	e->dn_next = NULL;
	e = cook(dh, e);
	if (m->dm_type->dt_kind == DK_ARRAY && d_type_is_string(e->dn_type)) {
		return e;	/* char [] members translated from strings */
	}
	if (!d_type_compat(m->dm_type, e->dn_type) && !(m->dm_type->dt_kind == DK_ARRAY && stringish(e->dn_type)))
		d_error(dh, D_XLATE_INCOMPAT, n->dn_line, "translator member %s type %s is incompatible with %s",
		    n->dn_name, tname(dh, e->dn_type), tname(dh, m->dm_type));
	if (d_type_is_int(m->dm_type) && e->dn_type != m->dm_type) {
		struct d_node *c = d_node_new(dh, DN_CAST, n->dn_line);
		c->dn_ctype = m->dm_type;
		c->dn_l = e;
		c->dn_type = m->dm_type;
		if (e->dn_kind == DN_INT)
			return mkint(dh, n, d_canon(e->dn_ival, m->dm_type), m->dm_type);
		return c;
	}
	return e;
}

static struct d_node *
cook_cast(struct d_hdl *dh, struct d_node *n)
{
	struct d_node *l = n->dn_l = cook(dh, n->dn_l);
	default_type(dh, l);
	struct d_type *to = n->dn_ctype, *from = l->dn_type;
	n->dn_type = to;
	if (to->dt_kind == DK_VOID)
		return n;
	if (d_type_is_string(to)) {
		if (d_type_is_string(from))
			return l;
		d_error(dh, D_CAST_INVAL, n->dn_line, "invalid cast expression: \"%s\" to \"%s\"", tname(dh, from), tname(dh, to));
	}
	if (!d_type_is_scalar(to) || (!d_type_is_scalar(from) && !(d_type_is_string(from) && to->dt_kind == DK_PTR)))
		d_error(dh, D_CAST_INVAL, n->dn_line, "invalid cast expression: \"%s\" to \"%s\"", tname(dh, from), tname(dh, to));
	if (to->dt_kind == DK_FLOAT || from->dt_kind == DK_FLOAT)
		d_error(dh, D_CAST_INVAL, n->dn_line, "invalid cast expression: floating-point is not supported");
	if (l->dn_kind == DN_INT && d_type_is_int(to))
		return mkint(dh, n, d_canon(l->dn_ival, to), to);
	return n;
}

static struct d_node *
cook_sizeof(struct d_hdl *dh, struct d_node *n)
{
	struct d_type *t = n->dn_ctype;
	if (!t) {
		struct d_node *l = cook(dh, n->dn_l);
		default_type(dh, l);
		if (l->dn_bits)
			d_error(dh, D_SIZEOF_BITFIELD, n->dn_line, "cannot apply sizeof to a bit-field");
		t = l->dn_type;
	}
	if (t->dt_kind == DK_VOID || t->dt_kind == DK_AGG)
		d_error(dh, D_SIZEOF_TYPE, n->dn_line, "cannot apply sizeof to an operand of unknown size");
	if (t->dt_kind == DK_FUNC || (!t->dt_complete && t->dt_kind != DK_PTR))
		d_error(dh, D_SIZEOF_TYPE, n->dn_line, "cannot apply sizeof to an expression of type %s", tname(dh, t));
	uint64_t sz = t->dt_kind == DK_STRING ? (uint64_t)dh->dh_opt[O_STRSIZE] : t->dt_size;
	return mkint(dh, n, sz, d_type_lookup(dh, "size_t"));
}

static struct d_node *
cook_offsetof(struct d_hdl *dh, struct d_node *n)
{
	struct d_type *t = n->dn_ctype;
	if ((t->dt_kind != DK_STRUCT && t->dt_kind != DK_UNION) || !t->dt_complete)
		d_error(dh, D_OFFSETOF_TYPE, n->dn_line, "offsetof operand must be a struct or union type");
	struct d_member *m = d_type_member(t, n->dn_name);
	if (!m)
		d_error(dh, D_TYPE_MEMBER, n->dn_line, "%s is not a member of %s", n->dn_name, tname(dh, t));
	if (m->dm_bits)
		d_error(dh, D_OFFSETOF_BITFIELD, n->dn_line, "cannot take offset of a bit-field: %s", n->dn_name);
	return mkint(dh, n, m->dm_off, d_type_lookup(dh, "size_t"));
}

static struct d_node *
cook_stringof(struct d_hdl *dh, struct d_node *n)
{
	struct d_node *l = n->dn_l = cook(dh, n->dn_l);
	default_type(dh, l);
	if (!d_type_is_scalar(l->dn_type) && !d_type_is_string(l->dn_type))
		d_error(dh, D_STRINGOF_TYPE, n->dn_line, "stringof operand must be of scalar or string type");
	n->dn_type = dh->dh_t_string;
	n->dn_dynamic = 1;
	if (d_type_is_string(l->dn_type))
		return l;
	return n;
}

/* ---- dispatch --------------------------------------------------------------- */

struct d_node *
cook(struct d_hdl *dh, struct d_node *n)
{
	if (n->dn_type && n->dn_kind != DN_VAR && n->dn_kind != DN_IDENT && n->dn_kind != DN_INDEX)
		return n;	/* constants and already-cooked subtrees */
	switch (n->dn_kind) {
	case DN_INT:
		return n;
	case DN_STR:
		n->dn_type = dh->dh_t_string;
		n->dn_dynamic = 1;
		return n;
	case DN_IDENT:
		return cook_ident(dh, n, false);
	case DN_VAR:
		if (n->dn_var) {	/* resolved already (tuple references) */
			n->dn_type = n->dn_var->dv_type;
			return n;
		}
		return cook_dvar(dh, n);
	case DN_BUILTIN:
	case DN_ARGS:
		return n;
	case DN_INDEX:
		if (n->dn_type)
			return n;
		return cook_index(dh, n);
	case DN_AGG:
		return cook_aggref(dh, n);
	case DN_OP1:
		return cook_op1(dh, n);
	case DN_POST:
		n->dn_op = n->dn_op;
		{
			struct d_node *l = n->dn_l->dn_kind == DN_IDENT ? cook_ident(dh, n->dn_l, true) : cook(dh, n->dn_l);
			n->dn_l = l;
			default_type_int(dh, l, dh->dh_t_long);
			need_lvalue(dh, l, opname(n->dn_op));
			if (!d_type_is_int(l->dn_type) && l->dn_type->dt_kind != DK_PTR)
				d_error(dh, D_OP_SCALAR, n->dn_line, "operator %s requires operand of scalar type", opname(n->dn_op));
			n->dn_type = l->dn_type;
		}
		return n;
	case DN_OP2:
		return cook_op2(dh, n);
	case DN_OP3:
		return cook_op3(dh, n);
	case DN_ASSIGN:
		return cook_assign(dh, n);
	case DN_CALL:
		return cook_call(dh, n);
	case DN_MEMBER:
		return cook_member(dh, n);
	case DN_CAST:
		return cook_cast(dh, n);
	case DN_SIZEOF:
		return cook_sizeof(dh, n);
	case DN_OFFSETOF:
		return cook_offsetof(dh, n);
	case DN_STRINGOF:
		return cook_stringof(dh, n);
	case DN_XLATE:
		d_error(dh, D_XLATE_SOU, n->dn_line, "xlate result must be used with . or ->");
	case DN_SYM:
		d_error(dh, D_SYM_NOTYPES, n->dn_line, "failed to resolve `%s: kernel symbols are not available in user space", n->dn_name);
	case DN_COMMA:
		n->dn_l = cook(dh, n->dn_l);
		n->dn_r = cook(dh, n->dn_r);
		default_type(dh, n->dn_r);
		n->dn_type = n->dn_r->dn_type;
		n->dn_dynamic = n->dn_r->dn_dynamic;
		return n;
	default:
		d_error(dh, D_UNKNOWN, n->dn_line, "internal error: cannot cook node kind %d", n->dn_kind);
	}
}

struct d_node *
d_cook_expr(struct d_hdl *dh, struct d_node *n)
{
	n = cook(dh, n);
	default_type(dh, n);
	return n;
}

/* DTrace cooks a translator's member expressions where the translator is
 * defined, so a member of the wrong type is an error even if unused.  A
 * null input of the translator's input type stands in for the argument
 * (inputs passed by value are checked where they are used). */
void
d_cook_xlator_check(struct d_hdl *dh, struct d_xlator *xl)
{
	if (xl->xl_in->dt_kind != DK_PTR && !d_type_is_int(xl->xl_in))
		return;
	for (struct d_xlmemb *xm = xl->xl_members; xm; xm = xm->xm_next) {
		struct d_member *m = d_type_member(xl->xl_out, xm->xm_name);
		int line = xm->xm_expr->dn_line;
		struct d_node *z = d_node_new(dh, DN_INT, line);
		z->dn_type = dh->dh_t_int;
		z->dn_const = 1;
		struct d_node *ci = d_node_new(dh, DN_CAST, line);
		ci->dn_ctype = xl->xl_in;
		ci->dn_l = z;
		struct d_node *e = xl_subst(dh, d_node_clone(dh, xm->xm_expr), xl->xl_arg, ci);
		e->dn_next = NULL;
		e = cook(dh, e);
		default_type(dh, e);
		if (!m || (m->dm_type->dt_kind == DK_ARRAY && stringish(e->dn_type)))
			continue;
		if (!d_type_compat(m->dm_type, e->dn_type))
			d_error(dh, D_XLATE_INCOMPAT, line, "translator member %s definition uses incompatible types: \"%s\" = \"%s\"",
			    xm->xm_name, tname(dh, m->dm_type), tname(dh, e->dn_type));
	}
}

const struct d_sema d_cook_sema = {
	d_cook_expr, d_cook_decl_inline, d_cook_xlator_check,
};

void
d_cook_decl_inline(struct d_hdl *dh, struct d_var *v)
{
	if (v->dv_inline->dn_kind == DN_XLATE) {
		/* translated lazily, member by member, where it is used */
		v->dv_inline->dn_type = v->dv_inline->dn_ctype;
		return;
	}
	v->dv_defining = true;
	struct d_node *e = d_cook_expr(dh, v->dv_inline);
	v->dv_defining = false;
	if (e->dn_action)
		d_error(dh, D_OP_ACT, e->dn_line, "inline %s may not be an action", v->dv_name);
	struct d_type *t = v->dv_type;
	if (d_type_is_int(t) && !d_type_is_int(e->dn_type) && e->dn_type->dt_kind != DK_PTR)
		d_error(dh, D_OP_INCOMPAT, e->dn_line, "inline %s definition uses incompatible types: \"%s\" = \"%s\"",
		    v->dv_name, tname(dh, t), tname(dh, e->dn_type));
	if (d_type_is_string(t) && !d_type_is_string(e->dn_type))
		d_error(dh, D_OP_INCOMPAT, e->dn_line, "inline %s definition uses incompatible types: \"%s\" = \"%s\"",
		    v->dv_name, tname(dh, t), tname(dh, e->dn_type));
	if (e->dn_kind == DN_INT && d_type_is_int(t)) {
		e->dn_ival = d_canon(e->dn_ival, t);
		e->dn_type = t;
	} else if (d_type_is_int(t) && e->dn_type != t) {
		struct d_node *c = d_node_new(dh, DN_CAST, e->dn_line);
		c->dn_ctype = t;
		c->dn_type = t;
		c->dn_l = e;
		e = c;
	}
	v->dv_inline = e;
}

/* ---- statements ------------------------------------------------------------- */

static void cook_stmts(struct d_hdl *dh, struct d_node **list);

static struct d_node *
cook_stmt(struct d_hdl *dh, struct d_node *s)
{
	switch (s->dn_kind) {
	case DN_EXPR:
		if (s->dn_l->dn_kind == DN_AGG && s->dn_l->dn_args)
			d_error(dh, D_AGG_NULL, s->dn_line, "expression has null effect: @%s", s->dn_l->dn_name);
		s->dn_l = cook(dh, s->dn_l);
		if (s->dn_l->dn_kind == DN_AGG)
			d_error(dh, D_AGG_NULL, s->dn_line, "expression has null effect: @%s", s->dn_l->dn_name);
		if (s->dn_l->dn_kind == DN_VAR || s->dn_l->dn_kind == DN_IDENT)
			default_type(dh, s->dn_l);
		break;
	case DN_IF: {
		struct d_node *x = s->dn_x = d_cook_expr(dh, s->dn_x);
		if (!d_type_is_scalar(x->dn_type) && !d_type_is_string(x->dn_type))
			d_error(dh, D_OP_SCALAR, s->dn_line, "if statement requires a scalar expression");
		if (s->dn_l)
			s->dn_l = cook_stmt(dh, s->dn_l);
		if (s->dn_r)
			s->dn_r = cook_stmt(dh, s->dn_r);
		break;
	}
	case DN_BLOCK:
		cook_stmts(dh, &s->dn_l);
		break;
	default:
		break;
	}
	return s;
}

/* An action inside an expression (not at statement top) is an error. */
static void
check_actions(struct d_hdl *dh, struct d_node *n, bool top)
{
	if (!n)
		return;
	if (n->dn_action == 1 && !top)
		d_error(dh, D_CG_EXPR, n->dn_line, "%s( ) may not be called from a D expression (D program context required)", n->dn_name);
	check_actions(dh, n->dn_l, false);
	check_actions(dh, n->dn_r, false);
	check_actions(dh, n->dn_x, false);
	for (struct d_node *a = n->dn_args; a; a = a->dn_next)
		check_actions(dh, a, false);
}

static void
cook_stmts(struct d_hdl *dh, struct d_node **list)
{
	for (struct d_node *s = *list; s; s = s->dn_next) {
		cook_stmt(dh, s);
		if (s->dn_kind == DN_EXPR) {
			struct d_node *e = s->dn_l;
			check_actions(dh, e, true);
		}
	}
}

void
d_cook_clause(struct d_hdl *dh, struct d_pclause *pc, struct d_probe **probes, int nprobes)
{
	dh->dh_cc_probes = probes;
	dh->dh_cc_nprobes = nprobes;
	if (pc->pc_pred) {
		pc->pc_pred = d_cook_expr(dh, pc->pc_pred);
		check_actions(dh, pc->pc_pred, false);
		struct d_type *t = pc->pc_pred->dn_type;
		if (!d_type_is_scalar(t) && !d_type_is_string(t))
			d_error(dh, D_PRED_SCALAR, pc->pc_pred->dn_line, "predicate result must be of scalar type");
	}
	cook_stmts(dh, &pc->pc_body);
	dh->dh_cc_probes = NULL;
	dh->dh_cc_nprobes = 0;
}

/* Probe argument type names → D types (called at match time). */
struct d_type *d_cook_argtype(struct d_hdl *dh, const char *name);
struct d_type *
d_cook_argtype(struct d_hdl *dh, const char *name)
{
	return d_type_from_name(dh, name);
}
