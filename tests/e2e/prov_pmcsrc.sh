# pmc:::sample-src fires at start and at end per sampled source, with the
# seed's args; pmc:::counter-src names the ::pmc: counters in arrival
# order; -x pmcmultiplex reports the enabled/running ratio at the end.
. "$TESTROOT/e2e/lib.sh"
need_root
"$PMCTRACE" -x pmcmultiplex -qn '
pmc:::sample-src { printf("src %d %s %d %d\n", arg0, args[1], arg2, arg3); }
pmc:::counter-src { printf("counters %d %s\n", arg0, args[1]); }
pmc:::cpu-clock-1000000 { }
sched::pmc:off-cpu-task-clock, sched::pmc:off-cpu-page-faults { }' -c "$HELPERS/pmct_spin 0.5" >out 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "status $rc"; }
expect_eq "firings" "$(printf 'src 0 cpu-clock-1000000 1000000 0\ncounters 2 task-clock,page-faults\nsrc 0 cpu-clock-1000000 0 1000000')" "$(grep -v '^$' out)"
expect_grep '^pmctrace: sched::pmc: counters ran 100.0% of the time they were enabled (-x pmcmultiplex)$' err
# sched::pmc:off-cpu with no counter: the seed's block of all counters,
# in counter-src order (arg4 values, arg5 deltas)
"$PMCTRACE" -qn '
sched::pmc:off-cpu-task-clock, sched::pmc:off-cpu-page-faults { }
sched::pmc:off-cpu /pid == $target/ { @size = max(args[4]->size); @t = sum(args[5]->values[0]); }
END { printa("size %@d\n", @size); printa("task-clock %@d\n", @t); }' \
    -c "$HELPERS/pmct_spin 0.5 cputime" >out 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "block status $rc"; }
expect_grep '^size 24$' out
t=$(sed -n 's/^task-clock //p' out)
want=$(sed -n 's/^cputime //p' err)
awk -v g="$t" -v w="$want" 'BEGIN { r = g / w; exit !(r > 0.85 && r < 1.15) }' ||
    fail "block task-clock $t ns, getrusage $want ns"
exit 0
