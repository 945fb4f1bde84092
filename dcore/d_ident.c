/*
 * d_ident.c — identifiers and their scopes: the builtin variables
 * (d_bvars), the subroutine/action/aggregating function table (d_funcs),
 * program-scope variables (globals, associative arrays, self->, this->,
 * inlines, enumerators) and aggregations by name.  Below the parser and the
 * type checker, which both declare and look up names through it; it calls
 * only d_mem.c.
 */
#include <string.h>

#include "dcore/d_impl.h"
#include "dcore/d_ident.h"

/* ---- builtin variables --------------------------------------------------- */

const struct d_bvdef d_bvars[] = {
	{ "arg0", BV_ARG0 + 0, "int64_t" }, { "arg1", BV_ARG0 + 1, "int64_t" },
	{ "arg2", BV_ARG0 + 2, "int64_t" }, { "arg3", BV_ARG0 + 3, "int64_t" },
	{ "arg4", BV_ARG0 + 4, "int64_t" }, { "arg5", BV_ARG0 + 5, "int64_t" },
	{ "arg6", BV_ARG0 + 6, "int64_t" }, { "arg7", BV_ARG0 + 7, "int64_t" },
	{ "arg8", BV_ARG0 + 8, "int64_t" }, { "arg9", BV_ARG0 + 9, "int64_t" },
	{ "cpu", BV_CPU, "processorid_t" },
	{ "pid", BV_PID, "pid_t" }, { "ppid", BV_PPID, "pid_t" },
	{ "tid", BV_TID, "id_t" }, { "uid", BV_UID, "uid_t" }, { "gid", BV_GID, "gid_t" },
	{ "execname", BV_EXECNAME, "string" },
	{ "timestamp", BV_TIMESTAMP, "uint64_t" },
	{ "vtimestamp", BV_VTIMESTAMP, "uint64_t" },
	{ "walltimestamp", BV_WALLTIMESTAMP, "int64_t" },
	{ "epid", BV_EPID, "uint_t" }, { "id", BV_ID, "uint_t" },
	{ "probeprov", BV_PROBEPROV, "string" }, { "probemod", BV_PROBEMOD, "string" },
	{ "probefunc", BV_PROBEFUNC, "string" }, { "probename", BV_PROBENAME, "string" },
	{ "stackdepth", BV_STACKDEPTH, "uint32_t" },
	{ "ustackdepth", BV_USTACKDEPTH, "uint32_t" },
	{ "caller", BV_CALLER, "uintptr_t" }, { "ucaller", BV_UCALLER, "uint64_t" },
	{ "errno", BV_ERRNO, "int" },
	{ "__curproc", BV_CURPSINFO, "struct __pmct_proc *" },
	{ "ipl", BV_IPL, "uint_t" },
	{ "root", BV_ROOTDIR, "string" }, { "cwd", BV_CWD, "string" },
	{ "zonename", BV_ZONENAME, "string" },
	{ NULL, 0, NULL }
};

int
d_bvar_lookup(const char *name)
{
	for (int i = 0; d_bvars[i].name; i++)
		if (strcmp(d_bvars[i].name, name) == 0)
			return i;
	return -1;
}

/* ---- functions ----------------------------------------------------------- */

static const struct d_fdef d_funcs[] = {
	{ "strlen", F_STRLEN, FK_SUBR, 1, 1, "size_t" },
	{ "strjoin", F_STRJOIN, FK_SUBR, 2, 2, "string" },
	{ "substr", F_SUBSTR, FK_SUBR, 2, 3, "string" },
	{ "index", F_INDEX, FK_SUBR, 2, 3, "int" },
	{ "rindex", F_RINDEX, FK_SUBR, 2, 3, "int" },
	{ "strchr", F_STRCHR, FK_SUBR, 2, 2, "string" },
	{ "strrchr", F_STRRCHR, FK_SUBR, 2, 2, "string" },
	{ "strstr", F_STRSTR, FK_SUBR, 2, 2, "string" },
	{ "strtok", F_STRTOK, FK_SUBR, 2, 2, "string" },
	{ "lltostr", F_LLTOSTR, FK_SUBR, 1, 2, "string" },
	{ "basename", F_BASENAME, FK_SUBR, 1, 1, "string" },
	{ "dirname", F_DIRNAME, FK_SUBR, 1, 1, "string" },
	{ "cleanpath", F_CLEANPATH, FK_SUBR, 1, 1, "string" },
	{ "toupper", F_TOUPPER, FK_SUBR, 1, 1, "string" },
	{ "tolower", F_TOLOWER, FK_SUBR, 1, 1, "string" },
	{ "rand", F_RAND, FK_SUBR, 0, 0, "int" },
	{ "copyin", F_COPYIN, FK_SUBR, 2, 2, "void *" },
	{ "copyinstr", F_COPYINSTR, FK_SUBR, 1, 2, "string" },
	{ "copyinto", F_COPYINTO, FK_SUBR, 3, 3, NULL },
	{ "progenyof", F_PROGENYOF, FK_SUBR, 1, 1, "int" },
	{ "htons", F_HTONS, FK_SUBR, 1, 1, "uint16_t" },
	{ "htonl", F_HTONL, FK_SUBR, 1, 1, "uint32_t" },
	{ "htonll", F_HTONLL, FK_SUBR, 1, 1, "uint64_t" },
	{ "ntohs", F_NTOHS, FK_SUBR, 1, 1, "uint16_t" },
	{ "ntohl", F_NTOHL, FK_SUBR, 1, 1, "uint32_t" },
	{ "ntohll", F_NTOHLL, FK_SUBR, 1, 1, "uint64_t" },
	{ "inet_ntoa", F_INET_NTOA, FK_SUBR, 1, 1, "string" },
	{ "inet_ntoa6", F_INET_NTOA6, FK_SUBR, 1, 1, "string" },
	{ "inet_ntop", F_INET_NTOP, FK_SUBR, 2, 2, "string" },
	{ "alloca", F_ALLOCA, FK_SUBR, 1, 1, "void *" },
	{ "bcopy", F_BCOPY, FK_SUBR, 3, 3, NULL },
	{ "speculation", F_SPECULATION, FK_SUBR, 0, 0, "int" },
	{ "strtoll", F_STRTOLL, FK_SUBR, 1, 2, "int64_t" },
	{ "sym", F_SYM, FK_SUBR, 1, 1, "_symaddr" },
	{ "func", F_FUNC, FK_SUBR, 1, 1, "_symaddr" },
	{ "mod", F_MOD, FK_SUBR, 1, 1, "_modaddr" },
	{ "usym", F_USYM, FK_SUBR, 1, 1, "_usymaddr" },
	{ "ufunc", F_UFUNC, FK_SUBR, 1, 1, "_usymaddr" },
	{ "umod", F_UMOD, FK_SUBR, 1, 1, "_umodaddr" },
	{ "uaddr", F_UADDR, FK_SUBR, 1, 1, "_uaddr" },
	{ "stack", F_STACK, FK_SUBR, 0, 1, "_stack" },
	{ "ustack", F_USTACK, FK_SUBR, 0, 2, "_ustack" },
	{ "jstack", F_JSTACK, FK_SUBR, 0, 2, "_ustack" },
	{ "trace", F_TRACE, FK_ACT, 1, 1, NULL },
	{ "printf", F_PRINTF, FK_ACT, 1, D_MAX_ACTARGS, NULL },
	{ "printa", F_PRINTA, FK_ACT, 1, D_MAX_ACTARGS, NULL },
	{ "print", F_PRINT, FK_ACT, 1, 1, NULL },
	{ "tracemem", F_TRACEMEM, FK_ACT, 2, 3, NULL },
	{ "exit", F_EXIT, FK_ACT, 1, 1, NULL },
	{ "trunc", F_TRUNC, FK_ACT, 1, 2, NULL },
	{ "clear", F_CLEAR, FK_ACT, 1, 1, NULL },
	{ "normalize", F_NORMALIZE, FK_ACT, 2, 2, NULL },
	{ "denormalize", F_DENORMALIZE, FK_ACT, 1, 1, NULL },
	{ "setopt", F_SETOPT, FK_ACT, 1, 2, NULL },
	{ "speculate", F_SPECULATE, FK_ACT, 1, 1, NULL },
	{ "commit", F_COMMIT, FK_ACT, 1, 1, NULL },
	{ "discard", F_DISCARD, FK_ACT, 1, 1, NULL },
	{ "system", F_SYSTEM, FK_ACT, 1, D_MAX_ACTARGS, NULL },
	{ "raise", F_RAISE, FK_ACT, 1, 1, NULL },
	{ "stop", F_STOP, FK_ACT, 0, 0, NULL },
	{ "breakpoint", F_BREAKPOINT, FK_ACT, 0, 0, NULL },
	{ "panic", F_PANIC, FK_ACT, 0, 0, NULL },
	{ "chill", F_CHILL, FK_ACT, 1, 1, NULL },
	{ "freopen", F_FREOPEN, FK_ACT, 1, D_MAX_ACTARGS, NULL },
	{ "ftruncate", F_FTRUNCATE, FK_ACT, 0, 0, NULL },
	{ "count", F_COUNT, FK_AGG, 0, 0, NULL },
	{ "sum", F_SUM, FK_AGG, 1, 1, NULL },
	{ "avg", F_AVG, FK_AGG, 1, 1, NULL },
	{ "min", F_MIN, FK_AGG, 1, 1, NULL },
	{ "max", F_MAX, FK_AGG, 1, 1, NULL },
	{ "stddev", F_STDDEV, FK_AGG, 1, 1, NULL },
	{ "quantize", F_QUANTIZE, FK_AGG, 1, 2, NULL },
	{ "lquantize", F_LQUANTIZE, FK_AGG, 3, 5, NULL },
	{ "llquantize", F_LLQUANTIZE, FK_AGG, 5, 6, NULL },
	{ NULL, 0, 0, 0, 0, NULL }
};

const struct d_fdef *
d_fdef(const char *name)
{
	for (int i = 0; d_funcs[i].name; i++)
		if (strcmp(d_funcs[i].name, name) == 0)
			return &d_funcs[i];
	return NULL;
}

int
d_func_lookup(const char *name)
{
	const struct d_fdef *f = d_fdef(name);
	return f ? f->id : -1;
}

const char *
d_func_name(int id)
{
	for (int i = 0; d_funcs[i].name; i++)
		if (d_funcs[i].id == id)
			return d_funcs[i].name;
	return "?";
}

/* ---- variables ---------------------------------------------------------- */

/* kind 0: any program-scope name (global, assoc, inline, enum). */
static uint32_t
d_var_hash(const char *name)
{
	uint32_t h = 2166136261u;	/* FNV-1a */
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h % D_VARHASH;
}

struct d_var *
d_var_lookup(struct d_hdl *dh, int kind, const char *name)
{
	for (struct d_var *v = dh->dh_varhash[d_var_hash(name)]; v; v = v->dv_hnext) {
		if (strcmp(v->dv_name, name) != 0)
			continue;
		if (kind == 0 ? (v->dv_kind != DV_TLS && v->dv_kind != DV_LOCAL) : v->dv_kind == kind)
			return v;
	}
	return NULL;
}

struct d_var *
d_var_create(struct d_hdl *dh, int kind, const char *name)
{
	struct d_var *v = d_alloc(dh, sizeof(*v));
	v->dv_name = d_strdup(dh, name);
	v->dv_kind = kind;
	v->dv_id = dh->dh_nvarids++;
	v->dv_nkeys = kind == DV_ASSOC ? -1 : 0;
	v->dv_next = dh->dh_vars;
	dh->dh_vars = v;
	uint32_t h = d_var_hash(name);
	v->dv_hnext = dh->dh_varhash[h];
	dh->dh_varhash[h] = v;
	return v;
}

/* Give a typed global or clause-local its storage (8-byte aligned). */
void
d_var_place(struct d_hdl *dh, struct d_var *v)
{
	uint32_t sz = v->dv_type->dt_kind == DK_STRING ? (uint32_t)dh->dh_opt[O_STRSIZE] : v->dv_type->dt_size;
	if (sz == 0)
		sz = 8;
	v->dv_size = sz;
	uint32_t r = (sz + 7) & ~7u;
	if (v->dv_kind == DV_GLOBAL) {
		v->dv_off = dh->dh_gsize;
		dh->dh_gsize += r;
	} else if (v->dv_kind == DV_LOCAL) {
		v->dv_off = dh->dh_lsize;
		dh->dh_lsize += r;
	}
	if (dh->dh_gsize / 8 > D_MAXBX || dh->dh_lsize / 8 > D_MAXBX)
		d_error(dh, D_ID_OFLOW, 0, "too much variable storage");
}

struct d_agginfo *
d_agg_lookup(struct d_hdl *dh, const char *name, bool create)
{
	for (struct d_agginfo *a = dh->dh_aggs; a; a = a->ai_next)
		if (strcmp(a->ai_name, name) == 0)
			return a;
	if (!create)
		return NULL;
	struct d_agginfo *a = d_alloc(dh, sizeof(*a));
	a->ai_name = d_strdup(dh, name);
	a->ai_func = -1;
	a->ai_nkeys = -1;
	struct d_agginfo **tail = &dh->dh_aggs;
	while (*tail)
		tail = &(*tail)->ai_next;
	*tail = a;
	return a;
}
