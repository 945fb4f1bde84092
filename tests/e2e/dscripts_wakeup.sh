# dscripts/wakeup.d: sleeps that end wake their thread; the latency from
# wakeup to running is a per-process histogram of small values.
. "$TESTROOT/e2e/lib.sh"
need_root
# sleep under a name of its own, so that other processes' sleeps do not count.
cp "$(command -v sleep)" ./ds_wake_nap || fail "cannot copy sleep"
# a nap woken on an idle CPU is reported too (the in-kernel probe sees
# the switch out of idle): the CPUs are left alone
# One attempt: naps while the script runs 2 s; 0 when >= 5 wakeups show.
attempt() {
	sh -c 'i=0; while [ $i -lt 40 ]; do ./ds_wake_nap 0.05; i=$((i+1)); done' & w=$!
	"$PMCTRACE" -s "$TESTROOT/../dscripts/wakeup.d" 2 >out 2>err; rc=$?
	kill $w 2>/dev/null; wait $w 2>/dev/null
	[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
	# The nap wakes once per run (up to 20 runs in 2 s): count its latencies.
	n=$(awk '/^ *ds_wake_nap *$/ { s = 1; next } s && NF == 0 { s = 0 } s && $1 ~ /^[0-9]+$/ { t += $NF } END { print t + 0 }' out)
	[ "$n" -ge 5 ]
}
attempt || attempt || attempt || {
	kernel_saw_switch_in ds_wake_nap sh -c 'i=0; while [ $i -lt 40 ]; do ./ds_wake_nap 0.05; i=$((i+1)); done' ||
	    skip "the kernel delivered no switch-in records for the naps (perf record saw none either)"
	cat out; fail "only $n sleep wakeups measured"
}
# Even on a busy machine the nap's wakeups do not wait a whole second.
awk '/^ *ds_wake_nap *$/ { s = 1; next } s && NF == 0 { s = 0 } s && $1 ~ /^[0-9]+$/ && $1 >= 1073741824 && $NF > 0 { exit 1 }' out ||
    { cat out; fail "a wakeup latency of a second or more"; }
exit 0
