# pf:::hardflt, the seeds' hard fault, is vminfo:::maj_fault: a program
# reads 200 pages of a file it dropped from the page cache, through a
# MADV_RANDOM mapping (no readahead), and reports its own major faults
# (getrusage, 200 in the loop); the probe counts as many as the process
# took in all, live and replayed.
. "$TESTROOT/e2e/lib.sh"
need_root
command -v cc >/dev/null || skip "no C compiler for the workload"
cat >hard.c <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
int main(void) {
	enum { N = 200, PG = 4096 };
	static char buf[PG];
	int fd = open("hard.dat", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) return 1;
	memset(buf, 7, sizeof(buf));
	for (int i = 0; i < N; i++) if (write(fd, buf, PG) != PG) return 1;
	if (fsync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) return 1;
	char *p = mmap(0, N * PG, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED || madvise(p, N * PG, MADV_RANDOM)) return 1;
	struct rusage a, b;
	getrusage(RUSAGE_SELF, &a);
	volatile char sum = 0;
	for (int i = 0; i < N; i++) sum += p[i * PG];
	getrusage(RUSAGE_SELF, &b);
	printf("majflt %ld %ld\n", b.ru_majflt, b.ru_majflt - a.ru_majflt);
	return 0;
}
C
cc -O1 -o p26hard hard.c || skip "cannot build the workload"
"$PMCTRACE" -lv -n pf:::hardflt >list 2>&1 || { cat list; fail "pf:::hardflt not listed"; }
grep -Eq ' vminfo +maj_fault$' list && grep -q 'args\[1\]: uintptr_t' list || { cat list; fail "pf:::hardflt is not vminfo:::maj_fault"; }
prog='pf:::hardflt, vminfo:::maj_fault /pid == $target/ { @n = count(); } END { printa("pf %@d\n", @n); }'
"$PMCTRACE" -E hard.data -qn "$prog" -c ./p26hard >out 2>err || { cat err; fail "status $?"; }
want=$(awk '$1 == "majflt" { print $2 }' out)
[ -n "$want" ] && grep -q "^majflt [0-9]* 200$" out || { cat out err; fail "the workload did not take 200 major faults in its loop"; }
expect_eq "pf:::hardflt against the program's ru_majflt" "pf $want" "$(grep '^pf ' out)"
pid=$(sed -n 's/^pmctrace: pid \([0-9]*\) .*/\1/p' err)
[ -n "$pid" ] || { cat err; fail "no pid of the workload"; }
"$PMCTRACE" -E hard.data -qn "$(printf '%s\n' "$prog" | sed "s/\\\$target/$pid/g")" >rout 2>rerr || { cat rerr; fail "replay: status $?"; }
expect_eq "pf:::hardflt replayed" "pf $want" "$(grep '^pf ' rout)"
