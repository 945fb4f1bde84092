/*
 * pmct_dlopen — a workload for proc:::module-load: dlopen()s the shared
 * object named by its first argument (default libm.so.6), calls the
 * function named by the second (default "cos") if there is one, and
 * prints on stderr the path the kernel knows the object by (realpath of
 * the path ld.so found: symlinks such as /lib -> /usr/lib resolved) and
 * its own executable's, as "pmct_dlopen: loaded PATH" and
 * "pmct_dlopen: exe PATH".  Exits 0, or 1 if the object does not load.
 */
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	const char *lib = argc > 1 ? argv[1] : "libm.so.6";
	const char *fn = argc > 2 ? argv[2] : "cos";
	char real[PATH_MAX], exe[PATH_MAX];
	struct link_map *lm = NULL;
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "pmct_dlopen: %s\n", dlerror());
		return 1;
	}
	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !realpath(lm->l_name, real)) {
		fprintf(stderr, "pmct_dlopen: cannot tell where %s was found\n", lib);
		return 1;
	}
	double (*f)(double) = (double (*)(double))dlsym(h, fn);
	volatile double v = f ? f(0.5) : 0;
	(void)v;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	fprintf(stderr, "pmct_dlopen: loaded %s\npmct_dlopen: exe %s\n", real, exe);
	usleep(20000);
	dlclose(h);
	return 0;
}
