/*
 * d_vars.c — dynamic variables: associative arrays and thread-locals.
 *
 * Every dynamic variable instance (a[k], self->x of one thread) lives in
 * one arena of dynvarsize bytes, as DTrace's dynamic variable space does:
 * memory is bounded by the option, and "is this address D memory?" is a
 * range check.  Blocks come from per-size-class free lists (16-byte
 * classes) or from the unused top of the arena; when neither has room the
 * store is dropped and counted ("dynamic variable drops").
 *
 *   entry:  | next | hash | var klen vsize cls | key bytes (8-aligned) | value |
 *
 * The index is a chained hash table (power of two buckets) outside the
 * arena; it doubles when the load factor passes 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dcore/d_impl.h"
#include "util/hash.h"

struct d_dvar {
	struct d_dvar *dv_next;
	uint64_t dv_hash;
	uint32_t dv_var, dv_klen, dv_vsize, dv_cls;
	uint8_t dv_data[];
};

#define DV_CLASS	16
#define DV_NCLASS	4096	/* blocks up to 64 KiB are recycled by class */

struct d_dvarena {
	uint8_t *da_base;
	size_t da_size, da_top;
	struct d_dvar *da_free[DV_NCLASS];
};

static uint64_t
d_dv_hash(int var, const void *key, uint32_t klen)
{
	uint64_t h;
	if (klen == 8) {
		uint64_t k;
		memcpy(&k, key, 8);
		h = k;
	} else {
		h = 0xcbf29ce484222325ULL;
		const uint8_t *p = key;
		for (uint32_t i = 0; i < klen; i++) {
			h ^= p[i];
			h *= 0x100000001b3ULL;
		}
	}
	return hash_mix64(h ^ ((uint64_t)(uint32_t)var << 40) ^ klen);
}

int
d_dv_init(struct d_dvtab *t, uint64_t limit)
{
	memset(t, 0, sizeof(*t));
	struct d_dvarena *a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	if (limit < 4096)
		limit = 4096;
	a->da_base = malloc(limit);
	if (!a->da_base) {
		free(a);
		return -ENOMEM;
	}
	a->da_size = limit;
	t->dt_limit = limit;
	t->dt_nbuckets = 1024;
	t->dt_buckets = calloc(t->dt_nbuckets, sizeof(*t->dt_buckets));
	if (!t->dt_buckets) {
		free(a->da_base);
		free(a);
		return -ENOMEM;
	}
	t->dt_arena = a;
	return 0;
}

void
d_dv_fini(struct d_dvtab *t)
{
	struct d_dvarena *a = t->dt_arena;
	if (a) {
		free(a->da_base);
		free(a);
	}
	free(t->dt_buckets);
	memset(t, 0, sizeof(*t));
}

static struct d_dvar *
d_dv_alloc(struct d_dvtab *t, size_t need)
{
	struct d_dvarena *a = t->dt_arena;
	size_t cls = (need + DV_CLASS - 1) / DV_CLASS;
	size_t sz = cls * DV_CLASS;
	struct d_dvar *d;
	if (cls < DV_NCLASS && a->da_free[cls]) {
		d = a->da_free[cls];
		a->da_free[cls] = d->dv_next;
	} else {
		if (a->da_top + sz > a->da_size)
			return NULL;
		d = (struct d_dvar *)(a->da_base + a->da_top);
		a->da_top += sz;
	}
	d->dv_cls = (uint32_t)cls;
	t->dt_bytes += sz;
	return d;
}

static void
d_dv_grow(struct d_dvtab *t)
{
	uint32_t nb = t->dt_nbuckets * 2;
	struct d_dvar **b = calloc(nb, sizeof(*b));
	if (!b)
		return;		/* keep the old table: longer chains, still correct */
	for (uint32_t i = 0; i < t->dt_nbuckets; i++) {
		struct d_dvar *d = t->dt_buckets[i], *next;
		for (; d; d = next) {
			next = d->dv_next;
			uint32_t j = (uint32_t)d->dv_hash & (nb - 1);
			d->dv_next = b[j];
			b[j] = d;
		}
	}
	free(t->dt_buckets);
	t->dt_buckets = b;
	t->dt_nbuckets = nb;
}

static inline uint32_t
d_dv_koff(uint32_t klen)
{
	return (klen + 7) & ~7u;
}

void *
d_dv_get(struct d_dvtab *t, int var, const void *key, uint32_t klen, uint32_t vsize, bool create)
{
	uint64_t h = d_dv_hash(var, key, klen);
	uint32_t i = (uint32_t)h & (t->dt_nbuckets - 1);
	for (struct d_dvar *d = t->dt_buckets[i]; d; d = d->dv_next) {
		if (d->dv_hash == h && d->dv_var == (uint32_t)var && d->dv_klen == klen &&
		    memcmp(d->dv_data, key, klen) == 0)
			return d->dv_data + d_dv_koff(klen);
	}
	if (!create)
		return NULL;
	struct d_dvar *d = d_dv_alloc(t, sizeof(*d) + d_dv_koff(klen) + vsize);
	if (!d) {
		t->dt_drops++;
		return NULL;
	}
	d->dv_hash = h;
	d->dv_var = (uint32_t)var;
	d->dv_klen = klen;
	d->dv_vsize = vsize;
	memcpy(d->dv_data, key, klen);
	memset(d->dv_data + d_dv_koff(klen), 0, vsize);
	d->dv_next = t->dt_buckets[i];
	t->dt_buckets[i] = d;
	if (++t->dt_count > t->dt_nbuckets)
		d_dv_grow(t);
	return d->dv_data + d_dv_koff(klen);
}

void
d_dv_del(struct d_dvtab *t, int var, const void *key, uint32_t klen)
{
	uint64_t h = d_dv_hash(var, key, klen);
	uint32_t i = (uint32_t)h & (t->dt_nbuckets - 1);
	struct d_dvarena *a = t->dt_arena;
	for (struct d_dvar **pp = &t->dt_buckets[i]; *pp; pp = &(*pp)->dv_next) {
		struct d_dvar *d = *pp;
		if (d->dv_hash == h && d->dv_var == (uint32_t)var && d->dv_klen == klen &&
		    memcmp(d->dv_data, key, klen) == 0) {
			*pp = d->dv_next;
			t->dt_count--;
			t->dt_bytes -= (uint64_t)d->dv_cls * DV_CLASS;
			if (d->dv_cls < DV_NCLASS) {
				d->dv_next = a->da_free[d->dv_cls];
				a->da_free[d->dv_cls] = d;
			}
			return;
		}
	}
}

bool
d_dv_contains(struct d_dvtab *t, uintptr_t addr, size_t len)
{
	struct d_dvarena *a = t->dt_arena;
	uintptr_t b = (uintptr_t)a->da_base;
	return addr >= b && addr + len >= addr && addr + len <= b + a->da_top;
}
