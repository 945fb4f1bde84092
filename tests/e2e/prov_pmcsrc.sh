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
# in counter-src order (arg4 values, arg5 deltas); the same switches seen
# through the named probe give the same sums.
"$PMCTRACE" -qn '
sched::pmc:off-cpu-task-clock /pid == $target/ { @a = sum(arg5); }
sched::pmc:off-cpu-page-faults { }
sched::pmc:off-cpu /pid == $target/ { @size = max(args[4]->size); @t = sum(args[5]->values[0]); }
END { printa("size %@d\n", @size); printa("named %@d\n", @a); printa("block %@d\n", @t); }' \
    -c "$HELPERS/pmct_spin 0.5" >out 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "block status $rc"; }
expect_grep '^size 24$' out
a=$(sed -n 's/^named //p' out); t=$(sed -n 's/^block //p' out)
[ -n "$t" ] && [ "$t" = "$a" ] || { cat out; fail "block task-clock '$t' differs from the named probe's '$a'"; }
exit 0
