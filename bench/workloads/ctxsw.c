/*
 * ctxsw: a context-switch storm.
 *
 * Usage: ctxsw [ROUND_TRIPS] [CPU]   (defaults 400000, CPU 0)
 *
 * Two threads pinned to the same CPU ping-pong one byte over two pipes.
 * Every round trip blocks each thread once, so the CPU switches twice per
 * round trip and does little else: the run time is dominated by the
 * scheduler, which is what a sched_switch tracer taxes.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cs_ctx {
	int	cs_ping[2];	/* main -> partner */
	int	cs_pong[2];	/* partner -> main */
	long	cs_trips;
};

/* Read or write exactly one byte; a short transfer here is a broken pipe. */
static int cs_xfer(int fd, int writing)
{
	char c = 'x';
	ssize_t n;

	do
		n = writing ? write(fd, &c, 1) : read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

static void *cs_partner(void *arg)
{
	struct cs_ctx *c = arg;

	for (long i = 0; i < c->cs_trips; i++)
		if (cs_xfer(c->cs_ping[0], 0) || cs_xfer(c->cs_pong[1], 1))
			return (void *)1;
	return NULL;
}

/* Pin the calling thread; threads created afterwards inherit the mask. */
static int cs_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int main(int argc, char **argv)
{
	struct cs_ctx c = { .cs_trips = argc > 1 ? strtol(argv[1], NULL, 0) : 400000 };
	int cpu = argc > 2 ? atoi(argv[2]) : 0;
	pthread_t t;
	void *ret;
	int err;

	if (c.cs_trips <= 0) {
		fprintf(stderr, "usage: ctxsw [ROUND_TRIPS>0] [CPU]\n");
		return 2;
	}
	if (cs_pin(cpu) < 0) {
		fprintf(stderr, "ctxsw: sched_setaffinity cpu %d: %s\n", cpu, strerror(errno));
		return 1;
	}
	if (pipe(c.cs_ping) < 0 || pipe(c.cs_pong) < 0) {
		perror("ctxsw: pipe");
		return 1;
	}
	err = pthread_create(&t, NULL, cs_partner, &c);
	if (err) {
		fprintf(stderr, "ctxsw: pthread_create: %s\n", strerror(err));
		return 1;
	}
	for (long i = 0; i < c.cs_trips; i++)
		if (cs_xfer(c.cs_ping[1], 1) || cs_xfer(c.cs_pong[0], 0)) {
			fprintf(stderr, "ctxsw: pipe transfer failed at trip %ld\n", i);
			return 1;
		}
	pthread_join(t, &ret);
	if (ret) {
		fprintf(stderr, "ctxsw: partner failed\n");
		return 1;
	}
	printf("ctxsw: %ld round trips on cpu %d\n", c.cs_trips, cpu);
	return 0;
}
