/*
 * vminfo.c — the vminfo provider's fault probes.
 *
 *   as_fault      every page fault, user or kernel mode
 *                 (exceptions:page_fault_user + page_fault_kernel, x86)
 *   kernel_asflt  faults taken in kernel mode (page_fault_kernel)
 *   prot_fault    faults on a present page (protection: error code bit 0)
 *   maj_fault     major faults, i.e. the ones that waited for I/O (the
 *                 page-faults-maj software event; Linux's fault
 *                 tracepoints do not say whether a fault was major)
 * As in DTrace arg0 is the amount the statistic grows by (always 1).
 * DTrace's arg1 (a pointer to the kernel's counter) has no meaning here;
 * instead arg1 = the faulting address, arg2 = the faulting instruction,
 * arg3 = the x86 error code (0 for maj_fault, which has only the address).
 */
#include <stdlib.h>
#include <string.h>

#include "providers/prov_impl.h"

enum { VK_AS, VK_KERNEL, VK_PROT, VK_MAJ, VK_N };
enum { VE_USER, VE_KERNEL, VE_MAJ, VE_N };

struct vm_state {
	struct prov_tp tp[2];
	uint32_t probe[VK_N];
	int planned;
};

static const char *const vm_names[VK_N] = { "as_fault", "kernel_asflt", "prot_fault", "maj_fault" };
static const char *const vm_args[] = { "uint64_t", "uintptr_t", "uintptr_t", "uint64_t" };
static const char *const vm_events[2] = { "page_fault_user", "page_fault_kernel" };

static int
vm_emit(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	int n = 0;
	for (int k = 0; k < VK_N; k++) {
		struct prov_probe *p = prov_add(r, &prov_vminfo_ops, "", "", vm_names[k]);
		if (!p)
			return prov_errf(r, "out of memory");
		p->pp_param[0] = (uint64_t)k;
		prov_set_args(p, 4, vm_args);
		if (!prov_desc_match(pd, &p->pp_info))
			continue;
		if (cb && cb(arg, &p->pp_info) < 0)
			return -1;
		n++;
	}
	return n;
}

static struct vm_state *
vm_state_get(struct prov_registry *r)
{
	struct vm_state *st = prov_state(r, &prov_vminfo_ops);
	if (!st && (st = calloc(1, sizeof(*st))))
		prov_set_state(r, &prov_vminfo_ops, st);
	if (!st)
		prov_errf(r, "out of memory");
	return st;
}

static int
vm_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	return vm_state_get(r) ? vm_emit(r, pd, cb, arg) : -1;
}

static int
vm_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (prov_cfg(r)->replay && !prov_state(r, &prov_vminfo_ops))
		return 0;
	return vm_emit(r, pd, cb, arg);
}

static void
vm_plan(struct prov_registry *r, struct vm_state *st)
{
	for (uint32_t id = 1; id < prov_nprobes(r); id++) {
		struct prov_probe *p = prov_by_id(r, id);
		if (p->pp_ops == &prov_vminfo_ops && prov_is_enabled(r, id))
			st->probe[p->pp_param[0]] = id;
	}
	st->planned = 1;
}

static int
vm_add_major(struct prov_registry *r, struct smp_session *s)
{
	struct smp_event_spec sp;
	memset(&sp, 0, sizeof(sp));
	sp.attr.size = sizeof(sp.attr);
	sp.attr.type = PERF_TYPE_SOFTWARE;
	sp.attr.config = PERF_COUNT_SW_PAGE_FAULTS_MAJ;
	sp.attr.sample_period = 1;
	sp.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_ADDR | PERF_SAMPLE_IDENTIFIER |
	    ((prov_cfg(r)->want_callchains & 3) ? PERF_SAMPLE_CALLCHAIN : 0);
	sp.attr.sample_id_all = 1;
	sp.attr.use_clockid = 1;
	sp.attr.clockid = 1;	/* CLOCK_MONOTONIC, as every other event */
	sp.attr.disabled = 1;
	sp.scope = SMP_EACH_CPU;
	sp.group_leader = -1;
	sp.name = "page-faults-maj";
	sp.owner = (void *)&prov_vminfo_ops;
	sp.cookie = VE_MAJ;
	int evidx;
	if (smp_add_event(s, &sp, &evidx) < 0)
		return prov_errf(r, "%s", smp_errmsg(s));
	return 0;
}

static int
vm_enable(struct prov_registry *r, struct smp_session *s)
{
	struct vm_state *st = prov_state(r, &prov_vminfo_ops);
	if (!st)
		return 0;
	vm_plan(r, st);
	int want[2] = {
		st->probe[VK_AS] || st->probe[VK_PROT],
		st->probe[VK_AS] || st->probe[VK_PROT] || st->probe[VK_KERNEL],
	};
	for (int e = 0; e < 2; e++) {
		if (!want[e])
			continue;
		if (prov_tp_load(r, "exceptions", vm_events[e], &st->tp[e]) < 0 ||
		    prov_tp_add(r, s, &prov_vminfo_ops, &st->tp[e], (uint64_t)e, -1, 0) < 0)
			return -1;
	}
	return st->probe[VK_MAJ] ? vm_add_major(r, s) : 0;
}

static int
vm_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
	int e = -1;
	if (ev->attr.type == PERF_TYPE_SOFTWARE && ev->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MAJ)
		e = VE_MAJ;
	else if (ev->attr.type == PERF_TYPE_TRACEPOINT && ev->name)
		for (int k = 0; k < 2; k++)
			if (!strncmp(ev->name, "exceptions:", 11) && !strcmp(ev->name + 11, vm_events[k]))
				e = k;
	if (e < 0)
		return 0;
	struct vm_state *st = vm_state_get(r);
	if (!st || (e < VE_MAJ && prov_tp_load(r, "exceptions", vm_events[e], &st->tp[e]) < 0) ||
	    vm_emit(r, &(struct d_probe_desc){ 0 }, NULL, NULL) < 0)
		return -1;
	return prov_claim(r, evidx, &prov_vminfo_ops, (uint64_t)e);
}

static int
vm_fire(uint32_t id, struct d_firing *f, prov_fire_fn fire, void *arg)
{
	if (!id)
		return 0;
	f->df_probe = id;
	return fire(arg, f);
}

static int
vm_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct vm_state *st = prov_state(r, &prov_vminfo_ops);
	if (!st || rec->type != PERF_RECORD_SAMPLE || cookie >= VE_N)
		return 0;
	if (!st->planned)
		vm_plan(r, st);
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_args[0] = 1;
	f.df_nargs = 4;
	if (cookie == VE_MAJ) {
		f.df_args[1] = rec->addr;
		f.df_args[2] = rec->ip;
		return vm_fire(st->probe[VK_MAJ], &f, fire, arg);
	}
	if (!rec->raw)
		return 0;
	const struct prov_tp *tp = &st->tp[cookie];
	f.df_args[1] = prov_tp_uint(prov_tp_field(tp, "address"), rec->raw, rec->raw_size);
	f.df_args[2] = prov_tp_uint(prov_tp_field(tp, "ip"), rec->raw, rec->raw_size);
	f.df_args[3] = prov_tp_uint(prov_tp_field(tp, "error_code"), rec->raw, rec->raw_size);
	int rc = vm_fire(st->probe[VK_AS], &f, fire, arg);
	if (!rc && cookie == VE_KERNEL)
		rc = vm_fire(st->probe[VK_KERNEL], &f, fire, arg);
	if (!rc && (f.df_args[3] & 1))
		rc = vm_fire(st->probe[VK_PROT], &f, fire, arg);
	return rc;
}

const struct prov_ops prov_vminfo_ops = {
	.po_name = "vminfo",
	.po_list = vm_list,
	.po_match = vm_match,
	.po_enable = vm_enable,
	.po_claim = vm_claim,
	.po_decode = vm_decode,
};
