/*
 * sym_elf.c — binaries: their symbols (libelf), separate debug files, the
 * vdso image, and DWARF lines and inlined scopes (libdw).
 *
 * An object is read once, on the first lookup that needs it, and cached
 * under its key; once its build id is known it is also cached under
 * "b:<build id>", so the same library seen through another path, another
 * mount namespace or another process shares one copy.  Symbols come from
 * .symtab when the binary has one, else from the .symtab of its separate
 * debug file (DEBUGDIR/.build-id/xx/rest.debug, checked by build id, or
 * .gnu_debuglink next to the binary, in its .debug/, or under DEBUGDIR,
 * checked by build id or CRC), else from .dynsym.  Any libelf failure just
 * leaves fewer symbols; nothing here trusts a file's contents.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "symbolizer/sym_impl.h"

#define SO_MAXBUILDID	64

struct sym_dwarf {
	int sd_fd;
	Elf *sd_elf;
	Dwarf *sd_dw;
};

struct sym_objent {
	char *oe_key;
	struct sym_obj *oe_obj;
};

struct sym_objcache {
	struct sym_objent *oc_ents;	/* keys, several may share an object */
	size_t oc_n;
	struct sym_obj **oc_objs;	/* each object once, owned here */
	size_t oc_nobjs;
};

/* An open ELF: the file descriptor (or -1 for an image) and the handle. */
struct so_elf {
	int fd;
	Elf *elf;
};

struct sym_objcache *
sym_objcache_new(void)
{
	elf_version(EV_CURRENT);
	return calloc(1, sizeof(struct sym_objcache));
}

static void
so_dwarf_close(struct sym_dwarf *d)
{
	if (d == NULL)
		return;
	if (d->sd_dw)
		dwarf_end(d->sd_dw);
	if (d->sd_elf)
		elf_end(d->sd_elf);
	if (d->sd_fd >= 0)
		close(d->sd_fd);
	free(d);
}

static void
so_free(struct sym_obj *o)
{
	sym_tab_free(&o->so_tab);
	so_dwarf_close(o->so_dw);
	free(o->so_loads);
	free(o->so_image);
	free(o->so_path);
	free(o->so_dbgpath);
	free(o->so_key);
	free(o);
}

void
sym_objcache_free(struct sym_objcache *c)
{
	if (c == NULL)
		return;
	for (size_t i = 0; i < c->oc_nobjs; i++)
		so_free(c->oc_objs[i]);
	for (size_t i = 0; i < c->oc_n; i++)
		free(c->oc_ents[i].oe_key);
	free(c->oc_objs);
	free(c->oc_ents);
	free(c);
}

static struct sym_obj *
so_find(const struct sym_objcache *c, const char *key)
{
	for (size_t i = 0; i < c->oc_n; i++)
		if (strcmp(c->oc_ents[i].oe_key, key) == 0)
			return c->oc_ents[i].oe_obj;
	return NULL;
}

static int
so_add_key(struct sym_objcache *c, const char *key, struct sym_obj *o)
{
	struct sym_objent *ne = realloc(c->oc_ents, (c->oc_n + 1) * sizeof(*ne));

	if (ne == NULL)
		return -ENOMEM;
	c->oc_ents = ne;
	if ((ne[c->oc_n].oe_key = strdup(key)) == NULL)
		return -ENOMEM;
	ne[c->oc_n++].oe_obj = o;
	return 0;
}

static int
so_adopt(struct sym_objcache *c, struct sym_obj *o)
{
	struct sym_obj **no = realloc(c->oc_objs, (c->oc_nobjs + 1) * sizeof(*no));

	if (no == NULL)
		return -ENOMEM;
	c->oc_objs = no;
	no[c->oc_nobjs++] = o;
	return 0;
}

/* ---- opening ELF files ---------------------------------------------- */

static int
so_elf_open(struct so_elf *se, const char *path)
{
	se->elf = NULL;
	se->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (se->fd < 0)
		return -errno;
	se->elf = elf_begin(se->fd, ELF_C_READ_MMAP, NULL);
	if (se->elf == NULL || elf_kind(se->elf) != ELF_K_ELF) {
		if (se->elf)
			elf_end(se->elf);
		close(se->fd);
		se->fd = -1;
		se->elf = NULL;
		return -ENOEXEC;
	}
	return 0;
}

static void
so_elf_close(struct so_elf *se)
{
	if (se->elf)
		elf_end(se->elf);
	if (se->fd >= 0)
		close(se->fd);
	se->elf = NULL;
	se->fd = -1;
}

static ssize_t
so_build_id(Elf *e, uint8_t *id)
{
	const void *p;
	ssize_t n = dwelf_elf_gnu_build_id(e, &p);

	if (n <= 0 || n > SO_MAXBUILDID)
		return 0;
	memcpy(id, p, (size_t)n);
	return n;
}

static void
so_hex(char *out, const uint8_t *id, size_t n)
{
	static const char hx[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hx[id[i] >> 4];
		out[2 * i + 1] = hx[id[i] & 15];
	}
	out[2 * n] = '\0';
}

static Elf_Scn *
so_find_scn(Elf *e, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return scn;
	return NULL;
}

static int
so_has_debuginfo(Elf *e)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(e, &shstrndx) < 0)
		return 0;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		const char *nm;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type == SHT_NOBITS)
			continue;
		nm = elf_strptr(e, shstrndx, sh.sh_name);
		if (nm && (!strcmp(nm, ".debug_info") || !strcmp(nm, ".zdebug_info")))
			return 1;
	}
	return 0;
}

/* ---- program headers -------------------------------------------------- */

static int
so_read_loads(struct sym_obj *o, Elf *e)
{
	size_t n;
	GElf_Phdr ph;

	if (elf_getphdrnum(e, &n) < 0 || n == 0 || n > 4096)
		return 0;
	if ((o->so_loads = calloc(n, sizeof(*o->so_loads))) == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (gelf_getphdr(e, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
			continue;
		o->so_loads[o->so_nloads++] = (struct sym_load){
			ph.p_offset, ph.p_vaddr, ph.p_filesz, ph.p_flags };
	}
	return 0;
}

/*
 * File offset (addr - map start + map pgoff) to ELF virtual address, through
 * the PT_LOAD that holds that offset.  This one rule covers executables,
 * PIE and shared libraries, and prelinked ones.
 */
int
sym_obj_vaddr(const struct sym_obj *o, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < o->so_nloads; i++) {
		const struct sym_load *l = &o->so_loads[i];
		if (off >= l->sl_off && off - l->sl_off < l->sl_filesz) {
			*vaddr = off - l->sl_off + l->sl_vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

/* The inverse, for code only: the file offset of an executable vaddr
 * (what a uprobe is attached at). */
int
sym_obj_offset(const struct sym_obj *o, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < o->so_nloads; i++) {
		const struct sym_load *l = &o->so_loads[i];
		if ((l->sl_flags & PF_X) && vaddr >= l->sl_vaddr &&
		    vaddr - l->sl_vaddr < l->sl_filesz) {
			*off = vaddr - l->sl_vaddr + l->sl_off;
			return 0;
		}
	}
	return -ENOENT;
}

/* ---- symbols ---------------------------------------------------------- */

static int
so_sym_flags(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info), f = 0;

	if (sym->st_shndx == SHN_UNDEF || sym->st_value == 0 ||
	    type == STT_SECTION || type == STT_FILE || type == STT_TLS)
		return -1;
	if (type != STT_NOTYPE)
		f |= SE_TYPED;
	/* not STT_GNU_IFUNC: its address is the resolver, not the code run */
	if (type == STT_FUNC)
		f |= SE_FUNC;
	if (GELF_ST_BIND(sym->st_info) == STB_WEAK)
		f |= SE_WEAK;
	return f;
}

static int
so_read_syms(struct sym_tab *t, Elf *e, Elf_Scn *scn)
{
	GElf_Shdr sh;
	Elf_Data *d = NULL;
	GElf_Sym sym;

	if (gelf_getshdr(scn, &sh) == NULL || sh.sh_entsize == 0)
		return 0;
	while ((d = elf_getdata(scn, d)) != NULL && d->d_buf != NULL) {
		size_t n = d->d_size / sh.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			const char *name;
			int f;
			if (gelf_getsym(d, (int)i, &sym) == NULL)
				break;
			if ((f = so_sym_flags(&sym)) < 0 ||
			    (name = elf_strptr(e, sh.sh_link, sym.st_name)) == NULL ||
			    name[0] == '\0')
				continue;
			/* "name@@GLIBC_2.2.5" (.symver in .symtab): the name is
			 * what a user calls; the version is noise in a frame */
			if (sym_tab_add(t, sym.st_value, sym.st_size, f, 0, name,
			    strcspn(name + 1, "@") + 1) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

/* ---- PLT stubs ---------------------------------------------------------- */

static Elf_Scn *
so_scn_by_name(Elf *e, const char *want, GElf_Shdr *sh)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(e, &shstrndx) < 0)
		return NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		const char *nm;
		if (gelf_getshdr(scn, sh) && (nm = elf_strptr(e, shstrndx, sh->sh_name)) &&
		    strcmp(nm, want) == 0)
			return scn;
	}
	return NULL;
}

/*
 * Calls into shared libraries go through 16-byte stubs that no symbol
 * covers; as perf does, name them "func@plt" from the .rela.plt entries,
 * which are in stub order.  With IBT the stubs are in .plt.sec; otherwise
 * .plt, after its first (resolver) entry.  An IRELATIVE entry has no
 * symbol, only its ifunc resolver's address: it is named after the symbol
 * there (libc calling its own memcpy).  x86-64 only.  The stubs go into
 * pend, to be merged once t (already sorted) has answered those lookups.
 */
static int
so_read_plt(const struct sym_tab *t, struct sym_tab *pend, Elf *e)
{
	GElf_Ehdr eh;
	GElf_Shdr rsh, psh, dsh;
	Elf_Scn *rel, *dyn;
	Elf_Data *rd, *dd;
	uint64_t base;
	char name[512];

	if (gelf_getehdr(e, &eh) == NULL || eh.e_machine != EM_X86_64 ||
	    (rel = so_scn_by_name(e, ".rela.plt", &rsh)) == NULL ||
	    rsh.sh_type != SHT_RELA || (dyn = elf_getscn(e, rsh.sh_link)) == NULL ||
	    gelf_getshdr(dyn, &dsh) == NULL ||
	    (rd = elf_getdata(rel, NULL)) == NULL || (dd = elf_getdata(dyn, NULL)) == NULL)
		return 0;
	if (so_scn_by_name(e, ".plt.sec", &psh) != NULL)
		base = psh.sh_addr;
	else if (so_scn_by_name(e, ".plt", &psh) != NULL)
		base = psh.sh_addr + 16;
	else
		return 0;
	for (int i = 0; (size_t)i < rsh.sh_size / sizeof(Elf64_Rela); i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const struct sym_ent *ifn;
		const char *nm = NULL;
		if (gelf_getrela(rd, i, &r) == NULL)
			break;
		if (GELF_R_TYPE(r.r_info) == R_X86_64_IRELATIVE)
			nm = (ifn = sym_tab_lookup(t, (uint64_t)r.r_addend)) ?
			    sym_tab_name(t, ifn) : NULL;
		else if (GELF_R_SYM(r.r_info) != 0 &&
		    gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &sym) != NULL)
			nm = elf_strptr(e, dsh.sh_link, sym.st_name);
		if (nm == NULL || nm[0] == '\0')
			continue;
		snprintf(name, sizeof(name), "%s@plt", nm);
		if (sym_tab_add(pend, base + 16 * (uint64_t)i, 16, SE_TYPED, 0, name,
		    strlen(name)) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Adds the PLT stubs to a sorted table, and sorts it again. */
static int
so_add_plt(struct sym_tab *t, Elf *e)
{
	struct sym_tab pend = { 0 };
	int rc = so_read_plt(t, &pend, e);

	for (size_t i = 0; rc == 0 && i < pend.st_n; i++) {
		const struct sym_ent *p = &pend.st_ents[i];
		const char *nm = sym_tab_name(&pend, p);
		rc = sym_tab_add(t, p->se_addr, p->se_size, p->se_flags, 0, nm, strlen(nm));
	}
	if (pend.st_n)
		sym_tab_sort(t);
	sym_tab_free(&pend);
	return rc;
}

/* ---- separate debug files --------------------------------------------- */

static int
so_crc_matches(int fd, GElf_Word want)
{
	struct stat st;
	void *p;
	uLong crc;

	if (fstat(fd, &st) < 0 || st.st_size <= 0)
		return 0;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return 0;
	crc = crc32(0L, p, (uInt)st.st_size);
	munmap(p, (size_t)st.st_size);
	return (GElf_Word)crc == want;
}

/* Open path as the debug file of a binary with build id (id, idlen); with
 * no build id on either side, a debuglink CRC must match instead. */
static int
so_try_debug(struct so_elf *dbg, const char *path, const uint8_t *id,
    size_t idlen, int checkcrc, GElf_Word crc)
{
	uint8_t did[SO_MAXBUILDID];
	ssize_t dn;

	if (so_elf_open(dbg, path) < 0)
		return 0;
	dn = so_build_id(dbg->elf, did);
	if (idlen && dn > 0) {
		if ((size_t)dn == idlen && memcmp(did, id, idlen) == 0)
			return 1;
	} else if (checkcrc && so_crc_matches(dbg->fd, crc)) {
		return 1;
	}
	so_elf_close(dbg);
	return 0;
}

static int
so_debug_by_buildid(struct so_elf *dbg, char *out, size_t outlen,
    const char *debugdir, const uint8_t *id, size_t idlen)
{
	char hex[2 * SO_MAXBUILDID + 1];

	if (idlen < 2)
		return 0;
	so_hex(hex, id, idlen);
	snprintf(out, outlen, "%s/.build-id/%.2s/%s.debug", debugdir, hex, hex + 2);
	return so_try_debug(dbg, out, id, idlen, 0, 0);
}

static int
so_debug_by_link(struct so_elf *dbg, char *out, size_t outlen, Elf *e,
    const char *path, const char *debugdir, const uint8_t *id, size_t idlen)
{
	GElf_Word crc;
	const char *link = dwelf_elf_gnu_debuglink(e, &crc);
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path) : 0;
	const char *fmts[3] = { "%.*s/%s", "%.*s/.debug/%s", "%s%.*s/%s" };

	if (link == NULL || link[0] == '\0' || strchr(link, '/'))
		return 0;
	for (int i = 0; i < 3; i++) {
		if (i < 2)
			snprintf(out, outlen, fmts[i], dirlen, path, link);
		else
			snprintf(out, outlen, fmts[i], debugdir, dirlen, path, link);
		if (strcmp(out, path) != 0 &&
		    so_try_debug(dbg, out, id, idlen, 1, crc))
			return 1;
	}
	return 0;
}

/* Finds and opens the separate debug file; records its path. */
static int
so_open_debug(struct sym_obj *o, struct so_elf *dbg, Elf *e,
    const char *plainpath, const char *debugdir)
{
	uint8_t id[SO_MAXBUILDID];
	size_t idlen = (size_t)so_build_id(e, id);
	char path[4096];

	if (!so_debug_by_buildid(dbg, path, sizeof(path), debugdir, id, idlen) &&
	    !so_debug_by_link(dbg, path, sizeof(path), e, o->so_path, debugdir,
	    id, idlen) &&
	    (plainpath == NULL || strcmp(plainpath, o->so_path) == 0 ||
	    !so_debug_by_link(dbg, path, sizeof(path), e, plainpath, debugdir,
	    id, idlen)))
		return 0;
	free(o->so_dbgpath);
	o->so_dbgpath = strdup(path);
	return 1;
}

static int
so_load_symbols(struct sym_obj *o, Elf *e, const char *plainpath,
    const char *debugdir)
{
	Elf_Scn *scn = so_find_scn(e, SHT_SYMTAB);
	struct so_elf dbg = { -1, NULL };
	int rc;

	if (scn != NULL)
		return so_read_syms(&o->so_tab, e, scn);
	if (so_open_debug(o, &dbg, e, plainpath, debugdir) &&
	    (scn = so_find_scn(dbg.elf, SHT_SYMTAB)) != NULL) {
		rc = so_read_syms(&o->so_tab, dbg.elf, scn);
		so_elf_close(&dbg);
		return rc;
	}
	so_elf_close(&dbg);
	scn = so_find_scn(e, SHT_DYNSYM);
	return scn ? so_read_syms(&o->so_tab, e, scn) : 0;
}

/* ---- the cache -------------------------------------------------------- */

static int
so_open_src(struct so_elf *se, struct sym_obj *o, const struct sym_src *src)
{
	if (src->ss_image) {
		if ((o->so_image = malloc(src->ss_imagelen)) == NULL)
			return -ENOMEM;
		memcpy(o->so_image, src->ss_image, src->ss_imagelen);
		o->so_imagelen = src->ss_imagelen;
		se->fd = -1;
		se->elf = elf_memory(o->so_image, o->so_imagelen);
		if (se->elf && elf_kind(se->elf) == ELF_K_ELF)
			return (o->so_path = strdup("[vdso]")) ? 0 : -ENOMEM;
		so_elf_close(se);
		return -ENOEXEC;
	}
	for (int i = 0; i < 3 && src->ss_paths[i]; i++) {
		struct stat st;
		int last = i == 2 || src->ss_paths[i + 1] == NULL;
		if (last && src->ss_ino &&
		    (stat(src->ss_paths[i], &st) < 0 || st.st_ino != src->ss_ino))
			continue;
		if (so_elf_open(se, src->ss_paths[i]) == 0)
			return (o->so_path = strdup(src->ss_paths[i])) ? 0 : -ENOMEM;
	}
	return -ENOENT;
}

static const char *
so_plainpath(const struct sym_src *src)
{
	const char *p = NULL;

	for (int i = 0; i < 3 && src->ss_paths[i]; i++)
		p = src->ss_paths[i];
	return p;
}

/* Read the object; if its build id is already cached, use that one. */
static struct sym_obj *
so_load(struct sym_objcache *c, struct sym_obj *o, const struct sym_src *src,
    const char *debugdir)
{
	struct so_elf se = { -1, NULL };
	uint8_t id[SO_MAXBUILDID];
	char bkey[2 + 2 * SO_MAXBUILDID + 1] = "b:";
	ssize_t idlen;
	struct sym_obj *prev;

	if (so_open_src(&se, o, src) < 0)
		return o;
	idlen = so_build_id(se.elf, id);
	if (src->ss_buildidlen && ((size_t)idlen != src->ss_buildidlen ||
	    memcmp(id, src->ss_buildid, (size_t)idlen) != 0)) {
		so_elf_close(&se);	/* not the binary that was mapped */
		return o;
	}
	if (idlen > 0) {
		so_hex(bkey + 2, id, (size_t)idlen);
		if ((prev = so_find(c, bkey)) != NULL && prev != o) {
			so_elf_close(&se);
			return prev;
		}
		if (so_add_key(c, bkey, o) < 0)
			goto out;
	}
	if (so_read_loads(o, se.elf) == 0 &&
	    so_load_symbols(o, se.elf, so_plainpath(src), debugdir) == 0) {
		sym_tab_sort(&o->so_tab);
		if (so_add_plt(&o->so_tab, se.elf) == 0)
			o->so_state = 1;
	}
out:
	so_elf_close(&se);
	return o;
}

struct sym_obj *
sym_obj_get(struct sym_objcache *c, const char *key, const struct sym_src *src,
    const char *debugdir)
{
	struct sym_obj *o = so_find(c, key), *got;

	if (o != NULL)
		return o;
	if ((o = calloc(1, sizeof(*o))) == NULL || (o->so_key = strdup(key)) == NULL ||
	    so_adopt(c, o) < 0) {
		if (o)
			free(o->so_key);
		free(o);
		return NULL;
	}
	o->so_state = -1;
	got = so_load(c, o, src, debugdir);
	if (so_add_key(c, key, got) < 0)
		return NULL;
	return got;
}

/* ---- DWARF ------------------------------------------------------------ */

static struct sym_dwarf *
so_dwarf_open_path(const char *path)
{
	struct sym_dwarf *d = calloc(1, sizeof(*d));
	struct so_elf se;

	if (d == NULL)
		return NULL;
	d->sd_fd = -1;
	if (so_elf_open(&se, path) < 0 || !so_has_debuginfo(se.elf)) {
		so_elf_close(&se);
		free(d);
		return NULL;
	}
	d->sd_fd = se.fd;
	d->sd_elf = se.elf;
	d->sd_dw = dwarf_begin_elf(se.elf, DWARF_C_READ, NULL);
	if (d->sd_dw == NULL) {
		so_dwarf_close(d);
		return NULL;
	}
	return d;
}

static struct sym_dwarf *
so_dwarf(struct sym_obj *o)
{
	if (o->so_dwstate == 0) {
		o->so_dwstate = -1;
		if (o->so_image == NULL && o->so_path) {
			if (o->so_dbgpath)
				o->so_dw = so_dwarf_open_path(o->so_dbgpath);
			if (o->so_dw == NULL)
				o->so_dw = so_dwarf_open_path(o->so_path);
		}
		if (o->so_dw)
			o->so_dwstate = 1;
	}
	return o->so_dw;
}

static const char *
so_die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	if (dwarf_attr_integrate(die, DW_AT_name, &attr) == NULL)
		return NULL;
	return dwarf_formstring(&attr);
}

#define SO_MAXDEPTH	64		/* nesting we follow in corrupt DWARF */
#define SO_MAXSIBS	(1 << 20)	/* siblings per level, ditto */

/*
 * The inlined_subroutine DIEs containing pc below parent, outermost first,
 * appended to chain[*n].  Our own walk rather than dwarf_getscopes: that
 * one leaks its array when it fails on damaged DWARF.  Namespaces and
 * classes have no ranges but hold functions (C++), so they are entered.
 */
static void
so_inline_walk(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *chain, int *n, int depth)
{
	Dwarf_Die c;
	int sibs = 0;

	if (depth >= SO_MAXDEPTH || dwarf_child(parent, &c) != 0)
		return;
	do {
		switch (dwarf_tag(&c)) {
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
			so_inline_walk(&c, pc, chain, n, depth + 1);
			break;
		case DW_TAG_subprogram:
		case DW_TAG_lexical_block:
		case DW_TAG_inlined_subroutine:
			if (dwarf_haspc(&c, pc) != 1)
				break;
			if (dwarf_tag(&c) == DW_TAG_inlined_subroutine && *n < SO_MAXDEPTH)
				chain[(*n)++] = c;
			so_inline_walk(&c, pc, chain, n, depth + 1);
			return;		/* scopes at one level do not overlap */
		default:
			break;
		}
	} while (++sibs < SO_MAXSIBS && dwarf_siblingof(&c, &c) == 0);
}

/*
 * Inlined frames at vaddr, innermost first, each "mod`name\n".  Returns
 * the length written (0 when the address is in no inlined scope), or -1.
 */
int
sym_obj_inlines(struct sym_obj *o, uint64_t vaddr, const char *mod,
    char *buf, size_t len)
{
	struct sym_dwarf *d = so_dwarf(o);
	Dwarf_Die cu, chain[SO_MAXDEPTH];
	size_t used = 0;
	int n = 0;

	if (d == NULL || dwarf_addrdie(d->sd_dw, vaddr, &cu) == NULL)
		return -1;
	so_inline_walk(&cu, vaddr, chain, &n, 0);
	while (n-- > 0) {
		const char *nm = so_die_name(&chain[n]);
		int w;
		if (nm == NULL)
			continue;
		w = snprintf(buf + used, len - used, "%s`%s\n", mod, nm);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
	return (int)used;
}

int
sym_obj_srcline(struct sym_obj *o, uint64_t vaddr, char *buf, size_t len)
{
	struct sym_dwarf *d = so_dwarf(o);
	Dwarf_Die cu;
	Dwarf_Line *line;
	const char *file;
	int lineno, w;

	if (d == NULL || dwarf_addrdie(d->sd_dw, vaddr, &cu) == NULL ||
	    (line = dwarf_getsrc_die(&cu, vaddr)) == NULL ||
	    (file = dwarf_linesrc(line, NULL, NULL)) == NULL ||
	    dwarf_lineno(line, &lineno) != 0)
		return -1;
	w = snprintf(buf, len, "%s:%d", file, lineno);
	if (w < 0 || len == 0)
		return -1;
	return (size_t)w < len ? w : (int)len - 1;
}
