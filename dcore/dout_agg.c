/*
 * dout_agg.c — how the outputs read aggregations: the set's aggregations
 * in creation order, each entry's key and raw values, the value printa
 * prints, and histogram buckets with their value ranges.
 *
 * This reads dagg's internals (dagg_impl.h: dagg_collect, dagg_sort, the
 * value layout of each aggregating function) until dagg.h offers a walk
 * (requested in REQUESTS.md: dagg_walk/dagg_scalar/dagg_bucket); the rest
 * of dout only calls the functions below, so the switch stays here.
 * Known difference from printa: sym()/mod() keys are not merged by symbol.
 */
#include <errno.h>
#include <stdlib.h>

#include "dcore/dagg_impl.h"
#include "dcore/dout_impl.h"

int
dout_agg_count(const dagg_set_t *set)
{
	return set ? set->as_naggs : 0;
}

dagg_t *
dout_agg_at(dagg_set_t *set, int i)
{
	return set && i >= 0 && i < set->as_naggs ? set->as_aggs[i] : NULL;
}

int
dout_agg_printed(const dagg_t *a)
{
	return a->ag_printed;
}

/* As dagg_printa does: printed only when it had entries. */
void
dout_agg_mark_printed(dagg_t *a)
{
	if (dagg_nentries(a) > 0)
		a->ag_printed = 1;
}

const struct d_vdesc *
dout_agg_keys(const dagg_t *a, int *nkeys)
{
	*nkeys = a->ag_nkeys;
	return a->ag_keys;
}

int
dout_agg_walk(dagg_t *a, int sorted, dout_agg_walk_f cb, void *arg)
{
	struct dagg_vec vec;
	int r = 0;

	if ((r = dagg_collect(a, &vec)) < 0)
		return r;
	if (sorted && a->ag_set != NULL)
		dagg_sort(a, &vec, &a->ag_set->as_so);
	for (size_t i = 0; i < vec.n && r == 0; i++)
		r = cb(arg, dagg_key(a, vec.v[i]), a->ag_keys, a->ag_nkeys,
		    vec.v[i]->de_val, a->ag_nvals);
	free(vec.v);
	return r;
}

static uint64_t
agg_normal(const dagg_t *a)
{
	return a->ag_normal ? a->ag_normal : 1;
}

int64_t
dout_agg_scalar(const dagg_t *a, const int64_t *v, int *unsignedp)
{
	int64_t nm = (int64_t)agg_normal(a), t = 0;

	if (unsignedp)
		*unsignedp = a->ag_func == DAGG_COUNT || a->ag_func == DAGG_STDDEV;
	switch (a->ag_func) {
	case DAGG_COUNT:
		return (int64_t)((uint64_t)v[0] / (uint64_t)nm);
	case DAGG_AVG:
		return v[0] ? v[1] / nm / v[0] : 0;
	case DAGG_STDDEV:
		return (int64_t)dagg_stddev(v, (uint64_t)nm);
	case DAGG_QUANTIZE:
	case DAGG_LQUANTIZE:
	case DAGG_LLQUANTIZE:
		for (int i = 0; i < a->ag_nvals; i++)
			t += v[i];
		return t / nm;
	default:
		return v[0] / nm;
	}
}

int
dout_agg_nbuckets(const dagg_t *a)
{
	switch (a->ag_func) {
	case DAGG_QUANTIZE:
	case DAGG_LQUANTIZE:
	case DAGG_LLQUANTIZE:
		return a->ag_nvals;
	default:
		return 0;
	}
}

/* quantize: bucket DAGG_QZERO is 0, above it [2^k, 2^(k+1)), below it
 * the mirror image; the outermost buckets are open-ended. */
static void
q_range(int i, int64_t *lo, int64_t *hi)
{
	if (i == DAGG_QZERO) {
		*lo = *hi = 0;
	} else if (i > DAGG_QZERO) {
		int k = i - DAGG_QZERO - 1;

		*lo = (int64_t)(1ULL << k);
		*hi = k >= 62 ? INT64_MAX : (int64_t)(1ULL << (k + 1)) - 1;
	} else {
		int k = DAGG_QZERO - 1 - i;

		*hi = -(int64_t)(1ULL << k);
		*lo = i == 0 ? INT64_MIN : -(int64_t)(1ULL << (k + 1)) + 1;
	}
}

/* lquantize: below base, then levels steps of step, then >= limit. */
static void
lq_range(const dagg_t *a, int i, int64_t *lo, int64_t *hi)
{
	const struct dagg_params *p = &a->ag_params;

	if (i == 0) {
		*lo = INT64_MIN;
		*hi = p->ap_lq_base - 1;
	} else if (i > a->ag_levels) {
		*lo = p->ap_lq_base + (int64_t)a->ag_levels * p->ap_lq_step;
		*hi = INT64_MAX;
	} else {
		*lo = p->ap_lq_base + (int64_t)(i - 1) * p->ap_lq_step;
		*hi = *lo + p->ap_lq_step - 1;
	}
}

/* llquantize: below factor^low, then each order's linear steps (the
 * same walk as dagg_llq_nbuckets), then the overflow bucket. */
static void
llq_range(const dagg_t *a, int i, int64_t *lo, int64_t *hi)
{
	const struct dagg_params *p = &a->ag_params;
	int64_t value = 1, next, step;
	int order, bin = 1;

	for (order = 0; order < p->ap_llq_low; order++)
		value *= p->ap_llq_factor;
	*lo = INT64_MIN;
	*hi = value - 1;
	if (i == 0)
		return;
	next = value * p->ap_llq_factor;
	step = next > p->ap_llq_nsteps ? next / p->ap_llq_nsteps : 1;
	while (order <= p->ap_llq_high) {
		if (bin++ == i) {
			*lo = value;
			*hi = value + step - 1;
			return;
		}
		if ((value += step) != next)
			continue;
		next = value * p->ap_llq_factor;
		step = next > p->ap_llq_nsteps ? next / p->ap_llq_nsteps : 1;
		order++;
	}
	*lo = value;
	*hi = INT64_MAX;
}

int
dout_agg_bucket(const dagg_t *a, const int64_t *v, int i, int64_t *lo,
    int64_t *hi, int64_t *count)
{
	if (i < 0 || i >= dout_agg_nbuckets(a))
		return -EINVAL;
	if (a->ag_func == DAGG_QUANTIZE)
		q_range(i, lo, hi);
	else if (a->ag_func == DAGG_LQUANTIZE)
		lq_range(a, i, lo, hi);
	else
		llq_range(a, i, lo, hi);
	*count = v[i] / (int64_t)agg_normal(a);
	return 0;
}
