/*
 * d_proc.c — process facts (name, ppid, uid, gid, arguments) read from
 * /proc, for the firings the engine makes itself (BEGIN, END, ERROR) and
 * for providers that pass no df_procinfo.  The lowest runtime file: the
 * VM, the subroutines and the driver call it; it calls nothing of dcore.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dcore/d_impl.h"

/* Process facts from /proc, for firings the engine makes itself and for
 * providers that pass no df_procinfo. */
int
d_proc_read(void *ctx, int32_t pid, struct d_procinfo *out)
{
	(void)ctx;
	char path[64], buf[1024];
	memset(out, 0, sizeof(*out));
	out->pi_pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return -ENOENT;
	size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	char *lp = strchr(buf, '('), *rp = strrchr(buf, ')');
	if (!lp || !rp || rp < lp)
		return -EINVAL;
	snprintf(out->pi_fname, sizeof(out->pi_fname), "%.*s", (int)(rp - lp - 1), lp + 1);
	char st;
	int ppid = 0;
	if (sscanf(rp + 1, " %c %d", &st, &ppid) == 2)
		out->pi_ppid = ppid;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if ((fp = fopen(path, "r")) != NULL) {
		while (fgets(buf, sizeof(buf), fp)) {
			if (strncmp(buf, "Uid:", 4) == 0)
				out->pi_uid = atoi(buf + 4);
			else if (strncmp(buf, "Gid:", 4) == 0)
				out->pi_gid = atoi(buf + 4);
		}
		fclose(fp);
	}
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	if ((fp = fopen(path, "r")) != NULL) {
		n = fread(out->pi_psargs, 1, sizeof(out->pi_psargs) - 1, fp);
		fclose(fp);
		for (size_t i = 0; i < n; i++)
			if (out->pi_psargs[i] == '\0')
				out->pi_psargs[i] = ' ';
		while (n > 0 && out->pi_psargs[n - 1] == ' ')
			n--;
		out->pi_psargs[n] = '\0';
	}
	return 0;
}
