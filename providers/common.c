/*
 * common.c — decoding shared by the sample-based providers: the firing
 * context (pid, tid, cpu, time, comm) and the split of a kernel callchain
 * into its kernel and user halves.
 */
#include <string.h>
#include <time.h>

#include "providers/prov_kit.h"
#include "symbolizer/symbolizer.h"

/* perf's callchain carries PERF_CONTEXT_* markers (huge unsigned values)
 * announcing which half the following addresses belong to. */
static void
prov_split_callchain(const struct smp_record *rec, struct d_firing *f,
    uint64_t *kbuf, uint64_t *ubuf, uint32_t max)
{
	uint64_t *dst = kbuf;
	uint32_t *n = &f->df_nkstack;
	f->df_nkstack = f->df_nustack = 0;
	for (uint32_t i = 0; i < rec->nr_callchain; i++) {
		uint64_t ip = rec->callchain[i];
		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			if (ip == (uint64_t)PERF_CONTEXT_USER) {
				dst = ubuf;
				n = &f->df_nustack;
			} else if (ip == (uint64_t)PERF_CONTEXT_KERNEL) {
				dst = kbuf;
				n = &f->df_nkstack;
			}
			continue;
		}
		if (*n < max)
			dst[(*n)++] = ip;
	}
	f->df_kstack = kbuf;
	f->df_ustack = ubuf;
}

static uint64_t
prov_wall_offset(void)
{
	static uint64_t off;
	if (!off) {
		struct timespec m, w;
		clock_gettime(CLOCK_MONOTONIC, &m);
		clock_gettime(CLOCK_REALTIME, &w);
		off = (uint64_t)(w.tv_sec - m.tv_sec) * 1000000000ull +
		    (uint64_t)(w.tv_nsec - m.tv_nsec);
	}
	return off;
}

void
prov_firing_from_sample(struct prov_registry *r, const struct smp_record *rec,
    struct d_firing *f, uint64_t *kbuf, uint64_t *ubuf, uint32_t max)
{
	const struct prov_config *cfg = prov_cfg(r);
	memset(f, 0, sizeof(*f));
	f->df_cpu = rec->cpu;
	f->df_pid = rec->pid;
	f->df_tid = rec->tid;
	f->df_timestamp = rec->time;
	f->df_walltimestamp = rec->time + prov_wall_offset();
	f->df_vtimestamp = prov_vtimestamp(r, rec->cpu, rec->tid, rec->time);
	/* execname is the process's name, as in DTrace; a thread whose
	 * process is unknown still has its own comm. */
	if (cfg->sym && !(f->df_execname = sym_comm_ppid(cfg->sym, rec->pid, &f->df_ppid)))
		f->df_execname = sym_comm(cfg->sym, rec->tid);
	if (!f->df_execname && rec->pid == 0)
		f->df_execname = "swapper";
	if (rec->nr_callchain)
		prov_split_callchain(rec, f, kbuf, ubuf, max);
	if (rec->misc & PERF_RECORD_MISC_USER)
		f->df_uregs_ip = rec->ip;
}

void
prov_firing_ustack(struct d_firing *f, const struct smp_record *rec, uint64_t regs_mask)
{
	uint32_t idx = 0;
	if (!rec->ustack || !rec->ustack_dyn_size || !rec->regs_abi || !rec->regs ||
	    !(regs_mask & (1ull << PROV_REG_SP)))
		return;
	for (int b = 0; b < PROV_REG_SP; b++)	/* one value per mask bit, in order */
		if (regs_mask & (1ull << b))
			idx++;
	if (idx >= rec->nr_regs)
		return;
	f->df_ustackmem = rec->ustack;
	f->df_ustackbase = rec->regs[idx];
	f->df_ustacklen = (size_t)rec->ustack_dyn_size;
}

int
prov_wants_ustack(const struct prov_registry *r)
{
	int bits = prov_cfg(r)->want_callchains;
	return (bits & 4) || bits == 1;
}

void
prov_sample_spec(struct prov_registry *r, struct smp_event_spec *sp,
    const struct perf_event_attr *base, uint64_t extra_sample, const char *name,
    const struct prov_ops *ops, uint64_t cookie)
{
	prov_spec_init(sp, name, ops, cookie);
	if (base)
		sp->attr = *base;
	sp->attr.size = sizeof(sp->attr);
	sp->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER | extra_sample |
	    ((prov_cfg(r)->want_callchains & 3) ? PERF_SAMPLE_CALLCHAIN : 0);
	sp->attr.sample_id_all = 1;
	sp->attr.use_clockid = 1;
	sp->attr.clockid = 1;	/* CLOCK_MONOTONIC, as timestamp in BEGIN */
	sp->attr.disabled = 1;
}

void
prov_spec_init(struct smp_event_spec *sp, const char *name, const struct prov_ops *ops,
    uint64_t cookie)
{
	memset(sp, 0, sizeof(*sp));
	sp->attr.size = sizeof(sp->attr);
	sp->scope = SMP_EACH_CPU;
	sp->group_leader = -1;
	sp->name = name;
	sp->owner = (void *)ops;
	sp->cookie = cookie;
}
