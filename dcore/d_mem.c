/*
 * d_mem.c — the compiler's ground floor, which every stage calls and which
 * calls no stage: the arenas (compile-time memory that dies with the
 * handle, and the per-clause node arena), AST node allocation, and the
 * diagnostics that longjmp out of d_compile() with DTrace's message and
 * its D_ tag.
 */
#include <stdlib.h>
#include <string.h>

#include "dcore/d_impl.h"

/* ---- arena ---------------------------------------------------------------------- */

struct d_arena_blk {
	struct d_arena_blk *ab_next;
	size_t ab_used, ab_size;
	max_align_t ab_data[];
};

static void *d_arena_alloc(struct d_hdl *dh, struct d_arena *a, size_t n);

void *
d_alloc(struct d_hdl *dh, size_t n)
{
	return d_arena_alloc(dh, &dh->dh_arena, n);
}

/* Nodes of the clause being compiled live in their own arena, emptied
 * after each clause: a 100,000-clause script keeps no ASTs around. */
void *
d_node_alloc(struct d_hdl *dh, size_t n)
{
	return d_arena_alloc(dh, dh->dh_tmpnodes ? &dh->dh_nodes : &dh->dh_arena, n);
}

static void *
d_arena_alloc(struct d_hdl *dh, struct d_arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	struct d_arena_blk *b = a->da_head;
	if (!b || b->ab_used + n > b->ab_size) {
		size_t sz = n > 65536 ? n : 65536;
		b = malloc(sizeof(*b) + sz);
		if (!b)
			d_error(dh, D_UNKNOWN, 0, "out of memory");
		b->ab_used = 0;
		b->ab_size = sz;
		b->ab_next = a->da_head;
		a->da_head = b;
	}
	void *p = (char *)b->ab_data + b->ab_used;
	b->ab_used += n;
	memset(p, 0, n);
	return p;
}

char *
d_strndup(struct d_hdl *dh, const char *s, size_t n)
{
	char *p = d_alloc(dh, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
d_strdup(struct d_hdl *dh, const char *s)
{
	return d_strndup(dh, s, strlen(s));
}

void
d_arena_free(struct d_arena *a)
{
	struct d_arena_blk *b = a->da_head, *n;
	for (; b; b = n) {
		n = b->ab_next;
		free(b);
	}
	a->da_head = NULL;
}

/* ---- diagnostics ------------------------------------------------------------------ */

static void
d_verror(struct d_hdl *dh, int tag, int line, const char *fmt, va_list ap)
{
	char msg[768];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	size_t l = strlen(msg);
	while (l > 0 && msg[l - 1] == '\n')
		msg[--l] = '\0';
	char tagbuf[64] = "";
	if (dh->dh_opt[O_ERRTAGS])
		snprintf(tagbuf, sizeof(tagbuf), "[%s] ", d_errtag_name(tag));
	char lbuf[32] = "";
	if (line > 0 && dh->dh_cfile)
		snprintf(lbuf, sizeof(lbuf), "line %d: ", line);
	if (dh->dh_cfile)
		snprintf(dh->dh_errmsg, sizeof(dh->dh_errmsg), "failed to compile script %s: %s%s%s",
		    dh->dh_cfile, tagbuf, lbuf, msg);
	else if (dh->dh_ctext)
		snprintf(dh->dh_errmsg, sizeof(dh->dh_errmsg), "invalid probe specifier %s: %s%s",
		    dh->dh_ctext, tagbuf, msg);
	else
		snprintf(dh->dh_errmsg, sizeof(dh->dh_errmsg), "%s%s", tagbuf, msg);
	dh->dh_errtag = tag;
}

void
d_error(struct d_hdl *dh, int tag, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	d_verror(dh, tag, line, fmt, ap);
	va_end(ap);
	if (dh->dh_jmp)
		longjmp(*dh->dh_jmp, 1);
	abort();	/* d_error outside a compile is a bug in dcore */
}

void
d_error_at(struct d_lex *lx, int tag, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	d_verror(lx->lx_dh, tag, lx->lx_line, fmt, ap);
	va_end(ap);
	longjmp(*lx->lx_dh->dh_jmp, 1);
}

/* ---- AST nodes ------------------------------------------------------------------ */

struct d_node *
d_node_new(struct d_hdl *dh, int kind, int line)
{
	struct d_node *n = d_node_alloc(dh, sizeof(*n));
	n->dn_kind = (uint16_t)kind;
	n->dn_line = line;
	return n;
}
