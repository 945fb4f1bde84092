/*
 * pmct_nap — one long-lived process that naps: N naps (default 10) of
 * MS milliseconds (default 300), for off-CPU and wakeup tests.
 */
#include <stdlib.h>
#include <time.h>

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	long ms = argc > 2 ? atol(argv[2]) : 300;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	for (int i = 0; i < n; i++)
		nanosleep(&ts, NULL);
	return 0;
}
