/*
 * d_cook_impl.h — what the three files of the type checker share:
 * d_cook.c (identifiers, members, casts, the dispatch by node kind,
 * statements), d_cook_op.c (operators and assignment) and d_cook_call.c
 * (subroutines, actions, aggregations).  Private to them.  The three
 * recurse into each other through cook(), as the descent over the tree
 * does: operands of an operator or arguments of a call are cooked first.
 */
#ifndef PMCTRACE_D_COOK_IMPL_H
#define PMCTRACE_D_COOK_IMPL_H

#include "dcore/d_impl.h"

/* helpers and the dispatch (d_cook.c) */
const char *tname(struct d_hdl *dh, const struct d_type *t);
struct d_type *d_type_parse_simple(struct d_hdl *dh, const char *s);
struct d_node *mkint(struct d_hdl *dh, struct d_node *at, uint64_t v, struct d_type *t);
uint64_t d_canon(uint64_t v, const struct d_type *t);
struct d_type *promote(struct d_hdl *dh, struct d_type *t);
struct d_type *arith_result(struct d_hdl *dh, struct d_type *a, struct d_type *b);
bool stringish(const struct d_type *t);
void need_lvalue(struct d_hdl *dh, struct d_node *n, const char *op);
const char *opname(int op);
void default_type(struct d_hdl *dh, struct d_node *n);
void default_type_int(struct d_hdl *dh, struct d_node *n, struct d_type *t);
struct d_node *cook_ident(struct d_hdl *dh, struct d_node *n, bool create);
void cook_keys(struct d_hdl *dh, struct d_node *n);
struct d_node *cook(struct d_hdl *dh, struct d_node *n);

/* operators (d_cook_op.c) */
struct d_node *cook_op2(struct d_hdl *dh, struct d_node *n);
struct d_node *cook_op1(struct d_hdl *dh, struct d_node *n);
struct d_node *cook_assign(struct d_hdl *dh, struct d_node *n);
struct d_node *cook_op3(struct d_hdl *dh, struct d_node *n);

/* calls and aggregations (d_cook_call.c) */
struct d_node *cook_call(struct d_hdl *dh, struct d_node *n);
struct d_node *cook_aggassign(struct d_hdl *dh, struct d_node *n);
struct d_node *cook_aggref(struct d_hdl *dh, struct d_node *n);

#endif
