/*
 * kbsrc.c — the in-kernel probe (bpf/sched.bpf.c) as an event source for
 * the sched, isr and dpc providers.
 *
 * One BPF object per run serves them all: the first provider that wants it
 * loads it (the verifier's verdict decides between this path and the
 * perf-only fallback, once), one bpf-output event per CPU carries every
 * record into that CPU's ring, and the counters sched::pmc: reads are
 * plain per-CPU counting events whose fds go into the object's
 * PERF_EVENT_ARRAY.  The maps are filled and the programs attached in the
 * output event's started hook, when every fd exists.  Records come back
 * through prov_kb_ops, which hands each to the provider that asked for
 * its kind; in a replay each provider claims the recorded output event
 * itself (PROV_KB_EVENT) and picks out its kinds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/kbpf.h"
#include "providers/kbsrc.h"
#include "symbolizer/symbolizer.h"

#define KB_NKINDS 8

struct prov_kb {
	struct kb_obj *o;
	int state;			/* 0 untried, 1 loaded, -1 unusable */
	char why[320];
	const struct prov_ops *handler[KB_NKINDS];
	int out_evidx;
	int counter_evidx[KB_MAX_COUNTERS];
	int ncounters;
	int reported;
};

static const char *const kb_progs[KB_NKINDS][2] = {
	[KB_SWITCH] = { "kb_switch", NULL },
	[KB_WAKEUP] = { "kb_wakeup", NULL },
	[KB_IRQ_ENTRY] = { "kb_irq_entry", "kb_irq_exit" },
	[KB_SOFTIRQ_ENTRY] = { "kb_softirq_entry", "kb_softirq_exit" },
};

static struct prov_kb *
kb_state_get(struct prov_registry *r)
{
	struct prov_kb **slot = prov_kb_slot(r);
	if (!*slot && (*slot = calloc(1, sizeof(**slot))))
		(*slot)->out_evidx = -1;
	return *slot;
}

void
prov_kb_free(struct prov_kb *kb)
{
	if (!kb)
		return;
	kb_close(kb->o);
	free(kb);
}

/* Load once; afterwards every caller gets the same verdict. */
static int
kb_try_load(struct prov_registry *r, struct prov_kb *kb)
{
	int err = 0, n = kb_possible_cpus();
	if (kb->state)
		return kb->state > 0;
	kb->state = -1;
	if (prov_cfg(r)->nobpf) {
		snprintf(kb->why, sizeof(kb->why), "-x nobpf");
		return 0;
	}
	if (n <= 0 || !(kb->o = kb_open("sched", &err))) {
		snprintf(kb->why, sizeof(kb->why), "cannot open the BPF object: %s",
		    strerror(n <= 0 ? -n : -err));
		return 0;
	}
	if (kb_map_resize(kb->o, "kb_out", (__u32)n) ||
	    kb_map_resize(kb->o, "kb_counters", (__u32)n * KB_MAX_COUNTERS) || kb_load(kb->o)) {
		snprintf(kb->why, sizeof(kb->why), "%s", kb_errmsg(kb->o));
		kb_close(kb->o);
		kb->o = NULL;
		return 0;
	}
	kb->state = 1;
	return 1;
}

static int
kb_fill(struct prov_registry *r, struct prov_kb *kb, struct smp_session *s)
{
	int cpus[PROV_MAX_CPUS], n = smp_online_cpus(cpus, PROV_MAX_CPUS);
	(void)r;
	for (int i = 0; i < n; i++) {
		int fd = smp_event_fd(s, kb->out_evidx, cpus[i]);
		if (fd < 0 || kb_map_update(kb->o, "kb_out", (__u32)cpus[i], &fd))
			return -1;
		for (int c = 0; c < kb->ncounters; c++) {
			fd = smp_event_fd(s, kb->counter_evidx[c], cpus[i]);
			if (fd < 0 || kb_map_update(kb->o, "kb_counters",
			    (__u32)(cpus[i] * KB_MAX_COUNTERS + c), &fd))
				return -1;
		}
	}
	struct kb_cfg cfg = { .ncounters = (__u32)kb->ncounters };
	return kb_map_update(kb->o, "kb_cfg", 0, &cfg);
}

static int
kb_started(void *arg, struct smp_session *s)
{
	struct prov_registry *r = arg;
	struct prov_kb *kb = *prov_kb_slot(r);
	if (kb_fill(r, kb, s))
		return smp_set_error(s, -EINVAL, kb_errmsg(kb->o));
	for (int k = 0; k < KB_NKINDS; k++)
		for (int j = 0; j < 2 && kb->handler[k] && kb_progs[k][j]; j++)
			if (kb_attach(kb->o, kb_progs[k][j]))
				return smp_set_error(s, -EINVAL, kb_errmsg(kb->o));
	return 0;
}

static int
kb_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct prov_kb *kb = *prov_kb_slot(r);
	int kind = prov_kb_kind(rec);
	const struct prov_ops *h = kind > 0 ? kb->handler[kind] : NULL;
	(void)cookie;
	return h ? h->po_decode(r, rec, PROV_KB_COOKIE, fire, arg) : 0;
}

static const struct prov_ops prov_kb_ops = {
	.po_name = "",
	.po_decode = kb_decode,
};

static int
kb_add_output(struct prov_registry *r, struct prov_kb *kb, struct smp_session *s)
{
	struct smp_event_spec sp;
	memset(&sp, 0, sizeof(sp));
	sp.attr.type = PERF_TYPE_SOFTWARE;
	sp.attr.config = PERF_COUNT_SW_BPF_OUTPUT;
	sp.attr.sample_period = 1;
	sp.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW |
	    (prov_cfg(r)->want_callchains & 3 ? PERF_SAMPLE_CALLCHAIN : 0);
	sp.attr.use_clockid = 1;
	sp.attr.clockid = 1;	/* CLOCK_MONOTONIC, as the tracepoint events */
	sp.scope = SMP_EACH_CPU;
	sp.group_leader = -1;
	sp.name = PROV_KB_EVENT;
	sp.owner = (void *)&prov_kb_ops;
	sp.started = kb_started;
	sp.started_arg = r;
	if (smp_add_event(s, &sp, &kb->out_evidx) < 0)
		return prov_errf(r, "%s", smp_errmsg(s));
	return 0;
}

int
prov_kb_use(struct prov_registry *r, struct smp_session *s, const struct prov_ops *ops,
    const int *kinds, int nkinds)
{
	struct prov_kb *kb = kb_state_get(r);
	if (!kb)
		return prov_errf(r, "out of memory");
	if (!kb_try_load(r, kb))
		return 0;
	if (kb->out_evidx < 0 && kb_add_output(r, kb, s) < 0)
		return -1;
	for (int i = 0; i < nkinds; i++)
		kb->handler[kinds[i]] = ops;
	return 1;
}

int
prov_kb_add_counters(struct prov_registry *r, struct smp_session *s,
    const struct pmu_counter *set, int n)
{
	struct prov_kb *kb = *prov_kb_slot(r);
	for (int i = 0; i < n && i < KB_MAX_COUNTERS; i++) {
		struct smp_event_spec sp;
		char name[sizeof(PROV_KB_COUNTER) + sizeof(set->name)];
		memset(&sp, 0, sizeof(sp));
		sp.attr = set[i].attr;
		sp.attr.size = sizeof(sp.attr);
		sp.attr.sample_period = 0;
		sp.attr.freq = 0;
		sp.attr.sample_type = 0;
		sp.attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		sp.scope = SMP_EACH_CPU;
		sp.group_leader = -1;
		snprintf(name, sizeof(name), "%s%s", PROV_KB_COUNTER, set[i].name);
		sp.name = name;		/* the sampler copies it */
		if (smp_add_event(s, &sp, &kb->counter_evidx[i]) < 0)
			return prov_errf(r, "%s", smp_errmsg(s));
		kb->ncounters = i + 1;
	}
	return 0;
}

const char *
prov_kb_why(struct prov_registry *r)
{
	struct prov_kb *kb = *prov_kb_slot(r);
	return kb && kb->why[0] ? kb->why : "not tried";
}

int
prov_kb_kind(const struct smp_record *rec)
{
	__u32 kind;
	if (rec->type != PERF_RECORD_SAMPLE || !rec->raw || rec->raw_size < sizeof(struct kb_hdr))
		return -1;
	memcpy(&kind, rec->raw, sizeof(kind));
	return kind < KB_NKINDS ? (int)kind : -1;
}

/* What the programs could not do, said once at the end of the run. */
void
prov_kb_report(struct prov_registry *r, int counters)
{
	struct prov_kb *kb = *prov_kb_slot(r);
	int n = kb_possible_cpus();
	if (!kb || !kb->o || kb->reported || n <= 0)
		return;
	kb->reported = 1;
	struct kb_stats *st = calloc((size_t)n, sizeof(*st));
	if (!st || kb_map_lookup(kb->o, "kb_stats", 0, st)) {
		free(st);
		return;
	}
	struct kb_stats sum = { 0 };
	for (int i = 0; i < n; i++) {
		sum.out_errors += st[i].out_errors;
		sum.read_errors += st[i].read_errors;
		sum.gaps += st[i].gaps;
		if (st[i].last_out_error)
			sum.last_out_error = st[i].last_out_error;
		if (st[i].last_read_error)
			sum.last_read_error = st[i].last_read_error;
	}
	free(st);
	__u64 miss = 0;
	for (int k = 0; k < KB_NKINDS; k++)
		for (int j = 0; j < 2 && kb->handler[k] && kb_progs[k][j]; j++)
			miss += kb_prog_misses(kb->o, kb_progs[k][j]);
	if (miss)
		prov_notice(r, "in-kernel probe: the kernel skipped it %llu times (it was "
		    "already running on that CPU)", (unsigned long long)miss);
	if (sum.gaps && counters)
		prov_notice(r, "in-kernel probe: %llu switches were not shown to it; the "
		    "counters of the slices around them were split by the scheduler's "
		    "runtime", (unsigned long long)sum.gaps);
	if (sum.out_errors)
		prov_notice(r, "in-kernel probe: %llu records could not be written (%s)",
		    (unsigned long long)sum.out_errors, strerror((int)-sum.last_out_error));
	if (sum.read_errors)
		prov_notice(r, "in-kernel probe: %llu counter reads failed (%s); those "
		    "slices went to the next switch", (unsigned long long)sum.read_errors,
		    strerror((int)-sum.last_read_error));
}

/* Frames of the probe's own machinery, whatever else is attached to the
 * tracepoint: the program (kallsyms' [bpf] module), the kernel's
 * bpf_trace_run*() and __bpf_trace_*() that call it, the tracepoint's
 * iterator (__traceiter_*, present while a second probe is attached: a perf
 * event, bpftrace, another run) and the perf probe it may call first. */
static int
kb_machinery(struct sym_session *sym, uint64_t pc)
{
	static const char *const pre[] = { "bpf_", "__bpf_", "___bpf_", "__traceiter_",
	    "perf_trace_", "trace_call_bpf" };
	char buf[256];
	const char *fn;
	if (!sym || sym_kernel(sym, pc, SYM_FUNC, buf, sizeof(buf)) < 0 || !(fn = strchr(buf, '`')))
		return -1;
	if (fn - buf == 3 && !memcmp(buf, "bpf", 3))
		return 1;
	fn++;
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(fn, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

/* The probe's samples are taken inside the BPF program, so their kernel stacks begin with the program (at
 * the sample's ip) and the machinery that called it, one to four frames
 * depending on what else traces the same tracepoint.  All of it goes: the
 * stack then starts at the tracepoint's caller (__schedule for a switch),
 * where perf's tracepoint events and bpftrace's kstack start it.  Frames
 * are judged by their kernel symbols (cached), so a replay on the machine
 * that recorded trims the same; without symbols only the program's frame
 * and bpf_trace_run*() go.  A perf tracepoint's stack (-x nobpf) starts at
 * the iterator while a second probe is attached: that frame goes too. */
void
prov_kb_trim_stack(struct prov_registry *r, const struct smp_record *rec, struct d_firing *f)
{
	uint32_t i = 0;
	int m, kb = rec->spec && rec->spec->name && !strcmp(rec->spec->name, PROV_KB_EVENT);
	if (!f->df_nkstack)
		return;
	while (kb && i < f->df_nkstack && f->df_kstack[i] == rec->ip)
		i++;
	while (i < f->df_nkstack && (m = kb_machinery(prov_cfg(r)->sym, f->df_kstack[i])) != 0) {
		if (m < 0) {	/* no symbols: the program's caller is bpf_trace_run*() */
			i += kb && i > 0;
			break;
		}
		i++;
	}
	if (i >= f->df_nkstack)
		return;
	f->df_kstack += i;
	f->df_nkstack -= i;
}
