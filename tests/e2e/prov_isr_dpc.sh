# isr and dpc: handler names, softirq vectors, durations, from the irq
# tracepoints; disk writes with O_DIRECT make device interrupts.
. "$TESTROOT/e2e/lib.sh"
need_root
[ -d /sys/kernel/tracing/events/irq/irq_handler_entry ] || skip "no irq tracepoints"
"$PMCTRACE" -qn '
BEGIN { printf("ready\n"); }
isr:::isr { @isr[args[1], arg3] = count(); @dur = max(arg4); }
dpc:::dpc { @dpc[args[1]] = count(); }
tick-2s { exit(0); }' >out 2>err &
p=$!
wait_ready out
dd if=/dev/zero of=./ddfile bs=64k count=200 oflag=direct 2>/dev/null
sync
wait $p; rc=$?
[ $rc = 0 ] || { cat err; fail "status $rc"; }
grep -Eq '^  (TIMER|RCU|SCHED) +[0-9]+$' out || { cat out; fail "no TIMER/RCU/SCHED softirqs"; }
if grep -q virtio /proc/interrupts || grep -q ahci /proc/interrupts || grep -q nvme /proc/interrupts; then
	grep -Eq '^  [a-z].* +[0-9]+ +[0-9]+$' out || { cat out; fail "no interrupt handlers seen during disk writes"; }
fi
# isr::pmc:isr-<counter>: the counter read at entry and exit; task-clock
# accrued inside the handler matches the handler's measured duration.
"$PMCTRACE" -qn '
BEGIN { printf("ready\n"); }
isr::pmc:isr-task-clock { @n = count(); @c = sum(arg5); @d = sum(arg6); }
tick-2s { printa("n %@d\n", @n); printa("c %@d\n", @c); printa("d %@d\n", @d); exit(0); }' >out 2>err &
p=$!
wait_ready out
dd if=/dev/zero of=./ddfile bs=64k count=200 oflag=direct 2>/dev/null
wait $p; rc=$?
[ $rc = 0 ] || { cat err; fail "isr::pmc status $rc"; }
n=$(sed -n 's/^n //p' out); c=$(sed -n 's/^c //p' out); d=$(sed -n 's/^d //p' out)
if [ -n "$n" ] && [ "$n" -gt 0 ]; then
	awk -v c="$c" -v d="$d" 'BEGIN { exit !(c > 0 && c <= d * 1.2 + 100000) }' ||
	    fail "isr::pmc: task-clock in handlers $c ns against $d ns of handler time"
fi
# dpc::pmc:dpc-<counter>: the same for softirqs; RCU and TIMER run on any
# machine, and task-clock inside them cannot exceed their duration much.
"$PMCTRACE" -qn '
dpc::pmc:dpc-task-clock { @c = sum(arg5); @d = sum(arg6); @n = count(); }
tick-1s { printa("n %@d\n", @n); printa("c %@d\n", @c); printa("d %@d\n", @d); exit(0); }' >out 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "dpc::pmc status $rc"; }
n=$(sed -n 's/^n //p' out); c=$(sed -n 's/^c //p' out); d=$(sed -n 's/^d //p' out)
[ -n "$n" ] && [ "$n" -gt 0 ] || { cat out err; fail "no dpc::pmc:dpc-task-clock firings"; }
awk -v c="$c" -v d="$d" 'BEGIN { exit !(c > 0 && c <= d * 1.2 + 100000) }' ||
    fail "dpc::pmc: task-clock in softirqs $c ns against $d ns"
exit 0
