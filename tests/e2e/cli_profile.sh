# profile-99 on every CPU counts a busy process by name; tick-2s ends it.
# The count is checked against the spinner's own CPU time in the run
# (/proc/PID/stat, in clock ticks), so that a loaded machine, where it gets
# a small share, is no failure.
. "$TESTROOT/e2e/lib.sh"
need_root
# Niced up: the counts below need it to get a real share of a CPU even
# when every CPU is saturated (make test-stress).
nice -n -10 "$HELPERS/pmct_spin" 60 & spin=$!
ticks() { awk '{ print $14 + $15 }' /proc/$spin/stat; }
t0=$(ticks)
"$PMCTRACE" -qn 'profile-99 { @[execname] = count(); } tick-2s { exit(0); }' >out 2>err; rc=$?
t1=$(ticks)
kill $spin 2>/dev/null; wait $spin 2>/dev/null
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
expect_grep 'pmct_spin' out
# DTrace's default printa layout: a blank line, then key and count columns.
n=$(awk '$1 == "pmct_spin" { print $2 }' out)
# 99 Hz of its CPU time: at most what it ran from before pmctrace started to
# after it ended (and never above 2 s of it), at least a quarter of that
# (pmctrace's own start-up and exit are in the window, not sampled).
hz=$(getconf CLK_TCK)
cpu=$(( (t1 - t0) * 99 / hz ))
[ -n "$n" ] && [ "$n" -ge $((cpu / 4 - 2)) ] && [ "$n" -le $((cpu + 5)) ] && [ "$n" -le 260 ] ||
    fail "pmct_spin sampled $n times in 2 s at 99 Hz; its CPU time in the run makes $cpu"
exit 0
