#!/bin/sh
# ASSERTION: -E FILE with a FILE that does not exist records the live run
# into it; perf script and perf report read the file, perf script sees as
# many samples as a replay of it with -E fires profile-* and tick-* probes, and it
# names a process that was running before the recording started.
# SECTION: sampler (issue 6, files)
[ "$(id -u)" = 0 ] || { echo "needs root for system-wide profiling"; exit 77; }
command -v perf >/dev/null 2>&1 || { echo "perf is not installed"; exit 77; }
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
f=$dir/rec.data
# A spinner that exists before pmctrace starts.
"$HELPERS/pmct_spin" 3 >/dev/null 2>&1 &
spin=$!
sleep 0.2
timeout 60 "$PMCTRACE" -q -E "$f" -n 'profile-997 { @n = count(); } tick-1s { exit(0); }' \
	> "$dir/live.out" 2> "$dir/live.err"
rc=$?
kill $spin 2>/dev/null; wait $spin 2>/dev/null
cat "$dir/live.out" "$dir/live.err"
[ $rc = 0 ] || { echo "pmctrace -E $f exited $rc"; exit 1; }
[ -s "$f" ] || { echo "no file written"; exit 1; }
# Every sample in the file: profile-997's and tick-1s's (each replays as
# the probe that recorded it).
n_perf=$(perf script -F event -i "$f" 2>/dev/null | grep -c .)
perf report --stdio -i "$f" > "$dir/report.txt" 2>&1 || { cat "$dir/report.txt"; echo "perf report failed"; exit 1; }
timeout 60 "$PMCTRACE" -q -E "$f" -n 'profile-*, tick-* { @n = count(); }' > "$dir/replay.out" 2>&1 ||
	{ cat "$dir/replay.out"; echo "replay failed"; exit 1; }
n_replay=$(awk 'NF == 1 && $1 ~ /^[0-9]+$/ {print $1}' "$dir/replay.out")
echo "perf script saw $n_perf samples; replay counted $n_replay"
[ "$n_perf" -gt 100 ] || { echo "too few samples for 1 s on every CPU"; exit 1; }
[ "$n_perf" = "$n_replay" ] || { echo "perf and replay disagree"; exit 1; }
perf script -F comm -i "$f" 2>/dev/null | grep -q pmct_spin || { echo "pre-existing process not named"; exit 1; }
exit 0
