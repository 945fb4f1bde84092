/*
 * sched.c — the sched provider: on-cpu, off-cpu and wakeup, and the
 * counter-reading variants sched::pmc:on-cpu-<counter> and
 * sched::pmc:off-cpu-<counter>.
 *
 * One sched:sched_switch tracepoint per CPU feeds every switch probe: it
 * fires off-cpu in the context of the thread leaving the CPU, then on-cpu
 * in the context of the one arriving.  When ::pmc: probes are enabled the
 * tracepoint leads a group with the named counters and reads them at each
 * switch (PERF_SAMPLE_READ): arg4 is the free-running per-CPU value at the
 * switch, arg5 the delta since the previous switch on that CPU, i.e. what
 * the leaving thread accrued during its time slice.  All counters of all
 * ::pmc: probes are one group, planned against the register budget.
 * wakeup comes from sched:sched_wakeup, in the waker's context.
 *
 * args, as DTrace's sched provider has them where Linux has the data:
 *   off-cpu: args[0] lwpsinfo_t * and args[1] psinfo_t * of the thread
 *            about to run; arg2 = prev_state of the leaving thread (0 when
 *            it was preempted, nonzero when it blocked), arg3 = the
 *            arriving thread's priority; ::pmc: adds arg4, arg5.
 *   on-cpu:  args[0]/args[1] describe the thread that just left;
 *            arg2/arg3 as for off-cpu (DTrace's on-cpu has no args).
 *   wakeup:  args[0]/args[1] of the woken thread, arg2 = its target CPU,
 *            arg3 = its priority.
 * The structs are built per firing (pid, tid, comm, CPU; the rest zero)
 * and translated by the engine's psinfo_t/lwpsinfo_t translators.
 *
 * Two sources feed the same firings.  Where BPF can be used, the
 * in-kernel probe (providers/kbsrc.c, bpf/sched.bpf.c) sees every switch
 * and wakeup, those in the idle loop included, reads the counters on the
 * switching CPU and computes each slice's delta in the kernel: arg5 is
 * exact and an idle slice is billed to the idle task (pid 0).  Otherwise
 * (-x nobpf, no privilege, no BTF) the perf tracepoints above are used;
 * this kernel does not deliver the ones fired in the idle loop, so a
 * switch out of idle is missed and its idle time lands in the next
 * slice of a thread; the notice at the end of the run says so.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/kbpf.h"
#include "providers/kbsrc.h"
#include "providers/pmcpair.h"

enum sched_kind { SK_ON, SK_OFF, SK_WAKEUP, SK_PMC_ON, SK_PMC_OFF };
enum { PP_KIND, PP_COUNTER };
enum { COOKIE_SWITCH = 1, COOKIE_WAKEUP = 2, COOKIE_CSWITCH = 3 };
#define SCHED_CSWITCH_EVENT "pmctrace:switch-records"

#define SCHED_MAX_COUNTERS 8
#define SCHED_MAX_FIRE 64

struct sched_fire {
	uint32_t id;
	int counter;		/* -1 for the plain probes */
};

/* A thread's stacks as it left the CPU, handed back when it returns: as in
 * DTrace, stack() and ustack() at on-cpu show where the thread slept. */
#define SCHED_PARKED_SLOTS 4096
#define SCHED_PARKED_FRAMES 48
struct sched_parked {
	int32_t tid;
	uint16_t nk, nu;
	uint64_t k[SCHED_PARKED_FRAMES], u[SCHED_PARKED_FRAMES];
};

struct sched_state {
	struct prov_tp sw, wk;
	const struct prov_tp_field *prev_comm, *prev_pid, *prev_state, *next_comm,
	    *next_pid, *next_prio, *wk_pid, *wk_prio, *wk_cpu, *wk_comm;
	int ncounters;
	struct pmu_counter counters[SCHED_MAX_COUNTERS];
	int member_evidx[SCHED_MAX_COUNTERS];
	int leader_evidx;
	struct sched_fire off[SCHED_MAX_FIRE], on[SCHED_MAX_FIRE], wake[4];
	int noff, non, nwake;
	uint64_t last[PROV_MAX_CPUS][SCHED_MAX_COUNTERS];
	uint64_t sum_enabled, sum_running;	/* -x pmcmultiplex: the ratio reported */
	int kb;				/* switches and wakeups come from the in-kernel probe */
	/* perf path: the kernel's switch records show when a CPU left idle,
	 * which the tracepoint misses (sched_decode_cswitch) */
	uint64_t tp_last[PROV_MAX_CPUS];	/* time of the last tracepoint switch */
	uint64_t idle_end[PROV_MAX_CPUS];	/* the last switch out of idle */
	/* the tracepoint itself showed the last switch out of idle: the
	 * switch record that follows it (same switch, a little later) is
	 * no missed switch */
	uint8_t idle_seen[PROV_MAX_CPUS];
	int park;			/* on-cpu probes and the program prints stacks */
	struct sched_parked parked[SCHED_PARKED_SLOTS];	/* untouched pages cost nothing */
};

static const char *const sched_args[] = { "struct __pmct_proc *", "struct __pmct_proc *",
	"int64_t", "int", "uint64_t", "uint64_t" };
static const char *const sched_xargs[] = { "lwpsinfo_t *", "psinfo_t *" };
static const char *const sched_block_args[] = { "struct __pmct_proc *", "struct __pmct_proc *",
	"int64_t", "int", "pmc_counters_t *", "pmc_counters_t *" };

/* sched::pmc:off-cpu with no counter named: the seed's block of every
 * counter the ::pmc: probes read, in pmc:::counter-src order (arg4: the
 * values at the switch; arg5, pmctrace's addition: the deltas). */
#define SCHED_BLOCK (-2)
static const char sched_block_decls[] =
    "typedef struct pmc_counters { uint32_t type; uint32_t size; uint64_t values[8]; } pmc_counters_t;\n";
struct sched_block {
	uint32_t type, size;
	uint64_t values[SCHED_MAX_COUNTERS];
};

/* Same layout as the engine's struct __pmct_proc (dcore's prelude), whose
 * translators give lwpsinfo_t and psinfo_t. */
struct sched_proc {
	int32_t pid, ppid, uid, gid;
	char fname[16];
	char psargs[80];
	int32_t tid, cpu;
};

static void
sched_proc_fill(struct sched_proc *sp, int32_t pid, int32_t tid, const char *comm, uint32_t cpu)
{
	memset(sp, 0, sizeof(*sp));
	sp->pid = pid;
	sp->tid = tid;
	sp->cpu = (int32_t)cpu;
	snprintf(sp->fname, sizeof(sp->fname), "%s", comm);
	snprintf(sp->psargs, sizeof(sp->psargs), "%s", comm);
}

static struct prov_probe *
sched_make(struct prov_registry *r, const char *func, const char *name, int kind, int counter)
{
	struct prov_probe *p = prov_add(r, &prov_sched_ops, "", func, name);
	if (!p)
		return NULL;
	p->pp_param[PP_KIND] = (uint64_t)kind;
	p->pp_param[PP_COUNTER] = (uint64_t)(int64_t)counter;
	prov_set_args(p, kind >= SK_PMC_ON ? 6 : 4, counter == SCHED_BLOCK ? sched_block_args : sched_args);
	if (counter == SCHED_BLOCK)
		p->pp_info.dp_decls = sched_block_decls;
	p->pp_info.dp_xargtypes[0] = sched_xargs[0];
	p->pp_info.dp_xargtypes[1] = sched_xargs[1];
	return p;
}

static int
sched_emit_matching(struct prov_registry *r, const struct d_probe_desc *pd,
    d_probe_cb cb, void *arg)
{
	if (!sched_make(r, "", "on-cpu", SK_ON, -1) || !sched_make(r, "", "off-cpu", SK_OFF, -1) ||
	    !sched_make(r, "", "wakeup", SK_WAKEUP, -1))
		return prov_errf(r, "out of memory");
	return prov_emit_matching(r, &prov_sched_ops, pd, cb, arg);
}

static int
sched_add_counter(struct prov_registry *r, const char *name)
{
	struct sched_state *st = prov_state_get(r, &prov_sched_ops, sizeof(*st));
	if (!st)
		return -1;
	int known = st->ncounters;
	int idx = prov_counter_set_add(r, st->counters, &st->ncounters, SCHED_MAX_COUNTERS,
	    name, "at each switch");
	/* a counter new to the group is one more that pmc:::counter-src names */
	if (idx == known && prov_note_group_counter(r, name) < 0)
		return -1;
	return idx;
}

/* sched::pmc:off-cpu-<counter> made on demand. */
static int
sched_match_pmc(struct prov_registry *r, const struct d_probe_desc *pd,
    d_probe_cb cb, void *arg)
{
	const char *name = pd->dpd_name;
	int kind = !strncmp(name, "off-cpu-", 8) ? SK_PMC_OFF :
	    !strncmp(name, "on-cpu-", 7) ? SK_PMC_ON : -1;
	if (!strcmp(name, "off-cpu") || !strcmp(name, "on-cpu")) {
		if (!prov_find(r, "sched", "", "pmc", name) && !sched_make(r, "pmc", name,
		    name[1] == 'f' ? SK_PMC_OFF : SK_PMC_ON, SCHED_BLOCK))
			return prov_errf(r, "out of memory");
		return sched_emit_matching(r, pd, cb, arg);
	}
	if (kind < 0)
		return 0;
	if (!prov_find(r, "sched", "", "pmc", name)) {
		int idx = sched_add_counter(r, name + (kind == SK_PMC_OFF ? 8 : 7));
		if (idx < 0)
			return -1;
		if (!sched_make(r, "pmc", name, kind, idx))
			return prov_errf(r, "out of memory");
	}
	return sched_emit_matching(r, pd, cb, arg);
}

static int
sched_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	struct sched_state *st = prov_state(r, &prov_sched_ops);
	/* A replayed in-kernel recording has its counters' probes already;
	 * only the block probes (no counter named) are made on demand. */
	int replay_kb = prov_cfg(r)->replay && st && st->kb && st->ncounters && pd->dpd_name &&
	    (!strcmp(pd->dpd_name, "off-cpu") || !strcmp(pd->dpd_name, "on-cpu"));
	if (pd->dpd_func && !strcmp(pd->dpd_func, "pmc") && pd->dpd_name &&
	    !prov_has_glob(pd->dpd_name) && prov_field_match(pd->dpd_mod, "") &&
	    (!prov_cfg(r)->replay || replay_kb))
		return sched_match_pmc(r, pd, cb, arg);
	return sched_emit_matching(r, pd, cb, arg);
}

static int
sched_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	struct sched_state *st = prov_state(r, &prov_sched_ops);
	if (prov_cfg(r)->replay && (!st || (!st->sw.id && !st->wk.id && !st->kb)))
		return 0;	/* the file recorded no scheduler events */
	return sched_emit_matching(r, pd, cb, arg);
}

static int
sched_load_switch(struct prov_registry *r, struct sched_state *st)
{
	if (st->sw.id)
		return 0;
	if (prov_tp_load(r, "sched", "sched_switch", &st->sw) < 0)
		return -1;
	st->prev_comm = prov_tp_field(&st->sw, "prev_comm");
	st->prev_pid = prov_tp_field(&st->sw, "prev_pid");
	st->prev_state = prov_tp_field(&st->sw, "prev_state");
	st->next_comm = prov_tp_field(&st->sw, "next_comm");
	st->next_pid = prov_tp_field(&st->sw, "next_pid");
	st->next_prio = prov_tp_field(&st->sw, "next_prio");
	return 0;
}

static int
sched_load_wakeup(struct prov_registry *r, struct sched_state *st)
{
	if (st->wk.id)
		return 0;
	if (prov_tp_load(r, "sched", "sched_wakeup", &st->wk) < 0)
		return -1;
	st->wk_pid = prov_tp_field(&st->wk, "pid");
	st->wk_prio = prov_tp_field(&st->wk, "prio");
	st->wk_cpu = prov_tp_field(&st->wk, "target_cpu");
	st->wk_comm = prov_tp_field(&st->wk, "comm");
	return 0;
}

/* Which enabled probes fire at each phase of a switch, decided once. */
static void
sched_plan_firing(struct prov_registry *r, struct sched_state *st)
{
	st->noff = st->non = st->nwake = 0;
	for (struct prov_probe *p = NULL; (p = prov_next(r, &prov_sched_ops, p, 1)); ) {
		struct sched_fire sf = { p->pp_info.dp_id, (int)(int64_t)p->pp_param[PP_COUNTER] };
		switch (p->pp_param[PP_KIND]) {
		case SK_OFF: case SK_PMC_OFF:
			if (st->noff < SCHED_MAX_FIRE)
				st->off[st->noff++] = sf;
			break;
		case SK_ON: case SK_PMC_ON:
			if (st->non < SCHED_MAX_FIRE)
				st->on[st->non++] = sf;
			break;
		default:
			if (st->nwake < 4)
				st->wake[st->nwake++] = sf;
		}
	}	/* a replay too: on-cpu shows the stacks parked at off-cpu */
	st->park = st->non && (prov_cfg(r)->want_callchains & 3);
}

static int
sched_add_members(struct prov_registry *r, struct smp_session *s, struct sched_state *st)
{
	for (int i = 0; i < st->ncounters; i++) {
		struct smp_event_spec sp;
		memset(&sp, 0, sizeof(sp));
		sp.attr = st->counters[i].attr;
		sp.attr.size = sizeof(sp.attr);
		sp.attr.sample_period = 0;
		sp.attr.freq = 0;
		sp.attr.disabled = 0;
		/* the kernel refuses a member whose clock differs from the leader's */
		sp.attr.use_clockid = 1;
		sp.attr.clockid = 1;
		sp.attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
		    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		sp.scope = SMP_EACH_CPU;
		sp.group_leader = st->leader_evidx;
		sp.name = st->counters[i].name;
		if (smp_add_event(s, &sp, &st->member_evidx[i]) < 0)
			return prov_errf(r, "%s", smp_errmsg(s));
	}
	return 0;
}

/* The perf path's switch records (sched_idle_split). */
static int
sched_add_cswitch(struct prov_registry *r, struct smp_session *s)
{
	struct smp_event_spec sp;
	int evidx;
	prov_spec_init(&sp, SCHED_CSWITCH_EVENT, &prov_sched_ops, COOKIE_CSWITCH);
	sp.attr.type = PERF_TYPE_SOFTWARE;
	sp.attr.config = PERF_COUNT_SW_DUMMY;
	sp.attr.context_switch = 1;
	sp.attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	if (smp_add_event(s, &sp, &evidx) < 0)
		return prov_errf(r, "%s", smp_errmsg(s));
	return 0;
}

/* The in-kernel probe when it can be had (1), else 0: the perf path. */
static int
sched_enable_kb(struct prov_registry *r, struct smp_session *s, struct sched_state *st)
{
	int kinds[2], nk = 0;
	if (st->noff || st->non)
		kinds[nk++] = KB_SWITCH;
	if (st->nwake)
		kinds[nk++] = KB_WAKEUP;
	int rc = prov_kb_use(r, s, &prov_sched_ops, kinds, nk);
	if (rc <= 0) {
		if (rc == 0)
			prov_notice(r, "sched: perf tracepoints, not the in-kernel probe (%s): "
			    "switches and wakeups in the idle loop are not seen; a switch out of "
			    "idle is taken from the kernel's switch records%s", prov_kb_why(r),
			    st->ncounters ? ", and the slice that follows it is split from "
			    "the idle time by time (sched::pmc: arg5)" : "");
		return rc;
	}
	st->kb = 1;
	return prov_kb_add_counters(r, s, st->counters, st->ncounters) < 0 ? -1 : 1;
}

static int
sched_enable(struct prov_registry *r, struct smp_session *s)
{
	struct sched_state *st = prov_state_get(r, &prov_sched_ops, sizeof(*st));
	if (!st)
		return -1;
	sched_plan_firing(r, st);
	if (!st->noff && !st->non && !st->nwake)
		return 0;
	int rc = sched_enable_kb(r, s, st);
	if (rc)
		return rc < 0 ? -1 : 0;
	if (st->noff || st->non) {
		if (sched_load_switch(r, st) < 0)
			return -1;
		st->leader_evidx = prov_tp_add(r, s, &prov_sched_ops, &st->sw, COOKIE_SWITCH, -1,
		    st->ncounters > 0);
		if (st->leader_evidx < 0 || sched_add_members(r, s, st) < 0 ||
		    sched_add_cswitch(r, s) < 0)
			return -1;
	}
	if (st->nwake) {
		if (sched_load_wakeup(r, st) < 0 ||
		    prov_tp_add(r, s, &prov_sched_ops, &st->wk, COOKIE_WAKEUP, -1, 0) < 0)
			return -1;
	}
	return 0;
}

/* A recording of the in-kernel probe: its counters are the file's events
 * named PROV_KB_COUNTER<name>, in the order they were added, which is the
 * order of the values in each switch record. */
static int
sched_claim_kb(struct prov_registry *r, struct smp_session *s, struct sched_state *st, int evidx)
{
	size_t pl = strlen(PROV_KB_COUNTER);
	st->kb = 1;
	if (sched_emit_matching(r, &(struct d_probe_desc){ 0 }, NULL, NULL) < 0)
		return -1;
	for (int e = 0; e < smp_nevents(s) && st->ncounters < SCHED_MAX_COUNTERS; e++) {
		const char *n = smp_event(s, e)->name;
		if (!n || strncmp(n, PROV_KB_COUNTER, pl))
			continue;
		struct pmu_counter *c = &st->counters[st->ncounters];
		char probe[160];
		snprintf(c->name, sizeof(c->name), "%s", n + pl);
		int idx = st->ncounters++;
		if (prov_note_group_counter(r, c->name) < 0)
			return -1;
		for (int k = 0; k < 2; k++) {
			snprintf(probe, sizeof(probe), "%s-%s", k ? "on-cpu" : "off-cpu", c->name);
			if (!prov_find(r, "sched", "", "pmc", probe) &&
			    !sched_make(r, "pmc", probe, k ? SK_PMC_ON : SK_PMC_OFF, idx))
				return prov_errf(r, "out of memory");
		}
	}
	return prov_claim(r, evidx, &prov_sched_ops, PROV_KB_COOKIE);
}

/* Replay: counters recorded in the switch tracepoint's group (the file's
 * group description names them) are the ::pmc: probes of the live run:
 * sched::pmc:off-cpu-<counter>, on-cpu-<counter>, and the blocks. */
static int
sched_claim_members(struct prov_registry *r, struct smp_session *s, struct sched_state *st,
    int leader)
{
	for (int j = 0; j < smp_nevents(s); j++) {
		const struct smp_event_spec *m = smp_event(s, j);
		char name[160];
		if (j == leader || m->group_leader != leader || !m->name || !m->name[0] ||
		    st->ncounters == SCHED_MAX_COUNTERS)
			continue;
		int idx = st->ncounters++;
		memset(&st->counters[idx], 0, sizeof(st->counters[idx]));
		snprintf(st->counters[idx].name, sizeof(st->counters[idx].name), "%s", m->name);
		st->counters[idx].attr = m->attr;
		st->member_evidx[idx] = j;
		if (prov_note_group_counter(r, m->name) < 0)
			return -1;
		snprintf(name, sizeof(name), "off-cpu-%s", m->name);
		if (!sched_make(r, "pmc", name, SK_PMC_OFF, idx))
			return prov_errf(r, "out of memory");
		snprintf(name, sizeof(name), "on-cpu-%s", m->name);
		if (!sched_make(r, "pmc", name, SK_PMC_ON, idx))
			return prov_errf(r, "out of memory");
	}
	if (st->ncounters && (!sched_make(r, "pmc", "off-cpu", SK_PMC_OFF, SCHED_BLOCK) ||
	    !sched_make(r, "pmc", "on-cpu", SK_PMC_ON, SCHED_BLOCK)))
		return prov_errf(r, "out of memory");
	st->leader_evidx = leader;
	return 0;
}

static int
sched_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
	struct sched_state *st = prov_state_get(r, &prov_sched_ops, sizeof(*st));
	if (st && ev->name && !strcmp(ev->name, PROV_KB_EVENT))
		return sched_claim_kb(r, s, st, evidx);
	if (st && ev->name && !strcmp(ev->name, SCHED_CSWITCH_EVENT))
		return prov_claim(r, evidx, &prov_sched_ops, COOKIE_CSWITCH);
	if (!st || ev->attr.type != PERF_TYPE_TRACEPOINT || !ev->name)
		return st ? 0 : -1;
	if (!strcmp(ev->name, "sched:sched_switch")) {
		if (sched_load_switch(r, st) < 0 || sched_emit_matching(r, &(struct d_probe_desc){ 0 }, NULL, NULL) < 0 ||
		    sched_claim_members(r, s, st, evidx) < 0)
			return -1;
		return prov_claim(r, evidx, &prov_sched_ops, COOKIE_SWITCH);
	}
	if (!strcmp(ev->name, "sched:sched_wakeup")) {
		if (sched_load_wakeup(r, st) < 0 || sched_emit_matching(r, &(struct d_probe_desc){ 0 }, NULL, NULL) < 0)
			return -1;
		return prov_claim(r, evidx, &prov_sched_ops, COOKIE_WAKEUP);
	}
	return 0;
}

/* Multiplexed (opted in with -x pmcmultiplex): the kernel counted the
 * group only part of the time; scale each slice's delta by
 * enabled/running as perf stat does, and keep the totals for the report. */
static void
sched_scale(struct sched_state *st, const struct smp_read *rd, uint64_t *delta)
{
	st->sum_enabled += rd->d_enabled;
	st->sum_running += rd->d_running;
	if (!rd->d_running || rd->d_running >= rd->d_enabled)
		return;
	for (int i = 0; i < st->ncounters; i++)
		delta[i] = (uint64_t)((double)delta[i] * (double)rd->d_enabled / (double)rd->d_running);
}

/* Group values at this switch, and deltas since the previous one. */
static void
sched_counter_values(struct sched_state *st, const struct smp_record *rec,
    uint64_t *val, uint64_t *delta, int multiplexed)
{
	memset(val, 0, sizeof(uint64_t) * SCHED_MAX_COUNTERS);
	memset(delta, 0, sizeof(uint64_t) * SCHED_MAX_COUNTERS);
	if (!rec->read || rec->cpu >= PROV_MAX_CPUS)
		return;
	for (uint32_t j = 0; j < rec->read->nr && j < 16; j++)
		for (int i = 0; i < st->ncounters; i++)
			if (rec->read->v[j].evidx == st->member_evidx[i])
				val[i] = rec->read->v[j].value;
	/* The counters start from zero when enabled, so the first switch on
	 * a CPU bills everything since then: the kernel does not always emit
	 * the switch that put the leaving thread on the CPU. */
	for (int i = 0; i < st->ncounters; i++) {
		delta[i] = val[i] - st->last[rec->cpu][i];
		st->last[rec->cpu][i] = val[i];
	}
	if (multiplexed)
		sched_scale(st, rec->read, delta);
}

static void
sched_fill_blocks(const struct sched_state *st, struct sched_block *b,
    const uint64_t *val, const uint64_t *delta)
{
	memset(b, 0, 2 * sizeof(*b));
	for (int k = 0; k < 2; k++) {
		b[k].size = (uint32_t)(8 + 8 * st->ncounters);
		memcpy(b[k].values, k ? delta : val, sizeof(uint64_t) * (size_t)st->ncounters);
	}
}

static int
sched_fire_list(const struct sched_fire *list, int n, struct d_firing *f,
    const uint64_t *val, const uint64_t *delta, const struct sched_block *blocks,
    prov_fire_fn fire, void *arg)
{
	for (int i = 0; i < n; i++) {
		f->df_probe = list[i].id;
		f->df_nargs = 4;
		if (list[i].counter == SCHED_BLOCK && blocks) {
			f->df_args[4] = (uint64_t)(uintptr_t)&blocks[0];
			f->df_args[5] = (uint64_t)(uintptr_t)&blocks[1];
			f->df_nargs = 6;
		} else if (list[i].counter >= 0) {
			f->df_args[4] = val[list[i].counter];
			f->df_args[5] = delta[list[i].counter];
			f->df_nargs = 6;
		}
		int rc = fire(arg, f);
		if (rc)
			return rc;
	}
	return 0;
}

/* A direct-mapped table: a thread that collides with another, or has
 * been away for long, simply comes back without a stack. */
static void
sched_park(struct sched_state *st, int32_t tid, const struct d_firing *f)
{
	if (!st->park || tid <= 0)
		return;
	struct sched_parked *p = &st->parked[(uint32_t)tid % SCHED_PARKED_SLOTS];
	p->tid = tid;
	p->nk = (uint16_t)(f->df_nkstack < SCHED_PARKED_FRAMES ? f->df_nkstack : SCHED_PARKED_FRAMES);
	p->nu = (uint16_t)(f->df_nustack < SCHED_PARKED_FRAMES ? f->df_nustack : SCHED_PARKED_FRAMES);
	if (p->nk)
		memcpy(p->k, f->df_kstack, p->nk * sizeof(uint64_t));
	if (p->nu)
		memcpy(p->u, f->df_ustack, p->nu * sizeof(uint64_t));
}

static void
sched_unpark(struct sched_state *st, int32_t tid, struct d_firing *f,
    uint64_t *kbuf, uint64_t *ubuf)
{
	struct sched_parked *p = st->park && tid > 0 ?
	    &st->parked[(uint32_t)tid % SCHED_PARKED_SLOTS] : NULL;
	f->df_nkstack = f->df_nustack = 0;
	if (!p || p->tid != tid)
		return;
	memcpy(kbuf, p->k, p->nk * sizeof(uint64_t));
	memcpy(ubuf, p->u, p->nu * sizeof(uint64_t));
	f->df_kstack = kbuf;
	f->df_ustack = ubuf;
	f->df_nkstack = p->nk;
	f->df_nustack = p->nu;
	p->tid = 0;
}

/* One switch, from whichever source. */
struct sched_sw {
	int32_t prev_pid, prev_tid, next_pid, next_tid;	/* pid -1: look it up */
	uint64_t prev_state, next_prio;
	char prev_comm[16], next_comm[16];
	uint64_t val[SCHED_MAX_COUNTERS], delta[SCHED_MAX_COUNTERS];
	int gap;		/* the switch that put prev on was not seen */
	int32_t gap_tid;	/* who that switch took off (0: idle) */
	double gap_share;	/* of delta, prev's (the rest was gap_tid's) */
};

struct sched_two {
	struct sched_proc next, prev;
	struct sched_block blocks[2];	/* values, deltas */
};

/* A switch the kernel did not show the probe: gap_tid was put on the CPU,
 * then (unseen) prev.  gap_tid leaves with its part of the slice, prev
 * arrives; the caller then fires prev's off-cpu with the rest. */
static int
sched_fire_gap(struct prov_registry *r, struct sched_state *st, const struct smp_record *rec,
    struct sched_sw *sw, struct d_firing *f, struct sched_two *two, prov_fire_fn fire, void *arg)
{
	uint64_t gd[SCHED_MAX_COUNTERS], zero[SCHED_MAX_COUNTERS] = { 0 };
	struct d_firing g = *f;
	for (int i = 0; i < SCHED_MAX_COUNTERS; i++) {
		uint64_t mine = (uint64_t)((double)sw->delta[i] * sw->gap_share);
		gd[i] = sw->delta[i] - mine;
		sw->delta[i] = mine;
	}
	g.df_tid = sw->gap_tid;
	g.df_pid = sw->gap_tid ? prov_tgid(r, sw->gap_tid) : 0;
	g.df_execname = sw->gap_tid ? "" : "swapper";
	g.df_nkstack = g.df_nustack = 0;
	sched_proc_fill(&two->next, f->df_pid, sw->prev_tid, sw->prev_comm, rec->cpu);
	sched_proc_fill(&two->prev, g.df_pid, sw->gap_tid, "", rec->cpu);
	sched_fill_blocks(st, two->blocks, sw->val, gd);
	g.df_args[0] = g.df_args[1] = (uint64_t)(uintptr_t)&two->next;
	int rc = sched_fire_list(st->off, st->noff, &g, sw->val, gd, two->blocks, fire, arg);
	if (rc || !st->non)
		return rc;
	struct d_firing o = *f;		/* prev arrives: no stack of its own yet */
	sched_fill_blocks(st, two->blocks, sw->val, zero);
	o.df_args[0] = o.df_args[1] = (uint64_t)(uintptr_t)&two->prev;
	o.df_nkstack = o.df_nustack = 0;
	o.df_uregs_ip = 0;
	return sched_fire_list(st->on, st->non, &o, sw->val, zero, two->blocks, fire, arg);
}

static int
sched_fire_switch(struct prov_registry *r, struct sched_state *st,
    const struct smp_record *rec, struct sched_sw *sw, prov_fire_fn fire, void *arg)
{
	uint64_t kbuf[128], ubuf[128];
	struct sched_two two;	/* what args[] may read */
	struct sched_proc *next = &two.next, *prev = &two.prev;
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	prov_kb_trim_stack(r, rec, &f);
	/* A task's last switch, as it exits, is sampled after its pid is
	 * unhashed (the sample says pid 0): the payload still names it. */
	if (sw->prev_pid >= 0) {
		f.df_tid = sw->prev_tid;
		f.df_pid = sw->prev_pid;
	} else if (sw->prev_tid > 0 && f.df_tid != sw->prev_tid) {
		f.df_tid = sw->prev_tid;
		f.df_pid = prov_tgid(r, sw->prev_tid);
	}
	f.df_execname = sw->prev_comm;
	f.df_mem = &two;
	f.df_memlen = sizeof(two);
	f.df_args[2] = sw->prev_state;
	f.df_args[3] = sw->next_prio;
	int rc = sw->gap ? sched_fire_gap(r, st, rec, sw, &f, &two, fire, arg) : 0;
	if (rc)
		return rc;
	sched_fill_blocks(st, two.blocks, sw->val, sw->delta);
	sched_proc_fill(prev, f.df_pid, sw->prev_tid, sw->prev_comm, rec->cpu);
	sched_proc_fill(next, sw->next_pid >= 0 ? sw->next_pid : prov_tgid(r, sw->next_tid),
	    sw->next_tid, sw->next_comm, rec->cpu);
	f.df_args[0] = f.df_args[1] = (uint64_t)(uintptr_t)next;
	rc = sched_fire_list(st->off, st->noff, &f, sw->val, sw->delta, two.blocks, fire, arg);
	if (rc || !st->non)
		return rc;
	/* on-cpu: the arriving thread is now current; the stack was the
	 * leaving thread's, so none is reported. */
	f.df_pid = next->pid;
	f.df_tid = sw->next_tid;
	f.df_execname = sw->next_comm;
	sched_park(st, sw->prev_tid, &f);
	sched_unpark(st, sw->next_tid, &f, kbuf, ubuf);
	f.df_uregs_ip = 0;
	f.df_args[0] = f.df_args[1] = (uint64_t)(uintptr_t)prev;
	return sched_fire_list(st->on, st->non, &f, sw->val, sw->delta, two.blocks, fire, arg);
}

/* The perf path's correction.  This kernel's perf tracepoint misses a
 * switch out of idle, so the delta at the next switch on the CPU covers
 * the idle time and then prev's slice.  The kernel's own switch record
 * (PERF_RECORD_SWITCH_CPU_WIDE, which arrives out of idle) says when the
 * CPU left idle: the slice is split there, by time, idle's part billed
 * to pid 0 (sched_fire_gap) and prev's on-cpu fired. */
static void
sched_idle_split(struct sched_state *st, const struct smp_record *rec, struct sched_sw *sw)
{
	uint32_t c = rec->cpu;
	if (c >= PROV_MAX_CPUS)
		return;
	uint64_t from = st->tp_last[c], out = st->idle_end[c];
	st->tp_last[c] = rec->time;
	st->idle_seen[c] = sw->prev_tid == 0;
	if (!from || out <= from || out > rec->time || sw->prev_tid <= 0)
		return;
	sw->gap = 1;
	sw->gap_tid = 0;
	sw->gap_share = (double)(rec->time - out) / (double)(rec->time - from);
}

/* A switch record of the perf path: remember when a CPU left idle. */
static int
sched_decode_cswitch(struct sched_state *st, const struct smp_record *rec)
{
	uint32_t next_prev_pid;
	if (!rec->hdr || rec->hdr->size < sizeof(*rec->hdr) + 8 || rec->cpu >= PROV_MAX_CPUS ||
	    (rec->misc & PERF_RECORD_MISC_SWITCH_OUT))
		return 0;
	memcpy(&next_prev_pid, rec->hdr + 1, sizeof(next_prev_pid));
	if (next_prev_pid == 0 && !st->idle_seen[rec->cpu])
		st->idle_end[rec->cpu] = rec->time;
	st->idle_seen[rec->cpu] = 0;
	return 0;
}

static int
sched_decode_switch(struct prov_registry *r, struct sched_state *st,
    const struct smp_record *rec, prov_fire_fn fire, void *arg)
{
	struct sched_sw sw;
	sw.prev_tid = (int32_t)prov_tp_uint(st->prev_pid, rec->raw, rec->raw_size);
	sw.next_tid = (int32_t)prov_tp_uint(st->next_pid, rec->raw, rec->raw_size);
	sw.prev_pid = sw.next_pid = -1;
	sw.gap = 0;
	sw.gap_tid = 0;
	sw.prev_state = prov_tp_uint(st->prev_state, rec->raw, rec->raw_size);
	sw.next_prio = prov_tp_uint(st->next_prio, rec->raw, rec->raw_size);
	prov_tp_str(st->prev_comm, rec->raw, rec->raw_size, sw.prev_comm, sizeof(sw.prev_comm));
	prov_tp_str(st->next_comm, rec->raw, rec->raw_size, sw.next_comm, sizeof(sw.next_comm));
	sched_counter_values(st, rec, sw.val, sw.delta, prov_cfg(r)->pmc_multiplex);
	sched_idle_split(st, rec, &sw);
	return sched_fire_switch(r, st, rec, &sw, fire, arg);
}

/* The in-kernel probe's switch: the deltas were taken in the kernel. */
static int
sched_decode_kb_switch(struct prov_registry *r, struct sched_state *st,
    const struct smp_record *rec, prov_fire_fn fire, void *arg)
{
	struct kb_switch k;
	struct sched_sw sw;
	if (rec->raw_size < KB_SWITCH_BASE)
		return 0;
	/* the payload is not 8-byte aligned; without counters it is short */
	memset(&k, 0, sizeof(k));
	memcpy(&k, rec->raw, rec->raw_size < sizeof(k) ? rec->raw_size : sizeof(k));
	if (rec->raw_size < sizeof(k))
		k.ncounters = 0;
	memset(&sw, 0, sizeof(sw));
	sw.prev_pid = k.prev_pid;
	sw.prev_tid = k.prev_tid;
	sw.next_pid = k.next_pid;
	sw.next_tid = k.next_tid;
	sw.prev_state = (uint64_t)k.prev_state;
	sw.next_prio = (uint64_t)(int64_t)k.next_prio;
	memcpy(sw.prev_comm, k.prev_comm, sizeof(sw.prev_comm));
	memcpy(sw.next_comm, k.next_comm, sizeof(sw.next_comm));
	sw.prev_comm[15] = sw.next_comm[15] = 0;
	sw.gap = (k.flags & KB_SW_GAP) != 0;
	sw.gap_tid = sw.gap ? k.gap_tid : 0;
	sw.gap_share = k.gap_runtime && k.gap_span > k.gap_runtime ?
	    (double)k.gap_runtime / (double)k.gap_span : 1.0;
	for (uint32_t i = 0; i < k.ncounters && i < KB_MAX_COUNTERS && (int)i < st->ncounters; i++) {
		sw.val[i] = k.val[i];
		sw.delta[i] = k.delta[i];
		if (!prov_cfg(r)->pmc_multiplex)
			continue;
		st->sum_enabled += k.d_enabled[i];
		st->sum_running += k.d_running[i];
		if (k.d_running[i] && k.d_running[i] < k.d_enabled[i])
			sw.delta[i] = (uint64_t)((double)k.delta[i] * (double)k.d_enabled[i] /
			    (double)k.d_running[i]);
	}
	return sched_fire_switch(r, st, rec, &sw, fire, arg);
}

static int
sched_fire_wakeup(struct prov_registry *r, struct sched_state *st, const struct smp_record *rec,
    int32_t pid, int32_t tid, const char *comm, uint64_t target, uint64_t prio,
    prov_fire_fn fire, void *arg)
{
	uint64_t kbuf[128], ubuf[128];
	struct sched_proc woken;
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	prov_kb_trim_stack(r, rec, &f);
	sched_proc_fill(&woken, pid, tid, comm, (uint32_t)target);
	f.df_mem = &woken;
	f.df_memlen = sizeof(woken);
	f.df_args[0] = f.df_args[1] = (uint64_t)(uintptr_t)&woken;
	f.df_args[2] = target;
	f.df_args[3] = prio;
	return sched_fire_list(st->wake, st->nwake, &f, NULL, NULL, NULL, fire, arg);
}

static int
sched_decode_wakeup(struct prov_registry *r, struct sched_state *st,
    const struct smp_record *rec, prov_fire_fn fire, void *arg)
{
	char comm[16];
	int32_t tid = (int32_t)prov_tp_uint(st->wk_pid, rec->raw, rec->raw_size);
	prov_tp_str(st->wk_comm, rec->raw, rec->raw_size, comm, sizeof(comm));
	return sched_fire_wakeup(r, st, rec, prov_tgid(r, tid), tid, comm,
	    prov_tp_uint(st->wk_cpu, rec->raw, rec->raw_size),
	    prov_tp_uint(st->wk_prio, rec->raw, rec->raw_size), fire, arg);
}

static int
sched_decode_kb_wakeup(struct prov_registry *r, struct sched_state *st,
    const struct smp_record *rec, prov_fire_fn fire, void *arg)
{
	struct kb_wakeup k;
	if (rec->raw_size < sizeof(k))
		return 0;
	memcpy(&k, rec->raw, sizeof(k));
	k.comm[KB_COMM - 1] = 0;
	return sched_fire_wakeup(r, st, rec, k.pid, k.tid, k.comm, (uint64_t)(int64_t)k.target_cpu,
	    (uint64_t)(int64_t)k.prio, fire, arg);
}

static int
sched_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct sched_state *st = prov_state(r, &prov_sched_ops);
	if (st && cookie == COOKIE_CSWITCH && rec->type == PERF_RECORD_SWITCH_CPU_WIDE)
		return sched_decode_cswitch(st, rec);
	if (!st || rec->type != PERF_RECORD_SAMPLE || !rec->raw)
		return 0;
	if (prov_cfg(r)->replay && !st->noff && !st->non && !st->nwake)
		sched_plan_firing(r, st);
	if (cookie == PROV_KB_COOKIE) {
		int kind = prov_kb_kind(rec);
		return kind == KB_SWITCH ? sched_decode_kb_switch(r, st, rec, fire, arg) :
		    kind == KB_WAKEUP ? sched_decode_kb_wakeup(r, st, rec, fire, arg) : 0;
	}
	if (cookie == COOKIE_SWITCH)
		return sched_decode_switch(r, st, rec, fire, arg);
	return sched_decode_wakeup(r, st, rec, fire, arg);
}

static int
sched_end(struct prov_registry *r, prov_fire_fn fire, void *arg)
{
	struct sched_state *st = prov_state(r, &prov_sched_ops);
	(void)fire;
	(void)arg;
	if (st && st->kb)
		prov_kb_report(r, st->ncounters > 0);
	if (st && st->ncounters && prov_cfg(r)->pmc_multiplex && st->sum_enabled)
		prov_notice(r, "sched::pmc: counters ran %.1f%% of the time they were "
		    "enabled (-x pmcmultiplex)%s",
		    100.0 * (double)st->sum_running / (double)st->sum_enabled,
		    st->sum_running < st->sum_enabled ?
		    "; arg5 is scaled by time_enabled/time_running" : "");
	return 0;
}

const struct prov_ops prov_sched_ops = {
	.po_name = "sched", .po_list = sched_list, .po_match = sched_match,
	.po_enable = sched_enable, .po_claim = sched_claim, .po_end = sched_end,
	.po_decode = sched_decode,
};
