/*
 * sym_tab.c — symbol tables sorted by address, after illumos dt_module.c.
 *
 * Entries are sorted by address; several symbols often share one address
 * (read, __read, __libc_read ...), and the first of them after sorting is
 * the one printed.  Tie-breaks, in order: a sized symbol before an unsized
 * one, a typed one before STT_NOTYPE, a non-weak one before a weak one,
 * then the lexically smaller name.  A lookup finds the last entry at or
 * below the address, steps back to the first entry with that address, and
 * is a hit if addr - start < max(size, 1).  A page index narrows the
 * binary search to the entries of the address's 4 KB page, which keeps a
 * lookup in a 120k-entry kernel table to a cache miss or two.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolizer/sym_impl.h"

static int
sym_tab_grow(void **p, size_t *cap, size_t need, size_t elsize)
{
	size_t ncap = *cap ? *cap : 64;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * elsize);
	if (np == NULL)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

int
sym_tab_add(struct sym_tab *t, uint64_t addr, uint64_t size, int flags,
    uint16_t mod, const char *name, size_t namelen)
{
	struct sym_ent *e;

	if (namelen > 4096 || t->st_strlen + namelen + 1 > UINT32_MAX)
		return -E2BIG;
	if (sym_tab_grow((void **)&t->st_ents, &t->st_cap, t->st_n + 1,
	    sizeof(*e)) < 0 ||
	    sym_tab_grow((void **)&t->st_strs, &t->st_strcap,
	    t->st_strlen + namelen + 1, 1) < 0)
		return -ENOMEM;
	e = &t->st_ents[t->st_n++];
	e->se_addr = addr;
	e->se_size = size;
	e->se_name = (uint32_t)t->st_strlen;
	e->se_mod = mod;
	e->se_flags = (uint8_t)(flags | (size ? SE_SIZED : 0));
	memcpy(t->st_strs + t->st_strlen, name, namelen);
	t->st_strs[t->st_strlen + namelen] = '\0';
	t->st_strlen += namelen + 1;
	return 0;
}

/* Does flag f order a before b (-1), after (1), or not decide (0)?
 * present says whether having the flag is the better side. */
static int
sym_tab_prefer(int fa, int fb, int f, int present)
{
	int a = (fa & f) != 0, b = (fb & f) != 0;

	if (a == b)
		return 0;
	return (a == present) ? -1 : 1;
}

static int
sym_tab_cmp(const void *lp, const void *rp, void *arg)
{
	const struct sym_tab *t = arg;
	const struct sym_ent *l = lp, *r = rp;
	int c;

	if (l->se_addr != r->se_addr)
		return l->se_addr < r->se_addr ? -1 : 1;
	if ((c = sym_tab_prefer(l->se_flags, r->se_flags, SE_SIZED, 1)) ||
	    (c = sym_tab_prefer(l->se_flags, r->se_flags, SE_TYPED, 1)) ||
	    (c = sym_tab_prefer(l->se_flags, r->se_flags, SE_WEAK, 0)))
		return c;
	return strcmp(t->st_strs + l->se_name, t->st_strs + r->se_name);
}

#define ST_PAGESHIFT	12
#define ST_MAXPAGES	(1u << 22)	/* 16 GB of span: beyond, no index */

static void
sym_tab_index(struct sym_tab *t)
{
	size_t n = t->st_n, i = 0;
	uint64_t span;

	free(t->st_pidx);
	t->st_pidx = NULL;
	t->st_npages = 0;
	if (n < 64 || n > UINT32_MAX)
		return;
	t->st_base = t->st_ents[0].se_addr >> ST_PAGESHIFT << ST_PAGESHIFT;
	span = (t->st_ents[n - 1].se_addr - t->st_base) >> ST_PAGESHIFT;
	if (span >= ST_MAXPAGES ||
	    (t->st_pidx = malloc((span + 1) * sizeof(*t->st_pidx))) == NULL)
		return;
	t->st_npages = span + 1;
	for (size_t p = 0; p < t->st_npages; p++) {
		uint64_t pa = t->st_base + ((uint64_t)p << ST_PAGESHIFT);
		while (i < n && t->st_ents[i].se_addr < pa)
			i++;
		t->st_pidx[p] = (uint32_t)i;
	}
}

void
sym_tab_sort(struct sym_tab *t)
{
	if (t->st_n > 1)
		qsort_r(t->st_ents, t->st_n, sizeof(*t->st_ents), sym_tab_cmp, t);
	sym_tab_index(t);
}

/* The entries [*lo, *hi) that can hold the last one at or below addr's
 * page end: the page's own, and (through lo - 1) the one before them. */
static void
sym_tab_narrow(const struct sym_tab *t, uint64_t addr, size_t *lo, size_t *hi)
{
	uint64_t p;

	if (t->st_npages == 0 || addr < t->st_base)
		return;
	p = (addr - t->st_base) >> ST_PAGESHIFT;
	if (p >= t->st_npages) {
		*lo = t->st_pidx[t->st_npages - 1];
		return;
	}
	*lo = t->st_pidx[p];
	if (p + 1 < t->st_npages)
		*hi = t->st_pidx[p + 1];
}

const struct sym_ent *
sym_tab_lookup(const struct sym_tab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->st_n, i;
	const struct sym_ent *e;

	sym_tab_narrow(t, addr, &lo, &hi);
	/* first entry above addr (entries below lo are all at or below it) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->st_ents[mid].se_addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	i = lo - 1;
	while (i > 0 && t->st_ents[i - 1].se_addr == t->st_ents[i].se_addr)
		i--;
	e = &t->st_ents[i];
	if (addr - e->se_addr < (e->se_size ? e->se_size : 1))
		return e;
	return NULL;
}

void
sym_tab_free(struct sym_tab *t)
{
	free(t->st_ents);
	free(t->st_strs);
	free(t->st_pidx);
	memset(t, 0, sizeof(*t));
}
