/*
 * dagg.c — aggregation storage and the hot path: creation, dagg_update(),
 * the hash table with incremental rehash, the memory budget, sorting,
 * trunc(), clear() and normalize().  Printing lives in dagg_print.c.
 *
 * One update function per aggregating function (the ag_update table) is
 * chosen at creation, so the hot path is: hash the key, one rehash step if
 * a rehash is in progress, find or create the entry, call ag_update.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dcons/dagg_impl.h"
#include "util/hash.h"

/* ---- aggregating functions ------------------------------------------------- */

static void
upd_count(const struct dagg *a, int64_t *v, int64_t val, int64_t incr)
{
	(void)a;
	(void)val;
	(void)incr;
	v[0]++;
}

static void
upd_sum(const struct dagg *a, int64_t *v, int64_t val, int64_t incr)
{
	(void)a;
	(void)incr;
	v[0] = (int64_t)((uint64_t)v[0] + (uint64_t)val);
}

static void
upd_avg(const struct dagg *a, int64_t *v, int64_t val, int64_t incr)
{
	(void)a;
	(void)incr;
	v[0]++;
	v[1] = (int64_t)((uint64_t)v[1] + (uint64_t)val);
}

static void
upd_min(const struct dagg *a, int64_t *v, int64_t val, int64_t incr)
{
	(void)a;
	(void)incr;
	if (val < v[0])
		v[0] = val;
}

static void
upd_max(const struct dagg *a, int64_t *v, int64_t val, int64_t incr)
{
	(void)a;
	(void)incr;
	if (val > v[0])
		v[0] = val;
}

/* count, sum and the 128-bit sum of squares (of |val|, as DTrace does). */
static void
upd_stddev(const struct dagg *a, int64_t *v, int64_t val, int64_t incr)
{
	uint64_t m = val < 0 ? (uint64_t)0 - (uint64_t)val : (uint64_t)val;
	unsigned __int128 sq = (unsigned __int128)m * m, acc;

	(void)a;
	(void)incr;
	v[0]++;
	v[1] = (int64_t)((uint64_t)v[1] + (uint64_t)val);
	acc = ((unsigned __int128)(uint64_t)v[3] << 64) | (uint64_t)v[2];
	acc += sq;
	v[2] = (int64_t)(uint64_t)acc;
	v[3] = (int64_t)(uint64_t)(acc >> 64);
}

/* Bucket i > 0 of quantize holds [2^(i-64), 2^(i-63)); negatives mirror. */
static int
quantize_bucket(int64_t val)
{
	uint64_t m;
	int lg;

	if (val == 0)
		return DAGG_QZERO;
	m = val < 0 ? (uint64_t)0 - (uint64_t)val : (uint64_t)val;
	lg = 63 - __builtin_clzll(m);
	if (val > 0)
		return DAGG_QZERO + 1 + lg;
	return DAGG_QZERO - 1 - lg < 0 ? 0 : DAGG_QZERO - 1 - lg;
}

static void
upd_quantize(const struct dagg *a, int64_t *v, int64_t val, int64_t incr)
{
	(void)a;
	v[quantize_bucket(val)] += incr;
}

static void
upd_lquantize(const struct dagg *a, int64_t *v, int64_t val, int64_t incr)
{
	int64_t base = a->ag_params.ap_lq_base, step = a->ag_params.ap_lq_step;
	int64_t level;

	if (val < base) {
		v[0] += incr;
		return;
	}
	level = (int64_t)(((uint64_t)val - (uint64_t)base) / (uint64_t)step);
	if (level < a->ag_levels)
		v[level + 1] += incr;
	else
		v[a->ag_levels + 1] += incr;
}

/* Bucket 0 holds values below factor^low; then each order of magnitude
 * has min(factor^(order+1), nsteps) linear steps, of which the first
 * 1/factor were already covered by the previous orders. */
static int
llquantize_bucket(const struct dagg_params *p, int64_t val)
{
	int64_t this = 1, last, next;
	int base = 1, order;

	for (order = 0; order < p->ap_llq_low; order++)
		this *= p->ap_llq_factor;
	if (val < (last = this))
		return 0;
	for (this *= p->ap_llq_factor; order <= p->ap_llq_high; order++) {
		int64_t nb = this > p->ap_llq_nsteps ? p->ap_llq_nsteps : this;

		if ((next = this * p->ap_llq_factor) < this)
			val = this - 1;	/* the top order overflows 64 bits */
		if (val < this)
			return base + (int)((val - last) / (this / nb));
		base += (int)(nb - nb / p->ap_llq_factor);
		last = this;
		this = next;
	}
	return base;
}

static void
upd_llquantize(const struct dagg *a, int64_t *v, int64_t val, int64_t incr)
{
	v[llquantize_bucket(&a->ag_params, val)] += incr;
}

static void
merge_add(int64_t *dst, const int64_t *src, int nvals)
{
	for (int i = 0; i < nvals; i++)
		dst[i] = (int64_t)((uint64_t)dst[i] + (uint64_t)src[i]);
}

static void
merge_stddev(int64_t *dst, const int64_t *src, int nvals)
{
	unsigned __int128 l, r;

	(void)nvals;
	merge_add(dst, src, 2);
	l = ((unsigned __int128)(uint64_t)dst[3] << 64) | (uint64_t)dst[2];
	r = ((unsigned __int128)(uint64_t)src[3] << 64) | (uint64_t)src[2];
	l += r;
	dst[2] = (int64_t)(uint64_t)l;
	dst[3] = (int64_t)(uint64_t)(l >> 64);
}

static void
merge_min(int64_t *dst, const int64_t *src, int nvals)
{
	(void)nvals;
	if (src[0] < dst[0])
		dst[0] = src[0];
}

static void
merge_max(int64_t *dst, const int64_t *src, int nvals)
{
	(void)nvals;
	if (src[0] > dst[0])
		dst[0] = src[0];
}

/* ORDER: enum dagg_func. */
static const struct {
	dagg_update_f fn;
	dagg_merge_f merge;
	int nvals;		/* 0: computed from the parameters */
	int64_t init;		/* initial value of every word */
} dagg_ftab[DAGG_NFUNCS] = {
	[DAGG_COUNT] = { upd_count, merge_add, 1, 0 },
	[DAGG_SUM] = { upd_sum, merge_add, 1, 0 },
	[DAGG_AVG] = { upd_avg, merge_add, 2, 0 },
	[DAGG_MIN] = { upd_min, merge_min, 1, INT64_MAX },
	[DAGG_MAX] = { upd_max, merge_max, 1, INT64_MIN },
	[DAGG_STDDEV] = { upd_stddev, merge_stddev, 4, 0 },
	[DAGG_QUANTIZE] = { upd_quantize, merge_add, DAGG_QNBUCKETS, 0 },
	[DAGG_LQUANTIZE] = { upd_lquantize, merge_add, 0, 0 },
	[DAGG_LLQUANTIZE] = { upd_llquantize, merge_add, 0, 0 },
};

/* ---- parameter checks (DTrace's compile-time messages) --------------------- */

static int
perr(char *err, size_t errlen, const char **tagp, const char *tag,
    const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	if (tagp)
		*tagp = tag;
	return -EINVAL;
}

static int
check_lquantize(const struct dagg_params *p, char *err, size_t errlen,
    const char **tagp)
{
	int64_t nlevels;

	if (p->ap_lq_base < INT32_MIN || p->ap_lq_base > INT32_MAX)
		return perr(err, errlen, tagp, "D_LQUANT_BASEVAL",
		    "lquantize( ) argument #1 must be a 32-bit quantity");
	if (p->ap_lq_limit < INT32_MIN || p->ap_lq_limit > INT32_MAX)
		return perr(err, errlen, tagp, "D_LQUANT_LIMVAL",
		    "lquantize( ) argument #2 must be a 32-bit quantity");
	if (p->ap_lq_limit <= p->ap_lq_base)
		return perr(err, errlen, tagp, "D_LQUANT_MISMATCH",
		    "lquantize( ) base (argument #1) must be less than limit "
		    "(argument #2)");
	if (p->ap_lq_step <= 0)
		return perr(err, errlen, tagp, "D_LQUANT_STEPTYPE",
		    "lquantize( ) argument #3 must be a non-zero positive "
		    "integer constant");
	if (p->ap_lq_step > UINT16_MAX)
		return perr(err, errlen, tagp, "D_LQUANT_STEPVAL",
		    "lquantize( ) argument #3 must be a 16-bit quantity");
	nlevels = (p->ap_lq_limit - p->ap_lq_base) / p->ap_lq_step;
	if (nlevels == 0)
		return perr(err, errlen, tagp, "D_LQUANT_STEPLARGE",
		    "lquantize( ) step (argument #3) too large: must have at "
		    "least one quantization level");
	if (nlevels > UINT16_MAX)
		return perr(err, errlen, tagp, "D_LQUANT_STEPSMALL",
		    "lquantize( ) step (argument #3) too small: number of "
		    "quantization levels must be a 16-bit quantity");
	return 0;
}

/* The Linux DTrace's checks, in its order and with its tags.  Steps fewer
 * than the factor (legal there when they divide it) are not implemented
 * here and stay an error of their own. */
static int
check_llquantize(const struct dagg_params *p, char *err, size_t errlen,
    const char **tagp)
{
	uint64_t f = p->ap_llq_factor, lmag = p->ap_llq_low;
	uint64_t hmag = p->ap_llq_high, steps = p->ap_llq_nsteps, v = 1;

	if (f < 2)
		return perr(err, errlen, tagp, "D_LLQUANT_FACTORVAL",
		    "llquantize( ) argument #1 must be an unsigned 16-bit "
		    "quantity greater than or equal to 2");
	if (hmag < lmag)
		return perr(err, errlen, tagp, "D_LLQUANT_HMAGVAL",
		    "llquantize( ) argument #3 (high magnitude) must be at "
		    "least argument #2 (low magnitude)");
	for (uint64_t i = 0; i <= hmag; i++) {
		if (v > UINT64_MAX / f)
			return perr(err, errlen, tagp, "D_LLQUANT_HMAGVAL",
			    "llquantize( ) argument #3 (high magnitude) will "
			    "cause overflow of 64 bits");
		v *= f;
	}
	if (steps == 0)
		return perr(err, errlen, tagp, "D_LLQUANT_STEPTYPE",
		    "llquantize( ) argument #4 must be a non-zero positive "
		    "integer constant");
	if (steps < f && f % steps)
		return perr(err, errlen, tagp, "D_LLQUANT_STEPVAL",
		    "llquantize() argument #4 (steps) must evenly divide "
		    "argument #1 (factor) when steps<factor");
	if (steps > f && steps % f)
		return perr(err, errlen, tagp, "D_LLQUANT_STEPVAL",
		    "llquantize() argument #4 (steps) must be a multiple of "
		    "argument #1 (factor) when steps>factor");
	if (steps > f) {
		v = f;
		for (uint64_t i = 0; i < (lmag ? lmag : 1); i++)
			v *= f;
		if (v % steps)
			return perr(err, errlen, tagp, "D_LLQUANT_STEPVAL",
			    "llquantize() argument #4 (steps) must evenly "
			    "divide pow(argument #1 (factor), lmag (argument "
			    "#2) + 1) when steps>factor");
	}
	if (steps < f)
		return perr(err, errlen, tagp, "D_LLQUANT_FACTORNSTEPS",
		    "llquantize( ) with fewer steps per magnitude (argument "
		    "#4) than the factor (argument #1) is not supported");
	return 0;
}

int
dagg_check_params(enum dagg_func fn, const struct dagg_params *p, char *err,
    size_t errlen, const char **tagp)
{
	if (tagp)
		*tagp = NULL;
	if (fn == DAGG_LQUANTIZE)
		return p ? check_lquantize(p, err, errlen, tagp) : -EINVAL;
	if (fn == DAGG_LLQUANTIZE)
		return p ? check_llquantize(p, err, errlen, tagp) : -EINVAL;
	return (unsigned)fn < DAGG_NFUNCS ? 0 : -EINVAL;
}

/* The number of llquantize buckets: the underflow bucket, the linear
 * steps of every order from low to high, and the overflow bucket. */
int
dagg_llq_nbuckets(const struct dagg_params *p)
{
	int64_t value = 1, next, step;
	int order, n = 1;

	for (order = 0; order < p->ap_llq_low; order++)
		value *= p->ap_llq_factor;
	next = value * p->ap_llq_factor;
	step = next > p->ap_llq_nsteps ? next / p->ap_llq_nsteps : 1;
	while (order <= p->ap_llq_high) {
		n++;
		if ((value += step) != next)
			continue;
		next = value * p->ap_llq_factor;
		step = next > p->ap_llq_nsteps ? next / p->ap_llq_nsteps : 1;
		order++;
	}
	return n + 1;
}

/* ---- the set ----------------------------------------------------------------- */

dagg_set_t *
dagg_set_create(uint64_t aggsize, const char *progname, int *errp)
{
	dagg_set_t *set = calloc(1, sizeof(*set));
	int dummy;

	if (errp == NULL)
		errp = &dummy;
	if (set == NULL ||
	    (set->as_progname = strdup(progname ? progname : "pmctrace")) ==
	    NULL) {
		free(set);
		*errp = -ENOMEM;
		return NULL;
	}
	set->as_budget = aggsize;
	set->as_so.so_sortkey = 0;
	set->as_so.so_sortkeypos = -1;
	set->as_so.so_sortpos = -1;
	set->as_so.so_sortrev = 0;
	*errp = 0;
	return set;
}

void
dagg_free_one(struct dagg *a)
{
	struct dagg_chunk *c, *n;

	if (a == NULL)
		return;
	for (c = a->ag_chunks; c; c = n) {
		n = c->ck_next;
		free(c);
	}
	free(a->ag_ht[0].ht_b);
	free(a->ag_ht[1].ht_b);
	free(a->ag_name);
	free(a);
}

void
dagg_set_destroy(dagg_set_t *set)
{
	if (set == NULL)
		return;
	for (int i = 0; i < set->as_naggs; i++)
		dagg_free_one(set->as_aggs[i]);
	free(set->as_aggs);
	free(set->as_drops);
	free(set->as_progname);
	free(set);
}

void
dagg_set_sortopts(dagg_set_t *set, const struct dagg_sortopts *so)
{
	if (set && so)
		set->as_so = *so;
}

void
dagg_set_aggsize(dagg_set_t *set, uint64_t aggsize)
{
	if (set)
		set->as_budget = aggsize;
}

/* ---- creating an aggregation -------------------------------------------------- */

static int
nvals_for(enum dagg_func fn, const struct dagg_params *p, int *levels)
{
	*levels = 0;
	if (fn == DAGG_LQUANTIZE) {
		*levels = (int)((p->ap_lq_limit - p->ap_lq_base) /
		    p->ap_lq_step);
		return *levels + 2;
	}
	if (fn == DAGG_LLQUANTIZE)
		return dagg_llq_nbuckets(p);
	return dagg_ftab[fn].nvals;
}

static int
set_keys(struct dagg *a, const struct d_vdesc *keys, int nkeys)
{
	uint64_t off = 0;

	if (nkeys < 0 || nkeys > DAGG_MAXKEYS || (nkeys && keys == NULL))
		return -EINVAL;
	for (int i = 0; i < nkeys; i++) {
		size_t sz = dfmt_vsize(&keys[i]);

		if (keys[i].dv_kind == D_VK_NONE || keys[i].dv_kind >= D_VK_NKINDS)
			return -EINVAL;
		a->ag_keys[i] = keys[i];
		a->ag_keys[i].dv_size = (uint32_t)sz;
		a->ag_koff[i] = (uint32_t)off;
		off += sz;
		if (off > (1u << 20))
			return -E2BIG;
	}
	a->ag_nkeys = nkeys;
	a->ag_keysize = (uint32_t)off;
	for (int i = 0; i < nkeys; i++)
		a->ag_hasstr |= keys[i].dv_kind == D_VK_STRING;
	return 0;
}

static int
dagg_init(struct dagg *a, enum dagg_func fn, const struct dagg_params *p,
    const struct d_vdesc *keys, int nkeys)
{
	int r;

	if ((unsigned)fn >= DAGG_NFUNCS)
		return -EINVAL;
	if ((fn == DAGG_LQUANTIZE || fn == DAGG_LLQUANTIZE) &&
	    dagg_check_params(fn, p, NULL, 0, NULL) != 0)
		return -EINVAL;
	a->ag_func = fn;
	if (p)
		a->ag_params = *p;
	if ((r = set_keys(a, keys, nkeys)) != 0)
		return r;
	a->ag_nvals = nvals_for(fn, &a->ag_params, &a->ag_levels);
	a->ag_update = dagg_ftab[fn].fn;
	a->ag_merge = dagg_ftab[fn].merge;
	a->ag_entsize = sizeof(struct dagg_ent) + 8 * (size_t)a->ag_nvals +
	    ((a->ag_keysize + 7) & ~7u);
	a->ag_rehashidx = -1;
	a->ag_normal = 1;
	return 0;
}

static int
set_add(dagg_set_t *set, struct dagg *a)
{
	if (set->as_naggs == set->as_cap) {
		int cap = set->as_cap ? set->as_cap * 2 : 8;
		struct dagg **n = realloc(set->as_aggs, (size_t)cap * sizeof(*n));

		if (n == NULL)
			return -ENOMEM;
		set->as_aggs = n;
		set->as_cap = cap;
	}
	a->ag_id = set->as_naggs;
	set->as_aggs[set->as_naggs++] = a;
	return 0;
}

dagg_t *
dagg_create(dagg_set_t *set, const char *name, enum dagg_func fn,
    const struct dagg_params *p, const struct d_vdesc *keys, int nkeys,
    int *errp)
{
	struct dagg *a;
	int dummy, r;

	if (errp == NULL)
		errp = &dummy;
	if (set == NULL) {
		*errp = -EINVAL;
		return NULL;
	}
	if ((a = calloc(1, sizeof(*a))) == NULL ||
	    (a->ag_name = strdup(name ? name : "")) == NULL) {
		free(a);
		*errp = -ENOMEM;
		return NULL;
	}
	a->ag_set = set;
	if ((r = dagg_init(a, fn, p, keys, nkeys)) != 0 ||
	    (r = set_add(set, a)) != 0) {
		dagg_free_one(a);
		*errp = r;
		return NULL;
	}
	*errp = 0;
	return a;
}

/* A copy of a's layout with its own unlimited set, for print-time merges. */
struct dagg *
dagg_clone_empty(const struct dagg *a)
{
	struct dagg *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	*c = *a;
	memset(c->ag_ht, 0, sizeof(c->ag_ht));
	c->ag_set = NULL;
	c->ag_name = NULL;
	c->ag_single = NULL;
	c->ag_chunks = NULL;
	c->ag_bump = NULL;
	c->ag_bumpleft = 0;
	c->ag_free = NULL;
	c->ag_rehashidx = -1;
	return c;
}

dagg_t *
dagg_lookup(dagg_set_t *set, const char *name)
{
	for (int i = 0; set && name && i < set->as_naggs; i++) {
		if (strcmp(set->as_aggs[i]->ag_name, name) == 0)
			return set->as_aggs[i];
	}
	return NULL;
}

const char *
dagg_name(const dagg_t *a)
{
	return a ? a->ag_name : NULL;
}

enum dagg_func
dagg_func(const dagg_t *a)
{
	return a->ag_func;
}

uint32_t
dagg_keysize(const dagg_t *a)
{
	return a ? a->ag_keysize : 0;
}

uint64_t
dagg_nentries(const dagg_t *a)
{
	if (a == NULL)
		return 0;
	return a->ag_ht[0].ht_used + a->ag_ht[1].ht_used;
}

/* ---- memory ---------------------------------------------------------------- */

static int
budget_take(struct dagg *a, uint64_t n)
{
	dagg_set_t *set = a->ag_set;

	if (set == NULL)
		return 0;
	if (set->as_used + n > set->as_budget)
		return -ENOSPC;
	set->as_used += n;
	return 0;
}

static void
budget_give(struct dagg *a, uint64_t n)
{
	if (a->ag_set)
		a->ag_set->as_used -= n < a->ag_set->as_used ? n :
		    a->ag_set->as_used;
}

static struct dagg_ent *
ent_alloc(struct dagg *a)
{
	struct dagg_ent *e;

	if (budget_take(a, a->ag_entsize) != 0)
		return NULL;
	if ((e = a->ag_free) != NULL) {
		a->ag_free = e->de_next;
		return e;
	}
	if (a->ag_bumpleft < a->ag_entsize) {
		size_t sz = a->ag_entsize > DAGG_CHUNK / 4 ? a->ag_entsize * 4 :
		    DAGG_CHUNK;
		struct dagg_chunk *c = malloc(sizeof(*c) + sz);

		if (c == NULL) {
			budget_give(a, a->ag_entsize);
			return NULL;
		}
		c->ck_next = a->ag_chunks;
		a->ag_chunks = c;
		a->ag_bump = c->ck_mem;
		a->ag_bumpleft = sz;
	}
	e = (struct dagg_ent *)(void *)a->ag_bump;
	a->ag_bump += a->ag_entsize;
	a->ag_bumpleft -= a->ag_entsize;
	return e;
}

static void
ent_free(struct dagg *a, struct dagg_ent *e)
{
	e->de_next = a->ag_free;
	a->ag_free = e;
	budget_give(a, a->ag_entsize);
}

/* ---- hashing ------------------------------------------------------------------ */

/* Four independent lanes, so long keys (stacks) hash at memory speed
 * rather than at one multiply latency per word. */
static inline uint64_t
hash_bytes(const unsigned char *p, uint32_t len, uint64_t seed)
{
	uint64_t h[4] = { seed, seed ^ 0x9e3779b97f4a7c15ULL,
		seed ^ 0xc2b2ae3d27d4eb4fULL, seed ^ 0x165667b19e3779f9ULL };
	uint64_t w;

	for (; len >= 32; len -= 32, p += 32) {
		for (int i = 0; i < 4; i++) {
			memcpy(&w, p + 8 * i, 8);
			h[i] = (h[i] ^ (w * 0x87c37b91114253d5ULL)) *
			    0x4cf5ad432745937fULL;
		}
	}
	for (; len >= 8; len -= 8, p += 8) {
		memcpy(&w, p, 8);
		h[0] = (h[0] ^ (w * 0x87c37b91114253d5ULL)) *
		    0x4cf5ad432745937fULL;
		h[0] = (h[0] << 31) | (h[0] >> 33);
	}
	w = 0;
	memcpy(&w, p, len);
	return hash_mix64(h[0] ^ w) ^ hash_mix64(h[1]) ^
	    (hash_mix64(h[2]) >> 1) ^ (hash_mix64(h[3]) << 1);
}

/* A string element is zero-filled after its NUL: hash only the words up
 * to the one holding the terminator. */
static inline uint64_t
hash_string(const unsigned char *p, uint32_t len, uint64_t h)
{
	uint64_t w;

	for (; len >= 8; len -= 8, p += 8) {
		memcpy(&w, p, 8);
		h = (h ^ (w * 0x87c37b91114253d5ULL)) * 0x4cf5ad432745937fULL;
		if ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL)
			return h;
	}
	w = 0;
	memcpy(&w, p, len);
	return (h ^ w) * 0x4cf5ad432745937fULL;
}

static inline uint64_t
hash_key(const struct dagg *a, const void *key)
{
	const unsigned char *p = key;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ a->ag_keysize, w;

	if (a->ag_keysize == 8) {
		memcpy(&w, p, 8);
		return hash_mix64(w ^ h);
	}
	if (!a->ag_hasstr)
		return hash_bytes(p, a->ag_keysize, h);
	for (int k = 0; k < a->ag_nkeys; k++) {
		const struct d_vdesc *vd = &a->ag_keys[k];

		if (vd->dv_kind == D_VK_STRING)
			h = hash_string(p + a->ag_koff[k], vd->dv_size, h);
		else
			h = hash_bytes(p + a->ag_koff[k], vd->dv_size, h);
	}
	return hash_mix64(h);
}

static inline int
key_eq(const struct dagg *a, const struct dagg_ent *e, const void *key)
{
	if (a->ag_keysize == 8)
		return memcmp(dagg_key(a, e), key, 8) == 0;
	return memcmp(dagg_key(a, e), key, a->ag_keysize) == 0;
}

static int
ht_alloc(struct dagg *a, struct dagg_ht *ht, uint64_t size)
{
	if (budget_take(a, size * sizeof(*ht->ht_b)) != 0)
		return -ENOSPC;
	if ((ht->ht_b = calloc(size, sizeof(*ht->ht_b))) == NULL) {
		budget_give(a, size * sizeof(*ht->ht_b));
		return -ENOMEM;
	}
	ht->ht_size = size;
	ht->ht_used = 0;
	return 0;
}

static void
ht_release(struct dagg *a, struct dagg_ht *ht)
{
	budget_give(a, ht->ht_size * sizeof(*ht->ht_b));
	free(ht->ht_b);
	memset(ht, 0, sizeof(*ht));
}

/* Move one bucket of table 0 into table 1, visiting at most
 * DAGG_REHASH_EMPTY empty buckets; finish when table 0 is empty. */
static void
rehash_step(struct dagg *a)
{
	struct dagg_ht *h0 = &a->ag_ht[0], *h1 = &a->ag_ht[1];
	int empty = DAGG_REHASH_EMPTY;
	struct dagg_ent *e, *n;

	while (h0->ht_used > 0 && (uint64_t)a->ag_rehashidx < h0->ht_size &&
	    h0->ht_b[a->ag_rehashidx] == NULL) {
		a->ag_rehashidx++;
		if (--empty == 0)
			return;
	}
	if (h0->ht_used > 0 && (uint64_t)a->ag_rehashidx < h0->ht_size) {
		for (e = h0->ht_b[a->ag_rehashidx]; e; e = n) {
			uint64_t i = e->de_hash & (h1->ht_size - 1);

			n = e->de_next;
			e->de_next = h1->ht_b[i];
			h1->ht_b[i] = e;
			h0->ht_used--;
			h1->ht_used++;
		}
		h0->ht_b[a->ag_rehashidx++] = NULL;
	}
	if (h0->ht_used == 0) {
		ht_release(a, h0);
		*h0 = *h1;
		memset(h1, 0, sizeof(*h1));
		a->ag_rehashidx = -1;
	}
}

/* Grow when the load reaches 1; if the budget cannot pay for the larger
 * table, keep the current one (chains grow, memory stays bounded). */
static void
maybe_expand(struct dagg *a)
{
	struct dagg_ht *h0 = &a->ag_ht[0];

	if (a->ag_rehashidx != -1)
		return;
	if (h0->ht_size == 0) {
		(void)ht_alloc(a, h0, 16);
		return;
	}
	if (h0->ht_used < h0->ht_size)
		return;
	if (ht_alloc(a, &a->ag_ht[1], h0->ht_size * 2) == 0)
		a->ag_rehashidx = 0;
}

static struct dagg_ent *
ht_find(const struct dagg *a, uint64_t h, const void *key)
{
	for (int t = 0; t < 2; t++) {
		const struct dagg_ht *ht = &a->ag_ht[t];
		struct dagg_ent *e;

		if (ht->ht_size == 0)
			continue;
		for (e = ht->ht_b[h & (ht->ht_size - 1)]; e; e = e->de_next) {
			if (e->de_hash == h && key_eq(a, e, key))
				return e;
		}
		if (a->ag_rehashidx == -1)
			break;
	}
	return NULL;
}

static void
ent_initval(const struct dagg *a, struct dagg_ent *e)
{
	int64_t init = dagg_ftab[a->ag_func].init;

	for (int i = 0; i < a->ag_nvals; i++)
		e->de_val[i] = init;
}

static struct dagg_ent *
ht_insert(struct dagg *a, uint64_t h, const void *key)
{
	struct dagg_ht *ht;
	struct dagg_ent *e;
	uint64_t i;

	maybe_expand(a);
	ht = &a->ag_ht[a->ag_rehashidx != -1 ? 1 : 0];
	if (ht->ht_size == 0 || (e = ent_alloc(a)) == NULL)
		return NULL;
	e->de_hash = h;
	ent_initval(a, e);
	memcpy(dagg_key(a, e), key, a->ag_keysize);
	i = h & (ht->ht_size - 1);
	e->de_next = ht->ht_b[i];
	ht->ht_b[i] = e;
	ht->ht_used++;
	return e;
}

struct dagg_ent *
dagg_lookup_ent(struct dagg *a, const void *key, int create)
{
	uint64_t h = hash_key(a, key);
	struct dagg_ent *e;

	if (a->ag_rehashidx != -1)
		rehash_step(a);
	if ((e = ht_find(a, h, key)) == NULL && create)
		e = ht_insert(a, h, key);
	return e;
}

static void
count_drop(dagg_set_t *set, uint32_t cpu)
{
	if (set == NULL)
		return;
	set->as_total_drops++;
	if (cpu >= set->as_ndrops && cpu < 65536) {
		uint32_t n = cpu + 1 > 2 * set->as_ndrops ? cpu + 1 :
		    2 * set->as_ndrops;
		uint64_t *d = realloc(set->as_drops, n * sizeof(*d));

		if (d == NULL)
			return;
		memset(d + set->as_ndrops, 0, (n - set->as_ndrops) * sizeof(*d));
		set->as_drops = d;
		set->as_ndrops = n;
	}
	if (cpu < set->as_ndrops)
		set->as_drops[cpu]++;
}

int
dagg_update(dagg_t *a, uint32_t cpu, const void *key, int64_t val,
    int64_t incr)
{
	struct dagg_ent *e;

	if (a->ag_keysize == 0) {
		if ((e = a->ag_single) == NULL) {
			static const char nokey;

			if ((e = a->ag_single = dagg_lookup_ent(a, &nokey, 1)) ==
			    NULL) {
				count_drop(a->ag_set, cpu);
				return -ENOSPC;
			}
		}
	} else if ((e = dagg_lookup_ent(a, key, 1)) == NULL) {
		count_drop(a->ag_set, cpu);
		return -ENOSPC;
	}
	if (a->ag_func == DAGG_COUNT)	/* the common case, without a call */
		e->de_val[0]++;
	else
		a->ag_update(a, e->de_val, val, incr);
	return 0;
}

/* ---- walking, sorting ---------------------------------------------------------- */

int
dagg_collect(const struct dagg *a, struct dagg_vec *out)
{
	size_t n = (size_t)dagg_nentries(a), k = 0;

	out->n = 0;
	out->v = malloc((n ? n : 1) * sizeof(*out->v));
	if (out->v == NULL)
		return -ENOMEM;
	for (int t = 0; t < 2; t++) {
		const struct dagg_ht *ht = &a->ag_ht[t];

		for (uint64_t i = 0; i < ht->ht_size; i++) {
			for (struct dagg_ent *e = ht->ht_b[i]; e && k < n;
			    e = e->de_next)
				out->v[k++] = e;
		}
	}
	out->n = k;
	return 0;
}

static int
cmp64(int64_t l, int64_t r)
{
	return l < r ? -1 : l > r;
}

static int
cmpld(long double l, long double r)
{
	return l < r ? -1 : l > r;
}

static int
quantize_cmp(const int64_t *l, const int64_t *r)
{
	long double lt = 0, rt = 0;

	for (int i = 0; i < DAGG_QNBUCKETS; i++) {
		lt += (long double)dagg_qbucketval(i) * (long double)l[i];
		rt += (long double)dagg_qbucketval(i) * (long double)r[i];
	}
	if (lt != rt)
		return cmpld(lt, rt);
	return cmp64(l[DAGG_QZERO], r[DAGG_QZERO]);
}

static long double
lquantize_sum(const struct dagg *a, const int64_t *v)
{
	int64_t base = a->ag_params.ap_lq_base, step = a->ag_params.ap_lq_step;
	long double t = (long double)v[0] * (long double)(base - 1);

	for (int i = 0; i < a->ag_levels; base += step, i++)
		t += (long double)v[i + 1] * (long double)base;
	return t + (long double)v[a->ag_levels + 1] * (long double)(base + 1);
}

static int64_t
lquantize_zero(const struct dagg *a, const int64_t *v)
{
	int64_t base = a->ag_params.ap_lq_base, step = a->ag_params.ap_lq_step;

	if (base - 1 == 0)
		return v[0];
	for (int i = 0; i < a->ag_levels; base += step, i++) {
		if (base == 0)
			return v[i + 1];
	}
	if (base + 1 == 0)
		return v[a->ag_levels + 1];
	return 0;
}

static long double
llquantize_sum(const struct dagg *a, const int64_t *v)
{
	const struct dagg_params *p = &a->ag_params;
	int64_t value = 1, next, step;
	int bin = 0, order;
	long double t;

	for (order = 0; order < p->ap_llq_low; order++)
		value *= p->ap_llq_factor;
	t = (long double)v[bin++] * (long double)(value - 1);
	next = value * p->ap_llq_factor;
	step = next > p->ap_llq_nsteps ? next / p->ap_llq_nsteps : 1;
	while (order <= p->ap_llq_high) {
		t += (long double)v[bin++] * (long double)value;
		if ((value += step) != next)
			continue;
		next = value * p->ap_llq_factor;
		step = next > p->ap_llq_nsteps ? next / p->ap_llq_nsteps : 1;
		order++;
	}
	return t + (long double)v[bin] * (long double)value;
}

/* By value as DTrace orders them: averages by their quotient, stddev by
 * its result, histograms by their weighted sum and then the zero bucket. */
int
dagg_valcmp(const struct dagg *a, const int64_t *l, const int64_t *r)
{
	switch (a->ag_func) {
	case DAGG_AVG:
		return cmp64(l[0] ? l[1] / l[0] : 0, r[0] ? r[1] / r[0] : 0);
	case DAGG_STDDEV: {
		uint64_t ls = dagg_stddev(l, 1), rs = dagg_stddev(r, 1);
		return ls < rs ? -1 : ls > rs;
	}
	case DAGG_QUANTIZE:
		return quantize_cmp(l, r);
	case DAGG_LQUANTIZE:
		if (lquantize_sum(a, l) != lquantize_sum(a, r))
			return cmpld(lquantize_sum(a, l), lquantize_sum(a, r));
		return cmp64(lquantize_zero(a, l), lquantize_zero(a, r));
	case DAGG_LLQUANTIZE:
		if (llquantize_sum(a, l) != llquantize_sum(a, r))
			return cmpld(llquantize_sum(a, l), llquantize_sum(a, r));
		return cmp64(l[0], r[0]);
	default:
		return cmp64(l[0], r[0]);
	}
}

/* One key element: integers as unsigned quantities of their size, the
 * pid+address pairs word by word, everything else byte by byte. */
static int
elem_cmp(const struct d_vdesc *vd, const unsigned char *l,
    const unsigned char *r)
{
	uint64_t lv, rv;

	switch (vd->dv_kind) {
	case D_VK_INT:
	case D_VK_UINT:
	case D_VK_PTR:
	case D_VK_FLOAT:
		lv = (uint64_t)dfmt_ival(vd, l);
		rv = (uint64_t)dfmt_ival(vd, r);
		if (vd->dv_isize && vd->dv_isize < 8) {
			lv &= (1ULL << (vd->dv_isize * 8)) - 1;
			rv &= (1ULL << (vd->dv_isize * 8)) - 1;
		}
		return lv < rv ? -1 : lv > rv;
	case D_VK_KSYM:
	case D_VK_KMOD:
	case D_VK_USYM:
	case D_VK_UMOD:
	case D_VK_UADDR:
		for (uint32_t i = 0; i < vd->dv_size; i += 8) {
			memcpy(&lv, l + i, 8);
			memcpy(&rv, r + i, 8);
			if (lv != rv)
				return lv < rv ? -1 : 1;
		}
		return 0;
	default: {
		int c = memcmp(l, r, vd->dv_size);
		return c < 0 ? -1 : c > 0;
	}
	}
}

int
dagg_keycmp(const struct dagg *a, const void *lk, const void *rk, int keypos)
{
	int n = a->ag_nkeys;

	if (keypos < 0 || keypos >= n)
		keypos = 0;
	for (int i = 0; i < n; i++) {
		int k = (i + keypos) % n, c;

		c = elem_cmp(&a->ag_keys[k], (const unsigned char *)lk +
		    a->ag_koff[k], (const unsigned char *)rk + a->ag_koff[k]);
		if (c)
			return c;
	}
	return 0;
}

/*
 * Sorting touches each entry once: a record per entry carries its value
 * proxy (what dagg_valcmp compares: exact in a long double for every
 * 64-bit quantity), a tie-break word and the first compared key element
 * as an unsigned number, so qsort_r compares flat records and reads the
 * entries only to break a tie on that first key word.
 */
struct sortrec {
	long double sr_pri;
	int64_t sr_sec;
	uint64_t sr_k0;
	struct dagg_ent *sr_e;
};

static void
val_proxy(const struct dagg *a, const int64_t *v, long double *pri,
    int64_t *sec)
{
	*sec = 0;
	switch (a->ag_func) {
	case DAGG_AVG:
		*pri = (long double)(v[0] ? v[1] / v[0] : 0);
		return;
	case DAGG_STDDEV:
		*pri = (long double)dagg_stddev(v, 1);
		return;
	case DAGG_QUANTIZE: {
		long double t = 0;

		for (int i = 0; i < DAGG_QNBUCKETS; i++)
			t += (long double)dagg_qbucketval(i) * (long double)v[i];
		*pri = t;
		*sec = v[DAGG_QZERO];
		return;
	}
	case DAGG_LQUANTIZE:
		*pri = lquantize_sum(a, v);
		*sec = lquantize_zero(a, v);
		return;
	case DAGG_LLQUANTIZE:
		*pri = llquantize_sum(a, v);
		*sec = v[0];
		return;
	default:
		*pri = (long double)v[0];
		return;
	}
}

/* The first compared key element as a number ordered like elem_cmp:
 * integers by their unsigned value, bytes by their first eight. */
static uint64_t
key_word0(const struct dagg *a, const unsigned char *key, int keypos)
{
	const struct d_vdesc *vd;
	const unsigned char *p;
	uint64_t w = 0;

	if (a->ag_nkeys == 0)
		return 0;
	vd = &a->ag_keys[keypos];
	p = key + a->ag_koff[keypos];
	switch (vd->dv_kind) {
	case D_VK_INT:
	case D_VK_UINT:
	case D_VK_PTR:
	case D_VK_FLOAT:
		w = (uint64_t)dfmt_ival(vd, p);
		if (vd->dv_isize && vd->dv_isize < 8)
			w &= (1ULL << (vd->dv_isize * 8)) - 1;
		return w;
	case D_VK_KSYM:
	case D_VK_KMOD:
	case D_VK_USYM:
	case D_VK_UMOD:
	case D_VK_UADDR:
		memcpy(&w, p, 8);
		return w;
	default:
		for (uint32_t i = 0; i < 8 && i < vd->dv_size; i++)
			w |= (uint64_t)p[i] << (56 - 8 * i);
		return w;
	}
}

static int
sortrec_cmp(const void *lp, const void *rp, void *arg)
{
	const struct dagg_sortctx *sc = arg;
	const struct sortrec *l = lp, *r = rp;
	int c = 0;

	if (!sc->sc_keysort) {
		if (l->sr_pri != r->sr_pri)
			c = l->sr_pri < r->sr_pri ? -1 : 1;
		else if (l->sr_sec != r->sr_sec)
			c = l->sr_sec < r->sr_sec ? -1 : 1;
	}
	if (c == 0 && l->sr_k0 != r->sr_k0)
		c = l->sr_k0 < r->sr_k0 ? -1 : 1;
	if (c == 0)
		c = dagg_keycmp(sc->sc_agg, dagg_key(sc->sc_agg, l->sr_e),
		    dagg_key(sc->sc_agg, r->sr_e), sc->sc_keypos);
	return sc->sc_rev ? -c : c;
}

void
dagg_sort(const struct dagg *a, struct dagg_vec *vec,
    const struct dagg_sortopts *so)
{
	struct dagg_sortctx sc = {
		.sc_agg = a,
		.sc_rev = so ? so->so_sortrev > 0 : 0,
		.sc_keypos = so && so->so_sortkeypos > 0 &&
		    so->so_sortkeypos < a->ag_nkeys ? so->so_sortkeypos : 0,
		.sc_keysort = so ? so->so_sortkey > 0 : 0,
	};
	struct sortrec *rec = malloc((vec->n ? vec->n : 1) * sizeof(*rec));

	if (rec == NULL)
		return;		/* unsorted rather than nothing */
	for (size_t i = 0; i < vec->n; i++) {
		struct dagg_ent *e = vec->v[i];

		val_proxy(a, e->de_val, &rec[i].sr_pri, &rec[i].sr_sec);
		rec[i].sr_k0 = key_word0(a, dagg_key(a, e), sc.sc_keypos);
		rec[i].sr_e = e;
	}
	qsort_r(rec, vec->n, sizeof(*rec), sortrec_cmp, &sc);
	for (size_t i = 0; i < vec->n; i++)
		vec->v[i] = rec[i].sr_e;
	free(rec);
}

/* ---- trunc, clear, normalize ---------------------------------------------------- */

static void
ht_remove(struct dagg *a, struct dagg_ent *victim)
{
	for (int t = 0; t < 2; t++) {
		struct dagg_ht *ht = &a->ag_ht[t];
		struct dagg_ent **pp;

		if (ht->ht_size == 0)
			continue;
		for (pp = &ht->ht_b[victim->de_hash & (ht->ht_size - 1)]; *pp;
		    pp = &(*pp)->de_next) {
			if (*pp == victim) {
				*pp = victim->de_next;
				ht->ht_used--;
				if (a->ag_single == victim)
					a->ag_single = NULL;
				ent_free(a, victim);
				return;
			}
		}
	}
}

/* trunc(@a, n): keep the n entries that sort last by value (n > 0) or the
 * -n that sort first (n < 0); trunc(@a) and trunc(@a, 0) remove all.  The
 * sort options do not apply (DTrace passes its own comparator). */
void
dagg_trunc(dagg_t *a, int64_t n)
{
	struct dagg_sortopts so = { 0, 0, 0, 0, 0 };
	struct dagg_vec vec;
	size_t keep;

	if (a == NULL || dagg_collect(a, &vec) != 0)
		return;
	if (n == DAGG_TRUNC_ALL)
		n = 0;
	so.so_sortrev = n >= 0;
	keep = (size_t)(n < 0 ? -(n + 1) + 1 : n);
	dagg_sort(a, &vec, &so);
	for (size_t i = keep; i < vec.n; i++)
		ht_remove(a, vec.v[i]);
	free(vec.v);
}

void
dagg_clear(dagg_t *a)
{
	struct dagg_vec vec;

	if (a == NULL || dagg_collect(a, &vec) != 0)
		return;
	for (size_t i = 0; i < vec.n; i++)
		memset(vec.v[i]->de_val, 0, 8 * (size_t)a->ag_nvals);
	free(vec.v);
}

void
dagg_normalize(dagg_t *a, int64_t n)
{
	if (a)
		a->ag_normal = n == 0 ? 1 : (uint64_t)n;
}

void
dagg_denormalize(dagg_t *a)
{
	if (a)
		a->ag_normal = 1;
}

/* ---- drops ------------------------------------------------------------------------ */

int
dagg_report_drops(dagg_set_t *set, FILE *fp)
{
	if (set == NULL || fp == NULL)
		return -EINVAL;
	for (uint32_t c = 0; c < set->as_ndrops; c++) {
		uint64_t n = set->as_drops[c];

		if (n == 0)
			continue;
		set->as_drops[c] = 0;
		if (fprintf(fp, "%s: %llu aggregation drop%s on CPU %u\n",
		    set->as_progname, (unsigned long long)n, n > 1 ? "s" : "",
		    c) < 0)
			return -EIO;
	}
	return 0;
}

uint64_t
dagg_drops(const dagg_set_t *set)
{
	return set ? set->as_total_drops : 0;
}

/* ---- stddev ---------------------------------------------------------------- */

static uint64_t
isqrt128(unsigned __int128 x)
{
	unsigned __int128 r = 0, bit = (unsigned __int128)1 << 126;

	while (bit > x)
		bit >>= 2;
	while (bit != 0) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return (uint64_t)r;
}

/* sqrt(avg(x^2) - avg(x)^2), in integers, normalized as DTrace does. */
uint64_t
dagg_stddev(const int64_t *v, uint64_t normal)
{
	unsigned __int128 sq, sqavg;
	int64_t avg;

	if (v[0] == 0 || normal == 0)
		return 0;
	sq = ((unsigned __int128)(uint64_t)v[3] << 64) | (uint64_t)v[2];
	sq = sq / normal / normal / (uint64_t)v[0];
	avg = v[1] / (int64_t)normal / v[0];
	if (avg < 0)
		avg = -avg;
	sqavg = (unsigned __int128)(uint64_t)avg * (uint64_t)avg;
	return isqrt128(sq - sqavg);
}
