/*
 * kbpf.h — in-kernel probes: BPF objects built with the tree (clang -target
 * bpf, CO-RE), embedded in the binary, loaded and attached through libbpf.
 *
 * Contract.  kb_open() finds an embedded object by name and opens it; the
 * caller may size its maps (kb_map_resize) before kb_load(), which runs the
 * verifier: a failure there (no BPF, no BTF, no CAP_BPF/CAP_PERFMON, a
 * kernel without a helper) is the caller's cue to fall back, with the
 * reason in kb_errmsg().  After the load, maps are filled by name
 * (kb_map_update, kb_map_fd) and programs attached by name (kb_attach:
 * raw_tp/ and tp_btf/ sections attach to their tracepoint).  kb_close()
 * detaches everything and frees the object.  Nothing here blocks and
 * nothing here spawns threads; records a program writes with
 * bpf_perf_event_output reach user space through perf rings the caller
 * owns (see the "kb_out" convention below).  int functions return 0 or
 * -errno; kb_open returns NULL and sets *errp.  No libbpf message is
 * printed: the last one is kept for kb_errmsg().
 *
 * The record layouts below are shared with the BPF C (bpf/NAME.bpf.c, built
 * with -D__KB_BPF__): only fixed-width types, every field naturally
 * aligned.  In a perf sample the payload follows a u32 size, so it sits 4
 * bytes off 8-byte alignment: copy it out before reading its fields.
 */
#ifndef PMCTRACE_KBPF_H
#define PMCTRACE_KBPF_H

#include <linux/types.h>

/*
 * bpf/sched.bpf.c, the scheduler and interrupt probe ("sched").
 * Maps: kb_counters (PERF_EVENT_ARRAY, cpu * KB_MAX_COUNTERS + counter:
 * the per-CPU counting events to read at each switch), kb_out
 * (PERF_EVENT_ARRAY by CPU: bpf-output events whose rings the caller
 * reads), kb_cfg (ARRAY, key 0: struct kb_cfg), kb_stats (below).  Programs: kb_switch,
 * kb_wakeup, kb_irq_entry, kb_irq_exit, kb_softirq_entry,
 * kb_softirq_exit; attach only those wanted.
 */
#define KB_MAX_COUNTERS 8
#define KB_COMM 16

enum kb_kind {
	KB_SWITCH = 1,		/* struct kb_switch */
	KB_WAKEUP = 2,		/* struct kb_wakeup */
	KB_IRQ_ENTRY = 3,	/* struct kb_irq */
	KB_IRQ_EXIT = 4,
	KB_SOFTIRQ_ENTRY = 5,
	KB_SOFTIRQ_EXIT = 6,
};

/* kb_stats (PERCPU_ARRAY, key 0): what went wrong on each CPU. */
struct kb_stats {
	__u64 out_errors;	/* records bpf_perf_event_output could not write,
				 * a full ring aside (that is a LOST record) */
	__u64 read_errors;	/* counter reads that failed (that slice waits) */
	__u64 gaps;		/* switches with KB_SW_GAP */
	__s64 last_out_error, last_read_error;	/* -errno */
};

struct kb_cfg {
	__u32 ncounters;	/* kb_counters entries per CPU that are set */
	__u32 pad;
};

struct kb_hdr {
	__u32 kind;		/* enum kb_kind */
	__u32 cpu;
	__u64 time;		/* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
};

/* One context switch.  The counters were read on this CPU at the switch;
 * delta is what they advanced since the previous switch on this CPU (or
 * since they were enabled), i.e. what prev's slice cost, idle (pid 0)
 * included.  enabled/running are the counters' own time deltas over the
 * same slice, for scaling when they were multiplexed. */
struct kb_switch {
	struct kb_hdr h;
	__s32 prev_pid, prev_tid, next_pid, next_tid;
	__s64 prev_state;	/* as the sched_switch tracepoint reports it */
	__s32 next_prio;	/* kernel prio, as the tracepoint reports it */
	__u32 ncounters;
	__u32 flags;		/* KB_SW_* */
	__s32 gap_tid;		/* KB_SW_GAP: the task the last seen switch put on */
	__u64 gap_span;		/* KB_SW_GAP: ns since that switch */
	__u64 gap_runtime;	/* KB_SW_GAP: prev's own runtime in it, 0 unknown */
	char prev_comm[KB_COMM], next_comm[KB_COMM];
	__u64 val[KB_MAX_COUNTERS], delta[KB_MAX_COUNTERS];
	__u64 d_enabled[KB_MAX_COUNTERS], d_running[KB_MAX_COUNTERS];
};

/* A switch record without counters ends before val[]. */
#define KB_SWITCH_BASE __builtin_offsetof(struct kb_switch, val)

/* The previous switch seen on this CPU put another task (gap_tid) on it
 * than the one leaving now: the kernel ran switches in between without
 * this probe (see docs/design.md), and delta covers them too.  prev's own
 * scheduler runtime since its previous switch-out (gap_runtime) against
 * the span lets the reader split delta between the two. */
#define KB_SW_GAP 1

struct kb_wakeup {
	struct kb_hdr h;
	__s32 pid, tid;		/* the woken thread */
	__s32 target_cpu, prio;
	char comm[KB_COMM];
};

/* irq: irq number and handler name (the irqaction's), ret at exit;
 * softirq: vec in irq, name empty. */
struct kb_irq {
	struct kb_hdr h;
	__s32 irq, ret;
	char name[32];
};

#ifndef __KB_BPF__
#include <stddef.h>

struct kb_obj;

struct kb_obj *kb_open(const char *name, int *errp);
int kb_map_resize(struct kb_obj *o, const char *map, __u32 entries);	/* before kb_load */
int kb_load(struct kb_obj *o);
int kb_map_fd(struct kb_obj *o, const char *map);
int kb_map_update(struct kb_obj *o, const char *map, __u32 key, const void *val);
/* Look key up; a per-CPU map's value is one per possible CPU, in order. */
int kb_map_lookup(struct kb_obj *o, const char *map, __u32 key, void *val);
int kb_attach(struct kb_obj *o, const char *prog);
/* Times the kernel skipped prog because it was already running on that
 * CPU (a BPF program it called into fired the same tracepoint), or 0. */
__u64 kb_prog_misses(struct kb_obj *o, const char *prog);
void kb_close(struct kb_obj *o);
const char *kb_errmsg(const struct kb_obj *o);

/* CPUs the kernel may ever bring online: the size of per-CPU maps. */
int kb_possible_cpus(void);
/* The embedded object called name (its bytes and size), or NULL. */
const void *kb_object(const char *name, size_t *size);
#endif

#endif
