# dscripts/isr.d: direct writes to disk raise the disk's interrupt; the
# irqs whose count grew in /proc/interrupts show up by number and name.
. "$TESTROOT/e2e/lib.sh"
need_root
ls /sys/kernel/tracing/events/irq/irq_handler_entry >/dev/null 2>&1 ||
    ls /sys/kernel/debug/tracing/events/irq/irq_handler_entry >/dev/null 2>&1 ||
    skip "no irq:irq_handler_entry tracepoint"
snap() { awk '$1 ~ /^[0-9]+:$/ { t = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) t += $i; print substr($1, 1, length($1) - 1), t }' /proc/interrupts | sort; }
snap >before
( sleep 0.3; dd if=/dev/zero of=ddfile bs=64k count=400 oflag=direct 2>/dev/null; sync ) & w=$!
"$PMCTRACE" -s "$TESTROOT/../dscripts/isr.d" 2 >out 2>err; rc=$?
wait $w
snap >after
rm -f ddfile
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
head -1 out | grep -q '^IRQ HANDLER  *COUNT  *TOTAL_NS$' || { cat out; fail "header"; }
grew=$(join before after | awk '$3 > $2 { print $1 }')
[ -n "$grew" ] || skip "no device interrupt fired during the run"
found=
for irq in $grew; do
	awk -v q="$irq" '$1 == q && NF == 4 && $3 > 0 && $4 > 0 { ok = 1 } END { exit !ok }' out && found="$found $irq"
done
[ -n "$found" ] || { cat out; fail "none of the irqs that fired ($grew) is in the table"; }
# Each handler in the table has its duration histogram.
for h in $(awk 'NR > 1 && NF == 4 && $1 ~ /^[0-9]+$/ { print $2 }' out); do
	grep -q "^ *$h *\$" out || { cat out; fail "no histogram for $h"; }
done
exit 0
