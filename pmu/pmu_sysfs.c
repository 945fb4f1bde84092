/*
 * pmu_sysfs.c — events the kernel's PMUs publish in sysfs.
 *
 * Every PMU under /sys/bus/event_source/devices/<pmu>/ has a dynamic perf
 * type (type), named events (events/<name>, a list of terms such as
 * "event=0x3c,umask=0x01") and the bit layout of each term (format/<term>,
 * such as "config:8-15" or "config:0-7,32-35").  Written <pmu>/<event>/ as
 * perf does, or <pmu>.<event> so that it fits in a probe name (msr.tsc,
 * power.energy-pkg), or with the terms spelled out (cpu/event=0x3c/).
 * The msr PMU (tsc, aperf, mperf) opens even in VMs without a core PMU.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu_impl.h"

/* Deposit value into the bits a format names ("config:0-7,32-35"). */
static int
pmu_sysfs_deposit(const char *format, uint64_t value, struct perf_event_attr *attr)
{
	__u64 *field;
	size_t fl = strcspn(format, ":");

	if (fl == 6 && strncmp(format, "config", 6) == 0)
		field = &attr->config;
	else if (fl == 7 && strncmp(format, "config1", 7) == 0)
		field = &attr->config1;
	else if (fl == 7 && strncmp(format, "config2", 7) == 0)
		field = &attr->config2;
	else
		return -EINVAL;
	if (format[fl] != ':')
		return -EINVAL;
	const char *s = format + fl + 1;
	while (*s) {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi = lo;
		if (end == s)
			return -EINVAL;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (hi < lo || hi > 63)
			return -EINVAL;
		for (unsigned long b = lo; b <= hi; b++, value >>= 1)
			*field = (*field & ~(1ULL << b)) | (value & 1) << b;
		s = end + (*end == ',');
		if (*end && *end != ',')
			return -EINVAL;
	}
	return value ? -ERANGE : 0;
}

/* One term "umask=0x01" (a bare "edge" means 1) of PMU dir. */
static int
pmu_sysfs_term(const char *dir, const char *term, size_t len, struct perf_event_attr *attr)
{
	char name[64], path[512], format[128];
	size_t nl = strcspn(term, "=");
	if (nl > len)
		nl = len;
	if (nl == 0 || nl >= sizeof(name))
		return -EINVAL;
	memcpy(name, term, nl);
	name[nl] = '\0';
	uint64_t value = 1;
	if (nl < len) {
		char *end;
		value = strtoull(term + nl + 1, &end, 0);
		if (end != term + len)
			return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/format/%s", dir, name);
	if (pmu_read_line(path, format, sizeof(format)) == 0)
		return pmu_sysfs_deposit(format, value, attr);
	/* config, config1 and config2 may be set whole */
	snprintf(format, sizeof(format), "%s:0-63", name);
	return pmu_sysfs_deposit(format, value, attr);
}

static int
pmu_sysfs_terms(const char *dir, const char *terms, struct perf_event_attr *attr)
{
	while (*terms) {
		size_t tl = strcspn(terms, ",\n");
		if (tl > 0) {
			int rc = pmu_sysfs_term(dir, terms, tl, attr);
			if (rc)
				return rc;
		}
		terms += tl;
		terms += strspn(terms, ",\n");
	}
	return 0;
}

/* Split "msr/tsc/", "msr.tsc" or "cpu/event=0x3c/" into PMU and event. */
static int
pmu_sysfs_split(const char *name, char *pmu, size_t plen, char *ev, size_t elen)
{
	const char *sep = strchr(name, '/');
	size_t nl = strlen(name);

	if (sep) {
		if (nl < 3 || name[nl - 1] != '/' || sep == name)
			return -ENOENT;
		nl--;
	} else if ((sep = strchr(name, '.')) == NULL || sep == name) {
		return -ENOENT;
	}
	size_t pl = (size_t)(sep - name), el = nl - pl - 1;
	if (pl >= plen || el == 0 || el >= elen || memchr(sep + 1, '/', el))
		return -ENOENT;
	memcpy(pmu, name, pl);
	pmu[pl] = '\0';
	memcpy(ev, sep + 1, el);
	ev[el] = '\0';
	return 0;
}

/*
 * Resolve name against the PMUs under root.  -ENOENT when it names no
 * sysfs PMU event; -EINVAL when the PMU exists but the event or its terms
 * do not parse.  *is_core is set for the kernel's core CPU PMU.
 */
int
pmu_sysfs_resolve(const char *root, const char *name, struct perf_event_attr *attr,
    char *canon, size_t clen, int *is_core)
{
	char pmu[64], ev[128], dir[256], path[512], buf[32], terms[512];

	if (pmu_sysfs_split(name, pmu, sizeof(pmu), ev, sizeof(ev)) != 0)
		return -ENOENT;
	for (char *c = pmu; *c; c++)
		if (*c == '.' || *c == '/')
			return -ENOENT;
	snprintf(dir, sizeof(dir), "%s/%s", root, pmu);
	snprintf(path, sizeof(path), "%s/type", dir);
	if (pmu_read_line(path, buf, sizeof(buf)) != 0)
		return -ENOENT;
	memset(attr, 0, sizeof(*attr));
	attr->type = (uint32_t)strtoul(buf, NULL, 10);
	if (strchr(ev, '=')) {
		snprintf(terms, sizeof(terms), "%s", ev);
	} else {
		snprintf(path, sizeof(path), "%s/events/%s", dir, ev);
		if (pmu_read_line(path, terms, sizeof(terms)) != 0)
			return -EINVAL;
	}
	if (pmu_sysfs_terms(dir, terms, attr) != 0)
		return -EINVAL;
	snprintf(canon, clen, "%s/%s/", pmu, ev);
	*is_core = strcmp(pmu, "cpu") == 0 || strcmp(pmu, "cpu_core") == 0 ||
	    strcmp(pmu, "cpu_atom") == 0 || strncmp(pmu, "armv8_", 6) == 0 ||
	    strncmp(pmu, "armv9_", 6) == 0;
	return 0;
}

/* Calls add("pmu.event") for each named event of every PMU under root. */
int
pmu_sysfs_names(const char *root, int (*add)(void *, const char *), void *arg)
{
	char dir[512], name[528];
	DIR *d = opendir(root);
	int rc = 0;
	struct dirent *pe, *ee;

	if (!d)
		return 0;
	while (!rc && (pe = readdir(d)) != NULL) {
		if (pe->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/%s/events", root, pe->d_name);
		DIR *e = opendir(dir);
		while (e && !rc && (ee = readdir(e)) != NULL) {
			/* skip dot files and the .scale/.unit/.per-pkg companions */
			if (ee->d_name[0] == '.' || strchr(ee->d_name, '.'))
				continue;
			snprintf(name, sizeof(name), "%s.%s", pe->d_name, ee->d_name);
			rc = add(arg, name);
		}
		if (e)
			closedir(e);
	}
	closedir(d);
	return rc;
}

/* The core PMU devices under root, in this order; see pmu_core_pmus(). */
int
pmu_sysfs_core_types(const char *root, uint32_t *types, int max)
{
	static const char *const core[] = { "cpu_core", "cpu_atom", "cpu", NULL };
	char path[320], buf[32];
	int n = 0;

	for (int i = 0; core[i] && n < max; i++) {
		snprintf(path, sizeof(path), "%s/%s/type", root, core[i]);
		if (pmu_read_line(path, buf, sizeof(buf)) != 0)
			continue;
		types[n++] = (uint32_t)strtoul(buf, NULL, 10);
	}
	/* x86 has "cpu", or cpu_core and cpu_atom on hybrids; Arm armv8_* */
	if (n == 0) {
		DIR *d = opendir(root);
		struct dirent *de;
		while (d && n < max && (de = readdir(d)) != NULL) {
			if (strncmp(de->d_name, "armv8_", 6) != 0 && strncmp(de->d_name, "armv9_", 6) != 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s/type", root, de->d_name);
			if (pmu_read_line(path, buf, sizeof(buf)) == 0)
				types[n++] = (uint32_t)strtoul(buf, NULL, 10);
		}
		if (d)
			closedir(d);
	}
	return n;
}

int
pmu_core_pmus(struct pmu_ctx *p, uint32_t *types, int max)
{
	if (!p || !types || max <= 0)
		return -EINVAL;
	return pmu_sysfs_core_types(PMU_SYSFS_ROOT, types, max);
}

void
pmu_attr_for_pmu(const struct perf_event_attr *in, uint32_t pmu_type,
    struct perf_event_attr *out)
{
	*out = *in;
	if (in->type == PERF_TYPE_HARDWARE || in->type == PERF_TYPE_HW_CACHE)
		out->config = (in->config & 0xffffffffULL) | (uint64_t)pmu_type << 32;
	else if (in->type == PERF_TYPE_RAW)
		out->type = pmu_type;
}
