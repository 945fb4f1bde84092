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
 */
#include <stdlib.h>
#include <string.h>

#include "providers/prov_impl.h"

enum { COOKIE_ENTRY = 1, COOKIE_EXIT = 2 };

struct isr_state {
	struct prov_tp entry, exit;
	const struct prov_tp_field *e_irq, *e_name, *x_irq, *x_ret;
	struct prov_interval open[PROV_MAX_CPUS];
	uint32_t probe;			/* isr:::isr if enabled */
	struct prov_pmcpair pmc;
	struct { uint32_t id; int counter; } pmcfire[16];
	int npmcfire;
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
	int n = 0;
	for (uint32_t id = 1; id < prov_nprobes(r); id++) {
		struct prov_probe *q = prov_by_id(r, id);
		if (q->pp_ops != &prov_isr_ops || !prov_desc_match(pd, &q->pp_info))
			continue;
		if (cb && cb(arg, &q->pp_info) < 0)
			return -1;
		n++;
	}
	return n;
}

static struct isr_state *
isr_state_get(struct prov_registry *r)
{
	struct isr_state *st = prov_state(r, &prov_isr_ops);
	if (!st && (st = calloc(1, sizeof(*st))))
		prov_set_state(r, &prov_isr_ops, st);
	if (!st)
		prov_errf(r, "out of memory");
	return st;
}

/* isr::pmc:isr-<counter>, made on demand. */
static int
isr_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	const char *name = pd->dpd_name;
	if (pd->dpd_func && !strcmp(pd->dpd_func, "pmc") && name && !strncmp(name, "isr-", 4) &&
	    !prov_has_glob(name) && !prov_cfg(r)->replay && !prov_find(r, "isr", "", "pmc", name)) {
		struct isr_state *st = isr_state_get(r);
		int idx = st ? prov_pmcpair_add_counter(r, &st->pmc, name + 4) : -1;
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
	struct isr_state *st = isr_state_get(r);
	if (!st || st->entry.id)
		return st;
	if (prov_tp_load(r, "irq", "irq_handler_entry", &st->entry) < 0 ||
	    prov_tp_load(r, "irq", "irq_handler_exit", &st->exit) < 0)
		return NULL;
	st->e_irq = prov_tp_field(&st->entry, "irq");
	st->e_name = prov_tp_field(&st->entry, "name");
	st->x_irq = prov_tp_field(&st->exit, "irq");
	st->x_ret = prov_tp_field(&st->exit, "ret");
	return st;
}

/* Which probes fire at each exit; a counter probe makes the pair a group. */
static void
isr_plan(struct prov_registry *r, struct isr_state *st)
{
	st->probe = 0;
	st->npmcfire = 0;
	for (uint32_t id = 1; id < prov_nprobes(r); id++) {
		struct prov_probe *p = prov_by_id(r, id);
		if (p->pp_ops != &prov_isr_ops || !prov_is_enabled(r, id))
			continue;
		if (!p->pp_param[0])
			st->probe = id;
		else if (st->npmcfire < 16) {
			st->pmcfire[st->npmcfire].id = id;
			st->pmcfire[st->npmcfire++].counter = (int)p->pp_param[0] - 1;
		}
	}
}

static int
isr_enable(struct prov_registry *r, struct smp_session *s)
{
	struct isr_state *st = isr_state_get(r);
	if (!st)
		return -1;
	isr_plan(r, st);
	if (!st->probe && !st->npmcfire)
		return 0;	/* no isr probe in the program: leave tracefs alone */
	if (!isr_load(r))
		return -1;
	if (st->npmcfire)
		return prov_pmcpair_enable(r, s, &st->pmc, &prov_isr_ops, &st->entry, &st->exit,
		    COOKIE_ENTRY, COOKIE_EXIT);
	if (!st->probe)
		return 0;
	if (prov_tp_add(r, s, &prov_isr_ops, &st->entry, COOKIE_ENTRY, -1, 0) < 0 ||
	    prov_tp_add(r, s, &prov_isr_ops, &st->exit, COOKIE_EXIT, -1, 0) < 0)
		return -1;
	return 0;
}

static int
isr_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
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
isr_fire_pmc(struct isr_state *st, const struct smp_record *rec, struct d_firing *f,
    prov_fire_fn fire, void *arg)
{
	uint64_t val[PROV_PAIR_MAX], delta[PROV_PAIR_MAX];
	prov_pmcpair_exit(&st->pmc, rec, val, delta);
	f->df_args[6] = f->df_args[4];
	f->df_nargs = 7;
	for (int i = 0; i < st->npmcfire; i++) {
		f->df_probe = st->pmcfire[i].id;
		f->df_args[4] = val[st->pmcfire[i].counter];
		f->df_args[5] = delta[st->pmcfire[i].counter];
		int rc = fire(arg, f);
		if (rc)
			return rc;
	}
	return 0;
}

static int
isr_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct isr_state *st = prov_state(r, &prov_isr_ops);
	struct prov_interval *iv = st ? prov_interval_slot(st->open, rec->cpu) : NULL;
	if (!iv || rec->type != PERF_RECORD_SAMPLE || !rec->raw)
		return 0;
	if (prov_cfg(r)->replay && !st->probe)
		isr_plan(r, st);
	if (cookie == COOKIE_ENTRY) {
		iv->pi_start = rec->time;
		iv->pi_id = prov_tp_uint(st->e_irq, rec->raw, rec->raw_size);
		prov_tp_str(st->e_name, rec->raw, rec->raw_size, iv->pi_label, sizeof(iv->pi_label));
		iv->pi_active = 1;
		if (st->npmcfire)
			prov_pmcpair_entry(&st->pmc, rec);
		return 0;
	}
	uint64_t irq = prov_tp_uint(st->x_irq, rec->raw, rec->raw_size);
	if (!iv->pi_active || iv->pi_id != irq)
		return 0;
	iv->pi_active = 0;
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_args[0] = iv->pi_start;
	f.df_args[1] = (uint64_t)(uintptr_t)iv->pi_label;
	f.df_args[2] = prov_tp_uint(st->x_ret, rec->raw, rec->raw_size);
	f.df_args[3] = irq;
	f.df_args[4] = rec->time - iv->pi_start;
	f.df_nargs = 5;
	if (st->probe) {
		f.df_probe = st->probe;
		int rc = fire(arg, &f);
		if (rc)
			return rc;
	}
	return st->npmcfire ? isr_fire_pmc(st, rec, &f, fire, arg) : 0;
}

static int
isr_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (prov_cfg(r)->replay && !prov_state(r, &prov_isr_ops))
		return 0;	/* the file recorded none of our events */
	return isr_emit(r, pd, cb, arg);
}

const struct prov_ops prov_isr_ops = {
	.po_name = "isr",
	.po_list = isr_list,
	.po_match = isr_match,
	.po_enable = isr_enable,
	.po_claim = isr_claim,
	.po_decode = isr_decode,
};
