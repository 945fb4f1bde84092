/*
 * pagefault: a page-fault storm.
 *
 * Usage: pagefault [PAGES] [CHUNK_MB]   (defaults 600000 pages, 16 MB chunks)
 *
 * Maps an anonymous chunk, writes one byte per page (one minor fault and one
 * zeroed page each), unmaps it, and repeats until PAGES pages were touched.
 * Transparent huge pages are refused for the chunk, otherwise one fault
 * would cover 512 pages and the storm would not be one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Map, fault in every page, unmap; returns 0 or -1 with errno set. */
static int pf_chunk(size_t len, size_t page, long pages)
{
	volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	madvise((void *)p, len, MADV_NOHUGEPAGE);
	for (long i = 0; i < pages; i++)
		p[(size_t)i * page] = (char)i;
	return munmap((void *)p, len);
}

int main(int argc, char **argv)
{
	long total = argc > 1 ? strtol(argv[1], NULL, 0) : 600000;
	long chunk_mb = argc > 2 ? strtol(argv[2], NULL, 0) : 16;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	long per_chunk, done = 0;

	if (total <= 0 || chunk_mb <= 0) {
		fprintf(stderr, "usage: pagefault [PAGES>0] [CHUNK_MB>0]\n");
		return 2;
	}
	per_chunk = (long)((size_t)chunk_mb * 1024 * 1024 / page);
	while (done < total) {
		long n = total - done < per_chunk ? total - done : per_chunk;

		if (pf_chunk((size_t)n * page, page, n) < 0) {
			perror("pagefault: mmap/munmap");
			return 1;
		}
		done += n;
	}
	printf("pagefault: %ld pages touched\n", done);
	return 0;
}
