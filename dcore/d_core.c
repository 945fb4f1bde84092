/*
 * d_core.c — the public API (dcore.h): handle, compile driver, probe
 * matching, firing dispatch, ERROR probe, END and exit-time printing.
 *
 * Usage recipe (what cli/ does):
 *   dh = d_open(prog, stdout, &err);  d_setopt(dh, ...)*;  d_set_catalog(dh, cat);
 *   d_compile(dh, text, file)*;  d_describe(dh, cb, arg);
 *   d_go(dh);  while (running) d_fire(dh, &firing) / d_tick(dh, now);
 *   d_stop(dh);  exit(d_exit_code(dh));  d_close(dh);
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dcore/d_impl.h"

/* ---- open / close / options ------------------------------------------------------ */

/* D declarations every program sees: the process records behind
 * curpsinfo/curlwpsinfo/curcpu and their translators, fault codes. */
static const char d_prelude[] =
    "struct __pmct_proc { int pid; int ppid; int uid; int gid;\n"
    "    char fname[16]; char psargs[80]; int tid; int cpu; };\n"
    "typedef struct timestruc { time_t tv_sec; long tv_nsec; } timestruc_t;\n"
    "typedef struct psinfo { int pr_flag; int pr_nlwp; pid_t pr_pid; pid_t pr_ppid;\n"
    "    pid_t pr_pgid; pid_t pr_sid; uid_t pr_uid; uid_t pr_euid; gid_t pr_gid;\n"
    "    gid_t pr_egid; uintptr_t pr_addr; size_t pr_size; size_t pr_rssize;\n"
    "    dev_t pr_ttydev; ushort_t pr_pctcpu; ushort_t pr_pctmem; timestruc_t pr_start;\n"
    "    timestruc_t pr_time; timestruc_t pr_ctime; char pr_fname[16];\n"
    "    char pr_psargs[80]; int pr_wstat; int pr_argc; uintptr_t pr_argv;\n"
    "    uintptr_t pr_envp; char pr_dmodel; taskid_t pr_taskid; projid_t pr_projid;\n"
    "    int pr_nzomb; zoneid_t pr_zoneid; } psinfo_t;\n"
    "typedef struct lwpsinfo { int pr_flag; id_t pr_lwpid; uintptr_t pr_addr;\n"
    "    uintptr_t pr_wchan; char pr_stype; char pr_state; char pr_sname; char pr_nice;\n"
    "    short pr_syscall; char pr_oldpri; char pr_cpu; int pr_pri; ushort_t pr_pctcpu;\n"
    "    timestruc_t pr_start; timestruc_t pr_time; char pr_clname[8]; char pr_name[16];\n"
    "    processorid_t pr_onpro; processorid_t pr_bindpro; psetid_t pr_bindpset; } lwpsinfo_t;\n"
    "typedef struct cpuinfo { processorid_t cpu_id; psetid_t cpu_pset;\n"
    "    int cpu_chip; lgrp_id_t cpu_lgrp; } cpuinfo_t;\n"
    "translator psinfo_t < struct __pmct_proc *P > {\n"
    "    pr_nlwp = 1; pr_pid = P->pid; pr_ppid = P->ppid; pr_pgid = P->pid;\n"
    "    pr_sid = P->pid; pr_uid = P->uid; pr_euid = P->uid; pr_gid = P->gid;\n"
    "    pr_egid = P->gid; pr_fname = P->fname; pr_psargs = P->psargs;\n"
    "    pr_dmodel = 2; pr_zoneid = 0; pr_projid = 0; pr_taskid = 0; };\n"
    "translator lwpsinfo_t < struct __pmct_proc *P > {\n"
    "    pr_lwpid = P->tid; pr_onpro = P->cpu; pr_bindpro = -1; pr_bindpset = -1;\n"
    "    pr_sname = 'O'; pr_state = 6; pr_name = P->fname; pr_clname = \"TS\"; };\n"
    "translator cpuinfo_t < struct __pmct_proc *P > {\n"
    "    cpu_id = P->cpu; cpu_pset = -1; cpu_chip = P->cpu; cpu_lgrp = 0; };\n"
    "inline psinfo_t *curpsinfo = xlate <psinfo_t *> (__curproc);\n"
    "inline lwpsinfo_t *curlwpsinfo = xlate <lwpsinfo_t *> (__curproc);\n"
    "inline cpuinfo_t *curcpu = xlate <cpuinfo_t *> (__curproc);\n"
    "inline int NULL = 0;\n"
    "inline int DTRACEFLT_UNKNOWN = 0; inline int DTRACEFLT_BADADDR = 1;\n"
    "inline int DTRACEFLT_BADALIGN = 2; inline int DTRACEFLT_ILLOP = 3;\n"
    "inline int DTRACEFLT_DIVZERO = 4; inline int DTRACEFLT_NOSCRATCH = 5;\n"
    "inline int DTRACEFLT_KPRIV = 6; inline int DTRACEFLT_UPRIV = 7;\n"
    "inline int DTRACEFLT_TUPOFLOW = 8; inline int DTRACEFLT_BADSTACK = 9;\n"
    "inline int DTRACEFLT_LIBRARY = 1000;\n"
    "inline int AF_INET = 2; inline int AF_INET6 = 10;\n"
    "inline int SIDL = 1; inline int SRUN = 2; inline int SSLEEP = 3;\n"
    "inline int SSTOP = 4; inline int SZOMB = 5; inline int SONPROC = 6;\n";

static int d_compile_text(d_hdl_t *dh, const char *text, const char *file, bool user);

static int
d_open_types(d_hdl_t *dh)
{
	jmp_buf jb;
	dh->dh_jmp = &jb;
	if (setjmp(jb)) {
		dh->dh_jmp = NULL;
		return -1;
	}
	d_types_init(dh);
	dh->dh_jmp = NULL;
	return 0;
}

d_hdl_t *
d_open(const char *progname, FILE *out, int *errp)
{
	d_hdl_t *dh = calloc(1, sizeof(*dh));
	if (!dh) {
		*errp = -ENOMEM;
		return NULL;
	}
	dh->dh_prog = progname ? progname : "pmctrace";
	dh->dh_sema = &d_cook_sema;
	dh->dh_out = dh->dh_out0 = out ? out : stdout;
	dh->dh_err = stderr;
	dh->dh_cltail = &dh->dh_clauses;
	dh->dh_desctail = &dh->dh_descs;
	dh->dh_rand = ((uint64_t)time(NULL) * 2654435761ULL ^ (uint64_t)getpid()) | 1;
	d_opt_defaults(dh);
	int err = 0;
	dh->dh_aggset = dagg_set_create((uint64_t)dh->dh_opt[O_AGGSIZE], dh->dh_prog, &err);
	if (!dh->dh_aggset) {
		free(dh);
		*errp = err ? err : -ENOMEM;
		return NULL;
	}
	if (d_open_types(dh) != 0 || d_compile_text(dh, d_prelude, "<prelude>", false) != 0) {
		d_close(dh);
		*errp = -EINVAL;
		return NULL;
	}
	*errp = 0;
	return dh;
}

void
d_close(d_hdl_t *dh)
{
	if (!dh)
		return;
	if (dh->dh_clbuf)
		fclose(dh->dh_clbuf);
	free(dh->dh_clbuf_mem);
	if (dh->dh_out != dh->dh_out0)
		fclose(dh->dh_out);
	for (uint32_t i = 0; i < dh->dh_nacts; i++)
		dfmt_free(dh->dh_acts[i].as_fmt);
	if (dh->dh_aggset)
		dagg_set_destroy(dh->dh_aggset);
	if (dh->dh_spec)
		dspec_destroy(dh->dh_spec);
	d_dv_fini(&dh->dh_dv);
	free(dh->dh_gdata);
	free(dh->dh_ldata);
	free(dh->dh_scratch);
	free(dh->dh_keybuf);
	free(dh->dh_encbuf);
	free(dh->dh_zero);
	free(dh->dh_bydense);
	free(dh->dh_probehash);
	free(dh->dh_ecbs);
	free(dh->dh_macro_used);
	free(dh->dh_k);
	free(dh->dh_acts);
	free(dh->dh_dvs);
	free(dh->dh_aggsites);
	d_arena_free(&dh->dh_nodes);
	for (struct d_mcache *mc = dh->dh_mcache, *nx; mc; mc = nx) {
		nx = mc->mc_next;
		free(mc);
	}
	for (int i = 0; i < O_NOPTIONS; i++)
		free((char *)dh->dh_optstr[i]);
	d_arena_free(&dh->dh_arena);
	free(dh);
}

int
d_setopt(d_hdl_t *dh, const char *name, const char *value)
{
	if (d_opt_set(dh, name, value) != 0)
		return -1;
	if (dh->dh_going)
		d_opt_apply_runtime(dh);
	return 0;
}

int
d_getopt(d_hdl_t *dh, const char *name, int64_t *value)
{
	return d_opt_get(dh, name, value);
}

int
d_set_macro_args(d_hdl_t *dh, int argc, char *const argv[])
{
	dh->dh_macro.dm_argc = argc;
	dh->dh_macro.dm_argv = d_alloc(dh, (size_t)(argc + 1) * sizeof(char *));
	for (int i = 0; i < argc; i++)
		dh->dh_macro.dm_argv[i] = d_strdup(dh, argv[i]);
	free(dh->dh_macro_used);
	dh->dh_macro_used = calloc((size_t)argc + 1, sizeof(bool));
	return dh->dh_macro_used ? 0 : -ENOMEM;
}

void
d_set_target(d_hdl_t *dh, int32_t pid)
{
	dh->dh_target = pid;
	dh->dh_target_set = true;
	dh->dh_fctx.fc_target = pid;	/* %A of a plain integer: the target's address */
}

void
d_set_catalog(d_hdl_t *dh, const struct d_catalog *cat)
{
	dh->dh_cat = cat;
}

void
d_set_symbolizer(d_hdl_t *dh, const struct d_symbolizer *sym)
{
	dh->dh_sym = sym;
	dh->dh_fctx.fc_sym = sym;
}

void
d_set_errfile(d_hdl_t *dh, FILE *err)
{
	dh->dh_err = err ? err : stderr;
}

const char *
d_errmsg(d_hdl_t *dh)
{
	return dh->dh_errmsg;
}

int
d_exit_code(d_hdl_t *dh)
{
	return dh->dh_exitcode;
}

/* ---- probes ------------------------------------------------------------------------ */

#define D_DENSE_MAX	(1u << 20)

struct d_probe *
d_probe_find(d_hdl_t *dh, uint32_t id)
{
	if (id < dh->dh_ndense)
		return dh->dh_bydense[id];
	if (!dh->dh_nprobehash)
		return NULL;
	for (struct d_probe *p = dh->dh_probehash[id & (dh->dh_nprobehash - 1)]; p; p = p->pr_hnext)
		if (p->pr_id == id)
			return p;
	return NULL;
}

static void
d_probe_insert(d_hdl_t *dh, struct d_probe *p)
{
	if (p->pr_id < D_DENSE_MAX) {
		if (p->pr_id >= dh->dh_ndense) {
			uint32_t n = dh->dh_ndense ? dh->dh_ndense : 64;
			while (n <= p->pr_id)
				n *= 2;
			struct d_probe **t = realloc(dh->dh_bydense, n * sizeof(*t));
			if (!t)
				d_error(dh, D_UNKNOWN, 0, "out of memory");
			memset(t + dh->dh_ndense, 0, (n - dh->dh_ndense) * sizeof(*t));
			dh->dh_bydense = t;
			dh->dh_ndense = n;
		}
		dh->dh_bydense[p->pr_id] = p;
		return;
	}
	if (!dh->dh_nprobehash) {
		dh->dh_probehash = calloc(4096, sizeof(*dh->dh_probehash));
		if (!dh->dh_probehash)
			d_error(dh, D_UNKNOWN, 0, "out of memory");
		dh->dh_nprobehash = 4096;
	}
	uint32_t i = p->pr_id & (dh->dh_nprobehash - 1);
	p->pr_hnext = dh->dh_probehash[i];
	dh->dh_probehash[i] = p;
}

struct d_cook_argtype_fn;
struct d_type *d_cook_argtype(struct d_hdl *dh, const char *name);

struct d_matchctx {
	d_hdl_t *mc_dh;
	struct d_probe **mc_probes;
	int mc_n, mc_cap;
};

/* A provider's declarations, compiled once per distinct text.  Errors
 * unwind to the d_compile() in progress. */
static void
d_compile_decls(d_hdl_t *dh, const char *text)
{
	for (struct d_tname *t = dh->dh_decltexts; t; t = t->tn_next)
		if (t->tn_name == text || strcmp(t->tn_name, text) == 0)
			return;
	struct d_tname *t = d_alloc(dh, sizeof(*t));
	t->tn_name = d_strdup(dh, text);
	t->tn_next = dh->dh_decltexts;
	dh->dh_decltexts = t;
	struct d_lex lx;
	struct d_program pg;
	memset(&pg, 0, sizeof(pg));
	pg.pg_tail = &pg.pg_clauses;
	d_lex_init(&lx, dh, text, "<provider>");
	bool tmp = dh->dh_tmpnodes;
	dh->dh_tmpnodes = false;	/* declarations persist */
	d_parse_program(dh, &lx, &pg, NULL, NULL);
	dh->dh_tmpnodes = tmp;
	if (pg.pg_clauses)
		d_error(dh, D_SYNTAX, 0, "provider declarations may not contain probe clauses");
}

/* Add p to the clause's probes once (several descriptions may match it). */
static void
d_match_add(struct d_matchctx *mc, struct d_probe *p)
{
	for (int i = 0; i < mc->mc_n; i++)
		if (mc->mc_probes[i] == p)
			return;
	if (mc->mc_n == mc->mc_cap) {
		int cap = mc->mc_cap ? mc->mc_cap * 2 : 4;
		struct d_probe **np = d_node_alloc(mc->mc_dh, (size_t)cap * sizeof(*np));
		if (mc->mc_n)
			memcpy(np, mc->mc_probes, (size_t)mc->mc_n * sizeof(*np));
		mc->mc_probes = np;
		mc->mc_cap = cap;
	}
	mc->mc_probes[mc->mc_n++] = p;
}

static int
d_match_cb(void *arg, const struct d_probe_info *pi)
{
	struct d_matchctx *mc = arg;
	d_hdl_t *dh = mc->mc_dh;
	struct d_probe *p = d_probe_find(dh, pi->dp_id);
	if (!p && pi->dp_decls)
		d_compile_decls(dh, pi->dp_decls);
	if (!p) {
		p = d_alloc(dh, sizeof(*p));
		p->pr_id = pi->dp_id;
		p->pr_prov = d_strdup(dh, pi->dp_prov ? pi->dp_prov : "");
		p->pr_mod = d_strdup(dh, pi->dp_mod ? pi->dp_mod : "");
		p->pr_func = d_strdup(dh, pi->dp_func ? pi->dp_func : "");
		p->pr_name = d_strdup(dh, pi->dp_name ? pi->dp_name : "");
		p->pr_nargs = pi->dp_nargs > D_MAX_ARGS ? D_MAX_ARGS : pi->dp_nargs;
		for (int i = 0; i < p->pr_nargs; i++) {
			p->pr_argtypes[i] = d_cook_argtype(dh, pi->dp_argtypes[i]);
			if (pi->dp_xargtypes[i])
				p->pr_xargtypes[i] = d_cook_argtype(dh, pi->dp_xargtypes[i]);
		}
		if (pi->dp_argstruct) {
			struct d_type *t = d_cook_argtype(dh, pi->dp_argstruct);
			if (t->dt_kind == DK_STRUCT || t->dt_kind == DK_UNION)
				p->pr_argstruct = t;
		}
		p->pr_ecbtail = &p->pr_ecbs;
		d_probe_insert(dh, p);
	}
	d_match_add(mc, p);
	return 0;
}

/* The probes a description matched before (same text in an earlier clause):
 * matching is deterministic within a session, and asking the providers
 * again costs a tracefs scan per clause. */
static struct d_mcache *
d_mcache_find(d_hdl_t *dh, const char *key)
{
	for (struct d_mcache *c = dh->dh_mcache; c; c = c->mc_next)
		if (strcmp(c->mc_key, key) == 0)
			return c;
	return NULL;
}

static void
d_mcache_add(d_hdl_t *dh, const char *key, struct d_probe **probes, int n)
{
	size_t kl = strlen(key) + 1;
	struct d_mcache *c = malloc(sizeof(*c) + (size_t)n * sizeof(*probes) + kl);
	if (!c)
		return;		/* not cached: the next clause asks again */
	c->mc_n = n;
	if (n)
		memcpy(c->mc_probes, probes, (size_t)n * sizeof(*probes));
	c->mc_key = (char *)&c->mc_probes[n];
	memcpy(c->mc_key, key, kl);
	c->mc_next = dh->dh_mcache;
	dh->dh_mcache = c;
}

static int
d_match_one(d_hdl_t *dh, struct d_probe_desc *pd, struct d_matchctx *mc, char *errbuf, size_t errlen)
{
	char key[1024];
	snprintf(key, sizeof(key), "%s:%s:%s:%s", pd->dpd_prov, pd->dpd_mod, pd->dpd_func, pd->dpd_name);
	struct d_mcache *c = d_mcache_find(dh, key);
	if (c) {
		for (int i = 0; i < c->mc_n; i++)
			d_match_add(mc, c->mc_probes[i]);
		return c->mc_n;
	}
	int before = mc->mc_n;
	int n = dh->dh_cat ? dh->dh_cat->dc_match(dh->dh_cat->dc_ctx, pd, d_match_cb, mc, errbuf, errlen)
	    : d_builtin_match(pd, d_match_cb, mc);
	if (n >= 0 && mc->mc_n - before == n)
		d_mcache_add(dh, key, n ? mc->mc_probes + before : NULL, n);
	return n;
}

static void
d_match_clause(d_hdl_t *dh, struct d_pclause *pc, struct d_matchctx *mc)
{
	for (int i = 0; i < pc->pc_ndescs; i++) {
		struct d_probe_desc *pd = &pc->pc_pd[i];
		char errbuf[512] = "";
		int before = mc->mc_n;
		int n = d_match_one(dh, pd, mc, errbuf, sizeof(errbuf));
		if (n < 0)
			d_error(dh, D_PDESC_INVAL, pc->pc_line, "%s", errbuf[0] ? errbuf : "invalid probe description");
		pc->pc_descs[i]->ds_nmatched = mc->mc_n - before;
		if (n == 0 && mc->mc_n == before && !dh->dh_opt[O_ZDEFS])
			d_error(dh, D_PDESC_ZERO, pc->pc_line, "probe description %s:%s:%s:%s does not match any probes",
			    pd->dpd_prov, pd->dpd_mod, pd->dpd_func, pd->dpd_name);
	}
}

static void
d_add_ecbs(d_hdl_t *dh, struct d_clause *cl, struct d_matchctx *mc)
{
	for (int i = 0; i < mc->mc_n; i++) {
		struct d_probe *p = mc->mc_probes[i];
		struct d_ecb *e = d_alloc(dh, sizeof(*e));
		/* EPID 1 is dtrace(1)'s own ERROR enabling (the one that prints
		 * fault messages); the program's ECBs are numbered from 2 */
		if (dh->dh_nepid == 0)
			dh->dh_nepid = 1;
		e->ec_epid = ++dh->dh_nepid;
		e->ec_clause = cl;
		e->ec_probe = p;
		*p->pr_ecbtail = e;
		p->pr_ecbtail = &e->ec_next;
		if (e->ec_epid >= dh->dh_ecbcap) {
			uint32_t cap = dh->dh_ecbcap ? dh->dh_ecbcap * 2 : 64;
			struct d_ecb **t = realloc(dh->dh_ecbs, cap * sizeof(*t));
			if (!t)
				d_error(dh, D_UNKNOWN, 0, "out of memory");
			dh->dh_ecbs = t;
			dh->dh_ecbcap = cap;
		}
		dh->dh_ecbs[e->ec_epid] = e;
	}
}

/* ---- compile --------------------------------------------------------------------- */

static void
d_check_macros(d_hdl_t *dh)
{
	if (!dh->dh_macro_used || dh->dh_opt[O_ARGREF])
		return;
	for (int i = 1; i < dh->dh_macro.dm_argc; i++)
		if (!dh->dh_macro_used[i])
			d_error(dh, D_MACRO_UNUSED, 0, "extraneous argument '%s' ($%d is not referenced)",
			    dh->dh_macro.dm_argv[i], i);
}

struct d_cctx {
	d_hdl_t *cc_dh;
	const char *cc_file;
	int cc_nclauses;
};

/* One parsed clause: match its descriptions, cook, compile, enable; then
 * drop its AST (the node arena is emptied after every clause). */
static void
d_compile_pclause(void *arg, struct d_pclause *pc)
{
	struct d_cctx *cc = arg;
	d_hdl_t *dh = cc->cc_dh;
	struct d_matchctx mc = { dh, NULL, 0, 0 };
	d_match_clause(dh, pc, &mc);
	for (int i = 0; i < pc->pc_ndescs; i++) {
		*dh->dh_desctail = pc->pc_descs[i];
		dh->dh_desctail = &pc->pc_descs[i]->ds_next;
	}
	d_cook_clause(dh, pc, mc.mc_probes, mc.mc_n);
	struct d_clause *cl = d_compile_clause(dh, pc);
	cl->cl_file = cc->cc_file;
	*dh->dh_cltail = cl;
	dh->dh_cltail = &cl->cl_next;
	d_add_ecbs(dh, cl, &mc);
	if (dh->dh_opt[O_DISASM])
		d_disasm(dh, cl, dh->dh_err);
	pc->pc_pred = pc->pc_body = NULL;
	d_arena_free(&dh->dh_nodes);
	cc->cc_nclauses++;
}

static int
d_compile_text(d_hdl_t *dh, const char *text, const char *file, bool user)
{
	jmp_buf jb;
	struct d_lex lx;
	struct d_program pg;
	struct d_cctx cc = { dh, file, 0 };
	memset(&pg, 0, sizeof(pg));
	pg.pg_tail = &pg.pg_clauses;
	dh->dh_jmp = &jb;
	dh->dh_cfile = user ? file : NULL;
	dh->dh_ctext = user && !file ? text : NULL;
	if (setjmp(jb)) {
		dh->dh_jmp = NULL;
		dh->dh_tmpnodes = false;
		d_arena_free(&dh->dh_nodes);
		return -1;
	}
	d_lex_init(&lx, dh, text, file);
	d_lex_prescan(&lx);	/* options anywhere apply to every clause */
	dh->dh_t_string->dt_size = (uint32_t)dh->dh_opt[O_STRSIZE];
	if (dh->dh_macro_used)
		memset(dh->dh_macro_used, 0, (size_t)dh->dh_macro.dm_argc * sizeof(bool));
	d_lex_init(&lx, dh, text, file);
	lx.lx_optsdone = true;
	d_parse_program(dh, &lx, &pg, d_compile_pclause, &cc);
	if (user && !cc.cc_nclauses && !dh->dh_opt[O_EMPTY] && !dh->dh_clauses)
		d_error(dh, D_EMPTY, lx.lx_line, "empty D program translation unit");
	if (user)
		d_check_macros(dh);
	dh->dh_jmp = NULL;
	return 0;
}

int
d_compile(d_hdl_t *dh, const char *text, const char *filename)
{
	if (dh->dh_going) {
		snprintf(dh->dh_errmsg, sizeof(dh->dh_errmsg), "cannot compile while tracing is active");
		return -1;
	}
	if (!dh->dh_script)
		dh->dh_script = d_strdup(dh, filename ? filename : text);
	return d_compile_text(dh, text, filename, true) ? -1 : 0;
}

void
d_describe(d_hdl_t *dh, void (*cb)(void *arg, const char *desc, int nmatched), void *arg)
{
	for (struct d_desc *d = dh->dh_descs; d; d = d->ds_next)
		cb(arg, d->ds_text, d->ds_nmatched);
}

int
d_probe_enabled(d_hdl_t *dh, uint32_t probe_id)
{
	struct d_probe *p = d_probe_find(dh, probe_id);
	return p && p->pr_ecbs;
}

/* Bit 1: some clause records kernel stacks; bit 2: user stacks. */
int
d_uses_stacks(d_hdl_t *dh)
{
	int bits = (dh->dh_uses_copyin ? 4 : 0) | dh->dh_stack_bvars;
	for (uint32_t i = 0; i < dh->dh_nacts; i++)
		for (int k = 0; k < dh->dh_acts[i].as_nargs; k++) {
			int vk = dh->dh_acts[i].as_vd[k].dv_kind;
			bits |= vk == D_VK_KSTACK ? 1 : vk == D_VK_USTACK ? 2 : 0;
		}
	for (uint32_t i = 0; i < dh->dh_naggsites; i++)
		for (int k = 0; k < dh->dh_aggsites[i].ag_nkeys; k++) {
			int vk = dh->dh_aggsites[i].ag_kvd[k].dv_kind;
			bits |= vk == D_VK_KSTACK ? 1 : vk == D_VK_USTACK ? 2 : 0;
		}
	return bits;
}

int
d_keys_need_usyms(d_hdl_t *dh)
{
	for (uint32_t i = 0; i < dh->dh_naggsites; i++)
		for (int k = 0; k < dh->dh_aggsites[i].ag_nkeys; k++) {
			int vk = dh->dh_aggsites[i].ag_kvd[k].dv_kind;
			if (vk == D_VK_USTACK || vk == D_VK_USYM || vk == D_VK_UMOD || vk == D_VK_UADDR)
				return 1;
		}
	return 0;
}

int
d_uses_vtimestamp(d_hdl_t *dh)
{
	return dh->dh_uses_vtimestamp;
}

/* ---- running ----------------------------------------------------------------------- */

static int
d_alloc_runtime(d_hdl_t *dh)
{
	size_t strsize = (size_t)dh->dh_opt[O_STRSIZE];
	int err;
	dh->dh_gdata = calloc(1, dh->dh_gsize + 8);
	dh->dh_ldata = calloc(1, dh->dh_lsize + 8);
	dh->dh_scratch_size = (size_t)dh->dh_opt[O_SCRATCHSIZE];
	if (dh->dh_scratch_size < 8 * strsize)
		dh->dh_scratch_size = 8 * strsize;
	dh->dh_scratch = malloc(dh->dh_scratch_size);
	/* room for the largest key any site builds: dynamic-variable tuples
	 * and aggregation keys (stacks can be large) */
	size_t kmax = (size_t)D_MAX_KEYS * (strsize + 8);
	for (uint32_t i = 0; i < dh->dh_naggsites; i++)
		if (dh->dh_aggsites[i].ag_ksize > kmax)
			kmax = dh->dh_aggsites[i].ag_ksize;
	dh->dh_keybuf = malloc(kmax + 64);
	dh->dh_encbuf_size = (size_t)D_MAX_ACTARGS * (strsize + 8) + 65536 +
	    8 * (size_t)(dh->dh_opt[O_USTACKFRAMES] + dh->dh_opt[O_STACKFRAMES] + 2) * D_MAX_ACTARGS;
	dh->dh_encbuf = malloc(dh->dh_encbuf_size);
	dh->dh_zero_size = strsize > 65536 ? strsize : 65536;
	dh->dh_zero = calloc(1, dh->dh_zero_size);
	dh->dh_clbuf = open_memstream(&dh->dh_clbuf_mem, &dh->dh_clbuf_len);
	if (!dh->dh_gdata || !dh->dh_ldata || !dh->dh_scratch || !dh->dh_keybuf ||
	    !dh->dh_encbuf || !dh->dh_zero || !dh->dh_clbuf)
		return -ENOMEM;
	if ((err = d_dv_init(&dh->dh_dv, (uint64_t)dh->dh_opt[O_DYNVARSIZE])) != 0)
		return err;
	dh->dh_spec = dspec_create((uint32_t)dh->dh_opt[O_NSPEC], (uint64_t)dh->dh_opt[O_SPECSIZE], dh->dh_prog, &err);
	if (!dh->dh_spec)
		return err ? err : -ENOMEM;
	dagg_set_aggsize(dh->dh_aggset, (uint64_t)dh->dh_opt[O_AGGSIZE]);
	return 0;
}

static void d_fire_error(d_hdl_t *dh, struct d_vm *vm, int fault);

/* A completed clause's text: to the output, or with a machine-readable
 * format as a JSON record, or (folded/svg/pprof) to the error file so the
 * -o file holds only the picture. */
static void
d_commit_text(d_hdl_t *dh, struct d_vm *vm, const char *text, size_t len)
{
	int fmt = (int)dh->dh_opt[O_OFORMAT];
	if (fmt == DOUT_TEXT) {
		fwrite(text, 1, len, dh->dh_out);
	} else if (fmt == DOUT_JSON) {
		const struct d_probe *p = vm->vm_probe;
		struct dout_rec r = { vm->vm_f->df_cpu, p->pr_id, vm->vm_f->df_timestamp,
		    p->pr_prov, p->pr_mod, p->pr_func, p->pr_name, text, len };
		dout_json_record(dh->dh_out, &r);
	} else {
		fwrite(text, 1, len, dh->dh_err);
	}
}

/* Run one ECB: its clause's records are committed only if it completes. */
static void
d_run_ecb(d_hdl_t *dh, struct d_vm *vm, struct d_ecb *e)
{
	const struct d_clause *cl = e->ec_clause;
	vm->vm_ecb = e;
	vm->vm_prolog = vm->vm_header = vm->vm_spec = vm->vm_outused = 0;
	vm->vm_ncommits = 0;
	vm->vm_out = dh->dh_clbuf;
	int fault = d_vm_exec(vm, cl);
	if (fault != DF_NONE) {
		if (vm->vm_spec)
			dspec_clause_end(dh->dh_spec);
		d_fire_error(dh, vm, fault);
		return;
	}
	if (vm->vm_prolog)
		dfmt_probe_end(vm->vm_out, &dh->dh_fctx);
	if (vm->vm_spec)
		dspec_clause_end(dh->dh_spec);
	if (vm->vm_outused) {
		fflush(dh->dh_clbuf);
		off_t len = ftello(dh->dh_clbuf);
		if (len > 0 && !vm->vm_spec)
			d_commit_text(dh, vm, dh->dh_clbuf_mem, (size_t)len);
		if (vm->vm_header && !vm->vm_spec)
			dh->dh_header_done = true;
	}
	for (int i = 0; i < vm->vm_ncommits; i++) {
		if (!dh->dh_header_done && !dh->dh_opt[O_QUIET]) {
			dfmt_header(dh->dh_out);
			dh->dh_header_done = true;
		}
		dspec_commit(dh->dh_spec, vm->vm_commits[i], dh->dh_out);
	}
}

static void
d_vm_setup(d_hdl_t *dh, struct d_vm *vm, const struct d_firing *f, struct d_probe *p)
{
	vm->vm_dh = dh;
	vm->vm_f = f;
	vm->vm_probe = p;
	vm->vm_scratch = dh->dh_scratch;
	vm->vm_scratch_used = 0;
	vm->vm_scratch_size = dh->dh_scratch_size;
	vm->vm_local = dh->dh_ldata;
	vm->vm_rawproc = NULL;
	vm->vm_strtok = NULL;
	if (dh->dh_lsize)
		memset(dh->dh_ldata, 0, dh->dh_lsize);
}

static int
d_fire_probe(d_hdl_t *dh, struct d_probe *p, const struct d_firing *f)
{
	struct d_vm vm;
	d_vm_setup(dh, &vm, f, p);
	for (struct d_ecb *e = p->pr_ecbs; e; e = e->ec_next) {
		vm.vm_scratch_used = 0;
		d_run_ecb(dh, &vm, e);
	}
	return dh->dh_exited ? D_STATUS_EXIT : D_STATUS_OK;
}

int
d_fire(d_hdl_t *dh, const struct d_firing *f)
{
	if (dh->dh_exited && f->df_probe != D_PROBE_END)
		return D_STATUS_EXIT;
	struct d_probe *p = f->df_probe < dh->dh_ndense ? dh->dh_bydense[f->df_probe] : d_probe_find(dh, f->df_probe);
	if (!p || !p->pr_ecbs)
		return dh->dh_exited ? D_STATUS_EXIT : D_STATUS_OK;
	return d_fire_probe(dh, p, f);
}

/* Fire dtrace:::ERROR with DTrace's args: arg1 epid, arg2 action index,
 * arg3 DIF offset, arg4 fault, arg5 address.  It runs inside the failed
 * firing, whose this-> variables the remaining clauses still need. */
static void
d_run_error_probe(d_hdl_t *dh, struct d_vm *vm, int act, uint32_t off, int fault)
{
	struct d_probe *ep = d_probe_find(dh, D_PROBE_ERROR);
	if (!ep || !ep->pr_ecbs)
		return;
	struct d_firing ef = *vm->vm_f;
	ef.df_probe = D_PROBE_ERROR;
	memset(ef.df_args, 0, sizeof(ef.df_args));
	ef.df_args[1] = vm->vm_ecb->ec_epid;
	ef.df_args[2] = (uint64_t)act;
	ef.df_args[3] = off;
	ef.df_args[4] = (uint64_t)fault;
	ef.df_args[5] = vm->vm_faddr;
	ef.df_nargs = 6;
	uint8_t *saved = dh->dh_lsize ? malloc(dh->dh_lsize) : NULL;
	if (saved)
		memcpy(saved, dh->dh_ldata, dh->dh_lsize);
	dh->dh_in_error = true;
	struct d_vm evm;
	d_vm_setup(dh, &evm, &ef, ep);
	evm.vm_scratch = dh->dh_scratch + dh->dh_scratch_size / 2;
	evm.vm_scratch_size = dh->dh_scratch_size / 2;
	for (struct d_ecb *e = ep->pr_ecbs; e; e = e->ec_next) {
		evm.vm_scratch_used = 0;
		d_run_ecb(dh, &evm, e);
	}
	dh->dh_in_error = false;
	if (saved) {
		memcpy(dh->dh_ldata, saved, dh->dh_lsize);
		free(saved);
	}
}

/* Print DTrace's fault message after the ERROR probe has fired. */
static void
d_fire_error(d_hdl_t *dh, struct d_vm *vm, int fault)
{
	const struct d_clause *cl = vm->vm_ecb->ec_clause;
	struct d_probe *p = vm->vm_probe;
	int act = 0;
	uint32_t off = vm->vm_fpc;
	for (int i = 0; i < cl->cl_nact; i++)
		if (vm->vm_fpc >= cl->cl_actpc[i]) {
			act = i + 1;
			off = vm->vm_fpc - cl->cl_actpc[i];
		}
	if (vm->vm_fpc < cl->cl_predend)
		act = 0, off = vm->vm_fpc;
	char where[32], addr[40] = "";
	if (act)
		snprintf(where, sizeof(where), "action #%d", act);
	else
		snprintf(where, sizeof(where), "predicate");
	if (fault == DF_BADADDR || fault == DF_BADALIGN || fault == DF_KPRIV || fault == DF_UPRIV)
		snprintf(addr, sizeof(addr), " (0x%llx)", (unsigned long long)vm->vm_faddr);
	dh->dh_nerrors++;
	dh->dh_cpuerr[vm->vm_f->df_cpu % D_ERRCPUS]++;
	/* the user's ERROR clauses come first: dtrace(1)'s own ERROR enabling,
	 * which prints the message, is made after the program's */
	if (!dh->dh_in_error && p->pr_id != D_PROBE_ERROR)
		d_run_error_probe(dh, vm, act, off, fault);
	fflush(dh->dh_out);
	fprintf(dh->dh_err, "%s: error on enabled probe ID %u (ID %u: %s:%s:%s:%s): %s%s in %s at DIF offset %u\n",
	    dh->dh_prog, vm->vm_ecb->ec_epid, p->pr_id, p->pr_prov, p->pr_mod, p->pr_func, p->pr_name,
	    d_fault_name(fault), addr, where, off);
}

static void
d_self_firing(d_hdl_t *dh, struct d_firing *f, uint32_t probe)
{
	struct timespec ts, wt, vt;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	clock_gettime(CLOCK_REALTIME, &wt);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &vt);
	memset(f, 0, sizeof(*f));
	f->df_probe = probe;
	f->df_cpu = 0;
	f->df_pid = getpid();
	f->df_tid = (int32_t)gettid();
	f->df_timestamp = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	f->df_walltimestamp = (uint64_t)wt.tv_sec * 1000000000ULL + (uint64_t)wt.tv_nsec;
	/* BEGIN and END run in pmctrace's own thread, as in dtrace(1) */
	f->df_vtimestamp = (uint64_t)vt.tv_sec * 1000000000ULL + (uint64_t)vt.tv_nsec;
	f->df_execname = dh->dh_selfcomm[0] ? dh->dh_selfcomm : dh->dh_prog;
	f->df_procinfo = d_proc_read;
}

int
d_enable_check(d_hdl_t *dh)
{
	if (dh->dh_destructive && !dh->dh_opt[O_DESTRUCTIVE]) {
		snprintf(dh->dh_errmsg, sizeof(dh->dh_errmsg), "Destructive actions not allowed");
		return -EPERM;
	}
	return 0;
}

int
d_go(d_hdl_t *dh)
{
	if (dh->dh_going)
		return -EBUSY;
	int rc = d_enable_check(dh);
	if (rc)
		return rc;
	int err = d_alloc_runtime(dh);
	if (err) {
		snprintf(dh->dh_errmsg, sizeof(dh->dh_errmsg), "failed to allocate runtime state: %s", strerror(-err));
		return err;
	}
	dh->dh_going = true;
	d_opt_apply_runtime(dh);
	struct d_procinfo self;
	if (d_proc_read(NULL, getpid(), &self) == 0)
		snprintf(dh->dh_selfcomm, sizeof(dh->dh_selfcomm), "%s", self.pi_fname);
	struct d_firing f;
	d_self_firing(dh, &f, D_PROBE_BEGIN);
	return d_fire(dh, &f);
}

static void
d_report_dvdrops(d_hdl_t *dh)
{
	struct d_dvtab *t = &dh->dh_dv;
	uint64_t n = t->dt_drops - t->dt_drops_reported;
	if (n) {
		fflush(dh->dh_out);
		fprintf(dh->dh_err, "%s: %llu dynamic variable drop%s\n", dh->dh_prog,
		    (unsigned long long)n, n == 1 ? "" : "s");
		t->dt_drops_reported = t->dt_drops;
	}
}

/* "dtrace: 1 error on CPU 2", as the Dynamic Tracing Guide shows after
 * the fault messages themselves. */
static void
d_report_errors(d_hdl_t *dh)
{
	for (uint32_t c = 0; c < D_ERRCPUS; c++) {
		uint64_t n = dh->dh_cpuerr[c];
		if (!n)
			continue;
		fflush(dh->dh_out);
		fprintf(dh->dh_err, "%s: %llu error%s on CPU %u\n", dh->dh_prog,
		    (unsigned long long)n, n == 1 ? "" : "s", c);
		dh->dh_cpuerr[c] = 0;
	}
}

static void
d_report_all_drops(d_hdl_t *dh)
{
	if (!dh->dh_going)
		return;
	d_report_errors(dh);
	d_report_dvdrops(dh);
	fflush(dh->dh_out);
	dagg_report_drops(dh->dh_aggset, dh->dh_err);
	if (dh->dh_spec)
		dspec_report_drops(dh->dh_spec, dh->dh_err);
}

void
d_tick(d_hdl_t *dh, uint64_t now_ns)
{
	uint64_t rate = (uint64_t)dh->dh_opt[O_STATUSRATE];
	if (now_ns - dh->dh_lasttick < rate)
		return;
	dh->dh_lasttick = now_ns;
	d_report_all_drops(dh);
	fflush(dh->dh_out);
}

int
d_stop(d_hdl_t *dh)
{
	if (!dh->dh_going || dh->dh_stopped)
		return 0;
	dh->dh_stopped = true;
	struct d_firing f;
	d_self_firing(dh, &f, D_PROBE_END);
	struct d_probe *p = d_probe_find(dh, D_PROBE_END);
	bool exited = dh->dh_exited;
	if (p && p->pr_ecbs)
		d_fire_probe(dh, p, &f);
	if (!exited && dh->dh_exited)
		dh->dh_exited = true;	/* exit() in END only sets the code */
	d_report_all_drops(dh);
	int rc;
	if (dh->dh_opt[O_OFORMAT] != DOUT_TEXT) {
		struct dout_opts o;
		d_dout_opts(dh, &o);
		rc = dout_print_all(dh->dh_out, &o, &dh->dh_fctx, dh->dh_aggset);
	} else {
		/* dtrace(1) ends its consume loop with a newline, -q or not, and
		 * then prints the aggregations no printa() has printed */
		fputc('\n', dh->dh_out);
		rc = dagg_print_all(dh->dh_aggset, dh->dh_out, &dh->dh_fctx);
	}
	fflush(dh->dh_out);
	return rc;
}

void
d_report_drops(d_hdl_t *dh, uint32_t cpu, uint64_t ndrops)
{
	if (!ndrops)
		return;
	fflush(dh->dh_out);
	fprintf(dh->dh_err, "%s: %llu drop%s on CPU %u\n", dh->dh_prog,
	    (unsigned long long)ndrops, ndrops == 1 ? "" : "s", cpu);
}
