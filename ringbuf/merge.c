/*
 * merge.c — timestamp-ordered merge of per-source record queues.
 *
 * Each source (a CPU) owns a growable byte FIFO of entries
 * {key, time, len, kind} + record, never wrapping (a SKIP entry pads the
 * end).  Records of one source arrive in time order, so only the head of
 * each queue competes: a binary min-heap of queue indices keyed by
 * (head key, source) picks the next record.  The caller supplies the
 * watermark; everything at or below it is final.
 */
#include "ringbuf/ringbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { RB_MQ_DATA = 1, RB_MQ_SKIP = 2 };

struct rb_mq_ent {
	uint64_t key;		/* ordering key: time, clamped to be monotonic */
	uint64_t time;		/* the record's own timestamp */
	uint32_t len;
	uint32_t kind;
};

struct rb_mq {
	unsigned char *buf;
	uint64_t cap;		/* power of two */
	uint64_t rd, wr;
	uint64_t last_key;
};

#define RB_ALIGN8(x) (((uint64_t)(x) + 7) & ~(uint64_t)7)
#define RB_ENT_SPAN(len) (sizeof(struct rb_mq_ent) + RB_ALIGN8(len))

int
rb_merge_init(struct rb_merge *m, int nsources)
{
	memset(m, 0, sizeof(*m));
	if (nsources <= 0)
		return -EINVAL;
	m->q = calloc((size_t)nsources, sizeof(*m->q));
	m->heap = calloc((size_t)nsources, sizeof(*m->heap));
	if (!m->q || !m->heap) {
		rb_merge_fini(m);
		return -ENOMEM;
	}
	m->nq = nsources;
	return 0;
}

void
rb_merge_fini(struct rb_merge *m)
{
	for (int i = 0; m->q && i < m->nq; i++)
		free(m->q[i].buf);
	free(m->q);
	free(m->heap);
	memset(m, 0, sizeof(*m));
}

/* Bytes from position p to the next entry: a SKIP entry's span, or the
 * rest of the buffer when it is too short to hold an entry header at all
 * (no marker fits there, so the padding is implicit); 0 for data. */
static uint64_t
rb_mq_pad(const struct rb_mq *q, uint64_t p)
{
	uint64_t off = p & (q->cap - 1);
	if (q->cap - off < sizeof(struct rb_mq_ent))
		return q->cap - off;
	const struct rb_mq_ent *e = (const struct rb_mq_ent *)(q->buf + off);
	return e->kind == RB_MQ_DATA ? 0 : RB_ENT_SPAN(e->len);
}

/* The head entry of q, stepping over padding; NULL if empty. */
static struct rb_mq_ent *
rb_mq_head(struct rb_mq *q)
{
	while (q->rd != q->wr) {
		uint64_t pad = rb_mq_pad(q, q->rd);
		if (!pad)
			return (struct rb_mq_ent *)(q->buf + (q->rd & (q->cap - 1)));
		q->rd += pad;
	}
	return NULL;
}

/* Re-lay the queue's entries from offset 0 of a buffer of newcap bytes. */
static int
rb_mq_grow(struct rb_mq *q, uint64_t newcap)
{
	unsigned char *nb = malloc(newcap);
	if (!nb)
		return -ENOMEM;
	uint64_t out = 0;
	for (uint64_t p = q->rd; p != q->wr;) {
		uint64_t pad = rb_mq_pad(q, p);
		if (pad) {
			p += pad;
			continue;
		}
		struct rb_mq_ent *e = (struct rb_mq_ent *)(q->buf + (p & (q->cap - 1)));
		uint64_t span = RB_ENT_SPAN(e->len);
		memcpy(nb + out, e, span);
		out += span;
		p += span;
	}
	free(q->buf);
	q->buf = nb;
	q->cap = newcap;
	q->rd = 0;
	q->wr = out;
	return 0;
}

static int
rb_mq_push(struct rb_mq *q, uint64_t time, const void *rec, uint32_t len)
{
	uint64_t need = RB_ENT_SPAN(len);
	for (;;) {
		uint64_t off = q->cap ? (q->wr & (q->cap - 1)) : 0;
		uint64_t skip = (q->cap && off + need > q->cap) ? q->cap - off : 0;
		if (q->cap && q->wr + skip + need - q->rd <= q->cap) {
			if (skip >= sizeof(struct rb_mq_ent)) {
				struct rb_mq_ent *s = (struct rb_mq_ent *)(q->buf + off);
				s->kind = RB_MQ_SKIP;
				s->len = (uint32_t)(skip - sizeof(*s));
			}
			if (skip) {
				q->wr += skip;
				off = 0;
			}
			struct rb_mq_ent *e = (struct rb_mq_ent *)(q->buf + off);
			e->key = time > q->last_key ? time : q->last_key;
			e->time = time;
			e->len = len;
			e->kind = RB_MQ_DATA;
			memcpy(e + 1, rec, len);
			q->last_key = e->key;
			q->wr += need;
			return 0;
		}
		uint64_t newcap = q->cap ? q->cap * 2 : 4096;
		while (newcap < (q->wr - q->rd) + 2 * need)
			newcap *= 2;
		int err = rb_mq_grow(q, newcap);
		if (err)
			return err;
	}
}

static int
rb_heap_less(const struct rb_merge *m, int a, int b)
{
	uint64_t ka = rb_mq_head(&m->q[a])->key, kb = rb_mq_head(&m->q[b])->key;
	return ka < kb || (ka == kb && a < b);
}

static void
rb_heap_up(struct rb_merge *m, int i)
{
	while (i > 0) {
		int p = (i - 1) / 2;
		if (!rb_heap_less(m, m->heap[i], m->heap[p]))
			break;
		int t = m->heap[i]; m->heap[i] = m->heap[p]; m->heap[p] = t;
		i = p;
	}
}

static void
rb_heap_down(struct rb_merge *m, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, s = i;
		if (l < m->nheap && rb_heap_less(m, m->heap[l], m->heap[s]))
			s = l;
		if (r < m->nheap && rb_heap_less(m, m->heap[r], m->heap[s]))
			s = r;
		if (s == i)
			return;
		int t = m->heap[i]; m->heap[i] = m->heap[s]; m->heap[s] = t;
		i = s;
	}
}

int
rb_merge_push(struct rb_merge *m, int src, uint64_t time, const void *rec, uint32_t len)
{
	if (src < 0 || src >= m->nq)
		return -EINVAL;
	struct rb_mq *q = &m->q[src];
	int was_empty = rb_mq_head(q) == NULL;
	int err = rb_mq_push(q, time, rec, len);
	if (err)
		return err;
	m->bytes += len;
	m->nrec++;
	if (time > m->max_time)
		m->max_time = time;
	if (was_empty) {
		m->heap[m->nheap++] = src;
		rb_heap_up(m, m->nheap - 1);
	}
	return 0;
}

int
rb_merge_fit(const struct rb_merge *m, int hint, uint64_t time)
{
	if (hint >= 0 && hint < m->nq && m->q[hint].last_key <= time)
		return hint;
	int best = -1;
	for (int i = 0; i < m->nq; i++)
		if (m->q[i].last_key <= time && (best < 0 || m->q[i].last_key > m->q[best].last_key))
			best = i;
	return best >= 0 ? best : hint;
}

/* Pop the top record, deliver it, fix the heap.  Returns cb's value. */
static int
rb_merge_pop(struct rb_merge *m, rb_merge_cb cb, void *arg)
{
	int src = m->heap[0];
	struct rb_mq *q = &m->q[src];
	struct rb_mq_ent *e = rb_mq_head(q);
	uint64_t span = RB_ENT_SPAN(e->len);
	/* The entry stays valid while the callback runs: nothing pushes to
	 * this queue until we return, and rd moves only afterwards. */
	int rc = cb ? cb(arg, src, e->time, e + 1, e->len) : 0;
	m->bytes -= e->len;
	m->nrec--;
	q->rd += span;
	if (rb_mq_head(q)) {
		rb_heap_down(m, 0);
	} else {
		m->heap[0] = m->heap[--m->nheap];
		if (m->nheap)
			rb_heap_down(m, 0);
	}
	return rc;
}

int64_t
rb_merge_emit(struct rb_merge *m, uint64_t upto, rb_merge_cb cb, void *arg)
{
	int64_t n = 0;
	while (m->nheap && rb_mq_head(&m->q[m->heap[0]])->key <= upto) {
		int rc = rb_merge_pop(m, cb, arg);
		n++;
		if (rc)
			return rc;
	}
	return n;
}

int
rb_merge_emit_one(struct rb_merge *m, rb_merge_cb cb, void *arg)
{
	if (!m->nheap)
		return 0;
	int rc = rb_merge_pop(m, cb, arg);
	return rc ? rc : 1;
}
