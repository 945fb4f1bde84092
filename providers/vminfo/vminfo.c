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
#include <string.h>

#include "providers/tpbacked.h"

enum { VK_AS, VK_KERNEL, VK_PROT, VK_MAJ, VK_N };
enum { VE_USER, VE_KERNEL, VE_MAJ, VE_N };

static const char *const vm_names[VK_N] = { "as_fault", "kernel_asflt", "prot_fault", "maj_fault" };
static const char *const vm_args[] = { "uint64_t", "uintptr_t", "uintptr_t", "uint64_t" };
static const struct prov_tpb_event vm_events[VE_MAJ] = {	/* the tracepoints */
	{ "exceptions", "page_fault_user", 0 }, { "exceptions", "page_fault_kernel", 0 },
};

static void
vm_want(const uint32_t *probe, int *want)
{
	want[VE_USER] = probe[VK_AS] || probe[VK_PROT];
	want[VE_KERNEL] = probe[VK_AS] || probe[VK_PROT] || probe[VK_KERNEL];
}

static int
vm_add_major(struct prov_registry *r, struct smp_session *s)
{
	struct smp_event_spec sp;
	prov_sample_spec(r, &sp, NULL, PERF_SAMPLE_ADDR, "page-faults-maj", &prov_vminfo_ops, VE_MAJ);
	sp.attr.type = PERF_TYPE_SOFTWARE;
	sp.attr.config = PERF_COUNT_SW_PAGE_FAULTS_MAJ;
	sp.attr.sample_period = 1;
	int evidx;
	if (smp_add_event(s, &sp, &evidx) < 0)
		return prov_errf(r, "%s", smp_errmsg(s));
	return 0;
}

static int
vm_enable_major(struct prov_registry *r, struct smp_session *s, const struct prov_tpb_state *st)
{
	return st->tbs_probe[VK_MAJ] ? vm_add_major(r, s) : 0;
}

static int
vm_claim_major(const struct smp_event_spec *ev)
{
	return ev->attr.type == PERF_TYPE_SOFTWARE &&
	    ev->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MAJ ? VE_MAJ : -1;
}

static int
vm_decode(struct prov_registry *r, struct prov_tpb_state *st, const struct smp_record *rec,
    uint64_t cookie, prov_fire_fn fire, void *arg)
{
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_args[0] = 1;
	f.df_nargs = 4;
	if (cookie == VE_MAJ) {
		f.df_args[1] = rec->addr;
		f.df_args[2] = rec->ip;
		return prov_tpb_fire(st->tbs_probe[VK_MAJ], &f, fire, arg);
	}
	const struct prov_tp *tp = &st->tbs_tp[cookie];
	f.df_args[1] = prov_tp_uint(prov_tp_field(tp, "address"), rec->raw, rec->raw_size);
	f.df_args[2] = prov_tp_uint(prov_tp_field(tp, "ip"), rec->raw, rec->raw_size);
	f.df_args[3] = prov_tp_uint(prov_tp_field(tp, "error_code"), rec->raw, rec->raw_size);
	int rc = prov_tpb_fire(st->tbs_probe[VK_AS], &f, fire, arg);
	if (!rc && cookie == VE_KERNEL)
		rc = prov_tpb_fire(st->tbs_probe[VK_KERNEL], &f, fire, arg);
	if (!rc && (f.df_args[3] & 1))
		rc = prov_tpb_fire(st->tbs_probe[VK_PROT], &f, fire, arg);
	return rc;
}

static const struct prov_tpb vm_tpb = {
	.tb_ops = &prov_vminfo_ops, .tb_probes = vm_names, .tb_nprobes = VK_N,
	.tb_argtypes = vm_args, .tb_nargs = 4, .tb_events = vm_events, .tb_nevents = VE_MAJ,
	.tb_want = vm_want, .tb_nextra = VE_N - VE_MAJ, .tb_enable_extra = vm_enable_major,
	.tb_claim_extra = vm_claim_major, .tb_decode = vm_decode,
};

PROV_TPB_OPS(prov_vminfo_ops, "vminfo", vm_tpb);
