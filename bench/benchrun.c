/*
 * benchrun: one timed trial of the bench harness.
 *
 *   benchrun [-o FILE] [-e FILE] [-w FILE] [-R SECS] [-T SECS] TRACER... ::: WORKLOAD...
 *   benchrun [-w FILE] ::: WORKLOAD...                     (bare run)
 *   benchrun -f LINE [-o FILE] [-T SECS] CMD...             (startup time)
 *   benchrun -L PERF.DATA                                    (perf's losses)
 *
 * Trial mode starts TRACER (stdout to -o, stderr to -e), waits until it is
 * ready (see bt_wait_ready; at most -R seconds, default 20), runs WORKLOAD
 * (output to -w), then stops the tracer with SIGINT and waits for it,
 * escalating to SIGTERM and SIGKILL only after -T seconds (default 30).  Startup mode runs CMD with stdout and stderr on
 * one pipe (copied to -o) and times the first line equal to LINE; an empty
 * LINE means "time to exit".  -L walks the records of a perf.data file and
 * prints samples=N lost=N lost_records=N (perf record itself does not say).
 *
 * The result is one line of key=value pairs on stdout, for run.sh:
 *   wall=S wl_cpu=S wl_status=exit:N tracer_cpu=S tracer_status=exit:N|signal:N
 *   ready=S|none stop=S note=WORD
 * All times are seconds.  CPU times come from wait4()'s rusage of that child
 * (including any children it waited for), so each tool is charged for its
 * own user+system time, not for the workload's.  benchrun never leaves a
 * child behind: it forwards SIGINT/SIGTERM, and each child gets a parent-death
 * signal in case benchrun itself is killed.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

struct bt_child {
	pid_t		bc_pid;
	int		bc_done;
	int		bc_status;
	struct rusage	bc_ru;
};

struct bt_opts {
	const char	*bo_out;	/* tracer / command stdout */
	const char	*bo_err;	/* tracer stderr */
	const char	*bo_wout;	/* workload stdout+stderr */
	const char	*bo_line;	/* startup mode: the line to wait for */
	double		bo_ready;	/* readiness timeout */
	double		bo_timeout;	/* stop timeout */
	char		**bo_tracer;	/* NULL for a bare run */
	char		**bo_workload;
};

static volatile sig_atomic_t bt_interrupted;

static void bt_on_signal(int sig)
{
	bt_interrupted = sig;
}

static double bt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void bt_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static double bt_ru_cpu(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
}

/* Point fd at FILE (created/truncated), or /dev/null when FILE is NULL. */
static void bt_redirect(int fd, const char *file)
{
	int f = file ? open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644)
		     : open("/dev/null", O_WRONLY);

	if (f < 0) {
		fprintf(stderr, "benchrun: %s: %s\n", file, strerror(errno));
		_exit(126);
	}
	dup2(f, fd);
	close(f);
}

/*
 * Fork and exec ARGV with stdout/stderr as given (same file when ERR is
 * OUT).  DEATHSIG reaches the child if benchrun dies first.  Returns the
 * pid or -errno.
 */
static pid_t bt_spawn(char **argv, const char *out, const char *err, int deathsig)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid > 0)
		return pid;
	prctl(PR_SET_PDEATHSIG, deathsig);
	setpgid(0, 0);	/* its own group, so a stop reaches its children too */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	bt_redirect(STDOUT_FILENO, out);
	if (err && out && strcmp(err, out) == 0)
		dup2(STDOUT_FILENO, STDERR_FILENO);
	else
		bt_redirect(STDERR_FILENO, err);
	execvp(argv[0], argv);
	fprintf(stderr, "benchrun: exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Non-blocking reap; 1 once the child has exited. */
static int bt_poll(struct bt_child *c)
{
	pid_t r;

	if (c->bc_done)
		return 1;
	r = wait4(c->bc_pid, &c->bc_status, WNOHANG, &c->bc_ru);
	if (r == c->bc_pid)
		c->bc_done = 1;
	return c->bc_done;
}

/*
 * Stop a child and its process group: SIGINT, then SIGTERM after TIMEOUT
 * seconds, then SIGKILL after as long again.  Always reaps it; whatever it
 * left behind in its group is killed.  Returns the seconds it took.
 */
static double bt_stop(struct bt_child *c, double timeout)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGKILL };
	double t0 = bt_now();

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]) && !bt_poll(c); i++) {
		double limit = bt_now() + (i == 2 ? 1e9 : timeout);

		kill(-c->bc_pid, sigs[i]);
		while (!bt_poll(c) && bt_now() < limit)
			bt_sleep_ms(5);
	}
	kill(-c->bc_pid, SIGKILL);
	return bt_now() - t0;
}

static void bt_status_text(char *buf, size_t len, int status)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit:%d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "signal:%d", WTERMSIG(status));
	else
		snprintf(buf, len, "unknown");
}

/* Number of perf_event and bpf file descriptors PID holds; -1 if it is gone. */
static int bt_count_trace_fds(pid_t pid)
{
	char path[64], link[128];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL) {
		ssize_t len = readlinkat(dirfd(d), de->d_name, link, sizeof(link) - 1);

		if (len <= 0)
			continue;
		link[len] = '\0';
		if (strstr(link, "perf_event") || strstr(link, "bpf"))
			n++;
	}
	closedir(d);
	return n;
}

/* utime+stime of PID in clock ticks from /proc/PID/stat, or -1. */
static long bt_proc_ticks(pid_t pid)
{
	char path[64], buf[1024];
	unsigned long ut, st;
	const char *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* comm may hold spaces */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
			 &ut, &st) != 2)
		return -1;
	return (long)(ut + st);
}

/*
 * A tracer is ready when it holds at least one perf_event or bpf fd, that
 * count has not changed for 300 ms, and it used under half a CPU over the
 * last 100 ms (so it has finished compiling and synthesizing).  A tracer
 * that keeps a CPU busy on purpose (busy-polling its rings) is taken as
 * ready once its fds have been stable for 3 s.  Returns the seconds waited,
 * -1 on timeout, -2 if the tracer exited first.
 */
static double bt_wait_ready(struct bt_child *c, double timeout)
{
	long hz = sysconf(_SC_CLK_TCK);
	double t0 = bt_now(), stable_since = t0;
	long last_ticks = -1;
	int last = -1;

	while (bt_now() - t0 < timeout && !bt_interrupted) {
		int n = bt_count_trace_fds(c->bc_pid);
		long ticks = bt_proc_ticks(c->bc_pid);
		int idle = last_ticks >= 0 && ticks >= 0 &&
			   (double)(ticks - last_ticks) / (double)hz < 0.05;

		if (bt_poll(c))
			return -2;
		if (n != last) {
			last = n;
			stable_since = bt_now();
		} else if (n > 0 && bt_now() - stable_since >= (idle ? 0.3 : 3.0)) {
			return bt_now() - t0;
		}
		last_ticks = ticks;
		bt_sleep_ms(100);
	}
	return -1;
}

/* Run the workload to completion; fills WL and returns its wall time. */
static double bt_run_workload(struct bt_opts *o, struct bt_child *wl)
{
	double t0 = bt_now();

	wl->bc_pid = bt_spawn(o->bo_workload, o->bo_wout, o->bo_wout, SIGKILL);
	if (wl->bc_pid < 0) {
		fprintf(stderr, "benchrun: fork: %s\n", strerror((int)-wl->bc_pid));
		return -1;
	}
	while (!bt_poll(wl)) {
		if (bt_interrupted) {
			bt_stop(wl, 2);
			break;
		}
		/* Blocking wait; a signal interrupts it so the loop can stop. */
		if (wait4(wl->bc_pid, &wl->bc_status, 0, &wl->bc_ru) == wl->bc_pid)
			wl->bc_done = 1;
	}
	return bt_now() - t0;
}

static int bt_trial(struct bt_opts *o)
{
	struct bt_child tr = { 0 }, wl = { 0 };
	char wst[32] = "none", tst[32] = "none";
	double ready = 0, wall = -1, stop = 0;
	const char *note = "ok";

	if (o->bo_tracer) {
		tr.bc_pid = bt_spawn(o->bo_tracer, o->bo_out, o->bo_err, SIGINT);
		if (tr.bc_pid < 0) {
			fprintf(stderr, "benchrun: fork: %s\n", strerror((int)-tr.bc_pid));
			return 1;
		}
		ready = bt_wait_ready(&tr, o->bo_ready);
		if (ready == -2)
			note = "tracer-exited-early";
		else if (ready < 0)
			note = bt_interrupted ? "interrupted" : "tracer-not-ready";
	}
	if (ready >= 0 && !bt_interrupted) {
		wall = bt_run_workload(o, &wl);
		if (o->bo_tracer && bt_poll(&tr))
			note = "tracer-exited-during-run";
	}
	if (o->bo_tracer)
		stop = bt_stop(&tr, o->bo_timeout);
	if (wl.bc_done)
		bt_status_text(wst, sizeof(wst), wl.bc_status);
	if (tr.bc_done)
		bt_status_text(tst, sizeof(tst), tr.bc_status);
	if (bt_interrupted)
		note = "interrupted";
	printf("wall=%.6f wl_cpu=%.6f wl_status=%s tracer_cpu=%.6f tracer_status=%s "
	       "ready=%s%.3f stop=%.3f note=%s\n",
	       wall, wl.bc_done ? bt_ru_cpu(&wl.bc_ru) : 0.0, wst,
	       tr.bc_done ? bt_ru_cpu(&tr.bc_ru) : 0.0, tst,
	       ready < 0 ? "none:" : "", ready, stop, note);
	return bt_interrupted ? 130 : 0;
}

/* Line assembly for startup mode: bytes arrive in any split. */
struct bt_lines {
	char	bl_buf[4096];
	size_t	bl_have;
};

/*
 * Append N bytes just read into bl_buf + bl_have and consume every whole
 * line; returns 1 when one of them equals WANT.
 */
static int bt_lines_feed(struct bt_lines *l, size_t n, const char *want)
{
	int hit = 0;
	char *nl;

	l->bl_have += n;
	l->bl_buf[l->bl_have] = '\0';
	while ((nl = strchr(l->bl_buf, '\n')) != NULL) {
		*nl = '\0';
		hit |= want[0] && strcmp(l->bl_buf, want) == 0;
		l->bl_have -= (size_t)(nl + 1 - l->bl_buf);
		memmove(l->bl_buf, nl + 1, l->bl_have + 1);
	}
	if (l->bl_have == sizeof(l->bl_buf) - 1)
		l->bl_have = 0;	/* an over-long line: drop it */
	return hit;
}

/*
 * Read FD until EOF or until TIMEOUT seconds after T0, copying to COPY and
 * returning the time the line WANT first appeared (-1 if it never did).
 */
static double bt_watch_output(int fd, FILE *copy, const char *want, double t0,
			      double timeout)
{
	struct bt_lines l = { .bl_have = 0 };
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	double first = -1;

	while (!bt_interrupted && bt_now() - t0 < timeout) {
		ssize_t n;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(fd, l.bl_buf + l.bl_have, sizeof(l.bl_buf) - 1 - l.bl_have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (copy)
			fwrite(l.bl_buf + l.bl_have, 1, (size_t)n, copy);
		if (bt_lines_feed(&l, (size_t)n, want) && first < 0)
			first = bt_now() - t0;
	}
	return first;
}

/*
 * Startup mode: time until the line LINE appears on CMD's stdout or stderr
 * (or until CMD exits, when LINE is "").  A command still running after
 * -T seconds is stopped like a tracer.
 */
static int bt_startup(struct bt_opts *o)
{
	struct bt_child c = { 0 };
	double t0 = bt_now(), first;
	char st[32] = "none";
	FILE *copy = o->bo_out ? fopen(o->bo_out, "w") : NULL;
	int pfd[2];

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return 1;
	c.bc_pid = fork();
	if (c.bc_pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGINT);
		setpgid(0, 0);
		dup2(pfd[1], STDOUT_FILENO);
		dup2(pfd[1], STDERR_FILENO);
		execvp(o->bo_tracer[0], o->bo_tracer);
		fprintf(stderr, "benchrun: exec %s: %s\n", o->bo_tracer[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	if (c.bc_pid < 0)
		return 1;
	first = bt_watch_output(pfd[0], copy, o->bo_line, t0, o->bo_timeout);
	close(pfd[0]);
	if (copy)
		fclose(copy);
	bt_stop(&c, o->bo_timeout);
	bt_status_text(st, sizeof(st), c.bc_status);
	printf("first=%s%.6f total=%.6f cpu=%.6f status=%s\n",
	       first < 0 && o->bo_line[0] ? "none:" : "",
	       o->bo_line[0] ? first : bt_now() - t0, bt_now() - t0,
	       bt_ru_cpu(&c.bc_ru), st);
	return 0;
}

/*
 * perf.data (file mode): a header whose data section descriptor sits at
 * byte 40, then records that each start with {u32 type; u16 misc; u16 size}.
 * Pipe mode: a 16-byte header, then records to the end of the file.
 * PERF_RECORD_LOST (2) carries {u64 id; u64 lost}, PERF_RECORD_LOST_SAMPLES
 * (13) carries {u64 lost}, PERF_RECORD_SAMPLE is 9.
 */
enum { BT_REC_LOST = 2, BT_REC_SAMPLE = 9, BT_REC_LOST_SAMPLES = 13 };

static int bt_perf_lost(const char *file)
{
	unsigned long long samples = 0, lost = 0, lost_recs = 0, off, end, hdr[7];
	unsigned char rec[24];
	FILE *f = fopen(file, "rb");

	if (!f || fread(hdr, sizeof(hdr), 1, f) != 1 ||
	    memcmp(hdr, "PERFILE2", 8) != 0) {
		printf("error=unreadable-perf-data\n");
		if (f)
			fclose(f);
		return 1;
	}
	/* Pipe mode has a 16-byte header and records up to the end of file. */
	off = hdr[1] == 16 ? 16 : hdr[5];
	end = hdr[1] == 16 ? ~0ull : hdr[5] + hdr[6];
	while (off + 8 <= end && fseeko(f, (off_t)off, SEEK_SET) == 0 &&
	       fread(rec, 1, sizeof(rec), f) >= 8) {
		unsigned int type, size;
		unsigned long long v;

		memcpy(&type, rec, 4);
		size = (unsigned int)rec[6] | (unsigned int)rec[7] << 8;
		if (size < 8)
			break;	/* corrupt: stop rather than loop */
		if (type == BT_REC_SAMPLE)
			samples++;
		if (type == BT_REC_LOST || type == BT_REC_LOST_SAMPLES) {
			memcpy(&v, rec + (type == BT_REC_LOST ? 16 : 8), 8);
			lost += v;
			lost_recs++;
		}
		off += size;
	}
	fclose(f);
	printf("samples=%llu lost=%llu lost_records=%llu\n", samples, lost, lost_recs);
	return 0;
}

static int bt_usage(void)
{
	fprintf(stderr,
		"usage: benchrun [-o F] [-e F] [-w F] [-R SECS] [-T SECS] [TRACER...] ::: WORKLOAD...\n"
		"       benchrun -f LINE [-o F] [-T SECS] CMD...\n"
		"       benchrun -L PERF.DATA\n");
	return 2;
}

/* Split argv at ":::" into tracer and workload; NULL tracer when empty. */
static int bt_split(struct bt_opts *o, char **argv, int argc)
{
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], ":::") != 0)
			continue;
		argv[i] = NULL;
		o->bo_tracer = i > 0 ? argv : NULL;
		o->bo_workload = argv + i + 1;
		return argv[i + 1] ? 0 : -1;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct bt_opts o = { .bo_ready = 20, .bo_timeout = 30 };
	struct sigaction sa = { .sa_handler = bt_on_signal };
	int opt;

	while ((opt = getopt(argc, argv, "+o:e:w:f:R:T:L:")) != -1) {
		switch (opt) {
		case 'o': o.bo_out = optarg; break;
		case 'e': o.bo_err = optarg; break;
		case 'w': o.bo_wout = optarg; break;
		case 'f': o.bo_line = optarg; break;
		case 'R': o.bo_ready = atof(optarg); break;
		case 'T': o.bo_timeout = atof(optarg); break;
		case 'L': return bt_perf_lost(optarg);
		default: return bt_usage();
		}
	}
	/* No SA_RESTART: a signal must break the blocking waits. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (o.bo_line) {
		if (optind >= argc)
			return bt_usage();
		o.bo_tracer = argv + optind;
		return bt_startup(&o);
	}
	if (bt_split(&o, argv + optind, argc - optind) < 0)
		return bt_usage();
	return bt_trial(&o);
}
