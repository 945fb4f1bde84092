/*
 * pmu_core.c — the pmu context: libpfm4 start-up, which CPU model this is,
 * and the register budget of one logical CPU.
 *
 * The model is recognised, first match wins, by: LIBPFM_FORCE_PMU (a
 * simulated model: nothing about the host's PMU is used), the kernel's core
 * PMU (caps/pmu_name, or the hybrid cpu_core/cpu_atom devices, or an Arm
 * CPU part), then libpfm4's own CPUID detection.  Budget figures come from
 * the kernel's sysfs caps when it publishes counter counts, else from the
 * hwdb entry, else from libpfm4.  hwdb precedes libpfm4 because libpfm4
 * reports the size of its register tables (16 on Icelake, where the SDM
 * gives 8 per logical CPU) and does not halve the Skylake-era counters
 * when SMT shares them.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfmon/pfmlib.h>

#include "pmu/pmu_impl.h"


/*
 * libpfm4 keeps one process-wide table; this mirrors it.  It is the one
 * mutable static of pmu/: pfm_initialize() reads LIBPFM_FORCE_PMU only when
 * it starts, so a context opened with a different forced model must restart
 * libpfm4, and the last context to close shuts it down.
 */
static struct {
	pthread_mutex_t mu;
	int users;
	int rc;
	char force[64];
} pmu_pfm = { PTHREAD_MUTEX_INITIALIZER, 0, PFM_ERR_NOINIT, "" };

void
pmu_logf(struct pmu_ctx *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!p->pc_log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->pc_log(p->pc_log_arg, msg);
}

/* First line of a small file, newline stripped.  0 or -errno. */
int
pmu_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		buf[0] = '\0';
		return -ENODATA;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * libpfm4 reads LIBPFM_FORCE_PMU only in pfm_initialize(), so the model
 * asked for is put there for that call and the caller's environment is
 * restored after it.  force "" means this machine's own PMU.
 */
static int
pmu_pfm_init_as(const char *force)
{
	const char *env = getenv("LIBPFM_FORCE_PMU");
	char *saved = env ? strdup(env) : NULL;
	if (force[0])
		setenv("LIBPFM_FORCE_PMU", force, 1);
	else
		unsetenv("LIBPFM_FORCE_PMU");
	int rc = pfm_initialize();
	if (saved)
		setenv("LIBPFM_FORCE_PMU", saved, 1);
	else
		unsetenv("LIBPFM_FORCE_PMU");
	free(saved);
	return rc;
}

static int
pmu_pfm_start(const char *force)
{
	pthread_mutex_lock(&pmu_pfm.mu);
	if (pmu_pfm.users > 0 && strcmp(pmu_pfm.force, force) != 0) {
		pfm_terminate();
		pmu_pfm.rc = PFM_ERR_NOINIT;
	}
	if (pmu_pfm.rc != PFM_SUCCESS) {
		pmu_pfm.rc = pmu_pfm_init_as(force);
		snprintf(pmu_pfm.force, sizeof(pmu_pfm.force), "%s", force);
	}
	pmu_pfm.users++;
	int rc = pmu_pfm.rc;
	pthread_mutex_unlock(&pmu_pfm.mu);
	return rc;
}

static void
pmu_pfm_stop(void)
{
	pthread_mutex_lock(&pmu_pfm.mu);
	if (pmu_pfm.users > 0 && --pmu_pfm.users == 0) {
		pfm_terminate();
		pmu_pfm.rc = PFM_ERR_NOINIT;
	}
	pthread_mutex_unlock(&pmu_pfm.mu);
}

/*
 * libpfm4's core PMU: the forced one by name, else the first present PMU
 * of type core.  By name, because pfm_terminate() leaves the PMUs of an
 * earlier forced start marked present (libpfm4 4.13), so after a restart
 * "present" means "present now or earlier in this process".
 */
static void
pmu_pick_pfm_core(struct pmu_ctx *p)
{
	for (int i = PFM_PMU_NONE; i < PFM_PMU_MAX; i++) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info((pfm_pmu_t)i, &pi) != PFM_SUCCESS)
			continue;
		if (!pi.is_present || pi.type != PFM_PMU_TYPE_CORE)
			continue;
		if (p->pc_force[0] && strcasecmp(pi.name, p->pc_force) != 0)
			continue;
		snprintf(p->pc_pfm_pmu, sizeof(p->pc_pfm_pmu), "%s", pi.name);
		snprintf(p->pc_pfm_desc, sizeof(p->pc_pfm_desc), "%s", pi.desc);
		p->pc_pfm_gp = pi.num_cntrs;
		p->pc_pfm_fixed = pi.num_fixed_cntrs;
		return;
	}
}

const struct hwdb_budget *
pmu_hwdb_find(const char *id)
{
	for (int i = 0; i < hwdb_nbudgets; i++)
		if (strcmp(hwdb_budgets[i].hb_id, id) == 0)
			return &hwdb_budgets[i];
	return NULL;
}

/* Whether hwdb MATCH string m has the token key ("pfm=skl"). */
static int
pmu_match_has(const char *m, const char *key)
{
	size_t kl = strlen(key);
	while (*m) {
		size_t tl = strcspn(m, " ");
		if (tl == kl && strncasecmp(m, key, kl) == 0)
			return 1;
		m += tl;
		m += strspn(m, " ");
	}
	return 0;
}

/* The hwdb entry one of whose MATCH tokens equals key ("pfm=skl"). */
static const struct hwdb_budget *
pmu_hwdb_match(const char *key)
{
	for (int i = 0; i < hwdb_nbudgets; i++)
		if (pmu_match_has(hwdb_budgets[i].hb_match, key))
			return &hwdb_budgets[i];
	return NULL;
}

/*
 * The hwdb entries a model name stands for: its id, or a pfm= or model=
 * token.  A hybrid's model= names both core types (P-core first, as
 * hwdb/budgets.txt lists them).  Returns how many (0-2).
 */
int
pmu_model_entries(const char *model, const struct hwdb_budget *out[2])
{
	char pfm[80], mod[80];
	int n = 0;
	snprintf(pfm, sizeof(pfm), "pfm=%s", model);
	snprintf(mod, sizeof(mod), "model=%s", model);
	for (int i = 0; i < hwdb_nbudgets && n < 2; i++) {
		const struct hwdb_budget *hb = &hwdb_budgets[i];
		if (strcasecmp(hb->hb_id, model) == 0 || pmu_match_has(hb->hb_match, pfm) ||
		    pmu_match_has(hb->hb_match, mod))
			out[n++] = hb;
	}
	return n;
}

/* The libpfm4 PMU to force for a model: its own name when that is a pfm=
 * token or no hwdb entry names it, else the entry's first pfm= token. */
static void
pmu_model_pfm(const char *model, const struct hwdb_budget *hb, char *out, size_t len)
{
	char key[80];
	snprintf(key, sizeof(key), "pfm=%s", model);
	const char *t = hb ? strstr(hb->hb_match, "pfm=") : NULL;
	if (!hb || pmu_match_has(hb->hb_match, key) || !t)
		snprintf(out, len, "%s", model);
	else
		snprintf(out, len, "%.*s", (int)strcspn(t + 4, " "), t + 4);
}

/*
 * Parse "0x00c0,0x0100/instructions 0x003c/cycles 0x0400": per fixed
 * counter, the raw configs it takes and the generic name mapped onto it.
 */
static void
pmu_parse_fixed(const char *spec, struct pmu_budget *b)
{
	for (int i = 0; *spec && i < PMU_MAX_FIXED; i++) {
		char *end = (char *)spec;
		int k = 0;
		do {
			uint64_t v = strtoull(end + (*end == ','), &end, 0);
			if (k < PMU_MAX_FIXED_ALT)
				b->pb_fixed_cfg[i][k++] = v;
		} while (*end == ',');
		b->pb_fixed_generic[i][0] = '\0';
		if (*end == '/') {
			size_t n = strcspn(end + 1, " ");
			if (n >= sizeof(b->pb_fixed_generic[i]))
				n = sizeof(b->pb_fixed_generic[i]) - 1;
			memcpy(b->pb_fixed_generic[i], end + 1, n);
			b->pb_fixed_generic[i][n] = '\0';
			end += 1 + n;
		}
		end += strcspn(end, " ");
		spec = end + strspn(end, " ");
	}
}

void
pmu_budget_from_hwdb(const struct hwdb_budget *hb, int smt, struct pmu_budget *b)
{
	memset(b, 0, sizeof(*b));
	b->pb_hw = hb;
	b->pb_known = 1;
	b->pb_smt = smt;
	b->pb_gp = smt ? hb->hb_gp_smt : hb->hb_gp;
	b->pb_fixed = hb->hb_fixed;
	snprintf(b->pb_name, sizeof(b->pb_name), "%s", hb->hb_name);
	snprintf(b->pb_vendor, sizeof(b->pb_vendor), "%s", hb->hb_vendor);
	pmu_parse_fixed(hb->hb_fixed_events, b);
	snprintf(b->pb_gp_src, sizeof(b->pb_gp_src), "%s (%s)",
	    hb->hb_where, hb->hb_source);
	snprintf(b->pb_fixed_src, sizeof(b->pb_fixed_src), "%s",
	    hb->hb_where);
}

/*
 * The kernel's core PMU device: "cpu" on x86, "cpu_core" on hybrid Intel,
 * "armv8_*" on Arm.  NULL when the kernel exposes none (a VM without a
 * virtual PMU).
 */
const char *
pmu_kernel_core_pmu(char *buf, size_t len)
{
	static const char *const fixed_names[] = { "cpu", "cpu_core", NULL };
	char path[256];

	for (int i = 0; fixed_names[i]; i++) {
		snprintf(path, sizeof(path), PMU_SYSFS_ROOT "/%s", fixed_names[i]);
		if (access(path, F_OK) == 0) {
			snprintf(buf, len, "%s", fixed_names[i]);
			return buf;
		}
	}
	DIR *d = opendir(PMU_SYSFS_ROOT);
	if (!d)
		return NULL;
	const char *found = NULL;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "armv8_", 6) == 0 ||
		    strncmp(de->d_name, "armv9_", 6) == 0) {
			snprintf(buf, len, "%s", de->d_name);
			found = buf;
			break;
		}
	}
	closedir(d);
	return found;
}

/* "arm=0xd0c" from /proc/cpuinfo on an Arm machine, or "". */
static void
pmu_arm_part_key(char *key, size_t len)
{
	char line[256], impl[32] = "", part[32] = "";
	FILE *f = fopen("/proc/cpuinfo", "re");

	key[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && !(impl[0] && part[0])) {
		char *v = strchr(line, ':');
		if (!v)
			continue;
		v += 1 + strspn(v + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		if (strncmp(line, "CPU implementer", 15) == 0)
			snprintf(impl, sizeof(impl), "%s", v);
		else if (strncmp(line, "CPU part", 8) == 0)
			snprintf(part, sizeof(part), "%s", v);
	}
	fclose(f);
	if (strcmp(impl, "0x41") == 0 && part[0])
		snprintf(key, len, "arm=%s", part);
}

/*
 * Counter counts the kernel publishes in caps/ (newer kernels; older ones
 * only give pmu_name and max_precise).  A value may be a count or a bitmask.
 */
static int
pmu_caps_count(const char *pmu, const char *const *files, char *src, size_t srclen)
{
	char path[160], val[64];

	for (int i = 0; files[i]; i++) {
		snprintf(path, sizeof(path), PMU_SYSFS_ROOT "/%s/caps/%s", pmu, files[i]);
		if (pmu_read_line(path, val, sizeof(val)) != 0 || !val[0])
			continue;
		unsigned long long v = strtoull(val, NULL, 0);
		int n = strncmp(val, "0x", 2) == 0 ? __builtin_popcountll(v) : (int)v;
		snprintf(src, srclen, "kernel sysfs %s", path);
		return n;
	}
	return -1;
}

static void
pmu_budget_sysfs(const char *pmu, struct pmu_budget *b)
{
	static const char *const gp_files[] = { "num_counters", "counters", NULL };
	static const char *const fx_files[] = { "num_fixed_counters", "fixed_counters", NULL };
	char src[192];

	int n = pmu_caps_count(pmu, gp_files, src, sizeof(src));
	if (n >= 0) {
		b->pb_gp = n;
		b->pb_known = 1;
		snprintf(b->pb_gp_src, sizeof(b->pb_gp_src), "%s", src);
	}
	n = pmu_caps_count(pmu, fx_files, src, sizeof(src));
	if (n >= 0 && n <= PMU_MAX_FIXED) {
		b->pb_fixed = n;
		snprintf(b->pb_fixed_src, sizeof(b->pb_fixed_src), "%s", src);
	}
}

/* The hwdb entries that describe the host: both core types on a hybrid
 * (P-core first), else one.  Returns how many. */
static int
pmu_host_entries(struct pmu_ctx *p, const char *kpmu, const struct hwdb_budget *hb[2])
{
	char key[96], path[256], val[64];

	hb[0] = hb[1] = NULL;
	if (kpmu && strcmp(kpmu, "cpu_core") == 0) {
		int n = 0;
		if ((hb[n] = pmu_hwdb_match("dev=cpu_core")) != NULL)
			n++;
		if (access(PMU_SYSFS_ROOT "/cpu_atom", F_OK) == 0 &&
		    (hb[n] = pmu_hwdb_match("dev=cpu_atom")) != NULL)
			n++;
		return n;
	}
	if (kpmu) {
		snprintf(path, sizeof(path), PMU_SYSFS_ROOT "/%s/caps/pmu_name", kpmu);
		if (pmu_read_line(path, val, sizeof(val)) == 0) {
			snprintf(key, sizeof(key), "caps=%s", val);
			hb[0] = pmu_hwdb_match(key);
		}
	}
	if (!hb[0]) {
		pmu_arm_part_key(key, sizeof(key));
		if (key[0])
			hb[0] = pmu_hwdb_match(key);
	}
	if (!hb[0] && p->pc_pfm_pmu[0]) {
		snprintf(key, sizeof(key), "pfm=%s", p->pc_pfm_pmu);
		hb[0] = pmu_hwdb_match(key);
	}
	return hb[0] != NULL;
}

static int
pmu_read_int(const char *path, int dfl)
{
	char val[32];
	if (pmu_read_line(path, val, sizeof(val)) != 0 || !val[0])
		return dfl;
	return atoi(val);
}

/*
 * A model hwdb does not list still has a vendor, so that the vendor's
 * aliases (the architectural events) apply: from libpfm4's description
 * under LIBPFM_FORCE_PMU, else from /proc/cpuinfo.
 */
static void
pmu_guess_vendor(const struct pmu_ctx *p, struct pmu_budget *b)
{
	static const char *const map[][2] = {
		{ "Intel", "intel" }, { "GenuineIntel", "intel" }, { "AMD", "amd" },
		{ "AuthenticAMD", "amd" }, { "ARM", "arm" }, { "Arm", "arm" },
	};
	char line[256], vendor[64] = "";
	FILE *f;

	if (p->pc_simulated) {
		snprintf(vendor, sizeof(vendor), "%.*s", (int)strcspn(p->pc_pfm_desc, " "),
		    p->pc_pfm_desc);
	} else if ((f = fopen("/proc/cpuinfo", "re")) != NULL) {
		while (!vendor[0] && fgets(line, sizeof(line), f)) {
			if (strncmp(line, "vendor_id", 9) == 0 && strchr(line, ':'))
				sscanf(strchr(line, ':') + 1, "%63s", vendor);
			else if (strncmp(line, "CPU implementer", 15) == 0 && strstr(line, "0x41"))
				snprintf(vendor, sizeof(vendor), "ARM");
		}
		fclose(f);
	}
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(vendor, map[i][0]) == 0)
			snprintf(b->pb_vendor, sizeof(b->pb_vendor), "%s", map[i][1]);
}

/* No hwdb entry: libpfm4's figures, the vendor's architectural fixed
 * counters. */
static void
pmu_budget_from_pfm(struct pmu_ctx *p, int smt, struct pmu_budget *b)
{
	memset(b, 0, sizeof(*b));
	b->pb_smt = smt;
	snprintf(b->pb_name, sizeof(b->pb_name), "%s",
	    p->pc_pfm_desc[0] ? p->pc_pfm_desc : "unknown CPU");
	if (p->pc_pfm_pmu[0]) {
		b->pb_known = 1;
		b->pb_gp = p->pc_pfm_gp;
		b->pb_fixed = p->pc_pfm_fixed < PMU_MAX_FIXED ? p->pc_pfm_fixed : PMU_MAX_FIXED;
		snprintf(b->pb_gp_src, sizeof(b->pb_gp_src),
		    "libpfm4 pfm_get_pmu_info(%s)", p->pc_pfm_pmu);
		snprintf(b->pb_fixed_src, sizeof(b->pb_fixed_src), "%s", b->pb_gp_src);
	}
	pmu_guess_vendor(p, b);
	/* Intel's fixed counters 0-2 are architectural (SDM Vol. 3B). */
	if (b->pb_fixed >= 3 && strcmp(b->pb_vendor, "intel") == 0)
		pmu_parse_fixed("0x00c0/instructions 0x003c/cycles 0x0300/ref-cycles", b);
}

static void
pmu_budget_log(struct pmu_ctx *p, const struct pmu_budget *b)
{
	pmu_logf(p, "pmu: %s: %d general-purpose (%s) + %d fixed counters%s",
	    b->pb_name, b->pb_gp, b->pb_known ? b->pb_gp_src : "no source",
	    b->pb_fixed, b->pb_watchdog ? ", NMI watchdog on" : "");
}

/*
 * A named model's budget is the hwdb's (libpfm4's when hwdb lacks it),
 * with the SMT setting given (on when unsaid: the smaller budget where
 * hyper-threads split the counters) and no NMI watchdog: nothing of this
 * machine's counts.  The host's comes from hwdb, then the kernel's caps.
 */
static void
pmu_budget_build(struct pmu_ctx *p, int smt_opt)
{
	char kbuf[64];
	const struct hwdb_budget *hb[2] = { NULL, NULL };
	const char *kpmu = NULL;
	int nhb, smt;

	if (p->pc_simulated) {
		nhb = pmu_model_entries(p->pc_model, hb);
		smt = smt_opt != 0;
	} else {
		kpmu = pmu_kernel_core_pmu(kbuf, sizeof(kbuf));
		nhb = pmu_host_entries(p, kpmu, hb);
		smt = pmu_read_int("/sys/devices/system/cpu/smt/active", 1) != 0;
	}
	if (nhb > 0)
		pmu_budget_from_hwdb(hb[0], smt, &p->pc_budget);
	else
		pmu_budget_from_pfm(p, smt, &p->pc_budget);
	p->pc_nbudgets = 1;
	if (nhb == 2) {
		pmu_budget_from_hwdb(hb[1], smt, &p->pc_budget2);
		p->pc_nbudgets = 2;
	}
	if (kpmu)
		pmu_budget_sysfs(kpmu, &p->pc_budget);
	if (kpmu && nhb == 2)
		pmu_budget_sysfs("cpu_atom", &p->pc_budget2);
	/* The hard-lockup detector is a pinned cycles event on every CPU. */
	if (!p->pc_simulated)
		p->pc_budget.pb_watchdog = p->pc_budget2.pb_watchdog =
		    pmu_read_int("/proc/sys/kernel/nmi_watchdog", 0) > 0;
	pmu_budget_log(p, &p->pc_budget);
	if (p->pc_nbudgets == 2)
		pmu_budget_log(p, &p->pc_budget2);
}

/* Which model a context plans for, and the libpfm4 PMU to force for it. */
static int
pmu_pick_model(struct pmu_ctx *p, const struct pmu_target *t)
{
	const char *env = getenv("LIBPFM_FORCE_PMU");
	const char *model = t && t->model && t->model[0] ? t->model : env;
	const struct hwdb_budget *hb[2];

	if (!model || !model[0])
		return 0;
	if (strlen(model) >= sizeof(p->pc_model) - 8 || strpbrk(model, " =/"))
		return -EINVAL;
	snprintf(p->pc_model, sizeof(p->pc_model), "%s", model);
	p->pc_simulated = 1;
	int n = pmu_model_entries(model, hb);
	pmu_model_pfm(model, n ? hb[0] : NULL, p->pc_force, sizeof(p->pc_force));
	return n;
}

struct pmu_ctx *
pmu_open(pmu_log_fn log, void *arg, int *errp)
{
	return pmu_open_target(NULL, log, arg, errp);
}

struct pmu_ctx *
pmu_open_target(const struct pmu_target *t, pmu_log_fn log, void *arg, int *errp)
{
	struct pmu_ctx *p = calloc(1, sizeof(*p));
	if (!p) {
		if (errp)
			*errp = -ENOMEM;
		return NULL;
	}
	p->pc_log = log;
	p->pc_log_arg = arg;
	p->pc_hw_state = -1;
	int nhb = pmu_pick_model(p, t);
	int rc = nhb < 0 ? PFM_ERR_NOINIT : pmu_pfm_start(p->pc_force);
	p->pc_pfm_started = nhb >= 0;
	p->pc_pfm_ok = nhb >= 0 && rc == PFM_SUCCESS;
	if (p->pc_pfm_ok)
		pmu_pick_pfm_core(p);
	else if (nhb >= 0)
		pmu_logf(p, "pmu: libpfm4 did not start: %s", pfm_strerror(rc));
	if (nhb < 0 || (p->pc_simulated && !p->pc_pfm_pmu[0] && nhb == 0)) {
		/* A model neither hwdb nor libpfm4 knows would silently be the host. */
		pmu_logf(p, "pmu: %s is not a model hwdb/budgets.txt or this libpfm4 knows "
		    "(pmctrace --hw -x pmumodel=list lists them)", p->pc_model);
		pmu_close(p);
		if (errp)
			*errp = -EINVAL;
		return NULL;
	}
	if (p->pc_simulated)
		pmu_logf(p, "pmu: planning for %s (%s)", p->pc_model, p->pc_pfm_pmu[0] ?
		    p->pc_pfm_desc : "libpfm4 has no event table for it");
	pmu_budget_build(p, t ? t->smt : -1);
	if (errp)
		*errp = 0;
	return p;
}

/* Whether this libpfm4 has a PMU table named in hwdb MATCH string m. */
static const char *
pmu_pfm_table_of(const char *m, char *buf, size_t len)
{
	for (int i = PFM_PMU_NONE; i < PFM_PMU_MAX; i++) {
		pfm_pmu_info_t pi;
		char key[80];
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info((pfm_pmu_t)i, &pi) != PFM_SUCCESS || pi.type != PFM_PMU_TYPE_CORE)
			continue;
		snprintf(key, sizeof(key), "pfm=%s", pi.name);
		if (pmu_match_has(m, key)) {
			snprintf(buf, len, "%s", pi.name);
			return buf;
		}
	}
	return NULL;
}

int
pmu_models_report(struct pmu_ctx *p, FILE *out)
{
	char pfm[64];
	if (!p || !out)
		return -EINVAL;
	fprintf(out, "%-8s %-38s %4s %6s %5s  %-18s %s\n", "MODEL", "NAMES", "GP", "GP_SMT",
	    "FIXED", "LIBPFM4", "NAME");
	for (int i = 0; i < hwdb_nbudgets; i++) {
		const struct hwdb_budget *hb = &hwdb_budgets[i];
		char names[160] = "";
		size_t o = 0;
		for (const char *m = hb->hb_match; *m && o + 2 < sizeof(names);) {
			size_t tl = strcspn(m, " ");
			if ((strncmp(m, "pfm=", 4) == 0 || strncmp(m, "model=", 6) == 0))
				o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%.*s",
				    o ? "," : "", (int)(tl - (size_t)(strchr(m, '=') + 1 - m)),
				    strchr(m, '=') + 1);
			m += tl;
			m += strspn(m, " ");
		}
		const char *t = p->pc_pfm_started ? pmu_pfm_table_of(hb->hb_match, pfm, sizeof(pfm)) : NULL;
		fprintf(out, "%-8s %-38s %4d %6d %5d  %-18s %s\n", hb->hb_id, names[0] ? names : "-",
		    hb->hb_gp, hb->hb_gp_smt, hb->hb_fixed, t ? t : "-", hb->hb_name);
	}
	return ferror(out) ? -EIO : 0;
}

int
pmu_simulated(const struct pmu_ctx *p)
{
	return p && p->pc_simulated;
}

void
pmu_close(struct pmu_ctx *p)
{
	if (!p)
		return;
	pmu_names_free(p);
	pmu_plan_sets_free(p);
	if (p->pc_pfm_started)
		pmu_pfm_stop();
	free(p);
}
