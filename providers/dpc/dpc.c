/*
 * dpc.c — the dpc provider: Linux's deferred work in the seed's terms.
 *
 *   dpc:::dpc     a softirq vector ran    (irq:softirq_entry/exit)
 *   dpc:::thread  a tasklet ran           (irq:tasklet_entry/exit)
 *   dpc:::timer   a timer callback ran    (timer:timer_expire_entry/exit)
 * Each fires at the exit, with arg0 = entry timestamp (ns), arg1 = what ran
 * (softirq: the vector's name, "NET_RX"...; tasklet and timer: the callback
 * address, for func()/sym()), arg2 = 0, arg3 = the softirq vector or the
 * tasklet/timer object address, arg4 = duration in ns.
 *
 * dpc::pmc:dpc-<counter> (and thread-, timer-) fire at the same time with
 * the counter read at entry and exit (see pmcpair.c): arg4 = its per-CPU
 * value at the exit, arg5 = what the handler accrued, arg6 = the duration.
 *
 * Where BPF can be used and no dpc::pmc:dpc- probe is enabled, softirqs
 * come from the in-kernel probe (providers/kbsrc.c), which sees those run
 * from the idle loop too; the perf tracepoints this kernel delivers miss
 * them.  Tasklets and timers stay on the perf tracepoints.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/kbpf.h"
#include "providers/kbsrc.h"
#include "providers/pmcpair.h"

enum dpc_kind { DK_DPC, DK_THREAD, DK_TIMER, DK_N };

struct dpc_source {
	const char *probe, *system, *entry, *exit, *id_field, *fn_field;
};

static const struct dpc_source dpc_sources[DK_N] = {
	{ "dpc", "irq", "softirq_entry", "softirq_exit", "vec", NULL },
	{ "thread", "irq", "tasklet_entry", "tasklet_exit", "tasklet", "func" },
	{ "timer", "timer", "timer_expire_entry", "timer_expire_exit", "timer", "function" },
};

/* ORDER: the kernel's softirq vector numbers (include/linux/interrupt.h). */
static const char *const dpc_vec_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

struct dpc_kind_state {
	struct prov_pair pair;
	const struct prov_tp_field *e_id, *e_fn, *x_id;
};

struct dpc_state {
	struct dpc_kind_state k[DK_N];
	int kb;				/* softirqs come from the in-kernel probe */
};

static const char *const dpc_args_vec[] = { "uint64_t", "string", "int", "int", "uint64_t",
	"uint64_t", "uint64_t" };
static const char *const dpc_args_fn[] = { "uint64_t", "uintptr_t", "int", "uintptr_t", "uint64_t",
	"uint64_t", "uint64_t" };

/* pp_param: [0] kind, [1] counter index + 1 for the ::pmc: probes */
enum { DP_KIND, DP_COUNTER };

/* The three static probes and every dpc::pmc: probe made so far. */
static int
dpc_emit(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	for (int k = 0; k < DK_N; k++) {
		struct prov_probe *p = prov_add(r, &prov_dpc_ops, "", "", dpc_sources[k].probe);
		if (!p)
			return prov_errf(r, "out of memory");
		p->pp_param[DP_KIND] = (uint64_t)k;
		prov_set_args(p, 5, k == DK_DPC ? dpc_args_vec : dpc_args_fn);
	}
	return prov_emit_matching(r, &prov_dpc_ops, pd, cb, arg);
}

/* dpc::pmc:<probe>-<counter>, made on demand. */
static int
dpc_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	const char *name = pd->dpd_name;
	if (!pd->dpd_func || strcmp(pd->dpd_func, "pmc") || !name || prov_has_glob(name) ||
	    prov_cfg(r)->replay || prov_find(r, "dpc", "", "pmc", name))
		return dpc_emit(r, pd, cb, arg);
	for (int k = 0; k < DK_N; k++) {
		size_t len = strlen(dpc_sources[k].probe);
		if (strncmp(name, dpc_sources[k].probe, len) || name[len] != '-')
			continue;
		struct dpc_state *st = prov_state_get(r, &prov_dpc_ops, sizeof(*st));
		if (!st)
			return -1;
		int idx = prov_pmcpair_add_counter(r, &st->k[k].pair.pmc, name + len + 1);
		if (idx < 0 || prov_note_group_counter(r, name + len + 1) < 0)
			return -1;
		struct prov_probe *p = prov_add(r, &prov_dpc_ops, "", "pmc", name);
		if (!p)
			return prov_errf(r, "out of memory");
		p->pp_param[DP_KIND] = (uint64_t)k;
		p->pp_param[DP_COUNTER] = (uint64_t)idx + 1;
		prov_set_args(p, 7, k == DK_DPC ? dpc_args_vec : dpc_args_fn);
		break;
	}
	return dpc_emit(r, pd, cb, arg);
}

static int
dpc_load(struct prov_registry *r, struct dpc_kind_state *ks, const struct dpc_source *src)
{
	if (ks->pair.entry.id)
		return 0;
	if (prov_tp_load(r, src->system, src->entry, &ks->pair.entry) < 0 ||
	    prov_tp_load(r, src->system, src->exit, &ks->pair.exit) < 0)
		return -1;
	ks->e_id = prov_tp_field(&ks->pair.entry, src->id_field);
	ks->e_fn = src->fn_field ? prov_tp_field(&ks->pair.entry, src->fn_field) : NULL;
	ks->x_id = prov_tp_field(&ks->pair.exit, src->id_field);
	return 0;
}

/* Which probes fire at each kind's exit; counter probes make a group. */
static struct dpc_state *
dpc_plan(struct prov_registry *r)
{
	struct dpc_state *st = prov_state_get(r, &prov_dpc_ops, sizeof(*st));
	if (!st)
		return NULL;
	for (int k = 0; k < DK_N; k++)
		prov_pair_reset(&st->k[k].pair);
	for (struct prov_probe *p = NULL; (p = prov_next(r, &prov_dpc_ops, p, 1)); )
		prov_pair_plan(&st->k[p->pp_param[DP_KIND]].pair, p->pp_info.dp_id,
		    p->pp_param[DP_COUNTER]);
	return st;
}

/* Softirqs from the in-kernel probe (1), or the perf path (0, said). */
static int
dpc_enable_kb(struct prov_registry *r, struct smp_session *s, struct dpc_state *st)
{
	static const int kinds[] = { KB_SOFTIRQ_ENTRY, KB_SOFTIRQ_EXIT };
	int rc = st->k[DK_DPC].pair.npmcfire ? 0 : prov_kb_use(r, s, &prov_dpc_ops, kinds, 2);
	if (rc > 0)
		st->kb = 1;
	if (rc == 0)
		prov_notice(r, "dpc: perf tracepoints, not the in-kernel probe (%s): softirqs "
		    "run from the idle loop are not seen", st->k[DK_DPC].pair.npmcfire ?
		    "dpc::pmc: probes read their counters through perf" : prov_kb_why(r));
	return rc;
}

static int
dpc_enable(struct prov_registry *r, struct smp_session *s)
{
	struct dpc_state *st = dpc_plan(r);
	if (!st)
		return -1;
	for (int k = 0; k < DK_N; k++) {
		struct dpc_kind_state *ks = &st->k[k];
		uint64_t cookie = (uint64_t)k * 2;
		if (!ks->pair.probe && !ks->pair.npmcfire)
			continue;
		int rc = k == DK_DPC ? dpc_enable_kb(r, s, st) : 0;
		if (rc < 0)
			return -1;
		if (rc)
			continue;
		if (dpc_load(r, ks, &dpc_sources[k]) < 0 ||
		    prov_pair_enable(r, s, &ks->pair, &prov_dpc_ops, cookie, cookie + 1) < 0)
			return -1;
	}
	return 0;
}

static int
dpc_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
	if (ev->name && !strcmp(ev->name, PROV_KB_EVENT)) {
		struct dpc_state *st = prov_state_get(r, &prov_dpc_ops, sizeof(*st));
		if (!st || dpc_emit(r, &(struct d_probe_desc){ 0 }, NULL, NULL) < 0)
			return -1;
		st->kb = 1;
		return prov_claim(r, evidx, &prov_dpc_ops, PROV_KB_COOKIE);
	}
	if (ev->attr.type != PERF_TYPE_TRACEPOINT || !ev->name)
		return 0;
	for (int k = 0; k < DK_N; k++) {
		const struct dpc_source *src = &dpc_sources[k];
		char en[100], ex[100];
		snprintf(en, sizeof(en), "%s:%s", src->system, src->entry);
		snprintf(ex, sizeof(ex), "%s:%s", src->system, src->exit);
		if (strcmp(ev->name, en) && strcmp(ev->name, ex))
			continue;
		struct dpc_state *st = prov_state_get(r, &prov_dpc_ops, sizeof(*st));
		if (!st || dpc_load(r, &st->k[k], src) < 0 ||
		    dpc_emit(r, &(struct d_probe_desc){ 0 }, NULL, NULL) < 0)
			return -1;
		return prov_claim(r, evidx, &prov_dpc_ops,
		    (uint64_t)k * 2 + (strcmp(ev->name, en) ? 1 : 0));
	}
	return 0;
}

/* At an exit whose entry was seen on the CPU (interval iv). */
static int
dpc_fire(struct prov_registry *r, struct dpc_kind_state *ks, int kind,
    const struct prov_interval *iv, const struct smp_record *rec, prov_fire_fn fire, void *arg)
{
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	prov_kb_trim_stack(r, rec, &f);
	f.df_args[0] = iv->pi_start;
	if (kind == DK_DPC)
		f.df_args[1] = (uint64_t)(uintptr_t)(iv->pi_id < 10 ? dpc_vec_names[iv->pi_id] : "?");
	else
		f.df_args[1] = strtoull(iv->pi_label, NULL, 16);
	f.df_args[3] = iv->pi_id;
	f.df_args[4] = rec->time - iv->pi_start;
	f.df_nargs = 5;
	return prov_pair_fire(&ks->pair, rec, &f, fire, arg);
}

/* A softirq's entry or exit from the in-kernel probe. */
static int
dpc_decode_kb(struct prov_registry *r, struct dpc_state *st, const struct smp_record *rec,
    prov_fire_fn fire, void *arg)
{
	int kind = prov_kb_kind(rec);
	struct dpc_kind_state *ks = &st->k[DK_DPC];
	struct kb_irq k;
	if ((kind != KB_SOFTIRQ_ENTRY && kind != KB_SOFTIRQ_EXIT) || rec->raw_size < sizeof(k))
		return 0;
	memcpy(&k, rec->raw, sizeof(k));	/* the payload is not 8-byte aligned */
	if (kind == KB_SOFTIRQ_ENTRY) {
		prov_pair_entry(&ks->pair, rec, (uint64_t)(uint32_t)k.irq);
		return 0;
	}
	const struct prov_interval *iv = prov_pair_exit(&ks->pair, rec, (uint64_t)(uint32_t)k.irq);
	return iv ? dpc_fire(r, ks, DK_DPC, iv, rec, fire, arg) : 0;
}

static int
dpc_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct dpc_state *st = prov_state(r, &prov_dpc_ops);
	if (st && cookie == PROV_KB_COOKIE && rec->type == PERF_RECORD_SAMPLE && rec->raw) {
		if (prov_cfg(r)->replay && !st->k[DK_DPC].pair.probe)
			dpc_plan(r);
		return dpc_decode_kb(r, st, rec, fire, arg);
	}
	int kind = (int)(cookie / 2);
	if (!st || kind >= DK_N || rec->type != PERF_RECORD_SAMPLE || !rec->raw)
		return 0;
	struct dpc_kind_state *ks = &st->k[kind];
	if (prov_cfg(r)->replay && !ks->pair.probe)
		dpc_plan(r);
	if ((cookie & 1) == 0) {
		struct prov_interval *iv = prov_pair_entry(&ks->pair, rec,
		    prov_tp_uint(ks->e_id, rec->raw, rec->raw_size));
		if (iv)
			snprintf(iv->pi_label, sizeof(iv->pi_label), "%llx",
			    (unsigned long long)prov_tp_uint(ks->e_fn, rec->raw, rec->raw_size));
		return 0;
	}
	const struct prov_interval *iv = prov_pair_exit(&ks->pair, rec,
	    prov_tp_uint(ks->x_id, rec->raw, rec->raw_size));
	return iv ? dpc_fire(r, ks, kind, iv, rec, fire, arg) : 0;
}

static int
dpc_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	return prov_replay_unseen(r, &prov_dpc_ops) ? 0 : dpc_emit(r, pd, cb, arg);
}

static int
dpc_end(struct prov_registry *r, prov_fire_fn fire, void *arg)
{
	struct dpc_state *st = prov_state(r, &prov_dpc_ops);
	(void)fire;
	(void)arg;
	if (st && st->kb && !prov_cfg(r)->replay)
		prov_kb_report(r, 0);
	return 0;
}

const struct prov_ops prov_dpc_ops = {
	.po_name = "dpc", .po_list = dpc_list, .po_match = dpc_match,
	.po_enable = dpc_enable, .po_claim = dpc_claim, .po_decode = dpc_decode,
	.po_end = dpc_end,
};
