/*
 * dcore_harness.h — drive the D engine directly in unit tests.
 *
 * A fake catalog offers dtrace:::BEGIN/END/ERROR (ids 1-3) and
 *   test:::fire    id 10, args int64_t x3
 *   test:mod:fn:str id 11, arg0 "string", arg1 "int"
 *   test:::other   id 12, no args
 *   test:::typed   id 13, provider declarations: args[0] and bare args are
 *                  a struct tp_x { int a; char comm[8]; long b; } *
 *   test:::xlated  id 14, args[0] is that struct translated to psinfo_t *
 * Output and diagnostics go to memory; th_out()/th_err() return them.
 * Recipe: th_open(&t); th_compile(&t, text); th_go(&t); th_fire(&t, ...)*;
 *         th_stop(&t); CU_ASSERT_STRING_EQUAL(th_out(&t), "..."); th_close(&t).
 */
#ifndef PMCTRACE_DCORE_HARNESS_H
#define PMCTRACE_DCORE_HARNESS_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dcore/dcore.h"

struct th {
	d_hdl_t *dh;
	FILE *out, *err;
	char *obuf, *ebuf;
	size_t olen, elen;
	uint64_t now;
};

static const struct d_probe_info th_probes[] = {
	{ 1, "dtrace", "", "", "BEGIN", 0, { 0 }, { 0 }, NULL, NULL },
	{ 2, "dtrace", "", "", "END", 0, { 0 }, { 0 }, NULL, NULL },
	{ 3, "dtrace", "", "", "ERROR", 0, { 0 }, { 0 }, NULL, NULL },
	{ 10, "test", "", "", "fire", 3, { "int64_t", "int64_t", "int64_t" }, { 0 }, NULL, NULL },
	{ 11, "test", "mod", "fn", "str", 2, { "string", "int" }, { 0 }, NULL, NULL },
	{ 12, "test", "", "", "other", 0, { 0 }, { 0 }, NULL, NULL },
	{ 13, "test", "", "", "typed", 1, { "struct tp_x *" }, { 0 },
	    "struct tp_x { int a; char comm[8]; long b; };", "struct tp_x" },
	{ 14, "test", "", "", "xlated", 1, { "struct tp_x *" }, { "psinfo_t *" },
	    "struct tp_x { int a; char comm[8]; long b; };\n"
	    "translator psinfo_t < struct tp_x *T > { pr_pid = T->a; pr_fname = T->comm; };",
	    NULL },
};

static int
th_field(const char *pat, const char *s)
{
	return !*pat || strcmp(pat, s) == 0 || strcmp(pat, "*") == 0;
}

static int
th_match(void *ctx, const struct d_probe_desc *pd, d_probe_cb cb, void *arg,
    char *errbuf, size_t errlen)
{
	(void)ctx;
	int n = 0;
	if (strcmp(pd->dpd_name, "bad") == 0) {
		snprintf(errbuf, errlen, "probe name 'bad' is invalid");
		return -1;
	}
	for (size_t i = 0; i < sizeof(th_probes) / sizeof(th_probes[0]); i++) {
		const struct d_probe_info *p = &th_probes[i];
		if (th_field(pd->dpd_prov, p->dp_prov) && th_field(pd->dpd_mod, p->dp_mod) &&
		    th_field(pd->dpd_func, p->dp_func) && th_field(pd->dpd_name, p->dp_name)) {
			cb(arg, p);
			n++;
		}
	}
	return n;
}

static const struct d_catalog th_catalog = { NULL, th_match };

static inline void
th_open(struct th *t)
{
	int err = 0;
	memset(t, 0, sizeof(*t));
	t->out = open_memstream(&t->obuf, &t->olen);
	t->err = open_memstream(&t->ebuf, &t->elen);
	t->dh = d_open("pmctrace", t->out, &err);
	if (t->dh) {
		d_set_catalog(t->dh, &th_catalog);
		d_set_errfile(t->dh, t->err);
		d_setopt(t->dh, "quiet", NULL);
	}
}

static inline int
th_compile(struct th *t, const char *text)
{
	return d_compile(t->dh, text, "t.d");
}

static inline int
th_go(struct th *t)
{
	return d_go(t->dh);
}

/* Fire probe id with up to 3 integer args. */
static inline int
th_fire(struct th *t, uint32_t id, int32_t pid, int32_t tid, uint64_t a0, uint64_t a1, uint64_t a2)
{
	struct d_firing f;
	memset(&f, 0, sizeof(f));
	f.df_probe = id;
	f.df_cpu = 1;
	f.df_pid = pid;
	f.df_tid = tid;
	f.df_timestamp = t->now += 1000;
	f.df_execname = "testproc";
	f.df_args[0] = a0;
	f.df_args[1] = a1;
	f.df_args[2] = a2;
	f.df_nargs = 3;
	return d_fire(t->dh, &f);
}

static inline const char *
th_out(struct th *t)
{
	fflush(t->out);
	return t->obuf ? t->obuf : "";
}

static inline const char *
th_err(struct th *t)
{
	fflush(t->err);
	return t->ebuf ? t->ebuf : "";
}

static inline void
th_close(struct th *t)
{
	d_close(t->dh);
	fclose(t->out);
	fclose(t->err);
	free(t->obuf);
	free(t->ebuf);
}

/* Compile, run BEGIN, END; return stdout (valid until th_close). */
static inline const char *
th_run(struct th *t, const char *text)
{
	if (th_compile(t, text) != 0)
		return d_errmsg(t->dh);
	th_go(t);
	d_stop(t->dh);
	return th_out(t);
}

#endif
