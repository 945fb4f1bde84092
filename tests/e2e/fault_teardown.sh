# ASSERTION: -c runs `sh -c CMD` as written (cd, assignments, loops work; a
# plain command keeps $target its own pid), and nothing outlives pmctrace:
# after SIGKILL mid-run (-c pipeline, pid probes, -C) or a double ^C, no
# process of the command, no uprobe trace event and no cpp temp file
# remains (at once: the guard acts when the kernel releases the killed
# pmctrace's files); uprobes of a pmctrace killed with its guard go at the
# next start.
. "$TESTROOT/e2e/lib.sh"
need_root
ev=/sys/kernel/tracing/uprobe_events
[ -w $ev ] || skip "tracefs uprobe_events is not writable here"

# sh -c semantics
expect_eq "cd &&" "/tmp" "$("$PMCTRACE" -q -n 'BEGIN {}' -c 'cd /tmp && pwd' 2>/dev/null | head -1)"
expect_eq "assignment" "1" "$("$PMCTRACE" -q -n 'BEGIN {}' -c 'x=1; echo $x' 2>/dev/null | head -1)"
expect_eq "loop" "1 2" "$("$PMCTRACE" -q -n 'BEGIN {}' -c 'for i in 1 2; do echo $i; done' 2>/dev/null | head -2 | tr '\n' ' ' | sed 's/ $//')"
spin=tds$$
cp "$HELPERS/pmct_spin" "./$spin"
"$PMCTRACE" -q -n 'BEGIN { printf("target %d\nready\n", $target); }' -c "./$spin 3" >out 2>err &
pm=$!
wait_ready out
t=$(sed -n 's/^target //p' out); s=$(pgrep -x "$spin")
wait $pm
[ -n "$t" ] && [ "$t" = "$s" ] || fail "plain command: \$target $t is not the command's pid $s"
before_cpp=$(ls /tmp/pmctrace-cpp* 2>/dev/null | wc -l)
# gone TIMEOUT-TENTHS PMPID: nothing of the run remains
gone() {
	i=0
	while pgrep -x "$spin" >/dev/null || grep -q "pmctrace_$2/" $ev ||
	    { [ -n "$g" ] && kill -0 "$g" 2>/dev/null; }; do
		i=$((i+1)); [ $i -gt "$1" ] && return 1; sleep 0.1
	done
	return 0
}
# g := pmctrace $pm's guard.  It names itself after its fork, which on a
# loaded machine can come after pmctrace is ready.
wait_guard() {
	i=0
	while g=$(pgrep -x pmctrace-guard -P $pm); [ -z "$g" ] && [ $i -lt 300 ]; do
		i=$((i+1)); sleep 0.1
	done
}
# start ARGS...: a background pmctrace whose pid probes (on the shell that
# runs the pipeline: $target) are on
start() {
	rm -f out	# a stale ready line would end wait_ready at once
	"$PMCTRACE" -q -n "pid\$target:libc.so.6:malloc:entry { @ = count(); }
	    BEGIN { printf(\"ready\n\"); }" "$@" >out 2>err &
	pm=$!
	wait_ready out
	grep -q "pmctrace_$pm/" $ev || { cat out err; grep pmctrace_ $ev | cut -c1-60; fail "$*: no uprobe event while tracing"; }
	pgrep -x "$spin" >/dev/null || fail "$*: the command is not running"
	wait_guard
	[ -n "$g" ] || fail "$*: no guard process"
}

for how in pipeline cpp; do
	if [ $how = cpp ]; then start -C -c "./$spin 60 | cat"; else start -c "./$spin 60 | cat"; fi
	kill -KILL $pm
	wait $pm 2>/dev/null
	gone 100 $pm || { ps -eo pid,pgid,comm,args | grep -E "$spin|guard"; grep "pmctrace_$pm/" $ev;
	    fail "SIGKILL ($how): the command, its uprobes or the guard remain"; }
done
expect_eq "cpp temp files" "$before_cpp" "$(ls /tmp/pmctrace-cpp* 2>/dev/null | wc -l)"

# a second ^C ends at once and still takes everything down
start -c "./$spin 60 | cat"
kill -INT $pm; kill -INT $pm
wait $pm 2>/dev/null
gone 100 $pm || fail "double ^C: the command, its uprobes or the guard remain"

# guard killed too: the sh dies with pmctrace (PR_SET_PDEATHSIG), and the
# next start removes the uprobe events
rm -f out
"./$spin" 60 & sp=$!
"$PMCTRACE" -q -n "pid\$target:libc.so.6:malloc:entry { @ = count(); }
    BEGIN { printf(\"ready\n\"); }" -p $sp >out 2>err &
pm=$!
wait_ready out
wait_guard
[ -n "$g" ] || fail "no guard process"
kill -KILL $g $pm
g=
wait $pm 2>/dev/null
grep -q "pmctrace_$pm/" $ev || fail "uprobes went without a next start: the test proves nothing"
"$PMCTRACE" -q -n 'BEGIN { exit(0); }' -c true >/dev/null 2>&1
kill $sp; wait $sp 2>/dev/null
gone 1 $pm || { grep "pmctrace_$pm/" $ev; fail "the next start left the killed run's uprobes"; }
exit 0
