# io provider: io:::start/done for direct writes the test makes on a
# block-device file system; bytes, flags, device name, completion status.
. "$TESTROOT/e2e/lib.sh"
need_root
for e in block_rq_issue block_rq_complete; do
	[ -d /sys/kernel/tracing/events/block/$e ] || skip "no block:$e tracepoint in tracefs"
done
dir=
for d in . /var/tmp; do
	case $(findmnt -n -o SOURCE -T "$d" 2>/dev/null) in /dev/*) dir=$d; break ;; esac
done
[ -n "$dir" ] || skip "no directory on a block device to write to"
f=$dir/p13io.$$
"$PMCTRACE" -l -P io >list 2>&1
grep -Eq ' io +start$' list && grep -Eq ' io +done$' list || { cat list; fail "io probes not listed"; }
"$PMCTRACE" -qn '
io:::start /execname == "dd" && arg0 == 65536/ { @s[args[3]] = count(); printf("start %d %s %d %s\n", pid, execname, arg0, args[5]); }
io:::done /arg0 == 65536/ { @d[arg4] = count(); }
tick-2s { exit(0); }' >out 2>err &
p=$!
sleep 0.7
dd if=/dev/zero of="$f" bs=64k count=20 oflag=direct 2>/dev/null &
dd=$!
wait $dd
rm -f "$f"
wait $p || { cat err; fail "status $?"; }
n=$(grep -c "^start $dd dd 65536 " out)
[ "$n" -ge 20 ] || { cat out; fail "$n io:::start of 64k by dd $dd, want >= 20"; }
dev=$(grep -m1 '^start' out | awk '{ print $5 }')
[ -e "/sys/class/block/$dev" ] || { cat out; fail "device name '$dev' is not a block device"; }
grep -Eq '^  W[A-Z]* +(2[0-9]|[3-9][0-9])$' out || { cat out; fail "no W flags on the writes"; }
grep -Eq '^ +0 +(2[0-9]|[3-9][0-9]|[0-9]{3,})$' out || { cat out; fail "fewer than 20 io:::done with error 0"; }
exit 0
