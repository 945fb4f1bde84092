# Second-wave providers on a recording: a live run recorded with -E, then
# replayed with -E, gives the same aggregations, and -l lists only what
# the file holds.
. "$TESTROOT/e2e/lib.sh"
need_root
[ -d /sys/kernel/tracing/events/raw_syscalls/sys_enter ] || skip "no raw_syscalls tracepoints"
[ -d /sys/kernel/tracing/events/sched/sched_process_fork ] || skip "no sched_process_fork tracepoint"
rm -f p13rec.data
# a dd of our own name, so no other dd on the machine counts
cp "$(command -v dd)" ./p13dd
prog='syscall::read:return /execname == "p13dd"/ { @r = count(); }
syscall:::entry /execname == "p13dd"/ { @e[probefunc] = count(); }
tracepoint:sched:sched_process_fork /args->parent_pid == $1/ { @f[args->parent_comm] = count(); }
proc:::exec-success /execname == "p13dd"/ { @x = count(); }
BEGIN { printf("ready\n"); }'
"$PMCTRACE" -qn "$prog" -E p13rec.data $$ >live 2>err &
p=$!
wait_ready live
./p13dd if=/dev/zero of=/dev/null bs=4k count=77 2>/dev/null
for i in 1 2 3; do /bin/true; done
kill -INT $p
wait $p || { cat err; fail "recording run status $?"; }
[ -s p13rec.data ] || fail "nothing recorded"
"$PMCTRACE" -qn "$prog" -E p13rec.data $$ >replay 2>err2 || { cat err2; fail "replay status $?"; }
diff live replay >d || { cat d; fail "replay differs from the live run"; }
grep -Eq '^  read +(7[7-9]|8[0-9])$' replay || { cat replay; fail "no 77..89 read entries by dd"; }
"$PMCTRACE" -l -E p13rec.data >list 2>&1
grep -Eq ' syscall +read return$' list || { cat list; fail "replay -l lacks syscall::read:return"; }
grep -Eq ' tracepoint +sched +sched_process_fork$' list || { cat list; fail "replay -l lacks the fork tracepoint"; }
! grep -q ' tracepoint +block ' list || fail "replay -l lists tracepoints the file lacks"
exit 0
