/*
 * kring.c — reader of one kernel perf ring (see ringbuf.h for the barrier
 * contract).
 *
 *   kernel                            us
 *   read data_tail                    head = load_acquire(data_head)
 *   write record bytes                read record bytes below head
 *   smp_wmb()                         ...
 *   write data_head                   store_release(data_tail, pos)
 *
 * The acquire on data_head orders our reads of the data after the kernel's
 * publication; the release on data_tail orders our last read of a record
 * before the kernel may see its space as free and overwrite it.
 */
#include "ringbuf/ringbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int
rb_kring_init(struct rb_kring *r, void *base, size_t page_size, size_t data_size)
{
	memset(r, 0, sizeof(*r));
	if (!base || data_size == 0 || (data_size & (data_size - 1)))
		return -EINVAL;
	r->meta = base;
	/* Kernels since 4.1 say where the data starts; older ones use page 1. */
	size_t off = r->meta->data_offset ? (size_t)r->meta->data_offset : page_size;
	r->data = (unsigned char *)base + off;
	r->mask = data_size - 1;
	r->pos = __atomic_load_n(&r->meta->data_tail, __ATOMIC_RELAXED);
	r->head = r->pos;
	return 0;
}

void
rb_kring_fini(struct rb_kring *r)
{
	free(r->bounce);
	r->bounce = NULL;
	r->bounce_cap = 0;
}

uint64_t
rb_kring_read_init(struct rb_kring *r)
{
	r->head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	r->cur = 0;
	r->corrupt = 0;
	return r->head - r->pos;
}

static const struct perf_event_header *
rb_kring_bounce(struct rb_kring *r, uint64_t off, uint32_t size)
{
	if (size > r->bounce_cap) {
		size_t cap = r->bounce_cap ? r->bounce_cap : 256;
		while (cap < size)
			cap *= 2;
		unsigned char *nb = realloc(r->bounce, cap);
		if (!nb)
			return NULL;
		r->bounce = nb;
		r->bounce_cap = cap;
	}
	uint64_t first = r->mask + 1 - off;
	memcpy(r->bounce, r->data + off, first);
	memcpy(r->bounce + first, r->data, size - first);
	return (const struct perf_event_header *)r->bounce;
}

const struct perf_event_header *
rb_kring_read_event(struct rb_kring *r)
{
	if (r->corrupt || r->head - r->pos < sizeof(struct perf_event_header))
		return NULL;
	uint64_t off = r->pos & r->mask;
	struct perf_event_header h;
	/* The header itself may straddle the end only if the kernel wrote an
	 * unaligned record; copy it bytewise to stay safe. */
	if (off + sizeof(h) <= r->mask + 1) {
		memcpy(&h, r->data + off, sizeof(h));
	} else {
		uint64_t first = r->mask + 1 - off;
		memcpy(&h, r->data + off, first);
		memcpy((unsigned char *)&h + first, r->data, sizeof(h) - first);
	}
	/* In a snapshot, a zero header is where nothing was written yet. */
	if (h.size < sizeof(h) || h.size > r->head - r->pos) {
		r->corrupt = 1;
		return NULL;
	}
	r->cur = h.size;
	if (off + h.size <= r->mask + 1)
		return (const struct perf_event_header *)(r->data + off);
	return rb_kring_bounce(r, off, h.size);
}

void
rb_kring_consume(struct rb_kring *r)
{
	r->pos += r->cur;
	r->cur = 0;
}

void
rb_kring_read_done(struct rb_kring *r)
{
	/* A corrupt header means we cannot find the next record: drop the
	 * rest of what the kernel published rather than spin on it. */
	if (r->corrupt)
		r->pos = r->head;
	__atomic_store_n(&r->meta->data_tail, r->pos, __ATOMIC_RELEASE);
}

uint64_t
rb_kring_snapshot(struct rb_kring *r)
{
	r->pos = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	r->head = r->pos + r->mask + 1;	/* at most one ring's worth */
	r->cur = 0;
	r->corrupt = 0;
	return r->mask + 1;
}
