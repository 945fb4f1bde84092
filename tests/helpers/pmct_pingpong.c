/*
 * pmct_pingpong — context-switch workload: two processes pass one byte
 * back and forth over pipes N times (default 20000), so each round trip
 * is two switches away from and back to each side.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	int ab[2], ba[2];
	char c = 'x';
	if (pipe(ab) < 0 || pipe(ba) < 0)
		return 1;
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	for (long i = 0; i < n; i++) {
		if (pid == 0) {
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		} else if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1) {
			return 1;
		}
	}
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return 0;
}
