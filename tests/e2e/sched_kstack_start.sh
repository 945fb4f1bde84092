# The kernel stacks of sched, isr and dpc probes start at the tracepoint's
# caller (__schedule for a switch), as perf's tracepoint events and
# bpftrace's kstack start them: never in the in-kernel probe's program or
# the machinery that ran it (bpf_trace_run*, __bpf_trace_*, the tracepoint
# iterator __traceiter_* that a second tracer on the same tracepoint brings
# in, perf_trace_*).  Checked on both paths (in-kernel probe and -x nobpf)
# while another run traces the same tracepoints, and in a replay of a
# recording.  ustack() at off-cpu is the leaving thread's (duty's sleep).
. "$TESTROOT/e2e/lib.sh"
need_root
[ -d /sys/kernel/tracing/events/irq/irq_handler_entry ] || sh "$TESTROOT/mount_tracefs.sh" >/dev/null 2>&1
[ -d /sys/kernel/tracing/events/irq/irq_handler_entry ] || skip "no irq tracepoints"
machinery='bpf|__traceiter_|perf_trace_|trace_call_bpf|^ *0x[0-9a-f]+$'
# first_frames FILE: "probe frame" for each key of @[probename, stack(1)]
first_frames() {
	awk '/^  [a-z-]+ +$/ { p = $1; next } p != "" && /`/ { print p, $1 } { p = "" }' "$1" | sort -u
}
# The other tracer: its probes sit on the same tracepoints for the whole test.
"$PMCTRACE" -qn 'BEGIN { printf("ready\n"); }
sched:::off-cpu, sched:::wakeup, isr:::isr, dpc:::dpc { @ = count(); }
tick-1s /++n == 120/ { exit(0); }' >other 2>&1 &
other=$!
trap 'kill $other 2>/dev/null' EXIT
wait_ready other
prog='BEGIN { printf("ready\n"); }
sched:::off-cpu, sched:::on-cpu, sched:::wakeup, isr:::isr, dpc:::dpc { @[probename, stack(1)] = count(); }
sched:::off-cpu /execname == "duty"/ { @u[ustack(1)] = count(); }'
for path in bpf nobpf; do
	x=; [ $path = nobpf ] && x="-x nobpf"
	rm -f rec.data
	# duty: 50 rounds of 1 ms on, 10 ms asleep; dd makes device interrupts
	"$PMCTRACE" $x -E rec.data -qn "$prog" -c "$HELPERS/duty 1 50" >out 2>err &
	p=$!
	wait_ready out
	dd if=/dev/zero of=./ddfile bs=64k count=100 oflag=direct 2>/dev/null
	wait $p || { cat err; fail "$path: status"; }
	first_frames out > frames
	"$PMCTRACE" -E rec.data -qn "$prog" >rout 2>rerr || { cat rerr; fail "$path: replay status"; }
	first_frames rout > rframes
	for f in frames rframes; do
		grep -q '^off-cpu ' $f || { cat out; fail "$path $f: no off-cpu kernel stack"; }
		grep -q '^dpc ' $f || { cat out; fail "$path $f: no dpc kernel stack"; }
		if grep -Eq "$machinery" $f; then
			cat $f; fail "$path $f: a stack starts in the tracing machinery"
		fi
		# a switch's tracepoint is called from __schedule alone
		if grep '^off-cpu ' $f | grep -vq ' vmlinux`__schedule+0x'; then
			cat $f; fail "$path $f: an off-cpu stack does not start at __schedule"
		fi
	done
	# the replay's keys are the live run's (it holds every record delivered)
	expect_eq "$path: replay first frames" "$(cat frames)" "$(cat rframes)"
	grep -Eq '^ +libc\.so\.6`[A-Za-z_]*nanosleep[a-z_0-9]*\+0x[0-9a-f]+$' out ||
	    { cat out; fail "$path: off-cpu ustack() is not duty's sleep"; }
	cp frames frames.$path
done
# Both paths agree on where a switch's and a softirq's stacks start.
expect_eq "bpf vs nobpf off-cpu and dpc" "$(grep -E '^(off-cpu|dpc) ' frames.nobpf | sed 's/+0x.*//' | sort -u)" \
    "$(grep -E '^(off-cpu|dpc) ' frames.bpf | sed 's/+0x.*//' | sort -u)"
exit 0
