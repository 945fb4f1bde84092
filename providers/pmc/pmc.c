/*
 * pmc.c — the pmc provider: sample on counter overflow.
 *
 *   pmc:::<counter>-<period>   sample every <period> events of <counter>
 *   pmc:::<counter>            the same at the counter's default period
 *   pmc:::sample-src           fires at start and end once per sampled source
 *   pmc:::counter-src          fires once at start: arg0 = the number of
 *                              counters the ::pmc: probes read, arg1 = their
 *                              names, comma-separated, in the order their
 *                              values arrive
 *
 * Counter names are resolved by pmu/ (aliases, perf names, libpfm4 names,
 * raw codes); every counter of the script is planned against the register
 * budget before anything opens.  arg0 = PC, arg1 = 1 if the sample was in
 * user mode, arg2 = counter events since the previous sample on that CPU
 * (the sample's period).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu.h"
#include "providers/prov_kit.h"

enum { PP_PERIOD, PP_COUNTER, PP_KIND };
enum { PMC_SAMPLE, PMC_SAMPLE_SRC, PMC_COUNTER_SRC };

#define PMC_MAX_COUNTERS 64
#define PMC_MAX_ALIASES 256

/* Replay: another name of a recorded counter's probe (totalcycles-20003
 * for cycles-20003).  An alias is not a probe of its own: a description
 * naming it matches the probe, so a sample fires a clause once however
 * many of its names the clause's descriptions cover. */
struct pmc_alias {
	char pa_name[96];
	uint32_t pa_id;
};

struct pmc_state {
	int ncounters;
	struct pmu_counter counters[PMC_MAX_COUNTERS];
	uint32_t probe_of[PMC_MAX_COUNTERS];
	int nalias;
	struct pmc_alias alias[PMC_MAX_ALIASES];
};

static const char *const pmc_args[] = { "uint64_t", "int", "uint64_t" };
static const char *const pmc_src_args[] = { "uint64_t", "string", "uint64_t", "uint64_t" };
static const char *const pmc_csrc_args[] = { "uint64_t", "string" };

/* "page-faults-1" -> counter "page-faults", period 1 (0 = none given);
 * -1 for a period the kernel would refuse (beyond 2^63 - 1). */
static int
pmc_split_name(const char *name, char *counter, size_t len, uint64_t *period)
{
	const char *dash = strrchr(name, '-');
	*period = 0;
	if (dash && dash[1] && strspn(dash + 1, "0123456789") == strlen(dash + 1)) {
		errno = 0;
		*period = strtoull(dash + 1, NULL, 10);
		snprintf(counter, len, "%.*s", (int)(dash - name), name);
		if (errno || *period > (uint64_t)INT64_MAX)
			return -1;
	} else {
		snprintf(counter, len, "%s", name);
	}
	return 0;
}

static int
pmc_resolve(struct prov_registry *r, const char *counter, struct pmu_counter *c)
{
	char err[512];
	struct pmu_ctx *pmu = prov_cfg(r)->pmu;
	if (!pmu)
		return prov_errf(r, "counter %s: the PMU layer is not available", counter);
	if (pmu_resolve(pmu, counter, c, err, sizeof(err)) < 0)
		return prov_errf(r, "%s", err);
	if (!prov_cfg(r)->replay && pmu_check_hw(pmu, c, prov_cfg(r)->check_only, err,
	    sizeof(err)) < 0)
		return prov_errf(r, "%s", err);
	return 0;
}

static struct prov_probe *
pmc_make(struct prov_registry *r, const char *name, int kind, uint64_t period, int counter)
{
	struct prov_probe *p = prov_add(r, &prov_pmc_ops, "", "", name);
	if (!p)
		return NULL;
	p->pp_param[PP_KIND] = (uint64_t)kind;
	p->pp_param[PP_PERIOD] = period;
	p->pp_param[PP_COUNTER] = (uint64_t)counter;
	if (kind == PMC_SAMPLE_SRC)
		prov_set_args(p, 4, pmc_src_args);
	else if (kind == PMC_COUNTER_SRC)
		prov_set_args(p, 2, pmc_csrc_args);
	else
		prov_set_args(p, 3, pmc_args);
	return p;
}

static int
pmc_emit(struct prov_registry *r, struct prov_probe *p, const struct d_probe_desc *pd,
    d_probe_cb cb, void *arg)
{
	if (!p)
		return prov_errf(r, "out of memory");
	return prov_emit_one(p, pd, cb, arg);
}

/* Does pd name probe p by one of its aliases? */
static int
pmc_alias_match(struct prov_registry *r, const struct d_probe_desc *pd, const struct prov_probe *p)
{
	struct pmc_state *st = prov_state(r, &prov_pmc_ops);
	for (int i = 0; st && i < st->nalias; i++) {
		if (st->alias[i].pa_id != p->pp_info.dp_id)
			continue;
		struct d_probe_info pi = p->pp_info;
		pi.dp_name = st->alias[i].pa_name;
		if (prov_desc_match(pd, &pi))
			return 1;
	}
	return 0;
}

/* Existing probes matching a glob (the fixed ones and those made so far),
 * by their name or an alias, each once. */
static int
pmc_match_existing(struct prov_registry *r, const struct d_probe_desc *pd,
    d_probe_cb cb, void *arg)
{
	if (!pmc_make(r, "sample-src", PMC_SAMPLE_SRC, 0, -1) ||
	    !pmc_make(r, "counter-src", PMC_COUNTER_SRC, 0, -1))
		return prov_errf(r, "out of memory");
	int n = 0;
	for (struct prov_probe *p = NULL; (p = prov_next(r, &prov_pmc_ops, p, 0)); ) {
		if (!prov_desc_match(pd, &p->pp_info) && !pmc_alias_match(r, pd, p))
			continue;
		if (cb && cb(arg, &p->pp_info) < 0)
			return -1;
		n++;
	}
	return n;
}

static int
pmc_add_counter(struct prov_registry *r, const struct pmu_counter *c)
{
	struct pmc_state *st = prov_state_get(r, &prov_pmc_ops, sizeof(*st));
	if (!st)
		return -1;
	for (int i = 0; i < st->ncounters; i++)
		if (!strcmp(st->counters[i].canonical, c->canonical))
			return i;
	if (st->ncounters == PMC_MAX_COUNTERS)
		return prov_errf(r, "too many pmc probes (at most %d)", PMC_MAX_COUNTERS);
	st->counters[st->ncounters] = *c;
	return st->ncounters++;
}

/* The register plan is checked as each counter joins, so the compile
 * error names the probe that went over the budget. */
static int
pmc_check_plan(struct prov_registry *r)
{
	struct pmc_state *st = prov_state_get(r, &prov_pmc_ops, sizeof(*st));
	struct pmu_plan plan;
	char err[1024];
	int flags = prov_cfg(r)->pmc_multiplex ? PMU_PLAN_MULTIPLEX : 0;
	if (prov_cfg(r)->replay || !st || !st->ncounters)
		return 0;
	if (pmu_plan_as(prov_cfg(r)->pmu, "pmc:::<counter> probes, each sampling on its own",
	    st->counters, st->ncounters, flags, &plan, err, sizeof(err)) < 0)
		return prov_errf(r, "%s", err);
	return 0;
}

static int
pmc_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	/* Counter probes are made only when the provider is named: a bare
	 * "foo-10" must not be taken for a counter. */
	if (!pd->dpd_prov || strcmp(pd->dpd_prov, "pmc") ||
	    !prov_field_match(pd->dpd_mod, "") || !prov_field_match(pd->dpd_func, ""))
		return pd->dpd_prov && *pd->dpd_prov ? pmc_match_existing(r, pd, cb, arg) : 0;
	if (!pd->dpd_name || !*pd->dpd_name || prov_has_glob(pd->dpd_name) ||
	    !strcmp(pd->dpd_name, "sample-src") || !strcmp(pd->dpd_name, "counter-src"))
		return pmc_match_existing(r, pd, cb, arg);
	struct prov_probe *p = prov_find(r, "pmc", "", "", pd->dpd_name);
	if (p)
		return pmc_emit(r, p, pd, cb, arg);
	if (prov_cfg(r)->replay)
		return pmc_match_existing(r, pd, cb, arg);	/* an alias */
	char counter[128];
	uint64_t period;
	struct pmu_counter c;
	if (pmc_split_name(pd->dpd_name, counter, sizeof(counter), &period) < 0)
		return prov_errf(r, "pmc:::%s: the period must be from 1 to %lld events",
		    pd->dpd_name, (long long)INT64_MAX);
	if (pmc_resolve(r, counter, &c) < 0)
		return -1;
	if (!period)
		period = c.default_period ? c.default_period : 1000000;
	int idx = pmc_add_counter(r, &c);
	if (idx < 0 || pmc_check_plan(r) < 0)
		return -1;
	return pmc_emit(r, pmc_make(r, pd->dpd_name, PMC_SAMPLE, period, idx), pd, cb, arg);
}

static int
pmc_list_cb(void *arg, const char *name, int hw)
{
	struct prov_registry *r = arg;
	/* counters this machine cannot open are not its probes */
	if (hw && !pmu_hw_available(prov_cfg(r)->pmu) && !pmu_simulated(prov_cfg(r)->pmu))
		return 0;
	return pmc_make(r, name, PMC_SAMPLE, 0, -1) ? 0 : -1;
}

static int
pmc_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (prov_cfg(r)->pmu && !prov_cfg(r)->replay &&
	    pmu_list(prov_cfg(r)->pmu, pmc_list_cb, r) < 0)
		return prov_errf(r, "cannot list counters");
	return pmc_match_existing(r, pd, cb, arg);
}

static int
pmc_enable(struct prov_registry *r, struct smp_session *s)
{
	struct pmc_state *st = prov_state(r, &prov_pmc_ops);
	for (struct prov_probe *p = NULL; st && (p = prov_next(r, &prov_pmc_ops, p, 1)); ) {
		if (p->pp_param[PP_KIND] != PMC_SAMPLE || (int64_t)p->pp_param[PP_COUNTER] < 0)
			continue;
		struct smp_event_spec sp;
		int evidx;
		/* recorded under its full probe name, which a replay gives back
		 * unchanged (pmc:::task-clock has no period in its name) */
		char evname[128];
		snprintf(evname, sizeof(evname), "pmc:::%s", p->pp_info.dp_name);
		prov_sample_spec(r, &sp, &st->counters[p->pp_param[PP_COUNTER]].attr,
		    PERF_SAMPLE_PERIOD, evname, &prov_pmc_ops, p->pp_info.dp_id);
		sp.attr.sample_period = p->pp_param[PP_PERIOD];
		sp.attr.freq = 0;
		if (smp_add_event(s, &sp, &evidx) < 0)
			return prov_errf(r, "%s", smp_errmsg(s));
		st->probe_of[p->pp_param[PP_COUNTER]] = p->pp_info.dp_id;
	}
	return 0;
}

/* A recorded event's probe name: "cycles:ppp" -> "cycles",
 * "cpu_core/cycles/" -> "cpu_core.cycles"; ':' and '/' cannot appear in
 * a probe name. */
static void
pmc_file_name(const char *evname, char *out, size_t len)
{
	size_t j = 0;
	for (const char *p = evname; *p && j + 1 < len; p++) {
		if (*p == ':')
			break;
		if (*p == '/') {
			if (p[1] && p[1] != ':' && j)
				out[j++] = '.';
			continue;
		}
		out[j++] = isspace((unsigned char)*p) ? '_' : *p;
	}
	out[j] = '\0';
}

/* "cycles" at period 20003 is probe cycles-20003; a name pmctrace
 * recorded already ends in its period ("cycles-20003") and is kept. */
static void
pmc_probe_name(const char *name, const struct perf_event_attr *a, char *out, size_t len)
{
	char suffix[32];
	size_t n = strlen(name), k;
	if (a->freq || !a->sample_period) {
		snprintf(out, len, "%s", name);
		return;
	}
	k = (size_t)snprintf(suffix, sizeof(suffix), "-%llu", (unsigned long long)a->sample_period);
	if (n > k && !strcmp(name + n - k, suffix))
		snprintf(out, len, "%s", name);
	else
		snprintf(out, len, "%s%s", name, suffix);
}

struct pmc_alias_search {
	struct prov_registry *r;
	const struct perf_event_attr *attr;
	uint32_t id;
};

static int
pmc_alias_cb(void *arg, const char *alias)
{
	struct pmc_alias_search *as = arg;
	struct pmc_state *st = prov_state_get(as->r, &prov_pmc_ops, sizeof(*st));
	char name[96];
	if (!st)
		return -1;
	pmc_probe_name(alias, as->attr, name, sizeof(name));
	if (prov_find(as->r, "pmc", "", "", name))
		return 0;	/* a recorded event of that name is its own probe */
	for (int i = 0; i < st->nalias; i++)
		if (st->alias[i].pa_id == as->id && !strcmp(st->alias[i].pa_name, name))
			return 0;
	if (st->nalias == PMC_MAX_ALIASES)
		return 0;
	snprintf(st->alias[st->nalias].pa_name, sizeof(st->alias[0].pa_name), "%s", name);
	st->alias[st->nalias++].pa_id = as->id;
	return 0;
}

static int
pmc_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
	const struct perf_event_attr *a = &ev->attr;
	char name[128], probe[160];
	if (a->type == PERF_TYPE_TRACEPOINT ||
	    (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY))
		return 0;
	if (!a->freq && !a->sample_period)
		return 0;	/* read in a group, never sampled: no firings */
	if (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_BPF_OUTPUT)
		return 0;	/* records a BPF program wrote, not a counter's samples */
	if (prov_claimed_own(r, evidx))
		return 0;	/* pmctrace recorded it for another provider's probe */
	int own = ev->name && !strncmp(ev->name, "pmc:::", 6) && ev->name[6];
	if (own) {	/* pmctrace recorded it: the probe that made it */
		snprintf(probe, sizeof(probe), "%s", ev->name + 6);
	} else {
		pmc_file_name(ev->name ? ev->name : "event", name, sizeof(name));
		pmc_probe_name(name, a, probe, sizeof(probe));
	}
	struct prov_probe *p = pmc_make(r, probe, PMC_SAMPLE, a->freq ? 0 : a->sample_period, -1);
	if (!p)
		return prov_errf(r, "out of memory");
	if ((own ? prov_claim_own : prov_claim)(r, evidx, &prov_pmc_ops, p->pp_info.dp_id) < 0)
		return -1;
	/* also under the seed's names: branch-misses is branchmispredictions */
	struct pmc_alias_search as = { r, a, p->pp_info.dp_id };
	if (prov_cfg(r)->pmu && pmu_generic_aliases(prov_cfg(r)->pmu, a, pmc_alias_cb, &as) < 0)
		return -1;
	return 0;
}

static int
pmc_fire_src(struct prov_registry *r, int at_end, prov_fire_fn fire, void *arg)
{
	struct prov_probe *src = prov_find(r, "pmc", "", "", "sample-src");
	if (!src || !prov_is_enabled(r, src->pp_info.dp_id))
		return 0;
	uint64_t srcid = 0;
	for (struct prov_probe *p = NULL; (p = prov_next(r, &prov_pmc_ops, p, 1)); ) {
		if (p->pp_param[PP_KIND] != PMC_SAMPLE)
			continue;
		struct d_firing f;
		memset(&f, 0, sizeof(f));
		f.df_probe = src->pp_info.dp_id;
		f.df_args[0] = srcid++;
		f.df_args[1] = (uint64_t)(uintptr_t)p->pp_info.dp_name;
		f.df_args[2] = at_end ? 0 : p->pp_param[PP_PERIOD];
		f.df_args[3] = at_end ? p->pp_param[PP_PERIOD] : 0;
		f.df_nargs = 4;
		int rc = fire(arg, &f);
		if (rc)
			return rc;
	}
	return 0;
}

static int
pmc_fire_counter_src(struct prov_registry *r, prov_fire_fn fire, void *arg)
{
	struct prov_probe *src = prov_find(r, "pmc", "", "", "counter-src");
	if (!src || !prov_is_enabled(r, src->pp_info.dp_id))
		return 0;
	const char *const *names;
	int n = prov_group_counters(r, &names);
	char list[16 * 130] = "";
	for (int i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
		    i ? "," : "", names[i]);
	struct d_firing f;
	memset(&f, 0, sizeof(f));
	f.df_probe = src->pp_info.dp_id;
	f.df_args[0] = (uint64_t)n;
	f.df_args[1] = (uint64_t)(uintptr_t)list;
	f.df_nargs = 2;
	return fire(arg, &f);
}

static int
pmc_start(struct prov_registry *r, prov_fire_fn fire, void *arg)
{
	int rc = pmc_fire_src(r, 0, fire, arg);
	return rc ? rc : pmc_fire_counter_src(r, fire, arg);
}

static int
pmc_end(struct prov_registry *r, prov_fire_fn fire, void *arg)
{
	return pmc_fire_src(r, 1, fire, arg);
}

static int
pmc_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	if (rec->type != PERF_RECORD_SAMPLE)
		return 0;
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	struct prov_probe *p = prov_by_id(r, (uint32_t)cookie);
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_probe = (uint32_t)cookie;
	f.df_args[0] = rec->ip;
	f.df_args[1] = (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER;
	f.df_args[2] = rec->period ? rec->period : (p ? p->pp_param[PP_PERIOD] : 0);
	f.df_nargs = 3;
	return fire(arg, &f);
}

const struct prov_ops prov_pmc_ops = {
	.po_name = "pmc", .po_list = pmc_list, .po_match = pmc_match,
	.po_enable = pmc_enable, .po_claim = pmc_claim, .po_start = pmc_start,
	.po_end = pmc_end, .po_decode = pmc_decode,
};
