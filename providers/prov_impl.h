/*
 * prov_impl.h — what the providers share privately: the ops table each
 * provider fills, the probe registry they add probes to, and tracepoint
 * format lookup.  Not for use outside providers/.
 *
 * Probe ids are dense and stable for a run: 1..3 are dtrace:::BEGIN, END
 * and ERROR (fixed by dcore.h); others are handed out in creation order.
 */
#ifndef PMCTRACE_PROV_IMPL_H
#define PMCTRACE_PROV_IMPL_H

#include "providers/provider.h"

struct prov_registry;
struct prov_probe;

struct prov_ops {
	const char *po_name;
	/* -l: probes that exist without a script (may create them). */
	int (*po_list)(struct prov_registry *r, const struct d_probe_desc *pd,
	    d_probe_cb cb, void *arg);
	/* Compile time: create or find the probes pd names; returns the count
	 * emitted through prov_emit(), or -1 with prov_errf() called. */
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

/* Registry services for providers. */
const struct prov_config *prov_cfg(const struct prov_registry *r);
void *prov_state(struct prov_registry *r, const struct prov_ops *ops);
void prov_set_state(struct prov_registry *r, const struct prov_ops *ops, void *st);
struct prov_probe *prov_find(struct prov_registry *r, const char *prov,
    const char *mod, const char *func, const char *name);
struct prov_probe *prov_add(struct prov_registry *r, const struct prov_ops *ops,
    const char *mod, const char *func, const char *name);
void prov_set_args(struct prov_probe *p, int nargs, const char *const *types);
struct prov_probe *prov_by_id(struct prov_registry *r, uint32_t id);
uint32_t prov_nprobes(const struct prov_registry *r);
int prov_is_enabled(struct prov_registry *r, uint32_t id);
int prov_claim(struct prov_registry *r, int evidx, const struct prov_ops *ops,
    uint64_t cookie);
/* The same, for an event whose recorded name is one of ops's own probes
 * (pmctrace wrote it: "profile-997"): later providers' claims on the event
 * are then ignored, so a recording offers the probes that made it, not
 * every reading of its attr (pmc:::profile-997-1003009). */
int prov_claim_own(struct prov_registry *r, int evidx, const struct prov_ops *ops,
    uint64_t cookie);
int prov_errf(struct prov_registry *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* tid's time on CPU at ns (vtimestamp), 0 unless prov_use_vclock(). */
uint64_t prov_vtimestamp(struct prov_registry *r, uint32_t cpu, int32_t tid, uint64_t ns);

/* Glob match of one description field (NULL or "" matches anything). */
int prov_field_match(const char *pattern, const char *s);
int prov_desc_match(const struct d_probe_desc *pd, const struct d_probe_info *pi);
int prov_has_glob(const char *s);

/* Fill the context fields every sample-based firing shares. */
void prov_firing_from_sample(struct prov_registry *r, const struct smp_record *rec,
    struct d_firing *f, uint64_t *kbuf, uint64_t *ubuf, uint32_t max);

/* Tracepoints: id and field layout from tracefs (or the replayed file). */
struct prov_tp_field {
	char name[48];
	uint16_t offset, size;
	uint8_t is_signed, is_string;	/* char name[N] arrays are strings */
	uint8_t is_dataloc;		/* __data_loc: u32 = len << 16 | offset */
};
struct prov_tp {
	char system[32], event[64];
	char name[100];			/* "system:event"; lives as long as tp */
	uint64_t id;
	int nfields;
	struct prov_tp_field fields[40];
};
int prov_tp_load(struct prov_registry *r, const char *system, const char *event,
    struct prov_tp *tp);
const struct prov_tp_field *prov_tp_field(const struct prov_tp *tp, const char *name);
uint64_t prov_tp_uint(const struct prov_tp_field *f, const void *raw, uint32_t rawsize);
/* A string field (fixed array or __data_loc) copied NUL-terminated. */
const char *prov_tp_str(const struct prov_tp_field *f, const void *raw,
    uint32_t rawsize, char *buf, size_t len);
/* Tracepoint event attr with the sample_type every tracepoint probe uses. */
void prov_tp_attr(const struct prov_tp *tp, struct perf_event_attr *attr, int callchain);

/* Per-CPU entry/exit pairing for isr and dpc: the entry's time and label
 * are kept until the matching exit on the same CPU. */
struct prov_interval {
	uint64_t pi_start;
	uint64_t pi_id;
	char pi_label[32];
	int pi_active;
};
#define PROV_MAX_CPUS 4096
struct prov_interval *prov_interval_slot(struct prov_interval *tab, uint32_t cpu);

/* Add a tracepoint event on every CPU owned by ops with the given cookie;
 * returns its evidx or -1 with the error set. */
int prov_tp_add(struct prov_registry *r, struct smp_session *s, const struct prov_ops *ops,
    const struct prov_tp *tp, uint64_t cookie, int leader, int with_read);

/*
 * Tracepoint-backed providers (tpbacked.c): io, tcp, udp, sysinfo and
 * vminfo are each a table — probe names (module and function ""), one
 * arg list and its D declarations, the kernel tracepoints they read — and
 * a decode function; tpbacked.c does the plumbing.  Probes are made on
 * match and on -l (in a replay only once the file holds one of the
 * events).  Live, the enabled probes' ids go to tbs_probe[] by probe
 * index, and each event they need is added with its index as cookie;
 * replayed, a recorded event is claimed by its "system:event" name.
 * A record reaches tb_decode only once it is a sample of one of these
 * events, with a raw payload if it is a tracepoint's.  The provider's own
 * state struct begins with struct prov_tpb_state (tb_state_size: its size).
 * PROV_TPB_OPS() defines the provider's prov_ops from its table.
 */
#define PROV_TPB_MAX_EVENTS 10
#define PROV_TPB_MAX_PROBES 8
enum {
	PROV_TPB_OPTIONAL = 1,		/* live: absent on older kernels, skipped */
	PROV_TPB_FIXED_LAYOUT = 2,	/* decoded at fixed offsets: replay needs no tracefs */
};
struct prov_tpb_event {
	const char *te_system, *te_event;
	int te_flags;			/* PROV_TPB_* */
};
struct prov_tpb_state {
	struct prov_tp tbs_tp[PROV_TPB_MAX_EVENTS];	/* by event index */
	uint32_t tbs_probe[PROV_TPB_MAX_PROBES];	/* enabled probe ids, else 0 */
	int tbs_planned;
};
struct prov_tpb {
	const struct prov_ops *tb_ops;
	const char *const *tb_probes;	/* probe names; pp_param[0] = the index */
	int tb_nprobes;
	const char *const *tb_argtypes;
	int tb_nargs;
	const char *tb_decls;		/* D declarations the arg types need, or NULL */
	const struct prov_tpb_event *tb_events;
	int tb_nevents;
	size_t tb_state_size;
	/* Which events the enabled probes need (want[e] = 1); NULL: probe k
	 * is fed by event k alone. */
	void (*tb_want)(const uint32_t *probe, int *want);
	/* Events that are not tracepoints (no raw payload), cookies from
	 * tb_nevents on: how many, adding them live, and the cookie of a
	 * recorded one (-1: not ours).  NULL/0 when there are none. */
	int tb_nextra;
	int (*tb_enable_extra)(struct prov_registry *r, struct smp_session *s,
	    const struct prov_tpb_state *st);
	int (*tb_claim_extra)(const struct smp_event_spec *ev);
	int (*tb_decode)(struct prov_registry *r, struct prov_tpb_state *st,
	    const struct smp_record *rec, uint64_t cookie, prov_fire_fn fire, void *arg);
};
int prov_tpb_list(const struct prov_tpb *tb, struct prov_registry *r,
    const struct d_probe_desc *pd, d_probe_cb cb, void *arg);
int prov_tpb_match(const struct prov_tpb *tb, struct prov_registry *r,
    const struct d_probe_desc *pd, d_probe_cb cb, void *arg);
int prov_tpb_enable(const struct prov_tpb *tb, struct prov_registry *r, struct smp_session *s);
int prov_tpb_claim(const struct prov_tpb *tb, struct prov_registry *r, struct smp_session *s,
    int evidx);
int prov_tpb_decode(const struct prov_tpb *tb, struct prov_registry *r,
    const struct smp_record *rec, uint64_t cookie, prov_fire_fn fire, void *arg);
/* Fire probe id with f, unless id is 0 (the probe is not enabled). */
int prov_tpb_fire(uint32_t id, struct d_firing *f, prov_fire_fn fire, void *arg);

/* const struct prov_ops ops = name's ops, each a call into tpbacked.c
 * with the table tb (the registry's ops carry no table pointer). */
#define PROV_TPB_OPS(ops, name, tb)							\
static int ops##_list(struct prov_registry *r, const struct d_probe_desc *pd,	\
    d_probe_cb cb, void *arg) { return prov_tpb_list(&(tb), r, pd, cb, arg); }	\
static int ops##_match(struct prov_registry *r, const struct d_probe_desc *pd,	\
    d_probe_cb cb, void *arg) { return prov_tpb_match(&(tb), r, pd, cb, arg); }	\
static int ops##_enable(struct prov_registry *r, struct smp_session *s)		\
    { return prov_tpb_enable(&(tb), r, s); }					\
static int ops##_claim(struct prov_registry *r, struct smp_session *s, int evidx)	\
    { return prov_tpb_claim(&(tb), r, s, evidx); }				\
static int ops##_decode(struct prov_registry *r, const struct smp_record *rec,	\
    uint64_t cookie, prov_fire_fn fire, void *arg)				\
    { return prov_tpb_decode(&(tb), r, rec, cookie, fire, arg); }		\
const struct prov_ops ops = {							\
	.po_name = (name), .po_list = ops##_list, .po_match = ops##_match,	\
	.po_enable = ops##_enable, .po_claim = ops##_claim,			\
	.po_decode = ops##_decode,						\
}

/* A line for the user at the end of the run (multiplexing ratios...). */
void prov_notice(struct prov_registry *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Counters the ::pmc: probes read at each switch, in the order their
 * values arrive (what pmc:::counter-src reports). */
int prov_note_group_counter(struct prov_registry *r, const char *name);
int prov_group_counters(struct prov_registry *r, const char *const **names);

/* As prov_tp_add, with the user stack pointer and stack_bytes of the user
 * stack from it in every sample (copyin/copyinstr read them: the traced
 * memory as it was when the event fired). */
int prov_tp_add_ustack(struct prov_registry *r, struct smp_session *s, const struct prov_ops *ops,
    const struct prov_tp *tp, uint64_t cookie, uint32_t stack_bytes);
#define PROV_REG_SP 7		/* x86_64 perf register number of rsp */
/* Point f's df_ustack* at the sample's stack snapshot (regs_mask: the
 * event's sample_regs_user, which must hold PROV_REG_SP). */
void prov_firing_ustack(struct d_firing *f, const struct smp_record *rec, uint64_t regs_mask);
/* Whether the program reads traced memory (copyin/copyinstr): the cli
 * hands d_uses_stacks() bits, or 1 when it only says "something". */
int prov_wants_ustack(const struct prov_registry *r);

/* A set of counters read as one group (sched's switch group, pmcpair's
 * handler group; pmcpair.c): resolve counter name into set[0..*n): its
 * index if the set holds it already, else it is appended (*n grows) when
 * fewer than max are there and the set with it fits the register budget.
 * where completes "at most <max> counters can be read <where>".  Returns
 * the index, or -1 with the error set. */
#include "pmu/pmu.h"
int prov_counter_set_add(struct prov_registry *r, struct pmu_counter *set, int *n, int max,
    const char *name, const char *where);

/* Counters read at an entry tracepoint and its exit (pmcpair.c). */
#define PROV_PAIR_MAX 8
struct prov_pmcpair {
	int ncounters;
	struct pmu_counter counters[PROV_PAIR_MAX];
	int member_evidx[PROV_PAIR_MAX];
	uint64_t entry[PROV_MAX_CPUS][PROV_PAIR_MAX];
	uint8_t seen[PROV_MAX_CPUS];
};
int prov_pmcpair_add_counter(struct prov_registry *r, struct prov_pmcpair *pp, const char *name);
int prov_pmcpair_enable(struct prov_registry *r, struct smp_session *s, struct prov_pmcpair *pp,
    const struct prov_ops *ops, const struct prov_tp *entry, const struct prov_tp *exit,
    uint64_t entry_cookie, uint64_t exit_cookie);
void prov_pmcpair_entry(struct prov_pmcpair *pp, const struct smp_record *rec);
void prov_pmcpair_exit(struct prov_pmcpair *pp, const struct smp_record *rec,
    uint64_t *val, uint64_t *delta);

/* Thread group of a thread (cached; /proc fallback). */
int32_t prov_tgid(struct prov_registry *r, int32_t tid);

#endif
