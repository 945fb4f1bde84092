/*
 * compile.c — turn -n/-s/-P/-m/-f into D text, run cpp for -C, compile,
 * and print DTrace's "description '...' matched N probes" lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_impl.h"

/* Set by main()'s SIGINT handler; read by the run loop and while cpp
 * runs.  Defined in the lowest file that reads it (run.c calls into
 * this one), so the two files call one way. */
volatile sig_atomic_t cli_interrupted;

/* A D program is text: anything bigger is a mistake (-s /dev/zero). */
#define CLI_MAX_SCRIPT (16u << 20)

/* The script's text; NULL with *errp: EISDIR for a directory, EFBIG past
 * CLI_MAX_SCRIPT, EINTR when ^C or SIGTERM came while reading (a slow pipe
 * or terminal: the first signal is honoured here too). */
static char *
cli_read_file(const char *path, int *errp)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	struct stat st;
	if (fd < 0 || (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))) {
		*errp = fd < 0 ? -errno : -EISDIR;
		if (fd > 0)
			close(fd);
		return NULL;
	}
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	int err = buf ? 0 : -ENOMEM;
	while (!err) {
		ssize_t n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR && !cli_interrupted)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : 0;
			break;
		}
		len += (size_t)n;
		if (len > CLI_MAX_SCRIPT)
			err = -EFBIG;
		else if (len + 1 == cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb)
				err = -ENOMEM;
			else
				buf = nb;
		}
	}
	if (fd > 0)
		close(fd);
	if (err) {
		free(buf);
		*errp = err;
		return NULL;
	}
	buf[len] = '\0';
	if (strlen(buf) != len) {
		/* everything after a NUL byte would be silently ignored */
		free(buf);
		*errp = -EILSEQ;
		return NULL;
	}
	return buf;
}

/* Run cpp over text (named file for its line markers); returns new text.
 * cpp reads the text from a memfd by its /proc path: no temporary file is
 * left behind however pmctrace ends. */
static char *
cli_cpp(const struct cli_opts *o, const char *text, const char *file, int *errp)
{
	char tmpl[64];
	int fd = memfd_create("pmctrace-cpp", 0);
	if (fd < 0) {
		*errp = -errno;
		return NULL;
	}
	snprintf(tmpl, sizeof(tmpl), "/proc/self/fd/%d", fd);
	size_t len = strlen(text);
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		*errp = -EIO;
		return NULL;
	}
	const char *argv[80];
	int n = 0;
	argv[n++] = "cpp";
	argv[n++] = "-undef";
	argv[n++] = "-D__linux";
	argv[n++] = "-D__pmctrace";
	for (int i = 0; i < o->ncpp_args; i++)
		argv[n++] = o->cpp_args[i];
	argv[n++] = tmpl;
	argv[n] = NULL;
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		close(fd);
		*errp = -errno;
		return NULL;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 1);
		/* cpp (and its cc1) must not outlive a killed pmctrace */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execvp("cpp", (char *const *)argv);
		_exit(127);
	}
	close(pfd[1]);
	FILE *in = fdopen(pfd[0], "r");
	size_t cap = len + 4096, got = 0, r;
	char *out = malloc(cap);
	while (in && out && (r = fread(out + got, 1, cap - got - 1, in)) > 0) {
		got += r;
		if (got + 1 == cap) {
			char *no = realloc(out, cap *= 2);
			if (!no)
				free(out);
			out = no;
		}
	}
	if (in)
		fclose(in);
	int st = 127 << 8;	/* fork failed: as exec failing */
	if (pid > 0)
		waitpid(pid, &st, 0);
	close(fd);
	if (!out || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		free(out);
		*errp = -EINVAL;
		return NULL;
	}
	out[got] = '\0';
	/* cpp names the temp file in its line markers; name the script. */
	char *fixed = cli_replace_all(out, tmpl, file ? file : "<stdin>");
	free(out);
	if (!fixed)
		*errp = -ENOMEM;
	return fixed;
}

char *
cli_replace_all(const char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0;
	for (const char *p = s; (p = strstr(p, from)); p += fl)
		n++;
	char *out = malloc(strlen(s) + n * (tl > fl ? tl - fl : 0) + 1);
	if (!out)
		return NULL;
	char *d = out;
	for (const char *p = s, *q; ; p = q + fl) {
		q = strstr(p, from);
		size_t k = q ? (size_t)(q - p) : strlen(p);
		memcpy(d, p, k);
		d += k;
		if (!q)
			break;
		memcpy(d, to, tl);
		d += tl;
	}
	*d = '\0';
	return out;
}

/* -P prov / -m mod / -f func: a description with the right fields set. */
static char *
cli_desc_text(const struct cli_prog *p)
{
	const char *sep = strpbrk(p->arg, "{/");
	size_t head = sep ? (size_t)(sep - p->arg) : strlen(p->arg);
	const char *prefix = p->kind == CLI_PROG_P ? "" : p->kind == CLI_PROG_M ? ":" : "::";
	const char *suffix = p->kind == CLI_PROG_P ? ":::" : p->kind == CLI_PROG_M ? "::" : ":";
	char *t = malloc(strlen(p->arg) + 8);
	if (t)
		sprintf(t, "%s%.*s%s %s", prefix, (int)head, p->arg, suffix, p->arg + head);
	return t;
}

struct cli_count {
	int seen, skip, total;
};

static void
cli_count_cb(void *arg, const char *desc, int n)
{
	struct cli_count *c = arg;
	(void)desc;
	if (c->seen++ >= c->skip)
		c->total += n;
}

static int
cli_compile_one(struct cli_ctx *cx, const struct cli_prog *p, int *ndesc, int *nmatched)
{
	const struct cli_opts *o = cx->opts;
	int err = 0;
	char *text = p->kind == CLI_PROG_S ? cli_read_file(p->arg, &err) :
	    p->kind == CLI_PROG_N ? strdup(p->arg) : cli_desc_text(p);
	if (!text) {
		if (p->kind == CLI_PROG_S)
			fprintf(stderr, "%s: failed to open %s: %s\n", o->progname, p->arg,
			    err == -EFBIG ? "larger than a D program may be (16 MiB)" :
			    err == -EILSEQ ? "a NUL byte in the program text" : strerror(-err));
		return -1;
	}
	if (o->cpp) {
		char *pp = cli_cpp(o, text, p->kind == CLI_PROG_S ? p->arg : NULL, &err);
		free(text);
		if (!pp) {
			fprintf(stderr, "%s: failed to preprocess %s\n", o->progname,
			    p->kind == CLI_PROG_S ? p->arg : "program");
			return -1;
		}
		text = pp;
	}
	int rc = d_compile(cx->dh, text, p->kind == CLI_PROG_S ? p->arg : NULL);
	free(text);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", o->progname, d_errmsg(cx->dh));
		return -1;
	}
	struct cli_count c = { 0, *ndesc, 0 };
	d_describe(cx->dh, cli_count_cb, &c);
	*ndesc = c.seen;
	*nmatched = c.total;
	return 0;
}

static void
cli_print_matched(const struct cli_opts *o, const struct cli_prog *p, int n)
{
	if (p->kind == CLI_PROG_S)
		fprintf(stderr, "%s: script '%s' matched %d probe%s\n", o->progname,
		    p->arg, n, n == 1 ? "" : "s");
	else
		fprintf(stderr, "%s: description '%.*s' matched %d probe%s\n", o->progname,
		    (int)strcspn(p->arg, "{/;"), p->arg, n, n == 1 ? "" : "s");
}

int
cli_compile_all(struct cli_ctx *cx)
{
	const struct cli_opts *o = cx->opts;
	int ndesc = 0, *nmatched = calloc((size_t)o->nprogs + 1, sizeof(int));
	if (!nmatched)
		return -1;
	for (int i = 0; i < o->nprogs; i++)
		if (cli_compile_one(cx, &o->progs[i], &ndesc, &nmatched[i]) < 0) {
			free(nmatched);
			return -1;
		}
	/* As dtrace(1): the counts follow the compilation of every program,
	 * and a quiet pragma in any of them silences them as -q does. */
	int64_t quiet = 0;
	if (d_getopt(cx->dh, "quiet", &quiet) < 0)
		quiet = 0;
	if (!o->quiet && !quiet && !o->list)
		for (int i = 0; i < o->nprogs; i++)
			cli_print_matched(o, &o->progs[i], nmatched[i]);
	free(nmatched);
	return 0;
}
