# ASSERTION: nothing of pmctrace's outlives it or leaks into its target:
#  - the -c command inherits no descriptor of pmctrace's (perf fds, epoll,
#    pipes, files it opened): it sees exactly the descriptors this shell has;
#  - a -c command still running when the program calls exit() is killed
#    with pmctrace (libdtrace kills the processes it created);
#  - after a run, no process started by pmctrace is left.
. "$TESTROOT/e2e/lib.sh"
need_root
cp "$HELPERS/pmct_spin" ./pmct_leakspin
# The descriptors of a process, as "fd target" lines.
fds() { ls -l /proc/$1/fd | awk 'NR > 1 { print $9, $11 }' | sort; }
sh -c 'exec sleep 2' >out 2>err & base=$!
wait_asleep $base sleep
fds $base > want
wait $base
"$PMCTRACE" -q -n 'profile-97 { @ = count(); } tick-1s { exit(0); }' -c "sleep 3" >out 2>err &
pid=$!
for i in $(seq 1 200); do
	child=$(pgrep -P $pid -x sleep) && break
	sleep 0.05
done
[ -n "$child" ] || fail "no -c child seen"
wait_asleep $child sleep	# released: it has exec'd and sleeps
fds $child > got
wait $pid
expect_eq "-c child's descriptors (as a command started from this shell)" "$(cat want)" "$(cat got)"

# exit() while the -c command still runs: it must not outlive pmctrace.
"$PMCTRACE" -q -n 'tick-1s { exit(0); }' -c "./pmct_leakspin 30" >out 2>err; rc=$?
expect_eq "exit() with -c: status" 0 "$rc"
gone pmct_leakspin || { left=$(pgrep -x pmct_leakspin); kill -KILL $left; fail "the -c command outlived pmctrace: $left"; }
exit 0
