/*
 * pmct_spin — a CPU-bound workload with a known name and known functions,
 * for end-to-end tests: spins in spin_leaf() called from spin_middle() for
 * the number of seconds given (default 3).
 */
#include <stdlib.h>
#include <time.h>

volatile unsigned long spin_sink;

__attribute__((noinline)) static void
spin_leaf(void)
{
	for (int i = 0; i < 100000; i++)
		spin_sink += (unsigned long)i * 7;
}

__attribute__((noinline)) static void
spin_middle(void)
{
	spin_leaf();
}

int
main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3.0;
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		spin_middle();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return 0;
}
