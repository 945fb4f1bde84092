# pmc provider, live with software counters through the same path as
# hardware ones: page-faults-1 counts each fault; cpu-clock-N passes the
# period as arg2; a hardware counter on a PMU-less machine is a clear error.
. "$TESTROOT/e2e/lib.sh"
need_root
"$PMCTRACE" -qn 'pmc:::page-faults-1 /execname == "pmct_fault"/ { @ = count(); }' -c "$HELPERS/pmct_fault 3000" >out 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "page-faults status $rc"; }
n=$(awk 'NF == 1 { print $1 }' out)
[ -n "$n" ] && [ "$n" -ge 3000 ] && [ "$n" -le 3400 ] || { cat out err; fail "pmct_fault: $n page faults, want 3000..3400"; }
"$HELPERS/pmct_spin" 2 & spin=$!
"$PMCTRACE" -qn 'pmc:::cpu-clock-1000000 /execname == "pmct_spin"/ { @[arg2, arg1] = count(); } tick-1s { exit(0); }' >out 2>err; rc=$?
kill $spin 2>/dev/null; wait $spin 2>/dev/null
[ $rc = 0 ] || { cat err; fail "cpu-clock status $rc"; }
grep -Eq '^ +1000000 +1 +[0-9]+$' out || { cat out; fail "cpu-clock: no user-mode samples with period 1000000"; }
if [ "$("$PMCTRACE" --hw 2>/dev/null | sed -n 's/^  available: //p' | head -1)" = no ]; then
	"$PMCTRACE" -qn 'pmc:::instructionretired-100000 { @ = count(); }' >out 2>err; rc=$?
	expect_eq "hardware counter without a PMU: status" 1 "$rc"
	expect_grep 'needs a hardware PMU, and none is exposed here' err
	expect_grep 'software counters work' err
fi
"$PMCTRACE" -qn 'pmc:::no-such-counter-10 { }' >out 2>err; rc=$?
expect_eq "unknown counter: status" 1 "$rc"
exit 0
