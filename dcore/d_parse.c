/*
 * d_parse.c — the D parser: tokens → AST and declarations.
 *
 * Recursive descent, one function per grammar rule with the rule above
 * it (the grammar is dt_grammar.y's, written as EBNF).  The parser builds
 * nodes only; types of declarations are built here because C's declarator
 * syntax is grammar, but expressions are typed later by d_cook.c.  The
 * lexer context is switched here: OUTER between clauses, PRED inside
 * "/.../", BODY inside "{...}" and declarations.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dcore/d_impl.h"
#include "dcore/d_ident.h"

#define TOK(lx)		((lx)->lx_tok.t_tok)
#define LINE(lx)	((lx)->lx_tok.t_line)

_Noreturn static void
d_syntax(struct d_lex *lx)
{
	char near[128];
	const char *t = d_lex_neartext(lx, near, sizeof(near));
	if (!t)
		d_error_at(lx, D_SYNTAX, "syntax error near end of input");
	d_error_at(lx, D_SYNTAX, "syntax error near \"%s\"", t);
}

static bool
testnext(struct d_lex *lx, int tok)
{
	if (TOK(lx) != tok)
		return false;
	d_lex_next(lx);
	return true;
}

static void
checknext(struct d_lex *lx, int tok)
{
	if (TOK(lx) != tok)
		d_syntax(lx);
	d_lex_next(lx);
}

static const char *
check_ident(struct d_lex *lx)
{
	if (TOK(lx) != T_IDENT)
		d_syntax(lx);
	const char *s = lx->lx_tok.t_sval;
	d_lex_next(lx);
	return s;
}

static struct d_node *expr(struct d_lex *lx);
static struct d_node *assign_expr(struct d_lex *lx);
static struct d_node *cast_expr(struct d_lex *lx);
static struct d_type *type_name(struct d_lex *lx);
static struct d_node *statement(struct d_lex *lx);

/* Every recursion of the parser counts against D_MAXDEPTH, so that no
 * input can overflow the stack (20,000 nested declarators, 40,000 nested
 * struct definitions, 300,000 chained casts or assignments). */
static void
deeper(struct d_lex *lx, const char *what)
{
	if (++lx->lx_depth > D_MAXDEPTH)
		d_error_at(lx, D_SYNTAX, "%s too deeply nested", what);
}

/* ---- declarations --------------------------------------------------------- */

static bool
is_type_tok(struct d_lex *lx, const struct d_token *t)
{
	switch (t->t_tok) {
	case T_VOID: case T_CHARK: case T_SHORT: case T_INT_K: case T_LONG:
	case T_FLOAT: case T_DOUBLE: case T_SIGNED: case T_UNSIGNED:
	case T_STRING_K: case T_STRUCT: case T_UNION: case T_ENUM:
	case T_CONST: case T_VOLATILE: case T_RESTRICT: case T_TYPENAME:
	case '`':
		return true;
	case T_IDENT:
		return t->t_sval && d_type_lookup(lx->lx_dh, t->t_sval) != NULL;
	default:
		return false;
	}
}

/* Does the current token (or the one after it) start a type name? */
#define is_type_start(lx, tok_unused)	is_type_tok((lx), &(lx)->lx_tok)
static bool
is_type_ahead(struct d_lex *lx)
{
	d_lex_peek(lx);
	return is_type_tok(lx, &lx->lx_ahead);
}

static int64_t
const_int(struct d_lex *lx, int tag, const char *what)
{
	int line = LINE(lx);
	struct d_node *n = lx->lx_dh->dh_sema->sm_const_expr(lx->lx_dh, assign_expr(lx));
	if (n->dn_kind != DN_INT)
		d_error(lx->lx_dh, tag, line, "%s", what);
	return (int64_t)n->dn_ival;
}

static struct d_type *decl_specifiers(struct d_lex *lx, int *sclass);
static struct d_type *declarator(struct d_lex *lx, struct d_type *base, const char **name,
    struct d_type **keys, int *nkeys, bool abstract);

/* member_decl := specifiers declarator [':' const] {',' ...} ';' */
static void
sou_members(struct d_lex *lx, struct d_type *t)
{
	struct d_member **tail = &t->dt_members;
	deeper(lx, "struct or union definition is");
	while (TOK(lx) != '}') {
		int sc = 0;
		struct d_type *base = decl_specifiers(lx, &sc);
		if (TOK(lx) == ';' && (base->dt_kind == DK_STRUCT || base->dt_kind == DK_UNION)) {
			struct d_member *m = d_alloc(lx->lx_dh, sizeof(*m));	/* anonymous */
			m->dm_type = base;
			*tail = m;
			tail = &m->dm_next;
		}
		while (TOK(lx) != ';') {
			const char *name = NULL;
			int line = LINE(lx);
			struct d_type *mt = TOK(lx) == ':' ? base : declarator(lx, base, &name, NULL, NULL, false);
			struct d_member *m = d_alloc(lx->lx_dh, sizeof(*m));
			m->dm_name = name;
			m->dm_type = mt;
			if (testnext(lx, ':')) {
				int64_t w = const_int(lx, D_DECL_BFCONST, "positive integral constant expression expected as bit-field size");
				if (!d_type_is_int(mt))
					d_error(lx->lx_dh, D_DECL_BFTYPE, line, "invalid type for bit-field: %s", name ? name : "");
				if (w <= 0)
					d_error(lx->lx_dh, D_DECL_BFCONST, line, "positive integral constant expression expected as bit-field size");
				if ((uint64_t)w > mt->dt_size * 8)
					d_error(lx->lx_dh, D_DECL_BFSIZE, line, "bit-field too big for type: %s", name ? name : "");
				m->dm_bits = (uint8_t)w;
			} else if (!name) {
				d_error(lx->lx_dh, D_DECL_MNAME, line, "member declaration requires a name");
			} else if (!mt->dt_complete && mt->dt_kind != DK_PTR) {
				char tb[256];
				d_error(lx->lx_dh, D_DECL_INCOMPLETE, line, "incomplete struct/union/enum %s: %s",
				    d_type_name(lx->lx_dh, mt, tb, sizeof(tb)), name);
			}
			if (name) {
				for (struct d_member *o = t->dt_members; o; o = o->dm_next)
					if (o->dm_name && strcmp(o->dm_name, name) == 0)
						d_error(lx->lx_dh, D_DECL_IDRED, line, "identifier redeclared: %s", name);
			}
			*tail = m;
			tail = &m->dm_next;
			if (!testnext(lx, ','))
				break;
		}
		checknext(lx, ';');
	}
	lx->lx_depth--;
	d_type_layout(t);
}

static bool
same_members(const struct d_type *a, const struct d_type *b)
{
	const struct d_member *x = a->dt_members, *y = b->dt_members;
	for (; x && y; x = x->dm_next, y = y->dm_next) {
		if ((x->dm_name == NULL) != (y->dm_name == NULL) ||
		    (x->dm_name && strcmp(x->dm_name, y->dm_name) != 0) ||
		    x->dm_off != y->dm_off || x->dm_bits != y->dm_bits ||
		    x->dm_type->dt_size != y->dm_type->dt_size ||
		    !d_type_compat(x->dm_type, y->dm_type))
			return false;
	}
	return !x && !y && a->dt_size == b->dt_size;
}

/* Skip "mod`" of a scoped name and return the name itself. */
static const char *
scoped_name(struct d_lex *lx)
{
	if (testnext(lx, '`'))
		return check_ident(lx);
	const char *n = check_ident(lx);
	if (testnext(lx, '`'))
		n = check_ident(lx);
	return n;
}

/* Signedness and length words given to a struct, union or enum: DTrace
 * rejects them once it sees the tag, on the line of the token after it. */
#define ATTR_SIGN	1
#define ATTR_LONG	2
static void
named_attr_check(struct d_lex *lx, int attrs)
{
	if (attrs & ATTR_SIGN)
		d_error(lx->lx_dh, D_DECL_SIGNINT, LINE(lx), "invalid type declaration: signed and unsigned may only be used with integer type");
	if (attrs & ATTR_LONG)
		d_error(lx->lx_dh, D_DECL_LONGINT, LINE(lx), "invalid type declaration: long and long long may only be used with integer or floating-point type");
}

/* sou_spec := (struct|union) [name] ['{' member_decl* '}'] */
static struct d_type *
sou_spec(struct d_lex *lx, int kind, int attrs)
{
	const char *tag = NULL;
	int line = LINE(lx);
	if (TOK(lx) == T_IDENT || TOK(lx) == '`' || TOK(lx) == T_TYPENAME) {
		if (TOK(lx) == T_TYPENAME) {
			tag = lx->lx_tok.t_sval;
			d_lex_next(lx);
		} else {
			tag = scoped_name(lx);
		}
	}
	named_attr_check(lx, attrs);
	if (TOK(lx) != '{') {
		if (!tag)
			d_syntax(lx);
		return d_type_tag(lx->lx_dh, kind, tag, true);
	}
	struct d_type *t = d_type_tag(lx->lx_dh, kind, tag, true);
	d_lex_next(lx);
	if (t->dt_complete) {
		/* a repeated identical definition (shared provider headers) is
		 * harmless; a different one is an error */
		struct d_type *again = d_type_tag(lx->lx_dh, kind, NULL, true);
		sou_members(lx, again);
		checknext(lx, '}');
		if (!same_members(t, again))
			d_error(lx->lx_dh, D_DECL_TYPERED, line, "type redeclared: %s", t->dt_name);
		return t;
	}
	sou_members(lx, t);
	checknext(lx, '}');
	return t;
}

/* enum_spec := enum [name] ['{' name ['=' const] {',' ...} [','] '}'] */
static struct d_type *
enum_spec(struct d_lex *lx, int attrs)
{
	struct d_hdl *dh = lx->lx_dh;
	const char *tag = NULL;
	if (TOK(lx) == T_IDENT)
		tag = check_ident(lx);
	named_attr_check(lx, attrs);
	if (TOK(lx) != '{') {
		if (!tag)
			d_syntax(lx);
		return d_type_tag(dh, DK_ENUM, tag, true);
	}
	struct d_type *t = d_type_tag(dh, DK_ENUM, tag, true);
	if (t->dt_complete && tag)
		d_error(dh, D_DECL_TYPERED, LINE(lx), "type redeclared: %s", t->dt_name);
	d_lex_next(lx);
	int64_t next = 0;
	struct d_enumval **tail = &t->dt_enums;
	while (TOK(lx) != '}') {
		int line = LINE(lx);
		const char *name = check_ident(lx);
		if (testnext(lx, '='))
			next = const_int(lx, D_DECL_ENCONST, "enumerator value must be a constant integer expression");
		if (next > INT32_MAX || next < INT32_MIN)
			d_error(dh, D_DECL_ENOFLOW, line, "enumerator '%s' value overflows INT_MAX (%d)", name, INT32_MAX);
		if (d_var_lookup(dh, 0, name))
			d_error(dh, D_DECL_IDRED, line, "identifier redeclared: %s", name);
		struct d_enumval *ev = d_alloc(dh, sizeof(*ev));
		ev->de_name = name;
		ev->de_value = next;
		*tail = ev;
		tail = &ev->de_next;
		struct d_var *v = d_var_create(dh, DV_ENUM, name);
		v->dv_type = t;
		v->dv_ival = next;
		next++;
		if (!testnext(lx, ','))
			break;
	}
	checknext(lx, '}');
	t->dt_complete = 1;
	t->dt_size = 4;
	t->dt_align = 4;
	return t;
}

/* Combine C's basic type words into one type. */
static struct d_type *
basic_type(struct d_lex *lx, int nsigned, int nunsigned, int nshort, int nlong,
    int base, int line)
{
	struct d_hdl *dh = lx->lx_dh;
	/* dt_decl_check's order and words */
	if (base == T_CHARK && (nshort || nlong))
		d_error(dh, D_DECL_CHARATTR, line, "invalid type declaration: short and long may not be used with char type");
	if (base == T_VOID && (nshort || nlong || nsigned || nunsigned))
		d_error(dh, D_DECL_VOIDATTR, line, "invalid type declaration: attributes may not be used with void type");
	if ((nsigned || nunsigned) && base && base != T_INT_K && base != T_CHARK)
		d_error(dh, D_DECL_SIGNINT, line, "invalid type declaration: signed and unsigned may only be used with integer type");
	if (nlong && base && base != T_INT_K && base != T_DOUBLE && base != T_FLOAT)
		d_error(dh, D_DECL_LONGINT, line, "invalid type declaration: long and long long may only be used with integer or floating-point type");
	if (nshort && nlong)
		d_error(dh, D_DECL_COMBO, line, "invalid type combination");
	if (nsigned && nunsigned)
		d_error(dh, D_DECL_COMBO, line, "invalid type combination");
	bool uns = nunsigned > 0;
	switch (base) {
	case T_VOID: return dh->dh_t_void;
	case T_STRING_K: return dh->dh_t_string;
	case T_FLOAT: return d_type_lookup(dh, "float");
	case T_DOUBLE: return d_type_lookup(dh, nlong ? "long double" : "double");
	case T_CHARK: return d_type_lookup(dh, uns ? "unsigned char" : nsigned ? "signed char" : "char");
	default: break;
	}
	if (nshort)
		return uns ? dh->dh_t_ushort : dh->dh_t_short;
	if (nlong >= 2)
		return uns ? dh->dh_t_ullong : dh->dh_t_llong;
	if (nlong == 1)
		return uns ? dh->dh_t_ulong : dh->dh_t_long;
	return uns ? dh->dh_t_uint : dh->dh_t_int;
}

/* Storage classes we report through *sclass. */
#define SC_TYPEDEF	1
#define SC_EXTERN	2
#define SC_STATIC	3
#define SC_SELF		4
#define SC_THIS		5
#define SC_INLINE	6

/* A storage class (typedef, extern, static, self, this; register and auto
 * are refused), at most one, where the caller allows one. */
static void
storage_class(struct d_lex *lx, int *sclass, int t, int line)
{
	int sc = t == T_TYPEDEF ? SC_TYPEDEF : t == T_EXTERN ? SC_EXTERN :
	    t == T_SELF ? SC_SELF : t == T_THIS ? SC_THIS : SC_STATIC;
	if (!sclass)
		d_syntax(lx);
	if (*sclass)
		d_error(lx->lx_dh, D_DECL_CLASS, line, "more than one storage class specified");
	if (t == T_REGISTER || t == T_AUTO)
		d_error(lx->lx_dh, D_DECL_BADCLASS, line, "specified storage class not appropriate in D");
	*sclass = sc;
	d_lex_next(lx);
}

/* A typedef name ("uint64_t", "`vmlinux`task_struct"), or NULL when the
 * identifier names no type (it is then the declarator's). */
static struct d_type *
named_type(struct d_lex *lx, int t, int line)
{
	const char *n = lx->lx_tok.t_sval;
	struct d_type *ty = n ? d_type_lookup(lx->lx_dh, n) : NULL;
	if (!ty) {
		if (t == '`' || (t == T_IDENT && d_lex_peek(lx) == '`')) {
			if (t == T_IDENT) {
				d_lex_next(lx);
				d_lex_next(lx);
				n = lx->lx_tok.t_sval;
				ty = n ? d_type_lookup(lx->lx_dh, n) : NULL;
			}
			if (!ty)
				d_error(lx->lx_dh, D_TYPE_ERR, line, "failed to resolve type %s: Unknown type name", n ? n : "`");
		} else {
			return NULL;
		}
	}
	return ty;
}

/* decl_specifiers := { storage_class | type_qualifier | type_specifier } */
static struct d_type *
decl_specifiers(struct d_lex *lx, int *sclass)
{
	int nsigned = 0, nunsigned = 0, nshort = 0, nlong = 0, base = 0;
	struct d_type *named = NULL;
	int line = LINE(lx);
	for (;;) {
		int t = TOK(lx);
		switch (t) {
		case T_TYPEDEF: case T_EXTERN: case T_STATIC: case T_SELF: case T_THIS:
		case T_REGISTER: case T_AUTO:
			storage_class(lx, sclass, t, line);
			continue;
		case T_CONST: case T_VOLATILE: case T_RESTRICT: case T_USERLAND:
			d_lex_next(lx);
			continue;
		case T_SIGNED: nsigned++; d_lex_next(lx); continue;
		case T_UNSIGNED: nunsigned++; d_lex_next(lx); continue;
		case T_SHORT: nshort++; d_lex_next(lx); continue;
		case T_LONG: nlong++; d_lex_next(lx); continue;
		case T_VOID: case T_CHARK: case T_INT_K: case T_FLOAT: case T_DOUBLE:
		case T_STRING_K:
			if (base || named)
				d_error(lx->lx_dh, D_DECL_COMBO, line, "invalid type combination");
			base = t;
			d_lex_next(lx);
			continue;
		case T_STRUCT: case T_UNION:
			if (base || named)
				d_error(lx->lx_dh, D_DECL_COMBO, line, "invalid type combination");
			d_lex_next(lx);
			named = sou_spec(lx, t == T_STRUCT ? DK_STRUCT : DK_UNION,
			    (nsigned || nunsigned ? ATTR_SIGN : 0) |
			    (nlong ? ATTR_LONG : 0));
			continue;
		case T_ENUM:
			if (base || named)
				d_error(lx->lx_dh, D_DECL_COMBO, line, "invalid type combination");
			d_lex_next(lx);
			named = enum_spec(lx, (nsigned || nunsigned ? ATTR_SIGN : 0) |
			    (nlong ? ATTR_LONG : 0));
			continue;
		case '`':
			d_lex_next(lx);
			/* FALLTHROUGH */
		case T_IDENT: case T_TYPENAME: {
			if (base || named || nsigned || nunsigned || nshort || nlong)
				break;
			struct d_type *ty = named_type(lx, t, line);
			if (!ty)
				break;
			named = ty;
			d_lex_next(lx);
			continue;
		}
		default:
			break;
		}
		break;
	}
	if (named)
		return named;
	/* as in C, a storage class alone declares an int: "self x;" */
	if (!base && !nsigned && !nunsigned && !nshort && !nlong &&
	    !(sclass && *sclass))
		d_syntax(lx);
	return basic_type(lx, nsigned, nunsigned, nshort, nlong, base, line);
}

/* Declarator operations, applied to the base type in order. */
struct d_dop {
	char op;		/* 'P'ointer, 'A'rray, 'F'unction */
	uint32_t n;
};
#define D_MAXDOPS 32

static void dd_parse(struct d_lex *lx, struct d_dop *ops, int *nops, const char **name,
    struct d_type **keys, int *nkeys, bool abstract);

static void
dd_push(struct d_lex *lx, struct d_dop *ops, int *nops, char op, uint32_t n)
{
	if (*nops >= D_MAXDOPS)
		d_error(lx->lx_dh, D_DECL_IDENT, LINE(lx), "declarator is too complex");
	ops[*nops].op = op;
	ops[*nops].n = n;
	(*nops)++;
}

/* array_suffix := '[' [const | type {',' type}] ']' ; params := '(' ... ')' */
static void
dd_suffixes(struct d_lex *lx, struct d_dop *suf, int *nsuf, struct d_type **keys, int *nkeys,
    const char *name)
{
	for (;;) {
		if (TOK(lx) == '[') {
			int line = LINE(lx);
			d_lex_next(lx);
			if (is_type_start(lx, TOK(lx))) {
				if (!keys)
					d_error(lx->lx_dh, D_DECL_ARRSUB, line, "associative array declaration not permitted here");
				*nkeys = 0;
				do {
					if (*nkeys >= D_MAX_KEYS)
						d_error(lx->lx_dh, D_DECL_ARRBIG, line, "too many keys");
					keys[(*nkeys)++] = type_name(lx);
				} while (testnext(lx, ','));
				checknext(lx, ']');
				continue;
			}
			if (TOK(lx) == ']') {
				d_error(lx->lx_dh, D_DECL_ARRNULL, line, "array declaration requires array dimension or tuple signature: %s",
				    name ? name : "");
			}
			int64_t n = const_int(lx, D_DECL_ARRSUB, "positive integral constant expression or tuple signature expected as array declaration subscript");
			if (n <= 0)
				d_error(lx->lx_dh, D_DECL_ARRSUB, line, "positive integral constant expression or tuple signature expected as array declaration subscript");
			if (n > (1 << 24))
				d_error(lx->lx_dh, D_DECL_ARRBIG, line, "array dimension too big");
			checknext(lx, ']');
			dd_push(lx, suf, nsuf, 'A', (uint32_t)n);
		} else if (TOK(lx) == '(') {
			/* a prototype: parameters are parsed and ignored */
			int argn = 0;
			d_lex_next(lx);
			while (TOK(lx) != ')') {
				if (TOK(lx) == T_ELLIPSIS) {
					d_lex_next(lx);
					continue;
				}
				struct d_type *pt = decl_specifiers(lx, NULL);
				struct d_type *pkeys[D_MAX_KEYS];
				const char *pn = NULL;
				int pnkeys = -1, pline = LINE(lx);
				argn++;
				if (TOK(lx) != ',' && TOK(lx) != ')')
					pt = declarator(lx, pt, &pn, pkeys, &pnkeys, true);
				if (pnkeys >= 0)
					d_error(lx->lx_dh, D_DECL_PROTO_TYPE, pline, "function prototype may not use parameter of type dynamic variable: %s, parameter #%d",
					    name ? name : "", argn);
				if (pt->dt_kind == DK_VOID && pn)
					d_error(lx->lx_dh, D_DECL_PROTO_NAME, pline, "void parameter may not have a name: %s", pn);
				if (!testnext(lx, ','))
					break;
			}
			checknext(lx, ')');
			dd_push(lx, suf, nsuf, 'F', 0);
		} else {
			return;
		}
	}
}

/* declarator := {'*' qualifiers} ( name | '(' declarator ')' ) suffixes */
static void
dd_parse(struct d_lex *lx, struct d_dop *ops, int *nops, const char **name,
    struct d_type **keys, int *nkeys, bool abstract)
{
	int nptr = 0;
	struct d_dop inner[D_MAXDOPS], suf[D_MAXDOPS];
	int ninner = 0, nsuf = 0;

	while (TOK(lx) == '*' || TOK(lx) == T_CONST || TOK(lx) == T_VOLATILE || TOK(lx) == T_RESTRICT) {
		if (TOK(lx) == '*')
			nptr++;
		d_lex_next(lx);
	}
	if (TOK(lx) == '(' && (d_lex_peek(lx) == '*' || d_lex_peek(lx) == '(' ||
	    (d_lex_peek(lx) == T_IDENT && !d_type_lookup(lx->lx_dh, lx->lx_ahead.t_sval)))) {
		d_lex_next(lx);
		/* as many parentheses as a declarator may have operators */
		if (++lx->lx_ddepth > D_MAXDOPS)
			d_error(lx->lx_dh, D_DECL_IDENT, LINE(lx), "declarator is too complex");
		dd_parse(lx, inner, &ninner, name, NULL, NULL, abstract);
		lx->lx_ddepth--;
		checknext(lx, ')');
	} else if (TOK(lx) == T_IDENT) {
		*name = lx->lx_tok.t_sval;
		d_lex_next(lx);
	} else if (TOK(lx) == '`') {
		d_error(lx->lx_dh, D_DECL_SCOPE, LINE(lx), "scoping operator used in declaration");
	} else if (!abstract) {
		d_syntax(lx);
	}
	dd_suffixes(lx, suf, &nsuf, keys, nkeys, *name);
	for (int i = 0; i < nptr; i++)
		dd_push(lx, ops, nops, 'P', 0);
	for (int i = nsuf - 1; i >= 0; i--)
		dd_push(lx, ops, nops, suf[i].op, suf[i].n);
	for (int i = 0; i < ninner; i++)
		dd_push(lx, ops, nops, inner[i].op, inner[i].n);
}

static struct d_type *
declarator(struct d_lex *lx, struct d_type *base, const char **name,
    struct d_type **keys, int *nkeys, bool abstract)
{
	struct d_dop ops[D_MAXDOPS];
	int nops = 0;
	dd_parse(lx, ops, &nops, name, keys, nkeys, abstract);
	for (int i = 0; i < nops; i++) {
		if (ops[i].op == 'P') {
			base = d_type_ptr(lx->lx_dh, base);
		} else if (ops[i].op == 'A') {
			base = d_type_array(lx->lx_dh, base, ops[i].n);
		} else {
			struct d_type *f = d_alloc(lx->lx_dh, sizeof(*f));
			f->dt_kind = DK_FUNC;
			f->dt_ref = base;
			f->dt_complete = 1;
			f->dt_align = 1;
			base = f;
		}
	}
	return base;
}

/* type_name := specifier_qualifier_list [abstract_declarator] */
static struct d_type *
type_name(struct d_lex *lx)
{
	struct d_type *base = decl_specifiers(lx, NULL);
	const char *name = NULL;
	struct d_type *t = declarator(lx, base, &name, NULL, NULL, true);
	if (name)
		d_syntax(lx);
	return t;
}

/* Define one declared name at program scope. */
static void
declare(struct d_lex *lx, int sclass, struct d_type *t, const char *name,
    struct d_type **keys, int nkeys, int line)
{
	struct d_hdl *dh = lx->lx_dh;
	char tn[128];

	if (sclass == SC_TYPEDEF) {
		struct d_var *gv = d_var_lookup(dh, 0, name);
		if (gv && (gv->dv_kind == DV_GLOBAL || gv->dv_kind == DV_ASSOC))
			d_error(dh, D_DECL_IDRED, line, "global variable identifier redeclared: %s", name);
		struct d_type *old = d_type_lookup(dh, name);
		if (old && old != t && !d_type_compat(old, t))
			d_error(dh, D_DECL_IDRED, line, "identifier redeclared: %s", name);
		if (t->dt_kind == DK_STRUCT || t->dt_kind == DK_UNION || t->dt_kind == DK_ENUM) {
			d_type_define(dh, name, t);
		} else {
			struct d_type *c = d_alloc(dh, sizeof(*c));
			*c = *t;
			c->dt_name = d_strdup(dh, name);
			d_type_define(dh, name, c);
		}
		return;
	}
	if (sclass == SC_EXTERN)
		return;		/* kernel symbols are not addressable from user space */
	if (t->dt_kind == DK_VOID)
		d_error(dh, D_DECL_VOIDOBJ, line, "cannot have void object: %s", name);
	if (t->dt_kind == DK_FUNC)
		return;		/* a function prototype declares nothing we use */
	if (sclass == SC_STATIC)
		d_error(dh, D_DECL_BADCLASS, line, "specified storage class not appropriate in D");
	if (d_bvar_lookup(name) >= 0 && sclass != SC_SELF && sclass != SC_THIS)
		d_error(dh, D_DECL_IDRED, line, "built-in identifier redeclared: %s", name);
	if (d_type_lookup(dh, name))
		d_error(dh, D_DECL_IDRED, line, "typedef identifier redeclared: %s", name);
	if (!t->dt_complete)
		d_error(dh, D_DECL_INCOMPLETE, line, "incomplete struct/union/enum %s: %s",
		    d_type_name(dh, t, tn, sizeof(tn)), name);
	int kind = sclass == SC_SELF ? DV_TLS : sclass == SC_THIS ? DV_LOCAL :
	    nkeys > 0 ? DV_ASSOC : DV_GLOBAL;
	if (kind == DV_LOCAL && nkeys > 0)
		d_error(dh, D_DECL_LOCASSC, line, "associative arrays may not be declared as local variables: %s", name);
	struct d_var *v = d_var_lookup(dh, kind, name);
	if (v && v->dv_type) {
		if (!d_type_compat(v->dv_type, t) || v->dv_type->dt_size != t->dt_size)
			d_error(dh, D_DECL_IDRED, line, "identifier redeclared: %s", name);
		if (kind == DV_ASSOC && v->dv_nkeys >= 0) {
			for (int i = 0; i < nkeys && i < v->dv_nkeys; i++)
				if (!d_type_compat(v->dv_keys[i], keys[i]))
					d_error(dh, D_DECL_IDRED, line, "identifier redeclared: %s", name);
			if (v->dv_nkeys != nkeys)
				d_error(dh, D_DECL_IDRED, line, "identifier redeclared: %s", name);
		}
		return;
	}
	if (!v && kind != DV_TLS && kind != DV_LOCAL) {
		struct d_var *o = d_var_lookup(dh, 0, name);
		if (o)
			d_error(dh, D_DECL_IDRED, line, "identifier redeclared: %s", name);
	}
	if (!v)
		v = d_var_create(dh, kind, name);
	v->dv_type = t;
	v->dv_declared = true;
	v->dv_nkeys = nkeys;
	for (int i = 0; i < nkeys; i++)
		v->dv_keys[i] = keys[i];
	d_var_place(dh, v);
}

/* declaration := decl_specifiers [init_declarator {',' init_declarator}] ';' */
static void
declaration(struct d_lex *lx)
{
	int sclass = 0;
	int line = LINE(lx);
	lx->lx_ctx = D_LX_BODY;
	struct d_type *base = decl_specifiers(lx, &sclass);
	if (TOK(lx) == ';') {
		if (!(base->dt_kind == DK_STRUCT || base->dt_kind == DK_UNION || base->dt_kind == DK_ENUM))
			d_error(lx->lx_dh, D_DECL_USELESS, line, "useless declaration");
	}
	while (TOK(lx) != ';') {
		const char *name = NULL;
		struct d_type *keys[D_MAX_KEYS];
		int nkeys = 0;
		line = LINE(lx);
		struct d_type *t = declarator(lx, base, &name, keys, &nkeys, false);
		if (TOK(lx) == '=')
			d_error(lx->lx_dh, D_DECL_IDENT, line, "initializers are not supported in D declarations");
		declare(lx, sclass, t, name, keys, nkeys, line);
		if (!testnext(lx, ','))
			break;
	}
	lx->lx_ctx = D_LX_OUTER;
	checknext(lx, ';');
}

/* inline_def := inline decl_specifiers declarator '=' expr ';' */
static void
inline_def(struct d_lex *lx)
{
	struct d_hdl *dh = lx->lx_dh;
	lx->lx_ctx = D_LX_BODY;
	d_lex_next(lx);
	int line = LINE(lx);
	struct d_type *base = decl_specifiers(lx, NULL);
	const char *name = NULL;
	struct d_type *keys[D_MAX_KEYS];
	int nkeys = 0;
	struct d_type *t = declarator(lx, base, &name, keys, &nkeys, false);
	checknext(lx, '=');
	struct d_node *e = assign_expr(lx);
	if (d_var_lookup(dh, 0, name))
		d_error(dh, D_DECL_IDRED, line, "identifier redeclared: %s", name);
	struct d_var *v = d_var_create(dh, DV_INLINE, name);
	v->dv_type = t;
	v->dv_inline = e;
	v->dv_declared = true;
	v->dv_nkeys = nkeys;
	e->dn_line = line;
	dh->dh_sema->sm_inline(dh, v);
	lx->lx_ctx = D_LX_OUTER;
	checknext(lx, ';');
}

/* translator_def := translator type '<' type ident '>' '{' {ident '=' expr ';'} '}' ';' */
static void
translator_def(struct d_lex *lx)
{
	struct d_hdl *dh = lx->lx_dh;
	lx->lx_ctx = D_LX_BODY;
	d_lex_next(lx);
	int line = LINE(lx);
	struct d_xlator *xl = d_alloc(dh, sizeof(*xl));
	xl->xl_out = type_name(lx);
	checknext(lx, '<');
	struct d_type *inb = decl_specifiers(lx, NULL);
	const char *arg = NULL;
	xl->xl_in = declarator(lx, inb, &arg, NULL, NULL, false);
	xl->xl_arg = arg;
	checknext(lx, '>');
	if (xl->xl_out->dt_kind != DK_STRUCT && xl->xl_out->dt_kind != DK_UNION)
		d_error(dh, D_XLATE_SOU, line, "translator output type must be a struct or union");
	for (struct d_xlator *o = dh->dh_xlators; o; o = o->xl_next)
		if (o->xl_out == xl->xl_out && d_type_compat(o->xl_in, xl->xl_in))
			d_error(dh, D_XLATE_REDECL, line, "translator from %s to %s has already been declared",
			    xl->xl_in->dt_name ? xl->xl_in->dt_name : "?", xl->xl_out->dt_name);
	checknext(lx, '{');
	struct d_xlmemb **tail = &xl->xl_members;
	while (TOK(lx) != '}') {
		int ml = LINE(lx);
		const char *mn = check_ident(lx);
		if (!d_type_member(xl->xl_out, mn))
			d_error(dh, D_XLATE_MEMB, ml, "translator member %s is not a member of %s", mn, xl->xl_out->dt_name);
		checknext(lx, '=');
		struct d_xlmemb *m = d_alloc(dh, sizeof(*m));
		m->xm_name = mn;
		m->xm_expr = assign_expr(lx);
		*tail = m;
		tail = &m->xm_next;
		checknext(lx, ';');
	}
	checknext(lx, '}');
	dh->dh_sema->sm_xlator(dh, xl);
	xl->xl_next = dh->dh_xlators;
	dh->dh_xlators = xl;
	lx->lx_ctx = D_LX_OUTER;
	checknext(lx, ';');
}

/* provider_def := provider name '{' {probe name '(' types ')' ';'} '}' ';'
 * (USDT declarations: accepted so that shared headers compile.) */
static void
provider_def(struct d_lex *lx)
{
	lx->lx_ctx = D_LX_BODY;
	d_lex_next(lx);
	check_ident(lx);
	checknext(lx, '{');
	int depth = 1;
	while (depth > 0) {
		if (TOK(lx) == T_EOF)
			d_syntax(lx);
		if (TOK(lx) == '{')
			depth++;
		else if (TOK(lx) == '}')
			depth--;
		if (depth > 0)
			d_lex_next(lx);
	}
	checknext(lx, '}');
	lx->lx_ctx = D_LX_OUTER;
	checknext(lx, ';');
}

/* ---- expressions ----------------------------------------------------------- */

/* Every tree walk in cook and compile recurses, so trees stay shallow. */
static void
check_depth(struct d_lex *lx, struct d_node *n, const struct d_node *a, const struct d_node *b)
{
	int d = 0;
	if (a && a->dn_depth > d)
		d = a->dn_depth;
	if (b && b->dn_depth > d)
		d = b->dn_depth;
	if (d + 1 > D_MAXDEPTH)
		d_error(lx->lx_dh, D_SYNTAX, n->dn_line, "expression is too deeply nested");
	n->dn_depth = (uint16_t)(d + 1);
}

static struct d_node *
mknode2(struct d_lex *lx, int kind, int op, struct d_node *l, struct d_node *r, int line)
{
	struct d_node *n = d_node_new(lx->lx_dh, kind, line);
	n->dn_op = (uint16_t)op;
	n->dn_l = l;
	n->dn_r = r;
	check_depth(lx, n, l, r);
	return n;
}

/* arglist := [assign_expr {',' assign_expr}] up to the closing token */
static struct d_node *
arglist(struct d_lex *lx, int close, int *nargs)
{
	struct d_node *head = NULL, **tail = &head;
	*nargs = 0;
	if (TOK(lx) != close) {
		do {
			*tail = assign_expr(lx);
			tail = &(*tail)->dn_next;
			(*nargs)++;
		} while (testnext(lx, ','));
	}
	checknext(lx, close);
	return head;
}

/* A node over an argument list is one deeper than its deepest argument. */
static void
args_depth(struct d_lex *lx, struct d_node *n)
{
	const struct d_node *deepest = NULL;
	for (const struct d_node *a = n->dn_args; a; a = a->dn_next)
		if (!deepest || a->dn_depth > deepest->dn_depth)
			deepest = a;
	check_depth(lx, n, n->dn_l, deepest);
}

/* An integer or character constant, typed as C types it. */
static struct d_node *
int_const(struct d_lex *lx, int line)
{
	struct d_hdl *dh = lx->lx_dh;
	struct d_node *n = d_node_new(dh, DN_INT, line);
	n->dn_ival = lx->lx_tok.t_ival;
	n->dn_const = 1;
	/* C's rule: the first of int, long (, unsigned) that holds it */
	if (TOK(lx) == T_CHAR) {
		n->dn_type = dh->dh_t_int;
	} else {
		struct d_type *const tys[6] = { dh->dh_t_int, dh->dh_t_uint, dh->dh_t_long,
		    dh->dh_t_ulong, dh->dh_t_llong, dh->dh_t_ullong };
		const uint64_t lim[6] = { INT32_MAX, UINT32_MAX, INT64_MAX, UINT64_MAX,
		    INT64_MAX, UINT64_MAX };
		uint64_t v = lx->lx_tok.t_neg ? -n->dn_ival : n->dn_ival;
		int i = lx->lx_tok.t_tyidx;
		while (i < 6 && v > lim[i])
			i += lx->lx_tok.t_tystep;
		if (i >= 6)
			d_error(dh, D_INT_OFLOW, line, "integer constant 0x%llx cannot be represented "
			    "in any built-in integral type", (unsigned long long)v);
		n->dn_type = tys[i];
	}
	d_lex_next(lx);
	return n;
}

/* primary := ident | constant | string | '(' expr ')' | @agg | self->id
 *          | this->id | offsetof '(' type ',' ident ')' | xlate '<' type '>' '(' expr ')'
 *          | '`' ident */
static struct d_node *
primary(struct d_lex *lx)
{
	struct d_hdl *dh = lx->lx_dh;
	int line = LINE(lx);
	struct d_node *n;
	switch (TOK(lx)) {
	case T_INT:
	case T_CHAR:
		return int_const(lx, line);
	case T_STRING:
		n = d_node_new(dh, DN_STR, line);
		n->dn_str = lx->lx_tok.t_sval;
		n->dn_slen = lx->lx_tok.t_slen;
		d_lex_next(lx);
		return n;
	case T_IDENT:
		n = d_node_new(dh, DN_IDENT, line);
		n->dn_name = lx->lx_tok.t_sval;
		d_lex_next(lx);
		return n;
	case '(':
		d_lex_next(lx);
		n = expr(lx);
		checknext(lx, ')');
		return n;
	case T_AGG:
		n = d_node_new(dh, DN_AGG, line);
		n->dn_name = lx->lx_tok.t_sval;
		d_lex_next(lx);
		if (testnext(lx, '['))
			n->dn_args = arglist(lx, ']', &n->dn_nargs);
		args_depth(lx, n);
		if (TOK(lx) == '[')
			d_error(dh, D_AGG_MDIM, line, "aggregations may not be multi-dimensional");
		return n;
	case T_SELF:
	case T_THIS: {
		int kind = TOK(lx) == T_SELF ? DV_TLS : DV_LOCAL;
		d_lex_next(lx);
		checknext(lx, T_ARROW);
		n = d_node_new(dh, DN_VAR, line);
		n->dn_op = (uint16_t)kind;
		n->dn_name = check_ident(lx);
		return n;
	}
	case T_OFFSETOF:
		d_lex_next(lx);
		checknext(lx, '(');
		n = d_node_new(dh, DN_OFFSETOF, line);
		n->dn_ctype = type_name(lx);
		checknext(lx, ',');
		n->dn_name = check_ident(lx);
		checknext(lx, ')');
		return n;
	case T_XLATE:
		d_lex_next(lx);
		checknext(lx, '<');
		n = d_node_new(dh, DN_XLATE, line);
		n->dn_ctype = type_name(lx);
		checknext(lx, '>');
		checknext(lx, '(');
		n->dn_l = expr(lx);
		checknext(lx, ')');
		return n;
	case '`':
		d_lex_next(lx);
		n = d_node_new(dh, DN_SYM, line);
		n->dn_name = check_ident(lx);
		return n;
	default:
		d_syntax(lx);
	}
}

/* postfix := primary {'[' args ']' | '(' args ')' | '.' id | '->' id | '++' | '--'} */
static struct d_node *
postfix(struct d_lex *lx)
{
	struct d_node *n = primary(lx);
	for (;;) {
		int line = LINE(lx);
		switch (TOK(lx)) {
		case '[': {
			d_lex_next(lx);
			struct d_node *ix = mknode2(lx, DN_INDEX, '[', n, NULL, line);
			ix->dn_args = arglist(lx, ']', &ix->dn_nargs);
			args_depth(lx, ix);
			n = ix;
			break;
		}
		case '(': {
			if (n->dn_kind != DN_IDENT)
				d_error(lx->lx_dh, D_FUNC_IDENT, line, "function designator is not of function type");
			d_lex_next(lx);
			struct d_node *c = d_node_new(lx->lx_dh, DN_CALL, n->dn_line);
			c->dn_name = n->dn_name;
			c->dn_args = arglist(lx, ')', &c->dn_nargs);
			args_depth(lx, c);
			n = c;
			break;
		}
		case '.':
		case T_ARROW: {
			int op = TOK(lx);
			d_lex_next(lx);
			struct d_node *m = mknode2(lx, DN_MEMBER, op, n, NULL, line);
			if (TOK(lx) == T_TYPENAME) {
				m->dn_name = lx->lx_tok.t_sval;
				d_lex_next(lx);
			} else {
				m->dn_name = check_ident(lx);
			}
			n = m;
			break;
		}
		case T_INC:
		case T_DEC:
			n = mknode2(lx, DN_POST, TOK(lx), n, NULL, line);
			d_lex_next(lx);
			break;
		default:
			return n;
		}
	}
}

/* unary := postfix | ('++'|'--') unary | ('&'|'*'|'+'|'-'|'~'|'!') cast
 *        | sizeof unary | sizeof '(' type ')' | stringof unary */
static struct d_node *unary1(struct d_lex *lx);

static struct d_node *
unary(struct d_lex *lx)
{
	if (++lx->lx_depth > D_MAXDEPTH)
		d_error_at(lx, D_SYNTAX, "expression is too deeply nested");
	struct d_node *n = unary1(lx);
	lx->lx_depth--;
	return n;
}

static struct d_node *
unary1(struct d_lex *lx)
{
	int line = LINE(lx);
	int tok = TOK(lx);
	struct d_node *n;
	switch (tok) {
	case T_INC: case T_DEC:
		d_lex_next(lx);
		return mknode2(lx, DN_OP1, tok, unary(lx), NULL, line);
	case '&': case '*': case '+': case '-': case '~': case '!':
		d_lex_next(lx);
		return mknode2(lx, DN_OP1, tok, cast_expr(lx), NULL, line);
	case T_SIZEOF:
		d_lex_next(lx);
		n = d_node_new(lx->lx_dh, DN_SIZEOF, line);
		if (TOK(lx) == '(' && is_type_ahead(lx)) {
			d_lex_next(lx);
			n->dn_ctype = type_name(lx);
			checknext(lx, ')');
		} else {
			n->dn_l = unary(lx);
			check_depth(lx, n, n->dn_l, NULL);
		}
		return n;
	case T_STRINGOF:
		d_lex_next(lx);
		n = d_node_new(lx->lx_dh, DN_STRINGOF, line);
		n->dn_l = unary(lx);
		check_depth(lx, n, n->dn_l, NULL);
		return n;
	default:
		return postfix(lx);
	}
}

/* cast := '(' type_name ')' cast | unary */
static struct d_node *
cast_expr(struct d_lex *lx)
{
	if (TOK(lx) == '(') {
		if (is_type_ahead(lx)) {
			int line = LINE(lx);
			d_lex_next(lx);
			struct d_node *n = d_node_new(lx->lx_dh, DN_CAST, line);
			n->dn_ctype = type_name(lx);
			checknext(lx, ')');
			deeper(lx, "expression is");
			n->dn_l = cast_expr(lx);
			lx->lx_depth--;
			check_depth(lx, n, n->dn_l, NULL);
			return n;
		}
	}
	return unary(lx);
}

/* Binary operator precedence, C's (higher binds tighter). */
static int
binprec(int tok)
{
	switch (tok) {
	case T_LOR: return 1;
	case T_LXOR: return 2;
	case T_LAND: return 3;
	case '|': return 4;
	case '^': return 5;
	case '&': return 6;
	case T_EQ: case T_NE: return 7;
	case '<': case '>': case T_LE: case T_GE: return 8;
	case T_SHL: case T_SHR: return 9;
	case '+': case '-': return 10;
	case '*': case '/': case '%': return 11;
	default: return 0;
	}
}

/* binary := cast {binop cast}, by precedence climbing */
static struct d_node *
binary(struct d_lex *lx, int minprec)
{
	struct d_node *l = cast_expr(lx);
	for (;;) {
		int op = TOK(lx);
		int p = binprec(op);
		if (p == 0 || p < minprec)
			return l;
		int line = LINE(lx);
		d_lex_next(lx);
		struct d_node *r = binary(lx, p + 1);
		l = mknode2(lx, DN_OP2, op, l, r, line);
	}
}

/* conditional := binary ['?' expr ':' conditional] */
static struct d_node *
cond_expr(struct d_lex *lx)
{
	struct d_node *c = binary(lx, 1);
	if (TOK(lx) != '?')
		return c;
	int line = LINE(lx);
	d_lex_next(lx);
	struct d_node *n = d_node_new(lx->lx_dh, DN_OP3, line);
	n->dn_x = c;
	deeper(lx, "expression is");
	n->dn_l = expr(lx);
	checknext(lx, ':');
	n->dn_r = cond_expr(lx);
	lx->lx_depth--;
	check_depth(lx, n, c, n->dn_l->dn_depth > n->dn_r->dn_depth ? n->dn_l : n->dn_r);
	return n;
}

static bool
is_assignop(int tok)
{
	switch (tok) {
	case '=': case T_ADDEQ: case T_SUBEQ: case T_MULEQ: case T_DIVEQ:
	case T_MODEQ: case T_ANDEQ: case T_OREQ: case T_XOREQ: case T_SHLEQ:
	case T_SHREQ:
		return true;
	default:
		return false;
	}
}

/* assign_expr := conditional [assignop assign_expr] */
static struct d_node *
assign_expr(struct d_lex *lx)
{
	struct d_node *l = cond_expr(lx);
	if (!is_assignop(TOK(lx)))
		return l;
	int op = TOK(lx), line = LINE(lx);
	d_lex_next(lx);
	deeper(lx, "expression is");
	struct d_node *r = assign_expr(lx);
	lx->lx_depth--;
	return mknode2(lx, DN_ASSIGN, op, l, r, line);
}

/* expr := assign_expr {',' assign_expr} */
static struct d_node *
expr(struct d_lex *lx)
{
	struct d_node *l = assign_expr(lx);
	while (TOK(lx) == ',') {
		int line = LINE(lx);
		d_lex_next(lx);
		l = mknode2(lx, DN_COMMA, ',', l, assign_expr(lx), line);
	}
	return l;
}

/* ---- statements and clauses ----------------------------------------------- */

/* stmt_list := {statement}, the last ';' before '}' optional */
static struct d_node *
stmt_list(struct d_lex *lx)
{
	struct d_node *head = NULL, **tail = &head;
	while (TOK(lx) != '}' && TOK(lx) != T_EOF) {
		struct d_node *s = statement(lx);
		if (s) {
			*tail = s;
			tail = &s->dn_next;
		}
	}
	return head;
}

/* statement := ';' | '{' stmt_list '}' | if '(' expr ')' statement [else statement]
 *            | expr (';' | before '}') */
static struct d_node *statement1(struct d_lex *lx);

static struct d_node *
statement(struct d_lex *lx)
{
	if (++lx->lx_depth > D_MAXDEPTH)
		d_error_at(lx, D_SYNTAX, "statements are too deeply nested");
	struct d_node *n = statement1(lx);
	lx->lx_depth--;
	return n;
}

static struct d_node *
statement1(struct d_lex *lx)
{
	int line = LINE(lx);
	struct d_node *n;
	switch (TOK(lx)) {
	case ';':
		d_lex_next(lx);
		return NULL;
	case '{':
		d_lex_next(lx);
		n = d_node_new(lx->lx_dh, DN_BLOCK, line);
		n->dn_l = stmt_list(lx);
		checknext(lx, '}');
		return n;
	case T_IF:
		d_lex_next(lx);
		checknext(lx, '(');
		n = d_node_new(lx->lx_dh, DN_IF, line);
		n->dn_x = expr(lx);
		checknext(lx, ')');
		n->dn_l = statement(lx);
		if (testnext(lx, T_ELSE))
			n->dn_r = statement(lx);
		return n;
	default:
		n = d_node_new(lx->lx_dh, DN_EXPR, line);
		n->dn_l = expr(lx);
		if (TOK(lx) != '}')
			checknext(lx, ';');
		return n;
	}
}

/* Split "prov:mod:func:name" (fields fill from the right). */
static void
split_pspec(struct d_hdl *dh, const char *s, struct d_probe_desc *pd, int line)
{
	const char *f[4] = { "", "", "", "" };
	const char *parts[8];
	int n = 0;
	const char *p = s;
	for (;;) {
		const char *c = strchr(p, ':');
		if (n >= 4)
			d_error(dh, D_PDESC_INVAL, line, "invalid probe description \"%s\": Overspecified probe description", s);
		parts[n++] = d_strndup(dh, p, c ? (size_t)(c - p) : strlen(p));
		if (!c)
			break;
		p = c + 1;
	}
	for (int i = 0; i < n; i++)
		f[4 - n + i] = parts[i];
	pd->dpd_prov = f[0];
	pd->dpd_mod = f[1];
	pd->dpd_func = f[2];
	pd->dpd_name = f[3];
}

/* probe_def := pspec {',' pspec} ['/' expr '/'] ['{' stmt_list '}'] */
static void
probe_def(struct d_lex *lx, struct d_program *pg,
    void (*clause)(void *arg, struct d_pclause *pc), void *arg)
{
	struct d_hdl *dh = lx->lx_dh;
	struct d_pclause *pc = d_alloc(dh, sizeof(*pc));
	pc->pc_line = LINE(lx);
	for (;;) {
		if (TOK(lx) != T_PSPEC)
			d_syntax(lx);
		if (pc->pc_ndescs >= D_MAX_DESCS)
			d_error(dh, D_PDESC_INVAL, LINE(lx), "too many probe descriptions in one clause");
		if (pc->pc_ndescs == pc->pc_descap) {
			/* sized to the clause: a script may have 100,000 clauses */
			int cap = pc->pc_descap ? pc->pc_descap * 2 : 1;
			struct d_desc **nd = d_alloc(dh, (size_t)cap * sizeof(*nd));
			struct d_probe_desc *np = d_alloc(dh, (size_t)cap * sizeof(*np));
			if (pc->pc_ndescs) {
				memcpy(nd, pc->pc_descs, (size_t)pc->pc_ndescs * sizeof(*nd));
				memcpy(np, pc->pc_pd, (size_t)pc->pc_ndescs * sizeof(*np));
			}
			pc->pc_descs = nd;
			pc->pc_pd = np;
			pc->pc_descap = cap;
		}
		struct d_desc *ds = d_alloc(dh, sizeof(*ds));
		ds->ds_text = lx->lx_tok.t_sval;
		split_pspec(dh, ds->ds_text, &pc->pc_pd[pc->pc_ndescs], LINE(lx));
		pc->pc_descs[pc->pc_ndescs++] = ds;
		d_lex_next(lx);
		if (TOK(lx) != ',')
			break;
		d_lex_next(lx);
	}
	if (TOK(lx) == '/') {
		lx->lx_ctx = D_LX_PRED;
		lx->lx_parens = 0;
		d_lex_next(lx);
		pc->pc_pred = expr(lx);
		if (TOK(lx) != T_EPRED)
			d_syntax(lx);
		lx->lx_ctx = D_LX_BODY;
		d_lex_next(lx);
		if (TOK(lx) != '{')
			d_syntax(lx);
	}
	if (TOK(lx) == '{') {
		lx->lx_ctx = D_LX_BODY;
		d_lex_next(lx);
		pc->pc_body = stmt_list(lx);
		pc->pc_hasbody = true;
		if (TOK(lx) != '}')
			d_syntax(lx);
		lx->lx_ctx = D_LX_OUTER;
		d_lex_next(lx);
	} else if (TOK(lx) != T_EOF && TOK(lx) != T_PSPEC && TOK(lx) != ';') {
		d_syntax(lx);
	}
	*pg->pg_tail = pc;
	pg->pg_tail = &pc->pc_next;
	if (clause)
		clause(arg, pc);
}

/* program := {declaration | inline_def | translator_def | provider_def
 *            | probe_def | ';'} */
void
d_parse_program(struct d_hdl *dh, struct d_lex *lx, struct d_program *pg,
    void (*clause)(void *arg, struct d_pclause *pc), void *arg)
{
	(void)dh;
	lx->lx_ctx = D_LX_OUTER;
	d_lex_next(lx);
	while (TOK(lx) != T_EOF) {
		switch (TOK(lx)) {
		case ';':
			d_lex_next(lx);
			break;
		case T_PSPEC:
			dh->dh_tmpnodes = clause != NULL;
			probe_def(lx, pg, clause, arg);
			dh->dh_tmpnodes = false;
			break;
		case T_INLINE:
			inline_def(lx);
			break;
		case T_TRANSLATOR:
			translator_def(lx);
			break;
		case T_PROVIDER:
			provider_def(lx);
			break;
		default:
			if (is_type_start(lx, TOK(lx)) || TOK(lx) == T_TYPEDEF || TOK(lx) == T_EXTERN ||
			    TOK(lx) == T_STATIC || TOK(lx) == T_SELF || TOK(lx) == T_THIS ||
			    TOK(lx) == T_REGISTER || TOK(lx) == T_AUTO)
				declaration(lx);
			else
				d_syntax(lx);
		}
	}
}
