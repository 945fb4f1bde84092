# Ctrl-C ends a run: END fires, aggregations print, exit status 0.
. "$TESTROOT/e2e/lib.sh"
need_root
"$PMCTRACE" -n 'profile-997 /pid != 0/ { @c[cpu] = count(); } END { printa(@c); }' \
    -n 'profile-997 /pid != 0 && ++seen == 1/ { printf("sampled\n"); }' >out 2>err &
pid=$!
wait_ready out 'sampled$'	# the handler is set and a sample counted: now ^C
kill -INT $pid
wait $pid; rc=$?
expect_eq "status after SIGINT" 0 "$rc"
expect_grep "description 'profile-997 ' matched 2 probes" err
# printa(@c) in END, after the CPU/ID/FUNCTION:NAME line for END.
expect_grep ':END' out
awk 'NF == 2 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ { n++ } END { exit n < 1 }' out || { cat out; fail "no per-CPU rows"; }
# Every perf fd is closed: nothing of ours left in /proc.
[ -d /proc/$pid ] && fail "pmctrace still running"
exit 0
