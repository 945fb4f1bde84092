/*
 * d_impl.h — private interfaces of the D engine (dcore/ only).
 *
 * Pipeline and ownership:
 *   d_mem.c      the ground floor: arenas, AST nodes, d_error (calls no stage)
 *   d_lex.c      text → tokens (struct d_lex), with D's lexical contexts
 *   d_parse.c    tokens → AST (struct d_node), declarations → types
 *   d_types.c    the type universe (struct d_type), names, scopes
 *   d_ident.c    identifiers: builtin variables, functions, variables,
 *                aggregations by name (d_ident.h)
 *   d_cook.c     types and checks every node ("cook"), folds constants,
 *                resolves identifiers to variables
 *   d_compile.c  cooked AST → bytecode (d_opcodes.h) per clause
 *   d_vm.c       the one dispatch loop that runs a clause on a firing
 *   d_act.c      actions (printf, trace, printa, exit, speculate...)
 *   d_subr.c     subroutines (strings, copyin, byte order, alloca...)
 *   d_vars.c     dynamic variables: associative arrays and self->
 *   d_options.c  the option table (-x, #pragma D option, setopt)
 *   d_pragma.c   #pragma control lines, as the lexer meets them
 *   d_catalog.c  the builtin dtrace provider, provider existence
 *   d_errtags.c  D_* tag names (d_errtags.h)
 *   d_proc.c     process facts from /proc (curpsinfo, BEGIN/END firings)
 *   d_core.c     the public API in dcore.h: handle, compile driver,
 *                probe matching, firing dispatch, ERROR probe, END
 *
 * Memory: everything made while compiling (nodes, types, names, code)
 * lives in the handle's arena and dies with the handle.  A compile error
 * longjmps back to d_compile() (d_error()), so compile code never unwinds
 * by hand.  Nothing on the firing path longjmps: the VM returns fault codes.
 */
#ifndef PMCTRACE_D_IMPL_H
#define PMCTRACE_D_IMPL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dcore/dcore.h"
#include "dcons/dagg.h"
#include "dcons/dfmt.h"
#include "dcons/dspec.h"
#include "dcons/dout.h"
#include "dcore/d_errtags.h"
#include "dcore/d_opcodes.h"

/* ---- arena ------------------------------------------------------------- */

struct d_arena_blk;
struct d_arena {
	struct d_arena_blk *da_head;
};
void *d_alloc(struct d_hdl *dh, size_t n);	/* zeroed; longjmps on ENOMEM */
void *d_node_alloc(struct d_hdl *dh, size_t n);	/* AST nodes: see d_mem.c */
char *d_strdup(struct d_hdl *dh, const char *s);
char *d_strndup(struct d_hdl *dh, const char *s, size_t n);
void d_arena_free(struct d_arena *a);

/* ---- types --------------------------------------------------------------- */

enum d_tkind {
	DK_VOID = 0,
	DK_INT,		/* integers, enums share this kind with dt_enum set */
	DK_FLOAT,	/* float/double: declarable, not computable */
	DK_PTR,
	DK_ARRAY,
	DK_STRUCT,
	DK_UNION,
	DK_STRING,	/* D's string: a value of strsize bytes */
	DK_FUNC,
	DK_ENUM,
	DK_AGG,		/* an aggregation named in an expression: fits nothing */
};

struct d_member {
	const char *dm_name;
	struct d_type *dm_type;
	uint32_t dm_off;	/* byte offset */
	uint8_t dm_bitoff;	/* bit-fields: bit offset in the storage unit */
	uint8_t dm_bits;	/* 0 = not a bit-field */
	struct d_member *dm_next;
};

struct d_enumval {
	const char *de_name;
	int64_t de_value;
	struct d_enumval *de_next;
};

struct d_type {
	uint8_t dt_kind;	/* enum d_tkind */
	uint8_t dt_signed;	/* DK_INT */
	uint8_t dt_complete;	/* struct/union/enum defined */
	uint8_t dt_char;	/* the char types (printf %c, arrays as text) */
	uint8_t dt_vk;		/* pseudo types (stack(), sym()): enum d_vkind */
	uint32_t dt_size;
	uint32_t dt_align;
	const char *dt_name;	/* "int", "struct foo", "uint64_t"; NULL: build */
	struct d_type *dt_ref;	/* PTR target, ARRAY element */
	uint32_t dt_nelems;	/* ARRAY */
	struct d_member *dt_members;
	struct d_enumval *dt_enums;
	struct d_type *dt_next;	/* scope chain */
};

/* A name → type binding (typedefs, base types, tags). */
struct d_tname {
	const char *tn_name;
	struct d_type *tn_type;
	struct d_tname *tn_next;
};

void d_types_init(struct d_hdl *dh);
struct d_type *d_type_lookup(struct d_hdl *dh, const char *name);
struct d_type *d_type_tag(struct d_hdl *dh, int kind, const char *tag, bool create);
void d_type_define(struct d_hdl *dh, const char *name, struct d_type *t);
struct d_type *d_type_ptr(struct d_hdl *dh, struct d_type *t);
struct d_type *d_type_array(struct d_hdl *dh, struct d_type *t, uint32_t n);
struct d_type *d_type_int(struct d_hdl *dh, int size, bool sign);
const char *d_type_name(struct d_hdl *dh, const struct d_type *t, char *buf, size_t len);
struct d_member *d_type_member(const struct d_type *t, const char *name);
void d_type_layout(struct d_type *sou);	/* offsets of a finished struct/union */
bool d_type_is_int(const struct d_type *t);
bool d_type_is_arith(const struct d_type *t);
bool d_type_is_scalar(const struct d_type *t);
bool d_type_is_ptrlike(const struct d_type *t);	/* pointer or array */
bool d_type_is_string(const struct d_type *t);
bool d_type_compat(const struct d_type *a, const struct d_type *b);
void d_type_vdesc(struct d_hdl *dh, const struct d_type *t, struct d_vdesc *vd);

/* ---- lexer ----------------------------------------------------------------- */

/* Tokens: single characters are their own codes; the rest start at 256.
 * ORDER d_tok: the name table in d_lex.c. */
enum d_tok {
	T_EOF = 256,
	T_IDENT, T_INT, T_STRING, T_CHAR, T_PSPEC, T_AGG, T_MACRO, T_EPRED,
	T_TYPENAME,
	/* operators */
	T_ARROW, T_INC, T_DEC, T_SHL, T_SHR, T_LE, T_GE, T_EQ, T_NE,
	T_LAND, T_LOR, T_LXOR, T_ADDEQ, T_SUBEQ, T_MULEQ, T_DIVEQ, T_MODEQ,
	T_ANDEQ, T_OREQ, T_XOREQ, T_SHLEQ, T_SHREQ, T_ELLIPSIS,
	/* keywords */
	T_AUTO, T_BREAK, T_CASE, T_CHARK, T_CONST, T_CONTINUE, T_COUNTER,
	T_DEFAULT, T_DO, T_DOUBLE, T_ELSE, T_ENUM, T_EXTERN, T_FLOAT, T_FOR,
	T_GOTO, T_IF, T_IMPORT, T_INLINE, T_INT_K, T_LONG, T_OFFSETOF,
	T_PROBE, T_PROVIDER, T_REGISTER, T_RESTRICT, T_RETURN, T_SELF,
	T_SHORT, T_SIGNED, T_SIZEOF, T_STATIC, T_STRING_K, T_STRINGOF,
	T_STRUCT, T_SWITCH, T_THIS, T_TRANSLATOR, T_TYPEDEF, T_UNION,
	T_UNSIGNED, T_USERLAND, T_VOID, T_VOLATILE, T_WHILE, T_XLATE,
	T_NTOKENS
};

/* Lexical contexts (dt_lex.l's start states): the outer scope, where a
 * run of [-$:a-zA-Z_.0-9?*\\[]!] is a probe specifier unless it is a
 * keyword or type; a clause body or expression; a predicate, where "/"
 * followed by ";", "{", "/" or end closes it. */
enum d_lexctx { D_LX_OUTER, D_LX_BODY, D_LX_PRED };

struct d_token {
	int t_tok;
	int t_line;
	uint64_t t_ival;
	int t_isuns, t_islong;	/* integer suffix/ representation */
	/* integer type: the first of int, uint, long, ulong, llong, ullong
	 * from t_tyidx on, stepping t_tystep, that holds the value (DTrace's
	 * rule: decimal and 'u' suffixes step 2, octal/hex 1) */
	int t_tyidx, t_tystep;
	bool t_neg;		/* a macro argument's "-N": t_ival is -N */
	const char *t_sval;	/* ident, string, pspec, agg name text */
	size_t t_slen;		/* string literal length */
};

struct d_lex {
	struct d_hdl *lx_dh;
	const char *lx_src, *lx_p, *lx_end;
	const char *lx_file;	/* for diagnostics, NULL for -n */
	int lx_line;
	int lx_ctx;		/* enum d_lexctx */
	int lx_parens;		/* nesting inside a predicate */
	int lx_depth;		/* parser recursion depth */
	int lx_ddepth;		/* parenthesised declarators open */
	bool lx_bol;		/* at the beginning of a line */
	bool lx_prescan;	/* d_lex_prescan: only apply #pragma D option */
	bool lx_optsdone;	/* options already applied by d_lex_prescan */
	struct d_token lx_tok;	/* current */
	struct d_token lx_ahead;	/* one token of lookahead */
	bool lx_hasahead;
	const char *lx_tokstart;	/* text of the current token for errors */
	int lx_toklen;
};

void d_lex_init(struct d_lex *lx, struct d_hdl *dh, const char *text, const char *file);
void d_lex_next(struct d_lex *lx);
/* Apply every "#pragma D option" in the text before anything compiles. */
void d_lex_prescan(struct d_lex *lx);
int d_lex_peek(struct d_lex *lx);
const char *d_lex_tokname(int tok);
/* "near" text for a syntax error about the current token. */
const char *d_lex_neartext(struct d_lex *lx, char *buf, size_t len);

/* ---- AST --------------------------------------------------------------------- */

enum d_nkind {
	DN_INT = 1,	/* dn_ival */
	DN_STR,		/* dn_str */
	DN_IDENT,	/* dn_name (resolved by cook into DN_VAR / DN_INT ...) */
	DN_VAR,		/* dn_var, dn_args = tuple keys */
	DN_AGG,		/* dn_name, dn_args = keys */
	DN_OP1,		/* dn_op dn_l */
	DN_POST,	/* postfix ++/-- dn_l */
	DN_OP2,		/* dn_l dn_op dn_r */
	DN_OP3,		/* dn_x ? dn_l : dn_r */
	DN_ASSIGN,	/* dn_l dn_op dn_r, dn_op '=' or T_ADDEQ... */
	DN_CALL,	/* dn_name (dn_args) */
	DN_MEMBER,	/* dn_l . dn_name or dn_l -> dn_name (dn_op) */
	DN_INDEX,	/* dn_l [dn_r] on arrays/pointers */
	DN_CAST,	/* (dn_ctype) dn_l */
	DN_SIZEOF,	/* sizeof: dn_ctype or dn_l */
	DN_OFFSETOF,	/* offsetof(dn_ctype, dn_name) */
	DN_STRINGOF,	/* stringof dn_l */
	DN_XLATE,	/* xlate <dn_ctype>(dn_l) */
	DN_BUILTIN,	/* dn_bvar: builtin variable */
	DN_ARGS,	/* args[dn_l] */
	DN_SYM,		/* `sym (value of a kernel symbol: unsupported) */
	DN_COMMA,	/* dn_l , dn_r */
	/* statements */
	DN_EXPR,	/* dn_l ; */
	DN_IF,		/* if (dn_x) dn_l else dn_r */
	DN_BLOCK,	/* { dn_l list } */
};

struct d_var;
struct d_xlator;

struct d_node {
	uint16_t dn_kind;
	uint16_t dn_op;
	int dn_line;
	struct d_type *dn_type;		/* after cook */
	uint8_t dn_lvalue;		/* assignable location */
	uint8_t dn_writable;
	uint8_t dn_const;		/* DN_INT after folding */
	uint8_t dn_dynamic;		/* string/struct value by reference */
	uint8_t dn_action;		/* an action (not usable in expressions) */
	uint16_t dn_depth;		/* height of the subtree (bounded: D_MAXDEPTH) */
	int dn_bits, dn_bitoff;		/* bit-field member access */
	uint64_t dn_ival;
	const char *dn_str;		/* DN_STR text */
	size_t dn_slen;
	const char *dn_name;
	struct d_node *dn_l, *dn_r, *dn_x;
	struct d_node *dn_args;		/* list through dn_next */
	int dn_nargs;
	struct d_node *dn_next;
	struct d_var *dn_var;
	struct d_type *dn_ctype;	/* casts, sizeof(type), xlate */
	struct d_member *dn_member;	/* DN_MEMBER after cook */
	struct d_xlator *dn_xl;		/* DN_XLATE, translated member */
	int dn_bvar;			/* DN_BUILTIN id */
	int dn_subr;			/* DN_CALL: subroutine/action id */
	struct d_agginfo *dn_agg;	/* DN_AGG */
};

/* ---- variables and identifiers ------------------------------------------ */

enum d_vkindx {
	DV_GLOBAL = 1,	/* scalar global: fixed storage */
	DV_ASSOC,	/* global associative array: dynamic */
	DV_TLS,		/* self-> */
	DV_LOCAL,	/* this-> */
	DV_INLINE,	/* inline constant or expression */
	DV_ENUM,	/* enumerator */
};

struct d_var {
	const char *dv_name;
	int dv_kind;		/* enum d_vkindx */
	int dv_id;		/* dynamic variable id */
	struct d_type *dv_type;	/* NULL until first assignment */
	uint32_t dv_off;	/* GLOBAL/LOCAL storage offset */
	uint32_t dv_size;	/* value bytes */
	int dv_nkeys;		/* ASSOC: tuple arity, -1 unknown */
	struct d_type *dv_keys[D_MAX_KEYS];
	struct d_node *dv_inline;	/* DV_INLINE expression */
	int64_t dv_ival;	/* DV_ENUM */
	bool dv_declared;
	bool dv_defining;		/* an inline whose own expression is being cooked */
	struct d_var *dv_next;
	struct d_var *dv_hnext;		/* dh_varhash chain, newest first too */
};

struct d_agginfo {
	const char *ai_name;		/* "" for @ */
	int ai_func;			/* enum dagg_func, -1 until first use */
	int ai_nkeys;
	struct d_type *ai_keys[D_MAX_KEYS];
	struct dagg_params ai_params;
	dagg_t *ai_agg;
	int ai_line;
	struct d_agginfo *ai_next;
};

/* Translators: translator OUT < IN name > { member = expr; ... }; */
struct d_xlmemb {
	const char *xm_name;
	struct d_node *xm_expr;
	struct d_xlmemb *xm_next;
};
struct d_xlator {
	struct d_type *xl_out, *xl_in;
	const char *xl_arg;		/* the input's name in member expressions */
	struct d_var *xl_argvar;	/* bound while cooking/compiling members */
	struct d_xlmemb *xl_members;
	struct d_xlator *xl_next;
};

/* ---- builtin variables, subroutines, actions -------------------------- */

enum d_bvar {
	BV_ARG0 = 0,		/* arg0..arg9: BV_ARG0 + n */
	BV_ARGS = 10, BV_CPU, BV_CURCPU, BV_PID, BV_PPID, BV_TID, BV_UID, BV_GID,
	BV_EXECNAME, BV_TIMESTAMP, BV_VTIMESTAMP, BV_WALLTIMESTAMP, BV_EPID,
	BV_ID, BV_PROBEPROV, BV_PROBEMOD, BV_PROBEFUNC, BV_PROBENAME,
	BV_STACKDEPTH, BV_USTACKDEPTH, BV_CALLER, BV_UCALLER, BV_ERRNO,
	BV_CURPSINFO, BV_CURLWPSINFO, BV_CURTHREAD, BV_IPL, BV_ROOTDIR,
	BV_CWD, BV_ZONENAME, BV_PROBEFUNCADDR, BV_ARGSTRUCT, BV_NBVARS
};

/* Subroutines (value-returning) and actions; ORDER: d_funcs[] in d_cook.c */
#define D_SUBR_STRINGOF F_ACTION_FIRST
#define D_SUBR_STRCHAR (F_ACTION_FIRST + 1)	/* s[i]: the i-th char of a string */
enum d_func {
	/* subroutines */
	F_STRLEN = 0, F_STRJOIN, F_SUBSTR, F_INDEX, F_RINDEX, F_STRCHR,
	F_STRRCHR, F_STRSTR, F_STRTOK, F_LLTOSTR, F_BASENAME, F_DIRNAME,
	F_CLEANPATH, F_TOUPPER, F_TOLOWER, F_RAND, F_COPYIN, F_COPYINSTR,
	F_COPYINTO, F_PROGENYOF, F_HTONS, F_HTONL, F_HTONLL, F_NTOHS, F_NTOHL,
	F_NTOHLL, F_INET_NTOA, F_INET_NTOA6, F_INET_NTOP, F_ALLOCA, F_BCOPY,
	F_SPECULATION, F_STRTOLL, F_GETMAJOR, F_GETMINOR, F_MUTEX_OWNED,
	F_RW_READ_HELD, F_ACTION_FIRST,
	/* F_ACTION_FIRST doubles as the subroutine number of stringof */
	/* actions (statements only) */
	F_TRACE = F_ACTION_FIRST, F_PRINTF, F_PRINTA, F_PRINT, F_TRACEMEM,
	F_EXIT, F_STACK, F_USTACK, F_JSTACK, F_TRUNC, F_CLEAR, F_NORMALIZE,
	F_DENORMALIZE, F_SETOPT, F_SPECULATE, F_COMMIT, F_DISCARD,
	F_SYSTEM, F_RAISE, F_STOP, F_BREAKPOINT, F_PANIC, F_CHILL,
	F_FREOPEN, F_FTRUNCATE, F_SYM, F_FUNC, F_MOD, F_USYM, F_UFUNC,
	F_UMOD, F_UADDR,
	/* aggregating functions */
	F_COUNT, F_SUM, F_AVG, F_MIN, F_MAX, F_STDDEV, F_QUANTIZE,
	F_LQUANTIZE, F_LLQUANTIZE,
	F_NFUNCS
};

/* ---- compiled program ------------------------------------------------------ */

/* An action site (printf, trace...) as the VM sees it. */
struct d_actsite {
	int as_func;			/* enum d_func */
	int as_nargs;
	struct d_vdesc as_vd[D_MAX_ACTARGS];
	dfmt_t *as_fmt;			/* printf/printa */
	dagg_t *as_aggs[D_MAX_ACTARGS];	/* printa/trunc/clear/normalize */
	int as_naggs;
	const char *as_str;		/* setopt name, print type name */
	struct dfmt_member *as_members;	/* print() of a struct */
	int as_nmembers;
};

/* A dynamic-variable site: which variable and how the key is laid out. */
struct d_dvsite {
	int ds_var;			/* variable id */
	int ds_tls;			/* key is (tid) */
	int ds_nkeys;
	uint8_t ds_kstr[D_MAX_KEYS];	/* key element i is a string */
	uint32_t ds_vsize;		/* value bytes */
	uint8_t ds_vkind;		/* D_DVK_* how the value is read */
	uint8_t ds_vstr;		/* the value is a string: copy as text */
};
#define D_DVK_INT	0	/* 8-byte integer */
#define D_DVK_REF	1	/* by reference (string/struct): address */

/* An aggregation site: @a[keys] = f(val[, incr]). */
struct d_aggsite {
	dagg_t *ag_agg;
	int ag_nkeys;
	struct d_vdesc ag_kvd[D_MAX_KEYS];
	uint32_t ag_ksize;
	int ag_hasval, ag_hasincr;
};

/* One clause compiled: predicate + actions share one code array.
 * ac_actpc[i] is the first pc of action i+1, for "action #N at DIF
 * offset M" in fault messages (pc before ac_actpc[0]: the predicate). */
struct d_clause {
	uint32_t *cl_code;
	uint32_t cl_ncode;
	int cl_hasPred;
	uint32_t cl_predend;		/* pc where the actions start */
	uint32_t *cl_actpc;
	int cl_nact;
	int cl_records;			/* produces a probe line when not quiet */
	int cl_nregs;
	/* the clause's slices of the handle's pools: operands index from these */
	uint32_t cl_kbase, cl_actbase, cl_dvbase, cl_aggbase;
	const char *cl_file;
	struct d_clause *cl_next;
};

/* An enabled probe: one (clause, probe) pair. */
struct d_ecb {
	uint32_t ec_epid;
	struct d_clause *ec_clause;
	struct d_probe *ec_probe;
	struct d_ecb *ec_next;		/* next ECB of the same probe */
};

struct d_probe {
	uint32_t pr_id;
	const char *pr_prov, *pr_mod, *pr_func, *pr_name;
	int pr_nargs;
	struct d_type *pr_argtypes[D_MAX_ARGS];
	struct d_type *pr_xargtypes[D_MAX_ARGS];
	struct d_type *pr_argstruct;	/* bare args: pointer to this struct */
	struct d_ecb *pr_ecbs, **pr_ecbtail;
	struct d_probe *pr_hnext;
};

struct d_desc {
	const char *ds_text;
	int ds_nmatched;
	struct d_desc *ds_next;
};

/* ---- options ----------------------------------------------------------------- */

enum d_opt {
	O_AGGRATE = 0, O_AGGSIZE, O_BUFRESIZE, O_BUFSIZE, O_BUFPOLICY,
	O_CLEANRATE, O_CPP, O_CPPPATH, O_DEFAULTARGS, O_DESTRUCTIVE,
	O_DYNVARSIZE, O_ERRTAGS, O_FLOWINDENT, O_GRABANON, O_JSTACKFRAMES,
	O_JSTACKSTRSIZE, O_NSPEC, O_QUIET, O_SPECSIZE, O_STACKFRAMES,
	O_STATUSRATE, O_STRSIZE, O_SWITCHRATE, O_USTACKFRAMES, O_RAWBYTES,
	O_AGGSORTKEY, O_AGGSORTKEYPOS, O_AGGSORTPOS, O_AGGSORTREV, O_AGGZOOM,
	O_AGGPERCPU, O_TEMPORAL, O_STACKINDENT, O_ZDEFS, O_VERSION,
	O_LINKMODE, O_STRIP, O_CPU, O_AMIN, O_ARGREF, O_CPPHDRS, O_DEBUG,
	O_DIFO, O_DISASM, O_EMPTY, O_EVALTIME, O_LAZYLOAD, O_LIBDIR,
	O_LINKTYPE, O_NOLIBS, O_PGMAX, O_PSPEC, O_SCRATCHSIZE, O_STDC,
	O_SYNCDEST, O_SYNCRATE, O_TREE, O_TREEDUMP, O_UNDEF, O_VERBOSE,
	O_MAXFRAMES, O_IREGS, O_DTYPES, O_MAXSTRSIZE, O_OUTPUTFMT,
	O_PMCMULTIPLEX, O_OFORMAT, O_FLAMEREVERSE, O_FLAMETITLE, O_NOPTIONS
};
int d_opt_set(struct d_hdl *dh, const char *name, const char *value);
int d_opt_get(struct d_hdl *dh, const char *name, int64_t *val);
int d_opt_lookup(const char *name);
/* Parse "4m", "10hz", "1s" as DTrace does for the option's unit. */
int d_opt_parse_value(int opt, const char *value, int64_t *out);
void d_opt_defaults(struct d_hdl *dh);
void d_opt_apply_runtime(struct d_hdl *dh);

/* ---- the VM ---------------------------------------------------------------- */

enum d_fault {
	DF_NONE = 0,
	DF_BADADDR = 1,
	DF_BADALIGN = 2,
	DF_ILLOP = 3,
	DF_DIVZERO = 4,
	DF_NOSCRATCH = 5,
	DF_KPRIV = 6,
	DF_UPRIV = 7,
	DF_TUPOFLOW = 8,
	DF_BADSTACK = 9,
	DF_BADINDEX = 10,
	DF_STRTOOLONG = 11,
	DF_NFAULTS
};
const char *d_fault_name(int fault);

/* Memory a D program may address: the scratch arena of the firing,
 * global and clause-local storage, the dynamic-variable arena.  Loads and
 * stores through pointers are checked against these ranges. */
struct d_region {
	uintptr_t rg_base, rg_end;
};

/* Dynamic variable storage (d_vars.c). */
struct d_dvar;
struct d_dvarena;
struct d_dvtab {
	struct d_dvarena *dt_arena;
	struct d_dvar **dt_buckets;
	uint32_t dt_nbuckets;		/* power of two */
	uint64_t dt_count;
	uint64_t dt_bytes, dt_limit;	/* dynvarsize budget */
	uint64_t dt_drops, dt_drops_reported;
};
int d_dv_init(struct d_dvtab *t, uint64_t limit);
void d_dv_fini(struct d_dvtab *t);
/* Find the value of (var, key); create zeroed if create. NULL if absent
 * (or, with create, when the budget is exhausted: counted as a drop). */
void *d_dv_get(struct d_dvtab *t, int var, const void *key, uint32_t klen,
    uint32_t vsize, bool create);
void d_dv_del(struct d_dvtab *t, int var, const void *key, uint32_t klen);
bool d_dv_contains(struct d_dvtab *t, uintptr_t addr, size_t len);

/* The state of one firing, threaded through the VM and its helpers. */
struct d_vm {
	struct d_hdl *vm_dh;
	const struct d_firing *vm_f;
	struct d_probe *vm_probe;
	struct d_ecb *vm_ecb;
	char *vm_scratch;		/* per-clause scratch arena */
	size_t vm_scratch_used, vm_scratch_size;
	uint8_t *vm_local;		/* this-> storage, per firing */
	FILE *vm_out;			/* where the clause's records go */
	uint64_t vm_faddr;		/* fault address */
	uint32_t vm_fpc;		/* fault pc */
	int vm_spec;			/* speculate() active */
	int vm_prolog;			/* the probe line was printed */
	int vm_outused;			/* the clause buffer was started */
	uint32_t vm_commits[8];		/* commit() ids, done when the clause ends */
	int vm_ncommits;
	int vm_header;			/* ... after the column header */
	const char *vm_strtok;		/* strtok() state */
	void *vm_rawproc;		/* curpsinfo record, made on first use */
};

/* Run a clause; returns DF_NONE or a fault with vm_fpc/vm_faddr set. */
int d_vm_exec(struct d_vm *vm, const struct d_clause *cl);
/* Scratch allocation for string results; NULL when exhausted. */
char *d_vm_scratch(struct d_vm *vm, size_t n);
bool d_vm_addr_ok(struct d_vm *vm, uintptr_t a, size_t n);	/* writable */
bool d_vm_addr_rd(struct d_vm *vm, uintptr_t a, size_t n);	/* readable */

/* Subroutines (d_subr.c): args r[0..nargs-1], result *out; a fault code. */
int d_subr_call(struct d_vm *vm, int func, uint64_t *r, int nargs, uint64_t *out);
/* Encode a value as dfmt.h describes it; returns the bytes written. */
size_t d_vm_encode(struct d_vm *vm, const struct d_vdesc *vd, uint64_t v, uint8_t *dst);
/* The probe line of a recording clause (d_act.c). */
void d_vm_prolog(struct d_vm *vm);
/* Start the clause's output buffer on its first use. */
void d_vm_outstart(struct d_vm *vm);

/* ---- the handle ---------------------------------------------------------- */

#define D_ERRCPUS	1024
#define D_VARHASH	4096	/* dh_varhash buckets */
#define D_MAX_STACKFRAMES 65535	/* -x stackframes, ustackframes, jstackframes */
#define D_MAXDEPTH	1000	/* expression nesting the compiler accepts */	/* faults are counted per CPU below this */

/* A probe description's match, reused for the same text in later clauses. */
struct d_mcache {
	struct d_mcache *mc_next;
	char *mc_key;			/* "prov:mod:func:name" */
	int mc_n;
	struct d_probe *mc_probes[];
};

struct d_macro {
	int dm_argc;
	char **dm_argv;
};

/* What the parser asks of the type checker while it parses, as DTrace's
 * grammar actions do: the value of a constant expression (array sizes,
 * enumerators, bit-field widths), and the check of an inline or a
 * translator as it is declared.  The parser calls through this table,
 * which d_open fills with d_cook_sema, so it names no later stage. */
struct d_sema {
	struct d_node *(*sm_const_expr)(struct d_hdl *dh, struct d_node *n);
	void (*sm_inline)(struct d_hdl *dh, struct d_var *v);
	void (*sm_xlator)(struct d_hdl *dh, struct d_xlator *xl);
};

struct d_hdl {
	const char *dh_prog;
	const struct d_sema *dh_sema;	/* the checker, for the parser */
	FILE *dh_out, *dh_err;
	FILE *dh_out0;			/* dh_out before freopen() */
	struct d_arena dh_arena;
	struct d_arena dh_nodes;	/* AST of the clause being compiled */
	bool dh_tmpnodes;		/* d_node_alloc uses dh_nodes */
	struct d_mcache *dh_mcache;	/* probe descriptions already matched */
	char dh_errmsg[1024];
	int dh_errtag;
	jmp_buf *dh_jmp;
	const char *dh_cfile;		/* script being compiled (NULL: -n) */
	const char *dh_ctext;		/* -n text being compiled */

	/* options */
	int64_t dh_opt[O_NOPTIONS];
	bool dh_optset[O_NOPTIONS];
	const char *dh_optstr[O_NOPTIONS];	/* string-valued options */
	const char *dh_script;		/* first script file or -n text (dout titles) */

	/* types and names */
	struct d_tname *dh_tnames;	/* typedefs and base types */
	struct d_tname *dh_tags;	/* struct/union/enum tags */
	struct d_type *dh_t_int, *dh_t_uint, *dh_t_long, *dh_t_ulong;
	struct d_type *dh_t_char, *dh_t_uchar, *dh_t_void, *dh_t_string;
	struct d_type *dh_t_agg;	/* an aggregation named in an expression */
	struct d_type *dh_t_voidp, *dh_t_charp, *dh_t_int64, *dh_t_uint64;
	struct d_type *dh_t_short, *dh_t_ushort;
	struct d_type *dh_t_llong, *dh_t_ullong;
	struct d_xlator *dh_xlators;
	struct d_probe **dh_cc_probes;	/* probes of the clause being cooked */
	struct d_tname *dh_decltexts;	/* provider declarations compiled */
	int dh_cc_nprobes;

	/* variables */
	struct d_var *dh_vars;		/* globals, self->, this->, inlines */
	struct d_var *dh_varhash[D_VARHASH];	/* the same by name: an enum of
					 * 100k enumerators must not take n^2 */
	int dh_nvarids;
	uint32_t dh_gsize, dh_lsize;	/* global / clause-local storage */
	uint8_t *dh_gdata, *dh_ldata;
	struct d_agginfo *dh_aggs;

	/* macro arguments */
	struct d_macro dh_macro;
	int32_t dh_target;
	bool dh_target_set;
	bool *dh_macro_used;

	/* program */
	const struct d_catalog *dh_cat;
	const struct d_symbolizer *dh_sym;
	struct d_clause *dh_clauses, **dh_cltail;
	struct d_desc *dh_descs, **dh_desctail;
	struct d_probe **dh_probehash;	/* by probe id, chained */
	uint32_t dh_nprobehash;
	struct d_probe **dh_bydense;	/* dense table for small ids */
	uint32_t dh_ndense;
	uint32_t dh_nepid;
	struct d_ecb **dh_ecbs;		/* by epid */
	uint32_t dh_ecbcap;

	/* bytecode constant pools (shared by all clauses) */
	uint64_t *dh_k;
	uint32_t dh_nk, dh_kcap;
	struct d_actsite *dh_acts;
	uint32_t dh_nacts, dh_actcap;
	struct d_dvsite *dh_dvs;
	uint32_t dh_ndvs, dh_dvcap;
	struct d_aggsite *dh_aggsites;
	uint32_t dh_naggsites, dh_aggsitecap;

	/* runtime */
	dagg_set_t *dh_aggset;
	dspec_t *dh_spec;
	struct d_dvtab dh_dv;
	struct dfmt_ctx dh_fctx;
	char *dh_scratch;
	size_t dh_scratch_size;
	uint8_t *dh_keybuf;		/* key encoding for one access */
	uint8_t *dh_encbuf;		/* action argument encodings */
	size_t dh_encbuf_size;
	uint8_t *dh_zero;		/* what absent by-reference dynvars read as */
	size_t dh_zero_size;
	FILE *dh_clbuf;			/* a clause's records before commit */
	char *dh_clbuf_mem;
	size_t dh_clbuf_len;
	bool dh_header_done;
	bool dh_uses_copyin;		/* d_uses_stacks() bit 4 */
	bool dh_destructive;		/* a destructive action: needs -w */
	bool dh_uses_vtimestamp;	/* d_uses_vtimestamp() */
	int dh_stack_bvars;		/* d_uses_stacks() bits 1, 2 from builtins */
	char dh_selfcomm[16];		/* execname of BEGIN/END/ERROR firings */
	bool dh_going, dh_stopped, dh_exited;
	int dh_exitcode;
	bool dh_in_error;		/* firing ERROR: no recursion */
	uint64_t dh_rand;
	uint64_t dh_nerrors;
	uint64_t dh_cpuerr[D_ERRCPUS];	/* faults per CPU since the last report */
	uint64_t dh_drops_reported;
	uint64_t dh_lasttick;
};

/* Diagnostics: d_error() longjmps out of d_compile(). */
_Noreturn void d_error(struct d_hdl *dh, int tag, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
_Noreturn void d_error_at(struct d_lex *lx, int tag, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
struct d_probe *d_probe_find(struct d_hdl *dh, uint32_t id);
int d_proc_read(void *ctx, int32_t pid, struct d_procinfo *out);
void d_dout_opts(struct d_hdl *dh, struct dout_opts *o);

/* Parser / cook / compiler entry points. */
struct d_pclause {
	struct d_desc **pc_descs;	/* pc_ndescs of them (arena, doubled) */
	struct d_probe_desc *pc_pd;
	int pc_ndescs, pc_descap;
	struct d_node *pc_pred;
	struct d_node *pc_body;		/* statement list */
	bool pc_hasbody;
	int pc_line;
	struct d_pclause *pc_next;
};
struct d_program {
	struct d_pclause *pg_clauses, **pg_tail;
	const char *pg_file;
};
/* Parses the program; calls clause(arg, pc) for each probe clause as soon
 * as it is parsed (so that its AST can be compiled and dropped). */
void d_parse_program(struct d_hdl *dh, struct d_lex *lx, struct d_program *pg,
    void (*clause)(void *arg, struct d_pclause *pc), void *arg);
void d_parse_pragma(struct d_lex *lx, const char *line, size_t len);
bool d_provider_exists(struct d_hdl *dh, const char *prov);
/* Without a catalog: dtrace:::BEGIN/END/ERROR (d_catalog.c). */
int d_builtin_match(const struct d_probe_desc *pd, d_probe_cb cb, void *arg);
struct d_node *d_node_new(struct d_hdl *dh, int kind, int line);

/* Cook one clause's predicate and body against its matched probes. */
void d_cook_clause(struct d_hdl *dh, struct d_pclause *pc, struct d_probe **probes, int nprobes);
struct d_node *d_cook_expr(struct d_hdl *dh, struct d_node *n);
void d_cook_decl_inline(struct d_hdl *dh, struct d_var *v);
void d_cook_xlator_check(struct d_hdl *dh, struct d_xlator *xl);
extern const struct d_sema d_cook_sema;	/* the three above */

struct d_clause *d_compile_clause(struct d_hdl *dh, struct d_pclause *pc);
void d_disasm(struct d_hdl *dh, const struct d_clause *cl, FILE *fp);

/* Translators compiled in at d_open (curpsinfo, curlwpsinfo...). */
void d_builtin_decls(struct d_hdl *dh);

/* Firing helpers (d_core.c) that the VM calls for actions. */
int d_act_exec(struct d_vm *vm, const struct d_actsite *as, uint64_t *r);
uint64_t d_bvar_value(struct d_vm *vm, int bv, int *fault);

#endif
