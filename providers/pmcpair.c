/*
 * pmcpair.c — counters read at an entry and at the matching exit
 * (isr::pmc:isr-<counter>, dpc::pmc:dpc-<counter>), and the entry/exit
 * pairing of isr and dpc that fires them.
 *
 * The entry tracepoint leads a group, the exit tracepoint samples as a
 * member and the counters are silent members, so both the entry and the
 * exit samples carry a read of the whole group (PERF_SAMPLE_READ with
 * FORMAT_GROUP).  The exit's values minus the entry's on the same CPU are
 * what the handler itself accrued.
 */
#include <stdlib.h>
#include <string.h>

#include "providers/pmcpair.h"

/* The counter name stands for, or an error (set) when it does not resolve
 * or needs a hardware PMU this machine lacks. */
static int
prov_counter_resolve(struct prov_registry *r, const char *name, struct pmu_counter *c)
{
	struct pmu_ctx *pmu = prov_cfg(r)->pmu;
	char err[512];
	if (!pmu || pmu_resolve(pmu, name, c, err, sizeof(err)) < 0)
		return prov_errf(r, "%s", pmu ? err : "the PMU layer is not available");
	if (pmu_check_hw(pmu, c, prov_cfg(r)->check_only, err, sizeof(err)) < 0)
		return prov_errf(r, "%s", err);
	return 0;
}

/* The counters of one group are read together, so they must fit the
 * register budget together: planned again with each counter added, so
 * the script fails at compile time naming the budget, not at open. */
int
prov_counter_set_add(struct prov_registry *r, struct pmu_counter *set, int *n, int max,
    const char *name, const char *where)
{
	struct pmu_counter c;
	char err[512];
	if (prov_counter_resolve(r, name, &c) < 0)
		return -1;
	for (int i = 0; i < *n; i++)
		if (!strcmp(set[i].canonical, c.canonical))
			return i;
	if (*n == max)
		return prov_errf(r, "at most %d counters can be read %s", max, where);
	set[*n] = c;
	struct pmu_plan plan;
	char label[96];
	snprintf(label, sizeof(label), "counters read together %s", where);
	if (pmu_plan_as(prov_cfg(r)->pmu, label, set, *n + 1,
	    prov_cfg(r)->pmc_multiplex ? PMU_PLAN_MULTIPLEX : 0, &plan, err, sizeof(err)) < 0)
		return prov_errf(r, "%s", err);
	return (*n)++;
}

int
prov_pmcpair_add_counter(struct prov_registry *r, struct prov_pmcpair *pp, const char *name)
{
	return prov_counter_set_add(r, pp->counters, &pp->ncounters, PROV_PAIR_MAX, name,
	    "per handler");
}

static void
prov_pmcpair_member(struct smp_event_spec *sp, int leader)
{
	sp->attr.size = sizeof(sp->attr);
	sp->attr.disabled = 0;
	/* the kernel refuses a member whose clock differs from the leader's */
	sp->attr.use_clockid = 1;
	sp->attr.clockid = 1;
	sp->attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
	    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	sp->scope = SMP_EACH_CPU;
	sp->group_leader = leader;
}

int
prov_pmcpair_enable(struct prov_registry *r, struct smp_session *s, struct prov_pmcpair *pp,
    const struct prov_ops *ops, const struct prov_tp *entry, const struct prov_tp *exit,
    uint64_t entry_cookie, uint64_t exit_cookie)
{
	int leader = prov_tp_add(r, s, ops, entry, entry_cookie, -1, 1);
	if (leader < 0)
		return -1;
	struct smp_event_spec sp;
	memset(&sp, 0, sizeof(sp));
	prov_tp_attr(exit, &sp.attr, prov_cfg(r)->want_callchains & 3);
	sp.attr.sample_type |= PERF_SAMPLE_READ;
	prov_pmcpair_member(&sp, leader);
	sp.name = exit->name;
	sp.owner = (void *)ops;
	sp.cookie = exit_cookie;
	if (smp_add_event(s, &sp, NULL) < 0)
		return prov_errf(r, "%s", smp_errmsg(s));
	for (int i = 0; i < pp->ncounters; i++) {
		memset(&sp, 0, sizeof(sp));
		sp.attr = pp->counters[i].attr;
		sp.attr.sample_period = 0;
		sp.attr.freq = 0;
		prov_pmcpair_member(&sp, leader);
		sp.name = pp->counters[i].name;
		if (smp_add_event(s, &sp, &pp->member_evidx[i]) < 0)
			return prov_errf(r, "%s", smp_errmsg(s));
	}
	return 0;
}

static void
prov_pmcpair_values(const struct prov_pmcpair *pp, const struct smp_record *rec, uint64_t *val)
{
	memset(val, 0, sizeof(uint64_t) * PROV_PAIR_MAX);
	for (uint32_t j = 0; rec->read && j < rec->read->nr && j < SMP_READ_MAX; j++)
		for (int i = 0; i < pp->ncounters; i++)
			if (rec->read->v[j].evidx == pp->member_evidx[i])
				val[i] = rec->read->v[j].value;
}

void
prov_pmcpair_entry(struct prov_pmcpair *pp, const struct smp_record *rec)
{
	if (rec->cpu >= PROV_MAX_CPUS)
		return;
	prov_pmcpair_values(pp, rec, pp->entry[rec->cpu]);
	pp->seen[rec->cpu] = 1;
}

void
prov_pmcpair_exit(struct prov_pmcpair *pp, const struct smp_record *rec,
    uint64_t *val, uint64_t *delta)
{
	prov_pmcpair_values(pp, rec, val);
	memset(delta, 0, sizeof(uint64_t) * PROV_PAIR_MAX);
	if (rec->cpu >= PROV_MAX_CPUS || !pp->seen[rec->cpu])
		return;
	for (int i = 0; i < pp->ncounters; i++)
		delta[i] = val[i] - pp->entry[rec->cpu][i];
	pp->seen[rec->cpu] = 0;
}

void
prov_pair_reset(struct prov_pair *pp)
{
	pp->probe = 0;
	pp->npmcfire = 0;
}

void
prov_pair_plan(struct prov_pair *pp, uint32_t id, uint64_t counter1)
{
	if (!counter1)
		pp->probe = id;
	else if (pp->npmcfire < 16) {
		pp->pmcfire[pp->npmcfire].id = id;
		pp->pmcfire[pp->npmcfire++].counter = (int)counter1 - 1;
	}
}

int
prov_pair_enable(struct prov_registry *r, struct smp_session *s, struct prov_pair *pp,
    const struct prov_ops *ops, uint64_t entry_cookie, uint64_t exit_cookie)
{
	if (pp->npmcfire)
		return prov_pmcpair_enable(r, s, &pp->pmc, ops, &pp->entry, &pp->exit,
		    entry_cookie, exit_cookie);
	if (prov_tp_add(r, s, ops, &pp->entry, entry_cookie, -1, 0) < 0 ||
	    prov_tp_add(r, s, ops, &pp->exit, exit_cookie, -1, 0) < 0)
		return -1;
	return 0;
}

struct prov_interval *
prov_pair_entry(struct prov_pair *pp, const struct smp_record *rec, uint64_t id)
{
	if (rec->cpu >= PROV_MAX_CPUS)
		return NULL;
	struct prov_interval *iv = &pp->open[rec->cpu];
	if (pp->npmcfire)
		prov_pmcpair_entry(&pp->pmc, rec);
	iv->pi_start = rec->time;
	iv->pi_id = id;
	iv->pi_active = 1;
	return iv;
}

struct prov_interval *
prov_pair_exit(struct prov_pair *pp, const struct smp_record *rec, uint64_t id)
{
	if (rec->cpu >= PROV_MAX_CPUS)
		return NULL;
	struct prov_interval *iv = &pp->open[rec->cpu];
	if (!iv->pi_active || iv->pi_id != id)
		return NULL;
	iv->pi_active = 0;
	return iv;
}

static int
prov_pair_fire_pmc(struct prov_pair *pp, const struct smp_record *rec, struct d_firing *f,
    prov_fire_fn fire, void *arg)
{
	uint64_t val[PROV_PAIR_MAX], delta[PROV_PAIR_MAX];
	prov_pmcpair_exit(&pp->pmc, rec, val, delta);
	f->df_args[6] = f->df_args[4];
	f->df_nargs = 7;
	for (int i = 0; i < pp->npmcfire; i++) {
		f->df_probe = pp->pmcfire[i].id;
		f->df_args[4] = val[pp->pmcfire[i].counter];
		f->df_args[5] = delta[pp->pmcfire[i].counter];
		int rc = fire(arg, f);
		if (rc)
			return rc;
	}
	return 0;
}

int
prov_pair_fire(struct prov_pair *pp, const struct smp_record *rec, struct d_firing *f,
    prov_fire_fn fire, void *arg)
{
	if (pp->probe) {
		f->df_probe = pp->probe;
		int rc = fire(arg, f);
		if (rc)
			return rc;
	}
	return pp->npmcfire ? prov_pair_fire_pmc(pp, rec, f, fire, arg) : 0;
}
