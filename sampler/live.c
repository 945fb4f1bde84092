/*
 * live.c — a live session: perf_event_open per online CPU (and per target
 * task), one kernel ring per CPU that every event on that CPU writes into
 * (PERF_EVENT_IOC_SET_OUTPUT), epoll wakeups at a watermark, and a drain
 * loop that moves records into the ordered merge round by round.
 *
 * Ordering: each CPU's ring is in time order.  A record can still be
 * overtaken by one another CPU timestamped earlier but published later,
 * so, as perf does with FINISHED_ROUND, a round only releases what is
 * older than the newest time seen at the end of the previous round.
 */
#include "sampler/smp_impl.h"

#include <errno.h>
#include <numa.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SMP_MAX_CPUS 4096
#define SMP_DRAIN_NS 10000000ULL	/* default drain period: 10 ms */
#define SMP_EPOLL_TARGET 0x80000000u	/* epoll data: a target task's fd */

static int smp_live_poll(struct smp_session *s, int timeout_ms, smp_record_cb cb, void *arg);
static int smp_live_collect(struct smp_session *s);
static void smp_live_close(struct smp_session *s);
static void smp_live_end(struct smp_session *s);
static void smp_live_write(struct smp_session *s, const struct perf_event_header *h);

static const struct smp_backend smp_live_backend = {
	.sb_poll = smp_live_poll,
	.sb_collect = smp_live_collect,
	.sb_close = smp_live_end,
	.sb_write = smp_live_write,
};

struct smp_session *
smp_open_live(const struct smp_opts *o, int *errp)
{
	int cpus[SMP_MAX_CPUS], err = -ENOMEM;
	struct smp_session *s = smp_session_new(&smp_live_backend);
	if (!s)
		goto fail;
	s->live = 1;
	if (o)
		s->opts = *o;
	if (s->opts.ntarget_pids > 0) {
		s->pids = malloc((size_t)s->opts.ntarget_pids * sizeof(*s->pids));
		if (!s->pids)
			goto fail;
		memcpy(s->pids, o->target_pids, (size_t)s->opts.ntarget_pids * sizeof(*s->pids));
	}
	s->opts.target_pids = s->pids;
	int n = smp_online_cpus(cpus, SMP_MAX_CPUS);
	if (n <= 0) {
		err = n < 0 ? n : -ENODEV;
		goto fail;
	}
	n = n > SMP_MAX_CPUS ? SMP_MAX_CPUS : n;
	s->pc = calloc((size_t)n, sizeof(*s->pc));
	if (!s->pc)
		goto fail;
	s->ncpu = n;
	for (int i = 0; i < n; i++) {
		s->pc[i].cpu = cpus[i];
		s->pc[i].ringfd = -1;
	}
	return s;
fail:
	if (errp)
		*errp = err;
	smp_open_failed(s, err);
	return NULL;
}

int
smp_add_event(struct smp_session *s, const struct smp_event_spec *spec, int *evidx)
{
	if (!s || !spec || !s->live)
		return -EINVAL;
	if (s->started)
		return smp_err(s, -EBUSY, "events must be added before the session starts");
	if (spec->group_leader >= s->nev ||
	    (spec->group_leader >= 0 && s->ev[spec->group_leader].spec.group_leader >= 0))
		return smp_err(s, -EINVAL, "%s: group leader %d is not an earlier leader",
			       spec->name ? spec->name : "event", spec->group_leader);
	if (spec->scope == SMP_TASK && (spec->task <= 0 || spec->group_leader >= 0))
		return smp_err(s, -EINVAL, "%s: a task event needs a thread id and no group",
			       spec->name ? spec->name : "event");
	if (spec->group_leader >= 0 && s->ev[spec->group_leader].spec.scope == SMP_TASK)
		return smp_err(s, -EINVAL, "%s: a task event cannot lead a group",
			       spec->name ? spec->name : "event");
	int i = smp_event_new(s, spec, spec->name);
	if (i < 0)
		return smp_err(s, i, "out of memory");
	if (evidx)
		*evidx = i;
	return 0;
}

/* ---- sizing the rings from the expected record rate ---- */

static double
smp_event_rate(const struct perf_event_attr *a)
{
	if (a->freq)
		return (double)a->sample_freq;
	if (!a->sample_period)
		return 0;
	if (a->type == PERF_TYPE_SOFTWARE &&
	    (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK))
		return 1e9 / (double)a->sample_period;
	if (a->type == PERF_TYPE_TRACEPOINT || a->sample_period == 1)
		return 1e6;	/* tracepoints can storm: 850k switches/s are routine */
	return 3e9 / (double)a->sample_period;
}

static double
smp_event_bytes(const struct perf_event_attr *a)
{
	double b = 64;
	if (a->sample_type & PERF_SAMPLE_CALLCHAIN)
		b += 8 * 48;
	if (a->sample_type & PERF_SAMPLE_RAW)
		b += 96;
	if (a->sample_type & PERF_SAMPLE_READ)
		b += 48;
	if (a->sample_type & PERF_SAMPLE_STACK_USER)
		b += (double)a->sample_stack_user;
	return b;
}

/* Bytes of ring per CPU: -x bufsize if given, else enough for four drain
 * periods at the expected rate, between 256 KiB and 64 MiB per CPU and
 * at most 1 GiB over all CPUs (the rings are locked memory). */
#define SMP_RING_MIN ((size_t)256 << 10)
#define SMP_RING_MAX ((size_t)64 << 20)
#define SMP_RING_TOTAL ((size_t)1 << 30)

static size_t
smp_ring_bytes(const struct smp_session *s, size_t page)
{
	size_t want = s->opts.bufsize;
	if (!want) {
		uint64_t sr = s->opts.switchrate_ns;
		double bps = 0, per = (double)(sr && sr < SMP_DRAIN_NS ? sr : SMP_DRAIN_NS);
		for (int i = 0; i < s->nev; i++)
			bps += smp_event_rate(&s->ev[i].spec.attr) * smp_event_bytes(&s->ev[i].spec.attr);
		double b = bps * per / 1e9 * 4;
		want = b < SMP_RING_MIN ? SMP_RING_MIN : b > SMP_RING_MAX ? SMP_RING_MAX : (size_t)b;
		while (want > SMP_RING_MIN && want * (size_t)s->ncpu > SMP_RING_TOTAL)
			want /= 2;
	}
	size_t r = page;
	while (r < want && r < ((size_t)1 << 40))
		r *= 2;
	return r;
}

/* ---- opening ---- */

static const char *
smp_paranoid(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	snprintf(buf, len, "?");
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
	return buf;
}

static int
smp_is_hw(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
	       a->type == PERF_TYPE_RAW || a->type >= PERF_TYPE_MAX;
}

static int
smp_open_error(struct smp_session *s, const struct smp_evt *e, int cpu, int pid, int err)
{
	char par[32], where[64];
	if (pid >= 0)
		snprintf(where, sizeof(where), "pid %d on cpu %d", pid, cpu);
	else
		snprintf(where, sizeof(where), "cpu %d", cpu);
	const char *n = e->name[0] ? e->name : "event";
	switch (-err) {
	case EACCES: case EPERM:
		if (geteuid() == 0)	/* "run as root" would not help */
			return smp_err(s, err, "cannot open %s (%s): permission denied, although "
				"running as root: the kernel does not let perf use this event "
				"(lockdown, a security module, or an event it reserves); leave it "
				"out of the probe description", n, where);
		return smp_err(s, err, "cannot open %s (%s): permission denied; "
			"/proc/sys/kernel/perf_event_paranoid is %s: run as root or with "
			"CAP_PERFMON (CAP_SYS_ADMIN on kernels before 5.8), or lower it "
			"(sysctl kernel.perf_event_paranoid=-1 for system-wide tracing)",
			n, where, smp_paranoid(par, sizeof(par)));
	case ENOENT: case EOPNOTSUPP: case ENODEV:
		if (smp_is_hw(&e->spec.attr))
			return smp_err(s, err, "cannot open %s (%s): no hardware PMU is exposed "
				"for this event on this machine (a virtual machine?); use software "
				"counters such as cpu-clock, task-clock, page-faults, "
				"context-switches", n, where);
		return smp_err(s, err, "cannot open %s (%s): the kernel does not support it (%s)",
			       n, where, strerror(-err));
	case ESRCH:
		return smp_err(s, err, "cannot open %s: no such process %d", n, pid);
	case EMFILE: case ENFILE:
		return smp_err(s, err, "cannot open %s (%s): too many open files; "
			"raise the limit with ulimit -n", n, where);
	case EBUSY:
		return smp_err(s, err, "cannot open %s (%s): the PMU is busy "
			"(another profiler or the NMI watchdog holds it)", n, where);
	case EINVAL:
		return smp_err(s, err, "cannot open %s (%s): the kernel rejected its "
			"attributes (type %u, config %#llx, sample_type %#llx)", n, where,
			e->spec.attr.type, (unsigned long long)e->spec.attr.config,
			(unsigned long long)e->spec.attr.sample_type);
	default:
		return smp_err(s, err, "cannot open %s (%s): %s", n, where, strerror(-err));
	}
}

/* What we need from every event, whatever the provider asked for: a
 * timestamp to order by, the CPU, an id at a fixed place to route by,
 * and sample ids on side-band records. */
static void
smp_fix_attr(struct smp_session *s, struct smp_evt *e, size_t ring)
{
	struct perf_event_attr *a = &e->spec.attr;
	a->size = sizeof(*a);
	a->sample_type |= PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_CPU |
			  PERF_SAMPLE_TID;
	a->sample_id_all = 1;
	if (a->sample_type & PERF_SAMPLE_READ)
		a->read_format |= PERF_FORMAT_ID;
	if (e->spec.group_leader < 0)
		a->disabled = !a->enable_on_exec;
	else
		a->disabled = 0;
	if (s->opts.ntarget_pids > 0 && s->opts.inherit)
		a->inherit = 1;
	if (!a->wakeup_events && !a->watermark) {
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)(ring / 2);
	}
	/* bufpolicy=ring: the kernel overwrites the oldest records itself. */
	if (s->opts.bufpolicy == 2)
		a->write_backward = 1;
}

static int
smp_nthreads(const struct smp_session *s)
{
	return s->opts.ntarget_pids > 0 ? s->opts.ntarget_pids : 1;
}

static int
smp_open_one(struct smp_session *s, int e, int ci, int t)
{
	struct smp_evt *ev = &s->ev[e];
	int nt = smp_nthreads(s), cpu = s->pc[ci].cpu;
	int pid = s->opts.ntarget_pids > 0 ? s->pids[t] : -1;
	if (ev->spec.scope == SMP_ONE_CPU && ev->spec.cpu != cpu)
		return 0;
	if (ev->spec.scope == SMP_TASK) {
		if (t > 0)
			return 0;	/* its own task, whatever the session's targets */
		pid = ev->spec.task;
	}
	int group_fd = -1;
	if (ev->spec.group_leader >= 0) {
		group_fd = s->ev[ev->spec.group_leader].fds[ci * nt + t];
		if (group_fd < 0)
			return smp_err(s, -EINVAL, "%s: its group leader is not open on cpu %d",
				       ev->name, cpu);
	}
	int fd = (int)syscall(SYS_perf_event_open, &ev->spec.attr, pid, cpu, group_fd,
			      PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return smp_open_error(s, ev, cpu, pid, -errno);
	ev->fds[ci * nt + t] = fd;	/* closed by smp_live_close, whatever happens next */
	uint64_t id;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return smp_err(s, -errno, "%s: PERF_EVENT_IOC_ID: %s", ev->name, strerror(errno));
	if (smp_evt_add_id(s, e, id))
		return smp_err(s, -ENOMEM, "out of memory");
	return 0;
}

static int
smp_alloc_fds(struct smp_session *s, int e)
{
	int nt = smp_nthreads(s);
	if (s->ev[e].fds)
		return 0;
	s->ev[e].fds = malloc((size_t)(s->ncpu * nt) * sizeof(int));
	if (!s->ev[e].fds)
		return smp_err(s, -ENOMEM, "out of memory");
	for (int k = 0; k < s->ncpu * nt; k++)
		s->ev[e].fds[k] = -1;
	return 0;
}

static int
smp_open_all(struct smp_session *s)
{
	int nt = smp_nthreads(s);
	for (int e = 0; e < s->nev; e++) {
		int err = smp_alloc_fds(s, e);
		if (err)
			return err;
	}
	for (int ci = 0; ci < s->ncpu; ci++)
		for (int t = 0; t < nt; t++)
			for (int e = 0; e < s->nev; e++) {
				if (s->ev[e].early)
					continue;
				int err = smp_open_one(s, e, ci, t);
				if (err)
					return err;
			}
	return 0;
}

/* ---- one ring per CPU ---- */

static void
smp_numa_place(void *map, size_t len, int cpu)
{
	if (numa_available() < 0 || numa_num_configured_nodes() <= 1)
		return;
	int node = numa_node_of_cpu(cpu);
	if (node >= 0)
		numa_tonode_memory(map, len, node);
}

static int
smp_map_cpu(struct smp_session *s, int ci, size_t page, size_t ring)
{
	struct smp_cpu *c = &s->pc[ci];
	int nt = smp_nthreads(s);
	for (int t = 0; t < nt; t++)
		for (int e = 0; e < s->nev; e++) {
			int fd = s->ev[e].fds[ci * nt + t];
			if (fd < 0)
				continue;
			if (c->ringfd >= 0) {
				if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, c->ringfd) < 0)
					return smp_err(s, -errno, "%s: redirecting cpu %d's output: %s",
						       s->ev[e].name, c->cpu, strerror(errno));
				continue;
			}
			/* A read-only mapping is the kernel's overwrite mode. */
			int prot = s->opts.bufpolicy == 2 ? PROT_READ : PROT_READ | PROT_WRITE;
			void *m = mmap(NULL, page + ring, prot, MAP_SHARED, fd, 0);
			if (m == MAP_FAILED)
				return smp_err(s, -errno, "cannot map a %zu KiB ring for cpu %d: %s%s",
					ring >> 10, c->cpu, strerror(errno), errno == EPERM ?
					" (raise /proc/sys/kernel/perf_event_mlock_kb or lower -x bufsize)" : "");
			c->ringfd = fd;
			c->map = m;
			c->maplen = page + ring;
			smp_numa_place(m, c->maplen, c->cpu);
			rb_kring_init(&c->kr, m, page, ring);
		}
	return 0;
}

static int
smp_watch(struct smp_session *s)
{
	int nt = smp_nthreads(s);
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd < 0)
		return smp_err(s, -errno, "epoll_create1: %s", strerror(errno));
	for (int ci = 0; ci < s->ncpu; ci++) {
		struct epoll_event ee = { .events = EPOLLIN, .data.u32 = (uint32_t)ci };
		if (s->pc[ci].ringfd >= 0 && epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->pc[ci].ringfd, &ee) < 0)
			return smp_err(s, -errno, "epoll_ctl: %s", strerror(errno));
	}
	if (s->opts.ntarget_pids <= 0)
		return 0;
	/* Per-task fds hang up when their task (and its inherited children)
	 * are gone: when all have, the session is at its end. */
	for (int e = 0; e < s->nev; e++)
		for (int k = 0; k < s->ncpu * nt; k++) {
			int fd = s->ev[e].fds[k];
			if (fd < 0 || fd == s->pc[k / nt].ringfd)
				continue;
			struct epoll_event ee = { .events = 0, .data.u32 = SMP_EPOLL_TARGET | (uint32_t)fd };
			if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ee) == 0)
				s->nwatch++;
		}
	for (int ci = 0; ci < s->ncpu; ci++)
		if (s->pc[ci].ringfd >= 0)
			s->nwatch++;
	return 0;
}

static void
smp_enable_all(struct smp_session *s, unsigned long req)
{
	int nt = smp_nthreads(s);
	for (int e = 0; e < s->nev; e++) {
		if (s->ev[e].spec.group_leader >= 0 || !s->ev[e].fds)
			continue;
		if (req == PERF_EVENT_IOC_ENABLE && s->ev[e].spec.attr.enable_on_exec)
			continue;
		for (int k = 0; k < s->ncpu * nt; k++)
			if (s->ev[e].fds[k] >= 0)
				ioctl(s->ev[e].fds[k], req, 0);
	}
}

/* Events sharing a ring must share a clock (the kernel refuses
 * SET_OUTPUT otherwise), and one merged stream needs one time base: the
 * first event that asks for a clockid sets it for all. */
static void
smp_unify_clock(struct smp_session *s)
{
	for (int e = 0; e < s->nev; e++) {
		const struct perf_event_attr *a = &s->ev[e].spec.attr;
		if (!a->use_clockid)
			continue;
		for (int k = 0; k < s->nev; k++) {
			s->ev[k].spec.attr.use_clockid = 1;
			s->ev[k].spec.attr.clockid = a->clockid;
		}
		return;
	}
}

/* The events' started hooks, in the order they were added. */
static int
smp_run_started(struct smp_session *s)
{
	for (int e = 0; e < s->nev; e++) {
		const struct smp_event_spec *sp = &s->ev[e].spec;
		int err = sp->started ? sp->started(sp->started_arg, s) : 0;
		if (err)
			return err;
	}
	return 0;
}

int
smp_start(struct smp_session *s)
{
	if (!s || !s->live)
		return -EINVAL;
	if (s->started)
		return smp_err(s, -EBUSY, "session already started");
	if (!s->nev)
		return smp_err(s, -EINVAL, "no events to open");
	size_t page = (size_t)sysconf(_SC_PAGESIZE), ring = smp_ring_bytes(s, page);
	for (int e = 0; e < s->nev; e++)
		if (!s->ev[e].early)	/* smp_open_now's are fixed and open */
			smp_fix_attr(s, &s->ev[e], ring);
	smp_unify_clock(s);
	smp_compute_idpos(s);
	int err = smp_open_all(s);
	for (int ci = 0; !err && ci < s->ncpu; ci++)
		err = smp_map_cpu(s, ci, page, ring);
	if (!err)
		err = smp_watch(s);
	if (!err)
		err = rb_merge_init(&s->merge, s->ncpu + 8);
	if (err) {
		smp_live_close(s);
		return err;
	}
	s->started = 1;
	if (s->w)
		smp_writer_synthesize(s);
	smp_enable_all(s, PERF_EVENT_IOC_ENABLE);
	return smp_run_started(s);
}

int
smp_event_fd(const struct smp_session *s, int evidx, int cpu)
{
	if (!s || !s->live || !s->started || evidx < 0 || evidx >= s->nev ||
	    !s->ev[evidx].fds || smp_nthreads(s) != 1)
		return -1;
	for (int ci = 0; ci < s->ncpu; ci++)
		if (s->pc[ci].cpu == cpu)
			return s->ev[evidx].fds[ci];
	return -1;
}

/* ---- draining ---- */

static int
smp_drain_cpu(struct smp_session *s, int ci)
{
	struct smp_cpu *c = &s->pc[ci];
	const struct perf_event_header *h;
	int err = 0;
	if (!c->map || !rb_kring_read_init(&c->kr))
		return 0;
	while ((h = rb_kring_read_event(&c->kr))) {
		err = smp_queue(s, ci, h);
		rb_kring_consume(&c->kr);
		if (err)
			break;
	}
	if (c->kr.corrupt)
		smp_count_drop(s, ci, 1);
	rb_kring_read_done(&c->kr);
	return err ? smp_err(s, err, "out of memory queueing records") : 0;
}

static void
smp_handle_hups(struct smp_session *s, const struct epoll_event *ev, int n)
{
	for (int i = 0; i < n; i++) {
		if (!(ev[i].events & (EPOLLHUP | EPOLLERR)))
			continue;
		int fd = (ev[i].data.u32 & SMP_EPOLL_TARGET) ? (int)(ev[i].data.u32 & ~SMP_EPOLL_TARGET)
							     : s->pc[ev[i].data.u32].ringfd;
		epoll_ctl(s->epfd, EPOLL_CTL_DEL, fd, NULL);
		s->nhup++;
	}
	if (s->nwatch && s->nhup >= s->nwatch)
		s->eof = 1;
}

static int
smp_has_drops(const struct smp_session *s)
{
	for (int i = 0; i < s->ncpu; i++)
		if (s->pc[i].drops)
			return 1;
	return 0;
}

static int
smp_live_poll(struct smp_session *s, int timeout_ms, smp_record_cb cb, void *arg)
{
	struct epoll_event ev[64];
	if (!s->started)
		return smp_err(s, -EINVAL, "session not started");
	if (!s->eof) {
		/* Drain on our own timer, at least every 10 ms: a wakeup from
		 * the kernel comes from the busy CPU and tends to pull us onto
		 * it (wake-affine), where we then compete with the very work
		 * that fills the ring.  The watermark is a safety net. */
		uint64_t rate = s->opts.switchrate_ns && s->opts.switchrate_ns < SMP_DRAIN_NS ?
				s->opts.switchrate_ns : SMP_DRAIN_NS;
		int cap = rate >= 2000000ULL ? (int)(rate / 1000000ULL) : 1;
		int wait = timeout_ms < 0 || timeout_ms > cap ? cap : timeout_ms;
		int n = epoll_wait(s->epfd, ev, 64, wait);
		if (n < 0 && errno != EINTR)
			return smp_err(s, -errno, "epoll_wait: %s", strerror(errno));
		if (n > 0 && s->nwatch)
			smp_handle_hups(s, ev, n);
	}
	if (s->opts.bufpolicy == 2) {
		/* Ring policy: nothing leaves the rings until the end. */
		if (!s->eof)
			return 0;
		int err = smp_live_collect(s);
		if (err)
			return err;
	}
	for (int ci = 0; s->opts.bufpolicy != 2 && ci < s->ncpu; ci++) {
		int err = smp_drain_cpu(s, ci);
		if (err)
			return err;
	}
	if (s->w)
		smp_writer_round(s);
	/* bufpolicy=fill: stop at the first loss, as DTrace's fill policy does. */
	if (s->opts.bufpolicy == 1 && smp_has_drops(s) && !s->eof) {
		smp_enable_all(s, PERF_EVENT_IOC_DISABLE);
		s->eof = 1;
	}
	uint64_t upto = s->eof ? UINT64_MAX : s->round_max;
	s->round_max = s->merge.max_time;
	int64_t r = smp_emit(s, upto, cb, arg);
	return r > INT32_MAX ? INT32_MAX : (int)r;
}

/* One ring's snapshot, newest first, kept until it can be queued oldest
 * first (the merge wants each CPU's records in time order). */
struct smp_snap {
	unsigned char *buf;
	size_t len, cap;
	uint32_t *off;
	size_t n, capn;
};

static int
smp_snap_add(struct smp_snap *sn, const struct perf_event_header *h)
{
	if (sn->len + h->size > sn->cap) {
		size_t cap = sn->cap ? sn->cap * 2 : 1 << 16;
		while (cap < sn->len + h->size)
			cap *= 2;
		unsigned char *b = realloc(sn->buf, cap);
		if (!b)
			return -ENOMEM;
		sn->buf = b;
		sn->cap = cap;
	}
	if (sn->n == sn->capn) {
		size_t capn = sn->capn ? sn->capn * 2 : 1024;
		uint32_t *o = realloc(sn->off, capn * sizeof(*o));
		if (!o)
			return -ENOMEM;
		sn->off = o;
		sn->capn = capn;
	}
	sn->off[sn->n++] = (uint32_t)sn->len;
	memcpy(sn->buf + sn->len, h, h->size);
	sn->len += (h->size + 7) & ~7u;
	return 0;
}

static int
smp_collect_cpu(struct smp_session *s, int ci, struct smp_snap *sn)
{
	struct smp_cpu *c = &s->pc[ci];
	const struct perf_event_header *h;
	int err = 0;
	sn->len = sn->n = 0;
	ioctl(c->ringfd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	rb_kring_snapshot(&c->kr);
	while (!err && (h = rb_kring_read_event(&c->kr))) {
		err = smp_snap_add(sn, h);
		rb_kring_consume(&c->kr);
	}
	for (size_t i = sn->n; !err && i-- > 0;) {
		h = (const struct perf_event_header *)(sn->buf + sn->off[i]);
		err = smp_queue(s, ci, h);
	}
	return err ? smp_err(s, err, "out of memory collecting cpu %d's ring", c->cpu) : 0;
}

/* Ring policy: read every ring once, at the end. */
static int
smp_live_collect(struct smp_session *s)
{
	struct smp_snap sn = { 0 };
	int err = 0;
	if (!s->live || s->opts.bufpolicy != 2 || !s->started || s->collected)
		return 0;
	s->collected = 1;
	for (int ci = 0; !err && ci < s->ncpu; ci++)
		if (s->pc[ci].map)
			err = smp_collect_cpu(s, ci, &sn);
	free(sn.buf);
	free(sn.off);
	return err;
}

static void
smp_live_close(struct smp_session *s)
{
	int nt = smp_nthreads(s);
	if (s->started)
		smp_enable_all(s, PERF_EVENT_IOC_DISABLE);
	for (int ci = 0; ci < s->ncpu; ci++) {
		struct smp_cpu *c = &s->pc[ci];
		if (c->map)
			munmap(c->map, c->maplen);
		rb_kring_fini(&c->kr);
		c->map = NULL;
		c->ringfd = -1;
	}
	for (int e = 0; e < s->nev; e++) {
		for (int k = 0; s->ev[e].fds && k < s->ncpu * nt; k++) {
			if (s->ev[e].fds[k] >= 0)
				close(s->ev[e].fds[k]);
			s->ev[e].fds[k] = -1;
		}
	}
	if (s->epfd >= 0)
		close(s->epfd);
	s->epfd = -1;
	s->started = 0;
}

/* The session's end: the recording is completed first (it reads the
 * event table), then the fds and rings go. */
static void
smp_live_end(struct smp_session *s)
{
	if (s->w)
		smp_writer_close(s);
	smp_live_close(s);
}

static void
smp_live_write(struct smp_session *s, const struct perf_event_header *h)
{
	smp_writer_add(s, h);
}

int
smp_open_now(struct smp_session *s, int evidx)
{
	if (!s || !s->live || evidx < 0 || evidx >= s->nev || s->ev[evidx].spec.scope != SMP_TASK)
		return -EINVAL;
	if (s->started)
		return smp_err(s, -EBUSY, "events must be opened before the session starts");
	struct smp_evt *ev = &s->ev[evidx];
	if (ev->early)
		return 0;
	/* The attr smp_start would give it: the ring size is the one known
	 * now, which only grows as events are added (so the watermark stays
	 * within the final ring); the clock is the first one asked for,
	 * which smp_unify_clock keeps. */
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	smp_fix_attr(s, ev, smp_ring_bytes(s, page));
	for (int e = 0; e < s->nev; e++)
		if (e != evidx && s->ev[e].spec.attr.use_clockid) {
			ev->spec.attr.use_clockid = 1;
			ev->spec.attr.clockid = s->ev[e].spec.attr.clockid;
			break;
		}
	int err = smp_alloc_fds(s, evidx), nt = smp_nthreads(s);
	for (int ci = 0; !err && ci < s->ncpu; ci++)
		err = smp_open_one(s, evidx, ci, 0);
	if (!err) {
		ev->early = 1;
		return 0;
	}
	for (int k = 0; k < s->ncpu * nt; k++)
		if (ev->fds[k] >= 0)
			close(ev->fds[k]);
	/* its ids stay in the id map: the kernel never hands them out
	 * again and their fds, never enabled, are closed */
	if (evidx == s->nev - 1) {
		free(ev->name);
		free(ev->ids);
		free(ev->fds);
		s->nev--;
	} else {
		free(ev->fds);
		ev->fds = NULL;
		ev->nids = 0;
	}
	return err;
}
