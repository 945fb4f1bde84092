/*
 * sched.bpf.c — the scheduler and interrupt probe (contract: bpf/kbpf.h).
 *
 * Raw tracepoints, because they fire wherever the kernel is, the idle
 * loop included (this kernel's perf tracepoint events miss what fires
 * there).  At each switch the CPU's counters are read and their deltas
 * since the previous switch on this CPU are computed here, so the slice
 * that ends is billed to the task leaving the CPU — the idle task when
 * the CPU was idle — and nothing between two switches is lost.  Every
 * record goes to the CPU's bpf-output event (kb_out), whose ring the
 * sampler merges with everything else.
 *
 * Kernel structs are declared with only the fields read, and relocated
 * against the running kernel's BTF at load (CO-RE).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#define __KB_BPF__ 1
#include "bpf/kbpf.h"

struct sched_entity {
	__u64 sum_exec_runtime;
} __attribute__((preserve_access_index));

struct task_struct {
	struct sched_entity se;
	int pid, tgid, prio;
	unsigned int __state;
	int exit_state;
	char comm[16];
} __attribute__((preserve_access_index));

struct irqaction {
	const char *name;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, KB_MAX_COUNTERS);	/* resized by the loader */
} kb_counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 1);			/* resized by the loader */
} kb_out SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kb_cfg);
} kb_cfg SEC(".maps");

struct kb_last {
	__u64 val[KB_MAX_COUNTERS], enabled[KB_MAX_COUNTERS], running[KB_MAX_COUNTERS];
	__s32 next_tid;		/* who the last switch put on this CPU */
	__u32 seen;
	__u64 time;		/* of the last switch */
};

/* Each task's scheduler runtime when it last left a CPU, to split a gap. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __s32);
	__type(value, __u64);
} kb_runtime SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kb_last);
} kb_last SEC(".maps");

/* The record is built here, not on the 512-byte stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kb_switch);
} kb_scratch SEC(".maps");

/* Records the kernel could not deliver, and counter reads that failed,
 * per CPU: the loader reports them as drops (struct kb_stats). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kb_stats);
} kb_stats SEC(".maps");

char LICENSE[] SEC("license") = "GPL";

static void
kb_output(void *ctx, void *rec, __u64 size)
{
	__u32 zero = 0;
	long err = bpf_perf_event_output(ctx, &kb_out, BPF_F_CURRENT_CPU, rec, size);
	/* a full ring (-ENOSPC) is the kernel's LOST record, a drop already */
	struct kb_stats *st = err && err != -28 ? bpf_map_lookup_elem(&kb_stats, &zero) : 0;
	if (st) {
		st->out_errors++;
		st->last_out_error = err;
	}
}

/* What the sched_switch tracepoint prints as prev_state: the highest
 * reported state bit, TASK_REPORT_MAX for a preempted task. */
static __s64
kb_state(int preempt, unsigned int state, struct task_struct *t)
{
	if (preempt)
		return 0x100;
	if (state == 0x402)		/* TASK_IDLE */
		return 0x80;
	unsigned int s = (state | (unsigned int)BPF_CORE_READ(t, exit_state)) & 0x7f;
	__s64 bit = 0;
	for (int i = 6; i >= 0; i--)
		if (s & (1u << i)) {
			bit = 1 << i;
			break;
		}
	return bit;
}

static void
kb_read_counters(struct kb_switch *r, __u32 cpu)
{
	__u32 zero = 0;
	struct kb_cfg *cfg = bpf_map_lookup_elem(&kb_cfg, &zero);
	struct kb_last *last = bpf_map_lookup_elem(&kb_last, &zero);
	__u32 n = cfg ? cfg->ncounters : 0;
	r->ncounters = 0;
	if (!last)
		return;
	for (__u32 i = 0; i < KB_MAX_COUNTERS && i < n; i++) {
		struct bpf_perf_event_value v;
		long err = bpf_perf_event_read_value(&kb_counters, cpu * KB_MAX_COUNTERS + i, &v,
		    sizeof(v));
		if (err) {
			/* bill nothing now: the next good read covers the slice */
			struct kb_stats *st = bpf_map_lookup_elem(&kb_stats, &zero);
			if (st) {
				st->read_errors++;
				st->last_read_error = err;
			}
			v.counter = last->val[i];
			v.enabled = last->enabled[i];
			v.running = last->running[i];
		}
		r->val[i] = v.counter;
		r->delta[i] = v.counter - last->val[i];
		r->d_enabled[i] = v.enabled - last->enabled[i];
		r->d_running[i] = v.running - last->running[i];
		last->val[i] = v.counter;
		last->enabled[i] = v.enabled;
		last->running[i] = v.running;
		r->ncounters = i + 1;
	}
}

/* Each switch should take off the CPU the task the previous one put on. */
static void
kb_chain(struct kb_switch *r, struct task_struct *prev)
{
	__u32 zero = 0;
	struct kb_last *last = bpf_map_lookup_elem(&kb_last, &zero);
	__u64 rt = BPF_CORE_READ(prev, se.sum_exec_runtime);
	__s32 tid = r->prev_tid;
	r->flags = 0;
	r->gap_tid = 0;
	r->gap_span = r->gap_runtime = 0;
	if (!last)
		return;
	if (last->seen && last->next_tid != r->prev_tid) {
		struct kb_stats *st = bpf_map_lookup_elem(&kb_stats, &zero);
		__u64 *was = bpf_map_lookup_elem(&kb_runtime, &tid);
		r->flags = KB_SW_GAP;
		r->gap_tid = last->next_tid;
		r->gap_span = r->h.time - last->time;
		/* never seen leaving a CPU: its whole runtime is this slice's */
		__u64 base = was ? *was : 0;
		r->gap_runtime = rt > base ? rt - base : 0;
		if (st)
			st->gaps++;
	}
	if (tid)
		bpf_map_update_elem(&kb_runtime, &tid, &rt, BPF_ANY);
	last->seen = 1;
	last->next_tid = r->next_tid;
	last->time = r->h.time;
}

SEC("raw_tp/sched_switch")
int
kb_switch(__u64 *ctx)
{
	__u32 zero = 0;
	struct kb_switch *r = bpf_map_lookup_elem(&kb_scratch, &zero);
	struct task_struct *prev = (struct task_struct *)ctx[1];
	struct task_struct *next = (struct task_struct *)ctx[2];
	if (!r)
		return 0;
	r->h.kind = KB_SWITCH;
	r->h.cpu = bpf_get_smp_processor_id();
	r->h.time = bpf_ktime_get_ns();
	r->prev_tid = BPF_CORE_READ(prev, pid);
	r->prev_pid = BPF_CORE_READ(prev, tgid);
	r->next_tid = BPF_CORE_READ(next, pid);
	r->next_pid = BPF_CORE_READ(next, tgid);
	r->next_prio = BPF_CORE_READ(next, prio);
	r->prev_state = kb_state((int)ctx[0], (unsigned int)ctx[3], prev);
	BPF_CORE_READ_STR_INTO(&r->prev_comm, prev, comm);
	BPF_CORE_READ_STR_INTO(&r->next_comm, next, comm);
	kb_read_counters(r, r->h.cpu);
	kb_chain(r, prev);
	/* without counters the record stops before them (half the bytes) */
	if (r->ncounters)
		kb_output(ctx, r, sizeof(*r));
	else
		kb_output(ctx, r, KB_SWITCH_BASE);
	return 0;
}

static int
kb_wake(__u64 *ctx)
{
	struct task_struct *p = (struct task_struct *)ctx[0];
	struct kb_wakeup r = { .h = { KB_WAKEUP, bpf_get_smp_processor_id(), bpf_ktime_get_ns() } };
	r.tid = BPF_CORE_READ(p, pid);
	r.pid = BPF_CORE_READ(p, tgid);
	r.prio = BPF_CORE_READ(p, prio);
	r.target_cpu = -1;
	BPF_CORE_READ_STR_INTO(&r.comm, p, comm);
	kb_output(ctx, &r, sizeof(r));
	return 0;
}

SEC("raw_tp/sched_wakeup")
int
kb_wakeup(__u64 *ctx)
{
	return kb_wake(ctx);
}

static int
kb_irq_out(__u64 *ctx, __u32 kind, __s32 irq, __s32 ret, struct irqaction *act)
{
	struct kb_irq r = { .h = { kind, bpf_get_smp_processor_id(), bpf_ktime_get_ns() } };
	r.irq = irq;
	r.ret = ret;
	if (act) {
		const char *name = BPF_CORE_READ(act, name);
		if (name)
			bpf_probe_read_kernel_str(r.name, sizeof(r.name), name);
	}
	kb_output(ctx, &r, sizeof(r));
	return 0;
}

SEC("raw_tp/irq_handler_entry")
int
kb_irq_entry(__u64 *ctx)
{
	return kb_irq_out(ctx, KB_IRQ_ENTRY, (__s32)ctx[0], 0, (struct irqaction *)ctx[1]);
}

SEC("raw_tp/irq_handler_exit")
int
kb_irq_exit(__u64 *ctx)
{
	return kb_irq_out(ctx, KB_IRQ_EXIT, (__s32)ctx[0], (__s32)ctx[2], (struct irqaction *)ctx[1]);
}

SEC("raw_tp/softirq_entry")
int
kb_softirq_entry(__u64 *ctx)
{
	return kb_irq_out(ctx, KB_SOFTIRQ_ENTRY, (__s32)ctx[0], 0, 0);
}

SEC("raw_tp/softirq_exit")
int
kb_softirq_exit(__u64 *ctx)
{
	return kb_irq_out(ctx, KB_SOFTIRQ_EXIT, (__s32)ctx[0], 0, 0);
}
