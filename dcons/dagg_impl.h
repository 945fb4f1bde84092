/*
 * dagg_impl.h — internals shared by dagg.c (storage, update, sorting,
 * trunc/clear) and dagg_print.c (printa, histograms, exit-time printing).
 *
 * Storage: each aggregation owns a hash table after Redis dict.c — two
 * power-of-two tables, incremental rehash moving one bucket per update
 * (and scanning at most DAGG_REHASH_EMPTY empty buckets) — whose entries
 * are fixed-size records carved from the aggregation's own arena:
 *
 *	+---------+---------+------------------------+------------------+
 *	| de_next | de_hash | de_val[ag_nvals] int64  | key (ag_keysize) |
 *	+---------+---------+------------------------+------------------+
 *
 * Every entry byte and every bucket array counts against the set's budget
 * (aggsize); an update that would exceed it is dropped and counted.
 */
#ifndef PMCTRACE_DAGG_IMPL_H
#define PMCTRACE_DAGG_IMPL_H

#include "dcons/dagg.h"
#include "dcons/dfmt_impl.h"

#define DAGG_MAXKEYS		32
#define DAGG_QNBUCKETS		127	/* quantize: 2 * 63 + 1 */
#define DAGG_QZERO		63	/* quantize: index of the 0 bucket */
#define DAGG_REHASH_EMPTY	10	/* empty buckets one rehash step visits */
#define DAGG_CHUNK		(64 * 1024)

struct dagg_ent {
	struct dagg_ent *de_next;
	uint64_t de_hash;
	int64_t de_val[];
};

struct dagg_ht {
	struct dagg_ent **ht_b;
	uint64_t ht_size;	/* power of two, or 0 */
	uint64_t ht_used;
};

struct dagg_chunk {
	struct dagg_chunk *ck_next;
	char ck_mem[];
};

typedef void (*dagg_update_f)(const struct dagg *a, int64_t *v, int64_t val,
    int64_t incr);
typedef void (*dagg_merge_f)(int64_t *dst, const int64_t *src, int nvals);

struct dagg {
	struct dagg_set *ag_set;
	char *ag_name;
	int ag_id;			/* creation order = print order */
	enum dagg_func ag_func;
	struct dagg_params ag_params;
	int ag_nkeys;
	struct d_vdesc ag_keys[DAGG_MAXKEYS];
	uint32_t ag_koff[DAGG_MAXKEYS];	/* offset of each key element */
	uint32_t ag_keysize;
	int ag_hasstr;			/* a string element: hash per element */
	int ag_nvals;			/* int64 words of value */
	size_t ag_entsize;
	int ag_levels;			/* lquantize levels */
	dagg_update_f ag_update;	/* the aggregating function */
	dagg_merge_f ag_merge;		/* combining two values */
	struct dagg_ht ag_ht[2];
	int64_t ag_rehashidx;		/* -1: not rehashing */
	struct dagg_ent *ag_single;	/* the entry of a keyless aggregation */
	uint64_t ag_normal;		/* normalize(); 1 = none */
	int ag_printed;			/* printa() printed it */
	struct dagg_chunk *ag_chunks;
	char *ag_bump;
	size_t ag_bumpleft;
	struct dagg_ent *ag_free;	/* entries freed by trunc() */
};

struct dagg_set {
	char *as_progname;
	uint64_t as_budget;
	uint64_t as_used;
	struct dagg **as_aggs;
	int as_naggs, as_cap;
	struct dagg_sortopts as_so;
	uint64_t *as_drops;		/* per CPU, since the last report */
	uint32_t as_ndrops;
	uint64_t as_total_drops;
};

static inline void *
dagg_key(const struct dagg *a, const struct dagg_ent *e)
{
	return (char *)(e->de_val + a->ag_nvals);
}

/* Entries in a flat array, for sorting and printing. */
struct dagg_vec {
	struct dagg_ent **v;
	size_t n;
};
int dagg_collect(const struct dagg *a, struct dagg_vec *out);

/* Comparators: value, then key, each honouring keypos; sign flips with
 * rev.  Used by qsort_r with a struct dagg_sortctx. */
struct dagg_sortctx {
	const struct dagg *sc_agg;
	int sc_rev;
	int sc_keypos;
	int sc_keysort;
};
int dagg_valcmp(const struct dagg *a, const int64_t *l, const int64_t *r);
int dagg_keycmp(const struct dagg *a, const void *lk, const void *rk,
    int keypos);
void dagg_sort(const struct dagg *a, struct dagg_vec *vec,
    const struct dagg_sortopts *so);

/* Value words for the printer. */
static inline int64_t
dagg_qbucketval(int i)	/* the value of quantize() bucket i */
{
	if (i < DAGG_QZERO)
		return -(int64_t)(1ULL << (DAGG_QZERO - 1 - i));
	if (i == DAGG_QZERO)
		return 0;
	return (int64_t)(1ULL << (i - DAGG_QZERO - 1));
}
uint64_t dagg_stddev(const int64_t *v, uint64_t normal);
int dagg_llq_nbuckets(const struct dagg_params *p);
/* A temporary aggregation with no budget, for print-time merging of
 * sym()/mod() keys. */
struct dagg *dagg_clone_empty(const struct dagg *a);
void dagg_free_one(struct dagg *a);
struct dagg_ent *dagg_lookup_ent(struct dagg *a, const void *key, int create);

#endif
