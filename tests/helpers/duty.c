/*
 * duty.c — a duty-cycle workload whose threads report their own CPU time.
 *
 *   duty [THREADS [ROUNDS [ON_US [OFF_US]]]]
 *
 * Each of THREADS threads (default 1) runs ROUNDS rounds (200) of ON_US
 * microseconds of spinning on its own CPU clock (1000) then OFF_US asleep
 * (10000); thread k spins k+1 times ON_US, so the threads differ.  At the
 * end each prints "tid <tid> cpu_ns <CLOCK_THREAD_CPUTIME_ID>", read as
 * the thread's last act, and "rounds <n>" once.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long rounds = 200, on_us = 1000, off_us = 10000;

struct thr {
	int k;
	long tid;
	long long cpu_ns;
};

static long long
thread_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void *
work(void *arg)
{
	struct thr *t = arg;
	struct timespec nap = { off_us / 1000000, (off_us % 1000000) * 1000 };
	t->tid = syscall(SYS_gettid);
	for (long i = 0; i < rounds; i++) {
		long long until = thread_ns() + (long long)on_us * 1000 * (t->k + 1);
		while (thread_ns() < until)
			;
		nanosleep(&nap, NULL);
	}
	t->cpu_ns = thread_ns();
	return NULL;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	if (argc > 2)
		rounds = atol(argv[2]);
	if (argc > 3)
		on_us = atol(argv[3]);
	if (argc > 4)
		off_us = atol(argv[4]);
	if (n < 1 || n > 64 || rounds < 1) {
		fprintf(stderr, "usage: duty [THREADS [ROUNDS [ON_US [OFF_US]]]]\n");
		return 2;
	}
	pthread_t th[64];
	struct thr t[64];
	for (int i = 0; i < n; i++) {
		t[i].k = i;
		pthread_create(&th[i], NULL, work, &t[i]);
	}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < n; i++)
		printf("tid %ld cpu_ns %lld\n", t[i].tid, t[i].cpu_ns);
	printf("rounds %ld\n", rounds);
	return 0;
}
