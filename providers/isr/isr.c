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
 */
#include <stdlib.h>
#include <string.h>

#include "providers/prov_impl.h"

enum { COOKIE_ENTRY = 1, COOKIE_EXIT = 2 };

struct isr_state {
	struct prov_tp entry, exit;
	const struct prov_tp_field *e_irq, *e_name, *x_irq, *x_ret;
	struct prov_interval open[PROV_MAX_CPUS];
	uint32_t probe;
};

static const char *const isr_args[] = { "uint64_t", "string", "int", "int", "uint64_t" };

static int
isr_emit(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	struct prov_probe *p = prov_add(r, &prov_isr_ops, "", "", "isr");
	if (!p)
		return prov_errf(r, "out of memory");
	prov_set_args(p, 5, isr_args);
	if (!prov_desc_match(pd, &p->pp_info))
		return 0;
	return cb && cb(arg, &p->pp_info) < 0 ? -1 : 1;
}

static struct isr_state *
isr_load(struct prov_registry *r)
{
	struct isr_state *st = prov_state(r, &prov_isr_ops);
	if (st)
		return st;
	if (!(st = calloc(1, sizeof(*st)))) {
		prov_errf(r, "out of memory");
		return NULL;
	}
	prov_set_state(r, &prov_isr_ops, st);
	if (prov_tp_load(r, "irq", "irq_handler_entry", &st->entry) < 0 ||
	    prov_tp_load(r, "irq", "irq_handler_exit", &st->exit) < 0)
		return NULL;
	st->e_irq = prov_tp_field(&st->entry, "irq");
	st->e_name = prov_tp_field(&st->entry, "name");
	st->x_irq = prov_tp_field(&st->exit, "irq");
	st->x_ret = prov_tp_field(&st->exit, "ret");
	return st;
}

static int
isr_enable(struct prov_registry *r, struct smp_session *s)
{
	struct prov_probe *p = prov_find(r, "isr", "", "", "isr");
	if (!p || !prov_is_enabled(r, p->pp_info.dp_id))
		return 0;
	struct isr_state *st = isr_load(r);
	if (!st)
		return -1;
	st->probe = p->pp_info.dp_id;
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
	st->probe = prov_find(r, "isr", "", "", "isr")->pp_info.dp_id;
	return prov_claim(r, evidx, &prov_isr_ops,
	    strstr(ev->name, "entry") ? COOKIE_ENTRY : COOKIE_EXIT);
}

static int
isr_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct isr_state *st = prov_state(r, &prov_isr_ops);
	struct prov_interval *iv = st ? prov_interval_slot(st->open, rec->cpu) : NULL;
	if (!iv || rec->type != PERF_RECORD_SAMPLE || !rec->raw)
		return 0;
	if (cookie == COOKIE_ENTRY) {
		iv->pi_start = rec->time;
		iv->pi_id = prov_tp_uint(st->e_irq, rec->raw, rec->raw_size);
		prov_tp_str(st->e_name, rec->raw, rec->raw_size, iv->pi_label, sizeof(iv->pi_label));
		iv->pi_active = 1;
		return 0;
	}
	uint64_t irq = prov_tp_uint(st->x_irq, rec->raw, rec->raw_size);
	if (!iv->pi_active || iv->pi_id != irq || !prov_is_enabled(r, st->probe))
		return 0;
	iv->pi_active = 0;
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_probe = st->probe;
	f.df_args[0] = iv->pi_start;
	f.df_args[1] = (uint64_t)(uintptr_t)iv->pi_label;
	f.df_args[2] = prov_tp_uint(st->x_ret, rec->raw, rec->raw_size);
	f.df_args[3] = irq;
	f.df_args[4] = rec->time - iv->pi_start;
	f.df_nargs = 5;
	return fire(arg, &f);
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
	.po_match = isr_emit,
	.po_enable = isr_enable,
	.po_claim = isr_claim,
	.po_decode = isr_decode,
};
