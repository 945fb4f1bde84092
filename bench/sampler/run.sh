#!/bin/sh
# Run by bench/sampler/Makefile: BIN, RES, BENCH_QUICK in the environment.
# Prints RESULT lines; details go to $RES.
mkdir -p "$RES"
quick=${BENCH_QUICK:-0}
data=$RES/callchain.data
if [ "$quick" = 1 ]; then rounds=20; trips=100000; else rounds=80; trips=400000; fi

rate() { awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.0f", n / t; else print 0 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "n/a" }'; }
now() { date +%s.%N; }

# ---- replay: a callchain-heavy cpu-clock recording ----
if ! command -v perf >/dev/null 2>&1; then
	echo "RESULT sampler: replay n/a (perf is not installed)"
else
	perf record -q -g -e cpu-clock -c 10000 -o "$data" -- "$BIN/cpu_tree" $rounds \
		>"$RES/record.log" 2>&1
	"$BIN/bench_sampler" replay "$data" > "$RES/replay.txt" || exit 1
	n=$(awk '/^samples/ {print $2}' "$RES/replay.txt")
	ours=$(awk '/^rate/ {print $2}' "$RES/replay.txt")
	stacks=$(awk '/^stacks/ {print $2}' "$RES/replay.txt")

	t0=$(now); perf report --stdio -i "$data" > "$RES/report.txt" 2>/dev/null; t1=$(now)
	rep=$(rate "$n" "$(echo "$t1 - $t0" | bc)")
	# perf script into a folded-stack collapse (frames joined by ';', as
	# stackcollapse-perf does), the usual flame-graph pipeline.
	t0=$(now)
	perf script -i "$data" 2>/dev/null | awk '
		/^[^ \t]/ { if (stack != "") c[comm stack]++; comm = $1; stack = ""; next }
		/^[ \t]+[0-9a-f]+ / { stack = ";" $2 stack; next }
		/^$/ { if (stack != "") c[comm stack]++; stack = "" }
		END { for (k in c) print k, c[k] }' > "$RES/folded.txt"
	t1=$(now)
	scr=$(rate "$n" "$(echo "$t1 - $t0" | bc)")
	echo "RESULT sampler: replay $n samples ($stacks user stacks) $ours samples/s" \
	     "vs perf report $rep/s = $(ratio "$ours" "$rep")x (goal > 1x)," \
	     "vs perf script|collapse $scr/s = $(ratio "$ours" "$scr")x (goal >= 10x)"
fi

# ---- storm: sched_switch system-wide while two threads ping-pong on CPU 0 ----
if [ ! -r /sys/kernel/tracing/events/sched/sched_switch/id ]; then
	echo "RESULT sampler: storm n/a (no tracefs at /sys/kernel/tracing)"
	exit 0
fi
"$BIN/bench_sampler" storm 120 > "$RES/storm.txt" 2>&1 &
cons=$!
i=0; while [ $i -lt 50 ] && ! grep -q ready "$RES/storm.txt"; do sleep 0.1; i=$((i + 1)); done
t0=$(now); "$BIN/ctxsw" $trips 0 > "$RES/ctxsw.log" 2>&1; t1=$(now)
kill -INT $cons; wait $cons
ev=$(awk '/^events/ {print $2}' "$RES/storm.txt")
drops=$(awk '/^drops/ {print $2}' "$RES/storm.txt")
cpu=$(awk '/^cpu/ {print $2}' "$RES/storm.txt")
secs=$(echo "$t1 - $t0" | bc)
echo "RESULT sampler: storm $((2 * trips)) switches of ctxsw in ${secs}s" \
     "($(rate $((2 * trips)) "$secs")/s): saw $ev sched_switch events system-wide," \
     "$drops drops, consumer cpu ${cpu}s (goal 0 drops)"

# ---- live ingest: profile-999 with kernel+user stacks, system-wide ----
if [ "$quick" = 1 ]; then secs=3; else secs=10; fi
"$BIN/bench_sampler" profile $secs > "$RES/profile.txt" 2>&1 &
cons=$!
end=$(($(date +%s) + secs))
while [ "$(date +%s)" -lt $end ]; do "$BIN/cpu_tree" 5 > /dev/null 2>&1; done
wait $cons
echo "RESULT sampler: profile-999 -g system-wide ${secs}s: $(awk '/^events/ {print $2}' "$RES/profile.txt") samples," \
     "$(awk '/^drops/ {print $2}' "$RES/profile.txt") drops, consumer cpu $(awk '/^cpu/ {print $2}' "$RES/profile.txt")s (goal 0 drops)"
