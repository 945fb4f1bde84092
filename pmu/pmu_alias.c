/*
 * pmu_alias.c — the friendly names of a recorded event.
 *
 * A perf.data file recorded elsewhere carries perf's generic hardware
 * events (type PERF_TYPE_HARDWARE); the hwdb's machine-independent ("*")
 * aliases name the same events, so a replay can offer
 * pmc:::branchmispredictions-N for a recorded branch-misses event whatever
 * this machine's own PMU is.
 */
#include <string.h>

#include "pmu/hwdb.h"
#include "pmu/pmu.h"

int
pmu_generic_aliases(struct pmu_ctx *p, const struct perf_event_attr *attr,
    int (*cb)(void *arg, const char *alias), void *arg)
{
	int n = 0;
	if (attr->type != PERF_TYPE_HARDWARE && attr->type != PERF_TYPE_SOFTWARE &&
	    attr->type != PERF_TYPE_HW_CACHE)
		return 0;
	for (int i = 0; i < hwdb_naliases; i++) {
		const struct hwdb_alias *a = &hwdb_aliases[i];
		struct pmu_counter c;
		char err[256];
		if (strcmp(a->ha_scope, "*") || !strcmp(a->ha_target, "none"))
			continue;
		if (pmu_resolve(p, a->ha_target, &c, err, sizeof(err)) < 0)
			continue;
		if (c.attr.type != attr->type || c.attr.config != attr->config)
			continue;
		n++;
		if (cb(arg, a->ha_name) < 0)
			return -1;
	}
	return n;
}
