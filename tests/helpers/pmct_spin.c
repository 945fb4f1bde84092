/*
 * pmct_spin — a CPU-bound workload with a known name and known functions,
 * for end-to-end tests: spins in spin_leaf() called from spin_middle() for
 * the number of seconds given (default 3).  With a second argument
 * "cputime" it prints its own CPU time in ns (getrusage, the kernel's
 * accounting) on stderr at exit, for cross-checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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
	if (argc > 2 && !strcmp(argv[2], "cputime")) {
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		long long ns = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ll +
		    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ll;
		fprintf(stderr, "cputime %lld\n", ns);
	}
	return 0;
}
