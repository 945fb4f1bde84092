#!/bin/sh
# ASSERTION: where no CPU PMU is exposed, a script naming a hardware counter
#   fails at compile time with exit 1 and the "needs a hardware PMU, and
#   none is exposed here" message; the same script with a software counter
#   runs.
# SECTION: pmu / capability probing
dev=/sys/bus/event_source/devices
for d in "$dev"/cpu "$dev"/cpu_core "$dev"/armv8_* "$dev"/armv9_*; do
	[ -e "$d" ] && { echo "this machine exposes a CPU PMU ($d)"; exit 77; }
done
err=$(mktemp); trap 'rm -f "$err"' EXIT

timeout 30 "$PMCTRACE" -q -n 'pmc:::instructionretired-100000 { @n = count(); } tick-1s { exit(0); }' \
    > /dev/null 2> "$err"
rc=$?
[ $rc = 1 ] || { echo "hardware counter: exit $rc, want 1"; cat "$err"; exit 1; }
grep -q 'instructionretired needs a hardware PMU, and none is exposed here' "$err" ||
	{ echo "no no-PMU message"; cat "$err"; exit 1; }
grep -q 'software counters work: cpu-clock, task-clock, page-faults, context-switches' "$err" ||
	{ echo "no pointer to the software counters"; cat "$err"; exit 1; }

timeout 30 "$PMCTRACE" -q -n 'pmc:::cpu-clock-1000000 { @n = count(); } tick-1s { exit(0); }' \
    > /dev/null 2> "$err"
rc=$?
[ $rc = 0 ] || { echo "software counter: exit $rc, want 0"; cat "$err"; exit 1; }
echo "no-PMU statement and software fallback: ok"
