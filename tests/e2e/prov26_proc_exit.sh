# proc:::exit args[0] is the exit code ($? of the shell), args[1] the
# wait(2) status: exit 3, killed by SIGTERM (the kernel's group-kill
# fast path delivers it as SIGKILL), by SIGSEGV; live and replayed (-E).
. "$TESTROOT/e2e/lib.sh"
need_root
for e in sched/sched_process_exit syscalls/sys_enter_exit_group signal/signal_deliver signal/signal_generate; do
	[ -d /sys/kernel/tracing/events/$e ] || skip "no $e tracepoint in tracefs"
done
"$PMCTRACE" -lv -n proc:::exit >list 2>&1 || { cat list; fail "proc:::exit not listed"; }
grep -q 'args\[0\]: int' list && grep -q 'args\[1\]: int' list || { cat list; fail "proc:::exit args not typed"; }
prog='proc:::exit /pid == $target/ { printf("%s %d %d\n", execname, args[0], args[1]); }'
run() { # $1 command, $2 expected line
	rm -f exit.data
	"$PMCTRACE" -E exit.data -qn "$prog" -c "$1" >out 2>err
	grep -v '^$' out >got
	expect_eq "proc:::exit of $1" "$2" "$(cat got)"
	p=$(sed -n 's/^pmctrace: pid \([0-9]*\) .*/\1/p' err)
	[ -n "$p" ] || { cat err; fail "no pid for $1"; }
	"$PMCTRACE" -E exit.data -qn "proc:::exit /pid == $p/ { printf(\"%s %d %d\\n\", execname, args[0], args[1]); }" >rout 2>rerr ||
	    { cat rerr; fail "replay of $1: status $?"; }
	expect_eq "proc:::exit of $1 replayed" "$2" "$(grep -v '^$' rout)"
}
run "sh -c 'exit 3'" "sh 3 768"
run "sh -c 'kill -TERM \$\$'" "sh 143 15"
run "sh -c 'kill -SEGV \$\$'" "sh 139 11"
