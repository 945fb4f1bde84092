#!/bin/sh
# ASSERTION: during a context-switch storm (two threads ping-ponging over
# pipes on one CPU) sched:::off-cpu sees every switch of the storm with no
# drops, and never loses one silently: counted + reported drops always
# cover what the storm made.  tests/helpers/ctxstorm counts its own
# switches (getrusage), the number a lossless tracer must see.  The storm
# fills a ring at 300 000+ records/s; the consumer needs a fifth of a CPU
# to keep up, which a machine with many more runnable tasks than CPUs does
# not give it (measured under load 17 on 2 CPUs: both paths drop, the
# perf path more).  So a run with drops is tried again, each time beside a
# storm through the perf-only path (-x nobpf) in the same conditions: the
# zero-drop claim fails only if the in-kernel probe dropped in every run
# while the perf path dropped in none, i.e. it holds wherever the perf
# path's held.  The zero-drop claim is the optimised build's: under
# AddressSanitizer the consumer runs several times slower, so there only
# the no-silent-loss half is asserted.
# SECTION: sampler (issue 6, the hard case)
[ "$(id -u)" = 0 ] || { echo "needs root for system-wide sched_switch"; exit 77; }
[ -r /sys/kernel/tracing/events/sched/sched_switch/id ] || { echo "no tracefs at /sys/kernel/tracing"; exit 77; }
trips=${STORM_TRIPS:-300000}
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
# storm [OPTIONS]: one storm; sets drops
storm() {
	timeout 120 "$PMCTRACE" "$@" -qn 'sched:::off-cpu /pid == $target/ { @ = count(); }' \
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
perf_dropped=0
for round in 1 2; do
	echo "drops; the perf path in the same conditions, then once more"
	storm -x nobpf
	[ "$drops" = 0 ] || perf_dropped=$((perf_dropped + 1))
	storm
	[ "$drops" = 0 ] && exit 0
done
[ $perf_dropped -gt 0 ] || { echo "the in-kernel probe dropped events in three runs, the perf path in none of two"; exit 1; }
echo "the perf path dropped too ($perf_dropped of 2 runs): the machine is too busy for a lossless consumer; no silent loss"
exit 0
