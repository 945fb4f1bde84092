/*
 * d_errtags.h — the D compiler's error tags.
 *
 * One tag per distinct compile-time error, named as DTrace names them so
 * that `-x errtags` output ("[D_OP_ARITH] ...") and tests written against
 * DTrace's tag set agree.  d_errtag_name() maps a tag to its text; the
 * table in d_errtags.c is generated from the same X-macro list below, so
 * the enum and the names cannot drift apart.
 */
#ifndef PMCTRACE_D_ERRTAGS_H
#define PMCTRACE_D_ERRTAGS_H

#define D_ERRTAG_LIST(X) \
	X(D_UNKNOWN)		/* unclassified compiler error */ \
	X(D_SYNTAX)		/* the token stream does not parse */ \
	X(D_EMPTY)		/* nothing to compile */ \
	X(D_TYPE_ERR)		/* a type name does not resolve */ \
	X(D_TYPE_MEMBER)	/* no such member in the type */ \
	X(D_CG_EXPR)		/* an action used inside an expression */ \
	X(D_CG_DYN)		/* expression yields a dynamic result */ \
	X(D_ID_OFLOW)		/* too many identifiers / registers */ \
	X(D_PDESC_ZERO)		/* a probe description matches nothing */ \
	X(D_PDESC_INVAL)	/* a probe description is malformed */ \
	X(D_PRED_SCALAR)	/* predicate is not scalar */ \
	X(D_FUNC_IDENT)		/* call of something that is not a name */ \
	X(D_FUNC_UNDEF)		/* call of an unknown function */ \
	X(D_FUNC_IDKIND)	/* call of a name that is not a function */ \
	X(D_OFFSETOF_TYPE)	/* offsetof of a non struct/union */ \
	X(D_OFFSETOF_BITFIELD)	/* offsetof of a bit-field */ \
	X(D_SIZEOF_TYPE)	/* sizeof of void, function, dynamic */ \
	X(D_SIZEOF_BITFIELD)	/* sizeof of a bit-field */ \
	X(D_STRINGOF_TYPE)	/* stringof of a non-scalar */ \
	X(D_OP_IDENT)		/* operand must be an identifier */ \
	X(D_OP_INT)		/* operand must be integral */ \
	X(D_OP_SCALAR)		/* operand must be scalar */ \
	X(D_OP_ARITH)		/* operand must be arithmetic */ \
	X(D_OP_WRITE)		/* operand is not writable */ \
	X(D_OP_LVAL)		/* operand must be an lvalue */ \
	X(D_OP_INCOMPAT)	/* operand types do not match */ \
	X(D_OP_VFPTR)		/* void or function pointer arithmetic */ \
	X(D_OP_ARRFUN)		/* operand is an array or function */ \
	X(D_OP_PTR)		/* operand must be a pointer */ \
	X(D_OP_SOU)		/* operand must be a struct or union */ \
	X(D_OP_INCOMPLETE)	/* operand has an incomplete type */ \
	X(D_OP_DYN)		/* operand has a dynamic type */ \
	X(D_OP_ACT)		/* operand is an action */ \
	X(D_AGG_REDEF)		/* aggregation redefined differently */ \
	X(D_AGG_FUNC)		/* aggregating function required */ \
	X(D_AGG_MDIM)		/* aggregation indexed twice */ \
	X(D_ARR_BADREF)		/* tuple index of a non-array */ \
	X(D_ARR_LOCAL)		/* local associative array */ \
	X(D_DIV_ZERO)		/* constant division by zero */ \
	X(D_DEREF_NONPTR)	/* * of a non-pointer */ \
	X(D_DEREF_VOID)		/* * of a void pointer */ \
	X(D_DEREF_FUNC)		/* * of a function pointer */ \
	X(D_ADDROF_LVAL)	/* & of a non-lvalue */ \
	X(D_ADDROF_VAR)		/* & of a D variable */ \
	X(D_ADDROF_BITFIELD)	/* & of a bit-field */ \
	X(D_XLATE_REDECL)	/* translator declared twice */ \
	X(D_XLATE_NOCONV)	/* translator lacks the member */ \
	X(D_XLATE_NONE)		/* no translator for the types */ \
	X(D_XLATE_SOU)		/* translator output not struct/union */ \
	X(D_XLATE_INCOMPAT)	/* translator member type mismatch */ \
	X(D_XLATE_MEMB)		/* translator names an unknown member */ \
	X(D_CAST_INVAL)		/* invalid cast */ \
	X(D_PRAGERR)		/* #pragma error */ \
	X(D_PRAGCTL_INVAL)	/* invalid control line */ \
	X(D_PRAGMA_INVAL)	/* unknown #pragma D directive */ \
	X(D_PRAGMA_UNUSED)	/* #pragma has no effect */ \
	X(D_PRAGMA_MALFORM)	/* malformed #pragma arguments */ \
	X(D_PRAGMA_OPTSET)	/* #pragma D option failed */ \
	X(D_PRAGMA_SCOPE)	/* #pragma identifier scope */ \
	X(D_PRAGMA_DEPEND)	/* #pragma dependency not met */ \
	X(D_MACRO_UNDEF)	/* $N beyond the arguments given */ \
	X(D_MACRO_OFLOW)	/* macro argument overflows */ \
	X(D_MACRO_UNUSED)	/* a macro argument is never used */ \
	X(D_INT_OFLOW)		/* integer constant too large */ \
	X(D_INT_DIGIT)		/* bad digit in integer constant */ \
	X(D_STR_NL)		/* newline inside a string literal */ \
	X(D_CHR_NL)		/* newline inside a char constant */ \
	X(D_CHR_NULL)		/* empty char constant */ \
	X(D_CHR_OFLOW)		/* char constant too long */ \
	X(D_IDENT_BADREF)	/* identifier used as the wrong kind */ \
	X(D_IDENT_UNDEF)	/* unknown identifier */ \
	X(D_IDENT_AMBIG)	/* identifier is ambiguous */ \
	X(D_SYM_BADREF)		/* bad symbol reference */ \
	X(D_SYM_NOTYPES)	/* no type data for the symbol */ \
	X(D_VAR_UNDEF)		/* reference to an undefined variable */ \
	X(D_VAR_UNSUP)		/* unsupported variable form */ \
	X(D_PROTO_LEN)		/* wrong number of arguments */ \
	X(D_PROTO_ARG)		/* argument type mismatch */ \
	X(D_ARGS_MULTI)		/* args[] over probes of differing types */ \
	X(D_ARGS_XLATOR)	/* no translator for args[] */ \
	X(D_ARGS_NONE)		/* probe has no args[] */ \
	X(D_ARGS_TYPE)		/* args[] type unknown */ \
	X(D_ARGS_IDX)		/* args[] index out of range */ \
	X(D_REGS_IDX)		/* uregs[] index out of range */ \
	X(D_KEY_TYPE)		/* invalid key type */ \
	X(D_PRINTF_DYN_PROTO)	/* * width argument missing */ \
	X(D_PRINTF_DYN_TYPE)	/* * width argument not integer */ \
	X(D_PRINTF_AGG_CONV)	/* %@ outside printa */ \
	X(D_PRINTF_ARG_PROTO)	/* conversion without argument */ \
	X(D_PRINTF_ARG_TYPE)	/* argument does not fit conversion */ \
	X(D_PRINTF_ARG_EXTRA)	/* more arguments than conversions */ \
	X(D_PRINTF_ARG_FMT)	/* format is not a string constant */ \
	X(D_PRINTF_FMT_EMPTY)	/* format string is empty */ \
	X(D_DECL_CHARATTR)	/* bad char declaration */ \
	X(D_DECL_VOIDATTR)	/* bad void declaration */ \
	X(D_DECL_SIGNINT)	/* signed/unsigned with non-integer */ \
	X(D_DECL_LONGINT)	/* long with non-arithmetic */ \
	X(D_DECL_IDENT)		/* bad declaration */ \
	X(D_DECL_CLASS)		/* two storage classes */ \
	X(D_DECL_BADCLASS)	/* storage class not in D */ \
	X(D_DECL_PARMCLASS)	/* bad parameter class */ \
	X(D_DECL_COMBO)		/* bad specifier combination */ \
	X(D_DECL_ARRSUB)	/* array size not an integer constant */ \
	X(D_DECL_ARRNULL)	/* array without dimension */ \
	X(D_DECL_ARRBIG)	/* array too large */ \
	X(D_DECL_IDRED)		/* identifier redeclared */ \
	X(D_DECL_TYPERED)	/* type redeclared */ \
	X(D_DECL_MNAME)		/* member without a name */ \
	X(D_DECL_SCOPE)		/* scoping operator in declaration */ \
	X(D_DECL_BFCONST)	/* bit-field width not constant */ \
	X(D_DECL_BFSIZE)	/* bit-field wider than its type */ \
	X(D_DECL_BFTYPE)	/* bit-field of a non-integer */ \
	X(D_DECL_ENCONST)	/* enumerator value not constant */ \
	X(D_DECL_ENOFLOW)	/* enumerator beyond INT_MAX */ \
	X(D_DECL_USELESS)	/* declaration declares nothing */ \
	X(D_DECL_LOCASSC)	/* local associative array */ \
	X(D_DECL_VOIDOBJ)	/* object of type void */ \
	X(D_DECL_DYNOBJ)	/* object of dynamic type */ \
	X(D_DECL_INCOMPLETE)	/* object of incomplete type */ \
	X(D_DECL_PROTO_VARARGS)	/* varargs in prototype */ \
	X(D_DECL_PROTO_TYPE)	/* bad prototype type */ \
	X(D_DECL_PROTO_VOID)	/* void not sole parameter */ \
	X(D_DECL_PROTO_NAME)	/* named void parameter */ \
	X(D_DECL_PROTO_FORM)	/* parameter without formal */ \
	X(D_COMM_COMM)		/* commit() after commit() */ \
	X(D_COMM_DREC)		/* commit() after a data action */ \
	X(D_SPEC_SPEC)		/* speculate() twice */ \
	X(D_SPEC_COMM)		/* speculate() after commit() */ \
	X(D_SPEC_DREC)		/* speculate() after a data action */ \
	X(D_AGG_COMM)		/* aggregation after commit() */ \
	X(D_AGG_SPEC)		/* aggregation after speculate() */ \
	X(D_AGG_NULL)		/* aggregation used without a function */ \
	X(D_AGG_SCALAR)		/* aggregating function needs a scalar */ \
	X(D_ACT_SPEC)		/* destructive action after speculate() */ \
	X(D_EXIT_SPEC)		/* exit() after speculate() */ \
	X(D_DREC_COMM)		/* data action after commit() */ \
	X(D_PRINTA_PROTO)	/* printa() arguments */ \
	X(D_PRINTA_AGGARG)	/* printa() of a non-aggregation */ \
	X(D_PRINTA_AGGBAD)	/* printa() of an undefined aggregation */ \
	X(D_TRACE_VOID)		/* trace() of void */ \
	X(D_TRACE_DYN)		/* trace() of a dynamic value */ \
	X(D_TRACEMEM_ADDR)	/* tracemem() address type */ \
	X(D_TRACEMEM_SIZE)	/* tracemem() size type */ \
	X(D_STACK_PROTO)	/* stack() arguments */ \
	X(D_STACK_SIZE)		/* stack() size type */ \
	X(D_USTACK_FRAMES)	/* ustack() frames type */ \
	X(D_USTACK_STRSIZE)	/* ustack() strsize type */ \
	X(D_USTACK_PROTO)	/* ustack() arguments */ \
	X(D_LQUANT_BASETYPE)	/* lquantize() base type */ \
	X(D_LQUANT_BASEVAL)	/* lquantize() base value */ \
	X(D_LQUANT_LIMTYPE)	/* lquantize() limit type */ \
	X(D_LQUANT_LIMVAL)	/* lquantize() limit value */ \
	X(D_LQUANT_MISMATCH)	/* lquantize() limit <= base */ \
	X(D_LQUANT_STEPTYPE)	/* lquantize() step type */ \
	X(D_LQUANT_STEPVAL)	/* lquantize() step value */ \
	X(D_LQUANT_STEPLARGE)	/* lquantize() step too large */ \
	X(D_LQUANT_STEPSMALL)	/* lquantize() step too small */ \
	X(D_CLEAR_PROTO)	/* clear() arguments */ \
	X(D_CLEAR_AGGARG)	/* clear() of a non-aggregation */ \
	X(D_CLEAR_AGGBAD)	/* clear() of an undefined aggregation */ \
	X(D_NORMALIZE_PROTO)	/* normalize() arguments */ \
	X(D_NORMALIZE_SCALAR)	/* normalize() factor type */ \
	X(D_NORMALIZE_AGGARG)	/* normalize() of a non-aggregation */ \
	X(D_NORMALIZE_AGGBAD)	/* normalize() of an undefined aggregation */ \
	X(D_TRUNC_PROTO)	/* trunc() arguments */ \
	X(D_TRUNC_SCALAR)	/* trunc() count type */ \
	X(D_TRUNC_AGGARG)	/* trunc() of a non-aggregation */ \
	X(D_TRUNC_AGGBAD)	/* trunc() of an undefined aggregation */ \
	X(D_PROV_BADNAME)	/* bad provider name */ \
	X(D_PRINT_VOID)		/* print() of void */ \
	X(D_PRINT_AGG)		/* print() of an aggregation */ \
	X(D_SETOPT_PROTO)	/* setopt() arguments */ \
	X(D_FREOPEN_INVALID)	/* freopen() file name invalid */ \
	X(D_LLQUANT_FACTORTYPE)	/* llquantize() factor type */ \
	X(D_LLQUANT_FACTORVAL)	/* llquantize() factor value */ \
	X(D_LLQUANT_FACTORNSTEPS) /* llquantize() steps vs factor */ \
	X(D_LLQUANT_FACTOREVEN)	/* llquantize() factor/steps divisibility */ \
	X(D_LLQUANT_FACTORSMALL) /* llquantize() factor too small */ \
	X(D_LLQUANT_MAGRANGE)	/* llquantize() magnitude range */ \
	X(D_LLQUANT_MAGTYPE)	/* llquantize() magnitude type */ \
	X(D_LLQUANT_NSTEPTYPE)	/* llquantize() nsteps type */ \
	X(D_LLQUANT_NSTEPVAL)	/* llquantize() nsteps value */ \
	X(D_LLQUANT_LOWVAL)	/* llquantize() low value */ \
	X(D_LLQUANT_HIGHVAL)	/* llquantize() high value */ \
	X(D_LLQUANT_MAGTOOBIG)	/* llquantize() factor^(high+1) overflows */ \
	X(D_LLQUANT_LMAGTYPE)	/* llquantize() low magnitude not constant */ \
	X(D_LLQUANT_LMAGVAL)	/* llquantize() low magnitude value */ \
	X(D_LLQUANT_HMAGTYPE)	/* llquantize() high magnitude not constant */ \
	X(D_LLQUANT_HMAGVAL)	/* llquantize() high magnitude value */ \
	X(D_LLQUANT_STEPTYPE)	/* llquantize() steps not positive constant */ \
	X(D_LLQUANT_STEPVAL)	/* llquantize() steps value */ \
	X(D_LLQUANT_MATCHFACTOR) /* llquantize() factor differs from before */ \
	X(D_LLQUANT_MATCHLMAG)	/* llquantize() low magnitude differs */ \
	X(D_LLQUANT_MATCHHMAG)	/* llquantize() high magnitude differs */ \
	X(D_LLQUANT_MATCHSTEPS)	/* llquantize() steps differ */ \
	X(D_LQUANT_MATCHBASE)	/* lquantize() base differs from before */ \
	X(D_LQUANT_MATCHLIM)	/* lquantize() limit differs from before */ \
	X(D_LQUANT_MATCHSTEP)	/* lquantize() step differs from before */ \
	X(D_PRINTA_AGGKEY)	/* printa() aggregations' key counts differ */ \
	X(D_PRINTA_AGGPROTO)	/* printa() aggregations' key types differ */ \
	X(D_ACT_DESTRUCT)	/* destructive action without -w */ \
	X(D_VERSION)		/* unsupported D version */

#define D_ERRTAG_ENUM(t) t,
enum d_errtag { D_ERRTAG_LIST(D_ERRTAG_ENUM) D_NERRTAGS };
#undef D_ERRTAG_ENUM

const char *d_errtag_name(int tag);
/* Tag by name (for tags dfmt/dagg hand back as text); D_UNKNOWN if none. */
int d_errtag_byname(const char *name);

#endif
