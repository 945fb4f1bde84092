/*
 * dagg.h — D aggregations: storage, the hot-path update, printa, trunc,
 * clear, normalize, sorting options, exit-time printing and drop reports.
 *
 * An aggregation set (dagg_set_t) holds every aggregation of one program
 * and the memory budget (aggsize).  The compiler creates each aggregation
 * once with its function, parameters and key descriptors; the VM calls
 * dagg_update() with the key bytes (concatenated element encodings, see
 * dfmt.h) for each firing.  Single-threaded: the engine serialises firings.
 * When the budget is exhausted the update is dropped and counted per CPU;
 * dagg_report_drops() prints DTrace's "N aggregation drops on CPU c" lines.
 * Functions return 0 or -errno; constructors return NULL and set *errp.
 *
 * Usage:  set = dagg_set_create(aggsize)  →  a = dagg_create(set, ...)*
 *         →  dagg_update(a, ...)*  /  dagg_printa(...)  /  dagg_trunc(...)
 *         →  dagg_print_all(set, ...) at exit  →  dagg_set_destroy(set).
 */
#ifndef PMCTRACE_DAGG_H
#define PMCTRACE_DAGG_H

#include <stdint.h>
#include <stdio.h>
#include "dcons/dfmt.h"

/* Aggregating functions (ORDER: the merge and print tables in dagg.c). */
enum dagg_func {
	DAGG_COUNT = 0,
	DAGG_SUM,
	DAGG_AVG,
	DAGG_MIN,
	DAGG_MAX,
	DAGG_STDDEV,
	DAGG_QUANTIZE,
	DAGG_LQUANTIZE,
	DAGG_LLQUANTIZE,
	DAGG_NFUNCS
};

struct dagg_params {
	int64_t ap_lq_base;	/* lquantize lower bound */
	int64_t ap_lq_limit;	/* lquantize upper bound */
	int64_t ap_lq_step;	/* lquantize step (default 1) */
	uint16_t ap_llq_factor;	/* llquantize factor */
	uint16_t ap_llq_low;	/* llquantize low magnitude */
	uint16_t ap_llq_high;	/* llquantize high magnitude */
	uint16_t ap_llq_nsteps;	/* llquantize steps per magnitude */
};

/* Check lquantize/llquantize parameters as DTrace does at compile time.
 * Returns 0, or -EINVAL with DTrace's message in err and *tagp the tag
 * (D_LQUANT_STEPSMALL, D_LLQUANT_FACTOREVEN, ...). */
int dagg_check_params(enum dagg_func fn, const struct dagg_params *p,
    char *err, size_t errlen, const char **tagp);

typedef struct dagg_set dagg_set_t;
typedef struct dagg dagg_t;

/* aggsize: memory budget in bytes for all aggregations' entries (DTrace's
 * default is 4m). progname prefixes drop messages ("pmctrace"). */
dagg_set_t *dagg_set_create(uint64_t aggsize, const char *progname, int *errp);
void dagg_set_destroy(dagg_set_t *set);

/* Sorting options (aggsortkey, aggsortkeypos, aggsortpos, aggsortrev);
 * negative = unset. Applies to later printing. */
struct dagg_sortopts {
	int so_sortkey;		/* boolean */
	int so_sortkeypos;	/* key position to sort by, -1 = unset */
	int so_sortpos;		/* position among printa's aggregations */
	int so_sortrev;		/* boolean */
	int so_zoom;		/* boolean: aggzoom, the tallest bar ~95% of full height */
};
void dagg_set_sortopts(dagg_set_t *set, const struct dagg_sortopts *so);
/* Change the budget (setopt aggsize); entries already stored stay. */
void dagg_set_aggsize(dagg_set_t *set, uint64_t aggsize);

/* Create aggregation "name" ("" or "_" for @ anonymous: printed without a
 * name line, as DTrace does). keys describe the tuple (nkeys may be 0).
 * The id is its order of creation, which is DTrace's print order. */
dagg_t *dagg_create(dagg_set_t *set, const char *name, enum dagg_func fn,
    const struct dagg_params *p, const struct d_vdesc *keys, int nkeys,
    int *errp);
dagg_t *dagg_lookup(dagg_set_t *set, const char *name);
const char *dagg_name(const dagg_t *a);
enum dagg_func dagg_func(const dagg_t *a);
/* Bytes of the key (sum of the element encodings). */
uint32_t dagg_keysize(const dagg_t *a);

/* The hot path: @name[key] = fn(val[, incr]).  incr is the quantize
 * weight (1 when absent); count ignores val.  Returns 0, or -ENOSPC when
 * the entry could not be created within aggsize (counted as a drop on cpu). */
int dagg_update(dagg_t *a, uint32_t cpu, const void *key, int64_t val,
    int64_t incr);

/* trunc(@a) (all: pass DAGG_TRUNC_ALL), trunc(@a, n): keep the n largest
 * (n < 0: the -n smallest) by DTrace's sort order. */
#define DAGG_TRUNC_ALL	INT64_MIN
void dagg_trunc(dagg_t *a, int64_t n);
/* clear(@a): zero the values, keep the keys. */
void dagg_clear(dagg_t *a);
/* normalize(@a, n) / denormalize(@a): divide printed values by n. */
void dagg_normalize(dagg_t *a, int64_t n);
void dagg_denormalize(dagg_t *a);
/* Number of entries. */
uint64_t dagg_nentries(const dagg_t *a);

/* printa(@a) with the default layout (fmt NULL), or printa(fmt, @a, @b...)
 * with a parsed DFMT_PRINTA format whose arguments are the key elements.
 * All aggregations must be keyed alike.  Marks them printed. */
int dagg_printa(FILE *fp, const struct dfmt_ctx *cx, const dfmt_t *fmt,
    dagg_t *const *aggs, int naggs);
/* Exit-time printing: every non-empty aggregation not yet printed by
 * printa, in DTrace's order (by creation id, each sorted). */
int dagg_print_all(dagg_set_t *set, FILE *fp, const struct dfmt_ctx *cx);

/* ---- reading aggregations (other output formats: folded, SVG, JSON) ----- */

/* The set's aggregations in creation order (DTrace's print order). */
int dagg_set_naggs(const dagg_set_t *set);
dagg_t *dagg_set_agg(dagg_set_t *set, int i);	/* NULL when out of range */
int dagg_printed(const dagg_t *a);		/* printa() printed it */
void dagg_mark_printed(dagg_t *a);
const struct d_vdesc *dagg_keydesc(const dagg_t *a, int *nkeys);

/* Every entry as printa() sees it (sym()/mod()/usym()/umod() keys merged
 * by symbol through cx's symbolizer), in print order when sorted != 0
 * (honouring the sort options), else in any order.  vals are the raw
 * value words.  Stops at the first nonzero cb return and returns it;
 * 0 or -errno otherwise. */
typedef int (*dagg_walk_f)(void *arg, const void *key,
    const struct d_vdesc *kd, int nkeys, const int64_t *vals, int nvals);
int dagg_walk(dagg_t *a, const struct dfmt_ctx *cx, int sorted,
    dagg_walk_f cb, void *arg);
/* The number printa() prints for a scalar function (normalized; avg and
 * stddev computed); for histograms the sum of the (normalized) bucket
 * counts.  *unsignedp (may be NULL) = 1 when %@ would print it unsigned. */
int64_t dagg_scalar(const dagg_t *a, const int64_t *vals, int *unsignedp);
/* Histograms: the number of buckets (0 for scalar functions), and bucket
 * i's value range [lo, hi] (INT64_MIN / INT64_MAX for the open ends) with
 * its normalized count.  Returns 0 or -EINVAL. */
int dagg_nbuckets(const dagg_t *a);
int dagg_bucket(const dagg_t *a, const int64_t *vals, int i, int64_t *lo,
    int64_t *hi, int64_t *count);

/* Print "<progname>: N aggregation drops on CPU c" to fp for drops since
 * the last report (called at statusrate and at exit). */
int dagg_report_drops(dagg_set_t *set, FILE *fp);
uint64_t dagg_drops(const dagg_set_t *set);

#endif
