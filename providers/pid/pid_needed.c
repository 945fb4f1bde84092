/*
 * pid_needed.c — for -c: which of the waiting child's shared libraries the
 * command's program will load.  Until it execs, the child is pmctrace's own
 * image and maps pmctrace's libraries (libdw, libbpf, libcapstone, and
 * libasan in a sanitizer build): probes on those would never fire in the
 * command but cost attach time, and -l would list them as the target's.
 * The program's DT_NEEDED names, closed over the libraries' own DT_NEEDED
 * and matched by DT_SONAME, plus its interpreter (PT_INTERP), say which
 * mapped files count.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "providers/pid/pid_impl.h"

#define PN_MAXFILES 128
#define PN_MAXNEED 32

struct pn_file {
	char path[PID_PATH];
	char soname[64];
	char needed[PN_MAXNEED][64];
	int nneeded;
	int used;
};

static const char *
pn_base(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* f's DT_SONAME and DT_NEEDED, and in interp (if not NULL) the basename of
 * its PT_INTERP; -1 if it is no ELF file (a static one has neither). */
static int
pn_read(struct pn_file *f, char *interp, size_t ilen)
{
	int fd = open(f->path, O_RDONLY | O_CLOEXEC), rc = -1;
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	size_t nph = 0;
	if (e && elf_kind(e) == ELF_K_ELF)
		rc = 0;
	if (e && interp && elf_getphdrnum(e, &nph) == 0) {
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;
			char buf[PID_PATH];
			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_INTERP)
				continue;
			size_t n = ph.p_filesz < sizeof(buf) ? (size_t)ph.p_filesz : sizeof(buf) - 1;
			ssize_t got = pread(fd, buf, n, (off_t)ph.p_offset);
			buf[got > 0 ? (size_t)got : 0] = '\0';
			snprintf(interp, ilen, "%.63s", pn_base(buf));
		}
	}
	Elf_Scn *scn = NULL;
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t k = 0; k < sh.sh_size / sh.sh_entsize; k++) {
			GElf_Dyn dyn;
			if (!gelf_getdyn(d, (int)k, &dyn))
				break;
			const char *s = dyn.d_tag == DT_NEEDED || dyn.d_tag == DT_SONAME ?
			    elf_strptr(e, sh.sh_link, dyn.d_un.d_val) : NULL;
			if (!s)
				continue;
			if (dyn.d_tag == DT_SONAME)
				snprintf(f->soname, sizeof(f->soname), "%s", s);
			else if (f->nneeded < PN_MAXNEED)
				snprintf(f->needed[f->nneeded++], sizeof(f->needed[0]), "%s", s);
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

/* The files pid maps (each once), from /proc. */
static int
pn_maps(int32_t pid, struct pn_file *files, int max)
{
	char path[64], line[PID_PATH + 128];
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	FILE *m = fopen(path, "r");
	int n = 0;
	while (m && n < max && fgets(line, sizeof(line), m)) {
		char *p = strchr(line, '/');
		if (!p)
			continue;
		p[strcspn(p, "\n")] = '\0';
		int seen = 0;
		for (int i = 0; i < n && !seen; i++)
			seen = !strcmp(files[i].path, p);
		if (!seen && strlen(p) < sizeof(files[0].path)) {
			memset(&files[n], 0, sizeof(files[n]));
			snprintf(files[n++].path, sizeof(files[0].path), "%s", p);
		}
	}
	if (m)
		fclose(m);
	return n;
}

/* Mark the mapped file known as name (soname, or basename for the
 * interpreter) and, once, everything it needs. */
static void
pn_use(struct pn_file *files, int n, const char *name, int depth)
{
	for (int i = 0; i < n; i++) {
		struct pn_file *f = &files[i];
		if (f->used || (strcmp(f->soname, name) && strcmp(pn_base(f->path), name)))
			continue;
		f->used = 1;
		for (int k = 0; k < f->nneeded && depth < 16; k++)
			pn_use(files, n, f->needed[k], depth + 1);
	}
}

int
pid_needed_modules(int32_t pid, const char *program, char (*mods)[64], int max)
{
	static struct pn_file files[PN_MAXFILES];	/* too big for the stack */
	struct pn_file prog;
	char interp[64] = "";
	memset(&prog, 0, sizeof(prog));
	snprintf(prog.path, sizeof(prog.path), "%s", program);
	if (strlen(program) >= sizeof(prog.path) || pn_read(&prog, interp, sizeof(interp)) < 0)
		return -1;	/* a script: its interpreter is not known here */
	int n = pn_maps(pid, files, PN_MAXFILES);
	for (int i = 0; i < n; i++)
		pn_read(&files[i], NULL, 0);
	if (interp[0])
		pn_use(files, n, interp, 0);
	for (int k = 0; k < prog.nneeded; k++)
		pn_use(files, n, prog.needed[k], 0);
	int out = 0;
	for (int i = 0; i < n && out < max; i++)
		if (files[i].used)
			snprintf(mods[out++], 64, "%.63s", pn_base(files[i].path));
	return out;
}
