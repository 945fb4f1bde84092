/*
 * usdt.c — user-level statically defined probes: the SystemTap SDT notes
 * (.note.stapsdt, what <sys/sdt.h> and DTRACE_PROBE-style macros emit on
 * Linux) of the files a process maps, as DTrace's USDT probes
 * <provider><PID>:<module>::<name>, e.g. python1234:libpython3.11.so::
 * function-entry (a "__" in a note's name reads "-", as DTrace spells it).
 *
 * Each probe is a uprobe at the note's address (converted to a file
 * offset through the program headers); a probe guarded by a semaphore
 * gets the kernel's reference counter (the uprobe PMU's ref_ctr_offset),
 * so the program sees it enabled.  args: arg0..arg9 from the note's
 * argument specs: registers ("-4@%edi", sized and sign-extended) and
 * constants ("4@$5") from the sampled user registers; memory operands
 * ("8@-24(%rbp)") would need the traced stack as it was, which perf does
 * not hand over here, so they read as 0.  The function field is empty
 * (notes do not name their function).
 *
 * Targets: -p PID (the files it maps now) and -c (the command's program,
 * found as the pid provider finds it).
 */
#include <fcntl.h>
#include <gelf.h>
#include <signal.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "providers/pid/pid_impl.h"

#define USDT_MAX_PROBES 512
#define USDT_MAX_ARGS D_MAX_ARGS
/* every general register (perf's x86_64 numbering: AX..IP, R8..R15) */
#define USDT_REGS (0x1ffull | (0xffull << 16))

enum { UA_NONE, UA_REG, UA_CONST };

struct usdt_arg {
	int8_t size;		/* bytes; negative: signed */
	uint8_t kind, reg;
	int64_t val;
};

struct usdt_probe {
	char path[PID_PATH];
	uint64_t offset, refctr;
	uint32_t probe;
	int32_t pid;
	int nargs;
	struct usdt_arg args[USDT_MAX_ARGS];
};

struct usdt_state {
	int n, cap;
	struct usdt_probe up[];
};

struct usdt_note {
	const char *prov, *name, *args;
	uint64_t pc, sem;
};

static const char *const usdt_argtypes[] = {
	"int64_t", "int64_t", "int64_t", "int64_t", "int64_t",
	"int64_t", "int64_t", "int64_t", "int64_t", "int64_t",
};

/* "%rdi", "%edi", "%di", "%dil", "%r8d"... to perf's register number. */
static int
usdt_reg(const char *name)
{
	static const char *const base[][4] = {
		{ "rax", "eax", "ax", "al" }, { "rbx", "ebx", "bx", "bl" },
		{ "rcx", "ecx", "cx", "cl" }, { "rdx", "edx", "dx", "dl" },
		{ "rsi", "esi", "si", "sil" }, { "rdi", "edi", "di", "dil" },
		{ "rbp", "ebp", "bp", "bpl" }, { "rsp", "esp", "sp", "spl" },
	};
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < 4; k++)
			if (!strcmp(name, base[i][k]))
				return i;
	if (name[0] == 'r' && name[1] >= '0' && name[1] <= '9') {
		int n = atoi(name + 1);
		if (n >= 8 && n <= 15)
			return 16 + (n - 8);
	}
	return -1;
}

/* One spec "[-]N@operand". */
static void
usdt_parse_arg(const char *spec, size_t len, struct usdt_arg *a)
{
	char buf[64];
	memset(a, 0, sizeof(*a));
	if (len >= sizeof(buf))
		return;
	memcpy(buf, spec, len);
	buf[len] = '\0';
	char *at = strchr(buf, '@');
	if (!at)
		return;
	a->size = (int8_t)atoi(buf);
	const char *op = at + 1;
	if (op[0] == '%') {
		int r = usdt_reg(op + 1);
		if (r >= 0) {
			a->kind = UA_REG;
			a->reg = (uint8_t)r;
		}
	} else if (op[0] == '$') {
		a->kind = UA_CONST;
		a->val = strtoll(op + 1, NULL, 0);
	}
}

static int
usdt_parse_args(const char *specs, struct usdt_arg *args)
{
	int n = 0;
	const char *p = specs;
	while (*p && n < USDT_MAX_ARGS) {
		while (*p == ' ')
			p++;
		size_t len = strcspn(p, " ");
		if (!len)
			break;
		usdt_parse_arg(p, len, &args[n++]);
		p += len;
	}
	return n;
}

static struct usdt_probe *
usdt_slot(struct prov_registry *r)
{
	struct usdt_state *st = prov_state_get(r, &prov_usdt_ops, sizeof(*st));
	if (!st)
		return NULL;
	if (st->n == USDT_MAX_PROBES) {
		prov_errf(r, "usdt: more than %d probes", USDT_MAX_PROBES);
		return NULL;
	}
	if (st->n == st->cap) {
		int ncap = st->cap ? st->cap * 2 : 32;
		size_t elem = sizeof(st->up[0]);
		if (!(st = prov_state_grow(r, &prov_usdt_ops, sizeof(*st) + (size_t)st->cap * elem,
		    sizeof(*st) + (size_t)ncap * elem)))
			return NULL;
		st->cap = ncap;
	}
	return &st->up[st->n];
}

/* A virtual address of the file to its file offset (0 if unmapped). */
static uint64_t
usdt_file_offset(Elf *e, uint64_t addr)
{
	size_t n;
	if (!addr || elf_getphdrnum(e, &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_memsz)
			return addr - ph.p_vaddr + ph.p_offset;
	}
	return 0;
}

/* Where .stapsdt.base landed: notes record the address they expected. */
static uint64_t
usdt_base(Elf *e, size_t shstrndx)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(e, shstrndx, sh.sh_name)) &&
		    !strcmp(name, ".stapsdt.base"))
			return sh.sh_addr;
	}
	return 0;
}

struct usdt_matchctx {
	struct prov_registry *r;
	const struct d_probe_desc *pd;
	const char *provname;	/* the description's provider less its pid */
	int32_t pid;
	d_probe_cb cb;
	void *arg;
	int n;
};

/* DTrace spells a note's "__" as "-". */
static void
usdt_dtrace_name(const char *s, char *out, size_t len)
{
	size_t o = 0;
	for (; *s && o + 1 < len; s++) {
		if (s[0] == '_' && s[1] == '_') {
			out[o++] = '-';
			s++;
		} else {
			out[o++] = *s;
		}
	}
	out[o] = '\0';
}

static int
usdt_make(struct usdt_matchctx *mc, const char *path, const char *mod, Elf *e,
    const struct usdt_note *nt)
{
	char prov[96], name[96];
	snprintf(prov, sizeof(prov), "%.80s%d", nt->prov, mc->pid);
	usdt_dtrace_name(nt->name, name, sizeof(name));
	if (strcmp(nt->prov, mc->provname) || !prov_field_match(mc->pd->dpd_mod, mod) ||
	    !prov_field_match(mc->pd->dpd_func, "") || !prov_field_match(mc->pd->dpd_name, name))
		return 0;
	struct prov_probe *p = prov_find(mc->r, prov, mod, "", name);
	if (!p) {
		uint64_t off = usdt_file_offset(e, nt->pc);
		struct usdt_probe *u;
		if (!off || strlen(path) >= PID_PATH)
			return 0;	/* not in a loaded segment: not probeable */
		if (!(u = usdt_slot(mc->r)))
			return -1;
		if (!(p = prov_add(mc->r, &prov_usdt_ops, mod, "", name)))
			return prov_errf(mc->r, "out of memory");
		snprintf(p->pp_names[0], sizeof(p->pp_names[0]), "%s", prov);
		memset(u, 0, sizeof(*u));
		snprintf(u->path, sizeof(u->path), "%s", path);
		u->offset = off;
		u->refctr = usdt_file_offset(e, nt->sem);
		u->probe = p->pp_info.dp_id;
		u->pid = mc->pid;
		u->nargs = usdt_parse_args(nt->args, u->args);
		p->pp_param[0] = (uint64_t)((struct usdt_state *)prov_state(mc->r, &prov_usdt_ops))->n++;
		prov_set_args(p, u->nargs, usdt_argtypes);
	}
	if (mc->cb && mc->cb(mc->arg, &p->pp_info) < 0)
		return -1;
	mc->n++;
	return 0;
}

/* Every stapsdt note of one file. */
static int
usdt_scan_file(struct usdt_matchctx *mc, const char *path, const char *mod)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	size_t shstrndx;
	if (!e || elf_getshdrstrndx(e, &shstrndx) != 0)
		goto out;
	uint64_t base = usdt_base(e, shstrndx);
	Elf_Scn *scn = NULL;
	while (!rc && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *sname;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(sname = elf_strptr(e, shstrndx, sh.sh_name)) || strcmp(sname, ".note.stapsdt"))
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;
		while (d && !rc && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			const char *desc = (const char *)d->d_buf + doff;
			if (nh.n_type != 3 || nh.n_descsz < 27 ||
			    strcmp((const char *)d->d_buf + noff, "stapsdt"))
				continue;
			struct usdt_note nt;
			uint64_t nbase;
			memcpy(&nt.pc, desc, 8);
			memcpy(&nbase, desc + 8, 8);
			memcpy(&nt.sem, desc + 16, 8);
			const char *end = desc + nh.n_descsz;
			nt.prov = desc + 24;
			nt.name = memchr(nt.prov, '\0', (size_t)(end - nt.prov));
			nt.args = nt.name ? memchr(nt.name + 1, '\0', (size_t)(end - nt.name - 1)) : NULL;
			if (!nt.args || !memchr(nt.args + 1, '\0', (size_t)(end - nt.args - 1)))
				continue;	/* malformed note */
			nt.name++;
			nt.args++;
			if (base && nbase) {	/* prelinked or moved */
				nt.pc += base - nbase;
				if (nt.sem)
					nt.sem += base - nbase;
			}
			rc = usdt_make(mc, path, mod, e, &nt);
		}
	}
out:
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

/* Each file-backed executable mapping of pid, once. */
static int
usdt_scan_pid(struct usdt_matchctx *mc, const char *exe)
{
	char path[64], line[PID_PATH + 128], seen[16][PID_PATH];
	int nseen = 0, rc = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", mc->pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;	/* a kernel thread, or gone: no probes */
	while (!rc && fgets(line, sizeof(line), f)) {
		char perms[8];
		const char *file = strchr(line, '/');
		if (!file || sscanf(line, "%*x-%*x %7s", perms) != 1 || perms[2] != 'x')
			continue;
		char fpath[PID_PATH];
		snprintf(fpath, sizeof(fpath), "%.*s", (int)strcspn(file, "\n"), file);
		int dup = 0;
		for (int i = 0; i < nseen && !dup; i++)
			dup = !strcmp(seen[i], fpath);
		if (dup || nseen == 16)
			continue;
		snprintf(seen[nseen++], PID_PATH, "%s", fpath);
		const char *b = strrchr(fpath, '/') + 1;
		if (exe && !strcmp(b, exe))
			continue;	/* -c: pmctrace's own image in the waiting child */
		rc = usdt_scan_file(mc, fpath, b);
	}
	fclose(f);
	return rc;
}

/* Probes of provider provname in process pid. */
static int
usdt_match_pid(struct prov_registry *r, const struct d_probe_desc *pd, const char *provname,
    int32_t pid, d_probe_cb cb, void *arg)
{
	char cmdpath[4096], self[64];
	struct usdt_matchctx mc = { .r = r, .pd = pd, .provname = provname, .pid = pid,
	    .cb = cb, .arg = arg };
	if (pid_target_program(pid, prov_cfg(r)->target_via_shell, cmdpath, sizeof(cmdpath), self, sizeof(self)) == 0) {
		const char *b = strrchr(cmdpath, '/') ? strrchr(cmdpath, '/') + 1 : cmdpath;
		if (usdt_scan_file(&mc, cmdpath, b) < 0 || usdt_scan_pid(&mc, self) < 0)
			return -1;
	} else if (usdt_scan_pid(&mc, NULL) < 0) {
		return -1;
	}
	return mc.n;
}

/* "<provider><pid>": a provider's name may end in digits too (p13 in
 * p131234), so every split with a live process is tried, longest pid
 * first, until one names probes. */
static int
usdt_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	char provname[96];
	const char *prov = pd->dpd_prov ? pd->dpd_prov : "";
	size_t n = strlen(prov), digits = 0;
	while (digits < n && prov[n - 1 - digits] >= '0' && prov[n - 1 - digits] <= '9')
		digits++;
	if (prov_has_glob(prov))
		return 0;
	for (size_t d = digits; d > 0; d--) {
		const char *num = prov + n - d;
		if (num[0] == '0' || n - d == 0 || n - d >= sizeof(provname) || d > 9)
			continue;
		snprintf(provname, sizeof(provname), "%.*s", (int)(n - d), prov);
		int32_t pid = (int32_t)atoi(num);
		if (!strncmp(prov, "pid", 3) && strspn(prov + 3, "0123456789") == n - 3)
			return 0;	/* pid<N> is the pid provider's */
		if (kill(pid, 0) < 0)
			continue;
		int rc = usdt_match_pid(r, pd, provname, pid, cb, arg);
		if (rc != 0)
			return rc;
	}
	return 0;
}

static int
usdt_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	return usdt_match(r, pd, cb, arg);
}

static int
usdt_enable(struct prov_registry *r, struct smp_session *s)
{
	struct usdt_state *st = prov_state(r, &prov_usdt_ops);
	for (int i = 0; st && i < st->n; i++) {
		const struct usdt_probe *u = &st->up[i];
		if (!prov_is_enabled(r, u->probe))
			continue;
		struct pid_uprobe_req q = { u->path, u->offset, u->refctr, 0, USDT_REGS,
		    prov_wants_ustack(r) ? 8192 : 0, 0 };
		if (pid_add_uprobe_event(r, s, &prov_usdt_ops, &q, (uint64_t)i) < 0)
			return -1;
	}
	return 0;
}

static uint64_t
usdt_value(const struct smp_record *rec, const struct usdt_arg *a)
{
	uint64_t v;
	if (a->kind == UA_CONST)
		return (uint64_t)a->val;
	if (a->kind != UA_REG)
		return 0;
	v = pid_sample_reg(rec, USDT_REGS, a->reg);
	switch (a->size) {
	case 1: return (uint8_t)v;
	case -1: return (uint64_t)(int64_t)(int8_t)v;
	case 2: return (uint16_t)v;
	case -2: return (uint64_t)(int64_t)(int16_t)v;
	case 4: return (uint32_t)v;
	case -4: return (uint64_t)(int64_t)(int32_t)v;
	default: return v;
	}
}

static int
usdt_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct usdt_state *st = prov_state(r, &prov_usdt_ops);
	if (!st || rec->type != PERF_RECORD_SAMPLE || cookie >= (uint64_t)st->n)
		return 0;
	const struct usdt_probe *u = &st->up[cookie];
	if (rec->pid != u->pid)
		return 0;	/* another process running the same file */
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_probe = u->probe;
	f.df_uregs_ip = pid_sample_reg(rec, USDT_REGS, 8);
	for (int i = 0; i < u->nargs; i++)
		f.df_args[i] = usdt_value(rec, &u->args[i]);
	f.df_nargs = u->nargs;
	prov_firing_ustack(&f, rec, USDT_REGS);
	return fire(arg, &f);
}

const struct prov_ops prov_usdt_ops = {
	.po_name = "usdt", .po_list = usdt_list, .po_match = usdt_match,
	.po_enable = usdt_enable, .po_decode = usdt_decode,
};
