/*
 * cpu_tree: a CPU-bound call tree with a fixed amount of work.
 *
 * Usage: cpu_tree [ROUNDS]   (default 400)
 *
 * Each round walks a binary call tree of depth TREE_DEPTH through a handful
 * of distinct, non-inlined functions, so a profiler sees deep, varied user
 * stacks (built with -fno-omit-frame-pointer so frame-pointer unwinders work).
 * The leaves do integer mixing that the compiler cannot fold away; the final
 * checksum is printed so the work is observable.  No syscalls in the loop:
 * any slowdown comes from the tracer's interrupts and its competition for CPUs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TREE_DEPTH 14
#define LEAF_ITERS 600

typedef uint64_t (*ct_node_fn)(uint64_t seed, int depth);

static uint64_t ct_walk(uint64_t seed, int depth);

/* The leaf: a xorshift mix whose result feeds the checksum. */
static __attribute__((noinline)) uint64_t ct_leaf(uint64_t x)
{
	for (int i = 0; i < LEAF_ITERS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

/* Four interior shapes, so stacks differ in their function names. */
static __attribute__((noinline)) uint64_t ct_alpha(uint64_t s, int d)
{
	return ct_walk(s * 3 + 1, d) ^ ct_walk(s + 7, d);
}

static __attribute__((noinline)) uint64_t ct_beta(uint64_t s, int d)
{
	return ct_walk(s ^ 0x9e3779b97f4a7c15ull, d) + ct_walk(s + 11, d);
}

static __attribute__((noinline)) uint64_t ct_gamma(uint64_t s, int d)
{
	return ct_walk(s + 13, d) - ct_walk(s * 5, d);
}

static __attribute__((noinline)) uint64_t ct_delta(uint64_t s, int d)
{
	return ct_walk(s >> 1, d) ^ (ct_walk(s + 17, d) << 1);
}

static const ct_node_fn ct_shapes[4] = { ct_alpha, ct_beta, ct_gamma, ct_delta };

/* One level down: the seed and depth choose the next function. */
static __attribute__((noinline)) uint64_t ct_walk(uint64_t seed, int depth)
{
	if (depth == 0)
		return ct_leaf(seed | 1);
	return ct_shapes[(seed + (uint64_t)depth) & 3](seed, depth - 1);
}

static __attribute__((noinline)) uint64_t ct_round(uint64_t seed)
{
	return ct_walk(seed, TREE_DEPTH);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 0) : 400;
	uint64_t sum = 0;

	if (rounds <= 0) {
		fprintf(stderr, "usage: cpu_tree [ROUNDS>0]\n");
		return 2;
	}
	for (long r = 0; r < rounds; r++)
		sum += ct_round((uint64_t)r * 2654435761u + 1);
	printf("cpu_tree: %ld rounds, checksum %016llx\n", rounds,
	       (unsigned long long)sum);
	return 0;
}
