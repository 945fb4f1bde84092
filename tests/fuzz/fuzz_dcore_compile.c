/*
 * fuzz_dcore_compile.c — libFuzzer target: the whole D front end and VM on
 * arbitrary text.  The input is a D program; a fake catalog offers
 * dtrace:::BEGIN/END/ERROR, profile:::tick-1s, profile:::profile-997 and a
 * probe with integer and string arguments.  A program that compiles is also
 * run: BEGIN, a few firings of every probe (with stacks), a tick, END, so
 * the VM, aggregations and printing see what the compiler produced.
 * Destructive programs (system(), raise() ...) are compiled, never run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcore/dcore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Designated initializers: d_probe_info grows fields (declarations,
 * argument structs) that these probes leave empty. */
#define FZ_PROBE(id, prov, mod, func, name) \
	{ .dp_id = (id), .dp_prov = (prov), .dp_mod = (mod), .dp_func = (func), .dp_name = (name) }
static const struct d_probe_info fz_probes[] = {
	FZ_PROBE(D_PROBE_BEGIN, "dtrace", "", "", "BEGIN"),
	FZ_PROBE(D_PROBE_END, "dtrace", "", "", "END"),
	FZ_PROBE(D_PROBE_ERROR, "dtrace", "", "", "ERROR"),
	FZ_PROBE(10, "profile", "", "", "tick-1s"),
	{ .dp_id = 11, .dp_prov = "profile", .dp_mod = "", .dp_func = "", .dp_name = "profile-997",
	  .dp_nargs = 2, .dp_argtypes = { "uint64_t", "uint64_t" } },
	{ .dp_id = 12, .dp_prov = "test", .dp_mod = "mod", .dp_func = "fn", .dp_name = "fire",
	  .dp_nargs = 3, .dp_argtypes = { "int64_t", "string", "int" } },
};
#define FZ_NPROBES (sizeof(fz_probes) / sizeof(fz_probes[0]))

static int
fz_field(const char *pat, const char *s)
{
	return !*pat || strcmp(pat, "*") == 0 || strcmp(pat, s) == 0;
}

static int
fz_match(void *ctx, const struct d_probe_desc *pd, d_probe_cb cb, void *arg,
    char *errbuf, size_t errlen)
{
	int n = 0;
	(void)ctx;
	if (strcmp(pd->dpd_name, "bad") == 0) {
		snprintf(errbuf, errlen, "probe name 'bad' is invalid");
		return -1;
	}
	for (size_t i = 0; i < FZ_NPROBES; i++) {
		const struct d_probe_info *p = &fz_probes[i];
		if (fz_field(pd->dpd_prov, p->dp_prov) && fz_field(pd->dpd_mod, p->dp_mod) &&
		    fz_field(pd->dpd_func, p->dp_func) && fz_field(pd->dpd_name, p->dp_name)) {
			cb(arg, p);
			n++;
		}
	}
	return n;
}

static const struct d_catalog fz_catalog = { NULL, fz_match };

static const uint64_t fz_kstack[] = { 0xffffffff81000010ULL, 0xffffffff81000200ULL, 0 };
static const uint64_t fz_ustack[] = { 0x401000, 0x401200, 0x7f0000001000ULL };

static int
fz_fire(d_hdl_t *dh, uint32_t id, uint64_t *now, int round)
{
	struct d_firing f;
	memset(&f, 0, sizeof(f));
	f.df_probe = id;
	f.df_cpu = (uint32_t)round & 1;
	f.df_pid = 100 + round;
	f.df_tid = 100 + round;
	f.df_timestamp = *now += 1000000;
	f.df_walltimestamp = 1700000000000000000ULL + *now;
	f.df_execname = "fuzz";
	f.df_args[0] = (uint64_t)round * 7 - 3;
	f.df_args[1] = (uint64_t)(uintptr_t)"a string argument";
	f.df_args[2] = (uint64_t)-1;
	f.df_nargs = 3;
	f.df_kstack = fz_kstack;
	f.df_nkstack = 2;
	f.df_ustack = fz_ustack;
	f.df_nustack = 3;
	f.df_uregs_ip = 0x401000;
	return d_fire(dh, &f);
}

/* BEGIN, three rounds of every non-dtrace probe, a tick, END. */
static void
fz_run(d_hdl_t *dh)
{
	uint64_t now = 0;
	if (d_go(dh) == D_STATUS_OK) {
		for (int round = 0; round < 3; round++)
			for (size_t i = 3; i < FZ_NPROBES; i++)
				if (d_probe_enabled(dh, fz_probes[i].dp_id) &&
				    fz_fire(dh, fz_probes[i].dp_id, &now, round) != D_STATUS_OK)
					goto stop;
		d_tick(dh, now + 2000000000ULL);
	}
stop:
	d_stop(dh);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	char *text = malloc(size + 1);
	int err = 0;
	int64_t destructive = 0;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (!text || !devnull) {
		free(text);
		return 0;
	}
	memcpy(text, data, size);
	text[size] = '\0';
	d_hdl_t *dh = d_open("pmctrace", devnull, &err);
	if (dh) {
		d_set_catalog(dh, &fz_catalog);
		d_set_errfile(dh, devnull);
		if (d_compile(dh, text, "fuzz.d") == 0 &&
		    d_getopt(dh, "destructive", &destructive) == 0 && !destructive)
			fz_run(dh);
		(void)d_errmsg(dh);
		d_close(dh);
	}
	free(text);
	return 0;
}
