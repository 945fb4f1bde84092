# dscripts/cachemiss.d with cpu-clock standing in for the LLC miss counter
# (no PMU here): the busy function is charged the sum of the sample
# periods, in nanoseconds of CPU, under its process.
. "$TESTROOT/e2e/lib.sh"
need_root
# A name of its own, so that other tests' spinners do not count here.
cp "$HELPERS/pmct_spin" ./ds_cm_spin || fail "cannot copy the helper"
nice -n -10 ./ds_cm_spin 60 & spin=$!	# niced up: a real share of a CPU under make test-stress
"$PMCTRACE" -s "$TESTROOT/../dscripts/cachemiss.d" cpu-clock-1000000 2 >out 2>err; rc=$?
kill $spin 2>/dev/null; wait $spin 2>/dev/null
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
expect_grep '^User functions, estimated cpu-clock-1000000 events:' out
expect_grep '^Kernel functions, estimated cpu-clock-1000000 events:' out
v=$(awk '/^User functions/ { s = 1 } /^Kernel functions/ { s = 0 } s && $1 == "ds_cm_spin" && $2 ~ /`spin_leaf$/ { print $3 }' out)
[ -n "$v" ] || { cat out; fail "no 'ds_cm_spin ds_cm_spin\`spin_leaf N' row"; }
# Part of 2 s of one CPU, even on a loaded machine, and at most all of it;
# every value is a multiple of the period.
[ "$v" -ge 100000000 ] && [ "$v" -le 2100000000 ] || { cat out; fail "spin_leaf charged $v ns"; }
[ $((v % 1000000)) = 0 ] || fail "$v is not a multiple of the 1000000 period"
exit 0
