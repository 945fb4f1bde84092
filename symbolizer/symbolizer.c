/*
 * symbolizer.c — the session: options, the address cache, and the frame
 * text DTrace prints.
 *
 * Frame text (dt_print_stack/dt_print_ustack): "mod`func+0xoff", or
 * "mod`func" when the address is the symbol's first byte, or "mod`0xaddr"
 * when the module is known but no symbol covers the address.  Kernel
 * modules are named as kallsyms tags them ("vmlinux" for the core), user
 * modules by the basename of the mapped file.
 *
 * Address cache: every answer (including "unknown") is stored under
 * (space, address, flags), space 0 being the kernel and a process's
 * pr_space otherwise, so a repeated address costs one hash probe and a
 * copy.  The texts live in one growing arena; past AC_MAXENTS entries the
 * cache starts over rather than grow without bound.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "symbolizer/sym_impl.h"

#define AC_MAXENTS	(1u << 22)
#define AC_SRCLINE	0x80	/* cache flag: a srcline answer */
#define SYM_TEXTMAX	2048	/* longest frame text (inline chains included) */
#define VDSO_MAX	(1u << 20)

struct ac_ent {
	uint64_t ae_space;
	uint64_t ae_addr;
	uint32_t ae_off;	/* into ac_text */
	int32_t ae_len;		/* -1: unknown */
	uint32_t ae_flags;	/* lookup flags + 1; 0 = empty slot */
};

struct sym_acache {
	struct ac_ent *ac_tab;
	size_t ac_cap, ac_n;
	char *ac_text;
	size_t ac_textlen, ac_textcap;
};

struct sym_session {
	char *ss_kallsyms, *ss_modules, *ss_debugdir, *ss_proc;
	struct sym_kernel ss_kern;
	uint64_t ss_kspace;	/* the kernel's cache space; changes on reload */
	uint64_t ss_ktext;	/* _text as a recording saw it, or 0 */
	int ss_kreloaded;
	char ss_msg[512];
	struct sym_objcache *ss_objs;
	struct sym_procs *ss_procs;
	struct sym_acache ss_ac;
};

/* ---- address cache ---------------------------------------------------- */

static uint64_t
ac_hash(uint64_t space, uint64_t addr, uint32_t flags)
{
	uint64_t h = addr * 0x9e3779b97f4a7c15ull ^ (space + flags) * 0xc2b2ae3d27d4eb4full;

	return h ^ (h >> 29);
}

static struct ac_ent *
ac_slot(const struct sym_acache *ac, uint64_t space, uint64_t addr, uint32_t flags)
{
	size_t mask = ac->ac_cap - 1, i = ac_hash(space, addr, flags) & mask;
	struct ac_ent *e;

	for (;; i = (i + 1) & mask) {
		e = &ac->ac_tab[i];
		if (e->ae_flags == 0 || (e->ae_addr == addr &&
		    e->ae_space == space && e->ae_flags == flags + 1))
			return e;
	}
}

/* Big tables come from mmap with transparent huge pages requested: a
 * million answers fill a 64 MB table whose 4 KB page faults and TLB misses
 * otherwise cost more than the lookups. */
#define AC_BIG	(2u << 20)

static struct ac_ent *
ac_alloc(size_t cap)
{
	size_t bytes = cap * sizeof(struct ac_ent);
	void *p;

	if (bytes < AC_BIG)
		return calloc(cap, sizeof(struct ac_ent));
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	(void)madvise(p, bytes, MADV_HUGEPAGE);
	return p;
}

static void
ac_free(struct ac_ent *tab, size_t cap)
{
	if (tab && cap * sizeof(*tab) >= AC_BIG)
		munmap(tab, cap * sizeof(*tab));
	else
		free(tab);
}

static void
ac_reset(struct sym_acache *ac)
{
	ac_free(ac->ac_tab, ac->ac_cap);
	free(ac->ac_text);
	memset(ac, 0, sizeof(*ac));
}

static int
ac_grow(struct sym_acache *ac)
{
	struct sym_acache n = *ac;

	n.ac_cap = ac->ac_cap ? 2 * ac->ac_cap : 4096;
	if ((n.ac_tab = ac_alloc(n.ac_cap)) == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < ac->ac_cap; i++) {
		const struct ac_ent *o = &ac->ac_tab[i];
		if (o->ae_flags)
			*ac_slot(&n, o->ae_space, o->ae_addr, o->ae_flags - 1) = *o;
	}
	ac_free(ac->ac_tab, ac->ac_cap);
	*ac = n;
	return 0;
}

static const struct ac_ent *
ac_find(const struct sym_acache *ac, uint64_t space, uint64_t addr, uint32_t flags)
{
	const struct ac_ent *e;

	if (ac->ac_cap == 0)
		return NULL;
	e = ac_slot(ac, space, addr, flags);
	return e->ae_flags ? e : NULL;
}

/* Remember text (len bytes, or len -1 for unknown); failures only cost
 * a later recomputation. */
static void
ac_store(struct sym_acache *ac, uint64_t space, uint64_t addr, uint32_t flags,
    const char *text, int len)
{
	struct ac_ent *e;
	size_t need = ac->ac_textlen + (len > 0 ? (size_t)len : 0);

	if (ac->ac_n >= AC_MAXENTS)
		ac_reset(ac);
	if ((2 * (ac->ac_n + 1) > ac->ac_cap && ac_grow(ac) < 0) || need > UINT32_MAX)
		return;
	if (need > ac->ac_textcap) {
		size_t cap = ac->ac_textcap ? ac->ac_textcap : 65536;
		char *nt;
		while (cap < need)
			cap *= 2;
		if ((nt = realloc(ac->ac_text, cap)) == NULL)
			return;
		ac->ac_text = nt;
		ac->ac_textcap = cap;
	}
	e = ac_slot(ac, space, addr, flags);
	e->ae_space = space;
	e->ae_addr = addr;
	e->ae_flags = flags + 1;
	e->ae_off = (uint32_t)ac->ac_textlen;
	e->ae_len = len;
	if (len > 0)
		memcpy(ac->ac_text + ac->ac_textlen, text, (size_t)len);
	ac->ac_textlen = need;
	ac->ac_n++;
}

/* Copy an answer (n bytes of text, or n -1 for unknown) out, truncating
 * to the caller's buffer. */
static int
sym_copy_out(char *buf, size_t len, const char *text, int n)
{
	size_t w;

	if (n < 0 || len == 0)
		return -1;
	w = (size_t)n < len ? (size_t)n : len - 1;
	memcpy(buf, text, w);
	buf[w] = '\0';
	return (int)w;
}

/* ---- session ---------------------------------------------------------- */

struct sym_session *
sym_open(int *errp)
{
	struct sym_session *s = calloc(1, sizeof(*s));

	if (s == NULL ||
	    (s->ss_kallsyms = strdup("/proc/kallsyms")) == NULL ||
	    (s->ss_modules = strdup("/proc/modules")) == NULL ||
	    (s->ss_debugdir = strdup("/usr/lib/debug")) == NULL ||
	    (s->ss_proc = strdup("/proc")) == NULL ||
	    (s->ss_objs = sym_objcache_new()) == NULL ||
	    (s->ss_procs = sym_procs_new()) == NULL) {
		sym_close(s);
		if (errp)
			*errp = -ENOMEM;
		return NULL;
	}
	if (errp)
		*errp = 0;
	s->ss_kspace = 1ull << 63;	/* never a process's space */
	return s;
}

void
sym_close(struct sym_session *s)
{
	if (s == NULL)
		return;
	sym_kernel_free(&s->ss_kern);
	sym_objcache_free(s->ss_objs);
	sym_procs_free(s->ss_procs);
	ac_reset(&s->ss_ac);
	free(s->ss_kallsyms);
	free(s->ss_modules);
	free(s->ss_debugdir);
	free(s->ss_proc);
	free(s);
}

int
sym_setopt(struct sym_session *s, const char *name, const char *value)
{
	static const struct { const char *name; size_t off; } opts[] = {
		{ "kallsyms", offsetof(struct sym_session, ss_kallsyms) },
		{ "modules", offsetof(struct sym_session, ss_modules) },
		{ "debugdir", offsetof(struct sym_session, ss_debugdir) },
		{ "proc", offsetof(struct sym_session, ss_proc) },
	};

	if (value == NULL)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		char **slot = (char **)((char *)s + opts[i].off), *v;
		if (strcmp(name, opts[i].name) != 0)
			continue;
		if ((v = strdup(value)) == NULL)
			return -ENOMEM;
		free(*slot);
		*slot = v;
		return 0;
	}
	return -EINVAL;
}

const char *
sym_errmsg(const struct sym_session *s)
{
	return s->ss_msg[0] ? s->ss_msg : NULL;
}

/*
 * perf record writes the kernel's text as a map "[kernel.kallsyms]_text"
 * of pid -1 at the address _text had then.  With KASLR the kernel we read
 * kallsyms from may sit elsewhere: lookups of a replay shift by the
 * difference (a live run sees no such record and shifts by nothing).
 */
static void
sym_note_kernel_map(struct sym_session *s, const struct perf_event_header *hdr)
{
	static const char tag[] = "[kernel.kallsyms]_text";
	/* header, pid, tid, addr, len, pgoff; MMAP2 adds dev/ino (or build
	 * id), ino_generation, prot, flags before the name */
	size_t off = hdr->type == PERF_RECORD_MMAP2 ? 72 : 40;
	uint32_t pid;
	uint64_t start;

	if (hdr->size < off + sizeof(tag))
		return;
	memcpy(&pid, (const char *)hdr + 8, sizeof(pid));
	memcpy(&start, (const char *)hdr + 16, sizeof(start));
	if (pid == UINT32_MAX && memcmp((const char *)hdr + off, tag, sizeof(tag)) == 0)
		s->ss_ktext = start;
}

void
sym_note_record(struct sym_session *s, const struct perf_event_header *hdr)
{
	if (hdr == NULL || hdr->size < sizeof(*hdr))
		return;
	if (hdr->type == PERF_RECORD_MMAP || hdr->type == PERF_RECORD_MMAP2)
		sym_note_kernel_map(s, hdr);
	(void)sym_proc_note(s->ss_procs, hdr);
}

int
sym_note_pid(struct sym_session *s, int32_t pid)
{
	struct sym_proc *p = pid > 0 ? sym_proc_get(s->ss_procs, pid) : NULL;

	if (p == NULL || p->pr_born || p->pr_exited || p->pr_fromproc)
		return 0;
	p->pr_fromproc = 1;
	if (sym_proc_read_maps(s->ss_procs, p, s->ss_proc) == 0)
		(void)sym_proc_comm(p, s->ss_proc);
	return 1;
}

int32_t
sym_note_fork_parent(struct sym_session *s, const struct perf_event_header *hdr)
{
	uint32_t ids[2];	/* FORK's body starts with pid, ppid */

	if (hdr == NULL || hdr->type != PERF_RECORD_FORK || hdr->size < sizeof(*hdr) + sizeof(ids))
		return 0;
	memcpy(ids, hdr + 1, sizeof(ids));
	if (ids[0] != ids[1] && sym_note_pid(s, (int32_t)ids[1]))	/* a new process */
		return (int32_t)ids[1];
	return 0;
}

void
sym_pin_pid(struct sym_session *s, int32_t pid)
{
	if (s && pid > 0)
		sym_proc_pin(s->ss_procs, pid);
}

int
sym_comm_known(struct sym_session *s, int32_t pid)
{
	struct sym_proc *p = sym_proc_find(s->ss_procs, pid);

	return p && (p->pr_comm[0] || p->pr_exited);
}

const char *
sym_comm_ppid(struct sym_session *s, int32_t pid, int32_t *ppid)
{
	struct sym_proc *p = sym_proc_get(s->ss_procs, pid);

	*ppid = p ? p->pr_ppid : 0;
	return p ? sym_proc_comm(p, s->ss_proc) : NULL;
}

const char *
sym_comm(struct sym_session *s, int32_t pid)
{
	int32_t ppid;

	return sym_comm_ppid(s, pid, &ppid);
}

/* ---- frame text ------------------------------------------------------- */

/* A frame is built by appending pieces (snprintf was a fifth of the time
 * of a first lookup); out of room, the text is cut, always terminated. */
struct sym_out {
	char *so_buf;
	size_t so_len, so_used;
};

static void
sym_put(struct sym_out *o, const char *s, size_t n)
{
	if (o->so_used + n >= o->so_len)
		n = o->so_len - 1 - o->so_used;
	memcpy(o->so_buf + o->so_used, s, n);
	o->so_used += n;
	o->so_buf[o->so_used] = '\0';
}

static void
sym_put_hex(struct sym_out *o, uint64_t v)
{
	static const char hx[] = "0123456789abcdef";
	char tmp[18];
	int i = (int)sizeof(tmp);

	do {
		tmp[--i] = hx[v & 15];
		v >>= 4;
	} while (v);
	tmp[--i] = 'x';
	tmp[--i] = '0';
	sym_put(o, tmp + i, sizeof(tmp) - (size_t)i);
}

/* DTrace's three shapes; name NULL means the module is all we know. */
static int
sym_frame(char *buf, size_t len, int form, const char *mod, const char *name,
    uint64_t off, uint64_t addr)
{
	struct sym_out o = { buf, len, 0 };

	if (len == 0)
		return -1;
	buf[0] = '\0';
	sym_put(&o, mod, strlen(mod));
	if (form == SYM_MOD)
		return (int)o.so_used;
	sym_put(&o, "`", 1);
	if (name == NULL) {
		sym_put_hex(&o, addr);
		return (int)o.so_used;
	}
	sym_put(&o, name, strlen(name));
	if (form == SYM_FULL && off != 0) {
		sym_put(&o, "+", 1);
		sym_put_hex(&o, off);
	}
	return (int)o.so_used;
}

/* Answer from the cache, or compute into a scratch buffer and cache it. */
typedef int (*sym_compute_fn)(struct sym_session *s, struct sym_proc *p,
    uint64_t addr, int flags, char *buf, size_t len);

static int
sym_cached(struct sym_session *s, struct sym_proc *p, uint64_t addr,
    uint32_t flags, sym_compute_fn fn, char *buf, size_t len)
{
	uint64_t space = p ? p->pr_space : s->ss_kspace;
	const struct ac_ent *e = ac_find(&s->ss_ac, space, addr, flags);
	char text[SYM_TEXTMAX];
	int n;

	if (e != NULL)
		return sym_copy_out(buf, len, s->ss_ac.ac_text + e->ae_off, e->ae_len);
	n = fn(s, p, addr, (int)flags, text, sizeof(text));
	/* fn may have read new maps or kallsyms: cache under the new space */
	space = p ? p->pr_space : s->ss_kspace;
	ac_store(&s->ss_ac, space, addr, flags, text, n);
	return sym_copy_out(buf, len, text, n);
}

/* ---- kernel ----------------------------------------------------------- */

static const struct sym_region *
sym_kregion(const struct sym_kernel *k, uint64_t addr)
{
	for (size_t i = 0; i < k->sk_nregions; i++)
		if (addr >= k->sk_regions[i].sr_start && addr < k->sk_regions[i].sr_end)
			return &k->sk_regions[i];
	return NULL;
}

/*
 * Modules and BPF programs loaded after kallsyms was read are missing from
 * it: the first address that falls outside everything known reads it again
 * (once per session, so garbage addresses cannot make us read it often).
 */
static int
sym_kernel_reload(struct sym_session *s)
{
	struct sym_kernel *k = &s->ss_kern;

	if (s->ss_kreloaded || k->sk_loaded <= 0)
		return 0;
	s->ss_kreloaded = 1;
	sym_kernel_free(k);
	s->ss_kspace++;
	if (sym_kernel_load(k, s->ss_kallsyms, s->ss_modules, s->ss_msg,
	    sizeof(s->ss_msg)) < 0)
		k->sk_loaded = -1;
	return k->sk_loaded > 0;
}

/* A recorded core-kernel address as this kernel has it (see
 * sym_note_kernel_map); modules move on their own and are left alone. */
static uint64_t
sym_kernel_reloc(const struct sym_session *s, uint64_t addr)
{
	const struct sym_kernel *k = &s->ss_kern;
	const struct sym_region *r;
	uint64_t moved = addr - s->ss_ktext + k->sk_text;

	if (s->ss_ktext == 0 || k->sk_text == 0 || s->ss_ktext == k->sk_text)
		return addr;
	r = sym_kregion(k, moved);
	return r && r->sr_mod == 0 ? moved : addr;
}

static int
sym_kernel_compute(struct sym_session *s, struct sym_proc *p, uint64_t addr,
    int flags, char *buf, size_t len)
{
	struct sym_kernel *k = &s->ss_kern;
	const struct sym_ent *e;
	const struct sym_region *r;
	uint64_t a;

	(void)p;
	if (k->sk_loaded == 0 && sym_kernel_load(k, s->ss_kallsyms,
	    s->ss_modules, s->ss_msg, sizeof(s->ss_msg)) < 0)
		k->sk_loaded = -1;
	if (k->sk_loaded > 0 && addr >= (1ull << 63) &&
	    sym_tab_lookup(&k->sk_tab, sym_kernel_reloc(s, addr)) == NULL &&
	    sym_kregion(k, sym_kernel_reloc(s, addr)) == NULL)
		(void)sym_kernel_reload(s);
	if (k->sk_loaded < 0)
		return -1;
	a = sym_kernel_reloc(s, addr);
	if ((e = sym_tab_lookup(&k->sk_tab, a)) != NULL)
		return sym_frame(buf, len, flags & SYM_FORM_MASK, k->sk_mods[e->se_mod],
		    sym_tab_name(&k->sk_tab, e), a - e->se_addr, addr);
	if ((r = sym_kregion(k, a)) != NULL)
		return sym_frame(buf, len, flags & SYM_FORM_MASK, k->sk_mods[r->sr_mod],
		    NULL, 0, addr);
	return -1;
}

int
sym_kernel(struct sym_session *s, uint64_t addr, int flags, char *buf, size_t len)
{
	return sym_cached(s, NULL, addr, (uint32_t)(flags & SYM_FORM_MASK),
	    sym_kernel_compute, buf, len);
}

/* ---- user: finding the object behind a mapping ------------------------ */

static int
sym_is_file(const struct sym_map *m)
{
	return m->sm_path[0] == '/' && strncmp(m->sm_path, "//anon", 6) != 0;
}

/* The vdso's length from its own headers (it has no file to stat). */
static size_t
sym_vdso_size(const void *image)
{
	const Elf64_Ehdr *eh = image;
	uint64_t end = eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || end > VDSO_MAX)
		return 0;
	return (size_t)end;
}

/* FNV-1a of the image: identical vdsos (one per kernel) share an object. */
static uint64_t
sym_fnv(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

/* A live process's vdso is read from its memory; an exited one is
 * assumed to have had ours (same kernel, same image). */
static struct sym_obj *
sym_vdso_obj(struct sym_session *s, struct sym_proc *p, const struct sym_map *m)
{
	struct sym_src src = { .ss_image = NULL };
	size_t n = m->sm_end - m->sm_start;
	void *img = NULL;
	char path[128], key[64];
	struct sym_obj *o;
	int fd = -1;

	snprintf(path, sizeof(path), "%s/%d/mem", s->ss_proc, (int)p->pr_pid);
	if (!p->pr_exited && n <= VDSO_MAX && (img = malloc(n)) != NULL &&
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0 &&
	    pread(fd, img, n, (off_t)m->sm_start) == (ssize_t)n) {
		src.ss_image = img;
		src.ss_imagelen = n;
	} else if ((src.ss_image = (const void *)getauxval(AT_SYSINFO_EHDR)) != NULL) {
		src.ss_imagelen = sym_vdso_size(src.ss_image);
	}
	if (fd >= 0)
		close(fd);
	if (src.ss_image == NULL || src.ss_imagelen == 0) {
		free(img);
		return NULL;
	}
	snprintf(key, sizeof(key), "vdso:%016" PRIx64,
	    sym_fnv(src.ss_image, src.ss_imagelen));
	o = sym_obj_get(s->ss_objs, key, &src, s->ss_debugdir);
	free(img);
	return o;
}

static void
sym_file_key(char *key, size_t len, const struct sym_map *m)
{
	int n;

	if (m->sm_buildidlen) {
		n = snprintf(key, len, "b:");
		for (int i = 0; i < m->sm_buildidlen && n + 3 < (int)len; i++)
			n += snprintf(key + n, len - (size_t)n, "%02x", m->sm_buildid[i]);
		return;
	}
	snprintf(key, len, "f:%x:%x:%" PRIu64 ":%s", m->sm_maj, m->sm_min,
	    m->sm_ino, m->sm_path);
}

/*
 * Candidates for a mapped file: the mapping itself through map_files
 * (right even when the file was deleted or replaced), the path inside the
 * process's mount namespace (containers), the path as we see it.
 */
static struct sym_obj *
sym_file_obj(struct sym_session *s, struct sym_proc *p, const struct sym_map *m)
{
	char key[4200], mf[128], root[4200], plain[4096];
	struct sym_src src = { .ss_image = NULL };
	int i = 0;

	sym_file_key(key, sizeof(key), m);
	snprintf(plain, sizeof(plain), "%s", m->sm_path);
	if (strlen(plain) > 10 && !strcmp(plain + strlen(plain) - 10, " (deleted)"))
		plain[strlen(plain) - 10] = '\0';
	if (!p->pr_exited) {
		snprintf(mf, sizeof(mf), "%s/%d/map_files/%" PRIx64 "-%" PRIx64,
		    s->ss_proc, (int)p->pr_pid, m->sm_start, m->sm_end);
		snprintf(root, sizeof(root), "%s/%d/root%s", s->ss_proc,
		    (int)p->pr_pid, plain);
		src.ss_paths[i++] = mf;
		src.ss_paths[i++] = root;
	}
	src.ss_paths[i] = plain;
	src.ss_ino = m->sm_ino;
	src.ss_buildid = m->sm_buildid;
	src.ss_buildidlen = m->sm_buildidlen;
	return sym_obj_get(s->ss_objs, key, &src, s->ss_debugdir);
}

static struct sym_obj *
sym_map_obj(struct sym_session *s, struct sym_proc *p, struct sym_map *m)
{
	if (!m->sm_objtried) {
		m->sm_objtried = 1;
		if (sym_is_file(m))
			m->sm_obj = sym_file_obj(s, p, m);
		else if (strcmp(m->sm_path, "[vdso]") == 0)
			m->sm_obj = sym_vdso_obj(s, p, m);
	}
	return m->sm_obj && m->sm_obj->so_state > 0 ? m->sm_obj : NULL;
}

/* ---- user: lookups ---------------------------------------------------- */

/*
 * The mapping holding addr.  /proc/PID/maps is read when records never
 * described the process, and once more after a miss unless we saw the
 * process being born (then the records are the whole story): a live run
 * sees only the mmaps made after it started.
 */
static struct sym_map *
sym_find_map(struct sym_session *s, struct sym_proc *p, uint64_t addr)
{
	struct sym_map *m = sym_proc_map(p, addr);

	if (m != NULL || p->pr_exited || p->pr_born || p->pr_fromproc >= 2)
		return m;
	if (p->pr_fromproc == 0 && p->pr_nmaps == 0)
		p->pr_fromproc = 1;
	else
		p->pr_fromproc = 2;
	if (sym_proc_read_maps(s->ss_procs, p, s->ss_proc) < 0)
		return NULL;
	return sym_proc_map(p, addr);
}

static int
sym_jit_compute(struct sym_session *s, struct sym_proc *p, uint64_t addr,
    int form, char *buf, size_t len)
{
	const struct sym_ent *e;
	char mod[32];

	if (sym_proc_jit(p, s->ss_proc) < 0 ||
	    (e = sym_tab_lookup(&p->pr_jit, addr)) == NULL)
		return -1;
	snprintf(mod, sizeof(mod), "perf-%d.map", (int)p->pr_pid);
	return sym_frame(buf, len, form, mod, sym_tab_name(&p->pr_jit, e),
	    addr - e->se_addr, addr);
}

/* The real frame, preceded by inlined frames when asked and known. */
static int
sym_obj_frame(struct sym_obj *o, const struct sym_map *m, uint64_t addr,
    uint64_t va, int flags, char *buf, size_t len)
{
	const struct sym_ent *e = sym_tab_lookup(&o->so_tab, va);
	int form = flags & SYM_FORM_MASK, n = 0, r;

	if (e == NULL)
		return sym_frame(buf, len, form, m->sm_name, NULL, 0, addr);
	if ((flags & SYM_INLINE) && form != SYM_MOD &&
	    (n = sym_obj_inlines(o, va, m->sm_name, buf, len)) < 0)
		n = 0;
	r = sym_frame(buf + n, len - (size_t)n, form, m->sm_name,
	    sym_tab_name(&o->so_tab, e), va - e->se_addr, addr);
	return r < 0 ? -1 : n + r;
}

static int
sym_user_compute(struct sym_session *s, struct sym_proc *p, uint64_t addr,
    int flags, char *buf, size_t len)
{
	struct sym_map *m = sym_find_map(s, p, addr);
	struct sym_obj *o;
	uint64_t va;
	int n;

	if ((m == NULL || !sym_is_file(m)) &&
	    (n = sym_jit_compute(s, p, addr, flags & SYM_FORM_MASK, buf, len)) >= 0)
		return n;
	if (m == NULL || (!sym_is_file(m) && strcmp(m->sm_path, "[vdso]") != 0))
		return -1;
	o = sym_map_obj(s, p, m);
	if (o == NULL || sym_obj_vaddr(o, addr - m->sm_start + m->sm_pgoff, &va) < 0)
		return sym_frame(buf, len, flags & SYM_FORM_MASK, m->sm_name, NULL, 0, addr);
	return sym_obj_frame(o, m, addr, va, flags, buf, len);
}

static struct sym_proc *
sym_user_proc(struct sym_session *s, int32_t pid)
{
	return pid > 0 ? sym_proc_get(s->ss_procs, pid) : NULL;
}

int
sym_user(struct sym_session *s, int32_t pid, uint64_t addr, int flags, char *buf, size_t len)
{
	struct sym_proc *p = sym_user_proc(s, pid);

	if (p == NULL)
		return -1;
	return sym_cached(s, p, addr, (uint32_t)(flags & (SYM_FORM_MASK | SYM_INLINE)),
	    sym_user_compute, buf, len);
}

static int
sym_srcline_compute(struct sym_session *s, struct sym_proc *p, uint64_t addr,
    int flags, char *buf, size_t len)
{
	struct sym_map *m = sym_find_map(s, p, addr);
	struct sym_obj *o;
	uint64_t va;

	(void)flags;
	if (m == NULL || (o = sym_map_obj(s, p, m)) == NULL ||
	    sym_obj_vaddr(o, addr - m->sm_start + m->sm_pgoff, &va) < 0)
		return -1;
	return sym_obj_srcline(o, va, buf, len);
}

int
sym_srcline(struct sym_session *s, int32_t pid, uint64_t addr, char *buf, size_t len)
{
	struct sym_proc *p = sym_user_proc(s, pid);

	if (p == NULL)
		return -1;
	return sym_cached(s, p, addr, AC_SRCLINE, sym_srcline_compute, buf, len);
}

/* ---- functions for probes --------------------------------------------- */

/* Where file offset off of object o is in p (0 if no mapping holds it). */
static uint64_t
sym_proc_addr(const struct sym_proc *p, const struct sym_obj *o, uint64_t off)
{
	for (size_t i = 0; i < p->pr_nmaps; i++) {
		const struct sym_map *m = &p->pr_maps[i];
		if (m->sm_obj == o && off >= m->sm_pgoff &&
		    off - m->sm_pgoff < m->sm_end - m->sm_start)
			return m->sm_start + (off - m->sm_pgoff);
	}
	return 0;
}

/* A path to the file we can open: ours if it is the same file, else
 * through the process's root (another mount namespace). */
static void
sym_probe_path(struct sym_session *s, const struct sym_proc *p,
    const struct sym_map *m, char *out, size_t len)
{
	char plain[4096];
	struct stat st;
	size_t n;

	snprintf(plain, sizeof(plain), "%.4000s", m->sm_path);
	n = strlen(plain);
	if (n > 10 && strcmp(plain + n - 10, " (deleted)") == 0)
		plain[n - 10] = '\0';
	if (p->pr_exited || (stat(plain, &st) == 0 && (m->sm_ino == 0 ||
	    (st.st_ino == m->sm_ino && makedev(m->sm_maj, m->sm_min) == st.st_dev))))
		snprintf(out, len, "%s", plain);
	else
		snprintf(out, len, "%s/%d/root%s", s->ss_proc, (int)p->pr_pid, plain);
}

static int
sym_obj_funcs(struct sym_session *s, const struct sym_proc *p,
    const struct sym_map *m, const char *funcglob,
    int (*cb)(void *arg, const struct sym_func *f), void *arg, int *count)
{
	const struct sym_obj *o = m->sm_obj;
	uint64_t last = 0;
	char path[4300];
	int rc;

	sym_probe_path(s, p, m, path, sizeof(path));
	for (size_t i = 0; i < o->so_tab.st_n; i++) {
		const struct sym_ent *e = &o->so_tab.st_ents[i];
		const char *nm = sym_tab_name(&o->so_tab, e);
		struct sym_func f = { m->sm_name, nm, path, 0, e->se_size, 0 };

		if (!(e->se_flags & SE_FUNC) || (i > 0 && e->se_addr == last) ||
		    (funcglob && fnmatch(funcglob, nm, 0) != 0) ||
		    sym_obj_offset(o, e->se_addr, &f.sf_offset) < 0)
			continue;
		last = e->se_addr;
		f.sf_addr = sym_proc_addr(p, o, f.sf_offset);
		(*count)++;
		if ((rc = cb(arg, &f)) != 0)
			return rc;
	}
	return 0;
}

int
sym_user_funcs(struct sym_session *s, int32_t pid, const char *modglob,
    const char *funcglob, int (*cb)(void *arg, const struct sym_func *f), void *arg)
{
	struct sym_proc *p = sym_user_proc(s, pid);
	int count = 0, rc;

	if (p == NULL)
		return -ESRCH;
	if (p->pr_nmaps == 0 && !p->pr_exited && !p->pr_fromproc) {
		p->pr_fromproc = 1;
		if (sym_proc_read_maps(s->ss_procs, p, s->ss_proc) < 0)
			return -ESRCH;
	}
	/* every mapping's object first: a function's address may lie in a
	 * later mapping of the same file than the one that names it */
	for (size_t i = 0; i < p->pr_nmaps; i++) {
		struct sym_map *m = &p->pr_maps[i];
		if (sym_is_file(m) && (modglob == NULL || fnmatch(modglob, m->sm_name, 0) == 0))
			(void)sym_map_obj(s, p, m);
	}
	for (size_t i = 0; i < p->pr_nmaps; i++) {
		const struct sym_map *m = &p->pr_maps[i];
		int seen = 0;

		if (m->sm_obj == NULL || m->sm_obj->so_state <= 0 ||
		    (modglob && fnmatch(modglob, m->sm_name, 0) != 0))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = p->pr_maps[j].sm_obj == m->sm_obj;
		if (!seen && (rc = sym_obj_funcs(s, p, m, funcglob, cb, arg, &count)) != 0)
			return rc;
	}
	return count;
}
