/*
 * prov_kit.h — the provider interface: the ops table a provider fills and
 * the registry services it calls (probes, per-provider state, matching,
 * firing context).  provider.h is what the rest of pmctrace sees; this is
 * what a provider is written against.  Tracepoint formats are in
 * tracefs.h, table-driven tracepoint providers in tpbacked.h, counters
 * read at an entry and its exit in pmcpair.h.
 *
 * Probe ids are dense and stable for a run: 1..3 are dtrace:::BEGIN, END
 * and ERROR (fixed by dcore.h); others are handed out in creation order.
 * Single-threaded.  int functions return 0 (or a count) or -1 with the
 * message set by prov_errf().
 */
#ifndef PMCTRACE_PROV_KIT_H
#define PMCTRACE_PROV_KIT_H

#include "providers/provider.h"

struct prov_registry;
struct prov_probe;

struct prov_ops {
	const char *po_name;
	/* -l: probes that exist without a script (may create them). */
	int (*po_list)(struct prov_registry *r, const struct d_probe_desc *pd,
	    d_probe_cb cb, void *arg);
	/* Compile time: create or find the probes pd names; returns how many
	 * were reported through cb (prov_emit_matching), or -1 with
	 * prov_errf() called. */
	int (*po_match)(struct prov_registry *r, const struct d_probe_desc *pd,
	    d_probe_cb cb, void *arg);
	/* Live: add events for the enabled probes. */
	int (*po_enable)(struct prov_registry *r, struct smp_session *s);
	/* Replay: call prov_claim() for each probe the file's event evidx
	 * should fire; an event may fire probes of several providers. */
	int (*po_claim)(struct prov_registry *r, struct smp_session *s, int evidx);
	int (*po_start)(struct prov_registry *r, prov_fire_fn fire, void *arg);
	int (*po_end)(struct prov_registry *r, prov_fire_fn fire, void *arg);
	/* A record of an event this provider added or claimed. */
	int (*po_decode)(struct prov_registry *r, const struct smp_record *rec,
	    uint64_t cookie, prov_fire_fn fire, void *arg);
};

struct prov_probe {
	struct d_probe_info pp_info;
	const struct prov_ops *pp_ops;
	uint64_t pp_param[4];		/* provider-defined (period, unit, ...) */
	char pp_names[4][96];		/* storage for the four name fields */
	char pp_types[D_MAX_ARGS][48];
};

/* The providers, in the registry's table order (registry.c). */
extern const struct prov_ops prov_dtrace_ops;
extern const struct prov_ops prov_profile_ops;
extern const struct prov_ops prov_pmc_ops;
extern const struct prov_ops prov_sched_ops;
extern const struct prov_ops prov_isr_ops;
extern const struct prov_ops prov_dpc_ops;
extern const struct prov_ops prov_syscall_ops;
extern const struct prov_ops prov_tracepoint_ops;
extern const struct prov_ops prov_proc_ops;
extern const struct prov_ops prov_io_ops;
extern const struct prov_ops prov_vminfo_ops;
extern const struct prov_ops prov_sysinfo_ops;
extern const struct prov_ops prov_pid_ops;
extern const struct prov_ops prov_tcp_ops;
extern const struct prov_ops prov_udp_ops;
extern const struct prov_ops prov_usdt_ops;
extern const struct prov_ops prov_diag_ops;
/* diag: a record's losses, throttling or missed stacks, as its probes
 * (every record passes here; nothing happens unless diag was named). */
int prov_diag_record(struct prov_registry *r, const struct smp_record *rec,
    prov_fire_fn fire, void *arg);

/* Probes. */
struct prov_probe *prov_find(struct prov_registry *r, const char *prov,
    const char *mod, const char *func, const char *name);
struct prov_probe *prov_add(struct prov_registry *r, const struct prov_ops *ops,
    const char *mod, const char *func, const char *name);
void prov_set_args(struct prov_probe *p, int nargs, const char *const *types);
struct prov_probe *prov_by_id(struct prov_registry *r, uint32_t id);
uint32_t prov_nprobes(const struct prov_registry *r);
int prov_is_enabled(struct prov_registry *r, uint32_t id);

/* Every probe of ops in id order, from after p (NULL: the first); with
 * enabled set only those the compiled program uses.  NULL at the end.
 *   for (p = NULL; (p = prov_next(r, ops, p, 1)); ) ...
 */
struct prov_probe *prov_next(struct prov_registry *r, const struct prov_ops *ops,
    const struct prov_probe *p, int enabled);

/* Glob match of one description field (NULL or "" matches anything). */
int prov_field_match(const char *pattern, const char *s);
int prov_desc_match(const struct d_probe_desc *pd, const struct d_probe_info *pi);
int prov_has_glob(const char *s);
/* Hand every probe of ops that pd matches to cb (NULL: only count them);
 * returns the count, or -1 when cb failed.  The end of every po_match
 * and po_list: make the probes, then report them through here. */
int prov_emit_matching(struct prov_registry *r, const struct prov_ops *ops,
    const struct d_probe_desc *pd, d_probe_cb cb, void *arg);
/* p alone: 1 reported, 0 not matched, -1 cb failed. */
int prov_emit_one(struct prov_probe *p, const struct d_probe_desc *pd, d_probe_cb cb,
    void *arg);

/* A provider's state: one zeroed block of size bytes made on first use
 * and freed by prov_close(); NULL with the error set when out of memory.
 * prov_state() only looks (NULL: the provider was never named). */
void *prov_state_get(struct prov_registry *r, const struct prov_ops *ops, size_t size);
void *prov_state(struct prov_registry *r, const struct prov_ops *ops);
/* ops's state when rec is a tracepoint sample (a raw payload), else NULL. */
void *prov_tp_state(struct prov_registry *r, const struct prov_ops *ops,
    const struct smp_record *rec);
/* Replaying a file that recorded none of ops's events (no state made). */
int prov_replay_unseen(struct prov_registry *r, const struct prov_ops *ops);
/* Grow the state (its address may change) to size bytes, zeroing the
 * new tail; NULL with the error set (the old block stays). */
void *prov_state_grow(struct prov_registry *r, const struct prov_ops *ops, size_t old,
    size_t size);

/* Registry services. */
const struct prov_config *prov_cfg(const struct prov_registry *r);
int prov_claim(struct prov_registry *r, int evidx, const struct prov_ops *ops,
    uint64_t cookie);
/* The same, for an event whose recorded name is one of ops's own probes
 * (pmctrace wrote it: "profile-997"): later providers' claims on the event
 * are then ignored, so a recording offers the probes that made it, not
 * every reading of its attr (pmc:::profile-997-1003009). */
int prov_claim_own(struct prov_registry *r, int evidx, const struct prov_ops *ops,
    uint64_t cookie);
/* The provider whose own probe the event's recorded name is, or NULL. */
const struct prov_ops *prov_claimed_own(const struct prov_registry *r, int evidx);
int prov_errf(struct prov_registry *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A line for the user at the end of the run (multiplexing ratios...). */
void prov_notice(struct prov_registry *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* tid's time on CPU at ns (vtimestamp), 0 unless prov_use_vclock(). */
uint64_t prov_vtimestamp(struct prov_registry *r, uint32_t cpu, int32_t tid, uint64_t ns);
/* Thread group of a thread (cached; /proc fallback). */
int32_t prov_tgid(struct prov_registry *r, int32_t tid);
/* Counters the ::pmc: probes read at each switch, in the order their
 * values arrive (what pmc:::counter-src reports). */
int prov_note_group_counter(struct prov_registry *r, const char *name);
int prov_group_counters(struct prov_registry *r, const char *const **names);

/* Firing context (common.c). */
#define PROV_MAX_CPUS 4096
/* Fill the context fields every sample-based firing shares. */
void prov_firing_from_sample(struct prov_registry *r, const struct smp_record *rec,
    struct d_firing *f, uint64_t *kbuf, uint64_t *ubuf, uint32_t max);
#define PROV_REG_SP 7		/* x86_64 perf register number of rsp */
/* Point f's df_ustack* at the sample's stack snapshot (regs_mask: the
 * event's sample_regs_user, which must hold PROV_REG_SP). */
void prov_firing_ustack(struct d_firing *f, const struct smp_record *rec, uint64_t regs_mask);
/* Whether the program reads traced memory (copyin/copyinstr): the cli
 * hands d_uses_stacks() bits, or 1 when it only says "something". */
int prov_wants_ustack(const struct prov_registry *r);
/* sp zeroed but for an event on every CPU, in no group, named name and
 * owned by ops with cookie; the caller fills the attr. */
void prov_spec_init(struct smp_event_spec *sp, const char *name, const struct prov_ops *ops,
    uint64_t cookie);
/* sp: an event sampled on every CPU, disabled until the run starts, on
 * CLOCK_MONOTONIC as every other event, each sample carrying ip, tid,
 * time, cpu (and the callchain when the program reads stacks) and
 * extra_sample; owned by ops with cookie.  attr starts as base (NULL:
 * zero); the caller sets type, config and period. */
void prov_sample_spec(struct prov_registry *r, struct smp_event_spec *sp,
    const struct perf_event_attr *base, uint64_t extra_sample, const char *name,
    const struct prov_ops *ops, uint64_t cookie);

#endif
