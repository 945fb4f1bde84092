/*
 * pmu_probe.c — asking the kernel what can be counted here, and saying so.
 *
 * pmu_hw_available() opens one user-mode cycles counter (cached);
 * pmu_explain_unavailable() words the answer for a script that named a
 * hardware counter; pmu_hw_report() is `pmctrace --hw`, the same facts as
 * indented text or JSON through one small emitter (pmu_out_*), so the two
 * forms cannot drift apart.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/capability.h>
#include <perfmon/pfmlib.h>

#include "pmu/pmu_impl.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif
#ifndef CAP_BPF
#define CAP_BPF		39
#endif

#define PMU_SW_HINT	"software counters work: cpu-clock, task-clock, page-faults, context-switches"

/* Open attr on the calling thread, any CPU, and close it.  0 or -errno. */
int
pmu_try_open(const struct perf_event_attr *attr)
{
	struct perf_event_attr a = *attr;
	a.size = sizeof(a);
	a.disabled = 1;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int
pmu_hw_available(struct pmu_ctx *p)
{
	if (!p)
		return 0;
	if (p->pc_hw_state < 0) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_HARDWARE;
		a.config = PERF_COUNT_HW_CPU_CYCLES;
		/* user mode only, so that perf_event_paranoid=2 does not decide */
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		int rc = pmu_try_open(&a);
		p->pc_hw_state = rc == 0;
		p->pc_hw_errno = -rc;
		pmu_logf(p, "pmu: a hardware cycles counter %s%s", rc ? "does not open: " : "opens",
		    rc ? strerror(-rc) : "");
	}
	return p->pc_hw_state;
}

/* "breakpoint, msr, software" — the kernel's event sources. */
static void
pmu_device_list(char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	DIR *d = opendir(PMU_SYSFS_ROOT);
	if (!d) {
		snprintf(buf, len, "none readable");
		return;
	}
	struct dirent *de;
	while ((de = readdir(d)) != NULL && o + 1 < len) {
		if (de->d_name[0] == '.')
			continue;
		int w = snprintf(buf + o, len - o, "%s%s", o ? ", " : "", de->d_name);
		if (w < 0 || (size_t)w >= len - o)
			break;
		o += (size_t)w;
	}
	closedir(d);
}

static int
pmu_cpuinfo_flag(const char *flag)
{
	char line[4096];
	int found = 0;
	FILE *f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return 0;
	size_t fl = strlen(flag);
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		for (char *s = strstr(line, flag); s && !found; s = strstr(s + 1, flag))
			found = s[-1] == ' ' && (s[fl] == ' ' || s[fl] == '\n');
		break;
	}
	fclose(f);
	return found;
}

int
pmu_explain_unavailable(struct pmu_ctx *p, const char *counter, char *buf, size_t len)
{
	char kbuf[64], devs[256], par[16] = "?";
	const char *who = counter && counter[0] ? counter : "this counter";

	if (!buf || len == 0)
		return 0;
	if (!p)
		return snprintf(buf, len, "%s needs a hardware PMU; %s", who, PMU_SW_HINT);
	pmu_hw_available(p);
	const char *err = p->pc_hw_errno ? strerror(p->pc_hw_errno) : "no error";
	if (!pmu_kernel_core_pmu(kbuf, sizeof(kbuf))) {
		pmu_device_list(devs, sizeof(devs));
		return snprintf(buf, len, "%s needs a hardware PMU, and none is exposed here "
		    "(%sthe kernel lists no CPU PMU among %s: %s; perf_event_open(cycles): %s); %s",
		    who, pmu_cpuinfo_flag("hypervisor") ?
		    "a virtual machine whose hypervisor passes no PMU through: " : "",
		    PMU_SYSFS_ROOT, devs, err, PMU_SW_HINT);
	}
	pmu_read_line("/proc/sys/kernel/perf_event_paranoid", par, sizeof(par));
	if (p->pc_hw_errno == EACCES || p->pc_hw_errno == EPERM)
		return snprintf(buf, len, "%s needs a hardware PMU, and this user may not open "
		    "one (perf_event_open(cycles): %s; perf_event_paranoid=%s: run as root, grant "
		    "CAP_PERFMON, or lower it); %s", who, err, par, PMU_SW_HINT);
	return snprintf(buf, len, "%s needs a hardware PMU, and the kernel's %s PMU would "
	    "not open one (perf_event_open(cycles): %s); %s", who, kbuf, err, PMU_SW_HINT);
}

/* ---- the emitter: one tree, printed as text or JSON ------------------ */

struct pmu_out {
	FILE *f;
	int json;
	int depth;
	int first[8];		/* no comma needed yet at this depth */
	int in_rec;		/* text: inside a one-line record */
	int rec_fields;
};

static void
pmu_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void
pmu_out_sep(struct pmu_out *o, const char *key)
{
	if (!o->first[o->depth])
		fputc(',', o->f);
	o->first[o->depth] = 0;
	fprintf(o->f, "\n%*s", 2 * o->depth, "");
	if (key) {
		pmu_json_str(o->f, key);
		fputs(": ", o->f);
	}
}

static void
pmu_out_open(struct pmu_out *o, const char *key, const char *title, int array)
{
	if (o->json) {
		pmu_out_sep(o, key);
		fputc(array ? '[' : '{', o->f);
	} else if (title) {
		fprintf(o->f, "\n%s\n", title);
	}
	if (o->depth < 7)
		o->first[++o->depth] = 1;
}

static void
pmu_out_close(struct pmu_out *o, int array)
{
	o->depth--;
	if (o->json)
		fprintf(o->f, "\n%*s%c", 2 * o->depth, "", array ? ']' : '}');
}

/* A record is one element of an array: one line of text. */
static void
pmu_out_rec(struct pmu_out *o)
{
	if (o->json) {
		pmu_out_open(o, NULL, NULL, 0);
	} else {
		o->in_rec = 1;
		o->rec_fields = 0;
		fputs("  ", o->f);
	}
}

static void
pmu_out_rec_end(struct pmu_out *o)
{
	if (o->json) {
		pmu_out_close(o, 0);
	} else {
		fputc('\n', o->f);
		o->in_rec = 0;
	}
}

static void
pmu_out_text_key(struct pmu_out *o, const char *key)
{
	if (o->in_rec) {
		if (o->rec_fields++)
			fprintf(o->f, "  %s=", key);
	} else {
		fprintf(o->f, "  %s: ", key);
	}
}

static void
pmu_out_str(struct pmu_out *o, const char *key, const char *val)
{
	if (o->json) {
		pmu_out_sep(o, key);
		if (val)
			pmu_json_str(o->f, val);
		else
			fputs("null", o->f);
		return;
	}
	pmu_out_text_key(o, key);
	fputs(val ? val : "-", o->f);
	if (!o->in_rec)
		fputc('\n', o->f);
}

static void
pmu_out_int(struct pmu_out *o, const char *key, long long v)
{
	char buf[32];
	if (o->json) {
		pmu_out_sep(o, key);
		fprintf(o->f, "%lld", v);
		return;
	}
	snprintf(buf, sizeof(buf), "%lld", v);
	pmu_out_str(o, key, buf);
}

static void
pmu_out_bool(struct pmu_out *o, const char *key, int v)
{
	if (o->json) {
		pmu_out_sep(o, key);
		fputs(v ? "true" : "false", o->f);
		return;
	}
	pmu_out_str(o, key, v ? "yes" : "no");
}

/* An element of an array of strings: a "- text" line in text. */
static void
pmu_out_item(struct pmu_out *o, const char *val)
{
	if (o->json) {
		pmu_out_sep(o, NULL);
		pmu_json_str(o->f, val);
	} else {
		fprintf(o->f, "  - %s\n", val);
	}
}

/* ---- facts ------------------------------------------------------------ */

static void
pmu_cpuinfo_field(const char *field, char *val, size_t len)
{
	char line[1024];
	size_t fl = strlen(field);
	FILE *f = fopen("/proc/cpuinfo", "re");
	val[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');
		if (!c || strncmp(line, field, fl) != 0 || (line[fl] != ' ' && line[fl] != '\t' && line[fl] != ':'))
			continue;
		c += 1 + strspn(c + 1, " \t");
		c[strcspn(c, "\n")] = '\0';
		snprintf(val, len, "%s", c);
		break;
	}
	fclose(f);
}

static void
pmu_report_cpu(struct pmu_out *o)
{
	static const char *const fields[][2] = {
		{ "vendor_id", "vendor" }, { "cpu family", "family" }, { "model", "model" },
		{ "model name", "model_name" }, { "CPU implementer", "implementer" },
		{ "CPU part", "part" },
	};
	char val[256];
	pmu_out_open(o, "cpu", "CPU (/proc/cpuinfo)", 0);
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		pmu_cpuinfo_field(fields[i][0], val, sizeof(val));
		if (val[0])
			pmu_out_str(o, fields[i][1], val);
	}
	pmu_out_bool(o, "hypervisor", pmu_cpuinfo_flag("hypervisor"));
	pmu_out_close(o, 0);
}

static void
pmu_report_hw(struct pmu_ctx *p, struct pmu_out *o)
{
	char msg[768];
	int ok = pmu_hw_available(p);
	pmu_out_open(o, "hardware_counters", "Hardware counters", 0);
	pmu_out_bool(o, "available", ok);
	if (ok)
		snprintf(msg, sizeof(msg), "a hardware cycles counter opens here");
	else
		pmu_explain_unavailable(p, "a hardware counter (cycles, instructionretired, ...)",
		    msg, sizeof(msg));
	pmu_out_str(o, "statement", msg);
	pmu_out_close(o, 0);
}

static void
pmu_report_kernel_pmus(struct pmu_out *o)
{
	char path[512], type[32], name[64];
	DIR *d = opendir(PMU_SYSFS_ROOT);
	pmu_out_open(o, "kernel_pmus", "Kernel PMUs (" PMU_SYSFS_ROOT ")", 1);
	struct dirent *de;
	while (d && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), PMU_SYSFS_ROOT "/%s/type", de->d_name);
		if (pmu_read_line(path, type, sizeof(type)) != 0)
			snprintf(type, sizeof(type), "?");
		snprintf(path, sizeof(path), PMU_SYSFS_ROOT "/%s/caps/pmu_name", de->d_name);
		if (pmu_read_line(path, name, sizeof(name)) != 0)
			name[0] = '\0';
		pmu_out_rec(o);
		pmu_out_str(o, "name", de->d_name);
		pmu_out_str(o, "type", type);
		if (name[0])
			pmu_out_str(o, "caps_pmu_name", name);
		pmu_out_rec_end(o);
	}
	if (d)
		closedir(d);
	pmu_out_close(o, 1);
}

static const char *
pmu_pfm_type_name(pfm_pmu_type_t t)
{
	switch (t) {
	case PFM_PMU_TYPE_CORE:		return "core";
	case PFM_PMU_TYPE_UNCORE:	return "uncore";
	case PFM_PMU_TYPE_OS_GENERIC:	return "os";
	default:			return "unknown";
	}
}

static void
pmu_report_libpfm(struct pmu_ctx *p, struct pmu_out *o)
{
	char ver[32];
	int v = pfm_get_version();
	snprintf(ver, sizeof(ver), "%d.%d", v >> 16, v & 0xffff);
	pmu_out_open(o, "libpfm4", "libpfm4", 0);
	pmu_out_str(o, "api_version", ver);
	pmu_out_str(o, "forced_pmu", p->pc_force[0] ? p->pc_force : NULL);
	pmu_out_str(o, "core_pmu", p->pc_pfm_pmu[0] ? p->pc_pfm_pmu : NULL);
	pmu_out_open(o, "pmus", "  PMUs libpfm4 detects:", 1);
	for (int i = PFM_PMU_NONE; p->pc_pfm_ok && i < PFM_PMU_MAX; i++) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info((pfm_pmu_t)i, &pi) != PFM_SUCCESS || !pi.is_present)
			continue;
		pmu_out_rec(o);
		pmu_out_str(o, "name", pi.name);
		pmu_out_str(o, "desc", pi.desc);
		pmu_out_str(o, "kind", pmu_pfm_type_name(pi.type));
		pmu_out_int(o, "counters", pi.num_cntrs);
		pmu_out_int(o, "fixed", pi.num_fixed_cntrs);
		pmu_out_rec_end(o);
	}
	pmu_out_close(o, 1);
	pmu_out_close(o, 0);
}

static void
pmu_report_budget(struct pmu_ctx *p, struct pmu_out *o, const struct pmu_budget *b,
    const char *key, const char *title)
{
	char buf[64];
	pmu_out_open(o, key, title, 0);
	pmu_out_str(o, "model", b->pb_name);
	/* under -x pmumodel or LIBPFM_FORCE_PMU the budget is the named model's */
	pmu_out_bool(o, "simulated", p->pc_simulated);
	pmu_out_str(o, "hwdb_id", b->pb_hw ? b->pb_hw->hb_id : NULL);
	pmu_out_bool(o, "known", b->pb_known);
	pmu_out_int(o, "general_purpose", b->pb_gp);
	pmu_out_str(o, "general_purpose_source", b->pb_known ? b->pb_gp_src : NULL);
	pmu_out_int(o, "fixed", b->pb_fixed);
	pmu_out_str(o, "fixed_source", b->pb_known ? b->pb_fixed_src : NULL);
	pmu_out_open(o, "fixed_counters", "  fixed counters (index, config, generic name):", 1);
	for (int i = 0; i < b->pb_fixed && i < PMU_MAX_FIXED; i++) {
		pmu_out_rec(o);
		pmu_out_int(o, "index", i);
		snprintf(buf, sizeof(buf), "0x%04llx", (unsigned long long)b->pb_fixed_cfg[i][0]);
		pmu_out_str(o, "config", buf);
		pmu_out_str(o, "generic", b->pb_fixed_generic[i][0] ? b->pb_fixed_generic[i] : NULL);
		pmu_out_rec_end(o);
	}
	pmu_out_close(o, 1);
	pmu_out_bool(o, "smt", b->pb_smt);
	pmu_out_bool(o, "nmi_watchdog", b->pb_watchdog);
	pmu_out_open(o, "constraints",
	    "  events restricted to some general-purpose counters (hwdb/constraints.txt):", 1);
	for (int i = 0; b->pb_hw && i < hwdb_nconstraints; i++) {
		const struct hwdb_constraint *k = &hwdb_constraints[i];
		if (strcmp(k->hc_budget, b->pb_hw->hb_id) != 0)
			continue;
		pmu_out_rec(o);
		snprintf(buf, sizeof(buf), "0x%04llx", k->hc_config);
		pmu_out_str(o, "config", buf);
		snprintf(buf, sizeof(buf), "0x%04llx", k->hc_mask);
		pmu_out_str(o, "mask", buf);
		snprintf(buf, sizeof(buf), "0x%llx", k->hc_counters);
		pmu_out_str(o, "counters", buf);
		pmu_out_str(o, "source", k->hc_where);
		pmu_out_rec_end(o);
	}
	pmu_out_close(o, 1);
	pmu_out_close(o, 0);
}

static int
pmu_caps_effective(uint64_t *eff)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) != 0)
		return -errno;
	*eff = (uint64_t)data[0].effective | (uint64_t)data[1].effective << 32;
	return 0;
}

static void
pmu_report_perms(struct pmu_out *o)
{
	char par[16];
	uint64_t eff = 0;
	int rc = pmu_caps_effective(&eff);
	pmu_out_open(o, "permissions", "Permissions", 0);
	if (pmu_read_line("/proc/sys/kernel/perf_event_paranoid", par, sizeof(par)) == 0)
		pmu_out_int(o, "perf_event_paranoid", atoi(par));
	else
		pmu_out_str(o, "perf_event_paranoid", NULL);
	pmu_out_bool(o, "CAP_PERFMON", rc == 0 && (eff >> CAP_PERFMON & 1));
	pmu_out_bool(o, "CAP_SYS_ADMIN", rc == 0 && (eff >> CAP_SYS_ADMIN & 1));
	pmu_out_bool(o, "CAP_BPF", rc == 0 && (eff >> CAP_BPF & 1));
	pmu_out_close(o, 0);
}

/* Where tracefs is mounted (from /proc/mounts), or NULL. */
static const char *
pmu_tracefs(char *buf, size_t len)
{
	char line[512], dev[128], dir[256], fs[64];
	const char *found = NULL;
	FILE *f = fopen("/proc/mounts", "re");
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %255s %63s", dev, dir, fs) == 3 && strcmp(fs, "tracefs") == 0) {
			snprintf(buf, len, "%s", dir);
			found = buf;
		}
	}
	fclose(f);
	return found;
}

static int
pmu_count_dirs(const char *path)
{
	DIR *d = opendir(path);
	int n = 0;
	struct dirent *de;
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL)
		n += de->d_type == DT_DIR && de->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Create and drop a one-element array map: the least BPF can do. */
static int
pmu_bpf_probe(void)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = 4;
	a.max_entries = 1;
	int fd = (int)syscall(SYS_bpf, BPF_MAP_CREATE, &a, sizeof(a));
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static void
pmu_report_tracing(struct pmu_out *o)
{
	char tfs[256], path[512];
	const char *mnt = pmu_tracefs(tfs, sizeof(tfs));
	pmu_out_open(o, "tracing", "Tracing", 0);
	pmu_out_bool(o, "tracefs_mounted", mnt != NULL);
	pmu_out_str(o, "tracefs", mnt);
	snprintf(path, sizeof(path), "%s/events", mnt ? mnt : "/sys/kernel/tracing");
	pmu_out_int(o, "tracepoint_groups", mnt ? pmu_count_dirs(path) : -1);
	snprintf(path, sizeof(path), "%s/uprobe_events", mnt ? mnt : "/sys/kernel/tracing");
	pmu_out_bool(o, "uprobes", access(PMU_SYSFS_ROOT "/uprobe", F_OK) == 0 &&
	    access(path, F_OK) == 0);
	int rc = pmu_bpf_probe();
	pmu_out_bool(o, "bpf", rc == 0);
	pmu_out_str(o, "bpf_detail", rc == 0 ? "BPF_MAP_CREATE succeeded" : strerror(-rc));
	pmu_out_close(o, 0);
}

static void
pmu_report_sw(struct pmu_ctx *p, struct pmu_out *o)
{
	pmu_out_open(o, "software_events", "Software events", 1);
	for (int i = 0; pmu_sw_names[i]; i++) {
		struct pmu_counter c;
		int rc = pmu_resolve(p, pmu_sw_names[i], &c, NULL, 0);
		if (rc == 0)
			rc = pmu_try_open(&c.attr);
		pmu_out_rec(o);
		pmu_out_str(o, "name", pmu_sw_names[i]);
		pmu_out_bool(o, "opens", rc == 0);
		if (rc)
			pmu_out_str(o, "error", strerror(-rc));
		pmu_out_rec_end(o);
	}
	pmu_out_close(o, 1);
}

static void
pmu_report_alias(struct pmu_ctx *p, struct pmu_out *o, const char *name)
{
	struct pmu_counter c;
	char err[512];
	int rc = pmu_resolve(p, name, &c, err, sizeof(err));
	int orc = rc == 0 && !p->pc_simulated ? pmu_try_open(&c.attr) : 0;
	char buf[32];
	pmu_out_rec(o);
	pmu_out_str(o, "name", name);
	pmu_out_bool(o, "resolves", rc == 0);
	if (rc == 0) {
		pmu_out_str(o, "event", c.canonical);
		pmu_out_bool(o, "hardware", c.is_hardware);
		if (p->pc_simulated) {
			/* a named model's: its encoding and where it may sit */
			snprintf(buf, sizeof(buf), "%u:0x%llx", c.attr.type,
			    (unsigned long long)c.attr.config);
			pmu_out_str(o, "encoding", buf);
			pmu_out_str(o, "register", !c.is_hardware ? "none" :
			    c.fixed_capable == 2 ? "fixed only" : c.fixed_capable ?
			    "fixed or general-purpose" : "general-purpose");
		} else {
			pmu_out_bool(o, "opens", orc == 0);
			if (orc)
				pmu_out_str(o, "open_error", strerror(-orc));
		}
	} else {
		pmu_out_str(o, "error", err);
	}
	pmu_out_rec_end(o);
}

static void
pmu_report_aliases(struct pmu_ctx *p, struct pmu_out *o)
{
	pmu_out_open(o, "aliases", "Friendly aliases (hwdb/aliases.txt)", 1);
	for (int i = 0; i < hwdb_naliases; i++) {
		int dup = 0;
		for (int j = 0; j < i && !dup; j++)
			dup = strcmp(hwdb_aliases[j].ha_name, hwdb_aliases[i].ha_name) == 0;
		if (!dup)
			pmu_report_alias(p, o, hwdb_aliases[i].ha_name);
	}
	pmu_out_close(o, 1);
}

/* What the user can do about what the report found, one line each. */
static void
pmu_report_advice(struct pmu_ctx *p, struct pmu_out *o)
{
	char kbuf[64], par[16], tfs[256], line[320];
	uint64_t eff = 0;
	int privileged = pmu_caps_effective(&eff) == 0 &&
	    ((eff >> CAP_PERFMON & 1) || (eff >> CAP_SYS_ADMIN & 1));
	int kpmu = pmu_kernel_core_pmu(kbuf, sizeof(kbuf)) != NULL;

	pmu_out_open(o, "advice", "What you can do", 1);
	if (!kpmu && pmu_cpuinfo_flag("hypervisor"))
		pmu_out_item(o, "hardware counters need a virtual PMU: enable it in the hypervisor "
		    "(QEMU/KVM: -cpu host or pmu=on; VMware: \"Virtualize CPU performance "
		    "counters\"; cloud: an instance type that exposes the PMU) or run on bare metal");
	else if (!kpmu)
		pmu_out_item(o, "the kernel has no PMU driver for this CPU; a newer kernel may have one");
	if (!pmu_hw_available(p))
		pmu_out_item(o, "meanwhile use the software counters: cpu-clock, task-clock, "
		    "page-faults, context-switches (pmc:::cpu-clock-1000000, profile-997)");
	if (pmu_read_line("/proc/sys/kernel/perf_event_paranoid", par, sizeof(par)) == 0 &&
	    atoi(par) >= 2 && !privileged) {
		snprintf(line, sizeof(line), "perf_event_paranoid=%s limits this user to its own "
		    "user-space events: run as root, grant CAP_PERFMON, or lower it", par);
		pmu_out_item(o, line);
	}
	if (p->pc_budget.pb_watchdog)
		pmu_out_item(o, "the NMI watchdog holds one counter: "
		    "echo 0 > /proc/sys/kernel/nmi_watchdog frees it");
	if (!pmu_tracefs(tfs, sizeof(tfs)))
		pmu_out_item(o, "tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
	pmu_out_close(o, 1);
}

static void
pmu_report_budgets(struct pmu_ctx *p, struct pmu_out *o)
{
	pmu_report_budget(p, o, &p->pc_budget, "budget", "Counter budget per logical CPU");
	if (p->pc_nbudgets == 2)
		pmu_report_budget(p, o, &p->pc_budget2, "budget_second_core_type",
		    "Counter budget per logical CPU of the second core type");
}

/* --hw for a named model: its tables and budget, for people and tools. */
static int
pmu_model_report(struct pmu_ctx *p, struct pmu_out *o)
{
	pmu_out_open(o, "target", "Target model", 0);
	pmu_out_str(o, "model", p->pc_model);
	pmu_out_str(o, "libpfm4_pmu", p->pc_pfm_pmu[0] ? p->pc_pfm_pmu : NULL);
	pmu_out_str(o, "libpfm4_desc", p->pc_pfm_pmu[0] ? p->pc_pfm_desc : NULL);
	pmu_out_int(o, "core_types", p->pc_nbudgets);
	pmu_out_close(o, 0);
	pmu_report_budgets(p, o);
	pmu_report_aliases(p, o);
	if (o->json)
		fputs("\n}\n", o->f);
	return ferror(o->f) ? -EIO : 0;
}

int
pmu_hw_report(struct pmu_ctx *p, FILE *out, int json)
{
	struct pmu_out o;
	if (!p || !out)
		return -EINVAL;
	memset(&o, 0, sizeof(o));
	o.f = out;
	o.json = json;
	o.first[0] = 1;
	if (json)
		fputc('{', out);
	else if (p->pc_simulated)
		fprintf(out, "pmctrace --hw: what %s can count (a named model: nothing of this "
		    "machine's is used)\n", p->pc_model);
	else
		fprintf(out, "pmctrace --hw: what this machine can count\n");
	if (p->pc_simulated)
		return pmu_model_report(p, &o);
	pmu_report_hw(p, &o);
	pmu_report_cpu(&o);
	pmu_report_kernel_pmus(&o);
	pmu_report_libpfm(p, &o);
	pmu_report_budgets(p, &o);
	pmu_report_perms(&o);
	pmu_report_tracing(&o);
	pmu_report_sw(p, &o);
	pmu_report_aliases(p, &o);
	pmu_report_advice(p, &o);
	if (json)
		fputs("\n}\n", out);
	return ferror(out) ? -EIO : 0;
}
