# -E replays perf.data recorded on real hardware: every recorded event
# fires the probes a live run would, under its recorded name; a seed alias
# (totalcycles for cycles) is another name of that probe, not another
# probe, so a sample fires a clause once; counts cross-checked with perf
# script 6.1 on the same files.
. "$TESTROOT/e2e/lib.sh"
f=$FIXTURES/quipper/perf.data.hw_and_sw-3.4
[ -f "$f" ] || skip "fixture $f missing"
"$PMCTRACE" -E "$f" -l >out 2>err || { cat err; fail "-E -l"; }
for p in cycles-1000000 branch-misses-1000000 cpu-clock-1000000 profile-1000000ns; do
	grep -q " $p\$" out || { cat out; fail "-E -l lacks $p"; }
done
for p in totalcycles-1000000 branchmispredictions-1000000; do
	grep -q " $p\$" out && { cat out; fail "-E -l lists the alias $p as a probe"; }
done
"$PMCTRACE" -E "$f" -qn '
pmc:::cycles-1000000 { @c = count(); }
pmc:::totalcycles-1000000 { @t = count(); }
profile-* { @p = count(); }
pmc:::cpu-clock-* { @k[arg2] = count(); }
pmc:::* /probename != "sample-src" && probename != "counter-src"/ { @all = count(); }
pmc:::cycles-1000000, pmc:::totalcycles-1000000, pmc:::unhalted* { @both = count(); }
pmc:::branchmispredictions* { @bm[probename] = count(); }
END { printa("cycles %@d\n", @c); printa("totalcycles %@d\n", @t); printa("profile %@d\n", @p);
  printa("cpu-clock %d %@d\n", @k); printa("all %@d\n", @all); printa("both %@d\n", @both); }' >out 2>err; rc=$?
expect_eq "status" 0 "$rc"
# perf script -F event: 207 cycles, 4734 cpu-clock samples
expect_grep '^cycles 207$' out
expect_grep '^totalcycles 207$' out
expect_grep '^profile 4734$' out
expect_grep '^cpu-clock 1000000 4734$' out
# pmc:::* counts each sample once (perf: 207 + 0 + 4734), whatever names match it
expect_grep '^all 4941$' out
expect_grep '^both 207$' out
# The file holds 27 THROTTLE records and no LOST record (perf report
# --stats): throttling is said once, and is not a drop.
expect_eq "throttling, once" "pmctrace: sampling was throttled 27 times (the kernel slowed events that fired faster than kernel.perf_event_max_sample_rate)" "$(cat err)"
# LOST_SAMPLES records are drops: 2 samples lost on CPU 0 (perf script -D), one line.
"$PMCTRACE" -E "$FIXTURES/quipper/perf.data.lost_samples-4.4" -qn 'pmc:::cycles* { @ = count(); }' >out 2>err
expect_eq "drops, once" "pmctrace: 2 drops on CPU 0" "$(cat err)"
# sched_switch recorded with perf record -e sched:sched_switch -a
f=$FIXTURES/local/sched_switch-a.data
"$PMCTRACE" -E "$f" -qn 'sched:::off-cpu { @ = count(); } END { printa("off %@d\n", @); }' >out 2>err; rc=$?
expect_eq "sched replay status" 0 "$rc"
n=$(perf script -i "$f" -F event 2>/dev/null | grep -c sched_switch)
[ -n "$n" ] && [ "$n" -gt 0 ] || skip "perf cannot read $f here"
expect_grep "^off $n\$" out
exit 0
