/*
 * pmct_strings — a small program that leans on libc's string functions
 * (the ones glibc picks SSE2, AVX2 or EVEX variants of at run time), for
 * tests that trace it: what it prints must not change under tracing.
 *
 * Prints one line per function with its results over a few inputs; then
 * takes the paths where a function does not return the usual way (vfork,
 * posix_spawn, system, longjmp, swapcontext onto a stack of its own), which
 * return probes must survive; prints "done" on stderr and exits with status
 * 3 (so that tests also see a non-zero status kept).
 */
#include <setjmp.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ucontext.h>
#include <unistd.h>
#include <wchar.h>
#include <sys/wait.h>

extern char **environ;
static jmp_buf jb;
static ucontext_t uc_main, uc_co;
static char costack[65536];

static const char *const words[] = {
	"/usr/bin/env", "%s-%d\n", "hello world", "", "a", "abcdefghijklmnopqrstuvwxyz0123456789",
	"The quick brown fox jumps over the lazy dog, again and again and again.",
};
#define NW (sizeof(words) / sizeof(words[0]))

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
coroutine(void)
{
	printf("in the coroutine\n");
	swapcontext(&uc_co, &uc_main);
	printf("in the coroutine again\n");
}

__attribute__((noinline)) static void
deep(int n)
{
	if (n < 0)
		return;
	if (n == 0)
		longjmp(jb, 7);
	deep(n - 1);
	printf("never printed\n");
}

/* Children and jumps: each step prints its result once the child is reaped. */
static void
odd_returns(void)
{
	int st = 0;
	fflush(stdout);
	pid_t p = vfork();
	if (p == 0) {
		execl("/bin/sh", "sh", "-c", "exit 4", (char *)NULL);
		_exit(127);
	}
	waitpid(p, &st, 0);
	printf("vfork child %d\n", WEXITSTATUS(st));
	char *av[] = { "sh", "-c", "exit 5", NULL };
	if (posix_spawn(&p, "/bin/sh", NULL, NULL, av, environ) == 0 && waitpid(p, &st, 0) == p)
		printf("posix_spawn child %d\n", WEXITSTATUS(st));
	printf("system %d\n", WEXITSTATUS(system("exit 6")));
	int r = setjmp(jb);
	if (!r)
		deep(10);
	printf("longjmp %d\n", r);
	getcontext(&uc_co);
	uc_co.uc_stack.ss_sp = costack;
	uc_co.uc_stack.ss_size = sizeof(costack);
	uc_co.uc_link = &uc_main;
	makecontext(&uc_co, coroutine, 0);
	swapcontext(&uc_main, &uc_co);
	printf("back in main\n");
	swapcontext(&uc_main, &uc_co);
	printf("back in main again\n");
}

int
main(void)
{
	char buf[256], big[4096];
	for (size_t i = 0; i < NW; i++) {
		const char *w = words[i];
		const char *c = strchr(w, '/'), *r = strrchr(w, 'a'), *s = strstr(w, "again");
		const char *m = memchr(w, 'o', strlen(w));
		printf("%zu len=%zu chr=%td rchr=%td str=%td mem=%td nlen=%zu spn=%zu cspn=%zu\n", i,
		    strlen(w), c ? c - w : -1, r ? r - w : -1, s ? s - w : -1, m ? m - w : -1,
		    strnlen(w, 10), strspn(w, "/usr"), strcspn(w, " ,"));
		snprintf(buf, sizeof(buf), "%s|%s", w, words[(i + 1) % NW]);
		char *d = strdup(buf);
		strcat(strcpy(big, d), d);
		printf("  cat=%zu cmp=%d ncmp=%d case=%d mcmp=%d dup=%s\n", strlen(big),
		    strcmp(w, words[(i + 1) % NW]) > 0, strncmp(w, "/usr", 4), strcasecmp(w, "HELLO WORLD"),
		    memcmp(big, d, strlen(d)), d);
		free(d);
	}
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memmove(big + 1, big, 1000);
	printf("memset/memmove: %zu %td\n", strlen(big), strchr(big, 'y') ? strchr(big, 'y') - big : -1);
	const char *sorted[NW];
	memcpy(sorted, words, sizeof(sorted));
	qsort(sorted, NW, sizeof(sorted[0]), cmp);
	for (size_t i = 0; i < NW; i++)
		printf("sorted %zu: %zu\n", i, strlen(sorted[i]));
	printf("wide: %zu %ld\n", wcslen(L"wide characters"), strtol("  -4096xyz", NULL, 10));
	odd_returns();
	fprintf(stderr, "done\n");
	return 3;
}
