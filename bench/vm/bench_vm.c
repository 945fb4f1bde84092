/*
 * bench_vm.c — firings per second through d_fire() for typical clauses.
 *
 * A fake catalog offers one probe (test:mod:fn:fire, id 10, three int64
 * args).  Each case compiles a program, runs BEGIN, then times N calls of
 * d_fire() with synthetic firings (pid 42, 64 threads round-robin, arg0 a
 * xorshift sequence) on one core and prints a RESULT line.  Nothing is
 * printed by the clauses (-q), so this is the engine alone: dispatch,
 * predicate, VM, variables, aggregation update.  Time is this thread's CPU
 * time and each case reports the best of three runs, so that other load on
 * a shared machine inflates the figures less.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dcore/dcore.h"

static int
bv_match(void *ctx, const struct d_probe_desc *pd, d_probe_cb cb, void *arg,
    char *errbuf, size_t errlen)
{
	(void)ctx; (void)errbuf; (void)errlen;
	static const struct d_probe_info probes[] = {
		{ 1, "dtrace", "", "", "BEGIN", 0, { 0 }, { 0 }, NULL, NULL },
		{ 2, "dtrace", "", "", "END", 0, { 0 }, { 0 }, NULL, NULL },
		{ 3, "dtrace", "", "", "ERROR", 0, { 0 }, { 0 }, NULL, NULL },
		{ 10, "test", "mod", "fn", "fire", 3, { "int64_t", "int64_t", "int64_t" }, { 0 }, NULL, NULL },
	};
	int n = 0;
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		if ((!*pd->dpd_name || strcmp(pd->dpd_name, probes[i].dp_name) == 0) &&
		    (!*pd->dpd_prov || strcmp(pd->dpd_prov, probes[i].dp_prov) == 0)) {
			cb(arg, &probes[i]);
			n++;
		}
	return n;
}

static const struct d_catalog bv_cat = { NULL, bv_match };

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* n firings of probe 10: pid 42, 64 threads, arg0 pseudo-random, arg1 0/1. */
static double
bv_time(d_hdl_t *dh, long n)
{
	struct d_firing f;
	memset(&f, 0, sizeof(f));
	f.df_probe = 10;
	f.df_pid = 42;
	f.df_execname = "benchproc";
	f.df_nargs = 3;
	uint64_t x = 88172645463325252ULL;
	double t0 = now();
	for (long i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		f.df_args[0] = x;
		f.df_args[1] = (uint64_t)(i & 1);
		f.df_tid = 1000 + (int32_t)(i & 63);
		f.df_cpu = (uint32_t)(i & 1);
		f.df_timestamp = (uint64_t)i * 100;
		d_fire(dh, &f);
	}
	return now() - t0;
}

static void
bv_case(const char *name, const char *prog, long n)
{
	int err;
	FILE *devnull = fopen("/dev/null", "w");
	d_hdl_t *dh = d_open("bench_vm", devnull, &err);
	if (!dh) {
		fprintf(stderr, "d_open failed\n");
		exit(1);
	}
	d_set_catalog(dh, &bv_cat);
	d_set_errfile(dh, devnull);
	d_setopt(dh, "quiet", NULL);
	d_setopt(dh, "dynvarsize", "16m");
	d_setopt(dh, "aggsize", "64m");
	if (d_compile(dh, prog, NULL) != 0) {
		fprintf(stderr, "%s: %s\n", name, d_errmsg(dh));
		exit(1);
	}
	d_go(dh);
	double dt = 1e30;
	for (int rep = 0; rep < 3; rep++) {
		double t = bv_time(dh, n);
		if (t < dt)
			dt = t;
	}
	printf("RESULT vm: %-34s %7.1f M firings/s  (%ld firings, %.1f ns each)\n",
	    name, (double)n / dt / 1e6, n, dt * 1e9 / (double)n);
	d_close(dh);
	fclose(devnull);
}

int
main(int argc, char **argv)
{
	long n = argc > 1 && strcmp(argv[1], "quick") == 0 ? 2000000 : 20000000;
	bv_case("empty clause", "test:::fire { }", n);
	bv_case("predicate on pid (false)", "test:::fire /pid == 7/ { }", n);
	bv_case("predicate on pid (true)", "test:::fire /pid == 42/ { }", n);
	bv_case("@[arg0 % 1024] = count()", "test:::fire { @[arg0 % 1024] = count(); }", n);
	bv_case("/pid/ @[arg0 % 1024] = count()", "test:::fire /pid == 42/ { @[arg0 % 1024] = count(); }", n);
	bv_case("self->ts assign/read",
	    "test:::fire /arg1 == 0/ { self->ts = timestamp; }\n"
	    "test:::fire /arg1 == 1 && self->ts/ { this->d = timestamp - self->ts; self->ts = 0; }", n);
	bv_case("@[execname, probefunc, probename]",
	    "test:::fire { @[execname, probefunc, probename] = count(); }", n / 4);
	return 0;
}
