/*
 * proc.c — the proc provider: process and thread life cycle.
 *
 *   exec          sched:sched_process_exec, before exec-success; args[0] =
 *                 the path (string).  Linux has no tracepoint carrying the
 *                 path before the point of no return, so exec fires only
 *                 for execs that succeed; failures fire exec-failure.
 *   exec-success  sched:sched_process_exec, in the new image's context
 *                 (execname is the new name).
 *   exec-failure  syscalls:sys_exit_execve/execveat returning < 0;
 *                 args[0] = errno.
 *   create        task:task_newtask for a new process, in the parent's
 *                 context; args[0] = the child's psinfo_t.
 *   start         the same event, in the new process's context.
 *   lwp-create    task:task_newtask with CLONE_THREAD, in the creator's
 *                 context; args[0] = the new thread's lwpsinfo_t, args[1]
 *                 its process's psinfo_t.
 *   lwp-start     the same event, in the new thread's context.
 *   lwp-exit      sched:sched_process_exit, every thread.
 *   exit          sched:sched_process_exit of the thread that ends the
 *                 process (group_dead).  args[0] = the exit code as a
 *                 shell's $? shows it (exit(3): 3; killed by signal N:
 *                 128 + N), args[1] = the status wait(2) reports (3 << 8;
 *                 N).  The tracepoint carries neither: they come from the
 *                 process's last syscalls:sys_enter_exit_group (or
 *                 sys_enter_exit) error_code, or its last signal_deliver
 *                 of a signal whose default action kills; -1 when the
 *                 run saw neither.  (DTrace's Solaris args[0] is the
 *                 CLD_* reason; the seeds promise the exit code.)  Whether
 *                 a core was dumped is not known (0x80 is never set).
 *   signal-send   signal:signal_generate, in the sender's context;
 *                 args[0] = the target thread's lwpsinfo_t, args[1] its
 *                 process's psinfo_t, args[2] = the signal.
 *   signal-handle signal:signal_deliver, in the receiver's context;
 *                 args[0] = the signal, args[1] = 0 (no siginfo_t),
 *                 args[2] = the handler's address.
 *   module-load   a PERF_RECORD_MMAP2 (or MMAP) side-band record of an
 *                 executable file mapping, in the mapping process's
 *                 context: the main executable and ld.so at exec, each
 *                 shared object ld.so or dlopen() maps.  args[0] = the
 *                 path (string), args[1] = the start address of the
 *                 executable mapping, args[2] = its length, args[3] = its
 *                 offset in the file.  The kernel reports PROT_EXEC
 *                 mappings only (the side-band event leaves mmap_data
 *                 off), so data segments never fire it; anonymous
 *                 executable memory (JITs) and the mappings a recording
 *                 synthesizes from /proc at its start (time 0: present
 *                 before, not loaded during, the trace) are skipped.
 *                 There is no module-unload: perf has no munmap record.
 * psinfo_t/lwpsinfo_t are the engine's own declarations (dcore's prelude);
 * the C mirrors below follow that layout field for field.
 * curpsinfo: for exec and exec-success pr_psargs is argv as exec'd, read
 * from a snapshot of the new user stack taken with the event (so it holds
 * for processes gone by the time the record is read); elsewhere /proc is
 * read when the firing is processed, and for a process already gone the
 * provider answers with what the event carried (the comm as pr_fname).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sched.h>
#include <signal.h>
#include <sys/mman.h>

#include "providers/tracefs.h"

enum proc_kind {
	PK_EXEC, PK_EXEC_SUCCESS, PK_EXEC_FAILURE, PK_CREATE, PK_START,
	PK_LWP_CREATE, PK_LWP_START, PK_LWP_EXIT, PK_EXIT, PK_SIGSEND, PK_SIGHANDLE, PK_MODLOAD, PK_N
};
enum { EV_EXEC, EV_EXIT, EV_NEWTASK, EV_EXECFAIL, EV_EXECATFAIL, EV_SIGGEN, EV_SIGDLV,
	EV_EXITGRP, EV_EXITTHR, EV_N,
	EV_MMAP = EV_N		/* side-band MMAP/MMAP2 records, not a tracepoint */
};

static const struct {
	const char *name;
	int ev, nargs;
	const char *types[4];
} proc_probes[PK_N] = {
	[PK_EXEC] = { "exec", EV_EXEC, 1, { "string" } },
	[PK_EXEC_SUCCESS] = { "exec-success", EV_EXEC, 0, { NULL } },
	[PK_EXEC_FAILURE] = { "exec-failure", EV_EXECFAIL, 1, { "int" } },
	[PK_CREATE] = { "create", EV_NEWTASK, 1, { "psinfo_t *" } },
	[PK_START] = { "start", EV_NEWTASK, 0, { NULL } },
	[PK_LWP_CREATE] = { "lwp-create", EV_NEWTASK, 2, { "lwpsinfo_t *", "psinfo_t *" } },
	[PK_LWP_START] = { "lwp-start", EV_NEWTASK, 0, { NULL } },
	[PK_LWP_EXIT] = { "lwp-exit", EV_EXIT, 0, { NULL } },
	[PK_EXIT] = { "exit", EV_EXIT, 2, { "int", "int" } },
	[PK_SIGSEND] = { "signal-send", EV_SIGGEN, 3, { "lwpsinfo_t *", "psinfo_t *", "int" } },
	[PK_SIGHANDLE] = { "signal-handle", EV_SIGDLV, 3, { "int", "uintptr_t", "uintptr_t" } },
	[PK_MODLOAD] = { "module-load", EV_MMAP, 4, { "string", "uintptr_t", "size_t", "uint64_t" } },
};

static const char *const proc_events[EV_N][2] = {
	[EV_EXEC] = { "sched", "sched_process_exec" },
	[EV_EXIT] = { "sched", "sched_process_exit" },
	[EV_NEWTASK] = { "task", "task_newtask" },
	[EV_EXECFAIL] = { "syscalls", "sys_exit_execve" },
	[EV_EXECATFAIL] = { "syscalls", "sys_exit_execveat" },
	[EV_SIGGEN] = { "signal", "signal_generate" },
	[EV_SIGDLV] = { "signal", "signal_deliver" },
	[EV_EXITGRP] = { "syscalls", "sys_enter_exit_group" },
	[EV_EXITTHR] = { "syscalls", "sys_enter_exit" },
};

/* proc:::exit's status: per process, the wait(2) status its last exit
 * call or fatal signal announced, until its exit fires.  A small table:
 * processes between those events and their end are few. */
#define PROC_NSTATUS 256
struct proc_status {
	int32_t pid;		/* 0: free */
	int32_t status;		/* -1: not known yet */
	int32_t pending;	/* a default-fatal signal sent to it */
	int final;		/* exit_group or a fatal signal: the whole
				 * process ends with it (the SIGKILLs the
				 * kernel then sends its other threads, or a
				 * thread's own exit, do not change it) */
};

/* dcore's psinfo_t and lwpsinfo_t (its prelude), laid out as D lays them. */
struct proc_timestruc {
	int64_t tv_sec, tv_nsec;
};
struct proc_psinfo {
	int32_t pr_flag, pr_nlwp, pr_pid, pr_ppid, pr_pgid, pr_sid;
	uint32_t pr_uid, pr_euid, pr_gid, pr_egid;
	uint64_t pr_addr, pr_size, pr_rssize, pr_ttydev;
	uint16_t pr_pctcpu, pr_pctmem;
	struct proc_timestruc pr_start, pr_time, pr_ctime;
	char pr_fname[16], pr_psargs[80];
	int32_t pr_wstat, pr_argc;
	uint64_t pr_argv, pr_envp;
	char pr_dmodel;
	int32_t pr_taskid, pr_projid, pr_nzomb, pr_zoneid;
};
struct proc_lwpsinfo {
	int32_t pr_flag, pr_lwpid;
	uint64_t pr_addr, pr_wchan;
	char pr_stype, pr_state, pr_sname, pr_nice;
	int16_t pr_syscall;
	char pr_oldpri, pr_cpu;
	int32_t pr_pri;
	uint16_t pr_pctcpu;
	struct proc_timestruc pr_start, pr_time;
	char pr_clname[8], pr_name[16];
	int32_t pr_onpro, pr_bindpro, pr_bindpset;
};
_Static_assert(sizeof(struct proc_psinfo) == 272, "psinfo_t layout");
_Static_assert(sizeof(struct proc_lwpsinfo) == 112, "lwpsinfo_t layout");
struct proc_args {
	struct proc_lwpsinfo lwp;
	struct proc_psinfo ps;
};

/* What the current firing knows about its process: curpsinfo's answer
 * when /proc no longer has it. */
struct proc_fb {
	char fname[16], psargs[80];
	int exact;		/* psargs came from the exec itself: prefer it */
};

struct proc_state {
	struct prov_tp tp[EV_N];
	uint32_t probe[PK_N];		/* enabled probe ids */
	int planned;
	uint8_t have[EV_N + 1];		/* replay: the file's events (and mmap records) */
	struct proc_fb fb;
	struct proc_status status[PROC_NSTATUS];
	unsigned status_next;		/* the slot to reuse when all are taken */
};

/* Create the proc probes and report those pd matches; in a replay's -l
 * (have != NULL) only those the file's events can fire. */
static int
proc_emit(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg,
    const uint8_t *have)
{
	int n = 0;
	for (int k = 0; k < PK_N; k++) {
		int ev = proc_probes[k].ev;
		if (have && !have[ev] && !(ev == EV_EXECFAIL && have[EV_EXECATFAIL]))
			continue;
		struct prov_probe *p = prov_add(r, &prov_proc_ops, "", "", proc_probes[k].name);
		if (!p)
			return prov_errf(r, "out of memory");
		p->pp_param[0] = (uint64_t)k;
		prov_set_args(p, proc_probes[k].nargs, proc_probes[k].types);
		int rc = prov_emit_one(p, pd, cb, arg);
		if (rc < 0)
			return -1;
		n += rc;
	}
	return n;
}

static int
proc_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	struct proc_state *st = prov_state(r, &prov_proc_ops);
	if (prov_cfg(r)->replay)
		return st ? proc_emit(r, pd, cb, arg, st->have) : 0;
	return proc_emit(r, pd, cb, arg, NULL);
}

static void
proc_plan(struct prov_registry *r, struct proc_state *st)
{
	memset(st->probe, 0, sizeof(st->probe));
	for (struct prov_probe *p = NULL; (p = prov_next(r, &prov_proc_ops, p, 1)); )
		st->probe[p->pp_param[0]] = p->pp_info.dp_id;
	st->planned = 1;
}

static int
proc_ev_needed(const struct proc_state *st, int ev)
{
	if (ev == EV_EXECATFAIL)
		ev = EV_EXECFAIL;
	/* exit's code comes from the exit calls and fatal signals */
	if ((ev == EV_EXITGRP || ev == EV_EXITTHR || ev == EV_SIGDLV || ev == EV_SIGGEN) &&
	    st->probe[PK_EXIT])
		return 1;
	for (int k = 0; k < PK_N; k++)
		if (st->probe[k] && proc_probes[k].ev == ev)
			return 1;
	return 0;
}

/* sched_process_exec with the new image's user stack: when the event
 * fires the registers already point at the new stack, whose bottom holds
 * argc, argv[] and (a little higher) the argument strings, so psargs is
 * known even for a process that is gone before its record is read. */
#define PROC_ARGV_BYTES 8192

/* argv from the stack snapshot, joined by spaces as pr_psargs is; 0 if
 * the snapshot does not hold it. */
static int
proc_argv(const struct smp_record *rec, char *buf, size_t len)
{
	const unsigned char *stk = rec->ustack;
	uint64_t n = rec->ustack_dyn_size, argc, sp;
	size_t used = 0;
	if (!stk || n < 16 || !rec->regs_abi || !rec->regs || rec->nr_regs < 1 || len == 0)
		return 0;
	sp = rec->regs[0];
	memcpy(&argc, stk, 8);
	if (argc == 0 || argc > 4096 || 8 * (argc + 1) > n)
		return 0;
	for (uint64_t i = 0; i < argc && used + 1 < len; i++) {
		uint64_t p;
		memcpy(&p, stk + 8 * (i + 1), 8);
		if (p < sp || p - sp >= n)
			break;
		const char *str = (const char *)stk + (p - sp);
		size_t max = (size_t)(n - (p - sp)), sl = strnlen(str, max);
		if (sl == max)
			break;	/* runs off the snapshot */
		if (i)
			buf[used++] = ' ';
		size_t take = sl < len - 1 - used ? sl : len - 1 - used;
		memcpy(buf + used, str, take);
		used += take;
	}
	buf[used] = '\0';
	return used > 0;
}

/* module-load fires on the side-band MMAP2 records every live session
 * asks for (the cli's comm/mmap/task event), which the cli opens only
 * when some provider opened an event.  This dummy event records nothing
 * itself: it is what makes a script whose only probe is module-load run. */
static int
proc_add_carrier(struct prov_registry *r, struct smp_session *s)
{
	struct smp_event_spec sp;
	int evidx;
	prov_spec_init(&sp, "proc:module-load", &prov_proc_ops, EV_MMAP);
	sp.attr.type = PERF_TYPE_SOFTWARE;
	sp.attr.config = PERF_COUNT_SW_DUMMY;
	sp.attr.sample_id_all = 1;
	sp.attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
	    PERF_SAMPLE_IDENTIFIER;
	sp.attr.disabled = 1;
	int rc = smp_add_event(s, &sp, &evidx);
	return rc < 0 ? prov_errf(r, "proc:::module-load: %s", smp_errmsg(s)) : 0;
}

static int
proc_enable(struct prov_registry *r, struct smp_session *s)
{
	struct proc_state *st = prov_state(r, &prov_proc_ops);
	if (!st)
		return 0;
	proc_plan(r, st);
	for (int ev = 0; ev < EV_N; ev++) {
		if (!proc_ev_needed(st, ev))
			continue;
		/* execveat is optional: some kernels lack its tracepoint;
		 * without the exit calls' exit has its code as -1 */
		if (prov_tp_load(r, proc_events[ev][0], proc_events[ev][1], &st->tp[ev]) < 0) {
			if (ev == EV_EXECATFAIL || ev == EV_EXITGRP || ev == EV_EXITTHR)
				continue;
			return -1;
		}
		if ((ev == EV_EXEC ? prov_tp_add_ustack(r, s, &prov_proc_ops, &st->tp[ev], EV_EXEC, PROC_ARGV_BYTES) :
		    prov_tp_add(r, s, &prov_proc_ops, &st->tp[ev], (uint64_t)ev, -1, 0)) < 0)
			return -1;
	}
	if (st->probe[PK_MODLOAD])
		return proc_add_carrier(r, s);
	return 0;
}

static int
proc_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (!prov_state_get(r, &prov_proc_ops, sizeof(struct proc_state)))
		return -1;
	return proc_emit(r, pd, cb, arg, NULL);
}

static int
proc_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
	if (ev->attr.mmap || ev->attr.mmap2) {
		/* the file holds mapping records: module-load can fire on them
		 * (they reach proc through prov_dispatch, not through a claim) */
		struct proc_state *st = prov_state_get(r, &prov_proc_ops, sizeof(*st));
		if (!st || proc_emit(r, &(struct d_probe_desc){ 0 }, NULL, NULL, NULL) < 0)
			return -1;
		st->have[EV_MMAP] = 1;
	}
	if (ev->attr.type != PERF_TYPE_TRACEPOINT || !ev->name)
		return 0;
	for (int e = 0; e < EV_N; e++) {
		char name[100];
		snprintf(name, sizeof(name), "%s:%s", proc_events[e][0], proc_events[e][1]);
		if (strcmp(ev->name, name))
			continue;
		struct proc_state *st = prov_state_get(r, &prov_proc_ops, sizeof(*st));
		if (!st || prov_tp_load(r, proc_events[e][0], proc_events[e][1], &st->tp[e]) < 0 ||
		    proc_emit(r, &(struct d_probe_desc){ 0 }, NULL, NULL, NULL) < 0)
			return -1;
		st->have[e] = 1;
		return prov_claim(r, evidx, &prov_proc_ops, (uint64_t)e);
	}
	return 0;
}

/* /proc facts, or the event's when the process is gone. */
static int
proc_procinfo(void *ctx, int32_t pid, struct d_procinfo *out)
{
	const struct proc_fb *fb = ctx;
	char path[64], line[256];
	FILE *f;
	memset(out->pi_fname, 0, sizeof(out->pi_fname));
	memset(out->pi_psargs, 0, sizeof(out->pi_psargs));
	snprintf(out->pi_fname, sizeof(out->pi_fname), "%s", fb->fname);
	snprintf(out->pi_psargs, sizeof(out->pi_psargs), "%s", fb->psargs);
	out->pi_pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (!(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "PPid:", 5))
			out->pi_ppid = atoi(line + 5);
		else if (!strncmp(line, "Uid:", 4))
			out->pi_uid = atoi(line + 4);
		else if (!strncmp(line, "Gid:", 4))
			out->pi_gid = atoi(line + 4);
	}
	fclose(f);
	if (fb->exact)
		return 0;	/* the arguments as exec'd, not as /proc shows them now */
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	if (!(f = fopen(path, "r")))
		return 0;
	size_t n = fread(line, 1, sizeof(out->pi_psargs) - 1, f);
	fclose(f);
	if (n == 0)
		return 0;
	while (n > 0 && line[n - 1] == '\0')
		n--;
	/* zero-filled: D prints a char array with bytes after its NUL as raw */
	memset(out->pi_psargs, 0, sizeof(out->pi_psargs));
	for (size_t i = 0; i < n; i++)
		out->pi_psargs[i] = line[i] ? line[i] : ' ';
	out->pi_psargs[n] = '\0';
	return 0;
}

static int
proc_fire(uint32_t id, struct d_firing *f, prov_fire_fn fire, void *arg)
{
	if (!id)
		return 0;
	f->df_probe = id;
	return fire(arg, f);
}

static int
proc_decode_exec(struct proc_state *st, const struct smp_record *rec, struct d_firing *f,
    prov_fire_fn fire, void *arg)
{
	const struct prov_tp *tp = &st->tp[EV_EXEC];
	char path[256];
	prov_tp_str(prov_tp_field(tp, "filename"), rec->raw, rec->raw_size, path, sizeof(path));
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	/* the kernel names the new image after the path's last part */
	snprintf(st->fb.fname, sizeof(st->fb.fname), "%.15s", base);
	st->fb.exact = proc_argv(rec, st->fb.psargs, sizeof(st->fb.psargs));
	if (!st->fb.exact)
		snprintf(st->fb.psargs, sizeof(st->fb.psargs), "%.79s", path);
	f->df_execname = st->fb.fname;
	f->df_args[0] = (uint64_t)(uintptr_t)path;
	f->df_nargs = 1;
	int rc = proc_fire(st->probe[PK_EXEC], f, fire, arg);
	f->df_nargs = 0;
	return rc ? rc : proc_fire(st->probe[PK_EXEC_SUCCESS], f, fire, arg);
}

/* psinfo_t/lwpsinfo_t of thread tid of process pid, named comm; what
 * /proc still knows is added (ppid, ids, arguments). */
static void
proc_fill(struct proc_args *a, int32_t pid, int32_t tid, const char *comm)
{
	struct proc_fb fb;
	struct d_procinfo pi;
	memset(a, 0, sizeof(*a));
	memset(&pi, 0, sizeof(pi));
	snprintf(fb.fname, sizeof(fb.fname), "%.15s", comm);
	snprintf(fb.psargs, sizeof(fb.psargs), "%.79s", comm);
	proc_procinfo(&fb, pid, &pi);
	a->ps.pr_nlwp = 1;
	a->ps.pr_pid = a->ps.pr_pgid = a->ps.pr_sid = pid;
	a->ps.pr_ppid = pi.pi_ppid;
	a->ps.pr_uid = a->ps.pr_euid = (uint32_t)pi.pi_uid;
	a->ps.pr_gid = a->ps.pr_egid = (uint32_t)pi.pi_gid;
	memcpy(a->ps.pr_fname, pi.pi_fname, sizeof(a->ps.pr_fname));
	memcpy(a->ps.pr_psargs, pi.pi_psargs, sizeof(a->ps.pr_psargs));
	a->ps.pr_fname[15] = a->ps.pr_psargs[79] = '\0';
	a->ps.pr_dmodel = 2;	/* PR_MODEL_LP64 */
	a->lwp.pr_lwpid = tid;
	a->lwp.pr_sname = 'R';
	a->lwp.pr_bindpro = a->lwp.pr_bindpset = -1;
	memcpy(a->lwp.pr_clname, "TS", 3);
	memcpy(a->lwp.pr_name, a->ps.pr_fname, sizeof(a->lwp.pr_name));
}

static void
proc_set_mem(struct d_firing *f, struct proc_args *a)
{
	f->df_mem = a;
	f->df_memlen = sizeof(*a);
}

static int
proc_decode_signal(struct prov_registry *r, struct proc_state *st, const struct smp_record *rec,
    int ev, struct d_firing *f, prov_fire_fn fire, void *arg)
{
	const struct prov_tp *tp = &st->tp[ev];
	int64_t sig = (int64_t)prov_tp_uint(prov_tp_field(tp, "sig"), rec->raw, rec->raw_size);
	if (ev == EV_SIGDLV) {
		f->df_args[0] = (uint64_t)sig;
		f->df_args[1] = 0;
		f->df_args[2] = prov_tp_uint(prov_tp_field(tp, "sa_handler"), rec->raw, rec->raw_size);
		f->df_nargs = 3;
		return proc_fire(st->probe[PK_SIGHANDLE], f, fire, arg);
	}
	char comm[16];
	int32_t tid = (int32_t)prov_tp_uint(prov_tp_field(tp, "pid"), rec->raw, rec->raw_size);
	prov_tp_str(prov_tp_field(tp, "comm"), rec->raw, rec->raw_size, comm, sizeof(comm));
	struct proc_args a;
	proc_fill(&a, prov_tgid(r, tid), tid, comm);
	proc_set_mem(f, &a);
	f->df_args[0] = (uint64_t)(uintptr_t)&a.lwp;
	f->df_args[1] = (uint64_t)(uintptr_t)&a.ps;
	f->df_args[2] = (uint64_t)sig;
	f->df_nargs = 3;
	return proc_fire(st->probe[PK_SIGSEND], f, fire, arg);
}

static int
proc_decode_newtask(struct prov_registry *r, struct proc_state *st, const struct smp_record *rec,
    struct d_firing *f, prov_fire_fn fire, void *arg)
{
	const struct prov_tp *tp = &st->tp[EV_NEWTASK];
	int32_t child = (int32_t)prov_tp_uint(prov_tp_field(tp, "pid"), rec->raw, rec->raw_size);
	uint64_t flags = prov_tp_uint(prov_tp_field(tp, "clone_flags"), rec->raw, rec->raw_size);
	int thread = (flags & CLONE_THREAD) != 0;
	prov_tp_str(prov_tp_field(tp, "comm"), rec->raw, rec->raw_size, st->fb.fname, sizeof(st->fb.fname));
	snprintf(st->fb.psargs, sizeof(st->fb.psargs), "%s", st->fb.fname);
	struct proc_args a;
	proc_fill(&a, thread ? rec->pid : child, child, st->fb.fname);
	if (!thread)
		a.ps.pr_ppid = rec->pid;
	proc_set_mem(f, &a);
	f->df_args[0] = (uint64_t)(uintptr_t)(thread ? (void *)&a.lwp : (void *)&a.ps);
	f->df_args[1] = (uint64_t)(uintptr_t)&a.ps;
	f->df_nargs = thread ? 2 : 1;
	int rc = proc_fire(st->probe[thread ? PK_LWP_CREATE : PK_CREATE], f, fire, arg);
	if (rc)
		return rc;
	/* start / lwp-start: in the new task's context */
	f->df_nargs = 0;
	f->df_tid = child;
	if (!thread)
		f->df_pid = child;
	f->df_execname = st->fb.fname;
	f->df_nkstack = f->df_nustack = 0;
	(void)r;
	return proc_fire(st->probe[thread ? PK_LWP_START : PK_START], f, fire, arg);
}

/* The mapping an MMAP2 (or MMAP) record announces, if module-load should
 * fire for it: an executable mapping of a file (or the vdso), made by a
 * user process while the trace ran.  0 with *m filled, or -1. */
struct proc_mmap {
	int32_t pid, tid;
	uint64_t addr, len, pgoff;
	char path[4096];
};

static int
proc_mmap_decode(const struct perf_event_header *h, const struct smp_record *rec,
    struct proc_mmap *m)
{
	const unsigned char *b = (const unsigned char *)h;
	size_t fixed, size;
	uint32_t prot = PROT_EXEC;
	uint16_t mode;
	if (!h || (h->type != PERF_RECORD_MMAP2 && h->type != PERF_RECORD_MMAP))
		return -1;
	fixed = h->type == PERF_RECORD_MMAP2 ? 72 : 40;
	size = h->size;
	if (size <= fixed)
		return -1;
	mode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL)
		return -1;
	/* MMAP has no prot: without mmap_data the kernel sends exec mappings
	 * only, and marks the others it sends with MISC_MMAP_DATA */
	if (h->type == PERF_RECORD_MMAP2)
		memcpy(&prot, b + 64, 4);
	else if (h->misc & PERF_RECORD_MISC_MMAP_DATA)
		prot = 0;
	if (!(prot & PROT_EXEC))
		return -1;
	memset(m, 0, sizeof(*m));
	memcpy(&m->pid, b + 8, 4);
	memcpy(&m->tid, b + 12, 4);
	memcpy(&m->addr, b + 16, 8);
	memcpy(&m->len, b + 24, 8);
	memcpy(&m->pgoff, b + 32, 8);
	if (m->pid <= 0)
		return -1;
	/* a recording's mappings synthesized from /proc at its start carry
	 * time 0: they were there before the trace, not loaded during it */
	if (rec && rec->time == 0)
		return -1;
	const char *name = (const char *)b + fixed;
	size_t n = strnlen(name, size - fixed);
	if (n == size - fixed || n == 0 || n >= sizeof(m->path))
		return -1;
	if (!(name[0] == '/' && name[1] != '/') && strcmp(name, "[vdso]"))
		return -1;	/* //anon (JIT), [heap], [uprobes]... */
	memcpy(m->path, name, n + 1);
	return 0;
}

/* The firing's process facts come from proc_procinfo, with the sample's
 * execname as the fallback name. */
static void
proc_use_fallback(struct proc_state *st, struct d_firing *f)
{
	st->fb.fname[0] = st->fb.psargs[0] = '\0';
	st->fb.exact = 0;
	if (f->df_execname)
		snprintf(st->fb.fname, sizeof(st->fb.fname), "%s", f->df_execname);
	f->df_procinfo = proc_procinfo;
	f->df_procinfo_ctx = &st->fb;
}

static int
proc_decode_mmap(struct prov_registry *r, struct proc_state *st, const struct smp_record *rec,
    prov_fire_fn fire, void *arg)
{
	struct proc_mmap m;
	struct d_firing f;
	if (!st->probe[PK_MODLOAD] || proc_mmap_decode(rec->hdr, rec, &m) < 0)
		return 0;
	prov_firing_from_sample(r, rec, &f, NULL, NULL, 0);
	/* the record's own pid/tid (sample_id may be absent in old files) */
	f.df_pid = m.pid;
	f.df_tid = m.tid;
	proc_use_fallback(st, &f);
	f.df_args[0] = (uint64_t)(uintptr_t)m.path;
	f.df_args[1] = m.addr;
	f.df_args[2] = m.len;
	f.df_args[3] = m.pgoff;
	f.df_nargs = 4;
	return proc_fire(st->probe[PK_MODLOAD], &f, fire, arg);
}

static struct proc_status *
proc_status_slot(struct proc_state *st, int32_t pid, int make)
{
	for (unsigned i = 0; i < PROC_NSTATUS; i++)
		if (st->status[i].pid == pid)
			return &st->status[i];
	if (!make)
		return NULL;
	struct proc_status *s = NULL;
	for (unsigned i = 0; i < PROC_NSTATUS && !s; i++)
		if (!st->status[i].pid)
			s = &st->status[i];
	if (!s)
		s = &st->status[st->status_next++ % PROC_NSTATUS];
	*s = (struct proc_status){ .pid = pid, .status = -1 };
	return s;
}

static void
proc_status_set(struct proc_state *st, int32_t pid, int32_t status, int final)
{
	if (pid <= 0)
		return;
	struct proc_status *s = proc_status_slot(st, pid, 1);
	if (s->final)
		return;
	s->status = status;
	s->final = final;
}

/* Whether sig's default action ends the process (not ignore, not stop). */
static int
proc_sig_kills(int64_t sig)
{
	switch (sig) {
	case SIGCHLD: case SIGCONT: case SIGURG: case SIGWINCH:
	case SIGSTOP: case SIGTSTP: case SIGTTIN: case SIGTTOU:
		return 0;
	default:
		return sig > 0 && sig < 65;
	}
}

/* A signal sent that kills by default: the kernel may turn it into a
 * SIGKILL of the whole group at once (complete_signal's fast path), and
 * then only SIGKILL is seen delivered, so remember what was sent. */
static void
proc_note_sent(struct prov_registry *r, struct proc_state *st, const struct smp_record *rec)
{
	const struct prov_tp *tp = &st->tp[EV_SIGGEN];
	int64_t sig = (int64_t)prov_tp_uint(prov_tp_field(tp, "sig"), rec->raw, rec->raw_size);
	int32_t tid = (int32_t)prov_tp_uint(prov_tp_field(tp, "pid"), rec->raw, rec->raw_size);
	if (!st->probe[PK_EXIT] || !proc_sig_kills(sig) || sig == SIGKILL ||
	    prov_tp_uint(prov_tp_field(tp, "result"), rec->raw, rec->raw_size) != 0)
		return;	/* result 0: delivered (not ignored, not already pending) */
	int32_t pid = prov_tgid(r, tid);
	if (pid > 0)
		proc_status_slot(st, pid, 1)->pending = (int32_t)sig;
}

/* A signal reaching its default action that kills: the process's status. */
static void
proc_note_signal(struct proc_state *st, const struct smp_record *rec)
{
	const struct prov_tp *tp = &st->tp[EV_SIGDLV];
	int64_t sig = (int64_t)prov_tp_uint(prov_tp_field(tp, "sig"), rec->raw, rec->raw_size);
	uint64_t handler = prov_tp_uint(prov_tp_field(tp, "sa_handler"), rec->raw, rec->raw_size);
	struct proc_status *s = proc_status_slot(st, rec->pid, 0);
	if (handler != 0 || !proc_sig_kills(sig)) {
		if (s && s->pending == sig)
			s->pending = 0;	/* handled, ignored or stopped: not fatal */
		return;
	}
	if (sig == SIGKILL && s && s->pending)
		sig = s->pending;
	proc_status_set(st, rec->pid, (int32_t)sig, 1);
}

static int
proc_decode_exit(struct proc_state *st, const struct smp_record *rec, struct d_firing *f,
    prov_fire_fn fire, void *arg)
{
	const struct prov_tp *tp = &st->tp[EV_EXIT];
	prov_tp_str(prov_tp_field(tp, "comm"), rec->raw, rec->raw_size, st->fb.fname,
	    sizeof(st->fb.fname));
	f->df_execname = st->fb.fname;
	int rc = proc_fire(st->probe[PK_LWP_EXIT], f, fire, arg);
	if (rc || !prov_tp_uint(prov_tp_field(tp, "group_dead"), rec->raw, rec->raw_size))
		return rc;
	struct proc_status *s = proc_status_slot(st, rec->pid, 0);
	int64_t status = s ? s->status : -1, code = -1;
	if (status >= 0)
		code = (status & 0x7f) ? 128 + (status & 0x7f) : (status >> 8) & 0xff;
	if (s)
		s->pid = 0;
	f->df_args[0] = (uint64_t)code;
	f->df_args[1] = (uint64_t)status;
	f->df_nargs = 2;
	return proc_fire(st->probe[PK_EXIT], f, fire, arg);
}

static int
proc_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct proc_state *st = prov_state(r, &prov_proc_ops);
	if (!st)
		return 0;
	if (rec->type == PERF_RECORD_MMAP2 || rec->type == PERF_RECORD_MMAP) {
		if (!st->planned)
			proc_plan(r, st);
		return proc_decode_mmap(r, st, rec, fire, arg);
	}
	if (rec->type != PERF_RECORD_SAMPLE || !rec->raw || cookie >= EV_N)
		return 0;
	if (!st->planned)
		proc_plan(r, st);
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	proc_use_fallback(st, &f);
	const struct prov_tp *tp = &st->tp[cookie];
	switch (cookie) {
	case EV_EXEC:
		return proc_decode_exec(st, rec, &f, fire, arg);
	case EV_NEWTASK:
		return proc_decode_newtask(r, st, rec, &f, fire, arg);
	case EV_SIGDLV:
		proc_note_signal(st, rec);
		/* fall through */
	case EV_SIGGEN:
		if (cookie == EV_SIGGEN)
			proc_note_sent(r, st, rec);
		return proc_decode_signal(r, st, rec, (int)cookie, &f, fire, arg);
	case EV_EXITGRP: case EV_EXITTHR:
		/* exit(code) is code << 8 in wait(2)'s status */
		proc_status_set(st, rec->pid, (int32_t)((prov_tp_uint(prov_tp_field(tp,
		    "error_code"), rec->raw, rec->raw_size) & 0xff) << 8), cookie == EV_EXITGRP);
		return 0;
	case EV_EXIT:
		return proc_decode_exit(st, rec, &f, fire, arg);
	default: {
		int64_t ret = (int64_t)prov_tp_uint(prov_tp_field(tp, "ret"), rec->raw, rec->raw_size);
		if (ret >= 0)
			return 0;
		f.df_args[0] = (uint64_t)-ret;
		f.df_nargs = 1;
		return proc_fire(st->probe[PK_EXEC_FAILURE], &f, fire, arg);
	}
	}
}

const struct prov_ops prov_proc_ops = {
	.po_name = "proc", .po_list = proc_list, .po_match = proc_match,
	.po_enable = proc_enable, .po_claim = proc_claim, .po_decode = proc_decode,
};
