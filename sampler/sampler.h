/*
 * sampler.h — perf events in, one time-ordered record stream out.
 *
 * A session is either live (smp_open_live: events are added with
 * smp_add_event, opened per online CPU or per target task, their kernel
 * rings mmapped) or a replay of a perf.data file (smp_open_file: the
 * file's events are listed by smp_nevents/smp_event and claimed by
 * providers with smp_claim).  Either way smp_poll() drains the rings (or
 * the file), merges records by timestamp within a bounded window and calls
 * the callback once per record, on the calling thread, in time order.
 * Lost records and full buffers are counted per CPU (smp_drops).
 * int functions return 0 or -errno; smp_errmsg() has the human text.
 * A live session optionally records what it delivers into a perf.data
 * file (smp_record_to) that perf report/perf script accept: a record is
 * written as it is handed to the callback, so records left undelivered
 * (after a callback stopped the poll, at exit()) are not in the file.
 * Live attrs are adjusted at smp_start: sample_type gains TIME, TID, CPU
 * and IDENTIFIER, sample_id_all is set, READ gets PERF_FORMAT_ID, leaders
 * start disabled (then enabled together), wakeups use a watermark of half
 * a ring (smp_poll drains on its own timer well before), and if any event
 * sets use_clockid all get its clockid (events sharing a ring must share
 * a clock).  bufpolicy: 1 (fill) disables every event at the first loss;
 * 2 (ring) maps the rings read-only with write_backward, so the kernel
 * keeps only the newest records; they are read once, at smp_flush (or
 * when the targets are gone), and smp_poll delivers nothing before.
 */
#ifndef PMCTRACE_SAMPLER_H
#define PMCTRACE_SAMPLER_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <stddef.h>

struct smp_session;

/* Where an event counts. */
enum smp_scope {
	SMP_EACH_CPU,	/* one fd per online CPU, all tasks (or the target) */
	SMP_ONE_CPU,	/* only on spec.cpu */
	SMP_TASK,	/* only thread spec.task (and, with attr.inherit, the threads
			 * and children it creates): one fd per online CPU with
			 * pid = spec.task, into that CPU's ring; no group */
};

struct smp_event_spec {
	struct perf_event_attr attr;	/* type/config/sample_type/... set by caller */
	enum smp_scope scope;
	int cpu;			/* SMP_ONE_CPU only */
	int group_leader;		/* evidx of the leader added earlier, or -1 */
	const char *name;		/* for messages and the recorded EVENT_DESC */
	void *owner;			/* routing: who decodes this event's samples */
	uint64_t cookie;
	int32_t task;			/* SMP_TASK: the thread id */
	/* Called once by smp_close after the event's fds are closed (a
	 * provider removes what the event needed, a tracefs probe...). */
	void (*closed)(void *closed_arg);
	void *closed_arg;
	/* Live: called once at the end of smp_start, every event open,
	 * mapped and enabled (a provider hands their fds to the kernel:
	 * smp_event_fd); nonzero fails smp_start, smp_errmsg set. */
	int (*started)(void *started_arg, struct smp_session *s);
	void *started_arg;
};

struct smp_opts {
	int32_t *target_pids;		/* NULL/0 = system-wide */
	int ntarget_pids;
	int inherit;			/* follow children of the targets */
	size_t bufsize;			/* bytes of kernel ring per CPU (0 = default) */
	uint64_t switchrate_ns;		/* longest wait in smp_poll (0 or more than 10 ms: 10 ms) */
	int bufpolicy;			/* 0 switch, 1 fill, 2 ring */
};

/* Values carried by PERF_SAMPLE_READ (one counter, or FORMAT_GROUP).
 * delta is value minus the value this same counter id had at its previous
 * read (ids are per CPU and per event, so this is the per-CPU delta; for
 * an inherited event, whose children report under the parent's id, it is
 * per CPU and thread; the first read counts from zero).  Scaling by time_enabled/time_running is
 * the caller's choice (multiplexing is an explicit opt-in):
 * smp_read_scaled() does it. */
#define SMP_READ_MAX 16
struct smp_read {
	uint64_t time_enabled, time_running;	/* 0 unless read_format has them */
	uint64_t d_enabled, d_running;		/* their deltas, as for values */
	uint32_t nr;				/* entries in v[] (at most SMP_READ_MAX) */
	struct { uint64_t value, id, lost, delta; int evidx; } v[SMP_READ_MAX];
};

/* One record of the merged stream.  Pointers are valid only during the
 * callback.  For samples every field the event's sample_type carries is
 * decoded (the others are zero); for side-band records (COMM, MMAP2,
 * FORK, EXIT, LOST, SWITCH, ...) hdr points at the raw record and
 * pid/tid/time/cpu/id come from its sample_id trailer where the event has
 * sample_id_all.  cpu is the ring's CPU live, or the recorded CPU. */
struct smp_record {
	uint32_t type;			/* PERF_RECORD_* */
	uint16_t misc;
	int evidx;			/* the event that produced it, or -1 */
	const struct smp_event_spec *spec;	/* its spec (owner, cookie), or NULL */
	uint64_t id, ip, addr, period, time;
	int32_t pid, tid;
	uint32_t cpu;
	const uint64_t *callchain;	/* with PERF_CONTEXT_* markers, as the kernel wrote it */
	uint32_t nr_callchain;
	const void *raw;		/* tracepoint payload */
	uint32_t raw_size;
	const struct smp_read *read;
	const struct perf_event_header *hdr;
	/* less common sample fields */
	uint64_t stream_id, weight, data_src, transaction, phys_addr, cgroup;
	const struct perf_branch_entry *branches;	/* BRANCH_STACK */
	uint32_t nr_branches;
	uint64_t branch_hw_idx;		/* -1ULL unless the attr asked for it */
	uint64_t regs_abi;		/* REGS_USER: 0 = none for this sample */
	const uint64_t *regs;		/* one per bit of attr.sample_regs_user */
	uint32_t nr_regs;
	const void *ustack;		/* STACK_USER bytes (ustack_size), valid dyn_size */
	uint64_t ustack_size, ustack_dyn_size;
};

static inline uint64_t
smp_read_scaled(const struct smp_read *r, int i)
{
	if (!r->d_running || r->d_running >= r->d_enabled)
		return r->v[i].delta;
	return (uint64_t)((double)r->v[i].delta * (double)r->d_enabled / (double)r->d_running);
}

typedef int (*smp_record_cb)(void *arg, const struct smp_record *rec);

struct smp_session *smp_open_live(const struct smp_opts *o, int *errp);
struct smp_session *smp_open_file(const char *path, int *errp);
/* The same over bytes in memory (file or pipe layout).  The buffer must
 * outlive the session.  Pure: no I/O, so a fuzzer can call it directly. */
struct smp_session *smp_open_buf(const void *buf, size_t len, int *errp);
void smp_close(struct smp_session *s);	/* closes every fd, unmaps every ring */

int smp_add_event(struct smp_session *s, const struct smp_event_spec *spec, int *evidx);
int smp_start(struct smp_session *s);	/* open + mmap + enable everything added */
/* Open an SMP_TASK event now, before smp_start, with the attr smp_start
 * would give it (left disabled until smp_start enables everything), so
 * that the caller learns at once whether the kernel takes it.  On failure
 * the event, which must be the last one added, is removed again (its
 * closed hook is not called) and -errno is returned, smp_errmsg set. */
int smp_open_now(struct smp_session *s, int evidx);

/* Live, after smp_start: the fd of event evidx on CPU cpu (a system-wide
 * session's SMP_EACH_CPU or SMP_ONE_CPU event), else -1.  The session owns
 * it; it stays open until smp_close. */
int smp_event_fd(const struct smp_session *s, int evidx, int cpu);
/* Set the message smp_errmsg(s) returns; returns err. */
int smp_set_error(struct smp_session *s, int err, const char *msg);

/* Replay: events found in the file, and providers claiming them. */
int smp_nevents(const struct smp_session *s);
const struct smp_event_spec *smp_event(const struct smp_session *s, int evidx);
void smp_claim(struct smp_session *s, int evidx, void *owner, uint64_t cookie);

/* Drain whatever is ready (waiting at most timeout_ms), deliver records in
 * time order. Returns the number delivered, 0 at end of file / nothing,
 * or a negative error; a callback returning nonzero stops the poll early
 * and that value is returned. smp_flush delivers what the reorder window
 * still holds (at the end of a run). */
int smp_poll(struct smp_session *s, int timeout_ms, smp_record_cb cb, void *arg);
int smp_flush(struct smp_session *s, smp_record_cb cb, void *arg);
int smp_at_eof(const struct smp_session *s);

/* Drops per CPU since the last call (lost records and full rings). */
int smp_drops(struct smp_session *s, uint32_t *cpu, uint64_t *ndrops, int max);
/* THROTTLE records so far: times the kernel slowed an event's sampling
 * (kernel.perf_event_max_sample_rate); no record was lost. */
uint64_t smp_throttled(const struct smp_session *s);

int smp_record_to(struct smp_session *s, const char *path);	/* before smp_start */
/* Recording, from a callback: the caller just learned of process pid
 * from /proc rather than from records (it predates the run); a COMM
 * record of the name it now gives pid (NULL: none) and MMAP2 records of
 * pid's mappings go into the file before the record being delivered, at
 * time - 1, so a replay learns the same at the same point.  No-op unless
 * recording.  smp_record_comm writes the name alone. */
void smp_record_process(struct smp_session *s, int32_t pid, const char *comm, uint64_t time);
void smp_record_comm(struct smp_session *s, int32_t pid, const char *comm, uint64_t time);

/* Recording: one line of what a provider needs to decode its events in
 * a replay that this machine's state no longer tells (the pid
 * provider's uprobes are gone with the run): kept in the file's own
 * feature (SMP_FEAT_NOTES; perf skips it), returned by smp_file_notes()
 * when the file is replayed, lines in the order noted.  Live sessions
 * only (kept whether or not smp_record_to comes later); -ENOMEM if the
 * line cannot be kept. */
int smp_note(struct smp_session *s, const char *line);
const char *smp_file_notes(const struct smp_session *s);	/* NULL if none */

/* Replay only: what the file's header says.  Feature numbers are perf's
 * HEADER_* ids (HEADER_HOSTNAME = 3, OSRELEASE 4, VERSION 5, ARCH 6,
 * CPUDESC 8, CPUID 9, CMDLINE 11 ...); NULL if absent.  The tracing data
 * (tracepoint format files, from the TRACING_DATA feature or record) is
 * returned as perf wrote it, for the providers to parse. */
const char *smp_file_str(const struct smp_session *s, int feature);
const void *smp_tracing_data(const struct smp_session *s, size_t *len);
int smp_file_nrcpus(const struct smp_session *s, int *avail, int *online);
int smp_file_is_pipe(const struct smp_session *s);
enum {
	SMP_FEAT_TRACING_DATA = 1, SMP_FEAT_BUILD_ID = 2, SMP_FEAT_HOSTNAME = 3,
	SMP_FEAT_OSRELEASE = 4, SMP_FEAT_VERSION = 5, SMP_FEAT_ARCH = 6,
	SMP_FEAT_NRCPUS = 7, SMP_FEAT_CPUDESC = 8, SMP_FEAT_CPUID = 9,
	SMP_FEAT_TOTAL_MEM = 10, SMP_FEAT_CMDLINE = 11, SMP_FEAT_EVENT_DESC = 12,
	SMP_FEAT_GROUP_DESC = 17, SMP_FEAT_COMPRESSED = 27, SMP_FEAT_MAX = 64,
	SMP_FEAT_PMU_MAPPINGS = 16, SMP_FEAT_CPU_PMU_CAPS = 28,
	SMP_FEAT_HYBRID_TOPOLOGY = 30, SMP_FEAT_PMU_CAPS = 31,
	SMP_FEAT_NOTES = 250,	/* pmctrace's: far above perf's, which it skips */
};
/* Replay: the bytes of a PMU feature (PMU_MAPPINGS, CPU_PMU_CAPS,
 * HYBRID_TOPOLOGY, PMU_CAPS) as perf wrote them, for pmu/ to read; NULL if
 * absent. */
const void *smp_file_feature(const struct smp_session *s, int feature, size_t *len);
/* Human text of the last error; smp_errmsg(NULL) gives the reason the
 * last smp_open_* on this thread returned NULL. */
const char *smp_errmsg(const struct smp_session *s);

/* Online CPUs (count, and the list). */
int smp_online_cpus(int *cpus, int max);

#endif
