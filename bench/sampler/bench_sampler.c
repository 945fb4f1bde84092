/*
 * bench_sampler — throughput of sampler/ on its own.
 *
 *   bench_sampler replay FILE      replay a perf.data, aggregate the user
 *                                  part of every callchain (what
 *                                  @[ustack()] = count() keys on), print
 *                                  samples, seconds, samples/s, stacks
 *   bench_sampler profile SECONDS  system-wide cpu-clock at 999 Hz with
 *                                  kernel+user callchains: samples, drops,
 *                                  consumer CPU time
 *   bench_sampler storm SECONDS    system-wide sched:sched_switch for that
 *                                  long with default buffers, counting
 *                                  switches by prev_pid; print events,
 *                                  drops and the consumer's own CPU time
 *
 * Output is "key value" lines for run.sh to pick up.
 */
#include "sampler/sampler.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double
now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double
cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* ---- replay: stack keys in an open-addressing table ---- */

#define NSLOT (1 << 20)

struct agg {
	uint64_t *hash;
	uint64_t *count;
	long samples, stacks;
};

static uint64_t
stack_hash(const struct smp_record *r)
{
	/* The user part follows PERF_CONTEXT_USER; key = pid + those frames. */
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)(uint32_t)r->pid;
	int user = 0;
	for (uint32_t i = 0; i < r->nr_callchain; i++) {
		uint64_t ip = r->callchain[i];
		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			user = ip == (uint64_t)PERF_CONTEXT_USER;
			continue;
		}
		if (user)
			h = (h ^ ip) * 1099511628211ULL;
	}
	return h | 1;
}

static int
agg_cb(void *arg, const struct smp_record *r)
{
	struct agg *a = arg;
	if (r->type != PERF_RECORD_SAMPLE)
		return 0;
	a->samples++;
	uint64_t h = stack_hash(r);
	size_t j = (size_t)(h * 0x9E3779B97F4A7C15ULL >> 44) & (NSLOT - 1);
	while (a->hash[j] && a->hash[j] != h)
		j = (j + 1) & (NSLOT - 1);
	if (!a->hash[j]) {
		a->hash[j] = h;
		a->stacks++;
	}
	a->count[j]++;
	return 0;
}

static int
replay(const char *path)
{
	struct agg a = { calloc(NSLOT, 8), calloc(NSLOT, 8), 0, 0 };
	int err;
	double t0 = now_s(), c0 = cpu_s();
	struct smp_session *s = smp_open_file(path, &err);
	if (!s || !a.hash || !a.count) {
		fprintf(stderr, "bench_sampler: %s\n", smp_errmsg(NULL));
		return 1;
	}
	int n;
	while ((n = smp_poll(s, 0, agg_cb, &a)) > 0)
		;
	smp_flush(s, agg_cb, &a);
	smp_close(s);
	double dt = now_s() - t0;
	if (n < 0)
		return 1;
	printf("samples %ld\nstacks %ld\nseconds %.4f\ncpu %.4f\nrate %.0f\n",
	       a.samples, a.stacks, dt, cpu_s() - c0, (double)a.samples / dt);
	free(a.hash);
	free(a.count);
	return 0;
}

/* ---- storm ---- */

static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct storm {
	long events, lost;
	/* sched_switch payload: prev_comm at 8, prev_pid at 24 (x86-64,
	 * kernels >= 4.x); we key on prev_pid: decode only what we use. */
	long by_pid[1 << 16];
};

static int
storm_cb(void *arg, const struct smp_record *r)
{
	struct storm *st = arg;
	if (r->type == PERF_RECORD_SAMPLE && r->raw && r->raw_size >= 28) {
		int32_t prev_pid;
		memcpy(&prev_pid, (const char *)r->raw + 24, 4);
		st->by_pid[(uint32_t)prev_pid & 0xffff]++;
		st->events++;
	}
	return 0;
}

static int
tp_id(const char *ev)
{
	char path[256];
	int id = -1;
	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/id", ev);
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &id) != 1)
			id = -1;
		fclose(f);
	}
	return id;
}

static int
profile_cb(void *arg, const struct smp_record *r)
{
	struct storm *st = arg;
	if (r->type == PERF_RECORD_SAMPLE) {
		st->events++;
		st->by_pid[(uint32_t)r->pid & 0xffff] += r->nr_callchain;
	}
	return 0;
}

static int
storm(double seconds, int profile)
{
	static struct storm st;
	struct smp_opts o;
	struct smp_event_spec sp;
	int err, id = tp_id("sched/sched_switch");
	memset(&o, 0, sizeof(o));
	memset(&sp, 0, sizeof(sp));
	sp.attr.type = PERF_TYPE_TRACEPOINT;
	sp.attr.config = (uint64_t)id;
	sp.attr.sample_period = 1;
	sp.attr.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TID;
	sp.group_leader = -1;
	sp.name = "sched:sched_switch";
	if (profile) {
		sp.attr.type = PERF_TYPE_SOFTWARE;
		sp.attr.config = PERF_COUNT_SW_CPU_CLOCK;
		sp.attr.freq = 1;
		sp.attr.sample_freq = 999;
		sp.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
		sp.name = "cpu-clock";
		id = 0;
	}
	struct smp_session *s = smp_open_live(&o, &err);
	if (id < 0 || !s || smp_add_event(s, &sp, NULL) || smp_start(s)) {
		fprintf(stderr, "bench_sampler: %s\n", s ? smp_errmsg(s) : smp_errmsg(NULL));
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("ready\n");
	fflush(stdout);
	double t0 = now_s(), c0 = cpu_s();
	while (!stop && now_s() - t0 < seconds)
		if (smp_poll(s, 100, profile ? profile_cb : storm_cb, &st) < 0)
			break;
	smp_poll(s, 0, profile ? profile_cb : storm_cb, &st);
	smp_flush(s, profile ? profile_cb : storm_cb, &st);
	uint32_t cpu[256];
	uint64_t nd[256], drops = 0;
	int n = smp_drops(s, cpu, nd, 256);
	for (int i = 0; i < n; i++)
		drops += nd[i];
	double dt = now_s() - t0, cpu_used = cpu_s() - c0;
	smp_close(s);
	long top = 0;
	for (int p = 0; p < (1 << 16); p++)
		top = st.by_pid[p] > top ? st.by_pid[p] : top;
	printf("events %ld\ndrops %llu\nseconds %.3f\ncpu %.3f\ntop_pid_events %ld\n",
	       st.events, (unsigned long long)drops, dt, cpu_used, top);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "replay"))
		return replay(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "storm"))
		return storm(atof(argv[2]), 0);
	if (argc == 3 && !strcmp(argv[1], "profile"))
		return storm(atof(argv[2]), 1);
	fprintf(stderr, "usage: bench_sampler replay FILE | storm SECONDS | profile SECONDS\n");
	return 2;
}
