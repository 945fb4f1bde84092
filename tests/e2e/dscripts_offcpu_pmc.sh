# dscripts/offcpu_pmc.d with task-clock: three spinners share two CPUs, so
# they are switched out often; what task-clock counted over each time slice
# is charged to them, and the total matches the CPU time there was.
. "$TESTROOT/e2e/lib.sh"
need_root
ncpu=$(getconf _NPROCESSORS_ONLN)
for i in 1 2 3; do "$HELPERS/pmct_spin" 5 & done
"$PMCTRACE" -s "$TESTROOT/../dscripts/offcpu_pmc.d" task-clock 2 >out 2>err; rc=$?
kill $(jobs -p) 2>/dev/null; wait
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
expect_grep '^task-clock accrued per process:' out
expect_grep '^task-clock accrued per user stack at the switch:' out
# task-clock counts nanoseconds: the spinners had most of ncpu x 2 s.
spin=$(awk '/per process:/ { s = 1; next } /per user stack/ { s = 0 } s && $1 == "pmct_spin" { print $2 }' out)
all=$(awk '/per process:/ { s = 1; next } /per user stack/ { s = 0 } s && NF == 2 { t += $2 } END { printf "%.0f", t }' out)
[ -n "$spin" ] || { cat out; fail "pmct_spin not charged"; }
awk -v s="$spin" -v a="$all" -v n="$ncpu" 'BEGIN {
	if (s < 0.25e9 * n || a > 2.6e9 * n) exit 1 }' ||
    { cat out; fail "pmct_spin charged $spin ns, all $all ns; want >= $ncpu x 0.25 s and <= $ncpu x 2.6 s"; }
# Per stack: the spinners' user stacks, where they were preempted.
expect_grep '`spin_leaf' out
exit 0
