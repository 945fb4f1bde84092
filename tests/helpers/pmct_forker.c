/*
 * pmct_forker — forks N children (default 30000) that exit at once, one
 * after another, then prints "done N" (for memory tests: a tracer's state
 * per process seen must not grow with N).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 30000, done = 0;
	for (long i = 0; i < n; i++) {
		pid_t p = fork();
		if (p == 0)
			_exit(0);
		if (p > 0 && waitpid(p, NULL, 0) == p)
			done++;
	}
	printf("done %ld\n", done);
	return done == n ? 0 : 1;
}
