/*
 * pid.c — the pid provider: pid<PID>:<module>:<function>:entry, :return and
 * :<hex offset> in a user process, through uprobes (the uprobe PMU of
 * perf_event_open: config1 = the file's path, config2 = the file offset).
 *
 * Functions come from the symbolizer (sym_user_funcs: every function of
 * every file the process maps now, module = the file's basename; "a.out"
 * names the main executable).  A description whose name is empty or a
 * glob creates entry and return probes only; an instruction offset must be
 * named exactly (pid123:a.out:main:1c).
 *
 * Tracing must not change the traced program: every probe site is decoded
 * (pid_insn.h, Capstone) before a probe is created, and a probe whose
 * instruction the kernel's uprobes would execute wrongly (EVEX, some VEX,
 * system calls), or that cannot be decoded, or an offset inside an
 * instruction, is left out (an entry probe moves past such a first
 * instruction when it keeps the argument registers: pid_insn_entry): it never exists (not in -l), a description
 * that matches only such probes fails with the reason, and enable says how
 * many were left out, per reason.  Return probes are uprobes on each ret
 * instruction of the function (DTrace's way), not uretprobes: a uretprobe
 * replaces the return address on the stack at function entry, which
 * corrupts functions entered by a jump (ld.so's _dl_runtime_resolve_*,
 * whose stack holds the link map there) and puts a breakpoint on the first
 * instruction as an entry probe does.  A function without a ret (exit
 * paths, longjmp, tail calls only) has no return probe.
 *
 * args: entry/offset: arg0..arg5 = the integer arguments (rdi, rsi, rdx,
 * rcx, r8, r9, read from the sampled user registers); return: arg0 = the
 * offset of the ret instruction in the function and arg1 = the return
 * value (rax), as in DTrace.
 *
 * Events are opened for the target's threads (pid = thread, on every
 * CPU, inherited by the threads and children it creates), so the kernel puts
 * the breakpoints in the target's address space only: other processes
 * running the same libc do not trap.
 *
 * Creating a uprobe is cheap (under 1 ms); removing one is not: the kernel
 * waits for RCU grace periods (synchronize_rcu_tasks_trace and friends,
 * under event_mutex, so not in parallel) for each perf event it tears
 * down, about 90 ms on a small VM: 5000 probes took minutes to close.  So
 * with tracefs at hand the probes are created in batches through
 * uprobe_events, up to PID_BATCH entry/offset probes of a target appended
 * to one trace event and return probes to another ("p:pmctrace_PID/ent0
 * FILE:0xOFF id=\N:u32", N the site's index, which each firing carries
 * in its raw record): one perf event per batch, thread and CPU, and the
 * kernel waits for its grace periods once per batch.  A batch the kernel refuses
 * (uprobes cannot take some first instructions, lock-prefixed ones...) is
 * split in halves until the probes it refuses are found; these are left
 * out with a notice.  The trace events are removed when the session
 * closes (and ones a killed pmctrace left behind, at the next start).
 * Without a writable tracefs each probe is its own uprobe PMU event, and
 * at most PID_MAX_PMU probes are allowed.
 *
 * For -c the target is still the stopped pmctrace child when probes are
 * created: a.out is then the command's program, found from the child's
 * command line (ours: -c CMD) and $PATH, and its functions are listed
 * through a stand-in mapping given to the symbolizer; shared libraries
 * resolve from the child's own maps (the same files after exec).  Firings
 * count from the child's exec of that program on (sched_process_exec), so
 * the child's and sh's own calls before it are not seen, as in DTrace.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "providers/pid/pid_impl.h"
#include "providers/pid/pid_insn.h"
#include "symbolizer/symbolizer.h"

#define PID_MAX_PROBES 1000000	/* memory: each takes ~300 bytes */
#define PID_MAX_PMU 256		/* without tracefs: ~0.1 s each to remove */
#define PID_MAX_THREADS 4096
/* Probes per tracefs batch: each batch costs its grace periods when it is
 * closed (~0.1 s), and a batch the kernel refuses costs a few opens of
 * its halves to find the probe at fault. */
#define PID_BATCH 256

/* x86_64 perf register numbers (asm/perf_regs.h) */
enum { PR_AX = 0, PR_CX = 2, PR_DX = 3, PR_SI = 4, PR_DI = 5, PR_IP = 8, PR_R8 = 16, PR_R9 = 17 };
#define PID_REGS ((1ull << PR_AX) | (1ull << PR_CX) | (1ull << PR_DX) | (1ull << PR_SI) | \
    (1ull << PR_DI) | (1ull << PROV_REG_SP) | (1ull << PR_IP) | (1ull << PR_R8) | (1ull << PR_R9))

enum { PK_ENTRY, PK_RETURN, PK_OFFSET };

struct pid_uprobe {
	char path[PID_PATH];
	uint64_t offset;
	uint64_t retoff;		/* return: the ret's offset in its function */
	uint32_t probe;			/* PID_LEFT_OUT: a probe left out */
	int32_t pid;
	int kind;
	int rule;			/* why it was left out (pid_insn.h) */
};
#define PID_LEFT_OUT UINT32_MAX

/* One allocation, grown by reallocating the whole state (the registry
 * frees provider state with free()). */
struct pid_state {
	int n, cap;
	/* -c: the target's firings count from its exec of the command on
	 * (before that it is pmctrace's child, then sh, calling libc too) */
	int32_t gate_pid;
	int gate_open;
	int gate_execs;			/* execs seen: the first is the cli's /bin/sh */
	char gate_exe[64];
	char gate_word[64];		/* the name it was run by (sh for dash) */
	struct prov_tp exec_tp;
	/* tracefs batches: where each firing's probe index is in the raw
	 * record, for entry/offset (0) and return (1) events */
	uint16_t idoff[2];
	int seq;			/* trace events created */
	int nrefused;			/* probes the kernel would not place */
	char refused[64];		/* the first of them */
	int nleft[PI_NRULES];		/* probes left out, by rule */
	char leftex[PI_NRULES][64];	/* the first of each */
	int nmoved;			/* entry probes past their first instruction */
	char movedex[64];		/* the first of them */
	struct pid_uprobe up[];
};
#define PID_COOKIE_EXEC ((uint64_t)-1)
#define PID_COOKIE_BATCH (1ull << 62)	/* | 1 for return probes */

struct pid_matchctx {
	struct prov_registry *r;
	const struct d_probe_desc *pd;
	int32_t pid;
	char exe[64];			/* the basename a.out stands for */
	char skipmod[64];		/* -c: our own image in the waiting child */
	char (*needed)[64];		/* -c: the modules the command loads, */
	int nneeded;			/* or -1: every module the child maps */
	d_probe_cb cb;
	void *arg;
	int n;
	int failed;
	int nleft, leftrule;		/* probes this description left out */
	char leftname[160];		/* the first of them */
	/* the file whose functions are being matched, mapped to decode them */
	char mappath[PID_PATH];
	const uint8_t *map;
	size_t maplen;
};

static const char *const pid_entry_args[] = {
	"uint64_t", "uint64_t", "uint64_t", "uint64_t", "uint64_t", "uint64_t"
};

/* Whether uprobe u is to be placed (never one left out). */
static int
pid_on(struct prov_registry *r, const struct pid_uprobe *u)
{
	return u->probe != PID_LEFT_OUT && prov_is_enabled(r, u->probe);
}

static int
pid_parse(const char *prov, int32_t *pid)
{
	if (!prov || strncmp(prov, "pid", 3) || !prov[3] ||
	    strspn(prov + 3, "0123456789") != strlen(prov + 3))
		return -1;
	*pid = (int32_t)atoi(prov + 3);
	return *pid > 0 ? 0 : -1;
}

static struct pid_uprobe *
pid_slot(struct prov_registry *r)
{
	struct pid_state *st = prov_state_get(r, &prov_pid_ops, sizeof(*st));
	if (!st)
		return NULL;
	if (st->n == PID_MAX_PROBES) {
		prov_errf(r, "pid provider: more than %d probes; name a module or fewer functions",
		    PID_MAX_PROBES);
		return NULL;
	}
	if (st->n == st->cap) {
		int ncap = st->cap ? st->cap * 2 : 64;
		size_t elem = sizeof(st->up[0]);
		if (!(st = prov_state_grow(r, &prov_pid_ops, sizeof(*st) + (size_t)st->cap * elem,
		    sizeof(*st) + (size_t)ncap * elem)))
			return NULL;
		st->cap = ncap;
	}
	return &st->up[st->n];
}

/* Function f's code in its file, mapped (one file at a time): *len is its
 * size, or what the file holds of a sizeless function's first instruction. */
static int
pid_code(struct pid_matchctx *mc, const struct sym_func *f, const uint8_t **code, size_t *len)
{
	if (!mc->map || strcmp(mc->mappath, f->sf_path)) {
		if (mc->map)
			munmap((void *)mc->map, mc->maplen);
		mc->map = NULL;
		snprintf(mc->mappath, sizeof(mc->mappath), "%s", f->sf_path);
		int fd = open(f->sf_path, O_RDONLY | O_CLOEXEC);
		struct stat sb;
		if (fd < 0)
			return -1;
		if (fstat(fd, &sb) == 0 && sb.st_size > 0) {
			void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
			if (m != MAP_FAILED) {
				mc->map = m;
				mc->maplen = (size_t)sb.st_size;
			}
		}
		close(fd);
	}
	if (!mc->map || f->sf_offset >= mc->maplen)
		return -1;
	size_t avail = mc->maplen - (size_t)f->sf_offset;
	*code = mc->map + f->sf_offset;
	*len = f->sf_size ? (f->sf_size < avail ? (size_t)f->sf_size : avail) : (avail < 15 ? avail : 15);
	return 0;
}

static void
pid_unmap(struct pid_matchctx *mc)
{
	if (mc->map)
		munmap((void *)mc->map, mc->maplen);
	mc->map = NULL;
}

/* A uprobe site of probe id: file offset off of f's file. */
static int
pid_site(struct pid_matchctx *mc, const struct sym_func *f, int kind, uint64_t off, uint32_t id,
    int rule)
{
	struct pid_uprobe *u = pid_slot(mc->r);
	if (!u)
		return -1;
	if (strlen(f->sf_path) >= sizeof(u->path))
		return prov_errf(mc->r, "pid provider: path too long: %s", f->sf_path);
	snprintf(u->path, sizeof(u->path), "%s", f->sf_path);
	u->offset = f->sf_offset + off;
	u->retoff = off;
	u->probe = id;
	u->pid = mc->pid;
	u->kind = kind;
	u->rule = rule;
	((struct pid_state *)prov_state(mc->r, &prov_pid_ops))->n++;
	return 0;
}

struct pid_retctx {
	struct pid_matchctx *mc;
	const struct sym_func *f;
	uint32_t id;
};

static int
pid_ret_site(void *arg, uint64_t off)
{
	struct pid_retctx *rc = arg;
	return pid_site(rc->mc, rc->f, PK_RETURN, off, rc->id, PI_OK) < 0;
}

/* Why probe kind at offset off of f cannot be placed (pid_insn.h), or PI_OK;
 * *site: where in f an entry probe goes (past a first instruction that is
 * never probed but keeps the arguments). */
static int
pid_rule(struct pid_matchctx *mc, const struct sym_func *f, int kind, uint64_t off, uint64_t *site)
{
	const uint8_t *code;
	size_t len;
	*site = off;
	if (pid_code(mc, f, &code, &len) < 0)
		return PI_UNDECODABLE;
	if (kind == PK_ENTRY)
		return pid_insn_entry(code, len, site);
	if (kind == PK_OFFSET)
		return f->sf_size ? pid_insn_at(code, len, off) : PI_UNDECODABLE;
	if (!f->sf_size)
		return PI_UNDECODABLE;	/* where its rets are is unknown */
	return pid_insn_rets(code, len, NULL, NULL);
}

/* Probe kind of f was left out for rule: counted once, for the notice. */
static int
pid_leave_out(struct pid_matchctx *mc, const struct sym_func *f, int kind, uint64_t off, int rule,
    const char *name)
{
	struct pid_state *st = prov_state_get(mc->r, &prov_pid_ops, sizeof(*st));
	if (!st)
		return -1;
	if (!mc->nleft++) {
		mc->leftrule = rule;
		snprintf(mc->leftname, sizeof(mc->leftname), "%s:%s", f->sf_name, name);
	}
	for (int i = 0; i < st->n; i++)
		if (st->up[i].probe == PID_LEFT_OUT && st->up[i].kind == kind &&
		    st->up[i].offset == f->sf_offset + off && st->up[i].pid == mc->pid &&
		    !strcmp(st->up[i].path, f->sf_path))
			return 0;
	if (pid_site(mc, f, kind, off, PID_LEFT_OUT, rule) < 0)
		return -1;
	st = prov_state(mc->r, &prov_pid_ops);
	if (!st->nleft[rule]++)
		snprintf(st->leftex[rule], sizeof(st->leftex[rule]), "%s", f->sf_name);
	return 0;
}

/* f's entry probe sits past its first instruction: counted for the notice. */
static void
pid_note_moved(struct pid_matchctx *mc, const struct sym_func *f)
{
	struct pid_state *st = prov_state_get(mc->r, &prov_pid_ops, sizeof(*st));
	if (st && !st->nmoved++)
		snprintf(st->movedex, sizeof(st->movedex), "%s", f->sf_name);
}

/* One probe for function f; kind/offset say where in it.  It is created
 * only where pid_insn.h allows a uprobe: an entry or offset probe on its
 * instruction, a return probe on each ret of the function. */
static int
pid_make(struct pid_matchctx *mc, const struct sym_func *f, const char *mod, int kind,
    uint64_t off, const char *name)
{
	char prov[32];
	snprintf(prov, sizeof(prov), "pid%d", mc->pid);
	struct prov_probe *p = prov_find(mc->r, prov, mod, f->sf_name, name);
	if (!p) {
		uint64_t site;
		int rule = pid_rule(mc, f, kind, off, &site);
		if (rule != PI_OK)
			return pid_leave_out(mc, f, kind, off, rule, name);
		if (site != off)
			pid_note_moved(mc, f);
		if (!(p = prov_add(mc->r, &prov_pid_ops, mod, f->sf_name, name)))
			return prov_errf(mc->r, "out of memory");
		snprintf(p->pp_names[0], sizeof(p->pp_names[0]), "%s", prov);
		prov_set_args(p, kind == PK_RETURN ? 2 : 6, pid_entry_args);
		uint32_t id = p->pp_info.dp_id;
		if (kind != PK_RETURN) {
			if (pid_site(mc, f, kind, site, id, PI_OK) < 0)
				return -1;
		} else {
			const uint8_t *code;
			size_t len;
			struct pid_retctx rc = { mc, f, id };
			if (pid_code(mc, f, &code, &len) < 0 || pid_insn_rets(code, len, pid_ret_site, &rc) != PI_OK)
				return -1;
		}
	}
	int rc = prov_emit_one(p, mc->pd, mc->cb, mc->arg);
	if (rc < 0)
		return -1;
	mc->n += rc;
	return 0;
}

static int
pid_func_cb(void *arg, const struct sym_func *f)
{
	struct pid_matchctx *mc = arg;
	const char *want = mc->pd->dpd_name ? mc->pd->dpd_name : "";
	/* the module as the description named it: a.out for the executable */
	const char *mod = f->sf_module;
	if (mc->pd->dpd_mod && !strcmp(mc->pd->dpd_mod, "a.out") && !strcmp(f->sf_module, mc->exe))
		mod = "a.out";
	int rc = 0;
	if (mc->skipmod[0] && !strcmp(f->sf_module, mc->skipmod))
		return 0;
	if (mc->needed && mc->nneeded >= 0 && strcmp(mod, "a.out") && strcmp(f->sf_module, mc->exe)) {
		int i = 0;
		while (i < mc->nneeded && strcmp(mc->needed[i], f->sf_module))
			i++;
		if (i == mc->nneeded)
			return 0;	/* ours, not the command's */
	}
	/* gcc's .cold parts are jumped to, never called: no entry, no return */
	if (strstr(f->sf_name, ".cold"))
		return 0;
	if (prov_field_match(want, "entry"))
		rc = pid_make(mc, f, mod, PK_ENTRY, 0, "entry");
	if (!rc && prov_field_match(want, "return"))
		rc = pid_make(mc, f, mod, PK_RETURN, 0, "return");
	if (!rc && *want && !prov_has_glob(want) && strspn(want, "0123456789abcdefABCDEF") == strlen(want)) {
		uint64_t off = strtoull(want, NULL, 16);
		if (off >= f->sf_size && f->sf_size)
			return 0;	/* past this function's end */
		rc = pid_make(mc, f, mod, PK_OFFSET, off, want);
	}
	if (rc < 0)
		mc->failed = 1;
	return rc < 0 ? 1 : 0;
}

/* The basename of the process's executable (what a.out stands for). */
static void
pid_exe(int32_t pid, char *buf, size_t len)
{
	char path[64], target[512];
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	buf[0] = '\0';
	if (n <= 0)
		return;
	target[n] = '\0';
	const char *b = strrchr(target, '/');
	snprintf(buf, len, "%.63s", b ? b + 1 : target);
}

/* -c: until the probes are on, the target is pmctrace's own child waiting
 * to exec the command, so its maps are ours.  The command is in that
 * child's argv (our own): "-c CMD", "-cCMD" or a bundle ending in c.  A
 * command the shell runs itself (via_shell: a pipeline, a list) keeps the
 * shell as the target, so its program is sh. */
static int
pid_cmd_word(int32_t pid, int via_shell, char *word, size_t len)
{
	char path[64], buf[8192], a[512], b[512];
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	ssize_t na = readlink(path, a, sizeof(a) - 1), nb = readlink("/proc/self/exe", b, sizeof(b) - 1);
	if (na <= 0 || na != nb || memcmp(a, b, (size_t)na))
		return -1;	/* not our child: it already runs its program */
	if (via_shell) {
		snprintf(word, len, "/bin/sh");
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *cmd = NULL;
	for (const char *p = buf; p < buf + n && !cmd; p += strlen(p) + 1) {
		if (p[0] != '-' || p[1] == '-' || !strchr(p, 'c'))
			continue;
		const char *c = strchr(p, 'c');
		/* a bundle of flags ending in c takes the next word; -cCMD is glued */
		if (c[1])
			cmd = strspn(p + 1, "qFvwZ") == (size_t)(c - p - 1) ? c + 1 : NULL;
		else if (strspn(p + 1, "qFvwZ") == (size_t)(c - p - 1) && p + strlen(p) + 1 < buf + n)
			cmd = p + strlen(p) + 1;
	}
	if (!cmd)
		return -1;
	size_t w = strcspn(cmd, " \t");
	snprintf(word, len, "%.*s", (int)(w < len ? w : len - 1), cmd);
	return 0;
}

/* The file a command word runs: a path, or found in $PATH. */
static int
pid_resolve(const char *word, char *out, size_t len)
{
	if (strchr(word, '/'))
		return realpath(word, out) && strlen(out) < len ? 0 : -1;
	const char *env = getenv("PATH");
	char dir[4096], cand[4096 + 520];
	for (const char *p = env ? env : "/usr/bin:/bin"; *p; ) {
		size_t n = strcspn(p, ":");
		snprintf(dir, sizeof(dir), "%.*s", (int)n, p);
		snprintf(cand, sizeof(cand), "%s/%s", n ? dir : ".", word);
		if (access(cand, X_OK) == 0 && realpath(cand, out))
			return 0;
		p += n + (p[n] == ':');
	}
	return -1;
}

int
pid_target_program(int32_t pid, int via_shell, char *path, size_t len, char *self,
    size_t selflen)
{
	char word[512];
	if (pid_cmd_word(pid, via_shell, word, sizeof(word)) < 0 || pid_resolve(word, path, len) < 0)
		return -1;
	pid_exe(pid, self, selflen);
	return 0;
}

/* Teach the symbolizer a stand-in process mapping path, so that its
 * function list (with file offsets) can be asked for before the command
 * has been exec'd.  Pids never go this high (pid_max <= 2^22). */
#define PID_STANDIN 0x7fff0000
static int32_t
pid_standin(struct prov_registry *r, const char *path)
{
	static int32_t next = PID_STANDIN;
	union { struct perf_event_header h; char b[4096 + 128]; } rec;
	struct stat stt;
	if (stat(path, &stt) < 0 || strlen(path) >= 4096)
		return -1;
	memset(&rec, 0, sizeof(rec));
	char *q = rec.b + sizeof(rec.h);
	int32_t pid = next++;
	uint64_t addr = 0x10000000000ull, len = (uint64_t)stt.st_size, pgoff = 0, ino = stt.st_ino, gen = 0;
	uint32_t maj = major(stt.st_dev), min = minor(stt.st_dev);
	uint32_t prot = PROT_READ | PROT_EXEC, flags = MAP_PRIVATE;
	memcpy(q, &pid, 4); memcpy(q + 4, &pid, 4);
	memcpy(q + 8, &addr, 8); memcpy(q + 16, &len, 8); memcpy(q + 24, &pgoff, 8);
	memcpy(q + 32, &maj, 4); memcpy(q + 36, &min, 4); memcpy(q + 40, &ino, 8);
	memcpy(q + 48, &gen, 8); memcpy(q + 56, &prot, 4); memcpy(q + 60, &flags, 4);
	strcpy(q + 64, path);
	rec.h.type = PERF_RECORD_MMAP2;
	rec.h.misc = PERF_RECORD_MISC_USER;
	rec.h.size = (uint16_t)((sizeof(rec.h) + 64 + strlen(path) + 1 + 7) & ~7u);
	sym_note_record(prov_cfg(r)->sym, &rec.h);
	return pid;
}

static int
pid_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	struct pid_matchctx mc = { .r = r, .pd = pd, .cb = cb, .arg = arg };
	if (pid_parse(pd->dpd_prov, &mc.pid) < 0)
		return 0;	/* "pid" alone or a glob: DTrace needs a process id */
	if (prov_cfg(r)->replay)	/* the probes the recording noted */
		return prov_emit_matching(r, &prov_pid_ops, pd, cb, arg);
	if (!prov_cfg(r)->sym)
		return prov_errf(r, "pid provider: no symbolizer");
	if (kill(mc.pid, 0) < 0)
		return prov_errf(r, "failed to grab pid %d: no such process", mc.pid);
	pid_exe(mc.pid, mc.exe, sizeof(mc.exe));
	const char *modglob = pd->dpd_mod && *pd->dpd_mod ? pd->dpd_mod : NULL;
	const char *funcglob = pd->dpd_func && *pd->dpd_func ? pd->dpd_func : NULL;
	char word[512], path[4096];
	int rc = 0;
	int via_shell = prov_cfg(r)->target_via_shell;
	if (pid_cmd_word(mc.pid, via_shell, word, sizeof(word)) == 0 && pid_resolve(word, path, sizeof(path)) == 0) {
		/* a -c command not yet exec'd: its program stands in for a.out,
		 * and the child's own pmctrace image is no part of the target */
		snprintf(mc.skipmod, sizeof(mc.skipmod), "%s", mc.exe);
		const char *b = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		snprintf(mc.exe, sizeof(mc.exe), "%.63s", b);
		int a_out = modglob && !strcmp(modglob, "a.out");
		int32_t standin = pid_standin(r, path);
		struct pid_state *st = prov_state_get(r, &prov_pid_ops, sizeof(*st));
		if (!st)
			return -1;
		st->gate_pid = mc.pid;
		st->gate_execs = via_shell;	/* then the shell's own exec is the command */
		snprintf(st->gate_exe, sizeof(st->gate_exe), "%s", mc.exe);
		const char *w = strrchr(word, '/') ? strrchr(word, '/') + 1 : word;
		snprintf(st->gate_word, sizeof(st->gate_word), "%.63s", w);
		char needed[64][64];
		mc.needed = needed;
		mc.nneeded = pid_needed_modules(mc.pid, path, needed, 64);
		if (standin > 0 && (!modglob || a_out || prov_field_match(modglob, mc.exe)))
			rc = sym_user_funcs(prov_cfg(r)->sym, standin, mc.exe, funcglob, pid_func_cb, &mc);
		if (!a_out && rc >= 0 && !mc.failed)
			rc = sym_user_funcs(prov_cfg(r)->sym, mc.pid, modglob, funcglob, pid_func_cb, &mc);
	} else {
		if (modglob && !strcmp(modglob, "a.out"))
			modglob = mc.exe;
		rc = sym_user_funcs(prov_cfg(r)->sym, mc.pid, modglob, funcglob, pid_func_cb, &mc);
	}
	pid_unmap(&mc);
	if (mc.failed)
		return -1;
	if (rc < 0)
		return prov_errf(r, "failed to grab pid %d: cannot read its mappings", mc.pid);
	if (!mc.n && mc.nleft)
		return prov_errf(r, "pid provider: probe %s%s left out: %s are never probed (see "
		    "INSTRUCTIONS NEVER PROBED in pmctrace(1))", mc.leftname, mc.nleft > 1 ?
		    " and the others matched" : "", pid_insn_rules[mc.leftrule].what);
	return mc.n;
}

static int
pid_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	/* pid probes exist only for a named process (dtrace -l -n 'pid123:::'),
	 * or as a recording noted them */
	if (prov_cfg(r)->replay)
		return prov_emit_matching(r, &prov_pid_ops, pd, cb, arg);
	return pid_match(r, pd, cb, arg);
}

/* The uprobe PMU's type and its retprobe/ref_ctr_offset bits, from sysfs. */
static int
pid_pmu(struct prov_registry *r, int *type, int *retbit, int *refshift)
{
	static int t, rb, rs = 32;
	char line[64];
	if (!t) {
		FILE *f = fopen("/sys/bus/event_source/devices/uprobe/type", "r");
		if (!f)
			return prov_errf(r, "pid provider: the kernel has no uprobe PMU "
			    "(/sys/bus/event_source/devices/uprobe; CONFIG_UPROBE_EVENTS)");
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
		if ((f = fopen("/sys/bus/event_source/devices/uprobe/format/retprobe", "r"))) {
			if (fgets(line + 32, 32, f) && !strncmp(line + 32, "config:", 7))
				rb = atoi(line + 39);
			fclose(f);
		}
		if ((f = fopen("/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset", "r"))) {
			if (fgets(line + 32, 32, f) && !strncmp(line + 32, "config:", 7))
				rs = atoi(line + 39);
			fclose(f);
		}
		t = atoi(line);
	}
	*type = t;
	*retbit = rb;
	*refshift = rs;
	return t > 0 ? 0 : prov_errf(r, "pid provider: unreadable uprobe PMU type");
}

int
pid_add_uprobe_event(struct prov_registry *r, struct smp_session *s,
    const struct prov_ops *ops, const struct pid_uprobe_req *q, uint64_t cookie)
{
	int type = 0, retbit = 0, refshift = 32;
	if (pid_pmu(r, &type, &retbit, &refshift) < 0)
		return -1;
	struct smp_event_spec sp;
	memset(&sp, 0, sizeof(sp));
	sp.attr.size = sizeof(sp.attr);
	sp.attr.type = (uint32_t)type;
	sp.attr.config = (q->ret ? 1ull << retbit : 0) | (q->refctr << refshift);
	sp.attr.config1 = (uint64_t)(uintptr_t)q->path;	/* read at open */
	sp.attr.config2 = q->offset;
	sp.attr.sample_period = 1;
	sp.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_REGS_USER |
	    ((prov_cfg(r)->want_callchains & 3) ? PERF_SAMPLE_CALLCHAIN : 0);
	sp.attr.sample_regs_user = q->regs;
	if (q->stack_bytes) {
		sp.attr.sample_type |= PERF_SAMPLE_STACK_USER;
		sp.attr.sample_stack_user = q->stack_bytes;
	}
	sp.attr.sample_id_all = 1;
	sp.attr.use_clockid = 1;
	sp.attr.clockid = 1;	/* CLOCK_MONOTONIC, as every other event */
	sp.attr.disabled = 1;
	sp.scope = q->task ? SMP_TASK : SMP_EACH_CPU;
	sp.task = q->task;
	sp.attr.inherit = q->task != 0;
	sp.group_leader = -1;
	sp.name = "uprobe";
	sp.owner = (void *)ops;
	sp.cookie = cookie;
	int evidx;
	if (smp_add_event(s, &sp, &evidx) < 0)
		return prov_errf(r, "%s", smp_errmsg(s));
	if (ops == &prov_pid_ops) {
		char note[64];
		snprintf(note, sizeof(note), "pid ev %d probe %llu", evidx, (unsigned long long)cookie);
		if (smp_note(s, note) < 0)
			return prov_errf(r, "out of memory");
	}
	return 0;
}

/* The tracefs directory whose uprobe_events we may write, or NULL. */
static const char *
pid_tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[64];
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/uprobe_events", dirs[i]);
		if (access(path, W_OK) == 0)
			return dirs[i];
	}
	return NULL;
}

/* Write commands to uprobe_events (appending: O_TRUNC would remove every
 * uprobe event of the system); 0 or -errno. */
static int
pid_tfs_cmd(const char *dir, const char *cmd)
{
	char path[64];
	snprintf(path, sizeof(path), "%s/uprobe_events", dir);
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC), err = 0;
	if (fd < 0)
		return -errno;
	size_t len = strlen(cmd);
	if (write(fd, cmd, len) != (ssize_t)len)
		err = -errno;
	close(fd);
	return err;
}

struct pid_tfs_del {
	char dir[32];
	char cmd[96];
};

/* The sampler's closed hook: the batch's fds are closed, remove its event. */
static void
pid_tfs_remove(void *arg)
{
	struct pid_tfs_del *d = arg;
	pid_tfs_cmd(d->dir, d->cmd);
	free(d);
}

/* Trace events of a pmctrace that was killed before it could remove them:
 * those of owner, or (owner 0) of every pmctrace no longer running. */
static void
pid_tfs_stale(const char *dir, int32_t dead)
{
	static int done;
	char path[64], line[512], cmd[128];
	if (!dead && done++)
		return;
	snprintf(path, sizeof(path), "%s/uprobe_events", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int owner = 0, n = 0;
		char ev[64];
		if (sscanf(line, "%*c:pmctrace_%d/%63[^ ] %n", &owner, ev, &n) < 2 || owner <= 0 ||
		    (dead ? owner != dead : owner == getpid() || kill(owner, 0) == 0 || errno != ESRCH))
			continue;
		snprintf(cmd, sizeof(cmd), "-:pmctrace_%d/%s\n", owner, ev);
		pid_tfs_cmd(dir, cmd);
	}
	fclose(f);
}

void
pid_remove_leftovers(int32_t owner)
{
	const char *dir = pid_tracefs();
	if (dir)
		pid_tfs_stale(dir, owner);
}

/* The threads of pid now (at least pid itself). */
static int
pid_threads(int32_t pid, int32_t *tids, int max)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	int n = 0;
	tids[n++] = pid;
	struct dirent *de;
	while (d && (de = readdir(d)) && n < max) {
		int32_t t = (int32_t)atoi(de->d_name);
		if (t > 0 && t != pid)
			tids[n++] = t;
	}
	if (d)
		closedir(d);
	return n;
}

struct pid_batchctx {
	struct prov_registry *r;
	struct smp_session *s;
	const char *dir;
	const int32_t *tids;
	int ntids;
	int ret;			/* 1: return probes */
	uint32_t stack_bytes;
};

static int pid_batch(struct pid_batchctx *bc, int *idx, int n);

/* Open the trace event grp/ev (the probes idx[0..n)) for every thread.
 * 1 if the kernel refused one of its probes (the caller splits it). */
static int
pid_batch_open(struct pid_batchctx *bc, const char *grp, const char *ev)
{
	struct prov_registry *r = bc->r;
	struct pid_state *st = prov_state(r, &prov_pid_ops);
	struct prov_tp tp;
	if (prov_tp_load(r, grp, ev, &tp) < 0)
		return -1;
	const struct prov_tp_field *fid = prov_tp_field(&tp, "id");
	if (!fid || fid->size != 4)
		return prov_errf(r, "pid provider: %s/%s has no u32 id field", grp, ev);
	st->idoff[bc->ret] = fid->offset;
	int opened = 0;
	for (int t = 0; t < bc->ntids; t++) {
		struct smp_event_spec sp;
		memset(&sp, 0, sizeof(sp));
		prov_tp_attr(&tp, &sp.attr, prov_cfg(r)->want_callchains & 3);
		sp.attr.sample_type |= PERF_SAMPLE_REGS_USER;
		sp.attr.sample_regs_user = PID_REGS;
		if (bc->stack_bytes) {
			sp.attr.sample_type |= PERF_SAMPLE_STACK_USER;
			sp.attr.sample_stack_user = bc->stack_bytes;
		}
		sp.attr.inherit = 1;	/* threads and children it creates later */
		sp.scope = SMP_TASK;
		sp.task = bc->tids[t];
		sp.group_leader = -1;
		sp.name = tp.name;
		sp.owner = (void *)&prov_pid_ops;
		sp.cookie = PID_COOKIE_BATCH | (uint64_t)bc->ret;
		struct pid_tfs_del *del = NULL;
		if (!opened) {
			/* the event is removed once its last fd is closed */
			if (!(del = calloc(1, sizeof(*del))))
				return prov_errf(r, "out of memory");
			snprintf(del->dir, sizeof(del->dir), "%s", bc->dir);
			snprintf(del->cmd, sizeof(del->cmd), "-:%s/%s\n", grp, ev);
			sp.closed = pid_tfs_remove;
			sp.closed_arg = del;
		}
		int evidx, err;
		if ((err = smp_add_event(bc->s, &sp, &evidx)) < 0) {
			free(del);
			return prov_errf(r, "%s", smp_errmsg(bc->s));
		}
		if (!(err = smp_open_now(bc->s, evidx))) {
			char note[64];
			snprintf(note, sizeof(note), "pid ev %d batch %d %u", evidx, bc->ret,
			    (unsigned)st->idoff[bc->ret]);
			if (smp_note(bc->s, note) < 0)
				return prov_errf(r, "out of memory");
			opened++;
			continue;
		}
		free(del);
		if (err == -ESRCH)
			continue;	/* a thread that has just exited */
		/* the first open registers the uprobes: a probe it cannot place
		 * fails it (ENOTSUPP for an instruction uprobes cannot step,
		 * ENOEXEC for one the kernel's decoder does not know) */
		if (!opened && (err == -524 || err == -EINVAL || err == -EOPNOTSUPP || err == -ENOENT ||
		    err == -ENOEXEC || err == -EFAULT))
			return 1;
		return prov_errf(r, "%s", smp_errmsg(bc->s));
	}
	if (!opened)
		return prov_errf(r, "failed to grab pid %d: no such process", bc->tids[0]);
	return 0;
}

/* One trace event for the probes idx[0..n) (all of one kind and target):
 * created, opened, and split in halves if the kernel refuses it. */
static int
pid_batch(struct pid_batchctx *bc, int *idx, int n)
{
	struct prov_registry *r = bc->r;
	struct pid_state *st = prov_state(r, &prov_pid_ops);
	char grp[32], ev[32], path[64], line[PID_PATH + 128];
	if (n <= 0)
		return 0;
	snprintf(grp, sizeof(grp), "pmctrace_%d", (int)getpid());
	snprintf(ev, sizeof(ev), "%s%d", bc->ret ? "ret" : "ent", st->seq++);
	snprintf(path, sizeof(path), "%s/uprobe_events", bc->dir);
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return prov_errf(r, "pid provider: cannot write %s: %s", path, strerror(errno));
	/* two probes at one place cannot share an event (EEXIST): those go
	 * to the next batch */
	int nput = 0, nleft = 0, rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		const struct pid_uprobe *u = &st->up[idx[i]];
		if (strpbrk(u->path, " \t\n")) {
			rc = prov_errf(r, "pid provider: cannot probe %s: its path has white space", u->path);
			break;
		}
		int len = snprintf(line, sizeof(line), "p:%s/%s %s:0x%llx id=\\%d:u32\n",
		    grp, ev, u->path, (unsigned long long)u->offset, idx[i]);
		if (write(fd, line, (size_t)len) == len) {
			int tmp = idx[nput];
			idx[nput++] = idx[i];
			idx[i] = tmp;
		} else if (errno == EEXIST) {
			nleft++;
		} else {
			rc = prov_errf(r, "pid provider: cannot create a uprobe at %s:0x%llx: %s",
			    u->path, (unsigned long long)u->offset, strerror(errno));
		}
	}
	close(fd);
	char del[96];
	snprintf(del, sizeof(del), "-:%s/%s\n", grp, ev);
	if (!rc && nput)
		rc = pid_batch_open(bc, grp, ev);
	if (rc && nput)
		pid_tfs_cmd(bc->dir, del);	/* not opened: nothing holds it */
	if (rc == 1) {
		if (nput == 1) {
			/* the kernel will not place this one */
			struct prov_probe *p = prov_by_id(r, st->up[idx[0]].probe);
			if (!st->nrefused++ && p)
				snprintf(st->refused, sizeof(st->refused), "%s", p->pp_info.dp_func);
			rc = 0;
		} else {
			int h = nput / 2;
			rc = pid_batch(bc, idx, h);
			if (!rc)
				rc = pid_batch(bc, idx + h, nput - h);
		}
	}
	if (!rc && nleft)
		rc = pid_batch(bc, idx + nput, nleft);
	return rc < 0 ? -1 : 0;
}

/* Every enabled probe of target pid, through tracefs batches. */
static int
pid_enable_batches(struct prov_registry *r, struct smp_session *s, const char *dir, int32_t pid,
    int32_t *tids, int ntids, int *idx)
{
	struct pid_state *st = prov_state(r, &prov_pid_ops);
	for (int ret = 0; ret < 2; ret++) {
		int n = 0;
		for (int i = 0; i < st->n; i++)
			if (st->up[i].pid == pid && (st->up[i].kind == PK_RETURN) == ret &&
			    pid_on(r, &st->up[i]))
				idx[n++] = i;
		struct pid_batchctx bc = { r, s, dir, tids, ntids, ret,
		    !ret && prov_wants_ustack(r) ? 8192 : 0 };
		for (int k = 0; k < n; k += PID_BATCH)
			if (pid_batch(&bc, idx + k, n - k < PID_BATCH ? n - k : PID_BATCH) < 0)
				return -1;
		st = prov_state(r, &prov_pid_ops);
	}
	return 0;
}

/* Without tracefs: one uprobe PMU event per probe and thread. */
static int
pid_enable_pmu(struct prov_registry *r, struct smp_session *s, int32_t pid, const int32_t *tids,
    int ntids)
{
	struct pid_state *st = prov_state(r, &prov_pid_ops);
	for (int i = 0; i < st->n; i++) {
		const struct pid_uprobe *u = &st->up[i];
		if (u->pid != pid || !pid_on(r, u))
			continue;
		for (int t = 0; t < ntids; t++) {
			struct pid_uprobe_req q = { u->path, u->offset, 0, 0, PID_REGS,
			    u->kind != PK_RETURN && prov_wants_ustack(r) ? 8192 : 0, tids[t] };
			if (pid_add_uprobe_event(r, s, &prov_pid_ops, &q, (uint64_t)i) < 0)
				return -1;
		}
	}
	return 0;
}

/* Recording: the probes behind the recorded events (their index in the
 * events' cookies and batch records, target, kind and names), which a
 * replay cannot learn from uprobes and processes gone since. */
static int
pid_note_probes(struct prov_registry *r, struct smp_session *s)
{
	struct pid_state *st = prov_state(r, &prov_pid_ops);
	char note[PID_PATH + 64];
	for (int i = 0; st && i < st->n; i++) {
		const struct prov_probe *p = prov_by_id(r, st->up[i].probe);
		if (!p || !prov_is_enabled(r, st->up[i].probe))
			continue;
		snprintf(note, sizeof(note), "pid up %d %d %d %s\t%s\t%s", i, (int)st->up[i].pid,
		    st->up[i].kind, p->pp_names[1], p->pp_names[2], p->pp_names[3]);
		if (smp_note(s, note) < 0)
			return prov_errf(r, "out of memory");
	}
	return 0;
}

/* Replay: the probe table the recording noted, made again (probe i of
 * the recording is up[i] here too, so its events' cookies still hold). */
static int
pid_load_notes(struct prov_registry *r, const char *notes)
{
	for (const char *l = notes; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		int i, pid, kind, at = 0;
		char mod[256], func[256], name[96], prov[32];
		if (sscanf(l, "pid up %d %d %d %n", &i, &pid, &kind, &at) < 3 || !at || i < 0 ||
		    sscanf(l + at, "%255[^\t]\t%255[^\t]\t%95[^\n]", mod, func, name) != 3)
			continue;
		struct pid_state *st = prov_state_get(r, &prov_pid_ops, sizeof(*st));
		struct pid_uprobe *u = NULL;
		while (st && st->n <= i && (u = pid_slot(r))) {
			st = prov_state(r, &prov_pid_ops);
			memset(u, 0, sizeof(*u));
			st->n++;
		}
		if (!u)
			return -1;
		struct prov_probe *p = prov_add(r, &prov_pid_ops, mod, func, name);
		if (!p)
			return prov_errf(r, "out of memory");
		snprintf(prov, sizeof(prov), "pid%d", pid);
		snprintf(p->pp_names[0], sizeof(p->pp_names[0]), "%s", prov);
		prov_set_args(p, kind == PK_RETURN ? 2 : 6, pid_entry_args);
		u->probe = p->pp_info.dp_id;
		u->pid = pid;
		u->kind = kind;
	}
	return 0;
}

/* Replay: the events the recording noted as the pid provider's. */
static int
pid_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const char *notes = smp_file_notes(s);
	struct pid_state *st = prov_state(r, &prov_pid_ops);
	if (!notes || !strstr(notes, "pid up "))
		return 0;
	if (!st && (pid_load_notes(r, notes) < 0 || !(st = prov_state(r, &prov_pid_ops))))
		return -1;
	for (const char *l = notes; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		int ev, ret;
		unsigned off;
		unsigned long long idx;
		if (sscanf(l, "pid ev %d batch %d %u", &ev, &ret, &off) == 3 && ev == evidx &&
		    (ret == 0 || ret == 1)) {
			st->idoff[ret] = (uint16_t)off;
			return prov_claim(r, evidx, &prov_pid_ops, PID_COOKIE_BATCH | (uint64_t)ret);
		}
		if (sscanf(l, "pid ev %d probe %llu", &ev, &idx) == 2 && ev == evidx)
			return prov_claim(r, evidx, &prov_pid_ops, idx);
	}
	return 0;
}

static int
pid_enable(struct prov_registry *r, struct smp_session *s)
{
	struct pid_state *st = prov_state(r, &prov_pid_ops);
	if (!st)
		return 0;
	int nen = 0;
	for (int i = 0; i < st->n; i++)
		nen += pid_on(r, &st->up[i]) != 0;
	if (!nen)
		return 0;
	const char *dir = pid_tracefs();
	if (!dir && nen > PID_MAX_PMU)
		return prov_errf(r, "pid provider: %d probes need a writable tracefs (uprobe_events), "
		    "where they are created in batches; without it each uprobe takes the kernel "
		    "~0.1 s to remove and at most %d are allowed (mount -t tracefs tracefs "
		    "/sys/kernel/tracing, or name a module or fewer functions)", nen, PID_MAX_PMU);
	if (!dir) {
		/* perf's way: as many fds as the hard limit allows */
		struct rlimit rl;
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
		}
	} else {
		pid_tfs_stale(dir, 0);
	}
	int32_t *tids = malloc(PID_MAX_THREADS * sizeof(*tids));
	int *idx = malloc((size_t)st->n * sizeof(*idx));
	int rc = 0;
	if (!tids || !idx)
		rc = prov_errf(r, "out of memory");
	/* one target per pid named (pid123:::, $target) */
	for (int i = 0; !rc && i < st->n; i++) {
		int32_t pid = st->up[i].pid;
		int seen = 0;
		for (int j = 0; j < i && !seen; j++)
			seen = st->up[j].pid == pid && pid_on(r, &st->up[j]);
		if (seen || !pid_on(r, &st->up[i]))
			continue;
		int nt = pid_threads(pid, tids, PID_MAX_THREADS);
		rc = dir ? pid_enable_batches(r, s, dir, pid, tids, nt, idx) :
		    pid_enable_pmu(r, s, pid, tids, nt);
		st = prov_state(r, &prov_pid_ops);
	}
	free(tids);
	free(idx);
	if (rc || pid_note_probes(r, s) < 0)
		return -1;
	if (st->nmoved)
		prov_notice(r, "%d pid entry probe%s placed past a first instruction that is never "
		    "probed but writes no argument register (%s%s; see INSTRUCTIONS NEVER PROBED in "
		    "pmctrace(1))", st->nmoved, st->nmoved > 1 ? "s" : "", st->movedex,
		    st->nmoved > 1 ? " and others" : "");
	for (int k = 1; k < PI_NRULES; k++)
		if (st->nleft[k])
			prov_notice(r, "%d pid probe%s left out: %s (%s%s; see INSTRUCTIONS NEVER PROBED "
			    "in pmctrace(1))", st->nleft[k], st->nleft[k] > 1 ? "s" : "",
			    pid_insn_rules[k].what, st->leftex[k], st->nleft[k] > 1 ? " and others" : "");
	if (st->nrefused)
		prov_notice(r, "%d pid probe%s could not be placed (the kernel's uprobes "
		    "refuse the first instruction of %s%s)", st->nrefused, st->nrefused > 1 ? "s" : "",
		    st->refused, st->nrefused > 1 ? " and others" : "");
	if (!st->gate_pid)
		return 0;
	if (prov_tp_load(r, "sched", "sched_process_exec", &st->exec_tp) < 0 ||
	    prov_tp_add(r, s, &prov_pid_ops, &st->exec_tp, PID_COOKIE_EXEC, -1, 0) < 0)
		return -1;
	return 0;
}

/* The -c target exec'd: its firings count once the command itself runs. */
static void
pid_exec_seen(struct pid_state *st, const struct smp_record *rec)
{
	char path[256];
	if (!rec->raw || rec->pid != st->gate_pid || !st->gate_execs++)
		return;
	prov_tp_str(prov_tp_field(&st->exec_tp, "filename"), rec->raw, rec->raw_size, path, sizeof(path));
	const char *b = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (!strcmp(b, st->gate_exe) || !strcmp(b, st->gate_word))
		st->gate_open = 1;
}

uint64_t
pid_sample_reg(const struct smp_record *rec, uint64_t mask, int reg)
{
	uint32_t idx = 0;
	if (!rec->regs_abi || !rec->regs || !(mask & (1ull << reg)))
		return 0;
	/* values come in ascending register order, one per mask bit */
	for (int b = 0; b < reg; b++)
		if (mask & (1ull << b))
			idx++;
	return idx < rec->nr_regs ? rec->regs[idx] : 0;
}

static int
pid_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct pid_state *st = prov_state(r, &prov_pid_ops);
	if (!st || rec->type != PERF_RECORD_SAMPLE)
		return 0;
	if (cookie == PID_COOKIE_EXEC) {
		pid_exec_seen(st, rec);
		return 0;
	}
	if (cookie & PID_COOKIE_BATCH) {
		/* a tracefs batch: the probe's index is in the raw record */
		uint32_t off = st->idoff[cookie & 1], id;
		if (!rec->raw || rec->raw_size < off + 4)
			return 0;
		memcpy(&id, (const char *)rec->raw + off, 4);
		cookie = id;
		}
	if (cookie >= (uint64_t)st->n)
		return 0;
	const struct pid_uprobe *u = &st->up[cookie];
	if (rec->pid != u->pid)
		return 0;	/* another process running the same file */
	if (u->pid == st->gate_pid && !st->gate_open)
		return 0;	/* the -c child before it runs the command */
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_probe = u->probe;
	f.df_uregs_ip = pid_sample_reg(rec, PID_REGS, PR_IP);
	if (u->kind == PK_RETURN) {
		f.df_args[0] = u->retoff;
		f.df_args[1] = pid_sample_reg(rec, PID_REGS, PR_AX);
		f.df_nargs = 2;
	} else {
		static const int argregs[6] = { PR_DI, PR_SI, PR_DX, PR_CX, PR_R8, PR_R9 };
		for (int i = 0; i < 6; i++)
			f.df_args[i] = pid_sample_reg(rec, PID_REGS, argregs[i]);
		f.df_nargs = 6;
		prov_firing_ustack(&f, rec, PID_REGS);
	}
	return fire(arg, &f);
}

const struct prov_ops prov_pid_ops = {
	.po_name = "pid", .po_list = pid_list, .po_match = pid_match,
	.po_enable = pid_enable, .po_claim = pid_claim, .po_decode = pid_decode,
};
