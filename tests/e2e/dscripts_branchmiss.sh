# dscripts/branchmiss.d with cpu-clock standing in for the misprediction
# counter: per process and per function sums of the sampling periods, the
# busy function under its process, the process total at least as large.
. "$TESTROOT/e2e/lib.sh"
need_root
# A name of its own, so that other tests' spinners do not count here.
cp "$HELPERS/pmct_spin" ./ds_bm_spin || fail "cannot copy the helper"
./ds_bm_spin 5 & spin=$!
"$PMCTRACE" -s "$TESTROOT/../dscripts/branchmiss.d" cpu-clock-500000 2 >out 2>err; rc=$?
kill $spin 2>/dev/null; wait $spin 2>/dev/null
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
for h in 'Mispredictions by process:' 'Mispredictions by user function:' 'Mispredictions by kernel function:'; do
	expect_grep "^$h" out
done
proc=$(awk '/by process:/ { s = 1; next } /^Mispredictions/ { s = 0 } s && $1 == "ds_bm_spin" { print $2 }' out)
fn=$(awk '/by user function:/ { s = 1; next } /^Mispredictions/ { s = 0 } s && $1 == "ds_bm_spin" && $2 ~ /`spin_leaf$/ { print $3 }' out)
[ -n "$proc" ] && [ -n "$fn" ] || { cat out; fail "ds_bm_spin or its spin_leaf missing"; }
[ "$fn" -ge 100000000 ] || { cat out; fail "spin_leaf charged only $fn"; }
[ "$proc" -ge "$fn" ] || { cat out; fail "process total $proc < function $fn"; }
[ $((proc % 500000)) = 0 ] || fail "$proc is not a multiple of the 500000 period"
exit 0
