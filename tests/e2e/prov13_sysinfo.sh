# sysinfo provider: readch/writech bytes and sysread/syswrite calls for a
# dd of known size.
. "$TESTROOT/e2e/lib.sh"
need_root
# a dd of our own name, so other dd processes on the machine do not count
cp "$(command -v dd)" ./p13dd
[ -d /sys/kernel/tracing/events/syscalls/sys_exit_read ] || skip "no syscalls:sys_exit_read tracepoint in tracefs"
"$PMCTRACE" -qn '
sysinfo:::readch { @bytes[execname] = sum(arg0); }
sysinfo:::writech /execname == "p13dd"/ { @w = sum(arg0); }
sysinfo:::sysread /execname == "p13dd"/ { @r = count(); }
BEGIN { printf("ready\n"); }
END { printa("w=%@d\n", @w); printa("r=%@d\n", @r); }' >out 2>err &
p=$!
wait_ready out
./p13dd if=/dev/zero of=/dev/null bs=4000 count=250 2>/dev/null
kill -INT $p
wait $p || { cat err; fail "status $?"; }
b=$(awk '$1 == "p13dd" { print $2 }' out)
# dd also reads a few bytes at start-up (locale files, libraries)
[ -n "$b" ] && [ "$b" -ge 1000000 ] && [ "$b" -lt 1100000 ] || { cat out; fail "dd readch $b, want ~1000000"; }
w=$(sed -n 's/^w=//p' out)
[ -n "$w" ] && [ "$w" -ge 1000000 ] || { cat out; fail "writech $w < 1000000"; }
r=$(sed -n 's/^r=//p' out)
[ -n "$r" ] && [ "$r" -ge 251 ] && [ "$r" -lt 300 ] || { cat out; fail "sysread $r, want 251..299"; }
exit 0
