# pid provider: uprobes on a program the test builds, with -c (a.out and
# libc functions before the command has exec'd) and -p (entry args,
# return values), and the -l listing of a live process.
. "$TESTROOT/e2e/lib.sh"
need_root
[ -e /sys/bus/event_source/devices/uprobe/type ] || skip "no uprobe PMU in this kernel"
command -v cc >/dev/null || skip "no C compiler for the target program"
cat >prog.c <<'C'
#include <stdlib.h>
#include <stdio.h>
#include <unistd.h>
void *volatile keep;
__attribute__((noinline)) long work(long n) { long s = 0; for (long i = 0; i < n; i++) s += i; return s; }
int main(int argc, char **argv) {
	int loops = argc > 1 ? atoi(argv[1]) : 100, delay = argc > 2 ? atoi(argv[2]) : 0;
	for (int i = 0; i < loops; i++) {
		keep = malloc(100 + i); free(keep);
		work(i % 8);
		if (delay) usleep(delay * 1000);
	}
	printf("done\n");
	return 0;
}
C
cc -O0 -o prog prog.c || skip "cannot build the target program"

"$PMCTRACE" -qn 'pid$target:a.out:main:entry, pid$target::malloc:entry, pid$target:a.out:work:entry { @[probefunc] = count(); }' -c "./prog 300" >out 2>err || { cat err; fail "-c run"; }
grep -Eq '^  main +1$' out || { cat out err; fail "main:entry did not fire once"; }
grep -Eq '^  work +300$' out || { cat out err; fail "work:entry did not fire 300 times"; }
n=$(awk '$1 == "malloc" { print $2 }' out)
# 300 in the loop, one for stdout's buffer; none from pmctrace's child or sh before the exec
[ -n "$n" ] && [ "$n" -ge 300 ] && [ "$n" -le 305 ] || { cat out; fail "malloc fired $n times, want 300..305"; }

./prog 100000 2 >/dev/null &
t=$!
wait_mapped $t '/prog$'
"$PMCTRACE" -l -n "pid$t:a.out:work:" >list 2>&1
grep -Eq "pid$t +a\.out +work entry\$" list && grep -Eq "pid$t +a\.out +work return\$" list || { cat list; fail "-l of pid$t:a.out:work:"; }
"$PMCTRACE" -qn '
pid$target:a.out:work:entry { @in[arg0] = count(); }
pid$target:a.out:work:return { @out[arg1] = count(); }
tick-1s { exit(0); }' -p $t >out2 2>err2
rc=$?
kill $t
[ $rc = 0 ] || { cat err2; fail "-p run status $rc"; }
# work(n) returns n*(n-1)/2: 0 1 3 6 10 15 21 for n = 0..7
for v in 3 21; do grep -Eq "^ +$v +[1-9][0-9]*\$" out2 || { cat out2; fail "no work() return value $v"; }; done
grep -Eq '^ +7 +[1-9][0-9]*$' out2 || { cat out2; fail "no work(7) entry"; }
exit 0
