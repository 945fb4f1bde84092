#!/bin/sh
# ASSERTION: during a context-switch storm (two threads ping-ponging over
# pipes on one CPU) sched:::off-cpu sees every switch of the storm with no
# drops, and never loses one silently: counted + reported drops always
# cover what the storm made.  tests/helpers/ctxstorm counts its own
# switches (getrusage), the number a lossless tracer must see.  A run with
# drops is retried once: another storm on a shared machine can starve the
# consumer; two in a row fail.  The zero-drop claim is the optimised
# build's: under AddressSanitizer the consumer runs several times slower,
# so there only the no-silent-loss half is asserted.
# SECTION: sampler (issue 6, the hard case)
[ "$(id -u)" = 0 ] || { echo "needs root for system-wide sched_switch"; exit 77; }
[ -r /sys/kernel/tracing/events/sched/sched_switch/id ] || { echo "no tracefs at /sys/kernel/tracing"; exit 77; }
trips=${STORM_TRIPS:-300000}
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
storm() {
	timeout 120 "$PMCTRACE" -qn 'sched:::off-cpu /pid == $target/ { @ = count(); }' \
		-c "$HELPERS/ctxstorm $trips 0" >"$out" 2>"$err"
	rc=$?
	cat "$out" "$err"
	[ $rc = 0 ] || { echo "pmctrace exited $rc"; exit 1; }
	want=$(awk '/^switches/ {print $2}' "$out")
	got=$(grep -v '^switches' "$out" | awk 'NF == 1 && $1 ~ /^[0-9]+$/ {print $1}')
	drops=$(awk '/drops on CPU/ {n += $2} END {print n + 0}' "$err")
	[ -n "$want" ] && [ -n "$got" ] || { echo "could not read the counts"; exit 1; }
	echo "storm made $want switches; pmctrace counted $got and reported $drops drops"
	# Lost silently: neither seen nor reported.  (The threads' exits add a few.)
	[ $((got + drops)) -ge "$want" ] || { echo "events lost without a drop report"; exit 1; }
	[ "$drops" = 0 ] && { [ "$got" -le $((want + 20)) ] || { echo "count too high"; exit 1; }; }
}
storm
grep -q __asan_init "$PMCTRACE" && exit 0
[ "$drops" = 0 ] && exit 0
echo "drops on the first run; once more"
storm
[ "$drops" = 0 ] || { echo "pmctrace dropped events in two runs"; exit 1; }
exit 0
