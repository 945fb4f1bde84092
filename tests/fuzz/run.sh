#!/bin/sh
# Run every built libFuzzer target for a bounded time (make fuzz).
# Usage: tests/fuzz/run.sh BUILD [SECONDS]   (run from the repository root)
# For each BUILD/fuzz/fuzz_NAME:
#  1. every saved reproducer in tests/fuzz/regressions/fuzz_NAME/ is run once;
#  2. fuzzing for SECONDS in fork mode, continuing past crashes so one known
#     bug does not hide the next; new inputs go to BUILD/corpus/fuzz_NAME
#     (the seeds in tests/fuzz/corpus/ are only read), crashing inputs to
#     BUILD/artifacts/fuzz_NAME/.
# Prints one line per target: executions, crashes (distinct inputs saved),
# reproducers still failing.  Exit 1 if any target crashed or a reproducer
# still fails.
build=${1:-build-fuzz}; secs=${2:-60}
status=0
for bin in "$build"/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	t=$(basename "$bin")
	work="$build/corpus/$t"; art="$build/artifacts/$t"; log="$build/fuzz-$t.log"
	mkdir -p "$work" "$art"
	regfail=0; nreg=0
	for r in tests/fuzz/regressions/"$t"/*; do
		[ -f "$r" ] || continue
		nreg=$((nreg + 1))
		"$bin" -rss_limit_mb=2048 "$r" >"$log.reg" 2>&1 || { regfail=$((regfail + 1)); echo "  reproducer still fails: $r"; }
	done
	dict=""; [ -f "tests/fuzz/$t.dict" ] && dict="-dict=tests/fuzz/$t.dict"
	before=$(ls "$art" | wc -l)
	"$bin" -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 \
		-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=131072 \
		-artifact_prefix="$art/" $dict "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1
	# Fork mode's progress lines: "#EXECS: cov: .. crash: C .." (the last one counts).
	execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
	crashes=$(($(ls "$art" | wc -l) - before))
	echo "$t: ${execs:-0} executions in ${secs}s, $crashes new crashing inputs (in $art), $nreg reproducers, $regfail still failing"
	[ "$crashes" -eq 0 ] && [ "$regfail" -eq 0 ] || status=1
done
exit $status
