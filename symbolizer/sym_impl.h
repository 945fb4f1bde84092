/*
 * sym_impl.h — internals shared by the symbolizer's files.
 *
 *   sym_tab.c     address-sorted symbol tables (dt_module.c's tie-breaks)
 *   sym_kernel.c  /proc/kallsyms and /proc/modules
 *   sym_elf.c     binaries: ELF symbols, debug files, vdso, DWARF
 *   sym_proc.c    processes: maps from records or /proc, perf JIT maps
 *   symbolizer.c  the session, the address cache, the frame text
 *
 * Every address a table holds is in the binary's own ELF virtual address
 * space (st_value); a process address becomes one through its mapping
 * (start, pgoff) and the binary's PT_LOAD headers (sym_obj_vaddr).
 */
#ifndef PMCTRACE_SYM_IMPL_H
#define PMCTRACE_SYM_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "symbolizer/symbolizer.h"

/* ---- symbol tables ---------------------------------------------------- */

#define SE_SIZED	0x1	/* size known (nonzero) */
#define SE_TYPED	0x2	/* not STT_NOTYPE */
#define SE_WEAK		0x4	/* STB_WEAK */
#define SE_FUNC		0x8	/* STT_FUNC: code a probe may attach to */

struct sym_ent {
	uint64_t se_addr;
	uint64_t se_size;
	uint32_t se_name;	/* offset into st_strs */
	uint16_t se_mod;	/* kernel: index into the module names */
	uint8_t se_flags;	/* SE_* */
};

struct sym_tab {
	struct sym_ent *st_ents;
	size_t st_n, st_cap;
	char *st_strs;
	size_t st_strlen, st_strcap;
	/* page index: st_pidx[p] is the first entry at or above
	 * st_base + p * 4096, so a lookup searches one page's entries */
	uint64_t st_base;
	uint32_t *st_pidx;
	size_t st_npages;
};

int sym_tab_add(struct sym_tab *t, uint64_t addr, uint64_t size, int flags,
    uint16_t mod, const char *name, size_t namelen);
void sym_tab_sort(struct sym_tab *t);
const struct sym_ent *sym_tab_lookup(const struct sym_tab *t, uint64_t addr);
void sym_tab_free(struct sym_tab *t);

static inline const char *
sym_tab_name(const struct sym_tab *t, const struct sym_ent *e)
{
	return t->st_strs + e->se_name;
}

/* ---- kernel ----------------------------------------------------------- */

struct sym_region {		/* a module's address range */
	uint64_t sr_start, sr_end;
	uint16_t sr_mod;
};

struct sym_kernel {
	int sk_loaded;		/* 1 loaded, -1 failed */
	struct sym_tab sk_tab;
	char **sk_mods;		/* module names; 0 is "vmlinux" */
	size_t sk_nmods;
	struct sym_region *sk_regions;
	size_t sk_nregions;
	uint64_t sk_text;	/* _text, for relocating recorded addresses */
};

int sym_kernel_load(struct sym_kernel *k, const char *kallsyms,
    const char *modules, char *msg, size_t msglen);
void sym_kernel_free(struct sym_kernel *k);

/* ---- binaries --------------------------------------------------------- */

struct sym_load {		/* one PT_LOAD */
	uint64_t sl_off, sl_vaddr, sl_filesz;
	uint32_t sl_flags;	/* PF_X ... */
};

/* The loaded contents of one binary, shared by every mapping of it. */
struct sym_obj {
	char *so_key;		/* "b:<build id>" or "f:dev:ino:path" */
	char *so_path;		/* where it was read from */
	char *so_dbgpath;	/* separate debug file, or NULL */
	int so_state;		/* 0 unread, 1 read, -1 unreadable */
	struct sym_tab so_tab;
	struct sym_load *so_loads;
	size_t so_nloads;
	void *so_image;		/* vdso copy (malloc), else NULL */
	size_t so_imagelen;
	struct sym_dwarf *so_dw;	/* lazily, see sym_elf.c */
	int so_dwstate;		/* 0 untried, 1 open, -1 none */
};

/* Where to read a binary from: candidates tried in order.  The last path
 * is the file as we see it, which may be another file by now (replaced,
 * or a recording from another machine): it is used only if its inode is
 * ss_ino (when known), and any candidate only if its build id is the one
 * the record carried (when it carried one). */
struct sym_src {
	const char *ss_paths[3];
	const void *ss_image;	/* in-memory image (vdso) */
	size_t ss_imagelen;
	uint64_t ss_ino;
	const uint8_t *ss_buildid;
	size_t ss_buildidlen;
};

struct sym_objcache;
struct sym_objcache *sym_objcache_new(void);
void sym_objcache_free(struct sym_objcache *c);
/* Returns the object for key, reading it from src on first use; never
 * NULL unless out of memory (an unreadable object has so_state -1). */
struct sym_obj *sym_obj_get(struct sym_objcache *c, const char *key,
    const struct sym_src *src, const char *debugdir);
int sym_obj_vaddr(const struct sym_obj *o, uint64_t off, uint64_t *vaddr);
int sym_obj_offset(const struct sym_obj *o, uint64_t vaddr, uint64_t *off);

/* DWARF: inlined scopes and lines at vaddr. */
int sym_obj_inlines(struct sym_obj *o, uint64_t vaddr, const char *mod,
    char *buf, size_t len);
int sym_obj_srcline(struct sym_obj *o, uint64_t vaddr, char *buf, size_t len);

/* ---- processes -------------------------------------------------------- */

struct sym_map {
	uint64_t sm_start, sm_end, sm_pgoff;
	uint32_t sm_maj, sm_min;
	uint64_t sm_ino;
	char *sm_path;		/* as the kernel names it */
	const char *sm_name;	/* basename, " (deleted)" stripped */
	struct sym_obj *sm_obj;	/* NULL until first lookup */
	uint8_t sm_buildid[20];
	uint8_t sm_buildidlen;
	uint8_t sm_objtried;
};

struct sym_proc {
	int32_t pr_pid;
	int pr_exited;
	int pr_born;		/* we saw its FORK or exec: records are complete */
	int pr_fromproc;	/* 0 never, 1 read /proc, 2 re-read after a miss */
	int32_t pr_ppid;	/* parent named by its FORK record, 0 if none seen */
	uint64_t pr_space;	/* address-cache key; changes with the maps */
	char pr_comm[16 + 1];
	struct sym_map *pr_maps;	/* sorted by start, disjoint */
	size_t pr_nmaps, pr_capmaps;
	struct sym_tab pr_jit;	/* perf-PID.map */
	int pr_jitstate;	/* 0 untried, 1 loaded, -1 none */
	int pr_pinned;		/* kept after exit: a key may need its maps */
};

struct sym_procs;
struct sym_procs *sym_procs_new(void);
void sym_procs_free(struct sym_procs *ps);
struct sym_proc *sym_proc_find(struct sym_procs *ps, int32_t pid);
struct sym_proc *sym_proc_get(struct sym_procs *ps, int32_t pid);
int sym_proc_note(struct sym_procs *ps, const struct perf_event_header *hdr);
int sym_proc_read_maps(struct sym_procs *ps, struct sym_proc *p, const char *procdir);
const char *sym_proc_comm(struct sym_proc *p, const char *procdir);
struct sym_map *sym_proc_map(const struct sym_proc *p, uint64_t addr);
int sym_proc_jit(struct sym_proc *p, const char *procdir);
void sym_proc_pin(struct sym_procs *ps, int32_t pid);

#endif
