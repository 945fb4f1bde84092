/*
 * kbsrc.h — the in-kernel probe (providers/kbsrc.c over bpf/kbpf.h) as an
 * event source shared by the sched, isr and dpc providers.
 *
 * Live, from a provider's po_enable: prov_kb_use asks for record kinds
 * (enum kb_kind) to be decoded by ops; 1 when the BPF object is loaded and
 * will deliver them, 0 when it cannot be used (prov_kb_why says why: -x
 * nobpf, no BPF, no BTF, no privilege; the verdict is taken once per run),
 * -1 on error.  The records reach ops' po_decode with cookie
 * PROV_KB_COOKIE; prov_kb_kind reads their kind.  prov_kb_add_counters
 * (after a successful prov_kb_use) adds the counters read at every switch,
 * recorded under the names PROV_KB_COUNTER<name>.  In a replay the
 * recorded output event is named PROV_KB_EVENT and each provider claims it
 * itself.  prov_kb_report turns what went wrong in the kernel into
 * notices, once (switches the kernel ran without the probe only when
 * counters are read: on-cpu and off-cpu are made up for them).  Single-threaded, as the registry.
 */
#ifndef PMCTRACE_KBSRC_H
#define PMCTRACE_KBSRC_H

#include "providers/prov_kit.h"
#include "pmu/pmu.h"

#define PROV_KB_COOKIE 0x6b62
#define PROV_KB_EVENT "pmctrace:kbpf"
#define PROV_KB_COUNTER "pmctrace:switch-counter:"

struct prov_kb;
int prov_kb_use(struct prov_registry *r, struct smp_session *s, const struct prov_ops *ops,
    const int *kinds, int nkinds);
int prov_kb_add_counters(struct prov_registry *r, struct smp_session *s,
    const struct pmu_counter *set, int n);
const char *prov_kb_why(struct prov_registry *r);
int prov_kb_kind(const struct smp_record *rec);
void prov_kb_report(struct prov_registry *r, int counters);
/* After prov_firing_from_sample on one of its records, or on a perf
 * tracepoint's sample: drop the BPF program's frames and the tracing
 * machinery that ran it from the kernel stack, so it starts at the
 * tracepoint's caller on both paths. */
void prov_kb_trim_stack(struct prov_registry *r, const struct smp_record *rec, struct d_firing *f);

/* registry.c keeps the one per run; kbsrc.c makes and frees it. */
struct prov_kb **prov_kb_slot(struct prov_registry *r);
void prov_kb_free(struct prov_kb *kb);

#endif
