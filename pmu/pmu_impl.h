/*
 * pmu_impl.h — what the files of pmu/ share (private; tests include it).
 *
 * pmu_core.c owns the context: libpfm4 start-up, which model this is, and
 * its register budget.  pmu_names.c resolves names, pmu_plan.c fits
 * counters into the budget, pmu_probe.c asks the kernel what works.
 */
#ifndef PMCTRACE_PMU_IMPL_H
#define PMCTRACE_PMU_IMPL_H

#include "pmu/pmu.h"
#include "pmu/hwdb.h"

#define PMU_MAX_FIXED	8
#define PMU_MAX_TYPES	64
#define PMU_MAX_FIXED_ALT	3

/* The counters one logical CPU offers, and where each figure came from. */
struct pmu_budget {
	char pb_name[96];		/* "Intel Icelake" or "unknown" */
	char pb_vendor[8];		/* intel, amd, arm, "" */
	const struct hwdb_budget *pb_hw;	/* matched hwdb entry or NULL */
	int pb_known;			/* a GP figure exists at all */
	int pb_gp;
	int pb_fixed;
	/* raw configs each fixed counter takes (0-terminated alternatives) */
	uint64_t pb_fixed_cfg[PMU_MAX_FIXED][PMU_MAX_FIXED_ALT + 1];
	char pb_fixed_generic[PMU_MAX_FIXED][24]; /* generic name mapped there */
	int pb_smt;			/* SMT on: GP figure is per thread */
	int pb_watchdog;		/* the NMI watchdog holds a counter */
	char pb_gp_src[384];
	char pb_fixed_src[384];
};

/* The counters of one probe group as last planned (-x pmcplan). */
struct pmu_planset {
	const void *ps_key;		/* the caller's array: one set per array */
	char ps_label[96];
	int ps_n;
	int ps_flags;
	struct pmu_counter *ps_c;
};

struct pmu_ctx {
	pmu_log_fn pc_log;
	void *pc_log_arg;
	char pc_force[64];		/* the libpfm4 PMU forced on libpfm4, or "" */
	char pc_model[64];		/* the machine planned for, "" = this one */
	int pc_simulated;		/* a model named: nothing of the host's PMU counts */
	int pc_pfm_started;		/* holds a libpfm4 user reference */
	int pc_pfm_ok;			/* libpfm4 initialised */
	char pc_pfm_pmu[64];		/* libpfm4's core PMU ("icl") or "" */
	char pc_pfm_desc[96];
	int pc_pfm_gp, pc_pfm_fixed;	/* pfm_get_pmu_info figures */
	struct pmu_budget pc_budget;	/* the (first) core type */
	struct pmu_budget pc_budget2;	/* a hybrid's second core type */
	int pc_nbudgets;		/* 2 on a hybrid */
	struct pmu_planset pc_sets[16];
	int pc_nsets;
	int pc_recorded;		/* the model a replayed perf.data names */
	struct { uint32_t type; char name[40]; } pc_types[PMU_MAX_TYPES];
	int pc_ntypes;			/* the recording's PMU_MAPPINGS */
	int pc_hw_state;		/* -1 not probed, 0 no, 1 yes */
	int pc_hw_errno;		/* why the probe failed */
	char **pc_names;		/* suggestion candidates, built lazily */
	int pc_nnames;
};

/* pmu_core.c */
void pmu_logf(struct pmu_ctx *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int pmu_read_line(const char *path, char *buf, size_t len);
/* The message for a caller's err buffer (NULL or 0: none wanted); pmu_plan.c. */
void pmu_errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const struct hwdb_budget *pmu_hwdb_find(const char *id);
void pmu_budget_from_hwdb(const struct hwdb_budget *hb, int smt,
    struct pmu_budget *b);
int pmu_model_entries(const char *model, const struct hwdb_budget *out[2]);
const char *pmu_kernel_core_pmu(char *buf, size_t len);

/* pmu_plan.c */
int pmu_plan_budget(const struct pmu_budget *b, const struct pmu_counter *c,
    int n, int flags, struct pmu_plan *out, char *err, size_t errlen);
int pmu_fixed_slot(const struct pmu_budget *b, const struct pmu_counter *c);
int pmu_fixed_only(const struct pmu_budget *b, const struct pmu_counter *c);
/* Where each of c[0..n) sits on b ("fixed 0", "general-purpose 2",
 * "software", "no register"), what it uses; 1 when all fit. */
int pmu_plan_places(const struct pmu_budget *b, const struct pmu_counter *c, int n,
    char (*where)[24], int *gp_used, int *fixed_used);

/* pmu_planset.c */
void pmu_plan_sets_free(struct pmu_ctx *p);

/* pmu_names.c */
const struct hwdb_alias *pmu_alias_find(const struct pmu_ctx *p,
    const char *name);
void pmu_names_free(struct pmu_ctx *p);
extern const char *const pmu_sw_names[];

/* pmu_sysfs.c */
#define PMU_SYSFS_ROOT	"/sys/bus/event_source/devices"
int pmu_sysfs_resolve(const char *root, const char *name, struct perf_event_attr *attr,
    char *canon, size_t clen, int *is_core);
int pmu_sysfs_names(const char *root, int (*add)(void *, const char *), void *arg);
int pmu_sysfs_core_types(const char *root, uint32_t *types, int max);

/* pmu_probe.c */
int pmu_try_open(const struct perf_event_attr *attr);

#endif
