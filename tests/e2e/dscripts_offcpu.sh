# dscripts/offcpu.d: a shell that naps 0.3 s at a time shows up as
# "ds_off_nap ... blocked" with its time off the CPU in the 2^28 ns bucket,
# and its nanosleep stack among the stacks it waited in.
. "$TESTROOT/e2e/lib.sh"
need_root
# sleep under a name of its own, so that other processes' sleeps do not count.
cp "$(command -v sleep)" ./ds_off_nap || fail "cannot copy sleep"
# a nap woken on an idle CPU is reported too (the in-kernel probe sees
# the switch out of idle): the CPUs are left alone
# One attempt: naps while the script runs 2 s; 0 when the naps show.
attempt() {
	sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do ./ds_off_nap 0.3; done' & w=$!
	"$PMCTRACE" -s "$TESTROOT/../dscripts/offcpu.d" 2 ds_off_nap >out 2>err; rc=$?
	kill $w 2>/dev/null; wait $w 2>/dev/null
	[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
	# In the nap's blocked histogram: the rows are "value |bars count", the
	# 268435456 bucket (268..536 ms) holds the naps.
	n=$(awk '/^ *ds_off_nap  *blocked *$/ { s = 1; next } s && NF == 0 { s = 0 } s && $1 == 268435456 { print $NF }' out)
	[ -n "$n" ] && [ "$n" -ge 3 ]
}
attempt || attempt || attempt || {
	kernel_saw_switch_in ds_off_nap sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do ./ds_off_nap 0.3; done' ||
	    skip "the kernel delivered no switch-in records for the naps (perf record saw none either)"
	cat out; fail "ds_off_nap blocked 0.3 s: bucket 268435456 has '$n', want >= 3"
}
expect_grep 'value  *-* Distribution -* count' out
# Then the stacks where the naps waited longest: in the kernel's nanosleep,
# reached from libc's clock_nanosleep; only ds_off_nap, as asked.
awk '/vmlinux`__schedule/ { s = 1 } s' out > stacks
grep -q 'vmlinux`do_nanosleep' stacks && grep -q 'libc.so.6`.*clock_nanosleep' stacks ||
    { head -40 stacks; fail "no nanosleep stack for the naps"; }
n=$(grep -c '^  [a-z]' stacks); o=$(grep -c '^  ds_off_nap ' stacks)
[ "$n" -ge 1 ] && [ "$n" = "$o" ] || { head -40 stacks; fail "stacks of other processes ($o of $n)"; }
exit 0
