/*
 * test_sampler_live.c — live sessions on this machine: cpu-clock on every
 * CPU, a sched_switch tracepoint with RAW payloads, a group read led by
 * cpu-clock (msr/tsc/ where the msr PMU exists), a per-task session that
 * ends when its target exits, a task event opened before the session
 * starts (SMP_TASK, smp_open_now), error messages, and recording a perf.data
 * file that perf script reads.
 */
#include "sampler/sampler.h"
#include "tests/unit/cu.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct live {
	long samples, mine, raws, reads, disorder, lost, other_pid, other_type;
	int32_t pid;
	uint16_t tp_id;
	uint64_t last, tsc_delta, clock_delta;
	int cpus_seen[64];
	int bad_raw;
};

static int
live_cb(void *arg, const struct smp_record *r)
{
	struct live *l = arg;
	if (r->type == PERF_RECORD_LOST)
		l->lost += (long)r->period;
	if (r->type != PERF_RECORD_SAMPLE)
		return 0;
	l->samples++;
	l->mine += r->pid == l->pid;
	if (l->pid && r->pid != l->pid)
		l->other_pid++;
	if (r->time < l->last)
		l->disorder++;
	l->last = r->time;
	if (r->cpu < 64)
		l->cpus_seen[r->cpu] = 1;
	if (r->evidx != 0)
		l->other_type++;
	if (r->raw) {
		uint16_t common_type;
		l->raws++;
		memcpy(&common_type, r->raw, 2);
		l->bad_raw += r->raw_size < 8 || common_type != l->tp_id;
	}
	if (r->read && r->read->nr == 2) {
		l->reads++;
		l->clock_delta += r->read->v[0].delta;
		l->tsc_delta += r->read->v[1].delta;
	}
	return 0;
}

/* Size of the largest perf ring mapped into this process. */
static unsigned long long
perf_map_bytes(void)
{
	char line[512];
	unsigned long long lo, hi, best = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "perf_event") && sscanf(line, "%llx-%llx", &lo, &hi) == 2 && hi - lo > best)
			best = hi - lo;
	if (f)
		fclose(f);
	return best;
}

static uint64_t
now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* CPU time of this thread: spinning for CPU time rather than wall time
 * keeps sample counts steady when other work shares the machine. */
static uint64_t
cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* Busy-loop for ms milliseconds of CPU, polling the session as we go. */
static void
spin_and_poll(struct smp_session *s, int ms, struct live *l)
{
	volatile uint64_t x = 0;
	uint64_t end = cpu_ns() + (uint64_t)ms * 1000000ULL;
	while (cpu_ns() < end) {
		for (int i = 0; i < 200000; i++)
			x += (uint64_t)i;
		CU_ASSERT(smp_poll(s, 0, live_cb, l) >= 0);
	}
	/* System-wide there is always more: drain a bounded number of rounds. */
	for (int i = 0; i < 3; i++)
		smp_poll(s, 0, live_cb, l);
	smp_flush(s, live_cb, l);
}

static struct smp_event_spec
clock_spec(uint64_t period_ns)
{
	struct smp_event_spec sp;
	memset(&sp, 0, sizeof(sp));
	sp.attr.type = PERF_TYPE_SOFTWARE;
	sp.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	sp.attr.sample_period = period_ns;
	sp.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	sp.group_leader = -1;
	sp.name = "cpu-clock";
	return sp;
}

static struct smp_session *
open_live(void)
{
	struct smp_opts o;
	int err = 0;
	memset(&o, 0, sizeof(o));
	struct smp_session *s = smp_open_live(&o, &err);
	if (!s)
		fprintf(stderr, "smp_open_live: %s\n", smp_errmsg(NULL));
	return s;
}

static void
test_cpu_clock_all_cpus(void)
{
	struct live l = { .pid = getpid() };
	struct smp_session *s = open_live();
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct smp_event_spec sp = clock_spec(1000000);
	int ev = -1;
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &sp, &ev), 0);
	CU_ASSERT_EQUAL(ev, 0);
	int rc = smp_start(s);
	if (rc)
		fprintf(stderr, "smp_start: %s\n", smp_errmsg(s));
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	/* 1000 samples/s with callchains needs little: the 256 KiB floor. */
	CU_ASSERT_EQUAL(perf_map_bytes(), (256ULL << 10) + (unsigned long long)sysconf(_SC_PAGESIZE));
	spin_and_poll(s, 200, &l);
	/* 200 ms of CPU under a 1 ms clock: about 200 samples are ours. */
	CU_ASSERT(l.mine > 120);
	CU_ASSERT(l.samples >= l.mine);
	CU_ASSERT_EQUAL(l.disorder, 0);
	CU_ASSERT_EQUAL(smp_add_event(s, &sp, &ev), -EBUSY);
	smp_close(s);
}

static int
read_int_file(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static void *
pingpong(void *arg)
{
	int *fds = arg;
	char c;
	while (read(fds[0], &c, 1) == 1 && c)
		if (write(fds[1], &c, 1) != 1)
			break;
	return NULL;
}

static void
test_sched_switch_raw(void)
{
	int id = read_int_file("/sys/kernel/tracing/events/sched/sched_switch/id");
	if (id < 0)
		id = read_int_file("/sys/kernel/debug/tracing/events/sched/sched_switch/id");
	CU_ASSERT_FATAL(id > 0);
	struct live l = { .tp_id = (uint16_t)id };
	struct smp_session *s = open_live();
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct smp_event_spec sp;
	memset(&sp, 0, sizeof(sp));
	sp.attr.type = PERF_TYPE_TRACEPOINT;
	sp.attr.config = (uint64_t)id;
	sp.attr.sample_period = 1;
	sp.attr.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TID;
	sp.group_leader = -1;
	sp.name = "sched:sched_switch";
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &sp, NULL), 0);
	/* A side-band event on CLOCK_MONOTONIC shares each CPU's ring: the
	 * sampler must give both one clock, and route records by id. */
	struct smp_event_spec sb;
	memset(&sb, 0, sizeof(sb));
	sb.attr.type = PERF_TYPE_SOFTWARE;
	sb.attr.config = PERF_COUNT_SW_DUMMY;
	sb.attr.comm = sb.attr.mmap2 = sb.attr.task = 1;
	sb.attr.use_clockid = 1;
	sb.attr.clockid = CLOCK_MONOTONIC;
	sb.group_leader = -1;
	sb.name = "dummy";
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &sb, NULL), 0);
	int rc = smp_start(s);
	if (rc)
		fprintf(stderr, "smp_start: %s\n", smp_errmsg(s));
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	uint64_t t_start = now_ns();
	/* Sized from the rate a tracepoint can reach (1M/s): 8 MiB + a page. */
	unsigned long long page = (unsigned long long)sysconf(_SC_PAGESIZE);
	CU_ASSERT_EQUAL(perf_map_bytes(), (8ULL << 20) + page);
	/* A thread pair ping-ponging over pipes switches a few thousand times. */
	int a[2], b[2], fwd[2], back[2];
	CU_ASSERT_FATAL(pipe(a) == 0 && pipe(b) == 0);
	fwd[0] = a[0];
	fwd[1] = b[1];
	back[0] = b[0];
	back[1] = a[1];
	pthread_t t;
	pthread_create(&t, NULL, pingpong, fwd);
	char c = 1;
	for (int i = 0; i < 3000; i++) {
		if (write(back[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
			break;
		if (i % 500 == 0)
			smp_poll(s, 0, live_cb, &l);
	}
	c = 0;
	CU_ASSERT_EQUAL(write(back[1], &c, 1), 1);
	pthread_join(t, NULL);
	uint64_t t_end = now_ns();
	close(a[0]); close(a[1]); close(b[0]); close(b[1]);
	for (int i = 0; i < 3; i++)
		smp_poll(s, 10, live_cb, &l);
	smp_flush(s, live_cb, &l);
	CU_ASSERT(l.raws >= 3000);
	CU_ASSERT_EQUAL(l.raws, l.samples);
	CU_ASSERT_EQUAL(l.bad_raw, 0);
	CU_ASSERT_EQUAL(l.other_type, 0);
	/* Timestamps are CLOCK_MONOTONIC: the last one falls in our window. */
	CU_ASSERT(l.last >= t_start && l.last <= now_ns());
	(void)t_end;
	CU_ASSERT_EQUAL(l.disorder, 0);
	smp_close(s);
}

static void
test_group_read(void)
{
	/* cpu-clock leads and samples; the member is msr/tsc/ if this
	 * machine has the msr PMU, else task-clock, a second software counter. */
	int msr = read_int_file("/sys/bus/event_source/devices/msr/type");
	struct live l = { .pid = getpid() };
	struct smp_session *s = open_live();
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct smp_event_spec lead = clock_spec(1000000), mem;
	lead.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_READ;
	lead.attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
	int li;
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &lead, &li), 0);
	memset(&mem, 0, sizeof(mem));
	mem.attr.type = msr > 0 ? (uint32_t)msr : PERF_TYPE_SOFTWARE;
	mem.attr.config = msr > 0 ? 0 /* tsc */ : PERF_COUNT_SW_TASK_CLOCK;
	mem.attr.read_format = lead.attr.read_format;
	mem.group_leader = li;
	mem.name = msr > 0 ? "msr/tsc/" : "task-clock";
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &mem, NULL), 0);
	int rc = smp_start(s);
	if (rc)
		fprintf(stderr, "smp_start: %s\n", smp_errmsg(s));
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	spin_and_poll(s, 200, &l);
	CU_ASSERT(l.reads > 120);
	CU_ASSERT(l.clock_delta > 120000000ULL);	/* > 120 ms of cpu-clock in total */
	CU_ASSERT(l.tsc_delta > 0);
	smp_close(s);
}

static void
test_target_exits(void)
{
	pid_t child = fork();
	if (child == 0) {
		/* Wait to be traced, spin 150 ms, exit. */
		usleep(100000);
		volatile uint64_t x = 0;
		uint64_t end = cpu_ns() + 150000000ULL;
		while (cpu_ns() < end)
			x++;
		_exit(0);
	}
	int32_t pids[1] = { child };
	struct smp_opts o;
	memset(&o, 0, sizeof(o));
	o.target_pids = pids;
	o.ntarget_pids = 1;
	o.inherit = 1;
	int err;
	struct smp_session *s = smp_open_live(&o, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct smp_event_spec sp = clock_spec(1000000);
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &sp, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(smp_start(s), 0);
	struct live l = { .pid = child };
	uint64_t give_up = now_ns() + 5000000000ULL;
	int status;
	waitpid(child, &status, 0);
	while (!smp_at_eof(s) && now_ns() < give_up)
		CU_ASSERT(smp_poll(s, 50, live_cb, &l) >= 0);
	smp_flush(s, live_cb, &l);
	CU_ASSERT(smp_at_eof(s));
	CU_ASSERT(l.mine > 90);		/* of about 150 */
	CU_ASSERT_EQUAL(l.other_pid, 0);
	smp_close(s);
}

static void *
spin_thread(void *arg)
{
	volatile uint64_t x = 0;
	uint64_t end = cpu_ns() + *(uint64_t *)arg;
	while (cpu_ns() < end)
		x++;
	return NULL;
}

struct thr_read {
	long reads, bad;
	int32_t tids[8];
	uint64_t sum[8], last[8][64];
	int ntids;
};

static int
thr_read_cb(void *arg, const struct smp_record *r)
{
	struct thr_read *t = arg;
	if (r->type != PERF_RECORD_SAMPLE || !r->read)
		return 0;
	int i;
	for (i = 0; i < t->ntids && t->tids[i] != r->tid; i++)
		;
	if (i == t->ntids && t->ntids < 8)
		t->tids[t->ntids++] = r->tid;
	if (i >= 8)
		return 0;
	t->reads++;
	/* Per CPU, a thread's count grows by exactly its delta. */
	if (r->read->v[0].delta > r->read->v[0].value || r->cpu >= 64)
		t->bad++;
	t->sum[i] += r->read->v[0].delta;
	if (r->cpu < 64)
		t->last[i][r->cpu] = r->read->v[0].value;
	return 0;
}

static void
test_inherit_thread_deltas(void)
{
	/* Two spinning threads of an inherited target share the parent's id
	 * on each CPU: deltas must be per thread, so that a thread's deltas
	 * add up to exactly its own final counts, never the other's. */
	pid_t child = fork();
	if (child == 0) {
		usleep(100000);
		uint64_t ns = 120000000ULL;
		pthread_t t;
		pthread_create(&t, NULL, spin_thread, &ns);
		spin_thread(&ns);
		pthread_join(t, NULL);
		_exit(0);
	}
	int32_t pids[1] = { child };
	struct smp_opts o;
	memset(&o, 0, sizeof(o));
	o.target_pids = pids;
	o.ntarget_pids = 1;
	o.inherit = 1;
	int err;
	struct smp_session *s = smp_open_live(&o, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct smp_event_spec sp = clock_spec(1000000);
	sp.attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_READ;
	sp.attr.read_format = PERF_FORMAT_ID;
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &sp, NULL), 0);
	int rc = smp_start(s);
	if (rc == -EINVAL) {
		/* Kernels before 6.12 refuse inherit with PERF_SAMPLE_READ. */
		fprintf(stderr, "inherit + SAMPLE_READ not supported here: %s\n", smp_errmsg(s));
		smp_close(s);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return;
	}
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	struct thr_read t = { 0 };
	uint64_t give_up = now_ns() + 5000000000ULL;
	waitpid(child, NULL, 0);
	while (!smp_at_eof(s) && now_ns() < give_up)
		smp_poll(s, 50, thr_read_cb, &t);
	smp_flush(s, thr_read_cb, &t);
	CU_ASSERT(t.reads > 100);
	CU_ASSERT(t.ntids >= 2);
	CU_ASSERT_EQUAL(t.bad, 0);
	for (int i = 0; i < t.ntids && i < 8; i++) {
		uint64_t total = 0;
		for (int c = 0; c < 64; c++)
			total += t.last[i][c];
		CU_ASSERT_EQUAL(t.sum[i], total);
	}
	smp_close(s);
}

static int
first_time_cb(void *arg, const struct smp_record *r)
{
	struct live *l = arg;
	if (r->type == PERF_RECORD_SAMPLE && !l->samples)
		l->tsc_delta = r->time;	/* reused: time of the oldest sample */
	return live_cb(arg, r);
}

static void
test_bufpolicy_ring(void)
{
	/* A tiny ring in overwrite mode over 300 ms of CPU at 1 ms: nothing
	 * comes out while running, and at the end only the newest samples,
	 * oldest first, none from the first half of the run. */
	struct smp_opts o;
	memset(&o, 0, sizeof(o));
	o.bufpolicy = 2;
	o.bufsize = 8192;
	int err;
	struct smp_session *s = smp_open_live(&o, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct smp_event_spec sp = clock_spec(1000000);
	sp.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	sp.attr.use_clockid = 1;
	sp.attr.clockid = CLOCK_MONOTONIC;
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &sp, NULL), 0);
	int rc = smp_start(s);
	if (rc)
		fprintf(stderr, "smp_start: %s\n", smp_errmsg(s));
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	struct live l = { .pid = getpid() };
	uint64_t t0 = now_ns();
	volatile uint64_t x = 0;
	uint64_t end = cpu_ns() + 300000000ULL;
	while (cpu_ns() < end) {
		for (int i = 0; i < 200000; i++)
			x += (uint64_t)i;
		CU_ASSERT_EQUAL(smp_poll(s, 0, first_time_cb, &l), 0);
	}
	uint64_t t1 = now_ns();
	CU_ASSERT_EQUAL(l.samples, 0);
	CU_ASSERT(smp_flush(s, first_time_cb, &l) > 0);
	/* 8 KiB holds a few hundred 48-byte samples at most, over 2 CPUs. */
	CU_ASSERT(l.samples > 20);
	CU_ASSERT(l.samples < 8192 / 40 * 2);
	/* the newest samples survive: the last one is from the second half
	 * (the oldest may be older: the thread can migrate between CPUs) */
	CU_ASSERT(l.last > t0 + (t1 - t0) / 2);
	CU_ASSERT(l.last <= t1 + 50000000ULL);
	CU_ASSERT_EQUAL(l.disorder, 0);
	uint32_t cpu[64];
	uint64_t nd[64];
	CU_ASSERT_EQUAL(smp_drops(s, cpu, nd, 64), 0);	/* overwriting is the policy */
	smp_close(s);
}

static int task_closed;

static void
task_closed_hook(void *arg)
{
	task_closed += arg == (void *)&task_closed;
}

/* SMP_TASK: opened at once by smp_open_now (a failure removes the event),
 * one fd per CPU for one thread, its samples in the CPU rings with a
 * system-wide event's; the closed hook runs once at smp_close. */
static void
test_task_open_now(void)
{
	struct live l = { .pid = getpid() };
	struct smp_session *s = open_live();
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct smp_event_spec sp = clock_spec(1000000);
	int ev = -1, ev2 = -1;
	CU_ASSERT_EQUAL(smp_open_now(s, 0), -EINVAL);	/* no such event */
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &sp, &ev), 0);
	CU_ASSERT_EQUAL(smp_open_now(s, ev), -EINVAL);	/* not a task event */
	struct smp_event_spec tk = clock_spec(1000000);
	tk.attr.type = PERF_TYPE_SOFTWARE;
	tk.attr.config = PERF_COUNT_SW_TASK_CLOCK;
	tk.scope = SMP_TASK;
	tk.name = "task-clock";
	CU_ASSERT_EQUAL(smp_add_event(s, &tk, NULL), -EINVAL);	/* no thread named */
	tk.task = 0x7ffffff0;	/* no such thread: refused, and removed again */
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &tk, &ev2), 0);
	CU_ASSERT_EQUAL(smp_open_now(s, ev2), -ESRCH);
	CU_ASSERT_PTR_NOT_NULL(strstr(smp_errmsg(s), "no such process"));
	tk.task = (int32_t)getpid();
	tk.closed = task_closed_hook;
	tk.closed_arg = &task_closed;
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &tk, &ev2), 0);
	CU_ASSERT_EQUAL(ev2, 1);	/* the refused one is gone */
	CU_ASSERT_EQUAL_FATAL(smp_open_now(s, ev2), 0);
	int rc = smp_start(s);
	if (rc)
		fprintf(stderr, "smp_start: %s\n", smp_errmsg(s));
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	spin_and_poll(s, 200, &l);
	/* both events sample us: the task one too (other_type counts it) */
	CU_ASSERT(l.mine > 200);
	CU_ASSERT(l.other_type > 100);
	CU_ASSERT_EQUAL(task_closed, 0);
	smp_close(s);
	CU_ASSERT_EQUAL(task_closed, 1);
}

static void
test_open_errors(void)
{
	struct smp_session *s = open_live();
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct smp_event_spec sp = clock_spec(1000000);
	sp.attr.type = PERF_TYPE_HARDWARE;
	sp.attr.config = PERF_COUNT_HW_CPU_CYCLES;
	sp.name = "cycles";
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &sp, NULL), 0);
	int rc = smp_start(s);
	if (rc == -ENOENT || rc == -EOPNOTSUPP) {
		CU_ASSERT_PTR_NOT_NULL(strstr(smp_errmsg(s), "no hardware PMU"));
		CU_ASSERT_PTR_NOT_NULL(strstr(smp_errmsg(s), "cycles"));
	} else {
		CU_ASSERT_EQUAL(rc, 0);	/* a machine with a PMU */
	}
	smp_close(s);
	s = open_live();
	sp.group_leader = 5;
	CU_ASSERT_EQUAL(smp_add_event(s, &sp, NULL), -EINVAL);
	CU_ASSERT_EQUAL(smp_start(s), -EINVAL);	/* nothing to open */
	smp_close(s);
	int cpus[256];
	int n = smp_online_cpus(cpus, 256);
	CU_ASSERT(n >= 1 && n == (int)sysconf(_SC_NPROCESSORS_ONLN));
}

static long run_count(const char *cmd);

static void
test_record_to_perf_script(void)
{
	char path[] = "/tmp/pmctrace-smp-XXXXXX";
	int fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	struct live l = { .pid = getpid() };
	struct smp_session *s = open_live();
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct smp_event_spec sp = clock_spec(1000000);
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &sp, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(smp_record_to(s, path), 0);
	CU_ASSERT_EQUAL_FATAL(smp_start(s), 0);
	spin_and_poll(s, 200, &l);
	smp_close(s);
	/* Our own reader first, then perf's. */
	int err;
	struct live back = { .pid = getpid() };
	s = smp_open_file(path, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(smp_event(s, 0)->name, "cpu-clock");
	while (smp_poll(s, 0, live_cb, &back) > 0)
		;
	CU_ASSERT_EQUAL(back.samples, l.samples);
	smp_close(s);
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "perf script -F event,ip -i %s 2>/dev/null | grep -c 'cpu-clock'", path);
	FILE *p = popen(cmd, "r");
	long n = -1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	if (fscanf(p, "%ld", &n) != 1)
		n = -1;
	pclose(p);
	CU_ASSERT_EQUAL(n, l.samples);
	snprintf(cmd, sizeof(cmd), "perf report --stdio -i %s >/dev/null 2>&1", path);
	CU_ASSERT_EQUAL(system(cmd), 0);
	/* We were running before the recording started: only the COMM and
	 * MMAP2 records synthesized from /proc name us and our binary. */
	snprintf(cmd, sizeof(cmd), "perf script -F comm -i %s 2>/dev/null | "
		 "grep -c '^ *test_sampler_li'", path);
	n = run_count(cmd);
	CU_ASSERT(n >= l.mine);
	snprintf(cmd, sizeof(cmd), "perf script -F ip,dso -i %s 2>/dev/null | "
		 "grep -c '/test_sampler_live)'", path);
	CU_ASSERT(run_count(cmd) > l.mine / 2);
	unlink(path);
}

/* A recording with a tracepoint carries its format in the TRACING_DATA
 * feature, as perf lays it out: perf script decodes its fields. */
static void
test_record_tracing_data(void)
{
	char path[] = "/tmp/pmctrace-smp-td-XXXXXX", cmd[512];
	int fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	int id = read_int_file("/sys/kernel/tracing/events/sched/sched_switch/id");
	CU_ASSERT_FATAL(id > 0);
	struct live l = { .tp_id = (uint16_t)id };
	struct smp_session *s = open_live();
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct smp_event_spec sp;
	memset(&sp, 0, sizeof(sp));
	sp.attr.type = PERF_TYPE_TRACEPOINT;
	sp.attr.config = (uint64_t)id;
	sp.attr.sample_period = 1;
	sp.attr.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TID;
	sp.group_leader = -1;
	sp.name = "sched:sched_switch";
	CU_ASSERT_EQUAL_FATAL(smp_add_event(s, &sp, NULL), 0);
	/* a provider's notes, kept from before the recording is asked for */
	CU_ASSERT_EQUAL(smp_note(s, "pid up 0 1 0 a.out\tmain\tentry"), 0);
	CU_ASSERT_EQUAL_FATAL(smp_record_to(s, path), 0);
	CU_ASSERT_EQUAL(smp_note(s, "second line\n"), 0);
	CU_ASSERT_EQUAL_FATAL(smp_start(s), 0);
	for (int i = 0; i < 20; i++) {
		usleep(5000);	/* each nap is a switch */
		smp_poll(s, 0, live_cb, &l);
	}
	smp_close(s);
	int err;
	s = smp_open_file(path, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	size_t len = 0;
	const char *td = smp_tracing_data(s, &len);
	CU_ASSERT_FATAL(td != NULL && len > 100);
	CU_ASSERT(memcmp(td, "\x17\x08\x44tracing0.6", 14) == 0);
	CU_ASSERT(memmem(td, len, "header_page", 11) != NULL);
	CU_ASSERT(memmem(td, len, "name: sched_switch", 18) != NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(smp_file_notes(s));
	CU_ASSERT_STRING_EQUAL(smp_file_notes(s), "pid up 0 1 0 a.out\tmain\tentry\nsecond line\n");
	smp_close(s);
	snprintf(cmd, sizeof(cmd), "perf script -i %s 2>/dev/null | grep -c 'next_comm='", path);
	CU_ASSERT_EQUAL(run_count(cmd), l.samples);
	CU_ASSERT(l.samples >= 20);
	unlink(path);
}

static long
run_count(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	long n = -1;
	if (!p)
		return -1;
	if (fscanf(p, "%ld", &n) != 1)
		n = -1;
	pclose(p);
	return n;
}

static void
test_perf_pipe_tracing_data(void)
{
	/* No fixture has a pipe-mode TRACING_DATA record, so make one with
	 * this machine's perf and compare our reading with perf script's. */
	char path[] = "/tmp/pmctrace-smp-pipe-XXXXXX", cmd[512];
	int fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "perf record -q -e sched:sched_switch -a -o - -- sleep 0.1 "
		 "> %s 2>/dev/null; echo $?", path);
	CU_ASSERT_EQUAL_FATAL(run_count(cmd), 0);
	snprintf(cmd, sizeof(cmd), "perf script -i %s 2>/dev/null | wc -l", path);
	long perf_n = run_count(cmd);
	int err;
	struct smp_session *s = smp_open_file(path, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct live l = { 0 };
	int id = read_int_file("/sys/kernel/tracing/events/sched/sched_switch/id");
	l.tp_id = (uint16_t)id;
	while (smp_poll(s, 0, live_cb, &l) > 0)
		;
	CU_ASSERT(smp_file_is_pipe(s));
	CU_ASSERT(perf_n > 10);
	CU_ASSERT_EQUAL(l.samples, perf_n);
	CU_ASSERT_EQUAL(l.raws, perf_n);
	CU_ASSERT_EQUAL(l.bad_raw, 0);
	size_t len = 0;
	const char *td = smp_tracing_data(s, &len);
	CU_ASSERT(td && len > 1000 && memcmp(td + 3, "tracing", 7) == 0);
	smp_close(s);
	unlink(path);
}

static const struct cu_test tests[] = {
	{ "perf_pipe_tracing_data", test_perf_pipe_tracing_data },
	{ "cpu_clock_all_cpus", test_cpu_clock_all_cpus },
	{ "sched_switch_raw", test_sched_switch_raw },
	{ "group_read", test_group_read },
	{ "target_exits", test_target_exits },
	{ "inherit_thread_deltas", test_inherit_thread_deltas },
	{ "bufpolicy_ring", test_bufpolicy_ring },
	{ "open_errors", test_open_errors },
	{ "task_open_now", test_task_open_now },
	{ "record_to_perf_script", test_record_to_perf_script },
	{ "record_tracing_data", test_record_tracing_data },
	{ NULL, NULL },
};

CU_MAIN("sampler_live", tests)
