# sched provider: off-cpu/on-cpu from sched_switch, in the right contexts
# and order; sched::pmc:off-cpu-task-clock attributes CPU time to the
# thread leaving the CPU, cross-checked with the kernel's own accounting.
. "$TESTROOT/e2e/lib.sh"
need_root
[ -d /sys/kernel/tracing/events/sched/sched_switch ] || skip "no sched_switch tracepoint (tracefs not mounted?)"
"$PMCTRACE" -qn '
sched:::off-cpu /execname == "pmct_pingpong"/ { @off = count(); self->off = timestamp; }
sched:::on-cpu /execname == "pmct_pingpong" && self->off/ { @on = count(); @lat = quantize(timestamp - self->off); self->off = 0; }
END { printa("off %@d\n", @off); printa("on %@d\n", @on); }
' -c "$HELPERS/pmct_pingpong 5000" >out 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "status $rc"; }
off=$(sed -n 's/^off //p' out)
on=$(sed -n 's/^on //p' out)
# 5000 round trips: each of the two processes leaves the CPU >= 5000 times.
[ -n "$off" ] && [ "$off" -ge 9500 ] || { cat out; fail "off-cpu count $off < 9500"; }
[ -n "$on" ] && [ "$on" -ge 5000 ] || { cat out; fail "on-cpu after off-cpu count $on < 5000 (the kernel may withhold some switch-in records, as perf sees)"; }
expect_grep 'Distribution' out
# typed args as in DTrace: off-cpu's args[0]/args[1] describe the thread
# about to run, wakeup's the woken one (pinned to one CPU, so that each
# side hands the CPU to the other rather than to the idle thread)
"$PMCTRACE" -qn '
sched:::off-cpu /execname == "pmct_pingpong"/ { @n[args[1]->pr_fname] = count(); }
sched:::wakeup /args[1]->pr_fname == "pmct_pingpong" && args[0]->pr_lwpid > 0/ { @w = count(); }
END { printa("next %s %@d\n", @n); printa("woken %@d\n", @w); }' \
    -c "taskset -c 0 $HELPERS/pmct_pingpong 3000" >out 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "typed args status $rc"; }
grep -Eq '^next pmct_pingpong [0-9]{4,}$' out || { cat out err; fail "args[1]->pr_fname of the next thread"; }
w=$(sed -n 's/^woken //p' out)
[ -n "$w" ] && [ "$w" -ge 3000 ] || { cat out; fail "wakeup args[0]/args[1]: $w"; }
# task-clock deltas at each switch, summed per process, against getrusage.
"$PMCTRACE" -qn 'sched::pmc:off-cpu-task-clock /pid == $target/ { @ = sum(arg5); }' \
    -c "$HELPERS/pmct_spin 1 cputime" >out 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "task-clock status $rc"; }
got=$(awk 'NF == 1 { print $1 }' out)
want=$(sed -n 's/^cputime //p' err)
[ -n "$got" ] && [ -n "$want" ] || { cat out err; fail "missing figures"; }
awk -v g="$got" -v w="$want" 'BEGIN { r = g / w; exit !(r > 0.85 && r < 1.15) }' ||
    { cat out err; fail "task-clock attributed $got ns, getrusage says $want ns"; }
exit 0
