/*
 * provider.h — the probe providers (dtrace, profile, pmc, sched, isr, dpc,
 * syscall, proc, io, vminfo, sysinfo, tcp, udp, tracepoint, pid, usdt,
 * diag)
 * behind one registry.
 *
 * Life of a run: prov_open() builds the registry; its catalog (prov_catalog)
 * is handed to the D engine, whose compiler calls it for each probe
 * description; providers create matching probes on demand.  Then
 * prov_enable() asks every provider to add the perf events its enabled
 * probes need to a sampler session (or, replaying a file, to claim the
 * file's events), and prov_route() (the sampler's record callback)
 * takes every record of the merged stream: side-band records to the
 * symbolizer, context switches to the virtual clock, samples to the
 * provider owning their event, whose firings go to the sink.
 * Single-threaded.  int functions return 0 or -errno with a message in
 * prov_errmsg().
 */
#ifndef PMCTRACE_PROVIDER_H
#define PMCTRACE_PROVIDER_H

#include <stdio.h>
#include "dcore/dprobe.h"
#include "sampler/sampler.h"

struct pmu_ctx;
struct sym_session;
struct prov_registry;

/* Returns nonzero to stop the run (exit() was called). */
typedef int (*prov_fire_fn)(void *arg, const struct d_firing *f);
/* Which probes the compiled program actually uses. */
typedef int (*prov_enabled_fn)(void *arg, uint32_t probe_id);

struct prov_config {
	struct pmu_ctx *pmu;
	struct sym_session *sym;
	int replay;			/* events come from a perf.data file */
	int pmc_multiplex;		/* -x pmcmultiplex */
	int check_only;			/* -e or -l: counters are planned, not opened */
	int nobpf;			/* -x nobpf: no in-kernel probe, perf events only */
	int recording;			/* live with -E: what /proc told is recorded too */
	int want_callchains;		/* d_uses_stacks() bits: 1 kernel, 2 user
					 * stacks, 4 user memory reads */
	int target_via_shell;		/* -c CMD runs as sh's own work (a pipeline,
					 * a list): $target stays the shell */
};

struct prov_registry *prov_open(const struct prov_config *cfg, int *errp);
void prov_close(struct prov_registry *r);

/* The catalog for d_set_catalog(). */
struct d_catalog prov_catalog(struct prov_registry *r);

/* -l: every probe that exists without a script, filtered by pd (NULL = all). */
int prov_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg);
/* Look a probe up by id (for -l after compile, ERROR messages). */
const struct d_probe_info *prov_probe(struct prov_registry *r, uint32_t id);

/* Replay: before compiling, let providers claim the file's events and
 * create the probes those events fire (so 'profile-*' matches them). */
int prov_attach_file(struct prov_registry *r, struct smp_session *s);

/* After compiling: d_uses_stacks()'s bits (1 stack(), 2 ustack(), 4
 * copyin*); without callchains the kernel's work per sample and the ring
 * traffic drop several-fold. */
void prov_set_callchains(struct prov_registry *r, int want);

/* Live: add every event the enabled probes need to s (no-op in replay). */
int prov_enable(struct prov_registry *r, struct smp_session *s,
    prov_enabled_fn enabled, void *enabled_arg);

/* Fire the start/end probes (pmc:::sample-src, counter-src). */
int prov_start(struct prov_registry *r, prov_fire_fn fire, void *arg);
int prov_end(struct prov_registry *r, prov_fire_fn fire, void *arg);

/* vtimestamp: the program reads it, so keep each thread's time on CPU
 * from the context-switch records (PERF_RECORD_SWITCH_CPU_WIDE) that
 * reach prov_route(); the caller asks the kernel for them. */
int prov_use_vclock(struct prov_registry *r);

/* Where prov_route()'s firings go (the cli: into the D engine). */
void prov_set_sink(struct prov_registry *r, prov_fire_fn fire, void *arg);
/* An smp_record_cb (arg: the registry): prov_dispatch() into the sink. */
int prov_route(void *r, const struct smp_record *rec);
/* One record, in one place: a sample to its event's provider (live, the
 * symbolizer first reads a process it meets for the first time, and a
 * recording writes down what it read); MMAP and MMAP2 to the symbolizer,
 * then proc:::module-load; COMM, FORK and EXIT to the symbolizer; a
 * context switch to the virtual clock, or to its event's provider when
 * one asked for switch records.  Returns the fire callback's nonzero
 * (stop the run). */
int prov_dispatch(struct prov_registry *r, const struct smp_record *rec,
    prov_fire_fn fire, void *arg);

const char *prov_errmsg(const struct prov_registry *r);

/* Notices the providers left for the end of the run, one per line
 * ("" when none): e.g. how much of the time multiplexed counters ran. */
const char *prov_notices(const struct prov_registry *r);

/* Remove the uprobe trace events a killed pmctrace left registered: those
 * of pid owner, or (owner 0) of every pmctrace no longer running.  Needs
 * no registry: the guard of a killed run and each new start call it. */
void prov_remove_leftovers(int32_t owner);

#endif
