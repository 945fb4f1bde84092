/*
 * test_ringbuf.c — kernel-ring reader over a synthetic mmap page (with
 * wrap-around), the SPSC ring under two threads, and the ordered merge.
 */
#include "ringbuf/ringbuf.h"
#include "tests/unit/cu.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernel ring: we play the kernel on a fake mapping ---- */

#define PAGE 4096
#define DATA 4096

struct fake_kernel {
	unsigned char *map;
	struct perf_event_mmap_page *meta;
	unsigned char *data;
};

static void
fk_init(struct fake_kernel *k)
{
	k->map = aligned_alloc(PAGE, PAGE + DATA);
	memset(k->map, 0, PAGE + DATA);
	k->meta = (struct perf_event_mmap_page *)k->map;
	k->data = k->map + PAGE;
}

/* Write one record of total size `size` carrying seq; 0 if no room. */
static int
fk_write(struct fake_kernel *k, uint32_t size, uint32_t seq)
{
	uint64_t head = k->meta->data_head, tail = k->meta->data_tail;
	if (head + size - tail > DATA)
		return 0;
	unsigned char rec[512];
	struct perf_event_header *h = (struct perf_event_header *)rec;
	h->type = PERF_RECORD_SAMPLE;
	h->misc = 0;
	h->size = (uint16_t)size;
	for (uint32_t i = sizeof(*h); i < size; i++)
		rec[i] = (unsigned char)(seq + i);
	memcpy(rec + 8, &seq, 4);
	for (uint32_t i = 0; i < size; i++)
		k->data[(head + i) & (DATA - 1)] = rec[i];
	__atomic_store_n(&k->meta->data_head, head + size, __ATOMIC_RELEASE);
	return 1;
}

static int
fk_check(const struct perf_event_header *h, uint32_t seq)
{
	const unsigned char *p = (const unsigned char *)h;
	uint32_t got;
	memcpy(&got, p + 8, 4);
	if (got != seq)
		return 0;
	for (uint32_t i = 12; i < h->size; i++)
		if (p[i] != (unsigned char)(seq + i))
			return 0;
	return 1;
}

static void
test_kring_wrap(void)
{
	struct fake_kernel k;
	struct rb_kring r;
	fk_init(&k);
	CU_ASSERT_EQUAL_FATAL(rb_kring_init(&r, k.map, PAGE, DATA), 0);
	uint32_t wseq = 0, rseq = 0, wrapped = 0;
	for (int round = 0; round < 2000; round++) {
		/* Sizes 16..504, multiples of 8, chosen to straddle the end often. */
		while (fk_write(&k, 16 + ((wseq * 40) % 496), wseq))
			wseq++;
		CU_ASSERT(rb_kring_read_init(&r) > 0);
		const struct perf_event_header *h;
		while ((h = rb_kring_read_event(&r))) {
			if ((const unsigned char *)h == r.bounce)
				wrapped++;
			CU_ASSERT_FATAL(fk_check(h, rseq));
			rseq++;
			rb_kring_consume(&r);
			/* Read only part of the ring some rounds. */
			if (round % 3 == 0 && rseq % 5 == 0)
				break;
		}
		rb_kring_read_done(&r);
		CU_ASSERT_EQUAL(k.meta->data_tail, r.pos);
	}
	CU_ASSERT(wrapped > 100);
	CU_ASSERT(rseq > 10000);
	CU_ASSERT(wseq - rseq < DATA / 16 + 1);
	rb_kring_fini(&r);
	free(k.map);
}

static void
test_kring_corrupt(void)
{
	struct fake_kernel k;
	struct rb_kring r;
	fk_init(&k);
	CU_ASSERT_EQUAL_FATAL(rb_kring_init(&r, k.map, PAGE, DATA), 0);
	fk_write(&k, 32, 1);
	/* A header claiming more than the kernel published is corrupt. */
	struct perf_event_header bad = { PERF_RECORD_SAMPLE, 0, 4000 };
	memcpy(k.data + 32, &bad, sizeof(bad));
	k.meta->data_head = 64;
	rb_kring_read_init(&r);
	CU_ASSERT_PTR_NOT_NULL(rb_kring_read_event(&r));
	rb_kring_consume(&r);
	CU_ASSERT_PTR_NULL(rb_kring_read_event(&r));
	CU_ASSERT(r.corrupt);
	rb_kring_read_done(&r);
	CU_ASSERT_EQUAL(k.meta->data_tail, 64);
	CU_ASSERT_EQUAL(rb_kring_init(&r, k.map, PAGE, 1000), -EINVAL);
	rb_kring_fini(&r);
	free(k.map);
}

/* Write one record the way a write_backward event does: below head. */
static void
fk_write_backward(struct fake_kernel *k, uint32_t size, uint32_t seq)
{
	uint64_t head = k->meta->data_head - size;
	unsigned char rec[512];
	struct perf_event_header *h = (struct perf_event_header *)rec;
	h->type = PERF_RECORD_SAMPLE;
	h->misc = 0;
	h->size = (uint16_t)size;
	for (uint32_t i = sizeof(*h); i < size; i++)
		rec[i] = (unsigned char)(seq + i);
	memcpy(rec + 8, &seq, 4);
	for (uint32_t i = 0; i < size; i++)
		k->data[(head + i) & (DATA - 1)] = rec[i];
	__atomic_store_n(&k->meta->data_head, head, __ATOMIC_RELEASE);
}

static void
test_kring_snapshot(void)
{
	struct fake_kernel k;
	struct rb_kring r;
	const struct perf_event_header *h;
	fk_init(&k);
	CU_ASSERT_EQUAL_FATAL(rb_kring_init(&r, k.map, PAGE, DATA), 0);
	/* Not yet full: newest first, stop at the never-written zeros. */
	for (uint32_t seq = 0; seq < 10; seq++)
		fk_write_backward(&k, 48, seq);
	rb_kring_snapshot(&r);
	uint32_t want = 9, n = 0;
	while ((h = rb_kring_read_event(&r)) && n < 100) {
		CU_ASSERT(fk_check(h, want));
		want--;
		n++;
		rb_kring_consume(&r);
	}
	CU_ASSERT_EQUAL(n, 10);
	/* Wrapped many times, odd sizes: only whole records, newest first,
	 * consecutive, and the partly overwritten oldest one left out. */
	uint32_t seq;
	for (seq = 10; seq < 5000; seq++)
		fk_write_backward(&k, 16 + ((seq * 40) % 496), seq);
	rb_kring_snapshot(&r);
	want = seq - 1;
	n = 0;
	uint64_t bytes = 0;
	while ((h = rb_kring_read_event(&r)) && n < 1000) {
		CU_ASSERT_FATAL(fk_check(h, want));
		bytes += h->size;
		want--;
		n++;
		rb_kring_consume(&r);
	}
	CU_ASSERT(n > 10);
	CU_ASSERT(bytes <= DATA && bytes > DATA - 512);
	rb_kring_fini(&r);
	free(k.map);
}

/* ---- SPSC stress ---- */

#define SPSC_N 4000000u

struct spsc_arg {
	struct rb_spsc *r;
	uint64_t full_spins;
};

static uint32_t
spsc_len(uint32_t seq)
{
	return 4 + (seq * 2654435761u >> 24) % 120;	/* 4..123 bytes */
}

static void *
spsc_producer(void *p)
{
	struct spsc_arg *a = p;
	for (uint32_t seq = 0; seq < SPSC_N; seq++) {
		uint32_t len = spsc_len(seq);
		unsigned char *d;
		while (!(d = rb_spsc_reserve(a->r, len))) {
			a->full_spins++;
			sched_yield();	/* see the consumer */
		}
		memcpy(d, &seq, 4);
		for (uint32_t i = 4; i < len; i++)
			d[i] = (unsigned char)(seq ^ i);
		rb_spsc_commit(a->r);
	}
	return NULL;
}

static void
test_spsc_stress(void)
{
	/* A ring small enough that the producer fills it again and again:
	 * contention on both positions, and a thousand wrap-arounds (4M
	 * records of 72 bytes on average).  Not smaller: every fill is a hand-
	 * over between the threads, which on a loaded machine costs a time
	 * slice (a 4 KiB ring took more than ten minutes there). */
	struct rb_spsc r;
	CU_ASSERT_EQUAL_FATAL(rb_spsc_init(&r, 256 * 1024), 0);
	struct spsc_arg a = { &r, 0 };
	pthread_t t;
	CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, spsc_producer, &a), 0);
	uint32_t expect = 0, bad = 0;
	while (expect < SPSC_N) {
		uint32_t len;
		const unsigned char *d = rb_spsc_peek(&r, &len);
		if (!d) {
			/* On a loaded machine the producer may not be running: a
			 * spin would wait out a whole time slice per ring-full
			 * (minutes for the run); yielding costs nothing when it is. */
			sched_yield();
			continue;
		}
		uint32_t seq;
		memcpy(&seq, d, 4);
		if (seq != expect || len != spsc_len(seq))
			bad++;
		for (uint32_t i = 4; i < len; i++)
			if (d[i] != (unsigned char)(seq ^ i))
				bad++;
		rb_spsc_release(&r);
		expect = seq + 1;
	}
	pthread_join(t, NULL);
	uint32_t len;
	CU_ASSERT_PTR_NULL(rb_spsc_peek(&r, &len));	/* nothing duplicated */
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(expect, SPSC_N);
	CU_ASSERT_EQUAL(rb_spsc_used(&r), 0);
	rb_spsc_fini(&r);
	CU_ASSERT_EQUAL(rb_spsc_init(&r, 100), -EINVAL);
}

static void
test_spsc_full(void)
{
	struct rb_spsc r;
	CU_ASSERT_EQUAL_FATAL(rb_spsc_init(&r, 256), 0);
	int n = 0;
	while (rb_spsc_reserve(&r, 24)) {
		rb_spsc_commit(&r);
		n++;
	}
	CU_ASSERT_EQUAL(n, 256 / 32);
	CU_ASSERT_PTR_NULL(rb_spsc_reserve(&r, 200));	/* more than half */
	uint32_t len;
	CU_ASSERT_PTR_NOT_NULL(rb_spsc_peek(&r, &len));
	CU_ASSERT_EQUAL(len, 24);
	rb_spsc_release(&r);
	CU_ASSERT_PTR_NOT_NULL(rb_spsc_reserve(&r, 24));
	rb_spsc_commit(&r);
	rb_spsc_fini(&r);
}

/* ---- ordered merge ---- */

struct merge_out {
	uint64_t last;
	int n, disorder, stop_at;
	uint64_t sum;
};

static int
merge_cb(void *arg, int src, uint64_t time, const void *rec, uint32_t len)
{
	struct merge_out *o = arg;
	uint64_t v;
	CU_ASSERT_EQUAL(len, 8);
	memcpy(&v, rec, 8);
	CU_ASSERT_EQUAL(v, time * 10 + (uint64_t)src);
	if (time < o->last)
		o->disorder++;
	o->last = time;
	o->sum += time;
	o->n++;
	return (o->stop_at && o->n == o->stop_at) ? 7 : 0;
}

static void
merge_push(struct rb_merge *m, int src, uint64_t t)
{
	uint64_t v = t * 10 + (uint64_t)src;
	CU_ASSERT_EQUAL(rb_merge_push(m, src, t, &v, 8), 0);
}

static void
test_merge_window(void)
{
	/* Four CPUs, each in order, interleaved arbitrarily in time; the
	 * reader drains CPUs round by round and emits up to a watermark one
	 * window behind the newest time seen, as the sampler does. */
	struct rb_merge m;
	struct merge_out o = { 0 };
	CU_ASSERT_EQUAL_FATAL(rb_merge_init(&m, 4), 0);
	uint64_t t[4] = { 5, 1, 3, 2 }, total = 0, pushed = 0;
	unsigned seed = 1;
	for (int round = 0; round < 3000; round++) {
		for (int c = 0; c < 4; c++) {
			int k = rand_r(&seed) % 20;
			for (int i = 0; i < k; i++) {
				t[c] += 1 + rand_r(&seed) % 7;
				merge_push(&m, c, t[c]);
				total += t[c];
				pushed++;
			}
		}
		uint64_t lo = t[0];
		for (int c = 1; c < 4; c++)
			lo = t[c] < lo ? t[c] : lo;
		/* Every CPU has reached lo: nothing older can still come. */
		CU_ASSERT(rb_merge_emit(&m, lo, merge_cb, &o) >= 0);
	}
	CU_ASSERT(m.nrec < pushed);
	CU_ASSERT(rb_merge_emit(&m, UINT64_MAX, merge_cb, &o) >= 0);
	CU_ASSERT_EQUAL(o.disorder, 0);
	CU_ASSERT_EQUAL((uint64_t)o.n, pushed);
	CU_ASSERT_EQUAL(o.sum, total);
	CU_ASSERT_EQUAL(m.nrec, 0);
	CU_ASSERT_EQUAL(m.bytes, 0);
	rb_merge_fini(&m);
}

static void
test_merge_stop_and_ties(void)
{
	struct rb_merge m;
	struct merge_out o = { .stop_at = 3 };
	CU_ASSERT_EQUAL_FATAL(rb_merge_init(&m, 3), 0);
	merge_push(&m, 2, 10);
	merge_push(&m, 0, 10);
	merge_push(&m, 1, 5);
	merge_push(&m, 1, 20);
	merge_push(&m, 0, 30);
	/* The window holds back 20 and 30. */
	CU_ASSERT_EQUAL(rb_merge_emit(&m, 15, merge_cb, &o), 7);
	CU_ASSERT_EQUAL(o.n, 3);
	CU_ASSERT_EQUAL(m.nrec, 2);
	o.stop_at = 0;
	CU_ASSERT_EQUAL(rb_merge_emit(&m, 15, merge_cb, &o), 0);
	CU_ASSERT_EQUAL(rb_merge_emit_one(&m, merge_cb, &o), 1);
	CU_ASSERT_EQUAL(o.last, 20);
	CU_ASSERT_EQUAL(rb_merge_emit(&m, UINT64_MAX, merge_cb, &o), 1);
	CU_ASSERT_EQUAL(rb_merge_emit_one(&m, merge_cb, &o), 0);
	CU_ASSERT_EQUAL(rb_merge_push(&m, 3, 1, "x", 1), -EINVAL);
	rb_merge_fini(&m);
}

static void
test_merge_growth(void)
{
	/* One queue far larger than its first allocation, wrapping while it
	 * grows: order and content must survive re-layout. */
	struct rb_merge m;
	struct merge_out o = { 0 };
	CU_ASSERT_EQUAL_FATAL(rb_merge_init(&m, 2), 0);
	for (uint64_t t = 1; t <= 100000; t++) {
		merge_push(&m, (int)(t & 1), t);
		if (t % 1000 == 0)
			rb_merge_emit(&m, t - 900, merge_cb, &o);
	}
	rb_merge_emit(&m, UINT64_MAX, merge_cb, &o);
	CU_ASSERT_EQUAL(o.n, 100000);
	CU_ASSERT_EQUAL(o.disorder, 0);
	rb_merge_fini(&m);
}

static void
test_merge_fit(void)
{
	/* Two interleaved runs in one stream (as in a file from two CPU
	 * rings without PERF_SAMPLE_CPU): fitting each record into a source
	 * whose last time is not newer sorts them exactly. */
	static const uint64_t in[] = { 10, 20, 30, 40, 12, 22, 32, 50, 41, 60 };
	struct rb_merge m;
	struct merge_out o = { 0 };
	CU_ASSERT_EQUAL_FATAL(rb_merge_init(&m, 4), 0);
	int hint = 0;
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		hint = rb_merge_fit(&m, hint, in[i]);
		uint64_t v = in[i] * 10 + (uint64_t)hint;
		CU_ASSERT_EQUAL(rb_merge_push(&m, hint, in[i], &v, 8), 0);
	}
	rb_merge_emit(&m, UINT64_MAX, merge_cb, &o);
	CU_ASSERT_EQUAL(o.n, 10);
	CU_ASSERT_EQUAL(o.disorder, 0);
	rb_merge_fini(&m);
}

static int
merge_var_cb(void *arg, int src, uint64_t time, const void *rec, uint32_t len)
{
	struct merge_out *o = arg;
	const unsigned char *p = rec;
	(void)src;
	if (len != 1 + time % 61)
		o->disorder++;
	for (uint32_t i = 0; i < len; i++)
		if (p[i] != (unsigned char)(time + i))
			o->disorder++;
	if (time < o->last)
		o->disorder++;
	o->last = time;
	o->n++;
	return 0;
}

static void
test_merge_varlen(void)
{
	/* Records of every length from 1 to 61 bytes, so that the space left
	 * at the end of a queue's buffer takes every size, including sizes
	 * too small for a padding entry. */
	struct rb_merge m;
	struct merge_out o = { 0 };
	unsigned char rec[64];
	CU_ASSERT_EQUAL_FATAL(rb_merge_init(&m, 3), 0);
	for (uint64_t t = 1; t <= 200000; t++) {
		uint32_t len = 1 + (uint32_t)(t % 61);
		for (uint32_t i = 0; i < len; i++)
			rec[i] = (unsigned char)(t + i);
		CU_ASSERT_EQUAL(rb_merge_push(&m, (int)(t % 3), t, rec, len), 0);
		if (t % 97 == 0)
			rb_merge_emit(&m, t - 50, merge_var_cb, &o);
	}
	rb_merge_emit(&m, UINT64_MAX, merge_var_cb, &o);
	CU_ASSERT_EQUAL(o.n, 200000);
	CU_ASSERT_EQUAL(o.disorder, 0);
	rb_merge_fini(&m);
}

static const struct cu_test tests[] = {
	{ "merge_varlen", test_merge_varlen },
	{ "merge_fit", test_merge_fit },
	{ "kring_wrap", test_kring_wrap },
	{ "kring_corrupt", test_kring_corrupt },
	{ "kring_snapshot", test_kring_snapshot },
	{ "spsc_stress", test_spsc_stress },
	{ "spsc_full", test_spsc_full },
	{ "merge_window", test_merge_window },
	{ "merge_stop_and_ties", test_merge_stop_and_ties },
	{ "merge_growth", test_merge_growth },
	{ NULL, NULL },
};

CU_MAIN("ringbuf", tests)
