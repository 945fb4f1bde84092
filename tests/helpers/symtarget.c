/*
 * symtarget — a process with known functions, for the symbolizer tests.
 *
 * Prints "NAME 0xADDR" for each function below (and "inline_ra", the
 * return address of a call made from inside the always-inlined
 * st_inline_sq, so addr - 1 lies in that inlined scope), the line number
 * where st_static_work is defined, then "ready".  Without arguments it then
 * waits for EOF on stdin and exits 0; "spin N" instead keeps calling the
 * functions for N seconds (for sampling runs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void *volatile st_ra;
static volatile long st_sink;

__attribute__((noinline)) void
st_leaf(void)
{
	st_ra = __builtin_return_address(0);
	__asm__ volatile("" ::: "memory");
}

static inline __attribute__((always_inline)) long
st_inline_sq(long x)
{
	st_leaf();
	return x * x;
}

__attribute__((noinline)) long
st_outer(long x)
{
	return st_inline_sq(x) + 1;
}

static const int st_static_line = __LINE__ + 2;
static __attribute__((noinline)) long
st_static_work(long n)
{
	long acc = 0;

	for (long i = 0; i < n; i++)
		acc += (i ^ st_sink) * 3;
	return acc;
}

__attribute__((noinline)) long
st_global_fn(long n)
{
	return st_static_work(n) + st_outer(n);
}

static void
st_spin(double seconds)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		st_sink += st_global_fn(100000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
}

int
main(int argc, char **argv)
{
	char buf[256];

	st_sink = st_global_fn(10);
	printf("st_static_work %p\n", (void *)st_static_work);
	printf("st_global_fn %p\n", (void *)st_global_fn);
	printf("st_outer %p\n", (void *)st_outer);
	printf("st_leaf %p\n", (void *)st_leaf);
	printf("inline_ra %p\n", st_ra);
	printf("st_static_line %d\n", st_static_line);
	printf("ready\n");
	fflush(stdout);
	if (argc > 2 && strcmp(argv[1], "spin") == 0) {
		st_spin(atof(argv[2]));
		return 0;
	}
	while (read(0, buf, sizeof(buf)) > 0)
		;
	return 0;
}
