# syscall provider: entry args, return values (and -errno), the raw
# all-syscalls path (syscall:::entry) and the per-syscall tracepoint path,
# globs over Linux names, and the -l listing.
. "$TESTROOT/e2e/lib.sh"
need_root
[ -d /sys/kernel/tracing/events/raw_syscalls/sys_enter ] || skip "no raw_syscalls tracepoints in tracefs"
"$PMCTRACE" -l -P syscall >list 2>&1 || { cat list; fail "-l -P syscall"; }
grep -Eq '^ +[0-9]+ +syscall +read entry$' list || fail "no syscall::read:entry in -l"
grep -Eq '^ +[0-9]+ +syscall +openat return$' list || fail "no syscall::openat:return in -l"
[ "$(grep -c ' syscall ' list)" -gt 600 ] || fail "fewer than 300 syscalls listed"
"$PMCTRACE" -l -n 'syscall::open*:entry' >glob 2>&1
grep -q ' openat entry$' glob && grep -q ' open entry$' glob || { cat glob; fail "open* glob"; }
! grep -q return glob || fail "open*:entry listed a return probe"

# per-syscall tracepoints (few syscalls enabled)
"$PMCTRACE" -qn '
syscall::read:return /execname == "dd"/ { @ = quantize(arg0); }
syscall::write:entry /execname == "dd"/ { @w[arg2] = count(); }
syscall::openat:return /execname == "cat"/ { @r[arg1] = count(); }
tick-2s { exit(0); }' >out 2>err &
p=$!
sleep 0.7
dd if=/dev/zero of=/dev/null bs=4k count=100 2>/dev/null
cat /nonexistent-p13 2>/dev/null
wait $p || { cat err; fail "status $?"; }
grep -Eq '^ +4096 \|@+ +(10[0-9]|1[1-9][0-9]) *$' out || { cat out; fail "read:return quantize lacks 100 reads of 4096"; }
grep -Eq '^ +4096 +100$' out || { cat out; fail "write:entry arg2 != 4096 x100"; }
grep -Eq '^ +-2 +[0-9]+$' out || { cat out; fail "openat:return of a missing file is not -ENOENT"; }

# raw_syscalls: every syscall, counted by process
"$PMCTRACE" -qn 'syscall:::entry { @num[execname] = count(); } tick-2s { exit(0); }' >out2 2>err2 &
p=$!
sleep 0.7
dd if=/dev/zero of=/dev/null bs=512 count=3000 2>/dev/null
wait $p || { cat err2; fail "status $?"; }
n=$(awk '$1 == "dd" { print $2 }' out2)
[ -n "$n" ] && [ "$n" -ge 6000 ] || { cat out2; fail "dd made $n syscalls, want >= 6000"; }
exit 0
