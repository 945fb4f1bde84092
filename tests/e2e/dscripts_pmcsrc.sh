# dscripts/pmcsrc.d: pmc:::sample-src lists the configured source with its
# interval, and the samples it delivered are counted.
. "$TESTROOT/e2e/lib.sh"
need_root
"$HELPERS/pmct_spin" 3 & spin=$!
"$PMCTRACE" -s "$TESTROOT/../dscripts/pmcsrc.d" cpu-clock-2000000 1 >out 2>err; rc=$?
kill $spin 2>/dev/null; wait $spin 2>/dev/null
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
expect_grep '^SRC NAME ' out
awk '$1 == 0 && $2 == "cpu-clock-2000000" && $3 == 2000000 { ok = 1 } END { exit !ok }' out ||
    { cat out; fail "no source line '0 cpu-clock-2000000 2000000'"; }
[ "$(grep -c 'cpu-clock-2000000' out)" = 2 ] || { cat out; fail "want one source line and one sample line"; }
# 500 Hz on each CPU for about a second, one CPU busy at least.
n=$(awk '/^SAMPLES/ { s = 1; next } s && $1 == "cpu-clock-2000000" { print $2 }' out)
[ -n "$n" ] && [ "$n" -ge 400 ] || { cat out; fail "cpu-clock-2000000 delivered '$n' samples in 1 s"; }
exit 0
