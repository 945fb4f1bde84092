/*
 * test_providers_tracefs.c — the providers fed by tracefs events
 * (syscall, tracepoint, proc, io, sysinfo, tcp, and pid's uprobe events)
 * driven without a running session:
 * catalog matching and naming, the events each enables, and decoding of
 * synthetic tracepoint payloads laid out from this machine's tracefs
 * formats.  Tests that need tracefs say so and pass vacuously only when
 * it is absent.
 */
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dcore/dcore.h"
#include "providers/pmcpair.h"
#include "providers/tpbacked.h"
#include "symbolizer/symbolizer.h"
#include "tests/unit/cu.h"

struct collect {
	int n;
	char names[32][200];
	const struct d_probe_info *pi[32];
};

static int
collect_cb(void *arg, const struct d_probe_info *pi)
{
	struct collect *c = arg;
	if (c->n < 32) {
		snprintf(c->names[c->n], sizeof(c->names[0]), "%s:%s:%s:%s", pi->dp_prov,
		    pi->dp_mod, pi->dp_func, pi->dp_name);
		c->pi[c->n] = pi;
	}
	c->n++;
	return 0;
}

static struct prov_registry *
open_registry(struct sym_session *sym)
{
	struct prov_config cfg = { .sym = sym };
	int err = 0;
	struct prov_registry *r = prov_open(&cfg, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	return r;
}

static int
match(struct prov_registry *r, const char *prov, const char *mod, const char *func,
    const char *name, struct collect *c)
{
	struct d_catalog cat = prov_catalog(r);
	struct d_probe_desc pd = { prov, mod, func, name };
	char err[512] = "";
	memset(c, 0, sizeof(*c));
	return cat.dc_match(cat.dc_ctx, &pd, collect_cb, c, err, sizeof(err));
}

static int
have_tracefs(void)
{
	if (access("/sys/kernel/tracing/events/raw_syscalls/sys_exit/format", R_OK) == 0)
		return 1;
	printf("(no readable tracefs: decoding checks skipped) ");
	return 0;
}

/* Every probe enabled, as if the program used them all. */
static int
all_enabled(void *arg, uint32_t id)
{
	(void)arg;
	(void)id;
	return 1;
}

static struct smp_session *
enable_all(struct prov_registry *r)
{
	int err = 0;
	struct smp_session *s = smp_open_live(NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(prov_enable(r, s, all_enabled, NULL), 0);
	return s;
}

static const struct smp_event_spec *
event_named(struct smp_session *s, const char *name)
{
	for (int i = 0; i < smp_nevents(s); i++)
		if (smp_event(s, i)->name && !strcmp(smp_event(s, i)->name, name))
			return smp_event(s, i);
	return NULL;
}

struct fired {
	int n;
	struct d_firing f[4];
};

static int
fire_cb(void *arg, const struct d_firing *f)
{
	struct fired *fd = arg;
	if (fd->n < 4)
		fd->f[fd->n] = *f;
	fd->n++;
	return 0;
}

static int
dispatch(struct prov_registry *r, const struct smp_event_spec *sp, const void *raw,
    uint32_t size, struct fired *fd)
{
	struct smp_record rec;
	memset(&rec, 0, sizeof(rec));
	memset(fd, 0, sizeof(*fd));
	rec.type = PERF_RECORD_SAMPLE;
	rec.spec = sp;
	rec.pid = rec.tid = getpid();
	rec.raw = raw;
	rec.raw_size = size;
	return prov_dispatch(r, &rec, fire_cb, fd);
}

static void
test_syscall_names(void)
{
	struct prov_registry *r = open_registry(NULL);
	struct collect c;
	CU_ASSERT_EQUAL(match(r, "syscall", "", "read", "entry", &c), 1);
	CU_ASSERT_STRING_EQUAL(c.names[0], "syscall::read:entry");
	CU_ASSERT_EQUAL(c.pi[0]->dp_nargs, 6);
	int n = match(r, "syscall", "", "open*", "entry", &c);
	CU_ASSERT(n >= 4);
	for (int i = 0; i < n && i < 32; i++) {
		CU_ASSERT(!strncmp(c.names[i], "syscall::open", 13));
		CU_ASSERT(strstr(c.names[i], ":entry") != NULL);
	}
	CU_ASSERT_EQUAL(match(r, "syscall", "", "openat", "return", &c), 1);
	CU_ASSERT_EQUAL(c.pi[0]->dp_nargs, 2);
	n = match(r, "syscall", "", "", "", &c);
	CU_ASSERT(n >= 700 && n % 2 == 0);
	CU_ASSERT_EQUAL(match(r, "syscall", "", "no_such_call", "", &c), 0);
	CU_ASSERT_EQUAL(match(r, "syscall", "vmlinux", "read", "", &c), 0);
	prov_close(r);
}

/* raw_syscalls:sys_exit carries the number; only enabled ones fire. */
static void
test_syscall_decode_raw(void)
{
	if (!have_tracefs())
		return;
	struct prov_registry *r = open_registry(NULL);
	struct collect c;
	CU_ASSERT(match(r, "syscall", "", "", "return", &c) > 100);
	struct smp_session *s = enable_all(r);
	const struct smp_event_spec *sp = event_named(s, "raw_syscalls:sys_exit");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
	unsigned char raw[24] = { 0 };
	int64_t id = 0, ret = 4096;	/* read returned 4096 */
	memcpy(raw + 8, &id, 8);
	memcpy(raw + 16, &ret, 8);
	struct fired fd;
	CU_ASSERT_EQUAL(dispatch(r, sp, raw, sizeof(raw), &fd), 0);
	CU_ASSERT_EQUAL_FATAL(fd.n, 1);
	CU_ASSERT_STRING_EQUAL(prov_probe(r, fd.f[0].df_probe)->dp_func, "read");
	CU_ASSERT_STRING_EQUAL(prov_probe(r, fd.f[0].df_probe)->dp_name, "return");
	CU_ASSERT_EQUAL(fd.f[0].df_args[0], 4096);
	CU_ASSERT_EQUAL(fd.f[0].df_args[1], 4096);
	id = 100000;	/* no such syscall: filtered, no firing */
	memcpy(raw + 8, &id, 8);
	dispatch(r, sp, raw, sizeof(raw), &fd);
	CU_ASSERT_EQUAL(fd.n, 0);
	id = -1;
	memcpy(raw + 8, &id, 8);
	dispatch(r, sp, raw, sizeof(raw), &fd);
	CU_ASSERT_EQUAL(fd.n, 0);
	dispatch(r, sp, raw, 8, &fd);	/* truncated payload: no crash */
	smp_close(s);
	prov_close(r);
}

/* One syscall: its own syscalls:sys_exit_<name> tracepoint. */
static void
test_syscall_decode_tp(void)
{
	if (!have_tracefs())
		return;
	struct prov_registry *r = open_registry(NULL);
	struct collect c;
	CU_ASSERT_EQUAL(match(r, "syscall", "", "openat", "return", &c), 1);
	struct smp_session *s = enable_all(r);
	CU_ASSERT_PTR_NULL(event_named(s, "raw_syscalls:sys_exit"));
	const struct smp_event_spec *sp = event_named(s, "syscalls:sys_exit_openat");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
	unsigned char raw[24] = { 0 };
	int64_t ret = -2;
	memcpy(raw + 16, &ret, 8);
	struct fired fd;
	dispatch(r, sp, raw, sizeof(raw), &fd);
	CU_ASSERT_EQUAL_FATAL(fd.n, 1);
	CU_ASSERT_EQUAL((int64_t)fd.f[0].df_args[0], -2);
	smp_close(s);
	prov_close(r);
}

/* tracepoint:sched:sched_switch (D reads it as module "tracepoint") names
 * the same probe as tracepoint:sched::sched_switch. */
static void
test_tracepoint_names(void)
{
	if (!have_tracefs())
		return;
	struct prov_registry *r = open_registry(NULL);
	struct collect c;
	CU_ASSERT_EQUAL_FATAL(match(r, "", "tracepoint", "sched", "sched_switch", &c), 1);
	CU_ASSERT_STRING_EQUAL(c.names[0], "tracepoint:sched::sched_switch");
	uint32_t id = c.pi[0]->dp_id;
	CU_ASSERT_STRING_EQUAL(c.pi[0]->dp_argtypes[0], "string");	/* prev_comm */
	CU_ASSERT_EQUAL(match(r, "tracepoint", "sched", "", "sched_switch", &c), 1);
	CU_ASSERT_EQUAL(c.pi[0]->dp_id, id);
	CU_ASSERT(match(r, "tracepoint", "sched", "", "sched_*", &c) > 5);
	CU_ASSERT_EQUAL(match(r, "tracepoint", "ftrace", "", "", &c), 0);
	CU_ASSERT_EQUAL(match(r, "", "tracepoint", "nosuchgroup", "x", &c), 0);
	prov_close(r);
}

/* Fields become args in format order, strings included. */
static void
test_tracepoint_decode(void)
{
	if (!have_tracefs())
		return;
	struct prov_registry *r = open_registry(NULL);
	struct collect c;
	struct prov_tp tp;
	CU_ASSERT_EQUAL_FATAL(match(r, "", "tracepoint", "sched", "sched_process_fork", &c), 1);
	CU_ASSERT_EQUAL_FATAL(prov_tp_load(r, "sched", "sched_process_fork", &tp), 0);
	struct smp_session *s = enable_all(r);
	const struct smp_event_spec *sp = event_named(s, "sched:sched_process_fork");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
	unsigned char raw[256] = { 0 };
	const struct prov_tp_field *pc = prov_tp_field(&tp, "parent_comm");
	const struct prov_tp_field *pp = prov_tp_field(&tp, "parent_pid");
	CU_ASSERT_PTR_NOT_NULL_FATAL(pc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pp);
	if (pc->is_dataloc) {	/* u32: length << 16 | offset */
		uint32_t loc = (6u << 16) | 200;
		memcpy(raw + pc->offset, &loc, 4);
		memcpy(raw + 200, "bash\0", 6);
	} else {
		memcpy(raw + pc->offset, "bash", 5);
	}
	int32_t ppid = 4242;
	memcpy(raw + pp->offset, &ppid, 4);
	struct fired fd;
	dispatch(r, sp, raw, sizeof(raw), &fd);
	CU_ASSERT_EQUAL_FATAL(fd.n, 1);
	CU_ASSERT_EQUAL(fd.f[0].df_args[1], 4242);
	smp_close(s);
	prov_close(r);
}

/* Strings must be read during the firing: check inside the callback. */
static int
exec_cb(void *arg, const struct d_firing *f)
{
	int *ok = arg;
	if (f->df_nargs == 1 && !strcmp((const char *)(uintptr_t)f->df_args[0], "/usr/bin/p13prog") &&
	    f->df_execname && !strcmp(f->df_execname, "p13prog"))
		ok[0]++;
	if (f->df_nargs == 0 && f->df_execname && !strcmp(f->df_execname, "p13prog")) {
		struct d_procinfo pi;
		memset(&pi, 0, sizeof(pi));
		/* the process is gone: curpsinfo falls back to the exec path */
		f->df_procinfo(f->df_procinfo_ctx, 0x7ffffff0, &pi);
		if (!strcmp(pi.pi_psargs, "/usr/bin/p13prog") && !strcmp(pi.pi_fname, "p13prog"))
			ok[1]++;
	}
	return 0;
}

static void
test_proc_exec(void)
{
	if (!have_tracefs())
		return;
	struct prov_registry *r = open_registry(NULL);
	struct collect c;
	struct prov_tp tp;
	CU_ASSERT_EQUAL(match(r, "proc", "", "", "exec*", &c), 3);
	CU_ASSERT_EQUAL_FATAL(prov_tp_load(r, "sched", "sched_process_exec", &tp), 0);
	struct smp_session *s = enable_all(r);
	const struct smp_event_spec *sp = event_named(s, "sched:sched_process_exec");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
	unsigned char raw[256] = { 0 };
	const struct prov_tp_field *fn = prov_tp_field(&tp, "filename");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fn);
	uint32_t loc = (17u << 16) | 100;
	memcpy(raw + fn->offset, &loc, 4);
	memcpy(raw + 100, "/usr/bin/p13prog", 17);
	struct smp_record rec;
	memset(&rec, 0, sizeof(rec));
	rec.type = PERF_RECORD_SAMPLE;
	rec.spec = sp;
	rec.pid = rec.tid = 0x7ffffff0;
	rec.raw = raw;
	rec.raw_size = sizeof(raw);
	int ok[2] = { 0, 0 };
	prov_dispatch(r, &rec, exec_cb, ok);
	CU_ASSERT_EQUAL(ok[0], 1);	/* exec: path, new execname */
	CU_ASSERT_EQUAL(ok[1], 1);	/* exec-success: psinfo fallback */
	smp_close(s);
	prov_close(r);
}

/* One tracepoint record of sched:name with fields set (int-sized, or
 * 8 bytes for error_code, or 1 for group_dead), dispatched as pid. */
static void
proc_exit_event(struct prov_registry *r, struct smp_session *s, const char *sys,
    const char *name, int32_t pid, const char *field, int64_t val, const char *field2,
    int64_t val2, struct fired *fd)
{
	struct prov_tp tp;
	char full[100];
	CU_ASSERT_EQUAL_FATAL(prov_tp_load(r, sys, name, &tp), 0);
	snprintf(full, sizeof(full), "%s:%s", sys, name);
	const struct smp_event_spec *sp = event_named(s, full);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
	unsigned char raw[128] = { 0 };
	const char *fields[2] = { field, field2 };
	int64_t vals[2] = { val, val2 };
	for (int i = 0; i < 2 && fields[i]; i++) {
		const struct prov_tp_field *f = prov_tp_field(&tp, fields[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		memcpy(raw + f->offset, &vals[i], f->size < 8 ? f->size : 8);
	}
	struct smp_record rec;
	memset(&rec, 0, sizeof(rec));
	rec.type = PERF_RECORD_SAMPLE;
	rec.spec = sp;
	rec.pid = rec.tid = pid;
	rec.raw = raw;
	rec.raw_size = sizeof(raw);
	prov_dispatch(r, &rec, fire_cb, fd);
}

/* proc:::exit's args: the code from exit_group, a fatal signal, or -1. */
static void
test_proc_exit_code(void)
{
	if (!have_tracefs() ||
	    access("/sys/kernel/tracing/events/syscalls/sys_enter_exit_group/format", R_OK))
		return;
	struct prov_registry *r = open_registry(NULL);
	struct collect c;
	CU_ASSERT_EQUAL(match(r, "proc", "", "", "exit", &c), 1);
	CU_ASSERT_EQUAL(c.pi[0]->dp_nargs, 2);
	struct smp_session *s = enable_all(r);
	struct fired fd = { 0 };
	int32_t p = 0x7ffffff1;
	proc_exit_event(r, s, "syscalls", "sys_enter_exit_group", p, "error_code", 3, NULL, 0, &fd);
	CU_ASSERT_EQUAL(fd.n, 0);
	proc_exit_event(r, s, "sched", "sched_process_exit", p, "group_dead", 1, NULL, 0, &fd);
	CU_ASSERT_EQUAL_FATAL(fd.n, 2);	/* lwp-exit, exit */
	CU_ASSERT_EQUAL(fd.f[1].df_nargs, 2);
	CU_ASSERT_EQUAL((int64_t)fd.f[1].df_args[0], 3);
	CU_ASSERT_EQUAL((int64_t)fd.f[1].df_args[1], 3 << 8);
	/* SIGSEGV at its default action; the SIGKILL that follows for the
	 * other threads does not replace it */
	memset(&fd, 0, sizeof(fd));
	proc_exit_event(r, s, "signal", "signal_deliver", p, "sig", SIGSEGV, NULL, 0, &fd);
	proc_exit_event(r, s, "signal", "signal_deliver", p, "sig", SIGKILL, NULL, 0, &fd);
	/* a handled signal is not fatal */
	proc_exit_event(r, s, "signal", "signal_deliver", p, "sig", SIGTERM, "sa_handler", 0x1000, &fd);
	CU_ASSERT_EQUAL(fd.n, 3);	/* signal-handle thrice */
	memset(&fd, 0, sizeof(fd));
	proc_exit_event(r, s, "sched", "sched_process_exit", p, "group_dead", 1, NULL, 0, &fd);
	CU_ASSERT_EQUAL_FATAL(fd.n, 2);
	CU_ASSERT_EQUAL((int64_t)fd.f[1].df_args[0], 128 + SIGSEGV);
	CU_ASSERT_EQUAL((int64_t)fd.f[1].df_args[1], SIGSEGV);
	/* nothing seen: -1 */
	memset(&fd, 0, sizeof(fd));
	proc_exit_event(r, s, "sched", "sched_process_exit", p, "group_dead", 1, NULL, 0, &fd);
	CU_ASSERT_EQUAL_FATAL(fd.n, 2);
	CU_ASSERT_EQUAL((int64_t)fd.f[1].df_args[0], -1);
	CU_ASSERT_EQUAL((int64_t)fd.f[1].df_args[1], -1);
	smp_close(s);
	prov_close(r);
}

/* module-load: what one firing carried, copied while it fired. */
struct modload {
	int n;
	int32_t pid, tid;
	int nargs;
	char path[256];
	uint64_t addr, len, off;
	uint32_t probe;
};

static int
modload_cb(void *arg, const struct d_firing *f)
{
	struct modload *m = arg;
	m->n++;
	m->pid = f->df_pid;
	m->tid = f->df_tid;
	m->nargs = (int)f->df_nargs;
	m->probe = f->df_probe;
	snprintf(m->path, sizeof(m->path), "%s", (const char *)(uintptr_t)f->df_args[0]);
	m->addr = f->df_args[1];
	m->len = f->df_args[2];
	m->off = f->df_args[3];
	return 0;
}

/* A side-band record as the kernel lays it out: header, fixed part,
 * NUL-padded name, then the sample_id trailer (here TID and TIME). */
static size_t
mmap_record(unsigned char *buf, uint32_t type, uint16_t misc, int32_t pid, int32_t tid,
    uint64_t addr, uint64_t len, uint64_t pgoff, uint32_t prot, const char *name, uint64_t time)
{
	size_t at = 8, nl = strlen(name) + 1;
	memset(buf, 0, 512);
	memcpy(buf + at, &pid, 4);
	memcpy(buf + at + 4, &tid, 4);
	memcpy(buf + at + 8, &addr, 8);
	memcpy(buf + at + 16, &len, 8);
	memcpy(buf + at + 24, &pgoff, 8);
	at += 32;
	if (type == PERF_RECORD_MMAP2) {
		uint32_t flags = 2;	/* MAP_PRIVATE */
		at += 24;		/* maj, min, ino, ino_generation */
		memcpy(buf + at, &prot, 4);
		memcpy(buf + at + 4, &flags, 4);
		at += 8;
	}
	memcpy(buf + at, name, nl);
	at += (nl + 7) & ~(size_t)7;
	memcpy(buf + at, &pid, 4);
	memcpy(buf + at + 4, &tid, 4);
	memcpy(buf + at + 8, &time, 8);
	at += 16;
	struct perf_event_header h = { type, misc, (uint16_t)at };
	memcpy(buf, &h, sizeof(h));
	return at;
}

static int
mmap_dispatch(struct prov_registry *r, const unsigned char *buf, struct modload *m)
{
	struct perf_event_header h;
	struct smp_record rec;
	memcpy(&h, buf, sizeof(h));
	memset(&rec, 0, sizeof(rec));
	memset(m, 0, sizeof(*m));
	rec.type = h.type;
	rec.misc = h.misc;
	rec.hdr = (const struct perf_event_header *)buf;
	memcpy(&rec.pid, buf + h.size - 16, 4);
	memcpy(&rec.tid, buf + h.size - 12, 4);
	memcpy(&rec.time, buf + h.size - 8, 8);
	rec.evidx = -1;
	return prov_dispatch(r, &rec, modload_cb, m);
}

static void
test_proc_module_load(void)
{
	struct prov_config cfg = { .replay = 1 };	/* no events to open */
	int err = 0;
	struct prov_registry *r = prov_open(&cfg, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	struct collect c;
	CU_ASSERT_EQUAL_FATAL(match(r, "proc", "", "", "module-load", &c), 1);
	const struct d_probe_info *pi = c.pi[0];
	CU_ASSERT_EQUAL(pi->dp_nargs, 4);
	CU_ASSERT_STRING_EQUAL(pi->dp_argtypes[0], "string");
	CU_ASSERT_STRING_EQUAL(pi->dp_argtypes[1], "uintptr_t");
	CU_ASSERT_STRING_EQUAL(pi->dp_argtypes[2], "size_t");
	CU_ASSERT_STRING_EQUAL(pi->dp_argtypes[3], "uint64_t");
	CU_ASSERT_EQUAL(prov_enable(r, NULL, all_enabled, NULL), 0);
	unsigned char buf[512] __attribute__((aligned(8)));
	struct modload m;
	const uint16_t user = PERF_RECORD_MISC_USER;

	/* a shared object's text, as ld.so maps it */
	mmap_record(buf, PERF_RECORD_MMAP2, user, 4242, 4243, 0x7f0000010000ull, 0x74000, 0x10000,
	    PROT_READ | PROT_EXEC, "/usr/lib/x86_64-linux-gnu/libm.so.6", 1000);
	CU_ASSERT_EQUAL(mmap_dispatch(r, buf, &m), 0);
	CU_ASSERT_EQUAL_FATAL(m.n, 1);
	CU_ASSERT_EQUAL(m.probe, pi->dp_id);
	CU_ASSERT_EQUAL(m.pid, 4242);
	CU_ASSERT_EQUAL(m.tid, 4243);
	CU_ASSERT_EQUAL(m.nargs, 4);
	CU_ASSERT_STRING_EQUAL(m.path, "/usr/lib/x86_64-linux-gnu/libm.so.6");
	CU_ASSERT_EQUAL(m.addr, 0x7f0000010000ull);
	CU_ASSERT_EQUAL(m.len, 0x74000);
	CU_ASSERT_EQUAL(m.off, 0x10000);

	/* its data segment: not executable, no firing */
	mmap_record(buf, PERF_RECORD_MMAP2, user, 4242, 4242, 0x7f0000090000ull, 0x2000, 0x80000,
	    PROT_READ | PROT_WRITE, "/usr/lib/x86_64-linux-gnu/libm.so.6", 1001);
	mmap_dispatch(r, buf, &m);
	CU_ASSERT_EQUAL(m.n, 0);
	/* anonymous executable memory (a JIT) and the kernel's own map */
	mmap_record(buf, PERF_RECORD_MMAP2, user, 4242, 4242, 0x10000, 0x1000, 0,
	    PROT_READ | PROT_EXEC, "//anon", 1002);
	mmap_dispatch(r, buf, &m);
	CU_ASSERT_EQUAL(m.n, 0);
	mmap_record(buf, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, -1, 0, 0xffffffff81000000ull,
	    0x1000000, 0, 0, "[kernel.kallsyms]_text", 1003);
	mmap_dispatch(r, buf, &m);
	CU_ASSERT_EQUAL(m.n, 0);
	/* a mapping a recording synthesized from /proc at its start */
	mmap_record(buf, PERF_RECORD_MMAP2, user, 4242, 4242, 0x400000, 0x1000, 0,
	    PROT_READ | PROT_EXEC, "/usr/bin/old", 0);
	mmap_dispatch(r, buf, &m);
	CU_ASSERT_EQUAL(m.n, 0);
	/* a name that runs off the record is refused, not read past */
	size_t sz = mmap_record(buf, PERF_RECORD_MMAP2, user, 4242, 4242, 0x400000, 0x1000, 0,
	    PROT_READ | PROT_EXEC, "/usr/bin/x", 1004);
	memset(buf + 72, 'a', sz - 72);
	mmap_dispatch(r, buf, &m);
	CU_ASSERT_EQUAL(m.n, 0);
	/* the vdso is an ELF object too */
	mmap_record(buf, PERF_RECORD_MMAP2, user, 4242, 4242, 0x7ffd0000ull, 0x2000, 0,
	    PROT_READ | PROT_EXEC, "[vdso]", 1005);
	mmap_dispatch(r, buf, &m);
	CU_ASSERT_EQUAL(m.n, 1);
	CU_ASSERT_STRING_EQUAL(m.path, "[vdso]");
	/* old-style MMAP (no prot): exec unless marked as data */
	mmap_record(buf, PERF_RECORD_MMAP, user, 77, 78, 0x400000, 0x5000, 0x1000, 0, "/bin/prog", 1006);
	mmap_dispatch(r, buf, &m);
	CU_ASSERT_EQUAL(m.n, 1);
	CU_ASSERT_STRING_EQUAL(m.path, "/bin/prog");
	CU_ASSERT_EQUAL(m.pid, 77);
	CU_ASSERT_EQUAL(m.len, 0x5000);
	mmap_record(buf, PERF_RECORD_MMAP, user | PERF_RECORD_MISC_MMAP_DATA, 77, 78, 0x600000,
	    0x5000, 0x1000, 0, "/bin/prog", 1007);
	mmap_dispatch(r, buf, &m);
	CU_ASSERT_EQUAL(m.n, 0);
	prov_close(r);

	/* not enabled: nothing fires */
	r = prov_open(&cfg, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(match(r, "proc", "", "", "module-load", &c), 1);
	mmap_record(buf, PERF_RECORD_MMAP2, user, 4242, 4242, 0x400000, 0x1000, 0,
	    PROT_READ | PROT_EXEC, "/usr/bin/new", 1008);
	mmap_dispatch(r, buf, &m);
	CU_ASSERT_EQUAL(m.n, 0);
	prov_close(r);
}

static void
test_io_vminfo_sysinfo_names(void)
{
	struct prov_registry *r = open_registry(NULL);
	struct collect c;
	CU_ASSERT_EQUAL(match(r, "io", "", "", "", &c), 2);
	CU_ASSERT_EQUAL(match(r, "vminfo", "", "", "", &c), 4);
	CU_ASSERT_EQUAL(match(r, "sysinfo", "", "", "*ch", &c), 2);
	CU_ASSERT_EQUAL(match(r, "tcp", "", "", "", &c), 7);
	CU_ASSERT_EQUAL(match(r, "udp", "", "", "", &c), 2);
	CU_ASSERT_EQUAL(match(r, "proc", "", "", "", &c), 12);
	CU_ASSERT_EQUAL(match(r, "proc", "", "", "signal-*", &c), 2);
	prov_close(r);
}

/* tcpip and udpip name tcp's and udp's probes: the same ids, each once
 * for a glob covering both names. */
static void
test_tcpip_udpip_alias(void)
{
	struct prov_registry *r = open_registry(NULL);
	struct collect c;
	CU_ASSERT_EQUAL_FATAL(match(r, "tcp", "", "", "send", &c), 1);
	uint32_t id = c.pi[0]->dp_id;
	CU_ASSERT_EQUAL_FATAL(match(r, "tcpip", "", "", "send", &c), 1);
	CU_ASSERT_EQUAL(c.pi[0]->dp_id, id);
	CU_ASSERT_STRING_EQUAL(c.names[0], "tcp:::send");
	CU_ASSERT_EQUAL(match(r, "tcp*", "", "", "send", &c), 1);
	CU_ASSERT_EQUAL(match(r, "tcpip", "", "", "", &c), 7);
	CU_ASSERT_EQUAL(match(r, "udpip", "", "", "", &c), 2);
	CU_ASSERT_EQUAL(match(r, "*ip", "", "", "receive", &c), 2);
	CU_ASSERT_EQUAL(match(r, "tcpipx", "", "", "", &c), 0);
	/* a probe alias: pf:::hardflt is vminfo:::maj_fault, "*" names it once */
	CU_ASSERT_EQUAL_FATAL(match(r, "vminfo", "", "", "maj_fault", &c), 1);
	id = c.pi[0]->dp_id;
	CU_ASSERT_EQUAL_FATAL(match(r, "pf", "", "", "hardflt", &c), 1);
	CU_ASSERT_EQUAL(c.pi[0]->dp_id, id);
	CU_ASSERT_EQUAL(match(r, "pf", "", "", "*", &c), 1);
	CU_ASSERT_EQUAL(match(r, "pf", "", "", "maj_fault", &c), 0);
	CU_ASSERT_EQUAL(match(r, "*", "", "", "maj_fault", &c), 1);
	CU_ASSERT_EQUAL(match(r, "*", "", "", "hardflt", &c), 1);
	prov_close(r);
}

/* diag: a LOST record fires lostevent with its count, THROTTLE throttle
 * with the event's name, a user-mode sample without user frames
 * missed-ustack (when ustack() is wanted). */
static void
test_diag_records(void)
{
	struct prov_config cfg = { .want_callchains = 2 };
	int err = 0;
	struct prov_registry *r = prov_open(&cfg, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	struct collect c;
	CU_ASSERT_EQUAL(match(r, "diag", "", "", "", &c), 4);
	CU_ASSERT_EQUAL(match(r, "diag", "", "", "missed-*", &c), 2);
	struct smp_session *s = enable_all(r);
	struct smp_event_spec spec;
	memset(&spec, 0, sizeof(spec));
	spec.name = "profile-997";
	spec.attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	struct smp_record rec;
	memset(&rec, 0, sizeof(rec));
	rec.type = PERF_RECORD_LOST;
	rec.period = 5;
	rec.cpu = 1;
	struct fired fd = { 0 };
	prov_dispatch(r, &rec, fire_cb, &fd);
	CU_ASSERT_EQUAL_FATAL(fd.n, 1);
	CU_ASSERT_EQUAL(fd.f[0].df_args[0], 5);
	rec.type = PERF_RECORD_THROTTLE;
	rec.spec = &spec;
	memset(&fd, 0, sizeof(fd));
	prov_dispatch(r, &rec, fire_cb, &fd);
	CU_ASSERT_EQUAL_FATAL(fd.n, 1);
	CU_ASSERT_STRING_EQUAL((const char *)(uintptr_t)fd.f[0].df_args[0], "profile-997");
	/* user mode, callchain with a user marker and no frame */
	uint64_t chain[1] = { (uint64_t)PERF_CONTEXT_USER };
	rec.type = PERF_RECORD_SAMPLE;
	rec.misc = PERF_RECORD_MISC_USER;
	rec.callchain = chain;
	rec.nr_callchain = 1;
	memset(&fd, 0, sizeof(fd));
	prov_dispatch(r, &rec, fire_cb, &fd);
	CU_ASSERT_EQUAL_FATAL(fd.n, 1);
	CU_ASSERT_EQUAL(fd.f[0].df_args[0], 0);
	/* a whole user stack: nothing missed */
	uint64_t full[3] = { (uint64_t)PERF_CONTEXT_USER, 0x401000, 0x401100 };
	rec.callchain = full;
	rec.nr_callchain = 3;
	memset(&fd, 0, sizeof(fd));
	prov_dispatch(r, &rec, fire_cb, &fd);
	CU_ASSERT_EQUAL(fd.n, 0);
	smp_close(s);
	prov_close(r);
}

/* A function of this very program, for the pid provider to find. */
__attribute__((noinline)) int p13_probe_target(int x);
__attribute__((noinline)) int
p13_probe_target(int x)
{
	return x * 3;
}

static void
test_pid_self(void)
{
	int err = 0;
	struct sym_session *sym = sym_open(&err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sym);
	struct prov_registry *r = open_registry(sym);
	struct collect c;
	char prov[32];
	snprintf(prov, sizeof(prov), "pid%d", (int)getpid());
	CU_ASSERT_EQUAL_FATAL(match(r, prov, "a.out", "p13_probe_target", "", &c), 2);
	char want[128];
	snprintf(want, sizeof(want), "%s:a.out:p13_probe_target:entry", prov);
	CU_ASSERT(!strcmp(c.names[0], want) || !strcmp(c.names[1], want));
	CU_ASSERT_EQUAL(match(r, prov, "a.out", "p13_probe_target", "return", &c), 1);
	CU_ASSERT_EQUAL(c.pi[0]->dp_nargs, 2);
	CU_ASSERT_EQUAL(match(r, prov, "a.out", "p13_probe_target", "0", &c), 1);
	CU_ASSERT_EQUAL(match(r, "pid", "", "", "", &c), 0);	/* no process named */
	CU_ASSERT_EQUAL(match(r, "pid1x", "", "", "", &c), 0);
	CU_ASSERT_EQUAL(p13_probe_target(2), 6);
	prov_close(r);
	sym_close(sym);
}

/* The whole path: a D program compiled against the registry, one
 * synthetic record of event evname decoded and fired into the engine;
 * returns what the program printed (static buffer). */
struct dctx {
	d_hdl_t *dh;
};

static int
d_enabled(void *arg, uint32_t id)
{
	return d_probe_enabled(((struct dctx *)arg)->dh, id);
}

static int
d_fire_cb(void *arg, const struct d_firing *f)
{
	return d_fire(((struct dctx *)arg)->dh, f);
}

static const char *
run_d(const char *prog, const char *evname, const void *raw, uint32_t size)
{
	static char out[4096];
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int err = 0;
	struct dctx dc;
	out[0] = '\0';
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	dc.dh = d_open("pmctrace", fp, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dc.dh);
	d_setopt(dc.dh, "quiet", NULL);
	struct prov_registry *r = open_registry(NULL);
	struct d_catalog cat = prov_catalog(r);
	d_set_catalog(dc.dh, &cat);
	if (d_compile(dc.dh, prog, NULL) != 0) {
		printf("\ncompile: %s\n", d_errmsg(dc.dh));
		CU_FAIL("compile");
	} else {
		struct smp_session *s = smp_open_live(NULL, &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		CU_ASSERT_EQUAL(prov_enable(r, s, d_enabled, &dc), 0);
		const struct smp_event_spec *sp = event_named(s, evname);
		CU_ASSERT_PTR_NOT_NULL(sp);
		CU_ASSERT_EQUAL(d_go(dc.dh), 0);
		if (sp) {
			struct smp_record rec;
			memset(&rec, 0, sizeof(rec));
			rec.type = PERF_RECORD_SAMPLE;
			rec.spec = sp;
			rec.pid = rec.tid = getpid();
			rec.raw = raw;
			rec.raw_size = size;
			prov_dispatch(r, &rec, d_fire_cb, &dc);
		}
		d_stop(dc.dh);
		smp_close(s);
	}
	d_close(dc.dh);
	prov_close(r);
	fclose(fp);
	snprintf(out, sizeof(out), "%s", buf ? buf : "");
	free(buf);
	return out;
}

static void
put(unsigned char *raw, const struct prov_tp *tp, const char *name, const void *v, size_t n)
{
	const struct prov_tp_field *f = prov_tp_field(tp, name);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	memcpy(raw + f->offset, v, n < f->size ? n : f->size);
}

/* bufinfo_t/devinfo_t/fileinfo_t as D lays them out (C mirrors agree). */
static void
test_io_typed(void)
{
	if (!have_tracefs())
		return;
	struct prov_registry *r = open_registry(NULL);
	struct prov_tp tp;
	CU_ASSERT_EQUAL_FATAL(prov_tp_load(r, "block", "block_rq_issue", &tp), 0);
	prov_close(r);
	unsigned char raw[128] = { 0 };
	uint32_t dev = (7u << 20) | 3;	/* loop3, or a number without a disk */
	uint64_t sector = 123456;
	uint32_t bytes = 65536;
	put(raw, &tp, "dev", &dev, 4);
	put(raw, &tp, "sector", &sector, 8);
	put(raw, &tp, "bytes", &bytes, 4);
	put(raw, &tp, "rwbs", "WS", 3);
	const char *out = run_d("io:::start { printf(\"%d %d %d %d %d %s %d\\n\", args[0]->b_bcount, "
	    "args[0]->b_blkno, args[0]->b_flags & B_WRITE ? 1 : 0, args[0]->b_flags & B_ASYNC ? 1 : 0, "
	    "args[1]->dev_major, args[2]->fi_name, args[2]->fi_offset); }",
	    "block:block_rq_issue", raw, sizeof(raw));
	CU_ASSERT_STRING_EQUAL(out, "65536 123456 1 0 7 <none> -1\n\n");
}

/* tcpsinfo_t/ipinfo_t/tcpinfo_t from a state change. */
static void
test_tcp_typed(void)
{
	if (!have_tracefs() || access("/sys/kernel/tracing/events/sock/inet_sock_set_state", R_OK) != 0)
		return;
	struct prov_registry *r = open_registry(NULL);
	struct prov_tp tp;
	CU_ASSERT_EQUAL_FATAL(prov_tp_load(r, "sock", "inet_sock_set_state", &tp), 0);
	prov_close(r);
	unsigned char raw[128] = { 0 };
	uint64_t sk = 0xffff888012345600ull;
	int32_t old = 2, nst = 1;	/* SYN_SENT -> ESTABLISHED */
	uint16_t sport = 40000, dport = 80, family = 2, proto = 6;
	unsigned char sa[4] = { 10, 0, 0, 1 }, da[4] = { 192, 168, 1, 9 };
	put(raw, &tp, "skaddr", &sk, 8);
	put(raw, &tp, "oldstate", &old, 4);
	put(raw, &tp, "newstate", &nst, 4);
	put(raw, &tp, "sport", &sport, 2);
	put(raw, &tp, "dport", &dport, 2);
	put(raw, &tp, "family", &family, 2);
	put(raw, &tp, "protocol", &proto, 2);
	put(raw, &tp, "saddr", sa, 4);
	put(raw, &tp, "daddr", da, 4);
	const char *out = run_d("tcp:::connect-established { printf(\"%s %s %d %d %d %d %d %d\\n\", "
	    "args[2]->ip_saddr, args[3]->tcps_raddr, args[4]->tcp_sport, args[3]->tcps_rport, "
	    "args[3]->tcps_state == TCP_STATE_ESTABLISHED, args[3]->tcps_active, args[2]->ip_ver, "
	    "args[5]->tcps_state); }",
	    "sock:inet_sock_set_state", raw, sizeof(raw));
	if (strcmp(out, "10.0.0.1 192.168.1.9 40000 80 1 1 4 -2\n\n"))
		printf("\n[%s]\n", out);
	CU_ASSERT_STRING_EQUAL(out, "10.0.0.1 192.168.1.9 40000 80 1 1 4 -2\n\n");
}

/* Bare args on a tracepoint, with a data_loc string and an int field. */
static void
test_tracepoint_typed(void)
{
	if (!have_tracefs())
		return;
	struct prov_registry *r = open_registry(NULL);
	struct prov_tp tp;
	CU_ASSERT_EQUAL_FATAL(prov_tp_load(r, "sched", "sched_process_fork", &tp), 0);
	prov_close(r);
	unsigned char raw[256] = { 0 };
	const struct prov_tp_field *pc = prov_tp_field(&tp, "parent_comm");
	CU_ASSERT_PTR_NOT_NULL_FATAL(pc);
	if (pc->is_dataloc) {
		uint32_t loc = (6u << 16) | 200;
		memcpy(raw + pc->offset, &loc, 4);
		memcpy(raw + 200, "bash\0", 6);
	} else {
		memcpy(raw + pc->offset, "bash", 5);
	}
	int32_t child = 777;
	put(raw, &tp, "child_pid", &child, 4);
	const char *out = run_d("tracepoint:sched:sched_process_fork { @[args->parent_comm, args->child_pid] = count(); }",
	    "sched:sched_process_fork", raw, sizeof(raw));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "bash"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "777"));
}

static const struct cu_test tests[] = {
	{ "syscall names and globs", test_syscall_names },
	{ "syscall raw decode and filter", test_syscall_decode_raw },
	{ "syscall per-syscall tracepoint", test_syscall_decode_tp },
	{ "tracepoint names", test_tracepoint_names },
	{ "tracepoint fields as args", test_tracepoint_decode },
	{ "proc exec and psinfo fallback", test_proc_exec },
	{ "proc module-load from mmap records", test_proc_module_load },
	{ "proc exit code and status", test_proc_exit_code },
	{ "io vminfo sysinfo tcp udp proc probes", test_io_vminfo_sysinfo_names },
	{ "tcpip and udpip are tcp's and udp's probes", test_tcpip_udpip_alias },
	{ "diag probes from lost, throttle and sample records", test_diag_records },
	{ "pid provider on itself", test_pid_self },
	{ "io typed args through D", test_io_typed },
	{ "tcp typed args through D", test_tcp_typed },
	{ "tracepoint args-> through D", test_tracepoint_typed },
	{ NULL, NULL },
};

CU_MAIN("providers_tracefs", tests)
