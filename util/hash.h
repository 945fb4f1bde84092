/*
 * util/hash.h — the one 64-bit hash mix every hash table in pmctrace uses
 * (MurmurHash3's fmix64 finalizer: every input bit flips each output bit
 * with probability near 1/2, so a power-of-two table can take the low
 * bits).  Header-only and below every module: the sampler's id map, the
 * D engine's dynamic variables and the aggregations include it, and it
 * includes nothing of theirs.
 */
#ifndef PMCTRACE_UTIL_HASH_H
#define PMCTRACE_UTIL_HASH_H

#include <stdint.h>

static inline uint64_t
hash_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

#endif
