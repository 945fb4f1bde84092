/*
 * dagg_print.c — printing aggregations the way DTrace's consumer does:
 * printa() in the default layout and with a format, several aggregations
 * joined on their keys, the quantize/lquantize/llquantize histograms, and
 * the exit-time printing of every aggregation printa() has not printed.
 *
 * Layout facts (dt_consume.c): a printa() in the default layout starts
 * with "\n"; each row is the key columns, the value columns and "\n";
 * integers right-aligned in widths 3/5/8/16 by size, strings and symbols
 * "  %-50s", stacks one frame per line after a "\n"; histograms start with
 * "\n" and a "value ---- Distribution ---- count" header.  Exit-time
 * printing adds nothing between aggregations (dtrace(1) prints one "\n"
 * before it; that is the caller's).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dcons/dagg_impl.h"

/* ---- histograms -------------------------------------------------------------- */

static const char ats[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
static const char spaces[] = "                                        ";

/* DTrace divides counts by the normalization as unsigned quantities. */
static long long
norm_div(int64_t v, uint64_t normal)
{
	return (long long)((uint64_t)v / (normal ? normal : 1));
}

static int
quantline(FILE *fp, int64_t val, uint64_t normal, long double total, int pos,
    int neg)
{
	long double f = total > 0 ?
	    ((val < 0 ? -(long double)val : (long double)val) * 40) / total : 0;
	unsigned depth = (unsigned)(f + 0.5);
	long long n = norm_div(val, normal);

	if (!neg) {
		if (!pos)
			depth = 0;
		DFMT_CHK(fprintf(fp, "|%s%s %-9lld\n", ats + 40 - depth,
		    spaces + depth, n));
		return 0;
	}
	if (!pos) {
		DFMT_CHK(fprintf(fp, "%s%s| %-9lld\n", spaces + depth,
		    ats + 40 - depth, n));
		return 0;
	}
	/* both signs: two half-width bars around a centre line */
	f = total > 0 ?
	    ((val < 0 ? -(long double)val : (long double)val) * 20) / total : 0;
	depth = (unsigned)(f + 0.5);
	if (val <= 0)
		DFMT_CHK(fprintf(fp, "%s%s|%*s %-9lld\n", spaces + 20 + depth,
		    ats + 40 - depth, 20, "", n));
	else
		DFMT_CHK(fprintf(fp, "%20s|%s%s %-9lld\n", "", ats + 40 - depth,
		    spaces + 20 + depth, n));
	return 0;
}

static int
hist_header(FILE *fp)
{
	DFMT_CHK(fprintf(fp, "\n%16s %41s %-9s\n", "value",
	    "------------- Distribution -------------", "count"));
	return 0;
}

/* Trim zero buckets at both ends, keeping one neighbour each side; with
 * no data at all show [empty_lo, empty_hi]. */
static void
hist_range(const int64_t *v, int n, int empty_lo, int empty_hi, int *lo,
    int *hi)
{
	int first = 0, last = n - 1;

	while (first < n && v[first] == 0)
		first++;
	if (first == n) {
		*lo = empty_lo;
		*hi = empty_hi;
		return;
	}
	if (first > 0)
		first--;
	while (last > 0 && v[last] == 0)
		last--;
	if (last < n - 1)
		last++;
	*lo = first;
	*hi = last;
}

struct hist {
	long double total;
	int pos, neg;
};

/* The bars' scale: the sum of the magnitudes or, with aggzoom, the
 * largest magnitude over 0.95 (dt_quantize_total). */
static void
hist_totals(const int64_t *v, int lo, int hi, int zoom, struct hist *h)
{
	h->total = 0;
	h->pos = h->neg = 0;
	for (int i = lo; i <= hi; i++) {
		long double m = v[i] < 0 ? -(long double)v[i] : (long double)v[i];
		h->pos |= v[i] > 0;
		h->neg |= v[i] < 0;
		if (!zoom) {
			h->total += m;
			continue;
		}
		m *= 1 / 0.95;
		if (h->total < m)
			h->total = m;
	}
}

/* quantize's trim differs from the others in one corner: data only in
 * the last bucket counts as no data (as in dt_print_quantize). */
static int
print_quantize(FILE *fp, const int64_t *v, uint64_t normal, int zoom)
{
	const int n = DAGG_QNBUCKETS;
	int lo = 0, hi = n - 1;
	struct hist h;

	while (lo < n - 1 && v[lo] == 0)
		lo++;
	if (lo == n - 1) {
		lo = DAGG_QZERO - 1;
		hi = DAGG_QZERO + 1;
	} else {
		if (lo > 0)
			lo--;
		while (hi > 0 && v[hi] == 0)
			hi--;
		if (hi < n - 1)
			hi++;
	}
	hist_totals(v, lo, hi, zoom, &h);
	DFMT_CHK(hist_header(fp));
	for (int i = lo; i <= hi; i++) {
		DFMT_CHK(fprintf(fp, "%16lld ", (long long)dagg_qbucketval(i)));
		DFMT_CHK(quantline(fp, v[i], normal, h.total, h.pos, h.neg));
	}
	return 0;
}

static int
print_lquantize(FILE *fp, const struct dagg *a, const int64_t *v,
    uint64_t normal)
{
	int64_t base = a->ag_params.ap_lq_base, step = a->ag_params.ap_lq_step;
	int levels = a->ag_levels, lo, hi;
	struct hist h;
	char c[48];

	hist_range(v, levels + 2, 0, 2, &lo, &hi);
	hist_totals(v, lo, hi, a->ag_set->as_so.so_zoom, &h);
	DFMT_CHK(hist_header(fp));
	for (int i = lo; i <= hi; i++) {
		if (i == 0) {
			snprintf(c, sizeof(c), "< %d", (int)base);
			DFMT_CHK(fprintf(fp, "%16s ", c));
		} else if (i == levels + 1) {
			snprintf(c, sizeof(c), ">= %d",
			    (int)(base + levels * step));
			DFMT_CHK(fprintf(fp, "%16s ", c));
		} else {
			DFMT_CHK(fprintf(fp, "%16d ", (int)(base + (i - 1) *
			    step)));
		}
		DFMT_CHK(quantline(fp, v[i], normal, h.total, h.pos, h.neg));
	}
	return 0;
}

static int
print_llquantize(FILE *fp, const struct dagg *a, const int64_t *v,
    uint64_t normal)
{
	const struct dagg_params *p = &a->ag_params;
	int64_t value = 1, next, step;
	int lo, hi, bin = 1, order;
	struct hist h;
	char c[48];

	hist_range(v, a->ag_nvals, 0, 1, &lo, &hi);
	hist_totals(v, lo, hi, a->ag_set->as_so.so_zoom, &h);
	DFMT_CHK(hist_header(fp));
	for (order = 0; order < p->ap_llq_low; order++)
		value *= p->ap_llq_factor;
	next = value * p->ap_llq_factor;
	step = next > p->ap_llq_nsteps ? next / p->ap_llq_nsteps : 1;
	if (lo == 0) {
		snprintf(c, sizeof(c), "< %lld", (long long)value);
		DFMT_CHK(fprintf(fp, "%16s ", c));
		DFMT_CHK(quantline(fp, v[0], normal, h.total, h.pos, h.neg));
	}
	while (order <= p->ap_llq_high) {
		if (bin >= lo && bin <= hi) {
			DFMT_CHK(fprintf(fp, "%16lld ", (long long)value));
			DFMT_CHK(quantline(fp, v[bin], normal, h.total, h.pos,
			    h.neg));
		}
		bin++;
		if ((value += step) != next)
			continue;
		next = value * p->ap_llq_factor;
		step = next > p->ap_llq_nsteps ? next / p->ap_llq_nsteps : 1;
		order++;
	}
	if (hi < bin)
		return 0;
	snprintf(c, sizeof(c), ">= %lld", (long long)value);
	DFMT_CHK(fprintf(fp, "%16s ", c));
	return quantline(fp, v[bin], normal, h.total, h.pos, h.neg);
}

/* ---- one value ------------------------------------------------------------------ */

struct histctx {
	const struct dagg *a;
	const int64_t *v;
	uint64_t normal;
};

static int
print_hist(FILE *fp, const void *arg)
{
	const struct histctx *hc = arg;

	switch (hc->a->ag_func) {
	case DAGG_QUANTIZE:
		return print_quantize(fp, hc->v, hc->normal,
		    hc->a->ag_set->as_so.so_zoom);
	case DAGG_LQUANTIZE:
		return print_lquantize(fp, hc->a, hc->v, hc->normal);
	default:
		return print_llquantize(fp, hc->a, hc->v, hc->normal);
	}
}

/* The value column of the default layout (dt_print_datum). */
static int
print_value(FILE *fp, const struct dagg *a, const int64_t *v)
{
	uint64_t nm = a->ag_normal ? a->ag_normal : 1;
	struct histctx hc = { a, v, nm };

	switch (a->ag_func) {
	case DAGG_AVG:
		DFMT_CHK(fprintf(fp, " %16lld", v[0] ?
		    (long long)(v[1] / (int64_t)nm / v[0]) : 0LL));
		return 0;
	case DAGG_STDDEV:
		DFMT_CHK(fprintf(fp, " %16llu",
		    (unsigned long long)dagg_stddev(v, nm)));
		return 0;
	case DAGG_QUANTIZE:
	case DAGG_LQUANTIZE:
	case DAGG_LLQUANTIZE:
		return print_hist(fp, &hc);
	default:
		DFMT_CHK(fprintf(fp, " %16lld", norm_div(v[0], nm)));
		return 0;
	}
}

/* The %@ view of a value (pfprint_* in dt_printf.c). */
static void
agg_fmtval(const struct dagg *a, const int64_t *v, struct histctx *hc,
    struct dfmt_aggval *av)
{
	uint64_t nm = a->ag_normal ? a->ag_normal : 1;

	memset(av, 0, sizeof(*av));
	switch (a->ag_func) {
	case DAGG_COUNT:
		av->av_val = (int64_t)((uint64_t)v[0] / nm);
		av->av_unsigned = 1;
		break;
	case DAGG_AVG:
		av->av_val = v[0] ? v[1] / (int64_t)nm / v[0] : 0;
		break;
	case DAGG_STDDEV:
		av->av_val = (int64_t)dagg_stddev(v, nm);
		av->av_unsigned = 1;
		break;
	case DAGG_QUANTIZE:
	case DAGG_LQUANTIZE:
	case DAGG_LLQUANTIZE:
		hc->a = a;
		hc->v = v;
		hc->normal = nm;
		av->av_print = print_hist;
		av->av_ctx = hc;
		break;
	default:
		av->av_val = v[0] / (int64_t)nm;
		break;
	}
}

/* ---- canonical symbol keys ------------------------------------------------------- */

/*
 * DTrace aggregates sym()/func()/mod()/usym()/umod() keys on the symbol or
 * module, not the raw address: it rewrites each address to the symbol's
 * start when it snapshots.  We aggregate raw addresses and merge here:
 * addresses whose text is the same become one key (the lowest address).
 */
static int
symkind(const struct d_vdesc *vd)
{
	return vd->dv_kind == D_VK_KSYM || vd->dv_kind == D_VK_KMOD ||
	    vd->dv_kind == D_VK_USYM || vd->dv_kind == D_VK_UMOD;
}

struct symrep {
	char *text;		/* NULL: free slot */
	int elem;
	size_t id;		/* index into symtab.addr */
};

/* Open-addressing table of (key element, text) → representative id; the
 * ids stay put when the table grows. */
struct symtab {
	struct symrep *r;
	size_t cap, n;
	uint64_t *addr;		/* per id: the lowest address with the text */
};

static uint64_t
text_hash(int elem, const char *t)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)elem;

	for (; *t; t++)
		h = (h ^ (unsigned char)*t) * 1099511628211ULL;
	return h;
}

static int
symtab_grow(struct symtab *st)
{
	size_t cap = st->cap ? st->cap * 2 : 64;
	struct symrep *n = calloc(cap, sizeof(*n));

	if (n == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < st->cap; i++) {
		size_t j;

		if (st->r[i].text == NULL)
			continue;
		j = text_hash(st->r[i].elem, st->r[i].text) & (cap - 1);
		while (n[j].text)
			j = (j + 1) & (cap - 1);
		n[j] = st->r[i];
	}
	free(st->r);
	st->r = n;
	st->cap = cap;
	return 0;
}

static struct symrep *
symtab_get(struct symtab *st, int elem, const char *text)
{
	size_t j;

	if (2 * (st->n + 1) > st->cap && symtab_grow(st) != 0)
		return NULL;
	j = text_hash(elem, text) & (st->cap - 1);
	for (; st->r[j].text; j = (j + 1) & (st->cap - 1)) {
		if (st->r[j].elem == elem && strcmp(st->r[j].text, text) == 0)
			return &st->r[j];
	}
	if ((st->n & (st->n - 1)) == 0) {
		uint64_t *na = realloc(st->addr, 2 * (st->n ? st->n : 1) *
		    sizeof(*na));

		if (na == NULL)
			return NULL;
		st->addr = na;
	}
	if ((st->r[j].text = strdup(text)) == NULL)
		return NULL;
	st->r[j].elem = elem;
	st->r[j].id = st->n;
	st->addr[st->n++] = UINT64_MAX;
	return &st->r[j];
}

static void
symtab_free(struct symtab *st)
{
	for (size_t i = 0; i < st->cap; i++)
		free(st->r[i].text);
	free(st->r);
	free(st->addr);
}

/* Address word of a symbol element (after the pid for user kinds). */
static size_t
sym_addr_off(const struct d_vdesc *vd)
{
	return vd->dv_kind == D_VK_USYM || vd->dv_kind == D_VK_UMOD ? 8 : 0;
}

/* Pass one: symbolize every symbol element of every entry once, keeping
 * the lowest address per text; reps[] holds each element's id + 1. */
static int
canon_scan(const struct dagg *a, const struct dfmt_ctx *cx,
    const struct dagg_vec *vec, struct symtab *st, size_t **repsp)
{
	size_t *reps = calloc(vec->n * (size_t)a->ag_nkeys + 1,
	    sizeof(*reps));
	char text[512];

	if (reps == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < vec->n; i++) {
		const unsigned char *key = dagg_key(a, vec->v[i]);

		for (int k = 0; k < a->ag_nkeys; k++) {
			const struct d_vdesc *vd = &a->ag_keys[k];
			const unsigned char *p = key + a->ag_koff[k];
			struct symrep *r;
			uint64_t addr;

			if (!symkind(vd))
				continue;
			dfmt_symtext(cx, vd, p, text, sizeof(text));
			if ((r = symtab_get(st, k, text)) == NULL) {
				free(reps);
				return -ENOMEM;
			}
			memcpy(&addr, p + sym_addr_off(vd), 8);
			if (addr < st->addr[r->id])
				st->addr[r->id] = addr;
			reps[i * (size_t)a->ag_nkeys + (size_t)k] = r->id + 1;
		}
	}
	*repsp = reps;
	return 0;
}

/* NULL when a needs no merging (or on failure: print it as it is). */
static struct dagg *
canon_agg(const struct dagg *a, const struct dfmt_ctx *cx)
{
	struct symtab st = { NULL, 0, 0, NULL };
	size_t *reps = NULL;
	struct dagg_vec vec = { NULL, 0 };
	struct dagg *c = NULL;
	unsigned char *key = NULL;
	int need = 0;

	for (int k = 0; k < a->ag_nkeys; k++)
		need |= symkind(&a->ag_keys[k]);
	if (!need || cx == NULL || cx->fc_sym == NULL ||
	    dagg_collect(a, &vec) != 0)
		return NULL;
	if (canon_scan(a, cx, &vec, &st, &reps) != 0 ||
	    (key = malloc(a->ag_keysize + 1)) == NULL ||
	    (c = dagg_clone_empty(a)) == NULL)
		goto fail;
	for (size_t i = 0; i < vec.n; i++) {
		struct dagg_ent *e;

		memcpy(key, dagg_key(a, vec.v[i]), a->ag_keysize);
		for (int k = 0; k < a->ag_nkeys; k++) {
			size_t id = reps[i * (size_t)a->ag_nkeys + (size_t)k];

			if (id)
				memcpy(key + a->ag_koff[k] +
				    sym_addr_off(&a->ag_keys[k]),
				    &st.addr[id - 1], 8);
		}
		if ((e = dagg_lookup_ent(c, key, 1)) == NULL)
			goto fail;
		a->ag_merge(e->de_val, vec.v[i]->de_val, a->ag_nvals);
	}
	goto out;
fail:
	dagg_free_one(c);
	c = NULL;
out:
	free(key);
	free(reps);
	free(vec.v);
	symtab_free(&st);
	return c;
}

/* ---- rows ---------------------------------------------------------------------- */

/* One printa() row for naggs aggregations keyed alike; vals[i] is NULL
 * where aggregation i has no entry for the key (printed as zero). */
struct row {
	const void *key;
	const int64_t *vals[DAGG_MAXKEYS];
};

static const int64_t dagg_zero[1024];

static const int64_t *
zero_vals(const struct dagg *a, int64_t **owned)
{
	*owned = NULL;
	if (a->ag_nvals <= (int)(sizeof(dagg_zero) / sizeof(dagg_zero[0])))
		return dagg_zero;
	*owned = calloc((size_t)a->ag_nvals, sizeof(int64_t));
	return *owned;
}

static int
print_row_default(FILE *fp, const struct dfmt_ctx *cx, struct dagg *const *aggs,
    int naggs, const struct row *rw)
{
	const struct dagg *a0 = aggs[0];

	for (int k = 0; k < a0->ag_nkeys; k++) {
		int r = dfmt_key(fp, cx, &a0->ag_keys[k],
		    (const char *)rw->key + a0->ag_koff[k]);
		if (r < 0)
			return r;
	}
	for (int i = 0; i < naggs; i++) {
		int64_t *owned = NULL;
		const int64_t *v = rw->vals[i] ? rw->vals[i] :
		    zero_vals(aggs[i], &owned);
		int r = v ? print_value(fp, aggs[i], v) : -ENOMEM;

		free(owned);
		if (r < 0)
			return r;
	}
	DFMT_CHK(fputc('\n', fp));
	return 0;
}

static int
print_row_fmt(FILE *fp, const struct dfmt_ctx *cx, const dfmt_t *fmt,
    struct dagg *const *aggs, int naggs, const struct row *rw)
{
	const struct dagg *a0 = aggs[0];
	const void *args[DAGG_MAXKEYS];
	struct dfmt_aggval av[DAGG_MAXKEYS] = { { 0, 0, NULL, NULL } };
	struct histctx hc[DAGG_MAXKEYS];
	int64_t *owned[DAGG_MAXKEYS];
	int r;

	for (int k = 0; k < a0->ag_nkeys; k++)
		args[k] = (const char *)rw->key + a0->ag_koff[k];
	for (int i = 0; i < naggs; i++) {
		const int64_t *v = rw->vals[i];

		owned[i] = NULL;
		if (v == NULL && (v = zero_vals(aggs[i], &owned[i])) == NULL)
			return -ENOMEM;
		agg_fmtval(aggs[i], v, &hc[i], &av[i]);
	}
	r = dfmt_format(fp, cx, fmt, args, a0->ag_nkeys, av, naggs);
	for (int i = 0; i < naggs; i++)
		free(owned[i]);
	return r;
}

/* ---- joining several aggregations on their keys ------------------------------ */

struct jent {
	struct dagg_ent *e;
	int agg;
};

struct joinctx {
	struct dagg *const *aggs;
	int naggs;
	int keypos, sortpos, keysort, rev;
};

static int
jent_keycmp(const void *lp, const void *rp, void *arg)
{
	const struct joinctx *jc = arg;
	const struct jent *l = lp, *r = rp;
	const struct dagg *a0 = jc->aggs[0];
	int c = dagg_keycmp(a0, dagg_key(jc->aggs[l->agg], l->e),
	    dagg_key(jc->aggs[r->agg], r->e), 0);

	return c ? c : (l->agg > r->agg) - (l->agg < r->agg);
}

static const int64_t *
row_val(const struct joinctx *jc, const struct row *rw, int i, int64_t **own)
{
	*own = NULL;
	return rw->vals[i] ? rw->vals[i] : zero_vals(jc->aggs[i], own);
}

/* By the values in sortpos order, then the key (unless sorting by key,
 * which compares the key first). */
static int
row_cmp(const void *lp, const void *rp, void *arg)
{
	const struct joinctx *jc = arg;
	const struct row *l = lp, *r = rp;
	const struct dagg *a0 = jc->aggs[0];
	int c = 0;

	if (jc->keysort)
		c = dagg_keycmp(a0, l->key, r->key, jc->keypos);
	for (int j = 0; c == 0 && j < jc->naggs; j++) {
		int i = (j + jc->sortpos) % jc->naggs;
		int64_t *lo, *ro;
		const int64_t *lv = row_val(jc, l, i, &lo);
		const int64_t *rv = row_val(jc, r, i, &ro);

		if (lv && rv)
			c = dagg_valcmp(jc->aggs[i], lv, rv);
		free(lo);
		free(ro);
	}
	if (c == 0 && !jc->keysort)
		c = dagg_keycmp(a0, l->key, r->key, jc->keypos);
	return jc->rev ? -c : c;
}

static int
join_collect(struct joinctx *jc, struct jent **out, size_t *nout)
{
	size_t n = 0, k = 0;
	struct jent *je;

	for (int i = 0; i < jc->naggs; i++)
		n += (size_t)dagg_nentries(jc->aggs[i]);
	if ((je = malloc((n ? n : 1) * sizeof(*je))) == NULL)
		return -ENOMEM;
	for (int i = 0; i < jc->naggs; i++) {
		struct dagg_vec vec;

		if (dagg_collect(jc->aggs[i], &vec) != 0) {
			free(je);
			return -ENOMEM;
		}
		for (size_t j = 0; j < vec.n && k < n; j++) {
			je[k].e = vec.v[j];
			je[k++].agg = i;
		}
		free(vec.v);
	}
	qsort_r(je, k, sizeof(*je), jent_keycmp, jc);
	*out = je;
	*nout = k;
	return 0;
}

/* Rows in print order: one per distinct key. */
static int
make_rows(struct joinctx *jc, struct row **rowsp, size_t *nrows)
{
	struct jent *je;
	struct row *rows;
	size_t n, nr = 0;

	if (join_collect(jc, &je, &n) != 0)
		return -ENOMEM;
	if ((rows = calloc(n ? n : 1, sizeof(*rows))) == NULL) {
		free(je);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const void *k = dagg_key(jc->aggs[je[i].agg], je[i].e);

		if (nr == 0 || dagg_keycmp(jc->aggs[0], rows[nr - 1].key, k,
		    0) != 0)
			rows[nr++].key = k;
		rows[nr - 1].vals[je[i].agg] = je[i].e->de_val;
	}
	free(je);
	qsort_r(rows, nr, sizeof(*rows), row_cmp, jc);
	*rowsp = rows;
	*nrows = nr;
	return 0;
}

static void
joinctx_init(struct joinctx *jc, const dagg_set_t *set,
    struct dagg *const *aggs, int naggs)
{
	const struct dagg_sortopts *so = &set->as_so;

	jc->aggs = aggs;
	jc->naggs = naggs;
	jc->keypos = so->so_sortkeypos > 0 ? so->so_sortkeypos : 0;
	jc->sortpos = so->so_sortpos > 0 && so->so_sortpos < naggs ?
	    so->so_sortpos : 0;
	jc->keysort = so->so_sortkey > 0;
	jc->rev = so->so_sortrev > 0;
}

/* One aggregation needs no join: sort its entries and print them. */
static int
print_single(FILE *fp, const struct dfmt_ctx *cx, const dfmt_t *fmt,
    struct dagg *a)
{
	struct dagg_vec vec;
	struct row rw;
	int r = 0;

	if (dagg_collect(a, &vec) != 0)
		return -ENOMEM;
	dagg_sort(a, &vec, &a->ag_set->as_so);
	for (size_t i = 0; i < vec.n && r == 0; i++) {
		rw.key = dagg_key(a, vec.v[i]);
		rw.vals[0] = vec.v[i]->de_val;
		r = fmt ? print_row_fmt(fp, cx, fmt, &a, 1, &rw) :
		    print_row_default(fp, cx, &a, 1, &rw);
	}
	free(vec.v);
	return r;
}

static int
print_rows(FILE *fp, const struct dfmt_ctx *cx, const dfmt_t *fmt,
    struct dagg *const *aggs, int naggs)
{
	struct joinctx jc;
	struct row *rows;
	size_t nrows;
	int r = 0;

	if (naggs == 1)
		return print_single(fp, cx, fmt, aggs[0]);
	joinctx_init(&jc, aggs[0]->ag_set, aggs, naggs);
	if (make_rows(&jc, &rows, &nrows) != 0)
		return -ENOMEM;
	for (size_t i = 0; i < nrows && r == 0; i++) {
		r = fmt ? print_row_fmt(fp, cx, fmt, aggs, naggs, &rows[i]) :
		    print_row_default(fp, cx, aggs, naggs, &rows[i]);
	}
	free(rows);
	return r;
}

/* ---- the actions ---------------------------------------------------------------- */

int
dagg_printa(FILE *fp, const struct dfmt_ctx *cx, const dfmt_t *fmt,
    dagg_t *const *aggs, int naggs)
{
	struct dagg *view[DAGG_MAXKEYS], *tmp[DAGG_MAXKEYS];
	uint64_t total = 0;
	int r;

	if (fp == NULL || aggs == NULL || naggs <= 0 || naggs > DAGG_MAXKEYS)
		return -EINVAL;
	for (int i = 0; i < naggs; i++) {
		if (aggs[i] == NULL || aggs[i]->ag_set == NULL ||
		    aggs[i]->ag_keysize != aggs[0]->ag_keysize)
			return -EINVAL;
	}
	if (fmt == NULL)
		DFMT_CHK(fputc('\n', fp));
	for (int i = 0; i < naggs; i++) {
		tmp[i] = canon_agg(aggs[i], cx);
		if (tmp[i]) {
			tmp[i]->ag_set = aggs[i]->ag_set;
			tmp[i]->ag_normal = aggs[i]->ag_normal;
		}
		view[i] = tmp[i] ? tmp[i] : aggs[i];
		total += dagg_nentries(aggs[i]);
	}
	r = print_rows(fp, cx, fmt, view, naggs);
	for (int i = 0; i < naggs; i++) {
		if (tmp[i])
			tmp[i]->ag_set = NULL;
		dagg_free_one(tmp[i]);
		if (total)
			aggs[i]->ag_printed = 1;
	}
	return r;
}

int
dagg_print_all(dagg_set_t *set, FILE *fp, const struct dfmt_ctx *cx)
{
	int rev;

	if (set == NULL || fp == NULL)
		return -EINVAL;
	rev = set->as_so.so_sortrev > 0;
	for (int j = 0; j < set->as_naggs; j++) {
		struct dagg *a = set->as_aggs[rev ? set->as_naggs - 1 - j : j];
		struct dagg *t;
		int r;

		if (a->ag_printed || dagg_nentries(a) == 0)
			continue;
		if ((t = canon_agg(a, cx)) != NULL) {
			t->ag_set = set;
			t->ag_normal = a->ag_normal;
		}
		r = print_rows(fp, cx, NULL, t ? &t : &a, 1);
		if (t)
			t->ag_set = NULL;
		dagg_free_one(t);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- reading aggregations for other output formats ------------------------ */

int
dagg_set_naggs(const dagg_set_t *set)
{
	return set ? set->as_naggs : 0;
}

dagg_t *
dagg_set_agg(dagg_set_t *set, int i)
{
	if (set == NULL || i < 0 || i >= set->as_naggs)
		return NULL;
	return set->as_aggs[i];
}

int
dagg_printed(const dagg_t *a)
{
	return a ? a->ag_printed : 0;
}

void
dagg_mark_printed(dagg_t *a)
{
	if (a)
		a->ag_printed = 1;
}

const struct d_vdesc *
dagg_keydesc(const dagg_t *a, int *nkeys)
{
	if (nkeys)
		*nkeys = a ? a->ag_nkeys : 0;
	return a ? a->ag_keys : NULL;
}

int
dagg_walk(dagg_t *a, const struct dfmt_ctx *cx, int sorted, dagg_walk_f cb,
    void *arg)
{
	struct dagg *t, *view;
	struct dagg_vec vec;
	int r = 0;

	if (a == NULL || cb == NULL)
		return -EINVAL;
	t = canon_agg(a, cx);
	view = t ? t : a;
	if (dagg_collect(view, &vec) != 0) {
		dagg_free_one(t);
		return -ENOMEM;
	}
	if (sorted && a->ag_set)
		dagg_sort(view, &vec, &a->ag_set->as_so);
	for (size_t i = 0; i < vec.n && r == 0; i++)
		r = cb(arg, dagg_key(view, vec.v[i]), a->ag_keys, a->ag_nkeys,
		    vec.v[i]->de_val, a->ag_nvals);
	free(vec.v);
	dagg_free_one(t);
	return r;
}

int64_t
dagg_scalar(const dagg_t *a, const int64_t *vals, int *unsignedp)
{
	struct dfmt_aggval av;
	struct histctx hc;
	int64_t sum = 0;
	uint64_t nm;

	if (unsignedp)
		*unsignedp = 0;
	if (a == NULL || vals == NULL)
		return 0;
	nm = a->ag_normal ? a->ag_normal : 1;
	agg_fmtval(a, vals, &hc, &av);
	if (av.av_print == NULL) {
		if (unsignedp)
			*unsignedp = av.av_unsigned;
		return av.av_val;
	}
	for (int i = 0; i < a->ag_nvals; i++)
		sum += norm_div(vals[i], nm);
	return sum;
}

int
dagg_nbuckets(const dagg_t *a)
{
	if (a == NULL)
		return 0;
	switch (a->ag_func) {
	case DAGG_QUANTIZE:
	case DAGG_LQUANTIZE:
	case DAGG_LLQUANTIZE:
		return a->ag_nvals;
	default:
		return 0;
	}
}

static void
qbucket_range(int i, int64_t *lo, int64_t *hi)
{
	if (i < DAGG_QZERO) {
		*lo = i == 0 ? INT64_MIN : dagg_qbucketval(i - 1) + 1;
		*hi = dagg_qbucketval(i);
	} else if (i == DAGG_QZERO) {
		*lo = *hi = 0;
	} else {
		*lo = dagg_qbucketval(i);
		*hi = i == DAGG_QNBUCKETS - 1 ? INT64_MAX : dagg_qbucketval(i + 1) - 1;
	}
}

static void
lqbucket_range(const struct dagg *a, int i, int64_t *lo, int64_t *hi)
{
	int64_t base = a->ag_params.ap_lq_base, step = a->ag_params.ap_lq_step;

	if (i == 0) {
		*lo = INT64_MIN;
		*hi = base - 1;
	} else if (i == a->ag_levels + 1) {
		*lo = base + a->ag_levels * step;
		*hi = INT64_MAX;
	} else {
		*lo = base + (i - 1) * step;
		*hi = *lo + step - 1;
	}
}

/* Walk the bucket values as the printer does; bin b starts at value_b. */
static void
llqbucket_range(const struct dagg *a, int i, int64_t *lo, int64_t *hi)
{
	const struct dagg_params *p = &a->ag_params;
	int64_t value = 1, next, step;
	int order, bin = 1;

	for (order = 0; order < p->ap_llq_low; order++)
		value *= p->ap_llq_factor;
	if (i == 0) {
		*lo = INT64_MIN;
		*hi = value - 1;
		return;
	}
	next = value * p->ap_llq_factor;
	step = next > p->ap_llq_nsteps ? next / p->ap_llq_nsteps : 1;
	while (order <= p->ap_llq_high && bin < i) {
		bin++;
		if ((value += step) != next)
			continue;
		next = value * p->ap_llq_factor;
		step = next > p->ap_llq_nsteps ? next / p->ap_llq_nsteps : 1;
		order++;
	}
	*lo = value;
	*hi = order > p->ap_llq_high ? INT64_MAX : value + step - 1;
}

int
dagg_bucket(const dagg_t *a, const int64_t *vals, int i, int64_t *lo,
    int64_t *hi, int64_t *count)
{
	int64_t l, h;

	if (a == NULL || vals == NULL || i < 0 || i >= dagg_nbuckets(a))
		return -EINVAL;
	if (a->ag_func == DAGG_QUANTIZE)
		qbucket_range(i, &l, &h);
	else if (a->ag_func == DAGG_LQUANTIZE)
		lqbucket_range(a, i, &l, &h);
	else
		llqbucket_range(a, i, &l, &h);
	if (lo)
		*lo = l;
	if (hi)
		*hi = h;
	if (count)
		*count = norm_div(vals[i], a->ag_normal ? a->ag_normal : 1);
	return 0;
}
