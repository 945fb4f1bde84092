#!/bin/sh
# ASSERTION: a replayed perf.data names its counters by the machine that
#   recorded it (header CPUID, PMU_MAPPINGS, PMU_CAPS): the Raptor Lake
#   hybrid's cpu_core/cpu_atom cycles as cpu_core.totalcycles and
#   cpu_core.cpu_clk_unhalted.thread, the Sandy Bridge cycles as
#   CPU_CLK_UNHALTED.THREAD_P; the counts are perf script's.  (A Zen 4
#   recording's raw event by its libpfm4 name: test_pmu_model.)
# SECTION: pmu / replay
hy="$FIXTURES/quipper/perf.data.hybrid_topology"	# cycles:ppp, Raptor Lake 6/186, cpu_core + cpu_atom
sb="$FIXTURES/quipper/perf.data.hw_and_sw-3.4"		# cycles + cpu-clock, Sandy Bridge 6/42
for f in "$hy" "$sb"; do [ -r "$f" ] || { echo "fixture $f missing"; exit 1; }; done
out=$(mktemp); err=$(mktemp); trap 'rm -f "$out" "$err"' EXIT

count() {	# count FILE PROBE -> the number of firings, or "none"
	"$PMCTRACE" -q -E "$1" -n "pmc:::$2 { @ = count(); } END { printa(\"%@d\\n\", @); }" \
	    > "$out" 2> "$err" || { echo "$2 on $(basename "$1"): exit $?"; cat "$err"; exit 1; }
	n=$(cat "$out"); echo "${n:-none}"
}
# perf script's own counts are the reference.
want_hy=$(perf script -i "$hy" -F event 2>/dev/null | grep -c 'cpu_core/cycles')
want_sb=$(perf script -i "$sb" -F event 2>/dev/null | grep -c ' cycles:')
[ "$want_hy" -gt 0 ] && [ "$want_sb" -gt 0 ] || { echo "perf script counted nothing"; exit 1; }

for p in cpu_core.cycles cpu_core.totalcycles cpu_core.unhaltedcorecycles cpu_core.cpu_clk_unhalted.thread; do
	n=$(count "$hy" "$p"); [ "$n" = "$want_hy" ] || { echo "hybrid $p: $n, perf: $want_hy"; exit 1; }
done
# the E-cores took no sample, but their counter has its names
n=$(count "$hy" cpu_atom.unhaltedcorecycles); [ "$n" = none ] || { echo "cpu_atom: $n"; exit 1; }
for p in cycles-1000000 totalcycles-1000000 CPU_CLK_UNHALTED.THREAD_P-1000000; do
	n=$(count "$sb" "$p"); [ "$n" = "$want_sb" ] || { echo "snb $p: $n, perf: $want_sb"; exit 1; }
done
# another model's name is no name of the recording's
"$PMCTRACE" -q -E "$sb" -n 'pmc:::RETIRED_INSTRUCTIONS-1000000 { }' > "$out" 2> "$err"
[ $? = 1 ] && grep -q 'does not match any probes' "$err" || { echo "a Zen name matched a Sandy Bridge recording"; exit 1; }
echo "replay names by the recording machine (rpl $want_hy, snb $want_sb samples): ok"
