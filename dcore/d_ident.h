/*
 * d_ident.h — identifiers and scopes (d_ident.c), for the parser and the
 * type checker: which names are builtin variables and functions, and the
 * program's variables and aggregations, created on first declaration or
 * use and found by name.  Everything returned lives in the handle's arena.
 */
#ifndef PMCTRACE_D_IDENT_H
#define PMCTRACE_D_IDENT_H

#include "dcore/d_impl.h"

/* A builtin variable: name, enum d_bvar id, D type name. */
struct d_bvdef {
	const char *name;
	int id;
	const char *type;
};
extern const struct d_bvdef d_bvars[];	/* ends with a NULL name */
/* Index into d_bvars, or -1. */
int d_bvar_lookup(const char *name);

/* A function: subroutine, action or aggregating function. */
enum { FK_SUBR, FK_ACT, FK_AGG };
struct d_fdef {
	const char *name;
	int id;
	int kind;
	int minargs, maxargs;
	const char *rtype;	/* subroutine result ("string"...), NULL void */
};
const struct d_fdef *d_fdef(const char *name);	/* NULL if not a function */
int d_func_lookup(const char *name);
const char *d_func_name(int f);

/* Variables (enum d_vkindx; kind 0 looks up any program-scope name). */
struct d_var *d_var_lookup(struct d_hdl *dh, int kind, const char *name);
struct d_var *d_var_create(struct d_hdl *dh, int kind, const char *name);
/* Give a typed global or clause-local its storage (8-byte aligned). */
void d_var_place(struct d_hdl *dh, struct d_var *v);
struct d_agginfo *d_agg_lookup(struct d_hdl *dh, const char *name, bool create);

#endif
