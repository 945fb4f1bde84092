/*
 * dout_prof.c — the profile every picture is drawn from: interned frame
 * text and samples (root-first frame paths with a weight), built from
 * aggregation keys.
 *
 * A key's elements become frames in this order: the non-stack elements in
 * key order (execname, pid ...), then user stacks, then kernel stacks, each
 * stack reversed to root first.  A kernel stack sits on top of the user
 * stack that entered the kernel, so @[stack(), ustack()] reads main → read →
 * sys_read.  Stack frames are "module`function" without the offset, so
 * different return addresses in one function fold together (the same text
 * sym() prints); unresolved addresses stay hex.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dcons/dout_impl.h"

/* ---- interned strings -------------------------------------------------- */

void
dout_strtab_init(struct dout_strtab *t)
{
	memset(t, 0, sizeof(*t));
}

void
dout_strtab_fini(struct dout_strtab *t)
{
	for (uint32_t i = 0; i < t->st_n; i++)
		free(t->st_byid[i]);
	free(t->st_byid);
	free(t->st_b);
	memset(t, 0, sizeof(*t));
}

/* FNV-1a: frame texts are short and this runs at exit only. */
static uint32_t
str_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static int
strtab_grow(struct dout_strtab *t)
{
	uint32_t nb = t->st_nb ? t->st_nb * 2 : 256;
	struct dout_str **b = calloc(nb, sizeof(*b));

	if (b == NULL)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->st_n; i++) {
		struct dout_str *s = t->st_byid[i];
		uint32_t h = str_hash(s->s_text, s->s_len) & (nb - 1);

		s->s_next = b[h];
		b[h] = s;
	}
	free(t->st_b);
	t->st_b = b;
	t->st_nb = nb;
	return 0;
}

static struct dout_str *
strtab_find(const struct dout_strtab *t, const char *text, size_t len)
{
	struct dout_str *s;

	if (t->st_nb == 0)
		return NULL;
	s = t->st_b[str_hash(text, len) & (t->st_nb - 1)];
	for (; s != NULL; s = s->s_next)
		if (s->s_len == len && memcmp(s->s_text, text, len) == 0)
			return s;
	return NULL;
}

const struct dout_str *
dout_intern(struct dout_strtab *t, const char *text, size_t len)
{
	struct dout_str *s = strtab_find(t, text, len);
	uint32_t h;

	if (s != NULL)
		return s;
	if (len > UINT32_MAX / 2)
		return NULL;
	if (t->st_n >= t->st_nb / 2 && strtab_grow(t) < 0)
		return NULL;
	if (t->st_n == t->st_cap) {
		uint32_t cap = t->st_cap ? t->st_cap * 2 : 256;
		struct dout_str **v = realloc(t->st_byid, cap * sizeof(*v));

		if (v == NULL)
			return NULL;
		t->st_byid = v;
		t->st_cap = cap;
	}
	if ((s = malloc(sizeof(*s) + len + 1)) == NULL)
		return NULL;
	memcpy(s->s_text, text, len);
	s->s_text[len] = '\0';
	s->s_len = (uint32_t)len;
	s->s_id = t->st_n;
	h = str_hash(text, len) & (t->st_nb - 1);
	s->s_next = t->st_b[h];
	t->st_b[h] = s;
	t->st_byid[t->st_n++] = s;
	return s;
}

/* ---- samples ------------------------------------------------------------------ */

void
dout_prof_init(struct dout_prof *p, const struct dfmt_ctx *cx)
{
	memset(p, 0, sizeof(*p));
	dout_strtab_init(&p->p_str);
	p->p_cx = cx;
}

void
dout_prof_fini(struct dout_prof *p)
{
	dout_strtab_fini(&p->p_str);
	free(p->p_frames);
	free(p->p_samples);
	memset(p, 0, sizeof(*p));
}

/* Frames appended since the last closed sample form the open sample. */
static size_t
prof_open_first(const struct dout_prof *p)
{
	if (p->p_nsamples == 0)
		return 0;
	const struct dout_sample *s = &p->p_samples[p->p_nsamples - 1];
	return s->s_first + s->s_nframes;
}

static int
prof_fail(struct dout_prof *p, int err)
{
	if (p->p_err == 0)
		p->p_err = err;
	return err;
}

int
dout_prof_frame(struct dout_prof *p, const char *text, uint64_t pc, int kind)
{
	const struct dout_str *s;

	if (p->p_err)
		return p->p_err;
	if (p->p_nframes == p->p_fcap) {
		size_t cap = p->p_fcap ? p->p_fcap * 2 : 1024;
		struct dout_frame *f = realloc(p->p_frames, cap * sizeof(*f));

		if (f == NULL)
			return prof_fail(p, -ENOMEM);
		p->p_frames = f;
		p->p_fcap = cap;
	}
	if ((s = dout_intern(&p->p_str, text, strlen(text))) == NULL)
		return prof_fail(p, -ENOMEM);
	p->p_frames[p->p_nframes++] = (struct dout_frame){ s, pc, (uint8_t)kind };
	return 0;
}

int
dout_prof_end(struct dout_prof *p, int64_t value)
{
	size_t first = prof_open_first(p);

	if (p->p_err)
		return p->p_err;
	if (value <= 0 || p->p_nframes == first) {
		p->p_nframes = first;	/* nothing to draw: drop the frames */
		return 0;
	}
	if (p->p_nsamples == p->p_scap) {
		size_t cap = p->p_scap ? p->p_scap * 2 : 256;
		struct dout_sample *s = realloc(p->p_samples, cap * sizeof(*s));

		if (s == NULL)
			return prof_fail(p, -ENOMEM);
		p->p_samples = s;
		p->p_scap = cap;
	}
	p->p_samples[p->p_nsamples++] = (struct dout_sample){
		first, (uint32_t)(p->p_nframes - first), value };
	return 0;
}

int64_t
dout_prof_total(const struct dout_prof *p)
{
	int64_t t = 0;

	for (size_t i = 0; i < p->p_nsamples; i++)
		t += p->p_samples[i].s_value;
	return t;
}

/* ---- key elements as frames ---------------------------------------------------- */

static int
is_stack(const struct d_vdesc *vd)
{
	return vd->dv_kind == D_VK_KSTACK || vd->dv_kind == D_VK_USTACK;
}

static int
raw_hex(const unsigned char *b, size_t n, char *buf, size_t len)
{
	size_t o = 0;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	o += (size_t)snprintf(buf, len, "0x");
	for (size_t i = 0; i < n && o + 3 <= len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%02x", b[i]);
	return (int)o;
}

int
dout_keytext(const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val, char *buf, size_t len)
{
	int64_t i;
	double d;
	float f;

	switch (vd->dv_kind) {
	case D_VK_INT:
		memcpy(&i, val, 8);
		return snprintf(buf, len, "%" PRId64, i);
	case D_VK_UINT:
		memcpy(&i, val, 8);
		return snprintf(buf, len, "%" PRIu64, (uint64_t)i);
	case D_VK_PTR:
		memcpy(&i, val, 8);
		return snprintf(buf, len, "0x%" PRIx64, (uint64_t)i);
	case D_VK_STRING:
		return snprintf(buf, len, "%.*s", (int)(vd->dv_size ?
		    strnlen(val, vd->dv_size) : strlen(val)), (const char *)val);
	case D_VK_KSYM: case D_VK_KMOD: case D_VK_USYM: case D_VK_UMOD:
	case D_VK_UADDR:
		return dfmt_symtext(cx, vd, val, buf, len);
	case D_VK_FLOAT:
		if (vd->dv_isize == 4) {
			memcpy(&f, val, 4);
			d = f;
		} else {
			memcpy(&d, val, 8);
		}
		return snprintf(buf, len, "%g", d);
	default:
		return raw_hex(val, vd->dv_size, buf, len);
	}
}

/* "perf-1234.map`fn": a frame the symbolizer found in a JIT map. */
static int
is_jit_text(const char *t)
{
	const char *bq = strchr(t, '`');

	return strncmp(t, "perf-", 5) == 0 && bq != NULL && bq - t > 9 &&
	    memcmp(bq - 4, ".map", 4) == 0;
}

static void
frame_text(const struct dfmt_ctx *cx, int user, uint64_t pid, uint64_t pc,
    char *buf, size_t len)
{
	struct d_vdesc vd = { 0 };
	uint64_t w[2] = { pid, pc };

	vd.dv_kind = user ? D_VK_USYM : D_VK_KSYM;
	vd.dv_size = user ? 16 : 8;
	dfmt_symtext(cx, &vd, user ? (const void *)w : (const void *)&w[1],
	    buf, len);
}

/* The stack's frames, root first. */
static int
add_stack(struct dout_prof *p, const struct d_vdesc *vd, const uint8_t *b)
{
	int user = vd->dv_kind == D_VK_USTACK;
	uint64_t pid = 0, pc;
	uint32_t n = 0;
	char text[512];
	int r = 0;

	if (user) {
		memcpy(&pid, b, 8);
		b += 8;
	}
	while (n < vd->dv_nframes && (memcpy(&pc, b + 8 * n, 8), pc != 0))
		n++;
	while (n-- > 0 && r == 0) {
		memcpy(&pc, b + 8 * n, 8);
		frame_text(p->p_cx, user, pid, pc, text, sizeof(text));
		r = dout_prof_frame(p, text, pc, !user ? DOUT_FK_KERNEL :
		    is_jit_text(text) ? DOUT_FK_JIT : DOUT_FK_USER);
	}
	return r;
}

/* pass 0: non-stack keys, 1: user stacks, 2: kernel stacks. */
static int
add_pass(struct dout_prof *p, int pass, const uint8_t *key,
    const struct d_vdesc *kd, int nkeys)
{
	char text[512];
	int r = 0;

	for (int i = 0; i < nkeys && r == 0; key += kd[i].dv_size, i++) {
		if (pass == 0 && !is_stack(&kd[i])) {
			/* an empty string (unknown execname) still needs a frame */
			if (dout_keytext(p->p_cx, &kd[i], key, text, sizeof(text)) <= 0)
				snprintf(text, sizeof(text), "-");
			r = dout_prof_frame(p, text, 0, DOUT_FK_KEY);
		} else if ((pass == 1 && kd[i].dv_kind == D_VK_USTACK) ||
		    (pass == 2 && kd[i].dv_kind == D_VK_KSTACK)) {
			r = add_stack(p, &kd[i], key);
		}
	}
	return r;
}

int
dout_prof_add(struct dout_prof *p, const void *key, const struct d_vdesc *kd,
    int nkeys, int64_t value)
{
	int r = 0;

	if (value <= 0)
		return 0;
	if (p->p_aggname != NULL)
		r = dout_prof_frame(p, p->p_aggname->s_text, 0, DOUT_FK_AGG);
	for (int pass = 0; pass < 3 && r == 0; pass++)
		r = add_pass(p, pass, key, kd, nkeys);
	/* @ = count(): the one frame "-", below the name of the aggregation
	 * when it has one (@n;-), as docs/output-formats.md says; also a path
	 * that has no frame at all (an empty stack) */
	if (r == 0 && (nkeys == 0 || p->p_nframes == prof_open_first(p)))
		r = dout_prof_frame(p, "-", 0, DOUT_FK_KEY);
	return r ? r : dout_prof_end(p, value);
}
