# ASSERTION: -p with a process that does not exist fails at once, as
# dtrace(1) does: "failed to grab pid N: No such process", exit status 1,
# nothing on stdout (no BEGIN, no END).
. "$TESTROOT/e2e/lib.sh"
need_root
# A pid that surely does not exist: one we just reaped (checked again).
sh -c 'exit 0' & gone=$!
wait $gone
kill -0 $gone 2>/dev/null && skip "pid $gone was reused at once"
timeout 20 "$PMCTRACE" -q -n 'BEGIN { printf("begin\n"); } tick-10ms { @ = count(); }' -p $gone >out 2>err
rc=$?
expect_eq "exit status" 1 "$rc"
expect_eq "stderr" "pmctrace: failed to grab pid $gone: No such process" "$(cat err)"
expect_eq "stdout" "" "$(cat out)"
exit 0
