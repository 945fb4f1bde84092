# ASSERTION: SIGINT and SIGTERM during a run end it as dtrace(1) does: END
# fires, the aggregations print, the exit status is 0, nothing is printed on
# stderr, and the -c command pmctrace created is killed with it (libdtrace
# kills the processes it created when it closes).
. "$TESTROOT/e2e/lib.sh"
need_root
# Tracing is on once pmctrace holds perf fds; a signal sent before its
# handler exists would be lost (a background job of sh starts with SIGINT
# ignored), so wait for that (slow under valgrind), then let it run a while.
wait_tracing() {
	for i in $(seq 1 600); do
		ls -l /proc/$1/fd 2>/dev/null | grep -q 'perf_event' && { sleep 1; return 0; }
		sleep 0.1
	done
	fail "pmctrace $1 never started tracing"
}
for sig in INT TERM; do
	"$PMCTRACE" -q -n 'tick-10ms { @n = count(); }
	    END { printf("end\n"); printa("ticks %@d\n", @n); }' >out 2>err &
	pid=$!
	wait_tracing $pid
	kill -$sig $pid
	wait $pid; rc=$?
	expect_eq "SIG$sig: exit status" 0 "$rc"
	expect_eq "SIG$sig: stderr" "" "$(cat err)"
	expect_eq "SIG$sig: END ran first" "end" "$(head -1 out)"
	n=$(sed -n 's/^ticks \([0-9][0-9]*\)$/\1/p' out)
	[ -n "$n" ] && [ "$n" -gt 10 ] || { cat out; fail "SIG$sig: no tick count printed"; }
	[ -d /proc/$pid ] && fail "SIG$sig: pmctrace still running"

	# With -c: the child dies with pmctrace, the aggregation still prints.
	"$PMCTRACE" -q -n 'profile-97 /pid == $target/ { @ = count(); }' \
	    -c "$HELPERS/pmct_spin 30" >out 2>err &
	pid=$!
	wait_tracing $pid
	child=$(pgrep -P $pid)
	[ -n "$child" ] || fail "SIG$sig: no -c child under pmctrace"
	kill -$sig $pid
	wait $pid; rc=$?
	expect_eq "SIG$sig with -c: exit status" 0 "$rc"
	grep -q '^ *[0-9][0-9]*$' out || { cat out err; fail "SIG$sig with -c: no aggregation"; }
	sleep 0.5
	if kill -0 "$child" 2>/dev/null; then
		kill -KILL "$child"
		fail "SIG$sig with -c: child $child outlived pmctrace"
	fi
done
exit 0
