/*
 * ringbuf.h — reading the kernel's perf rings, our own SPSC rings, and
 * the timestamp-ordered merge.
 *
 * Kernel ring (rb_kring): one reader per ring.  The kernel writes records
 * and then publishes data_head; we read it with a load-acquire so that
 * every byte below it is visible, and after consuming we publish data_tail
 * with a store-release so that the kernel never overwrites a byte we are
 * still reading.  This pairs with the kernel's "read tail, write data,
 * smp_wmb, write head" sequence.  Protocol: rb_kring_read_init, then
 * rb_kring_read_event/rb_kring_consume in a loop, then rb_kring_read_done.
 * A record that wraps past the end of the ring is copied into the ring's
 * bounce buffer, so callers always see one contiguous record.
 *
 * SPSC ring (rb_spsc): exactly one producer thread and one consumer
 * thread; variable-length records; lock-free, same acquire/release
 * pairing on our own head/tail.  Neither side blocks: reserve fails when
 * full, peek fails when empty.
 *
 * Merge (rb_merge): per-source FIFOs (one per CPU) whose records arrive
 * in time order per source; a min-heap over the sources' oldest
 * timestamps delivers records globally ordered up to a watermark given by
 * the caller (everything older than it can no longer be overtaken), like
 * perf's ordered events flushed at FINISHED_ROUND.  Single-threaded.
 *
 * Functions returning int return 0 or -errno unless stated.
 */
#ifndef PMCTRACE_RINGBUF_H
#define PMCTRACE_RINGBUF_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

/* ---- kernel perf ring reader ---- */

struct rb_kring {
	struct perf_event_mmap_page *meta;	/* first page of the mapping */
	unsigned char *data;			/* data area, a power of two */
	uint64_t mask;				/* data size - 1 */
	uint64_t head;				/* data_head acquired by read_init */
	uint64_t pos;				/* next byte to read */
	uint32_t cur;				/* size of the record last returned */
	int corrupt;				/* a record header made no sense */
	unsigned char *bounce;			/* copy of a wrapped record */
	size_t bounce_cap;
};

/* base: the mmapped area (1 + 2^n pages); data_size: 2^n * page size. */
int rb_kring_init(struct rb_kring *r, void *base, size_t page_size, size_t data_size);
void rb_kring_fini(struct rb_kring *r);
/* Snapshot data_head; returns the number of unread bytes. */
uint64_t rb_kring_read_init(struct rb_kring *r);
/* Next record, contiguous, or NULL when everything up to the snapshot has
 * been returned (or a header is corrupt: r->corrupt is then set and the
 * rest of the snapshot is skipped by read_done). */
const struct perf_event_header *rb_kring_read_event(struct rb_kring *r);
void rb_kring_consume(struct rb_kring *r);
/* Publish data_tail: the kernel may reuse everything consumed. */
void rb_kring_read_done(struct rb_kring *r);
/* Overwrite mode (a read-only mapping of an event with write_backward):
 * the kernel writes downwards and never waits for us, so we read a
 * snapshot once, with output paused: from data_head forwards, newest
 * record first, until a zero header (never written) or a record that
 * would run past one ring's length (partly overwritten).  Then use
 * rb_kring_read_event/consume as usual; no read_done. */
uint64_t rb_kring_snapshot(struct rb_kring *r);

/* ---- single-producer / single-consumer ring of variable records ---- */

struct rb_spsc {
	/* producer's cache line */
	_Alignas(64) uint64_t head;		/* published by the producer */
	uint64_t tail_cache;			/* producer's view of tail */
	uint64_t pending;			/* bytes of the reserved record */
	/* consumer's cache line */
	_Alignas(64) uint64_t tail;		/* published by the consumer */
	uint64_t head_cache;			/* consumer's view of head */
	uint64_t cur;				/* bytes of the record peeked */
	_Alignas(64) unsigned char *buf;
	uint64_t mask;
};

int rb_spsc_init(struct rb_spsc *r, size_t size);	/* size: power of two >= 64 */
void rb_spsc_fini(struct rb_spsc *r);
/* Producer: room for len bytes (8-aligned), NULL if full; then commit. */
void *rb_spsc_reserve(struct rb_spsc *r, uint32_t len);
void rb_spsc_commit(struct rb_spsc *r);
/* Consumer: oldest record or NULL if empty; then release it. */
const void *rb_spsc_peek(struct rb_spsc *r, uint32_t *len);
void rb_spsc_release(struct rb_spsc *r);
uint64_t rb_spsc_used(const struct rb_spsc *r);		/* bytes, approximate */

/* ---- timestamp-ordered merge of per-source queues ---- */

struct rb_mq;

struct rb_merge {
	struct rb_mq *q;
	int nq;
	int *heap;		/* indices of non-empty queues, min key on top */
	int nheap;
	uint64_t bytes;		/* queued bytes, for the caller's memory bound */
	uint64_t nrec;		/* queued records */
	uint64_t max_time;	/* newest timestamp pushed so far */
};

/* Called once per record in time order (ties: lower source, then FIFO).
 * A nonzero return stops delivery after this record has been consumed. */
typedef int (*rb_merge_cb)(void *arg, int src, uint64_t time, const void *rec, uint32_t len);

int rb_merge_init(struct rb_merge *m, int nsources);
void rb_merge_fini(struct rb_merge *m);
/* Copy a record into source src's queue.  A timestamp older than the
 * source's previous one is ordered as if it equalled it. */
int rb_merge_push(struct rb_merge *m, int src, uint64_t time, const void *rec, uint32_t len);
/* A source whose previous timestamp is <= time, so that pushing there
 * keeps it ordered: hint if it fits, else the best fit (newest such
 * source), else hint.  Lets a caller whose records do not come grouped by
 * CPU (a perf.data file without PERF_SAMPLE_CPU) sort them exactly. */
int rb_merge_fit(const struct rb_merge *m, int hint, uint64_t time);
/* Deliver every queued record with time <= upto.  Returns the number
 * delivered, or the callback's nonzero value, or -errno. */
int64_t rb_merge_emit(struct rb_merge *m, uint64_t upto, rb_merge_cb cb, void *arg);
/* Deliver the single oldest record (for memory bounds). 1, 0 if empty, or cb's value. */
int rb_merge_emit_one(struct rb_merge *m, rb_merge_cb cb, void *arg);

#endif
