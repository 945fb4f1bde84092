/*
 * sym_proc.c — processes and their address maps.
 *
 * Maps come from the record stream (MMAP/MMAP2 add one, replacing whatever
 * it overlaps, as mmap(2) does; COMM with the exec flag empties them; FORK
 * of a new process copies the parent's) or, for a process no record told
 * us about, from /proc/PID/maps.  EXIT marks the process: the maps of one
 * that fired a probe while user symbols are wanted (pinned) stay, so its
 * samples still symbolize at print time; any other exited process is
 * freed once PR_GRACE more have exited (its last switch records come just
 * after its EXIT), so memory stays flat over any number of forks.  Each change of a process's maps gives it a new pr_space, which is
 * how the session's address cache forgets answers made for the old maps.
 * JIT code has no file; a runtime may describe it in /tmp/perf-PID.map
 * ("start size name" per line, hex), read on first use.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolizer/sym_impl.h"

#define PR_GRACE 1024

struct sym_procs {
	struct sym_proc **ps_tab;	/* open addressing by pid */
	size_t ps_cap, ps_n;
	int32_t ps_dead[PR_GRACE];	/* the last pids to exit, a ring */
	size_t ps_ndead;
	uint64_t ps_nextspace;		/* 0 is the kernel's space */
};

struct sym_procs *
sym_procs_new(void)
{
	struct sym_procs *ps = calloc(1, sizeof(*ps));

	if (ps == NULL)
		return NULL;
	ps->ps_cap = 256;
	if ((ps->ps_tab = calloc(ps->ps_cap, sizeof(*ps->ps_tab))) == NULL) {
		free(ps);
		return NULL;
	}
	return ps;
}

static void
pr_map_free(struct sym_map *m)
{
	free(m->sm_path);
	m->sm_path = NULL;
}

static void
pr_clear_maps(struct sym_proc *p)
{
	for (size_t i = 0; i < p->pr_nmaps; i++)
		pr_map_free(&p->pr_maps[i]);
	p->pr_nmaps = 0;
}

static void
pr_free(struct sym_proc *p)
{
	pr_clear_maps(p);
	free(p->pr_maps);
	sym_tab_free(&p->pr_jit);
	free(p);
}

void
sym_procs_free(struct sym_procs *ps)
{
	if (ps == NULL)
		return;
	for (size_t i = 0; i < ps->ps_cap; i++)
		if (ps->ps_tab[i])
			pr_free(ps->ps_tab[i]);
	free(ps->ps_tab);
	free(ps);
}

static size_t
pr_slot(const struct sym_procs *ps, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (ps->ps_cap - 1);

	while (ps->ps_tab[i] && ps->ps_tab[i]->pr_pid != pid)
		i = (i + 1) & (ps->ps_cap - 1);
	return i;
}

struct sym_proc *
sym_proc_find(struct sym_procs *ps, int32_t pid)
{
	return ps->ps_tab[pr_slot(ps, pid)];
}

static int
pr_rehash(struct sym_procs *ps)
{
	struct sym_proc **old = ps->ps_tab;
	size_t oldcap = ps->ps_cap;

	if ((ps->ps_tab = calloc(oldcap * 2, sizeof(*old))) == NULL) {
		ps->ps_tab = old;
		return -ENOMEM;
	}
	ps->ps_cap = oldcap * 2;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i])
			ps->ps_tab[pr_slot(ps, old[i]->pr_pid)] = old[i];
	free(old);
	return 0;
}

static void
pr_newspace(struct sym_procs *ps, struct sym_proc *p)
{
	p->pr_space = ++ps->ps_nextspace;
}

struct sym_proc *
sym_proc_get(struct sym_procs *ps, int32_t pid)
{
	size_t i = pr_slot(ps, pid);
	struct sym_proc *p = ps->ps_tab[i];

	if (p)
		return p;
	if (2 * (ps->ps_n + 1) > ps->ps_cap) {
		if (pr_rehash(ps) < 0)
			return NULL;
		i = pr_slot(ps, pid);
	}
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	p->pr_pid = pid;
	pr_newspace(ps, p);
	ps->ps_tab[i] = p;
	ps->ps_n++;
	return p;
}

/* ---- one mapping ------------------------------------------------------ */

/* sm_path holds "path\0name\0": name is the basename without " (deleted)". */
static int
pr_map_set_path(struct sym_map *m, const char *path, size_t plen)
{
	static const char del[] = " (deleted)";
	const char *base;
	size_t nlen;
	char *buf = malloc(2 * plen + 2);

	if (buf == NULL)
		return -ENOMEM;
	memcpy(buf, path, plen);
	buf[plen] = '\0';
	base = strrchr(buf, '/');
	base = base ? base + 1 : buf;
	nlen = strlen(base);
	if (nlen >= sizeof(del) - 1 && !strcmp(base + nlen - (sizeof(del) - 1), del))
		nlen -= sizeof(del) - 1;
	memcpy(buf + plen + 1, base, nlen);
	buf[plen + 1 + nlen] = '\0';
	m->sm_path = buf;
	m->sm_name = buf + plen + 1;
	return 0;
}

static int
pr_map_copy(struct sym_map *dst, const struct sym_map *src)
{
	*dst = *src;
	return pr_map_set_path(dst, src->sm_path, strlen(src->sm_path));
}

static int
pr_reserve(struct sym_proc *p, size_t n)
{
	size_t cap = p->pr_capmaps ? p->pr_capmaps : 16;
	struct sym_map *nm;

	if (n <= p->pr_capmaps)
		return 0;
	while (cap < n)
		cap *= 2;
	if ((nm = realloc(p->pr_maps, cap * sizeof(*nm))) == NULL)
		return -ENOMEM;
	p->pr_maps = nm;
	p->pr_capmaps = cap;
	return 0;
}

/* The parts of old outside [start, end) (zero, one or two pieces). */
static int
pr_cut(struct sym_map *out, size_t *nout, const struct sym_map *old,
    uint64_t start, uint64_t end)
{
	if (old->sm_end <= start || old->sm_start >= end)
		return pr_map_copy(&out[(*nout)++], old);
	if (old->sm_start < start) {
		if (pr_map_copy(&out[*nout], old) < 0)
			return -ENOMEM;
		out[(*nout)++].sm_end = start;
	}
	if (old->sm_end > end) {
		if (pr_map_copy(&out[*nout], old) < 0)
			return -ENOMEM;
		out[*nout].sm_pgoff += end - old->sm_start;
		out[(*nout)++].sm_start = end;
	}
	return 0;
}

/* Insert m (which owns its path), replacing what it overlaps. */
static int
pr_insert(struct sym_proc *p, struct sym_map *m)
{
	struct sym_map *nv;
	size_t n = 0, i, cap;

	if (p->pr_nmaps == 0 || p->pr_maps[p->pr_nmaps - 1].sm_end <= m->sm_start) {
		if (pr_reserve(p, p->pr_nmaps + 1) < 0)
			return -ENOMEM;
		p->pr_maps[p->pr_nmaps++] = *m;
		return 0;
	}
	/* each old map leaves at most two pieces, plus m itself */
	cap = 2 * p->pr_nmaps + 1;
	if ((nv = calloc(cap, sizeof(*nv))) == NULL)
		return -ENOMEM;
	for (i = 0; i < p->pr_nmaps; i++)
		if (pr_cut(nv, &n, &p->pr_maps[i], m->sm_start, m->sm_end) < 0)
			goto fail;
	for (i = n; i > 0 && nv[i - 1].sm_start > m->sm_start; i--)
		nv[i] = nv[i - 1];
	nv[i] = *m;
	pr_clear_maps(p);
	free(p->pr_maps);
	p->pr_maps = nv;
	p->pr_nmaps = n + 1;
	p->pr_capmaps = cap;	/* what was allocated, not a figure from the new count */
	return 0;
fail:
	for (i = 0; i < n; i++)
		pr_map_free(&nv[i]);
	free(nv);
	return -ENOMEM;
}

static int
pr_add_map(struct sym_procs *ps, struct sym_proc *p, const struct sym_map *tmpl,
    const char *path, size_t plen)
{
	struct sym_map m = *tmpl;

	if (m.sm_end <= m.sm_start)
		return -EINVAL;
	m.sm_obj = NULL;
	m.sm_objtried = 0;
	if (pr_map_set_path(&m, path, plen) < 0)
		return -ENOMEM;
	if (pr_insert(p, &m) < 0) {
		pr_map_free(&m);
		return -ENOMEM;
	}
	pr_newspace(ps, p);
	return 0;
}

struct sym_map *
sym_proc_map(const struct sym_proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->pr_nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->pr_maps[mid].sm_start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && addr < p->pr_maps[lo - 1].sm_end)
		return &p->pr_maps[lo - 1];
	return NULL;
}

/* ---- records ---------------------------------------------------------- */

struct pr_mmap_body {		/* PERF_RECORD_MMAP after the header */
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
};

struct pr_mmap2_body {		/* PERF_RECORD_MMAP2 after the header */
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	union {
		struct { uint32_t maj, min; uint64_t ino, ino_generation; } f;
		struct { uint8_t size, res1; uint16_t res2; uint8_t id[20]; } b;
	} u;
	uint32_t prot, flags;
};

struct pr_task_body {		/* PERF_RECORD_FORK / EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

/* A NUL-terminated string at off inside the record, or NULL. */
static const char *
pr_rec_str(const struct perf_event_header *hdr, size_t off, size_t *len)
{
	const char *s = (const char *)hdr + off;

	if (hdr->size <= off)
		return NULL;
	*len = strnlen(s, hdr->size - off);
	return *len < hdr->size - off ? s : NULL;
}

static int
pr_user_map(const struct perf_event_header *hdr, uint32_t pid)
{
	return pid != UINT32_MAX &&
	    (hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL;
}

/* MMAP and MMAP2 alike: MMAP's body is the head of MMAP2's; only MMAP2
 * says which file (build id, or device and inode). */
static int
pr_note_mmap(struct sym_procs *ps, const struct perf_event_header *hdr)
{
	int v2 = hdr->type == PERF_RECORD_MMAP2;
	struct pr_mmap2_body b;
	struct sym_map m = { 0 };
	const char *path;
	size_t off = sizeof(*hdr) + (v2 ? sizeof(b) : sizeof(struct pr_mmap_body)), plen;
	struct sym_proc *p;

	if (hdr->size < off)
		return -EINVAL;
	memset(&b, 0, sizeof(b));
	memcpy(&b, hdr + 1, off - sizeof(*hdr));
	if (!pr_user_map(hdr, b.pid) || (path = pr_rec_str(hdr, off, &plen)) == NULL)
		return 0;
	if ((p = sym_proc_get(ps, (int32_t)b.pid)) == NULL)
		return -ENOMEM;
	m.sm_start = b.addr;
	m.sm_end = b.addr + b.len;
	m.sm_pgoff = b.pgoff;
	if (v2 && (hdr->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		m.sm_buildidlen = b.u.b.size <= 20 ? b.u.b.size : 20;
		memcpy(m.sm_buildid, b.u.b.id, m.sm_buildidlen);
	} else if (v2) {
		m.sm_maj = b.u.f.maj;
		m.sm_min = b.u.f.min;
		m.sm_ino = b.u.f.ino;
	}
	return pr_add_map(ps, p, &m, path, plen);
}

static int
pr_note_comm(struct sym_procs *ps, const struct perf_event_header *hdr)
{
	uint32_t ids[2];
	const char *comm;
	size_t len;
	struct sym_proc *p;

	if (hdr->size < sizeof(*hdr) + sizeof(ids))
		return -EINVAL;
	memcpy(ids, hdr + 1, sizeof(ids));
	if ((comm = pr_rec_str(hdr, sizeof(*hdr) + sizeof(ids), &len)) == NULL)
		return -EINVAL;
	/* a thread renaming itself is not the process's name */
	if (ids[0] != ids[1] && !(hdr->misc & PERF_RECORD_MISC_COMM_EXEC))
		return 0;
	if ((p = sym_proc_get(ps, (int32_t)ids[0])) == NULL)
		return -ENOMEM;
	snprintf(p->pr_comm, sizeof(p->pr_comm), "%.*s", (int)len, comm);
	if (hdr->misc & PERF_RECORD_MISC_COMM_EXEC) {
		/* a new image: the old address space is gone */
		pr_clear_maps(p);
		p->pr_exited = 0;
		p->pr_born = 1;
		sym_tab_free(&p->pr_jit);
		p->pr_jitstate = 0;
		pr_newspace(ps, p);
	}
	return 0;
}

static int
pr_fork(struct sym_procs *ps, const struct pr_task_body *b)
{
	struct sym_proc *parent = sym_proc_find(ps, (int32_t)b->ppid), *child;

	if ((child = sym_proc_get(ps, (int32_t)b->pid)) == NULL)
		return -ENOMEM;
	/* pid numbers are reused: whatever we knew of an old child goes */
	pr_clear_maps(child);
	child->pr_exited = 0;
	child->pr_fromproc = 0;
	/* the records tell the child's whole story only if they told the
	 * parent's: a child of a process that predates the run may still
	 * need /proc */
	child->pr_born = parent != NULL && parent->pr_born;
	child->pr_ppid = (int32_t)b->ppid;
	sym_tab_free(&child->pr_jit);
	child->pr_jitstate = 0;
	pr_newspace(ps, child);
	if (parent == NULL)
		return 0;
	memcpy(child->pr_comm, parent->pr_comm, sizeof(child->pr_comm));
	if (pr_reserve(child, parent->pr_nmaps) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < parent->pr_nmaps; i++) {
		if (pr_map_copy(&child->pr_maps[i], &parent->pr_maps[i]) < 0)
			return -ENOMEM;
		child->pr_nmaps = i + 1;
	}
	return 0;
}

/* Take p out of the table (moving later entries of its probe run back,
 * as open addressing needs) and free it. */
static void
pr_remove(struct sym_procs *ps, struct sym_proc *p)
{
	size_t mask = ps->ps_cap - 1, i = pr_slot(ps, p->pr_pid), j = i;
	ps->ps_tab[i] = NULL;
	ps->ps_n--;
	for (;;) {
		j = (j + 1) & mask;
		struct sym_proc *q = ps->ps_tab[j];
		if (q == NULL)
			break;
		size_t k = ((uint32_t)q->pr_pid * 2654435761u) & mask;
		/* q stays unless its home slot k lies cyclically outside (i, j] */
		if (i <= j ? (k > i && k <= j) : (k > i || k <= j))
			continue;
		ps->ps_tab[i] = q;
		ps->ps_tab[j] = NULL;
		i = j;
	}
	pr_free(p);
}

/* p exited: free the process that exited PR_GRACE exits ago, unless it
 * was pinned or its pid lives again. */
static void
pr_exit(struct sym_procs *ps, struct sym_proc *p)
{
	p->pr_exited = 1;
	size_t slot = ps->ps_ndead++ % PR_GRACE;
	int32_t old = ps->ps_ndead > PR_GRACE ? ps->ps_dead[slot] : 0;
	ps->ps_dead[slot] = p->pr_pid;
	struct sym_proc *o = old > 0 && old != p->pr_pid ? sym_proc_find(ps, old) : NULL;
	if (o && o->pr_exited && !o->pr_pinned)
		pr_remove(ps, o);
}

void
sym_proc_pin(struct sym_procs *ps, int32_t pid)
{
	struct sym_proc *p = sym_proc_find(ps, pid);
	if (p)
		p->pr_pinned = 1;
}

static int
pr_note_task(struct sym_procs *ps, const struct perf_event_header *hdr)
{
	struct pr_task_body b;
	struct sym_proc *p;

	if (hdr->size < sizeof(*hdr) + sizeof(b))
		return -EINVAL;
	memcpy(&b, hdr + 1, sizeof(b));
	if (hdr->type == PERF_RECORD_FORK)
		/* a new thread (pid == ppid) shares its process's maps */
		return b.pid != b.ppid ? pr_fork(ps, &b) : 0;
	if (b.pid == b.tid && (p = sym_proc_find(ps, (int32_t)b.pid)) != NULL)
		pr_exit(ps, p);
	return 0;
}

int
sym_proc_note(struct sym_procs *ps, const struct perf_event_header *hdr)
{
	switch (hdr->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return pr_note_mmap(ps, hdr);
	case PERF_RECORD_COMM:
		return pr_note_comm(ps, hdr);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return pr_note_task(ps, hdr);
	default:
		return 0;
	}
}

/* ---- /proc ------------------------------------------------------------ */

/* "start-end perms pgoff maj:min ino   path" */
static int
pr_parse_maps_line(struct sym_procs *ps, struct sym_proc *p, char *line)
{
	struct sym_map m = { 0 };
	unsigned long long start, end, pgoff, ino;
	unsigned maj, min;
	int pos = 0;
	size_t plen;
	char *path;

	if (sscanf(line, "%llx-%llx %*s %llx %x:%x %llu %n", &start, &end, &pgoff,
	    &maj, &min, &ino, &pos) < 6 || pos == 0)
		return 0;
	path = line + pos;
	plen = strcspn(path, "\n");
	if (plen == 0)
		return 0;		/* anonymous memory: nothing to name */
	m.sm_start = start;
	m.sm_end = end;
	m.sm_pgoff = pgoff;
	m.sm_maj = maj;
	m.sm_min = min;
	m.sm_ino = ino;
	return pr_add_map(ps, p, &m, path, plen);
}

int
sym_proc_read_maps(struct sym_procs *ps, struct sym_proc *p, const char *procdir)
{
	char path[128], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%d/maps", procdir, (int)p->pr_pid);
	if ((f = fopen(path, "re")) == NULL)
		return -errno;
	pr_clear_maps(p);
	while (getline(&line, &cap, f) > 0 && rc == 0)
		rc = pr_parse_maps_line(ps, p, line);
	free(line);
	fclose(f);
	pr_newspace(ps, p);
	return rc;
}

const char *
sym_proc_comm(struct sym_proc *p, const char *procdir)
{
	char path[128];
	FILE *f;

	if (p->pr_comm[0] || p->pr_exited)
		return p->pr_comm[0] ? p->pr_comm : NULL;
	snprintf(path, sizeof(path), "%s/%d/comm", procdir, (int)p->pr_pid);
	if ((f = fopen(path, "re")) == NULL)
		return NULL;
	if (fgets(p->pr_comm, sizeof(p->pr_comm), f))
		p->pr_comm[strcspn(p->pr_comm, "\n")] = '\0';
	fclose(f);
	return p->pr_comm[0] ? p->pr_comm : NULL;
}

/* ---- perf JIT maps ---------------------------------------------------- */

/* The pid as the process itself sees it (last NSpid field), for a
 * runtime inside a pid namespace that wrote /tmp/perf-<its pid>.map. */
static long
pr_nspid(const char *procdir, int32_t pid)
{
	char path[128], line[256];
	long ns = pid;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/status", procdir, (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return pid;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + 6, *end;
		if (strncmp(line, "NSpid:", 6) != 0)
			continue;
		for (long v; (v = strtol(p, &end, 10)), end != p; p = end)
			ns = v;
		break;
	}
	fclose(f);
	return ns;
}

static int
pr_read_jit(struct sym_tab *t, FILE *f)
{
	char *line = NULL, *p, *end;
	size_t cap = 0;
	int rc = 0;

	while (rc == 0 && getline(&line, &cap, f) > 0) {
		uint64_t start = strtoull(line, &end, 16), size;
		p = end;
		size = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		end = p + strcspn(p, "\n");
		if (end > p)
			rc = sym_tab_add(t, start, size, SE_TYPED, 0, p, (size_t)(end - p));
	}
	free(line);
	return rc;
}

int
sym_proc_jit(struct sym_proc *p, const char *procdir)
{
	char path[256];
	FILE *f = NULL;

	if (p->pr_jitstate)
		return p->pr_jitstate > 0 ? 0 : -ENOENT;
	p->pr_jitstate = -1;
	if (!p->pr_exited) {
		snprintf(path, sizeof(path), "%s/%d/root/tmp/perf-%ld.map", procdir,
		    (int)p->pr_pid, pr_nspid(procdir, p->pr_pid));
		f = fopen(path, "re");
	}
	if (f == NULL) {
		snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)p->pr_pid);
		f = fopen(path, "re");
	}
	if (f == NULL)
		return -ENOENT;
	if (pr_read_jit(&p->pr_jit, f) == 0) {
		sym_tab_sort(&p->pr_jit);
		p->pr_jitstate = 1;
	}
	fclose(f);
	return p->pr_jitstate > 0 ? 0 : -ENOENT;
}
