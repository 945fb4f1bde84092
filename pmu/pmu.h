/*
 * pmu.h — counter names to perf_event_attr, register budgets, group plans,
 * and what this machine's hardware and kernel can count.
 *
 * pmu_open() initialises libpfm4 once (honouring LIBPFM_FORCE_PMU) and loads
 * the hwdb tables; libpfm4 stays behind this header.  pmu_resolve() turns a
 * name (friendly alias, perf generic name, libpfm4 native name with '.' for
 * ':', a kernel PMU's sysfs event such as msr.tsc, or raw rNNNN) into an
 * attr.  pmu_plan() places every counter a script
 * needs into groups before anything is opened and fails, with a message
 * naming the budget, when they cannot be counted at once.  Functions return
 * 0 or -errno and write a human message into the caller's buffer.
 * Budgets come from the kernel's sysfs caps, then hwdb/budgets.txt, then
 * libpfm4; pmu_hw_report() says which source gave each figure.  A context
 * is single-threaded; libpfm4's process-wide state is shared by all.
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
	int fixed_capable;		/* 0 GP only, 1 may use a fixed counter,
					   2 fixed counter only (*fixed aliases,
					   Intel pseudo-events like ref-cycles) */
	uint64_t gp_mask;		/* general-purpose counters it may use
					   (bit i = counter i), 0 = any */
	const char *gp_src;		/* where that restriction is from */
	uint64_t default_period;	/* for a bare pmc:::name */
	const char *source;		/* "alias", "generic", "libpfm4", "sysfs", "raw" */
};

/* Plan: counters in groups, each group counted at once. */
struct pmu_plan {
	int ngroups;
	struct { int first, count; } groups[32];	/* indexes into the caller's array */
	int multiplexed;		/* only when allowed and needed */
};
/*
 * Groups partition the caller's array in order.  When everything fits there
 * is one group holding all n counters (software ones included); with
 * PMU_PLAN_MULTIPLEX and too many counters, consecutive groups that each
 * fit, and multiplexed = 1: the kernel then rotates them and values must
 * be scaled by time_enabled/time_running.
 */

#define PMU_PLAN_MULTIPLEX	0x1

typedef void (*pmu_log_fn)(void *arg, const char *msg);

struct pmu_ctx *pmu_open(pmu_log_fn log, void *arg, int *errp);

/*
 * The machine to plan for when it is not this one (-x pmumodel): a hwdb
 * model (skl, icl, zen4, adl, neoverse_n1, ...: hwdb/budgets.txt ids and
 * model= names) or a libpfm4 PMU name (amd64_fam19h_zen4).  Names resolve
 * with that model's libpfm4 table (when libpfm4 has one) and plans use its
 * budget; nothing of this machine's PMU is used.  model NULL means
 * LIBPFM_FORCE_PMU when set, else this machine.  smt: 1 on, 0 off, -1 on
 * (where hyper-threads split the counters, the smaller budget).
 * -EINVAL when neither hwdb nor libpfm4 knows the model.
 */
struct pmu_target {
	const char *model;
	int smt;
};
struct pmu_ctx *pmu_open_target(const struct pmu_target *t, pmu_log_fn log, void *arg,
    int *errp);
/* 1 when planning for a named model rather than this machine. */
int pmu_simulated(const struct pmu_ctx *p);
/* The models -x pmumodel takes (hwdb/budgets.txt), one per line: id,
 * names, budget, the libpfm4 table that names its events ("-": none). */
int pmu_models_report(struct pmu_ctx *p, FILE *out);
void pmu_close(struct pmu_ctx *p);

int pmu_resolve(struct pmu_ctx *p, const char *name, struct pmu_counter *out,
    char *err, size_t errlen);
/*
 * -E2BIG when the hardware counters do not fit (message names the budget);
 * -ENODEV when hardware counters are asked for and this machine exposes no
 * PMU (message from pmu_explain_unavailable; not when LIBPFM_FORCE_PMU
 * simulates a model); -EINVAL on bad arguments.
 */
int pmu_plan(struct pmu_ctx *p, const struct pmu_counter *c, int n, int flags,
    struct pmu_plan *out, char *err, size_t errlen);
/*
 * pmu_plan, remembering the set under label ("sched::pmc:off-cpu-*, read
 * together at each switch") for pmu_plan_report.  A set is known by its
 * array c: planning the same array again replaces it.
 */
int pmu_plan_as(struct pmu_ctx *p, const char *label, const struct pmu_counter *c,
    int n, int flags, struct pmu_plan *out, char *err, size_t errlen);
/*
 * -x pmcplan: per set, which counter sits on which fixed or general-purpose
 * register of each core type, and whether all sets at once would need the
 * kernel to multiplex.  Returns 0, or -errno on a write error.
 */
int pmu_plan_report(struct pmu_ctx *p, FILE *out);

/*
 * Hybrid CPUs (Intel P+E cores) have one kernel PMU per core type, and a
 * hardware counter must be opened once for each to count on every CPU.
 * pmu_core_pmus() fills types[] with the perf type of each core PMU
 * (cpu_core and cpu_atom; the single "cpu" elsewhere) and returns how many
 * (0 when the kernel exposes none).  pmu_attr_for_pmu() rewrites a
 * resolved hardware attr for one of them: PERF_TYPE_HARDWARE/HW_CACHE get
 * the PMU type in config bits 32-63 (PERF_PMU_TYPE_SHIFT), a raw event
 * takes the PMU's type.  Other attrs are copied unchanged.
 */
int pmu_core_pmus(struct pmu_ctx *p, uint32_t *types, int max);
void pmu_attr_for_pmu(const struct perf_event_attr *in, uint32_t pmu_type,
    struct perf_event_attr *out);

/*
 * Whether counter c may be used: 0 for a software counter, a hardware one
 * this machine can open, or any counter when check_only (-e, -l) plans for
 * a named model; else -ENODEV and the pmu_explain_unavailable() message,
 * or, for a named model outside check_only, why it cannot count here.
 */
int pmu_check_hw(struct pmu_ctx *p, const struct pmu_counter *c, int check_only,
    char *err, size_t errlen);

/* Whether a hardware counter can be opened here at all (1/0, cached). */
int pmu_hw_available(struct pmu_ctx *p);

/*
 * The message for a script naming a hardware counter where none can be
 * opened: "<name> needs a hardware PMU, and none is exposed here (...);
 * software counters work: cpu-clock, task-clock, page-faults,
 * context-switches".  Returns the length written (snprintf-style).
 */
int pmu_explain_unavailable(struct pmu_ctx *p, const char *counter, char *buf,
    size_t len);

/* The --hw report, text or JSON. */
int pmu_hw_report(struct pmu_ctx *p, FILE *out, int json);

/*
 * Names that -l -P pmc lists: the friendly aliases that resolve on this
 * model, then perf's generic names; hw = 1 for those needing a PMU register
 * (callers hide them when pmu_hw_available() is 0).  Stops at the first
 * nonzero callback return and returns it.
 */
int pmu_list(struct pmu_ctx *p, int (*cb)(void *arg, const char *name, int hw), void *arg);

/*
 * One line for -lv: what name resolves to here and where the mapping comes
 * from, e.g. "branchmispredictions: hardware, skl::BR_MISP_RETIRED:
 * ALL_BRANCHES (raw 4:0xc5) from hwdb/aliases.txt:63 (intel/perfmon ...)".
 * Returns the length (snprintf-style) or -errno with the resolve error.
 */
/*
 * The other names of an event a perf.data file recorded, for replay: the
 * hwdb's machine-independent aliases of a generic (hardware, cache or
 * software) event; with a context from pmu_open_recording also the
 * recording model's names (its aliases and libpfm4 events for what the
 * kernel counted there), prefixed by the recorded PMU on a hybrid
 * ("cpu_core.totalcycles").  Calls cb per name and returns how many, -1
 * when cb stops it.
 */
int pmu_generic_aliases(struct pmu_ctx *p, const struct perf_event_attr *attr,
    int (*cb)(void *arg, const char *alias), void *arg);

/* What a perf.data header says about the machine that recorded it. */
struct pmu_recording {
	const char *cpuid;		/* HEADER_CPUID "GenuineIntel,6,186,3" */
	const void *pmu_mappings;	/* HEADER_PMU_MAPPINGS, as written */
	size_t pmu_mappings_len;
	const void *pmu_caps;		/* HEADER_PMU_CAPS (hybrid) */
	size_t pmu_caps_len;
	const void *cpu_pmu_caps;	/* HEADER_CPU_PMU_CAPS */
	size_t cpu_pmu_caps_len;
};
/* The hwdb model (a -x pmumodel name) a recording was made on: 0, or
 * -ENOENT when its CPUID and PMU caps match no model. */
int pmu_recording_model(const struct pmu_recording *r, char *model, size_t len);
/* A context planning and naming for that model, with its PMU mappings. */
struct pmu_ctx *pmu_open_recording(const struct pmu_recording *r, pmu_log_fn log,
    void *arg, int *errp);

int pmu_describe(struct pmu_ctx *p, const char *name, char *buf, size_t len);

#endif
