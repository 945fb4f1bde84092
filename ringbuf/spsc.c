/*
 * spsc.c — lock-free single-producer/single-consumer ring of variable
 * length records.
 *
 * Each record is an 8-byte header {u32 len, u32 kind} followed by the
 * payload rounded up to 8 bytes.  A record never wraps: when it does not
 * fit before the end, the producer writes a SKIP header there and starts
 * the record at offset 0.  The producer publishes head with a
 * store-release after writing the bytes; the consumer acquires head
 * before reading them and releases tail after it is done, which the
 * producer acquires before reusing the space.  Each side caches the
 * other's position so that the shared cache line is touched only when
 * the cached view says the ring is full (or empty).
 */
#include "ringbuf/ringbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { RB_SPSC_DATA = 1, RB_SPSC_SKIP = 2 };

struct rb_spsc_hdr {
	uint32_t len;
	uint32_t kind;
};

#define RB_ALIGN8(x) (((uint64_t)(x) + 7) & ~(uint64_t)7)

int
rb_spsc_init(struct rb_spsc *r, size_t size)
{
	memset(r, 0, sizeof(*r));
	if (size < 64 || (size & (size - 1)))
		return -EINVAL;
	r->buf = aligned_alloc(64, size);
	if (!r->buf)
		return -ENOMEM;
	r->mask = size - 1;
	return 0;
}

void
rb_spsc_fini(struct rb_spsc *r)
{
	free(r->buf);
	r->buf = NULL;
}

void *
rb_spsc_reserve(struct rb_spsc *r, uint32_t len)
{
	uint64_t size = r->mask + 1;
	uint64_t need = sizeof(struct rb_spsc_hdr) + RB_ALIGN8(len);
	uint64_t off = r->head & r->mask;
	uint64_t skip = (off + need > size) ? size - off : 0;
	if (need > size / 2)
		return NULL;
	if (r->head + skip + need - r->tail_cache > size) {
		r->tail_cache = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
		if (r->head + skip + need - r->tail_cache > size)
			return NULL;
	}
	if (skip) {
		struct rb_spsc_hdr *sh = (struct rb_spsc_hdr *)(r->buf + off);
		sh->len = (uint32_t)(skip - sizeof(*sh));
		sh->kind = RB_SPSC_SKIP;
		off = 0;
	}
	struct rb_spsc_hdr *h = (struct rb_spsc_hdr *)(r->buf + off);
	h->len = len;
	h->kind = RB_SPSC_DATA;
	r->pending = skip + need;
	return h + 1;
}

void
rb_spsc_commit(struct rb_spsc *r)
{
	__atomic_store_n(&r->head, r->head + r->pending, __ATOMIC_RELEASE);
	r->pending = 0;
}

const void *
rb_spsc_peek(struct rb_spsc *r, uint32_t *len)
{
	for (;;) {
		if (r->tail == r->head_cache) {
			r->head_cache = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
			if (r->tail == r->head_cache)
				return NULL;
		}
		const struct rb_spsc_hdr *h =
			(const struct rb_spsc_hdr *)(r->buf + (r->tail & r->mask));
		uint64_t span = sizeof(*h) + RB_ALIGN8(h->len);
		if (h->kind == RB_SPSC_SKIP) {
			/* Publishing the skip early only frees space sooner. */
			__atomic_store_n(&r->tail, r->tail + span, __ATOMIC_RELEASE);
			continue;
		}
		r->cur = span;
		*len = h->len;
		return h + 1;
	}
}

void
rb_spsc_release(struct rb_spsc *r)
{
	__atomic_store_n(&r->tail, r->tail + r->cur, __ATOMIC_RELEASE);
	r->cur = 0;
}

uint64_t
rb_spsc_used(const struct rb_spsc *r)
{
	return __atomic_load_n(&r->head, __ATOMIC_RELAXED) -
	       __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
}
