/*
 * pmu_plan.c — fitting counters into one logical CPU's registers.
 *
 * Model of the hardware: pb_gp general-purpose counters take any event
 * whose gp_mask allows them (hwdb/constraints.txt: events the vendor
 * restricts to some counters); fixed counter i counts exactly one event
 * (pb_fixed_cfg[i], or the perf generic name the kernel maps there).  An
 * event that matches a free fixed counter costs no general-purpose one;
 * when that fixed counter is taken it falls back to a general-purpose
 * counter, except the fixed-only ones (Intel's pseudo-encodings with event
 * select 0: 0x0100, 0x0300 ref-cycles, 0x0400 slots, and the *fixed
 * aliases).  Fixed-only events are placed first, then the other fixed
 * candidates, then general-purpose counters by bipartite matching, most
 * constrained first.  Software counters cost nothing.  The NMI watchdog
 * is a pinned cycles event: it holds the cycles fixed counter where there
 * is one (Intel, Arm) and a general-purpose counter otherwise (AMD).  A
 * hybrid opens each counter on both core types, so a set must fit both.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu_impl.h"

#define PMU_WATCHDOG	(-2)	/* a register held by the NMI watchdog */
#define PMU_MAX_GP	32

struct pmu_fit {
	int gp_used;			/* general-purpose demand, watchdog included */
	int fixed_owner[PMU_MAX_FIXED];	/* -1 free, PMU_WATCHDOG, or counter index */
	int gp_owner[PMU_MAX_GP];	/* the same per general-purpose counter */
	int conflict;			/* counter that needed a held fixed counter */
	int conflict_slot;
	int unplaced;			/* a counter no allowed GP counter was left for */
};

static const char *
pmu_generic_hw_name(uint64_t config)
{
	switch (config & 0xffffffffULL) {
	case PERF_COUNT_HW_CPU_CYCLES:		return "cycles";
	case PERF_COUNT_HW_INSTRUCTIONS:	return "instructions";
	case PERF_COUNT_HW_REF_CPU_CYCLES:	return "ref-cycles";
	default:				return NULL;
	}
}

/* Which fixed counter can count c, or -1; *cfg = the config it matched. */
static int
pmu_fixed_match(const struct pmu_budget *b, const struct pmu_counter *c, uint64_t *cfg)
{
	const char *gen = c->attr.type == PERF_TYPE_HARDWARE ?
	    pmu_generic_hw_name(c->attr.config) : NULL;

	for (int i = 0; i < b->pb_fixed && i < PMU_MAX_FIXED; i++) {
		if (gen && strcmp(b->pb_fixed_generic[i], gen) == 0) {
			*cfg = b->pb_fixed_cfg[i][0];
			return i;
		}
		for (int k = 0; c->attr.type == PERF_TYPE_RAW && k < PMU_MAX_FIXED_ALT &&
		    b->pb_fixed_cfg[i][k]; k++) {
			if (c->attr.config == b->pb_fixed_cfg[i][k]) {
				*cfg = b->pb_fixed_cfg[i][k];
				return i;
			}
		}
	}
	return -1;
}

int
pmu_fixed_slot(const struct pmu_budget *b, const struct pmu_counter *c)
{
	uint64_t cfg;
	return pmu_fixed_match(b, c, &cfg);
}

/*
 * Intel's encodings with event select 0 (0x0100, 0x0200, 0x0300, 0x0400)
 * name a fixed counter and exist nowhere else.
 */
int
pmu_fixed_only(const struct pmu_budget *b, const struct pmu_counter *c)
{
	uint64_t cfg = 0;
	int slot = pmu_fixed_match(b, c, &cfg);
	return slot >= 0 && strcmp(b->pb_vendor, "intel") == 0 && (cfg & 0xff) == 0;
}

static int
pmu_cycles_slot(const struct pmu_budget *b)
{
	for (int i = 0; i < b->pb_fixed && i < PMU_MAX_FIXED; i++)
		if (strcmp(b->pb_fixed_generic[i], "cycles") == 0)
			return i;
	return -1;
}

static int
pmu_gp_count(const struct pmu_budget *b)
{
	return b->pb_gp < PMU_MAX_GP ? b->pb_gp : PMU_MAX_GP;
}

/* The general-purpose counters c may use on b (bit j = counter j). */
static uint64_t
pmu_gp_allowed(const struct pmu_budget *b, const struct pmu_counter *c)
{
	int n = pmu_gp_count(b);
	uint64_t all = n >= 64 ? ~0ULL : (1ULL << n) - 1;
	return c->gp_mask ? c->gp_mask & all : all;
}

/* Kuhn's augmenting path: give counter i a general-purpose counter,
 * moving earlier holders to other allowed ones. */
static int
pmu_gp_augment(const struct pmu_budget *b, const struct pmu_counter *c, struct pmu_fit *f,
    int i, uint64_t *seen)
{
	uint64_t allowed = pmu_gp_allowed(b, &c[i]);
	/* a free counter first, so that nobody moves without need */
	for (int j = 0; j < pmu_gp_count(b); j++) {
		if ((allowed >> j & 1) && f->gp_owner[j] == -1) {
			f->gp_owner[j] = i;
			return 1;
		}
	}
	for (int j = 0; j < pmu_gp_count(b); j++) {
		if (!(allowed >> j & 1) || (*seen >> j & 1) || f->gp_owner[j] == PMU_WATCHDOG)
			continue;
		*seen |= 1ULL << j;
		if (f->gp_owner[j] < 0 || pmu_gp_augment(b, c, f, f->gp_owner[j], seen)) {
			f->gp_owner[j] = i;
			return 1;
		}
	}
	return 0;
}

static void
pmu_fit_init(const struct pmu_budget *b, struct pmu_fit *f)
{
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < PMU_MAX_FIXED; i++)
		f->fixed_owner[i] = -1;
	for (int j = 0; j < PMU_MAX_GP; j++)
		f->gp_owner[j] = -1;
	f->conflict = f->unplaced = -1;
	if (b->pb_watchdog) {
		int cs = pmu_cycles_slot(b);
		if (cs >= 0)
			f->fixed_owner[cs] = PMU_WATCHDOG;
		else if (pmu_gp_count(b) > 0)
			f->gp_owner[pmu_gp_count(b) - 1] = PMU_WATCHDOG;
		if (cs < 0)
			f->gp_used = 1;
	}
}

/* Fixed counters: the fixed-only events, then those that may use one. */
static void
pmu_fit_fixed(const struct pmu_budget *b, const struct pmu_counter *c, int first,
    int count, struct pmu_fit *f, int *wants_gp)
{
	for (int pass = 2; pass >= 1; pass--) {
		for (int i = first; i < first + count; i++) {
			if (!c[i].is_hardware || (pass == 2) != (c[i].fixed_capable == 2))
				continue;
			int slot = pmu_fixed_slot(b, &c[i]);
			if (slot >= 0 && f->fixed_owner[slot] == -1) {
				f->fixed_owner[slot] = i;
				continue;
			}
			if (c[i].fixed_capable == 2) {
				if (f->conflict < 0) {
					f->conflict = i;
					f->conflict_slot = slot;
				}
				continue;
			}
			wants_gp[i - first] = 1;
		}
	}
}

/* Whether counters [first, first+count) fit at once; f says where each sits. */
static int
pmu_fit(const struct pmu_budget *b, const struct pmu_counter *c, int first,
    int count, struct pmu_fit *f)
{
	int *wants_gp = calloc((size_t)(count > 0 ? count : 1), sizeof(int));
	pmu_fit_init(b, f);
	if (!wants_gp) {
		f->unplaced = first;
		return 0;
	}
	pmu_fit_fixed(b, c, first, count, f, wants_gp);
	/* most constrained first: fewest allowed counters */
	for (int width = 1; width <= PMU_MAX_GP; width++) {
		for (int i = first; i < first + count; i++) {
			if (!wants_gp[i - first] ||
			    __builtin_popcountll(pmu_gp_allowed(b, &c[i])) != width)
				continue;
			f->gp_used++;
			uint64_t seen = 0;
			if (!pmu_gp_augment(b, c, f, i, &seen) && f->unplaced < 0)
				f->unplaced = i;
		}
	}
	for (int i = first; i < first + count; i++)
		if (wants_gp[i - first] && !pmu_gp_allowed(b, &c[i]) && f->unplaced < 0) {
			f->gp_used++;
			f->unplaced = i;
		}
	free(wants_gp);
	return f->conflict < 0 && f->unplaced < 0 && f->gp_used <= b->pb_gp;
}

/* Where counter i sits in f: "fixed 1", "general-purpose 3", or NULL. */
static const char *
pmu_fit_where(const struct pmu_fit *f, int i, char *buf, size_t len)
{
	for (int k = 0; k < PMU_MAX_FIXED; k++)
		if (f->fixed_owner[k] == i) {
			snprintf(buf, len, "fixed %u", (unsigned char)k);
			return buf;
		}
	for (int j = 0; j < PMU_MAX_GP; j++)
		if (f->gp_owner[j] == i) {
			snprintf(buf, len, "general-purpose %u", (unsigned char)j);
			return buf;
		}
	return NULL;
}

void
pmu_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* "branchmispredictions, llcmisses, ..." of the hardware counters. */
static int
pmu_hw_names(const struct pmu_counter *c, int n, char *buf, size_t len)
{
	size_t o = 0;
	int nhw = 0;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (!c[i].is_hardware)
			continue;
		nhw++;
		if (o + strlen(c[i].name) + 8 >= len) {
			if (o + 4 < len && (o < 3 || strcmp(buf + o - 3, "...") != 0))
				o += (size_t)snprintf(buf + o, len - o, ", ...");
			continue;
		}
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", c[i].name);
	}
	return nhw;
}

static void
pmu_explain_conflict(const struct pmu_budget *b, const struct pmu_counter *c,
    const struct pmu_fit *f, char *err, size_t errlen)
{
	const struct pmu_counter *x = &c[f->conflict];
	if (f->conflict_slot < 0) {
		pmu_errf(err, errlen, "%s must be counted on a fixed counter, and %s has "
		    "none that counts it", x->name, b->pb_name);
		return;
	}
	int owner = f->fixed_owner[f->conflict_slot];
	pmu_errf(err, errlen, "%s can only be counted on fixed counter %d of %s, "
	    "which %s%s holds", x->name, f->conflict_slot, b->pb_name,
	    owner == PMU_WATCHDOG ? "the NMI watchdog" : c[owner].name,
	    owner == PMU_WATCHDOG ? " (echo 0 > /proc/sys/kernel/nmi_watchdog frees it)" : "");
}

/* "1" or "0-3" or "0,2": the general-purpose counters of mask. */
static void
pmu_mask_text(uint64_t mask, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int j = 0; j < 64 && o + 8 < len; j++) {
		if (!(mask >> j & 1))
			continue;
		int k = j;
		while (k + 1 < 64 && (mask >> (k + 1) & 1))
			k++;
		o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "", j);
		if (k > j)
			o += (size_t)snprintf(buf + o, len - o, "-%d", k);
		j = k;
	}
}

/* A counter restricted to some general-purpose counters found them taken. */
static void
pmu_explain_constraint(const struct pmu_budget *b, const struct pmu_counter *c,
    const struct pmu_fit *f, char *err, size_t errlen)
{
	const struct pmu_counter *x = &c[f->unplaced];
	uint64_t allowed = pmu_gp_allowed(b, x);
	char regs[64], holders[256] = "";
	size_t o = 0;
	pmu_mask_text(allowed, regs, sizeof(regs));
	for (int j = 0; j < pmu_gp_count(b) && o + 4 < sizeof(holders); j++) {
		int h = f->gp_owner[j];
		if (!(allowed >> j & 1) || h == -1)
			continue;
		o += (size_t)snprintf(holders + o, sizeof(holders) - o, "%s%s", o ? ", " : "",
		    h == PMU_WATCHDOG ? "the NMI watchdog" : c[h].name);
	}
	if (!allowed)
		pmu_errf(err, errlen, "%s can only be counted on general-purpose counters %s "
		    "(%s), which %s does not have", x->name, x->gp_src, regs[0] ? regs : "none",
		    b->pb_name);
	else
		pmu_errf(err, errlen, "%s can only be counted on general-purpose counter%s %s "
		    "of %s (%s), which %s hold%s; remove one or use -x pmcmultiplex", x->name,
		    strpbrk(regs, ",-") ? "s" : "", regs, b->pb_name, x->gp_src, holders,
		    strchr(holders, ',') ? "" : "s");
}

static void
pmu_explain_budget(const struct pmu_budget *b, const struct pmu_counter *c,
    int n, const struct pmu_fit *f, char *err, size_t errlen)
{
	char names[256], wd[96] = "";
	int nhw = pmu_hw_names(c, n, names, sizeof(names));
	int smt_note = b->pb_smt && b->pb_hw && b->pb_hw->hb_gp != b->pb_hw->hb_gp_smt;

	if (b->pb_watchdog)
		snprintf(wd, sizeof(wd), ", 1 %s taken by the NMI watchdog",
		    pmu_cycles_slot(b) >= 0 ? "fixed" : "general-purpose");
	pmu_errf(err, errlen, "%d hardware counters requested (%s), %s counts %d "
	    "general-purpose + %d fixed per CPU%s%s; remove %d or use -x pmcmultiplex",
	    nhw, names, b->pb_name, b->pb_gp, b->pb_fixed,
	    smt_note ? " with SMT on" : "", wd, f->gp_used - b->pb_gp);
}

static void
pmu_explain(const struct pmu_budget *b, const struct pmu_counter *c, int n,
    const struct pmu_fit *f, char *err, size_t errlen)
{
	if (f->conflict >= 0)
		pmu_explain_conflict(b, c, f, err, errlen);
	else if (f->gp_used > b->pb_gp)
		pmu_explain_budget(b, c, n, f, err, errlen);
	else
		pmu_explain_constraint(b, c, f, err, errlen);
}

/* Consecutive groups that each fit; -E2BIG when one counter alone cannot. */
static int
pmu_split(const struct pmu_budget *b, const struct pmu_counter *c, int n,
    struct pmu_plan *out, char *err, size_t errlen)
{
	struct pmu_fit f;
	int start = 0;

	while (start < n) {
		int len = 0;
		while (start + len < n && pmu_fit(b, c, start, len + 1, &f))
			len++;
		if (len == 0) {
			pmu_fit(b, c, start, 1, &f);
			if (f.conflict >= 0 || f.unplaced >= 0)
				pmu_explain(b, c + start, 1, &f, err, errlen);
			else
				pmu_errf(err, errlen, "%s does not fit in %s's %d general-purpose "
				    "counters even alone", c[start].name, b->pb_name, b->pb_gp);
			return -E2BIG;
		}
		if (out->ngroups == (int)(sizeof(out->groups) / sizeof(out->groups[0]))) {
			pmu_errf(err, errlen, "too many counters to multiplex: more than %d groups",
			    out->ngroups);
			return -E2BIG;
		}
		out->groups[out->ngroups].first = start;
		out->groups[out->ngroups].count = len;
		out->ngroups++;
		start += len;
	}
	out->multiplexed = out->ngroups > 1;
	return 0;
}

int
pmu_plan_budget(const struct pmu_budget *b, const struct pmu_counter *c, int n,
    int flags, struct pmu_plan *out, char *err, size_t errlen)
{
	struct pmu_fit f;

	if (err && errlen)
		err[0] = '\0';
	if (!b || !out || n < 0 || (n > 0 && !c))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return 0;
	/* Without any budget figure there is nothing to check against. */
	if (!b->pb_known || pmu_fit(b, c, 0, n, &f)) {
		out->ngroups = 1;
		out->groups[0].first = 0;
		out->groups[0].count = n;
		return 0;
	}
	if (flags & PMU_PLAN_MULTIPLEX)
		return pmu_split(b, c, n, out, err, errlen);
	pmu_explain(b, c, n, &f, err, errlen);
	return -E2BIG;
}

int
pmu_plan(struct pmu_ctx *p, const struct pmu_counter *c, int n, int flags,
    struct pmu_plan *out, char *err, size_t errlen)
{
	return pmu_plan_as(p, NULL, c, n, flags, out, err, errlen);
}

int
pmu_plan_places(const struct pmu_budget *b, const struct pmu_counter *c, int n,
    char (*where)[24], int *gp_used, int *fixed_used)
{
	struct pmu_fit f;
	int fits = pmu_fit(b, c, 0, n, &f);
	*fixed_used = 0;
	for (int k = 0; k < PMU_MAX_FIXED; k++)
		*fixed_used += f.fixed_owner[k] >= 0;
	*gp_used = f.gp_used - (b->pb_watchdog && pmu_cycles_slot(b) < 0);
	for (int i = 0; i < n; i++) {
		if (!c[i].is_hardware)
			snprintf(where[i], sizeof(where[i]), "software");
		else if (!pmu_fit_where(&f, i, where[i], sizeof(where[i])))
			snprintf(where[i], sizeof(where[i]), "no register");
	}
	return fits;
}
