/*
 * pmct_fault — page-fault workload: maps N fresh pages (default 2000),
 * touches each once (one minor fault per page), unmaps them; then sleeps
 * a little so a tracer sees it alive before it exits.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000;
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (long i = 0; i < n; i++)
		p[i * pg] = 1;
	munmap(p, (size_t)(n * pg));
	usleep(200000);
	return 0;
}
