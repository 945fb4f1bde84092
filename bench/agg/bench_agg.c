/*
 * bench_agg.c — dagg_update() throughput (see NOTE.md).
 *
 * For each case, a key pool of N distinct keys is built first; the timed
 * loop then draws keys from the pool with a xorshift generator and calls
 * dagg_update() once per firing, as the VM does.  Prints RESULT lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dcons/dagg.h"

/* Rates are per second of this thread's CPU time, so a busy machine
 * (other jobs on the same cores) does not distort them. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline uint64_t
xs(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

enum bcase { B_COUNT_INT, B_QUANTIZE, B_COUNT_STACK, B_COUNT_STR3 };

static const char *const names[] = {
	"count() int key", "quantize() int key", "count() 8-frame stack key",
	"count() 3 string keys"
};

#define STRSIZE 256

/* Key pool: keysize bytes per key. */
static unsigned char *
make_pool(enum bcase c, size_t nkeys, size_t keysize)
{
	unsigned char *pool = malloc(nkeys * keysize);
	uint64_t s = 88172645463325252ULL;

	if (pool == NULL)
		return NULL;
	for (size_t i = 0; i < nkeys; i++) {
		uint64_t *k = (uint64_t *)(void *)(pool + i * keysize);

		if (c == B_COUNT_STR3) {
			/* execname, probefunc, probename, zero-filled */
			char *ks = (char *)(pool + i * keysize);
			memset(ks, 0, keysize);
			snprintf(ks, STRSIZE, "proc%zu", i);
			snprintf(ks + STRSIZE, STRSIZE, "sys_read");
			snprintf(ks + 2 * STRSIZE, STRSIZE, "entry");
			continue;
		}
		if (c != B_COUNT_STACK) {
			k[0] = i * 2654435761u;
			continue;
		}
		/* a shared 7-frame tail, like real stacks, and a unique leaf */
		k[0] = 0xffffffff81000000ULL + i * 16;
		for (int f = 1; f < 8; f++)
			k[f] = 0xffffffff82000000ULL + (xs(&s) % 64) * 0x40 +
			    (uint64_t)f * 0x1000;
	}
	return pool;
}

static void
run(enum bcase c, size_t nkeys, uint64_t iters)
{
	struct d_vdesc kint = { D_VK_INT, 8, 0, 8, 0, 0, NULL };
	struct d_vdesc kst = { D_VK_KSTACK, 0, 0, 64, 8, 0, NULL };
	struct d_vdesc kstr[3] = {
		{ D_VK_STRING, 0, 0, STRSIZE, 0, 0, NULL },
		{ D_VK_STRING, 0, 0, STRSIZE, 0, 0, NULL },
		{ D_VK_STRING, 0, 0, STRSIZE, 0, 0, NULL },
	};
	size_t keysize = c == B_COUNT_STACK ? 64 : c == B_COUNT_STR3 ?
	    3 * STRSIZE : 8;
	unsigned char *pool = make_pool(c, nkeys, keysize);
	dagg_set_t *set = dagg_set_create(1ULL << 31, "bench", NULL);
	dagg_t *a;
	uint64_t s = 2463534242ULL, drops = 0;
	double t0, t;

	if (pool == NULL || set == NULL) {
		printf("RESULT agg: %s %zu keys n/a (out of memory)\n", names[c],
		    nkeys);
		return;
	}
	a = dagg_create(set, "", c == B_QUANTIZE ? DAGG_QUANTIZE : DAGG_COUNT,
	    NULL, c == B_COUNT_STACK ? &kst : c == B_COUNT_STR3 ? kstr : &kint,
	    c == B_COUNT_STR3 ? 3 : 1, NULL);
	/* warm: every key once, so the timed loop measures steady state */
	for (size_t i = 0; i < nkeys; i++)
		dagg_update(a, 0, pool + i * keysize, (int64_t)i, 1);
	t0 = now();
	for (uint64_t i = 0; i < iters; i++) {
		uint64_t r = xs(&s);
		size_t k = (size_t)(r % nkeys);

		drops += dagg_update(a, 0, pool + k * keysize,
		    (int64_t)(r >> 44), 1) != 0;
	}
	t = now() - t0;
	printf("RESULT agg: %-26s %8zu keys  %7.1f M updates/s  %6.1f ns each"
	    "  (%llu entries, %llu drops)\n", names[c], nkeys,
	    (double)iters / t / 1e6, t / (double)iters * 1e9,
	    (unsigned long long)dagg_nentries(a), (unsigned long long)drops);
	dagg_set_destroy(set);
	free(pool);
}

int
main(int argc, char **argv)
{
	int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
	uint64_t iters = quick ? 5000000 : 30000000;
	size_t sizes[2] = { 1000, 1000000 };

	for (int c = B_COUNT_INT; c <= B_COUNT_STR3; c++) {
		for (int k = 0; k < 2; k++)
			run((enum bcase)c, sizes[k], iters);
	}
	return 0;
}
