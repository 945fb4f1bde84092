/*
 * syscalls: a system-call storm.
 *
 * Usage: syscalls [ITERATIONS]   (default 1000000)
 *
 * Each iteration makes two cheap system calls, getppid() and a one-byte
 * pread() from /dev/zero, so the run time is mostly kernel entry and exit:
 * what a raw_syscalls tracepoint (and a syscall provider) taxes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long iters = argc > 1 ? strtol(argv[1], NULL, 0) : 1000000;
	int fd = open("/dev/zero", O_RDONLY);
	long ppid_sum = 0;
	char c;

	if (iters <= 0 || fd < 0) {
		fprintf(stderr, "usage: syscalls [ITERATIONS>0] (needs /dev/zero)\n");
		return 2;
	}
	for (long i = 0; i < iters; i++) {
		/* syscall(), so no libc version can answer from a cache */
		ppid_sum += syscall(SYS_getppid);
		if (pread(fd, &c, 1, 0) != 1) {
			perror("syscalls: pread /dev/zero");
			return 1;
		}
	}
	close(fd);
	printf("syscalls: %ld iterations (ppid sum %ld)\n", iters, ppid_sum);
	return 0;
}
