/*
 * session.c — what live and replay sessions share: the event table, the
 * sample-id map, queueing into the ordered merge, delivery (decode, group
 * read deltas, callback), drop accounting, and the small accessors.
 */
#include "sampler/smp_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"

int
smp_err(struct smp_session *s, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return err;
}

int
smp_set_error(struct smp_session *s, int err, const char *msg)
{
	return smp_err(s, err, "%s", msg);
}

/* The message of the last failed smp_open_* on this thread. */
static __thread char smp_open_err[512];

const char *
smp_errmsg(const struct smp_session *s)
{
	return s ? s->err : smp_open_err;
}

void
smp_open_failed_msg(const char *msg)
{
	snprintf(smp_open_err, sizeof(smp_open_err), "%s", msg);
}

void
smp_open_failed(struct smp_session *s, int err)
{
	if (s && s->err[0])
		snprintf(smp_open_err, sizeof(smp_open_err), "%s", s->err);
	else
		snprintf(smp_open_err, sizeof(smp_open_err), "%s", strerror(-err));
	smp_close(s);
}

struct smp_session *
smp_session_new(const struct smp_backend *be)
{
	struct smp_session *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->be = be;
	s->epfd = -1;
	s->idpos.sample_pos = s->idpos.trailer_pos = -1;
	return s;
}

/* ---- id map: open addressing, linear probing, val -1 = empty ---- */

static size_t
smp_hash(uint64_t k, size_t cap)
{
	return (size_t)hash_mix64(k) & (cap - 1);
}

static int
smp_idmap_grow(struct smp_idmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	uint64_t *key = calloc(cap, sizeof(*key));
	int *val = malloc(cap * sizeof(*val));
	if (!key || !val) {
		free(key);
		free(val);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cap; i++)
		val[i] = -1;
	for (size_t i = 0; i < m->cap; i++) {
		if (m->val[i] < 0)
			continue;
		size_t j = smp_hash(m->key[i], cap);
		while (val[j] >= 0)
			j = (j + 1) & (cap - 1);
		key[j] = m->key[i];
		val[j] = m->val[i];
	}
	free(m->key);
	free(m->val);
	m->key = key;
	m->val = val;
	m->cap = cap;
	return 0;
}

int
smp_idmap_put(struct smp_idmap *m, uint64_t key, int val)
{
	if ((m->n + 1) * 2 > m->cap && smp_idmap_grow(m))
		return -ENOMEM;
	size_t j = smp_hash(key, m->cap);
	while (m->val[j] >= 0 && m->key[j] != key)
		j = (j + 1) & (m->cap - 1);
	if (m->val[j] < 0)
		m->n++;
	m->key[j] = key;
	m->val[j] = val;
	return 0;
}

int
smp_idmap_get(const struct smp_idmap *m, uint64_t key)
{
	if (!m->cap)
		return -1;
	for (size_t j = smp_hash(key, m->cap); m->val[j] >= 0; j = (j + 1) & (m->cap - 1))
		if (m->key[j] == key)
			return m->val[j];
	return -1;
}

void
smp_idmap_free(struct smp_idmap *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

/* ---- events ---- */

int
smp_event_new(struct smp_session *s, const struct smp_event_spec *spec, const char *name)
{
	if (s->nev == s->capev) {
		int cap = s->capev ? s->capev * 2 : 8;
		struct smp_evt *ev = realloc(s->ev, (size_t)cap * sizeof(*ev));
		if (!ev)
			return -ENOMEM;
		s->ev = ev;
		s->capev = cap;
	}
	struct smp_evt *e = &s->ev[s->nev];
	memset(e, 0, sizeof(*e));
	e->spec = *spec;
	e->name = strdup(name ? name : "");
	if (!e->name)
		return -ENOMEM;
	e->spec.name = e->name;
	return s->nev++;
}

int
smp_evt_add_id(struct smp_session *s, int evidx, uint64_t id)
{
	struct smp_evt *e = &s->ev[evidx];
	if (e->nids == e->capids) {
		int cap = e->capids ? e->capids * 2 : 8;
		uint64_t *ids = realloc(e->ids, (size_t)cap * sizeof(*ids));
		if (!ids)
			return -ENOMEM;
		e->ids = ids;
		e->capids = cap;
	}
	e->ids[e->nids++] = id;
	return smp_idmap_put(&s->ids, id, evidx);
}

/* Where the id sits in samples and in side-band trailers.  perf requires
 * every attr of a session to agree on this, so the first one decides. */
void
smp_compute_idpos(struct smp_session *s)
{
	s->idpos.sample_pos = s->idpos.trailer_pos = -1;
	if (!s->nev)
		return;
	const struct perf_event_attr *a = &s->ev[0].spec.attr;
	uint64_t st = a->sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->idpos.sample_pos = 0;
	else if (st & PERF_SAMPLE_ID)
		s->idpos.sample_pos = __builtin_popcountll(st & (PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
	if (!a->sample_id_all)
		return;
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->idpos.trailer_pos = 1;
	else if (st & PERF_SAMPLE_ID)
		s->idpos.trailer_pos = 1 + __builtin_popcountll(st & (PERF_SAMPLE_CPU |
					PERF_SAMPLE_STREAM_ID));
}

int
smp_record_evidx(const struct smp_session *s, const struct perf_event_header *h, size_t len)
{
	uint64_t id;
	if (s->nev == 1)
		return 0;
	if (s->nev == 0 || h->type >= 64)
		return -1;
	if (h->type == PERF_RECORD_SAMPLE) {
		size_t off = sizeof(*h) + 8 * (size_t)s->idpos.sample_pos;
		if (s->idpos.sample_pos < 0 || off + 8 > len)
			return -1;
		memcpy(&id, (const char *)h + off, 8);
	} else {
		size_t back = 8 * (size_t)s->idpos.trailer_pos;
		if (s->idpos.trailer_pos < 0 || back + sizeof(*h) > len)
			return -1;
		memcpy(&id, (const char *)h + len - back, 8);
	}
	return smp_idmap_get(&s->ids, id);
}

static const struct perf_event_attr *
smp_attr_of(const struct smp_session *s, int evidx)
{
	if (evidx >= 0)
		return &s->ev[evidx].spec.attr;
	return s->nev ? &s->ev[0].spec.attr : NULL;
}

/* ---- drops ---- */

void
smp_count_drop(struct smp_session *s, int slot, uint64_t n)
{
	if (slot < 0 || slot >= 65536)
		slot = 0;
	if (slot >= s->ncpu) {
		int ncpu = slot + 1;
		struct smp_cpu *pc = realloc(s->pc, (size_t)ncpu * sizeof(*pc));
		if (!pc)
			return;
		for (int i = s->ncpu; i < ncpu; i++) {
			memset(&pc[i], 0, sizeof(pc[i]));
			pc[i].cpu = i;
			pc[i].ringfd = -1;
		}
		s->pc = pc;
		s->ncpu = ncpu;
	}
	s->pc[slot].drops += n;
}

int
smp_drops(struct smp_session *s, uint32_t *cpu, uint64_t *ndrops, int max)
{
	int n = 0;
	for (int i = 0; i < s->ncpu && n < max; i++) {
		struct smp_cpu *c = &s->pc[i];
		if (c->drops == c->reported)
			continue;
		cpu[n] = (uint32_t)c->cpu;
		ndrops[n++] = c->drops - c->reported;
		c->reported = c->drops;
	}
	return n;
}

/* Lost records say how many records the kernel could not give us.  A
 * THROTTLE record is not a loss: the kernel lowered an event's rate for
 * a while (perf_event_max_sample_rate), so it is counted apart. */
static void
smp_account(struct smp_session *s, int slot, const struct perf_event_header *h)
{
	uint64_t n = 0;
	const char *body = (const char *)(h + 1);
	if (h->type == PERF_RECORD_LOST && h->size >= sizeof(*h) + 16)
		memcpy(&n, body + 8, 8);
	else if (h->type == PERF_RECORD_LOST_SAMPLES && h->size >= sizeof(*h) + 8)
		memcpy(&n, body, 8);
	else if (h->type == PERF_RECORD_THROTTLE)
		s->throttled++;
	if (n)
		smp_count_drop(s, slot, n);
}

uint64_t
smp_throttled(const struct smp_session *s)
{
	return s ? s->throttled : 0;
}

/* ---- queueing and delivery ---- */

int
smp_queue(struct smp_session *s, int hint, const struct perf_event_header *h)
{
	int evidx = smp_record_evidx(s, h, h->size);
	const struct perf_event_attr *a = smp_attr_of(s, evidx);
	uint64_t t = smp_record_time(a, h);
	int slot = s->be->sb_slot_by_cpu ? smp_record_cpu(a, h) : hint;
	smp_account(s, slot < 0 ? 0 : slot, h);
	/* a file pmctrace wrote is already in the order it was delivered */
	int src = s->fifo ? 0 : rb_merge_fit(&s->merge, hint, t);
	return rb_merge_push(&s->merge, src, t, h, h->size);
}

static size_t
smp_delta_slot(struct smp_delta *d, uint64_t id)
{
	int i = smp_idmap_get(&d->idx, id);
	if (i >= 0)
		return (size_t)i;
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 64;
		uint64_t *v = realloc(d->value, cap * 8), *e, *r;
		if (v)
			d->value = v;
		e = realloc(d->enabled, cap * 8);
		if (e)
			d->enabled = e;
		r = realloc(d->running, cap * 8);
		if (r)
			d->running = r;
		if (!v || !e || !r)
			return (size_t)-1;
		d->cap = cap;
	}
	if (smp_idmap_put(&d->idx, id, (int)d->n))
		return (size_t)-1;
	d->value[d->n] = d->enabled[d->n] = d->running[d->n] = 0;
	return d->n++;
}

/* Which counter a value belongs to, for its delta.  Ids are per fd (per
 * CPU and event); an inherited event reports its children's own counts
 * under the parent's id, so there the thread is part of the key too.
 * Without PERF_FORMAT_ID the event index stands in for the id. */
static uint64_t
smp_delta_key(uint64_t id, int evidx, int32_t tid, int inherit)
{
	uint64_t k = id ? id : (0xffffULL << 48) | (uint32_t)evidx;
	if (inherit)
		k ^= ((uint64_t)(uint32_t)tid + 1) * 0x9E3779B97F4A7C15ULL;
	return k;
}

/* Fill evidx and delta of each read value; the time deltas follow the
 * first (leader) id. */
static void
smp_read_deltas(struct smp_session *s, struct smp_read *rd, int evidx, int32_t tid)
{
	int inherit = evidx >= 0 && s->ev[evidx].spec.attr.inherit;
	for (uint32_t i = 0; i < rd->nr; i++) {
		uint64_t id = rd->v[i].id;
		rd->v[i].evidx = id ? smp_idmap_get(&s->ids, id) : (i == 0 ? evidx : -1);
		size_t k = smp_delta_slot(&s->delta, smp_delta_key(id, i == 0 ? evidx : -1 - (int)i,
								 tid, inherit));
		if (k == (size_t)-1)
			continue;
		rd->v[i].delta = rd->v[i].value - s->delta.value[k];
		s->delta.value[k] = rd->v[i].value;
		if (i == 0) {
			rd->d_enabled = rd->time_enabled - s->delta.enabled[k];
			rd->d_running = rd->time_running - s->delta.running[k];
			s->delta.enabled[k] = rd->time_enabled;
			s->delta.running[k] = rd->time_running;
		}
	}
}

struct smp_deliver {
	struct smp_session *s;
	smp_record_cb cb;
	void *arg;
};

static int
smp_deliver_one(void *arg, int src, uint64_t time, const void *rec, uint32_t len)
{
	struct smp_deliver *d = arg;
	struct smp_session *s = d->s;
	const struct perf_event_header *h = rec;
	struct smp_record r;
	(void)src;
	(void)time;
	int evidx = smp_record_evidx(s, h, len);
	const struct perf_event_attr *a = smp_attr_of(s, evidx);
	if (smp_decode(a, h, &r, &s->rd))
		return 0;	/* counted by whoever queued it; skip garbage */
	r.evidx = evidx;
	r.spec = evidx >= 0 ? &s->ev[evidx].spec : NULL;
	if (r.read)
		smp_read_deltas(s, &s->rd, evidx, r.tid);
	int rc = d->cb ? d->cb(d->arg, &r) : 0;
	/* A recording holds what was delivered, in delivery order: nothing
	 * after an exit() the callback reports, no sample of an id the
	 * session does not know (perf script refuses those), and after what
	 * the callback added for it (smp_record_process). */
	if (s->w && (h->type != PERF_RECORD_SAMPLE || evidx >= 0))
		s->be->sb_write(s, h);
	return rc;
}

int64_t
smp_emit(struct smp_session *s, uint64_t upto, smp_record_cb cb, void *arg)
{
	struct smp_deliver d = { s, cb, arg };
	return rb_merge_emit(&s->merge, upto, smp_deliver_one, &d);
}

int
smp_emit_oldest(struct smp_session *s, smp_record_cb cb, void *arg)
{
	struct smp_deliver d = { s, cb, arg };
	return rb_merge_emit_one(&s->merge, smp_deliver_one, &d);
}

/* ---- public entry points shared by both kinds of session ---- */

int
smp_poll(struct smp_session *s, int timeout_ms, smp_record_cb cb, void *arg)
{
	if (!s)
		return -EINVAL;
	return s->be->sb_poll(s, timeout_ms, cb, arg);
}

int
smp_flush(struct smp_session *s, smp_record_cb cb, void *arg)
{
	int err = s->be->sb_collect ? s->be->sb_collect(s) : 0;
	if (err)
		return err;
	int64_t n = smp_emit(s, UINT64_MAX, cb, arg);
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

int
smp_at_eof(const struct smp_session *s)
{
	return s->eof && s->merge.nrec == 0;
}

int
smp_nevents(const struct smp_session *s)
{
	return s->nev;
}

const struct smp_event_spec *
smp_event(const struct smp_session *s, int evidx)
{
	if (evidx < 0 || evidx >= s->nev)
		return NULL;
	return &s->ev[evidx].spec;
}

void
smp_claim(struct smp_session *s, int evidx, void *owner, uint64_t cookie)
{
	if (evidx < 0 || evidx >= s->nev)
		return;
	s->ev[evidx].spec.owner = owner;
	s->ev[evidx].spec.cookie = cookie;
}

void
smp_close(struct smp_session *s)
{
	if (!s)
		return;
	s->be->sb_close(s);
	for (int i = 0; i < s->nev; i++)
		if (s->ev[i].spec.closed)
			s->ev[i].spec.closed(s->ev[i].spec.closed_arg);
	for (int i = 0; i < s->nev; i++) {
		free(s->ev[i].name);
		free(s->ev[i].ids);
		free(s->ev[i].fds);
	}
	free(s->ev);
	free(s->notes);
	free(s->pc);
	free(s->pids);
	smp_idmap_free(&s->ids);
	smp_idmap_free(&s->delta.idx);
	free(s->delta.value);
	free(s->delta.enabled);
	free(s->delta.running);
	rb_merge_fini(&s->merge);
	free(s);
}

/* "0-3,5,7-8" from sysfs. */
int
smp_online_cpus(int *cpus, int max)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	if (!f)
		return -errno;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	int count = 0;
	for (char *p = buf; *p && *p != '\n';) {
		char *e;
		long a = strtol(p, &e, 10), b = a;
		if (e == p)
			return -EINVAL;
		if (*e == '-')
			b = strtol(e + 1, &e, 10);
		for (long c = a; c <= b; c++, count++)
			if (count < max)
				cpus[count] = (int)c;
		p = (*e == ',') ? e + 1 : e;
	}
	return count;
}
