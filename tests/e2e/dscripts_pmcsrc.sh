# dscripts/pmcsrc.d: pmc:::sample-src lists the sampled source with its
# interval, pmc:::counter-src the counter read at every switch, and what
# each delivered is counted.
. "$TESTROOT/e2e/lib.sh"
need_root
# A name of its own, so that other tests' spinners do not count here.
cp "$HELPERS/pmct_spin" ./ds_src_spin || fail "cannot copy the helper"
./ds_src_spin 3 & spin=$!
"$PMCTRACE" -s "$TESTROOT/../dscripts/pmcsrc.d" cpu-clock-2000000 task-clock 1 >out 2>err; rc=$?
kill $spin 2>/dev/null; wait $spin 2>/dev/null
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
expect_grep '^SRC NAME ' out
awk '$1 == 0 && $2 == "cpu-clock-2000000" && $3 == 2000000 { ok = 1 } END { exit !ok }' out ||
    { cat out; fail "no source line '0 cpu-clock-2000000 2000000'"; }
[ "$(grep -c '^ *[0-9][0-9]* [^ ]' out)" = 1 ] || { cat out; fail "want exactly one sampled source"; }
expect_grep '^COUNTERS READ AT EACH SWITCH: 1$' out
awk '/^COUNTERS READ/ { getline; exit $1 != "task-clock" }' out || { cat out; fail "counter-src did not name task-clock"; }
# 500 Hz on each CPU for about a second, one CPU busy at least; and the
# spinner is switched out now and then.
n=$(awk '/^DELIVERED/ { s = 1; next } s && $3 == "cpu-clock-2000000" { print $4 }' out)
[ -n "$n" ] && [ "$n" -ge 400 ] || { cat out; fail "cpu-clock-2000000 delivered '$n' samples in 1 s"; }
m=$(awk '/^DELIVERED/ { s = 1; next } s && $3 == "task-clock" { print $4 }' out)
[ -n "$m" ] && [ "$m" -ge 1 ] || { cat out; fail "no switch read task-clock"; }
exit 0
