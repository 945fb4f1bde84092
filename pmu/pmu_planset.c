/*
 * pmu_planset.c — the sets of counters a script plans, and saying how
 * they sit on the registers (-x pmcplan).
 *
 * Providers plan each set of counters that is opened or read together
 * (the pmc::: sampling counters, the counters sched::pmc: reads at each
 * switch, those isr/dpc read per handler) every time one joins; the last
 * plan of each set is kept here, so that the report shows what the
 * compiled script needs.  Sets are opened side by side: each must fit on
 * its own (else the compile failed), and when all of them together do not,
 * the kernel time-shares (multiplexes) them on the real machine.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

#include "pmu/pmu_impl.h"

void
pmu_plan_sets_free(struct pmu_ctx *p)
{
	for (int i = 0; i < p->pc_nsets; i++)
		free(p->pc_sets[i].ps_c);
	p->pc_nsets = 0;
}

static void
pmu_plan_remember(struct pmu_ctx *p, const char *label, const struct pmu_counter *c,
    int n, int flags)
{
	struct pmu_planset *s = NULL;
	for (int i = 0; i < p->pc_nsets && !s; i++)
		if (p->pc_sets[i].ps_key == c)
			s = &p->pc_sets[i];
	if (!s) {
		if (p->pc_nsets == (int)(sizeof(p->pc_sets) / sizeof(p->pc_sets[0])))
			return;
		s = &p->pc_sets[p->pc_nsets++];
		memset(s, 0, sizeof(*s));
		s->ps_key = c;
	}
	struct pmu_counter *copy = malloc((size_t)(n > 0 ? n : 1) * sizeof(*copy));
	if (!copy)
		return;
	memcpy(copy, c, (size_t)n * sizeof(*copy));
	free(s->ps_c);
	s->ps_c = copy;
	s->ps_n = n;
	s->ps_flags = flags;
	if (label || !s->ps_label[0])
		snprintf(s->ps_label, sizeof(s->ps_label), "%s",
		    label ? label : "counters planned together");
}

int
pmu_plan_as(struct pmu_ctx *p, const char *label, const struct pmu_counter *c,
    int n, int flags, struct pmu_plan *out, char *err, size_t errlen)
{
	if (!p || !out || n < 0 || (n > 0 && !c))
		return -EINVAL;
	for (int i = 0; !p->pc_simulated && i < n; i++) {
		if (!c[i].is_hardware || pmu_hw_available(p))
			continue;
		memset(out, 0, sizeof(*out));
		if (err && errlen)
			pmu_explain_unavailable(p, c[i].name, err, errlen);
		return -ENODEV;
	}
	int rc = pmu_plan_budget(&p->pc_budget, c, n, flags, out, err, errlen);
	if (rc == 0 && p->pc_nbudgets == 2) {
		struct pmu_plan other;
		rc = pmu_plan_budget(&p->pc_budget2, c, n, flags, &other, err, errlen);
		/* the split with more groups fits both core types */
		if (rc == 0 && other.ngroups > out->ngroups)
			*out = other;
	}
	if (rc == 0 && n > 0)
		pmu_plan_remember(p, label, c, n, flags);
	return rc;
}

int
pmu_check_hw(struct pmu_ctx *p, const struct pmu_counter *c, int check_only,
    char *err, size_t errlen)
{
	if (!p || !c)
		return -EINVAL;
	if (!c->is_hardware || (check_only && p->pc_simulated) || pmu_hw_available(p))
		return 0;
	if (err && errlen) {
		int l = pmu_explain_unavailable(p, c->name, err, errlen);
		/* planning for a named model does not need this machine's PMU */
		if (p->pc_simulated && l > 0 && (size_t)l < errlen)
			snprintf(err + l, errlen - (size_t)l, "; -e checks the program for %s "
			    "without one", p->pc_model);
	}
	return -ENODEV;
}

/* ---- the report -------------------------------------------------------- */

static const struct pmu_budget *
pmu_budget_at(const struct pmu_ctx *p, int k)
{
	return k == 0 ? &p->pc_budget : &p->pc_budget2;
}

static void
pmu_report_budget_line(const struct pmu_budget *b, FILE *out)
{
	int split = b->pb_hw && b->pb_hw->hb_gp != b->pb_hw->hb_gp_smt;
	fprintf(out, "  %s: %d general-purpose%s + %d fixed counters per logical CPU%s\n",
	    b->pb_name, b->pb_gp, split ? (b->pb_smt ? " (SMT on)" : " (SMT off)") : "",
	    b->pb_fixed, b->pb_watchdog ? ", 1 held by the NMI watchdog" : "");
	if (b->pb_known)
		fprintf(out, "    source: %s\n", b->pb_gp_src);
}

static int
pmu_name_width(const struct pmu_planset *s, int canonical)
{
	int w = canonical ? 5 : 7;
	for (int i = 0; i < s->ps_n; i++) {
		int l = (int)strlen(canonical ? s->ps_c[i].canonical : s->ps_c[i].name);
		w = l > w ? l : w;
	}
	return w;
}

static void
pmu_report_set(const struct pmu_ctx *p, int idx, const struct pmu_planset *s, FILE *out)
{
	char (*where[2])[24] = { NULL, NULL };
	int gp[2] = { 0, 0 }, fx[2] = { 0, 0 }, fits[2] = { 1, 1 };
	int wn = pmu_name_width(s, 0), wc = pmu_name_width(s, 1);

	fprintf(out, "\n  set %d: %s, %d counter%s\n", idx, s->ps_label, s->ps_n,
	    s->ps_n == 1 ? "" : "s");
	for (int k = 0; k < p->pc_nbudgets; k++) {
		where[k] = calloc((size_t)s->ps_n, sizeof(*where[k]));
		if (!where[k])
			goto out;
		fits[k] = pmu_plan_places(pmu_budget_at(p, k), s->ps_c, s->ps_n, where[k],
		    &gp[k], &fx[k]);
	}
	fprintf(out, "    %-*s  %-*s", wn, "counter", wc, "event");
	for (int k = 0; k < p->pc_nbudgets; k++)
		fprintf(out, k + 1 < p->pc_nbudgets ? "  %-18s" : "  %s",
		    p->pc_nbudgets == 2 ? pmu_budget_at(p, k)->pb_hw->hb_id : "register");
	fputc('\n', out);
	for (int i = 0; i < s->ps_n; i++) {
		fprintf(out, "    %-*s  %-*s", wn, s->ps_c[i].name, wc, s->ps_c[i].canonical);
		for (int k = 0; k < p->pc_nbudgets; k++)
			fprintf(out, k + 1 < p->pc_nbudgets ? "  %-18s" : "  %s", where[k][i]);
		fputc('\n', out);
	}
	for (int k = 0; k < p->pc_nbudgets; k++) {
		const struct pmu_budget *b = pmu_budget_at(p, k);
		fprintf(out, "    %s%suses %d of %d general-purpose and %d of %d fixed: %s\n",
		    p->pc_nbudgets == 2 ? b->pb_name : "", p->pc_nbudgets == 2 ? ": " : "",
		    gp[k], b->pb_gp, fx[k], b->pb_fixed,
		    fits[k] ? "fits" : (s->ps_flags & PMU_PLAN_MULTIPLEX) ?
		    "multiplexed in turns (-x pmcmultiplex)" : "does not fit");
	}
out:
	free(where[0]);
	free(where[1]);
}

/* All sets at once: do they fit together, or would the kernel multiplex? */
static void
pmu_report_together(const struct pmu_ctx *p, FILE *out)
{
	int n = 0;
	for (int i = 0; i < p->pc_nsets; i++)
		n += p->pc_sets[i].ps_n;
	struct pmu_counter *all = calloc((size_t)n, sizeof(*all));
	char (*where)[24] = calloc((size_t)n, sizeof(*where));
	if (!all || !where)
		goto out;
	for (int i = 0, o = 0; i < p->pc_nsets; o += p->pc_sets[i].ps_n, i++)
		memcpy(all + o, p->pc_sets[i].ps_c, (size_t)p->pc_sets[i].ps_n * sizeof(*all));
	fprintf(out, "\n  all %d sets at once:\n", p->pc_nsets);
	for (int k = 0; k < p->pc_nbudgets; k++) {
		const struct pmu_budget *b = pmu_budget_at(p, k);
		int gp, fx, fits = pmu_plan_places(b, all, n, where, &gp, &fx);
		fprintf(out, "    %s%s%d general-purpose of %d and %d fixed of %d: %s\n",
		    p->pc_nbudgets == 2 ? b->pb_name : "", p->pc_nbudgets == 2 ? ": " : "",
		    gp, b->pb_gp, fx, b->pb_fixed, fits ? "fit, no multiplexing" :
		    "do not fit together; the kernel would multiplex (time-share) the sets "
		    "and scale their counts");
	}
out:
	free(all);
	free(where);
}

int
pmu_plan_report(struct pmu_ctx *p, FILE *out)
{
	if (!p || !out)
		return -EINVAL;
	fprintf(out, "pmc plan for %s%s%s%s\n", p->pc_simulated ? p->pc_model : "this machine",
	    p->pc_simulated ? " (" : "", p->pc_simulated ? p->pc_budget.pb_name : "",
	    p->pc_simulated ? ")" : "");
	for (int k = 0; k < p->pc_nbudgets; k++)
		pmu_report_budget_line(pmu_budget_at(p, k), out);
	if (p->pc_nsets == 0)
		fprintf(out, "\n  the script counts nothing on a PMU register\n");
	for (int i = 0; i < p->pc_nsets; i++)
		pmu_report_set(p, i + 1, &p->pc_sets[i], out);
	if (p->pc_nsets > 1)
		pmu_report_together(p, out);
	return ferror(out) ? -EIO : 0;
}
