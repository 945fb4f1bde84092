/*
 * pmuopt.c — naming the machine a script is planned for: -x pmumodel=NAME,
 * -x pmusmt=on|off, -x pmcplan, and --hw for such a model.
 *
 * With a model named, -e and -l resolve counter names by that model's
 * tables and plan them against its register budget on any machine (one
 * without a PMU too); only opening counters needs the hardware.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_impl.h"

/* 1 when x is one of ours (and sets it), else 0. */
int
cli_pmu_option(const char *x, struct pmu_target *t, int *plan)
{
	if (!strcmp(x, "pmcplan")) {
		*plan = 1;
		return 1;
	}
	if (!strncmp(x, "pmumodel=", 9)) {
		t->model = x + 9;
		return 1;
	}
	if (!strncmp(x, "pmusmt=", 7)) {
		const char *v = x + 7;
		t->smt = !strcmp(v, "on") || !strcmp(v, "1") ? 1 :
		    !strcmp(v, "off") || !strcmp(v, "0") ? 0 : -2;
		return 1;
	}
	return 0;
}

/* pmu/'s log is detail; its last line says why a model was refused. */
static void
cli_pmu_last(void *arg, const char *msg)
{
	snprintf(arg, 256, "%s", msg);
}

/*
 * The pmu context for a run.  Without -x pmumodel it is optional (only
 * pmc needs it); a model that is named must exist, so a typo does not
 * quietly plan for this machine instead.
 */
int
cli_open_pmu(const struct cli_opts *o, struct pmu_target *t, struct pmu_ctx **out)
{
	int err = 0;
	static char last[256];	/* the context keeps the logger */
	if (t->smt == -2) {
		fprintf(stderr, "%s: failed to set -x pmusmt: want on or off\n", o->progname);
		return -1;
	}
	if (t->model && !t->model[0]) {
		fprintf(stderr, "%s: failed to set -x pmumodel: a model name is required "
		    "(pmctrace --hw -x pmumodel=list lists them)\n", o->progname);
		return -1;
	}
	*out = pmu_open_target(t, cli_pmu_last, last, &err);
	if (!*out && t->model) {
		fprintf(stderr, "%s: failed to set -x pmumodel: %s\n", o->progname,
		    strncmp(last, "pmu: ", 5) == 0 ? last + 5 : strerror(-err));
		return -1;
	}
	return 0;
}

/*
 * Replaying: the machine the file was recorded on (its header's CPUID, PMU
 * mappings and caps) names the counters and plans, unless -x pmumodel
 * names another; a header that matches no model leaves this machine's.
 */
int
cli_open_pmu_replay(const struct cli_opts *o, struct pmu_target *t,
    const struct smp_session *smp, struct pmu_ctx **out)
{
	if (t->model)
		return cli_open_pmu(o, t, out);
	struct pmu_recording rec;
	int err = 0;
	memset(&rec, 0, sizeof(rec));
	rec.cpuid = smp_file_str(smp, SMP_FEAT_CPUID);
	rec.pmu_mappings = smp_file_feature(smp, SMP_FEAT_PMU_MAPPINGS, &rec.pmu_mappings_len);
	rec.pmu_caps = smp_file_feature(smp, SMP_FEAT_PMU_CAPS, &rec.pmu_caps_len);
	rec.cpu_pmu_caps = smp_file_feature(smp, SMP_FEAT_CPU_PMU_CAPS, &rec.cpu_pmu_caps_len);
	*out = pmu_open_recording(&rec, NULL, NULL, &err);
	return *out ? 0 : cli_open_pmu(o, t, out);
}
