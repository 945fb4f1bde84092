/*
 * target.c — -c: start the command stopped before exec, so that tracing is
 * enabled before its first instruction; release it once probes are on.
 *
 * The command runs as `sh -c CMD`, in a process group of its own, so that
 * the end of the run can kill all of it (`-c 'prog | cat'` leaves nothing).
 * Nothing pmctrace does at exit runs when it is killed (SIGKILL, a second
 * ^C), so a guard process, forked before any probe is enabled, waits for
 * pmctrace to go; if it went without saying so, the guard kills the
 * command's group and removes the uprobe trace events pmctrace left.  The
 * command's sh also dies with pmctrace (PR_SET_PDEATHSIG) should the guard
 * be killed too.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_impl.h"

/* For the second ^C's handler: the group it kills on its way out. */
static volatile pid_t cli_target_pgid;

void
cli_kill_target_now(void)
{
	if (cli_target_pgid > 0)
		kill(-cli_target_pgid, SIGKILL);
}

/* A command word sh would run as a program, not a builtin that changes the
 * shell itself or a keyword (neither is found in $PATH anyway). */
static int
cli_is_program(const char *w, size_t n)
{
	static const char *const builtins[] = {
		"cd", "exit", "export", "set", "unset", "shift", "read", "eval", "exec",
		"umask", "ulimit", "wait", "trap", "alias", "readonly", "local", "command",
	};
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (strlen(builtins[i]) == n && !strncmp(builtins[i], w, n))
			return 0;
	if (memchr(w, '/', n))
		return 1;
	const char *path = getenv("PATH");
	char cand[4096];
	for (const char *p = path ? path : "/usr/bin:/bin"; *p; ) {
		size_t k = strcspn(p, ":");
		snprintf(cand, sizeof(cand), "%.*s/%.*s", (int)k, k ? p : ".", (int)n, w);
		if (access(cand, X_OK) == 0)
			return 1;
		p += k + (p[k] == ':');
	}
	return 0;
}

/* Whether CMD, outside quotes, is one command: no list, pipeline, group,
 * background or command substitution (redirections are fine). */
static int
cli_one_command(const char *cmd)
{
	char q = 0;
	for (const char *p = cmd; *p; p++) {
		if (q) {
			if (*p == q)
				q = 0;
			else if (q == '"' && (*p == '`' || (*p == '$' && p[1] == '(')))
				return 0;
			else if (q == '"' && *p == '\\' && p[1])
				p++;
			continue;
		}
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '\'' || *p == '"')
			q = *p;
		else if (strchr(";|()`\n", *p) || (*p == '$' && p[1] == '('))
			return 0;
		else if (*p == '&' && (p == cmd || (p[-1] != '>' && p[-1] != '<')))
			return 0;
	}
	return !q;
}

/* sh -c runs CMD; for one command whose first word is a program (not a
 * builtin, keyword or assignment) `exec CMD` means the same and keeps
 * $target the program's own pid, as DTrace's -c does (dash forks even for
 * a single command).  Anything else runs exactly as written. */
int
cli_plain_command(const char *cmd)
{
	const char *w = cmd + strspn(cmd, " \t");
	size_t n = strcspn(w, " \t<>");
	const char *word = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:+@%^-";
	return n > 0 && strspn(w, word) >= n && cli_one_command(cmd) && cli_is_program(w, n);
}

static void
cli_child(const char *cmd, int go_fd, pid_t parent)
{
	char go;
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);	/* pmctrace died before the line above */
	/* pmctrace ignores SIGPIPE; the command must not inherit that */
	signal(SIGPIPE, SIG_DFL);
	if (read(go_fd, &go, 1) != 1)
		_exit(127);
	if (cli_plain_command(cmd)) {
		char *e = malloc(strlen(cmd) + 6);
		if (!e)
			_exit(127);
		sprintf(e, "exec %s", cmd);
		cmd = e;
	}
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	_exit(127);
}

int
cli_spawn(struct cli_ctx *cx)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		fprintf(stderr, "%s: failed to execute %s: %s\n", cx->opts->progname,
		    cx->opts->cmd, strerror(errno));
		return -1;
	}
	pid_t self = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: failed to execute %s: %s\n", cx->opts->progname,
		    cx->opts->cmd, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[1]);
		cli_child(cx->opts->cmd, fds[0], self);
	}
	/* both sides set the group: whichever runs first, it exists before
	 * the parent may signal it */
	setpgid(pid, pid);
	close(fds[0]);
	cx->child = pid;
	cx->child_pgid = pid;
	cli_target_pgid = pid;
	cx->child_fd = fds[1];
	d_set_target(cx->dh, pid);
	return 0;
}

void
cli_release_child(struct cli_ctx *cx)
{
	if (cx->child_fd < 0)
		return;
	if (write(cx->child_fd, "g", 1) != 1)
		fprintf(stderr, "%s: failed to start %s\n", cx->opts->progname, cx->opts->cmd);
	close(cx->child_fd);
	cx->child_fd = -1;
}

/* The guard: waits on its pipe; a 'q' is pmctrace's own clean exit.  EOF
 * without it is pmctrace's death: once it is reparented away from it, its
 * files (perf events, hence uprobes) are released and can be removed. */
static void
cli_guard(int fd, pid_t owner, pid_t pgid)
{
	char c = 0;
	setpgid(0, 0);	/* out of reach of signals sent to pmctrace's group */
	prctl(PR_SET_NAME, "pmctrace-guard");
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	if (dup2(fd, 3) < 0)
		_exit(1);
	close_range(4, ~0u, 0);
	close_range(0, 2, 0);
	while (read(3, &c, 1) < 0 && errno == EINTR)
		;
	if (c == 'q')
		_exit(0);
	if (pgid > 0)
		kill(-pgid, SIGKILL);
	for (int i = 0; i < 500 && getppid() == owner; i++)
		poll(NULL, 0, 10);
	prov_remove_leftovers(owner);
	_exit(0);
}

void
cli_guard_start(struct cli_ctx *cx)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return;	/* without a guard, the next start cleans up */
	pid_t self = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[1]);
		cli_guard(fds[0], self, cx->child_pgid);
	}
	close(fds[0]);
	if (pid < 0) {
		close(fds[1]);
		return;
	}
	/* At exit the kernel releases files in reverse order of their fds: a
	 * high fd wakes the guard before the perf events' slow release. */
	struct rlimit rl;
	int hi = -1;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur > 64)
		hi = fcntl(fds[1], F_DUPFD_CLOEXEC, (int)(rl.rlim_cur < 65536 ? rl.rlim_cur : 65536) - 1);
	if (hi >= 0) {
		close(fds[1]);
		fds[1] = hi;
	}
	cx->guard = pid;
	cx->guard_fd = fds[1];
}

/* Kill the whole target group, reap the command and dismiss the guard. */
void
cli_target_teardown(struct cli_ctx *cx)
{
	if (cx->child_pgid > 0)
		kill(-cx->child_pgid, SIGKILL);
	if (cx->child > 0)
		waitpid(cx->child, NULL, 0);
	cx->child = 0;
	cx->child_pgid = 0;
	cli_target_pgid = 0;
	if (cx->guard > 0) {
		if (write(cx->guard_fd, "q", 1) != 1)
			kill(cx->guard, SIGKILL);
		close(cx->guard_fd);
		waitpid(cx->guard, NULL, 0);
		cx->guard = 0;
	}
}
