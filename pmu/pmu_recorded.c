/*
 * pmu_recorded.c — the machine a perf.data file was recorded on, and the
 * names its counters have there.
 *
 * The header says which CPU it was (HEADER_CPUID: "GenuineIntel,6,186,3",
 * or an Arm MIDR "0x...410fd0c0"), which PMUs had which perf type
 * (PMU_MAPPINGS: cpu_core = 4, cpu_atom = 7), and what the kernel called
 * the core PMU (PMU_CAPS / CPU_PMU_CAPS pmu_name=alderlake_hybrid).  That
 * picks the hwdb model the replay plans and names for, as -x pmumodel
 * would.  A recorded counter is then named by its PMU (cpu_core.) and by
 * every name that model gives the event: perf's generic name, the friendly
 * aliases, and the model's own event names (the kernel's mapping of the
 * generic events to the vendor's raw codes, then the hwdb aliases and
 * libpfm4's table of the model).
 *
 * Feature layouts (tools/perf/util/header.c): a string is a u32 length and
 * that many bytes, NUL padded; PMU_MAPPINGS is u32 n, then n (u32 type,
 * string name); CPU_PMU_CAPS is u32 n, then n (string name, string value);
 * PMU_CAPS is u32 npmu, then per PMU u32 n, n (name, value), string pmu.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#include "pmu/pmu_impl.h"

struct pmu_rd {
	const unsigned char *p;
	size_t n, o;
	int bad;
};

static uint32_t
pmu_rd_u32(struct pmu_rd *r)
{
	uint32_t v = 0;
	if (r->bad || r->n - r->o < 4) {
		r->bad = 1;
		return 0;
	}
	memcpy(&v, r->p + r->o, 4);
	r->o += 4;
	return v;
}

/* The next string into buf (truncated to fit); "" when malformed. */
static void
pmu_rd_str(struct pmu_rd *r, char *buf, size_t len)
{
	uint32_t l = pmu_rd_u32(r);
	buf[0] = '\0';
	if (r->bad || l > r->n - r->o) {
		r->bad = 1;
		return;
	}
	size_t k = strnlen((const char *)r->p + r->o, l);
	snprintf(buf, len, "%.*s", (int)(k < len ? k : len - 1), (const char *)r->p + r->o);
	r->o += l;
}

static void
pmu_read_mappings(struct pmu_ctx *p, const struct pmu_recording *rec)
{
	struct pmu_rd r = { rec->pmu_mappings, rec->pmu_mappings_len, 0, 0 };
	if (!r.p)
		return;
	uint32_t n = pmu_rd_u32(&r);
	for (uint32_t i = 0; i < n && !r.bad && p->pc_ntypes < PMU_MAX_TYPES; i++) {
		uint32_t type = pmu_rd_u32(&r);
		char name[sizeof(p->pc_types[0].name)];
		pmu_rd_str(&r, name, sizeof(name));
		if (r.bad)
			break;
		p->pc_types[p->pc_ntypes].type = type;
		snprintf(p->pc_types[p->pc_ntypes].name, sizeof(p->pc_types[0].name), "%s", name);
		p->pc_ntypes++;
	}
}

/* pmu_name from PMU_CAPS (the first PMU's) or CPU_PMU_CAPS, or "". */
static void
pmu_recorded_caps_name(const struct pmu_recording *rec, char *out, size_t len)
{
	char k[64], v[64];
	out[0] = '\0';
	if (rec->pmu_caps) {
		struct pmu_rd r = { rec->pmu_caps, rec->pmu_caps_len, 0, 0 };
		uint32_t npmu = pmu_rd_u32(&r);
		for (uint32_t i = 0; i < npmu && !r.bad && !out[0]; i++) {
			uint32_t n = pmu_rd_u32(&r);
			for (uint32_t j = 0; j < n && !r.bad; j++) {
				pmu_rd_str(&r, k, sizeof(k));
				pmu_rd_str(&r, v, sizeof(v));
				if (!r.bad && strcmp(k, "pmu_name") == 0 && !out[0])
					snprintf(out, len, "%s", v);
			}
			pmu_rd_str(&r, k, sizeof(k));
		}
	}
	if (!out[0] && rec->cpu_pmu_caps) {
		struct pmu_rd r = { rec->cpu_pmu_caps, rec->cpu_pmu_caps_len, 0, 0 };
		uint32_t n = pmu_rd_u32(&r);
		for (uint32_t j = 0; j < n && !r.bad && !out[0]; j++) {
			pmu_rd_str(&r, k, sizeof(k));
			pmu_rd_str(&r, v, sizeof(v));
			if (!r.bad && strcmp(k, "pmu_name") == 0)
				snprintf(out, len, "%s", v);
		}
	}
}

/* "cpuid=GenuineIntel,6,186" from "GenuineIntel,6,186,3"; "arm=0xd0c"
 * from an Arm MIDR; "" otherwise. */
static void
pmu_cpuid_key(const char *cpuid, char *key, size_t len)
{
	key[0] = '\0';
	if (!cpuid)
		return;
	if (strncmp(cpuid, "0x", 2) == 0) {
		unsigned long long midr = strtoull(cpuid, NULL, 16);
		if ((midr >> 24 & 0xff) == 0x41)
			snprintf(key, len, "arm=0x%03llx", midr >> 4 & 0xfff);
		return;
	}
	const char *c1 = strchr(cpuid, ',');
	const char *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
	const char *c3 = c2 ? strchr(c2 + 1, ',') : NULL;
	if (c2)
		snprintf(key, len, "cpuid=%.*s", (int)(c3 ? c3 - cpuid : (long)strlen(cpuid)), cpuid);
}

/* The -x pmumodel name of a hwdb entry: its first model= token, else its id. */
static void
pmu_entry_model(const struct hwdb_budget *hb, char *out, size_t len)
{
	const char *m = strstr(hb->hb_match, "model=");
	if (m)
		snprintf(out, len, "%.*s", (int)strcspn(m + 6, " "), m + 6);
	else
		snprintf(out, len, "%s", hb->hb_id);
}

int
pmu_recording_model(const struct pmu_recording *rec, char *model, size_t len)
{
	char key[96], caps[64];
	const struct hwdb_budget *hb = NULL;
	model[0] = '\0';
	if (!rec)
		return -EINVAL;
	pmu_cpuid_key(rec->cpuid, key, sizeof(key));
	for (int i = 0; key[0] && i < hwdb_nbudgets && !hb; i++) {
		const char *m = hwdb_budgets[i].hb_match;
		size_t kl = strlen(key);
		for (const char *t = strstr(m, key); t && !hb; t = strstr(t + 1, key))
			if ((t == m || t[-1] == ' ') && (t[kl] == ' ' || t[kl] == '\0'))
				hb = &hwdb_budgets[i];
	}
	pmu_recorded_caps_name(rec, caps, sizeof(caps));
	if (!hb && caps[0]) {
		snprintf(key, sizeof(key), "caps=%s", caps);
		for (int i = 0; i < hwdb_nbudgets && !hb; i++)
			if (strstr(hwdb_budgets[i].hb_match, key))
				hb = &hwdb_budgets[i];
	}
	if (!hb)
		return -ENOENT;
	pmu_entry_model(hb, model, len);
	return 0;
}

struct pmu_ctx *
pmu_open_recording(const struct pmu_recording *rec, pmu_log_fn log, void *arg, int *errp)
{
	char model[64];
	if (pmu_recording_model(rec, model, sizeof(model)) < 0) {
		if (errp)
			*errp = -ENOENT;
		return NULL;
	}
	/* SMT of the recording machine is not in the header: the smaller budget */
	struct pmu_target t = { model, -1 };
	struct pmu_ctx *p = pmu_open_target(&t, log, arg, errp);
	if (p) {
		p->pc_recorded = 1;
		pmu_read_mappings(p, rec);
	}
	return p;
}

/* ---- naming a recorded event ------------------------------------------ */

/*
 * The raw codes the kernel's PMU drivers count for perf's generic hardware
 * events, per vendor: Linux arch/x86/events/intel/core.c
 * intel_perfmon_event_map, arch/x86/events/amd/core.c
 * amd_zen1_perfmon_event_map, drivers/perf/arm_pmuv3.c armv8_pmuv3_perf_map.
 */
static const struct {
	const char *vendor;
	uint64_t generic;
	uint64_t raw;
} pmu_kernel_map[] = {
	{ "intel", PERF_COUNT_HW_CPU_CYCLES, 0x003c },
	{ "intel", PERF_COUNT_HW_INSTRUCTIONS, 0x00c0 },
	{ "intel", PERF_COUNT_HW_CACHE_REFERENCES, 0x4f2e },
	{ "intel", PERF_COUNT_HW_CACHE_MISSES, 0x412e },
	{ "intel", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0x00c4 },
	{ "intel", PERF_COUNT_HW_BRANCH_MISSES, 0x00c5 },
	{ "intel", PERF_COUNT_HW_BUS_CYCLES, 0x013c },
	{ "intel", PERF_COUNT_HW_REF_CPU_CYCLES, 0x0300 },
	{ "amd", PERF_COUNT_HW_CPU_CYCLES, 0x0076 },
	{ "amd", PERF_COUNT_HW_INSTRUCTIONS, 0x00c0 },
	{ "amd", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0x00c2 },
	{ "amd", PERF_COUNT_HW_BRANCH_MISSES, 0x00c3 },
	{ "arm", PERF_COUNT_HW_CPU_CYCLES, 0x11 },
	{ "arm", PERF_COUNT_HW_INSTRUCTIONS, 0x08 },
	{ "arm", PERF_COUNT_HW_CACHE_REFERENCES, 0x04 },
	{ "arm", PERF_COUNT_HW_CACHE_MISSES, 0x03 },
	{ "arm", PERF_COUNT_HW_BRANCH_MISSES, 0x10 },
};

struct pmu_namer {
	char prefix[72];		/* "cpu_core." or "" */
	char seen[48][160];
	int nseen;
	int (*cb)(void *, const char *);
	void *arg;
	int n;
	int stop;
};

/* Offer prefix+name once; ':' cannot be in a probe name, so it becomes '.'. */
static void
pmu_name_offer(struct pmu_namer *nm, const char *name)
{
	char full[160];
	snprintf(full, sizeof(full), "%s%s", nm->prefix, name);
	for (char *c = full; *c; c++)
		if (*c == ':')
			*c = '.';
	for (int i = 0; i < nm->nseen; i++)
		if (strcmp(nm->seen[i], full) == 0)
			return;
	if (nm->stop || nm->nseen == (int)(sizeof(nm->seen) / sizeof(nm->seen[0])))
		return;
	snprintf(nm->seen[nm->nseen++], sizeof(nm->seen[0]), "%s", full);
	nm->n++;
	if (nm->cb(nm->arg, full) < 0)
		nm->stop = 1;
}

static int
pmu_same_event(const struct perf_event_attr *a, uint32_t type, uint64_t config)
{
	return a->type == type && a->config == config;
}

/* Every alias that resolves on p to (type, config); the recorded event's
 * own name (perf's generic one) is the caller's. */
static void
pmu_names_of(struct pmu_ctx *p, uint32_t type, uint64_t config, struct pmu_namer *nm)
{
	struct pmu_counter c;
	/* a recording's model: the alias each name has there; else the
	 * machine-independent ("*") ones */
	for (int i = 0; i < hwdb_naliases; i++) {
		const struct hwdb_alias *a = &hwdb_aliases[i];
		if (strcmp(a->ha_target, "none") == 0 || (p->pc_recorded ?
		    pmu_alias_find(p, a->ha_name) != a : strcmp(a->ha_scope, "*") != 0))
			continue;
		if (pmu_resolve(p, a->ha_target, &c, NULL, 0) == 0 &&
		    pmu_same_event(&c.attr, type, config))
			pmu_name_offer(nm, a->ha_name);
	}
}

static int
pmu_pfm_encodes_to(const char *spelled, uint64_t raw)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	return pfm_get_os_event_encoding(spelled, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT,
	    &arg) == PFM_SUCCESS && attr.config == raw;
}

/* EVENT and EVENT.UMASK names of the model's libpfm4 table that encode to
 * raw. */
static void
pmu_native_names_of(struct pmu_ctx *p, uint64_t raw, struct pmu_namer *nm)
{
	pfm_pmu_info_t pi;
	char spelled[256];
	if (!p->pc_pfm_ok || !p->pc_pfm_pmu[0])
		return;
	for (int i = PFM_PMU_NONE; i < PFM_PMU_MAX; i++) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info((pfm_pmu_t)i, &pi) != PFM_SUCCESS || strcmp(pi.name, p->pc_pfm_pmu))
			continue;
		for (int e = pi.first_event; e != -1 && !nm->stop; e = pfm_get_event_next(e)) {
			pfm_event_info_t ei;
			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			/* the event select must match before any unit mask can */
			if (pfm_get_event_info(e, PFM_OS_NONE, &ei) != PFM_SUCCESS ||
			    (ei.code & 0xff) != (raw & 0xff))
				continue;
			/* the event alone (its default unit mask), then each unit mask */
			snprintf(spelled, sizeof(spelled), "%s::%s", pi.name, ei.name);
			if (pmu_pfm_encodes_to(spelled, raw))
				pmu_name_offer(nm, spelled + strlen(pi.name) + 2);
			for (int a = 0; a < ei.nattrs; a++) {
				pfm_event_attr_info_t ai;
				memset(&ai, 0, sizeof(ai));
				ai.size = sizeof(ai);
				if (pfm_get_event_attr_info(e, a, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
				    ai.type != PFM_ATTR_UMASK)
					continue;
				snprintf(spelled, sizeof(spelled), "%s::%s:%s", pi.name, ei.name, ai.name);
				if (pmu_pfm_encodes_to(spelled, raw))
					pmu_name_offer(nm, spelled + strlen(pi.name) + 2);
			}
		}
	}
}

/* The recorded PMU of attr: its name (prefix when not the plain "cpu") and
 * the event as the core PMU's own type and config. */
static void
pmu_recorded_split(const struct pmu_ctx *p, const struct perf_event_attr *a,
    char *pmu, size_t len, uint32_t *type, uint64_t *config)
{
	uint32_t ptype = 0;
	*type = a->type;
	*config = a->config;
	pmu[0] = '\0';
	if ((a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE) && a->config >> 32) {
		ptype = (uint32_t)(a->config >> 32);	/* PERF_PMU_TYPE_SHIFT */
		*config = a->config & 0xffffffffULL;
	} else if (a->type >= PERF_TYPE_MAX) {
		ptype = a->type;
		*type = PERF_TYPE_RAW;
	}
	for (int i = 0; ptype && i < p->pc_ntypes; i++)
		if (p->pc_types[i].type == ptype && strcmp(p->pc_types[i].name, "cpu") != 0)
			snprintf(pmu, len, "%s", p->pc_types[i].name);
}

int
pmu_generic_aliases(struct pmu_ctx *p, const struct perf_event_attr *attr,
    int (*cb)(void *arg, const char *alias), void *arg)
{
	struct pmu_namer *nm = calloc(1, sizeof(*nm));
	char pmu[64];
	uint32_t type;
	uint64_t config;
	if (!nm)
		return -1;
	nm->cb = cb;
	nm->arg = arg;
	pmu_recorded_split(p, attr, pmu, sizeof(pmu), &type, &config);
	if (pmu[0])
		snprintf(nm->prefix, sizeof(nm->prefix), "%s.", pmu);
	if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_SOFTWARE || type == PERF_TYPE_HW_CACHE ||
	    (p->pc_recorded && type == PERF_TYPE_RAW))
		pmu_names_of(p, type, config, nm);
	/* the recording model's names of what the kernel counted */
	for (size_t i = 0; p->pc_recorded && i < sizeof(pmu_kernel_map) /
	    sizeof(pmu_kernel_map[0]); i++) {
		if (type != PERF_TYPE_HARDWARE || config != pmu_kernel_map[i].generic ||
		    strcmp(pmu_kernel_map[i].vendor, p->pc_budget.pb_vendor) != 0)
			continue;
		pmu_names_of(p, PERF_TYPE_RAW, pmu_kernel_map[i].raw, nm);
		pmu_native_names_of(p, pmu_kernel_map[i].raw, nm);
	}
	if (p->pc_recorded && type == PERF_TYPE_RAW)
		pmu_native_names_of(p, config, nm);
	int n = nm->stop ? -1 : nm->n;
	free(nm);
	return n;
}
