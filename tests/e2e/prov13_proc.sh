# proc provider: exec/exec-success (curpsinfo->pr_psargs), exec-failure,
# create/start, lwp-start/lwp-exit/exit for a threaded program the test builds;
# module-load for a -c workload that dlopen()s libm (and a library the test
# builds), live and replayed from the recording.
. "$TESTROOT/e2e/lib.sh"
need_root

# module-load: from the side-band MMAP2 records, no tracepoint needed.
"$PMCTRACE" -lv -n proc:::module-load >mlist 2>&1 || { cat mlist; fail "proc:::module-load not listed"; }
grep -Eq ' proc +module-load$' mlist || { cat mlist; fail "proc:::module-load not listed"; }
grep -q 'args\[0\]: string' mlist || { cat mlist; fail "module-load args[0] is not a string"; }
grep -q 'args\[2\]: size_t' mlist || { cat mlist; fail "module-load args[2] is not a size_t"; }
libs=libm.so.6
if command -v cc >/dev/null && printf 'double p13mod_twice(double x) { return 2 * x; }\n' >p13mod.c &&
    cc -shared -fPIC -o p13mod.so p13mod.c; then
	libs="$libs $(pwd -P)/p13mod.so"
fi
for lib in $libs; do
	fn=cos
	case $lib in */p13mod.so) fn=p13mod_twice ;; esac
	rm -f ml.data
	"$PMCTRACE" -E ml.data -qn 'proc:::module-load /pid == $target/ {
		printf("%s %s %d %d\n", execname, stringof(args[0]), args[1] % 4096, args[2] > 0); }' \
	    -c "$HELPERS/pmct_dlopen $lib $fn" >mout 2>merr || { cat merr; fail "module-load run: status $?"; }
	want=$(sed -n 's/^pmct_dlopen: loaded //p' merr)
	exe=$(sed -n 's/^pmct_dlopen: exe //p' merr)
	[ -n "$want" ] && [ -n "$exe" ] || { cat merr; fail "the workload did not load $lib"; }
	# exactly once each (data segments do not fire), page-aligned, not empty
	n=$(grep -c "^pmct_dlopen $want 0 1\$" mout)
	[ "$n" = 1 ] || { cat mout; fail "module-load of $want: $n lines, want 1"; }
	n=$(grep -c "^pmct_dlopen $exe 0 1\$" mout)
	[ "$n" = 1 ] || { cat mout; fail "module-load of the executable $exe: $n lines, want 1"; }
	grep -Eq '^pmct_dlopen /(usr/)?lib[^ ]*/ld-linux[^ ]* 0 1$' mout || { cat mout; fail "no module-load for ld.so"; }
	# the same firings from the recording
	"$PMCTRACE" -E ml.data -qn 'proc:::module-load /execname == "pmct_dlopen"/ {
		printf("%s %s %d %d\n", execname, stringof(args[0]), args[1] % 4096, args[2] > 0); }' >rout 2>rerr ||
	    { cat rerr; fail "module-load replay: status $?"; }
	grep '^pmct_dlopen ' mout >mwant
	grep '^pmct_dlopen ' rout >rgot
	cmp -s mwant rgot || { diff mwant rgot; fail "module-load replayed differs from live"; }
	"$PMCTRACE" -E ml.data -l -P proc >rlist 2>&1
	grep -Eq ' proc +module-load$' rlist || { cat rlist; fail "module-load not listed for the recording"; }
done
for e in sched/sched_process_exec sched/sched_process_exit task/task_newtask; do
	[ -d /sys/kernel/tracing/events/$e ] || skip "no $e tracepoint in tracefs"
done
command -v cc >/dev/null || skip "no C compiler for the threaded workload"
cat >thr.c <<'C'
#include <pthread.h>
#include <unistd.h>
static void *run(void *a) { usleep(20000); return a; }
int main(void) {
	pthread_t t[4];
	for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, run, 0);
	for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
	return 0;
}
C
cc -O1 -pthread -o p13thr thr.c || skip "cannot build the threaded workload"
"$PMCTRACE" -l -P proc >list 2>&1
for p in exec exec-success exec-failure create start lwp-create lwp-start lwp-exit exit signal-send signal-handle module-load; do
	grep -Eq " proc +$p\$" list || { cat list; fail "proc:::$p not listed"; }
done

"$PMCTRACE" -qn '
proc:::exec-success /execname == "sleep"/ { printf("psargs=%s\n", curpsinfo->pr_psargs); }
proc:::exec /execname == "sleep"/ { printf("path=%s\n", args[0]); }
proc:::exec-failure /execname == "sh"/ { printf("fail=%d\n", arg0); }
proc:::create /execname == "sh"/ { printf("create=%d ppid=%d\n", args[0]->pr_pid, args[0]->pr_ppid); }
proc:::signal-send /args[2] == 12/ { printf("sig=%d %d %d\n", args[2], args[1]->pr_pid, args[0]->pr_lwpid); }
proc:::signal-handle /args[0] == 12/ { printf("handled=%d %d\n", args[0], pid); }
proc:::start /execname == "sh"/ { printf("start %d\n", pid); }
proc:::lwp-start /execname == "p13thr"/ { @ls[pid] = count(); }
proc:::lwp-exit /execname == "p13thr"/ { @le[pid] = count(); }
proc:::exit /execname == "p13thr"/ { printf("exit %d\n", pid); }
BEGIN { printf("ready\n"); }' >out 2>err &
p=$!
wait_ready out
sleep 1.2 &
s=$!
rm -f trapped
sh -c 'trap "exit 0" USR2; : >trapped; while :; do sleep 0.05; done' &
g=$!
i=0; until [ -e trapped ]; do i=$((i+1)); [ $i -gt 600 ] && fail "the USR2 handler was never set"; sleep 0.1; done
kill -USR2 $g
sh -c '/nonexistent-p13 2>/dev/null; exit 0'
./p13thr &
t=$!
wait $t $s $g
kill -INT $p
wait $p || { cat err; fail "status $?"; }
expect_grep '^psargs=sleep 1.2$' out
grep -Eq '^path=(/usr)?/bin/sleep$' out || { cat out; fail "exec args[0] is not the path of sleep"; }
expect_grep '^fail=2$' out
expect_grep "^sig=12 $g $g\$" out
expect_grep "^handled=12 $g\$" out
grep -q '^create=[0-9]* ppid=[0-9]*$' out || { cat out; fail "create psinfo"; }
expect_grep "^start $t\$" out
expect_grep "^exit $t\$" out
grep -Eq "^ +$t +4\$" out || { cat out; fail "lwp-start: want 4 threads of $t"; }
grep -Eq "^ +$t +5\$" out || { cat out; fail "lwp-exit: want 5 threads of $t"; }
exit 0
