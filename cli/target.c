/*
 * target.c — -c: start the command stopped before exec, so that tracing is
 * enabled before its first instruction; release it once probes are on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_impl.h"

int
cli_spawn(struct cli_ctx *cx)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		fprintf(stderr, "%s: failed to execute %s: %s\n", cx->opts->progname,
		    cx->opts->cmd, strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: failed to execute %s: %s\n", cx->opts->progname,
		    cx->opts->cmd, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		char go;
		close(fds[1]);
		if (read(fds[0], &go, 1) != 1)
			_exit(127);
		char *cmd = malloc(strlen(cx->opts->cmd) + 8);
		if (!cmd)
			_exit(127);
		sprintf(cmd, "exec %s", cx->opts->cmd);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	cx->child = pid;
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
