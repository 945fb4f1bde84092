/*
 * pmcpair.h — counters read as one group with a tracepoint (pmcpair.c),
 * and the entry/exit pairing isr and dpc share: an entry tracepoint's
 * time and label kept per CPU until the matching exit, which fires the
 * plain probe and the ::pmc: probes with what the counters accrued
 * between the two.  int functions return 0 (or an index) or -1 with the
 * registry's error set.
 */
#ifndef PMCTRACE_PMCPAIR_H
#define PMCTRACE_PMCPAIR_H

#include "pmu/pmu.h"
#include "providers/tracefs.h"

/* A set of counters read as one group (sched's switch group, pmcpair's
 * handler group; pmcpair.c): resolve counter name into set[0..*n): its
 * index if the set holds it already, else it is appended (*n grows) when
 * fewer than max are there and the set with it fits the register budget.
 * where completes "at most <max> counters can be read <where>".  Returns
 * the index, or -1 with the error set. */
int prov_counter_set_add(struct prov_registry *r, struct pmu_counter *set, int *n, int max,
    const char *name, const char *where);

/* Counters read at an entry tracepoint and its exit (pmcpair.c). */
#define PROV_PAIR_MAX 8
struct prov_pmcpair {
	int ncounters;
	struct pmu_counter counters[PROV_PAIR_MAX];
	int member_evidx[PROV_PAIR_MAX];
	uint64_t entry[PROV_MAX_CPUS][PROV_PAIR_MAX];
	uint8_t seen[PROV_MAX_CPUS];
};
int prov_pmcpair_add_counter(struct prov_registry *r, struct prov_pmcpair *pp, const char *name);
int prov_pmcpair_enable(struct prov_registry *r, struct smp_session *s, struct prov_pmcpair *pp,
    const struct prov_ops *ops, const struct prov_tp *entry, const struct prov_tp *exit,
    uint64_t entry_cookie, uint64_t exit_cookie);
void prov_pmcpair_entry(struct prov_pmcpair *pp, const struct smp_record *rec);
void prov_pmcpair_exit(struct prov_pmcpair *pp, const struct smp_record *rec,
    uint64_t *val, uint64_t *delta);

/* Per-CPU entry/exit pairing for isr and dpc: the entry's time and label
 * are kept until the matching exit on the same CPU. */
struct prov_interval {
	uint64_t pi_start;
	uint64_t pi_id;
	char pi_label[32];
	int pi_active;
};
struct prov_pair {
	struct prov_tp entry, exit;
	uint32_t probe;			/* the plain probe if enabled */
	struct { uint32_t id; int counter; } pmcfire[16];
	int npmcfire;
	struct prov_pmcpair pmc;
	struct prov_interval open[PROV_MAX_CPUS];
};
/* Planning: forget the probes, then name each enabled one (counter1: 0
 * for the plain probe, else its counter's index + 1). */
void prov_pair_reset(struct prov_pair *pp);
void prov_pair_plan(struct prov_pair *pp, uint32_t id, uint64_t counter1);
/* Live: the two tracepoints, as a counter group when ::pmc: probes are
 * planned (the caller checks that some probe is). */
int prov_pair_enable(struct prov_registry *r, struct smp_session *s, struct prov_pair *pp,
    const struct prov_ops *ops, uint64_t entry_cookie, uint64_t exit_cookie);
/* The entry sample opens its CPU's interval (the caller adds the label);
 * NULL when the CPU is out of range. */
struct prov_interval *prov_pair_entry(struct prov_pair *pp, const struct smp_record *rec,
    uint64_t id);
/* The exit sample closes its CPU's interval if one is open for id. */
struct prov_interval *prov_pair_exit(struct prov_pair *pp, const struct smp_record *rec,
    uint64_t id);
/* Fire the plain probe with f (args 0..4 set), then each ::pmc: probe
 * with arg4 the counter's value, arg5 what it accrued, arg6 f's arg4. */
int prov_pair_fire(struct prov_pair *pp, const struct smp_record *rec, struct d_firing *f,
    prov_fire_fn fire, void *arg);

#endif
