/*
 * vclock.c — per-thread on-CPU time from switch records (see vclock.h).
 * Threads: an open-addressing table of tid → accumulated ns, doubled when
 * half full.  CPUs: who is on each and since when.
 */
#include <stdlib.h>
#include <string.h>

#include "providers/vclock.h"

#define VCLOCK_MAX_CPUS 1024

struct vclock_thread {
	int32_t tid;		/* 0 = empty slot */
	uint64_t ns;		/* on CPU until its last switch out */
};

struct vclock_cpu {
	int32_t tid;		/* on this CPU now, 0 = unknown or idle */
	uint64_t since;
};

struct vclock {
	struct vclock_thread *tab;
	uint32_t cap, used;
	struct vclock_cpu cpu[VCLOCK_MAX_CPUS];
};

struct vclock *
vclock_open(void)
{
	struct vclock *vc = calloc(1, sizeof(*vc));
	if (!vc)
		return NULL;
	vc->cap = 4096;
	vc->tab = calloc(vc->cap, sizeof(*vc->tab));
	if (!vc->tab) {
		free(vc);
		return NULL;
	}
	return vc;
}

void
vclock_close(struct vclock *vc)
{
	if (vc)
		free(vc->tab);
	free(vc);
}

static struct vclock_thread *
vclock_slot(struct vclock_thread *tab, uint32_t cap, int32_t tid)
{
	uint32_t i = ((uint32_t)tid * 2654435761u) & (cap - 1);
	while (tab[i].tid && tab[i].tid != tid)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static int
vclock_grow(struct vclock *vc)
{
	uint32_t cap = vc->cap * 2;
	struct vclock_thread *tab = calloc(cap, sizeof(*tab));
	if (!tab)
		return -1;
	for (uint32_t i = 0; i < vc->cap; i++)
		if (vc->tab[i].tid)
			*vclock_slot(tab, cap, vc->tab[i].tid) = vc->tab[i];
	free(vc->tab);
	vc->tab = tab;
	vc->cap = cap;
	return 0;
}

/* NULL only when out of memory: the thread then reads as zero. */
static struct vclock_thread *
vclock_thread(struct vclock *vc, int32_t tid)
{
	struct vclock_thread *t = vclock_slot(vc->tab, vc->cap, tid);
	if (t->tid)
		return t;
	if (2 * (vc->used + 1) > vc->cap) {
		if (vclock_grow(vc) < 0)
			return NULL;
		t = vclock_slot(vc->tab, vc->cap, tid);
	}
	t->tid = tid;
	vc->used++;
	return t;
}

void
vclock_switch(struct vclock *vc, uint32_t cpu, int32_t tid, uint64_t ns, int in)
{
	if (cpu >= VCLOCK_MAX_CPUS || tid <= 0)
		return;
	struct vclock_cpu *c = &vc->cpu[cpu];
	if (in) {
		c->tid = tid;
		c->since = ns;
		return;
	}
	struct vclock_thread *t = c->tid == tid ? vclock_thread(vc, tid) : NULL;
	if (t && ns > c->since)
		t->ns += ns - c->since;
	c->tid = 0;
}

uint64_t
vclock_at(struct vclock *vc, uint32_t cpu, int32_t tid, uint64_t ns)
{
	if (cpu >= VCLOCK_MAX_CPUS || tid <= 0)
		return 0;
	struct vclock_cpu *c = &vc->cpu[cpu];
	struct vclock_thread *t = vclock_thread(vc, tid);
	if (!t)
		return 0;
	/* running since before tracing began: count from now on */
	if (c->tid == 0) {
		c->tid = tid;
		c->since = ns;
	}
	if (c->tid != tid || ns < c->since)
		return t->ns;
	return t->ns + (ns - c->since);
}
