# io provider: io:::start/done for direct writes the test makes on a
# block-device file system; bytes, flags, device name, completion status.
. "$TESTROOT/e2e/lib.sh"
need_root
# a dd of our own name, so other dd processes on the machine do not count
cp "$(command -v dd)" ./p13dd
for e in block_rq_issue block_rq_complete; do
	[ -d /sys/kernel/tracing/events/block/$e ] || skip "no block:$e tracepoint in tracefs"
done
dir=
for d in . /var/tmp; do
	case $(findmnt -n -o SOURCE -T "$d" 2>/dev/null) in /dev/*) dir=$d; break ;; esac
done
[ -n "$dir" ] || skip "no directory on a block device to write to"
f=$dir/p13io.$$
# completions come from interrupts, which this kernel does not report to
# perf when they land in the idle loop (lib.sh): keep the CPUs busy
busy_cpus 12
trap stop_busy EXIT
"$PMCTRACE" -l -P io >list 2>&1
grep -Eq ' io +start$' list && grep -Eq ' io +done$' list || { cat list; fail "io probes not listed"; }
"$PMCTRACE" -qn '
BEGIN { printf("ready\n"); }
io:::start /execname == "p13dd" && args[0]->b_bcount == 65536/ {
	@s[args[0]->b_flags & B_WRITE ? "W" : "R"] = count();
	printf("start %d %s %d %s\n", pid, execname, args[0]->b_bcount, args[1]->dev_statname);
}
io:::done /args[0]->b_bcount == 65536/ { @d[args[0]->b_error, args[2]->fi_name] = count(); }' >out 2>err &
p=$!
wait_ready out
./p13dd if=/dev/zero of="$f" bs=64k count=20 oflag=direct 2>/dev/null &
dd=$!
wait $dd	# direct writes: each one completed before dd goes on
rm -f "$f"
kill -INT $p
wait $p || { cat err; fail "status $?"; }
n=$(grep -c "^start $dd p13dd 65536 " out)
[ "$n" -ge 20 ] || { cat out; fail "$n io:::start of 64k by dd $dd, want >= 20"; }
dev=$(grep -m1 '^start' out | awk '{ print $5 }')
[ -e "/sys/class/block/$dev" ] || { cat out; fail "device name '$dev' is not a block device"; }
grep -Eq '^  W +(2[0-9]|[3-9][0-9])$' out || { cat out; fail "b_flags lacks B_WRITE on the writes"; }
# Completions arrive from interrupts and the kernel may merge requests,
# so their count varies with load; that io:::done fires, with error 0 and
# the request's size, is what is checked.
if ! grep -Eq '^ +0  <none> +[0-9]+$' out; then
	# This kernel may emit block_rq_issue but no block_rq_complete at all
	# (perf record sees none either, even with the CPUs busy): then
	# io:::done cannot fire.
	command -v perf >/dev/null || { cat out; fail "no io:::done with error 0 for the 64k writes"; }
	perf record -q -a -e block:block_rq_complete -o p13blk.data -- \
	    ./p13dd if=/dev/zero of="$f" bs=64k count=20 oflag=direct 2>/dev/null
	rm -f "$f"
	n=$(perf script -i p13blk.data 2>/dev/null | grep -c block_rq_complete)
	rm -f p13blk.data
	[ "$n" -eq 0 ] || { cat out; fail "no io:::done with error 0 (perf record saw $n block_rq_complete)"; }
	echo "note: the kernel emits no block_rq_complete here (perf record saw none); io:::done not checked"
fi

# the issue's one-liner, as written, and a BEGIN clause that says ready
"$PMCTRACE" -n 'io:::start { printf("%d %s %d", pid, execname, args[0]->b_bcount); }' \
    -n 'BEGIN { printf("ready\n"); }' >out2 2>err2 &
p=$!
wait_ready out2 ':BEGIN ready$'
./p13dd if=/dev/zero of="$f" bs=64k count=5 oflag=direct 2>/dev/null &
dd=$!
wait $dd
rm -f "$f"
kill -INT $p; wait $p
grep -Eq ":start $dd p13dd 65536\$" out2 || { cat out2 err2; fail "one-liner printed no 64k start by dd"; }
exit 0
