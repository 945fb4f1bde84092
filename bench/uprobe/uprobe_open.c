/*
 * uprobe_open.c — how long the kernel takes to create uprobe perf events.
 *
 *   uprobe_open FILE N MODE [THREADS] [PID] [tracefs]
 *
 * Opens N uprobes (entry, or every other one a return probe) at the first
 * N function symbols of FILE through the uprobe PMU, and times open,
 * enable, disable and close separately.  MODE: "cpu" opens one fd per
 * online CPU (pid -1, what pmctrace did), "task" one fd per probe with
 * pid=PID (default: our own) and cpu -1.  THREADS > 1 opens (and closes)
 * from that many threads at once.  With "tracefs" (needs PID) the N
 * probes are instead written to uprobe_events as two trace events (entries
 * and returns, each probe appended with id=\\N), and the two are opened
 * for PID: what pmctrace's pid provider does now.
 *
 *   cc -O2 -o uprobe_open uprobe_open.c -lelf -lpthread    (as root)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t offs[200000];
static int noffs, nprobe, ncpu, nthr, task_pid, type, retbit;
static const char *file;
static int *fds;
static int nprobe_fds;
static int nfd_per;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void load_syms(void)
{
	elf_version(EV_CURRENT);
	int fd = open(file, O_RDONLY);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	size_t nph;
	elf_getphdrnum(e, &nph);
	GElf_Phdr ph[32];
	int np = 0;
	for (size_t i = 0; i < nph && np < 32; i++) {
		gelf_getphdr(e, (int)i, &ph[np]);
		if (ph[np].p_type == PT_LOAD && (ph[np].p_flags & PF_X))
			np++;
	}
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		gelf_getshdr(scn, &sh);
		if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize && noffs < 200000; i++) {
			GElf_Sym s;
			gelf_getsym(d, (int)i, &s);
			if (GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_value || !s.st_size)
				continue;
			for (int k = 0; k < np; k++)
				if (s.st_value >= ph[k].p_vaddr && s.st_value < ph[k].p_vaddr + ph[k].p_memsz)
					offs[noffs++] = s.st_value - ph[k].p_vaddr + ph[k].p_offset;
		}
	}
	qsort(offs, (size_t)noffs, sizeof(offs[0]), cmp64);
	int n = 0;
	for (int i = 0; i < noffs; i++)
		if (!n || offs[n - 1] != offs[i])
			offs[n++] = offs[i];
	noffs = n;
}

static int rdint(const char *p)
{
	char b[64] = "";
	FILE *f = fopen(p, "r");
	if (f) { if (!fgets(b, sizeof(b), f)) b[0] = 0; fclose(f); }
	const char *c = strchr(b, ':');
	return atoi(c ? c + 1 : b);
}

static int tfs, tfs_id[2];

static int open_one(int i, int c)
{
	if (tfs) {
		if (i >= 2)
			return -1;
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_TRACEPOINT;
		a.config = (uint64_t)tfs_id[i];
		a.sample_period = 1;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
		a.disabled = 1;
		int fd = (int)syscall(SYS_perf_event_open, &a, task_pid ? task_pid : -1,
		    task_pid ? -1 : c, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "open tracefs event %d: %s\n", i, strerror(errno));
			exit(1);
		}
		return fd;
	}
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (uint32_t)type;
	a.config = (i & 1) ? 1ull << retbit : 0;
	a.config1 = (uint64_t)(uintptr_t)file;
	a.config2 = offs[i];
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.disabled = 1;
	int pid = task_pid ? task_pid : -1;
	int fd = (int)syscall(SYS_perf_event_open, &a, pid, task_pid ? -1 : c, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "open %d cpu %d: %s\n", i, c, strerror(errno));
		exit(1);
	}
	return fd;
}

static void *opener(void *arg)
{
	long t = (long)arg;
	for (int i = (int)t; i < nprobe; i += nthr)
		for (int c = 0; c < nfd_per; c++)
			fds[i * nfd_per + c] = open_one(i, c);
	return NULL;
}

static void *closer(void *arg)
{
	long t = (long)arg;
	for (int i = (int)t; i < nprobe; i += nthr)
		for (int c = 0; c < nfd_per; c++)
			if (fds[i * nfd_per + c] >= 0)
				close(fds[i * nfd_per + c]);
	return NULL;
}

static void run(void *(*fn)(void *))
{
	pthread_t th[256];
	for (long t = 0; t < nthr; t++)
		pthread_create(&th[t], NULL, fn, (void *)t);
	for (int t = 0; t < nthr; t++)
		pthread_join(th[t], NULL);
}

static void ioc_all(unsigned long req)
{
	for (int i = 0; i < nprobe * nfd_per; i++)
		if (fds[i] >= 0)
			ioctl(fds[i], req, 0);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: uprobe_open FILE N cpu|task [THREADS] [PID]\n");
		return 2;
	}
	file = argv[1];
	nprobe = atoi(argv[2]);
	int task = !strcmp(argv[3], "task");
	nthr = argc > 4 ? atoi(argv[4]) : 1;
	task_pid = task ? (argc > 5 ? atoi(argv[5]) : getpid()) : 0;
	ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	nfd_per = task ? 1 : ncpu;
	type = rdint("/sys/bus/event_source/devices/uprobe/type");
	retbit = rdint("/sys/bus/event_source/devices/uprobe/format/retprobe");
	struct rlimit rl;
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	load_syms();
	if (nprobe > noffs)
		nprobe = noffs;
	fds = calloc((size_t)nprobe * (size_t)nfd_per, sizeof(int));
	double tw = now(), tw1 = tw;
	if (argc > 6 && !strcmp(argv[6], "tracefs")) {
		/* every probe appended to two events (entries, returns), created in one write */
		tfs = 1;
		int f = open("/sys/kernel/tracing/uprobe_events", O_WRONLY | O_APPEND);
		char line[4200];
		for (int i = 0; i < nprobe; i++) {
			int n = snprintf(line, sizeof(line), "%c:uprobe_bench/%c %s:0x%llx id=\\%d:u32\n",
			    (i & 1) ? 'r' : 'p', (i & 1) ? 'r' : 'p', file, (unsigned long long)offs[i], i);
			if (write(f, line, (size_t)n) != n) {
				fprintf(stderr, "uprobe_events: %s: %s", strerror(errno), line);
				return 1;
			}
		}
		close(f);
		tfs_id[0] = rdint("/sys/kernel/tracing/events/uprobe_bench/p/id");
		tfs_id[1] = rdint("/sys/kernel/tracing/events/uprobe_bench/r/id");
		tw1 = now();
		nprobe_fds = 2;
	}
	double t0 = now();
	int keep = nprobe;
	if (nprobe_fds)
		nprobe = nprobe_fds;
	run(opener);
	double t1 = now();
	ioc_all(PERF_EVENT_IOC_ENABLE);
	double t2 = now();
	ioc_all(PERF_EVENT_IOC_DISABLE);
	double t3 = now();
	run(closer);
	double t4 = now();
	nprobe = keep;
	if (tfs) {
		int f = open("/sys/kernel/tracing/uprobe_events", O_WRONLY | O_APPEND);
		if (write(f, "-:uprobe_bench/p\n", 17) != 17 || write(f, "-:uprobe_bench/r\n", 17) != 17)
			perror("removing the events");
		close(f);
		printf("tracefs: %d probe lines written in %.3f s, removed in %.3f s\n", nprobe, tw1 - tw, now() - t4);
	}
	printf("%s: %d probes x %d fds (%s, %d threads): open %.3f s (%.2f ms/fd), enable %.3f s, "
	    "disable %.3f s, close %.3f s (%.2f ms/fd)\n", file, nprobe, nfd_per, argv[3], nthr,
	    t1 - t0, (t1 - t0) * 1e3 / (nprobe * nfd_per), t2 - t1, t3 - t2, t4 - t3,
	    (t4 - t3) * 1e3 / (nprobe * nfd_per));
	return 0;
}
