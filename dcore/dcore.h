/*
 * dcore.h — the D language engine: compile D programs and run them on firings.
 *
 * Pipeline: d_open → d_setopt* → d_compile (lex, parse, check, compile to
 * bytecode; probe descriptions resolved through the installed d_catalog)
 * → d_go → d_fire* in timestamp order (single-threaded) → d_stop → d_close.
 * Output goes to the FILE* given at d_open; diagnostics to d_errmsg().
 * Functions return 0 or a negative value; a failed d_compile leaves an error
 * message "failed to compile script x.d: line N: ..." in DTrace's words, and
 * with the errtags option its [D_TAG].  Symbols are resolved only at print
 * time through the optional d_symbolizer (dcons/dcons.h).
 */
#ifndef PMCTRACE_DCORE_H
#define PMCTRACE_DCORE_H

#include <stdio.h>
#include <stdint.h>
#include "dcore/dprobe.h"
#include "dcons/dcons.h"

typedef struct d_hdl d_hdl_t;

/* Why a run stops. */
enum d_status {
	D_STATUS_OK = 0,	/* keep going */
	D_STATUS_EXIT = 1,	/* exit() was called; see d_exit_code() */
};

d_hdl_t *d_open(const char *progname, FILE *out, int *errp);
void d_close(d_hdl_t *dh);

/* Options by DTrace name (-x name=value, #pragma D option). value may be
 * NULL for boolean options. Returns -1 with d_errmsg() set if unknown. */
int d_setopt(d_hdl_t *dh, const char *name, const char *value);
int d_getopt(d_hdl_t *dh, const char *name, int64_t *value);

/* Macro arguments $1.. ($0 is the script name), and $target. */
int d_set_macro_args(d_hdl_t *dh, int argc, char *const argv[]);
void d_set_target(d_hdl_t *dh, int32_t pid);

void d_set_catalog(d_hdl_t *dh, const struct d_catalog *cat);
void d_set_symbolizer(d_hdl_t *dh, const struct d_symbolizer *sym);

/* Compile a program; filename is what diagnostics name ("-n" text uses
 * NULL: DTrace then says "failed to compile script" without a file). May be
 * called several times (-n and -s mix); clauses keep command-line order. */
int d_compile(d_hdl_t *dh, const char *text, const char *filename);

/* Enabled probe descriptions, for the "description 'x' matched N probes"
 * lines: calls cb(arg, text, nmatched) once per description in order. */
void d_describe(d_hdl_t *dh, void (*cb)(void *arg, const char *desc, int nmatched), void *arg);

/* Probe ids the compiled program uses (so providers enable only those). */
int d_probe_enabled(d_hdl_t *dh, uint32_t probe_id);

/* 0, or -EPERM (d_errmsg says why) when the program must not be enabled:
 * a destructive action (system, raise, stop, chill, freopen...) without the
 * destructive option (-w).  d_go checks it too; call it before enabling. */
int d_enable_check(d_hdl_t *dh);

/* Runs BEGIN. Then d_fire for every firing; returns enum d_status. */
int d_go(d_hdl_t *dh);
int d_fire(d_hdl_t *dh, const struct d_firing *f);
/* Periodic work at switchrate/aggrate (drop reports, printing). */
void d_tick(d_hdl_t *dh, uint64_t now_ns);
/* Runs END, prints the aggregations not yet printed, reports drops. */
int d_stop(d_hdl_t *dh);

int d_exit_code(d_hdl_t *dh);
const char *d_errmsg(d_hdl_t *dh);

/* Where fault messages and drop reports go (default stderr). */
void d_set_errfile(d_hdl_t *dh, FILE *err);

/* Bit 1: the program reads kernel stacks (stack(), stackdepth, caller);
 * bit 2: user stacks (ustack(), ustackdepth, ucaller); bit 4: it reads user memory (copyin, copyinstr, copyinto),
 * so providers can skip callchains and stack snapshots nobody reads. */
int d_uses_stacks(d_hdl_t *dh);

/* An aggregation key holds user addresses (ustack, usym, umod, uaddr),
 * printed later, when the process may be gone: the symbolizer must keep
 * the maps of every process that fires. */
int d_keys_need_usyms(d_hdl_t *dh);

/* The program reads vtimestamp: the caller must keep per-thread CPU time. */
int d_uses_vtimestamp(d_hdl_t *dh);

/* Account drops the engine must report ("N drops on CPU c"). */
void d_report_drops(d_hdl_t *dh, uint32_t cpu, uint64_t ndrops);

/* Probe ids reserved for the dtrace provider. */
#define D_PROBE_BEGIN	1
#define D_PROBE_END	2
#define D_PROBE_ERROR	3

#endif
