/*
 * pmu.h — counter names to perf_event_attr, register budgets, group plans,
 * and what this machine's hardware and kernel can count.
 *
 * pmu_open() initialises libpfm4 once (honouring LIBPFM_FORCE_PMU) and loads
 * the hwdb tables; libpfm4 stays behind this header.  pmu_resolve() turns a
 * name (friendly alias, perf generic name, libpfm4 native name with '.' for
 * ':', or raw rNNNN) into an attr.  pmu_plan() places every counter a script
 * needs into groups before anything is opened and fails, with a message
 * naming the budget, when they cannot be counted at once.  Functions return
 * 0 or -errno and write a human message into the caller's buffer.
 */
#ifndef PMCTRACE_PMU_H
#define PMCTRACE_PMU_H

#include <linux/perf_event.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

struct pmu_ctx;

struct pmu_counter {
	char name[128];			/* as the user wrote it */
	char canonical[128];		/* what it resolved to (e.g. "cycles", "skl::INST_RETIRED:ANY") */
	struct perf_event_attr attr;	/* type, config, config1, config2, exclude_* */
	int is_hardware;		/* needs a PMU register */
	int fixed_capable;		/* may use a fixed counter */
	uint64_t default_period;	/* for a bare pmc:::name */
	const char *source;		/* "alias", "generic", "libpfm4", "raw" */
};

/* Plan: counters in groups, each group counted at once. */
struct pmu_plan {
	int ngroups;
	struct { int first, count; } groups[32];	/* indexes into the caller's array */
	int multiplexed;		/* only when allowed and needed */
};

#define PMU_PLAN_MULTIPLEX	0x1

typedef void (*pmu_log_fn)(void *arg, const char *msg);

struct pmu_ctx *pmu_open(pmu_log_fn log, void *arg, int *errp);
void pmu_close(struct pmu_ctx *p);

int pmu_resolve(struct pmu_ctx *p, const char *name, struct pmu_counter *out,
    char *err, size_t errlen);
int pmu_plan(struct pmu_ctx *p, const struct pmu_counter *c, int n, int flags,
    struct pmu_plan *out, char *err, size_t errlen);

/* Whether a hardware counter can be opened here at all (cached). */
int pmu_hw_available(struct pmu_ctx *p);

/* The --hw report, text or JSON. */
int pmu_hw_report(struct pmu_ctx *p, FILE *out, int json);

/* Names that -l -P pmc lists (aliases and generic names that resolve here). */
int pmu_list(struct pmu_ctx *p, int (*cb)(void *arg, const char *name, int hw), void *arg);

#endif
