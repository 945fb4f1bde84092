# dscripts/dpc.d: softirq vectors by CPU, with counts no larger than the
# kernel's own /proc/softirqs counted over a wider window.
. "$TESTROOT/e2e/lib.sh"
need_root
# A name of its own, so that other tests' spinners do not count here.
cp "$HELPERS/pmct_spin" ./ds_dpc_spin || fail "cannot copy the helper"
ls /sys/kernel/tracing/events/irq/softirq_entry >/dev/null 2>&1 ||
    ls /sys/kernel/debug/tracing/events/irq/softirq_entry >/dev/null 2>&1 ||
    skip "no irq:softirq_entry tracepoint"
snap() { awk 'NR > 1 { t = 0; for (i = 2; i <= NF; i++) t += $i; sub(":", "", $1); print $1, t }' /proc/softirqs | sort; }
./ds_dpc_spin 3 & spin=$!
snap >before
"$PMCTRACE" -s "$TESTROOT/../dscripts/dpc.d" 2 >out 2>err; rc=$?
snap >after
kill $spin 2>/dev/null; wait $spin 2>/dev/null
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
head -1 out | grep -q '^VECTOR  *CPU  *COUNT  *TOTAL_NS$' || { cat out; fail "header"; }
# Table rows: VECTOR CPU COUNT TOTAL_NS; sum the counts per vector.
awk 'NR > 1 && NF == 4 && $2 ~ /^[0-9]+$/ { c[$1] += $3 } END { for (v in c) print v, c[v] }' out | sort >seen
[ -s seen ] || { cat out; fail "no softirq rows"; }
grep -q '^TIMER ' seen || grep -q '^SCHED ' seen || grep -q '^RCU ' seen || { cat out; fail "no TIMER, SCHED or RCU rows"; }
join before after | awk '{ print $1, $3 - $2 }' | sort >kernel
join seen kernel | while read v ours theirs; do
	[ "$ours" -le "$theirs" ] || { echo "FAIL: $v: $ours seen, the kernel counted $theirs"; exit 1; }
done || exit 1
# A histogram per vector seen.
for v in $(cut -d' ' -f1 seen); do grep -q "^ *$v *\$" out || { cat out; fail "no histogram for $v"; }; done
exit 0
