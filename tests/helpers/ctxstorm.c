/*
 * ctxstorm — a context-switch storm that counts its own switches.
 *
 * Usage: ctxstorm [ROUND_TRIPS] [CPU]   (defaults 200000, CPU 0)
 *
 * Two threads pinned to one CPU ping-pong a byte over two pipes.  At the
 * end it prints "switches N": the voluntary plus involuntary context
 * switches both threads made (getrusage RUSAGE_THREAD), i.e. how many
 * sched_switch events with one of them as prev a lossless tracer must see
 * (plus one per thread for its exit).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static int ping[2], pong[2];
static long trips;
static int cpu;
static long partner_switches;

static void
pin(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static long
my_switches(void)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

static void *
partner(void *arg)
{
	char c;
	(void)arg;
	pin();
	long base = my_switches();
	for (long i = 0; i < trips; i++)
		if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
			exit(2);
	partner_switches = my_switches() - base;
	return NULL;
}

int
main(int argc, char **argv)
{
	trips = argc > 1 ? atol(argv[1]) : 200000;
	cpu = argc > 2 ? atoi(argv[2]) : 0;
	if (pipe(ping) || pipe(pong))
		return 2;
	pthread_t t;
	pin();
	long base = my_switches();
	if (pthread_create(&t, NULL, partner, NULL))
		return 2;
	char c = 'x';
	for (long i = 0; i < trips; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			return 2;
	long mine = my_switches() - base;
	pthread_join(t, NULL);
	/* pthread_join may itself block once more: count it too. */
	mine = my_switches() - base;
	printf("switches %ld\n", mine + partner_switches);
	return 0;
}
