# pid provider over every module (issue 13): 'pid$target::*:return' on a
# live process (-p) creates a uprobe for every function of a.out, libc and
# ld.so (thousands, through tracefs batches), reports how many it matched,
# aggregates return values of known functions, exits cleanly, and leaves
# no uprobe event behind in tracefs.
. "$TESTROOT/e2e/lib.sh"
need_root
[ -e /sys/bus/event_source/devices/uprobe/type ] || skip "no uprobe PMU in this kernel"
command -v cc >/dev/null || skip "no C compiler for the target program"
ev=/sys/kernel/tracing/uprobe_events
[ -w $ev ] || skip "tracefs uprobe_events is not writable here"
cat >prog.c <<'C'
#include <stdlib.h>
#include <stdio.h>
#include <unistd.h>
__attribute__((noinline)) long work(long n) { long s = 0; for (long i = 0; i < n; i++) s += i; return s; }
int main(void) {
	printf("ready\n");
	fflush(stdout);
	for (int i = 0; ; i++) {
		work(i % 8);
		usleep(2000);
	}
	return 0;
}
C
cc -O0 -o prog prog.c || skip "cannot build the target program"
./prog >prog.out &
t=$!
trap 'kill $t 2>/dev/null' EXIT
wait_ready prog.out	# in main: every module it calls into is loaded
# in the background, for its pid: other runs' uprobe groups are not ours
"$PMCTRACE" -n 'pid$target::*:return { @[probefunc] = quantize(arg1); } tick-2s { exit(0); }' -p $t >out 2>err &
pm=$!
wait $pm
rc=$?
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
n=$(sed -n "s/^pmctrace: description 'pid\$target::\*:return ' matched \([0-9]*\) probes\$/\1/p" err)
[ -n "$n" ] && [ "$n" -gt 1024 ] || { cat err; fail "matched '$n' probes, want more than 1024"; }
# work() returns 0..21 and usleep() 0: both have a histogram
for f in work usleep; do
	grep -Eq "^  $f +\$" out || { cat out err; fail "no histogram for $f"; }
done
grep -q "value  ------------- Distribution ------------- count" out || { cat out; fail "no quantize output"; }
# the run removed its trace events
grep -q "pmctrace_$pm/" $ev && { grep "pmctrace_$pm/" $ev | head; fail "uprobe events left in $ev"; }
exit 0
