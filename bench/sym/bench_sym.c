/*
 * bench_sym.c — symbolizer throughput, side by side with eu-addr2line.
 *
 * usage: bench_sym SYMTARGET [quick]
 *
 * Starts SYMTARGET (tests/helpers/symtarget: debug info, known functions),
 * draws N user addresses from the executable mappings of its libc (90%) and
 * of itself (10%), and N kernel addresses from the core kernel's text
 * (_stext.._etext).  Each set is resolved twice with one session: the
 * first pass reads the binaries and fills the caches, the second is the
 * cache speed.  eu-addr2line -f -p PID gets the first M of the same user
 * addresses in the same run (it also prints source lines and cannot be
 * told not to; it is far too slow for all N) and the ratio is of rates.
 * Each measurement is the best of BS_REPS runs (fresh sessions): the
 * 2-core VM is shared, and the slow outliers are other people's work.
 * Output: "RESULT sym: ..." lines (bench/README.md).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "symbolizer/symbolizer.h"

#define BS_REPS	3

struct range {
	uint64_t lo, hi;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t
rnd(uint64_t *st)
{
	uint64_t x = *st;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *st = x;
}

/* Start the target; returns its pid and the write end of its stdin. */
static pid_t
start_target(const char *prog, int *in_fd)
{
	int in[2], out[2];
	char line[256];
	pid_t pid;
	FILE *f;

	if (pipe(in) < 0 || pipe(out) < 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execl(prog, prog, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	*in_fd = in[1];
	if ((f = fdopen(out[0], "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) && strncmp(line, "ready", 5) != 0)
		;
	fclose(f);
	return pid;
}

/* The executable mapping of the file whose path contains name. */
static int
exec_range(pid_t pid, const char *name, struct range *r)
{
	char path[64], line[1024];
	unsigned long long lo, hi;
	char perms[8];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -errno;
	r->lo = r->hi = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx %7s", &lo, &hi, perms) == 3 &&
		    perms[2] == 'x' && strstr(line, name)) {
			r->lo = lo;
			r->hi = hi;
			break;
		}
	fclose(f);
	return r->hi ? 0 : -ENOENT;
}

static int
kernel_text(struct range *r)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], type;
	unsigned long long a;

	r->lo = r->hi = 0;
	if (f == NULL)
		return -errno;
	while (fgets(line, sizeof(line), f) && !(r->lo && r->hi))
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3) {
			if (!strcmp(name, "_stext"))
				r->lo = a;
			else if (!strcmp(name, "_etext"))
				r->hi = a;
		}
	fclose(f);
	return r->lo && r->hi > r->lo ? 0 : -ENOENT;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static size_t
distinct(const uint64_t *v, size_t n)
{
	uint64_t *c = malloc(n * sizeof(*c));
	size_t d = 0;

	if (c == NULL)
		return 0;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_u64);
	for (size_t i = 0; i < n; i++)
		d += (i == 0 || c[i] != c[i - 1]);
	free(c);
	return d;
}

/* One pass; returns the seconds taken, counts frames with a function. */
static double
pass(struct sym_session *s, pid_t pid, const uint64_t *v, size_t n, size_t *named)
{
	char buf[512];
	double t0 = now();

	*named = 0;
	for (size_t i = 0; i < n; i++) {
		int r = pid ? sym_user(s, pid, v[i], SYM_FULL, buf, sizeof(buf))
		    : sym_kernel(s, v[i], SYM_FULL, buf, sizeof(buf));
		if (r > 0 && strstr(buf, "`0x") == NULL)
			(*named)++;
	}
	return now() - t0;
}

/* eu-addr2line -f -p PID over the first m addresses; its seconds, or -1. */
static double
run_addr2line(pid_t pid, const uint64_t *v, size_t m, const char *kernel)
{
	char in[] = "/tmp/bench_sym.XXXXXX", cmd[256];
	int fd = mkstemp(in), rc;
	FILE *f;
	double t0;

	if (fd < 0 || (f = fdopen(fd, "w")) == NULL)
		return -1;
	for (size_t i = 0; i < m; i++)
		fprintf(f, "0x%llx\n", (unsigned long long)v[i]);
	fclose(f);
	if (kernel)
		snprintf(cmd, sizeof(cmd), "eu-addr2line -f -k < %s 2>/dev/null | "
		    "grep -qv '^?\?'", in);
	else
		snprintf(cmd, sizeof(cmd), "eu-addr2line -f -p %d < %s > /dev/null",
		    (int)pid, in);
	t0 = now();
	rc = system(cmd);
	t0 = now() - t0;
	unlink(in);
	return WIFEXITED(rc) && WEXITSTATUS(rc) == 0 ? t0 : -1;
}

/* Best of BS_REPS: a fresh session's first pass, then its second. */
static void
passes(pid_t pid, const uint64_t *v, size_t n, double *t1, double *t2,
    size_t *named, const char **err)
{
	static char msg[512];
	size_t nm2;

	*t1 = *t2 = 1e30;
	*err = NULL;
	for (int r = 0; r < BS_REPS; r++) {
		struct sym_session *s = sym_open(NULL);
		double a, b;
		if (s == NULL)
			return;
		a = pass(s, pid, v, n, named);
		b = pass(s, pid, v, n, &nm2);
		*t1 = a < *t1 ? a : *t1;
		*t2 = b < *t2 ? b : *t2;
		if (sym_errmsg(s)) {
			snprintf(msg, sizeof(msg), "%s", sym_errmsg(s));
			*err = msg;
		}
		sym_close(s);
	}
}

static void
report(const char *what, size_t n, size_t nd, double t1, size_t named, double t2)
{
	printf("RESULT sym: %s %zu addrs (%zu distinct, %.1f%% named)  "
	    "first pass %.2f M addr/s  second pass (cache) %.2f M addr/s\n",
	    what, n, nd, 100.0 * (double)named / (double)n,
	    (double)n / t1 / 1e6, (double)n / t2 / 1e6);
}

static int
bench_user(const char *prog, size_t n, size_t m)
{
	struct range libc, self;
	int in;
	pid_t pid = start_target(prog, &in);
	uint64_t *v = malloc(n * sizeof(*v)), st = 88172645463325252ull;
	double t1, t2, tc, tc2, ta;
	size_t named, named2;
	const char *err;

	if (pid < 0 || v == NULL ||
	    exec_range(pid, "libc.so", &libc) < 0 ||
	    exec_range(pid, strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog, &self) < 0) {
		fprintf(stderr, "bench_sym: cannot start %s or read its maps\n", prog);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct range *r = rnd(&st) % 10 ? &libc : &self;
		v[i] = r->lo + rnd(&st) % (r->hi - r->lo);
	}
	passes(pid, v, n, &t1, &t2, &named, &err);
	report("user (libc + symtarget)", n, distinct(v, n), t1, named, t2);
	passes(pid, v, m, &tc, &tc2, &named2, &err);
	ta = run_addr2line(pid, v, m, NULL);
	if (ta > 0)
		printf("RESULT sym: user first %zu addrs: pmctrace %.0f addr/s (first pass)  "
		    "eu-addr2line -f %.0f addr/s  = %.1fx\n", m, (double)m / tc,
		    (double)m / ta, ta / tc);
	else
		printf("RESULT sym: eu-addr2line n/a (not installed or failed)\n");
	close(in);
	waitpid(pid, NULL, 0);
	free(v);
	return 0;
}

static int
bench_kernel(size_t n)
{
	struct range kt;
	uint64_t *v = malloc(n * sizeof(*v)), st = 2463534242ull;
	double t1, t2;
	size_t named;
	const char *err;

	if (v == NULL || kernel_text(&kt) < 0) {
		printf("RESULT sym: kernel n/a (no _stext/_etext in /proc/kallsyms)\n");
		free(v);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = kt.lo + rnd(&st) % (kt.hi - kt.lo);
	passes(0, v, n, &t1, &t2, &named, &err);
	if (named == 0 && err)
		printf("RESULT sym: kernel n/a (%s)\n", err);
	else
		report("kernel text", n, distinct(v, n), t1, named, t2);
	if (run_addr2line(0, v, 16, "kernel") < 0)
		printf("RESULT sym: kernel eu-addr2line -k n/a (it finds no vmlinux or "
		    "modules for this kernel and prints ?\?)\n");
	free(v);
	return 0;
}

int
main(int argc, char **argv)
{
	int quick = argc > 2 && strcmp(argv[2], "quick") == 0;
	size_t n = quick ? 100000 : 1000000, m = quick ? 3000 : 20000;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_sym SYMTARGET [quick]\n");
		return 2;
	}
	if (bench_user(argv[1], n, m))
		return 1;
	return bench_kernel(n);
}
