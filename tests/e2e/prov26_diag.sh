# diag provider: lostevent's sum(arg0) is the sum of the "drops on CPU"
# lines for a context-switch storm (tests/helpers/ctxstorm) under a 4 KiB
# ring, on the in-kernel path and the perf path; throttle fires once per
# THROTTLE record of a recording (perf report --stats counts them); -lv
# types the args.
. "$TESTROOT/e2e/lib.sh"
need_root
"$PMCTRACE" -lv -P diag >list 2>&1 || { cat list; fail "diag not listed"; }
for p in lostevent:uint64_t throttle:string missed-stack:int missed-ustack:int; do
	grep -A13 " diag *${p%%:*}\$" list | grep -q "args\[0\]: ${p#*:}" || { cat list; fail "diag:::${p%%:*} args[0] not ${p#*:}"; }
done
[ -r /sys/kernel/tracing/events/sched/sched_switch/id ] || skip "no sched_switch tracepoint in tracefs"
for opt in -x\ bpf -x\ nobpf; do
	[ "$opt" = "-x bpf" ] && opt=
	timeout 120 "$PMCTRACE" $opt -x bufsize=4k -qn 'sched:::off-cpu /pid == $target/ { @n = count(); }
	    diag:::lostevent { @l = sum(arg0); } END { printa("lost=%@d\n", @l); }' \
	    -c "$HELPERS/ctxstorm 100000 0" >out 2>err || { cat err; fail "storm ${opt:-in-kernel}: status $?"; }
	drops=$(awk '/ drops? on CPU / {n += $2} END {print n + 0}' err)
	lost=$(sed -n 's/^lost=//p' out)
	[ "$drops" -gt 0 ] || { cat out err; fail "a 4 KiB ring under a switch storm reported no drop (${opt:-in-kernel})"; }
	expect_eq "lostevent sum against the drops lines (${opt:-in-kernel})" "$drops" "$lost"
done
# missed-ustack: a program spinning 300 calls deep has every user stack
# cut at the kernel's limit (kernel.perf_event_max_stack); 5 deep, none.
if command -v cc >/dev/null; then
	cat >deep.c <<'C'
#include <stdlib.h>
#include <time.h>
static volatile unsigned long sink;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
__attribute__((noinline)) static void deep(int n, double end) {
	if (n > 0) { deep(n - 1, end); sink++; return; }
	while (now() < end) for (int i = 0; i < 100000; i++) sink += i;
}
int main(int argc, char **argv) { deep(atoi(argv[1]), now() + atof(argv[2])); return 0; }
C
	cc -O1 -fno-omit-frame-pointer -o deep deep.c || fail "cannot build the deep workload"
	max=$(cat /proc/sys/kernel/perf_event_max_stack)
	prog='profile-997 /pid == $target/ { @s[ustack()] = count(); }
	    diag:::missed-ustack /pid == $target/ { @m = count(); @f = max(arg0); }
	    END { trunc(@s); printa("missed=%@d ", @m); printa("frames=%@d\n", @f); }'
	"$PMCTRACE" -qn "$prog" -c "./deep 300 0.5" >out 2>err || { cat err; fail "deep: status $?"; }
	grep -q "^missed=[1-9][0-9]* frames=$max\$" out || { cat out; fail "missed-ustack of a 300-deep stack: want frames=$max"; }
	"$PMCTRACE" -qn "$prog" -c "./deep 5 0.3" >out 2>err || { cat err; fail "shallow: status $?"; }
	[ -z "$(grep -v '^$' out)" ] || { cat out; fail "missed-ustack fired for a 5-deep stack"; }
fi
command -v perf >/dev/null || skip "perf is not installed"
f=$FIXTURES/quipper/perf.data.hw_and_sw-3.4
want=$(perf report --stats -i "$f" 2>/dev/null | awk '$1 == "THROTTLE" { print $3 }')
"$PMCTRACE" -E "$f" -qn 'diag:::throttle { @[stringof(args[0])] = count(); } END { printa("%s %@d\n", @); }' >out 2>err
expect_eq "diag:::throttle of a recording" "cpu-clock $want" "$(grep -v '^$' out)"
