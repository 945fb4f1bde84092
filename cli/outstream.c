/*
 * outstream.c — stdout and -o files as stdio streams that remember why a
 * write failed: stdio keeps only an error flag, and the engine's own
 * fflush() calls lose errno long before pmctrace can report "No space
 * left on device" or "Broken pipe" (DTrace reports write errors).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli_impl.h"

static int cli_write_errno;

static ssize_t
cli_out_write(void *cookie, const char *buf, size_t len)
{
	int fd = (int)(intptr_t)cookie;
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			cli_write_errno = n < 0 ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int
cli_out_close(void *cookie)
{
	int fd = (int)(intptr_t)cookie;
	return fd > 2 ? close(fd) : 0;
}

FILE *
cli_out_stream(int fd)
{
	cookie_io_functions_t io = { NULL, cli_out_write, NULL, cli_out_close };
	FILE *f = fopencookie((void *)(intptr_t)fd, "w", io);
	if (f && isatty(fd))
		setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

int
cli_out_errno(void)
{
	return cli_write_errno ? cli_write_errno : EIO;
}
