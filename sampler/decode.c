/*
 * decode.c — one perf record, given the attr of the event that wrote it,
 * into a struct smp_record.  Pure functions: every read is bounds-checked
 * against the record's own size, so garbage gives -EINVAL, never a crash.
 */
#include "sampler/smp_impl.h"

#include <errno.h>
#include <string.h>

#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS (1U << 19)	/* kernel 6.8 */
#endif

struct smp_cur {
	const unsigned char *p, *end;
};

static int
smp_take(struct smp_cur *c, size_t n, const void **out)
{
	if ((size_t)(c->end - c->p) < n)
		return -EINVAL;
	*out = c->p;
	c->p += n;
	return 0;
}

static int
smp_u64(struct smp_cur *c, uint64_t *v)
{
	const void *q;
	if (smp_take(c, 8, &q))
		return -EINVAL;
	memcpy(v, q, 8);
	return 0;
}

static int
smp_u32pair(struct smp_cur *c, uint32_t *a, uint32_t *b)
{
	const void *q;
	if (smp_take(c, 8, &q))
		return -EINVAL;
	memcpy(a, q, 4);
	memcpy(b, (const char *)q + 4, 4);
	return 0;
}

/* Copy an attr of any recorded size: a larger one keeps the fields we
 * know (the extra ones are newer and optional); a size of 0 means the
 * first published layout.  Returns the attr's own size. */
size_t
smp_attr_copy(struct perf_event_attr *dst, const void *src, size_t avail)
{
	struct perf_event_attr a;
	size_t n = avail < sizeof(a) ? avail : sizeof(a);
	memset(dst, 0, sizeof(*dst));
	memcpy(dst, src, n);
	size_t sz = dst->size ? dst->size : PERF_ATTR_SIZE_VER0;
	if (sz < n)	/* fields past the attr's own size are not the attr's */
		memset((char *)dst + sz, 0, n - sz);
	return sz;
}

static int
smp_read_one(struct smp_cur *c, uint64_t rf, struct smp_read *rd, uint32_t i)
{
	uint64_t v = 0, id = 0, lost = 0;
	if (smp_u64(c, &v) || ((rf & PERF_FORMAT_ID) && smp_u64(c, &id)) ||
	    ((rf & PERF_FORMAT_LOST) && smp_u64(c, &lost)))
		return -EINVAL;
	if (i < SMP_READ_MAX) {
		rd->v[i].value = v;
		rd->v[i].id = id;
		rd->v[i].lost = lost;
		rd->v[i].delta = 0;
		rd->v[i].evidx = -1;
	}
	return 0;
}

static int
smp_read_values(struct smp_cur *c, uint64_t rf, struct smp_read *rd)
{
	uint64_t nr = 1;
	memset(rd, 0, offsetof(struct smp_read, v));
	if ((rf & PERF_FORMAT_GROUP) && smp_u64(c, &nr))
		return -EINVAL;
	if ((rf & PERF_FORMAT_GROUP) == 0) {
		if (smp_u64(c, &rd->v[0].value))
			return -EINVAL;
	}
	if ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) && smp_u64(c, &rd->time_enabled))
		return -EINVAL;
	if ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) && smp_u64(c, &rd->time_running))
		return -EINVAL;
	if ((rf & PERF_FORMAT_GROUP) == 0) {
		uint64_t v0 = rd->v[0].value;
		rd->v[0].id = rd->v[0].lost = 0;
		if (((rf & PERF_FORMAT_ID) && smp_u64(c, &rd->v[0].id)) ||
		    ((rf & PERF_FORMAT_LOST) && smp_u64(c, &rd->v[0].lost)))
			return -EINVAL;
		rd->v[0].value = v0;
		rd->v[0].delta = 0;
		rd->v[0].evidx = -1;
		rd->nr = 1;
		return 0;
	}
	if (nr > (uint64_t)(c->end - c->p) / 8)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++)
		if (smp_read_one(c, rf, rd, i))
			return -EINVAL;
	rd->nr = nr < SMP_READ_MAX ? (uint32_t)nr : SMP_READ_MAX;
	return 0;
}

static int
smp_regs(struct smp_cur *c, uint64_t mask, uint64_t *abi, const uint64_t **regs, uint32_t *nr)
{
	const void *q;
	if (smp_u64(c, abi))
		return -EINVAL;
	if (!*abi)
		return 0;
	uint32_t n = (uint32_t)__builtin_popcountll(mask);
	if (smp_take(c, (size_t)n * 8, &q))
		return -EINVAL;
	if (regs) {
		*regs = q;
		*nr = n;
	}
	return 0;
}

static int
smp_branches(struct smp_cur *c, const struct perf_event_attr *a, struct smp_record *o)
{
	uint64_t nr;
	const void *q;
	if (smp_u64(c, &nr))
		return -EINVAL;
	if ((a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) && smp_u64(c, &o->branch_hw_idx))
		return -EINVAL;
	if (nr > (uint64_t)(c->end - c->p) / sizeof(struct perf_branch_entry) ||
	    smp_take(c, nr * sizeof(struct perf_branch_entry), &q))
		return -EINVAL;
	o->branches = q;
	o->nr_branches = (uint32_t)nr;
	if ((a->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS) && smp_take(c, nr * 8, &q))
		return -EINVAL;
	return 0;
}

static int
smp_ustack(struct smp_cur *c, struct smp_record *o)
{
	const void *q;
	if (smp_u64(c, &o->ustack_size))
		return -EINVAL;
	if (!o->ustack_size)
		return 0;
	if (o->ustack_size > (uint64_t)(c->end - c->p) || smp_take(c, o->ustack_size, &q) ||
	    smp_u64(c, &o->ustack_dyn_size))
		return -EINVAL;
	o->ustack = q;
	if (o->ustack_dyn_size > o->ustack_size)
		o->ustack_dyn_size = o->ustack_size;
	return 0;
}

/* The fields up to PERIOD, which are plain u64 words. */
static int
smp_sample_head(struct smp_cur *c, uint64_t st, struct smp_record *o)
{
	uint32_t a, b;
	if ((st & PERF_SAMPLE_IDENTIFIER) && smp_u64(c, &o->id))
		return -EINVAL;
	if ((st & PERF_SAMPLE_IP) && smp_u64(c, &o->ip))
		return -EINVAL;
	if (st & PERF_SAMPLE_TID) {
		if (smp_u32pair(c, &a, &b))
			return -EINVAL;
		o->pid = (int32_t)a;
		o->tid = (int32_t)b;
	}
	if ((st & PERF_SAMPLE_TIME) && smp_u64(c, &o->time))
		return -EINVAL;
	if ((st & PERF_SAMPLE_ADDR) && smp_u64(c, &o->addr))
		return -EINVAL;
	if ((st & PERF_SAMPLE_ID) && smp_u64(c, &o->id))
		return -EINVAL;
	if ((st & PERF_SAMPLE_STREAM_ID) && smp_u64(c, &o->stream_id))
		return -EINVAL;
	if (st & PERF_SAMPLE_CPU) {
		if (smp_u32pair(c, &a, &b))
			return -EINVAL;
		o->cpu = a;
	}
	if ((st & PERF_SAMPLE_PERIOD) && smp_u64(c, &o->period))
		return -EINVAL;
	return 0;
}

static int
smp_sample_tail(struct smp_cur *c, const struct perf_event_attr *a, struct smp_record *o)
{
	uint64_t st = a->sample_type, skip;
	const void *q;
	if ((st & PERF_SAMPLE_BRANCH_STACK) && smp_branches(c, a, o))
		return -EINVAL;
	if ((st & PERF_SAMPLE_REGS_USER) &&
	    smp_regs(c, a->sample_regs_user, &o->regs_abi, &o->regs, &o->nr_regs))
		return -EINVAL;
	if ((st & PERF_SAMPLE_STACK_USER) && smp_ustack(c, o))
		return -EINVAL;
	if ((st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) && smp_u64(c, &o->weight))
		return -EINVAL;
	if ((st & PERF_SAMPLE_DATA_SRC) && smp_u64(c, &o->data_src))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TRANSACTION) && smp_u64(c, &o->transaction))
		return -EINVAL;
	if ((st & PERF_SAMPLE_REGS_INTR) && smp_regs(c, a->sample_regs_intr, &skip, NULL, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_PHYS_ADDR) && smp_u64(c, &o->phys_addr))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CGROUP) && smp_u64(c, &o->cgroup))
		return -EINVAL;
	if ((st & PERF_SAMPLE_DATA_PAGE_SIZE) && smp_u64(c, &skip))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CODE_PAGE_SIZE) && smp_u64(c, &skip))
		return -EINVAL;
	if (st & PERF_SAMPLE_AUX) {
		if (smp_u64(c, &skip) || skip > (uint64_t)(c->end - c->p) || smp_take(c, skip, &q))
			return -EINVAL;
	}
	return 0;
}

static int
smp_decode_sample(const struct perf_event_attr *a, struct smp_cur *c, struct smp_record *o,
		  struct smp_read *rd)
{
	uint64_t st = a->sample_type, nr;
	const void *q;
	if (smp_sample_head(c, st, o))
		return -EINVAL;
	if (!(st & PERF_SAMPLE_PERIOD) && !a->freq)
		o->period = a->sample_period;	/* fixed period: as perf reports it */
	if (st & PERF_SAMPLE_READ) {
		if (smp_read_values(c, a->read_format, rd))
			return -EINVAL;
		o->read = rd;
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (smp_u64(c, &nr) || nr > (uint64_t)(c->end - c->p) / 8 || smp_take(c, nr * 8, &q))
			return -EINVAL;
		o->callchain = q;
		o->nr_callchain = (uint32_t)nr;
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t sz;
		if (smp_take(c, 4, &q))
			return -EINVAL;
		memcpy(&sz, q, 4);
		if (sz > (size_t)(c->end - c->p) || smp_take(c, sz, &q))
			return -EINVAL;
		o->raw = q;
		o->raw_size = sz;
	}
	return smp_sample_tail(c, a, o);
}

/* Bytes the sample_id trailer of a side-band record takes. */
static size_t
smp_trailer_size(uint64_t st)
{
	uint64_t m = st & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
	return 8 * (size_t)__builtin_popcountll(m);
}

static int
smp_has_trailer(const struct perf_event_attr *a, uint32_t type)
{
	return a && a->sample_id_all && type != PERF_RECORD_SAMPLE && type < 64;
}

int
smp_sample_id(const struct perf_event_attr *a, const struct perf_event_header *h,
	      struct smp_record *o)
{
	if (!smp_has_trailer(a, h->type))
		return 0;
	uint64_t st = a->sample_type;
	size_t ts = smp_trailer_size(st);
	if (ts + sizeof(*h) > h->size)
		return -EINVAL;
	struct smp_cur c = { (const unsigned char *)h + h->size - ts,
			     (const unsigned char *)h + h->size };
	uint32_t x = 0, y = 0;
	uint64_t ident = 0;
	if (st & PERF_SAMPLE_TID) {
		smp_u32pair(&c, &x, &y);
		o->pid = (int32_t)x;
		o->tid = (int32_t)y;
	}
	if (st & PERF_SAMPLE_TIME)
		smp_u64(&c, &o->time);
	if (st & PERF_SAMPLE_ID)
		smp_u64(&c, &o->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		smp_u64(&c, &o->stream_id);
	if (st & PERF_SAMPLE_CPU) {
		smp_u32pair(&c, &x, &y);
		o->cpu = x;
	}
	if (st & PERF_SAMPLE_IDENTIFIER) {
		smp_u64(&c, &ident);
		o->id = ident;
	}
	return 0;
}

/* pid/tid and friends from the bodies of the common side-band records. */
static void
smp_sideband_body(const struct perf_event_header *h, struct smp_record *o)
{
	const unsigned char *p = (const unsigned char *)(h + 1);
	size_t n = h->size - sizeof(*h);
	uint32_t w[4];
	switch (h->type) {
	case PERF_RECORD_COMM: case PERF_RECORD_MMAP: case PERF_RECORD_MMAP2:
	case PERF_RECORD_NAMESPACES:
		if (n >= 8) {
			memcpy(w, p, 8);
			o->pid = (int32_t)w[0];
			o->tid = (int32_t)w[1];
		}
		break;
	case PERF_RECORD_FORK: case PERF_RECORD_EXIT:
		if (n >= 24) {
			memcpy(w, p, 16);
			o->pid = (int32_t)w[0];
			o->tid = (int32_t)w[2];
			memcpy(&o->time, p + 16, 8);
		}
		break;
	case PERF_RECORD_THROTTLE: case PERF_RECORD_UNTHROTTLE:
		if (n >= 24) {
			memcpy(&o->time, p, 8);
			memcpy(&o->id, p + 8, 8);
			memcpy(&o->stream_id, p + 16, 8);
		}
		break;
	case PERF_RECORD_LOST:
		if (n >= 16) {
			memcpy(&o->id, p, 8);
			memcpy(&o->period, p + 8, 8);	/* the count lost */
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (n >= 8)
			memcpy(&o->period, p, 8);
		break;
	default:
		break;
	}
}

int
smp_decode(const struct perf_event_attr *a, const struct perf_event_header *h,
	   struct smp_record *o, struct smp_read *rd)
{
	memset(o, 0, sizeof(*o));
	o->type = h->type;
	o->misc = h->misc;
	o->hdr = h;
	o->evidx = -1;
	o->branch_hw_idx = (uint64_t)-1;
	if (h->size < sizeof(*h))
		return -EINVAL;
	if (h->type != PERF_RECORD_SAMPLE) {
		smp_sideband_body(h, o);
		return smp_sample_id(a, h, o);
	}
	if (!a)
		return 0;
	struct smp_cur c = { (const unsigned char *)(h + 1), (const unsigned char *)h + h->size };
	return smp_decode_sample(a, &c, o, rd);
}

/* Word index of the first field after the given ones in a sample. */
static int
smp_words_before(uint64_t st, uint64_t before)
{
	return __builtin_popcountll(st & before);
}

uint64_t
smp_record_time(const struct perf_event_attr *a, const struct perf_event_header *h)
{
	uint64_t t = 0;
	if (!a)
		return 0;
	if (h->type == PERF_RECORD_SAMPLE) {
		if (!(a->sample_type & PERF_SAMPLE_TIME))
			return 0;
		size_t off = sizeof(*h) + 8 * (size_t)smp_words_before(a->sample_type,
			PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID);
		if (off + 8 <= h->size)
			memcpy(&t, (const char *)h + off, 8);
		return t;
	}
	if (!smp_has_trailer(a, h->type) || !(a->sample_type & PERF_SAMPLE_TIME))
		return 0;
	size_t ts = smp_trailer_size(a->sample_type);
	if (ts + sizeof(*h) > h->size)
		return 0;
	size_t off = h->size - ts + ((a->sample_type & PERF_SAMPLE_TID) ? 8 : 0);
	memcpy(&t, (const char *)h + off, 8);
	return t;
}

int
smp_record_cpu(const struct perf_event_attr *a, const struct perf_event_header *h)
{
	uint32_t cpu;
	uint64_t st = a ? a->sample_type : 0;
	if (!(st & PERF_SAMPLE_CPU))
		return -1;
	if (h->type == PERF_RECORD_SAMPLE) {
		size_t off = sizeof(*h) + 8 * (size_t)smp_words_before(st,
			PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID);
		if (off + 8 > h->size)
			return -1;
		memcpy(&cpu, (const char *)h + off, 4);
		return (int)cpu;
	}
	if (!smp_has_trailer(a, h->type))
		return -1;
	size_t ts = smp_trailer_size(st);
	if (ts + sizeof(*h) > h->size)
		return -1;
	size_t off = h->size - ts + 8 * (size_t)smp_words_before(st,
		PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID);
	memcpy(&cpu, (const char *)h + off, 4);
	return (int)cpu;
}
