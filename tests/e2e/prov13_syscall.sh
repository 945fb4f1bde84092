# syscall provider: entry args, return values (and -errno), the raw
# all-syscalls path (syscall:::entry) and the per-syscall tracepoint path,
# globs over Linux names, and the -l listing.
. "$TESTROOT/e2e/lib.sh"
need_root
# a dd of our own name, so other dd processes on the machine do not count
cp "$(command -v dd)" ./p13dd
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
syscall::read:return /execname == "p13dd"/ { @ = quantize(arg0); }
syscall::write:entry /execname == "p13dd"/ { @w[arg2] = count(); }
syscall::openat:return /execname == "cat"/ { @r[arg1] = count(); }
BEGIN { printf("ready\n"); }' >out 2>err &
p=$!
wait_ready out
./p13dd if=/dev/zero of=/dev/null bs=4k count=100 2>/dev/null
cat /nonexistent-p13 2>/dev/null
kill -INT $p
wait $p || { cat err; fail "status $?"; }
grep -Eq '^ +4096 \|@+ +(10[0-9]|1[1-9][0-9]) *$' out || { cat out; fail "read:return quantize lacks 100 reads of 4096"; }
grep -Eq '^ +4096 +100$' out || { cat out; fail "write:entry arg2 != 4096 x100"; }
grep -Eq '^ +-2 +[0-9]+$' out || { cat out; fail "openat:return of a missing file is not -ENOENT"; }

# errno on return; copyinstr of a path on the caller's stack, read from the
# snapshot taken at the call (the process is gone by the time it is read)
cat >p13open.c <<'C'
#include <fcntl.h>
#include <stdio.h>
int main(void) {
	char path[64];
	snprintf(path, sizeof(path), "/nonexistent-p13/%s", "stack-path");
	return open(path, O_RDONLY) < 0 ? 0 : 1;
}
C
if command -v cc >/dev/null && cc -O1 -o p13open p13open.c; then
	"$PMCTRACE" -qn '
	syscall::openat:entry /execname == "p13open"/ { printf("path=%s\n", copyinstr(arg1)); }
	syscall::openat:return /execname == "p13open" && errno/ { printf("errno=%d\n", errno); }
	BEGIN { printf("ready\n"); }' >out3 2>err3 &
	p=$!
	wait_ready out3
	./p13open
	kill -INT $p
	wait $p || { cat err3; fail "status $?"; }
	expect_grep '^path=/nonexistent-p13/stack-path$' out3
	expect_grep '^errno=2$' out3
fi

# raw_syscalls: every syscall, counted by process
"$PMCTRACE" -qn 'syscall:::entry { @num[execname] = count(); } BEGIN { printf("ready\n"); }' >out2 2>err2 &
p=$!
wait_ready out2
./p13dd if=/dev/zero of=/dev/null bs=512 count=3000 2>/dev/null
kill -INT $p
wait $p || { cat err2; fail "status $?"; }
n=$(awk '$1 == "p13dd" { print $2 }' out2)
[ -n "$n" ] && [ "$n" -ge 6000 ] || { cat out2; fail "dd made $n syscalls, want >= 6000"; }
exit 0
