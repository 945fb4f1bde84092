# tracepoint provider: any tracefs event, three- and four-part names,
# fields as arg0..argN (strings and integers) and as args->field, the -l listing.
. "$TESTROOT/e2e/lib.sh"
need_root
# a dd of our own name, so other dd processes on the machine do not count
cp "$(command -v dd)" ./p13dd
[ -d /sys/kernel/tracing/events/sched/sched_process_fork ] || skip "no sched:sched_process_fork in tracefs"
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_write ] || skip "no syscalls:sys_enter_write in tracefs"
"$PMCTRACE" -l >list 2>&1 || { cat list; fail "-l"; }
# Other runs' uprobe groups (pmctrace_PID) come and go meanwhile: not counted.
n=$(grep '^ *[0-9]* tracepoint ' list | grep -vc ' pmctrace_[0-9]')
t=$(ls -d /sys/kernel/tracing/events/*/*/ | grep -v '/ftrace/' | grep -vc '/pmctrace_[0-9]')
[ "$n" = "$t" ] || fail "-l lists $n tracepoints, tracefs has $t"
grep -Eq ' tracepoint +sched +sched_process_fork$' list || fail "sched_process_fork not listed"
"$PMCTRACE" -lv -n 'tracepoint:sched:sched_process_fork' >lv 2>&1
grep -q 'args\[0\]: string' lv && grep -q 'args\[1\]: int32_t' lv || { cat lv; fail "-lv arg types"; }

"$PMCTRACE" -qn '
tracepoint:sched:sched_process_fork /args[0] == "sh" && arg1 == $1/ { @forks[args[0]] = count(); }
tracepoint:syscalls::sys_enter_write /execname == "p13dd"/ { @w[arg3] = count(); }
BEGIN { printf("ready\n"); }' $$ >out 2>err &
p=$!
wait_ready out
for i in 1 2 3 4 5 6 7 8 9 10; do /bin/true; done
./p13dd if=/dev/zero of=/dev/null bs=4k count=50 2>/dev/null
kill -INT $p
wait $p || { cat err; fail "status $?"; }
grep -Eq '^  sh +1[0-9]$' out || { cat out; fail "fewer than 10 forks by this shell"; }
grep -Eq '^ +4096 +50$' out || { cat out; fail "sys_enter_write count field != 4096 x50"; }

# typed: bare args is the event's struct (the one-liner as written)
"$PMCTRACE" -n 'tracepoint:sched:sched_process_fork { @[args->parent_comm] = count(); }
tracepoint:syscalls:sys_enter_write /execname == "p13dd" && args->count == 4096/ { @n = count(); }
END { printa("writes=%@d\n", @n); }' -n 'BEGIN { printf("ready\n"); }' >out3 2>err3 &
p=$!
wait_ready out3 ':BEGIN ready$'
for i in 1 2 3 4 5 6 7 8 9 10; do /bin/true; done
./p13dd if=/dev/zero of=/dev/null bs=4k count=30 2>/dev/null
kill -INT $p
wait $p || { cat err3; fail "typed run status $?"; }
n=$(awk '$1 == "sh" { print $2 }' out3)
[ -n "$n" ] && [ "$n" -ge 10 ] || { cat out3; fail "args->parent_comm: $n forks by sh, want >= 10"; }
expect_grep 'writes=30$' out3
exit 0
