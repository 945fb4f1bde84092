/*
 * smp_impl.h — sampler internals shared by its files (not a contract).
 *
 * session.c  common state: events, id map, merge, delivery, drops, deltas
 * decode.c   pure decoding of one record given its attr
 * live.c     perf_event_open, mmap, epoll, draining the kernel rings
 * file.c     perf.data (file and pipe mode) parsing over a byte buffer
 * writer.c   writing what a live session reads as a perf.data file
 * tracedata.c  the tracefs format files of its tracepoint events, for it
 */
#ifndef PMCTRACE_SMP_IMPL_H
#define PMCTRACE_SMP_IMPL_H

#include "sampler/sampler.h"
#include "ringbuf/ringbuf.h"

#include <stdarg.h>
#include <stdio.h>

struct smp_evt {
	struct smp_event_spec spec;	/* spec.attr is what was (or will be) opened */
	char *name;
	uint64_t *ids;			/* kernel/sample ids of this event's fds */
	int nids, capids;
	int *fds;			/* live: [cpu index * nthreads + thread] */
	int early;			/* live: opened by smp_open_now */
};

struct smp_cpu {
	int cpu;			/* CPU number (live) */
	int ringfd;			/* fd whose ring the others write into */
	void *map;
	size_t maplen;
	struct rb_kring kr;
	uint64_t drops, reported;	/* drops counted / already reported */
};

/* Layout of sample ids, common to all attrs of a session. */
struct smp_idpos {
	int sample_pos;			/* u64 index of the id after the header, -1 none */
	int trailer_pos;		/* u64 index from the end of a side-band record */
};

struct smp_idmap {
	uint64_t *key;
	int *val;
	size_t cap, n;
};

struct smp_delta {			/* last value read per counter id */
	struct smp_idmap idx;
	uint64_t *value, *enabled, *running;
	size_t n, cap;
};

struct smp_file;
struct smp_writer;

/* What differs between a live session and a replayed one, hidden as ae.c
 * hides its poll backend: live.c and file.c each fill one table, and
 * session.c calls through it without asking which kind it holds. */
struct smp_backend {
	/* Deliver what is ready (live: waiting at most timeout_ms for it). */
	int (*sb_poll)(struct smp_session *s, int timeout_ms, smp_record_cb cb, void *arg);
	/* bufpolicy=ring: read every ring once, at the end (NULL: none). */
	int (*sb_collect)(struct smp_session *s);
	/* Release what the backend holds: fds, maps, the recording, the file. */
	void (*sb_close)(struct smp_session *s);
	/* Write one delivered record into the recording (s->w set). */
	void (*sb_write)(struct smp_session *s, const struct perf_event_header *h);
	/* Drops and throttles are counted by the record's CPU (a file),
	 * not by the ring it came from (live). */
	int sb_slot_by_cpu;
};

struct smp_session {
	const struct smp_backend *be;
	int live;
	struct smp_opts opts;
	int32_t *pids;
	struct smp_evt *ev;
	int nev, capev;
	struct smp_idmap ids;		/* sample id -> evidx */
	struct smp_idpos idpos;
	int ncpu;			/* live rings, or drop slots in replay */
	struct smp_cpu *pc;
	int epfd;
	int nhup, nwatch;		/* target fds that hung up / watched */
	int started, eof;
	int collected;			/* bufpolicy=ring: rings read at the end */
	struct rb_merge merge;
	uint64_t round_max;		/* newest time seen when the last round ended */
	uint64_t throttled;		/* THROTTLE records seen */
	int fifo;			/* replay in file order: a pmctrace recording */
	char *notes;			/* live: smp_note lines, for a recording */
	size_t notes_len;
	struct smp_delta delta;
	struct smp_read rd;		/* decode scratch */
	struct smp_file *f;
	struct smp_writer *w;
	char err[512];
};

/* session.c */
int smp_err(struct smp_session *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct smp_session *smp_session_new(const struct smp_backend *be);
int smp_event_new(struct smp_session *s, const struct smp_event_spec *spec, const char *name);
int smp_evt_add_id(struct smp_session *s, int evidx, uint64_t id);
int smp_idmap_put(struct smp_idmap *m, uint64_t key, int val);
int smp_idmap_get(const struct smp_idmap *m, uint64_t key);	/* -1 if absent */
void smp_idmap_free(struct smp_idmap *m);
void smp_compute_idpos(struct smp_session *s);
int smp_record_evidx(const struct smp_session *s, const struct perf_event_header *h, size_t len);
int smp_queue(struct smp_session *s, int hint, const struct perf_event_header *h);
int64_t smp_emit(struct smp_session *s, uint64_t upto, smp_record_cb cb, void *arg);
int smp_emit_oldest(struct smp_session *s, smp_record_cb cb, void *arg);
void smp_open_failed(struct smp_session *s, int err);	/* keeps the message, closes s */
void smp_open_failed_msg(const char *msg);
void smp_count_drop(struct smp_session *s, int cpu, uint64_t n);

/* decode.c — rec/len is one whole record; attr may be NULL for records of
 * an unknown event (then only the header is filled). */
int smp_decode(const struct perf_event_attr *attr, const struct perf_event_header *h,
	       struct smp_record *out, struct smp_read *rd);
int smp_sample_id(const struct perf_event_attr *attr, const struct perf_event_header *h,
		  struct smp_record *out);
uint64_t smp_record_time(const struct perf_event_attr *attr, const struct perf_event_header *h);
int smp_record_cpu(const struct perf_event_attr *attr, const struct perf_event_header *h);
size_t smp_attr_copy(struct perf_event_attr *dst, const void *src, size_t avail);

/* writer.c; SMP_WRITER_VERSION in HEADER_VERSION marks a file written
 * in delivery order (replayed in file order, so exactly as it ran) */
#define SMP_WRITER_VERSION "6.1 (pmctrace, delivery order)"
int smp_writer_open(struct smp_session *s, const char *path);
int smp_writer_add(struct smp_session *s, const struct perf_event_header *h);
int smp_writer_synthesize(struct smp_session *s);	/* COMM/MMAP2 of running processes */
int smp_writer_round(struct smp_session *s);
int smp_writer_close(struct smp_session *s);

/* tracedata.c — perf's TRACING_DATA payload for the session's tracepoint
 * events (malloc'd into *out); -ENOENT when there are none or no tracefs. */
int smp_tracing_data_build(const struct smp_session *s, unsigned char **out, size_t *len);

#endif
