/*
 * dout_pprof.c — the profile as pprof's profile.proto (perftools.profiles),
 * gzip-compressed as the format requires on disk, for go tool pprof,
 * Pyroscope, speedscope and friends.
 *
 * Tables (ids are 1-based, string 0 is ""):
 *   function  one per distinct frame text: name = the frame as pmctrace
 *             prints it ("libc.so.6`read"), system_name = the part after
 *             the backquote, filename = the module;
 *   mapping   one per module, spanning the addresses seen in it, with
 *             has_functions set (pprof must not try to re-symbolize);
 *   location  one per distinct (frame text, pc): key frames (execname...)
 *             are locations without a mapping or address.
 * Each sample lists its locations leaf first; its one value is the entry's
 * value, typed [counter, "count"] (e.g. "branchmispredictions"/"count").
 * The profile is built in memory (dout_pprof_encode, which the tests decode)
 * and then deflated with zlib's gzip wrapper.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "dcons/dout_impl.h"

/* Profile fields (profile.proto). */
#define PF_SAMPLE_TYPE	1
#define PF_SAMPLE	2
#define PF_MAPPING	3
#define PF_LOCATION	4
#define PF_FUNCTION	5
#define PF_STRING	6
#define PF_PERIOD_TYPE	11
#define PF_PERIOD	12
#define PF_COMMENT	13

struct ploc {
	uint32_t pl_text;		/* frame text id (p_str) + 1 */
	uint64_t pl_pc;
};

struct pmap {
	uint32_t pm_name;		/* string index of the module */
	uint64_t pm_lo, pm_hi;
};

struct pctx {
	const struct dout_prof *pc_p;
	struct dout_strtab pc_st;	/* the string table, "" first */
	uint32_t *pc_func;		/* frame text id → function id */
	uint32_t *pc_fmap;		/* frame text id → mapping id */
	uint32_t *pc_locid;		/* open addressing on (text, pc): id or 0 */
	struct ploc *pc_lvec;		/* location id - 1 → (text, pc) */
	size_t pc_lsize;		/* power of two; pc_lvec holds half */
	uint32_t pc_nlocs;
	struct pmap *pc_maps;
	uint32_t pc_nmaps;
	uint64_t *pc_ids;		/* one sample's location ids */
	int pc_err;
};

static uint32_t
pstr(struct pctx *c, const char *s, size_t len)
{
	const struct dout_str *d = dout_intern(&c->pc_st, s, len);

	if (d == NULL) {
		c->pc_err = -ENOMEM;
		return 0;
	}
	return d->s_id;
}

static uint32_t
pcstr(struct pctx *c, const char *s)
{
	return pstr(c, s, strlen(s));
}

/* The module of "mod`func"; none for hex addresses and key frames. */
static size_t
frame_modlen(const struct dout_frame *f)
{
	const char *bq;

	if (f->f_kind == DOUT_FK_KEY || f->f_kind == DOUT_FK_AGG)
		return 0;
	bq = strchr(f->f_text->s_text, '`');
	return bq ? (size_t)(bq - f->f_text->s_text) : 0;
}

static uint32_t
map_for(struct pctx *c, const struct dout_frame *f)
{
	size_t ml = frame_modlen(f);
	uint32_t name, i;

	if (ml == 0)
		return 0;
	name = pstr(c, f->f_text->s_text, ml);
	for (i = 0; i < c->pc_nmaps; i++)
		if (c->pc_maps[i].pm_name == name)
			break;
	if (i == c->pc_nmaps) {
		struct pmap *m = realloc(c->pc_maps, (i + 1) * sizeof(*m));

		if (m == NULL) {
			c->pc_err = -ENOMEM;
			return 0;
		}
		c->pc_maps = m;
		m[i] = (struct pmap){ name, f->f_pc, f->f_pc };
		c->pc_nmaps++;
	}
	if (f->f_pc < c->pc_maps[i].pm_lo)
		c->pc_maps[i].pm_lo = f->f_pc;
	if (f->f_pc > c->pc_maps[i].pm_hi)
		c->pc_maps[i].pm_hi = f->f_pc;
	return i + 1;
}

static size_t
loc_slot(const struct pctx *c, uint32_t text, uint64_t pc)
{
	uint64_t h = (pc ^ ((uint64_t)text << 40)) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 20) & (c->pc_lsize - 1);
}

/* Double the id table (and the location vector) before it is half full,
 * so the table stays proportional to the distinct locations, not to the
 * frames of all samples. */
static int
loc_grow(struct pctx *c)
{
	size_t size = c->pc_lsize ? c->pc_lsize * 2 : 1024;
	uint32_t *ids = calloc(size, sizeof(*ids));
	struct ploc *v = realloc(c->pc_lvec, size / 2 * sizeof(*v));

	if (ids == NULL || v == NULL) {
		free(ids);
		if (v != NULL)
			c->pc_lvec = v;
		return c->pc_err = -ENOMEM;
	}
	c->pc_lvec = v;
	free(c->pc_locid);
	c->pc_locid = ids;
	c->pc_lsize = size;
	for (uint32_t id = 1; id <= c->pc_nlocs; id++) {
		size_t j = loc_slot(c, v[id - 1].pl_text, v[id - 1].pl_pc);

		while (ids[j] != 0)
			j = (j + 1) & (size - 1);
		ids[j] = id;
	}
	return 0;
}

/* The location id of frame f, made on first sight (with its function);
 * 0 when out of memory. */
static uint32_t
loc_for(struct pctx *c, const struct dout_frame *f)
{
	uint32_t tid = f->f_text->s_id, id;
	size_t j;

	if ((size_t)c->pc_nlocs * 2 >= c->pc_lsize && loc_grow(c) < 0)
		return 0;
	j = loc_slot(c, tid + 1, f->f_pc);
	for (; (id = c->pc_locid[j]) != 0; j = (j + 1) & (c->pc_lsize - 1))
		if (c->pc_lvec[id - 1].pl_text == tid + 1 &&
		    c->pc_lvec[id - 1].pl_pc == f->f_pc)
			return id;
	c->pc_lvec[c->pc_nlocs] = (struct ploc){ tid + 1, f->f_pc };
	c->pc_locid[j] = ++c->pc_nlocs;
	if (c->pc_func[tid] == 0)
		c->pc_func[tid] = 1;	/* numbered in text order when written */
	if (c->pc_fmap[tid] == 0)
		c->pc_fmap[tid] = map_for(c, f);
	else
		(void)map_for(c, f);	/* widen the mapping's range */
	return c->pc_nlocs;
}

static void
pctx_fini(struct pctx *c)
{
	dout_strtab_fini(&c->pc_st);
	free(c->pc_func);
	free(c->pc_fmap);
	free(c->pc_locid);
	free(c->pc_lvec);
	free(c->pc_maps);
	free(c->pc_ids);
}

static int
pctx_init(struct pctx *c, const struct dout_prof *p)
{
	size_t nt = p->p_str.st_n + 1, maxf = 1;

	memset(c, 0, sizeof(*c));
	c->pc_p = p;
	dout_strtab_init(&c->pc_st);
	for (size_t i = 0; i < p->p_nsamples; i++)
		if (p->p_samples[i].s_nframes > maxf)
			maxf = p->p_samples[i].s_nframes;
	c->pc_func = calloc(nt, sizeof(*c->pc_func));
	c->pc_fmap = calloc(nt, sizeof(*c->pc_fmap));
	c->pc_ids = calloc(maxf, sizeof(*c->pc_ids));
	if (!c->pc_func || !c->pc_fmap || !c->pc_ids || loc_grow(c) < 0)
		return -ENOMEM;
	pcstr(c, "");
	return c->pc_err;
}

static void
put_valuetype(struct dout_pb *b, uint32_t field, uint32_t type, uint32_t unit)
{
	struct dout_pb m = { 0 };

	dout_pb_uint(&m, 1, type);
	dout_pb_uint(&m, 2, unit);
	dout_pb_msg(b, field, &m);
	dout_pb_free(&m);
}

static void
put_sample(struct pctx *c, struct dout_pb *b, struct dout_pb *m,
    const struct dout_sample *s)
{
	const struct dout_frame *fr = &c->pc_p->p_frames[s->s_first];
	uint64_t v = (uint64_t)s->s_value;

	for (uint32_t i = 0; i < s->s_nframes; i++)	/* leaf first */
		c->pc_ids[i] = loc_for(c, &fr[s->s_nframes - 1 - i]);
	dout_pb_reset(m);
	dout_pb_packed(m, 1, c->pc_ids, s->s_nframes);
	dout_pb_packed(m, 2, &v, 1);
	dout_pb_msg(b, PF_SAMPLE, m);
}

static void
put_mappings(struct pctx *c, struct dout_pb *b, struct dout_pb *m)
{
	for (uint32_t i = 0; i < c->pc_nmaps; i++) {
		dout_pb_reset(m);
		dout_pb_uint(m, 1, i + 1);
		dout_pb_uint(m, 2, c->pc_maps[i].pm_lo);
		dout_pb_uint(m, 3, c->pc_maps[i].pm_hi + 1);
		dout_pb_uint(m, 5, c->pc_maps[i].pm_name);
		dout_pb_uint(m, 7, 1);		/* has_functions */
		dout_pb_msg(b, PF_MAPPING, m);
	}
}

/* Functions are numbered in frame-text order among the texts used. */
static void
put_functions(struct pctx *c, struct dout_pb *b, struct dout_pb *m)
{
	const struct dout_strtab *t = &c->pc_p->p_str;
	uint32_t id = 0;

	for (uint32_t i = 0; i < t->st_n; i++) {
		const struct dout_str *s = t->st_byid[i];
		const char *bq = strchr(s->s_text, '`');
		size_t ml = c->pc_fmap[i] && bq ? (size_t)(bq - s->s_text) : 0;

		if (c->pc_func[i] == 0)
			continue;
		c->pc_func[i] = ++id;
		dout_pb_reset(m);
		dout_pb_uint(m, 1, id);
		dout_pb_uint(m, 2, pstr(c, s->s_text, s->s_len));
		dout_pb_uint(m, 3, ml ? pcstr(c, bq + 1) : pstr(c, s->s_text, s->s_len));
		if (ml)
			dout_pb_uint(m, 4, pstr(c, s->s_text, ml));
		dout_pb_msg(b, PF_FUNCTION, m);
	}
}

static void
put_locations(struct pctx *c, struct dout_pb *b, struct dout_pb *m)
{
	struct dout_pb line = { 0 };

	for (uint32_t id = 1; id <= c->pc_nlocs; id++) {
		const struct ploc *l = &c->pc_lvec[id - 1];
		uint32_t tid = l->pl_text - 1;

		dout_pb_reset(m);
		dout_pb_reset(&line);
		dout_pb_uint(m, 1, id);
		if (c->pc_fmap[tid]) {
			dout_pb_uint(m, 2, c->pc_fmap[tid]);
			dout_pb_uint(m, 3, l->pl_pc);
		}
		dout_pb_uint(&line, 1, c->pc_func[tid]);
		dout_pb_msg(m, 4, &line);
		dout_pb_msg(b, PF_LOCATION, m);
	}
	dout_pb_free(&line);
}

/* Does the counter count nanoseconds (cpu-clock, task-clock, and the
 * sched::pmc: probes reading them: off-cpu-task-clock)? */
static int
time_counter(const char *counter)
{
	static const char *const clocks[] = { "cpu-clock", "task-clock" };
	size_t n = strlen(counter);

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		size_t k = strlen(clocks[i]);
		if (n >= k && strcmp(counter + n - k, clocks[i]) == 0 &&
		    (n == k || counter[n - k - 1] == '-'))
			return 1;
	}
	return 0;
}

static void
put_header(struct pctx *c, struct dout_pb *b, const struct dout_opts *o, int valued)
{
	char counter[128], title[512];
	int64_t period;
	int ns;

	dout_counter(o ? o->do_probe : NULL, counter, sizeof(counter), &period,
	    &ns);
	/* sum(arg5) of sched::pmc:off-cpu-task-clock weighs nanoseconds; a
	 * count() of samples counts, whatever the probe */
	uint32_t type = pcstr(c, counter),
	    unit = pcstr(c, valued && time_counter(counter) ? "nanoseconds" : "count");

	put_valuetype(b, PF_SAMPLE_TYPE, type, unit);
	if (period > 0) {
		type = pcstr(c, ns ? "cpu" : counter);
		unit = pcstr(c, ns ? "nanoseconds" : "count");
		put_valuetype(b, PF_PERIOD_TYPE, type, unit);
		dout_pb_uint(b, PF_PERIOD, (uint64_t)period);
	}
	dout_title(o, title, sizeof(title));
	dout_pb_uint(b, PF_COMMENT, pcstr(c, title));
}

static void
put_strings(struct pctx *c, struct dout_pb *b)
{
	for (uint32_t i = 0; i < c->pc_st.st_n; i++)
		dout_pb_bytes(b, PF_STRING, c->pc_st.st_byid[i]->s_text,
		    c->pc_st.st_byid[i]->s_len);
}

/*
 * Samples come first: they assign the location, function and mapping ids
 * the later tables are written from; strings go last because every table
 * adds to them.  Field order does not matter to protobuf readers.
 */
int
dout_pprof_encode(const struct dout_prof *p, const struct dout_opts *o,
    uint8_t **out, size_t *outlen)
{
	struct dout_pb b = { 0 }, m = { 0 };
	struct pctx c;
	int r;

	*out = NULL;
	*outlen = 0;
	if (p->p_err)
		return p->p_err;
	if ((r = pctx_init(&c, p)) == 0) {
		put_header(&c, &b, o, p->p_valued);
		for (size_t i = 0; i < p->p_nsamples; i++)
			put_sample(&c, &b, &m, &p->p_samples[i]);
		put_mappings(&c, &b, &m);
		put_functions(&c, &b, &m);
		put_locations(&c, &b, &m);
		put_strings(&c, &b);
		r = c.pc_err ? c.pc_err : b.pb_err ? b.pb_err : m.pb_err;
	}
	pctx_fini(&c);
	dout_pb_free(&m);
	if (r < 0) {
		dout_pb_free(&b);
		return r;
	}
	*out = b.pb_b;
	*outlen = b.pb_n;
	return 0;
}

/* gzip (zlib with windowBits 15 + 16) straight into fp. */
static int
gzip_write(FILE *fp, const uint8_t *data, size_t len)
{
	unsigned char obuf[16384];
	z_stream zs;
	int zr, r = 0;

	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	zs.next_in = (unsigned char *)(uintptr_t)data;
	do {
		size_t chunk = len > (1u << 30) ? (1u << 30) : len;

		zs.avail_in = (uInt)chunk;
		len -= chunk;
		do {
			zs.next_out = obuf;
			zs.avail_out = sizeof(obuf);
			zr = deflate(&zs, len ? Z_NO_FLUSH : Z_FINISH);
			if (zr == Z_STREAM_ERROR) {
				r = -EIO;
				break;
			}
			size_t n = sizeof(obuf) - zs.avail_out;
			if (n && fwrite(obuf, 1, n, fp) != n)
				r = -EIO;
		} while (r == 0 && zs.avail_out == 0);
	} while (r == 0 && len > 0);
	deflateEnd(&zs);
	return r;
}

int
dout_pprof_write(FILE *fp, const struct dout_prof *p,
    const struct dout_opts *o)
{
	uint8_t *buf;
	size_t len;
	int r = dout_pprof_encode(p, o, &buf, &len);

	if (r < 0)
		return r;
	r = gzip_write(fp, buf, len);
	free(buf);
	return r;
}
