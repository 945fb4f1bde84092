/*
 * profile.c — profile-N[unit] on every CPU, tick-N[unit] on one CPU.
 *
 * Both are perf cpu-clock events sampling every period nanoseconds; the
 * kernel fires them from an hrtimer, idle or not, like DTrace's cyclics.
 * arg0 is the kernel PC or 0, arg1 the user PC or 0 (DTrace's convention).
 * Replaying a file, an event pmctrace recorded for profile-997 or tick-1s
 * is that probe again; any other cpu-clock or task-clock event becomes
 * profile-<freq> (or profile-<period>ns) so that 'profile-*' finds it.
 * sample-N[unit] (the seeds' name: "triggers for every sample") is another
 * name of profile-N[unit], not a probe of its own: it names that probe, so
 * a clause on both fires once per sample.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "providers/prov_kit.h"

#define PROFILE_MIN_NS	10000ull	/* 100 kHz: faster starves the machine */

enum { PP_PERIOD, PP_TICK };

static const char *const profile_args[] = { "uint64_t", "uint64_t" };
static const char *const profile_listed[] = {
	"profile-97", "profile-199", "profile-499", "profile-997", "profile-1999",
	"profile-4001", "profile-4999", "tick-1", "tick-10", "tick-100",
	"tick-500", "tick-1000", "tick-5000", "tick-1s", "tick-10s",
};

struct profile_unit {
	const char *name;
	uint64_t ns;		/* 0 = hertz */
};
static const struct profile_unit profile_units[] = {
	{ "", 0 }, { "hz", 0 },
	{ "ns", 1 }, { "nsec", 1 },
	{ "us", 1000 }, { "usec", 1000 },
	{ "ms", 1000000 }, { "msec", 1000000 },
	{ "s", 1000000000ull }, { "sec", 1000000000ull },
	{ "m", 60000000000ull }, { "min", 60000000000ull },
	{ "h", 3600000000000ull }, { "hour", 3600000000000ull },
	{ "d", 86400000000000ull }, { "day", 86400000000000ull },
};

/* "profile-997" / "tick-5ms" -> period in ns; 0 if not a profile name,
 * UINT64_MAX if the name is ours but the rate is out of range. */
static uint64_t
profile_parse(const char *name, int *tick)
{
	const char *p;
	if (!strncmp(name, "profile-", 8)) {
		*tick = 0;
		p = name + 8;
	} else if (!strncmp(name, "tick-", 5)) {
		*tick = 1;
		p = name + 5;
	} else {
		return 0;
	}
	if (!isdigit((unsigned char)*p))
		return 0;
	char *end;
	unsigned long long v = strtoull(p, &end, 10);
	for (size_t i = 0; i < sizeof(profile_units) / sizeof(profile_units[0]); i++) {
		if (strcmp(end, profile_units[i].name))
			continue;
		if (v == 0)
			return UINT64_MAX;
		uint64_t ns = profile_units[i].ns ? v * profile_units[i].ns : 1000000000ull / v;
		return ns < PROFILE_MIN_NS ? UINT64_MAX : ns;
	}
	return 0;
}

static int profile_match(struct prov_registry *r, const struct d_probe_desc *pd,
    d_probe_cb cb, void *arg);

static struct prov_probe *
profile_make(struct prov_registry *r, const char *name, uint64_t ns, int tick)
{
	struct prov_probe *p = prov_add(r, &prov_profile_ops, "", "", name);
	if (!p)
		return NULL;
	p->pp_param[PP_PERIOD] = ns;
	p->pp_param[PP_TICK] = (uint64_t)tick;
	prov_set_args(p, 2, profile_args);
	return p;
}

static int
profile_emit_if(struct prov_registry *r, struct prov_probe *p,
    const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (!p)
		return prov_errf(r, "out of memory");
	return prov_emit_one(p, pd, cb, arg);
}

static int
profile_list(struct prov_registry *r, const struct d_probe_desc *pd,
    d_probe_cb cb, void *arg)
{
	int n = 0;
	if (prov_cfg(r)->replay)	/* only the probes the file's events became */
		return prov_emit_matching(r, &prov_profile_ops, pd, cb, arg);
	for (size_t i = 0; i < sizeof(profile_listed) / sizeof(profile_listed[0]); i++) {
		int tick;
		uint64_t ns = profile_parse(profile_listed[i], &tick);
		int rc = profile_emit_if(r, profile_make(r, profile_listed[i], ns, tick), pd, cb, arg);
		if (rc < 0)
			return -1;
		n += rc;
	}
	return n;
}

/* sample-N is profile-N: a description naming sample-... (a glob too)
 * is handed on as profile-...; probes keep their profile- name. */
static int
profile_match_sample(struct prov_registry *r, const struct d_probe_desc *pd,
    d_probe_cb cb, void *arg)
{
	char name[128];
	struct d_probe_desc pd2 = *pd;
	snprintf(name, sizeof(name), "profile-%s", pd->dpd_name + 7);
	pd2.dpd_name = name;
	return profile_match(r, &pd2, cb, arg);
}

static int
profile_match(struct prov_registry *r, const struct d_probe_desc *pd,
    d_probe_cb cb, void *arg)
{
	if (!prov_field_match(pd->dpd_mod, "") || !prov_field_match(pd->dpd_func, ""))
		return 0;
	if (pd->dpd_name && !strncmp(pd->dpd_name, "sample-", 7))
		return profile_match_sample(r, pd, cb, arg);
	if (prov_has_glob(pd->dpd_name) || !pd->dpd_name || !*pd->dpd_name)
		return profile_list(r, pd, cb, arg);
	int tick;
	uint64_t ns = profile_parse(pd->dpd_name, &tick);
	if (ns == 0)
		return 0;
	if (ns == UINT64_MAX)	/* DTrace: a rate out of range names no probe */
		return 0;
	if (prov_cfg(r)->replay) {
		struct prov_probe *p = prov_find(r, "profile", "", "", pd->dpd_name);
		return p ? profile_emit_if(r, p, pd, cb, arg) : 0;
	}
	return profile_emit_if(r, profile_make(r, pd->dpd_name, ns, tick), pd, cb, arg);
}

static int
profile_first_cpu(void)
{
	int cpus[1];
	return smp_online_cpus(cpus, 1) > 0 ? cpus[0] : 0;
}

static int
profile_enable(struct prov_registry *r, struct smp_session *s)
{
	for (struct prov_probe *p = NULL; (p = prov_next(r, &prov_profile_ops, p, 1)); ) {
		struct smp_event_spec sp;
		int evidx;
		prov_sample_spec(r, &sp, NULL, 0, p->pp_info.dp_name, &prov_profile_ops,
		    p->pp_info.dp_id);
		sp.attr.type = PERF_TYPE_SOFTWARE;
		sp.attr.config = PERF_COUNT_SW_CPU_CLOCK;
		sp.attr.sample_period = p->pp_param[PP_PERIOD];
		sp.scope = p->pp_param[PP_TICK] ? SMP_ONE_CPU : SMP_EACH_CPU;
		sp.cpu = p->pp_param[PP_TICK] ? profile_first_cpu() : -1;
		if (smp_add_event(s, &sp, &evidx) < 0)
			return prov_errf(r, "%s", smp_errmsg(s));
	}
	return 0;
}

static int
profile_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
	if (ev->attr.type != PERF_TYPE_SOFTWARE ||
	    (ev->attr.config != PERF_COUNT_SW_CPU_CLOCK && ev->attr.config != PERF_COUNT_SW_TASK_CLOCK))
		return 0;
	if (!ev->attr.freq && !ev->attr.sample_period)
		return 0;	/* a counter read in a group (sched::pmc:), not a timer */
	if (ev->name && strstr(ev->name, ":::"))
		return 0;	/* pmctrace recorded it for another provider's probe */
	char name[64];
	int tick;
	uint64_t ns = ev->name ? profile_parse(ev->name, &tick) : 0;
	if (ns && ns != UINT64_MAX) {
		/* pmctrace recorded it: the probe keeps the name the script used */
		struct prov_probe *p = profile_make(r, ev->name, ns, tick);
		if (!p)
			return prov_errf(r, "out of memory");
		return prov_claim_own(r, evidx, &prov_profile_ops, p->pp_info.dp_id);
	}
	if (ev->attr.freq) {
		snprintf(name, sizeof(name), "profile-%llu", (unsigned long long)ev->attr.sample_freq);
		ns = ev->attr.sample_freq ? 1000000000ull / ev->attr.sample_freq : 0;
	} else {
		snprintf(name, sizeof(name), "profile-%lluns", (unsigned long long)ev->attr.sample_period);
		ns = ev->attr.sample_period;
	}
	struct prov_probe *p = profile_make(r, name, ns, 0);
	if (!p)
		return prov_errf(r, "out of memory");
	return prov_claim(r, evidx, &prov_profile_ops, p->pp_info.dp_id);
}

static int
profile_decode(struct prov_registry *r, const struct smp_record *rec,
    uint64_t cookie, prov_fire_fn fire, void *arg)
{
	if (rec->type != PERF_RECORD_SAMPLE)
		return 0;
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_probe = (uint32_t)cookie;
	int user = (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER;
	f.df_args[0] = user ? 0 : rec->ip;
	f.df_args[1] = user ? rec->ip : 0;
	f.df_nargs = 2;
	return fire(arg, &f);
}

const struct prov_ops prov_profile_ops = {
	.po_name = "profile", .po_list = profile_list, .po_match = profile_match,
	.po_enable = profile_enable, .po_claim = profile_claim, .po_decode = profile_decode,
};
