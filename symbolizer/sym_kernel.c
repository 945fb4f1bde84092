/*
 * sym_kernel.c — kernel symbols from /proc/kallsyms, module ranges from
 * /proc/modules.
 *
 * kallsyms lines are "address type name [module]"; a symbol without a
 * [module] tag is the core kernel, printed as "vmlinux".  kallsyms has no
 * sizes, so a symbol extends to the next higher address in the same module
 * (bounded by the module's range and by SK_MAXSIZE, so the last function
 * before a symbol-less gap does not swallow it).  When kptr_restrict hides
 * the addresses every line reads 0: that is reported in words, not as a
 * table of symbols all at address 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolizer/sym_impl.h"

#define SK_MAXSIZE	(1u << 20)

static int
sk_mod_index(struct sym_kernel *k, const char *name, size_t len)
{
	char **nm;

	/* kallsyms lists a module's symbols together: try the last first */
	if (k->sk_nmods > 1 && strlen(k->sk_mods[k->sk_nmods - 1]) == len &&
	    memcmp(k->sk_mods[k->sk_nmods - 1], name, len) == 0)
		return (int)k->sk_nmods - 1;
	for (size_t i = 1; i < k->sk_nmods; i++)
		if (strlen(k->sk_mods[i]) == len && memcmp(k->sk_mods[i], name, len) == 0)
			return (int)i;
	if (k->sk_nmods >= UINT16_MAX)
		return 0;
	nm = realloc(k->sk_mods, (k->sk_nmods + 1) * sizeof(*nm));
	if (nm == NULL)
		return -ENOMEM;
	k->sk_mods = nm;
	if ((nm[k->sk_nmods] = strndup(name, len)) == NULL)
		return -ENOMEM;
	return (int)k->sk_nmods++;
}

/* kallsyms letters: lower case is local; w/W/v/V weak; a/A absolute and
 * U undefined are not code or data we can place. */
static int
sk_type_flags(char type)
{
	switch (type) {
	case 'a': case 'A': case 'U': case 'u':
		return -1;
	case 'w': case 'W': case 'v': case 'V':
		return SE_TYPED | SE_WEAK;
	default:
		return SE_TYPED;
	}
}

/* One line; returns 1 if it carried a nonzero address, 0 if zero or
 * skipped, or -errno. */
static int
sk_parse_line(struct sym_kernel *k, char *line)
{
	char *p = line, *name, *end;
	uint64_t addr;
	int flags, mod = 0;

	addr = strtoull(p, &end, 16);
	if (end == p || *end != ' ')
		return 0;
	p = end + 1;
	flags = sk_type_flags(*p);
	if (p[0] == '\0' || p[1] != ' ' || flags < 0)
		return 0;
	name = p + 2;
	end = name + strcspn(name, "\t \n");
	if (end == name)
		return 0;
	if (*end == '\t' && end[1] == '[') {
		char *m = end + 2, *me = strchr(m, ']');
		if (me && (mod = sk_mod_index(k, m, (size_t)(me - m))) < 0)
			return mod;
	}
	if (addr == 0)
		return 0;
	if (mod == 0 && end - name == 5 && memcmp(name, "_text", 5) == 0)
		k->sk_text = addr;
	if (sym_tab_add(&k->sk_tab, addr, 0, flags, (uint16_t)mod, name,
	    (size_t)(end - name)) < 0)
		return -ENOMEM;
	return 1;
}

static int
sk_add_region(struct sym_kernel *k, uint64_t start, uint64_t end, int mod)
{
	struct sym_region *r = realloc(k->sk_regions,
	    (k->sk_nregions + 1) * sizeof(*r));

	if (r == NULL)
		return -ENOMEM;
	k->sk_regions = r;
	r[k->sk_nregions++] = (struct sym_region){ start, end, (uint16_t)mod };
	return 0;
}

/* /proc/modules: "name size refcnt deps state 0xaddr ..." */
static void
sk_read_modules(struct sym_kernel *k, const char *path)
{
	FILE *f = fopen(path, "re");
	char line[1024], name[256];
	unsigned long long size, addr;
	int mod;

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %llu %*s %*s %*s %llx", name, &size, &addr) != 3 ||
		    addr == 0)
			continue;
		if ((mod = sk_mod_index(k, name, strlen(name))) <= 0 ||
		    sk_add_region(k, addr, addr + size, mod) < 0)
			break;
	}
	fclose(f);
}

/* Each module without a /proc/modules line (vmlinux, [bpf], ftrace
 * trampolines) spans its lowest to its highest symbol. */
static int
sk_span_regions(struct sym_kernel *k)
{
	size_t nm = k->sk_nmods;
	uint64_t *lo = malloc(nm * sizeof(*lo)), *hi = calloc(nm, sizeof(*hi));
	int rc = -ENOMEM;

	if (lo == NULL || hi == NULL)
		goto out;
	memset(lo, 0xff, nm * sizeof(*lo));
	for (size_t i = 0; i < k->sk_nregions; i++)
		lo[k->sk_regions[i].sr_mod] = 0;	/* has a range already */
	for (size_t i = 0; i < k->sk_tab.st_n; i++) {
		const struct sym_ent *e = &k->sk_tab.st_ents[i];
		if (lo[e->se_mod] == 0)
			continue;
		lo[e->se_mod] = e->se_addr < lo[e->se_mod] ? e->se_addr : lo[e->se_mod];
		hi[e->se_mod] = e->se_addr > hi[e->se_mod] ? e->se_addr : hi[e->se_mod];
	}
	rc = 0;
	for (size_t m = 0; m < nm && rc == 0; m++)
		if (lo[m] != 0 && lo[m] <= hi[m])
			rc = sk_add_region(k, lo[m], hi[m] + 1, (int)m);
out:
	free(lo);
	free(hi);
	return rc;
}

/* Sizes: up to the next higher address, within the module's range. */
static int
sk_set_sizes(struct sym_kernel *k)
{
	struct sym_ent *v = k->sk_tab.st_ents;
	size_t n = k->sk_tab.st_n, j = 0;
	uint64_t *modend = calloc(k->sk_nmods, sizeof(*modend));

	if (modend == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < k->sk_nregions; i++)
		modend[k->sk_regions[i].sr_mod] = k->sk_regions[i].sr_end;
	for (size_t i = 0; i < n; i++) {
		uint64_t end = modend[v[i].se_mod];

		if (j <= i)
			j = i + 1;
		while (j < n && v[j].se_addr == v[i].se_addr)
			j++;
		if (j < n && v[j].se_addr < end)
			end = v[j].se_addr;
		if (end > v[i].se_addr) {
			v[i].se_size = end - v[i].se_addr;
			if (v[i].se_size > SK_MAXSIZE)
				v[i].se_size = SK_MAXSIZE;
			v[i].se_flags |= SE_SIZED;
		}
	}
	free(modend);
	return 0;
}

static int
sk_read_kallsyms(struct sym_kernel *k, FILE *f, size_t *nlines)
{
	char *line = NULL;
	size_t cap = 0;
	int nonzero = 0, rc = 0;

	while (getline(&line, &cap, f) > 0) {
		(*nlines)++;
		if ((rc = sk_parse_line(k, line)) < 0)
			break;
		nonzero |= rc;
	}
	free(line);
	return rc < 0 ? rc : nonzero;
}

int
sym_kernel_load(struct sym_kernel *k, const char *kallsyms,
    const char *modules, char *msg, size_t msglen)
{
	size_t nlines = 0;
	FILE *f;
	int rc;

	k->sk_loaded = -1;
	if ((k->sk_mods = calloc(1, sizeof(char *))) == NULL ||
	    (k->sk_mods[0] = strdup("vmlinux")) == NULL)
		return -ENOMEM;
	k->sk_nmods = 1;
	if ((f = fopen(kallsyms, "re")) == NULL) {
		rc = -errno;
		snprintf(msg, msglen, "kernel symbols unavailable: cannot read %s: %s",
		    kallsyms, strerror(-rc));
		return rc;
	}
	rc = sk_read_kallsyms(k, f, &nlines);
	fclose(f);
	if (rc < 0)
		return rc;
	if (rc == 0 && nlines > 0) {
		snprintf(msg, msglen, "kernel symbols unavailable: %s lists every "
		    "address as 0 (kernel.kptr_restrict hides them from this user); "
		    "run as root, or lower it with 'sysctl kernel.kptr_restrict=0'",
		    kallsyms);
		return -EPERM;
	}
	sk_read_modules(k, modules);
	sym_tab_sort(&k->sk_tab);
	if ((rc = sk_span_regions(k)) < 0 || (rc = sk_set_sizes(k)) < 0)
		return rc;
	k->sk_loaded = 1;
	return 0;
}

void
sym_kernel_free(struct sym_kernel *k)
{
	for (size_t i = 0; i < k->sk_nmods; i++)
		free(k->sk_mods[i]);
	free(k->sk_mods);
	free(k->sk_regions);
	sym_tab_free(&k->sk_tab);
	memset(k, 0, sizeof(*k));
}
