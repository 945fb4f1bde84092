/*
 * isr.c — the isr provider: isr:::isr fires when an interrupt handler
 * returns, from irq:irq_handler_entry/exit paired per CPU.
 *
 * The seed's argument order is kept where Linux has the data:
 *   arg0 = entry timestamp (ns), arg1 = the handler's name (string; Windows
 *   gives a routine address, Linux names the handler), arg2 = its return
 *   value (IRQ_NONE 0, IRQ_HANDLED 1, IRQ_WAKE_THREAD 2), arg3 = the irq
 *   number, arg4 = the handler's duration in ns (Linux extra).
 * The firing context is the interrupted thread's.
 *
 * isr::pmc:isr-<counter> fires at the same time with the counter read at
 * the handler's entry and exit (entry tracepoint leading a group, see
 * pmcpair.c): arg0..arg3 as above, arg4 = the counter's per-CPU value at
 * the exit, arg5 = what the handler accrued (exit - entry), arg6 = the
 * duration in ns.
 *
 * Where BPF can be used and no isr::pmc: probe is enabled, the handlers
 * come from the in-kernel probe (providers/kbsrc.c), which sees those
 * taken in the idle loop too; the perf tracepoints this kernel delivers
 * miss them.
 */
#include <string.h>

#include "bpf/kbpf.h"
#include "providers/kbsrc.h"
#include "providers/pmcpair.h"

enum { COOKIE_ENTRY = 1, COOKIE_EXIT = 2 };

struct isr_state {
	struct prov_pair pair;		/* irq_handler_entry/exit */
	const struct prov_tp_field *e_irq, *e_name, *x_irq, *x_ret;
	int kb;				/* handlers come from the in-kernel probe */
};

static const char *const isr_args[] = { "uint64_t", "string", "int", "int", "uint64_t",
	"uint64_t", "uint64_t" };

/* isr:::isr and every isr::pmc: probe made so far that pd matches. */
static int
isr_emit(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	struct prov_probe *p = prov_add(r, &prov_isr_ops, "", "", "isr");
	if (!p)
		return prov_errf(r, "out of memory");
	prov_set_args(p, 5, isr_args);
	return prov_emit_matching(r, &prov_isr_ops, pd, cb, arg);
}

/* isr::pmc:isr-<counter>, made on demand. */
static int
isr_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	const char *name = pd->dpd_name;
	if (pd->dpd_func && !strcmp(pd->dpd_func, "pmc") && name && !strncmp(name, "isr-", 4) &&
	    !prov_has_glob(name) && !prov_cfg(r)->replay && !prov_find(r, "isr", "", "pmc", name)) {
		struct isr_state *st = prov_state_get(r, &prov_isr_ops, sizeof(*st));
		int idx = st ? prov_pmcpair_add_counter(r, &st->pair.pmc, name + 4) : -1;
		if (idx < 0)
			return -1;
		if (prov_note_group_counter(r, name + 4) < 0)
			return -1;
		struct prov_probe *p = prov_add(r, &prov_isr_ops, "", "pmc", name);
		if (!p)
			return prov_errf(r, "out of memory");
		p->pp_param[0] = (uint64_t)idx + 1;
		prov_set_args(p, 7, isr_args);
	}
	return isr_emit(r, pd, cb, arg);
}

static struct isr_state *
isr_load(struct prov_registry *r)
{
	struct isr_state *st = prov_state_get(r, &prov_isr_ops, sizeof(*st));
	if (!st || st->pair.entry.id)
		return st;
	if (prov_tp_load(r, "irq", "irq_handler_entry", &st->pair.entry) < 0 ||
	    prov_tp_load(r, "irq", "irq_handler_exit", &st->pair.exit) < 0)
		return NULL;
	st->e_irq = prov_tp_field(&st->pair.entry, "irq");
	st->e_name = prov_tp_field(&st->pair.entry, "name");
	st->x_irq = prov_tp_field(&st->pair.exit, "irq");
	st->x_ret = prov_tp_field(&st->pair.exit, "ret");
	return st;
}

/* Which probes fire at each exit; a counter probe makes the pair a group. */
static struct isr_state *
isr_plan(struct prov_registry *r)
{
	struct isr_state *st = prov_state_get(r, &prov_isr_ops, sizeof(*st));
	if (!st)
		return NULL;
	prov_pair_reset(&st->pair);
	for (struct prov_probe *p = NULL; (p = prov_next(r, &prov_isr_ops, p, 1)); )
		prov_pair_plan(&st->pair, p->pp_info.dp_id, p->pp_param[0]);
	return st;
}

static int
isr_enable(struct prov_registry *r, struct smp_session *s)
{
	struct isr_state *st = isr_plan(r);
	if (!st)
		return -1;
	if (!st->pair.probe && !st->pair.npmcfire)
		return 0;	/* no isr probe in the program: leave tracefs alone */
	if (!st->pair.npmcfire) {
		static const int kinds[] = { KB_IRQ_ENTRY, KB_IRQ_EXIT };
		int rc = prov_kb_use(r, s, &prov_isr_ops, kinds, 2);
		if (rc)
			return (st->kb = rc) < 0 ? -1 : 0;
	}
	prov_notice(r, "isr: perf tracepoints, not the in-kernel probe (%s): handlers "
	    "taken in the idle loop are not seen", st->pair.npmcfire ?
	    "isr::pmc: probes read their counters through perf" : prov_kb_why(r));
	if (!isr_load(r))
		return -1;
	return prov_pair_enable(r, s, &st->pair, &prov_isr_ops, COOKIE_ENTRY, COOKIE_EXIT);
}

static int
isr_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
	if (ev->name && !strcmp(ev->name, PROV_KB_EVENT)) {
		struct isr_state *st = prov_state_get(r, &prov_isr_ops, sizeof(*st));
		if (!st || isr_emit(r, &(struct d_probe_desc){ 0 }, NULL, NULL) < 0)
			return -1;
		st->kb = 1;
		return prov_claim(r, evidx, &prov_isr_ops, PROV_KB_COOKIE);
	}
	if (ev->attr.type != PERF_TYPE_TRACEPOINT || !ev->name ||
	    strncmp(ev->name, "irq:irq_handler_", 16))
		return 0;
	struct isr_state *st = isr_load(r);
	if (!st || isr_emit(r, &(struct d_probe_desc){ 0 }, NULL, NULL) < 0)
		return -1;
	return prov_claim(r, evidx, &prov_isr_ops,
	    strstr(ev->name, "entry") ? COOKIE_ENTRY : COOKIE_EXIT);
}

static int
isr_fire(struct prov_registry *r, struct isr_state *st, const struct smp_record *rec,
    const struct prov_interval *iv, uint64_t ret, uint64_t irq, prov_fire_fn fire, void *arg)
{
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	prov_kb_trim_stack(r, rec, &f);
	f.df_args[0] = iv->pi_start;
	f.df_args[1] = (uint64_t)(uintptr_t)iv->pi_label;
	f.df_args[2] = ret;
	f.df_args[3] = irq;
	f.df_args[4] = rec->time - iv->pi_start;
	f.df_nargs = 5;
	return prov_pair_fire(&st->pair, rec, &f, fire, arg);
}

/* A handler's entry or exit from the in-kernel probe. */
static int
isr_decode_kb(struct prov_registry *r, struct isr_state *st, const struct smp_record *rec,
    prov_fire_fn fire, void *arg)
{
	int kind = prov_kb_kind(rec);
	struct kb_irq k;
	if ((kind != KB_IRQ_ENTRY && kind != KB_IRQ_EXIT) || rec->raw_size < sizeof(k))
		return 0;
	memcpy(&k, rec->raw, sizeof(k));	/* the payload is not 8-byte aligned */
	k.name[sizeof(k.name) - 1] = 0;
	if (kind == KB_IRQ_ENTRY) {
		struct prov_interval *iv = prov_pair_entry(&st->pair, rec, (uint64_t)(int64_t)k.irq);
		if (iv)
			snprintf(iv->pi_label, sizeof(iv->pi_label), "%s", k.name);
		return 0;
	}
	struct prov_interval *iv = prov_pair_exit(&st->pair, rec, (uint64_t)(int64_t)k.irq);
	return iv ? isr_fire(r, st, rec, iv, (uint64_t)(int64_t)k.ret, (uint64_t)(int64_t)k.irq,
	    fire, arg) : 0;
}

static int
isr_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct isr_state *st = prov_tp_state(r, &prov_isr_ops, rec);
	if (!st)
		return 0;
	if (prov_cfg(r)->replay && !st->pair.probe)
		isr_plan(r);
	if (cookie == PROV_KB_COOKIE)
		return isr_decode_kb(r, st, rec, fire, arg);
	if (cookie == COOKIE_ENTRY) {
		struct prov_interval *iv = prov_pair_entry(&st->pair, rec,
		    prov_tp_uint(st->e_irq, rec->raw, rec->raw_size));
		if (iv)
			prov_tp_str(st->e_name, rec->raw, rec->raw_size, iv->pi_label,
			    sizeof(iv->pi_label));
		return 0;
	}
	uint64_t irq = prov_tp_uint(st->x_irq, rec->raw, rec->raw_size);
	struct prov_interval *iv = prov_pair_exit(&st->pair, rec, irq);
	return iv ? isr_fire(r, st, rec, iv, prov_tp_uint(st->x_ret, rec->raw, rec->raw_size), irq,
	    fire, arg) : 0;
}

static int
isr_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	return prov_replay_unseen(r, &prov_isr_ops) ? 0 : isr_emit(r, pd, cb, arg);
}

static int
isr_end(struct prov_registry *r, prov_fire_fn fire, void *arg)
{
	struct isr_state *st = prov_state(r, &prov_isr_ops);
	(void)fire;
	(void)arg;
	if (st && st->kb > 0 && !prov_cfg(r)->replay)
		prov_kb_report(r, 0);
	return 0;
}

const struct prov_ops prov_isr_ops = {
	.po_name = "isr", .po_list = isr_list, .po_match = isr_match,
	.po_enable = isr_enable, .po_claim = isr_claim, .po_decode = isr_decode,
	.po_end = isr_end,
};
