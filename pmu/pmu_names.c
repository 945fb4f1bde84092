/*
 * pmu_names.c — a counter name to a perf_event_attr.
 *
 * Layers, first match wins, all case-insensitive:
 *   1. friendly aliases (hwdb/aliases.txt), most specific scope first:
 *      the model's budget id, its vendor, then "*"; the alias's target is
 *      resolved by layers 2-4;
 *   2. perf's generic names: hardware, the hw-cache family
 *      (<cache>-<op>[-misses]) and software events;
 *   3. libpfm4 native events of the model's PMU, '.' standing for ':'
 *      (icl.MEM_LOAD_RETIRED.L3_MISS.u = icl::MEM_LOAD_RETIRED:L3_MISS:u);
 *   then the events the kernel's PMUs publish in sysfs (msr/tsc/, msr.tsc,
 *      cpu/event=0x3c/: pmu_sysfs.c);
 *   4. raw codes r<hex>: the PMU's own event-select encoding.
 * Layers 1, 2 and 4 take a trailing .u / .k (or :u / :k) to count only user
 * or only kernel mode; libpfm4 parses its own modifiers.  An unknown name
 * fails with the nearest known names (edit distance) suggested.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#include "pmu/pmu_impl.h"

#define PMU_PERIOD_CYCLES	2000003ULL	/* perfmon SampleAfterValue of cycles/instructions */
#define PMU_PERIOD_EVENTS	100003ULL	/* a prime, so samples do not alias loops */
#define PMU_PERIOD_CLOCK_NS	1000000ULL	/* 1 ms of cpu-clock/task-clock */

struct pmu_generic {
	const char *pg_name;
	const char *pg_primary;		/* canonical spelling */
	uint32_t pg_type;
	uint64_t pg_config;
};

#define HW(n, c)	{ n, NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c }
#define HWS(n, p, c)	{ n, p, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c }
#define SW(n, c)	{ n, NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c }
#define SWS(n, p, c)	{ n, p, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c }

/* perf's generic names (tools/perf/util/parse-events.c spells them so). */
static const struct pmu_generic pmu_generic[] = {
	HW("cycles", CPU_CYCLES),
	HWS("cpu-cycles", "cycles", CPU_CYCLES),
	HW("instructions", INSTRUCTIONS),
	HW("cache-references", CACHE_REFERENCES),
	HW("cache-misses", CACHE_MISSES),
	HW("branches", BRANCH_INSTRUCTIONS),
	HWS("branch-instructions", "branches", BRANCH_INSTRUCTIONS),
	HW("branch-misses", BRANCH_MISSES),
	HW("bus-cycles", BUS_CYCLES),
	HW("ref-cycles", REF_CPU_CYCLES),
	HW("stalled-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HWS("idle-cycles-frontend", "stalled-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HW("stalled-cycles-backend", STALLED_CYCLES_BACKEND),
	HWS("idle-cycles-backend", "stalled-cycles-backend", STALLED_CYCLES_BACKEND),
	SW("cpu-clock", CPU_CLOCK),
	SW("task-clock", TASK_CLOCK),
	SW("page-faults", PAGE_FAULTS),
	SWS("faults", "page-faults", PAGE_FAULTS),
	SW("minor-faults", PAGE_FAULTS_MIN),
	SW("major-faults", PAGE_FAULTS_MAJ),
	SW("context-switches", CONTEXT_SWITCHES),
	SWS("cs", "context-switches", CONTEXT_SWITCHES),
	SW("cpu-migrations", CPU_MIGRATIONS),
	SWS("migrations", "cpu-migrations", CPU_MIGRATIONS),
	SW("alignment-faults", ALIGNMENT_FAULTS),
	SW("emulation-faults", EMULATION_FAULTS),
	SW("dummy", DUMMY),
};
#define PMU_NGENERIC	(int)(sizeof(pmu_generic) / sizeof(pmu_generic[0]))

/* The software counters every Linux kernel has; the report lists them. */
const char *const pmu_sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "minor-faults", "major-faults",
	"context-switches", "cpu-migrations", "alignment-faults",
	"emulation-faults", NULL
};

/* ORDER: PERF_COUNT_HW_CACHE_* ids. */
static const char *const pmu_cache_names[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node"
};
/* ORDER: PERF_COUNT_HW_CACHE_OP_* ids: singular, plural. */
static const char *const pmu_cache_ops[][2] = {
	{ "load", "loads" }, { "store", "stores" }, { "prefetch", "prefetches" }
};
#define PMU_NCACHE	7
#define PMU_NCACHE_OPS	3

/* Strip a trailing .u/.k/.uk (or ':'), returning the exclude bits to set. */
static int
pmu_strip_plm(char *s, int *excl_user, int *excl_kernel)
{
	char *sep = strrchr(s, '.');
	char *colon = strrchr(s, ':');
	if (!sep || (colon && colon > sep))
		sep = colon;
	*excl_user = *excl_kernel = 0;
	if (!sep || sep == s)
		return 0;
	const char *m = sep + 1;
	if (strcasecmp(m, "u") == 0)
		*excl_kernel = 1;
	else if (strcasecmp(m, "k") == 0)
		*excl_user = 1;
	else if (strcasecmp(m, "uk") != 0 && strcasecmp(m, "ku") != 0)
		return 0;
	*sep = '\0';
	return 1;
}

static const struct pmu_generic *
pmu_generic_find(const char *name)
{
	for (int i = 0; i < PMU_NGENERIC; i++)
		if (strcasecmp(pmu_generic[i].pg_name, name) == 0)
			return &pmu_generic[i];
	return NULL;
}

/* "L1-dcache-load-misses" and friends: 0 and the config, or -ENOENT. */
static int
pmu_cache_parse(const char *name, uint64_t *config, char *canon, size_t clen)
{
	for (int c = 0; c < PMU_NCACHE; c++) {
		size_t cl = strlen(pmu_cache_names[c]);
		if (strncasecmp(name, pmu_cache_names[c], cl) != 0 || name[cl] != '-')
			continue;
		const char *rest = name + cl + 1;
		for (int o = 0; o < PMU_NCACHE_OPS; o++) {
			int result;
			char miss[32];
			snprintf(miss, sizeof(miss), "%s-misses", pmu_cache_ops[o][0]);
			if (strcasecmp(rest, pmu_cache_ops[o][1]) == 0)
				result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
			else if (strcasecmp(rest, miss) == 0)
				result = PERF_COUNT_HW_CACHE_RESULT_MISS;
			else
				continue;
			*config = (uint64_t)c | (uint64_t)o << 8 | (uint64_t)result << 16;
			snprintf(canon, clen, "%s-%s", pmu_cache_names[c],
			    result ? miss : pmu_cache_ops[o][1]);
			return 0;
		}
	}
	return -ENOENT;
}

static int
pmu_resolve_generic(const char *name, struct pmu_counter *out)
{
	const struct pmu_generic *g = pmu_generic_find(name);
	if (g) {
		out->attr.type = g->pg_type;
		out->attr.config = g->pg_config;
		snprintf(out->canonical, sizeof(out->canonical), "%s",
		    g->pg_primary ? g->pg_primary : g->pg_name);
		out->source = "generic";
		return 0;
	}
	uint64_t config;
	if (pmu_cache_parse(name, &config, out->canonical, sizeof(out->canonical)) == 0) {
		out->attr.type = PERF_TYPE_HW_CACHE;
		out->attr.config = config;
		out->source = "generic";
		return 0;
	}
	return -ENOENT;
}

/* r<hex>, at most 16 digits. */
static int
pmu_resolve_raw(const char *name, struct pmu_counter *out)
{
	size_t n = strlen(name);
	if (n < 2 || n > 17 || tolower((unsigned char)name[0]) != 'r')
		return -ENOENT;
	for (size_t i = 1; i < n; i++)
		if (!isxdigit((unsigned char)name[i]))
			return -ENOENT;
	out->attr.type = PERF_TYPE_RAW;
	out->attr.config = strtoull(name + 1, NULL, 16);
	snprintf(out->canonical, sizeof(out->canonical), "r%04llx",
	    (unsigned long long)out->attr.config);
	out->source = "raw";
	return 0;
}

/*
 * Whether name[0..len) is a PMU prefix: a present libpfm4 PMU, or under
 * LIBPFM_FORCE_PMU only the simulated one (see pmu_pick_pfm_core).
 */
static int
pmu_pfm_pmu_prefix(const struct pmu_ctx *p, const char *name, size_t len)
{
	if (p->pc_simulated)
		return strlen(p->pc_pfm_pmu) == len && strncasecmp(p->pc_pfm_pmu, name, len) == 0;
	for (int i = PFM_PMU_NONE; i < PFM_PMU_MAX; i++) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info((pfm_pmu_t)i, &pi) != PFM_SUCCESS || !pi.is_present)
			continue;
		if (strlen(pi.name) == len && strncasecmp(pi.name, name, len) == 0)
			return 1;
	}
	return 0;
}

/*
 * "icl.MEM_LOAD_RETIRED.L3_MISS.u" -> "icl::MEM_LOAD_RETIRED:L3_MISS:u";
 * a name without a PMU gets the model's ("skl::UOPS_ISSUED:ANY"), so that
 * it is encoded by that model's table.  Returns 1 when the user gave the
 * PMU.
 */
static int
pmu_pfm_spelling(const struct pmu_ctx *p, const char *in, char *out, size_t len)
{
	size_t pl = strcspn(in, ".:");
	const char *rest = in;
	int given = 1;

	out[0] = '\0';
	if (in[pl] == ':' && in[pl + 1] == ':') {
		snprintf(out, len, "%.*s::", (int)pl, in);
		rest = in + pl + 2;
	} else if (in[pl] == '.' && pmu_pfm_pmu_prefix(p, in, pl)) {
		snprintf(out, len, "%.*s::", (int)pl, in);
		rest = in + pl + 1;
	} else {
		given = 0;
		if (p->pc_pfm_pmu[0])
			snprintf(out, len, "%s::", p->pc_pfm_pmu);
	}
	size_t o = strlen(out);
	for (; *rest && o + 1 < len; rest++)
		out[o++] = *rest == '.' ? ':' : *rest;
	out[o] = '\0';
	return given;
}

static int
pmu_pfm_encode(const char *spelled, struct perf_event_attr *attr, char **fstr)
{
	pfm_perf_encode_arg_t arg;
	memset(&arg, 0, sizeof(arg));
	memset(attr, 0, sizeof(*attr));
	*fstr = NULL;
	arg.attr = attr;
	arg.fstr = fstr;
	arg.size = sizeof(arg);
	return pfm_get_os_event_encoding(spelled, PFM_PLM0 | PFM_PLM3,
	    PFM_OS_PERF_EVENT_EXT, &arg);
}

/*
 * Whether modifier name=val (from libpfm4's fully qualified string) is at
 * its default and can be left out: u=1, k=1, mh=1, everything else 0.
 */
static int
pmu_pfm_mod_default(const char *tok, size_t len)
{
	const char *eq = memchr(tok, '=', len);
	if (!eq)
		return 0;
	size_t nl = (size_t)(eq - tok), vl = len - nl - 1;
	int dfl_one = (nl == 1 && (tok[0] == 'u' || tok[0] == 'k')) ||
	    (nl == 2 && tok[0] == 'm' && tok[1] == 'h');
	return vl == 1 && eq[1] == (dfl_one ? '1' : '0');
}

/* "skl::BR_MISP_RETIRED:ALL_BRANCHES:e=0:...:k=0" -> "...:ALL_BRANCHES:k=0". */
static void
pmu_pfm_canonical(const char *fstr, char *out, size_t len)
{
	const char *sep = strstr(fstr, "::");
	const char *s = sep ? sep + 2 : fstr;
	size_t o = (size_t)snprintf(out, len, "%.*s", sep ? (int)(s - fstr) : 0, fstr);

	for (int first = 1; *s && o + 1 < len; first = 0) {
		size_t tl = strcspn(s, ":");
		if (!pmu_pfm_mod_default(s, tl)) {
			int w = snprintf(out + o, len - o, "%s%.*s", first ? "" : ":", (int)tl, s);
			if (w < 0 || (size_t)w >= len - o)
				break;
			o += (size_t)w;
		}
		s += tl + (s[tl] == ':');
	}
}

/*
 * Layer 3.  -ENOENT when libpfm4 does not know the event; -EINVAL (with a
 * message) when it knows the event but not the unit mask or modifiers.
 */
static int
pmu_resolve_pfm(struct pmu_ctx *p, const char *name, struct pmu_counter *out,
    char *err, size_t errlen)
{
	char spelled[256];
	char *fstr = NULL;

	/* a named model libpfm4 has no table for must not get the host's */
	if (!p->pc_pfm_ok || (p->pc_simulated && !p->pc_pfm_pmu[0]))
		return -ENOENT;
	int given = pmu_pfm_spelling(p, name, spelled, sizeof(spelled));
	int rc = pmu_pfm_encode(spelled, &out->attr, &fstr);
	/* Not the core PMU's: another PMU of the host's (uncore, perf::) may know it. */
	if (rc == PFM_ERR_NOTFOUND && !given && !p->pc_simulated) {
		free(fstr);
		pmu_pfm_spelling(p, name, spelled, sizeof(spelled));
		snprintf(spelled, sizeof(spelled), "%s", strstr(spelled, "::") ?
		    strstr(spelled, "::") + 2 : spelled);
		rc = pmu_pfm_encode(spelled, &out->attr, &fstr);
	}
	/* libpfm4's perf_raw PMU takes r<hex> too, also as the first try on a
	 * host where libpfm4 finds no core PMU: leave that to layer 4, so a raw
	 * code reads the same on every host. */
	if (!given && rc == PFM_SUCCESS && fstr && strncmp(fstr, "perf_raw::", 10) == 0)
		rc = PFM_ERR_NOTFOUND;
	if (rc == PFM_ERR_NOTFOUND || rc == PFM_ERR_INVAL) {
		free(fstr);
		return -ENOENT;
	}
	if (rc != PFM_SUCCESS) {
		free(fstr);
		pmu_errf(err, errlen, "counter \"%s\": libpfm4 (%s) knows the event but not \"%s\": %s",
		    name, p->pc_pfm_pmu[0] ? p->pc_pfm_pmu : "no PMU", spelled, pfm_strerror(rc));
		return -EINVAL;
	}
	pmu_pfm_canonical(fstr ? fstr : spelled, out->canonical, sizeof(out->canonical));
	free(fstr);
	out->source = "libpfm4";
	return 0;
}

static int
pmu_resolve_sysfs(const char *name, struct pmu_counter *out)
{
	int core = 0;
	int rc = pmu_sysfs_resolve(PMU_SYSFS_ROOT, name, &out->attr, out->canonical,
	    sizeof(out->canonical), &core);
	if (rc != 0)
		return rc;
	out->source = "sysfs";
	out->is_hardware = core;	/* msr, power, uncore: no core register */
	return 0;
}

static void
pmu_apply_plm(struct pmu_counter *out, int xu, int xk)
{
	out->attr.exclude_user = (unsigned)xu;
	out->attr.exclude_kernel = (unsigned)xk;
	out->attr.exclude_hv = 1;
}

/* Layers 2-4 (and the kernel's sysfs events) for one spelling. */
static int
pmu_resolve_target(struct pmu_ctx *p, const char *name, struct pmu_counter *out,
    char *err, size_t errlen)
{
	char base[128];
	int xu, xk;

	snprintf(base, sizeof(base), "%s", name);
	int plm = pmu_strip_plm(base, &xu, &xk);
	int rc = pmu_resolve_generic(base, out);
	if (rc == -ENOENT)
		rc = pmu_resolve_pfm(p, name, out, err, errlen);
	if (rc == -ENOENT && (rc = pmu_resolve_sysfs(name, out)) == -EINVAL) {
		pmu_errf(err, errlen, "counter \"%s\": the kernel PMU's sysfs entry does not "
		    "describe this event", name);
		return -EINVAL;
	}
	if (rc == -ENOENT && (rc = pmu_resolve_raw(base, out)) == 0 && plm)
		pmu_apply_plm(out, xu, xk);
	if (rc == 0 && plm && strcmp(out->source, "generic") == 0)
		pmu_apply_plm(out, xu, xk);
	return rc;
}

/* The budget id, then the vendor, then "*". */
static void
pmu_alias_scopes(const struct pmu_ctx *p, const char *scopes[3])
{
	const struct pmu_budget *b = &p->pc_budget;
	scopes[0] = b->pb_hw ? b->pb_hw->hb_id : NULL;
	scopes[1] = b->pb_vendor[0] ? b->pb_vendor : NULL;
	scopes[2] = "*";
}

static const struct hwdb_alias *
pmu_alias_in_scope(const char *scope, const char *name)
{
	for (int i = 0; i < hwdb_naliases; i++)
		if (strcmp(hwdb_aliases[i].ha_scope, scope) == 0 &&
		    strcasecmp(hwdb_aliases[i].ha_name, name) == 0)
			return &hwdb_aliases[i];
	return NULL;
}

const struct hwdb_alias *
pmu_alias_find(const struct pmu_ctx *p, const char *name)
{
	const char *scopes[3];
	pmu_alias_scopes(p, scopes);
	for (int s = 0; s < 3; s++) {
		const struct hwdb_alias *a = scopes[s] ? pmu_alias_in_scope(scopes[s], name) : NULL;
		if (a)
			return a;
	}
	return NULL;
}

/*
 * Layer 1.  A model-specific target that libpfm4 cannot encode here (no
 * libpfm4 model for a kernel-recognised CPU) falls back to the vendor's
 * and then the generic entry.
 */
static int
pmu_resolve_alias(struct pmu_ctx *p, const char *name, struct pmu_counter *out,
    char *err, size_t errlen)
{
	const char *scopes[3];
	char base[128], target[160];
	int xu, xk, tried = 0;

	snprintf(base, sizeof(base), "%s", name);
	int plm = pmu_strip_plm(base, &xu, &xk);
	pmu_alias_scopes(p, scopes);
	for (int s = 0; s < 3; s++) {
		const struct hwdb_alias *a = scopes[s] ? pmu_alias_in_scope(scopes[s], base) : NULL;
		if (!a)
			continue;
		tried = 1;
		if (strcmp(a->ha_target, "none") == 0) {
			pmu_errf(err, errlen, "counter \"%s\" has no event on %s: %s (%s)",
			    name, p->pc_budget.pb_name, a->ha_source, a->ha_where);
			return -EOPNOTSUPP;
		}
		snprintf(target, sizeof(target), "%s%s", a->ha_target,
		    plm ? (xu ? ":k" : xk ? ":u" : "") : "");
		if (pmu_resolve_target(p, target, out, NULL, 0) != 0)
			continue;
		out->source = "alias";
		out->fixed_capable = a->ha_fixed ? 2 : 0;
		return 0;
	}
	if (tried) {
		pmu_errf(err, errlen, "counter \"%s\": its hwdb targets do not encode on %s",
		    name, p->pc_budget.pb_name);
		return -EOPNOTSUPP;
	}
	return -ENOENT;
}

/* ---- suggestions ---------------------------------------------------- */

static int
pmu_names_add(struct pmu_ctx *p, int *cap, const char *s)
{
	if (p->pc_nnames == *cap) {
		int ncap = *cap ? *cap * 2 : 256;
		char **n = realloc(p->pc_names, (size_t)ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		p->pc_names = n;
		*cap = ncap;
	}
	char *d = strdup(s);
	if (!d)
		return -ENOMEM;
	p->pc_names[p->pc_nnames++] = d;
	return 0;
}

struct pmu_names_acc {
	struct pmu_ctx *p;
	int *cap;
};

static int
pmu_names_add_cb(void *arg, const char *name)
{
	struct pmu_names_acc *a = arg;
	return pmu_names_add(a->p, a->cap, name);
}

/* EVENT and EVENT.UMASK of every event of the model's libpfm4 PMU. */
static int
pmu_names_add_pfm(struct pmu_ctx *p, int *cap)
{
	pfm_pmu_info_t pi;
	char buf[256];
	int rc = 0;

	for (int i = PFM_PMU_NONE; i < PFM_PMU_MAX && !rc; i++) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info((pfm_pmu_t)i, &pi) != PFM_SUCCESS || !pi.is_present ||
		    strcmp(pi.name, p->pc_pfm_pmu) != 0)
			continue;
		for (int e = pi.first_event; e != -1 && !rc; e = pfm_get_event_next(e)) {
			pfm_event_info_t ei;
			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(e, PFM_OS_NONE, &ei) != PFM_SUCCESS)
				continue;
			rc = pmu_names_add(p, cap, ei.name);
			for (int a = 0; a < ei.nattrs && !rc; a++) {
				pfm_event_attr_info_t ai;
				memset(&ai, 0, sizeof(ai));
				ai.size = sizeof(ai);
				if (pfm_get_event_attr_info(e, a, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
				    ai.type != PFM_ATTR_UMASK)
					continue;
				snprintf(buf, sizeof(buf), "%s.%s", ei.name, ai.name);
				rc = pmu_names_add(p, cap, buf);
			}
		}
	}
	return rc;
}

static int
pmu_names_build(struct pmu_ctx *p)
{
	int cap = 0, rc = 0;
	char buf[64];

	for (int i = 0; i < hwdb_naliases && !rc; i++)
		rc = pmu_names_add(p, &cap, hwdb_aliases[i].ha_name);
	for (int i = 0; i < PMU_NGENERIC && !rc; i++)
		rc = pmu_names_add(p, &cap, pmu_generic[i].pg_name);
	for (int c = 0; c < PMU_NCACHE && !rc; c++) {
		for (int o = 0; o < PMU_NCACHE_OPS && !rc; o++) {
			snprintf(buf, sizeof(buf), "%s-%s", pmu_cache_names[c], pmu_cache_ops[o][1]);
			rc = pmu_names_add(p, &cap, buf);
			snprintf(buf, sizeof(buf), "%s-%s-misses", pmu_cache_names[c], pmu_cache_ops[o][0]);
			if (!rc)
				rc = pmu_names_add(p, &cap, buf);
		}
	}
	if (!rc && p->pc_pfm_ok)
		rc = pmu_names_add_pfm(p, &cap);
	struct pmu_names_acc acc = { p, &cap };
	if (!rc)
		rc = pmu_sysfs_names(PMU_SYSFS_ROOT, pmu_names_add_cb, &acc);
	return rc;
}

void
pmu_names_free(struct pmu_ctx *p)
{
	for (int i = 0; i < p->pc_nnames; i++)
		free(p->pc_names[i]);
	free(p->pc_names);
	p->pc_names = NULL;
	p->pc_nnames = 0;
}

static int
pmu_fold(int c)
{
	return c == ':' ? '.' : tolower(c);
}

/* Levenshtein distance, case-folded, ':' equal to '.', capped at 127 chars. */
static int
pmu_edit_distance(const char *a, const char *b)
{
	int prev[128], cur[128];
	size_t la = strlen(a), lb = strlen(b);
	if (la > 127)
		la = 127;
	if (lb > 127)
		lb = 127;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int sub = prev[j - 1] + (pmu_fold(a[i - 1]) != pmu_fold(b[j - 1]));
			int del = prev[j] + 1, ins = cur[j - 1] + 1;
			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (lb + 1) * sizeof(int));
	}
	return prev[lb];
}

/* Up to three nearest names, nearest first, no duplicates. */
static int
pmu_suggest(struct pmu_ctx *p, const char *name, const char *best[3])
{
	int bestd[3] = { 1 << 30, 1 << 30, 1 << 30 }, nb = 0;
	int limit = (int)strlen(name) / 3;
	if (limit < 2)
		limit = 2;
	if (!p->pc_names && pmu_names_build(p) != 0)
		return 0;
	for (int i = 0; i < p->pc_nnames; i++) {
		const char *c = p->pc_names[i];
		int d = pmu_edit_distance(name, c), dup = 0;
		if (d == 0 || d > limit || d >= bestd[2])
			continue;
		for (int k = 0; k < nb; k++)
			dup |= strcasecmp(best[k], c) == 0;
		if (dup)
			continue;
		int k = nb < 3 ? nb++ : 2;
		for (; k > 0 && bestd[k - 1] > d; k--) {
			best[k] = best[k - 1];
			bestd[k] = bestd[k - 1];
		}
		best[k] = c;
		bestd[k] = d;
	}
	return nb;
}

static void
pmu_unknown(struct pmu_ctx *p, const char *name, char *err, size_t errlen)
{
	const char *best[3];
	int nb = pmu_suggest(p, name, best);

	int notable = p->pc_simulated && !p->pc_pfm_pmu[0];
	if (nb == 0 && notable)
		pmu_errf(err, errlen, "unknown counter \"%s\" (not a friendly alias, a perf "
		    "generic name or a raw code r<hex>; this libpfm4 has no event table for %s, "
		    "so its native names do not resolve)", name, p->pc_budget.pb_name);
	else if (nb == 0)
		pmu_errf(err, errlen, "unknown counter \"%s\" (not a friendly alias, a perf "
		    "generic name, a libpfm4 event of %s, or a raw code r<hex>)", name,
		    p->pc_pfm_pmu[0] ? p->pc_pfm_pmu : "this CPU");
	else if (nb == 1)
		pmu_errf(err, errlen, "unknown counter \"%s\"; did you mean %s?", name, best[0]);
	else if (nb == 2)
		pmu_errf(err, errlen, "unknown counter \"%s\"; did you mean %s or %s?",
		    name, best[0], best[1]);
	else
		pmu_errf(err, errlen, "unknown counter \"%s\"; did you mean %s, %s or %s?",
		    name, best[0], best[1], best[2]);
	size_t l = err && errlen ? strlen(err) : 0;
	if (l && notable && nb > 0)
		snprintf(err + l, errlen - l, " (this libpfm4 has no event table for %s: name "
		    "its events by raw code r<hex>, perf or friendly names)", p->pc_budget.pb_name);
}

/* ---- the result ----------------------------------------------------- */

static int
pmu_is_cycle_like(const struct pmu_counter *c)
{
	if (c->attr.type == PERF_TYPE_HARDWARE)
		return c->attr.config == PERF_COUNT_HW_CPU_CYCLES ||
		    c->attr.config == PERF_COUNT_HW_INSTRUCTIONS ||
		    c->attr.config == PERF_COUNT_HW_REF_CPU_CYCLES ||
		    c->attr.config == PERF_COUNT_HW_BUS_CYCLES;
	return c->fixed_capable != 0;
}

/* hwdb/constraints.txt: the general-purpose counters the model allows. */
static void
pmu_apply_constraint(const struct pmu_ctx *p, struct pmu_counter *c)
{
	const struct hwdb_budget *hb = p->pc_budget.pb_hw;
	if (!hb || c->attr.type != PERF_TYPE_RAW)
		return;
	for (int i = 0; i < hwdb_nconstraints; i++) {
		const struct hwdb_constraint *k = &hwdb_constraints[i];
		if (strcmp(k->hc_budget, hb->hb_id) != 0 ||
		    (c->attr.config & k->hc_mask) != (k->hc_config & k->hc_mask))
			continue;
		c->gp_mask = k->hc_counters;
		c->gp_src = k->hc_where;
		return;
	}
}

static void
pmu_finish(struct pmu_ctx *p, struct pmu_counter *c)
{
	c->attr.size = sizeof(c->attr);
	if (strcmp(c->source, "sysfs") != 0)	/* pmu_resolve_sysfs knows better */
		c->is_hardware = c->attr.type != PERF_TYPE_SOFTWARE &&
		    c->attr.type != PERF_TYPE_TRACEPOINT && c->attr.type != PERF_TYPE_BREAKPOINT;
	if (c->is_hardware && c->fixed_capable == 0) {
		if (pmu_fixed_only(&p->pc_budget, c))
			c->fixed_capable = 2;
		else if (pmu_fixed_slot(&p->pc_budget, c) >= 0)
			c->fixed_capable = 1;
	}
	if (c->is_hardware)
		pmu_apply_constraint(p, c);
	if (c->attr.type == PERF_TYPE_SOFTWARE)
		c->default_period = c->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
		    c->attr.config == PERF_COUNT_SW_TASK_CLOCK ? PMU_PERIOD_CLOCK_NS : 1;
	else if (!c->is_hardware)
		c->default_period = PMU_PERIOD_EVENTS;
	else
		c->default_period = pmu_is_cycle_like(c) ? PMU_PERIOD_CYCLES : PMU_PERIOD_EVENTS;
}

int
pmu_resolve(struct pmu_ctx *p, const char *name, struct pmu_counter *out,
    char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	if (!p || !name || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	size_t n = strlen(name);
	if (n == 0 || n >= sizeof(out->name)) {
		pmu_errf(err, errlen, "counter name %s", n ? "too long" : "is empty");
		return -EINVAL;
	}
	memcpy(out->name, name, n + 1);
	int rc = pmu_resolve_alias(p, name, out, err, errlen);
	if (rc == -ENOENT)
		rc = pmu_resolve_target(p, name, out, err, errlen);
	if (rc == -ENOENT) {
		pmu_unknown(p, name, err, errlen);
		return -ENOENT;
	}
	/* -EINVAL comes only from libpfm4 rejecting a unit mask or modifier */
	if (rc == -EINVAL && err && errlen) {
		const char *best[3];
		int nb = pmu_suggest(p, name, best);
		size_t l = strlen(err);
		if (nb > 0 && l < errlen)
			snprintf(err + l, errlen - l, "; did you mean %s%s%s?", best[0],
			    nb > 1 ? " or " : "", nb > 1 ? best[1] : "");
	}
	if (rc != 0)
		return rc;
	pmu_finish(p, out);
	return 0;
}

/* ---- listing -------------------------------------------------------- */

static const char *
pmu_type_name(uint32_t type)
{
	switch (type) {
	case PERF_TYPE_HARDWARE:	return "generic hardware";
	case PERF_TYPE_SOFTWARE:	return "software";
	case PERF_TYPE_HW_CACHE:	return "hw-cache";
	case PERF_TYPE_RAW:		return "raw";
	default:			return "pmu type";
	}
}

int
pmu_describe(struct pmu_ctx *p, const char *name, char *buf, size_t len)
{
	struct pmu_counter c;
	if (!buf || len == 0)
		return -EINVAL;
	int rc = pmu_resolve(p, name, &c, buf, len);
	if (rc != 0)
		return rc;
	const struct hwdb_alias *a = strcmp(c.source, "alias") == 0 ? pmu_alias_find(p, name) : NULL;
	return snprintf(buf, len, "%s: %s, %s (%s %u:0x%llx)%s%s%s%s%s%s", name,
	    c.is_hardware ? "hardware" : "software", c.canonical, pmu_type_name(c.attr.type),
	    c.attr.type, (unsigned long long)c.attr.config,
	    c.fixed_capable == 2 ? ", fixed counter only" : c.fixed_capable ? ", may use a fixed counter" : "",
	    a ? " from " : "", a ? a->ha_where : "", a ? " (" : "", a ? a->ha_source : "",
	    a ? ")" : "");
}

static int
pmu_list_aliases(struct pmu_ctx *p, int (*cb)(void *, const char *, int), void *arg)
{
	for (int i = 0; i < hwdb_naliases; i++) {
		const char *nm = hwdb_aliases[i].ha_name;
		int dup = 0;
		for (int j = 0; j < i && !dup; j++)
			dup = strcmp(hwdb_aliases[j].ha_name, nm) == 0;
		if (dup)
			continue;
		struct pmu_counter c;
		if (pmu_resolve(p, nm, &c, NULL, 0) != 0)
			continue;
		int rc = cb(arg, nm, c.is_hardware);
		if (rc)
			return rc;
	}
	return 0;
}

int
pmu_list(struct pmu_ctx *p, int (*cb)(void *arg, const char *name, int hw), void *arg)
{
	char buf[64];
	int rc;

	if (!p || !cb)
		return -EINVAL;
	if ((rc = pmu_list_aliases(p, cb, arg)) != 0)
		return rc;
	for (int i = 0; i < PMU_NGENERIC; i++) {
		const struct pmu_generic *g = &pmu_generic[i];
		if (g->pg_type == PERF_TYPE_SOFTWARE && g->pg_config == PERF_COUNT_SW_DUMMY)
			continue;
		if ((rc = cb(arg, g->pg_name, g->pg_type != PERF_TYPE_SOFTWARE)) != 0)
			return rc;
	}
	for (int c = 0; c < PMU_NCACHE; c++) {
		for (int o = 0; o < PMU_NCACHE_OPS; o++) {
			snprintf(buf, sizeof(buf), "%s-%s", pmu_cache_names[c], pmu_cache_ops[o][1]);
			if ((rc = cb(arg, buf, 1)) != 0)
				return rc;
			snprintf(buf, sizeof(buf), "%s-%s-misses", pmu_cache_names[c], pmu_cache_ops[o][0]);
			if ((rc = cb(arg, buf, 1)) != 0)
				return rc;
		}
	}
	return 0;
}
